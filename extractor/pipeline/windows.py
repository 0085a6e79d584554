"""Long documents: page windows, one generation each, merged, and the merge proven by the invoice's arithmetic.

This module plans and merges; it runs nothing. The pipeline (``pipeline.document``) drives the loop: for each
``Window`` of the ``Plan`` it renders the pages (``first_pages``, ``window_raster``), generates with retries
(``window_messages``) and hands back a ``WindowResult``; ``merge`` turns the results into the document's record.

Decisions, in one place:

* **When.** A document whose selected pages are more than one window (``Settings.window_pages``, at most
  ``MAX_WINDOW_PAGES``; smaller when ``window_vision_tokens`` cannot hold that many pages at the page budget) is
  extracted window by window; shorter documents go the one-prompt way unchanged.
* **Windows** overlap by ``WINDOW_OVERLAP`` page (a line that starts at the foot of a page is seen whole), and the
  last window always brings at least one new page (30 pages, window 8: 1-8, 8-15, 15-22, 22-29, 29-30).
* **Rendering is lazy.** The first render of every document stops after one window's pages (``first_raster``);
  each later window is rendered (and OCR'd) when its generation is due and released after it, so memory holds one
  window's page images whatever the page count. Only the page texts stay (for review and grounding). With
  isolation each window is one job of the render pool, under the pool's time limit. A window that cannot be
  rendered makes the record an ``error`` naming its pages.
* **The prompt** (``window_messages``) is the document prompt with its last line saying which pages these are
  (``prompt.build_messages`` keeps the shared prefix: the system text and the schema).
* **Each window is one generation** with its own ``max_tokens``, its own retries (``retry.run_with_retries``: a
  truncated window is asked again alone) and its own usage. Every window's answer is validated against the full
  schema; the record lists the windows (``windows``: ``record.WindowReport``, pages, status, usage, attempts,
  lines) and sums the usage.
* **The merge**: header fields (parties, numbers, dates, currency) from the first window (later windows fill what
  it left null), totals from the last (earlier windows fill nulls), the line items of every window in order; the
  lines a window's first page repeats from the window before (the longest run that ends the one and starts the
  other) are dropped. The merged data is validated against the full schema.
* **Proof** (``merge_warnings``): the merged line amounts must add up to the subtotal and, per tax rate, to the
  tax row's base (``checks``' rounding rule: half a minor unit per line); otherwise a ``window_lines`` warning
  names the windows whose lines do not add up (the windows that hold a line of the missing amount on their page
  text, or a doubled line of the extra amount; every window when the text cannot tell): a merge finding, which
  makes the record ``review`` (``trust.verdict.record_status``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.inputs.document import Document, Page, PageSelection, RasterSettings, page_cap_warning
from extractor.inputs.ocrdecide import page_text
from extractor.pipeline.prompt import DOCUMENT_LINE, build_messages
from extractor.record import AttemptReport, Record, Usage, WindowReport, issue
from extractor.runners.base import Message
from extractor.schema import Schema, validate_data
from extractor.settings import MAX_WINDOW_PAGES, WINDOW_OVERLAP, Settings
from extractor.trust.checks import minor_unit
from extractor.trust.verdict import OK, windowed_status

# Which top-level fields come from where, per builtin schema; any other field is a header field.
LINE_FIELDS = {"invoice": ("line_items",), "receipt": ("items",)}
TOTAL_FIELDS = {
    "invoice": ("subtotal", "tax_lines", "total", "prepaid_amount", "amount_due", "payment_terms", "bank_account"),
    "receipt": ("taxes", "subtotal", "total", "payment_method"),
}
MERGE_CODES = ("window_lines", "window_tax")


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


def first_raster(raster: RasterSettings, settings: Settings, *, pixels_per_token: int) -> RasterSettings:
    """The rasterizer settings of a document's first render: its first window's pages at most (the rest, if any,
    are rendered window by window)."""
    size = window_size(settings, pixels_per_token=pixels_per_token)
    return dataclasses.replace(raster, max_pages=min(raster.max_pages, size))


def plan_for(document: Document, *, settings: Settings, pixels_per_token: int) -> Plan | None:
    """The window plan of a document rendered with ``first_raster``, or None when its pages fit in one window.

    Args:
        document: the first render (at most one window of pages).
        settings: the settings (page selection, ``max_pages``, windows).
        pixels_per_token: the model's image pixels per vision token.

    Returns:
        The Plan (the pages past ``max_pages`` named in its warnings), or None.
    """
    size = window_size(settings, pixels_per_token=pixels_per_token)
    raster = settings.raster(pixels_per_token)
    selection = raster.pages or PageSelection(((1, None),))
    selected = selection.count(document.page_count)
    if min(selected, settings.max_pages) <= size:
        return None  # one window holds them (the first render's own warning names a max_pages cut)
    indices = tuple(itertools.islice(selection.indices(document.page_count), settings.max_pages))
    warnings: tuple[str, ...] = ()
    if selected > settings.max_pages:
        warnings = (
            f"only the first {settings.max_pages} of {selected} selected pages were extracted (max_pages "
            f"{settings.max_pages}; --max-pages raises it)",
        )
    return Plan(indices=indices, spans=plan_spans(len(indices), size), warnings=warnings)


def first_warnings(document: Document, settings: Settings, *, pixels_per_token: int) -> tuple[str, ...]:
    """The first render's document warnings without the page-cap note that ``first_raster`` itself caused."""
    size = window_size(settings, pixels_per_token=pixels_per_token)
    raster = settings.raster(pixels_per_token)
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
    """The first window's pages, from the document's first render (``first_raster``: one window's pages at most);
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


# ------------------------------------------------------------------------------------------------------ the merge


def _norm(value: Any) -> Any:
    """A comparable form of a line item (strings casefolded, whitespace collapsed; 19 == 19.0 already)."""
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_norm(v) for v in value]
    return value


def repeated_prefix(before: Sequence[Any], after: Sequence[Any]) -> int:
    """How many of ``after``'s first lines repeat ``before``'s last ones (the longest such run)."""
    before = before[max(0, len(before) - len(after)) :]  # a longer run cannot be: the merge so far stays unread
    a, b = [_norm(x) for x in before], [_norm(x) for x in after]
    for n in range(min(len(a), len(b)), 0, -1):
        if a[len(a) - n :] == b[:n]:
            return n
    return 0


def line_fields(schema: Schema) -> tuple[str, ...]:
    """The top-level fields holding line items: the builtin schemas' own, else every array of objects."""
    if schema.name in LINE_FIELDS:
        return LINE_FIELDS[schema.name]
    props = schema.schema.get("properties") or {}
    return tuple(
        k
        for k, p in props.items()
        if isinstance(p, dict)
        and p.get("type") == "array"
        and isinstance(p.get("items"), dict)
        and p["items"].get("type") == "object"
    )


