"""The wire format between the render pool (``pool``) and its worker processes (``render_worker``): length-prefixed
frames, and the JSON and raw pixels that carry settings to a worker and a rendered ``Document`` back.

Decisions, in one place:

* **Frames.** A ``>QQ`` header (JSON header and payload sizes), the JSON header, then raw bytes, on the worker's
  stdin and stdout. No pickle: the parent only ever parses JSON and raw RGB pixels from a process that read hostile
  bytes. ``ensure_ascii`` JSON, so lone surrogates in file names and page texts survive the trip.
* **Messages.** The worker says ``ready`` once it has started; the parent sends ``job`` (the settings, and the path,
  or the file's bytes as payload); the worker answers ``document`` (each page's JSON, with its OCR result and
  text-layer lines, in the header; the pages' RGB pixels in the payload, one after another) or ``error`` (code and
  message).
* **The parent trusts nothing it reads.** A frame announcing more than ``_MAX_HEADER`` header bytes or the payload
  limit (``max_pages x max_pixels x 3``) is refused before its buffer is allocated; ``document_from_frame`` checks
  every page's size against the pixel budget and the payload's length (``ValueError``).
* **Non-blocking on the parent's side.** ``FrameReader`` fills one frame from a non-blocking fd as bytes arrive, so
  the parent never blocks on one worker; the worker's side (``send``, ``recv``) blocks.
"""

from __future__ import annotations

import functools
import json
import os
import struct
from collections.abc import Callable, Sequence
from typing import Any, cast

from PIL import Image

from extractor.inputs.document import Document, Page, PageSelection, RasterSettings
from extractor.inputs.ocr import OcrSettings
from extractor.inputs.ocrresult import OcrPage
from extractor.inputs.textlayer import TextLine

_FRAME = struct.Struct(">QQ")
_MAX_HEADER = 256 * 1024**2  # the page texts, OCR results and text-layer lines of a document are far below this
_READ_CHUNK = 1 << 20


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def send(fd: int, header: dict, payload: bytes | Sequence[Any] = b"", *, size: int | None = None) -> None:
    """Write one frame; ``payload`` is bytes, or a sequence of callables each returning the next piece (``size``
    bytes in all), so a document's pages are converted and written one at a time."""
    head = json.dumps(header).encode("ascii")  # ensure_ascii: lone surrogates in names and texts survive
    pieces: Sequence[Callable[[], Any]]
    if isinstance(payload, (bytes, bytearray, memoryview)):
        pieces = [lambda: payload]
    else:  # (mypy keeps bytes in the union here: bytes is itself a Sequence)
        pieces = cast(Sequence[Callable[[], Any]], payload)
    total = len(payload) if size is None else size
    _write_all(fd, _FRAME.pack(len(head), total) + head)
    for piece in pieces:
        data = piece()
        if data:
            _write_all(fd, data)


def _read_exact(fd: int, size: int) -> bytes | None:
    """Blocking read of exactly ``size`` bytes; None on end of stream."""
    parts, left = [], size
    while left:
        chunk = os.read(fd, min(left, _READ_CHUNK))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def recv(fd: int) -> tuple[dict, bytes] | None:
    """Blocking read of one frame (worker side); None when the parent closed the stream."""
    sizes = _read_exact(fd, _FRAME.size)
    if sizes is None:
        return None
    head_len, payload_len = _FRAME.unpack(sizes)
    head = _read_exact(fd, head_len)
    payload = _read_exact(fd, payload_len) if payload_len else b""
    if head is None or payload is None:
        return None
    return json.loads(head), payload


class FrameReader:
    """Parent side: fills one frame from a non-blocking fd as bytes arrive (the parent never blocks on one worker)."""

    def __init__(self, max_payload: int) -> None:
        self.max_payload = max_payload
        self._reset()

    def _reset(self) -> None:
        self.prefix = b""
        self.body: bytearray | None = None
        self.head_len = 0
        self.filled = 0

    @property
    def in_frame(self) -> bool:
        """True once the first bytes of a frame have arrived."""
        return bool(self.prefix)

    def fill(self, fd: int) -> int:
        """Read what is available (one read); return the bytes read, 0 at end of stream.

        Raises:
            BlockingIOError: nothing to read now.
            ValueError: the frame announces sizes over the limits.
        """
        if self.body is None:
            chunk = os.read(fd, _FRAME.size - len(self.prefix))
            self.prefix += chunk
            if len(self.prefix) == _FRAME.size:
                self.head_len, payload_len = _FRAME.unpack(self.prefix)
                if self.head_len > _MAX_HEADER or payload_len > self.max_payload:
                    raise ValueError(f"a frame of {self.head_len:,} + {payload_len:,} bytes is over the limit")
                self.body = bytearray(self.head_len + payload_len)  # once: no regrowing of a ~200 MB buffer
            return len(chunk)
        count = os.readv(fd, [memoryview(self.body)[self.filled :]])
        self.filled += count
        return count

    def frame(self) -> tuple[dict, memoryview] | None:
        """Return the frame when complete (and start over), else None."""
        if self.body is None or self.filled < len(self.body):
            return None
        body = memoryview(self.body)
        header = json.loads(bytes(body[: self.head_len]))
        payload = body[self.head_len :]
        self._reset()
        return header, payload


