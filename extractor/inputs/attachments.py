"""A PDF's attachments, where an embedded e-invoice XML (ZUGFeRD / Factur-X / XRechnung) travels: ``inputs`` only
finds the XML and hands it over; ``einvoice.read`` reads it.

An attachment is bounded **before it is inflated**: its declared size (``/Params /Size``) is checked against
``ATTACHMENT_MAX_BYTES`` first, then its stream is inflated in chunks of ``CHUNK`` bytes and stopped as soon as it
passes the limit (a declared size may lie). pdfium opens the PDF (its errors say corrupt or encrypted); the
attachments' streams are read raw with pypdf, since pdfium inflates an attachment whole even to say its size (a
311 KB PDF whose ``factur-x.xml`` inflates to 300 MB took ``extract run`` to 1.17 GB). An attachment over the limit
is refused with an ``InputError`` (``too_large``) naming it and the limit: the record's warning says so.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path
from typing import Any

from extractor.errors import InputError

ATTACHMENT_MAX_BYTES = 32 * 1024 * 1024  # an embedded file's bytes, inflated (e-invoice XML is far smaller)
CHUNK = 64 * 1024  # raw bytes inflated at a time
_FLATE = ("/FlateDecode", "/Fl")
_KNOWN = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml")


def pdf_attachments(source: str | Path | bytes, *, limit: int = ATTACHMENT_MAX_BYTES) -> list[tuple[str, bytes]]:
    """A PDF's attachments as ``(name, bytes)``, the well-known e-invoice names first, then other XML files
    (thread-safe: takes ``pdf.PDFIUM_LOCK``).

    Args:
        limit: bytes one attachment may inflate to.

    Raises:
        InputError: the file cannot be read (``not_found``, ``unreadable``), is not a PDF pdfium can open
            (``corrupt``, ``encrypted``), or an attachment inflates past ``limit`` (``too_large``: refused before
            or while it is inflated, never whole).
    """
    from extractor.inputs.pdf import PDFIUM_LOCK

    name, data = _source_bytes(source)
    with PDFIUM_LOCK:
        count = _attachment_count(data, name=name)
    if not count:
        return []
    found = _read_attachments(data, name=name, limit=limit)
    # well-known names first, then any other XML attachment
    found.sort(key=lambda item: (item[0].lower() not in _KNOWN, not item[0].lower().endswith(".xml")))
    return found


def _source_bytes(source: str | Path | bytes) -> tuple[str, bytes]:
    if not isinstance(source, (str, Path)):
        return "<bytes>", bytes(source)
    try:
        return str(source), Path(source).read_bytes()
    except FileNotFoundError as exc:
        raise InputError("file not found", source=str(source), code="not_found") from exc
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc}", source=str(source), code="unreadable") from exc


def _attachment_count(data: bytes, *, name: str) -> int:
    """How many attachments pdfium sees (it opens the PDF: its errors say corrupt or encrypted)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = "encrypted" if "password" in str(exc).lower() else "corrupt"
        raise InputError(f"cannot open the PDF to look for an embedded invoice: {exc}", source=name, code=code) from exc
    try:
        return pdf.count_attachments()
    finally:
        pdf.close()


def _read_attachments(data: bytes, *, name: str, limit: int) -> list[tuple[str, bytes]]:
    """The embedded files of the PDF's ``/EmbeddedFiles`` name tree (the ones pdfium counts), each bounded."""
    import pypdf
    from pypdf.errors import PyPdfError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):  # pdfium opened it; its streams stay closed to pypdf
            raise InputError("an encrypted PDF's attachments are not read", source=name, code="encrypted")
        files = _embedded_files(reader)
    except (PyPdfError, OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"cannot read the PDF's attachments: {exc}", source=name, code="corrupt") from exc
    found = []
    for attachment, stream in files:
        try:
            found.append((attachment, _bounded(stream, limit=limit)))
        except _OverLimit as exc:
            raise InputError(f"attachment {attachment!r}: {exc}", source=name, code="too_large") from None
        except (PyPdfError, zlib.error, OSError, ValueError, KeyError, TypeError):
            continue  # one unreadable attachment does not hide the others
    return found


