"""Tables: an array of objects (``/line_items``, ``/tax_lines``) learned from the teacher's rows and read back.

Learning: each teacher row's numbers are looked for on the pages; the line holding most of them is the row's line,
each number's word counted from the line's end. The row's pattern is that line's tail from its first number: a
column key (``{/amount}``), a fixed word, ``*`` (a word that varies), or a code column (a word standing for a value:
``m²`` for ``MTK``). A text the numbers do not hold (a description) is read in its column: the words on the row's
line left of its first number and the lines below it, as long as they follow one another (a wrapped cell); a row
pattern then starts with ``+`` (those words). The header is the nearest line of fixed words above the first row;
the table ends at the first fixed line after its last row. Sums that held for the teacher (the amounts add up to
the subtotal; tax bases and amounts to the total) must hold again, or the table is not read.

Reading: the rows are the lines between the header and the end that fit the pattern; a row that fits its fixed
words but whose numbers do not parse makes the whole table abstain (``unparsable``), never a guess.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from extractor.layouts import formats, places
from extractor.layouts.model import NO_CANDIDATE, TABLE_CHECK, UNPARSABLE, Column, Format, Layout, LayoutRead, Table
from extractor.layouts.words import PageWords, Word, merge, token

WRAP = "+"
ABSENT = "absent"  # a column the teachers' rows all left null: read as null
GAP = 2.2  # a wrapped cell's next line starts within this many word heights of the previous line's top
INDENT = 0.012  # and no further than this (page widths) from where its first line starts
SUMS = (("/amount", "/subtotal"),)
_UNSEEN = object()  # a code cell whose printed word no teacher printed


def _slot(key: str) -> str:
    return "{" + key + "}"


def _numbers(row: Mapping) -> dict[str, Any]:
    return {
        f"/{k}": v for k, v in row.items() if isinstance(v, int | float) and not isinstance(v, bool) and v is not None
    }


def _printed(text: str, value: Any, decimal: str) -> bool:
    """True when ``text`` prints ``value``, or prints it rounded to its shown decimals (a unit price 3.3333 printed
    3,33: its column is learned from it; what is read there later is what is printed)."""
    if formats.formats_for(text, value, decimal=decimal):
        return True
    number = formats.parse_number(text, decimal=decimal)
    exponent = number.as_tuple().exponent if number is not None else 0
    if number is None or not isinstance(exponent, int) or exponent > -2:
        return False
    return Decimal(str(value)).quantize(Decimal(1).scaleb(exponent)) == number


def _row_line(pages: Sequence[PageWords], row: Mapping, decimal: str) -> tuple[int, int, dict[str, list[int]]] | None:
    """The (page, line) holding most of a row's numbers, with each key's word indices there."""
    best = None
    numbers = _numbers(row)
    for p, page in enumerate(pages):
        for line in range(len(page.lines)):
            words = page.line_words(line)
            hits: dict[str, list[int]] = {}
            for key, value in numbers.items():
                at = [i for i, w in enumerate(words) if _printed(w.text, value, decimal)]
                if at:
                    hits[key] = at
            if len(hits) >= min(2, len(numbers)) and (best is None or len(hits) > len(best[2])):
                best = (p, line, hits)
    return best


def _assign(found: list[tuple[int, int, dict[str, list[int]]]], pages: Sequence[PageWords]) -> list[dict[str, int]]:
    """Each row's key -> word index counted from its line's end (-1 last), chosen the same across rows: the columns
    every row prints its value in (``_bijection``), or, when there is no such choice, each row's most voted."""
    common: dict[str, set[int]] = {}
    for p, line, hits in found:
        n = len(pages[p].lines[line])
        for key, at in hits.items():
            offsets = {i - n for i in at}
            common[key] = common[key] & offsets if key in common else offsets
    if all(len(hits) == len(common) for _, _, hits in found):
        chosen = _bijection(common)
        if chosen is not None:
            return [dict(chosen) for _ in found]
    votes: dict[str, Counter[int]] = {}
    for p, line, hits in found:
        n = len(pages[p].lines[line])
        for key, at in hits.items():
            for i in at:
                votes.setdefault(key, Counter())[i - n] += 1
    out = []
    for p, line, hits in found:
        n = len(pages[p].lines[line])
        chosen = {key: sorted(at, key=lambda i: -votes[key][i - n])[0] - n for key, at in hits.items()}
        out.append(chosen if len(set(chosen.values())) == len(chosen) else {})
    return out


