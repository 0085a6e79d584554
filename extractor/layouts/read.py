"""Reading a document by a learned layout, with no model.

Identity first: nothing is read unless every key of the layout's identity (its seller's VAT id, IBAN and name) is
printed on the document, and the seller's name read at its learned place is the layout's. Then each field: at each
of its places, the runs of words printed there, parsed by its learned format. A field is read when its places give
exactly one value between them; else it abstains, with the reason: ``no_candidate`` (nothing printed there),
``several_candidates`` (one place, two values), ``unparsable`` (printed there, not in its format),
``places_disagree`` (two places, two values), ``demoted`` (a review corrected it). Tables: ``table.read_table``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from extractor.layouts import formats, places, table
from extractor.layouts.choose import identity_printed
from extractor.layouts.model import (
    DEMOTED,
    IDENTITY,
    NO_CANDIDATE,
    NOT_LEARNED,
    PLACES_DISAGREE,
    SEVERAL,
    UNPARSABLE,
    FieldRule,
    Format,
    Layout,
    LayoutRead,
    Place,
)
from extractor.layouts.words import PageWords
from extractor.register.keys import name_key
from extractor.schema import load_schema, validate_data

SELLER_NAME = "/seller/name"


def citation(pages: Sequence[PageWords], span: places.Span) -> dict:
    """Where a run of words is printed: page (1-based), box, text, source and OCR's lowest confidence."""
    words = places.span_words(pages, span)
    page = pages[span.page]
    # a label printed with nothing after it is cited at its line, with no text
    return {**places.word_citation(page, words or page.line_words(span.line)), "text": " ".join(w.text for w in words)}


def _key(value: Any) -> Any:
    return formats.Decimal(str(value)) if isinstance(value, int | float) and not isinstance(value, bool) else value


def place_values(
    place: Place, fmt: Format, pages: Sequence[PageWords], *, decimal: str
) -> tuple[dict[Any, tuple[Any, list[dict]]], str | None]:
    """The values printed at one place: normalised value -> (value, citations); and, when there is none, why."""
    found: dict[Any, tuple[Any, list[dict]]] = {}
    unparsable = False
    for span in places.matches(place, pages):
        words = places.span_words(pages, span)
        if not words:  # the label printed with nothing after it: 0 or nothing, the page does not say which
            continue
        value = formats.parse(" ".join(w.text for w in words), fmt, decimal=decimal)
        if value is None:
            unparsable = True
            continue
        found.setdefault(_key(value), (value, []))[1].append(citation(pages, span))
    # (one value printed at one place on several pages, a header on every page, is one candidate)
    if found:
        return found, (SEVERAL if len(found) > 1 else None)
    return found, (UNPARSABLE if unparsable else NO_CANDIDATE)


def read_field(rule: FieldRule, pages: Sequence[PageWords], *, decimal: str) -> tuple[Any, list[dict], str | None]:
    """One field read at all its places: (value, citations, None), or (None, [], why not)."""
    agreed: dict[Any, tuple[Any, list[dict]]] = {}
    reasons = []
    for place in rule.places:
        found, reason = place_values(place, rule.format, pages, decimal=decimal)
        if reason is not None:
            reasons.append(reason)
            continue
        key, (value, cited) = next(iter(found.items()))
        agreed.setdefault(key, (value, []))[1].extend(cited)
    # a value is read only when no place of it prints something else (another value, or one not in its format),
    # and, for a field whose places the teacher shared with another field, when every place prints it
    if len(agreed) > 1 or (agreed and (set(reasons) - {NO_CANDIDATE} or (rule.strict and reasons))):
        return None, [], PLACES_DISAGREE
    if agreed:
        value, cited = next(iter(agreed.values()))
        return value, cited, None
    for reason in (SEVERAL, UNPARSABLE):
        if reason in reasons:
            return None, [], reason
    return None, [], NO_CANDIDATE


def _set(data: dict, pointer: str, value: Any) -> None:
    parts = pointer.strip("/").split("/")
    node = data
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


def has_unexplained_line(layout: Layout, pages: Sequence[PageWords]) -> bool:
    """True when a line holds a number and a fixed word no teacher printed: it may print a field the teachers left
    empty (a due date, a prepayment), so such fields are not read as null on this document."""
    return any(
        places.ANY in tokens and any(t != places.ANY and t not in layout.vocabulary for t in tokens)
        for page in pages
        for tokens in page.tokens
    )


def read(layout: Layout, pages: Sequence[PageWords]) -> LayoutRead:
    """Read a document by ``layout`` (module docstring).

    Returns:
        ``LayoutRead``: values, abstentions with reasons, citations, and ``data`` when every field the schema
        requires was read (and the data is valid against it).
    """
    result = LayoutRead()
    pointers = [r.pointer for r in layout.fields] + [t.pointer for t in layout.tables]
    if not identity_printed(layout, pages):
        result.abstained.update(dict.fromkeys(pointers, IDENTITY))
        return result
    unexplained = has_unexplained_line(layout, pages)
    for rule in layout.fields:
        if rule.pointer in layout.demoted:
            result.abstained[rule.pointer] = DEMOTED
        elif rule.absent:
            if unexplained:
                result.abstained[rule.pointer] = NOT_LEARNED
            else:
                result.values[rule.pointer] = None
        else:
            value, cited, reason = read_field(rule, pages, decimal=layout.decimal)
            if reason is None:
                result.values[rule.pointer] = value
                result.citations[rule.pointer] = cited
            else:
                result.abstained[rule.pointer] = reason
    name = result.values.get(SELLER_NAME)
    if SELLER_NAME in result.values and name_key(name) != name_key(layout.supplier_name):
        # the layout's seller's identity printed, another seller's name where the seller is named: not this seller
        return LayoutRead(abstained=dict.fromkeys(pointers, IDENTITY))
    for spec in layout.tables:
        table.read_table(spec, pages, layout=layout, result=result)
    return LayoutRead(
        values=result.values,
        abstained=result.abstained,
        citations=result.citations,
        data=_data(layout, result),
    )


def _data(layout: Layout, result: LayoutRead) -> dict | None:
    if result.abstained:
        return None
    data: dict = {}
    for rule in layout.fields:
        _set(data, rule.pointer, result.values[rule.pointer])
    for spec in layout.tables:
        _set(data, spec.pointer, table.rows_of(spec, result.values))
    if validate_data(data, load_schema(layout.schema)):
        return None
    return data
