"""Where in an e-invoice's XML each value of its data was read: the XPath a citation of an ``embedded_xml`` value
names (``trust.citations``, issue 42).

The readers (``einvoice.read``: CII and UBL into the invoice schema) copy values, never guess them; this module finds,
for each value, the element (or attribute) it was copied from, in the part of the XML the reader reads it from:

* a line item's values in its own line (CII ``IncludedSupplyChainTradeLineItem``, the reader's positions:
  ``read.cii_positions``; UBL ``InvoiceLine`` / ``CreditNoteLine``), a tax line's in its own tax breakdown, the
  seller's and buyer's in their party, the bank account's in the payment means; header values outside the lines;
* among the elements there whose content is the value (text collapsed as the reader collapses it; numbers compared
  as decimals; dates as ``YYYYMMDD`` or ISO; unit and currency codes in their ``unitCode`` / ``currencyID``
  attributes), the one the reader takes that field from (``FIELDS``: its element names), else the only one.

A value the reader derives (``amount_due`` as total - prepaid, a unit price divided by its basis quantity, a street
joined from two lines) or one found in no single place gets no XPath: the citation then says ``xpath: null``
rather than point somewhere wrong.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice.bindings import address_steps
from extractor.einvoice.xmltext import local_name
from extractor.leaves import leaves

# the element names (local) each field is read from, in the reader's order of preference: CII's, then UBL's
FIELDS: dict[str, tuple[str, ...]] = {
    "invoice_number": ("ID",),
    "issue_date": ("IssueDateTime/DateTimeString", "IssueDate"),
    "due_date": ("DueDateDateTime/DateTimeString", "DueDate", "PaymentDueDate"),
    "currency": ("InvoiceCurrencyCode", "DocumentCurrencyCode", "@currencyID"),
    "subtotal": ("LineTotalAmount", "LineExtensionAmount"),
    "total": ("GrandTotalAmount", "TaxInclusiveAmount"),
    "prepaid_amount": ("TotalPrepaidAmount", "PrepaidAmount"),
    "amount_due": ("DuePayableAmount", "PayableAmount"),
    "payment_terms": ("Description", "Note"),
    "name": ("Name", "RegistrationName"),
    **{  # the address's parts: the binding table's elements, CII's then UBL's
        key: tuple(dict.fromkeys(address_steps(key, syntax)[-1] for syntax in ("CII", "UBL")))
        for key in ("street", "postal_code", "city", "country")
    },
    "vat_id": ("ID", "CompanyID"),
    "tax_id": ("ID", "CompanyID"),
    "iban": ("IBANID", "ID"),
    "bic": ("BICID", "ID"),
    "account_holder": ("AccountName", "Name"),
    "description": ("Name", "Description"),
    "quantity": ("BilledQuantity", "InvoicedQuantity", "CreditedQuantity"),
    "unit": ("@unitCode",),
    "unit_price": ("ChargeAmount", "PriceAmount"),
    "tax_rate": ("RateApplicablePercent", "ApplicablePercent", "Percent"),
    "rate": ("RateApplicablePercent", "ApplicablePercent", "Percent"),
    "base": ("BasisAmount", "TaxableAmount"),
}
AMOUNTS = {"line_items": ("LineTotalAmount", "LineExtensionAmount"), "tax_lines": ("CalculatedAmount", "TaxAmount")}
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def value_paths(xml: bytes, data: Any) -> dict[str, str]:
    """The XPath of every value of ``data`` read from ``xml`` that can be told.

    Args:
        xml: the e-invoice XML the data was read from (CII or UBL).
        data: the data the reader gave (the invoice schema's fields).

    Returns:
        JSON pointer -> XPath (``/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID``; an attribute as
        ``.../@unitCode``), for the values found in exactly one place the reader reads them from.
    """
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return {}
    tree = root.getroottree()
    scopes = _Scopes(root)
    out = {}
    for pointer, value, parts in leaves(data, booleans=False):
        scope, exclude = scopes.of(parts)
        if scope is None:
            continue
        key = str(parts[-1])
        names = AMOUNTS.get(str(parts[0]), ()) if key == "amount" and len(parts) > 2 else FIELDS.get(key, ())
        found = _place(scope, exclude, value, names)
        if found is not None:
            element, attribute = found
            out[pointer] = tree.getpath(element) + (f"/@{attribute}" if attribute else "")
    return out


class _Scopes:
    """Where in the XML each part of the data is read: the lines, tax breakdowns, parties, payment means."""

    def __init__(self, root):
        self.root = root
        self.lines = [
            e
            for e in root.iter()
            if local_name(e) in ("IncludedSupplyChainTradeLineItem", "InvoiceLine", "CreditNoteLine")
        ]
        self.cii_lines = self._cii_lines()
        self.taxes = [
            e for e in root.iter() if local_name(e) in ("ApplicableTradeTax", "TaxSubtotal") and not self._in_line(e)
        ]

    def _cii_lines(self) -> list:
        from extractor.einvoice.read import cii_positions

        tx = next(
            (
                e
                for e in self.root
                if local_name(e) in ("SupplyChainTradeTransaction", "SpecifiedSupplyChainTradeTransaction")
            ),
            None,
        )
        if tx is None:
            return [e for e in self.lines if local_name(e) != "IncludedSupplyChainTradeLineItem"]
        return [position[0] for position in cii_positions(tx)[0]]

    def _in_line(self, element) -> bool:
        return any(
            local_name(a) in ("IncludedSupplyChainTradeLineItem", "InvoiceLine", "CreditNoteLine")
            for a in element.iterancestors()
        )

    def of(self, parts: tuple) -> tuple[Any, bool]:
        """The element a value at ``parts`` is read within, and whether the lines are to be left out of it."""
        head = str(parts[0])
        if head == "line_items" and len(parts) > 2 and isinstance(parts[1], int):
            lines = self.cii_lines
            return (lines[parts[1]] if parts[1] < len(lines) else None), False
        if head == "tax_lines" and len(parts) > 2 and isinstance(parts[1], int):
            return (self.taxes[parts[1]] if parts[1] < len(self.taxes) else None), False
        if head in ("seller", "buyer"):
            names = {
                "seller": ("SellerTradeParty", "AccountingSupplierParty"),
                "buyer": ("BuyerTradeParty", "AccountingCustomerParty"),
            }[head]
            party = next((e for e in self.root.iter() if local_name(e) in names and not self._in_line(e)), None)
            return party, False
        if head == "bank_account":
            means = next(
                (
                    e
                    for e in self.root.iter()
                    if local_name(e) in ("SpecifiedTradeSettlementPaymentMeans", "PaymentMeans")
                    and any(
                        local_name(k) in ("PayeePartyCreditorFinancialAccount", "PayeeFinancialAccount")
                        for k in e.iter()
                    )
                ),
                None,
            )
            return means, False
        return self.root, True


def _place(scope, exclude_lines: bool, value: Any, names: tuple[str, ...]):
    """The element (and attribute) holding the value within a scope: the first of the field's names that holds it,
    else, for a field without names of its own, the only element holding it; None when it cannot be told."""
    candidates: list[tuple[Any, str | None]] = []
    for element in scope.iter():
        if not isinstance(element.tag, str):
            continue
        if exclude_lines and _inside_line(element, scope):
            continue
        if element.text is not None and _same(element.text, value):
            candidates.append((element, None))
        for code in ("unitCode", "currencyID"):
            if element.get(code) is not None and _same(element.get(code), value):
                candidates.append((element, code))
    for name in names:
        for element, attribute in candidates:
            if name == f"@{attribute}" or (attribute is None and _named(element, name)):
                return element, attribute
    texts = [c for c in candidates if c[1] is None]
    return texts[0] if len(texts) == 1 and not names else None


def _named(element, name: str) -> bool:
    """Whether an element is ``Name`` (or ``Parent/Name``) by local names."""
    parent, _, own = name.rpartition("/")
    if local_name(element) != own:
        return False
    return not parent or (element.getparent() is not None and local_name(element.getparent()) == parent)


def _inside_line(element, scope) -> bool:
    for ancestor in element.iterancestors():
        if ancestor is scope:
            return False
        if local_name(ancestor) in ("IncludedSupplyChainTradeLineItem", "InvoiceLine", "CreditNoteLine"):
            return True
    return False


def _same(text: str, value: Any) -> bool:
    """Whether an element's text is the value as the reader reads it."""
    text = " ".join(text.split())
    if not text:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return Decimal(text) == Decimal(str(value))
        except InvalidOperation:
            return False
    value = str(value)
    match = _DATE.match(value)
    if match:
        return text in ("".join(match.groups()), value) or text.startswith(value + "T")
    return text == " ".join(value.split()) or ("".join(text.split()) == value and " " not in value)  # a compacted IBAN


__all__ = ["FIELDS", "value_paths"]
