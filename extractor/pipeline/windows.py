"""Long documents: the page windows a document is read in, each window's pages and its prompt.

This module plans; it runs nothing and merges nothing. The pipeline (``pipeline.answer``) drives the loop: for
each ``Window`` of the ``Plan`` it renders the pages (``first_pages``, ``window_raster``), generates with retries
(``window_messages``) and hands back a ``merge.WindowResult``; ``merge.merge`` turns the results into the
document's record (``pipeline.merge``: the merge and its proof by the invoice's arithmetic).

Decisions, in one place:

* **When.** A document whose selected pages are more than one window (``Settings.window_pages``, at most
  ``MAX_WINDOW_PAGES``; smaller when ``window_vision_tokens`` cannot hold that many pages at the page budget) is
  extracted window by window; shorter documents go the one-prompt way unchanged.
* **Windows** overlap by ``WINDOW_OVERLAP`` page (a line that starts at the foot of a page is seen whole), and the
  last window always brings at least one new page (30 pages, window 8: 1-8, 8-15, 15-22, 22-29, 29-30).
* **Rendering is lazy.** The first render of every document stops after one window's pages (``cap_to_first_window``);
  each later window is rendered (and OCR'd) when its generation is due and released after it (``released``), so
  memory holds one window's page images whatever the page count. Only the page texts stay (for review and
  grounding: ``left_behind``). With isolation each window is one job of the render pool, under the pool's time
  limit. A window that cannot be rendered makes the record an ``error`` naming its pages.
* **The prompt** (``window_messages``) is the document prompt with its last line saying which pages these are
  (``prompt.build_messages`` keeps the shared prefix: the system text and the schema).
* **Each window is one generation** with its own ``max_tokens``, its own retries (``retry.run_with_retries``: a
  truncated window is asked again alone) and its own usage. Every window's answer is validated against the full
  schema; the record lists the windows (``windows``: ``record.WindowReport``, pages, status, usage, attempts,
  lines) and sums the usage.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from extractor.inputs.document import Document, Page, PageSelection, RasterSettings, page_cap_warning
from extractor.inputs.ocrdecide import page_texts
from extractor.pipeline.prompt import DOCUMENT_LINE, build_messages
from extractor.runners.base import Message
from extractor.schema import Schema
from extractor.settings import MAX_WINDOW_PAGES, WINDOW_OVERLAP, Settings


@dataclass(frozen=True)
class Plan:
    """How one document is read in windows.

    Attributes:
        indices: the 0-based page indices to extract, in order (the selection, cut at ``max_pages``).
        spans: per window, the first and last position in ``indices`` (0-based, inclusive).
        warnings: document warnings about the pages left out.
    """

    indices: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]
    warnings: tuple[str, ...] = ()

    def pages(self, span: tuple[int, int]) -> list[int]:
        """The 1-based page numbers of a window, first and last."""
        return [self.indices[span[0]] + 1, self.indices[span[1]] + 1]

    def windows(self) -> tuple[Window, ...]:
        """The windows, in page order."""
        return tuple(
            Window(number=number, span=span, first_page=self.pages(span)[0], last_page=self.pages(span)[1])
            for number, span in enumerate(self.spans, 1)
        )


@dataclass(frozen=True)
class Window:
    """One window of a plan.

    Attributes:
        number: its number, 1-based.
        span: its first and last position in the plan's ``indices`` (0-based, inclusive).
        first_page: its first page number (1-based).
        last_page: its last page number (1-based).
    """

    number: int
    span: tuple[int, int]
    first_page: int
    last_page: int


def window_size(settings: Settings, *, pixels_per_token: int) -> int:
    """Pages per window: ``window_pages``, made smaller when ``window_vision_tokens`` cannot hold that many pages.

    Args:
        settings: the settings (window pages, window budget, page budget).
        pixels_per_token: the model's image pixels per vision token.

    Returns:
        2 to ``MAX_WINDOW_PAGES`` pages (two: a window must bring a new page besides its overlap).
    """
    per_page = max(1, -(-(settings.max_pixels or settings.vision_tokens * pixels_per_token) // pixels_per_token))
    return max(
        WINDOW_OVERLAP + 1, min(settings.window_pages, MAX_WINDOW_PAGES, settings.window_vision_tokens // per_page)
    )


def plan_spans(count: int, size: int, overlap: int = WINDOW_OVERLAP) -> tuple[tuple[int, int], ...]:
    """Cut ``count`` pages into windows of ``size`` pages that overlap by ``overlap`` pages.

    Args:
        count: pages to extract.
        size: pages per window (more than ``overlap``).
        overlap: pages a window shares with the one before.

    Returns:
        0-based inclusive ``(first, last)`` positions; one window when the pages fit in one; the last window
        always brings a page the one before did not have.
    """
    if count <= size:
        return ((0, count - 1),)
    step = size - overlap
    return tuple((start, min(start + size, count) - 1) for start in range(0, count - overlap, step))


def cap_to_first_window(raster: RasterSettings, settings: Settings, *, pixels_per_token: int) -> RasterSettings:
    """A document's rasterizer settings capped to its first window's pages (the rest, if any, are rendered window
    by window); ``pipeline.job.document_raster(..., first_window=True)`` is how the pipeline gets them."""
    size = window_size(settings, pixels_per_token=pixels_per_token)
    return dataclasses.replace(raster, max_pages=min(raster.max_pages, size))


def plan_for(document: Document, *, raster: RasterSettings, settings: Settings, pixels_per_token: int) -> Plan | None:
    """The window plan of a document's first render (one window's pages at most), or None when its pages fit in one
    window.

    Args:
        document: the first render (at most one window of pages).
        raster: the document's rasterizer settings (page selection, ``max_pages``).
        settings: the settings (windows).
        pixels_per_token: the model's image pixels per vision token.

    Returns:
        The Plan (the pages past ``max_pages`` named in its warnings), or None.
    """
    size = window_size(settings, pixels_per_token=pixels_per_token)
    selection = raster.pages or PageSelection(((1, None),))
    selected = selection.count(document.page_count)
    if min(selected, raster.max_pages) <= size:
        return None  # one window holds them (the first render's own warning names a max_pages cut)
    indices = tuple(itertools.islice(selection.indices(document.page_count), raster.max_pages))
    warnings: tuple[str, ...] = ()
    if selected > raster.max_pages:
        warnings = (
            f"only the first {raster.max_pages} of {selected} selected pages were extracted (max_pages "
            f"{raster.max_pages}; --max-pages raises it)",
        )
    return Plan(indices=indices, spans=plan_spans(len(indices), size), warnings=warnings)


def first_warnings(
    document: Document, *, raster: RasterSettings, settings: Settings, pixels_per_token: int
) -> tuple[str, ...]:
    """The first render's document warnings without the page-cap note that ``cap_to_first_window`` itself caused."""
    size = window_size(settings, pixels_per_token=pixels_per_token)
    selected = (raster.pages or PageSelection(((1, None),))).count(document.page_count)
    cap = page_cap_warning(min(raster.max_pages, size), selected)
    return tuple(w for w in document.warnings if w != cap)


