"""One page as grounding reads it: lines of typed tokens, bands of lines (the printed rows), and the lookups on them.

A line's text is cut into tokens at whitespace and at the dots and bars printed between fields (``·``, ``•``,
``|``). Each token knows whether it is a whole number and which values it reads as (``number_values``): a number
is found only as a whole token, never inside a date (``19-03-2026``), an identifier (``K-10482``, ``DE89``) or a
phone number / IBAN group (runs of digit groups that cannot be one grouped number: ``040 555 0192``,
``0044 0532 0130 00``, ``(512) 555-0147``). Numbers grouped with spaces (``1 234,56``) are read joined as well.

Lines come from the page's boxes (OCR lines, or a text layer's ``textlayer.TextLine``) when it has them, else from
its text, one per text line. Bands group lines whose boxes share a vertical band (an OCR table row is several
lines, one per cell); without boxes each text line is a band of its own (a text layer prints a table row on one
line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from extractor.text import plain
from extractor.trust.grounding.cldr import cldr, date_text, dates_in, fold, number_syntax, readings

Box = tuple[float, float, float, float]

_SPLIT = re.compile(r"[\s·•|]+")  # between tokens: whitespace and the dots / bars printed between fields
_GLUED = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")  # OCR's "august3" -> "august 3"
_DIGITISH = re.compile(r"[+(]?(\d+)\)?")  # a bare digit group: "0192", "(512)", "+41"
_DASHED = re.compile(r"[+(]?\d+\)?(?:[-/]\d+)+")  # digit groups joined by dashes: "555-0147", "60-16-13"
_PUNCT = ".,:;"
_BAND_OVERLAP = 0.5  # lines share a band when their vertical overlap is this much of the lower one's height
OCR_CONFUSIONS = str.maketrans({"o": "0", "i": "1", "l": "1", "s": "5", "b": "8"})
_NOT_KEY = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Token:
    """One token of a line.

    Attributes:
        text: folded (``cldr.fold``).
        plain: as printed, case kept (``cldr.plain``).
        box: its word's box, when the line has word boxes.
        key: its letters and digits only (folded).
    """

    text: str
    plain: str
    box: Box | None
    key: str


@dataclass(frozen=True)
class Number:
    """A number printed on a line: the values it reads as, and its tokens ``[start, end)``."""

    values: frozenset[Decimal]
    start: int
    end: int


class Line:
    """One line: its tokens, box, OCR confidence, folded text, numbers and dates."""

    def __init__(
        self, tokens: tuple[Token, ...], box: Box | None, confidence: float | None, *, excluded: str, ocr: bool
    ):
        self.tokens = tokens
        self.box = box
        self.confidence = confidence
        self.text = " ".join(t.text for t in tokens)
        self.plain = " ".join(t.plain for t in tokens)
        self.numbers = number_values([t.text for t in tokens], excluded=excluded)
        self.dates = dates_in(date_text(_GLUED.sub(" ", self.text) if ocr else self.text))

    def box_of(self, start: int, end: int) -> Box | None:
        """The box of tokens ``[start, end)``: their words' boxes, else the line's."""
        tokens = self.tokens[start:end]
        boxes = [t.box for t in tokens if t.box is not None]
        if tokens and len(boxes) == len(tokens):  # every word has its box
            return joint_box(boxes)
        return self.box


@dataclass(frozen=True)
class Hit:
    """Where a value was found: tokens ``[start, end)`` of line ``line``."""

    line: int
    start: int
    end: int


class Page:
    """A page's lines and bands, prepared once for every lookup.

    Args:
        text: the page's text (used when ``lines`` is empty: one line per text line).
        lines: OCR lines or text-layer lines with boxes (each with ``text``, ``box``, ``confidence``, ``words``).
        ocr: whether it is OCR text (OCR's confusions are tolerated for identifiers, glued dates read apart).
        excluded: decimal marks the document does not use (``decimal_marks``).
    """

    def __init__(self, text: str, *, lines: Sequence = (), ocr: bool = False, excluded: str = ""):
        self.ocr = ocr
        self.lines = (
            [_line(item, ocr=ocr, excluded=excluded) for item in lines]
            if lines
            else [
                Line(_tokens(t, None), None, None, excluded=excluded, ocr=ocr) for t in text.splitlines() if t.strip()
            ]
        )
        self.folded = " ".join(line.text for line in self.lines)
        self.plain = " ".join(line.plain for line in self.lines)
        self.compact, self.starts, self.ends = compact(self.folded)
        self.confused = self.compact.translate(OCR_CONFUSIONS) if ocr else ""
        self.bands = _bands(self.lines)
        self._band_keys: list[tuple[list[tuple[int, int]], list[str], str]] | None = None
        self._all_band_keys: str | None = None
        self.numbers: dict[Decimal, list[Hit]] = {}
        for i, line in enumerate(self.lines):
            for number in line.numbers:
                for value in number.values:
                    self.numbers.setdefault(value, []).append(Hit(i, number.start, number.end))

    def band_keys(self, band: int) -> tuple[list[tuple[int, int]], list[str], str]:
        """A band's tokens as ``(line, token)`` places, their keys (``keys``) and the keys joined (built once)."""
        if self._band_keys is None:
            self._band_keys = []
            for lines in self.bands:
                places = [(line, t) for line in lines for t in range(len(self.lines[line].tokens))]
                keys = [key for line in lines for key in self.keys(line)]
                self._band_keys.append((places, keys, "".join(keys)))
        return self._band_keys[band]

    def all_band_keys(self) -> str:
        """Every band's joined keys (``band_keys``), bands apart (a NUL between them: no key holds one)."""
        if self._all_band_keys is None:
            self._all_band_keys = "\0".join(self.band_keys(b)[2] for b in range(len(self.bands)))
        return self._all_band_keys

    def keys(self, line: int, indexes: Sequence[int] | None = None) -> list[str]:
        """A line's token keys (of some tokens), with OCR's confusions folded on OCR text."""
        tokens = self.lines[line].tokens
        chosen = tokens if indexes is None else [tokens[i] for i in indexes]
        return [t.key.translate(OCR_CONFUSIONS) if self.ocr else t.key for t in chosen]

    def needle(self, text: str) -> str:
        """A text's key as ``keys`` compares it on this page."""
        return key_of(text).translate(OCR_CONFUSIONS) if self.ocr else key_of(text)

    def box_of(self, hits: Sequence[Hit]) -> Box | None:
        """The joint box of some hits (None when the page has no boxes)."""
        boxes = [b for b in (self.lines[h.line].box_of(h.start, h.end) for h in hits) if b is not None]
        return joint_box(boxes) if boxes else None

    def confidence_of(self, hits: Sequence[Hit]) -> float | None:
        """The lowest OCR confidence of the hits' lines (None on a text layer)."""
        found = [c for c in (self.lines[h.line].confidence for h in hits) if c is not None]
        return min(found) if found else None

    def locate(self, found: Callable[[Sequence[Token]], bool]) -> list[Hit]:
        """The fewest consecutive tokens of one line, or of two lines in a row, that ``found`` accepts."""
        for i, line in enumerate(self.lines):
            if found(line.tokens):
                return [_narrow(i, line, found)]
        for i in range(len(self.lines) - 1):
            a, b = self.lines[i].tokens, self.lines[i + 1].tokens
            if found(a + b):
                for size in range(2, len(a) + len(b) + 1):  # the shortest tail of a with a head of b
                    for cut in range(max(1, size - len(b)), min(len(a), size - 1) + 1):
                        if found(a[len(a) - cut :] + b[: size - cut]):
                            return [Hit(i, len(a) - cut, len(a)), Hit(i + 1, 0, size - cut)]
                return [Hit(i, 0, len(a)), Hit(i + 1, 0, len(b))]
        return []


def number_values(texts: Sequence[str], *, excluded: str = "") -> list[Number]:
    """The numbers printed in a line's tokens (folded), each with the values it reads as.

    A token is a number when it is one whole: digits and separators read wholly by some convention (``1.156,00``,
    ``6'800.00``), with at most signs (``€``, ``-``, ``(``, ``%``) or a currency code / sign around it (``EUR1.156,00``,
    ``1,561,450円``). Runs of digit groups that cannot be one number are identifiers (phone numbers, IBAN groups):
    none of their tokens is a number. Tokens grouped with spaces are read joined too (``1 234,56``).

    Args:
        texts: the line's tokens, folded.
        excluded: decimal marks the document does not use (``decimal_marks``).

    Returns:
        The numbers, in line order (joined readings after the single tokens).
    """
    cores = [number_core(t) for t in texts]
    blocked = _identifier_runs(texts)
    out = [
        Number(readings(core, excluded), i, i + 1)
        for i, core in enumerate(cores)
        if core is not None and i not in blocked and readings(core, excluded)
    ]
    for i, core in enumerate(cores):
        if i in blocked or core is None or not re.fullmatch(r"[1-9]\d{0,2}", core) or _suffix(texts[i], core):
            continue
        joined = core
        for j in range(i + 1, len(texts)):
            nxt = cores[j]
            if j in blocked or nxt is None or not re.match(r"\d{3}(?!\d)", nxt) or _prefix(texts[j], nxt):
                break
            joined += " " + nxt
            values = readings(joined, excluded)
            if not values:
                break
            out.append(Number(values, i, j + 1))
            if not nxt.isdecimal() or _suffix(texts[j], nxt):
                break
    return out


def number_core(text: str) -> str | None:
    """The digits and separators of a token that is one whole number, without the signs around them; None when the
    token is no number (a date, an identifier, a word).

    Args:
        text: one folded token.

    Returns:
        The number as printed (``1.156,00``), or None.
    """
    syntax = number_syntax()
    match = syntax.run.search(text)
    if match is None:
        return None
    core = match.group().rstrip(syntax.edges)  # "19,00." and "50,": the separator after it is punctuation
    rest = text[match.start() + len(core) :]
    if not _affix_ok(text[: match.start()]) or not _affix_ok(rest):
        return None
    return core


def decimal_marks(texts: Sequence[str]) -> str:
    """The decimal mark a document does not use, as ``readings`` excludes it: ``,`` when its amounts are written
    ``1,234.56`` (so ``2,500`` is 2500, not 2.5), ``.`` when written ``1.234,56``, ``""`` when it cannot be told.

    Args:
        texts: the document's folded lines.

    Returns:
        ``","``, ``"."`` or ``""``.
    """
    counts = {".": 0, ",": 0}
    for text in texts:
        for token in _SPLIT.split(text):
            core = number_core(token)
            match = core and re.search(r"\d([.,])\d{2}$", core)
            if match:
                counts[match.group(1)] += 1
    dots, commas = counts["."], counts[","]
    if dots >= 2 and dots >= 3 * commas:
        return ","
    if commas >= 2 and commas >= 3 * dots:
        return "."
    return ""


def joint_box(boxes: Sequence[Box]) -> Box:
    """The box around some boxes."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def word_in(needle: str, hay: str) -> bool:
    """Whether ``needle`` is in ``hay`` not glued to other letters / digits (signs like € may touch a number)."""
    if not needle or needle not in hay:  # the plain test first: most values are not on most pages
        return False
    start = r"(?<!\w)" if needle[0].isalnum() else ""
    end = r"(?!\w)" if needle[-1].isalnum() else ""
    return re.search(start + re.escape(needle) + end, hay) is not None


def compact_in(needle: str, hay: str, starts: set[int], ends: set[int]) -> bool:
    """Whether a compact string (letters and digits only) is in a compact text (``compact``) from the start of a
    word (or a part of one between punctuation) to the end of one: ``DE89370400...`` in ``DE89 3704 0044 ...``,
    not ``20457`` inside ``204571``."""
    start = hay.find(needle)
    while start >= 0:
        if start in starts and start + len(needle) in ends:
            return True
        start = hay.find(needle, start + 1)
    return False


def key_spans(keys: Sequence[str], needle: str) -> list[tuple[int, int]]:
    """The runs ``[start, end)`` of tokens whose keys (letters and digits: ``Token.key``) spell ``needle`` exactly."""
    out = []
    for start in range(len(keys)):
        if not keys[start]:
            continue
        joined = ""
        for end in range(start, len(keys)):
            joined += keys[end]
            if joined == needle:
                out.append((start, end + 1))
                break
            if not needle.startswith(joined):
                break
    return out


def key_of(text: str) -> str:
    """A text's letters and digits only, folded: what ``key_spans`` compares."""
    return _NOT_KEY.sub("", fold(text))


# -- internals -------------------------------------------------------------------------------------------------------


def pieces(text: str, words: Sequence | None = None) -> list[tuple[str, str, Box | None]]:
    """A line's tokens as printed: ``(piece, folded, box)``, cut as ``Page`` cuts them (one per token, in order);
    with word boxes, each takes the box of the word it is cut from."""
    if words:
        cut = [(piece, word.box) for word in words for piece in _SPLIT.split(word.text) if piece]
    else:
        cut = [(piece, None) for piece in _SPLIT.split(text) if piece]
    out = []
    for piece, box in cut:
        folded = fold(piece)
        if folded:
            out.append((piece, folded, tuple(box) if box is not None else None))
    return out


def _tokens(text: str, words: Sequence | None) -> tuple[Token, ...]:
    """Tokens of a line's text; with word boxes, each token takes the box of the word it is cut from."""
    cut = pieces(text, words)
    return tuple(Token(folded, plain(piece), box, _NOT_KEY.sub("", folded)) for piece, folded, box in cut)


def _line(item, *, ocr: bool, excluded: str) -> Line:
    words = tuple(getattr(item, "words", ()) or ())
    box = getattr(item, "box", None)
    return Line(
        _tokens(item.text, words),
        tuple(box) if box is not None else None,
        getattr(item, "confidence", None),
        excluded=excluded,
        ocr=ocr,
    )


def _narrow(index: int, line: Line, found: Callable[[Sequence[Token]], bool]) -> Hit:
    """The fewest consecutive tokens of a line that ``found`` accepts (the whole line when none do alone)."""
    n = len(line.tokens)
    for size in range(1, n + 1):
        for start in range(n - size + 1):
            if found(line.tokens[start : start + size]):
                return Hit(index, start, start + size)
    return Hit(index, 0, n)


def compact(folded: str) -> tuple[str, set[int], set[int]]:
    """The text's letters and digits only, with the offsets where a word (or a part of one between punctuation)
    starts and ends."""
    out, starts, ends, size = [], set(), set(), 0
    for part in _NOT_KEY.split(folded):
        if part:
            starts.add(size)
            out.append(part)
            size += len(part)
            ends.add(size)
    return "".join(out), starts, ends


def _affix_ok(text: str) -> bool:
    """Whether what is glued to a number leaves it a number: signs and punctuation, a currency code or sign."""
    if any(c.isdigit() for c in text):
        return False
    letters = _NOT_KEY.sub("", text)
    return not letters or letters in _currency_letters() or letters == "x"


def _prefix(text: str, core: str) -> str:
    return text[: text.find(core)]


def _suffix(text: str, core: str) -> str:
    return text[text.find(core) + len(core) :]


@lru_cache(maxsize=1)
def _currency_letters() -> frozenset[str]:
    """Currency codes and the letters of short currency signs (``fr.``, ``rs``, ``kr``, ``円``), folded."""
    out = {code.casefold() for code in cldr().currencies}
    for names in cldr().currencies.values():  # one letter (R, K, T) would make "A4" or "T4271..." a number
        out |= {k for k in (_NOT_KEY.sub("", fold(n)) for n in names if len(n) <= 4) if len(k) >= 2 and not k.isdigit()}
    return frozenset(out | {"fr", "sfr", "zl", "円"})


def _identifier_runs(texts: Sequence[str]) -> set[int]:
    """Indexes of tokens in runs of digit groups that cannot be one number: phone numbers, IBAN and account groups.

    A run is two or more tokens in a row that are digits (``0192``, ``(512)``, ``+41``) or digits joined by dashes
    (``555-0147``); it is an identifier unless it is one number grouped with spaces (``1 561 450``), when it has a
    dashed group, a group starting with 0 or three groups or more. Two plain groups (``2026 12``, ``50 3``: table
    cells) stay numbers.
    """
    kinds: list[str | None] = []
    for text in texts:
        bare = text.strip(_PUNCT)
        match = _DIGITISH.fullmatch(bare)
        kinds.append(match.group(1) if match else "-" if _DASHED.fullmatch(bare) else None)
    blocked: set[int] = set()
    i = 0
    while i < len(kinds):
        j = i
        while j < len(kinds) and kinds[j] is not None:
            j += 1
        run = [k for k in kinds[i:j] if k is not None]  # all of them: the run ends at the first None
        if (
            len(run) >= 2
            and not _grouped(run)
            and ("-" in run or any(len(g) > 1 and g.startswith("0") for g in run) or len(run) >= 3)
        ):
            blocked.update(range(i, j))
        i = j + 1
    return blocked


def _grouped(groups: Sequence[str]) -> bool:
    """Whether digit groups are one number grouped by thousands: ``1 561 450``."""
    return (
        groups[0] != "-"
        and re.fullmatch(r"[1-9]\d{0,2}", groups[0]) is not None
        and all(len(g) == 3 and g.isdigit() for g in groups[1:])
    )


def _bands(lines: Sequence[Line]) -> list[list[int]]:
    """Lines grouped into printed rows, in reading order, each row's lines in its order; one row per line when the
    lines have no boxes. On a page lying on its side (most lines taller than wide: a photo turned 90°) rows run
    across the image, so they are grouped by their horizontal extent."""
    boxes = [line.box for line in lines if line.box is not None]
    if not lines or len(boxes) < len(lines):  # a line without its box
        return [[i] for i in range(len(lines))]
    long = [boxes[i] for i, line in enumerate(lines) if len(line.text) >= 4]
    turned = sum(1 for b in long if b[3] - b[1] > b[2] - b[0]) > len(long) / 2
    lo, hi, along = (0, 2, 1) if turned else (1, 3, 0)
    order = sorted(range(len(lines)), key=lambda i: (boxes[i][lo] + boxes[i][hi]) / 2)
    bands: list[tuple[tuple[float, float], list[int]]] = []
    for i in order:
        top, bottom = boxes[i][lo], boxes[i][hi]
        for (ref_top, ref_bottom), members in reversed(bands[-4:]):
            overlap = min(bottom, ref_bottom) - max(top, ref_top)
            if overlap >= _BAND_OVERLAP * max(1e-9, min(bottom - top, ref_bottom - ref_top)):
                members.append(i)
                break
        else:
            bands.append(((top, bottom), [i]))
    return [sorted(members, key=lambda i: boxes[i][along]) for _, members in bands]
