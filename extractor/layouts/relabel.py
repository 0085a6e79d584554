"""A field read where the teacher's page put it when the document prints it under another label: the same
generator's page in another language ("Invoice Date" where the teacher printed "Date de facture", "Residual" for
"Solde à payer").

Learning notes where a labelled value's line stands among the page's lines of the same shape (fixed words, then
what the teacher's label had after them, the value, what followed it) whose values are aligned with it, on the
left edge or the right (a column of totals): the runs of such lines one under another, its run, its rank
(``Place.stack``). Reading, where a place's label finds no value: the document's runs of lines of that shape aligned
at the place's edge must be as many as the teacher's, and the line at the place's run and rank is read when its
label is none of the layout's own labels (a label the layout knows prints its own field), it stands near the
teacher's height, and its value parses in the field's format (a number in the page's own decimal separator: an
English page prints ``2,076.76``). A text alone on its line at two places or more (a buyer's name atop two
addresses) is read where each place's value started, when all print the same (``read_in_place``). Only amounts and
dates are read by rank, and each is cross-checked (``check``):
an amount must make the arithmetic hold (the amount due is the total less the prepayment; the total the subtotal
and the tax rows), a date must not follow the due date; one no such rule can check is kept only when its run is as
long as the teacher's (the same rows, in the same order).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from extractor.layouts import formats, places
from extractor.layouts.model import FieldRule, Layout, LayoutRead, Place
from extractor.layouts.words import ANY, PageWords, merge

EDGE = 0.006  # how far (page widths) two values may be from one another and still be aligned
MAX_VALUE_WORDS = 3  # a value alone on its line after its label: "2,076.76", "17 March 2026", "1 297,50"
CURRENCY_WORDS = frozenset({"€", "$", "£", "eur", "usd", "gbp", "chf", "fr."})
DRIFT = 0.1  # how far (page heights) from the teacher's line the document's may stand
KINDS = (formats.NUMBER, formats.INTEGER, formats.DATE)
UNCHECKED = "relabelled_unchecked"


@dataclasses.dataclass(frozen=True)
class Row:
    """A line of a place's shape: its label (its leading fixed words, merged), its value's words and edges."""

    line: int
    label: str
    start: int
    end: int
    y: float
    edges: tuple[float, float]


def _lead(tokens: Sequence[str]) -> int:
    return next((i for i, t in enumerate(tokens) if t == ANY), len(tokens))


def label_of(tokens: Sequence[str]) -> str:
    """A line's label: its leading fixed words, merged (``("total", "ttc")`` -> ``"totalttc"``)."""
    return "".join(merge(tokens[: _lead(tokens)]))


def _value_like(tokens: Sequence[str]) -> bool:
    """True for a value's words alone: one number or date, a currency sign before or after it, a month's name in
    it (not a table's row, "81,90 € 16,38 €"; not a sentence)."""
    body = list(tokens)
    while body and body[0] in CURRENCY_WORDS:
        body.pop(0)
    while body and body[-1] in CURRENCY_WORDS:
        body.pop()
    return 0 < len(body) <= MAX_VALUE_WORDS and ANY in body and all(t == ANY or t in formats.MONTHS for t in body)


def _rows(page: PageWords, suffix: tuple[str, ...], after: tuple[str, ...]) -> list[Row]:
    """The page's lines of a place's shape: a label, the words its label had after it, a value alone, what
    followed the value."""
    out = []
    for line, tokens in enumerate(page.tokens):
        n = _lead(tokens)
        rest = tokens[n:]
        if not n or len(rest) <= len(suffix) + len(after) or rest[: len(suffix)] != suffix:
            continue
        if after and rest[len(rest) - len(after) :] != after:
            continue
        start, end = n + len(suffix), len(tokens) - len(after)
        if not _value_like(tokens[start:end]):
            continue
        words = page.line_words(line)[start:end]
        out.append(Row(line, label_of(tokens), start, end, words[0].box[1], (words[0].box[0], words[-1].box[2])))
    return out