def _bijection(common: Mapping[str, set[int]]) -> dict[str, int] | None:
    """One column per key among those every row printed it in, no two keys in one column. Where the teachers' rows
    allow several (every quantity 1: the unit price and the amount print alike), the amount is the line's last of
    them (as invoices print it); the others left to right in the rows' key order. A choice the teachers cannot tell
    apart is caught later: a row's quantity x unit price must be its amount (``_products_hold``)."""
    keys = sorted(common, key=lambda k: (k != "/amount", k))
    best: dict[str, int] | None = None

    def walk(index: int, taken: dict[str, int]) -> None:
        nonlocal best
        if index == len(keys):
            best = best or dict(taken)
            return
        # the amount from the right, the others from the left
        for offset in sorted(common[keys[index]], reverse=keys[index] == "/amount"):
            if offset not in taken.values():
                walk(index + 1, {**taken, keys[index]: offset})

    walk(0, {})
    return best


def _cell(pages: Sequence[PageWords], p: int, line: int, left: float, right: float) -> list[Word]:
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


def _text_keys(rows: Sequence[Mapping]) -> list[str]:
    keys = [f"/{k}" for k, v in rows[0].items() if isinstance(v, str)]
    return [k for k in keys if all(isinstance(r.get(k[1:]), str) for r in rows)]


def learn_table(
    pointer: str, rows: Sequence[Mapping], pages: Sequence[PageWords], *, decimal: str, data: Mapping
) -> Table | str:
    """A table learned from its true rows; a sentence saying why not when it cannot be."""
    if not rows:
        return Table(pointer=pointer, header=(), row=(), columns=())
    found = [_row_line(pages, row, decimal) for row in rows]
    if any(f is None for f in found):
        return f"{pointer}: a row's numbers are not printed on one line"
    lines = [f for f in found if f is not None]
    if [(p, n) for p, n, _ in lines] != sorted({(p, n) for p, n, _ in lines}):
        return f"{pointer}: two rows share a line, or rows are out of order"
    assigned = _assign(lines, pages)
    keys = sorted({k for a in assigned for k in a})
    if not keys or any(set(a) != set(keys) for a in assigned):
        return f"{pointer}: the rows' numbers are not in the same columns"
    width = max(-min(a.values()) for a in assigned)
    tails = [places.line_tokens(pages[p], n)[-width:] for p, n, _ in lines]
    words = [pages[p].line_words(n)[-width:] for p, n, _ in lines]
    columns, pattern, missing = [], [], list(_text_keys(rows))
    nulls = [k for k in rows[0] if all(r.get(k) is None for r in rows)]
    columns += [Column(f"/{k}", (0.0, 0.0), Format(ABSENT)) for k in nulls]
    pattern_keys = {f"/{k}" for k in nulls}
    for offset in range(-width, 0):
        key = next((k for k in keys if assigned[0][k] == offset), None)
        if key is not None:
            # a number column, whatever the teacher's values (22 may be printed 22,00, the next 113,03)
            printed = [w[offset + width].text for w in words]
            columns.append(Column(key, _span(words, offset + width), _number_format(printed, rows, key, decimal)))
            pattern.append(_slot(key))
            continue
        printed = [" ".join(w[offset + width].text.split()) for w in words]
        code = _code_column(printed, rows, missing)
        if code is not None:
            missing.remove(code.key)
            columns.append(dataclasses.replace(code, span=_span(words, offset + width)))
            pattern.append(_slot(code.key))
        else:
            tokens = {t[offset + width] for t in tails}
            pattern.append(tokens.pop() if len(tokens) == 1 else places.ANY)
    wrapped = _wrap(pages, lines, rows, missing, width)
    if isinstance(wrapped, str):
        return wrapped
    wrap, left = wrapped
    unread = [k for k in rows[0] if _slot(f"/{k}") not in pattern and f"/{k}" not in (*wrap, *pattern_keys)]
    if unread:
        absent = unread
        return f"{pointer}: {', '.join(absent)} not found in the rows"
    if wrap:
        columns += [Column(k, (left, 1.0), Format(formats.TEXT)) for k in wrap]
        pattern.insert(0, WRAP)
    else:
        prefixes = {places.line_tokens(pages[p], n)[:-width] for p, n, _ in lines}
        if len(prefixes) != 1:
            return f"{pointer}: the rows' lines start differently"
        pattern[:0] = list(prefixes.pop())
    return Table(
        pointer=pointer,
        header=_header(pages, lines[0]),
        row=tuple(pattern),
        columns=tuple(columns),
        wrap=tuple(wrap),
        end=_end(pages, lines),
        sums=_sums(pointer, rows, data),
    )


