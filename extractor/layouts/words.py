"""A document's words as layouts read them: per page, lines of words with boxes, from the text layer or OCR.

``page_words`` takes a loaded ``inputs.Document``: a page OCR read gives OCR's words (with their confidence);
otherwise the text layer's lines (``Page.lines``: load the document with ``RasterSettings(text_boxes=True)``, or a
page has no words). Boxes are fractions of the displayed page (x0, y0, x1, y1; top left 0, 0).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from extractor.inputs.document import Document, Page

Box = tuple[float, float, float, float]
TEXT_LAYER, OCR = "text_layer", "ocr"
ANY = "*"


@dataclass(frozen=True)
class Word:
    """One word: its text, box, line (index into its page's lines) and OCR's confidence (None on a text layer)."""

    text: str
    box: Box
    line: int
    confidence: float | None = None


@dataclass(frozen=True)
class PageWords:
    """One page's words, in reading order, grouped into lines.

    Attributes:
        page: the page's 0-based index in the document as loaded.
        words: every word (``Word.line`` names its line).
        lines: each line's words (indices into ``words``), top to bottom.
        source: ``text_layer`` or ``ocr``.
    """

    page: int
    words: tuple[Word, ...]
    lines: tuple[tuple[int, ...], ...]
    source: str

    def line_words(self, line: int) -> tuple[Word, ...]:
        """The words of one line."""
        return tuple(self.words[i] for i in self.lines[line])

    @functools.cached_property
    def tokens(self) -> tuple[tuple[str, ...], ...]:
        """Each line's words as tokens (``token``), computed once."""
        return tuple(tuple(token(self.words[i].text) for i in line) for line in self.lines)

    @functools.cached_property
    def merged(self) -> tuple[tuple[str, ...], ...]:
        """Each line's tokens ``merge``d."""
        return tuple(merge(tokens) for tokens in self.tokens)

    @functools.cached_property
    def heads(self) -> tuple[dict[tuple[str, ...], tuple[int, ...]], ...]:
        """Per line: the ``merge`` of its first k tokens -> those k (where a value may start after them)."""
        return tuple(_cuts(tokens, head=True) for tokens in self.tokens)

    @functools.cached_property
    def by_head(self) -> dict[tuple[str, ...], tuple[int, ...]]:
        """The lines by every ``merge`` of their first k tokens (``heads``' keys): where a place's words may be."""
        out: dict[tuple[str, ...], list[int]] = {}
        for line, heads in enumerate(self.heads):
            for key in heads:
                out.setdefault(key, []).append(line)
        return {key: tuple(lines) for key, lines in out.items()}

    @functools.cached_property
    def tails(self) -> tuple[dict[tuple[str, ...], tuple[int, ...]], ...]:
        """Per line: the ``merge`` of its tokens from k on -> those k (where a value may end before them)."""
        return tuple(_cuts(tokens, head=False) for tokens in self.tokens)


def merge(tokens: Sequence[str]) -> tuple[str, ...]:
    """Tokens with each run of fixed words joined into one, without spaces: a text layer that splits a word where
    the font kerns it ("Br uttosumme", "Ver käufer:") still meets the word as taught."""
    out: list[str] = []
    glue = False
    for t in tokens:
        if t != ANY and glue:
            out[-1] += t
        else:
            out.append(t)
        glue = t != ANY
    return tuple(out)


def _cuts(tokens: Sequence[str], *, head: bool) -> dict[tuple[str, ...], tuple[int, ...]]:
    out: dict[tuple[str, ...], list[int]] = {}
    for k in range(len(tokens) + 1):
        key = merge(tokens[:k] if head else tokens[k:])
        out.setdefault(key, []).append(k)
    return {key: tuple(ks) for key, ks in out.items()}


def fold(text: str) -> str:
    """A word as layouts compare fixed words: NFKC, case folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def token(text: str) -> str:
    """A word as a place holds it: folded, or ``*`` when it holds a digit (it varies from document to document)."""
    folded = fold(text)
    return ANY if any(c.isdigit() for c in folded) else folded


def from_lines(index: int, lines: Sequence[Sequence[tuple[str, Box, float | None]]], *, source: str) -> PageWords:
    """A page's words from lines of ``(text, box, confidence)`` (empty words dropped, empty lines dropped)."""
    words: list[Word] = []
    groups: list[tuple[int, ...]] = []
    for line in lines:
        members = []
        for text, box, confidence in line:
            text = text.strip()
            if text:
                members.append(len(words))
                words.append(Word(text, tuple(float(v) for v in box), len(groups), confidence))  # type: ignore[arg-type]
        if members:
            groups.append(tuple(members))
    return PageWords(page=index, words=tuple(words), lines=tuple(groups), source=source)


def _page(index: int, page: Page) -> PageWords:
    if page.ocr is not None and page.ocr.lines:
        return from_lines(index, rows([_ocr_words(line) for line in page.ocr.lines]), source=OCR)
    text_lines = [[(w.text, w.box, None) for w in line.words] for line in page.lines]
    return from_lines(index, text_lines, source=TEXT_LAYER)


def rows(lines: Sequence[Sequence[tuple[str, Box, float | None]]]) -> list[list[tuple[str, Box, float | None]]]:
    """OCR's lines joined into the printed lines they are pieces of: OCR cuts a line where a wide gap is
    ("Rechnungsnummer:" ... "SO-2026-0003"), the text layer does not. Pieces side by side (not overlapping), their
    middles within half a piece's height of each other, are one line, left to right; lines top to bottom."""
    out: list[list[tuple[str, Box, float | None]]] = []
    for piece in sorted((list(line) for line in lines if line), key=lambda ws: _middle(ws)):
        for row in out:
            height = min(_height(row), _height(piece))
            spans = [(w[1][0], w[1][2]) for w in row]
            apart = all(piece[-1][1][2] <= a or piece[0][1][0] >= b for a, b in spans)
            if abs(_middle(row) - _middle(piece)) <= height / 2 and apart:
                row.extend(piece)
                row.sort(key=lambda w: w[1][0])
                break
        else:
            out.append(piece)
    return sorted(out, key=_middle)


def _middle(words: Sequence[tuple[str, Box, float | None]]) -> float:
    return (min(w[1][1] for w in words) + max(w[1][3] for w in words)) / 2


def _height(words: Sequence[tuple[str, Box, float | None]]) -> float:
    return max(w[1][3] for w in words) - min(w[1][1] for w in words)


def _ocr_words(line) -> list[tuple[str, Box, float | None]]:
    """An OCR line's words; a line OCR gave without words is cut at its spaces, each piece's box its share of the
    line's width by characters (so it still has a place)."""
    if line.words:
        return [(w.text, w.box, w.confidence) for w in line.words]
    x0, y0, x1, y1 = line.box
    width, out, at = (x1 - x0) / max(len(line.text), 1), [], 0
    for piece in line.text.split(" "):
        if piece:
            out.append((piece, (x0 + at * width, y0, x0 + (at + len(piece)) * width, y1), line.confidence))
        at += len(piece) + 1
    return out


def page_words(document: Document) -> list[PageWords]:
    """Every page's words: OCR's where the page was read by OCR, else its text layer's (module docstring)."""
    return [_page(i, page) for i, page in enumerate(document.pages)]
