"""Embedded e-invoices: read ZUGFeRD / Factur-X / XRechnung XML from a PDF and map it to the invoice schema.

Supported syntaxes: UN/CEFACT CII (ZUGFeRD 1 ``CrossIndustryDocument``; ZUGFeRD 2 / Factur-X / XRechnung CII
``CrossIndustryInvoice``) and OASIS UBL 2.1 (``Invoice`` / ``CreditNote``, XRechnung UBL). The XML is found among the
PDF's attachments (pdfium), whatever the attachment is called, by its root element.

Mapping rules:

* Values are copied, never guessed: a value missing from the XML is null in the data (the result may then fail the
  schema; ``EmbeddedInvoice.schema_errors`` says where). Two exceptions, each recorded in ``notes``: ``amount_due``
  missing is derived as total - prepaid (the standard's own definition, BT-115), and strings over the schema's
  ``maxLength`` are cut to it.
* ``subtotal`` is the sum of line net amounts (CII ``LineTotalAmount``, UBL ``LineExtensionAmount``); the tax basis
  total, allowances and charges, which the schema cannot hold, are kept in ``EmbeddedInvoice.totals``.
* ``unit_price`` is the net price divided by its basis quantity; ``unit`` the UN/ECE Rec 20 unit code (``C62``,
  ``HUR``).
* Text-only line positions (no product, quantity or amount: ZUGFeRD 1 EXTENDED "free text" lines) cannot be line
  items of the schema; they are skipped and counted in ``skipped_lines``.
* The bank account is the payee's (credit transfer) account; a debtor account (direct debit) is not the seller's
  account and is not used. An IBAN the schema's pattern rejects (e.g. a sample's ``DE01234..``) is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from extractor.einvoice.xmltext import _all, _date, _dec, _local, _num, _one, _text
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

    # no DTDs, entities or network: the XML comes from an untrusted PDF
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    local = _local(root)
    if local in CII_ROOTS:
        mapped = _Cii(root).map()
    elif local in UBL_ROOTS and (etree.QName(root).namespace or "").startswith(UBL_NAMESPACE):
        mapped = _Ubl(root).map()
    else:
        return None
    data, totals, skipped, notes, syntax, guideline, type_code = mapped
    notes = list(notes)
    _fit_lengths(data, notes)
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
        data["amount_due"] = _num(due)
        notes.append("amount_due derived as total - prepaid (the XML has no due payable amount)")


# -- CII ---------------------------------------------------------------------------------------------------------


def cii_positions(tx) -> tuple[list[tuple], int]:
    """A CII transaction's line positions as ``(item, delivery, settlement, product, line total)``, and how many
    text-only positions (no product, quantity or amount) were left out: the invoice's lines, for every reader."""
    out, skipped = [], 0
    for item in _all(tx, "IncludedSupplyChainTradeLineItem"):
        delivery = _one(item, "SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery")
        settlement = _one(item, "SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement")
        product = _one(item, "SpecifiedTradeProduct")
        amount = _dec(
            settlement,
            "SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation",
            "LineTotalAmount",
        )
        if product is None and _dec(delivery, "BilledQuantity") is None and amount is None:
            skipped += 1
            continue
        out.append((item, delivery, settlement, product, amount))
    return out, skipped


