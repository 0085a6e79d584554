"""Grounding: is each extracted value printed on the document's pages?

Each page is searched in one text (``PageText``): its text layer, or its OCR text where the page has no usable
text layer (``ocr.page_text`` decides; ``source`` says which, ``none`` when a page has neither). Every scalar in the
data (``leaves.leaves``: JSON pointers; nulls, booleans and empty strings skipped) is looked up
in the page texts after normalising both sides:

* text: Unicode NFKD with accents dropped, casefolded, whitespace collapsed; a string is found as a whole word
  sequence, or, when it has 5+ letters / digits, with every non-alphanumeric character ignored on both sides (so
  ``DE89 3704 0044 ...`` grounds ``DE89370400...`` and ``CHE-271.828.189 MWST`` grounds ``CHE271828189MWST``);
* numbers: every number printed on the page is read under each decimal / grouping convention of the CLDR locales
  Babel ships (``1.234,56``, ``1,234.56``, ``1 234,56`` with any kind of space, ``1'234.56``, Indian
  ``1,23,456.78``; with or without decimals, currency signs and minus signs ignored) and the value is compared as a
  ``Decimal``, so 19 grounds ``19,00 %`` and 1156 grounds ``1.156,00 €``;
* dates (``YYYY-MM-DD`` values): ISO, ``31.01.2026``, ``31/01/2026``, ``01/31/2026``, two-digit years, and month names
  (wide and abbreviated, format and stand-alone) of every CLDR locale: ``31 January 2026``, ``Jan 31, 2026``,
  ``31. Jänner 2026``, ``1er mars``, ``31 de enero de 2026`` (the words between day, month and year come from
  CLDR's date patterns), ``31 stycznia 2026``, ``2026. január 31.``;
* country codes also match the country's name in any CLDR locale (and pycountry's official names); currency codes
  also match the currency's symbols and names in any CLDR locale.

On OCR text, the confusions OCR really makes are tolerated for identifiers (strings with a digit and 5+ letters /
digits, compared with punctuation and spaces ignored): ``O``/``o`` = ``0``, ``I``/``l``/``i`` = ``1``, ``S`` = ``5``,
``B`` = ``8`` on both sides, so ``DEB9 37O4`` grounds ``DE89370400...``; no two digits are ever confused, and
numbers (amounts) are matched exactly as on a text layer. Dates whose parts OCR glued together (``August3,2014``) are
read with the parts apart.

Where a value is found on a page whose ``PageText`` has lines with boxes (OCR's, or a text layer's character boxes:
``rasterize.text_lines``), the line (or two adjacent lines) holding it gives the box, narrowed to the fewest
consecutive words that still hold it, and OCR's recognizer confidence (``FieldGrounding.box`` / ``confidence``);
pages without lines give the page only.

The CLDR tables are read once per process from Babel's locale files (about half a second; see ``_cldr``).

Short values are weak evidence (a quantity of 1 is printed on almost every page), so each field counts in the
ratio with a weight of ``min(1, significant characters / 4)``: ``1`` weighs 0.25, ``19`` 0.5, an IBAN 1.

``grounded`` is True (found), False (not found), or None when it cannot be told: no page has a usable text, or the
value was not found and some page has none (it may be printed on that page).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Iterator, Optional, Sequence, Union

from .leaves import leaves
from .record import issue

KEY_FIELDS = ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/buyer/vat_id")
RECEIPT_KEY_FIELDS = ("/total", "/merchant/vat_id")
MIN_COMPACT = 5  # strings this long (letters + digits) may also match with punctuation and spaces ignored

# Printed on invoices but not in CLDR, which has "CHF" but not "Fr.", "¥" but not "円", "HK$" but not "$".
_EXTRA_CURRENCY_SIGNS = {"CHF": ("fr.", "sfr"), "JPY": ("円",), "PLN": ("zl",), "HKD": ("$",)}
_EXTRA_MONTHS = {"mrz": 3}  # German "Mrz" (März): common, not in CLDR
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
SOURCES = ("text_layer", "ocr", "none")
# What OCR mistakes for what (casefolded): letters that look like digits in identifiers, mapped on both sides.
_OCR_CONFUSIONS = str.maketrans({"o": "0", "i": "1", "l": "1", "s": "5", "b": "8"})
_GLUED = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")  # "august3" -> "august 3"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PageText:
    """The text grounding searches on one page, and where it came from.

    Attributes:
        text: the page's text (None when it has none usable).
        source: ``text_layer``, ``ocr`` or ``none``.
        lines: its lines with boxes, to say where a value is: OCR's (``ocr.OcrLine``) or the text layer's
            (``rasterize.TextLine``, confidence None); each has ``text``, ``box``, ``confidence`` and ``words``.
        confidence: for OCR text, the recognizer's mean confidence.
    """

    text: Optional[str]
    source: str = "text_layer"
    lines: tuple = ()
    confidence: Optional[float] = None

    @property
    def usable(self) -> bool:
        """Whether there is text to search."""
        return self.source != "none" and bool(self.text and self.text.strip())


@dataclass(frozen=True)
class FieldGrounding:
    """Where one extracted value was found.

    Attributes:
        path: JSON pointer of the value.
        value: the value as extracted.
        grounded: True / False, or None when it cannot be told.
        page: 0-based index into the page texts where it was first found.
        weight: its weight in the ratio (0.25 .. 1).
        source: the text it was found in (``text_layer`` or ``ocr``).
        box: where the page text has lines with boxes, the box of the words it was found in (0..1 of the page
            image), when one line (or two adjacent ones) holds it.
        confidence: on OCR text, the lowest recognizer confidence of those lines.
    """

    path: str
    value: Any
    grounded: Optional[bool]
    page: Optional[int]
    weight: float
    source: Optional[str] = None
    box: Optional[Box] = None
    confidence: Optional[float] = None

    def where(self) -> dict:
        """Where it was found, for the record: page (1-based), source, box and confidence."""
        return {"page": None if self.page is None else self.page + 1, "source": self.source,
                "box": None if self.box is None else list(self.box), "confidence": self.confidence}


@dataclass(frozen=True)
class GroundingReport:
    """Grounding of every scalar of one record.

    Attributes:
        fields: one entry per non-null scalar, in document order.
        text_layer: whether any page was searched in its text layer.
        warnings: ``ungrounded`` warnings for key fields not found in the text.
        sources: per page, the text searched: ``text_layer``, ``ocr`` or ``none``.
        confidences: per page, the OCR confidence of the text searched (None unless it is OCR text).
    """

    fields: tuple[FieldGrounding, ...]
    text_layer: bool
    warnings: tuple[dict, ...] = ()
    sources: tuple[str, ...] = ()
    confidences: tuple[Optional[float], ...] = ()

    @property
    def ratio(self) -> Optional[float]:
        """Weighted share of the checked fields found in the text (None when nothing could be checked)."""
        checked = [f for f in self.fields if f.grounded is not None]
        total = sum(f.weight for f in checked)
        if not checked or total == 0:
            return None
        return sum(f.weight for f in checked if f.grounded) / total

    @property
    def ungrounded(self) -> tuple[str, ...]:
        """Paths of the fields not found in the text."""
        return tuple(f.path for f in self.fields if f.grounded is False)

    def to_dict(self) -> dict:
        """Return the report for the record: the text searched per page, ratio, counts, per-field verdicts, the
        ungrounded paths and where each grounded value was found."""
        ratio = self.ratio
        return {
            "text_layer": self.text_layer,
            "source": list(self.sources),
            "ocr_confidence": [None if c is None else round(c, 4) for c in self.confidences],
            "ratio": None if ratio is None else round(ratio, 4),
            "grounded": sum(1 for f in self.fields if f.grounded is True),
            "checked": sum(1 for f in self.fields if f.grounded is not None),
            "fields": {f.path: f.grounded for f in self.fields},
            "ungrounded": list(self.ungrounded),
            "where": {f.path: f.where() for f in self.fields if f.grounded},
        }


def key_fields_for(schema_name: str) -> tuple[str, ...]:
    """Return the key fields whose grounding decides ``review`` for a schema.

    Args:
        schema_name: ``invoice``, ``receipt`` or a custom schema's name.

    Returns:
        The JSON pointers (none for custom schemas).
    """
    return {"invoice": KEY_FIELDS, "receipt": RECEIPT_KEY_FIELDS}.get(schema_name, ())


def ground(data: Any, page_texts: Sequence[Union[PageText, str, None]], *, key_fields: Sequence[str] = KEY_FIELDS
           ) -> GroundingReport:
    """Look for every extracted scalar in the page texts.

    Args:
        data: the extracted data (any JSON value).
        page_texts: per page, a ``PageText`` (text layer or OCR text), or the text layer itself (``Page.text``: a
            string, or None / blank when the page has none).
        key_fields: JSON pointers whose absence from the text is a warning (``KEY_FIELDS`` for invoices).

    Returns:
        The GroundingReport; its ``warnings`` hold one ``ungrounded`` warning per key field not found.
    """
    pages = [_page(t) for t in page_texts]
    prepared = [_PageText(p.text, ocr=p.source == "ocr", lines=p.lines) if p.usable else None for p in pages]
    searchable = any(p is not None for p in prepared)
    some_missing = any(p is None for p in prepared)
    fields = []
    for pointer, value, parts in leaves(data, booleans=False):
        weight = _weight(value)
        if not searchable:
            fields.append(FieldGrounding(pointer, value, None, None, weight))
            continue
        key = str(parts[-1]) if parts else ""
        found = next((i for i, page in enumerate(prepared) if page is not None and _found(value, key, page)), None)
        if found is None:
            fields.append(FieldGrounding(pointer, value, None if some_missing else False, None, weight))
            continue
        box, confidence = _locate(value, key, prepared[found])
        fields.append(FieldGrounding(pointer, value, True, found, weight, pages[found].source, box, confidence))
    keys = set(key_fields)
    warnings = tuple(issue("ungrounded", f"{f.path} = {f.value!r} is not found in the document's text (its text "
                                         "layer, or OCR text where a page has none)", f.path)
                     for f in fields if f.grounded is False and f.path in keys)
    return GroundingReport(fields=tuple(fields), text_layer=any(p.usable and p.source == "text_layer" for p in pages),
                           warnings=warnings, sources=tuple(p.source if p.usable else "none" for p in pages),
                           confidences=tuple(p.confidence if p.usable and p.source == "ocr" else None
                                             for p in pages))


def _page(text: Union[PageText, str, None]) -> PageText:
    """A page's text as a PageText (a bare string is a text layer)."""
    if isinstance(text, PageText):
        return text
    return PageText(text=text, source="text_layer" if isinstance(text, str) and text.strip() else "none")