def _embedded_files(reader: Any) -> list[tuple[str, Any]]:
    """``(name, stream)`` of each file in the catalog's ``/Names /EmbeddedFiles`` tree, in the tree's order."""
    names = reader.trailer["/Root"].get_object().get("/Names")
    tree = names.get_object().get("/EmbeddedFiles") if names is not None else None
    found: list[tuple[str, Any]] = []
    seen: set[int] = set()

    def walk(node: Any, depth: int) -> None:
        node = node.get_object()
        if depth > 32 or id(node) in seen:  # a looping or absurdly deep tree
            return
        seen.add(id(node))
        pairs = list(node.get("/Names") or [])
        for key, spec in zip(pairs[::2], pairs[1::2], strict=False):
            spec = spec.get_object()
            embedded = spec.get("/EF")
            stream = embedded.get_object().get("/UF") or embedded.get_object().get("/F") if embedded else None
            if stream is not None:
                found.append((str(spec.get("/UF") or spec.get("/F") or key), stream.get_object()))
        for kid in node.get("/Kids") or []:
            walk(kid, depth + 1)

    if tree is not None:
        walk(tree, 0)
    return found


class _OverLimit(Exception):
    """An attachment that passes the limit (declared, or as it inflates)."""


def _bounded(stream: Any, *, limit: int) -> bytes:
    """An embedded file's bytes, refused past ``limit``: by its declared size before anything is inflated, then
    as it inflates, ``CHUNK`` raw bytes at a time."""
    from pypdf.filters import ASCII85Decode, ASCIIHexDecode

    params = stream.get("/Params")
    declared = params.get_object().get("/Size") if params is not None else None
    if isinstance(declared, int) and declared > limit:
        raise _OverLimit(f"declares {declared:,} bytes, over the {limit:,}-byte limit for an attachment (not read)")
    filters = stream.get("/Filter")
    names = [str(f) for f in (filters if isinstance(filters, list) else [filters] if filters else [])]
    data = stream._data  # the raw, still encoded bytes: nothing inflated yet
    for position, name in enumerate(names):
        if name in _FLATE:
            if _predictor(stream.get("/DecodeParms"), position):
                raise ValueError("a predictor on an attachment's stream")  # not XML as writers write it: skipped
            data = _inflate(data, limit=limit)
        elif name in ("/ASCIIHexDecode", "/AHx"):
            data = ASCIIHexDecode.decode(data)  # these only shrink
        elif name in ("/ASCII85Decode", "/A85"):
            data = ASCII85Decode.decode(data)
        else:
            raise ValueError(f"filter {name} on an attachment's stream")  # LZW, RunLength...: skipped
    if len(data) > limit:
        raise _OverLimit(f"{len(data):,} bytes, over the {limit:,}-byte limit for an attachment (not read)")
    return bytes(data)


def _predictor(parms: Any, position: int) -> bool:
    """Whether the filter at ``position`` has a PNG/TIFF predictor (its ``/DecodeParms``)."""
    parms = parms.get_object() if parms is not None else None
    if isinstance(parms, list):
        parms = parms[position].get_object() if position < len(parms) and parms[position] is not None else None
    return bool(parms) and int(parms.get("/Predictor", 1)) > 1


def _inflate(raw: bytes, *, limit: int) -> bytes:
    """Flate-decoded ``raw``, ``CHUNK`` bytes in at a time and never more than ``limit`` + 1 bytes out.

    Raises:
        _OverLimit: it inflates past ``limit``.
    """
    inflater = zlib.decompressobj()
    out = bytearray()
    for start in range(0, len(raw), CHUNK):
        pending = raw[start : start + CHUNK]
        while pending:
            out += inflater.decompress(pending, limit + 1 - len(out))
            if len(out) > limit:
                raise _OverLimit(f"inflates past the {limit:,}-byte limit for an attachment (stopped there)")
            pending = inflater.unconsumed_tail
        if inflater.eof:
            break
    return bytes(out)