def window_raster(plan: Plan, span: tuple[int, int], raster: RasterSettings) -> RasterSettings:
    """The rasterizer settings that render exactly one window's pages."""
    numbers = [i + 1 for i in plan.indices[span[0] : span[1] + 1]]
    ranges: list[tuple[int, int]] = []
    for n in numbers:  # consecutive pages as one range
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return dataclasses.replace(raster, pages=PageSelection(tuple(ranges)), max_pages=len(numbers))


def first_pages(plan: Plan, first: Document) -> Document:
    """The first window's pages, from the document's first render (``cap_to_first_window``: one window's pages at most);
    every later window is rendered by the pipeline with ``window_raster``, when its turn comes."""
    wanted = set(plan.indices[plan.spans[0][0] : plan.spans[0][1] + 1])
    return dataclasses.replace(first, pages=tuple(p for p in first.pages if p.index in wanted))


def bare(document: Document) -> Document:
    """A window's pages without their warnings, as the model sees them (the record lists each page's warnings once,
    ``WindowedPages``)."""
    return dataclasses.replace(
        document, warnings=(), pages=tuple(dataclasses.replace(p, warnings=()) for p in document.pages)
    )


# ---------------------------------------------------------------------------------------------------- the prompt


def window_messages(
    schema: Schema, plan: Plan, window: Window, *, pages: int, feedback: Sequence[str] = ()
) -> tuple[Message, ...]:
    """The messages of one window: the document prompt (same shared prefix), whose line says which pages these are.

    Args:
        schema: the schema.
        plan: the document's windows.
        window: this window.
        pages: page images in this window.
        feedback: problems with this window's previous answer (a retry).

    Returns:
        The messages (system, user).
    """
    first_page, last_page, number, windows = window.first_page, window.last_page, window.number, len(plan.spans)
    total = len(plan.indices)
    messages = build_messages(schema, pages=pages, feedback=feedback)
    parts = [
        f"These are pages {first_page}-{last_page} of a {total}-page document, read in {windows} parts "
        f"(this is part {number})."
    ]
    if number == 1:
        parts.append("Read the header fields (parties, numbers, dates, currency) from these pages.")
    else:
        parts.append(f"Page {first_page} was also in the previous part.")
    parts.append(f"List the line items printed on pages {first_page}-{last_page}, in order, every one of them.")
    if number == windows:
        parts.append("Read the totals from these pages.")
    else:
        parts.append(
            "The totals are on later pages: where a field is not printed on these pages, give null, or 0 "
            "where a number is required."
        )
    user = messages[-1]
    text = " ".join(parts) + user.text[len(DOCUMENT_LINE) :]
    return messages[:-1] + (dataclasses.replace(user, text=text),)


# ----------------------------------------------------------------------------------------------- the window's pages


@dataclass(frozen=True)
class WindowedPages:
    """What the windows left behind for review: every page's text, OCR summary and warnings, once each."""

    texts: tuple[Any, ...]
    ocr: tuple[dict | None, ...]
    warnings: tuple[dict, ...]
    render_s: float


def released(pages: Sequence[Page]) -> tuple[Page, ...]:
    """The pages without their images (only the text stays, for merge proof and review)."""
    return tuple(dataclasses.replace(p, image=None) for p in pages)  # type: ignore[arg-type]  # released on purpose


def left_behind(pages: Iterable[Page], *, render_s: float) -> WindowedPages:
    """The texts, OCR summaries and warnings of the pages seen (each page once, as first seen), in page order."""
    seen: dict[int, Page] = {}
    for page in pages:
        seen.setdefault(page.index, page)
    pages = [seen[i] for i in sorted(seen)]
    return WindowedPages(
        texts=tuple(page_texts(pages)),
        ocr=tuple(None if p.ocr is None else p.ocr.summary() for p in pages),
        warnings=tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in pages for w in p.warnings),
        render_s=render_s,
    )


__all__ = [
    "Plan",
    "Window",
    "WindowedPages",
    "bare",
    "cap_to_first_window",
    "first_pages",
    "first_warnings",
    "left_behind",
    "plan_for",
    "plan_spans",
    "released",
    "window_messages",
    "window_raster",
    "window_size",
]