def _locate(value: Any, key: str, page: "_PageText") -> tuple[Optional[Box], Optional[float]]:
    """The box and confidence of the line (or two adjacent lines) holding a value found on the page, narrowed to
    the fewest consecutive words that still hold it when the lines have word boxes."""
    for group in page.line_groups():
        if _found(value, key, group.text):
            return group.narrow(value, key) or group.box, group.confidence
    return None, None


def fold(text: str) -> str:
    """Normalise text for matching: NFKD without accents, casefolded, typographic quotes and dashes made plain,
    whitespace collapsed to single spaces.

    Args:
        text: any text.

    Returns:
        The folded text.
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = text.translate(_PLAIN)
    return " ".join(text.split())


def numbers_in(text: str) -> set[Decimal]:
    """Return the absolute values of every number in a text, under every plausible reading of its separators.

    ``1.234`` gives both 1234 and 1.234; ``1.234,56``, ``1,234.56``, ``1 234,56``, ``1'234.56`` and
    ``1,23,456.78`` give what they say; ``31.01.2026`` (no convention's number) gives its parts 31, 1 and 2026.

    Args:
        text: folded text (see ``fold``).

    Returns:
        The set of Decimals.
    """
    syntax = _number_syntax()
    out: set[Decimal] = set()
    for run in syntax.run.finditer(text):
        pieces = [p.strip(syntax.edges) for p in run.group().split(" ")]
        pieces = [p for p in pieces if p]
        for i, piece in enumerate(pieces):
            out |= _readings(piece) or {Decimal(part) for part in re.findall(r"\d+", piece)}
            # space as thousands separator: "1 234 567,89"; a leading group never starts with 0 (040 555 is a phone)
            if re.fullmatch(r"[1-9]\d{0,2}", piece):
                joined = piece
                for nxt in pieces[i + 1:]:
                    joined += " " + nxt
                    more = _readings(joined)
                    out |= more
                    if not more or not nxt.isdecimal():
                        break
    return out


# -- internals -------------------------------------------------------------------------------------------------------

_PLAIN = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'", "–": "-", "—": "-", "‑": "-", "−": "-",
                        "“": '"', "”": '"', "„": '"', "«": '"', "»": '"'})
_WORD = re.compile(r"\w+")
_WORD_RUN = re.compile(r"\w+(?: \w+)*")  # words separated by single spaces
_NUMERIC_DATE = re.compile(r"(?<!\w)(?=([0-9]{1,4}) ([0-9]{1,2}) ([0-9]{2,4})(?!\w))")
_ORDINAL = re.compile(r"(\d)(st|nd|rd|th|er)\b")
# 年月日 (Chinese, Japanese) and 년월일 (Korean, which fold decomposes into letters) glue to the numbers they follow
_HANGUL_DATE = unicodedata.normalize("NFKD", "년월일")
_DATE_SEPARATORS = re.compile(r"[\s.,/\-'年月日" + _HANGUL_DATE + "]+")


class _PageText:
    """One page's text, prepared once for every lookup (OCR text also with OCR's confusions folded)."""

    def __init__(self, text: str, *, ocr: bool = False, lines: tuple = ()):
        self.ocr = ocr
        self.lines = lines
        self.folded = fold(text)
        self.compact = re.sub(r"[\W_]+", "", self.folded)
        self.confused = self.compact.translate(_OCR_CONFUSIONS) if ocr else ""
        self.numbers = numbers_in(self.folded)
        self.dates = _dates_in(_date_text(_GLUED.sub(" ", self.folded) if ocr else self.folded))
        self._groups: Optional[list[_LineGroup]] = None

    def line_groups(self) -> list["_LineGroup"]:
        """Each OCR line, then each pair of adjacent lines, prepared for lookups (built on first use)."""
        if self._groups is None:
            singles = [(line,) for line in self.lines]
            pairs = [(a, b) for a, b in zip(self.lines, self.lines[1:])]
            self._groups = [_LineGroup(group, ocr=self.ocr) for group in singles + pairs]
        return self._groups


class _LineGroup:
    """One or two lines (OCR's, or a text layer's with character boxes): their text prepared for lookups, their
    joint box and lowest confidence (None on a text layer)."""

    def __init__(self, lines: tuple, *, ocr: bool = True):
        self.ocr = ocr
        self.text = _PageText(" ".join(line.text for line in lines), ocr=ocr)
        self.box = _joint_box(lines)
        confidences = [line.confidence for line in lines if line.confidence is not None]
        self.confidence = min(confidences) if confidences else None
        self.words = tuple(word for line in lines for word in getattr(line, "words", ()))

    def narrow(self, value: Any, key: str) -> Optional[Box]:
        """The joint box of the fewest consecutive words that hold the value (None without word boxes)."""
        for size in range(1, len(self.words) + 1):
            for start in range(len(self.words) - size + 1):
                window = self.words[start:start + size]
                if _found(value, key, _PageText(" ".join(w.text for w in window), ocr=self.ocr)):
                    return _joint_box(window)
        return None


def _joint_box(items: Sequence) -> Box:
    """The box around the boxes of some lines or words."""
    return (min(i.box[0] for i in items), min(i.box[1] for i in items),
            max(i.box[2] for i in items), max(i.box[3] for i in items))


def _weight(value: Any) -> float:
    if isinstance(value, (int, float)):
        sig = str(abs(_decimal(value) or 0)).replace(".", "").lstrip("0") or "0"
        n = len(sig)
    else:
        n = len(re.sub(r"[\W_]+", "", fold(str(value)))) or 1
    return min(1.0, n / 4)


def _decimal(value: Any) -> Optional[Decimal]:
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    return d.normalize() if d.is_finite() else None


def _found(value: Any, key: str, page: _PageText) -> bool:
    if isinstance(value, (int, float)):
        d = _decimal(value)
        return d is not None and abs(d) in page.numbers
    text = str(value)
    if _string_found(text, page):
        return True
    if _ISO_DATE.match(text.strip()) and _date_found(text.strip(), page):
        return True
    if key == "country" and len(text) == 2:
        return _any_word_in(_country_names(text.upper()), page.folded)
    if key == "currency" and len(text) == 3:
        return _any_word_in(_currency_words(text.upper()), page.folded)
    return False


def _string_found(text: str, page: _PageText) -> bool:
    folded = fold(text)
    if _word_in(folded, page.folded):
        return True
    compact = re.sub(r"[\W_]+", "", folded)
    if len(compact) < MIN_COMPACT:
        return False
    if compact in page.compact:
        return True
    # an identifier on OCR text: letters OCR reads for digits (and back) count as the same on both sides
    return page.ocr and any(c.isdigit() for c in compact) and compact.translate(_OCR_CONFUSIONS) in page.confused


def _word_in(needle: str, hay: str) -> bool:
    """Whether ``needle`` is in ``hay`` not glued to other letters / digits (signs like € may touch a number)."""
    if not needle or needle not in hay:  # the plain test first: most values are not on most pages
        return False
    start = r"(?<!\w)" if needle[0].isalnum() else ""
    end = r"(?!\w)" if needle[-1].isalnum() else ""
    return re.search(start + re.escape(needle) + end, hay) is not None


def _any_word_in(needles: Sequence[str], hay: str) -> bool:
    return any(_word_in(needle, hay) for needle in needles)


# -- numbers ---------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Convention:
    """How one locale writes numbers: its decimal and group symbols (folded) and grouping sizes."""

    decimal: str
    group: str
    primary: int
    secondary: int

    def pattern(self) -> re.Pattern:
        """A whole number under this convention: grouped (the leading group not starting with 0) or not."""
        d, g, p, s = re.escape(self.decimal), re.escape(self.group), self.primary, self.secondary
        grouped = rf"(?!0)\d{{1,{s}}}(?:{g}\d{{{s}}})*{g}\d{{{p}}}"
        return re.compile(rf"(?:{grouped}|\d+)(?:{d}\d+)?")


@dataclass(frozen=True)
class _NumberSyntax:
    """Everything needed to find and read numbers, built once from the CLDR conventions."""

    run: re.Pattern  # a digit, then digits and separators
    edges: str  # separators stripped from a piece's ends ("19,00." -> "19,00")
    readers: tuple[tuple[frozenset, str, str, re.Pattern], ...]  # (symbols, group, decimal, pattern)


@lru_cache(maxsize=1)
def _number_syntax() -> _NumberSyntax:
    conventions = _cldr().conventions
    symbols = {c.decimal for c in conventions} | {c.group for c in conventions}
    run = re.compile(r"\d[\d" + re.escape("".join(sorted(symbols))) + r"]*")
    readers = tuple((frozenset((c.decimal, c.group)), c.group, c.decimal, c.pattern()) for c in conventions)
    return _NumberSyntax(run=run, edges="".join(sorted(symbols - {" "})), readers=readers)


@lru_cache(maxsize=65536)
def _readings(piece: str) -> frozenset[Decimal]:
    """Every value of one number under the conventions whose symbols it uses; empty when none reads it whole."""
    seps = {c for c in piece if not c.isdecimal()}
    if not seps:
        return frozenset({Decimal(piece)})
    return frozenset(Decimal(piece.replace(group, "").replace(decimal, "."))
                     for symbols, group, decimal, pattern in _number_syntax().readers
                     if seps <= symbols and pattern.fullmatch(piece))


# -- dates -----------------------------------------------------------------------------------------------------------

def _date_text(folded: str) -> str:
    """Dates' separators as single spaces and ordinals as plain numbers: ``1er mars, 2026`` -> ``1 mars 2026``."""
    return " ".join(_DATE_SEPARATORS.sub(" ", _ORDINAL.sub(r"\1", folded)).split())


