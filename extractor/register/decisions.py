"""People's decisions on the register's findings (issue 40, item 5): a person who looked at a flagged document says
"not a duplicate" of the earlier one it was flagged against, and the register learns it.

A decision is kept in ``register_decisions`` with who and when, keyed by the two documents: the flagged one and
its original, each as ``(sha256, place)`` (the file's bytes and where it is: a path, or a service job's id). From
then on the pair is never flagged again: ``store.Register.check_and_add`` leaves a decided original out of what the
register knew (``undecided``: a re-run of the document under other settings, a ``--force``'d run), and the
flagged document's registered entry loses the findings about that original at once (so a repeated registration,
which answers the entry as registered, says so too). A third copy of the original is still flagged: the decision is
about one pair.

The other decision, "I called the supplier: this account is right", is ``Register.trust`` (the account trusted with
source ``review``, who and when).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from extractor.register.checks import DUPLICATES, Earlier
from extractor.register.db import Database, RegisterError

NOT_DUPLICATE = "not_duplicate"


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


def not_a_duplicate(register, *, sha256: str, place: str, original: Mapping[str, Any], by: str) -> dict:
    """Save "not a duplicate": the document ``(sha256, place)`` is not a duplicate of ``original`` (a finding's
    ``original``: ``{source, seen_at, record|job, sha256}``), said by ``by`` now. One transaction: the decision kept
    (saying it again updates who and when), and the document's entries lose their duplicate findings about that
    original.

    Args:
        register: the ``store.Register``.
        sha256: the flagged document's file hash; place: where it is (as registered: its path or job id).
        original: the finding's original.
        by: who decided.

    Returns:
        ``{decision, sha256, place, original, code, by, at, entries}`` (``entries``: how many registered entries of
        the document lost a finding; 0 when the document is not in this register).

    Raises:
        RegisterError: the original names no place, or the register cannot be written.
    """
    theirs = (str(original.get("sha256") or ""), original_place(original))
    at = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")  # as store.now
    with register.db.transaction() as tx:
        register.db.execute(
            tx,
            "INSERT INTO register_decisions (tenant, sha256, place, original_sha256, original_place, decision, "
            "by_whom, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, sha256, place, original_sha256, "
            "original_place) DO UPDATE SET decision = excluded.decision, by_whom = excluded.by_whom, at = excluded.at",
            (register.tenant, sha256, place, *theirs, NOT_DUPLICATE, by, at),
        )
        rows = register.db.execute(
            tx,
            "SELECT seq, result FROM register_entries WHERE tenant = ? AND sha256 = ? AND place = ?",
            (register.tenant, sha256, place),
        ).fetchall()
        codes, changed = set(), 0
        for seq, result in rows:
            entry = json.loads(result) if result else {}
            findings = entry.get("findings") or []
            kept = [f for f in findings if not _about(f, theirs)]
            codes |= {f["code"] for f in findings if _about(f, theirs)}
            if len(kept) != len(findings):
                changed += 1
                entry["findings"] = kept
                register.db.execute(
                    tx,
                    "UPDATE register_entries SET result = ? WHERE seq = ?",
                    (json.dumps(entry, ensure_ascii=False), seq),
                )
    return {
        "decision": NOT_DUPLICATE,
        "sha256": sha256,
        "place": place,
        "original": dict(original),
        "code": ",".join(sorted(codes)) or None,
        "by": by,
        "at": at,
        "entries": changed,
    }


def decisions(register, *, sha256: str, place: str) -> list[dict]:
    """The decisions saved about a document: ``{original_sha256, original_place, decision, by, at}`` each."""
    with register.db.transaction(write=False) as tx:
        rows = register.db.execute(
            tx,
            "SELECT original_sha256, original_place, decision, by_whom, at FROM register_decisions "
            "WHERE tenant = ? AND sha256 = ? AND place = ? ORDER BY at",
            (register.tenant, sha256, place),
        ).fetchall()
    return [{"original_sha256": r[0], "original_place": r[1], "decision": r[2], "by": r[3], "at": r[4]} for r in rows]


def _about(finding: Mapping[str, Any], original: tuple[str, str]) -> bool:
    """Whether a duplicate finding names this original."""
    theirs = finding.get("original") or {}
    if finding.get("code") not in DUPLICATES or not isinstance(theirs, Mapping):
        return False
    return (theirs.get("sha256"), theirs.get("record") or theirs.get("job")) == original


__all__ = ["NOT_DUPLICATE", "decided_originals", "decisions", "not_a_duplicate", "original_place", "undecided"]
