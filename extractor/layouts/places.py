"""Where a value is printed, in terms that hold from one document of a layout to the next: the fixed words around
it on its line (a word holding a digit varies: ``*``), and, when its line holds nothing else, the lines above it.

``spans`` lists every run of words a value may be; ``place_of`` describes one; ``matches`` finds a place again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from extractor.layouts.model import Place
from extractor.layouts.titles import untitled
from extractor.layouts.words import ANY, PageWords, Word, merge

MAX_WORDS = 12  # the longest run of words one value is taken to be
MAX_LINES = 3  # the most lines one text is taken to run on
ABOVE = 2  # lines above a value alone on its line that describe its place
ALIGN = 0.08  # how far (page widths) a value alone on its line may move sideways


@dataclass(frozen=True)
class Span:
    """A run of words on one line: page (index into the document's pages), line, first and end word (exclusive)."""

    page: int
    line: int
    start: int
    end: int
    lines: int = 1  # a text running on: its first line's words from start, then the next lines whole


def line_tokens(page: PageWords, line: int) -> tuple[str, ...]:
    """A line's words as tokens (``words.token``)."""
    return page.tokens[line]


def spans(pages: Sequence[PageWords]) -> Iterator[tuple[Span, str]]:
    """Every run of up to ``MAX_WORDS`` words on a line, with its text (words joined by one space); and every text
    running from a line's word to its end and on over the next ``MAX_LINES - 1`` lines whole (payment terms)."""
    for page_index, page in enumerate(pages):
        for line, members in enumerate(page.lines):
            texts = [page.words[i].text for i in members]
            for start in range(len(texts)):
                for end in range(start + 1, min(start + MAX_WORDS, len(texts)) + 1):
                    yield Span(page_index, line, start, end), " ".join(texts[start:end])
                run = " ".join(texts[start:])
                for more in range(1, min(MAX_LINES, len(page.lines) - line)):
                    run += " " + " ".join(w.text for w in page.line_words(line + more))
                    yield Span(page_index, line, start, len(texts), more + 1), run


def box_of(words: Sequence[Word]) -> tuple[float, float, float, float]:
    """The box around words."""
    return (
        min(w.box[0] for w in words),
        min(w.box[1] for w in words),
        max(w.box[2] for w in words),
        max(w.box[3] for w in words),
    )


def span_words(pages: Sequence[PageWords], span: Span) -> tuple[Word, ...]:
    """The words of a span (of its first line, then of the lines it runs on)."""
    page = pages[span.page]
    words = page.line_words(span.line)[span.start : span.end]
    for more in range(1, min(span.lines, len(page.lines) - span.line)):
        words += page.line_words(span.line + more)
    return words


def _above(page: PageWords, line: int) -> tuple[tuple[str, ...], ...]:
    return tuple(line_tokens(page, above) for above in range(line - 1, max(line - 1 - ABOVE, -1), -1))


def bare_label(merged: Sequence[str]) -> str | None:
    """``label:`` and a line's fixed words, for a line of fixed words only (a label printed with nothing after it:
    ``Erhaltene Anzahlungen``), else None; with ``ANY`` dropped, for any line: a layout's vocabulary holds its
    teachers' bare labels, so the same label printed with an amount is a line they did not explain."""
    words = [t for t in merged if t != ANY]
    return "label:" + " ".join(words) if words else None


def fixed(tokens: Sequence[str]) -> bool:
    """True when tokens hold a fixed word (something to find a place by)."""
    return any(t != ANY for t in tokens)


def place_of(pages: Sequence[PageWords], span: Span, *, own: frozenset[str] = frozenset()) -> Place | None:
    """The place of a span: the fixed words of its line, and the lines above it when its line has none or when its
    line's words alone also fit another line of the teacher printing something else (a city after "DE" in the
    seller's and the buyer's address); None when nothing describes it alone. ``own``: words that do not change from
    one document of the supplier to the next (its party's name): a line above made of them alone is anchor enough
    (a street under the seller's name, whatever the line above the name prints). A place that fits several lines
    of the teacher is kept when each prints the same value (a seller's street in its address and its footer): a
    later document must then print one value at all of them."""
    page = pages[span.page]
    tokens = line_tokens(page, span.line)
    before, after = tokens[: span.start], tokens[span.end :]
    place = Place(
        before=before,
        after=after,
        above=(),
        page=(span.page, span.page - len(pages)),
        box=box_of(span_words(pages, span)),
    )
    if (fixed(before) or fixed(after)) and _only(place, pages, span):
        return place
    above = _above(page, span.line)
    depths = [len(above)]
    if above and fixed(above[0]) and {t for t in above[0] if t != ANY} <= own:
        depths.insert(0, 1)
    for depth in depths:
        if not any(fixed(a) for a in above[:depth]):
            continue
        place = Place(before=before, after=after, above=above[:depth], page=place.page, box=place.box, lines=span.lines)
        if _only(place, pages, span):
            return place
    return None


def _only(place: Place, pages: Sequence[PageWords], span: Span) -> bool:
    """True when ``place`` finds ``span`` on the teacher, and wherever else it fits, the same text."""
    found = list(matches(place, pages))
    text = [w.text for w in span_words(pages, span)]
    return any((m.page, m.line) == (span.page, span.line) for m in found) and all(
        [w.text for w in span_words(pages, m)] == text for m in found
    )


def matches(place: Place, pages: Sequence[PageWords]) -> Iterator[Span]:
    """Every run of words printed at ``place`` on the document (possibly empty: ``start == end``, a label printed
    with no value after it). Fixed words are compared ``merge``d, so a word the text layer split still fits."""
    before, after = merge(place.before), merge(place.after)
    # a title word above is any title word: "Avoir *" where the teacher printed "Facture *"
    above = tuple(untitled(merge(a)) for a in place.above)
    for page_index, page in enumerate(pages):
        for line in page.by_head.get(before, ()):
            starts = page.heads[line].get(before)
            ends = page.tails[line].get(after)
            if not starts or not ends:
                continue
            spans = [(s, e) for s in starts for e in ends if s <= e]
            if len(spans) != 1:
                continue  # the fixed words do not say where the value is on this line
            start, end = spans[0]
            if above and (
                _merged_above(page, line)[: len(above)] != above or not _aligned(place, page, line, start, end)
            ):
                continue
            yield Span(page_index, line, start, end, place.lines)


def _merged_above(page: PageWords, line: int) -> tuple[tuple[str, ...], ...]:
    return tuple(untitled(page.merged[above]) for above in range(line - 1, max(line - 1 - ABOVE, -1), -1))


def _aligned(place: Place, page: PageWords, line: int, start: int, end: int) -> bool:
    words = page.line_words(line)[start:end]
    return bool(words) and abs(words[0].box[0] - place.box[0]) <= ALIGN


def word_citation(page: PageWords, words: Sequence[Word]) -> dict:
    """Where words are printed: page (1-based), box, text, source and OCR's lowest confidence."""
    confidences = [w.confidence for w in words if w.confidence is not None]
    return {
        "page": page.page + 1,
        "box": [round(v, 5) for v in box_of(words)],
        "text": " ".join(w.text for w in words),
        "source": page.source,
        "confidence": min(confidences) if confidences else None,
    }
