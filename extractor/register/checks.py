"""The register's checks: one pure decision from a document's keys, its claims and what the register already knew
(``Known``, gathered by ``Register`` in the same transaction that registers the document).

Each finding has a stable ``code``. **Warnings** turn an ``ok`` record into ``review`` (through
``trust.verdict.record_status``, the one place a status is decided); **notes** only inform:

* ``duplicate_file`` (warning): the same bytes as an earlier document under another name (a re-run of the same
  path is not one).
* ``duplicate_invoice`` (warning): the same supplier, document type and normalised number as an earlier document
  from other bytes.
* ``possible_duplicate`` (warning): the same supplier, total and currency, issue dates within the window (7 days),
  another number.
* ``bank_details_changed`` (warning): the supplier has trusted accounts and this document pays to none of them.
* ``bank_account_of_other_supplier`` (warning): the account is trusted for another supplier.
* ``supplier_vat_id_changed`` (warning): a known supplier's name with another VAT id.
* ``new_supplier`` (a note; a warning with ``require_known_supplier``): the supplier is not known yet.
* ``unknown_supplier`` (a note; a warning with ``require_known_supplier``): no VAT id, tax number or name.
* ``bank_account_not_trusted`` (note): the supplier has no trusted account yet, so this one is not trusted either.
* ``unverified`` (note): the number or the supplier's identifier is neither in embedded XML nor on the page.

Only claims count (``claims``): the duplicate checks need a verified document (and compare with verified entries
only), the bank checks a claimed IBAN, the VAT check a claimed VAT id. A credit note never duplicates an invoice:
the document type is part of every duplicate key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from extractor.register.claims import Claims
from extractor.register.keys import Keys, mask_iban

DEFAULT_WINDOW_DAYS = 7  # possible_duplicate: issue dates this close
WARNING, NOTE = "warning", "note"
DUPLICATES = ("duplicate_file", "duplicate_invoice", "possible_duplicate")  # a batch without a register: only these
CODES = (
    *DUPLICATES,
    "bank_details_changed",
    "bank_account_of_other_supplier",
    "supplier_vat_id_changed",
    "new_supplier",
    "unknown_supplier",
    "bank_account_not_trusted",
    "unverified",
)


@dataclass(frozen=True)
class CheckSettings:
    """How strict the checks are.

    Attributes:
        window_days: ``possible_duplicate``'s window: issue dates at most this many days apart.
        require_known_supplier: ``new_supplier`` / ``unknown_supplier`` are warnings (else notes).
    """

    window_days: int = DEFAULT_WINDOW_DAYS
    require_known_supplier: bool = False


@dataclass(frozen=True)
class Earlier:
    """An earlier document of the register, as a finding names it (its ``original``).

    Attributes:
        source: the input as given; place: where it is (a path or a job id) and kind (``record`` or ``job``).
        seen_at: when it was registered (ISO 8601 UTC); sha256: its file's hash; number: its number as printed.
        seq: its entry's number in the register (registration order).
    """

    source: str
    place: str
    kind: str
    seen_at: str
    sha256: str
    number: str | None = None
    seq: int = 0

    def to_dict(self) -> dict:
        """``{source, seen_at, record|job, sha256}``."""
        return {"source": self.source, "seen_at": self.seen_at, self.kind: self.place, "sha256": self.sha256}


@dataclass(frozen=True)
class Account:
    """A trusted bank account: its IBAN (normalised), where it was trusted from (``master_data``, ``ok_record``,
    ``review``), by whom and when."""

    iban: str
    source: str
    by: str | None = None
    at: str | None = None

    def to_dict(self) -> dict:
        """The record's ``trusted_accounts`` entry, the IBAN masked."""
        return {"iban": mask_iban(self.iban), "source": self.source, "by": self.by, "at": self.at}


@dataclass(frozen=True)
class Known:
    """What the register knew before this document (the register reads it in the registering transaction).

    Attributes:
        supplier_known: the supplier is known (imported, trusted, or an ``ok`` record of it was registered).
        trusted: the supplier's trusted accounts.
        holders: the names of the other suppliers this IBAN is trusted for.
        other_vat_ids: the VAT ids other known suppliers of the same normalised name have.
        same_file: the first earlier document with the same bytes under another name.
        same_number: the original with the same supplier, type and number (other bytes).
        candidate: an earlier document with the same supplier, total, currency, close date and another number.
    """

    supplier_known: bool = False
    trusted: tuple[Account, ...] = ()
    holders: tuple[str, ...] = ()
    other_vat_ids: tuple[str, ...] = ()
    same_file: Earlier | None = None
    same_number: Earlier | None = None
    candidate: Earlier | None = None


@dataclass(frozen=True)
class Finding:
    """One check's finding: a stable ``code``, words for a person, warning or note, and the earlier document it
    is about."""

    code: str
    message: str
    severity: str = WARNING
    original: Earlier | None = None
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The record's ``register.findings`` entry: ``{code, message, severity, original}`` (+ ``trusted``)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message, "severity": self.severity}
        out["original"] = self.original.to_dict() if self.original is not None else None
        out.update(self.extra)
        return out


