"""How a value is printed, and reading it back: dates (their order, separators, month names), numbers (decimal and
thousands separators, sign, currency sign), codes, and text.

``formats_for(text, value)`` gives every format under which a printed text means ``value`` (what learning keeps);
``parse(text, fmt, decimal=)`` reads a printed text under one format (what reading does), None when it cannot.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.layouts.model import Format

TEXT, COMPACT, DATE, NUMBER, INTEGER, CODE = "text", "compact", "date", "number", "integer", "code"
_MONTHS = {
    "en": "january february march april may june july august september october november december",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
}
MONTHS = {name: i + 1 for names in _MONTHS.values() for i, name in enumerate(names.split())}
MONTHS.update({name[:3]: i + 1 for i, name in enumerate(_MONTHS["en"].split())})
_NAME = r"([^\W\d_]+)\.?"
# each date pattern: its regex and the order of its groups (d day, m month, M month name, y 2-digit, Y year)
DATE_PATTERNS = {
    "D.M.Y": (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", "dmY"),
    "D.M.y": (r"(\d{1,2})\.(\d{1,2})\.(\d{2})", "dmy"),
    "D/M/Y": (r"(\d{1,2})/(\d{1,2})/(\d{4})", "dmY"),
    "M/D/Y": (r"(\d{1,2})/(\d{1,2})/(\d{4})", "mdY"),
    "D-M-Y": (r"(\d{1,2})-(\d{1,2})-(\d{4})", "dmY"),
    "Y-M-D": (r"(\d{4})-(\d{1,2})-(\d{1,2})", "Ymd"),
    "Y/M/D": (r"(\d{4})/(\d{1,2})/(\d{1,2})", "Ymd"),
    "D Month Y": (rf"(\d{{1,2}})\.? {_NAME} (\d{{4}})", "dMY"),
    "Month D, Y": (rf"{_NAME} (\d{{1,2}}),? (\d{{4}})", "MdY"),
}
_CURRENCY = re.compile(r"^(?:€|\$|£|EUR|USD|GBP|CHF|Fr\.|%)|(?:€|\$|£|EUR|USD|GBP|CHF|%)$")
_NUMBER = {
    ",": re.compile(r"[+-]?(?:\d{1,3}(?:[.\u202f\u00a0' ]\d{3})+|\d+)(?:,\d+)?"),
    ".": re.compile(r"[+-]?(?:\d{1,3}(?:[,\u202f\u00a0' ]\d{3})+|\d+)(?:\.\d+)?"),
}


def parse_date(text: str, pattern: str) -> str | None:
    """An ISO date from ``text`` printed by ``pattern`` (a ``DATE_PATTERNS`` name), None when it is not one."""
    regex, order = DATE_PATTERNS[pattern]
    match = re.fullmatch(regex, text.strip().rstrip(",;").casefold())
    if match is None:
        return None
    parts: dict[str, int] = {}
    for key, group in zip(order, match.groups(), strict=True):
        if key == "M":
            if group not in MONTHS:
                return None
            parts["m"] = MONTHS[group]
        else:
            parts[key.lower() if key != "Y" else "y"] = int(group) + (2000 if key == "y" else 0)
    try:
        return dt.date(parts["y"], parts["m"], parts["d"]).isoformat()
    except ValueError:
        return None


def parse_number(text: str, *, decimal: str) -> Decimal | None:
    """A number printed with ``decimal`` as its decimal separator, with or without a currency sign or code, a
    percent sign, a sign in front or behind; None when ``text`` is not one."""
    body = text.strip().rstrip(";")
    for _ in range(2):
        body = _CURRENCY.sub("", body).strip()
    negative = body.endswith("-") or (body.startswith("(") and body.endswith(")"))
    body = body.strip("()").rstrip("-").strip()
    if not _NUMBER[decimal].fullmatch(body):
        return None
    digits = re.sub(r"[^\d+-]", "", body.rsplit(decimal, 1)[0])
    fraction = body.rsplit(decimal, 1)[1] if decimal in body else ""
    try:
        number = Decimal(f"{digits}.{fraction}" if fraction else digits)
    except InvalidOperation:
        return None
    return -number if negative else number


def printed_decimals(text: str, *, decimal: str) -> int:
    """How many decimals a number is printed with (``3,33`` -> 2, ``20`` -> 0)."""
    body = _CURRENCY.sub("", text.strip()).strip().strip("()").rstrip("-")
    return len(re.sub(r"\D", "", body.rsplit(decimal, 1)[1])) if decimal in body else 0


def _value_decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Decimal(str(value))


def formats_for(text: str, value: Any, *, decimal: str) -> list[Format]:
    """Every format under which the printed ``text`` means ``value`` (empty when none does)."""
    number = _value_decimal(value)
    if number is not None:
        kind = INTEGER if isinstance(value, int) else NUMBER
        printed = parse_number(text, decimal=decimal)
        if printed is None:
            return []
        signed = printed < 0
        if printed == number:
            return [Format(kind, signed=signed)]
        return [Format(kind, negated=True, signed=signed)] if printed == -number and number else []
    if not isinstance(value, str) or not value:
        return []
    dates = tuple(p for p in DATE_PATTERNS if parse_date(text, p) == value)
    if dates:
        return [Format(DATE, dates=dates)]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return []
    if " ".join(text.split()) == value:
        return [Format(TEXT, words=len(value.split()) if any(c.isdigit() for c in value) else 0)]
    if "".join(text.split()) == value and " " in text.strip():
        return [Format(COMPACT)]
    return []


def parse(text: str, fmt: Format, *, decimal: str) -> Any:
    """Read ``text`` under ``fmt``; None when it does not parse (or, for a date printed in an order taught as
    ambiguous, when its readings disagree)."""
    if fmt.kind in (NUMBER, INTEGER):
        number = parse_number(text, decimal=decimal)
        if number is None or (number != 0 and (number < 0) != fmt.signed):
            return None
        number = -number if fmt.negated else number
        if fmt.kind == INTEGER:
            return int(number) if number == number.to_integral_value() else None
        return int(number) if number == number.to_integral_value() and "." not in str(number) else float(number)
    if fmt.kind == DATE:
        readings = {parse_date(text, p) for p in fmt.dates} - {None}
        return readings.pop() if len(readings) == 1 else None
    if fmt.kind == CODE:
        return dict(fmt.codes).get(" ".join(text.split()))
    joined = " ".join(text.split())
    if not joined or (fmt.words and len(joined.split()) != fmt.words):
        return None
    return joined.replace(" ", "") if fmt.kind == COMPACT else joined


_AMOUNT = re.compile(r"[-+(]?[€$£]?\d{1,3}(?:([.,' \u202f])?\d{3})*([.,])\d{2}\)?[-€$£%]?")


def decimal_of(texts: list[str]) -> str:
    """The decimal separator most of a document's printed amounts use (words that are a number with two decimals:
    ``1.297,50``, ``12.50``; ``,`` when none tells)."""
    votes = {",": 0, ".": 0}
    for text in texts:
        match = _AMOUNT.fullmatch(text)
        if match is not None and match.group(1) != match.group(2):
            votes[match.group(2)] += 1
    return "." if votes["."] > votes[","] else ","
