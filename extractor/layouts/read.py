"""Reading a document by a learned layout, with no model.

Identity first: nothing is read unless every key of the layout's identity (its seller's VAT id, IBAN and name) is
printed on the document, and the seller's name read at its learned place is the layout's. Then each field: at each
of its places, the runs of words printed there, parsed by its learned format. A field is read when its places give
exactly one value between them; else it abstains, with the reason: ``no_candidate`` (nothing printed there),
``several_candidates`` (one place, two values), ``unparsable`` (printed there, not in its format),
``places_disagree`` (two places, two values), ``demoted`` (a review corrected it). Tables: ``table_read.read_table``.
The formats are first adapted to the document's printing (``printing.as_printed``: a credit note's layout reading
an invoice's signs, the order of slashed dates the page shows).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from extractor.layouts import blocks, formats, kinds, places, relabel, table_read
from extractor.layouts.choose import identity_printed
from extractor.layouts.identity import identities
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
from extractor.layouts.printing import as_printed
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
    for span in dict.fromkeys([*places.matches(place, pages), *kinds.retitled(place, pages)]):
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


# What an unexplained line must show to be taken as printing a field the teachers left empty, by the field's name:
# a date, an amount, or a label word of its kind; any other field: any unexplained line.
_LABELS = {
    "tax": r"steuer|tax|st\.?-?nr|siret|siren|mwst|nif|cif|codice",
    "vat_id": r"ust|mwst|vat|tva|btw|iva|moms",
    "bic": r"bic|swift",
    "account_holder": r"inhaber|holder|titulaire|kontoinhaber",
    "payment_terms": r"zahl|payment|paiement|règlement|reglement|skonto|escompte|terms|conditions|fällig|due",
}
# A due date's labels, and those of the other dates an invoice prints (delivery, period, order): a date on an
# unexplained line labelled only as another date does not print a due date the teachers left empty.
_DUE = r"fällig|faellig|zahlbar|zahlungsziel|due|payable|échéance|echeance|scaden"
_OTHER_DATES = r"liefer|leistung|zeitraum|period|bestell|order|commande|livraison|^vom$|^bis$|^du$|^au$|^from$"
# An id-like word (letters and at least six digits): a VAT id's label on a line with none is a tax rate's ("7 % VAT")
_ID_LIKE = re.compile(r"^(?=(?:[^0-9]*[0-9]){6})[A-Za-z0-9./-]{8,}$")


def unexplained_lines(layout: Layout, pages: Sequence[PageWords]) -> list[tuple[PageWords, int]]:
    """The lines holding a number and fixed words no teacher printed (word by word, or ``merge``d), or a label a
    teacher printed bare, but a learned table's rows (their descriptions are new on every document): they may print a
    field the teachers left empty (a due date, a prepayment), so such fields are not read as null on this document
    (``may_print``)."""
    rows = {row for spec in layout.tables for row in table_read.row_lines(spec, pages, decimal=layout.decimal)}
    return [
        (page, line)
        for index, page in enumerate(pages)
        for line, merged in enumerate(page.merged)
        if places.ANY in merged
        and (index, line) not in rows
        and not ((_known(layout, merged) or _known(layout, page.tokens[line])) and not _was_bare(layout, merged))
    ]


def _was_bare(layout: Layout, merged: Sequence[str]) -> bool:
    """True when a teacher printed this line's label with nothing after it ("Erhaltene Anzahlungen"): printed here
    with an amount, it is a line no teacher explained."""
    return places.bare_label(merged) in layout.vocabulary


def _known(layout: Layout, tokens: Sequence[str]) -> bool:
    # a month's name varies as a date's digits do ("March 17, 2026", then "April 2, 2026")
    return all(t == places.ANY or t in layout.vocabulary or t.rstrip(".,") in formats.MONTHS for t in tokens)


def may_print(pointer: str, layout: Layout, printed: set[str], lines: list[tuple[PageWords, int]]) -> bool:
    """True when the document may print ``pointer``, a field the teachers left empty: an IBAN printed for a bank
    account, a VAT id other than the seller's for a VAT id (``printed``: the identity keys the document prints
    beyond the layout's), a date / an amount / its label on an unexplained line."""
    name = pointer.rsplit("/", 1)[-1]
    if "bank_account" in pointer and name in ("bank_account", "iban"):
        return any(key.startswith("iban:") for key in printed)
    if name == "vat_id":
        with_id = [(page, line) for page, line in lines if any(_ID_LIKE.match(w.text) for w in page.line_words(line))]
        return any(key.startswith("vat:") for key in printed) or _labelled(with_id, _LABELS["vat_id"])
    if name == "due_date":
        lines = [(page, line) for page, line in lines if _due_date_line(page.tokens[line])]
    texts = [[w.text for w in page.line_words(line)] for page, line in lines]
    if name.endswith("date"):
        return any(_is_date(t) for ws in texts for t in ws)
    if name.endswith("amount") or name in ("total", "subtotal"):
        return any(formats.parse_number(t, decimal=layout.decimal) is not None for ws in texts for t in ws)
    label = next((v for k, v in _LABELS.items() if k in name), None)
    return _labelled(lines, label) if label else bool(lines)