def _number_format(printed: Sequence[str], rows: Sequence[Mapping], key: str, decimal: str) -> Format:
    """A number column's format: negated and signed when every row's nonzero value is printed with the opposite
    sign, negative (a credit note's rows printed negative, their data positive); else any value as printed."""
    pairs = [
        (formats.parse_number(t, decimal=decimal), _numbers(r).get(key)) for t, r in zip(printed, rows, strict=True)
    ]
    nonzero = [(p, v) for p, v in pairs if p is not None and v is not None and p != 0]
    if nonzero and all(p < 0 and Decimal(str(v)) == -p for p, v in nonzero):
        return Format(formats.NUMBER, negated=True, signed=True)
    return Format(formats.NUMBER)


def _span(words: Sequence[Sequence[Word]], index: int) -> tuple[float, float]:
    return (min(w[index].box[0] for w in words), max(w[index].box[2] for w in words))


def _code_column(printed: list[str], rows: Sequence[Mapping], missing: list[str]) -> Column | None:
    """A column of codes (a unit printed ``kg`` for ``KGM``): a key whose values are all codes (one short word of
    capitals and digits), each printed as one word that stands for it alone."""
    for key in missing:
        if not all(re.fullmatch(r"[A-Z0-9]{1,4}", str(r.get(key[1:]))) for r in rows):
            continue
        values = [str(r.get(key[1:])) for r in rows]
        pairs = set(zip(printed, values, strict=True))
        if len({p for p, _ in pairs}) == len(pairs) and all(isinstance(r.get(key[1:]), str) for r in rows):
            if all(p == v for p, v in pairs):
                return Column(key, (0.0, 0.0), Format(formats.TEXT))
            if len(pairs) > 1 or printed[0] != values[0]:
                return Column(key, (0.0, 0.0), Format(formats.CODE, codes=tuple(sorted(pairs))))
    return None


def _first_number_x(pages: Sequence[PageWords], p: int, n: int, width: int) -> float:
    return pages[p].line_words(n)[-width].box[0] - 0.002


def _wrap(pages, lines, rows, missing: list[str], width: int) -> tuple[list[str], float] | str:
    """The text key read as a wrapped cell (each row's words left of its numbers, down its column) and the
    column's left edge."""
    if not missing:
        return [], 0.0
    if len(missing) > 1:
        return f"text columns {', '.join(missing)}: only one wrapped text column is learned"
    key = missing[0]
    lefts = []
    for (p, n, _), row in zip(lines, rows, strict=True):
        first = str(row[key[1:]]).split()[0]
        top = pages[p].line_words(n)[0].box
        right = _first_number_x(pages, p, n, width)
        starts = [
            w
            for w in pages[p].words
            if w.text == first and w.box[2] <= right and abs(w.box[1] - top[1]) <= (top[3] - top[1])
        ]
        if len(starts) != 1:
            return f"{key}: {row[key[1:]]!r} does not start at its row's line"
        lefts.append(starts[0].box[0])
    left = min(lefts) - 0.015
    for (p, n, _), row in zip(lines, rows, strict=True):
        text = " ".join(w.text for w in _cell(pages, p, n, left, _first_number_x(pages, p, n, width)))
        if text != " ".join(str(row[key[1:]]).split()):
            return f"{key}: {row[key[1:]]!r} is not printed in its column"
    return [key], left


def _sums(pointer: str, rows: Sequence[Mapping], data: Mapping) -> tuple[tuple[str, str], ...]:
    """The sums that hold in the teacher's data: the rows' amounts to the subtotal; tax bases and amounts to the
    total."""

    def total(keys: str) -> Decimal | None:
        try:
            return sum((Decimal(str(r[k.strip("/")])) for r in rows for k in keys.split("+")), Decimal(0))
        except (KeyError, ArithmeticError, ValueError):
            return None

    out = []
    for keys, target in (("/amount", "/subtotal"), ("/base+/amount", "/total")):
        value = data.get(target.strip("/"))
        if all(k.strip("/") in rows[0] for k in keys.split("+")) and isinstance(value, int | float):
            if total(keys) == Decimal(str(value)):
                out.append((keys, target))
    return tuple(out)


