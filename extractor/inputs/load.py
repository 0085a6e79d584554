"""Open a source (a path, the file's bytes, or a PIL image) as a ``Document``: read it once within the size limit,
tell its kind from its content, and hand it to the PDF (``pdf``) or image (``image``) loader; XML (a received
e-invoice) has no pages to render: its ``Document`` (``kind="xml"``) goes on to ``einvoice.receive``, which reads it.

Decisions, in one place:

* **Content decides, not the extension.** Files are sniffed by magic bytes. A PNG named ``scan.pdf`` is read as the
  PNG it is, with a document warning ("content is PNG, not PDF ..."). A ``.pdf`` whose content is no known type is
  ``not_a_pdf``; any other unknown content is ``unsupported_type``.
* **Read once.** A file is read whole, once, and refused when it is missing, not a regular file, empty or over
  ``max_bytes`` (checked before reading and again on what was read: the file may grow meanwhile).
* **OCR** (off unless ``RasterSettings.ocr`` asks) runs page by page while the document is rendered; ``Page.ocr``
  holds the result (lines and words with boxes). Within a time budget (``deadline``) pages are read only while their
  estimated cost still fits.

pdfium is not thread-safe: ``load_document`` takes ``pdf.PDFIUM_LOCK``, so one thread at a time renders in a process.
"""

from __future__ import annotations

import hashlib
import re
import stat
from pathlib import Path

from PIL import Image

from extractor.errors import InputError
from extractor.inputs import ocr
from extractor.inputs.discover import display_name
from extractor.inputs.document import Document, RasterSettings
from extractor.inputs.image import load_image, load_pil
from extractor.inputs.pdf import PDFIUM_LOCK, load_pdf
from extractor.inputs.xmlhead import xml_head

_SUFFIX_KIND = {
    ".pdf": "pdf",
    ".png": "png",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
    ".tif": "tiff",
    ".tiff": "tiff",
    ".webp": "webp",
    ".xml": "xml",
}
# XML by its first characters (after a UTF-8 BOM and whitespace): a declaration, a comment or an element; HTML
# (its DOCTYPE or root element, ``xmlhead``) is not
_XML_START = re.compile(rb"(\xef\xbb\xbf)?\s*(<\?xml[\s?]|<!--|<[A-Za-z_][\w.:-]*[\s/>]|<!DOCTYPE\s)")
_LOOKS_LIKE = (
    (b"<?xml", "an XML document"),
    (b"PK\x03\x04", "a ZIP archive (e.g. DOCX or XLSX)"),
    (b"GIF8", "a GIF image"),
    (b"BM", "a BMP image"),
    (b"\x00\x00\x01\x00", "an ICO image"),
    (b"{", "JSON"),
    (b"%!PS", "a PostScript file"),
)


def load_document(
    source: Path | bytes | Image.Image, *, settings: RasterSettings = RasterSettings(), deadline: float | None = None
) -> Document:
    """Read a PDF or image and render its selected pages (thread-safe: pdfium calls take ``PDFIUM_LOCK``).

    See ``_load_document`` for arguments, return value and errors.
    """
    with PDFIUM_LOCK:
        return _load_document(source, settings=settings, budget=ocr.OcrBudget(deadline))


