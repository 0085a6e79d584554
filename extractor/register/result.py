"""What registering one document gives (``RegisterResult``: the record's ``register`` key, its warnings, the record
with its status decided again), where a document is (``place_of``), which records are invoices the register checks
(``invoice_like``), a batch's own check (``batch_duplicates``) and a record taken back from an earlier check
(``unregistered``: checked again elsewhere, as the service's repeated uploads are)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from extractor.record import Record, issue
from extractor.register.checks import DUPLICATES, WARNING
from extractor.schema import INVOICE_SCHEMAS
from extractor.trust.verdict import registered_status


def now() -> str:
    """ISO 8601 UTC, to the second (when an entry was seen, an account trusted)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class RegisterResult:
    """What registering one document found.

    Attributes:
        entry: the record's ``register`` key (``schemas/record.schema.json``).
        repeated: this document was registered before (the same bytes, settings and place): ``entry`` is what the
            first registration found.
    """

    entry: dict
    repeated: bool = False

    @property
    def findings(self) -> tuple[dict, ...]:
        """Every finding, warnings first."""
        return tuple(self.entry["findings"])

    @property
    def warnings(self) -> tuple[dict, ...]:
        """The findings that turn ``ok`` into ``review``, as the record's warning entries (``{code, message}``)."""
        return tuple(issue(f["code"], f["message"]) for f in self.entry["findings"] if f["severity"] == WARNING)

    def apply(self, record: Record) -> Record:
        """The record with its ``register`` key, the warnings added, and its status decided again
        (``trust.verdict.registered_status``)."""
        warnings = self.warnings
        return replace(
            record,
            status=registered_status(record.status, warnings),
            warnings=tuple(record.warnings) + warnings,
            extra={**record.extra, "register": self.entry},
        )


def unregistered(record: Record) -> Record:
    """The record without an earlier register check: its ``register`` key and the warnings that check added dropped,
    ready to be checked again under another place (as it was when it carries none). Its status stays: a check only
    ever raises ``ok`` to ``review``, and checking it again raises it again whenever a warning is found."""
    entry = record.extra.get("register")
    if not isinstance(entry, Mapping):
        return record
    added = RegisterResult(dict(entry)).warnings
    return replace(
        record,
        warnings=tuple(w for w in record.warnings if w not in added),
        extra={key: value for key, value in record.extra.items() if key != "register"},
    )


def invoice_like(record: Record) -> bool:
    """Whether a record is an invoice the register checks: read under ``invoice`` / ``invoice-en16931``, or under a
    schema of its own whose data has an ``invoice_number`` (the built-in schemas' field names). Receipts and other
    documents are not registered."""
    if not isinstance(record.data, Mapping):
        return False
    return record.schema in INVOICE_SCHEMAS or "invoice_number" in record.data


def place_of(source: str) -> str:
    """A record's place when the caller names none: an existing file's absolute path, else its source as given."""
    path = Path(source)
    try:
        return str(path.resolve()) if path.is_file() else source
    except OSError:
        return source


def batch_duplicates(result: RegisterResult | None) -> RegisterResult | None:
    """A batch's own check (no register): only its duplicate findings count, and a record without any stays exactly
    as it was (None)."""
    if result is None:
        return None
    kept = [f for f in result.entry["findings"] if f["code"] in DUPLICATES]
    if not kept:
        return None
    return RegisterResult({**result.entry, "findings": kept}, repeated=result.repeated)


__all__ = ["RegisterResult", "batch_duplicates", "invoice_like", "now", "place_of", "unregistered"]