def _date_found(value: str, page: _PageText) -> bool:
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        return False
    return ((day.year, day.month, day.day, False) in page.dates
            or (day.year % 100, day.month, day.day, True) in page.dates)


def _dates_in(text: str) -> frozenset[tuple[int, int, int, bool]]:
    """Every date written in a text prepared by ``_date_text``, as ``(year, month, day, two-digit year)``.

    Numbers: ``Y M D``, ``D M Y``, ``M D Y``, ``D M YY``, ``M D YY``; month names: ``D name Y``, ``name D Y``,
    ``D name YY``, ``Y name D``, with at most one CLDR date-pattern word (``de``, ``m``) between the parts. The
    parts are words separated by single spaces (``31 01 2026`` in ``datum:31 01 2026``).
    """
    words = _cldr().dates
    out = {key for m in _NUMERIC_DATE.finditer(text) for key in _numeric_dates(*m.groups())}
    for run in _WORD_RUN.finditer(text.translate(words.marks)):
        chain = run.group().split(" ")
        if len(chain) < 3:
            continue
        for i, token in enumerate(chain):
            for end in range(i + 1, min(i + words.starts.get(token, 0), len(chain)) + 1):
                months = words.months.get(" ".join(chain[i:end]))
                if months:
                    out.update((y, m, d, short) for y, d, short in _named_dates(chain, i, end, words.connectors)
                               for m in months)
    return frozenset(out)


