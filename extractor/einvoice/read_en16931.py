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
from typing import Any

from extractor.einvoice.codes import document_type_of
from extractor.einvoice.read import EmbeddedInvoice, fit_lengths
from extractor.einvoice.read_fields import GLN, LEI
from extractor.einvoice.read_terms import TermReader
from extractor.einvoice.syntaxes import SYNTAXES
from extractor.einvoice.term_values import scope_nodes
from extractor.einvoice.xmltext import parse_or_none


def as_en16931(embedded: EmbeddedInvoice, *, root=None) -> EmbeddedInvoice:
    """The embedded invoice with its data in the shape of ``schemas/invoice-en16931.schema.json`` (and its
    ``schema_errors`` against that schema).

    Args:
        embedded: the ``invoice`` reading.
        root: the root element of ``embedded.xml`` where the caller has parsed it already (``xmltext.xml_parser``),
            else None: it is parsed here.
    """
    from extractor.schema import load_schema, validate_data

    if root is None:
        root = parse_or_none(embedded.xml)
    if root is None:  # an EmbeddedInvoice is only ever made from XML that parsed
        raise ValueError("as_en16931: the embedded invoice's XML is not well-formed")
    notes = list(embedded.notes)
    extras = SYNTAXES[embedded.syntax].read_terms(root, notes)
    data = _merge(embedded.data, extras, embedded.type_code, notes, TermReader(root))
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


_ID_PATTERNS = {"gln": (GLN, re.compile(r"^[0-9]{13}$")), "lei": (LEI, re.compile(r"^[A-Z0-9]{18}[0-9]{2}$"))}


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
