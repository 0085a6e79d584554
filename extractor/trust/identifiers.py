"""Identifier checks on schema-valid data: the ISO 4217 currency code (pycountry), IBAN and BIC (python-stdnum), and
each party's VAT id by its country's check digits (python-stdnum; countries it does not know are not checked).

Warnings as ``trust.checks`` gives them (``currency_unknown``, ``iban_invalid``, ``bic_invalid``, ``vat_id_invalid``);
a blank or missing value is not judged.
"""

from __future__ import annotations

from typing import Any

from extractor.record import issue


def identifier_warnings(data: dict) -> list[dict]:
    """The currency code (ISO 4217), the IBAN and BIC, and each party's VAT id (its country's check digits)."""
    out = currency_warnings(data.get("currency"))
    bank = data.get("bank_account")
    if isinstance(bank, dict):
        out.extend(_iban(bank.get("iban"), "/bank_account/iban"))
        out.extend(_bic(bank.get("bic"), "/bank_account/bic"))
    for party in ("seller", "buyer"):
        p = data.get(party)
        if isinstance(p, dict):
            address = p.get("address")
            country = address.get("country") if isinstance(address, dict) else None
            out.extend(vat_id_warnings(p.get("vat_id"), f"/{party}/vat_id", country))
    return out


def vat_id_known(value: str, country: str | None = None) -> bool | None:
    """Say whether a VAT id passes python-stdnum's check for its country.

    Args:
        value: the VAT id, with a country prefix (``DE136695976``, ``CHE-123.456.788 MWST``) or without one.
        country: the party's ISO country code, used when the id has no prefix.

    Returns:
        True (valid), False (invalid), or None when stdnum has no VAT module for the country (not checked).
    """
    from stdnum import vatin
    from stdnum.exceptions import ValidationError
    from stdnum.util import get_cc_module

    compact = "".join(value.split()).upper()
    if compact[:2].isalpha():
        # stdnum.vatin's own aliases: Greece writes EL, Northern Ireland XI
        cc = {"EL": "GR", "XI": "GB"}.get(compact[:2], compact[:2])
        if get_cc_module(cc.lower(), "vat") is not None:
            return vatin.is_valid(compact)
    if country and len(country) == 2:
        module = get_cc_module(country.lower(), "vat")
        if module is not None:
            try:
                return bool(module.validate(compact))
            except ValidationError:
                return False
    return None


def vat_id_warnings(value: Any, path: str, country: str | None) -> list[dict]:
    """``vat_id_invalid`` when a non-blank VAT id fails its country's check (``vat_id_known`` False)."""
    return _identifier(
        value,
        path,
        lambda v: vat_id_known(v, country) is not False,
        "vat_id_invalid",
        "VAT id {!r} fails the format / check-digit test for its country",
    )


def _iban(value: Any, path: str) -> list[dict]:
    from stdnum import iban

    return _identifier(value, path, iban.is_valid, "iban_invalid", "IBAN {!r} has a wrong length or checksum")


def _bic(value: Any, path: str) -> list[dict]:
    from stdnum import bic

    return _identifier(value, path, bic.is_valid, "bic_invalid", "BIC {!r} is not a well-formed BIC")


def _identifier(value: Any, path: str, valid, code: str, message: str) -> list[dict]:
    """One failed check when a non-blank identifier fails its test; blank or missing values are not judged."""
    if not isinstance(value, str) or not value.strip() or valid(value):
        return []
    return [issue(code, message.format(value), path)]


def currency_warnings(value: Any) -> list[dict]:
    """``currency_unknown`` unless ``value`` is an ISO 4217 code in capitals (a non-string is not judged)."""
    if not isinstance(value, str):
        return []
    import pycountry

    if pycountry.currencies.get(alpha_3=value.upper()) is None or value != value.upper():
        return [issue("currency_unknown", f"{value!r} is not an ISO 4217 currency code", "/currency")]
    return []


__all__ = ["currency_warnings", "identifier_warnings", "vat_id_known", "vat_id_warnings"]
