"""The e-invoice read from XML: what the syntax readers (``read_cii``, ``read_ubl``) map a document to, and what
``read.read_invoice_root`` completes (the derived unit prices, the cut lengths, the schema's verdict, the XML).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from extractor.fields_json import fields_json


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
        return fields_json(self, leave_out=("data", "xml"))


__all__ = ["EmbeddedInvoice"]
