"""Turn input files (PDFs and images) into page images sized to the model's vision budget.

Decisions, in one place:

* **Content decides, not the extension.** Files are sniffed by magic bytes. A PNG named ``scan.pdf`` is read as the
  PNG it is, with a document warning ("content is PNG, not PDF ..."). A ``.pdf`` whose content is no known type is
  ``not_a_pdf``; any other unknown content is ``unsupported_type``.
* **Page size.** PDF pages are vector, so each is rendered to fill the pixel budget (keeping its aspect ratio);
  the scale is computed from the page box *before* rendering, so no bitmap above the budget is ever allocated.
  Images are only shrunk to the budget, never enlarged (except up to ``min_side``).
* **Absurd aspect ratios** (beyond ``MAX_ASPECT`` = 200:1, the limit Qwen-VL's resizer accepts) are not squeezed:
  the top (tall pages) or left (wide pages) part that fits the budget is kept, with a page warning.
* **Pages.** ``--pages`` selections are sorted and de-duplicated (document order). Selected pages beyond the end
  are a document warning; if none remain the input fails with code ``empty``. Then at most ``max_pages`` are
  rendered (warning). A PDF page that cannot be loaded or has an empty page box is skipped with a warning; if no
  page renders, the input fails (``corrupt``, or ``too_large`` for absurd page boxes).
* **Images.** TIFF: every frame is a page. PNG/JPEG/WebP: the first frame only (animation is not pagination).
  EXIF orientation is applied; alpha is composited on white; 16-bit and float images are scaled to 8 bits.
* **Passwords.** No password is tried first, then each given password as typed and in its SASLprep form (RFC 4013;
  AES-256 PDFs need it and pdfium does not normalise).
* **Text layer.** ``Page.text`` is pdfium's text for the page ("" when the page has none, ``\\r\\n`` turned
  into ``\\n``), or None (with a page warning) when extraction fails; images have None.
* **OCR** (``ocr``; off unless ``RasterSettings.ocr`` asks): a page that needs it (no usable text layer) is
  rendered a second time at OCR resolution, covering the same region as its page image, and read page by page
  while the document is rendered; ``Page.ocr`` holds the result (lines and words with boxes). Within a time budget
  (``deadline``) pages are read only while their estimated cost still fits.

pdfium is not thread-safe: call ``load_document`` from one thread at a time.
"""

from __future__ import annotations

import glob
import hashlib
import io
import itertools
import math
import os
import stat
import stringprep
import struct
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional, Sequence, Union

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from extractor.inputs import ocr
from extractor.errors import InputError, UsageError

# pdfium is not thread-safe (concurrent renders from Extractor.extract in threads segfaulted): every in-process use
# takes this lock. Render workers are separate processes with their own.
PDFIUM_LOCK = threading.RLock()

SUPPORTED_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")
DEFAULT_VISION_TOKENS = 1300  # per page
MAX_ASPECT = 200  # Qwen-VL's smart_resize rejects images whose long side is over 200x the short one
MAX_IMAGE_PIXELS = 100_000_000  # source images above this are refused before their pixels are decoded
# A rendered page is ~4 MB at the default budget: 50 pages is ~200 MB per document and ~65,000 vision tokens,
# already past what one generation can use.
DEFAULT_MAX_PAGES = 50
DEFAULT_MAX_BYTES = 200 * 1024 * 1024

_SUFFIX_KIND = {".pdf": "pdf", ".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".tif": "tiff", ".tiff": "tiff",
                ".webp": "webp"}
_PIL_FORMAT = {"png": "PNG", "jpeg": "JPEG", "tiff": "TIFF", "webp": "WEBP"}
_LOOKS_LIKE = ((b"<?xml", "an XML document"), (b"PK\x03\x04", "a ZIP archive (e.g. DOCX or XLSX)"),
               (b"GIF8", "a GIF image"), (b"BM", "a BMP image"), (b"\x00\x00\x01\x00", "an ICO image"),
               (b"{", "JSON"), (b"%!PS", "a PostScript file"))
_EXIF_TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                   4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270,
                   7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}
# What pdfium / pypdfium2 and Pillow raise on hostile input (besides our own InputError).
_PDFIUM_FAILURES = (pdfium.PdfiumError, OSError, ValueError, OverflowError, AssertionError, KeyError, IndexError)
_PILLOW_FAILURES = (OSError, SyntaxError, ValueError, TypeError, EOFError, struct.error, IndexError, KeyError,
                    ZeroDivisionError, OverflowError)
_INT_MAX = 2**31 - 1  # pdfium takes bitmap geometry as C ints


def max_pixels_for(*, tokens: int = DEFAULT_VISION_TOKENS, patch_size: int = 16, merge_size: int = 2) -> int:
    """Return the pixel budget for a vision-token budget.

    Args:
        tokens: vision tokens per page.
        patch_size: the vision encoder's patch side in pixels.
        merge_size: patches merged per side into one token.

    Returns:
        ``tokens * (patch_size * merge_size) ** 2`` (1,331,200 px for the defaults).
    """
    return tokens * (patch_size * merge_size) ** 2


