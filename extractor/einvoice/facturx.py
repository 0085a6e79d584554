"""Factur-X / ZUGFeRD out: the source PDF with our CII embedded as ``factur-x.xml`` (the ``facturx`` format).

The factur-x library (akretion, BSD) attaches the XML with its ``/AF`` association (``AFRelationship /Data``) and
writes the PDF/A-3 and Factur-X XMP metadata (``fx:ConformanceLevel`` EN 16931); its own XSD check of the Factur-X
profile runs too (offline), its schematron call (a remote server) never: the CEN rules have already run here. The
page content stays the source's own: the result is the same document carrying its data, readable back by our
embedded-XML reader. It is not made PDF/A-3 conformant beyond the metadata (fonts, colour profiles are the
source's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from extractor.errors import ExtractorError

LEVEL = "en16931"  # the Factur-X profile our CII follows (BT-24 urn:cen.eu:en16931:2017)


class EinvoiceWriteError(ExtractorError):
    """A Factur-X PDF cannot be written for this record (no PDF source, a changed file, a library error)."""

    code = "einvoice_write"


def facturx_blocker(source: str | None, extra: Mapping) -> str | None:
    """Why a record cannot become a Factur-X PDF, or None when it can.

    Args:
        source: the record's ``source`` (the input as given).
        extra: the record's other keys (``part``, ``data_source``).
    """
    if extra.get("part"):
        return "a file of several invoices has no Factur-X PDF per invoice"
    if extra.get("data_source") == "embedded_xml":
        return "the source PDF already carries e-invoice XML"
    try:
        with open(source or "", "rb") as handle:
            head = handle.read(5)
    except OSError as exc:
        return f"the source PDF cannot be read ({exc.strerror or exc})"
    return None if head == b"%PDF-" else "the source is not a PDF"


def facturx_pdf(*, source: str, sha256: str, extra: Mapping, xml: bytes) -> bytes:
    """The source PDF with ``xml`` (our CII) embedded as Factur-X EN 16931.

    Args:
        source: the record's source PDF.
        sha256: the record's hash of it (the file must not have changed since it was extracted).
        extra: the record's other keys.
        xml: the CII that was checked.

    Raises:
        EinvoiceWriteError: ``facturx_blocker`` says why not, the file changed, or the library failed.
    """
    blocker = facturx_blocker(source, extra)
    if blocker is not None:
        raise EinvoiceWriteError(f"{source}: {blocker}", source=source)
    data = Path(source).read_bytes()
    if sha256 and hashlib.sha256(data).hexdigest() != sha256:
        raise EinvoiceWriteError(f"{source}: the file changed after it was extracted", source=source)
    try:
        from facturx import generate_from_binary
    except ImportError as exc:
        raise EinvoiceWriteError(f"the factur-x library is not installed ({exc})", source=source) from exc
    try:
        return generate_from_binary(data, xml, flavor="factur-x", level=LEVEL, check_xsd=True, check_schematron=False)
    except Exception as exc:  # the library raises plain Exceptions for an XSD error or a PDF it cannot read
        raise EinvoiceWriteError(f"{source}: the Factur-X PDF could not be made ({exc})", source=source) from exc