def raster_to_json(raster: RasterSettings) -> dict:
    """The rasterizer settings as a job frame's JSON (``raster_from_json`` reads it back)."""
    return {
        "max_pixels": raster.max_pixels,
        "passwords": list(raster.passwords),
        "pages": None if raster.pages is None else [list(r) for r in raster.pages.ranges],
        "max_pages": raster.max_pages,
        "max_bytes": raster.max_bytes,
        "min_side": raster.min_side,
        "ocr": raster.ocr.to_dict(),
        "text_boxes": raster.text_boxes,
    }


def raster_from_json(data: dict) -> RasterSettings:
    """The rasterizer settings from ``raster_to_json``'s JSON (``UsageError`` when they are invalid)."""
    pages = None if data["pages"] is None else PageSelection(tuple((a, b) for a, b in data["pages"]))
    return RasterSettings(
        max_pixels=data["max_pixels"],
        pages=pages,
        passwords=tuple(data["passwords"]),
        max_pages=data["max_pages"],
        max_bytes=data["max_bytes"],
        min_side=data["min_side"],
        ocr=OcrSettings.from_dict(data["ocr"]),
        text_boxes=data["text_boxes"],
    )


def document_to_frame(document: Document) -> tuple[dict, list, int]:
    """The frame for a document: header, one callable per page returning its RGB bytes, and their total size."""
    pages = [
        {
            "index": page.index,
            "size": list(page.image.size),
            "width_pt": page.width_pt,
            "height_pt": page.height_pt,
            "text": page.text,
            "warnings": list(page.warnings),
            "ocr": None if page.ocr is None else page.ocr.to_dict(),
            "lines": [line.to_dict() for line in page.lines],
        }
        for page in document.pages
    ]
    header = {
        "type": "document",
        "source": document.source,
        "sha256": document.sha256,
        "kind": document.kind,
        "page_count": document.page_count,
        "warnings": list(document.warnings),
        "pages": pages,
    }
    size = sum(page.image.width * page.image.height * 3 for page in document.pages)
    return header, [functools.partial(_rgb_bytes, page.image) for page in document.pages], size


def _rgb_bytes(image) -> bytes:
    return (image if image.mode == "RGB" else image.convert("RGB")).tobytes()


def document_from_frame(header: dict, payload: memoryview, *, max_pixels: int) -> Document:
    """Rebuild a Document from a worker's frame, checking every size against the budget (ValueError if off)."""
    pages, offset = [], 0
    for item in header["pages"]:
        width, height = (int(v) for v in item["size"])
        if not (0 < width and 0 < height and width * height <= max_pixels):
            raise ValueError(f"page image of {width} x {height} px is outside the budget")
        size = width * height * 3
        if offset + size > len(payload):
            raise ValueError("the pixel data is shorter than the page sizes say")
        image = Image.frombytes("RGB", (width, height), payload[offset : offset + size])
        offset += size
        read = None if item.get("ocr") is None else OcrPage.from_dict(item["ocr"])
        lines = tuple(TextLine.from_dict(line) for line in item.get("lines", ()))
        pages.append(
            Page(
                index=int(item["index"]),
                image=image,
                width_pt=item["width_pt"],
                height_pt=item["height_pt"],
                text=item["text"],
                warnings=tuple(item["warnings"]),
                ocr=read,
                lines=lines,
            )
        )
    if offset != len(payload):
        raise ValueError("the pixel data is longer than the page sizes say")
    return Document(
        source=header["source"],
        sha256=header["sha256"],
        kind=header["kind"],
        page_count=int(header["page_count"]),
        pages=tuple(pages),
        warnings=tuple(header["warnings"]),
    )
