"""Tables read back by a learned ``Table`` (see ``table`` for the learning).

Reading: the rows are the lines between the header and the end that fit the pattern; a row that fits its fixed
words but whose numbers do not parse makes the whole table abstain (``unparsable``), never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from extractor.einvoice import codes
from extractor.layouts import formats, grouped, places
from extractor.layouts.model import NO_CANDIDATE, TABLE_CHECK, UNPARSABLE, Layout, LayoutRead, Table
from extractor.layouts.words import PageWords, Word, merge, token

GAP = 2.2  # a wrapped cell's next line starts within this many word heights of the previous line's top
INDENT = 0.012  # and no further than this (page widths) from where its first line starts
WRAP = "+"
ABSENT = "absent"  # a column the teachers' rows all left null: read as null
UNSEEN = object()  # a code cell whose printed word no teacher printed


def cell(pages: Sequence[PageWords], p: int, line: int, left: float, right: float) -> list[Word]:
    """A wrapped cell's words: from the row's line down, in the column [left, right), while the lines follow."""
    page = pages[p]
    row_words = page.line_words(line)
    top, height = row_words[0].box[1], max(w.box[3] - w.box[1] for w in row_words)
    groups: dict[int, list[Word]] = {}
    for word in page.words:
        if left <= word.box[0] and word.box[2] <= right + 0.002 and word.box[1] >= top - height / 2:
            groups.setdefault(word.line, []).append(word)
    out: list[Word] = []
    last, start = top, None
    for number, words in sorted(groups.items(), key=lambda g: min(w.box[1] for w in g[1])):
        y, x = min(w.box[1] for w in words), min(w.box[0] for w in words)
        # a cell's lines follow one another, start where its first line starts (an indented line below it,
        # "Bruttopreis : 5,50", is a note of the row, not its text) and stay in the column (the next row's line
        # does not)
        beyond = number != line and any(w.box[2] > right + 0.002 for w in page.line_words(number))
        if y - last > GAP * height or (start is not None and abs(x - start) > INDENT) or beyond:
            break
        out += sorted(words, key=lambda w: w.box[0])
        last, start = max(last, y), x if start is None else start
    return out


def _fits_row(spec: Table, words: Sequence[Word]) -> tuple[list[Word], dict[str, Word]] | None:
    """A line's words that fit a row's pattern: its words before the pattern (a wrapped cell's first line) and
    each column's word; None when they do not fit."""
    pattern = spec.row[1:] if spec.row[:1] == (WRAP,) else spec.row
    if len(words) < len(pattern) or (spec.row[:1] != (WRAP,) and len(words) != len(pattern)):
        return _fits_by_label(spec, words)
    tail = words[len(words) - len(pattern) :]
    cells: dict[str, Word] = {}
    for expected, word in zip(pattern, tail, strict=True):
        if expected.startswith("{"):
            cells[expected[1:-1]] = word
        elif expected != places.ANY and expected != token(word.text):
            return _fits_by_label(spec, words)
    lead = list(words[: len(words) - len(pattern)])
    return lead, cells


RATE = "{/rate}"
_PERCENT = re.compile(r"\d{1,2}(?:[.,]\d{1,2})?\s?%")


def _fits_by_label(spec: Table, words: Sequence[Word]) -> tuple[list[Word], dict[str, Word]] | None:
    """A tax row printed with other words between its label and its amounts than the teacher's ("TVA 0% export
    (vente) 530,75 € 0,00 €" taught, "TVA collectée (vente) 20,0% 81,90 € 16,38 €" read): its first word the taught
    row's label, its amounts' words as taught at its end, and between them fixed words and one rate printed with
    its percent sign. None when the table has no rate column or the line is not so."""
    pattern = spec.row
    if RATE not in pattern or pattern[0] in (WRAP, places.ANY) or pattern[0].startswith("{"):
        return None
    start = next((i for i, t in enumerate(pattern) if t.startswith("{") and t != RATE), None)
    if start is None or pattern.index(RATE) > start or len(words) < len(pattern) - start + 2:
        return None
    tail = words[len(words) - (len(pattern) - start) :]
    middle = words[1 : len(words) - len(tail)]
    if token(words[0].text) != pattern[0]:
        return None
    cells: dict[str, Word] = {}
    for expected, word in zip(pattern[start:], tail, strict=True):
        if expected.startswith("{"):
            cells[expected[1:-1]] = word
        elif expected != places.ANY and expected != token(word.text):
            return None
    rates = [w for w in middle if _PERCENT.fullmatch(w.text)]
    if len(rates) != 1 or any(token(w.text) == places.ANY for w in middle if w is not rates[0]):
        return None
    cells[RATE[1:-1]] = rates[0]
    return [], cells


def _row_like(spec: Table, fitted: tuple[list[Word], dict[str, Word]]) -> bool:
    """True when a line that fits a row's pattern looks like a row: a digit in each number column's word, and no
    word but a position number left of a wrapped column (a total's line "zzgl. USt. 19 % 9.076,86" does not)."""
    lead, cells = fitted
    numbers = [c.key for c in spec.columns if c.format.kind == formats.NUMBER and c.key in cells]
    if not all(any(ch.isdigit() for ch in cells[key].text) for key in numbers):
        return False
    left = min((c.span[0] for c in spec.columns if c.key in spec.wrap), default=None)
    return left is None or not any(w.box[0] < left and token(w.text) != places.ANY for w in lead)


def row_lines(spec: Table, pages: Sequence[PageWords], *, decimal: str) -> set[tuple[int, int]]:
    """The (page, line)s of a table's region that look like its rows (``_row_like``), as printed or with their
    thousands split by spaces joined (``grouped``): lines its rows explain."""
    out = set()
    for p, line in _region(spec, pages) if spec.row else ():
        words = pages[p].line_words(line)
        for variant in (words, *grouped.variants(words, decimal=decimal)):
            fitted = _fits_row(spec, variant)
            if fitted is not None and _row_like(spec, fitted):
                out.add((p, line))
    return out


def _region(spec: Table, pages: Sequence[PageWords]) -> list[tuple[int, int]]:
    """The (page, line)s between the table's header and its end."""
    out: list[tuple[int, int]] = []
    started = not spec.header
    for p, page in enumerate(pages):
        for line in range(len(page.lines)):
            tokens = places.line_tokens(page, line)
            if not started:
                started = merge(tokens) == merge(spec.header)
            elif spec.end and merge(tokens) == merge(spec.end):
                return out
            else:
                out.append((p, line))
    return out if started else []


def read_table(spec: Table, pages: Sequence[PageWords], *, layout: Layout, result: LayoutRead) -> None:
    """Read one table into ``result`` (its cells as ``/line_items/0/amount``), or abstain on the whole table."""
    if spec.pointer in layout.demoted:
        result.abstained[spec.pointer] = "demoted"
        return
    if not spec.row:
        result.values[spec.pointer] = []
        return
    region = _region(spec, pages)
    if not region:
        result.abstained[spec.pointer] = NO_CANDIDATE
        return
    values: dict[str, Any] = {}
    citations: dict[str, list[dict]] = {}
    unread: dict[str, str] = {}
    notes: dict[str, str] = {}
    count = 0
    for p, line in region:
        symbols: dict[str, str] = {}
        fitted, row = _row_at(spec, pages, p, line, layout.decimal, symbols)
        if fitted is None:
            continue
        if row is None and ("/amount", "/subtotal") in spec.sums and not _row_like(spec, fitted):
            continue  # a total's line in the table's region ("Gesamtbetrag 56.849,82 EUR"); a row skipped so
            # would leave the amounts short of the subtotal: the sum checks it
        if row is None:
            result.abstained[spec.pointer] = UNPARSABLE
            return
        for key, (value, cited) in row.items():
            if value is UNSEEN:
                unread[f"{spec.pointer}/{count}{key}"] = UNPARSABLE
                continue
            values[f"{spec.pointer}/{count}{key}"] = value
            citations[f"{spec.pointer}/{count}{key}"] = [cited]
        notes.update({f"{spec.pointer}/{count}{key}": note for key, note in symbols.items()})
        count += 1
    if count == 0:
        result.abstained[spec.pointer] = NO_CANDIDATE
        return
    if not _sums_hold(spec, values, result.values):
        result.abstained[spec.pointer] = TABLE_CHECK
        return
    failing, rounded = _products(spec, values, citations, decimal=layout.decimal)
    if failing and ("/amount", "/subtotal") not in spec.sums:
        result.abstained[spec.pointer] = TABLE_CHECK
        return
    for index in failing:
        # the amounts add up to the subtotal read: they stand; the quantity or the unit price is not as printed,
        # so neither is read
        for key in ("/quantity", "/unit_price"):
            pointer = f"{spec.pointer}/{index}{key}"
            values.pop(pointer, None)
            citations.pop(pointer, None)
            unread[pointer] = TABLE_CHECK
    for index, shown in rounded.items():
        pointer = f"{spec.pointer}/{index}/unit_price"
        result.precision[pointer] = shown
        result.notes[pointer] = (
            f"printed rounded to {shown} decimals: quantity x unit price is the row's amount only to that rounding"
        )
    result.values.update(values)
    result.citations.update(citations)
    result.notes.update(notes)
    result.abstained.update(unread)


def _row_at(
    spec: Table, pages: Sequence[PageWords], p: int, line: int, decimal: str, symbols: dict[str, str]
) -> tuple[tuple[list[Word], dict[str, Word]] | None, dict[str, tuple[Any, dict]] | None]:
    """A line's fit to the row's pattern and its cells (``_read_row``), as printed or with its thousands split by
    plain spaces joined (``grouped``: ``1 297,50``): the one reading that fits, parses and holds (quantity x unit
    price its amount, no number printed with a leading zero: ``041,56`` is a group); where none does, as printed
    (the table's checks then tell); where two read differently, (fit, None): not read. (None, None) when the line
    fits no row."""
    words = pages[p].line_words(line)
    fitted = _fits_row(spec, words)
    row = _read_row(spec, pages, p, line, fitted, decimal, symbols) if fitted is not None else None
    ways = grouped.variants(words, decimal=decimal)
    if not ways:
        return fitted, row
    readings = [(fitted, row, dict(symbols))] if row is not None and _holds(row, decimal) else []
    for variant in ways:
        regrouped = _fits_row(spec, variant)
        notes: dict[str, str] = {}
        again = _read_row(spec, pages, p, line, regrouped, decimal, notes) if regrouped is not None else None
        if again is not None and _holds(again, decimal):
            readings.append((regrouped, again, notes))
    distinct = {tuple((k, v) for k, (v, _) in cells.items()) for _, cells, _ in readings}
    if not readings:
        return fitted, row
    if len(distinct) > 1:
        return (fitted or readings[0][0]), None
    symbols.clear()
    symbols.update(readings[0][2])
    return readings[0][0], readings[0][1]


_LEADING_ZERO = re.compile(r"[-+(]?[€$£]?0\d")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _holds(row: Mapping[str, tuple[Any, dict]], decimal: str) -> bool:
    """Whether a row's quantity x unit price is its amount, within their printed rounding (True for a row without
    all three), and none of its numbers is printed with a leading zero."""
    if any(_LEADING_ZERO.match(cited.get("text", "")) for value, cited in row.values() if _is_number(value)):
        return False
    q, p, a = (row.get(key, (None, {}))[0] for key in ("/quantity", "/unit_price", "/amount"))
    if not all(isinstance(v, int | float) for v in (q, p, a)):
        return not all(key in row for key in ("/quantity", "/unit_price", "/amount"))
    shown = formats.printed_decimals(row["/unit_price"][1].get("text", ""), decimal=decimal)
    return _within(Decimal(str(q)), Decimal(str(p)), Decimal(str(a)), shown) is not None


def _within(q: Decimal, p: Decimal, a: Decimal, shown: int) -> bool | None:
    """True when q x p is a to the cent, False when only within the rounding of a price printed with ``shown``
    decimals (half a cent and the quantity times half the price's last decimal, a cent's at the most, as
    ``trust.checks`` holds a line), None beyond."""
    if (q * p).quantize(CENT) == a.quantize(CENT):
        return True
    last = Decimal(1).scaleb(-max(shown, CENT_DECIMALS))
    return False if abs(q * p - a) <= CENT / 2 + abs(q) * last / 2 else None


def _measure(key: str, text: str) -> str | None:
    """A unit no teacher printed, read by its SI symbol (``kg`` -> KGM, ``m²`` -> MTK: ``codes.MEASURES``); None for
    any other word (a count's word is the supplier's own code)."""
    code = codes.unit_code(text) if key == "/unit" and text else None
    return code if code in codes.MEASURES else None


def _read_row(
    spec: Table,
    pages: Sequence[PageWords],
    p: int,
    line: int,
    fitted: tuple[list[Word], dict[str, Word]],
    decimal: str,
    symbols: dict[str, str],
) -> dict[str, tuple[Any, dict]] | None:
    """One row's cells: key -> (value, citation); ``symbols`` gets a note per cell read by a unit's SI symbol; None
    when a cell does not parse."""
    lead, cells = fitted
    out: dict[str, tuple[Any, dict]] = {}
    page = pages[p]
    for column in spec.columns:
        if column.format.kind == ABSENT:
            continue
        if column.key in spec.wrap:
            right = min(w.box[0] for w in cells.values()) - 0.002
            # a number left of the column is the row's position ("1 Beratung ..."), any other word not the row's
            if any(w.box[0] < column.span[0] and token(w.text) != places.ANY for w in lead):
                return None
            words = cell(pages, p, line, column.span[0], right)
            text = " ".join(w.text for w in words)
        else:
            words = [cells[column.key]]
            text = words[0].text
        value = formats.parse(text, column.format, decimal=decimal) if text else None
        if value is None and column.format.kind == formats.CODE:
            value = _measure(column.key, text)
            if value is not None:
                symbols[column.key] = f"unit {text!r} read as {value}, its SI symbol's code (no teacher printed it)"
        if value is None and column.format.kind == formats.CODE:
            # a code the teachers never printed (a count "Stück" where they printed "Stk"): that cell is not read,
            # its row and the table are (the supplier's codes are its own: Lieferant's "Stk" is C62, not H87)
            value = UNSEEN
        elif value is None:
            return None
        out[column.key] = (value, places.word_citation(page, words))
    for column in spec.columns:
        if column.format.kind == ABSENT:
            out[column.key] = (None, {})
    return out


def _sums_hold(spec: Table, values: Mapping[str, Any], scalars: Mapping[str, Any]) -> bool:
    for keys, target in spec.sums:
        wanted = scalars.get(target)
        if not isinstance(wanted, int | float):
            return False
        got = sum(
            (Decimal(str(v)) for k, v in values.items() if "/" + k.rsplit("/", 1)[1] in keys.split("+")),
            Decimal(0),
        )
        if got != Decimal(str(wanted)):
            return False
    return True


CENT, CENT_DECIMALS = Decimal("0.01"), 2


def _products(
    spec: Table, values: Mapping[str, Any], citations: Mapping[str, list[dict]], *, decimal: str
) -> tuple[list[int], dict[int, int]]:
    """The rows whose quantity x unit price is not their amount, and the rows whose unit price is printed rounded
    (index -> its printed decimals): quantity x price within the rounding of both (half a cent, and the quantity
    times half the price's last printed decimal: ``3 x 3,33`` for ``10,00``), as ``trust.checks`` holds a line. A
    price printed rounded is read as printed, the precision said; anything further off fails."""
    keys = {c.key for c in spec.columns}
    if not {"/quantity", "/unit_price", "/amount"} <= keys:
        return [], {}
    failing, rounded = [], {}
    for index, row in enumerate(rows_of(spec, values)):
        q, p, a = (row.get(k) for k in ("quantity", "unit_price", "amount"))
        if not all(isinstance(v, int | float) for v in (q, p, a)):
            failing.append(index)
            continue
        printed = citations[f"{spec.pointer}/{index}/unit_price"][0]["text"]
        shown = formats.printed_decimals(printed, decimal=decimal)
        exact = _within(Decimal(str(q)), Decimal(str(p)), Decimal(str(a)), shown)
        if exact is None:
            failing.append(index)
        elif not exact:
            rounded[index] = shown
    return failing, rounded


def rows_of(spec: Table, values: Mapping[str, Any]) -> list[dict]:
    """A table's rows from a reading's values (``/line_items/0/amount`` ...), in order."""
    rows: dict[int, dict] = {}
    prefix = spec.pointer + "/"
    for pointer, value in values.items():
        if pointer.startswith(prefix):
            index, key = pointer[len(prefix) :].split("/", 1)
            rows.setdefault(int(index), {})[key] = value
    order = [c.key.strip("/") for c in spec.columns]
    return [{k: rows[i][k] for k in order if k in rows[i]} for i in sorted(rows)]