# --------------------------------------------------------------------------------------------------- page selection


@dataclass(frozen=True)
class PageSelection:
    """A parsed ``--pages`` spec: sorted, merged, 1-based inclusive ranges (``end`` None: to the last page)."""

    ranges: tuple[tuple[int, Optional[int]], ...]

    def __str__(self) -> str:
        return ",".join(_range_text(start, end) for start, end in self.ranges)

    def count(self, page_count: int) -> int:
        """Return how many of the selected pages exist in a document of ``page_count`` pages."""
        return sum(max(0, min(end or page_count, page_count) - start + 1) for start, end in self.ranges)

    def indices(self, page_count: int) -> Iterator[int]:
        """Yield the 0-based indices of the selected pages that exist, in document order (lazily)."""
        for start, end in self.ranges:
            yield from range(start - 1, min(end or page_count, page_count))

    def beyond(self, page_count: int) -> str:
        """Return the selected pages past the last page as a spec ("" when there are none)."""
        parts = [(max(start, page_count + 1), end) for start, end in self.ranges
                 if (end is None and start > page_count) or (end is not None and end > page_count)]
        return ",".join(_range_text(start, end) for start, end in parts)


def _range_text(start: int, end: Optional[int]) -> str:
    if end is None:
        return f"{start}-"
    return str(start) if start == end else f"{start}-{end}"


def parse_pages(spec: str) -> PageSelection:
    """Parse a page selection such as ``1-3,5``, ``2-`` (to the end) or ``-3`` (from the start).

    Args:
        spec: comma-separated 1-based pages and ranges; spaces are ignored.

    Returns:
        The selection, with ranges sorted and overlapping or adjacent ones merged.

    Raises:
        UsageError: the spec is empty, has a page 0, a reversed range or anything but digits, ``-`` and ``,``.
    """
    parts = [p.strip() for p in spec.replace(" ", "").split(",")]
    if not spec.strip() or any(not p for p in parts):
        raise UsageError(f"bad page selection {spec!r}: expected pages and ranges like 1-3,5")
    ranges = sorted((_parse_range(part, spec) for part in parts), key=lambda r: (r[0], r[1] or math.inf))
    merged: list[tuple[int, Optional[int]]] = []
    for start, end in ranges:
        last = merged[-1] if merged else None
        if last and (last[1] is None or start <= last[1] + 1):
            merged[-1] = (last[0], None if last[1] is None or end is None else max(last[1], end))
        else:
            merged.append((start, end))
    return PageSelection(tuple(merged))


def _parse_range(part: str, spec: str) -> tuple[int, Optional[int]]:
    first, dash, last = part.partition("-")
    if not all(x.isdigit() and x.isascii() for x in (first, last) if x) or not (first or last):
        raise UsageError(f"bad page selection {spec!r}: {part!r} is not a page or a range like 2-4")
    start = int(first) if first else 1
    end = (int(last) if last else None) if dash else start
    if start < 1 or (end is not None and end < start):
        raise UsageError(f"bad page selection {spec!r}: {part!r} (pages count from 1; ranges go upwards)")
    return start, end


# ------------------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class RasterSettings:
    """How inputs are read and rendered.

    Attributes:
        max_pixels: pixel budget per page image (width * height never exceeds it).
        pages: page selection (None: all pages).
        passwords: passwords to try, in order, for encrypted PDFs.
        max_pages: pages rendered at most per document (default 50); the rest are skipped with a warning.
        max_bytes: larger inputs fail with ``too_large`` (default 200 MiB).
        min_side: no page image side is smaller than this.
        ocr: which pages are read by OCR, and how (default: none).
        text_boxes: also read each PDF page's text layer as lines of words with their boxes (``Page.lines``; the
            review page draws them), off for the batch.
    """

    max_pixels: int = max_pixels_for()
    pages: Optional[PageSelection] = None
    passwords: tuple[str, ...] = ()
    max_pages: int = DEFAULT_MAX_PAGES
    max_bytes: int = DEFAULT_MAX_BYTES
    min_side: int = 32
    ocr: ocr.OcrSettings = ocr.OcrSettings()
    text_boxes: bool = False

    def __post_init__(self) -> None:
        if self.min_side < 1 or self.max_pixels < self.min_side ** 2:
            raise UsageError(f"max_pixels ({self.max_pixels}) must be at least min_side² ({self.min_side}²)")
        if self.max_pages < 1 or self.max_bytes < 1:
            raise UsageError("max_pages and max_bytes must be positive")


