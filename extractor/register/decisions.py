"""People's "not a duplicate", remembered per pair (issue 40, item 5): a person who looked at a flagged document says
it is not a duplicate of the earlier one it was flagged against, and the register never flags that pair again.

``Register.not_a_duplicate`` resolves the document's duplicate findings (they become notes with ``resolved: {decision,
by, at}``, so a repeated registration answers them resolved) and, through ``remember_not_duplicates``, keeps each
pair in ``register_decisions`` with who and when: the flagged document and its original, each as ``(sha256,
place)`` (the file's bytes and where it is: a path, or a service job's id). ``Register.check_and_add`` leaves a
decided original out of what the register knew (``undecided``), so the document checked again as a new entry (other
settings, a copy at the same place) is not flagged for it either. A third copy of the original is still flagged:
the decision is about one pair.

The other decision, "I called the supplier: this account is right", is ``Register.trust`` (the account trusted with
source ``review``, who and when).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from extractor.db.database import outlasting
from extractor.register.checks import DUPLICATES, WARNING, Earlier
from extractor.register.db import Database, RegisterError

NOT_DUPLICATE = "not_a_duplicate"  # as Register.not_a_duplicate resolves the findings


def decided_originals(db: Database, tx: Any, *, tenant: str, sha256: str, place: str) -> set[tuple[str, str]]:
    """The originals ``(sha256, place)`` a person said this document ``(sha256, place)`` is not a duplicate of (in
    ``tenant``'s register)."""
    rows = db.execute(
        tx,
        "SELECT original_sha256, original_place FROM register_decisions WHERE tenant = ? AND sha256 = ? "
        "AND place = ? AND decision = ?",
        (tenant, sha256, place, NOT_DUPLICATE),
    ).fetchall()
    return {(r[0], r[1]) for r in rows}


def undecided(earlier: Earlier | None, decided: set[tuple[str, str]]) -> Earlier | None:
    """``earlier``, or None when a person said the document is not its duplicate."""
    return None if earlier is not None and (earlier.sha256, earlier.place) in decided else earlier


def original_place(original: Mapping[str, Any]) -> str:
    """The place a finding's ``original`` names: its ``record`` (a path) or its ``job`` (a job id).

    Raises:
        RegisterError: it names neither.
    """
    place = original.get("record") or original.get("job")
    if not isinstance(place, str) or not place:
        raise RegisterError("the finding's original names no record or job")
    return place


def remember_not_duplicates(register, source: str, *, place: str, by: str, at: str) -> int:
    """Keep "not a duplicate" for every duplicate warning of a document (``Register.not_a_duplicate`` calls it before
    it resolves them): each pair, the document and the original its finding names, is never flagged again.

    Args:
        register: the ``register.Register``.
        source: the document: its path, job id, or source as given; place: its path as registered
            (``register.place_of``).
        by: who decided; at: when (ISO 8601 UTC).

    Returns:
        How many pairs were kept (saying it again updates who and when).
    """
    count = 0
    with register.db.transaction() as tx:
        rows = register.db.execute(
            tx,
            "SELECT sha256, place, result FROM register_entries WHERE tenant = ? AND (place = ? OR source = ? "
            "OR place = ?)",
            (register.tenant, source, source, place),
        ).fetchall()
        for sha256, place, result in rows:
            for finding in (json.loads(result) if result else {}).get("findings") or []:
                original = finding.get("original")
                if finding.get("code") not in DUPLICATES or finding.get("severity") != WARNING or not original:
                    continue
                register.db.execute(
                    tx,
                    "INSERT INTO register_decisions (tenant, sha256, place, original_sha256, original_place, "
                    "decision, by_whom, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, sha256, place, "
                    "original_sha256, original_place) DO UPDATE SET decision = excluded.decision, "
                    "by_whom = excluded.by_whom, at = excluded.at",
                    (
                        register.tenant,
                        sha256,
                        place,
                        original["sha256"],
                        original_place(original),
                        NOT_DUPLICATE,
                        by,
                        at,
                    ),
                )
                count += 1
    return count


@outlasting
def decisions(register, *, sha256: str, place: str) -> list[dict]:
    """The decisions saved about a document: ``{original_sha256, original_place, decision, by, at}`` each."""
    rows = register.db.read(
        "SELECT original_sha256, original_place, decision, by_whom, at FROM register_decisions "
        "WHERE tenant = ? AND sha256 = ? AND place = ? ORDER BY at",
        (register.tenant, sha256, place),
    )
    return [{"original_sha256": r[0], "original_place": r[1], "decision": r[2], "by": r[3], "at": r[4]} for r in rows]


__all__ = [
    "NOT_DUPLICATE",
    "decided_originals",
    "decisions",
    "original_place",
    "remember_not_duplicates",
    "undecided",
]