def _aligned(rows: Sequence[Row], edge: int, at: float) -> list[Row]:
    """The rows whose value's edge is at ``at``, top to bottom."""
    return sorted((r for r in rows if abs(r.edges[edge // 2] - at) <= EDGE), key=lambda r: r.y)


def _shape(place: Place) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    n = _lead(place.before)
    return (tuple(place.before[n:]), tuple(place.after)) if n else None


def stacked(place: Place, pages: Sequence[PageWords], line: int) -> Place:
    """``place`` (learned on ``pages``, its value on ``line``) with its ``stack``: its line's rank among the
    page's lines of its shape whose values are aligned with it, on the edge where most are; unchanged when its
    line has no label or its value is no number or date alone."""
    shape = _shape(place)
    if shape is None or place.lines != 1:
        return place
    rows = _rows(pages[place.page[0]], *shape)
    best: tuple[int, ...] = ()
    for edge in (0, 2):
        aligned = _aligned(rows, edge, place.box[edge])
        rank = next((i for i, r in enumerate(aligned) if r.line == line), None)
        if rank is not None and (not best or len(aligned) > best[2]):
            best = (edge, rank, len(aligned))
    return dataclasses.replace(place, stack=best)


def known_labels(layout: Layout) -> frozenset[str]:
    """The labels the layout reads its fields at: a line labelled so prints its own field."""
    return frozenset(label_of(p.before) for rule in layout.fields for p in rule.places if _lead(p.before))


def _at_stack(place: Place, pages: Sequence[PageWords]) -> tuple[Row, bool] | None:
    """The document's line at the place's rank, and whether as many lines align there as on the teacher's."""
    shape = _shape(place)
    if not place.stack or shape is None or place.page[0] >= len(pages):
        return None
    edge, rank, size = place.stack
    aligned = _aligned(_rows(pages[place.page[0]], *shape), edge, place.box[edge])
    if rank >= len(aligned) or abs(aligned[rank].y - place.box[1]) > DRIFT:
        return None
    return aligned[rank], len(aligned) == size


def read_relabelled(
    rule: FieldRule, pages: Sequence[PageWords], *, known: frozenset[str], decimal: str
) -> tuple[Any, list[dict], bool] | None:
    """A field read at its places' ranks (module docstring): (value, citations, whether as many lines aligned as
    on the teacher's at every place read), or None when no place reads one there or two places disagree. A place
    with no rank (no label on its line) reads nothing here, as a place printing nothing reads nothing by label."""
    if rule.format.kind not in KINDS or rule.absent:
        return None
    found: dict[Any, tuple[Any, list[dict]]] = {}
    sized = True
    for place in rule.places:
        at = _at_stack(place, pages)
        if at is None:
            continue
        row, same = at
        page = pages[place.page[0]]
        words = page.line_words(row.line)[row.start : row.end]
        value = formats.parse(" ".join(w.text for w in words), rule.format, decimal=decimal)
        if value is None or row.label in known:
            return None
        key = Decimal(str(value)) if isinstance(value, int | float) else value
        found.setdefault(key, (value, []))[1].append(places.word_citation(page, words))
        sized &= same
    if len(found) != 1:
        return None
    value, cited = next(iter(found.values()))
    return value, cited, sized


def _lone(place: Place) -> bool:
    return not place.before and not place.after and place.lines == 1


def read_in_place(rule: FieldRule, pages: Sequence[PageWords]) -> tuple[Any, list[dict]] | None:
    """A text the teacher printed alone on its line at two places or more (a buyer's name atop its address and
    atop the ship-to address), read where the lines above it changed (another language's "Delivery Address"): at
    each place, the one line whose first word starts where the teacher's value did; read when every place has one
    and all print the same text, else None."""
    if rule.format.kind != formats.TEXT or rule.absent or len(rule.places) < 2 or not all(map(_lone, rule.places)):
        return None
    found: dict[Any, list[dict]] = {}
    for place in rule.places:
        if place.page[0] >= len(pages):
            return None
        page = pages[place.page[0]]
        starts = [
            line
            for line in range(len(page.lines))
            if all(abs(a - b) <= EDGE for a, b in zip(page.line_words(line)[0].box[:2], place.box[:2], strict=True))
        ]
        if len(starts) != 1:
            return None
        words = page.line_words(starts[0])
        value = formats.parse(" ".join(w.text for w in words), rule.format, decimal=",")
        if value is None:
            return None
        found.setdefault(value, []).append(places.word_citation(page, words))
    return next(iter(found.items())) if len(found) == 1 else None


def _number(values: dict[str, Any], pointer: str) -> Decimal | None:
    value = values.get(pointer)
    return Decimal(str(value)) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _rules(result: LayoutRead) -> list[tuple[frozenset[str], bool | None]]:
    """Each cross-check (the pointers it ties, whether it holds; None when the reading cannot tell)."""
    values = result.values
    total, due, net = (_number(values, p) for p in ("/total", "/amount_due", "/subtotal"))
    # no prepayment read as none (null) is 0; one not read (abstained) leaves the amount due unchecked
    prepaid = Decimal(0) if "/prepaid_amount" in values and values["/prepaid_amount"] is None else None
    prepaid = _number(values, "/prepaid_amount") if prepaid is None else prepaid
    taxes = [_number(values, p) for p in values if p.startswith("/tax_lines/") and p.endswith("/amount")]
    tax_read = "/tax_lines" not in result.abstained and taxes and None not in taxes
    issue, due_date = values.get("/issue_date"), values.get("/due_date")
    return [
        (
            frozenset({"/total", "/amount_due", "/prepaid_amount"}),
            None if None in (total, due, prepaid) else due == total - prepaid,  # type: ignore[operator]
        ),
        (
            frozenset({"/total", "/subtotal"}),
            None if None in (total, net) or not tax_read else total == net + sum(taxes),  # type: ignore[arg-type,operator]
        ),
        (
            frozenset({"/issue_date", "/due_date"}),
            issue <= due_date if isinstance(issue, str) and isinstance(due_date, str) else None,
        ),
    ]


def check(result: LayoutRead, relabelled: dict[str, bool]) -> None:
    """Drop each value read relabelled (pointer -> its runs as long as the teacher's) that the cross-checks do not
    hold: one a check ties must make every check that ties it hold; one none ties is kept when its runs were as
    long as the teacher's."""
    rules = _rules(result)
    for pointer, sized in relabelled.items():
        verdicts = [holds for ties, holds in rules if pointer in ties and holds is not None]
        if (verdicts and all(verdicts)) or (not verdicts and sized):
            continue
        result.values.pop(pointer, None)
        result.citations.pop(pointer, None)
        result.abstained[pointer] = UNCHECKED
