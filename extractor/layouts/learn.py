"""Learning a layout from a document and its TRUE data (a review, embedded XML, an archive; never a model's answer).

For each scalar field, every run of words that means its value under some format (``formats.formats_for``) is a
place where it is printed; each place is described by the fixed words around it (``places.place_of``). A printing
two fields share (a total equal to the amount due) is dropped from a field that has a printing of its own, so a
coincidence in the teacher does not tie the two fields later. A field whose value is null is learned as absent
(read as null); one whose value is not found on the pages is not learned, and a note says so. Arrays of objects
(line items, tax lines) are learned as tables (``table.learn_table``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from extractor.layouts import blocks, formats, places, relabel, table, table_read
from extractor.layouts.choose import fixed_words, name_printed
from extractor.layouts.model import FieldRule, Format, Layout, LearnResult, Place, Teacher, with_id
from extractor.layouts.read import read
from extractor.layouts.words import PageWords, token
from extractor.register.keys import name_key, read_keys, supplier_key
from extractor.schema import load_schema
from extractor.text import fold as text_fold

SELLER_NAME = "/seller/name"


def scalars(data: Any, prefix: str = "") -> Iterable[tuple[str, Any]]:
    """Every scalar leaf of ``data`` by JSON pointer, arrays of objects left out (they are tables)."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            pointer = f"{prefix}/{key}"
            if isinstance(value, list):
                continue
            if isinstance(value, Mapping):
                yield from scalars(value, pointer)
            else:
                yield pointer, value


