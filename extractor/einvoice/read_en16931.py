"""Embedded e-invoice XML read under the ``invoice-en16931`` schema: the ``invoice`` reading (``einvoice.read``)
with the terms that schema adds read from the same XML (CII D16B / ZUGFeRD 1, UBL 2.1): document type, references,
delivery and period, typed party identifiers, contacts and electronic addresses, line item ids, discounts and VAT
categories, tax categories and exemption reasons, document allowances and charges, rounding, payment means and a
non-IBAN account.

A payment means code with no word in the schema is left null and noted, never approximated; a document type code
with none (``document_type`` cannot be null) becomes ``credit_note`` for UNTDID 1001's other credit notes and
``invoice`` otherwise, noted, while the record's ``embedded.type_code`` keeps the XML's own code, which the
e-invoice writer uses.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

from extractor.einvoice.codes import document_type_of, payment_means_of
from extractor.einvoice.read import EmbeddedInvoice, cii_positions, fit_lengths, ubl_tax_total
from extractor.einvoice.read_terms import TermReader
from extractor.einvoice.term_values import scope_nodes
from extractor.einvoice.xmltext import decimal_at, find_all, find_one, iso_date, plain_number, text_at, xml_parser

_GLN, _LEI = "0088", "0199"


def as_en16931(embedded: EmbeddedInvoice) -> EmbeddedInvoice:
    """The embedded invoice with its data in the shape of ``schemas/invoice-en16931.schema.json`` (and its
    ``schema_errors`` against that schema)."""
    from lxml import etree

    from extractor.schema import load_schema, validate_data

    root = etree.fromstring(embedded.xml, parser=xml_parser())
    notes = list(embedded.notes)
    reader = _Cii(root) if embedded.syntax == "CII" else _Ubl(root)
    data = _merge(embedded.data, reader.extras(notes), embedded.type_code, notes, TermReader(root))
    fit_lengths(data, notes, schema="invoice-en16931")
    errors = validate_data(data, load_schema("invoice-en16931"))
    return dataclasses.replace(embedded, data=data, notes=tuple(notes), schema_errors=tuple(errors))


def _merge(base: dict, extras: dict, type_code: str, notes: list[str], more: TermReader) -> dict:
    """The ``invoice`` data with the extras (and ``more``'s further terms) in the ``invoice-en16931`` key order."""
    document_type, own = document_type_of(type_code)
    if not own:  # the field cannot be null: the nearest word, said (the writer keeps the code)
        notes.append(
            f"document_type: the XML's type code {type_code or '(none)'} has no word of its own in the schema; "
            f"{document_type} (the e-invoice written from the record keeps the code)"
        )
    items, taxes_in = base.get("line_items") or [], base.get("tax_lines") or []
    for key, read, names in (
        ("lines", items, ("item_id", "allowance", "charge", "category")),
        ("taxes", taxes_in, ("category", "exemption_reason", "exemption_code")),
    ):
        if len(extras[key]) != len(read):  # never pair one line's category with another's
            notes.append(f"{key}: the XML's extra terms do not pair up with its {len(read)} {key}; left null")
            extras[key] = [dict.fromkeys(names) for _ in read]
    notes.extend(more.unheld_notes(len(items)))
    paired = more.syntax is not None and len(scope_nodes(more.root, "line", more.syntax)) == len(items)
    lines = [
        _line(item, extra, more.line(i) if paired else {})
        for i, (item, extra) in enumerate(zip(items, extras["lines"], strict=True))
    ]
    taxes = [
        {
            "rate": t["rate"],
            "category": x["category"],
            "base": t["base"],
            "amount": t["amount"],
            "exemption_reason": x["exemption_reason"],
            "exemption_code": x["exemption_code"],
        }
        for t, x in zip(taxes_in, extras["taxes"], strict=True)
    ]
    bank = base.get("bank_account")
    if bank is not None or extras["account_number"]:
        bank = {
            "iban": (bank or {}).get("iban"),
            "account_number": None if (bank or {}).get("iban") else extras["account_number"],
            "bic": (bank or {}).get("bic"),
            "account_holder": (bank or {}).get("account_holder"),
        }
    doc = more.document() if more.syntax else dict.fromkeys(_DOCUMENT_TERMS)
    return {
        "document_type": document_type,
        "invoice_number": base["invoice_number"],
        "issue_date": base["issue_date"],
        "due_date": base["due_date"],
        "delivery_date": extras["delivery_date"],
        "invoicing_period": extras["period"],
        "currency": base["currency"],
        "buyer_reference": extras["buyer_reference"],
        "order_reference": extras["order_reference"],
        "preceding_invoice": extras["preceding"],
        "seller": _party(base.get("seller"), extras["seller"], more, "seller", notes),
        "buyer": _party(base.get("buyer"), extras["buyer"], more, "buyer", notes),
        "line_items": lines,
        "subtotal": base["subtotal"],
        "allowances_charges": extras["allowances"],
        "tax_lines": taxes,
        "total": base["total"],
        "prepaid_amount": base["prepaid_amount"],
        "rounding_amount": extras["rounding"],
        "amount_due": base["amount_due"],
        "payment_means": extras["payment_means"],
        "payment_terms": doc["payment_terms"] if more.syntax else base["payment_terms"],
        "bank_account": bank,
        "further_terms": _further(doc),
    }


def _further(doc: dict) -> dict | None:
    """``further_terms``: the document's further terms in the schema's order, None when it gives none."""
    further = {key: doc[key] for key in _FURTHER}
    return further if any(v is not None for v in further.values()) else None


_FURTHER = (
    "tax_point_date",
    "tax_point_code",
    "tax_currency",
    "tax_total_in_tax_currency",
    "references",
    "more_preceding_invoices",
    "payee",
    "tax_representative",
    "delivery",
    "payment_means_code",
    "payment_means_text",
    "payment_card",
    "remittance_information",
    "direct_debit",
    "invoice_notes",
    "supporting_documents",
)
_DOCUMENT_TERMS = (
    "tax_currency",
    "tax_total_in_tax_currency",
    "payment_means_code",
    "payment_means_text",
    "payment_card",
    "payment_terms",
    "tax_point_date",
    "tax_point_code",
    "references",
    "more_preceding_invoices",
    "payee",
    "tax_representative",
    "delivery",
    "remittance_information",
    "direct_debit",
    "invoice_notes",
    "supporting_documents",
)


def _line(item: dict, extra: dict, more: dict) -> dict:
    """One line in the schema's shape: the invoice reading's, the hand-read extras, and ``more``'s further terms
    (empty: none). With a price base quantity the price is kept per that quantity, as printed (BT-146 / BT-149)."""
    per_base = more.get("price_base_quantity") is not None and more.get("net_price") is not None
    details = {key: more.get(key) for key in _DETAILS}
    if not per_base:
        details["price_base_unit"] = None
    return {
        "line_id": more.get("line_id"),
        "item_id": extra["item_id"],
        "description": item["description"],
        "quantity": item["quantity"],
        "unit": item["unit"],
        "unit_price": more["net_price"] if per_base else item["unit_price"],
        "price_base_quantity": more.get("price_base_quantity") if per_base else None,
        "allowance": extra["allowance"],
        "charge": extra["charge"],
        "tax_rate": item["tax_rate"],
        "vat_category": extra["category"],
        "amount": item["amount"],
        "details": details if any(v is not None for v in details.values()) else None,
    }


_DETAILS = (
    "buyer_item_id",
    "standard_id",
    "item_description",
    "price_base_unit",
    "gross_price",
    "price_discount",
    "allowance_reason",
    "allowance_reason_code",
    "charge_reason",
    "charge_reason_code",
    "note",
    "object_id",
    "order_line_reference",
    "accounting_reference",
    "period",
    "classifications",
    "origin_country",
    "attributes",
)


def _party(base: Any, extra: dict, more: TermReader, who: str, notes: list[str]) -> Any:
    if not isinstance(base, dict):
        return base
    further = more.party(who) if more.syntax else {"trading_name": None, "legal_info": None, "other_ids": None}
    address = further.get("address") if more.syntax else _address(base["address"])
    # the legal name (BT-27 / BT-44; UBL's PartyLegalEntity) where the invoice reading took the trading name
    legal_name = more.v("BT-27" if who == "seller" else "BT-44") if more.syntax else None
    return {
        "name": legal_name or base["name"],
        "trading_name": further["trading_name"],
        "address": address,
        "vat_id": base["vat_id"],
        "tax_number": base["tax_id"],
        **_with_ids(extra, further["other_ids"], notes),
        "legal_info": further["legal_info"],
    }


_ID_PATTERNS = {"gln": (_GLN, re.compile(r"^[0-9]{13}$")), "lei": (_LEI, re.compile(r"^[A-Z0-9]{18}[0-9]{2}$"))}


def _with_ids(extra: dict, other_ids: list | None, notes: list[str]) -> dict:
    """The hand-read party terms with ``other_ids`` after ``lei``, in the schema's key order; a GLN or LEI that is
    not one by its form is kept among the other identifiers (with its scheme), said."""
    other = list(other_ids or [])
    out = {}
    for key, value in extra.items():
        if key in _ID_PATTERNS and value is not None and not _ID_PATTERNS[key][1].match(value):
            scheme = _ID_PATTERNS[key][0]
            notes.append(f"{key}: {value!r} (scheme {scheme}) is no {key.upper()} by its form; kept in other_ids")
            other.append(f"{scheme}:{value}")
            value = None
        out[key] = value
        if key == "lei":
            out["other_ids"] = other[:5] or None
    return out


def _address(address: Any) -> Any:
    """The invoice reading's address in the schema's shape (ZUGFeRD 1: no binding to read the parts by)."""
    if not isinstance(address, dict):
        return address
    return {
        "street": address["street"],
        "additional_street": None,
        "address_line_3": None,
        "postal_code": address["postal_code"],
        "city": address["city"],
        "subdivision": None,
        "country": address["country"],
    }


def _electronic(node) -> str | None:
    """``EM`` addresses as the e-mail itself, others as ``scheme:id`` (the schema's form)."""
    if node is None or not " ".join((node.text or "").split()):
        return None
    value = " ".join(node.text.split())
    scheme = node.get("schemeID") or ""
    return value if scheme.upper() == "EM" or not scheme else f"{scheme}:{value}"


def _party_terms(*, legal_id: str | None, identifiers: list, contact: tuple, endpoint) -> dict:
    """A seller's or buyer's further terms, either syntax: its legal id, GLN and LEI among its scheme-marked
    identifiers, its contact (name, phone, e-mail) and its electronic address."""
    ids = {(node.get("schemeID") or ""): text_at(node) for node in identifiers}
    return {
        "legal_id": legal_id,
        "gln": ids.get(_GLN),
        "lei": ids.get(_LEI),
        "contact": _contact(*contact),
        "electronic_address": _electronic(endpoint),
    }


def _contact(name, phone, email) -> dict | None:
    return {"name": name, "phone": phone, "email": email} if any((name, phone, email)) else None


def _payment_means(code: str | None, notes: list[str]) -> str | None:
    if code is None:
        return None
    word = payment_means_of(code)
    if word is None:
        notes.append(f"payment_means: the XML's code {code} has no word in the schema; null, payment_means_code {code}")
    return word


def _period(start: str | None, end: str | None) -> dict | None:
    return {"start": start, "end": end} if start or end else None


def _summed(amounts: list, flags: list[bool], *, charge: bool) -> int | float | None:
    """The sum of a line's allowances (``charge`` False) or charges, None when it has none."""
    known = [a for a, is_charge in zip(amounts, flags, strict=True) if is_charge == charge and a is not None]
    return plain_number(sum(known, Decimal(0))) if known else None


def _allowance(amount, reason, rate, category, *, charge: bool, code=None, base=None, percent=None) -> dict:
    return {
        "kind": "charge" if charge else "allowance",
        "reason": reason,
        "reason_code": code,
        "amount": plain_number(amount),
        "base_amount": plain_number(base),
        "percentage": plain_number(percent),
        "tax_rate": plain_number(rate),
        "vat_category": category,
    }


class _Cii:
    """The extra terms of a CII document (ZUGFeRD 1's element names where they differ)."""

    def __init__(self, root):
        self.root = root
        self.tx = find_one(root, "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction")
        self.agreement = find_one(self.tx, "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement")
        self.delivery = find_one(self.tx, "ApplicableHeaderTradeDelivery|ApplicableSupplyChainTradeDelivery")
        self.settlement = find_one(self.tx, "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement")
        self.summation = find_one(
            self.settlement, "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
        )

    def extras(self, notes: list[str]) -> dict:
        s = self.settlement
        preceding = find_one(s, "InvoiceReferencedDocument")
        period = find_one(s, "BillingSpecifiedPeriod")
        means = find_one(s, "SpecifiedTradeSettlementPaymentMeans")
        return {
            "buyer_reference": text_at(self.agreement, "BuyerReference"),
            "order_reference": text_at(self.agreement, "BuyerOrderReferencedDocument", "IssuerAssignedID"),
            "preceding": None
            if text_at(preceding, "IssuerAssignedID") is None
            else {
                "number": text_at(preceding, "IssuerAssignedID"),
                "issue_date": iso_date(text_at(preceding, "FormattedIssueDateTime", "DateTimeString")),
            },
            "delivery_date": iso_date(
                text_at(self.delivery, "ActualDeliverySupplyChainEvent", "OccurrenceDateTime", "DateTimeString")
            ),
            "period": _period(
                iso_date(text_at(period, "StartDateTime", "DateTimeString")),
                iso_date(text_at(period, "EndDateTime", "DateTimeString")),
            ),
            "seller": self._party("SellerTradeParty"),
            "buyer": self._party("BuyerTradeParty"),
            "lines": self._lines(),
            "taxes": [
                {
                    "category": text_at(t, "CategoryCode"),
                    "exemption_reason": text_at(t, "ExemptionReason"),
                    "exemption_code": text_at(t, "ExemptionReasonCode"),
                }
                for t in find_all(s, "ApplicableTradeTax")
            ],
            "allowances": [self._allowance(a) for a in find_all(s, "SpecifiedTradeAllowanceCharge")]
            + [self._logistics(c) for c in find_all(s, "SpecifiedLogisticsServiceCharge")],
            "rounding": plain_number(decimal_at(self.summation, "RoundingAmount")),
            "payment_means": _payment_means(text_at(means, "TypeCode"), notes),
            # an IBANID that is no IBAN (the invoice reading leaves it out) is still the account to pay to
            "account_number": text_at(means, "PayeePartyCreditorFinancialAccount", "ProprietaryID|IBANID"),
        }

    def _party(self, name: str) -> dict:
        party = find_one(self.agreement, name)
        contact = find_one(party, "DefinedTradeContact")
        return _party_terms(
            legal_id=text_at(party, "SpecifiedLegalOrganization", "ID"),
            identifiers=find_all(party, "GlobalID"),
            contact=(
                text_at(contact, "PersonName") or text_at(contact, "DepartmentName"),
                text_at(contact, "TelephoneUniversalCommunication", "CompleteNumber"),
                text_at(contact, "EmailURIUniversalCommunication", "URIID"),
            ),
            endpoint=find_one(party, "URIUniversalCommunication", "URIID"),
        )

    def _lines(self) -> list[dict]:
        out = []
        for _, _, settlement, product, _ in cii_positions(self.tx)[0]:  # the invoice reading's lines
            entries = find_all(settlement, "SpecifiedTradeAllowanceCharge")
            flags = [(text_at(a, "ChargeIndicator", "Indicator") or "").lower() == "true" for a in entries]
            amounts = [decimal_at(a, "ActualAmount") for a in entries]
            out.append(
                {
                    "item_id": text_at(product, "SellerAssignedID"),
                    "allowance": _summed(amounts, flags, charge=False),
                    "charge": _summed(amounts, flags, charge=True),
                    "category": text_at(settlement, "ApplicableTradeTax", "CategoryCode"),
                }
            )
        return out

    @staticmethod
    def _allowance(node) -> dict:
        return _cii_adjustment(
            node,
            ("ActualAmount", "Reason", "CategoryTradeTax"),
            charge=(text_at(node, "ChargeIndicator", "Indicator") or "").lower() == "true",
            code=text_at(node, "ReasonCode"),
            base=decimal_at(node, "BasisAmount"),
            percent=decimal_at(node, "CalculationPercent"),
        )

    @staticmethod
    def _logistics(node) -> dict:
        """A logistics service charge (freight; ZUGFeRD 1 and EXTENDED): a document charge in EN 16931 (BG-21)."""
        return _cii_adjustment(node, ("AppliedAmount", "Description", "AppliedTradeTax"), charge=True)


def _cii_adjustment(node, names: tuple[str, str, str], *, charge: bool, code=None, base=None, percent=None) -> dict:
    """A CII allowance or charge: its amount, reason and tax by their element names (``names``), the rest given."""
    amount, reason, tax_name = names
    tax = find_one(node, tax_name)
    return _allowance(
        decimal_at(node, amount),
        text_at(node, reason),
        decimal_at(tax, "RateApplicablePercent|ApplicablePercent"),
        text_at(tax, "CategoryCode"),
        charge=charge,
        code=code,
        base=base,
        percent=percent,
    )


class _Ubl:
    """The extra terms of a UBL 2.1 ``Invoice`` / ``CreditNote``."""

    def __init__(self, root):
        self.root = root

    def extras(self, notes: list[str]) -> dict:
        r = self.root
        preceding = find_one(r, "BillingReference", "InvoiceDocumentReference")
        means = find_one(r, "PaymentMeans")
        account = text_at(means, "PayeeFinancialAccount", "ID")
        currency = text_at(r, "DocumentCurrencyCode")
        tax_total = ubl_tax_total(r, currency)  # the one in the document currency, as the invoice reading takes
        return {
            "buyer_reference": text_at(r, "BuyerReference"),
            "order_reference": text_at(r, "OrderReference", "ID"),
            "preceding": None
            if text_at(preceding, "ID") is None
            else {"number": text_at(preceding, "ID"), "issue_date": iso_date(text_at(preceding, "IssueDate"))},
            "delivery_date": iso_date(text_at(r, "Delivery", "ActualDeliveryDate")),
            "period": _period(
                iso_date(text_at(r, "InvoicePeriod", "StartDate")), iso_date(text_at(r, "InvoicePeriod", "EndDate"))
            ),
            "seller": self._party("AccountingSupplierParty"),
            "buyer": self._party("AccountingCustomerParty"),
            "lines": [self._line(x) for x in find_all(r, "InvoiceLine|CreditNoteLine")],
            "taxes": [
                {
                    "category": text_at(sub, "TaxCategory", "ID"),
                    "exemption_reason": text_at(sub, "TaxCategory", "TaxExemptionReason"),
                    "exemption_code": text_at(sub, "TaxCategory", "TaxExemptionReasonCode"),
                }
                for sub in find_all(tax_total, "TaxSubtotal")
            ],
            "allowances": [self._allowance(a) for a in find_all(r, "AllowanceCharge")],
            "rounding": plain_number(decimal_at(r, "LegalMonetaryTotal", "PayableRoundingAmount")),
            "payment_means": _payment_means(text_at(means, "PaymentMeansCode"), notes),
            "account_number": account,  # kept only where the invoice reading found no IBAN in it
        }

    def _party(self, name: str) -> dict:
        party = find_one(self.root, name, "Party")
        contact = find_one(party, "Contact")
        return _party_terms(
            legal_id=text_at(party, "PartyLegalEntity", "CompanyID"),
            identifiers=find_all(party, "PartyIdentification", "ID"),
            contact=(text_at(contact, "Name"), text_at(contact, "Telephone"), text_at(contact, "ElectronicMail")),
            endpoint=find_one(party, "EndpointID"),
        )

    @staticmethod
    def _line(line) -> dict:
        entries = find_all(line, "AllowanceCharge")
        flags = [(text_at(a, "ChargeIndicator") or "").lower() == "true" for a in entries]
        amounts = [decimal_at(a, "Amount") for a in entries]
        return {
            "item_id": text_at(line, "Item", "SellersItemIdentification", "ID"),
            "allowance": _summed(amounts, flags, charge=False),
            "charge": _summed(amounts, flags, charge=True),
            "category": text_at(line, "Item", "ClassifiedTaxCategory", "ID"),
        }

    @staticmethod
    def _allowance(node) -> dict:
        return _allowance(
            decimal_at(node, "Amount"),
            text_at(node, "AllowanceChargeReason"),
            decimal_at(node, "TaxCategory", "Percent"),
            text_at(node, "TaxCategory", "ID"),
            charge=(text_at(node, "ChargeIndicator") or "").lower() == "true",
            code=text_at(node, "AllowanceChargeReasonCode"),
            base=decimal_at(node, "BaseAmount"),
            percent=decimal_at(node, "MultiplierFactorNumeric"),
        )
