"""Grounding: is each extracted value printed in the PDF's text layer?

Every scalar in the data (``leaves.leaves``: JSON pointers; nulls, booleans and empty strings skipped) is looked up in the
page texts after normalising both sides:

* text: Unicode NFKD with accents dropped, casefolded, whitespace collapsed; a string is found as a whole word
  sequence, or, when it has 5+ letters / digits, with every non-alphanumeric character ignored on both sides (so
  ``DE89 3704 0044 ...`` grounds ``DE89370400...`` and ``CHE-271.828.189 MWST`` grounds ``CHE271828189MWST``);
* numbers: every number printed on the page is parsed under each plausible convention (``1.234,56``, ``1,234.56``,
  ``1 234,56``, ``1'234.56``, with or without decimals, currency signs and minus signs ignored) and the value is
  compared as a ``Decimal``, so 19 grounds ``19,00 %`` and 1156 grounds ``1.156,00 €``;
* dates (``YYYY-MM-DD`` values): ISO, ``31.01.2026``, ``31/01/2026``, ``01/31/2026``, two-digit years, and month names
  in English, German, French and Dutch (``31 January 2026``, ``Jan 31, 2026``, ``31. Januar 2026``, ``1er mars``);
* country codes also match the country's name (English, German, French, Dutch, via pycountry); currency codes also
  match the currency's name or sign.

Short values are weak evidence (a quantity of 1 is printed on almost every page), so each field counts in the
ratio with a weight of ``min(1, significant characters / 4)``: ``1`` weighs 0.25, ``19`` 0.5, an IBAN 1.

``grounded`` is True (found), False (not found), or None when it cannot be told: no page has a text layer, or the
value was not found and some page has no text layer (it may be printed on that page).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Optional, Sequence

from .leaves import leaves
from .record import issue

KEY_FIELDS = ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/buyer/vat_id")
RECEIPT_KEY_FIELDS = ("/total", "/merchant/vat_id")
MIN_COMPACT = 5  # strings this long (letters + digits) may also match with punctuation and spaces ignored

# Month names (accents dropped, as the normalised text has them). No installed library carries them for several
# languages (babel would, as a large extra dependency); English, German (with Austrian "Jänner"), French, Dutch.
_MONTHS = (
    ("january", "jan", "januar", "janner", "janvier", "janv", "januari"),
    ("february", "feb", "februar", "fevrier", "fevr", "fev", "februari"),
    ("march", "mar", "marz", "mrz", "mars", "maart", "mrt"),
    ("april", "apr", "avril", "avr"),
    ("may", "mai", "mei"),
    ("june", "jun", "juni", "juin"),
    ("july", "jul", "juli", "juillet", "juil"),
    ("august", "aug", "aout", "augustus"),
    ("september", "sep", "sept", "septembre"),
    ("october", "oct", "oktober", "okt", "octobre"),
    ("november", "nov", "novembre"),
    ("december", "dec", "dezember", "dez", "decembre"),
)
# Currency signs: pycountry has names but no signs; a short list of the signs printed for common currencies.
_CURRENCY_SIGNS = {"EUR": ("€",), "USD": ("$", "us$"), "GBP": ("£",), "JPY": ("¥", "円"), "CNY": ("¥", "元"),
                   "CHF": ("fr.", "sfr"), "INR": ("₹", "rs."), "KRW": ("₩",), "RUB": ("₽",), "TRY": ("₺",),
                   "PLN": ("zł", "zl"), "ILS": ("₪",), "UAH": ("₴",), "NGN": ("₦",), "VND": ("₫",), "PHP": ("₱",),
                   "THB": ("฿",), "CAD": ("$", "ca$"), "AUD": ("$", "a$"), "NZD": ("$",), "SGD": ("$", "s$"),
                   "HKD": ("$", "hk$"), "MXN": ("$",), "SEK": ("kr",), "NOK": ("kr",), "DKK": ("kr",)}
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_NUMBER_RUN = re.compile(r"\d[\d.,' ]*")


@dataclass(frozen=True)
class FieldGrounding:
    """Where one extracted value was found.

    Attributes:
        path: JSON pointer of the value.
        value: the value as extracted.
        grounded: True / False, or None when it cannot be told.
        page: 0-based index into the page texts where it was first found.
        weight: its weight in the ratio (0.25 .. 1).
    """

    path: str
    value: Any
    grounded: Optional[bool]
    page: Optional[int]
    weight: float


@dataclass(frozen=True)
class GroundingReport:
    """Grounding of every scalar of one record.

    Attributes:
        fields: one entry per non-null scalar, in document order.
        text_layer: whether any page has a text layer.
        warnings: ``ungrounded`` warnings for key fields not found in the text.
    """

    fields: tuple[FieldGrounding, ...]
    text_layer: bool
    warnings: tuple[dict, ...] = ()

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
        """Return the report for the record: ratio, counts, per-field verdicts and the ungrounded paths."""
        ratio = self.ratio
        return {
            "text_layer": self.text_layer,
            "ratio": None if ratio is None else round(ratio, 4),
            "grounded": sum(1 for f in self.fields if f.grounded is True),
            "checked": sum(1 for f in self.fields if f.grounded is not None),
            "fields": {f.path: f.grounded for f in self.fields},
            "ungrounded": list(self.ungrounded),
        }


def key_fields_for(schema_name: str) -> tuple[str, ...]:
    """Return the key fields whose grounding decides ``review`` for a schema.

    Args:
        schema_name: ``invoice``, ``receipt`` or a custom schema's name.

    Returns:
        The JSON pointers (none for custom schemas).
    """
    return {"invoice": KEY_FIELDS, "receipt": RECEIPT_KEY_FIELDS}.get(schema_name, ())


def ground(data: Any, page_texts: Sequence[Optional[str]], *, key_fields: Sequence[str] = KEY_FIELDS
           ) -> GroundingReport:
    """Look for every extracted scalar in the page texts.

    Args:
        data: the extracted data (any JSON value).
        page_texts: each page's text layer (``Page.text``): a string, or None / blank when the page has none.
        key_fields: JSON pointers whose absence from the text is a warning (``KEY_FIELDS`` for invoices).

    Returns:
        The GroundingReport; its ``warnings`` hold one ``ungrounded`` warning per key field not found.
    """
    pages = [_PageText(t) if isinstance(t, str) and t.strip() else None for t in page_texts]
    text_layer = any(p is not None for p in pages)
    some_missing = any(p is None for p in pages)
    fields = []
    for pointer, value, parts in leaves(data, booleans=False):
        weight = _weight(value)
        if not text_layer:
            fields.append(FieldGrounding(pointer, value, None, None, weight))
            continue
        key = str(parts[-1]) if parts else ""
        found = None
        for i, page in enumerate(pages):
            if page is not None and _found(value, key, page):
                found = i
                break
        if found is not None:
            grounded: Optional[bool] = True
        else:
            grounded = None if some_missing else False
        fields.append(FieldGrounding(pointer, value, grounded, found, weight))
    keys = set(key_fields)
    warnings = tuple(issue("ungrounded", f"{f.path} = {f.value!r} is not printed in the document's text layer",
                           f.path) for f in fields if f.grounded is False and f.path in keys)
    return GroundingReport(fields=tuple(fields), text_layer=text_layer, warnings=warnings)


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

    ``1.234`` gives both 1234 and 1.234; ``1.234,56``, ``1,234.56``, ``1 234,56`` and ``1'234.56`` give 1234.56;
    ``31.01.2026`` (not a grouped number) gives its parts 31, 1 and 2026.

    Args:
        text: folded text (see ``fold``).

    Returns:
        The set of Decimals.
    """
    out: set[Decimal] = set()
    for run in _NUMBER_RUN.finditer(text):
        pieces = [p.strip(".,'") for p in run.group().split(" ")]
        pieces = [p for p in pieces if p]
        for i, piece in enumerate(pieces):
            out |= _readings(piece)
            # space as thousands separator: "1 234 567,89"
            if re.fullmatch(r"[1-9]\d{0,2}", piece):  # a leading group never starts with 0 (040 555 is a phone)
                joined = piece
                for nxt in pieces[i + 1:]:
                    if re.fullmatch(r"\d{3}", nxt):
                        joined += nxt
                        out |= _readings(joined)
                    elif re.fullmatch(r"\d{3}[.,]\d+", nxt):
                        out |= _readings(joined + nxt)
                        break
                    else:
                        break
    return out


