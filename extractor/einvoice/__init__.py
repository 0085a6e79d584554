"""EN 16931 in one home: e-invoice XML in (CII D16B / ZUGFeRD 1, UBL 2.1; read exactly, no model), the rules'
arithmetic, and an invoice record out as EN 16931 XML (CII D16B, UBL 2.1; XRechnung 3.0, Peppol BIS Billing 3.0),
checked by the official CEN rules and, for XRechnung and Peppol, their own.

Stage: after ``extractor.inputs`` (which only finds the XML: a PDF's attachments, ``inputs.attachments``, and hands it
over) and before ``extractor.trust`` (whose checks compute the rules with ``arithmetic``; the findings of ``report``
feed ``trust.verdict.Signals``, which the pipeline decides a record's status from) and ``extractor.settings`` (which
checks ``Settings.einvoice`` against :data:`FORMATS`). It imports only lower stages (``record``, ``schema``,
``inputs.attachments``); the pipeline reads an embedded XML with ``read`` / ``read_en16931`` and calls
``report.einvoice_report``, the ``--out`` sink writes ``report.einvoice_bytes``, ``extract einvoice validate`` calls
``report.validate_file``. This module itself only names the formats (cheap to import: ``settings`` checks them; lxml
and saxonche load on use).

Modules, in: ``read`` (CII / UBL XML to the ``invoice`` schema), ``read_en16931`` (the terms ``invoice-en16931``
adds), ``xmltext`` (element steps and values by local name), ``codes`` (the code lists); rules: ``arithmetic`` (the
business rules on amounts as the CEN XSLT computes them); out: ``report`` (the calls above), ``terms`` (record ->
Business Terms, what is derived or left out), ``write`` (CII / UBL with lxml; XRechnung and Peppol are CII / UBL with
their BT-24 / BT-23), ``facturx`` (the source PDF carrying the CII), ``validate`` (saxonche + the pinned CEN,
XRechnung and Peppol XSLT, SVRL findings).
A converted paper invoice is structured import data for the recipient's books, not a legally issued e-invoice
(docs/einvoice.md).
"""

from __future__ import annotations

from collections.abc import Sequence

# format name -> the syntax the CEN rules check it as (``report.WRITERS`` holds the writers)
# (``facturx``: the source PDF with the CII embedded, ``facturx.facturx_pdf``)
WRITER_SYNTAX = {
    "cii": "CII",
    "ubl": "UBL",
    "facturx": "CII",
    "xrechnung-cii": "CII",
    "xrechnung-ubl": "UBL",
    "peppol": "UBL",
}
FORMATS = tuple(WRITER_SYNTAX)
# format -> the rule sets (``validate.RULE_SETS`` keys) it is checked by: CEN's, and a CIUS's on top
FORMAT_RULES = {
    "cii": ("cen",),
    "ubl": ("cen",),
    "facturx": ("cen",),
    "xrechnung-cii": ("cen", "xrechnung"),
    "xrechnung-ubl": ("cen", "xrechnung"),
    "peppol": ("cen", "peppol"),
}
EN16931 = "urn:cen.eu:en16931:2017"  # BT-24 of the core EN 16931 specification
XRECHNUNG = f"{EN16931}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"  # BT-24 of XRechnung 3.0
PEPPOL = f"{EN16931}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"  # BT-24 of Peppol BIS Billing 3.0
# BT-23: Peppol's billing process; XRechnung 3.0 adopts PEPPOL-EN16931-R001 (BT-23 required) and KoSIT's own
# examples carry this value too
PEPPOL_PROCESS = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
# format -> (BT-24 specification identifier, BT-23 business process or None) the writer puts in the document
SPECIFICATIONS: dict[str, tuple[str, str | None]] = {
    "cii": (EN16931, None),
    "ubl": (EN16931, None),
    "facturx": (EN16931, None),
    "xrechnung-cii": (XRECHNUNG, PEPPOL_PROCESS),
    "xrechnung-ubl": (XRECHNUNG, PEPPOL_PROCESS),
    "peppol": (PEPPOL, PEPPOL_PROCESS),
}


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


__all__ = ["FORMATS", "FORMAT_RULES", "SPECIFICATIONS", "WRITER_SYNTAX", "check_formats"]
