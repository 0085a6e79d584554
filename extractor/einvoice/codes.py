"""The code lists a record's words are read into: UNTDID 1001 document types (BT-3), UNTDID 4461 payment means
(BT-81), UN/ECE Rec 20 / 21 units (BT-130), the EAS schemes of electronic addresses (BT-34 / BT-49) and ISO 6523
schemes of party identifiers (BT-29 / BT-46), and the few countries an address without one can be read from.

Every code here is in the CEN 1.3.16 code lists (BR-CL-01 / 16 / 23 / 25 / 26); a value that maps to none is left
out by ``terms`` and named in its notes, so the official rule that needs it fires rather than a guess being written.

Pure data and small functions, importing nothing of the package: the lowest stage (``tests/test_layers.py``), so the
embedded-XML reader (``inputs``), the checks and grounding (``trust``) and the writer read one vocabulary.
"""

from __future__ import annotations

import re

# invoice-en16931's ``document_type`` -> UNTDID 1001 (the codes EN 16931 lists for invoices and credit notes)
DOCUMENT_TYPES = {
    "invoice": "380",
    "credit_note": "381",
    "corrected_invoice": "384",
    "partial_invoice": "326",
    "prepayment_invoice": "386",
    "self_billed_invoice": "389",
}
CREDIT_NOTES = frozenset({"81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"})
# invoice-en16931's VAT categories (UNCL 5305 as EN 16931 uses it) and the one the BR-S rules are about
VAT_CATEGORIES = ("S", "Z", "E", "AE", "K", "G", "O", "L", "M")
STANDARD_RATE = "S"
ALLOWANCE_KINDS = ("allowance", "charge")  # an ``allowances_charges`` entry's ``kind``
# invoice-en16931's ``payment_means`` -> UNTDID 4461
PAYMENT_MEANS = {
    "credit_transfer": "30",
    "sepa_credit_transfer": "58",
    "direct_debit": "49",
    "sepa_direct_debit": "59",
    "card": "48",
    "cash": "10",
    "cheque": "20",
}
CREDIT_TRANSFER = "30"
COUNT = "C62"  # Rec 20 "one": the unit of a count, for a quantity printed without a unit

# Printed units -> UN/ECE Rec 20 (or Rec 21 with its ``X`` prefix), matched case-insensitively without a trailing
# dot. Only units whose code is not in doubt.
UNIT_CODES = {
    **dict.fromkeys(("stk", "stck", "stück", "st", "stuk", "stuks", "pc", "pcs", "pce", "piece", "pieces"), "H87"),
    **dict.fromkeys(("ea", "each"), "EA"),
    # things counted one by one that Rec 20 has no unit of their own for: C62 ("one") is its unit of a count
    **dict.fromkeys(("x", "copy", "copies", "cut", "cuts", "post", "posten", "wallet", "wallets", "item"), COUNT),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "heure", "heures", "uur"), "HUR"),
    **dict.fromkeys(("min", "minute", "minutes", "minuten"), "MIN"),
    **dict.fromkeys(("day", "days", "tag", "tage", "jour", "jours", "dag", "dagen"), "DAY"),
    # a hotel night is billed as a day of stay: Rec 20 has no night; DAY is what XRechnung's examples use
    **dict.fromkeys(("nacht", "nächte", "night", "nights", "nuit", "nuits"), "DAY"),
    **dict.fromkeys(("week", "weeks", "woche", "wochen", "semaine", "semaines"), "WEE"),
    **dict.fromkeys(("month", "months", "monat", "monate", "mt", "mon", "mois", "maand"), "MON"),
    **dict.fromkeys(("kg",), "KGM"),
    **dict.fromkeys(("g",), "GRM"),
    **dict.fromkeys(("m",), "MTR"),
    **dict.fromkeys(("km",), "KMT"),
    **dict.fromkeys(("m2", "m²", "qm"), "MTK"),
    **dict.fromkeys(("l", "liter", "litre", "litres", "liters"), "LTR"),
    **dict.fromkeys(("pauschal", "pausch", "pauschale", "forfait", "lump sum", "flat"), "LS"),
    **dict.fromkeys(("set", "sets"), "SET"),
    **dict.fromkeys(("ream", "reams"), "RM"),
    **dict.fromkeys(("page", "pages", "seite", "seiten"), "ZP"),
    **dict.fromkeys(("pack", "packs", "packung", "pk"), "XPK"),
    **dict.fromkeys(("box", "boxes", "karton"), "XBX"),
    **dict.fromkeys(("bag", "bags", "beutel"), "XBG"),
    **dict.fromkeys(("bottle", "bottles", "flasche", "flaschen"), "XBO"),
    **dict.fromkeys(("roll", "rolls", "rolle", "rollen"), "XRO"),
}