# -- internals -------------------------------------------------------------------------------------------------------

_PLAIN = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'", "–": "-", "—": "-", "‑": "-", "−": "-",
                        "“": '"', "”": '"', "„": '"', "«": '"', "»": '"'})


class _PageText:
    """One page's text, prepared once for every lookup."""

    def __init__(self, text: str):
        self.folded = fold(text)
        self.compact = re.sub(r"[\W_]+", "", self.folded)
        self.numbers = numbers_in(self.folded)
        dates = re.sub(r"(\d)(st|nd|rd|th|er)\b", r"\1", self.folded)
        self.dates = " ".join(re.sub(r"[\s.,/\-年月日]+", " ", dates).split())


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
    m = _ISO_DATE.match(text.strip())
    if m and _date_found(m, page):
        return True
    if key == "country" and len(text) == 2:
        return any(_word_in(fold(name), page.folded) for name in _country_names(text.upper()))
    if key == "currency" and len(text) == 3:
        return any(_sign_in(fold(sign), page.folded) for sign in _currency_words(text.upper()))
    return False


def _string_found(text: str, page: _PageText) -> bool:
    folded = fold(text)
    if _word_in(folded, page.folded):
        return True
    compact = re.sub(r"[\W_]+", "", folded)
    return len(compact) >= MIN_COMPACT and compact in page.compact


