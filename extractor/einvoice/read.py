"""Embedded e-invoices: read ZUGFeRD / Factur-X / XRechnung XML from a PDF and map it to the invoice schema.

Supported syntaxes: UN/CEFACT CII (ZUGFeRD 1 ``CrossIndustryDocument``; ZUGFeRD 2 / Factur-X / XRechnung CII
``CrossIndustryInvoice``) and OASIS UBL 2.1 (``Invoice`` / ``CreditNote``, XRechnung UBL). The XML is found among the
PDF's attachments (pdfium), whatever the attachment is called, by its root element.

Mapping rules:

* Values are copied, never guessed: a value missing from the XML is null in the data (the result may then fail the
  schema; ``EmbeddedInvoice.schema_errors`` says where). Three exceptions, each recorded in ``notes``: ``amount_due``
  missing is derived as total - prepaid (the standard's own definition, BT-115), a missing unit price as the line's
  amount / quantity where exact (below), and strings over the schema's ``maxLength`` are cut to it.
* ``subtotal`` is the sum of line net amounts (CII ``LineTotalAmount``, UBL ``LineExtensionAmount``); the tax basis
  total, allowances and charges, which the schema cannot hold, are kept in ``EmbeddedInvoice.totals``.
* ``unit_price`` is the net price divided by its basis quantity; ``unit`` the UN/ECE Rec 20 unit code (``C62``,
  ``HUR``). A line without a net price (ZUGFeRD 1.0 BASIC need not give one) gets amount / quantity when that
  division is exact, else null (the schema then fails and the model reads the pages); either is said in ``notes``.
* Text-only line positions (no product, quantity or amount: ZUGFeRD 1 EXTENDED "free text" lines) cannot be line
  items of the schema; they are skipped and counted in ``skipped_lines``.
* The bank account is the payee's (credit transfer) account; a debtor account (direct debit) is not the seller's
  account and is not used. An IBAN the schema's pattern rejects (e.g. a sample's ``DE01234..``) is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, Inexact, localcontext
from pathlib import Path
from typing import Any

from extractor.einvoice.bindings import address_steps
from extractor.einvoice.xmltext import (
    decimal_at,
    find_all,
    find_one,
    iso_date,
    local_name,
    parse_or_none,
    plain_number,
    text_at,
)
from extractor.inputs.attachments import pdf_attachments

CII_ROOTS = ("CrossIndustryInvoice", "CrossIndustryDocument")
UBL_ROOTS = ("Invoice", "CreditNote")
UBL_NAMESPACE = "urn:oasis:names:specification:ubl:schema:xsd:"
_IBAN = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$")


@dataclass(frozen=True)
class EmbeddedInvoice:
    """An e-invoice read from XML and mapped to the invoice schema.

    Attributes:
        data: the invoice as a dict in the shape of ``schemas/invoice.schema.json``.
        syntax: ``CII`` or ``UBL``.
        guideline: the specification / profile id (e.g. ``urn:cen.eu:en16931:2017#...``), or "".
        type_code: UNTDID 1001 document type (380 invoice, 381 credit note, 751 ...), or "".
        attachment: the PDF attachment's file name ("" when read from XML directly).
        totals: the document totals as printed in the XML (line_total, charge_total, allowance_total,
            tax_basis_total, tax_total, grand_total, prepaid, due_payable); null where absent.
        skipped_lines: text-only line positions left out of ``line_items``.
        notes: what was derived, cut or left out, in plain words.
        schema_errors: validation errors of ``data`` against the invoice schema (empty when valid).
        xml: the XML itself, as attached (not in ``to_dict``; ``--einvoice`` checks it with the CEN rules).
    """

    data: dict
    syntax: str
    guideline: str = ""
    type_code: str = ""
    attachment: str = ""
    totals: dict = field(default_factory=dict)
    skipped_lines: int = 0
    notes: tuple[str, ...] = ()
    schema_errors: tuple[dict, ...] = ()
    xml: bytes = field(default=b"", repr=False, compare=False)

    @property
    def valid(self) -> bool:
        """True when ``data`` is valid against the invoice schema."""
        return not self.schema_errors

    def to_dict(self) -> dict:
        """Return everything but ``data`` as a JSON-ready dict (for the record's ``embedded`` entry)."""
        return {
            "syntax": self.syntax,
            "guideline": self.guideline,
            "type_code": self.type_code,
            "attachment": self.attachment,
            "totals": dict(self.totals),
            "skipped_lines": self.skipped_lines,
            "notes": list(self.notes),
            "schema_errors": list(self.schema_errors),
        }


def read_embedded_invoice(source: str | Path | bytes) -> EmbeddedInvoice | None:
    """Find an e-invoice XML attached to a PDF and map it to the invoice schema (thread-safe: the attachments are
    taken under ``pdf.PDFIUM_LOCK`` by ``inputs.attachments``).

    Args:
        source: a PDF path, or the PDF's bytes.

    Returns:
        The EmbeddedInvoice, or None when the PDF carries no CII / UBL invoice XML.

    Raises:
        InputError: the file cannot be read (``not_found``, ``unreadable``) or is not a PDF pdfium can open
            (``corrupt``, ``encrypted``).
    """
    for attachment_name, payload in pdf_attachments(source):
        result = parse_invoice_xml(payload, attachment=attachment_name)
        if result is not None:
            return result
    return None


def read_embedded_xml(source: str | Path | bytes) -> tuple[str, bytes] | None:
    """The e-invoice XML a PDF carries, as it is (``extract einvoice validate`` checks it with the official rules).

    Args:
        source: a PDF path, or the PDF's bytes.

    Returns:
        ``(attachment name, XML bytes)`` of the attachment ``read_embedded_invoice`` would read, or None.

    Raises:
        InputError: as ``read_embedded_invoice``.
    """
    for attachment_name, payload in pdf_attachments(source):
        if parse_invoice_xml(payload, attachment=attachment_name) is not None:
            return attachment_name, payload
    return None


def parse_invoice_xml(xml: bytes, *, attachment: str = "") -> EmbeddedInvoice | None:
    """Map CII or UBL invoice XML to the invoice schema.

    Args:
        xml: the XML document.
        attachment: the attachment's name, kept in the result.

    Returns:
        The EmbeddedInvoice, or None when the XML is not well-formed or not a CII / UBL invoice.
    """
    from lxml import etree

    root = parse_or_none(xml)  # no DTDs, entities or network: the XML comes from an untrusted PDF
    if root is None:
        return None
    local = local_name(root)
    if local in CII_ROOTS:
        mapped = _Cii(root).map()
    elif local in UBL_ROOTS and (etree.QName(root).namespace or "").startswith(UBL_NAMESPACE):
        mapped = _Ubl(root).map()
    else:
        return None
    data, totals, skipped, notes, syntax, guideline, type_code = mapped
    notes = list(notes)
    derive_unit_prices(data["line_items"], notes)
    fit_lengths(data, notes)
    from extractor.schema import load_schema, validate_data

    errors = validate_data(data, load_schema("invoice"))
    return EmbeddedInvoice(
        data=data,
        syntax=syntax,
        guideline=guideline,
        type_code=type_code,
        attachment=attachment,
        totals=totals,
        skipped_lines=skipped,
        notes=tuple(notes),
        schema_errors=tuple(errors),
        xml=bytes(xml),
    )


def _iban(value: str | None, notes: list[str]) -> str | None:
    if value is None:
        return None
    compact = "".join(value.split()).upper()
    if not _IBAN.match(compact):
        notes.append(f"IBAN {value!r} in the XML is not an IBAN; left out")
        return None
    return compact


def _finish(data: dict, totals: dict, notes: list[str]) -> None:
    """Fill ``amount_due`` from total - prepaid when the XML has no due amount (BT-115 = BT-112 - BT-113)."""
    if data["amount_due"] is None and totals.get("grand_total") is not None:
        due = Decimal(str(totals["grand_total"])) - Decimal(str(totals.get("prepaid") or 0))
        data["amount_due"] = plain_number(due)
        notes.append("amount_due derived as total - prepaid (the XML has no due payable amount)")


def derive_unit_prices(lines: list[dict], notes: list[str]) -> None:
    """Fill a line's missing unit price (a ZUGFeRD 1.0 BASIC line need not carry one) as its amount / quantity when
    that division is exact, else leave it null; each said in ``notes``. The issuer's values are never changed."""
    for number, line in enumerate(lines, 1):
        if line["unit_price"] is not None:
            continue
        amount, quantity = line["amount"], line["quantity"]
        price = None
        if amount is not None and quantity not in (None, 0):
            with localcontext() as exact:
                exact.traps[Inexact] = True
                try:
                    price = Decimal(str(amount)) / Decimal(str(quantity))
                except Inexact:
                    price = None
        if price is None:
            why = (
                f"amount / quantity ({amount} / {quantity}) gives none exactly"
                if amount is not None and quantity
                else "nor the amount and a quantity to derive one from"
            )
            notes.append(f"line {number} unit_price: the XML gives no net price, {why}; left null")
            continue
        line["unit_price"] = plain_number(price)
        notes.append(
            f"line {number} unit_price {plain_number(price)} derived as amount / quantity ({amount} / {quantity}): "
            "the XML gives no net price"
        )


# -- CII ---------------------------------------------------------------------------------------------------------


def _street(address, syntax: str) -> str | None:
    """The invoice schema's street: the address's street and additional line (BT-35 / BT-36 ...), joined."""
    parts = (text_at(address, *address_steps(key, syntax)) for key in ("street", "additional_street"))
    return ", ".join(x for x in parts if x) or None


def _address(address, syntax: str) -> dict | None:
    """The invoice schema's address of a CII ``PostalTradeAddress`` / UBL ``PostalAddress`` (None: none), its
    element names the binding table's."""
    if address is None:
        return None
    return {
        "street": _street(address, syntax),
        **{key: text_at(address, *address_steps(key, syntax)) for key in ("postal_code", "city", "country")},
    }


def cii_positions(tx) -> tuple[list[tuple], int]:
    """A CII transaction's line positions as ``(item, delivery, settlement, product, line total)``, and how many
    text-only positions (no product, quantity or amount) were left out: the invoice's lines, for every reader."""
    out, skipped = [], 0
    for item in find_all(tx, "IncludedSupplyChainTradeLineItem"):
        delivery = find_one(item, "SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery")
        settlement = find_one(item, "SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement")
        product = find_one(item, "SpecifiedTradeProduct")
        amount = decimal_at(
            settlement,
            "SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation",
            "LineTotalAmount",
        )
        if product is None and decimal_at(delivery, "BilledQuantity") is None and amount is None:
            skipped += 1
            continue
        out.append((item, delivery, settlement, product, amount))
    return out, skipped


class _Cii:
    """UN/CEFACT Cross Industry Invoice, ZUGFeRD 1 (``CrossIndustryDocument``) and 2 (``CrossIndustryInvoice``)."""

    def __init__(self, root):
        self.root = root
        self.doc = find_one(root, "ExchangedDocument|HeaderExchangedDocument")
        self.tx = find_one(root, "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction")
        self.agreement = find_one(self.tx, "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement")
        self.settlement = find_one(self.tx, "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement")
        self.summation = find_one(
            self.settlement, "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
        )

    def map(self):
        notes: list[str] = []
        currency = text_at(self.settlement, "InvoiceCurrencyCode")
        if currency is None:
            grand = find_one(self.summation, "GrandTotalAmount")
            currency = grand.get("currencyID") if grand is not None else None
        s = self.summation
        totals = {
            "line_total": plain_number(decimal_at(s, "LineTotalAmount")),
            "charge_total": plain_number(decimal_at(s, "ChargeTotalAmount")),
            "allowance_total": plain_number(decimal_at(s, "AllowanceTotalAmount")),
            "tax_basis_total": plain_number(decimal_at(s, "TaxBasisTotalAmount")),
            "tax_total": plain_number(decimal_at(s, "TaxTotalAmount", currency=currency)),
            "grand_total": plain_number(decimal_at(s, "GrandTotalAmount", currency=currency)),
            "prepaid": plain_number(decimal_at(s, "TotalPrepaidAmount")),
            "due_payable": plain_number(decimal_at(s, "DuePayableAmount")),
        }
        lines, skipped = self._lines()
        if skipped:
            notes.append(f"{skipped} text-only line position(s) without product, quantity or amount left out")
        terms = find_all(self.settlement, "SpecifiedTradePaymentTerms")
        due_date = next(
            (d for d in (iso_date(text_at(t, "DueDateDateTime", "DateTimeString")) for t in terms) if d), None
        )
        descriptions = [d for d in (text_at(t, "Description") for t in terms) if d]
        data = {
            "invoice_number": text_at(self.doc, "ID"),
            "issue_date": iso_date(text_at(self.doc, "IssueDateTime", "DateTimeString")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("SellerTradeParty"),
            "buyer": self._party("BuyerTradeParty"),
            "line_items": lines,
            "subtotal": totals["line_total"],
            "tax_lines": [self._tax(t) for t in find_all(self.settlement, "ApplicableTradeTax")],
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(descriptions) or None,
            "bank_account": self._bank(notes),
        }
        _finish(data, totals, notes)
        context = find_one(self.root, "ExchangedDocumentContext|SpecifiedExchangedDocumentContext")
        guideline = text_at(context, "GuidelineSpecifiedDocumentContextParameter", "ID") or ""
        return data, totals, skipped, notes, "CII", guideline, text_at(self.doc, "TypeCode") or ""

    def _party(self, name: str) -> dict | None:
        party = find_one(self.agreement, name)
        if party is None:
            return None
        address = find_one(party, "PostalTradeAddress")
        vat_id = tax_id = None
        for reg in find_all(party, "SpecifiedTaxRegistration", "ID"):
            scheme, value = (reg.get("schemeID") or "").upper(), " ".join((reg.text or "").split())
            if scheme == "VA" and vat_id is None and value:
                vat_id = value
            elif scheme == "FC" and tax_id is None and value:
                tax_id = value
        return {
            "name": text_at(party, "Name"),
            "address": _address(address, "CII"),
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _lines(self) -> tuple[list[dict], int]:
        lines = []
        positions, skipped = cii_positions(self.tx)
        for item, delivery, settlement, product, amount in positions:
            agreement = find_one(item, "SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement")
            quantity_el = find_one(delivery, "BilledQuantity")
            price = decimal_at(agreement, "NetPriceProductTradePrice", "ChargeAmount")
            basis = decimal_at(agreement, "NetPriceProductTradePrice", "BasisQuantity")
            if price is not None and basis not in (None, 0):
                price = price / basis
            lines.append(
                {
                    "description": text_at(product, "Name") or text_at(product, "Description"),
                    "quantity": plain_number(decimal_at(delivery, "BilledQuantity")),
                    "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
                    "unit_price": plain_number(price),
                    "tax_rate": plain_number(
                        decimal_at(settlement, "ApplicableTradeTax", "RateApplicablePercent|ApplicablePercent")
                    ),
                    "amount": plain_number(amount),
                }
            )
        return lines, skipped

    @staticmethod
    def _tax(tax) -> dict:
        return {
            "rate": plain_number(decimal_at(tax, "RateApplicablePercent|ApplicablePercent")),
            "base": plain_number(decimal_at(tax, "BasisAmount")),
            "amount": plain_number(decimal_at(tax, "CalculatedAmount")),
        }

    def _bank(self, notes: list[str]) -> dict | None:
        for means in find_all(self.settlement, "SpecifiedTradeSettlementPaymentMeans"):
            account = find_one(means, "PayeePartyCreditorFinancialAccount")
            if account is None:
                continue
            return {
                "iban": _iban(text_at(account, "IBANID"), notes),
                "bic": text_at(means, "PayeeSpecifiedCreditorFinancialInstitution", "BICID"),
                "account_holder": text_at(account, "AccountName"),
            }
        return None


# -- UBL ---------------------------------------------------------------------------------------------------------


def ubl_tax_total(root, currency: str | None):
    """A UBL document's ``TaxTotal`` in its document currency (a second one may be in the tax currency, BT-111),
    else its first; None for none."""
    tax_totals = find_all(root, "TaxTotal")
    amounts = [(t, find_one(t, "TaxAmount")) for t in tax_totals]
    in_currency = (t for t, a in amounts if a is not None and a.get("currencyID") in (None, currency))
    return next(in_currency, tax_totals[0] if tax_totals else None)


class _Ubl:
    """OASIS UBL 2.1 ``Invoice`` and ``CreditNote`` (XRechnung UBL, Peppol BIS)."""

    def __init__(self, root):
        self.root = root
        self.credit = local_name(root) == "CreditNote"

    def map(self):
        r = self.root
        notes: list[str] = []
        currency = text_at(r, "DocumentCurrencyCode")
        total = find_one(r, "LegalMonetaryTotal")
        totals = {
            "line_total": plain_number(decimal_at(total, "LineExtensionAmount")),
            "charge_total": plain_number(decimal_at(total, "ChargeTotalAmount")),
            "allowance_total": plain_number(decimal_at(total, "AllowanceTotalAmount")),
            "tax_basis_total": plain_number(decimal_at(total, "TaxExclusiveAmount")),
            "tax_total": None,
            "grand_total": plain_number(decimal_at(total, "TaxInclusiveAmount")),
            "prepaid": plain_number(decimal_at(total, "PrepaidAmount")),
            "due_payable": plain_number(decimal_at(total, "PayableAmount")),
        }
        tax_total = ubl_tax_total(r, currency)
        totals["tax_total"] = plain_number(decimal_at(tax_total, "TaxAmount"))
        tax_lines = (
            [
                {
                    "rate": plain_number(decimal_at(sub, "TaxCategory", "Percent")),
                    "base": plain_number(decimal_at(sub, "TaxableAmount")),
                    "amount": plain_number(decimal_at(sub, "TaxAmount")),
                }
                for sub in find_all(tax_total, "TaxSubtotal")
            ]
            if tax_total is not None
            else []
        )
        due_date = iso_date(text_at(r, "DueDate")) or iso_date(text_at(r, "PaymentMeans", "PaymentDueDate"))
        data = {
            "invoice_number": text_at(r, "ID"),
            "issue_date": iso_date(text_at(r, "IssueDate")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("AccountingSupplierParty"),
            "buyer": self._party("AccountingCustomerParty"),
            "line_items": [self._line(x) for x in find_all(r, "InvoiceLine|CreditNoteLine")],
            "subtotal": totals["line_total"],
            "tax_lines": tax_lines,
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(x for x in (text_at(t, "Note") for t in find_all(r, "PaymentTerms")) if x)
            or None,
            "bank_account": self._bank(notes),
        }
        _finish(data, totals, notes)
        type_code = text_at(r, "InvoiceTypeCode|CreditNoteTypeCode") or ""
        return data, totals, 0, notes, "UBL", text_at(r, "CustomizationID") or "", type_code

    def _party(self, name: str) -> dict | None:
        party = find_one(self.root, name, "Party")
        if party is None:
            return None
        address = find_one(party, "PostalAddress")
        vat_id = tax_id = None
        for scheme in find_all(party, "PartyTaxScheme"):
            company_id = text_at(scheme, "CompanyID")
            if (text_at(scheme, "TaxScheme", "ID") or "").upper() == "VAT":
                vat_id = vat_id or company_id
            else:
                tax_id = tax_id or company_id
        return {
            "name": text_at(party, "PartyName", "Name") or text_at(party, "PartyLegalEntity", "RegistrationName"),
            "address": _address(address, "UBL"),
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _line(self, line) -> dict:
        quantity_el = find_one(line, "InvoicedQuantity|CreditedQuantity")
        price = decimal_at(line, "Price", "PriceAmount")
        basis = decimal_at(line, "Price", "BaseQuantity")
        if price is not None and basis not in (None, 0):
            price = price / basis
        return {
            "description": text_at(line, "Item", "Name") or text_at(line, "Item", "Description"),
            "quantity": plain_number(decimal_at(line, "InvoicedQuantity|CreditedQuantity")),
            "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
            "unit_price": plain_number(price),
            "tax_rate": plain_number(decimal_at(line, "Item", "ClassifiedTaxCategory", "Percent")),
            "amount": plain_number(decimal_at(line, "LineExtensionAmount")),
        }

    def _bank(self, notes: list[str]) -> dict | None:
        for means in find_all(self.root, "PaymentMeans"):
            account = find_one(means, "PayeeFinancialAccount")
            if account is None:
                continue
            return {
                "iban": _iban(text_at(account, "ID"), notes),
                "bic": text_at(account, "FinancialInstitutionBranch", "ID"),
                "account_holder": text_at(account, "Name"),
            }
        return None


# -- schema lengths ------------------------------------------------------------------------------------------------


def fit_lengths(data: dict, notes: list[str], *, schema: str = "invoice") -> None:
    """Cut strings longer than the (invoice) schema's ``maxLength`` (long payment terms, names), noting each."""
    from extractor.schema import load_schema

    def walk(value: Any, schema: dict, path: str) -> Any:
        if isinstance(value, dict):
            props = schema.get("properties", {})
            for key in list(value):
                if key in props:
                    value[key] = walk(value[key], props[key], f"{path}/{key}")
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                value[i] = walk(item, schema["items"], f"{path}/{i}")
        elif isinstance(value, str) and isinstance(schema.get("maxLength"), int):
            limit = schema["maxLength"]
            if len(value) > limit:
                notes.append(f"{path} cut from {len(value)} to {limit} characters (the schema's maxLength)")
                return value[:limit]
        return value

    walk(data, dict(load_schema(schema).schema), "")
