"""Numbers whose thousands are grouped by a space the text layer splits into words (``1 297,50`` printed with a
plain space: two words, ``1`` and ``297,50``), joined back into one word where a table's row reads only so.

A no-break space (U+00A0) or a narrow no-break space (U+202F, CLDR's French) keeps the number one word; a plain
space does not. Which words are one number is told by their shape and place alone: a word of one to three digits
(a sign or currency sign before it) followed, one space's width away, by words of three digits, the last with the
layout's learned decimal separator and its decimals. ``2 100,00`` is as likely a quantity and a price: the caller
joins only where the row does not read as printed and reads, its arithmetic holding, once joined.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence, Set
from decimal import Decimal

from extractor.layouts import formats
from extractor.layouts.words import PageWords, Word, from_lines

_HEAD = re.compile(r"[-+(]?[€$£]?\d{1,3}")
SPACE = 1.5  # the most a space between groups may be, in the head word's character widths


def _group(decimal: str, *, last: bool) -> re.Pattern[str]:
    """A group after the first: three digits, the last one with the decimal separator and its decimals."""
    tail = rf"\d{{3}}{re.escape(decimal)}\d{{1,4}}\)?[-€$£]?" if last else r"\d{3}"
    return re.compile(tail)


def variants(words: Sequence[Word], *, decimal: str) -> list[tuple[Word, ...]]:
    """``words`` with each choice of the runs that may print one number grouped by plain spaces joined into one
    word (its text the groups with a space between them, its box theirs), every run joined first; none when no
    run may (``12 100,00`` is 12 100,00, or 12 then 100,00: both are given, the caller's row tells)."""
    runs = _runs(words, decimal=decimal)
    out = []
    for choice in itertools.product((True, False), repeat=len(runs)):
        if any(choice):
            out.append(_join(words, [run for run, chosen in zip(runs, choice, strict=True) if chosen]))
    return out


def _join(words: Sequence[Word], runs: Sequence[tuple[int, int]]) -> tuple[Word, ...]:
    starts = dict(runs)
    out: list[Word] = []
    i = 0
    while i < len(words):
        end = starts.get(i, i)
        run = words[i : end + 1]
        box = (run[0].box[0], min(w.box[1] for w in run), run[-1].box[2], max(w.box[3] for w in run))
        confidences = [w.confidence for w in run if w.confidence is not None]
        text = " ".join(w.text for w in run)
        out.append(Word(text, box, run[0].line, min(confidences) if confidences else None) if end > i else words[i])
        i = end + 1
    return tuple(out)


def regrouped(pages: Sequence[PageWords], *, decimal: str, values: Set[Decimal]) -> list[PageWords]:
    """A teacher's pages with each run of words that prints one of its true ``values`` grouped by plain spaces
    joined into one word (its lines and their order kept), so its table is learned as it will be read; a page with
    none is returned as it is."""
    out = []
    for page in pages:
        lines, changed = [], False
        for line in range(len(page.lines)):
            words = page.line_words(line)
            runs = [
                (i, end)
                for i, end in _runs(words, decimal=decimal)
                if formats.parse_number(" ".join(w.text for w in words[i : end + 1]), decimal=decimal) in values
            ]
            changed |= bool(runs)
            lines.append([(w.text, w.box, w.confidence) for w in _join(words, runs)])
        out.append(from_lines(page.page, lines, source=page.source) if changed else page)
    return out


def _runs(words: Sequence[Word], *, decimal: str) -> list[tuple[int, int]]:
    """The (first, last) indexes of each run of words that may print one number grouped by plain spaces."""
    runs = []
    i = 0
    while i < len(words):
        end = _run_end(words, i, decimal=decimal)
        if end > i:
            runs.append((i, end))
        i = end + 1
    return runs


def _run_end(words: Sequence[Word], start: int, *, decimal: str) -> int:
    """The index of the last word of the grouped number starting at ``start`` (``start`` itself when none does)."""
    if not _HEAD.fullmatch(words[start].text):
        return start
    head = words[start]
    space = SPACE * (head.box[2] - head.box[0]) / max(len(head.text), 1)
    end = start
    while end + 1 < len(words) and words[end + 1].box[0] - words[end].box[2] <= space:
        following = words[end + 1].text
        if _group(decimal, last=True).fullmatch(following):
            return end + 1
        if not _group(decimal, last=False).fullmatch(following):
            break
        end += 1
    return start