def _is_date(text: str) -> bool:
    return any(formats.parse_date(text.rstrip(".,;"), p) for p in formats.DATE_PATTERNS)


def _due_date_line(tokens: Sequence[str]) -> bool:
    """False for a line labelled only as another date (a delivery date, a period, an order's date)."""
    words = [t for t in tokens if t != places.ANY]
    if any(re.search(_DUE, t) for t in words):
        return True
    return not any(re.search(_OTHER_DATES, t) for t in words)


def _labelled(lines: list[tuple[PageWords, int]], pattern: str) -> bool:
    return any(re.search(pattern, t) for page, line in lines for t in page.tokens[line] if t != places.ANY)


def read(layout: Layout, pages: Sequence[PageWords]) -> LayoutRead:
    """Read a document by ``layout`` (module docstring).

    Returns:
        ``LayoutRead``: values, abstentions with reasons, citations, and ``data`` when every field the schema
        requires was read (and the data is valid against it).
    """
    result = LayoutRead()
    pointers = [r.pointer for r in layout.fields] + [t.pointer for t in layout.tables] + list(layout.unlearned)
    keys = identities(pages)
    if not identity_printed(layout, pages, printed=keys):
        result.abstained.update(dict.fromkeys(pointers, IDENTITY))
        return result
    decimal = layout.decimal
    layout = as_printed(layout, pages, reads=lambda rule: read_field(rule, pages, decimal=decimal)[2] is None)
    unexplained = unexplained_lines(layout, pages)
    printed = set(keys) - set(layout.identity)
    relabelled: dict[str, bool] = {}
    # what reading a field under other labels needs, once per document and only when a label reads nothing: the
    # page's own decimal separator (an English page's 2,076.76) and the labels the layout reads by
    context = functools.cache(
        lambda: (formats.decimal_of([w.text for page in pages for w in page.words]), relabel.known_labels(layout))
    )
    for rule in layout.fields:
        if rule.pointer in layout.demoted:
            result.abstained[rule.pointer] = DEMOTED
        elif rule.absent:
            if may_print(rule.pointer, layout, printed, unexplained):
                result.abstained[rule.pointer] = NOT_LEARNED
            else:
                result.values[rule.pointer] = None
        else:
            value, cited, reason = read_field(rule, pages, decimal=layout.decimal)
            if reason in (NO_CANDIDATE, UNPARSABLE):
                value, cited, reason = _relabelled(rule, pages, context, relabelled) or (value, cited, reason)
            if reason == NO_CANDIDATE:
                # a party's address line whose anchors were the teacher's party's own words: read by its block
                value, cited, reason = blocks.read_blocked(rule, pages, decimal=decimal)
            if reason is None:
                result.values[rule.pointer] = value
                result.citations[rule.pointer] = cited
            else:
                result.abstained[rule.pointer] = reason
    for pointer in layout.unlearned:
        result.abstained[pointer] = DEMOTED if pointer in layout.demoted else NOT_LEARNED
    _not_printed(layout, pages, result, relabelled=relabelled)
    if result.abstained.get(SELLER_NAME) == NO_CANDIDATE:
        _seller_name_printed(layout, pages, result)
    name = result.values.get(SELLER_NAME)
    if SELLER_NAME in result.values and name_key(name) != name_key(layout.supplier_name):
        # the layout's seller's identity printed, another seller's name where the seller is named: not this seller
        return LayoutRead(abstained=dict.fromkeys(pointers, IDENTITY))
    for spec in layout.tables:
        table_read.read_table(spec, pages, layout=layout, result=result)
    relabel.check(result, relabelled)
    return dataclasses.replace(result, data=_data(layout, result))


