"""A record's e-invoice files: its data as EN 16931 Business Terms (``record_terms``), written as each format's XML
(``einvoice_xml``: what ``report.einvoice_report`` checks and the record's ``sha256`` names) and as the file ``--out``
writes (``einvoice_bytes``: the XML, or for ``facturx`` the source PDF carrying the CII; the Python API's call)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from extractor.einvoice.facturx import facturx_pdf
from extractor.einvoice.formats import format_of
from extractor.einvoice.read_record import terms_from
from extractor.einvoice.terms import Terms
from extractor.record import Record


def record_terms(data: Mapping, extra: Mapping) -> Terms:
    """The Terms of a record's data; one read from embedded XML keeps the XML's type code and unit codes."""
    embedded = extra.get("embedded")
    if extra.get("data_source") == "embedded_xml" and isinstance(embedded, Mapping):
        totals = embedded.get("totals") if isinstance(embedded.get("totals"), Mapping) else None
        return terms_from(data, type_code=embedded.get("type_code") or None, unit_codes=True, totals=totals)
    return terms_from(data)


def record_parts(record: Record | Mapping) -> tuple[Any, Mapping, str, str]:
    """``(data, other keys, source, sha256)`` of a Record or its dict."""
    if isinstance(record, Record):
        return record.data, record.extra, record.source, record.sha256
    return record.get("data"), record, str(record.get("source") or ""), str(record.get("sha256") or "")


def einvoice_xml(record: Record | Mapping, fmt: str) -> bytes:
    """A record's invoice as e-invoice XML (for ``facturx``, the CII it embeds).

    Args:
        record: a Record (or its ``to_dict()``) of the invoice schema, with data.
        fmt: ``cii``, ``ubl``, ``facturx``, ``xrechnung-cii``, ``xrechnung-ubl`` or ``peppol``.

    Returns:
        The XML, UTF-8; deterministic for the same data (the record's ``einvoice`` entry holds its sha256).

    Raises:
        ValueError: an unknown format, or a record without data.
    """
    row = format_of(fmt)
    data, extra, _, _ = record_parts(record)
    if not isinstance(data, Mapping):
        raise ValueError("the record holds no invoice data to write as an e-invoice")
    return row.write(record_terms(data, extra))


def einvoice_bytes(record: Record | Mapping, fmt: str) -> bytes:
    """A record's e-invoice file, as ``--out`` writes it: the XML for every format but ``facturx``, the source PDF
    carrying the CII for ``facturx`` (the Python API's call).

    Raises:
        ValueError: an unknown format, or a record without data.
        EinvoiceWriteError: no Factur-X PDF for this record (``facturx.facturx_blocker``).
    """
    xml = einvoice_xml(record, fmt)
    if not format_of(fmt).pdf:
        return xml
    _, extra, source, sha256 = record_parts(record)
    return facturx_pdf(source=source, sha256=sha256, extra=extra, xml=xml)


__all__ = ["einvoice_bytes", "einvoice_xml", "record_parts", "record_terms"]