def _numeric_dates(a: str, b: str, c: str) -> list[tuple[int, int, int, bool]]:
    out = []
    if len(a) == 4 and len(c) <= 2:
        out.append((int(a), int(b), int(c), False))
    if len(a) <= 2 and len(c) in (2, 4):
        out += [(int(c), int(b), int(a), len(c) == 2), (int(c), int(a), int(b), len(c) == 2)]
    return out


def _named_dates(chain: list[str], start: int, end: int, connectors: frozenset) -> list[tuple[int, int, bool]]:
    """``(year, day, two-digit year)`` around a month name at ``chain[start:end]``."""
    def step(i: int, by: int) -> int:  # the next part's index, past one date-pattern word
        j = i + by
        return j + by if 0 <= j < len(chain) and chain[j] in connectors else j

    def word(i: int) -> str:
        return chain[i] if 0 <= i < len(chain) else ""

    left, right = step(start, -1), step(end - 1, 1)
    before, after, later = word(left), word(right), word(step(right, 1))
    out = []
    if _is_day(before) and _is_year(after, 2, 4):
        out.append((int(after), int(before), len(after) == 2))  # 31 January 2026, 31 de enero de 2026
    if _is_day(after) and _is_year(later, 4):
        out.append((int(later), int(after), False))  # January 31 2026
    if _is_year(before, 4) and _is_day(after):
        out.append((int(before), int(after), False))  # 2026 januar 31
    return out


