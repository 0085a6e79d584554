"""A party's address line read by its place in its block, where its anchors are the party's own words.

An address is printed as a block of lines, one under the other, left-aligned (a ship-to block under ``Adresse de
livraison``, a bill-to block beside it). The words around a street or a city are often the party's own (its name
above the street, its city after the postal code), so the next document, another buyer, prints none of them: its
street is found at no anchor. Learning keeps each such line's place in its block (``blocked``): its offset, the
block's size, its left edge and top. Reading (``read_blocked``) takes the document's block of the same size at
that edge, near that top, when exactly one is there, and the line at the offset; a block with another number of
lines (an address with a line more) or two such blocks, and nothing is read there. What the teacher printed around
the value on its line must be printed there too, but words of no digit that end the line (the city after the postal
code) or a whole line's words count (``35 rue de la République`` for ``42 rue du stade``) may differ: the block
says where the line is, the line's shape says which of its words the value is. Every place of the field that reads
must read the same value, and one that prints it unparsed abstains, as at anchors. A country the teacher printed among
other words (``Ile de la Réunion`` for RE) is read where the line there names one country in full (``France``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from extractor.layouts import formats
from extractor.layouts.model import NO_CANDIDATE, PLACES_DISAGREE, UNPARSABLE, FieldRule, Place
from extractor.layouts.places import ALIGN, word_citation
from extractor.layouts.words import ANY, PageWords, Word
from extractor.text import fold

GAP = 0.025  # the most (page heights) between two lines' tops of one block
DRIFT = 0.05  # how far (page heights) a block's top may move from the teacher's


def address(pointer: str) -> bool:
    """True for a party's address field (``/buyer/address/street``), the fields read by their block."""
    return pointer.startswith(("/buyer/address/", "/seller/address/"))


def _block(page: PageWords, line: int) -> range:
    """The lines of the block ``line`` stands in: the run of lines around it, in reading order, whose first words
    start at its left edge and whose tops are at most ``GAP`` apart."""
    left = page.line_words(line)[0].box[0]

    def joins(a: int, b: int) -> bool:
        first, second = page.line_words(a)[0], page.line_words(b)[0]
        aligned = all(abs(w.box[0] - left) <= ALIGN for w in (first, second))
        return aligned and 0 < second.box[1] - first.box[1] <= GAP

    start = line
    while start > 0 and joins(start - 1, start):
        start -= 1
    end = line + 1
    while end < len(page.lines) and joins(end - 1, end):
        end += 1
    return range(start, end)


def blocked(place: Place, pages: Sequence[PageWords], line: int) -> Place:
    """``place`` (its value on ``line`` of the teacher's page, one line long) with its ``block``."""
    if place.lines != 1:
        return place
    page = pages[place.page[0]]
    block = _block(page, line)
    first = page.line_words(block.start)[0]
    return dataclasses.replace(place, block=(line - block.start, len(block), first.box[0], first.box[1]))


def _line(place: Place, pages: Sequence[PageWords]) -> tuple[PageWords, int] | None:
    """The document's line at the place's offset in the one block of the teacher's size at its edge and top."""
    offset, size, left, top = place.block
    if place.page[0] >= len(pages):
        return None
    page = pages[place.page[0]]
    found = set()
    for line in range(len(page.lines)):
        block = _block(page, line)
        head = page.line_words(block.start)[0]
        if len(block) == size and abs(head.box[0] - left) <= ALIGN and abs(head.box[1] - top) <= DRIFT:
            found.add(block)
    if len(found) != 1:
        return None
    block = found.pop()
    return page, block.start + int(offset)


def _value_words(place: Place, page: PageWords, line: int, words: int) -> tuple[Word, ...] | None:
    """The words of ``line`` printing the value: after the words the teacher printed before it (the same tokens),
    and before those it printed after it (the same tokens); where the teacher's words after it are the party's
    own (no digit: a city after a postal code), the value's own ``words`` (a text with digits) and no digit after
    them."""
    tokens, printed = page.tokens[line], page.line_words(line)
    before, after = len(place.before), len(place.after)
    if tuple(tokens[:before]) != place.before:
        return None
    if after and tuple(tokens[len(tokens) - after :]) == place.after and len(tokens) - after > before:
        return printed[before : len(tokens) - after]
    if after and words and len(tokens) > before + words and ANY not in tokens[before + words :]:
        return printed[before : before + words]
    return printed[before:] if not after and len(tokens) > before else None


@functools.cache
def _countries() -> dict[str, frozenset[str]]:
    """Every country's names (``cldr.country_names``, folded) -> the codes they name (a few name two)."""
    import pycountry

    from extractor.trust.grounding.cldr import country_names

    out: dict[str, set[str]] = {}
    for entry in pycountry.countries:
        for name in country_names(entry.alpha_2):
            out.setdefault(name, set()).add(entry.alpha_2)
    return {name: frozenset(codes) for name, codes in out.items()}


def country(text: str) -> str | None:
    """The code of the one country ``text`` names in full (``France``: FR), else None."""
    codes = _countries().get(fold(" ".join(text.split())), frozenset())
    return next(iter(codes)) if len(codes) == 1 else None


def read_blocked(rule: FieldRule, pages: Sequence[PageWords], *, decimal: str) -> tuple[Any, list[dict], str | None]:
    """A party's address field read at its places' blocks: (value, citations, None), or (None, [], why not)."""
    if not address(rule.pointer) or not rule.places or not all(p.block for p in rule.places):
        return None, [], NO_CANDIDATE
    # the line's words are the block's to say: a street of five words where the teacher's had four
    whole = dataclasses.replace(rule.format, words=0)
    values: dict[Any, tuple[Any, list[dict]]] = {}
    for place in rule.places:
        at = _line(place, pages)
        words = _value_words(place, *at, rule.format.words) if at is not None else None
        if at is None:
            continue
        if not words:
            # a country printed as its line's whole text where the teacher's line printed it among other words
            # ("France" where it printed "Ile de la Réunion"); any other line prints no country there
            words = at[0].line_words(at[1]) if rule.pointer.endswith("/country") else ()
            value = country(" ".join(w.text for w in words)) if words else None
            if value is not None:
                values.setdefault(value, (value, []))[1].append(word_citation(at[0], words))
            continue
        if not rule.format.words and any(t == ANY for t in at[0].tokens[at[1]][len(place.before) :][: len(words)]):
            return None, [], UNPARSABLE  # a digit where the teacher's value printed none (``001 Paris``)
        text = " ".join(w.text for w in words)
        value = formats.parse(text, whole, decimal=decimal)
        if value is None and rule.pointer.endswith("/country"):
            value = country(text)
        if value is None:
            return None, [], UNPARSABLE
        values.setdefault(value, (value, []))[1].append(word_citation(at[0], words))
    if len(values) != 1:
        return None, [], PLACES_DISAGREE if values else NO_CANDIDATE
    value, cited = next(iter(values.values()))
    return value, cited, None