# Units whose printed symbol is the SI symbol of one unit (``kg``, ``m²``): the code is the symbol's whatever the
# supplier, unlike a count's word (``Stk`` is one supplier's C62 and another's H87)
MEASURES = frozenset(("KGM", "GRM", "MTR", "KMT", "MTK", "LTR"))

EMAIL_SCHEME = "EM"  # EAS: an electronic mail address
GLN_SCHEME = "0088"  # ISO 6523 ICD: GS1 Global Location Number
LEI_SCHEME = "0199"  # ISO 6523 ICD: Legal Entity Identifier
_EAS = re.compile(r"^(?P<scheme>\d{4}|EM):(?P<id>\S+)$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# VAT id prefixes that are not the ISO 3166 code of their country (EU VAT: Greece's EL; Swiss UID's CHE)
_VAT_PREFIX_COUNTRIES = {"EL": "GR", "CHE": "CH"}
_US_ZIP = re.compile(r"^\d{5}(-\d{4})?$")


def vat_category(printed: object, rate) -> str | None:
    """A line's, row's or allowance's VAT category: as printed (invoice-en16931), else ``S`` for a positive rate
    (EN 16931's only category with a positive rate outside L / M), else None: a rate of 0 says no category."""
    if isinstance(printed, str) and printed:
        return printed
    return STANDARD_RATE if rate is not None and rate > 0 else None


def document_type_of(code: str) -> tuple[str, bool]:
    """invoice-en16931's ``document_type`` for a UNTDID 1001 code, and whether the code has that word of its own
    (else the nearest: ``credit_note`` for the other credit notes, ``invoice`` for the rest)."""
    for word, own in DOCUMENT_TYPES.items():
        if own == code:
            return word, True
    return ("credit_note" if code in CREDIT_NOTES else "invoice"), False


def payment_means_of(code: str) -> str | None:
    """invoice-en16931's ``payment_means`` word for a UNTDID 4461 code, None when it has none."""
    return next((word for word, own in PAYMENT_MEANS.items() if own == code), None)


def unit_code(printed: str | None) -> str | None:
    """The Rec 20 / Rec 21 code of a printed unit (``Stk.`` -> ``H87``), ``C62`` for none, None when unknown."""
    if printed is None or not printed.strip():
        return COUNT
    return UNIT_CODES.get(printed.strip().rstrip(".").strip().lower())


def electronic_address(value: str | None) -> tuple[str, str] | None:
    """``(scheme, id)`` of an electronic address as printed: an e-mail address (``EM``) or ``scheme:id`` with a
    four-digit EAS code (``0204:991-12345-67``); None for anything else."""
    if not value or not value.strip():
        return None
    text = value.strip()
    if _EMAIL.match(text):
        return EMAIL_SCHEME, text
    match = _EAS.match(text)
    return (match["scheme"], match["id"]) if match else None


def country_from(*, vat_id: str | None, postal_code: str | None, currency: str | None) -> tuple[str, str] | None:
    """``(country, how)`` for an address that prints no country, read from what the page does print: the VAT id's
    country prefix, or a US ZIP code on a USD invoice; None when neither says."""
    prefix = re.match(r"^([A-Z]{2,3})", (vat_id or "").strip().upper())
    if prefix:
        code = _VAT_PREFIX_COUNTRIES.get(prefix[1], prefix[1] if len(prefix[1]) == 2 else None)
        if code:
            return code, f"the VAT id's prefix {prefix[1]}"
    if currency == "USD" and postal_code and _US_ZIP.match(postal_code.strip()):
        return "US", "a US ZIP code on a USD invoice"
    return None