class _Cii:
    """UN/CEFACT Cross Industry Invoice, ZUGFeRD 1 (``CrossIndustryDocument``) and 2 (``CrossIndustryInvoice``)."""

    def __init__(self, root):
        self.root = root
        self.doc = _one(root, "ExchangedDocument|HeaderExchangedDocument")
        self.tx = _one(root, "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction")
        self.agreement = _one(self.tx, "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement")
        self.settlement = _one(self.tx, "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement")
        self.summation = _one(
            self.settlement, "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
        )

    def map(self):
        notes: list[str] = []
        currency = _text(self.settlement, "InvoiceCurrencyCode")
        if currency is None:
            grand = _one(self.summation, "GrandTotalAmount")
            currency = grand.get("currencyID") if grand is not None else None
        s = self.summation
        totals = {
            "line_total": _num(_dec(s, "LineTotalAmount")),
            "charge_total": _num(_dec(s, "ChargeTotalAmount")),
            "allowance_total": _num(_dec(s, "AllowanceTotalAmount")),
            "tax_basis_total": _num(_dec(s, "TaxBasisTotalAmount")),
            "tax_total": _num(_dec(s, "TaxTotalAmount", currency=currency)),
            "grand_total": _num(_dec(s, "GrandTotalAmount", currency=currency)),
            "prepaid": _num(_dec(s, "TotalPrepaidAmount")),
            "due_payable": _num(_dec(s, "DuePayableAmount")),
        }
        lines, skipped = self._lines()
        if skipped:
            notes.append(f"{skipped} text-only line position(s) without product, quantity or amount left out")
        terms = _all(self.settlement, "SpecifiedTradePaymentTerms")
        due_date = next((d for d in (_date(_text(t, "DueDateDateTime", "DateTimeString")) for t in terms) if d), None)
        descriptions = [d for d in (_text(t, "Description") for t in terms) if d]
        data = {
            "invoice_number": _text(self.doc, "ID"),
            "issue_date": _date(_text(self.doc, "IssueDateTime", "DateTimeString")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("SellerTradeParty"),
            "buyer": self._party("BuyerTradeParty"),
            "line_items": lines,
            "subtotal": totals["line_total"],
            "tax_lines": [self._tax(t) for t in _all(self.settlement, "ApplicableTradeTax")],
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(descriptions) or None,
            "bank_account": self._bank(notes),
        }
        _finish(data, totals, notes)
        context = _one(self.root, "ExchangedDocumentContext|SpecifiedExchangedDocumentContext")
        guideline = _text(context, "GuidelineSpecifiedDocumentContextParameter", "ID") or ""
        return data, totals, skipped, notes, "CII", guideline, _text(self.doc, "TypeCode") or ""

    def _party(self, name: str) -> dict | None:
        party = _one(self.agreement, name)
        if party is None:
            return None
        address = _one(party, "PostalTradeAddress")
        vat_id = tax_id = None
        for reg in _all(party, "SpecifiedTaxRegistration", "ID"):
            scheme, value = (reg.get("schemeID") or "").upper(), " ".join((reg.text or "").split())
            if scheme == "VA" and vat_id is None and value:
                vat_id = value
            elif scheme == "FC" and tax_id is None and value:
                tax_id = value
        return {
            "name": _text(party, "Name"),
            "address": None
            if address is None
            else {
                "street": ", ".join(x for x in (_text(address, "LineOne"), _text(address, "LineTwo")) if x) or None,
                "postal_code": _text(address, "PostcodeCode"),
                "city": _text(address, "CityName"),
                "country": _text(address, "CountryID"),
            },
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _lines(self) -> tuple[list[dict], int]:
        lines = []
        positions, skipped = cii_positions(self.tx)
        for item, delivery, settlement, product, amount in positions:
            agreement = _one(item, "SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement")
            quantity_el = _one(delivery, "BilledQuantity")
            price = _dec(agreement, "NetPriceProductTradePrice", "ChargeAmount")
            basis = _dec(agreement, "NetPriceProductTradePrice", "BasisQuantity")
            if price is not None and basis not in (None, 0):
                price = price / basis
            lines.append(
                {
                    "description": _text(product, "Name") or _text(product, "Description"),
                    "quantity": _num(_dec(delivery, "BilledQuantity")),
                    "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
                    "unit_price": _num(price),
                    "tax_rate": _num(_dec(settlement, "ApplicableTradeTax", "RateApplicablePercent|ApplicablePercent")),
                    "amount": _num(amount),
                }
            )
        return lines, skipped

    @staticmethod
    def _tax(tax) -> dict:
        return {
            "rate": _num(_dec(tax, "RateApplicablePercent|ApplicablePercent")),
            "base": _num(_dec(tax, "BasisAmount")),
            "amount": _num(_dec(tax, "CalculatedAmount")),
        }

    def _bank(self, notes: list[str]) -> dict | None:
        for means in _all(self.settlement, "SpecifiedTradeSettlementPaymentMeans"):
            account = _one(means, "PayeePartyCreditorFinancialAccount")
            if account is None:
                continue
            return {
                "iban": _iban(_text(account, "IBANID"), notes),
                "bic": _text(means, "PayeeSpecifiedCreditorFinancialInstitution", "BICID"),
                "account_holder": _text(account, "AccountName"),
            }
        return None


# -- UBL ---------------------------------------------------------------------------------------------------------


class _Ubl:
    """OASIS UBL 2.1 ``Invoice`` and ``CreditNote`` (XRechnung UBL, Peppol BIS)."""

    def __init__(self, root):
        self.root = root
        self.credit = _local(root) == "CreditNote"

    def map(self):
        r = self.root
        notes: list[str] = []
        currency = _text(r, "DocumentCurrencyCode")
        total = _one(r, "LegalMonetaryTotal")
        totals = {
            "line_total": _num(_dec(total, "LineExtensionAmount")),
            "charge_total": _num(_dec(total, "ChargeTotalAmount")),
            "allowance_total": _num(_dec(total, "AllowanceTotalAmount")),
            "tax_basis_total": _num(_dec(total, "TaxExclusiveAmount")),
            "tax_total": None,
            "grand_total": _num(_dec(total, "TaxInclusiveAmount")),
            "prepaid": _num(_dec(total, "PrepaidAmount")),
            "due_payable": _num(_dec(total, "PayableAmount")),
        }
        tax_totals = _all(r, "TaxTotal")
        # a second TaxTotal may be in the tax currency; keep the one in the document currency
        tax_total = next(
            (
                t
                for t in tax_totals
                if (_one(t, "TaxAmount") is not None and _one(t, "TaxAmount").get("currencyID") in (None, currency))
            ),
            tax_totals[0] if tax_totals else None,
        )
        totals["tax_total"] = _num(_dec(tax_total, "TaxAmount"))
        tax_lines = (
            [
                {
                    "rate": _num(_dec(sub, "TaxCategory", "Percent")),
                    "base": _num(_dec(sub, "TaxableAmount")),
                    "amount": _num(_dec(sub, "TaxAmount")),
                }
                for sub in _all(tax_total, "TaxSubtotal")
            ]
            if tax_total is not None
            else []
        )
        due_date = _date(_text(r, "DueDate")) or _date(_text(r, "PaymentMeans", "PaymentDueDate"))
        data = {
            "invoice_number": _text(r, "ID"),
            "issue_date": _date(_text(r, "IssueDate")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("AccountingSupplierParty"),
            "buyer": self._party("AccountingCustomerParty"),
            "line_items": [self._line(x) for x in _all(r, "InvoiceLine|CreditNoteLine")],
            "subtotal": totals["line_total"],
            "tax_lines": tax_lines,
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(x for x in (_text(t, "Note") for t in _all(r, "PaymentTerms")) if x) or None,
            "bank_account": self._bank(notes),
        }
        _finish(data, totals, notes)
        type_code = _text(r, "InvoiceTypeCode|CreditNoteTypeCode") or ""
        return data, totals, 0, notes, "UBL", _text(r, "CustomizationID") or "", type_code

    def _party(self, name: str) -> dict | None:
        party = _one(self.root, name, "Party")
        if party is None:
            return None
        address = _one(party, "PostalAddress")
        vat_id = tax_id = None
        for scheme in _all(party, "PartyTaxScheme"):
            company_id = _text(scheme, "CompanyID")
            if (_text(scheme, "TaxScheme", "ID") or "").upper() == "VAT":
                vat_id = vat_id or company_id
            else:
                tax_id = tax_id or company_id
        street = ", ".join(x for x in (_text(address, "StreetName"), _text(address, "AdditionalStreetName")) if x)
        return {
            "name": _text(party, "PartyName", "Name") or _text(party, "PartyLegalEntity", "RegistrationName"),
            "address": None
            if address is None
            else {
                "street": street or None,
                "postal_code": _text(address, "PostalZone"),
                "city": _text(address, "CityName"),
                "country": _text(address, "Country", "IdentificationCode"),
            },
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _line(self, line) -> dict:
        quantity_el = _one(line, "InvoicedQuantity|CreditedQuantity")
        price = _dec(line, "Price", "PriceAmount")
        basis = _dec(line, "Price", "BaseQuantity")
        if price is not None and basis not in (None, 0):
            price = price / basis
        return {
            "description": _text(line, "Item", "Name") or _text(line, "Item", "Description"),
            "quantity": _num(_dec(line, "InvoicedQuantity|CreditedQuantity")),
            "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
            "unit_price": _num(price),
            "tax_rate": _num(_dec(line, "Item", "ClassifiedTaxCategory", "Percent")),
            "amount": _num(_dec(line, "LineExtensionAmount")),
        }

    def _bank(self, notes: list[str]) -> dict | None:
        for means in _all(self.root, "PaymentMeans"):
            account = _one(means, "PayeeFinancialAccount")
            if account is None:
                continue
            return {
                "iban": _iban(_text(account, "ID"), notes),
                "bic": _text(account, "FinancialInstitutionBranch", "ID"),
                "account_holder": _text(account, "Name"),
            }
        return None


# -- schema lengths ------------------------------------------------------------------------------------------------


def _fit_lengths(data: dict, notes: list[str], *, schema: str = "invoice") -> None:
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
