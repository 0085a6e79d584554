"""A layout adapted to how one document prints what the teachers printed otherwise: the sign of its amounts and
the order of its slashed dates.

- Sign: a layout whose total was taught printed negative while the data holds it positive was taught by a credit
  note (EN 16931 keeps a credit note's amounts positive; many generators print them negative). Its amounts are read
  with the signs mirrored on a document whose total is printed positive (an invoice of the same layout) when, and
  only when, the total reads under the mirrored signs and not under the taught ones; a field the credit note
  printed only at its total (its amount due) is not read then. A layout taught by an invoice reads a negative
  print as positive only where the document's title says it is a credit note (``kinds``: "Avoir" where the
  invoice printed "Facture"): then its amounts (``MONEY``: not rates, quantities or unit prices) printed negative
  are read positive, when its total reads so and not as taught; under an invoice's title, never.
- Dates: ``03/11/2017`` is the 3rd of November or March the 11th. A page whose slashed dates show a day over 12 in
  one order only (``17/11/2017``: day first; ``11/17/2017``: month first) is read in that order; a page showing
  both abstains on its slashed dates; a page where none tells is read in the order the teachers printed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence

from extractor.layouts import formats, kinds, titles
from extractor.layouts.model import FieldRule, Format, Layout
from extractor.layouts.words import PageWords

DAY_FIRST, MONTH_FIRST = "D/M/Y", "M/D/Y"
_SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})/\d{4}")
TOTAL = "/total"
MONEY = ("amount", "base", "total", "subtotal", "amount_due")


def date_order(texts: Iterable[str]) -> str | None:
    """The order of a page's slashed dates: ``D/M/Y`` or ``M/D/Y`` when some date shows a day over 12 in that
    order only, ``""`` when dates show both, None when none tells."""
    orders = set()
    for text in texts:
        match = _SLASHED.search(text) if "/" in text else None
        if match is not None:
            first, second = int(match.group(1)), int(match.group(2))
            if first > 12 >= second:
                orders.add(DAY_FIRST)
            elif second > 12 >= first:
                orders.add(MONTH_FIRST)
    return orders.pop() if len(orders) == 1 else ("" if orders else None)


def _dated(fmt: Format, order: str) -> Format:
    """``fmt`` reading slashed dates in ``order`` only (none when ``order`` is ``""``)."""
    if fmt.kind != formats.DATE or not {DAY_FIRST, MONTH_FIRST} & set(fmt.dates):
        return fmt
    kept = tuple(p for p in fmt.dates if p not in (DAY_FIRST, MONTH_FIRST))
    return dataclasses.replace(fmt, dates=kept + ((order,) if order else ()))


def _mirrored(fmt: Format) -> Format:
    """An amount the credit note printed negative for a positive value, read as printed; what it printed as it
    is (a rate, a quantity, a unit price, a zero) as before."""
    if fmt.kind not in (formats.NUMBER, formats.INTEGER) or not (fmt.negated and fmt.signed):
        return fmt
    return dataclasses.replace(fmt, negated=False, signed=False)


def _credited(fmt: Format) -> Format:
    """An amount an invoice printed positive, read from a credit note's negative print (EN 16931 keeps it
    positive); a zero or a positive print is then not read (zero stays zero)."""
    if fmt.kind not in (formats.NUMBER, formats.INTEGER) or fmt.negated or fmt.signed:
        return fmt
    return dataclasses.replace(fmt, negated=True, signed=True)


def _money(key: str) -> bool:
    """True for an amount's pointer or column (``/total``, ``/tax_lines``' ``/base``), not a rate, a quantity or a
    unit price (a credit note prints those positive)."""
    return key.rsplit("/", 1)[-1] in MONEY


def _each_format(
    layout: Layout, change: Callable[[Format], Format], *, only: Callable[[str], bool] = lambda key: True
) -> Layout:
    def changed(key: str, fmt: Format) -> Format:
        return change(fmt) if only(key) else fmt

    fields = tuple(dataclasses.replace(rule, format=changed(rule.pointer, rule.format)) for rule in layout.fields)
    tables = tuple(
        dataclasses.replace(
            spec, columns=tuple(dataclasses.replace(c, format=changed(c.key, c.format)) for c in spec.columns)
        )
        for spec in layout.tables
    )
    return dataclasses.replace(layout, fields=fields, tables=tables)


def _unshared(layout: Layout, total: FieldRule) -> Layout:
    """``layout`` reading nothing at the total's places but the total: what a credit note printed only there (its
    amount due: nothing paid on it) an invoice prints elsewhere (its amount due after a prepayment)."""
    fields = tuple(
        dataclasses.replace(rule, places=())
        if rule.pointer != TOTAL and rule.strict and set(rule.places) & set(total.places)
        else rule
        for rule in layout.fields
    )
    return dataclasses.replace(layout, fields=fields)


def credit_taught(layout: Layout) -> bool:
    """True when the layout's total was taught printed negative for a positive value (a credit note's print)."""
    rule = layout.field(TOTAL)
    return rule is not None and not rule.absent and rule.format.negated and rule.format.signed


def as_printed(layout: Layout, pages: Sequence[PageWords], *, reads: Callable[[FieldRule], bool]) -> Layout:
    """The layout adapted to the document's signs and date order (module docstring). ``reads(rule)``: True when
    the total's rule reads one value on the document."""
    order = date_order(w.text for page in pages for w in page.words)
    if order is not None:
        layout = _each_format(layout, lambda fmt: _dated(fmt, order))
    if credit_taught(layout):
        mirrored = _each_format(layout, _mirrored)
        total, flipped = layout.field(TOTAL), mirrored.field(TOTAL)
        if total is not None and flipped is not None and reads(flipped) and not reads(total):
            return _unshared(mirrored, flipped)
    elif kinds.printed_kinds(layout, pages) == (titles.INVOICE, titles.CREDIT):
        credited = _each_format(layout, _credited, only=_money)
        total, flipped = layout.field(TOTAL), credited.field(TOTAL)
        if total is not None and flipped is not None and reads(flipped) and not reads(total):
            return credited
    return layout
