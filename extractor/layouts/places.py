"""Where a value is printed, in terms that hold from one document of a layout to the next: the fixed words around
it on its line (a word holding a digit varies: ``*``), and, when its line holds nothing else, the lines above it.

``spans`` lists every run of words a value may be; ``place_of`` describes one; ``matches`` finds a place again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from extractor.layouts.model import Place
from extractor.layouts.words import PageWords, Word, fold

ANY = "*"
MAX_WORDS = 12  # the longest run of words one value is taken to be
ABOVE = 2  # lines above a value alone on its line that describe its place
ALIGN = 0.08  # how far (page widths) a value alone on its line may move sideways


@dataclass(frozen=True)
class Span:
    """A run of words on one line: page (index into the document's pages), line, first and end word (exclusive)."""

    page: int
    line: int
    start: int
    end: int


def token(word: Word) -> str:
    """A word as a place holds it: folded, or ``*`` when it holds a digit (it varies from document to document)."""
    folded = fold(word.text)
    return ANY if any(c.isdigit() for c in folded) else folded


def line_tokens(page: PageWords, line: int) -> tuple[str, ...]:
    """A line's words as tokens (``token``)."""
    return tuple(token(page.words[i]) for i in page.lines[line])


def spans(pages: Sequence[PageWords]) -> Iterator[tuple[Span, str]]:
    """Every run of up to ``MAX_WORDS`` words on a line, with its text (words joined by one space)."""
    for page_index, page in enumerate(pages):
        for line, members in enumerate(page.lines):
            texts = [page.words[i].text for i in members]
            for start in range(len(texts)):
                for end in range(start + 1, min(start + MAX_WORDS, len(texts)) + 1):
                    yield Span(page_index, line, start, end), " ".join(texts[start:end])


def box_of(words: Sequence[Word]) -> tuple[float, float, float, float]:
    """The box around words."""
    return (
        min(w.box[0] for w in words),
        min(w.box[1] for w in words),
        max(w.box[2] for w in words),
        max(w.box[3] for w in words),
    )


def span_words(pages: Sequence[PageWords], span: Span) -> tuple[Word, ...]:
    """The words of a span."""
    return pages[span.page].line_words(span.line)[span.start : span.end]


def _above(page: PageWords, line: int) -> tuple[tuple[str, ...], ...]:
    return tuple(line_tokens(page, above) for above in range(line - 1, max(line - 1 - ABOVE, -1), -1))


def fixed(tokens: Sequence[str]) -> bool:
    """True when tokens hold a fixed word (something to find a place by)."""
    return any(t != ANY for t in tokens)


def place_of(pages: Sequence[PageWords], span: Span) -> Place | None:
    """The place of a span; None when nothing fixed describes it (no fixed word on its line or above it)."""
    page = pages[span.page]
    tokens = line_tokens(page, span.line)
    before, after = tokens[: span.start], tokens[span.end :]
    above: tuple[tuple[str, ...], ...] = ()
    if not fixed(before) and not fixed(after):
        above = _above(page, span.line)
        if not any(fixed(a) for a in above):
            return None
    return Place(
        before=before,
        after=after,
        above=above,
        page=(span.page, span.page - len(pages)),
        box=box_of(span_words(pages, span)),
    )


def _fits(pattern: Sequence[str], tokens: Sequence[str]) -> bool:
    # ``*`` stands for a word holding a digit, nothing else (a fixed word in its place is another line)
    return tuple(pattern) == tuple(tokens)


def matches(place: Place, pages: Sequence[PageWords]) -> Iterator[Span]:
    """Every run of words printed at ``place`` on the document (possibly empty: ``start == end``, a label printed
    with no value after it)."""
    n_before, n_after = len(place.before), len(place.after)
    for page_index, page in enumerate(pages):
        for line in range(len(page.lines)):
            tokens = line_tokens(page, line)
            if len(tokens) < n_before + n_after:
                continue
            end = len(tokens) - n_after
            if not _fits(place.before, tokens[:n_before]) or not _fits(place.after, tokens[end:]):
                continue
            if place.above and (_above(page, line) != place.above or not _aligned(place, page, line, n_before, end)):
                continue
            yield Span(page_index, line, n_before, end)


def _aligned(place: Place, page: PageWords, line: int, start: int, end: int) -> bool:
    words = page.line_words(line)[start:end]
    return bool(words) and abs(words[0].box[0] - place.box[0]) <= ALIGN