def date_window(issue_date: str, days: int) -> tuple[str, str]:
    """The ISO dates ``days`` before and after ``issue_date`` (the candidates' range)."""
    day = date.fromisoformat(issue_date)
    return (day - timedelta(days=days)).isoformat(), (day + timedelta(days=days)).isoformat()


def decide(keys: Keys, claims: Claims, known: Known, *, settings: CheckSettings) -> tuple[Finding, ...]:
    """Every finding of one document against what the register knew (module docstring's table).

    Args:
        keys: the document's normalised keys.
        claims: which of them count.
        known: what the register knew (``Known``).
        settings: the window and whether a supplier must be known.

    Returns:
        The findings, warnings first in the table's order, then notes.
    """
    out = [*_duplicates(keys, claims, known), *_bank(keys, claims, known), *_supplier(keys, claims, known, settings)]
    if not claims.verified:
        out.append(
            Finding(
                "unverified",
                "registered as unverified: its number or its supplier's identifier is neither in embedded XML nor "
                "found on the page, so it is never taken as another document's original",
                NOTE,
            )
        )
    return tuple(sorted(out, key=lambda f: f.severity != WARNING))


def _duplicates(keys: Keys, claims: Claims, known: Known) -> list[Finding]:
    if known.same_file is not None:
        first = known.same_file
        return [
            Finding(
                "duplicate_file",
                f"the same file (sha256 {first.sha256[:12]}) was registered as {first.source} at {first.seen_at}",
                original=first,
            )
        ]
    if known.same_number is not None:
        first = known.same_number
        return [
            Finding(
                "duplicate_invoice",
                f"{_kind(keys)} {keys.printed!r} of {keys.name or keys.supplier} was registered before, from "
                f"{first.source} at {first.seen_at}: paying it again would pay it twice",
                original=first,
            )
        ]
    if known.candidate is not None and claims["total"]:
        first = known.candidate
        return [
            Finding(
                "possible_duplicate",
                f"{keys.name or keys.supplier} billed the same {keys.total} {keys.currency} within days, as "
                f"{first.number!r} ({first.source}, registered {first.seen_at}): the same invoice under another "
                "number?",
                original=first,
            )
        ]
    return []


def _bank(keys: Keys, claims: Claims, known: Known) -> list[Finding]:
    if not (claims["iban"] and keys.iban and claims.supplier):
        return []
    out = []
    trusted = [a.iban for a in known.trusted]
    if known.trusted and keys.iban not in trusted:
        shown = ", ".join(f"{mask_iban(a.iban)} ({a.source}{f' by {a.by}' if a.by else ''})" for a in known.trusted)
        out.append(
            Finding(
                "bank_details_changed",
                f"pays to {mask_iban(keys.iban)}, which is not one of {keys.name or keys.supplier}'s trusted "
                f"accounts: {shown}. Confirm it with the supplier by a known channel before paying",
                extra={"trusted": [a.to_dict() for a in known.trusted]},
            )
        )
    elif not known.trusted:
        out.append(
            Finding(
                "bank_account_not_trusted",
                f"{keys.name or keys.supplier} has no trusted account yet: {mask_iban(keys.iban)} is not trusted "
                "either (an ok record, an import or a person's review trusts it)",
                NOTE,
            )
        )
    if known.holders:
        out.append(
            Finding(
                "bank_account_of_other_supplier",
                f"{mask_iban(keys.iban)} is trusted for another supplier: {', '.join(known.holders)}",
            )
        )
    return out


def _supplier(keys: Keys, claims: Claims, known: Known, settings: CheckSettings) -> list[Finding]:
    strict = WARNING if settings.require_known_supplier else NOTE
    if keys.supplier is None:
        return [
            Finding(
                "unknown_supplier",
                "no VAT id, tax number or name identifies the supplier: registered as unknown, never merged with "
                "another supplier",
                strict,
            )
        ]
    out = []
    if claims["vat_id"] and known.other_vat_ids:
        out.append(
            Finding(
                "supplier_vat_id_changed",
                f"{keys.name} is known with VAT id {', '.join(known.other_vat_ids)}, this document says {keys.vat_id}",
            )
        )
    if not known.supplier_known:
        out.append(Finding("new_supplier", f"{keys.name or keys.supplier} is not a known supplier yet", strict))
    return out


def _kind(keys: Keys) -> str:
    return "credit note" if keys.document_type == "credit_note" else "invoice"


__all__ = [
    "CODES",
    "DEFAULT_WINDOW_DAYS",
    "DUPLICATES",
    "NOTE",
    "WARNING",
    "Account",
    "CheckSettings",
    "Earlier",
    "Finding",
    "Known",
    "date_window",
    "decide",
]
