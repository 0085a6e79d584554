"""Tables: an array of objects (``/line_items``, ``/tax_lines``) learned from the teacher's rows and read back.

Learning: each teacher row's numbers are looked for on the pages; the line holding most of them is the row's line,
each number's word counted from the line's end. The row's pattern is that line's tail from its first number: a
column key (``{/amount}``), a fixed word, ``*`` (a word that varies), or a code column (a word standing for a value:
``m²`` for ``MTK``). A text the numbers do not hold (a description) is read in its column: the words on the row's
line left of its first number and the lines below it, as long as they follow one another (a wrapped cell); a row
pattern then starts with ``+`` (those words). The header is the nearest line of fixed words above the first row;
the table ends at the first fixed line after its last row. Sums that held for the teacher (the amounts add up to
the subtotal; tax bases and amounts to the total) must hold again, or the table is not read.

Reading is ``table_read``.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from extractor.layouts import formats, grouped, places
from extractor.layouts.model import Column, Format, LayoutRead, Table
from extractor.layouts.table_read import ABSENT, WRAP, cell, rows_of
from extractor.layouts.words import PageWords, Word, merge

SUMS = (("/amount", "/subtotal"),)


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
    lefts, bounds = [], []
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
        before = [(w.box[0] + w.box[2]) / 2 for w in pages[p].line_words(n) if w.box[2] <= starts[0].box[0]]
        bounds.append(max(before, default=0.0))
    # a little left of the leftmost start, for a cell printed a little further left; never as far as the middle of
    # a word left of a start on its row's line (a position number: OCR's boxes of "1" and "7" start where their
    # ink does, not where their text does)
    left = max(min(lefts) - 0.015, max(bounds))
    for (p, n, _), row in zip(lines, rows, strict=True):
        text = " ".join(w.text for w in cell(pages, p, n, left, _first_number_x(pages, p, n, width)))
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
    """Every array of objects in ``data`` learned as a table (its numbers grouped by plain spaces joined where they
    print its rows' values: ``grouped.regrouped``); a note for each that cannot be."""
    out = []
    for key, value in data.items():
        if isinstance(value, list) and all(isinstance(r, Mapping) for r in value):
            values = {Decimal(str(v)) for row in value for v in _numbers(row).values()}
            joined = grouped.regrouped(pages, decimal=decimal, values=values)
            learned = learn_table(f"/{key}", value, joined, decimal=decimal, data=data)
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
