"""The review page's register panel: a record's invoice-register findings beside what they are about (the earlier
invoice a duplicate repeats, linked when its record is in the same folder; a changed account beside the supplier's
trusted ones), and the two things a person decides there, saved in the register with who and when:

* **confirm account** (``bank_details_changed``): "I called the supplier": the record's IBAN is trusted for its
  supplier (``Register.trust``, source ``review``), and the documents held for paying to it are resolved;
* **not a duplicate** (``duplicate_invoice``, ``duplicate_file``, ``possible_duplicate``): the record's duplicate
  findings become notes (``Register.not_a_duplicate``).

Both need the register the records were checked against (``extract review OUT --register PATH_OR_URL``); without
it the panel shows the findings only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from extractor.register.checks import DUPLICATES

ACTIONS = {"confirm_account": ("bank_details_changed",), "not_a_duplicate": DUPLICATES}


class RegisterPanel:
    """The panel's data and actions over one register (or none)."""

    def __init__(self, url: str | None) -> None:
        """Open the register at ``url`` (None: findings shown, no actions).

        Raises:
            RegisterError: it cannot be opened.
        """
        self.register = None
        if url:
            from extractor.register import Register

            self.register = Register.open(url)

    def view(self, record: Mapping, *, names: Mapping[str, str]) -> dict | None:
        """The panel of a record: its ``register`` entry with each finding's actions and its original's record
        name in this folder (``names``: source -> record name); None without findings."""
        entry = record.get("register")
        if not isinstance(entry, Mapping) or not entry.get("findings"):
            return None
        findings = []
        for finding in entry["findings"]:
            original = dict(finding.get("original") or {})
            if original:
                original["name"] = names.get(str(original.get("source")))
            open_warning = finding.get("severity") == "warning" and self.register is not None
            actions = [a for a, codes in ACTIONS.items() if finding["code"] in codes] if open_warning else []
            if entry.get("scope") != "register":
                actions = []  # a batch's own check: nothing stored to decide on
            findings.append({**finding, "original": original or None, "actions": actions})
        return {
            "scope": entry.get("scope"),
            "supplier": entry.get("supplier") or {},
            "findings": findings,
            "can_act": self.register is not None and entry.get("scope") == "register",
        }

    def act(self, record: Mapping, action: str, *, by: str) -> dict:
        """Do ``action`` for a record, as ``by``.

        Returns:
            ``{"action", "by", "done"}`` (what was saved).

        Raises:
            ValueError: an unknown action, no register, or a record the action does not apply to.
            RegisterError: the register refused it (no such supplier or entry, a bad IBAN).
        """
        if self.register is None:
            raise ValueError("no register: start extract review with --register PATH_OR_URL")
        if action == "confirm_account":
            supplier = ((record.get("register") or {}).get("supplier") or {}).get("key")
            iban = _iban(record)
            if not supplier or not iban:
                raise ValueError("this record names no supplier or no IBAN to confirm")
            account = self.register.trust(supplier, iban, by=by)
            return {"action": action, "by": by, "done": f"****{account.iban[-4:]} trusted by {by} at {account.at}"}
        if action == "not_a_duplicate":
            count = self.register.not_a_duplicate(str(record.get("source")), by=by)
            return {"action": action, "by": by, "done": f"{count} finding(s) marked not a duplicate by {by}"}
        raise ValueError(f"unknown action {action!r} (expected {', '.join(ACTIONS)})")

    def close(self) -> None:
        """Close the register's connection."""
        if self.register is not None:
            self.register.close()


def _iban(record: Mapping) -> str | None:
    data: Any = record.get("data")
    bank = data.get("bank_account") if isinstance(data, Mapping) else None
    iban = bank.get("iban") if isinstance(bank, Mapping) else None
    return iban if isinstance(iban, str) and iban else None


__all__ = ["ACTIONS", "RegisterPanel"]
