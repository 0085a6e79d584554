"""What an input becomes: the settings that say how it is read (``RasterSettings``), the loaded ``Document`` and its
pages (``Page``), and the limits every loader applies: the page selection (``--pages``), the page cap and the pixel
budget.

Decisions, in one place:

* **Page size.** Each page image fills the pixel budget (``max_pixels``, from the model's vision-token budget)
  keeping its aspect ratio; ``target_size`` computes that box before anything is rendered or resized.
* **Absurd aspect ratios** (beyond ``MAX_ASPECT`` = 200:1, the limit Qwen-VL's resizer accepts) are not squeezed:
  the top (tall pages) or left (wide pages) part that fits the budget is kept, with a page warning.
* **Pages.** ``--pages`` selections are sorted and de-duplicated (document order). Selected pages beyond the end
  are a document warning; if none remain the input fails with code ``empty``. Then at most ``max_pages`` are
  rendered (warning).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image

from extractor.errors import InputError, UsageError
from extractor.inputs import ocr, ocrresult
from extractor.inputs.textlayer import TextLine

DEFAULT_VISION_TOKENS = 1300  # per page
MAX_ASPECT = 200  # Qwen-VL's smart_resize rejects images whose long side is over 200x the short one
# Pages read per document. A rendered page is ~4 MB at the default budget, so one prompt could hold ~50 pages
# (~200 MB, ~65,000 vision tokens); long documents are read in windows of a few pages (``pipeline.windows``), where
# rendering and generation grow linearly (bench/long.py): the limit is about time (500 pages: ~170 windows of 4).
DEFAULT_MAX_PAGES = 500
DEFAULT_MAX_BYTES = 200 * 1024 * 1024


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

    ranges: tuple[tuple[int, int | None], ...]

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
        parts = [
            (max(start, page_count + 1), end)
            for start, end in self.ranges
            if (end is None and start > page_count) or (end is not None and end > page_count)
        ]
        return ",".join(_range_text(start, end) for start, end in parts)


def _range_text(start: int, end: int | None) -> str:
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
    merged: list[tuple[int, int | None]] = []
    for start, end in ranges:
        last = merged[-1] if merged else None
        if last and (last[1] is None or start <= last[1] + 1):
            merged[-1] = (last[0], None if last[1] is None or end is None else max(last[1], end))
        else:
            merged.append((start, end))
    return PageSelection(tuple(merged))


def _parse_range(part: str, spec: str) -> tuple[int, int | None]:
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
        max_pages: pages rendered at most per document (default ``DEFAULT_MAX_PAGES``, 500); the rest are skipped
            with a warning.
        max_bytes: larger inputs fail with ``too_large`` (default 200 MiB).
        min_side: no page image side is smaller than this.
        ocr: which pages are read by OCR, and how (default: none).
        text_boxes: also read each PDF page's text layer as lines of words with their boxes (``Page.lines``; the
            review page draws them), off for the batch.
    """

    max_pixels: int = max_pixels_for()
    pages: PageSelection | None = None
    passwords: tuple[str, ...] = ()
    max_pages: int = DEFAULT_MAX_PAGES
    max_bytes: int = DEFAULT_MAX_BYTES
    min_side: int = 32
    ocr: ocr.OcrSettings = ocr.OcrSettings()
    text_boxes: bool = False

    def __post_init__(self) -> None:
        if self.min_side < 1 or self.max_pixels < self.min_side**2:
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
    width_pt: float | None
    height_pt: float | None
    text: str | None
    warnings: tuple[str, ...] = ()
    ocr: ocrresult.OcrPage | None = None
    lines: tuple[TextLine, ...] = ()


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


def elongated(width: float, height: float, *, raster: RasterSettings) -> bool:
    """Whether target_size clamps this aspect ratio (so only part of the page or image is kept)."""
    return max(width / height, height / width) > _aspect_limit(raster.max_pixels, raster.min_side)


# ---------------------------------------------------------------------------------------------- selection and cap


def page_cap_warning(max_pages: int, selected: int) -> str:
    """The document warning when ``max_pages`` cuts a selection of ``selected`` pages (``windows`` matches it)."""
    return f"only the first {max_pages} of {selected} selected pages were rendered"


def select_pages(page_count: int, *, name: str, raster: RasterSettings) -> tuple[list[int], list[str]]:
    """Apply the page selection, then the page cap.

    Args:
        page_count: pages (or frames) in the source.
        name: the source's name, for the error.
        raster: the page selection (None: all pages) and ``max_pages``.

    Returns:
        The 0-based indices of the pages to render, in document order, and the document warnings.

    Raises:
        InputError: none of the selected pages exist (code ``empty``).
    """
    selection = raster.pages or PageSelection(((1, None),))
    selected = selection.count(page_count)
    warnings = []
    beyond = selection.beyond(page_count)
    if beyond and selected:
        warnings.append(f"selected pages {beyond} do not exist (the document has {page_count}); skipped")
    if not selected:
        raise InputError(
            f"{name}: none of the selected pages ({selection}) exist; the document has {page_count}",
            source=name,
            code="empty",
        )
    if selected > raster.max_pages:
        warnings.append(page_cap_warning(raster.max_pages, selected))
    return list(itertools.islice(selection.indices(page_count), raster.max_pages)), warnings