class _Printed:
    """Every run of words on the pages, indexed by what it may mean (a number, a date, a text), built once per
    document so each field's value is looked up, not searched for."""

    def __init__(self, pages: Sequence[PageWords], decimal: str) -> None:
        self.numbers: dict[Decimal, list[places.Span]] = {}
        self.dates: dict[str, list[tuple[places.Span, str]]] = {}
        self.texts: dict[str, list[places.Span]] = {}
        self.compact: dict[str, list[places.Span]] = {}
        for span, text in places.spans(pages):
            number = formats.parse_number(text, decimal=decimal)
            if number is not None:
                self.numbers.setdefault(number, []).append(span)
            for pattern in formats.DATE_PATTERNS:
                iso = formats.parse_date(text, pattern)
                if iso is not None:
                    self.dates.setdefault(iso, []).append((span, pattern))
            joined = " ".join(text.split())
            self.texts.setdefault(joined, []).append(span)
            if " " in joined:
                self.compact.setdefault(joined.replace(" ", ""), []).append(span)

    def find(self, value: Any) -> list[tuple[places.Span, Format]]:
        """Every run of words printing ``value``, with its format."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = Decimal(str(value))
            kind = formats.NUMBER
            found = [(s, Format(kind, signed=number < 0)) for s in self.numbers.get(number, [])]
            if number:
                found += [(s, Format(kind, negated=True, signed=-number < 0)) for s in self.numbers.get(-number, [])]
            return found
        if not isinstance(value, str):
            return []
        if value in self.dates:
            by_span: dict[places.Span, list[str]] = {}
            for span, pattern in self.dates[value]:
                by_span.setdefault(span, []).append(pattern)
            return [(s, Format(formats.DATE, dates=tuple(p))) for s, p in by_span.items()]
        words = len(value.split()) if any(c.isdigit() for c in value) else 0
        found = [(s, Format(formats.TEXT, words=words)) for s in self.texts.get(value, [])]
        return found or [(s, Format(formats.COMPACT)) for s in self.compact.get(value, [])]


def _named(printed: _Printed, pointer: str, value: Any) -> list[tuple[places.Span, Format]]:
    """A country or currency code printed as its name or sign ("France" for FR, "€" for EUR): each such printing,
    with a code format that reads that printing, and only it, as the code."""
    from extractor.trust.grounding.cldr import country_names, currency_words

    if not isinstance(value, str) or not re.fullmatch(r"[A-Z]{2,3}", value):
        return []
    if pointer.endswith("/country") and len(value) == 2:
        names = set(country_names(value))
    elif pointer.endswith("/currency") and len(value) == 3:
        names = set(currency_words(value))
    else:
        return []
    return [
        (span, Format(formats.CODE, codes=((text, value),)))
        for text, spans in printed.texts.items()
        if text_fold(text) in names
        for span in spans
    ]


def _occurrences(printed: _Printed, value: Any) -> list[tuple[places.Span, Format]]:
    found = printed.find(value)
    # of overlapping runs on one line ("671,15" and "671,15 €"), the longest
    found.sort(key=lambda f: (f[0].page, f[0].line, f[0].start, -(f[0].end - f[0].start)))
    kept: list[tuple[places.Span, Format]] = []
    for span, fmt in found:
        last = kept[-1][0] if kept else None
        if last and (last.page, last.line) == (span.page, span.line) and span.start < last.end:
            continue
        kept.append((span, fmt))
    return kept


# The words that label a field whose teacher's value is 0: a zero is printed in many places ("Zuschläge 0,00", a
# share capital's "120 000,00"), so it is learned only where its line labels it so ("Erhaltene Anzahlungen -0,00")
ZERO_LABELS = {
    "/prepaid_amount": ("anzahlung", "vorauszahlung", "bezahlt", "prepaid", "paid", "advance", "acompte", "déjà"),
}


def _zero(pages: Sequence[PageWords], printed: _Printed, pointer: str) -> tuple[places.Span, Format] | None:
    """The one place a document prints a zero amount (``-0,00`` for no prepayment), with its sign as printed: a
    minus there is the sign every later amount there is printed with (``-50,00`` for 50); only a place labelled
    as the field (``ZERO_LABELS``) counts; None when there is not exactly one."""
    words = ZERO_LABELS.get(pointer, ())
    zeros = [
        (span, fmt)
        for span, fmt in _occurrences(printed, 0)
        if any(w in t for t in pages[span.page].tokens[span.line][: span.start] for w in words)
    ]
    if len(zeros) != 1:
        return None
    span, _ = zeros[0]
    minus = " ".join(w.text for w in places.span_words(pages, span)).lstrip().startswith("-")
    return span, Format(formats.NUMBER, negated=minus, signed=minus)


def _unshared(
    found: dict[str, list[tuple[places.Span, Format]]],
) -> dict[str, tuple[list[tuple[places.Span, Format]], bool]]:
    """Each field's printings, those another field shares dropped where it has its own; and whether any it keeps
    is shared."""
    owners: dict[places.Span, int] = {}
    for spans in found.values():
        for span, _ in spans:
            owners[span] = owners.get(span, 0) + 1
    out = {}
    for pointer, spans in found.items():
        own = [(s, f) for s, f in spans if owners[s] == 1]
        out[pointer] = (own, False) if own else (spans, True)
    return out


def _texts(pages: Sequence[PageWords]) -> list[str]:
    return [w.text for page in pages for w in page.words]


def _field_rules(
    pages: Sequence[PageWords], data: Mapping, decimal: str, notes: list[str], *, rows: set[tuple[int, int]]
) -> tuple[FieldRule, ...]:
    """Each scalar field's rule; ``rows``: the (page, line)s of the learned tables' rows, where no scalar is learned
    while it is printed elsewhere too (a one-row invoice's subtotal is its row's amount)."""
    found: dict[str, list[tuple[places.Span, Format]]] = {}
    printed = _Printed(pages, decimal)
    rules = []
    zeros: set[str] = set()
    for pointer, value in scalars(data):
        if value is None or value == "":
            rules.append(FieldRule(pointer, (), Format(formats.TEXT), absent=True))
            notes.append(f"{pointer}: no value in the teacher's data; read as null")
            continue
        if isinstance(value, int | float) and not isinstance(value, bool) and value == 0:
            zero = _zero(pages, printed, pointer)
            if zero is None:
                # a zero printed in several places (or none) does not say where this one is
                notes.append(f"{pointer}: 0 is not learned from (a later teacher with another value teaches it)")
            else:
                found[pointer], zeros = [zero], zeros | {pointer}
            continue
        found[pointer] = _occurrences(printed, value) or _named(printed, pointer, value)
        if not found[pointer]:
            notes.append(f"{pointer}: {value!r} is not printed on the document as read; not learned")
    for pointer, spans in found.items():
        found[pointer] = [f for f in spans if (f[0].page, f[0].line) not in rows] or spans
    for pointer, (spans, shared) in _unshared(found).items():
        learned: list[Place] = []
        party = pointer.split("/")[1]
        own = frozenset(_party_words(data.get(party))) if party in PARTIES else frozenset()
        for span, _ in spans:
            place = places.place_of(pages, span, own=own)
            place = relabel.stacked(place, pages, span.line) if place is not None else None
            if place is not None and blocks.address(pointer):
                place = blocks.blocked(place, pages, span.line)
            if place is not None and place not in learned:
                learned.append(place)
        learned = _labelled(pointer, _own_party(pointer, learned, data) if shared else learned)
        if spans and not learned:
            notes.append(f"{pointer}: printed with no fixed word around it; not learned")
        if learned:
            # a zero must be printed at its place (strict): a label printed with nothing after it says nothing
            rules.append(FieldRule(pointer, tuple(learned), spans[0][1], strict=shared or pointer in zeros))
    return tuple(sorted(rules, key=lambda r: r.pointer))


# Labels that name another value than the field's: where a teacher's value is printed at several labels (its issue
# date also its delivery date, its total also the amount due or, at a rate of 0 %, the net total and the tax basis
# "TVA 0 % export"), those places are dropped, as long as one is left.
# A place is only ever dropped, never chosen, by these words: every place kept printed the teacher's true value.
OTHER_LABELS = {
    "/issue_date": ("liefer", "leistung", "delivery", "livraison", "échéance", "fällig", "due", "bestell", "order"),
    "/due_date": ("rechnungsdatum", "invoice date", "date de facture", "liefer", "delivery", "livraison"),
    "/total": ("zahlbetrag", "payer", "amount due", "balance due", "solde", "offen", "total ht", "netto", "tva ")
    + ("net total", "net amount", "residual"),
    "/amount_due": ("brutto", "ttc", "rechnungssumme"),
    "/subtotal": ("rechnungssumme", "steuerbasis", "ohne ust", "ttc", "brutto", "tva ", "vat", "%"),
}


PARTIES = ("seller", "buyer")


def _party_words(value: Any) -> set[str]:
    if isinstance(value, Mapping):
        return {w for v in value.values() for w in _party_words(v)}
    if not isinstance(value, str):
        return set()
    return {t for t in (token(w) for w in value.split()) if t != places.ANY and len(t) >= 3}


def _own_party(pointer: str, learned: list[Place], data: Mapping) -> list[Place]:
    """A party's value the other party shares (both in Germany): the places anchored by the other party's words (its
    name above, its city beside) are dropped, and those anchored by no word of its own where some are, as long as
    one is left; each place kept printed the true value."""
    party = pointer.split("/")[1]
    if party not in PARTIES:
        return learned
    other = _party_words(data.get(PARTIES[1 - PARTIES.index(party)]))
    own = _party_words(data.get(party))

    def anchors(place: Place) -> set[str]:
        return {t for t in (*place.before, *place.after, *(w for line in place.above for w in line))}

    kept = [p for p in learned if not (other - own) & anchors(p)] or learned
    # and where some are anchored by the party's own words (its city beside its country), only those: a place
    # anchored by a third party's (a ship-to address's city) may print that party's value next time
    return [p for p in kept if (own - other) & anchors(p)] or kept


def _labelled(pointer: str, learned: list[Place]) -> list[Place]:
    others = OTHER_LABELS.get(pointer, ())
    kept = [p for p in learned if not any(word in " ".join(p.before) for word in others)]
    return kept if kept and len(learned) > 1 else learned


def _identity(pages: Sequence[PageWords], data: Mapping) -> tuple[str, str, tuple[str, ...]] | None:
    from extractor.layouts.identity import identities

    keys = read_keys(data)
    if not keys.name_norm:
        return None
    printed = set(identities(pages))
    required = [f"name:{keys.name_norm}"]
    for kind, value in (("vat", keys.vat_id), ("iban", keys.iban)):
        if value and f"{kind}:{value}" in printed:
            required.append(f"{kind}:{value}")
    if not any(key.startswith("vat:") for key in required):
        return None
    supplier = supplier_key(vat_id=keys.vat_id, tax_number=keys.tax_number, name=keys.name_norm, iban=keys.iban)
    return supplier or "", keys.name or "", tuple(sorted(required))


def learn(
    pages: Sequence[PageWords],
    data: Mapping,
    *,
    schema: str,
    teacher: Teacher,
    citations: Mapping[str, list[dict]] | None = None,
) -> LearnResult:
    """Learn a layout from a document's words and its TRUE data (a review, embedded XML, an archive: never a
    model's answer).

    Args:
        pages: the document's words (``page_words``).
        data: its true data, schema-shaped.
        schema: the schema's name (``invoice``).
        teacher: where the truth came from.
        citations: where the truth's values are printed, when the caller knows (a review's citations); not needed:
            every printing of a value is found and learned.

    Returns:
        The layout (None when the seller's name is not printed on the document, or nothing could be learned) and
        notes: fields not printed, values not found.
    """
    notes: list[str] = []
    identity = _identity(pages, data)
    if identity is None:
        why = "the seller's name or VAT id is not in the data, or not printed: a layout is keyed by them"
        return LearnResult(None, (why,))
    supplier, name, required = identity
    if not name_printed(name_key(name) or "", pages):
        return LearnResult(None, (f"the seller's name {name!r} is not printed on the document: nothing learned",))
    decimal = formats.decimal_of(_texts(pages))
    tables = table.learn_tables(pages, data, decimal=decimal, notes=notes)
    rows = {row for spec in tables for row in table_read.row_lines(spec, pages, decimal=decimal)}
    rules = _field_rules(pages, data, decimal, notes, rows=rows)
    if not any(r.places for r in rules):
        return LearnResult(None, (*notes, "no field's value was found on the document: nothing learned"))
    values = {str(v) for _, v in scalars(data) if v is not None}
    learned = {r.pointer for r in rules} | {t.pointer for t in tables}
    arrays = [f"/{k}" for k, v in data.items() if isinstance(v, list)]
    unlearned = tuple(p for p in [*(p for p, _ in scalars(data)), *arrays] if p not in learned)
    layout = Layout(
        id="",
        supplier_key=supplier,
        supplier_name=name,
        identity=required,
        schema=load_schema(schema).name,
        fields=rules,
        tables=tables,
        fingerprint=frozenset(w for w in fixed_words(pages) if w not in {v.casefold() for v in values}),
        vocabulary=fixed_words(pages)
        | {seg for page in pages for line in page.merged for seg in line if seg != places.ANY}
        | {places.bare_label(line) or "" for page in pages for line in page.merged if places.ANY not in line},
        teacher=teacher,
        decimal=decimal,
        unlearned=unlearned,
    )
    return LearnResult(with_id(layout), tuple(notes))


def refine(layout: Layout, pages: Sequence[PageWords], data: Mapping, *, teacher: Teacher) -> LearnResult:
    """Teach ``layout`` another document of the same layout: of each field's places, those that read this
    document's true value are kept; where none does, the new document's places replace them (the later teacher
    wins, and a note names the field); demotions of fields read right again, or taught again, are lifted.

    Returns:
        The refined layout, or None (with the reason) when the document is not the layout's seller's.
    """
    if _vat(layout) is not None and read_keys(data).vat_id != _vat(layout):
        return LearnResult(None, ("the document's seller is not the layout's: nothing refined",))
    fresh = learn(pages, data, schema=layout.schema, teacher=teacher)
    if fresh.layout is None:
        return fresh
    truth = dict(scalars(data))
    reading = read(dataclasses.replace(layout, demoted=frozenset()), pages)
    notes = list(fresh.notes)
    rules = []
    retaught: set[str] = set()
    new_rules = {r.pointer: r for r in fresh.layout.fields}
    for rule in layout.fields:
        kept = _kept_places(rule, pages, truth.get(rule.pointer), layout.decimal)
        if not rule.absent and truth.get(rule.pointer) is None:
            rules.append(rule)  # this teacher left it empty: what an earlier one printed is still learned
        elif kept:
            rules.append(dataclasses.replace(rule, places=kept))
        elif rule.pointer in new_rules:
            rules.append(new_rules[rule.pointer])
            retaught.add(rule.pointer)
            notes.append(f"{rule.pointer}: the earlier places did not read this document's value; relearned here")
        else:
            notes.append(f"{rule.pointer}: the earlier places did not read this document's value; dropped")
    rules += [r for p, r in new_rules.items() if layout.field(p) is None]
    right = {p for p, v in reading.values.items() if truth.get(p) == v}
    tables = table.refine_tables(layout.tables, fresh.layout.tables, reading, data)
    learned = {r.pointer for r in rules} | {t.pointer for t in tables}
    # what either taught and the refined layout no longer reads (a field dropped here too) is not read as absent
    before = (*(r.pointer for r in layout.fields), *(t.pointer for t in layout.tables), *layout.unlearned)
    unlearned = dict.fromkeys(p for p in (*before, *fresh.layout.unlearned) if p not in learned)
    refined = dataclasses.replace(
        layout,
        fields=tuple(sorted(rules, key=lambda r: r.pointer)),
        tables=tables,
        unlearned=tuple(unlearned),
        fingerprint=layout.fingerprint & fresh.layout.fingerprint,
        vocabulary=layout.vocabulary | fresh.layout.vocabulary,
        teacher=teacher,
        documents=layout.documents + 1,
        demoted=frozenset(p for p in layout.demoted if p not in right | retaught),
    )
    return LearnResult(with_id(refined), tuple(notes))


def _vat(layout: Layout) -> str | None:
    return next((k[4:] for k in layout.identity if k.startswith("vat:")), None)


def _kept_places(rule: FieldRule, pages: Sequence[PageWords], value: Any, decimal: str) -> tuple[Place, ...]:
    from extractor.layouts.read import place_values

    if rule.absent:
        return (rule.places or ()) if value is None else ()
    kept = []
    for place in rule.places:
        values, _ = place_values(place, rule.format, pages, decimal=decimal)
        if len(values) == 1 and _same(next(iter(values.values()))[0], value):
            kept.append(place)
    return tuple(kept)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return formats.Decimal(str(a)) == formats.Decimal(str(b))
    return a == b


def demote(layout: Layout, pointers: Iterable[str]) -> Layout:
    """The layout no longer reading ``pointers`` (a review corrected them) until taught again (``refine``); a table's
    cell (``/line_items/2/amount``) demotes its whole table."""
    tables = [t.pointer for t in layout.tables]
    out = set()
    for pointer in pointers:
        out.add(next((t for t in tables if pointer.startswith(t + "/")), pointer))
    return dataclasses.replace(layout, demoted=layout.demoted | frozenset(out))
