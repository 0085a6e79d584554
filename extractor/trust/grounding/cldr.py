"""Locale tables for grounding, from CLDR (Babel) and pycountry: how numbers, dates, country and currency names are
written in every locale, and the folding both sides of a comparison go through.

The CLDR tables are built from Babel's locale files (about a second) and kept in the user's cache (see ``cldr``).
"""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from extractor.text import fold

# Printed on invoices but not in CLDR, which has "CHF" but not "Fr.", "¥" but not "円", "HK$" but not "$".
_EXTRA_CURRENCY_SIGNS = {"CHF": ("fr.", "sfr"), "JPY": ("円",), "PLN": ("zl",), "HKD": ("$",)}
_EXTRA_MONTHS = {"mrz": 3}  # German "Mrz" (März): common, not in CLDR

_WORD = re.compile(r"\w+")
_WORD_RUN = re.compile(r"\w+(?: \w+)*")  # words separated by single spaces
_NUMERIC_DATE = re.compile(r"(?<!\w)(?=([0-9]{1,4}) ([0-9]{1,2}) ([0-9]{2,4})(?!\w))")
_ORDINAL = re.compile(r"(\d)(st|nd|rd|th|er)\b")
# 年月日 (Chinese, Japanese) and 년월일 (Korean, which fold decomposes into letters) glue to the numbers they follow
_HANGUL_DATE = unicodedata.normalize("NFKD", "년월일")
_DATE_SEPARATORS = re.compile(r"[\s.,/\-'年月日" + _HANGUL_DATE + "]+")


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
class NumberSyntax:
    """Everything needed to find and read numbers, built once from the CLDR conventions."""

    run: re.Pattern  # a digit, then digits and separators
    edges: str  # separators stripped from a piece's ends ("19,00." -> "19,00")
    readers: tuple[tuple[frozenset, str, str, re.Pattern], ...]  # (symbols, group, decimal, pattern)


@lru_cache(maxsize=1)
def number_syntax() -> NumberSyntax:
    conventions = cldr().conventions
    symbols = {c.decimal for c in conventions} | {c.group for c in conventions}
    run = re.compile(r"\d[\d" + re.escape("".join(sorted(symbols))) + r"]*")
    readers = tuple((frozenset((c.decimal, c.group)), c.group, c.decimal, c.pattern()) for c in conventions)
    return NumberSyntax(run=run, edges="".join(sorted(symbols - {" "})), readers=readers)


@lru_cache(maxsize=65536)
def readings(piece: str, excluded: str = "") -> frozenset[Decimal]:
    """Every value of one number under the conventions whose symbols it uses; empty when none reads it whole.

    Args:
        piece: a run of digits and separators (``1.234,56``).
        excluded: decimal marks the document does not use (``,`` on a page writing ``1,234.56``): conventions with
            such a decimal mark are not tried.

    Returns:
        The Decimals.
    """
    seps = {c for c in piece if not c.isdecimal()}
    if not seps:
        return frozenset({Decimal(piece)})
    return frozenset(
        Decimal(piece.replace(group, "").replace(decimal, "."))
        for symbols, group, decimal, pattern in number_syntax().readers
        if seps <= symbols and decimal not in excluded and pattern.fullmatch(piece)
    )


# -- dates -----------------------------------------------------------------------------------------------------------


def date_text(folded: str) -> str:
    """Dates' separators as single spaces and ordinals as plain numbers: ``1er mars, 2026`` -> ``1 mars 2026``."""
    return " ".join(_DATE_SEPARATORS.sub(" ", _ORDINAL.sub(r"\1", folded)).split())


def dates_in(text: str) -> frozenset[tuple[int, int, int, bool]]:
    """Every date written in a text prepared by ``date_text``, as ``(year, month, day, two-digit year)``.

    Numbers: ``Y M D``, ``D M Y``, ``M D Y``, ``D M YY``, ``M D YY``; month names: ``D name Y``, ``name D Y``,
    ``D name YY``, ``Y name D``, with at most one CLDR date-pattern word (``de``, ``m``) between the parts. The
    parts are words separated by single spaces (``31 01 2026`` in ``datum:31 01 2026``).
    """
    words = cldr().dates
    out = {key for m in _NUMERIC_DATE.finditer(text) for key in _numeric_dates(*m.groups())}
    for run in _WORD_RUN.finditer(text.translate(words.marks)):
        chain = run.group().split(" ")
        if len(chain) < 3:
            continue
        for i, token in enumerate(chain):
            for end in range(i + 1, min(i + words.starts.get(token, 0), len(chain)) + 1):
                months = words.months.get(" ".join(chain[i:end]))
                if months:
                    out.update(
                        (y, m, d, short)
                        for y, d, short in _named_dates(chain, i, end, words.connectors)
                        for m in months
                    )
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
def country_names(code: str) -> tuple[str, ...]:
    """Folded names of a country: CLDR's in every locale, pycountry's (with official names, the alpha-3 code) in en /
    de / fr / nl."""
    import gettext

    import pycountry

    names = set(cldr().territories.get(code, ()))
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
def currency_words(code: str) -> tuple[str, ...]:
    """Folded signs and names of a currency: CLDR's in every locale (names of 4+ letters, signs of 2+ or a symbol),
    pycountry's name, and signs CLDR lacks."""
    import pycountry

    words = set(cldr().currencies.get(code, ()))
    currency = pycountry.currencies.get(alpha_3=code)
    if currency is not None:
        words.add(currency.name)
    signs = {w for w in map(_fold_symbol, cldr().signs.get(code, ())) if len(w) >= 2 or not w.isalpha()}
    return tuple(sorted(set(_folded(words)) | signs | {fold(w) for w in _EXTRA_CURRENCY_SIGNS.get(code, ())}))


