"""Long documents: page windows, one generation each, merged, and the merge proven by the invoice's arithmetic.

Decisions, in one place:

* **When.** A document whose selected pages are more than one window (``Settings.window_pages``, at most
  ``MAX_WINDOW_PAGES``; smaller when ``window_vision_tokens`` cannot hold that many pages at the page budget) is
  extracted window by window; shorter documents go the one-prompt way unchanged.
* **Windows** overlap by ``WINDOW_OVERLAP`` page (a line that starts at the foot of a page is seen whole), and the
  last window always brings at least one new page (30 pages, window 8: 1-8, 8-15, 15-22, 22-29, 29-30).
* **Rendering is lazy.** The first render of every document stops after one window's pages (``first_raster``);
  each later window is rendered (and OCR'd) when its generation is due and released after it, so memory holds one
  window's page images whatever the page count. Only the page texts stay (for review and grounding). With
  isolation each window is one job of the render pool, under the pool's time limit.
* **The prompt** (``window_messages``) is the document prompt with its last line saying which pages these are
  (``prompt.build_messages`` keeps the shared prefix: the system text and the schema).
* **Each window is one generation** with its own ``max_tokens``, its own retries (``retry.run_with_retries``: a
  truncated window is asked again alone) and its own usage. Every window's answer is validated against the full
  schema; the record lists the windows (``windows``: pages, status, usage, attempts, lines) and sums the usage.
* **The merge**: header fields (parties, numbers, dates, currency) from the first window (later windows fill what
  it left null), totals from the last (earlier windows fill nulls), the line items of every window in order; the
  lines a window's first page repeats from the window before (the longest run that ends the one and starts the
  other) are dropped. The merged data is validated against the full schema.
* **Proof** (``merge_warnings``): the merged line amounts must add up to the subtotal and, per tax rate, to the
  tax row's base (``checks``' rounding rule: half a minor unit per line); otherwise a ``window_lines`` warning
  names the windows whose lines do not add up (the windows that hold a line of the missing amount on their page
  text, or a doubled line of the extra amount; every window when the text cannot tell) and the record is
  ``review``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Iterator, Optional, Sequence

from extractor.trust.checks import minor_unit
from extractor.inputs.renderer import Rendered
from extractor.inputs.ocr import page_text
from extractor.pipeline.prompt import DOCUMENT_LINE, build_messages
from extractor.inputs.document import Document, Page, PageSelection, RasterSettings, page_cap_warning
from extractor.record import Record, Usage, issue
from extractor.pipeline.retry import Attempt, run_with_retries
from extractor.runners.base import Message
from extractor.settings import MAX_WINDOW_PAGES, WINDOW_OVERLAP, Settings
from extractor.schema import Schema, validate_data
from extractor.trust.verdict import OK, review_status, reviewed, windowed_status

# Which top-level fields come from where, per builtin schema; any other field is a header field.
LINE_FIELDS = {"invoice": ("line_items",), "receipt": ("items",)}
TOTAL_FIELDS = {"invoice": ("subtotal", "tax_lines", "total", "prepaid_amount", "amount_due", "payment_terms",
                            "bank_account"),
                "receipt": ("taxes", "subtotal", "total", "payment_method")}
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


def window_size(settings: Settings, *, pixels_per_token: int) -> int:
    """Pages per window: ``window_pages``, made smaller when ``window_vision_tokens`` cannot hold that many pages.

    Args:
        settings: the settings (window pages, window budget, page budget).
        pixels_per_token: the model's image pixels per vision token.

    Returns:
        2 to ``MAX_WINDOW_PAGES`` pages (two: a window must bring a new page besides its overlap).
    """
    per_page = max(1, -(-(settings.max_pixels or settings.vision_tokens * pixels_per_token) // pixels_per_token))
    return max(WINDOW_OVERLAP + 1, min(settings.window_pages, MAX_WINDOW_PAGES,
                                       settings.window_vision_tokens // per_page))


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


def plan_for(document: Document, *, settings: Settings, pixels_per_token: int) -> Optional[Plan]:
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
    warnings = ()
    if selected > settings.max_pages:
        warnings = (f"only the first {settings.max_pages} of {selected} selected pages were extracted (max_pages "
                    f"{settings.max_pages}; --max-pages raises it)",)
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
    numbers = [i + 1 for i in plan.indices[span[0]:span[1] + 1]]
    ranges = []
    for n in numbers:  # consecutive pages as one range
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return dataclasses.replace(raster, pages=PageSelection(tuple(ranges)), max_pages=len(numbers))


Render = Callable[[RasterSettings], Rendered]


def window_documents(plan: Plan, first: Document, *, render: Render,
                     raster: RasterSettings) -> Iterator[tuple[tuple[int, int], Document, float]]:
    """Yield each window's rendered pages, lazily: the first from the first render, the rest rendered when asked.

    Yields:
        ``(span, document holding the window's pages, render seconds)``.

    Raises:
        ModelError: never; a window that cannot be rendered raises its ``InputError`` / ``WorkerError`` (the
            pipeline makes the record an ``error`` naming the pages).
    """
    for number, span in enumerate(plan.spans):
        if number == 0:
            wanted = set(plan.indices[span[0]:span[1] + 1])
            yield span, dataclasses.replace(first, pages=tuple(p for p in first.pages if p.index in wanted)), 0.0
            continue
        rendered = render(window_raster(plan, span, raster))
        if rendered.error is not None:
            first_page, last_page = plan.pages(span)
            raise WindowRenderError(f"pages {first_page}-{last_page}: {rendered.error}",
                                    code=getattr(rendered.error, "code", "corrupt"))
        yield span, rendered.document, rendered.render_s


class WindowRenderError(Exception):
    """A later window's pages could not be rendered (the record becomes an ``error``)."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------------- the prompt


def window_messages(schema: Schema, *, pages: int, first_page: int, last_page: int, total: int, number: int,
                    windows: int, feedback: Sequence[str] = ()) -> tuple[Message, ...]:
    """The messages of one window: the document prompt (same shared prefix), whose line says which pages these are.

    Args:
        schema: the schema.
        pages: page images in this window.
        first_page / last_page: the window's page numbers (1-based).
        total: pages of the document read in windows.
        number / windows: this window's number (1-based) and how many there are.
        feedback: problems with this window's previous answer (a retry).

    Returns:
        The messages (system, user).
    """
    messages = build_messages(schema, pages=pages, feedback=feedback)
    parts = [f"These are pages {first_page}-{last_page} of a {total}-page document, read in {windows} parts "
             f"(this is part {number})."]
    if number == 1:
        parts.append("Read the header fields (parties, numbers, dates, currency) from these pages.")
    else:
        parts.append(f"Page {first_page} was also in the previous part.")
    parts.append(f"List the line items printed on pages {first_page}-{last_page}, in order, every one of them.")
    if number == windows:
        parts.append("Read the totals from these pages.")
    else:
        parts.append("The totals are on later pages: where a field is not printed on these pages, give null, or 0 "
                     "where a number is required.")
    user = messages[-1]
    text = " ".join(parts) + user.text[len(DOCUMENT_LINE):]
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
    before = before[max(0, len(before) - len(after)):]  # a longer run cannot be: the merge so far stays unread
    a, b = [_norm(x) for x in before], [_norm(x) for x in after]
    for n in range(min(len(a), len(b)), 0, -1):
        if a[len(a) - n:] == b[:n]:
            return n
    return 0


def line_fields(schema: Schema) -> tuple[str, ...]:
    """The top-level fields holding line items: the builtin schemas' own, else every array of objects."""
    if schema.name in LINE_FIELDS:
        return LINE_FIELDS[schema.name]
    props = schema.schema.get("properties") or {}
    return tuple(k for k, p in props.items() if isinstance(p, dict) and p.get("type") == "array"
                 and isinstance(p.get("items"), dict) and p["items"].get("type") == "object")


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


def _dec(value: Any) -> Optional[Decimal]:
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
    return list(dict.fromkeys([whole.replace(",", "") + "." + cents, text, whole.replace(",", ".") + "," + cents,
                               whole.replace(",", "") + "," + cents, whole.replace(",", " ") + "," + cents,
                               whole.replace(",", "'") + "." + cents]))


def _printed(amount: Decimal, text: str) -> bool:
    return any(re.search(rf"(?<![\d.,']){re.escape(s)}(?![\d]|[.,]\d)", text) for s in _spellings(amount))


def merge_warnings(schema: Schema, merged: dict, answers: Sequence[dict], spans: Sequence[list[int]],
                   texts: Sequence[Sequence[str]]) -> list[dict]:
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
        total = sum(amounts, Decimal(0))
        if abs(total - subtotal) > len(lines) * half:
            culprits = _culprits(total - subtotal, answers, texts)
            out.append(issue("window_lines", f"the {len(lines)} merged line amounts add up to {total}, but the "
                             f"subtotal is {subtotal} (off by {total - subtotal}): the lines of "
                             f"{_named(culprits, spans)} do not add up (a line dropped or read twice)", "/line_items"))
    for i, row in enumerate(merged.get("tax_lines") or []):
        rate, base = _dec((row or {}).get("rate")), _dec((row or {}).get("base"))
        at_rate = [a for x, a in zip(lines, amounts) if _dec(x.get("tax_rate")) == rate]
        if rate is None or base is None or not at_rate or None in at_rate:
            continue
        total = sum(at_rate, Decimal(0))
        if abs(total - base) > len(at_rate) * half:
            culprits = _culprits(total - base, answers, texts)
            out.append(issue("window_tax", f"the merged lines at {rate} % add up to {total}, but the tax row's base "
                             f"is {base}: the lines of {_named(culprits, spans)} do not add up",
                             f"/tax_lines/{i}/base"))
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
        elif difference < 0 and amount not in theirs and any(_printed(amount, getattr(t, "text", t) or "")
                                                             for t in texts[i]):
            found.append(i)
    return found or list(range(len(answers)))


def _named(windows: Sequence[int], spans: Sequence[list[int]]) -> str:
    names = [f"pages {spans[i][0]}-{spans[i][1]}" for i in windows]
    return ("window " if len(names) == 1 else "windows ") + ", ".join(names)


def reviewed_merge(record: Record) -> Record:
    """Make an ``ok`` record ``review`` when its merge did not add up (``merge_warnings`` in its warnings)."""
    if not reviewed(record.status):
        return record
    failures = sum(1 for w in record.warnings if w.get("code") in MERGE_CODES)
    return dataclasses.replace(record, status=review_status(failures=failures)) if failures else record


# ---------------------------------------------------------------------------------------------- the whole document

Generate = Callable[[Document, Attempt, tuple[Message, ...]], Record]


@dataclass(frozen=True)
class WindowedPages:
    """What the windows left behind for review: every page's text, OCR summary and warnings, once each."""

    texts: tuple[Any, ...]
    ocr: tuple[Optional[dict], ...]
    warnings: tuple[dict, ...]
    render_s: float


def _bare(document: Document) -> Document:
    """The window's pages without their warnings (the record lists each page's warnings once)."""
    return dataclasses.replace(document, warnings=(),
                               pages=tuple(dataclasses.replace(p, warnings=()) for p in document.pages))


def run_windows(plan: Plan, first: Document, *, render: Render, raster: RasterSettings, schema: Schema,
                settings: Settings, generate: Generate, base: dict) -> tuple[Record, WindowedPages]:
    """Extract a long document window by window and merge the answers.

    Args:
        plan: the windows.
        first: the first render (the first window's pages).
        render: renders one window's pages (in the pool when isolated).
        raster: the document's rasterizer settings.
        schema: the schema.
        settings: max_tokens, retries, guards.
        generate: one generation for a window's pages and messages (the pipeline's).
        base: source, model and schema of the record.

    Returns:
        The record before review (status ``ok`` with the merged data, or the first failed window's status) and
        the pages' texts for review.

    Raises:
        ModelError: the model failed (the pipeline makes it an ``error`` record).
        WindowRenderError: a window's pages could not be rendered.
    """
    records, entries, attempts, answers, spans, texts = [], [], [], [], [], []
    seen: dict[int, Page] = {}
    render_s = 0.0
    total = len(plan.indices)
    for number, (span, document, seconds) in enumerate(window_documents(plan, first, render=render,
                                                                         raster=raster), 1):
        render_s += seconds
        first_page, last_page = plan.pages(span)
        bare = _bare(document)

        def attempt_once(attempt: Attempt, bare=bare, first_page=first_page, last_page=last_page,
                         number=number) -> Record:
            messages = window_messages(schema, pages=len(bare.pages), first_page=first_page, last_page=last_page,
                                       total=total, number=number, windows=len(plan.spans), feedback=attempt.feedback)
            return generate(bare, attempt, messages)

        record = run_with_retries(attempt_once, max_tokens=settings.max_tokens, guards=settings.guards,
                                  retries=settings.retries)
        for page in document.pages:
            seen.setdefault(page.index, dataclasses.replace(page, image=None))  # only the text stays
        records.append(record)
        spans.append([first_page, last_page])
        texts.append([page_text(p.text, p.ocr) for p in document.pages])
        answers.append(record.data if isinstance(record.data, dict) else {})
        attempts += [{**a, "pages": [first_page, last_page]} for a in record.extra.get("attempts", [])]
        entries.append(_entry(record, first_page, last_page, fields=line_fields(schema)))
        del document, bare  # the window's images go here: only the texts stay
    return _merged_record(records, entries, attempts, answers, spans, texts, schema=schema, base=base,
                          pages=len(seen)), _left_behind(seen, render_s)


def _entry(record: Record, first_page: int, last_page: int, *, fields: Sequence[str]) -> dict:
    """One window's entry in the record's ``windows``."""
    attempts = record.extra.get("attempts", [])
    data = record.data if isinstance(record.data, dict) else None
    lines = None if data is None else sum(len(data.get(f) or []) for f in fields)
    return {"pages": [first_page, last_page], "status": record.status, "finish_reason": record.finish_reason,
            "usage": dataclasses.asdict(record.usage), "attempts": len(attempts),
            "retried": [a["reason"] for a in attempts[1:]], "lines": lines,
            "errors": list(record.errors)}


def _merged_record(records: Sequence[Record], entries: list[dict], attempts: list[dict], answers: list[dict],
                   spans: list[list[int]], texts: list[list], *, schema: Schema, base: dict, pages: int) -> Record:
    """The document's record from its windows' records (before review)."""
    usage = functools.reduce(lambda a, b: a + b, (r.usage for r in records), Usage())
    timings = {k: round(sum(r.timings.get(k, 0.0) for r in records), 4) for k in ("prefill_s", "decode_s")}
    failed = next((r for r in records if r.status != OK), None)
    last = records[-1]
    data, errors, warnings = None, (), []
    for r, (first_page, last_page) in zip(records, spans):
        warnings += [{**w, "message": f"pages {first_page}-{last_page}: {w['message']}"} for w in r.warnings]
    if failed is not None:
        i = records.index(failed)
        errors = tuple({**e, "message": f"pages {spans[i][0]}-{spans[i][1]}: {e['message']}"} for e in failed.errors)
    else:
        data, kept = merge_answers(schema, answers)
        for entry, n in zip(entries, kept):
            entry["kept"] = n
        errors = tuple(validate_data(data, schema))
        if errors:
            data = None
        else:
            warnings += merge_warnings(schema, data, answers, spans, texts)
    return Record(
        **base, status=windowed_status([r.status for r in records], schema_errors=len(errors)),
        sha256=last.sha256, pages=pages, data=data, errors=errors, warnings=tuple(warnings),
        finish_reason=(failed or last).finish_reason, stop_token_id=(failed or last).stop_token_id,
        stop_token_ids=last.stop_token_ids, guard=(failed or last).guard, usage=usage, timings=timings,
        extra={**{k: v for k, v in last.extra.items() if k not in ("attempts", "ocr")}, "attempts": attempts,
               "windows": entries})


def page_texts(plan: Plan, first: Document, *, render: Render, raster: RasterSettings) -> WindowedPages:
    """Every page's text of a long document without generating (embedded XML answers: for review only)."""
    seen: dict[int, Page] = {}
    render_s = 0.0
    for _, document, seconds in window_documents(plan, first, render=render, raster=raster):
        render_s += seconds
        for page in document.pages:
            seen.setdefault(page.index, dataclasses.replace(page, image=None))  # the image is released here
    return _left_behind(seen, render_s)


def _left_behind(seen: dict[int, Page], render_s: float) -> WindowedPages:
    """The texts, OCR summaries and warnings of the pages seen, in page order."""
    pages = [seen[i] for i in sorted(seen)]
    return WindowedPages(texts=tuple(page_text(p.text, p.ocr) for p in pages),
                         ocr=tuple(None if p.ocr is None else p.ocr.summary() for p in pages),
                         warnings=tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in pages
                                        for w in p.warnings), render_s=render_s)


__all__ = ["LINE_FIELDS", "MERGE_CODES", "Plan", "TOTAL_FIELDS", "WindowRenderError", "first_raster",
           "first_warnings", "merge_answers", "merge_warnings", "page_texts", "plan_for", "plan_spans",
           "repeated_prefix", "reviewed_merge", "run_windows", "window_messages", "window_size"]
