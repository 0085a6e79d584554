"""A PDF's attachments, where an embedded e-invoice XML (ZUGFeRD / Factur-X / XRechnung) travels: ``inputs`` only
finds the XML and hands it over; ``einvoice.read`` reads it.
"""

from __future__ import annotations

from pathlib import Path

from extractor.errors import InputError


def pdf_attachments(source: str | Path | bytes) -> list[tuple[str, bytes]]:
    """A PDF's attachments as ``(name, bytes)``, the well-known e-invoice names first, then other XML files
    (thread-safe: takes ``pdf.PDFIUM_LOCK``).

    Raises:
        InputError: the file cannot be read (``not_found``, ``unreadable``) or is not a PDF pdfium can open
            (``corrupt``, ``encrypted``).
    """
    from extractor.inputs.pdf import PDFIUM_LOCK

    with PDFIUM_LOCK:
        return _attachments(source)


def _attachments(source: str | Path | bytes) -> list[tuple[str, bytes]]:
    """A PDF's attachments as ``(name, bytes)``, the well-known e-invoice names first, then other XML files."""
    import pypdfium2 as pdfium

    name = "<bytes>"
    if isinstance(source, (str, Path)):
        name = str(source)
        try:
            data = Path(source).read_bytes()
        except FileNotFoundError as exc:
            raise InputError("file not found", source=name, code="not_found") from exc
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc}", source=name, code="unreadable") from exc
    else:
        data = bytes(source)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = "encrypted" if "password" in str(exc).lower() else "corrupt"
        raise InputError(f"cannot open the PDF to look for an embedded invoice: {exc}", source=name, code=code) from exc
    try:
        found = []
        for i in range(pdf.count_attachments()):
            try:
                attachment = pdf.get_attachment(i)
                found.append((attachment.get_name() or "", bytes(attachment.get_data())))
            except (pdfium.PdfiumError, OSError, ValueError):
                continue  # one unreadable attachment does not hide the others
    finally:
        pdf.close()
    # well-known names first, then any other XML attachment
    known = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml")
    found.sort(key=lambda item: (item[0].lower() not in known, not item[0].lower().endswith(".xml")))
    return found
