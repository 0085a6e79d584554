"""The supplier identity keys printed on a document: VAT ids and IBANs whose check digits hold, normalised as the
register normalises them (``register.keys.id_key``): ``vat:DE123456789``, ``iban:DE89370400440532013000``.

IBANs count only with a valid MOD 97 check; VAT ids by their country's shape, and France's key where it is
numeric. Germany's check digit (ISO 7064 MOD 11,10) is not applied: the Federal Central Tax Office does not publish
it as binding, and the standard's own sample ids (``DE123456789``) fail it. A VAT id alone never lets a layout
read: a layout's identity also holds the seller's name (``choose.identity_printed``).

A key may be printed in pieces (``DE 123 456 789``, an IBAN in groups of four): runs of up to nine words of a line
are joined. Only ids whose check digits are valid count, so an order number never passes for a VAT id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractor.layouts.words import PageWords
from extractor.register.keys import id_key

_COUNTRIES = "AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|CH|GB|XI"
_VAT = re.compile(rf"({_COUNTRIES})[0-9A-Z]{{8,12}}")
_IBAN = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")
_IBAN_LENGTHS = {"DE": 22, "FR": 27, "AT": 20, "CH": 21, "NL": 18, "BE": 16, "IT": 27, "ES": 24, "GB": 22, "LU": 20}
_VAT_SHAPES = {
    "DE": r"DE\d{9}",
    "FR": r"FR[0-9A-Z]{2}\d{9}",
    "AT": r"ATU\d{8}",
    "BE": r"BE[01]\d{9}",
    "NL": r"NL\d{9}B\d{2}",
    "IT": r"IT\d{11}",
    "ES": r"ES[0-9A-Z]\d{7}[0-9A-Z]",
    "SE": r"SE\d{10}01",
}
MAX_SPAN = 9


def iban_valid(iban: str) -> bool:
    """True when ``iban`` (normalised) has a valid ISO 13616 shape and MOD 97-10 check."""
    if not _IBAN.fullmatch(iban) or len(iban) != _IBAN_LENGTHS.get(iban[:2], len(iban)):
        return False
    digits = "".join(str(int(c, 36)) for c in iban[4:] + iban[:4])
    return int(digits) % 97 == 1


def _fr_valid(vat: str) -> bool:
    key, siren = vat[2:4], vat[4:]
    return not key.isdigit() or int(key) == (12 + 3 * (int(siren) % 97)) % 97


def vat_valid(vat: str) -> bool:
    """True when ``vat`` (normalised) has its country's shape (and, for France, its key): see the module docstring."""
    if not _VAT.fullmatch(vat) or sum(c.isdigit() for c in vat[2:]) < 6:
        # every member state's VAT id holds at least six digits after its prefix: a word such as "September21"
        # ("September 21, 2026" joined) is no Swedish VAT id
        return False
    shape = _VAT_SHAPES.get(vat[:2])
    if shape is not None and not re.fullmatch(shape, vat):
        return False
    if vat[:2] == "FR":
        return _fr_valid(vat)
    return True


def key_of(text: str) -> str | None:
    """The identity key a printed run of words is (``vat:...`` or ``iban:...``), None when it is neither."""
    compact = id_key(text) or ""
    if iban_valid(compact):
        return f"iban:{compact}"
    if vat_valid(compact):
        return f"vat:{compact}"
    return None


_MAX_PRINTED = 48
_HINT = re.compile(r"[A-Za-z]{2}[^A-Za-z0-9]{0,4}[0-9]")
_COUNTRY_SET = frozenset(_COUNTRIES.split("|"))
_HEAD = re.compile(r"[^0-9A-Za-z]*([A-Za-z]{2})([0-9A-Za-z]{0,2})")


def _may_start(texts: Sequence[str], start: int) -> bool:
    """True when ``texts[start]`` may start a VAT id or an IBAN: after a label's colon, a VAT country's letters
    or two letters and two digits (an IBAN's head), then a digit within the next two characters (``ATU1``,
    ``ESA1``), or the letters alone with the next word starting with a digit (``DE 123 456 789``); or a label ending
    in a colon. Most words of a page are none, and are passed over without joining the words after them."""
    text = texts[start]
    head = _HEAD.match(text.rpartition(":")[2].upper())
    if head is None:
        return text.endswith(":") and any(c.isalpha() for c in text[:8])
    country, rest = head.groups()
    if not rest:
        following = [t for t in texts[start + 1 : start + 3] if any(c.isalnum() for c in t)]
        return bool(following) and following[0].lstrip("-–.:/")[:1].isdigit()
    return any(c.isdigit() for c in rest) and (country in _COUNTRY_SET or rest.isdigit())


def identities(pages: Sequence[PageWords]) -> tuple[str, ...]:
    """The identity keys printed on a document, sorted, each once (module docstring)."""
    found: set[str] = set()
    for page in pages:
        for line in page.lines:
            texts = [page.words[i].text for i in line]
            if not _HINT.search(" ".join(texts)):
                continue  # no two letters before a digit: no VAT id, no IBAN
            for start in range(len(texts)):
                if not _may_start(texts, start):
                    continue
                joined = ""
                for end in range(start, min(start + MAX_SPAN, len(texts))):
                    joined += texts[end]
                    if len(joined.rpartition(":")[2]) > _MAX_PRINTED:
                        break  # longer than any IBAN, even printed with dots or dashes
                    # a label glued to the id ("TVA:FR11...") is cut at its colon
                    key = key_of(joined.rpartition(":")[2])
                    if key is not None:
                        found.add(key)
    return tuple(sorted(found))