@dataclass(frozen=True)
class Page:
    """One rendered page.

    Attributes:
        index: 0-based page index in the PDF, or frame index in a TIFF.
        image: RGB, already sized to the pixel budget.
        width_pt: the displayed page width in points (after /Rotate); None for images.
        height_pt: the displayed page height in points; None for images.
        text: the page's text layer ("" if none); None for images or when extraction failed.
        warnings: plain-words notes about this page (without a "page N:" prefix).
        ocr: what OCR read on the page (boxes relative to ``image``), or None when it was not read.
        lines: the text layer's lines with word boxes (``text_lines``) when ``RasterSettings.text_boxes`` asked.
    """

    index: int
    image: Image.Image
    width_pt: Optional[float]
    height_pt: Optional[float]
    text: Optional[str]
    warnings: tuple[str, ...] = ()
    ocr: Optional[ocr.OcrPage] = None
    lines: tuple["TextLine", ...] = ()


@dataclass(frozen=True)
class Document:
    """One loaded input.

    Attributes:
        source: the path as given, ``<bytes>`` or ``<image>``.
        sha256: hex digest of the input bytes (of the raw RGB bytes for a PIL image input).
        kind: ``pdf`` or ``image``.
        page_count: pages (or TIFF frames) in the source, before selection.
        pages: the selected, rendered pages.
        warnings: plain-words notes about the whole document.
    """

    source: str
    sha256: str
    kind: str
    page_count: int
    pages: tuple[Page, ...]
    warnings: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------------------- sizing


def target_size(width: float, height: float, *, max_pixels: int, min_side: int = 32) -> tuple[int, int]:
    """Return the largest (width, height) in pixels that keeps the aspect ratio and fits the budget.

    Aspect ratios beyond ``MAX_ASPECT`` (or beyond what ``min_side`` allows) are clamped, so a
    595 x 2,147,483,647 pt page gets a 81 x 16,200 px box rather than a 1-px-wide one; the result's long side
    is never more than ``MAX_ASPECT`` times its short side.

    Args:
        width: source width (points or pixels).
        height: source height.
        max_pixels: the budget; the result's product never exceeds it.
        min_side: neither side is below this.

    Returns:
        ``(w, h)`` with ``w * h <= max_pixels``, ``min(w, h) >= min_side`` and ``max/min <= MAX_ASPECT``.

    Raises:
        ValueError: a size is not a positive finite number, or ``max_pixels < min_side²``.
    """
    if not all(math.isfinite(v) and v > 0 for v in (width, height)):
        raise ValueError(f"size must be positive and finite, got {width} x {height}")
    if min_side < 1 or max_pixels < min_side * min_side:
        raise ValueError(f"max_pixels {max_pixels} is below min_side² ({min_side}²)")
    limit = _aspect_limit(max_pixels, min_side)
    aspect = min(max(width / height, 1 / limit), limit)
    w = max(min_side, math.floor(math.sqrt(max_pixels * aspect)))
    h = max(min_side, math.floor(math.sqrt(max_pixels / aspect)))
    # Rounding the short side down can push the ratio past the limit, which Qwen's resizer refuses.
    w, h = (min(w, math.floor(h * limit)), h) if w >= h else (w, min(h, math.floor(w * limit)))
    while w * h > max_pixels:  # only float rounding gets here; shrink the longer side
        w, h = (w - 1, h) if w >= h else (w, h - 1)
    return w, h


def _aspect_limit(max_pixels: int, min_side: int) -> float:
    # Beyond MAX_ASPECT, or when the short side would drop below min_side within the budget.
    return min(float(MAX_ASPECT), max_pixels / (min_side * min_side))


def _elongated(width: float, height: float, settings: RasterSettings) -> bool:
    """Whether target_size clamps this aspect ratio (so only part of the page or image is kept)."""
    return max(width / height, height / width) > _aspect_limit(settings.max_pixels, settings.min_side)


# --------------------------------------------------------------------------------------------------------- inputs