def _word_in(needle: str, hay: str) -> bool:
    if not needle:
        return False
    start = r"(?<!\w)" if needle[0].isalnum() else ""
    end = r"(?!\w)" if needle[-1].isalnum() else ""
    return re.search(start + re.escape(needle) + end, hay) is not None


def _sign_in(sign: str, hay: str) -> bool:
    # signs like € and $ stick to numbers; word-like ones (kr, sfr) must stand alone
    return _word_in(sign, hay) if sign[0].isalnum() else sign in hay


@lru_cache(maxsize=4096)
def _date_pattern(value: str) -> Optional[re.Pattern]:
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        return None
    y, yy = str(day.year), f"{day.year % 100:02d}"
    ds, ms = {str(day.day), f"{day.day:02d}"}, {str(day.month), f"{day.month:02d}"}
    cands = set()
    for d in ds:
        for m in ms:
            cands |= {f"{y} {m} {d}", f"{d} {m} {y}", f"{d} {m} {yy}", f"{m} {d} {y}", f"{m} {d} {yy}"}
        for name in _MONTHS[day.month - 1]:
            cands |= {f"{d} {name} {y}", f"{name} {d} {y}", f"{d} {name} {yy}", f"{y} {name} {d}"}
    alternatives = "|".join(re.escape(c) for c in sorted(cands, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def _date_found(match: re.Match, page: _PageText) -> bool:
    pattern = _date_pattern(match.group(0))
    return pattern is not None and pattern.search(page.dates) is not None


@lru_cache(maxsize=512)
def _country_names(code: str) -> tuple[str, ...]:
    import gettext

    import pycountry

    country = pycountry.countries.get(alpha_2=code)
    if country is None:
        return ()
    names = {country.name, country.alpha_3}
    for attr in ("official_name", "common_name"):
        if getattr(country, attr, None):
            names.add(getattr(country, attr))
    for lang in ("de", "fr", "nl"):
        try:
            tr = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang])
        except OSError:
            continue
        names |= {tr.gettext(n) for n in list(names)}
    return tuple(sorted(names))


@lru_cache(maxsize=512)
def _currency_words(code: str) -> tuple[str, ...]:
    import pycountry

    words = set(_CURRENCY_SIGNS.get(code, ()))
    currency = pycountry.currencies.get(alpha_3=code)
    if currency is not None:
        words.add(currency.name)
    return tuple(sorted(words))


def _readings(piece: str) -> set[Decimal]:
    piece = piece.replace("'", "") if re.fullmatch(r"\d{1,3}('\d{3})+([.,]\d+)?", piece) else piece
    seps = [c for c in piece if c in ".,'"]
    if not seps:
        return {Decimal(piece)}
    kinds = set(seps)
    if len(kinds) == 2 and "'" not in kinds:
        dec = seps[-1]
        grp = "," if dec == "." else "."
        if seps.count(dec) == 1 and re.fullmatch(rf"\d{{1,3}}(\{grp}\d{{3}})+\{dec}\d+", piece):
            return {Decimal(piece.replace(grp, "").replace(dec, "."))}
    elif len(kinds) == 1:
        sep = seps[0]
        if len(seps) == 1:
            left, right = piece.split(sep)
            out = {Decimal(f"{left}.{right}")} if sep != "'" else set()
            if len(right) == 3 and 1 <= len(left) <= 3:
                out.add(Decimal(left + right))
            if out:
                return out
        elif re.fullmatch(rf"\d{{1,3}}(\{sep}\d{{3}})+", piece):
            return {Decimal(piece.replace(sep, ""))}
    # not one number (a date like 31.01.2026, a code like 1.2.3): its digit groups
    return {Decimal(part) for part in re.findall(r"\d+", piece)}