def _is_day(token: str) -> bool:
    return token.isascii() and token.isdigit() and len(token) <= 2


def _is_year(token: str, *lengths: int) -> bool:
    return token.isascii() and token.isdigit() and len(token) in lengths


# -- names -----------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _country_names(code: str) -> tuple[str, ...]:
    """Folded names of a country: CLDR's in every locale, pycountry's (with official names) in en / de / fr / nl."""
    import gettext

    import pycountry

    names = set(_cldr().territories.get(code, ()))
    country = pycountry.countries.get(alpha_2=code)
    if country is not None:
        own = {country.name, country.alpha_3}
        for attr in ("official_name", "common_name"):
            if getattr(country, attr, None):
                own.add(getattr(country, attr))
        for lang in ("de", "fr", "nl"):
            try:
                tr = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang])
            except OSError:
                continue
            own |= {tr.gettext(n) for n in list(own)}
        names |= own
    return _folded(names)


@lru_cache(maxsize=512)
def _currency_words(code: str) -> tuple[str, ...]:
    """Folded signs and names of a currency: CLDR's in every locale, pycountry's name, and signs CLDR lacks."""
    import pycountry

    words = set(_cldr().currencies.get(code, ())) | set(_EXTRA_CURRENCY_SIGNS.get(code, ()))
    currency = pycountry.currencies.get(alpha_3=code)
    if currency is not None:
        words.add(currency.name)
    return _folded(words)


