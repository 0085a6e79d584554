"""The invoice register on the review page (issue 40, item 5): a flagged duplicate beside the earlier invoice, a
changed account beside the trusted ones, and a person's two decisions, saved in the register with who and when.

* **Duplicates** (``duplicate_file``, ``duplicate_invoice``, ``possible_duplicate``): the finding's original (its
  source, when it was seen, its record or job) beside this document, with both documents' key values (supplier,
  VAT id, number, date, total, IBAN masked): the original's from its record in OUT when it is there (a link to it),
  else from its register entry. **Not a duplicate** saves the decision (``Register.not_a_duplicate``: the findings
  resolved, the pair remembered by ``register.decisions`` and never flagged again).
* **Accounts** (``bank_details_changed``, ``bank_account_of_other_supplier``, ``bank_account_not_trusted``): the
  account this document pays to (masked) beside the supplier's trusted accounts as the register holds them now
  (masked: last 4 characters; where each was trusted from, by whom, when). **Confirm this account** ("I called
  the supplier") trusts it (``Register.trust``: source ``review``).

The reviewer and the time are the review page's own (``RecordStore.reviewer``: ``--reviewer`` or the OS user; UTC,
to the second), as in the reviewed files. Which register: ``extract review --register PATH_OR_URL``, else a
watcher's default (``OUT/.extractor/register.sqlite``) when it is there; without one the page shows what the
record says and the actions say why they cannot run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from extractor.register import Register, RegisterError
from extractor.register.checks import DUPLICATES
from extractor.register.decisions import decisions
from extractor.register.keys import id_key, mask_iban
from extractor.tools.review_page.records import Entry, RecordStore

WATCH_REGISTER = Path(".extractor") / "register.sqlite"  # jobs.watch's default, inside its OUT
ACCOUNT_CODES = ("bank_details_changed", "bank_account_of_other_supplier", "bank_account_not_trusted")


def find_register(out: Path, url: str | None) -> Register | None:
    """The register the review page uses: ``url`` when given, else the watcher's default in OUT when it exists.

    Raises:
        RegisterError: a given register cannot be opened.
    """
    if url:
        return Register.open(url)
    default = Path(out) / WATCH_REGISTER
    return Register.open(default) if default.is_file() else None


def key_values(record: Mapping[str, Any], data: Any = None) -> dict:
    """A document's key values as the page compares them: ``{source, sha256, supplier, vat_id, number, date,
    total, currency, iban}`` (the IBAN masked)."""
    data = data if isinstance(data, Mapping) else record.get("data")
    data = data if isinstance(data, Mapping) else {}
    seller = data.get("seller") if isinstance(data.get("seller"), Mapping) else {}
    iban = _iban(data)
    return {
        "source": record.get("source"),
        "sha256": record.get("sha256"),
        "supplier": seller.get("name"),
        "vat_id": seller.get("vat_id"),
        "number": data.get("invoice_number"),
        "date": data.get("issue_date"),
        "total": data.get("total"),
        "currency": data.get("currency"),
        "iban": mask_iban(iban) if iban else None,
    }


class RegisterPanel:
    """The register's part of the record page, and its two actions."""

    def __init__(self, store: RecordStore, register: Register | None) -> None:
        """Args: store: the records; register: the register (None: the page only shows what records say)."""
        self.store, self.register = store, register

    def view(self, entry: Entry, entries: Sequence[Entry], data: Any = None) -> dict | None:
        """What the page shows of a record's ``register`` key (None: the record has none)."""
        said = entry.record.get("register")
        if not isinstance(said, Mapping):
            return None
        findings = [f for f in said.get("findings") or () if isinstance(f, Mapping)]
        place = self._place(entry)
        register = self.register
        decided = decisions(register, sha256=str(entry.record.get("sha256")), place=place) if register and place else []
        return {
            "register": self.register.name if self.register is not None else None,
            "named": said.get("register"),
            "scope": said.get("scope"),
            "can_act": self._can_act(entry),
            "place": place,
            "supplier": said.get("supplier") or {},
            "this": key_values(entry.record, data),
            "duplicates": [
                self._duplicate(entry, f, entries, decided) for f in findings if f.get("code") in DUPLICATES
            ],
            "account": self._account(entry, said, findings, data),
            "notes": [{"code": f.get("code"), "message": f.get("message")} for f in findings if _note(f)],
        }

    def trust(self, entry: Entry) -> tuple[int, dict]:
        """Confirm the account this document pays to ("I called the supplier"): (200, what was saved) or (409, why
        not)."""
        said = entry.record.get("register") or {}
        supplier = (said.get("supplier") or {}).get("key")
        reviewed = self.store.reviewed(entry)
        iban = _iban(reviewed["data"] if reviewed is not None else entry.record.get("data"))
        register = self.register
        if register is None or not self._can_act(entry):
            return 409, {"error": self._why_not(entry)}
        if not supplier or not iban:
            return 409, {"error": "the record names no supplier or no IBAN to trust"}
        try:
            account = register.trust(supplier, iban, by=self.store.reviewer)
        except RegisterError as exc:
            return 409, {"error": str(exc)}
        return 200, {"trusted": account.to_dict(), "supplier": supplier}

    def not_duplicate(self, entry: Entry, posted: Mapping[str, Any]) -> tuple[int, dict]:
        """Mark the record "not a duplicate" of one of its findings' originals (``posted``: ``{sha256, place}``):
        (200, the decision) or (404 / 409, why not)."""
        register = self.register
        if register is None or not self._can_act(entry):
            return 409, {"error": self._why_not(entry)}
        said = entry.record.get("register") or {}
        wanted = (posted.get("sha256"), posted.get("place"))
        original = next(
            (
                f["original"]
                for f in said.get("findings") or ()
                if f.get("code") in DUPLICATES
                and isinstance(f.get("original"), Mapping)
                and (f["original"].get("sha256"), f["original"].get("record") or f["original"].get("job")) == wanted
            ),
            None,
        )
        if original is None:
            return 404, {"error": "the record has no duplicate finding about that original"}
        place = self._place(entry)
        if place is None:
            return 409, {"error": f"{entry.record.get('source')} is not in the register {register.name}"}
        try:
            resolved = register.not_a_duplicate(place, by=self.store.reviewer)
        except RegisterError as exc:
            return 409, {"error": str(exc)}
        decided = decisions(register, sha256=str(entry.record.get("sha256")), place=place)
        return 200, {"resolved": resolved, "decisions": decided}

    def close(self) -> None:
        """Close the register (this thread's connection)."""
        if self.register is not None:
            self.register.close()

    def _can_act(self, entry: Entry) -> bool:
        """A decision needs a register, and a record checked against one (a batch's own check stored nothing)."""
        return self.register is not None and (entry.record.get("register") or {}).get("scope") == "register"

    def _why_not(self, entry: Entry) -> str:
        if self.register is None:
            return "no register (extract review --register PATH_OR_URL)"
        return "a batch's own duplicate check: no register holds this record (extract run --register)"

    def _place(self, entry: Entry) -> str | None:
        """Where the register holds this record (its input's path as registered), None when it is not there."""
        if self.register is None:
            return None
        said = entry.record.get("register") or {}
        sha256, _, fingerprint = str(said.get("entry") or "").partition(":")  # the entry: sha256:fingerprint
        return self.register.entry_place(sha256=sha256, fingerprint=fingerprint, source=entry.record.get("source"))

    def _duplicate(
        self, entry: Entry, finding: Mapping[str, Any], entries: Sequence[Entry], decided: list[dict]
    ) -> dict:
        found = finding.get("original")
        original: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        place = original.get("record") or original.get("job")
        earlier = _earlier_record(entry, original, entries)
        decision = next(
            (d for d in decided if (d["original_sha256"], d["original_place"]) == (original.get("sha256"), place)),
            None,
        )
        return {
            "code": finding.get("code"),
            "message": finding.get("message"),
            "original": dict(original),
            "place": place,
            "name": earlier.name if earlier is not None else None,
            "original_values": key_values(earlier.record) if earlier is not None else self._registered_values(original),
            "decision": decision,
        }

    def _registered_values(self, original: Mapping[str, Any]) -> dict:
        """An original's key values from its register entry (its record is not in OUT)."""
        values = {"source": original.get("source"), "sha256": original.get("sha256")}
        if self.register is None:
            return values
        place = str(original.get("record") or original.get("job") or "")
        found = self.register.entry_values(sha256=str(original.get("sha256")), place=place)
        if found is not None:
            values.update(found, iban=mask_iban(found["iban"]) if found["iban"] else None)
        return values

    def _account(self, entry: Entry, said: Mapping, findings: list[Mapping], data: Any) -> dict | None:
        flagged = [f for f in findings if f.get("code") in ACCOUNT_CODES]
        if not flagged:
            return None
        supplier = said.get("supplier") or {}
        iban = _iban(data if isinstance(data, Mapping) else entry.record.get("data"))
        trusted = list(supplier.get("trusted_accounts") or ())  # as the record was read
        now = self._trusted_now(supplier.get("key"))
        mine = next((a for a in now or () if iban and a["iban"] == iban), None)
        return {
            "findings": [
                {"code": f.get("code"), "message": f.get("message"), "severity": f.get("severity")} for f in flagged
            ],
            "iban": mask_iban(iban) if iban else None,
            "trusted": [_masked(a) for a in now] if now is not None else trusted,
            "confirmed": _masked(mine) if mine is not None else None,
            "can_confirm": self._can_act(entry) and bool(supplier.get("key")) and bool(iban),
        }

    def _trusted_now(self, supplier: str | None) -> list[dict] | None:
        """The supplier's trusted accounts as the register holds them now (IBANs whole), None without a register."""
        if self.register is None or not supplier:
            return None
        found = next((s for s in self.register.suppliers() if s["key"] == supplier), None)
        return list(found["trusted_accounts"]) if found is not None else []


def _earlier_record(entry: Entry, original: Mapping[str, Any], entries: Sequence[Entry]) -> Entry | None:
    """The original's record in OUT: another record of its bytes, the one of its source first."""
    same = [e for e in entries if e.name != entry.name and e.record.get("sha256") == original.get("sha256")]
    named = [e for e in same if e.record.get("source") == original.get("source")]
    return (named or same)[0] if (named or same) else None


def _iban(data: Any) -> str | None:
    """The document's IBAN (``bank_account.iban``), normalised; None without one."""
    account = data.get("bank_account") if isinstance(data, Mapping) else None
    iban = account.get("iban") if isinstance(account, Mapping) else None
    return id_key(iban) if isinstance(iban, str) and iban.strip() else None


def _masked(account: Mapping[str, Any]) -> dict:
    iban = str(account.get("iban") or "")
    return {**account, "iban": iban if iban.startswith("****") else mask_iban(iban)}


def _note(finding: Mapping[str, Any]) -> bool:
    return finding.get("code") not in DUPLICATES and finding.get("code") not in ACCOUNT_CODES


__all__ = ["ACCOUNT_CODES", "WATCH_REGISTER", "RegisterPanel", "find_register", "key_values"]
