"""Long documents: the windows' answers merged into one record, the merge proven by the invoice's arithmetic.

The pipeline (``pipeline.answer``) runs each window of the plan (``pipeline.windows``) and hands back a
``WindowResult``; ``merge`` turns the results into the document's record (before review) and its findings.

Decisions, in one place:

* **The merge**: header fields (parties, numbers, dates, currency) from the first window (later windows fill what
  it left null), totals from the last (earlier windows fill nulls), the line items of every window in order; the
  lines a window's first page repeats from the window before (the longest run that ends the one and starts the
  other) are dropped. The merged data is validated against the full schema.
* **Proof** (``merge_warnings``): the merged line amounts must add up to the subtotal and, per tax rate, to the
  tax row's base (``checks``' rounding rule: half a minor unit per line); otherwise a ``window_lines`` warning
  names the windows whose lines do not add up (the windows that hold a line of the missing amount on their page
  text, or a doubled line of the extra amount; every window when the text cannot tell): a merge finding, which
  makes the record ``review`` (``trust.verdict.record_status``).
* **Evidence** (``merged_tokens``): each merged value keeps the token evidence of the window value it was taken
  from (the same tokens: exact), so a long document's fields have their confidence as a short one's do.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.inputs.document import Page
from extractor.inputs.ocrdecide import page_text
from extractor.pipeline.describe import PROMPT_NOTE
from extractor.pipeline.windows import Plan, Window, WindowedPages, left_behind
from extractor.record import AttemptReport, Record, Usage, WindowReport, issue
from extractor.schema import INVOICE_SCHEMAS, Schema, validate_data
from extractor.trust.checks import minor_unit
from extractor.trust.verdict import OK, windowed_status

# Which top-level fields come from where, per builtin schema; any other field is a header field.
LINE_FIELDS = {"invoice": ("line_items",), "invoice-en16931": ("line_items",), "receipt": ("items",)}
TOTAL_FIELDS = {
    "invoice": ("subtotal", "tax_lines", "total", "prepaid_amount", "amount_due", "payment_terms", "bank_account"),
    "invoice-en16931": (
        "subtotal",
        "allowances_charges",
        "tax_lines",
        "total",
        "prepaid_amount",
        "rounding_amount",
        "amount_due",
        "payment_means",
        "payment_terms",
        "bank_account",
    ),
    "receipt": ("taxes", "subtotal", "total", "payment_method"),
}
MERGE_CODES = ("window_lines", "window_tax")


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
    merged, kept, _ = _merge(schema, answers)
    return merged, kept


def _merge(schema: Schema, answers: Sequence[dict]) -> tuple[dict, list[int], dict[tuple, tuple[int, tuple]]]:
    """``merge_answers``, and where each merged part came from: merged path parts (a top-level key, or a line
    list's key and item index) -> (the window, its path parts)."""
    lines, totals = line_fields(schema), TOTAL_FIELDS.get(schema.name, ())
    keys = list(dict.fromkeys(k for a in answers for k in a))
    merged: dict = {}
    sources: dict[tuple, tuple[int, tuple]] = {}
    for key in keys:
        if key in lines:
            continue
        order = list(enumerate(answers))
        if key in totals:
            order.reverse()
        values = [(i, a.get(key)) for i, a in order if key in a]
        chosen = next(((i, v) for i, v in values if v is not None), values[0] if values else None)
        merged[key] = chosen[1] if chosen else None
        if chosen is not None:
            sources[(key,)] = (chosen[0], (key,))
    kept = [0] * len(answers)
    for key in lines:
        items: list = []
        for i, answer in enumerate(answers):
            these = list(answer.get(key) or [])
            skip = repeated_prefix(items, these) if i else 0
            for j in range(skip, len(these)):
                sources[(key, len(items) + j - skip)] = (i, (key, j))
            items.extend(these[skip:])
            kept[i] += len(these) - skip
        if any(key in a for a in answers):
            merged[key] = items
    return {k: merged[k] for k in keys if k in merged}, kept, sources


def merged_tokens(
    merged: Any, sources: dict[tuple, tuple[int, tuple]], window_tokens: Sequence[dict | None]
) -> dict[str, dict]:
    """Each merged value's token evidence: the evidence of the window value it was taken from (exact: the same
    tokens), by JSON pointer in the merged data; null entries where that window has none."""
    from extractor.leaves import json_pointer
    from extractor.trust.confidence import scalars
    from extractor.trust.evidence import EMPTY_TOKENS

    out = {}
    for pointer, parts in scalars(merged):
        source = sources.get(parts[:1]) or sources.get(parts[:2])
        entry = None
        if source is not None:
            window, prefix = source
            depth = 1 if parts[:1] in sources else 2
            entry = (window_tokens[window] or {}).get(json_pointer((*prefix, *parts[depth:])))
        out[pointer] = dict(entry) if entry else dict(EMPTY_TOKENS)
    return out


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
    if schema.name not in INVOICE_SCHEMAS or not isinstance(merged, dict):
        return []
    lines = [x for x in merged.get("line_items") or [] if isinstance(x, dict)]
    amounts = [_dec(x.get("amount")) for x in lines]
    half = minor_unit(merged.get("currency")) / 2
    subtotal = _dec(merged.get("subtotal"))
    out = []
    if lines and subtotal is not None and None not in amounts:
        if (off := _off(amounts, subtotal, half=half, answers=answers, texts=texts)) is not None:
            total, culprits = off
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
        if (off := _off(at_rate, base, half=half, answers=answers, texts=texts)) is not None:
            total, culprits = off
            out.append(
                issue(
                    "window_tax",
                    f"the merged lines at {rate} % add up to {total}, but the tax row's base "
                    f"is {base}: the lines of {_named(culprits, spans)} do not add up",
                    f"/tax_lines/{i}/base",
                )
            )
    return out


def _off(
    amounts: Sequence[Decimal | None],
    expected: Decimal,
    *,
    half: Decimal,
    answers: Sequence[dict],
    texts: Sequence[Sequence[str]],
) -> tuple[Decimal, list[int]] | None:
    """The sum of ``amounts`` and the windows to blame when it is off ``expected`` by more than half a minor unit
    per amount (each amount may be rounded); None when it adds up."""
    total = sum((a for a in amounts if a is not None), Decimal(0))
    if abs(total - expected) <= len(amounts) * half:
        return None
    return total, _culprits(total - expected, answers, texts)


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
    tokens: dict[str, dict] = {}
    errors: tuple[dict, ...] = ()
    warnings: list[dict] = []
    findings: list[dict] = []
    for r, (first_page, last_page) in zip(records, spans, strict=False):
        warnings += [
            {**w, "message": f"pages {first_page}-{last_page}: {w['message']}"}
            for w in r.warnings
            if w.get("code") != PROMPT_NOTE
        ]
    warnings = [w for w in last.warnings if w.get("code") == PROMPT_NOTE][:1] + warnings  # the prompt's, once
    if failed is not None:
        i = records.index(failed)
        errors = tuple({**e, "message": f"pages {spans[i][0]}-{spans[i][1]}: {e['message']}"} for e in failed.errors)
    else:
        data, kept, sources = _merge(schema, answers)
        tokens = merged_tokens(data, sources, [r.extra.get("fields") for r in records])
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
            **{k: v for k, v in last.extra.items() if k not in ("attempts", "ocr", "fields")},  # fields: one window's
            "attempts": [a.to_dict() for a in attempts],
            "windows": [e.to_dict() for e in entries],
            **({"fields": tokens} if data is not None else {}),  # each value's evidence, from its window's
        },
    ), tuple(findings)


__all__ = [
    "LINE_FIELDS",
    "MERGE_CODES",
    "Merged",
    "TOTAL_FIELDS",
    "WindowResult",
    "line_fields",
    "merge",
    "merge_answers",
    "merge_warnings",
    "merged_tokens",
    "repeated_prefix",
]
