"""What the register knew before an entry: the read half of ``Register.check_and_add``'s one transaction.

``known`` gathers, inside the caller's write transaction, everything ``checks.decide`` needs (``checks.Known``): the
entry's unique keys claimed for it (``register_file_keys``, ``register_invoice_keys``: ``INSERT ... ON CONFLICT DO
NOTHING``) or, where another entry holds one, that original; a possible duplicate in the date window; the
supplier's known flag and trusted accounts; the other suppliers paid to the same IBAN; the other VAT ids of the same
name. Originals a person said this document is not a duplicate of are left out (``decisions.undecided``).

``store`` (``Register``) opens the transaction, writes the entry and what it learnt; this module only reads (and
claims the unique keys), so the questions asked of the register are in one place, apart from people's decisions
and master data.
"""

from __future__ import annotations

from typing import Any

from extractor.register.checks import Account, Earlier, Known, date_window
from extractor.register.claims import Claims
from extractor.register.db import Database
from extractor.register.decisions import decided_originals, undecided
from extractor.register.keys import Keys

_ENTRY = "seq, source, place, kind, seen_at, sha256, printed"


def known(
    db: Database, tx: Any, tenant: str, keys: Keys, said: Claims, *, sha256: str, place: str, seq: int, window_days: int
) -> Known:
    """What ``tenant``'s register knew before entry ``seq`` (its unique keys claimed for it where it is the first;
    ``window_days``: ``CheckSettings.window_days``, the possible duplicate's date window)."""
    same_file = _first(db, tx, tenant, "register_file_keys", ("sha256",), (sha256,), seq)
    first_run = seq
    if same_file is not None and same_file.place == place:
        # a re-run of the same path: itself; it compares with what came before its first run, as that run did
        # (the file key is held by the earliest entry of these bytes)
        first_run, same_file = same_file.seq, None
    same_number = None
    if said.verified and keys.supplier and keys.number:
        same_number = _first(
            db,
            tx,
            tenant,
            "register_invoice_keys",
            ("supplier_key", "document_type", "number"),
            (keys.supplier, keys.document_type, keys.number),
            seq,
        )
        if same_number is not None and same_number.sha256 == sha256:
            same_number = None  # the same bytes: a duplicate_file (another place) or itself
    # originals a person said this document is not a duplicate of (register.decisions) are left out
    decided = decided_originals(db, tx, tenant=tenant, sha256=sha256, place=place)
    same_file, same_number = undecided(same_file, decided), undecided(same_number, decided)
    candidate = None
    if same_file is None and same_number is None:
        candidate = undecided(
            _candidate(db, tx, tenant, keys, said, sha256=sha256, seq=first_run, window_days=window_days), decided
        )
    supplier = None
    if keys.supplier is not None:
        supplier = db.execute(
            tx, "SELECT known FROM register_suppliers WHERE tenant = ? AND key = ?", (tenant, keys.supplier)
        ).fetchone()
    return Known(
        supplier_known=bool(supplier and supplier[0]),
        trusted=_trusted(db, tx, tenant, keys.supplier) if keys.supplier else (),
        holders=_holders(db, tx, tenant, keys) if said["iban"] and keys.iban else (),
        other_vat_ids=_other_vat_ids(db, tx, tenant, keys) if said["vat_id"] and keys.name_norm else (),
        same_file=same_file,
        same_number=same_number,
        candidate=candidate,
    )


def _first(
    db: Database, tx: Any, tenant: str, table: str, columns: tuple[str, ...], values: tuple, seq: int
) -> Earlier | None:
    """Claim ``table``'s unique key for entry ``seq``; when another entry holds it, that one (the original)."""
    columns, values = ("tenant", *columns), (tenant, *values)
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    taken = db.execute(
        tx,
        f"INSERT INTO {table} ({names}, entry_seq) VALUES ({marks}, ?) ON CONFLICT ({names}) DO NOTHING "
        "RETURNING entry_seq",
        (*values, seq),
    ).fetchone()
    if taken is not None:
        return None
    where = " AND ".join(f"k.{c} = ?" for c in columns)
    row = db.execute(
        tx,
        f"SELECT {', '.join('e.' + c for c in _ENTRY.split(', '))} FROM {table} k "
        f"JOIN register_entries e ON e.seq = k.entry_seq WHERE {where}",
        values,
    ).fetchone()
    return _earlier(row) if row is not None else None


def _candidate(
    db: Database, tx: Any, tenant: str, keys: Keys, said: Claims, *, sha256: str, seq: int, window_days: int
) -> Earlier | None:
    if not (said.supplier and said["total"] and keys.supplier and keys.total and keys.currency and keys.issue_date):
        return None
    first, last = date_window(keys.issue_date, window_days)
    row = db.execute(
        tx,
        f"SELECT {_ENTRY} FROM register_entries WHERE tenant = ? AND supplier_key = ? AND currency = ? "
        "AND total = ? AND issue_date >= ? AND issue_date <= ? AND document_type = ? AND total_claimed = 1 "
        "AND seq < ? AND sha256 <> ? AND (number IS NULL OR number <> ?) ORDER BY seq LIMIT 1",
        (tenant, keys.supplier, keys.currency, keys.total, first, last, keys.document_type, seq, sha256)
        + (keys.number or "",),
    ).fetchone()
    return _earlier(row) if row is not None else None


def _trusted(db: Database, tx: Any, tenant: str, supplier: str) -> tuple[Account, ...]:
    rows = db.execute(
        tx,
        "SELECT iban, source, by_whom, at FROM register_accounts WHERE tenant = ? AND supplier_key = ? "
        "ORDER BY at, iban",
        (tenant, supplier),
    ).fetchall()
    return tuple(Account(iban=r[0], source=r[1], by=r[2], at=r[3]) for r in rows)


def _holders(db: Database, tx: Any, tenant: str, keys: Keys) -> tuple[str, ...]:
    rows = db.execute(
        tx,
        "SELECT a.supplier_key, s.name FROM register_accounts a LEFT JOIN register_suppliers s "
        "ON s.tenant = a.tenant AND s.key = a.supplier_key WHERE a.tenant = ? AND a.iban = ? "
        "AND a.supplier_key <> ? ORDER BY a.supplier_key",
        (tenant, keys.iban, keys.supplier or ""),
    ).fetchall()
    return tuple(r[1] or r[0] for r in rows)


def _other_vat_ids(db: Database, tx: Any, tenant: str, keys: Keys) -> tuple[str, ...]:
    rows = db.execute(
        tx,
        "SELECT DISTINCT vat_id FROM register_suppliers WHERE tenant = ? AND name_norm = ? AND known = 1 "
        "AND vat_id IS NOT NULL AND vat_id <> ? ORDER BY vat_id",
        (tenant, keys.name_norm, keys.vat_id or ""),
    ).fetchall()
    return tuple(r[0] for r in rows)


def _earlier(row: Any) -> Earlier:
    return Earlier(
        source=row[1], place=row[2], kind=row[3], seen_at=row[4], sha256=row[5], number=row[6], seq=int(row[0])
    )


__all__ = ["known"]
