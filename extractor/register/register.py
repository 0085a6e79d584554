"""The register itself: every invoice read, every supplier known, and the one transaction that checks a document
against them and adds it.

    >>> register = Register.open("register.sqlite")                # or postgresql://..., sqlite:///PATH
    >>> result = register.check_and_add(record, place="/inbox/a.pdf")  # doctest: +SKIP
    >>> record = result.apply(record)  # the ``register`` key, the warnings, the status (trust.verdict)

``check_and_add`` is **one write transaction**: it reads what the register knew (``recall.known``), decides
(``checks.decide``, pure), and writes the entry, the supplier and, for an ``ok`` record, its account as trusted.
The original of an invoice and of a file's bytes is decided by a unique key (``register_invoice_keys``,
``register_file_keys``: an ``INSERT ... ON CONFLICT DO NOTHING``), so two processes registering copies of one
invoice at once leave exactly one original, on SQLite (whose write lock serializes them) and on PostgreSQL (where
the second insert waits for the first to commit).

An entry is keyed by the file's sha256, the settings' fingerprint and its place (the input's path, or a job's id),
and written once: registering the same document again (a restart after a kill -9 between register and record, a
resumed batch) answers what was registered the first time. A document of the same bytes at the same place is the
same document (a ``--force``'d run, other settings): never a duplicate of itself.

**Trusted accounts** come only from imported master data (``import_suppliers``), a person (``trust``), or a record
that ends ``ok`` with the register's warnings in: a record in ``review`` never teaches its account, so a
fraudster's first invoice cannot make its own IBAN trusted. A supplier is **known** likewise: imported, trusted, or
with an ``ok`` record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from extractor.db.database import DatabaseOwner, outlasting
from extractor.record import Record, Status, issue
from extractor.register import recall
from extractor.register.checks import (
    DUPLICATES,
    WARNING,
    Account,
    CheckSettings,
    Known,
    decide,
)
from extractor.register.claims import Claims, claims
from extractor.register.db import Database, RegisterError, open_database
from extractor.register.decisions import remember_not_duplicates
from extractor.register.keys import Keys, id_key, name_key, read_keys, supplier_key
from extractor.register.listing import RegisterListing
from extractor.register.result import RegisterResult, invoice_like, now, place_of
from extractor.trust.verdict import registered_status

REGISTER, BATCH = "register", "batch"  # the record's ``register.scope``
DEFAULT_CHECKS = CheckSettings()


class Register(RegisterListing, DatabaseOwner):
    """An invoice register (module docstring). Thread-safe; several processes may share one (SQLite on one machine,
    PostgreSQL on any)."""

    def __init__(
        self, db: Database, *, settings: CheckSettings = DEFAULT_CHECKS, scope: str = REGISTER, tenant: str = ""
    ) -> None:
        """Use an open database (``Register.open`` opens one by URL).

        Args:
            db: the database.
            settings: the checks' window and strictness.
            scope: ``register`` or ``batch`` (the record's ``register.scope``).
            tenant: whose register this is, in a database several share (``extract serve``'s tenants): every row
                is the tenant's, every read sees only its rows, every unique key is per tenant. "" for a
                register of one owner.
        """
        self.db, self.settings, self.scope, self.tenant = db, settings, scope, tenant

    @classmethod
    def open(
        cls, url: str | Path, *, settings: CheckSettings = DEFAULT_CHECKS, tenant: str = "", alongside: bool = False
    ) -> Register:
        """Open (or create) the register at ``url``: a path or ``sqlite:///PATH`` (SQLite), or ``postgresql://...``;
        ``tenant``: one tenant's register in a database several share (``Register``); ``alongside``: its tables
        beside others' in one database (``extract serve``'s job store), else a SQLite file holding other tables is
        refused as not a register.

        Raises:
            RegisterError: it cannot be opened or written, is not a register, or is from a newer release.
        """
        return cls(open_database(str(url), alongside=alongside), settings=settings, tenant=tenant)

    def for_tenant(self, tenant: str) -> Register:
        """The register of ``tenant`` in the same database (connections shared)."""
        return Register(self.db, settings=self.settings, scope=self.scope, tenant=tenant)

    @classmethod
    def in_memory(cls, *, settings: CheckSettings = DEFAULT_CHECKS, scope: str = BATCH) -> Register:
        """A register of this process only (a batch's own duplicate check)."""
        return cls(open_database(":memory:"), settings=settings, scope=scope)

    @property
    def name(self) -> str:
        """Where it lives (a path, or a URL without its password)."""
        return self.db.name

    # ------------------------------------------------------------------------------------------ check and add

    @outlasting
    def check_and_add(self, record: Record, *, place: str | None = None, kind: str = "record") -> RegisterResult | None:
        """Check a record against the register and add it, in one transaction (module docstring).

        Args:
            record: the record, its status decided from every other signal.
            place: where the document is: its input path (default: ``place_of(record.source)``) or, with
                ``kind="job"``, the service job's id.
            kind: ``record`` (a path) or ``job``.

        Returns:
            The RegisterResult (``apply`` it to the record), or None for a record without data (nothing to
            register: an error, a truncated answer, an invalid one) or not an invoice (``invoice_like``).

        Raises:
            RegisterError: the register cannot be read or written.
        """
        if record.status not in (Status.OK, Status.REVIEW) or not invoice_like(record):
            return None
        embedded = record.extra.get("embedded")
        embedded = embedded if isinstance(embedded, Mapping) else {}
        keys = read_keys(record.data, type_code=str(embedded.get("type_code") or "") or None)
        said = claims(keys, data_source=record.extra.get("data_source"), grounding=record.extra.get("grounding"))
        where = place if place is not None else place_of(record.source)
        fingerprint = str(record.extra.get("fingerprint") or "")
        part = record.part.index if record.part is not None else 0
        with self.db.transaction(durable=False) as tx:
            seq = self._insert_entry(tx, record, keys, said, fingerprint, (where, part), kind)
            if seq is None:  # registered before (a restart, a resumed run), or by another process a moment ago
                found = self._entry(tx, record.sha256, fingerprint, where, part)
                return RegisterResult(found or {}, repeated=True)
            known = recall.known(
                self.db,
                tx,
                self.tenant,
                keys,
                said,
                sha256=record.sha256,
                place=where,
                seq=seq,
                window_days=self.settings.window_days,
            )
            findings = decide(keys, said, known, settings=self.settings)
            warnings = [issue(f.code, f.message) for f in findings if f.severity == WARNING]
            status = registered_status(record.status, warnings)
            self._learn(tx, keys, said, known, ok=status == Status.OK)
            entry = {
                "scope": self.scope,
                "register": None if self.scope == BATCH else self.name,
                "entry": f"{record.sha256}:{fingerprint}",
                "supplier": {
                    "key": keys.supplier,
                    "name": keys.name,
                    "known": known.supplier_known,
                    "trusted_accounts": [a.to_dict() for a in known.trusted],
                },
                "document_type": keys.document_type,
                "number": keys.number,
                "verified": said.verified,
                "claims": said.shown(),
                "findings": [f.to_dict() for f in findings],
            }
            self.db.execute(
                tx,
                "UPDATE register_entries SET result = ?, status = ? WHERE seq = ?",
                (json.dumps(entry, ensure_ascii=False), str(status), seq),
            )
        return RegisterResult(entry)

    def _entry(self, tx: Any, sha256: str, fingerprint: str, place: str, part: int) -> dict | None:
        row = self.db.execute(
            tx,
            "SELECT result FROM register_entries WHERE tenant = ? AND sha256 = ? AND fingerprint = ? AND place = ? "
            "AND part = ?",
            (self.tenant, sha256, fingerprint, place, part),
        ).fetchone()
        return json.loads(row[0]) if row is not None and row[0] != "{}" else None

    def _insert_entry(
        self, tx: Any, record: Record, keys: Keys, said: Claims, fingerprint: str, place: tuple[str, int], kind: str
    ) -> int | None:
        row = self.db.execute(
            tx,
            "INSERT INTO register_entries (tenant, sha256, fingerprint, place, part, kind, source, seen_at, "
            "supplier_key, supplier_name, document_type, number, printed, issue_date, total, currency, iban, "
            "verified, total_claimed, status, result) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}') "
            "ON CONFLICT (tenant, sha256, fingerprint, place, part) DO NOTHING RETURNING seq",
            (
                self.tenant,
                record.sha256,
                fingerprint,
                *place,
                kind,
                record.source,
                now(),
                keys.supplier,
                keys.name,
                keys.document_type,
                keys.number,
                keys.printed,
                keys.issue_date,
                keys.total,
                keys.currency,
                keys.iban if said["iban"] else None,
                int(said.verified),
                int(said["total"] and said.supplier),
                str(record.status),
            ),
        ).fetchone()
        return None if row is None else int(row[0])

    def _learn(self, tx: Any, keys: Keys, said: Claims, known: Known, *, ok: bool) -> None:
        """Add the supplier (known once an ``ok`` record of it is in) and, for an ``ok`` record, trust its account
        (each write only where it changes something: the fewer statements, the shorter the transaction)."""
        if keys.supplier is None:
            return
        if not known.supplier_known:
            self.db.execute(
                tx,
                "INSERT INTO register_suppliers (tenant, key, name, name_norm, vat_id, tax_number, known, source, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'record', ?) ON CONFLICT (tenant, key) DO NOTHING",
                (self.tenant, keys.supplier, keys.name, keys.name_norm, keys.vat_id, keys.tax_number, int(ok), now()),
            )
            if ok:  # it may have been there, not yet known
                self._known_now(tx, keys.supplier)
        if ok and said["iban"] and said.supplier and keys.iban and keys.iban not in {a.iban for a in known.trusted}:
            self.db.execute(
                tx,
                "INSERT INTO register_accounts (tenant, supplier_key, iban, source, by_whom, at) VALUES "
                "(?, ?, ?, 'ok_record', NULL, ?) ON CONFLICT (tenant, supplier_key, iban) DO NOTHING",
                (self.tenant, keys.supplier, keys.iban, now()),
            )

    # --------------------------------------------------------------------------------------- master data, people

    @outlasting
    def import_suppliers(self, rows: Iterable[Mapping[str, Any]], *, by: str | None = None) -> int:
        """Add supplier master data in one transaction: each row's supplier known, its IBAN trusted
        (``master_data``). The rows are checked first (``masterdata.check_rows``); a supplier already in the
        register gets the new account and the row's names.

        Args:
            rows: ``{name, vat_id, ibans (or iban), tax_number?, bic?, country?}`` each, already checked
                (``masterdata.read_master_data``).
            by: who imported them.

        Returns:
            How many suppliers were imported.
        """
        count = 0
        at = now()
        with self.db.transaction() as tx:
            for row in rows:
                vat, tax = id_key(row.get("vat_id")), id_key(row.get("tax_number"))
                ibans = [i for i in (id_key(x) for x in row.get("ibans") or [row.get("iban")]) if i]
                norm = name_key(row.get("name"))
                key = supplier_key(vat_id=vat, tax_number=tax, name=norm, iban=ibans[0] if ibans else None)
                if key is None:
                    continue
                self.db.execute(
                    tx,
                    "INSERT INTO register_suppliers (tenant, key, name, name_norm, vat_id, tax_number, bic, country, "
                    "known, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 'master_data', ?) ON CONFLICT "
                    "(tenant, key) DO UPDATE SET name = excluded.name, name_norm = excluded.name_norm, "
                    "bic = excluded.bic, country = excluded.country, known = 1",
                    (self.tenant, key, row.get("name"), norm, vat, tax, row.get("bic") or None)
                    + (row.get("country") or None, at),
                )
                for iban in ibans:
                    self._trust(tx, key, iban, source="master_data", by=by, at=at)
                count += 1
        return count

    def _known_now(self, tx: Any, supplier: str) -> None:
        self.db.execute(
            tx, "UPDATE register_suppliers SET known = 1 WHERE tenant = ? AND key = ?", (self.tenant, supplier)
        )

    def _trust(self, tx: Any, supplier: str, iban: str, *, source: str, by: str | None, at: str) -> None:
        self.db.execute(
            tx,
            "INSERT INTO register_accounts (tenant, supplier_key, iban, source, by_whom, at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (tenant, supplier_key, iban) DO UPDATE SET source = excluded.source, "
            "by_whom = excluded.by_whom, at = excluded.at",
            (self.tenant, supplier, iban, source, by, at),
        )

    @outlasting
    def trust(self, supplier: str, iban: str, *, by: str) -> Account:
        """A person trusts an account for a supplier ("I called the supplier"): saved with who and when, the
        supplier becomes known, and the registered documents flagged ``bank_details_changed`` for paying to it
        are resolved (``resolved: {decision: account_confirmed, by, at}``).

        Args:
            supplier: the supplier's key (``vat:...``), or a VAT id, tax number or name that finds exactly one.
            iban: the IBAN (spaces allowed).
            by: who trusts it.

        Raises:
            RegisterError: no such supplier, several match, or not an IBAN.
        """
        from stdnum import iban as iban_check

        number = id_key(iban)
        if not number or not iban_check.is_valid(number):
            raise RegisterError(f"register {self.name}: {iban!r} is not a valid IBAN (length or check digits)")
        at = now()
        with self.db.transaction() as tx:
            key = self._find_supplier(tx, supplier)
            self._trust(tx, key, number, source="review", by=by, at=at)
            self._known_now(tx, key)
        # the documents held for paying to it are no longer held for that
        self._resolve(key, ("bank_details_changed",), decision="account_confirmed", by=by, iban=number)
        return Account(iban=number, source="review", by=by, at=at)

    def _find_supplier(self, tx: Any, text: str) -> str:
        candidates = [text, f"vat:{id_key(text)}", f"tax:{id_key(text)}"]
        for key in candidates:
            found = self.db.execute(
                tx, "SELECT 1 FROM register_suppliers WHERE tenant = ? AND key = ?", (self.tenant, key)
            ).fetchone()
            if found:
                return key
        rows = self.db.execute(
            tx, "SELECT key FROM register_suppliers WHERE tenant = ? AND name_norm = ?", (self.tenant, name_key(text))
        ).fetchall()
        if len(rows) == 1:
            return rows[0][0]
        if rows:
            raise RegisterError(
                f"register {self.name}: {text!r} names {len(rows)} suppliers ({', '.join(r[0] for r in rows)}): "
                "give its key"
            )
        raise RegisterError(f"register {self.name}: no supplier {text!r}")

    @outlasting
    def not_a_duplicate(self, source: str, *, by: str) -> int:
        """A person decides a flagged document is not a duplicate (a supplier that reuses numbers, two deliveries of
        one amount): its ``duplicate_*`` / ``possible_duplicate`` findings become notes saying who decided and
        when, so the document registered again (a re-run, the record written again) is no longer held for them.

        Args:
            source: the document: its path, job id, or source as given.
            by: who decided.

        Returns:
            How many findings were resolved.

        Raises:
            RegisterError: no such document, or none of its findings is a duplicate's.
        """
        # each pair is remembered (register.decisions): checked again, the document is not flagged for it
        remember_not_duplicates(self, source, place=place_of(source), by=by, at=now())
        return self._resolve(source, DUPLICATES, decision="not_a_duplicate", by=by)

    def _resolve(self, source: str, codes: Iterable[str], *, decision: str, by: str, iban: str | None = None) -> int:
        """Turn the warnings ``codes`` of a document's entries (or, with ``iban``, of every entry of the supplier
        ``source`` paying to it) into notes with ``resolved: {decision, by, at}``."""
        codes, at, count = tuple(codes), now(), 0
        with self.db.transaction() as tx:
            if iban is None:
                sql = "WHERE tenant = ? AND (place = ? OR source = ? OR place = ?)"
                params: tuple = (self.tenant, source, source, place_of(source))
            else:
                sql, params = "WHERE tenant = ? AND supplier_key = ? AND iban = ?", (self.tenant, source, iban)
            rows = self.db.execute(tx, f"SELECT seq, result FROM register_entries {sql}", params).fetchall()
            if not rows and iban is None:
                raise RegisterError(f"register {self.name}: no entry for {source!r}")
            for seq, text in rows:
                entry = json.loads(text)
                resolved = {"decision": decision, "by": by, "at": at}
                changed = [
                    {**f, "severity": "note", "resolved": resolved}
                    if f["code"] in codes and f["severity"] == WARNING
                    else f
                    for f in entry.get("findings", [])
                ]
                found = sum(1 for old, new in zip(entry.get("findings", []), changed, strict=True) if old is not new)
                if found:
                    count += found
                    self.db.execute(
                        tx,
                        "UPDATE register_entries SET result = ? WHERE seq = ?",
                        (json.dumps({**entry, "findings": changed}, ensure_ascii=False), seq),
                    )
        if not count and iban is None:
            raise RegisterError(f"register {self.name}: {source!r} has no duplicate finding to resolve")
        return count

    @outlasting
    def forget(self, *, supplier: str | None = None, source: str | None = None) -> int:
        """Forget a supplier (with its accounts; its invoices stay, under an unknown supplier no more known) or the
        entries of one input (its path or job id, or the source as given): so it is no one's original any more.

        Returns:
            How many rows were forgotten.

        Raises:
            RegisterError: neither or both given, or nothing matches.
        """
        if (supplier is None) == (source is None):
            raise RegisterError("forget: name a supplier or a source, one of them")
        with self.db.transaction() as tx:
            if supplier is not None:
                key = self._find_supplier(tx, supplier)
                self.db.execute(
                    tx, "DELETE FROM register_accounts WHERE tenant = ? AND supplier_key = ?", (self.tenant, key)
                )
                return self.db.execute(
                    tx, "DELETE FROM register_suppliers WHERE tenant = ? AND key = ?", (self.tenant, key)
                ).rowcount
            assert source is not None
            seqs = [
                r[0]
                for r in self.db.execute(
                    tx,
                    "SELECT seq FROM register_entries WHERE tenant = ? AND (place = ? OR source = ? OR place = ?)",
                    (self.tenant, source, source, place_of(source)),
                ).fetchall()
            ]
            if not seqs:
                raise RegisterError(f"register {self.name}: no entry for {source!r}")
            for seq in seqs:
                self._release(tx, seq)
            return len(seqs)

    def _release(self, tx: Any, seq: int) -> None:
        """Delete entry ``seq``; the unique keys it held pass to the next earliest entry of the same invoice / bytes
        (a duplicate of a forgotten original becomes the original)."""
        invoice_keys = self.db.execute(
            tx, "SELECT supplier_key, document_type, number FROM register_invoice_keys WHERE entry_seq = ?", (seq,)
        ).fetchall()
        files = self.db.execute(tx, "SELECT sha256 FROM register_file_keys WHERE entry_seq = ?", (seq,)).fetchall()
        for table in ("register_invoice_keys", "register_file_keys"):
            self.db.execute(tx, f"DELETE FROM {table} WHERE entry_seq = ?", (seq,))
        self.db.execute(tx, "DELETE FROM register_entries WHERE seq = ?", (seq,))
        for supplier, kind, number in invoice_keys:
            self.db.execute(
                tx,
                "INSERT INTO register_invoice_keys (tenant, supplier_key, document_type, number, entry_seq) "
                "SELECT tenant, supplier_key, document_type, number, min(seq) FROM register_entries WHERE tenant = ? "
                "AND supplier_key = ? AND document_type = ? AND number = ? AND verified = 1 "
                "GROUP BY tenant, supplier_key, document_type, number",
                (self.tenant, supplier, kind, number),
            )
        for (sha256,) in files:
            self.db.execute(
                tx,
                "INSERT INTO register_file_keys (tenant, sha256, entry_seq) SELECT tenant, sha256, min(seq) "
                "FROM register_entries WHERE tenant = ? AND sha256 = ? GROUP BY tenant, sha256",
                (self.tenant, sha256),
            )


__all__ = [
    "BATCH",
    "REGISTER",
    "Register",
    "RegisterError",
    "RegisterResult",
]