def _folded(words: set[str]) -> tuple[str, ...]:
    return tuple(sorted({w for w in map(_fold_symbol, words) if w}))


def _fold_symbol(text: str) -> str:
    """``fold`` for a symbol or name, with direction marks dropped and a lone space kept (a group separator)."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " " if text and text.isspace() else fold(text)


# -- CLDR tables -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _DateWords:
    """Month names and the words around them, as they read in a text prepared by ``_date_text``.

    Attributes:
        months: month name -> the months it names (``listopad`` is October in Croatian, November in Czech).
        starts: first word of a month name -> the most words a name starting with it has.
        connectors: words CLDR date patterns put between day, month and year (``de``, ``m``, ``г``).
        marks: a ``str.translate`` table deleting the vowel signs and other marks met in those words, which
            ``\\w`` does not match (``जनवरी`` is one word once ``ी`` is gone, on the page as in the table).
    """

    months: dict[str, frozenset[int]]
    starts: dict[str, int]
    connectors: frozenset[str]
    marks: dict[int, None]


@dataclass(frozen=True)
class _Cldr:
    """What grounding needs from CLDR, over every locale Babel ships.

    Attributes:
        conventions: the distinct ways of writing numbers (groups of three, Indian 3-then-2 included).
        dates: month names and date-pattern words.
        territories: country code -> its names (as written).
        currencies: currency code -> its symbols and names (as written).
    """

    conventions: tuple[_Convention, ...]
    dates: _DateWords
    territories: dict[str, frozenset[str]]
    currencies: dict[str, frozenset[str]]


@lru_cache(maxsize=1)
def _cldr() -> _Cldr:
    """Build the tables from each locale's own CLDR entries, once per process.

    Babel's ``Locale`` merges every locale with its parents and keeps the result (all 1,100+ locales: about 1.8 s and
    200 MB held for the process); these tables need each locale's own entries only, so each locale file is read
    once and dropped (about 0.5 s of CPU, 20 MB kept), and number symbols / patterns are inherited along the parent
    chain here.
    """
    tables = _CldrTables()
    for name, data in _locale_files():
        tables.add(name, data)
    return tables.build()


class _CldrTables:
    """The tables as they are gathered, locale by locale."""

    def __init__(self):
        self.names: dict[str, set[int]] = {text: {month} for text, month in _EXTRA_MONTHS.items()}
        self.literals: set[str] = set()
        self.territories: dict[str, set[str]] = {}
        self.currencies: dict[str, set[str]] = {}
        self.symbols: dict[str, dict] = {}
        self.groupings: dict[str, tuple[int, int]] = {}

    def add(self, name: str, data: dict) -> None:
        """Take one locale's own entries."""
        for text, month in _month_names(data):
            self.names.setdefault(_date_text(fold(text)), set()).add(month)
        self.literals |= {_date_text(fold(text)) for text in _pattern_literals(data.get("date_formats"))}
        _collect(self.territories, data.get("territories"))
        _collect(self.currencies, data.get("currency_symbols"))
        _collect(self.currencies, data.get("currency_names"))
        for code, forms in _items(data.get("currency_names_plural")):  # {"one": "euro", "other": "euros"}
            self.currencies.setdefault(code, set()).update(t for _, t in _items(forms) if isinstance(t, str))
        if isinstance(data.get("number_symbols"), dict):
            self.symbols[name] = data["number_symbols"]
        pattern = dict(_items(data.get("decimal_formats"))).get(None)
        if pattern is not None:
            self.groupings[name] = pattern.grouping

    def build(self) -> _Cldr:
        """Return the finished tables."""
        from babel.core import get_global

        return _Cldr(conventions=_conventions(self.symbols, self.groupings, get_global("parent_exceptions")),
                     dates=_date_words(self.names, self.literals),
                     territories={k: frozenset(v) for k, v in self.territories.items()},
                     currencies={k: frozenset(v) for k, v in self.currencies.items()})


