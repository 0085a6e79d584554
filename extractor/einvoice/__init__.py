"""E-invoices out: an invoice record as EN 16931 XML (CII D16B, UBL 2.1), checked by the official CEN rules.

Stage: after ``extractor.trust`` (its findings feed ``trust.verdict.Signals``, which the pipeline decides a record's
status from) and before ``extractor.settings`` (which checks ``Settings.einvoice`` against :data:`FORMATS`). It
imports only lower stages (``record``, ``inputs.embedded``); the pipeline calls ``report.einvoice_report``, the
``--out`` sink writes ``report.einvoice_bytes``, ``extract einvoice validate`` calls ``report.validate_file``. This
module itself only names the formats (cheap to import: ``settings`` checks them; lxml and saxonche load on use).

Modules: ``report`` (the calls above), ``terms`` (record -> Business Terms, what is derived or left out),
``write`` (CII / UBL with lxml), ``facturx`` (the source PDF carrying the CII), ``validate`` (saxonche + the
pinned CEN XSLT, SVRL findings). A converted paper invoice is structured import data for the recipient's books,
not a legally issued e-invoice (docs/einvoice.md).
"""

from __future__ import annotations

from collections.abc import Sequence

# format name -> the syntax the CEN rules check it as (``report.WRITERS`` holds the writers)
# (``facturx``: the source PDF with the CII embedded, ``facturx.facturx_pdf``)
WRITER_SYNTAX = {"cii": "CII", "ubl": "UBL", "facturx": "CII"}
FORMATS = tuple(WRITER_SYNTAX)


def check_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """The formats as a tuple, each known and once (``Settings.einvoice``).

    Raises:
        ValueError: an unknown format, naming the known ones.
    """
    out = tuple(dict.fromkeys(f.strip().lower() for f in formats if f.strip()))
    unknown = [f for f in out if f not in WRITER_SYNTAX]
    if unknown:
        raise ValueError(f"e-invoice format {', '.join(unknown)}: expected one of {', '.join(FORMATS)}")
    return out


__all__ = ["FORMATS", "WRITER_SYNTAX", "check_formats"]
