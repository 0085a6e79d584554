"""Where in an e-invoice's XML each value of its data was read: the XPath a citation of an ``embedded_xml`` value
names (``trust.citations``, issue 42).

The readers (``einvoice.read``: CII and UBL into the invoice schema) copy values, never guess them; this module finds,
for each value, the element (or attribute) it was copied from, in the part of the XML the reader reads it from:

* a line item's values in its own line (CII ``IncludedSupplyChainTradeLineItem``, the reader's positions:
  ``read_fields.cii_positions``; UBL ``InvoiceLine`` / ``CreditNoteLine``), a tax line's in its own tax breakdown, the
  seller's and buyer's in their party, the bank account's in the payment means; header values outside the lines;
* among the elements there whose content is the value (text collapsed as the reader collapses it; numbers compared
  as decimals; dates as ``YYYYMMDD`` or ISO; unit and currency codes in their ``unitCode`` / ``currencyID``
  attributes), the one the reader takes that field from (``FIELDS``: the names the binding table's XPaths of its
  terms end in, so each XPath is written once, in ``bindings``), else the only one.

A value the reader derives (``amount_due`` as total - prepaid, a unit price divided by its basis quantity, a street
joined from two lines) or one found in no single place gets no XPath: the citation then says ``xpath: null``
rather than point somewhere wrong.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice.bindings import BY_TERM
from extractor.einvoice.xmltext import local_name, parse_or_none
from extractor.leaves import leaves

# a step whose name says only what a value is (a date's string): named with its holder, as ``IssueDateTime/...``
_GENERIC = ("DateTimeString", "DateString")
_PREDICATE = re.compile(r"\[[^\[\]]*\]")


def _ends(terms: tuple[str, ...], syntax: str) -> list[str]:
    """The element names (local; a date's with its holder) the binding table's XPaths of the terms end in."""
    out = []
    for term in terms:
        for path in (BY_TERM[term].path(syntax) or "").split("|"):
            steps = [step.split(":")[-1] for step in _PREDICATE.sub("", path).split("/")]
            out.append("/".join(steps[-2:]) if steps[-1] in _GENERIC else steps[-1])
    return out


def _names(*terms: str, zugferd1: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A field's element names, each once: the terms' in CII, then ZUGFeRD 1's own (``zugferd1``: names the table
    of EN 16931 has not), then the terms' in UBL."""
    return tuple(dict.fromkeys([*_ends(terms, "CII"), *zugferd1, *_ends(terms, "UBL")]))


# the element names (local) each field is read from, in the reader's order of preference: the binding table's
# terms the reader reads the field from, CII's names then UBL's
FIELDS: dict[str, tuple[str, ...]] = {
    "invoice_number": _names("BT-1"),
    "issue_date": _names("BT-2"),
    "due_date": _names("BT-9"),
    "currency": (*_names("BT-5"), "@currencyID"),  # else an amount's currency, as the reader takes it
    "subtotal": _names("BT-106"),
    "total": _names("BT-112"),
    "prepaid_amount": _names("BT-113"),
    "amount_due": _names("BT-115"),
    "payment_terms": _names("BT-20"),
    "name": _names("BT-27"),
    "street": _names("BT-35"),
    "postal_code": _names("BT-38"),
    "city": _names("BT-37"),
    "country": _names("BT-40"),
    "vat_id": _names("BT-31"),
    "tax_id": _names("BT-32"),
    # the schema's iban is BT-84 as an IBAN, never a proprietary account number
    "iban": tuple(name for name in _names("BT-84") if name != "ProprietaryID"),
    "bic": _names("BT-86"),
    "account_holder": _names("BT-85"),
    "description": _names("BT-153", "BT-154"),
    "quantity": _names("BT-129"),
    "unit": _names("BT-130"),
    "unit_price": _names("BT-146"),
    "tax_rate": _names("BT-152", zugferd1=("ApplicablePercent",)),
    "rate": _names("BT-119", zugferd1=("ApplicablePercent",)),
    "base": _names("BT-116"),
}
AMOUNTS = {"line_items": _names("BT-131"), "tax_lines": _names("BT-117")}
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
    root = parse_or_none(xml)
    if root is None:
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
        from extractor.einvoice.read_fields import cii_positions

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