def _header_line(pages: Sequence[PageWords], first: tuple[int, int, Any]) -> tuple[int, int] | None:
    """The (page, line) of the nearest line of two or more fixed words above the first row, on its page or an
    earlier one (a table whose header ends one page and whose rows start the next)."""
    p, n, _ = first
    for page in range(p, -1, -1):
        for line in range(n - 1 if page == p else len(pages[page].lines) - 1, -1, -1):
            tokens = places.line_tokens(pages[page], line)
            if len(tokens) >= 2 and places.ANY not in tokens:
                return page, line
    return None


def _header(pages: Sequence[PageWords], first: tuple[int, int, Any]) -> tuple[str, ...]:
    at = _header_line(pages, first)
    return () if at is None else places.line_tokens(pages[at[0]], at[1])


def _end(pages: Sequence[PageWords], lines: Sequence[tuple[int, int, Any]]) -> tuple[str, ...]:
    """The first line of fixed words after the last row that starts left of the rows' and the header's first words,
    and that the table's body does not print (a cell's "(GLN)" under each row, a row's note, ends nothing)."""
    p, n, _ = lines[-1]
    starts = [pages[q].line_words(m)[0].box[0] for q, m, _ in lines]
    at = _header_line(pages, lines[0]) or (lines[0][0], lines[0][1] - 1)
    if at[1] >= 0:
        starts.append(pages[at[0]].line_words(at[1])[0].box[0])
    left = min(starts) + 0.01
    body = {
        merge(places.line_tokens(pages[q], m))
        for q in range(at[0], p + 1)
        for m in range(at[1] + 1 if q == at[0] else 0, n if q == p else len(pages[q].lines))
    }
    for page in range(p, len(pages)):
        for line in range(n + 1 if page == p else 0, len(pages[page].lines)):
            tokens = places.line_tokens(pages[page], line)
            if places.ANY in tokens or merge(tokens) in body:
                continue
            if pages[page].line_words(line)[0].box[0] <= left:
                return tokens
    return ()


def learn_tables(pages: Sequence[PageWords], data: Mapping, *, decimal: str, notes: list[str]) -> tuple[Table, ...]:
    """Every array of objects in ``data`` learned as a table; a note for each that cannot be."""
    out = []
    for key, value in data.items():
        if isinstance(value, list) and all(isinstance(r, Mapping) for r in value):
            learned = learn_table(f"/{key}", value, pages, decimal=decimal, data=data)
            if isinstance(learned, str):
                notes.append(learned)
            else:
                out.append(learned)
    return tuple(out)


def refine_tables(old: Sequence[Table], new: Sequence[Table], reading: LayoutRead, data: Mapping) -> tuple[Table, ...]:
    """The tables after another teacher: an earlier table that read this document's rows right is kept; else the
    new document's table replaces it (the later teacher wins); a table only one of them learned is kept."""
    fresh = {t.pointer: t for t in new}
    out = []
    for spec in old:
        truth = data.get(spec.pointer.strip("/"))
        right = rows_of(spec, reading.values) == truth if spec.pointer not in reading.abstained else False
        if spec.pointer not in fresh:
            out.append(spec)
            continue
        later = fresh[spec.pointer]
        if later.row == spec.row:
            # one row pattern: the codes either teacher printed are read (a unit "kg" one taught, "Stk" the other)
            out.append(_codes_joined(spec if right else later, spec, later))
        else:
            out.append(spec if right else later)
    out += [t for p, t in fresh.items() if all(o.pointer != p for o in old)]
    return tuple(out)


def _codes_joined(base: Table, earlier: Table, later: Table) -> Table:
    """``base`` with each code column's codes as both tables print them, the later teacher's where they differ."""

    def codes(spec: Table, key: str) -> dict[str, str]:
        column = next((c for c in spec.columns if c.key == key and c.format.kind == formats.CODE), None)
        return dict(column.format.codes) if column is not None else {}

    columns = []
    for column in base.columns:
        if column.format.kind == formats.CODE:
            joined = {**codes(earlier, column.key), **codes(later, column.key)}
            column = dataclasses.replace(
                column, format=dataclasses.replace(column.format, codes=tuple(sorted(joined.items())))
            )
        columns.append(column)
    return dataclasses.replace(base, columns=tuple(columns))