def _load_document(source: Path | bytes | Image.Image, *, settings: RasterSettings, budget: ocr.OcrBudget) -> Document:
    """Read a PDF or image and render its selected pages.

    Args:
        source: a path, the file's bytes, or a PIL image.
        settings: budget, page selection, passwords, limits and OCR.
        budget: OCR starts on a page only while its estimated cost fits before this budget's deadline.

    Returns:
        The Document.

    Raises:
        InputError: with code ``not_found``, ``unreadable``, ``empty``, ``not_a_pdf``, ``unsupported_type``,
            ``corrupt``, ``encrypted``, ``wrong_password`` or ``too_large``; the message names the file and the
            reason.
    """
    if isinstance(source, Image.Image):
        return load_pil(source, settings=settings, budget=budget)
    if isinstance(source, (bytes, bytearray, memoryview)):
        name, suffix, data = "<bytes>", "", bytes(source)
        _check_bytes(name, len(data), settings.max_bytes)
    else:
        path = Path(source)
        name, suffix, data = display_name(source), path.suffix.lower(), _read_file(path, settings.max_bytes)
    if not data:
        raise InputError(f"{name}: the file is empty (0 bytes)", source=name, code="empty")
    kind = _content_kind(data, name, suffix)
    warnings = _kind_warnings(kind, suffix)
    if kind == "xml":  # a received e-invoice: nothing to render; einvoice.receive reads the bytes
        return Document(
            source=name,
            sha256=hashlib.sha256(data).hexdigest(),
            kind="xml",
            page_count=0,
            pages=(),
            warnings=tuple(warnings),
        )
    if kind == "pdf":
        page_count, pages, more = load_pdf(data, name=name, settings=settings, budget=budget)
    else:
        page_count, pages, more = load_image(data, kind=kind, name=name, settings=settings, budget=budget)
    return Document(
        source=name,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="pdf" if kind == "pdf" else "image",
        page_count=page_count,
        pages=pages,
        warnings=tuple(warnings + more),
    )


def _content_kind(data: bytes, name: str, suffix: str) -> str:
    kind = sniff_kind(data[:1024])
    if kind is not None:
        return kind
    what = _looks_like(data[:1024])
    if suffix == ".pdf":
        raise InputError(f"{name}: not a PDF (the content looks like {what})", source=name, code="not_a_pdf")
    raise InputError(
        f"{name}: unsupported file type ({what}); expected PDF, PNG, JPEG, TIFF or WebP",
        source=name,
        code="unsupported_type",
    )


def _kind_warnings(kind: str, suffix: str) -> list[str]:
    expected = _SUFFIX_KIND.get(suffix)
    if expected is None or expected == kind:
        return []
    return [f"content is {kind.upper()}, not {expected.upper()} as the file name says; read as {kind.upper()}"]


def sniff_kind(head: bytes) -> str | None:
    """Identify a supported file type by its magic bytes.

    Args:
        head: the first bytes of the file (1,024 are enough; a PDF header may sit anywhere in them).

    Returns:
        ``pdf``, ``png``, ``jpeg``, ``tiff``, ``webp``, ``xml`` (not HTML: an e-invoice, or XML that is none,
        which ``einvoice.receive`` names), or None.
    """
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return "tiff"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if _XML_START.match(head) and not xml_head(head).html:
        return "xml"
    return None


def _looks_like(head: bytes) -> str:
    """Name unsupported content in plain words, for error messages."""
    start = head.lstrip()[:512]
    if b"<html" in start.lower() or start.lower().startswith(b"<!doctype html"):
        return "an HTML page"
    for magic, words in _LOOKS_LIKE:
        if start.startswith(magic):
            return words
    try:
        head[:512].decode("utf-8")
    except UnicodeDecodeError:
        return "unrecognised binary data"
    return "plain text"


def _read_file(path: Path, max_bytes: int) -> bytes:
    """Read a whole file once, refusing missing, special and oversized files."""
    name = display_name(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{name}: is a directory, not a file", source=name, code="unreadable")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{name}: is not a regular file", source=name, code="unreadable")
        _check_bytes(name, info.st_size, max_bytes)
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)  # bounded: the file may have grown since stat()
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"{name}: no such file", source=name, code="not_found") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied; cannot read the file", source=name, code="unreadable") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"{name}: cannot read the file ({reason})", source=name, code="unreadable") from None
    _check_bytes(name, len(data), max_bytes)
    return data


def _check_bytes(name: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise InputError(
            f"{name}: the file is {size:,} bytes, over the {max_bytes:,}-byte limit", source=name, code="too_large"
        )