def _locale_files() -> Iterator[tuple[str, dict]]:
    """Each locale's own CLDR entries (not merged with its parents), root first."""
    import pickle

    from babel import localedata

    for name in ("root", *localedata.locale_identifiers()):
        with open(localedata.resolve_locale_filename(name), "rb") as fileobj:
            yield name, pickle.load(fileobj)


def _items(table: Any) -> Iterator[tuple[Any, Any]]:
    # Babel resolves some entries later (an Alias to another table): they hold nothing of their own
    return iter(table.items()) if isinstance(table, dict) else iter(())


def _collect(into: dict[str, set[str]], table: Any) -> None:
    """Add a locale's ``{code: name}`` entries to ``{code: names}``."""
    for code, text in _items(table):
        if isinstance(text, str):
            into.setdefault(code, set()).add(text)


def _month_names(data: dict) -> Iterator[tuple[str, int]]:
    """(name, month) for the wide and abbreviated month names, format and stand-alone."""
    contexts = data.get("months")
    for context in ("format", "stand-alone"):
        widths = contexts.get(context) if isinstance(contexts, dict) else None
        for width in ("wide", "abbreviated"):
            for month, text in _items(widths.get(width) if isinstance(widths, dict) else None):
                if isinstance(text, str):
                    yield text, month