def _fits_row(spec: Table, page: PageWords, line: int) -> tuple[list[Word], dict[str, Word]] | None:
    """A line that fits a row's pattern: its words before the pattern (a wrapped cell's first line) and each
    column's word; None when it does not fit."""
    words = page.line_words(line)
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


def row_lines(spec: Table, pages: Sequence[PageWords]) -> set[tuple[int, int]]:
    """The (page, line)s of a table's region that look like its rows (``_row_like``): lines its rows explain."""
    out = set()
    for p, line in _region(spec, pages) if spec.row else ():
        fitted = _fits_row(spec, pages[p], line)
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
    count = 0
    for p, line in region:
        fitted = _fits_row(spec, pages[p], line)
        if fitted is None:
            continue
        row = _read_row(spec, pages, p, line, fitted, layout.decimal)
        if row is None and ("/amount", "/subtotal") in spec.sums and not _row_like(spec, fitted):
            continue  # a total's line in the table's region ("Gesamtbetrag 56.849,82 EUR"); a row skipped so
            # would leave the amounts short of the subtotal: the sum checks it
        if row is None:
            result.abstained[spec.pointer] = UNPARSABLE
            return
        for key, (value, cited) in row.items():
            if value is _UNSEEN:
                unread[f"{spec.pointer}/{count}{key}"] = UNPARSABLE
                continue
            values[f"{spec.pointer}/{count}{key}"] = value
            citations[f"{spec.pointer}/{count}{key}"] = [cited]
        count += 1
    if count == 0:
        result.abstained[spec.pointer] = NO_CANDIDATE
        return
    if not _sums_hold(spec, values, result.values):
        result.abstained[spec.pointer] = TABLE_CHECK
        return
    failing = _products_failing(spec, values)
    if failing and ("/amount", "/subtotal") not in spec.sums:
        result.abstained[spec.pointer] = TABLE_CHECK
        return
    for index in failing:
        # the amounts add up to the subtotal read: they stand; the quantity or the unit price is not as printed
        # (a price printed rounded), so neither is read
        for key in ("/quantity", "/unit_price"):
            pointer = f"{spec.pointer}/{index}{key}"
            values.pop(pointer, None)
            citations.pop(pointer, None)
            unread[pointer] = TABLE_CHECK
    result.values.update(values)
    result.citations.update(citations)
    result.abstained.update(unread)


def _read_row(
    spec: Table, pages: Sequence[PageWords], p: int, line: int, fitted: tuple[list[Word], dict[str, Word]], decimal: str
) -> dict[str, tuple[Any, dict]] | None:
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
            words = _cell(pages, p, line, column.span[0], right)
            text = " ".join(w.text for w in words)
        else:
            words = [cells[column.key]]
            text = words[0].text
        value = formats.parse(text, column.format, decimal=decimal) if text else None
        if value is None and column.format.kind == formats.CODE:
            # a code the teachers never printed (a unit "kg" where they printed "Stk"): that cell is not read,
            # its row and the table are (the supplier's codes are its own: Lieferant's "Stk" is C62, not H87)
            value = _UNSEEN
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


def _products_failing(spec: Table, values: Mapping[str, Any]) -> list[int]:
    """The rows whose quantity x unit price is not their amount, to the cent (a unit price printed rounded, 3,33
    for 3.3333, is then caught rather than read)."""
    keys = {c.key for c in spec.columns}
    if not {"/quantity", "/unit_price", "/amount"} <= keys:
        return []
    failing = []
    for index, row in enumerate(rows_of(spec, values)):
        q, p, a = (row.get(k) for k in ("quantity", "unit_price", "amount"))
        if not all(isinstance(v, int | float) for v in (q, p, a)):
            failing.append(index)
            continue
        product = (Decimal(str(q)) * Decimal(str(p))).quantize(Decimal("0.01"))
        if product != Decimal(str(a)).quantize(Decimal("0.01")):
            failing.append(index)
    return failing


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
