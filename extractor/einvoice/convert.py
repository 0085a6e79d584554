"""``extract einvoice convert``: a received e-invoice (CII or UBL XML, or the XML a Factur-X / ZUGFeRD PDF carries)
written in another EN 16931 syntax or CIUS (a received CII as the UBL a user's books import, and back), through the
same reader as every input (``receive``, under ``invoice-en16931``: every term that schema holds) and the same writer
and rules as ``--einvoice`` (``report``). Nothing is guessed: a term the source has and the schema does not hold is
not written, and the rules say when that breaks the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractor.einvoice.formats import XML_FORMATS
from extractor.einvoice.read import read_embedded_xml
from extractor.einvoice.receive import receive_xml
from extractor.errors import InputError
from extractor.fields_json import fields_json

CONVERT_FORMATS = XML_FORMATS  # the formats that are XML alone (no Factur-X PDF: a received file has no source)
CONVERT_SCHEMA = "invoice-en16931"


@dataclass(frozen=True)
class Conversion:
    """One converted e-invoice.

    Attributes:
        source: the file as named.
        fmt: the format written.
        xml: the e-invoice written (UTF-8), whatever the rules said.
        check: the rules' verdict on it (the record's ``einvoice[fmt]`` entry: ``valid``, ``rules``, ``fatal``,
            ``warnings``, ``sha256``, ``notes``[, ``error``]).
        findings: what reading the source found suspect (``receive``: an unknown profile, amounts that are no
            numbers) and, per fatal rule, an ``einvoice_rule`` finding.
        source_notes: the reader's notes (a value cut, derived or left out).
    """

    source: str
    fmt: str
    xml: bytes
    check: dict
    findings: tuple[dict, ...] = ()
    source_notes: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        """Whether the rules ran and no fatal rule fired."""
        return bool(self.check.get("valid"))

    def to_dict(self) -> dict:
        """JSON shape: ``{"source", "format", "valid", "check", "findings", "source_notes"}`` (no XML)."""
        return {"source": self.source, "format": self.fmt, "valid": self.valid} | fields_json(
            self, leave_out=("source", "fmt", "xml")
        )


def convert(data: bytes, *, name: str, to: str) -> Conversion:
    """Convert a received e-invoice's bytes to ``to``.

    Args:
        data: the file's bytes: CII or UBL XML, or a PDF carrying one.
        name: the file as named in messages.
        to: one of :data:`CONVERT_FORMATS`.

    Returns:
        The Conversion (written even when a fatal rule fires: ``valid`` says so).

    Raises:
        ValueError: ``to`` is no XML format we write.
        InputError: the source cannot be read as an e-invoice (the message names the file and the reason).
    """
    from extractor.einvoice.record_xml import einvoice_xml
    from extractor.einvoice.report import einvoice_report

    fmt = to.strip().lower()
    if fmt not in CONVERT_FORMATS:
        raise ValueError(f"--to {to}: expected one of {', '.join(CONVERT_FORMATS)}")
    if data[:5] == b"%PDF-":
        found = read_embedded_xml(data)
        if found is None:
            raise InputError(f"{name}: the PDF carries no e-invoice XML", source=name, code="not_an_einvoice")
        data = found[1]
    received = receive_xml(data, name=name, schema=CONVERT_SCHEMA)
    invoice = received.invoice
    if invoice.schema_errors:
        first = invoice.schema_errors[0]
        raise InputError(
            f"{name}: the e-invoice lacks what an invoice needs ({len(invoice.schema_errors)} schema errors, the "
            f"first at {first.get('path') or '/'}: {first.get('message')})",
            source=name,
            code="not_an_einvoice",
        )
    record = {"data": invoice.data, "data_source": "embedded_xml", "embedded": invoice.to_dict(), "source": name}
    report = einvoice_report(invoice.data, [fmt], extra=record, source=name)
    return Conversion(
        source=name,
        fmt=fmt,
        xml=einvoice_xml(record, fmt),
        check=report.entries[fmt],
        findings=received.findings + report.findings,
        source_notes=tuple(invoice.notes),
    )


__all__ = ["CONVERT_FORMATS", "CONVERT_SCHEMA", "Conversion", "convert"]