def sniff_kind(head: bytes) -> Optional[str]:
    """Identify a supported file type by its magic bytes.

    Args:
        head: the first bytes of the file (1,024 are enough; a PDF header may sit anywhere in them).

    Returns:
        ``pdf``, ``png``, ``jpeg``, ``tiff``, ``webp``, or None.
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


def expand_inputs(inputs: Sequence[str]) -> list[Path]:
    """Expand command-line inputs into the files to process.

    * an existing path is taken literally (even if its name contains ``*?[``);
    * a directory gives its supported files (by suffix, case-insensitive), top level only, hidden ones skipped,
      sorted by name; use a ``**`` pattern to recurse;
    * a glob pattern (``*``, ``?``, ``[``) is expanded here, like a shell would (for Windows and quoted patterns):
      every match, sorted, directories among them expanded as above; a pattern matching nothing is kept as a path,
      so it later becomes a ``not_found`` record.

    The same file named twice is kept once (first occurrence).

    Args:
        inputs: paths, directories and patterns as typed.

    Returns:
        The files, in order.
    """
    out: list[Path] = []
    seen: set[str] = set()
    for raw in inputs:
        for path in _expand_one(os.fspath(raw)):
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out


def _expand_one(raw: str) -> list[Path]:
    path = Path(raw)
    exists, is_dir = _probe(path)
    if exists or not any(c in raw for c in "*?["):
        return _dir_files(path) if is_dir else [path]
    matches = [Path(m) for m in sorted(glob.glob(raw, recursive=True))]
    if not matches:
        return [path]
    return [f for m in matches for f in (_dir_files(m) if _probe(m)[1] else [m])]


def _probe(path: Path) -> tuple[bool, bool]:
    """Return (exists, is a directory); odd names (too long, NUL) count as missing, for loading to report."""
    try:
        return path.exists(), path.is_dir()
    except (OSError, ValueError):
        return False, False


def _dir_files(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return [folder]  # becomes an ``unreadable`` record when loaded
    return [p for p in entries
            if not p.name.startswith(".") and p.suffix.lower() in SUPPORTED_SUFFIXES and p.is_file()]


def display_name(path: Union[str, os.PathLike]) -> str:
    """Return how a path is named in records and messages: as given, except bytes that are not UTF-8.

    On POSIX a file name may be any bytes; Python keeps the undecodable ones as lone surrogates, which UTF-8 JSON,
    CSV and terminals cannot carry. Those bytes are shown as ``\\xNN`` instead.

    Args:
        path: the path as given.

    Returns:
        The name, always encodable as UTF-8.
    """
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", "backslashreplace")
    return text


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
        raise InputError(f"{name}: the file is {size:,} bytes, over the {max_bytes:,}-byte limit",
                         source=name, code="too_large")


# ---------------------------------------------------------------------------------------------------- load_document


def load_document(source: Union[Path, bytes, Image.Image], *, settings: RasterSettings = RasterSettings(),
                  deadline: Optional[float] = None) -> Document:
    """Read a PDF or image and render its selected pages (thread-safe: pdfium calls take ``PDFIUM_LOCK``).

    See ``_load_document`` for arguments, return value and errors.
    """
    with PDFIUM_LOCK:
        return _load_document(source, settings=settings, budget=ocr.OcrBudget(deadline))


def _load_document(source: Union[Path, bytes, Image.Image], *, settings: RasterSettings,
                   budget: ocr.OcrBudget) -> Document:
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
        return _load_pil(source, settings, budget)
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
    if kind == "pdf":
        page_count, pages, more = _load_pdf(data, name, settings, budget)
    else:
        page_count, pages, more = _load_image(data, kind, name, settings, budget)
    return Document(source=name, sha256=hashlib.sha256(data).hexdigest(), kind="pdf" if kind == "pdf" else "image",
                    page_count=page_count, pages=pages, warnings=tuple(warnings + more))


def _content_kind(data: bytes, name: str, suffix: str) -> str:
    kind = sniff_kind(data[:1024])
    if kind is not None:
        return kind
    what = _looks_like(data[:1024])
    if suffix == ".pdf":
        raise InputError(f"{name}: not a PDF (the content looks like {what})", source=name, code="not_a_pdf")
    raise InputError(f"{name}: unsupported file type ({what}); expected PDF, PNG, JPEG, TIFF or WebP",
                     source=name, code="unsupported_type")


def _kind_warnings(kind: str, suffix: str) -> list[str]:
    expected = _SUFFIX_KIND.get(suffix)
    if expected is None or expected == kind:
        return []
    return [f"content is {kind.upper()}, not {expected.upper()} as the file name says; read as {kind.upper()}"]


def page_cap_warning(max_pages: int, selected: int) -> str:
    """The document warning when ``max_pages`` cuts a selection of ``selected`` pages (``windows`` matches it)."""
    return f"only the first {max_pages} of {selected} selected pages were rendered"


def _select_pages(page_count: int, name: str, settings: RasterSettings) -> tuple[list[int], list[str]]:
    """Apply the page selection, then the page cap; returns 0-based indices and warnings."""
    selection = settings.pages or PageSelection(((1, None),))
    selected = selection.count(page_count)
    warnings = []
    beyond = selection.beyond(page_count)
    if beyond and selected:
        warnings.append(f"selected pages {beyond} do not exist (the document has {page_count}); skipped")
    if not selected:
        raise InputError(f"{name}: none of the selected pages ({selection}) exist; the document has {page_count}",
                         source=name, code="empty")
    if selected > settings.max_pages:
        warnings.append(page_cap_warning(settings.max_pages, selected))
    return list(itertools.islice(selection.indices(page_count), settings.max_pages)), warnings


# ------------------------------------------------------------------------------------------------------------ PDF


class _PageFailed(Exception):
    """A PDF page that cannot be rendered; the document goes on without it."""

    def __init__(self, message: str, code: str = "corrupt"):
        super().__init__(message)
        self.message, self.code = message, code


def _load_pdf(data: bytes, name: str, settings: RasterSettings,
              budget: ocr.OcrBudget) -> tuple[int, tuple[Page, ...], list[str]]:
    pdf = _open_pdf(data, name, settings.passwords)
    try:
        form_warnings = _init_forms(pdf)
        page_count = len(pdf)
        if page_count < 1:  # pdfium's answer when the page tree cannot be read
            raise InputError(f"{name}: the PDF has no readable pages", source=name, code="corrupt")
        indices, warnings = _select_pages(page_count, name, settings)
        warnings = form_warnings + warnings
        pages, failures = [], []
        for index in indices:
            try:
                pages.append(_render_pdf_page(pdf, index, settings, budget))
            except _PageFailed as failure:
                failures.append(failure)
    finally:
        pdf.close()
    if not pages:
        reasons = "; ".join(f.message for f in failures[:3])
        raise InputError(f"{name}: no page could be rendered ({reasons})", source=name, code=failures[0].code)
    return page_count, tuple(pages), warnings + [f.message for f in failures]


def saslprep(text: str) -> Optional[str]:
    """Prepare a password with SASLprep (RFC 4013), as PDF 2.0 asks for AES-256 (R6) passwords.

    Args:
        text: the password as typed.

    Returns:
        The normalised password, or None when it contains characters SASLprep prohibits (or fails the bidi rule).
    """
    mapped = "".join(" " if stringprep.in_table_c12(ch) else ch for ch in text if not stringprep.in_table_b1(ch))
    norm = unicodedata.normalize("NFKC", mapped)
    prohibited = (stringprep.in_table_c12, stringprep.in_table_c21_c22, stringprep.in_table_c3,
                  stringprep.in_table_c4, stringprep.in_table_c5, stringprep.in_table_c6, stringprep.in_table_c7,
                  stringprep.in_table_c8, stringprep.in_table_c9)
    if any(check(ch) for ch in norm for check in prohibited):
        return None
    if any(stringprep.in_table_d1(ch) for ch in norm):
        if any(stringprep.in_table_d2(ch) for ch in norm) or not (
                stringprep.in_table_d1(norm[0]) and stringprep.in_table_d1(norm[-1])):
            return None
    return norm


def _password_attempts(passwords: Sequence[str]) -> list[Optional[str]]:
    attempts: list[Optional[str]] = [None]
    for password in passwords:
        for candidate in (password, saslprep(password)):
            if candidate is not None and candidate not in attempts:
                attempts.append(candidate)
    return attempts


def _open_pdf(data: bytes, name: str, passwords: Sequence[str]) -> pdfium.PdfDocument:
    """Open with no password, then each password (as typed and SASLprep'd); map pdfium's error codes."""
    error = pdfium_c.FPDF_ERR_UNKNOWN
    for password in _password_attempts(passwords):
        secret = None if password is None else (password + "\x00").encode("utf-8")
        # Raw load (not PdfDocument(bytes)): pypdfium2 leaks the handle when it rejects a 0-page document.
        # ``data`` outlives the document: the caller closes it before returning.
        raw = pdfium_c.FPDF_LoadMemDocument64(data, len(data), secret)
        if raw:
            return pdfium.PdfDocument(raw)
        error = pdfium_c.FPDF_GetLastError()
        if error != pdfium_c.FPDF_ERR_PASSWORD:
            break
    raise _open_error(name, error, passwords)


def _open_error(name: str, error: int, passwords: Sequence[str]) -> InputError:
    if error == pdfium_c.FPDF_ERR_PASSWORD and passwords:
        return InputError(f"{name}: the file is encrypted and none of the {len(passwords)} password(s) given opens it",
                          source=name, code="wrong_password")
    if error == pdfium_c.FPDF_ERR_PASSWORD:
        return InputError(f"{name}: the file is encrypted; pass --password", source=name, code="encrypted")
    if error == pdfium_c.FPDF_ERR_SECURITY:
        return InputError(f"{name}: the file uses an encryption scheme pdfium does not support",
                          source=name, code="encrypted")
    if error == pdfium_c.FPDF_ERR_FILE:
        return InputError(f"{name}: the PDF cannot be read", source=name, code="unreadable")
    return InputError(f"{name}: the PDF is damaged and cannot be opened", source=name, code="corrupt")


def _init_forms(pdf: pdfium.PdfDocument) -> list[str]:
    """Set up form rendering (fields without appearance streams render blank otherwise); returns warnings."""
    if pdf.get_formtype() in (pdfium_c.FORMTYPE_XFA_FULL, pdfium_c.FORMTYPE_XFA_FOREGROUND):
        # pypdfium2's wheels have no XFA; init_forms would only log a warning to stderr.
        return ["the PDF has XFA forms, which are not rendered; only the static page content is shown"]
    try:
        pdf.init_forms()
    except _PDFIUM_FAILURES:
        return ["the PDF's form fields could not be set up; filled-in values may be missing"]
    return []


def _render_pdf_page(pdf: pdfium.PdfDocument, index: int, settings: RasterSettings, budget: ocr.OcrBudget) -> Page:
    try:
        page = pdf[index]
    except _PDFIUM_FAILURES:
        raise _PageFailed(f"page {index + 1}: pdfium cannot load the page; skipped") from None
    try:
        width, height = page.get_size()  # displayed size: pdfium applies /Rotate
        if not all(math.isfinite(v) and v > 0 for v in (width, height)):
            raise _PageFailed(f"page {index + 1}: the page box is {width:g} x {height:g} pt; skipped")
        image, crop, warnings = _render_page_image(page, width, height, index, settings)
        text, text_warnings = _page_text(page)
        read, ocr_warnings = _read_pdf_page(page, (width, height), crop, image, text, settings.ocr, budget)
        lines = _text_boxes(page) if settings.text_boxes and text else ()
        return Page(index=index, image=image, width_pt=width, height_pt=height, text=text,
                    warnings=tuple(warnings + text_warnings + ocr_warnings), ocr=read, lines=lines)
    finally:
        page.close()


def _render_page_image(page: pdfium.PdfPage, width: float, height: float, index: int,
                       settings: RasterSettings) -> tuple[Image.Image, tuple[float, float, float, float], list[str]]:
    """Render at the scale that fills the budget box; the part beyond the box (absurd aspect only) is cropped.
    Returns the image, the crop (left, bottom, right, top, in points) and warnings."""
    box_w, box_h = target_size(width, height, max_pixels=settings.max_pixels, min_side=settings.min_side)
    # The margin keeps pypdfium2's ceil() from adding a pixel past the box.
    scale = max(box_w / width, box_h / height) * (1 - 1e-9)
    full_w, full_h = math.ceil(width * scale), math.ceil(height * scale)
    if max(full_w, full_h) > _INT_MAX:
        raise _PageFailed(f"page {index + 1}: the page is {width:,.0f} x {height:,.0f} pt, too large to render; "
                          "skipped", code="too_large")
    crop = (0.0, max(0, full_h - box_h) / scale, max(0, full_w - box_w) / scale, 0.0)  # left, bottom, right, top
    image = _render_region(page, scale, crop, index)
    warnings = []
    if _elongated(width, height, settings):
        part = "top" if height > width else "left"
        warnings.append(f"the page is {width:,.0f} x {height:,.0f} pt, too elongated to render whole; "
                        f"only its {part} part was rendered")
    return image, crop, warnings


def _render_region(page: pdfium.PdfPage, scale: float, crop: tuple[float, float, float, float],
                   index: int) -> Image.Image:
    try:
        # 3-byte RGB forced: Pillow then copies the pixels (it shares only 4-byte and grey buffers), so the
        # bitmap can be freed right away.
        bitmap = page.render(scale=scale, crop=crop, force_bitmap_format=pdfium_c.FPDFBitmap_BGR,
                             rev_byteorder=True)
        try:
            return bitmap.to_pil()
        finally:
            bitmap.close()
    except _PDFIUM_FAILURES:
        raise _PageFailed(f"page {index + 1}: pdfium cannot render the page; skipped") from None


def _read_pdf_page(page: pdfium.PdfPage, size: tuple[float, float], crop: tuple[float, float, float, float],
                   image: Image.Image, text: Optional[str], settings: ocr.OcrSettings,
                   budget: ocr.OcrBudget) -> tuple[Optional[ocr.OcrPage], list[str]]:
    """OCR for a PDF page that needs it: the page image's region rendered again at OCR resolution, then read."""
    if settings.mode == "never":
        return None, []
    region = (size[0] - crop[0] - crop[2], size[1] - crop[1] - crop[3])
    reason = ocr.reason_to_read(text, image, settings, area_pt2=region[0] * region[1],
                                invisible=bool(text and text.strip()) and _invisible_text(page))
    if reason is None:
        return None, []
    scale = ocr.pdf_scale(*region, settings)
    if scale is None:
        return None, [ocr.TOO_ELONGATED]
    try:
        ocr_image = _render_region(page, scale, crop, -1)
    except _PageFailed:
        return None, ["not read by OCR: pdfium cannot render the page at OCR resolution"]
    return ocr.read_page(ocr_image, reason=reason, settings=settings, budget=budget)


def _invisible_text(page: pdfium.PdfPage) -> bool:
    """Whether the page's text is (nearly) all drawn invisibly: a scanner's OCR layer under the page image."""
    try:
        modes = [pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw)
                 for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=3)]
    except Exception:  # noqa: BLE001 - optional evidence on a page that rendered: never fail the page for it
        return False
    hidden = sum(1 for mode in modes if mode == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
    return bool(modes) and hidden >= 0.9 * len(modes)


def _text_boxes(page: pdfium.PdfPage) -> tuple["TextLine", ...]:
    """The page's text-layer lines with boxes; none when pdfium cannot give them (boxes are optional evidence)."""
    try:
        return text_lines(page)
    except Exception:  # noqa: BLE001 - the page still renders and is searched, only without boxes
        return ()


def _page_text(page: pdfium.PdfPage) -> tuple[Optional[str], list[str]]:
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
        finally:
            textpage.close()
    # The text layer is optional and pypdfium2 raises assorted types on broken pages: keep the image.
    except Exception as exc:  # noqa: BLE001
        return None, [f"the text layer could not be read ({type(exc).__name__}); image only"]
    return text.replace("\r\n", "\n"), []


# --------------------------------------------------------------------------------------------------------- images


def _load_image(data: bytes, kind: str, name: str, settings: RasterSettings,
                budget: ocr.OcrBudget) -> tuple[int, tuple[Page, ...], list[str]]:
    try:
        with Image.open(io.BytesIO(data), formats=[_PIL_FORMAT[kind]]) as img:
            page_count = getattr(img, "n_frames", 1) if kind == "tiff" else 1
            indices, warnings = _select_pages(page_count, name, settings)
            pages = tuple(_image_page(img, index, name, settings, budget) for index in indices)
    except Image.DecompressionBombError:
        raise InputError(f"{name}: the image's pixel dimensions are too large to decode safely",
                         source=name, code="too_large") from None
    except _PILLOW_FAILURES as exc:
        raise InputError(f"{name}: the {kind.upper()} image is damaged and cannot be decoded ({exc})",
                         source=name, code="corrupt") from None
    return page_count, pages, warnings


def _image_page(img: Image.Image, index: int, name: str, settings: RasterSettings, budget: ocr.OcrBudget) -> Page:
    if index:
        img.seek(index)
    _check_pixels(name, *img.size)
    box = target_size(*img.size, max_pixels=settings.max_pixels, min_side=settings.min_side)
    if img.format in ("JPEG", "MPO"):
        # decode at 1/2, 1/4 or 1/8 scale when that still covers the box (and the OCR image, when OCR may read it)
        ocr_box = ocr.image_size(*img.size, settings.ocr) if settings.ocr.mode != "never" else None
        img.draft("RGB", (max(box[0], ocr_box[0]), max(box[1], ocr_box[1])) if ocr_box else box)
    try:
        orientation = int(img.getexif().get(0x0112, 1))
    except _PILLOW_FAILURES:
        orientation = 1  # a broken EXIF block only costs the orientation
    rgb = _to_rgb(img)
    image, warnings = _fit(rgb, settings)
    read, ocr_warnings = _read_image(rgb, image, orientation, settings, budget)
    if orientation in _EXIF_TRANSPOSE:
        image = image.transpose(_EXIF_TRANSPOSE[orientation])
    return Page(index=index, image=image, width_pt=None, height_pt=None, text=None,
                warnings=tuple(warnings + ocr_warnings), ocr=read)


def _check_pixels(name: str, width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS:
        raise InputError(f"{name}: the image is {width:,} x {height:,} pixels, over the "
                         f"{MAX_IMAGE_PIXELS // 1_000_000} MP limit", source=name, code="too_large")
    if width < 1 or height < 1:
        raise InputError(f"{name}: the image has no pixels ({width} x {height})", source=name, code="corrupt")


def _to_rgb(img: Image.Image) -> Image.Image:
    """Convert any Pillow mode to 8-bit RGB: alpha on white, 16-bit and float scaled, palette and CMYK converted."""
    if img.mode.startswith("I;16"):
        img = img.convert("I").point(lambda v: v * (1 / 256)).convert("L")
    elif img.mode in ("I", "F"):
        low, high = img.getextrema()
        if low < 0 or high > 255:
            span = (high - low) or 1
            img = img.point(lambda v: (v - low) * (255 / span))
        img = img.convert("L")
    if img.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in img.info:
        rgba = img.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return img.convert("RGB")


def _kept(width: int, height: int, settings: RasterSettings) -> tuple[int, int]:
    """The top/left part of an image that is used: all of it, unless its aspect ratio is absurd."""
    if not _elongated(width, height, settings):
        return width, height
    box_w, box_h = target_size(width, height, max_pixels=settings.max_pixels, min_side=settings.min_side)
    keep = (width, round(width * box_h / box_w)) if height > width else (round(height * box_w / box_h), height)
    return max(1, keep[0]), max(1, keep[1])


def _fit(image: Image.Image, settings: RasterSettings) -> tuple[Image.Image, list[str]]:
    """Shrink to the budget (never enlarge, except up to min_side); crop absurd aspect ratios to their top/left."""
    width, height = image.size
    box_w, box_h = target_size(width, height, max_pixels=settings.max_pixels, min_side=settings.min_side)
    warnings = []
    if _elongated(width, height, settings):
        image = image.crop((0, 0, *_kept(width, height, settings)))
        warnings.append(f"the image is {width:,} x {height:,} px, too elongated to use whole; "
                        f"only its {'top' if height > width else 'left'} part was kept")
        width, height = image.size
    if width * height > box_w * box_h:
        return image.resize((box_w, box_h), Image.Resampling.LANCZOS), warnings
    if min(width, height) < settings.min_side:
        grow = settings.min_side / min(width, height)
        size = (min(box_w, max(settings.min_side, round(width * grow))),
                min(box_h, max(settings.min_side, round(height * grow))))
        return image.resize(size, Image.Resampling.BICUBIC), warnings
    return image, warnings


def _read_image(rgb: Image.Image, image: Image.Image, orientation: int, settings: RasterSettings,
                budget: ocr.OcrBudget) -> tuple[Optional[ocr.OcrPage], list[str]]:
    """OCR for an image page: the part of the source the page image shows, shrunk to OCR size and turned by its
    EXIF orientation (as the page image is), then read."""
    reason = ocr.reason_to_read(None, image, settings.ocr)
    if reason is None:
        return None, []
    kept = _kept(*rgb.size, settings)
    size = ocr.image_size(*kept, settings.ocr)
    if size is None:
        return None, [ocr.TOO_ELONGATED]
    region = rgb.crop((0, 0, *kept)) if kept != rgb.size else rgb
    ocr_image = region.resize(size, Image.Resampling.LANCZOS) if size != kept else region
    if orientation in _EXIF_TRANSPOSE:
        ocr_image = ocr_image.transpose(_EXIF_TRANSPOSE[orientation])
    return ocr.read_page(ocr_image, reason=reason, settings=settings.ocr, budget=budget)


def _load_pil(img: Image.Image, settings: RasterSettings, budget: ocr.OcrBudget) -> Document:
    name = "<image>"
    _check_pixels(name, *img.size)
    _select_pages(1, name, settings)
    rgb = _to_rgb(img)
    digest = hashlib.sha256(rgb.tobytes()).hexdigest()
    image, warnings = _fit(rgb, settings)
    read, ocr_warnings = _read_image(rgb, image, 1, settings, budget)
    page = Page(index=0, image=image, width_pt=None, height_pt=None, text=None,
                warnings=tuple(warnings + ocr_warnings), ocr=read)
    return Document(source=name, sha256=digest, kind="image", page_count=1, pages=(page,))


# ---------------------------------------------------------------------------------------------------- text boxes


@dataclass(frozen=True)
class TextWord:
    """One word of a PDF page's text layer and its box (x0, y0, x1, y1; 0..1 of the displayed page, top left 0)."""

    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class TextLine:
    """One line of a PDF page's text layer (as pdfium breaks it), with its words; shaped like ``ocr.OcrLine`` so
    grounding locates values on either (a text layer has no recognizer ``confidence``)."""

    text: str
    box: tuple[float, float, float, float]
    words: tuple[TextWord, ...]
    confidence: Optional[float] = None

    def to_dict(self) -> dict:
        """The line as JSON (a render worker's frame)."""
        return {"text": self.text, "box": list(self.box), "words": [[w.text, list(w.box)] for w in self.words]}

    @classmethod
    def from_dict(cls, data: dict) -> "TextLine":
        """The line from ``to_dict``'s JSON."""
        return cls(text=data["text"], box=tuple(data["box"]),
                   words=tuple(TextWord(text, tuple(box)) for text, box in data["words"]))


def text_lines(page: pdfium.PdfPage) -> tuple[TextLine, ...]:
    """Return a PDF page's text layer as lines of words with their character boxes.

    Args:
        page: an open pdfium page.

    Returns:
        The lines in pdfium's text order (empty when the page has no text layer); boxes are fractions of the
        displayed page (its /Rotate and crop box applied), as the page image shows it.
    """
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count > 0 else ""
        if len(text) != count:  # characters outside the BMP: read one by one to keep indexes aligned
            text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(count))
        boxes = [textpage.get_charbox(i) for i in range(count)]
    finally:
        textpage.close()
    place = _page_placer(page)
    lines, words, chars = [], [], []
    for char, box in zip(text + "\n", boxes + [(0, 0, 0, 0)]):
        if char.isspace():
            if chars:
                words.append(TextWord("".join(c for c, _ in chars), _union(place(b) for _, b in chars)))
                chars = []
            if char in "\r\n" and words:
                lines.append(TextLine(" ".join(w.text for w in words), _union(w.box for w in words), tuple(words)))
                words = []
        elif box[2] > box[0] or box[3] > box[1]:  # pdfium's generated characters have no box
            chars.append((char, box))
    return tuple(lines)


def _page_placer(page: pdfium.PdfPage):
    """A function mapping a box in PDF user space to fractions of the displayed page (top left 0, 0)."""
    left, bottom, right, top = page.get_bbox()
    width, height = max(right - left, 1e-9), max(top - bottom, 1e-9)
    rotation = page.get_rotation() % 360

    def place(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        u0, u1 = (box[0] - left) / width, (box[2] - left) / width  # unrotated, from the left
        v0, v1 = (top - box[3]) / height, (top - box[1]) / height  # unrotated, from the top
        if rotation == 90:  # shown turned clockwise
            return (1 - v1, u0, 1 - v0, u1)
        if rotation == 180:
            return (1 - u1, 1 - v1, 1 - u0, 1 - v0)
        if rotation == 270:
            return (v0, 1 - u1, v1, 1 - u0)
        return (u0, v0, u1, v1)

    return place


def _union(boxes) -> tuple[float, float, float, float]:
    boxes = list(boxes)
    return (round(min(b[0] for b in boxes), 5), round(min(b[1] for b in boxes), 5),
            round(max(b[2] for b in boxes), 5), round(max(b[3] for b in boxes), 5))
