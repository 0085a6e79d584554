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

from dataclasses import replace
from decimal import Decimal, Inexact, localcontext
from pathlib import Path
from typing import Any

from extractor.einvoice.embedded import EmbeddedInvoice
from extractor.einvoice.syntaxes import syntax_of_root
from extractor.einvoice.xmltext import parse_or_none, plain_number
from extractor.inputs.attachments import pdf_attachments


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
    root = parse_or_none(xml)  # no DTDs, entities or network: the XML comes from an untrusted PDF
    return None if root is None else read_invoice_root(root, xml=xml, attachment=attachment)


def read_invoice_root(root, *, xml: bytes, attachment: str = "") -> EmbeddedInvoice | None:
    """Map an already parsed CII or UBL invoice to the invoice schema (a caller that parsed the XML to check it
    parses it once).

    Args:
        root: the root element of ``xml``, parsed with ``xmltext.xml_parser``.
        xml: the XML document, kept in the result.
        attachment: the attachment's name, kept in the result.

    Returns:
        The EmbeddedInvoice, or None when the root is not a CII / UBL invoice's.
    """
    syntax_reader = syntax_of_root(root)
    if syntax_reader is None:
        return None
    reading = syntax_reader.read_invoice(root)
    notes = list(reading.notes)
    derive_unit_prices(reading.data["line_items"], notes)
    fit_lengths(reading.data, notes)
    from extractor.schema import load_schema, validate_data

    errors = validate_data(reading.data, load_schema("invoice"))
    return replace(reading, attachment=attachment, notes=tuple(notes), schema_errors=tuple(errors), xml=bytes(xml))


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