def _folded(words: set[str]) -> tuple[str, ...]:
    """Folded names and signs; names of letters shorter than 4 (``uk``, ``ero``, ``ao``) are left out: as words they
    occur in ordinary text (codes are matched apart, as whole words in their case)."""
    folded = {w for w in map(_fold_symbol, words) if w}
    return tuple(sorted(w for w in folded if len(w) >= 4 or not w.isalpha() or not w.isascii()))


def _fold_symbol(text: str) -> str:
    """``fold`` for a symbol or name, with direction marks dropped and a lone space kept (a group separator)."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " " if text and text.isspace() else fold(text)


# -- CLDR tables -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _DateWords:
    """Month names and the words around them, as they read in a text prepared by ``date_text``.

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
        signs: currency code -> its symbols only (``kr``, ``Rs``, ``zł``: short, but not words).
    """

    conventions: tuple[_Convention, ...]
    dates: _DateWords
    territories: dict[str, frozenset[str]]
    currencies: dict[str, frozenset[str]]
    signs: dict[str, frozenset[str]]


@lru_cache(maxsize=1)
def cldr() -> _Cldr:
    """The tables, once per process: from the user's cache when a process before this one built them (0.07 s),
    else built (``build_cldr``: ~1 s of CPU) and kept there for the next one.

    The cache file (``$EXTRACTOR_CACHE_DIR``, else ``$XDG_CACHE_HOME/extractor``, else ``~/.cache/extractor``) is
    named for Babel's version, this module's source and Python's version, so a change to any of them builds anew;
    one that cannot be read or written is only a slower start.
    """
    import pickle

    try:
        path = _cache_path()
    except (OSError, RuntimeError):  # no home directory to hold a cache
        return build_cldr()
    try:
        tables = pickle.loads(path.read_bytes())
        if isinstance(tables, _Cldr):
            return tables
    except Exception:  # noqa: BLE001 - missing, cut short or unreadable: build it
        pass
    tables = build_cldr()
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL))
        part.replace(path)  # atomic: a concurrent reader sees the old file or the whole new one
    except OSError:  # a read-only or full disk: only the next start is slower
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
    return tables


def _cache_path() -> Path:
    import hashlib
    import sys

    import babel

    root = os.environ.get("EXTRACTOR_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "extractor"
    )
    key = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return Path(root, f"cldr-babel{babel.__version__}-py{sys.version_info[0]}{sys.version_info[1]}-{key}.pickle")


def build_cldr() -> _Cldr:
    """Build the tables from each locale's own CLDR entries.

    Babel's ``Locale`` merges every locale with its parents and keeps the result (all 1,100+ locales: about 1.8 s and
    200 MB held for the process); these tables need each locale's own entries only, so each locale file is read
    once and dropped (about 1 s of CPU, 20 MB kept), and number symbols / patterns are inherited along the parent
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
        self.signs: dict[str, set[str]] = {}
        self.symbols: dict[str, dict] = {}
        self.groupings: dict[str, tuple[int, int]] = {}

    def add(self, name: str, data: dict) -> None:
        """Take one locale's own entries."""
        for text, month in _month_names(data):
            self.names.setdefault(date_text(fold(text)), set()).add(month)
        self.literals |= {date_text(fold(text)) for text in _pattern_literals(data.get("date_formats"))}
        _collect(self.territories, data.get("territories"))
        _collect(self.currencies, data.get("currency_symbols"))
        _collect(self.signs, data.get("currency_symbols"))
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

        return _Cldr(
            conventions=_conventions(self.symbols, self.groupings, get_global("parent_exceptions")),
            dates=_date_words(self.names, self.literals),
            territories={k: frozenset(v) for k, v in self.territories.items()},
            currencies={k: frozenset(v) for k, v in self.currencies.items()},
            signs={k: frozenset(v) for k, v in self.signs.items()},
        )


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
    """Month names and pattern words (both as ``date_text`` writes them) with their marks deleted; names that are
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
    return _DateWords(
        months={k: frozenset(v) for k, v in months.items()},
        starts=starts,
        connectors=frozenset(connectors),
        marks=marks,
    )


def _conventions(
    symbols: dict[str, dict], groupings: dict[str, tuple[int, int]], exceptions: Mapping
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
    conventions = {
        _Convention(_fold_symbol(d), _fold_symbol(g), *grouping) for d, g, grouping in found if grouping[0] == 3
    }
    return tuple(
        sorted(
            (c for c in conventions if c.decimal and c.group and c.decimal != c.group),
            key=lambda c: (c.decimal, c.group, c.primary, c.secondary),
        )
    )


def _parents(name: str, exceptions: Mapping) -> list[str]:
    """A locale and its ancestors up to root, as Babel inherits them (``de_CH``, ``de``, ``root``)."""
    chain = [name]
    while chain[-1] != "root":
        last = chain[-1]
        chain.append(exceptions.get(last) or (last.rsplit("_", 1)[0] if "_" in last else "root"))
    return chain
