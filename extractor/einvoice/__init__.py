"""EN 16931 in one home: e-invoice XML in (CII D16B / ZUGFeRD 1, UBL 2.1; read exactly, no model), the rules'
arithmetic, and an invoice record out as EN 16931 XML (CII D16B, UBL 2.1; XRechnung 3.0, Peppol BIS Billing 3.0),
checked by the official CEN rules and, for XRechnung and Peppol, their own.

Stage: after ``extractor.inputs`` (which only finds the XML: a PDF's attachments, ``inputs.attachments``, and hands it
over) and before ``extractor.trust`` (whose checks compute the rules with ``arithmetic``; the findings of ``report``
feed ``trust.verdict.Signals``, which the pipeline decides a record's status from) and ``extractor.settings`` (which
checks ``Settings.einvoice`` against :data:`FORMATS`). It imports only lower stages (``record``, ``schema``,
``inputs.attachments``); the pipeline reads an embedded XML with ``read`` / ``read_en16931`` and calls
``report.einvoice_report``, the ``--out`` sink writes ``record_xml.einvoice_bytes``, ``extract einvoice validate``
calls ``check_files.validate_file``. This module itself only names the formats (cheap to import: ``settings``
checks them; lxml and saxonche load on use).

Modules, in: ``read`` (CII / UBL XML to the ``invoice`` schema), ``read_en16931`` (the terms ``invoice-en16931``
adds), ``receive`` (a received, bare e-invoice XML: recognised, refused when hostile or no e-invoice, read),
``bindings`` (EN 16931's CII and UBL syntax bindings: each BT's XPath in each), ``read_terms`` (the further terms
read through them; what the schema does not hold, named), ``lossless`` (a source against our CII and UBL, term by
term), ``xmltext`` (element steps and values by local name), ``codes`` (the code lists); rules: ``arithmetic`` (the
business rules on amounts as the CEN XSLT computes them); out: ``formats`` (the table of formats: one row each, every
surface reads it), ``record_xml`` (a record's e-invoice files), ``report`` (the record's report: its formats and its
source XML checked), ``check_files`` (``extract einvoice validate``), ``terms`` (record -> Business Terms, what is
derived or left out), ``write`` / ``write_ubl`` (CII / UBL with lxml, sharing ``xmlwrite``; XRechnung and Peppol
are CII / UBL with their BT-24 / BT-23), ``facturx`` (the source PDF carrying the CII), ``validate`` (saxonche + the
pinned CEN, XRechnung and Peppol XSLT, SVRL findings), ``convert`` (``extract einvoice convert``: reader, writer
and rules).
A converted paper invoice is structured import data for the recipient's books, not a legally issued e-invoice
(docs/einvoice.md).
"""

from __future__ import annotations

from extractor.einvoice.formats import FORMATS, check_formats

# What e-invoices written from the ``invoice`` schema lack (said when ``--einvoice`` runs with ``--schema invoice``)
INVOICE_SCHEMA_MISSES = (
    "the invoice schema has no place for VAT categories and exemption reasons, document allowances and charges, "
    "the document type, references, delivery, typed party identifiers, contacts, payment means and rounding: "
    "the e-invoices lack them, and may fire EN 16931 rules (BR-47, BR-CO-04, BR-CO-11/12, BR-S-08) where the "
    "invoice has them; without --schema, --einvoice reads invoice-en16931, which holds them"
)


__all__ = ["FORMATS", "INVOICE_SCHEMA_MISSES", "check_formats"]