# A field the arithmetic shows is not there when its label is not printed: no prepayment when the total is the
# amount due (``trust.checks`` holds total - prepaid = amount due on the record as on every record)
_SHOWN_ABSENT = {"/prepaid_amount": ("/total", "/amount_due")}


def _not_printed(
    layout: Layout, pages: Sequence[PageWords], result: LayoutRead, *, relabelled: dict[str, bool]
) -> None:
    """A field a teacher printed at a label that this document prints with no value (the label alone on its line,
    or nowhere), where the arithmetic shows it is not there (``_SHOWN_ABSENT``: the total read is the amount due
    read): read as null (not printed), and said. A line printing the label with anything else still abstains, and so
    does a total or amount due read under another label (``relabelled``): the same arithmetic is its only proof
    (``relabel.check``), so it cannot also prove the prepayment absent."""
    for pointer, (total, due) in _SHOWN_ABSENT.items():
        rule = layout.field(pointer)
        if result.abstained.get(pointer) != NO_CANDIDATE or rule is None or rule.absent:
            continue
        if total in relabelled or due in relabelled:
            continue
        if not isinstance(result.values.get(total), int | float) or result.values.get(total) != result.values.get(due):
            continue
        labels = ["".join(t for t in place.before if t != places.ANY) for place in rule.places]
        lines = ["".join(t for t in merged if t != places.ANY) for page in pages for merged in page.merged]
        if not all(labels) or any(label in line and line != label for label in labels for line in lines):
            continue
        del result.abstained[pointer]
        result.values[pointer] = None
        shown = " / ".join(" ".join(place.before) for place in rule.places)
        result.notes[pointer] = f"not printed ({shown!r} prints no amount) and the total is the amount due"


def _relabelled(
    rule: FieldRule,
    pages: Sequence[PageWords],
    context: Callable[[], tuple[str, frozenset[str]]],
    relabelled: dict[str, bool],
) -> tuple[Any, list[dict], None] | None:
    """A field its label did not read, read where the teacher's page put it (``relabel``): a text at its places'
    positions, an amount or a date at its rank, in the page's own decimal separator (``context()``: it and the
    layout's labels), noted in ``relabelled`` for the cross-checks."""
    in_place = relabel.read_in_place(rule, pages)
    if in_place is not None:
        return in_place[0], in_place[1], None
    decimal, known = context()
    found = relabel.read_relabelled(rule, pages, known=known, decimal=decimal)
    if found is None:
        return None
    relabelled[rule.pointer] = found[2]
    return found[0], found[1], None


def _seller_name_printed(layout: Layout, pages: Sequence[PageWords], result: LayoutRead) -> None:
    """The seller's name where its places print nothing (the lines above it changed): the identity check found it
    printed; it is read when every printing of it is, word for word, the name the teachers printed."""
    want = layout.supplier_name.split()
    cited, other = [], False
    for page in pages:
        for line in page.lines:
            words = [page.words[i] for i in line]
            for start in range(len(words) - len(want) + 1):
                run = words[start : start + len(want)]
                text = " ".join(w.text for w in run)
                if name_key(text) == name_key(layout.supplier_name):
                    other |= text != layout.supplier_name
                    cited.append({**places.word_citation(page, run), "text": text})
    if cited and not other:
        del result.abstained[SELLER_NAME]
        result.values[SELLER_NAME] = layout.supplier_name
        result.citations[SELLER_NAME] = cited


def _data(layout: Layout, result: LayoutRead) -> dict | None:
    if result.abstained:
        return None
    data: dict = {}
    for rule in layout.fields:
        _set(data, rule.pointer, result.values[rule.pointer])
    for spec in layout.tables:
        _set(data, spec.pointer, table_read.rows_of(spec, result.values))
    if validate_data(data, load_schema(layout.schema)):
        return None
    return data