def _pattern_literals(formats: Any) -> Iterator[str]:
    """The literal text of date patterns: ``d 'de' MMMM 'de' y`` -> ``de de``, ``y年M月d日`` -> ``年月日``."""
    for _, pattern in _items(formats):
        text = getattr(pattern, "pattern", None)
        if isinstance(text, str):
            yield " ".join(re.findall(r"'([^']*)'", text)) + " " + re.sub(r"'[^']*'|[A-Za-z]+", " ", text)


def _date_words(names: dict[str, set[int]], literals: set[str]) -> _DateWords:
    """Month names and pattern words (both as ``_date_text`` writes them) with their marks deleted; names that are
    only digits once their separators are gone (``1月``) are left to the numeric forms."""
    marks = {ord(c): None for text in (*names, *literals) for c in text if unicodedata.category(c)[0] == "M"}
    months: dict[str, set[int]] = {}
    for text, found in names.items():
        key = " ".join(_WORD.findall(text.translate(marks)))
        if key and not key.replace(" ", "").isdecimal():
            months.setdefault(key, set()).update(found)
    starts: dict[str, int] = {}
    for key in months:
        words = key.split(" ")
        starts[words[0]] = max(starts.get(words[0], 0), len(words))
    connectors = {w for text in literals for w in _WORD.findall(text.translate(marks)) if not w.isdecimal()}
    return _DateWords(months={k: frozenset(v) for k, v in months.items()}, starts=starts,
                      connectors=frozenset(connectors), marks=marks)


def _conventions(symbols: dict[str, dict], groupings: dict[str, tuple[int, int]], exceptions: dict
                 ) -> tuple[_Convention, ...]:
    """The distinct number conventions of all locales, each symbol and pattern taken from the nearest locale up the
    parent chain that has it. Grouping other than by three (POSIX: none; Toki Pona: by two) is left out: plain
    digit runs are read anyway, and groups of two would read phone numbers as amounts."""
    found = set()
    for name in symbols.keys() | groupings.keys():
        chain = _parents(name, exceptions)
        grouping = next((groupings[n] for n in chain if n in groupings), (3, 3))
        # a numbering system only root defines reads as root's own: counted once, for root
        for system in {s for n in (chain[:-1] if name != "root" else chain) for s in symbols.get(n, ())}:
            tables = [t for t in (symbols.get(n, {}).get(system) for n in chain) if isinstance(t, dict)]
            decimal = next((t["decimal"] for t in tables if "decimal" in t), "")
            group = next((t["group"] for t in tables if "group" in t), "")
            found.add((decimal, group, grouping))
    conventions = {_Convention(_fold_symbol(d), _fold_symbol(g), *grouping) for d, g, grouping in found
                   if grouping[0] == 3}
    return tuple(sorted((c for c in conventions if c.decimal and c.group and c.decimal != c.group),
                        key=lambda c: (c.decimal, c.group, c.primary, c.secondary)))


def _parents(name: str, exceptions: dict) -> list[str]:
    """A locale and its ancestors up to root, as Babel inherits them (``de_CH``, ``de``, ``root``)."""
    chain = [name]
    while chain[-1] != "root":
        last = chain[-1]
        chain.append(exceptions.get(last) or (last.rsplit("_", 1)[0] if "_" in last else "root"))
    return chain
