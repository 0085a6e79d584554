"""The register's keys: a record's identifiers read from its data and normalised, so two readings of one invoice
meet on the same key however the number, the name or the IBAN was printed.

Normalisation (each a pure function, table-tested):

* **document numbers** (``number_key``): Unicode NFKC, case folded, then only the runs of letters and of digits
  are kept, each digit run without its leading zeros: ``RE-2026/0117`` and ``re 2026 117`` both give
  ``RE2026117``; ``003411`` and ``3411`` give ``3411``; ``A3411`` stays ``A3411`` (a letter is never a zero).
  Separators between runs are dropped, so ``2026-0117`` and ``2026117`` meet too: the key is only ever compared
  within one supplier and one document type.
* **names** (``name_key``): NFKD without accents, case folded, punctuation as spaces, spaces collapsed;
  legal forms are kept (``Nordlicht GmbH`` and ``Nordlicht AG`` are two companies).
* **VAT ids, tax numbers and IBANs** (``id_key``): upper case, letters and digits only (``DE 271 828 180`` and
  ``de271828180`` are one id).

The supplier (``supplier_key``): ``vat:<VAT id>``, else ``tax:<tax number>``, else ``name:<name>|<IBAN>`` (the
IBAN may be empty); None when there is neither a VAT id, a tax number nor a name: such a record is registered as
of an unknown supplier, never merged with another by guess.

The document type (``document_type``): a credit note when the embedded XML's UNTDID 1001 type code is one of the
credit notes (``einvoice.codes.CREDIT_NOTES``: 381, 396, ...), when ``invoice-en16931``'s ``document_type`` is
``credit_note``, or, under the ``invoice`` schema (which has no document type), when the total is negative (a
credit note printed as an invoice of negative amounts); an invoice otherwise. A credit note printed with positive
amounts under ``invoice`` is therefore read as an invoice: read credit notes with ``invoice-en16931`` to tell
them apart by what the page says.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice.codes import CREDIT_NOTES, DOCUMENT_TYPES

INVOICE, CREDIT_NOTE = "invoice", "credit_note"
_RUNS = re.compile(r"[^\W\d_]+|\d+")
_NOT_WORD = re.compile(r"[\W_]+")
_NOT_ALNUM = re.compile(r"[^0-9A-Z]+")


def number_key(value: Any) -> str | None:
    """A document number normalised: case, spaces, punctuation and each digit run's leading zeros folded.

    Returns:
        The key, or None when nothing of it is a letter or a digit (no number to compare).
    """
    if value is None:
        return None
    text = unicodedata.normalize("NFKC", str(value)).casefold()
    runs = [run.lstrip("0") or "0" if run.isdigit() else run.upper() for run in _RUNS.findall(text)]
    return "".join(runs) or None


def name_key(value: Any) -> str | None:
    """A party's name normalised: accents, case and punctuation folded, spaces collapsed (legal forms kept)."""
    if value is None:
        return None
    text = unicodedata.normalize("NFKD", str(value))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(_NOT_WORD.sub(" ", text).split()) or None


def id_key(value: Any) -> str | None:
    """A VAT id, tax number or IBAN normalised: upper case, letters and digits only."""
    if value is None:
        return None
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", str(value)).upper()) or None


def mask_iban(iban: str) -> str:
    """An IBAN with only its last 4 characters shown (``****3000``)."""
    return "****" + iban[-4:]


def supplier_key(*, vat_id: str | None, tax_number: str | None, name: str | None, iban: str | None) -> str | None:
    """The supplier's key from normalised identifiers: ``vat:``, else ``tax:``, else ``name:<name>|<IBAN>``; None
    when none identifies it."""
    if vat_id:
        return f"vat:{vat_id}"
    if tax_number:
        return f"tax:{tax_number}"
    if name:
        return f"name:{name}|{iban or ''}"
    return None


def document_type(data: Mapping, *, type_code: str | None = None) -> str:
    """``invoice`` or ``credit_note``: the embedded type code, else ``invoice-en16931``'s ``document_type``, else
    a negative total (module docstring)."""
    if type_code:
        return CREDIT_NOTE if str(type_code) in CREDIT_NOTES else INVOICE
    stated = data.get("document_type")
    if isinstance(stated, str) and stated:
        return CREDIT_NOTE if DOCUMENT_TYPES.get(stated, "") in CREDIT_NOTES else INVOICE
    total = amount_key(data.get("total"))
    return CREDIT_NOTE if total is not None and Decimal(total) < 0 else INVOICE


def amount_key(value: Any) -> str | None:
    """An amount as a canonical decimal string (``2377.780`` and ``2377.78`` meet), None when it is not one."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    text = format(number.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def date_key(value: Any) -> str | None:
    """An ISO date (``YYYY-MM-DD``, the schemas' format), None for anything else."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return value
    return None


@dataclass(frozen=True)
class Keys:
    """A record's identifiers, normalised (``read_keys``); each None when the record has none.

    Attributes:
        supplier: the supplier's key (``supplier_key``).
        name: the supplier's name as printed; name_norm: normalised (``name_key``).
        vat_id, tax_number, iban: normalised (``id_key``).
        number: the document number normalised (``number_key``); printed: as printed.
        document_type: ``invoice`` or ``credit_note``.
        issue_date: ISO date; total: canonical decimal string (``amount_key``); currency: upper case.
    """

    supplier: str | None
    name: str | None
    name_norm: str | None
    vat_id: str | None
    tax_number: str | None
    iban: str | None
    number: str | None
    printed: str | None
    document_type: str
    issue_date: str | None
    total: str | None
    currency: str | None


def read_keys(data: Any, *, type_code: str | None = None) -> Keys:
    """Read and normalise a record's identifiers from its data (the ``invoice`` and ``invoice-en16931`` field
    names: ``invoice_number``, ``issue_date``, ``total``, ``currency``, ``seller.{name, vat_id, tax_id /
    tax_number}``, ``bank_account.iban``, ``document_type``).

    Args:
        data: the record's data (anything but an object gives empty keys).
        type_code: the embedded XML's UNTDID 1001 type code (``record.embedded.type_code``), when there is one.
    """
    data = data if isinstance(data, Mapping) else {}
    seller = data.get("seller") if isinstance(data.get("seller"), Mapping) else {}
    bank = data.get("bank_account") if isinstance(data.get("bank_account"), Mapping) else {}
    vat, iban = id_key(seller.get("vat_id")), id_key(bank.get("iban"))
    tax = id_key(seller.get("tax_number") or seller.get("tax_id"))
    name = seller.get("name") if isinstance(seller.get("name"), str) else None
    norm = name_key(name)
    currency = data.get("currency")
    printed = data.get("invoice_number")
    return Keys(
        supplier=supplier_key(vat_id=vat, tax_number=tax, name=norm, iban=iban),
        name=name,
        name_norm=norm,
        vat_id=vat,
        tax_number=tax,
        iban=iban,
        number=number_key(printed),
        printed=None if printed is None else str(printed),
        document_type=document_type(data, type_code=type_code),
        issue_date=date_key(data.get("issue_date")),
        total=amount_key(data.get("total")),
        currency=currency.strip().upper() if isinstance(currency, str) and currency.strip() else None,
    )


__all__ = [
    "CREDIT_NOTE",
    "INVOICE",
    "Keys",
    "amount_key",
    "date_key",
    "document_type",
    "id_key",
    "mask_iban",
    "name_key",
    "number_key",
    "read_keys",
    "supplier_key",
]