def merge_answers(schema: Schema, answers: Sequence[dict]) -> tuple[dict, list[int]]:
    """Merge the windows' answers into one document's data.

    Args:
        schema: the schema (which fields are lines, which totals).
        answers: each window's data, in page order.

    Returns:
        The merged data (keys in the first answer's order) and, per window, how many of its lines were kept.
    """
    lines, totals = line_fields(schema), TOTAL_FIELDS.get(schema.name, ())
    keys = list(dict.fromkeys(k for a in answers for k in a))
    merged: dict = {}
    for key in keys:
        if key in lines:
            continue
        order = reversed(answers) if key in totals else answers
        values = [a.get(key) for a in order if key in a]
        merged[key] = next((v for v in values if v is not None), values[0] if values else None)
    kept = [0] * len(answers)
    for key in lines:
        items: list = []
        for i, answer in enumerate(answers):
            these = list(answer.get(key) or [])
            skip = repeated_prefix(items, these) if i else 0
            items.extend(these[skip:])
            kept[i] += len(these) - skip
        if any(key in a for a in answers):
            merged[key] = items
    return {k: merged[k] for k in keys if k in merged}, kept


def _dec(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _spellings(amount: Decimal) -> list[str]:
    """How an amount may be printed: 1234.5 → 1234.50, 1,234.50, 1.234,50, 1234,50, 1 234,50, 1'234.50."""
    text = f"{abs(amount):,.2f}"
    whole, cents = text.split(".")
    return list(
        dict.fromkeys(
            [
                whole.replace(",", "") + "." + cents,
                text,
                whole.replace(",", ".") + "," + cents,
                whole.replace(",", "") + "," + cents,
                whole.replace(",", " ") + "," + cents,
                whole.replace(",", "'") + "." + cents,
            ]
        )
    )


def _printed(amount: Decimal, text: str) -> bool:
    return any(re.search(rf"(?<![\d.,']){re.escape(s)}(?![\d]|[.,]\d)", text) for s in _spellings(amount))


def merge_warnings(
    schema: Schema, merged: dict, answers: Sequence[dict], spans: Sequence[list[int]], texts: Sequence[Sequence[str]]
) -> list[dict]:
    """Prove the merge by the invoice's arithmetic (invoice schema; others are not checked).

    Args:
        schema: the schema.
        merged: the merged data.
        answers: each window's data.
        spans: each window's first and last page number.
        texts: each window's page texts.

    Returns:
        ``window_lines`` / ``window_tax`` warnings naming the windows whose lines do not add up; empty when they do.
    """
    if schema.name != "invoice" or not isinstance(merged, dict):
        return []
    lines = [x for x in merged.get("line_items") or [] if isinstance(x, dict)]
    amounts = [_dec(x.get("amount")) for x in lines]
    half = minor_unit(merged.get("currency")) / 2
    subtotal = _dec(merged.get("subtotal"))
    out = []
    if lines and subtotal is not None and None not in amounts:
        total = sum((a for a in amounts if a is not None), Decimal(0))
        if abs(total - subtotal) > len(lines) * half:
            culprits = _culprits(total - subtotal, answers, texts)
            out.append(
                issue(
                    "window_lines",
                    f"the {len(lines)} merged line amounts add up to {total}, but the "
                    f"subtotal is {subtotal} (off by {total - subtotal}): the lines of "
                    f"{_named(culprits, spans)} do not add up (a line dropped or read twice)",
                    "/line_items",
                )
            )
    for i, row in enumerate(merged.get("tax_lines") or []):
        rate, base = _dec((row or {}).get("rate")), _dec((row or {}).get("base"))
        at_rate = [a for x, a in zip(lines, amounts, strict=False) if _dec(x.get("tax_rate")) == rate]
        if rate is None or base is None or not at_rate or None in at_rate:
            continue
        total = sum((a for a in at_rate if a is not None), Decimal(0))
        if abs(total - base) > len(at_rate) * half:
            culprits = _culprits(total - base, answers, texts)
            out.append(
                issue(
                    "window_tax",
                    f"the merged lines at {rate} % add up to {total}, but the tax row's base "
                    f"is {base}: the lines of {_named(culprits, spans)} do not add up",
                    f"/tax_lines/{i}/base",
                )
            )
    return out


def _culprits(difference: Decimal, answers: Sequence[dict], texts: Sequence[Sequence[str]]) -> list[int]:
    """The windows to blame for lines that are off by ``difference``: a line of that amount read twice (too
    much), or printed on the window's pages but missing from its answer (too little); every window otherwise."""
    amount = abs(difference)
    found = []
    for i, answer in enumerate(answers):
        theirs = [_dec(x.get("amount")) for x in answer.get("line_items") or [] if isinstance(x, dict)]
        if difference > 0 and amount in theirs:
            found.append(i)
        elif (
            difference < 0
            and amount not in theirs
            and any(_printed(amount, getattr(t, "text", t) or "") for t in texts[i])
        ):
            found.append(i)
    return found or list(range(len(answers)))


def _named(windows: Sequence[int], spans: Sequence[list[int]]) -> str:
    names = [f"pages {spans[i][0]}-{spans[i][1]}" for i in windows]
    return ("window " if len(names) == 1 else "windows ") + ", ".join(names)


# ---------------------------------------------------------------------------------------------- the whole document


@dataclass(frozen=True)
class WindowedPages:
    """What the windows left behind for review: every page's text, OCR summary and warnings, once each."""

    texts: tuple[Any, ...]
    ocr: tuple[dict | None, ...]
    warnings: tuple[dict, ...]
    render_s: float


@dataclass(frozen=True)
class WindowResult:
    """What one window gave back, to be merged (the pipeline runs the window: renders it, generates with retries).

    Attributes:
        window: the window.
        record: its answer's record (``retry.run_with_retries``: its attempts listed).
        pages: its pages with their images released (``released``): their text, OCR and warnings stay.
        render_s: seconds its pages took to render (0 for the first window: the document's first render).
    """

    window: Window
    record: Record
    pages: tuple[Page, ...]
    render_s: float = 0.0


@dataclass(frozen=True)
class Merged:
    """A long document's windows merged.

    Attributes:
        record: the document's record before review: the answer's status (``verdict.windowed_status``: ``ok``
            with the merged data, or the first failed window's status), the windows' usage summed.
        findings: the merge's findings (``merge_warnings``, also in the record's warnings): each makes an ``ok``
            answer ``review`` (``verdict.record_status``).
        pages: every page's text, OCR summary and warnings, for review and the record.
    """

    record: Record
    findings: tuple[dict, ...]
    pages: WindowedPages


def released(pages: Sequence[Page]) -> tuple[Page, ...]:
    """The pages without their images (only the text stays, for merge proof and review)."""
    return tuple(dataclasses.replace(p, image=None) for p in pages)  # type: ignore[arg-type]  # released on purpose


def merge(plan: Plan, results: Sequence[WindowResult], *, schema: Schema, base: dict) -> Merged:
    """Merge a long document's windows, each run by the pipeline, into the document's record.

    Args:
        plan: the windows.
        results: every window's result, in page order.
        schema: the schema.
        base: source, model and schema of the record.

    Returns:
        The Merged record (before review), the merge's findings and the pages' texts.
    """
    records, entries, attempts, answers, spans, texts = [], [], [], [], [], []
    for result in results:
        record, first_page, last_page = result.record, result.window.first_page, result.window.last_page
        records.append(record)
        spans.append([first_page, last_page])
        texts.append([page_text(p.text, p.ocr) for p in result.pages])
        answers.append(record.data if isinstance(record.data, dict) else {})
        attempts += [dataclasses.replace(a, pages=(first_page, last_page)) for a in record.attempts]
        entries.append(_entry(record, first_page, last_page, fields=line_fields(schema)))
    left = left_behind(
        (p for result in results for p in result.pages), render_s=sum((r.render_s for r in results), 0.0)
    )
    record, findings = _merged_record(
        records, entries, attempts, answers, spans, texts, schema=schema, base=base, pages=len(left.texts)
    )
    return Merged(record=record, findings=findings, pages=left)


def _entry(record: Record, first_page: int, last_page: int, *, fields: Sequence[str]) -> WindowReport:
    """One window's entry in the record's ``windows``."""
    attempts = record.attempts
    data = record.data if isinstance(record.data, dict) else None
    lines = None if data is None else sum(len(data.get(f) or []) for f in fields)
    return WindowReport(
        pages=(first_page, last_page),
        status=record.status,
        finish_reason=record.finish_reason,
        usage=record.usage,
        attempts=len(attempts),
        retried=tuple(a.reason for a in attempts[1:]),
        lines=lines,
        errors=tuple(record.errors),
    )


def _merged_record(
    records: Sequence[Record],
    entries: list[WindowReport],
    attempts: list[AttemptReport],
    answers: list[dict],
    spans: list[list[int]],
    texts: list[list],
    *,
    schema: Schema,
    base: dict,
    pages: int,
) -> tuple[Record, tuple[dict, ...]]:
    """The document's record from its windows' records (before review), and the merge's findings."""
    usage = functools.reduce(lambda a, b: a + b, (r.usage for r in records), Usage())
    timings = {k: round(sum(r.timings.get(k, 0.0) for r in records), 4) for k in ("prefill_s", "decode_s")}
    failed = next((r for r in records if r.status != OK), None)
    last = records[-1]
    data: Any = None
    errors: tuple[dict, ...] = ()
    warnings: list[dict] = []
    findings: list[dict] = []
    for r, (first_page, last_page) in zip(records, spans, strict=False):
        warnings += [{**w, "message": f"pages {first_page}-{last_page}: {w['message']}"} for w in r.warnings]
    if failed is not None:
        i = records.index(failed)
        errors = tuple({**e, "message": f"pages {spans[i][0]}-{spans[i][1]}: {e['message']}"} for e in failed.errors)
    else:
        data, kept = merge_answers(schema, answers)
        entries = [dataclasses.replace(entry, kept=n) for entry, n in zip(entries, kept, strict=False)]
        errors = tuple(validate_data(data, schema))
        if errors:
            data = None
        else:
            findings = merge_warnings(schema, data, answers, spans, texts)
            warnings += findings
    return Record(
        **base,
        status=windowed_status([r.status for r in records], schema_errors=len(errors)),
        sha256=last.sha256,
        pages=pages,
        data=data,
        errors=errors,
        warnings=tuple(warnings),
        finish_reason=(failed or last).finish_reason,
        stop_token_id=(failed or last).stop_token_id,
        stop_token_ids=last.stop_token_ids,
        guard=(failed or last).guard,
        usage=usage,
        timings=timings,
        extra={
            **{k: v for k, v in last.extra.items() if k not in ("attempts", "ocr")},
            "attempts": [a.to_dict() for a in attempts],
            "windows": [e.to_dict() for e in entries],
        },
    ), tuple(findings)


def left_behind(pages: Iterable[Page], *, render_s: float) -> WindowedPages:
    """The texts, OCR summaries and warnings of the pages seen (each page once, as first seen), in page order."""
    seen: dict[int, Page] = {}
    for page in pages:
        seen.setdefault(page.index, page)
    pages = [seen[i] for i in sorted(seen)]
    return WindowedPages(
        texts=tuple(page_text(p.text, p.ocr) for p in pages),
        ocr=tuple(None if p.ocr is None else p.ocr.summary() for p in pages),
        warnings=tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in pages for w in p.warnings),
        render_s=render_s,
    )


__all__ = [
    "LINE_FIELDS",
    "MERGE_CODES",
    "Merged",
    "Plan",
    "TOTAL_FIELDS",
    "Window",
    "WindowResult",
    "WindowedPages",
    "bare",
    "first_pages",
    "first_raster",
    "first_warnings",
    "left_behind",
    "merge",
    "merge_answers",
    "merge_warnings",
    "plan_for",
    "plan_spans",
    "released",
    "repeated_prefix",
    "window_messages",
    "window_raster",
    "window_size",
]
