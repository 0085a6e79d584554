"""The register read back for people and exports: its suppliers with their trusted accounts, its invoices with their
findings (``Register.suppliers`` / ``invoices`` / ``export``, which ``extract register`` lists)."""

from __future__ import annotations

import json

from extractor.db.database import outlasting
from extractor.register.checks import WARNING
from extractor.register.db import Database
from extractor.register.keys import name_key, number_key


class RegisterListing:
    """The register's reading methods (``Register`` has them): each reads one tenant's rows in whole transactions,
    so a call is run again after a database outage (``outlasting``)."""

    db: Database
    tenant: str

    @outlasting
    def suppliers(self, *, name: str | None = None, known: bool | None = None) -> list[dict]:
        """The suppliers, by key: ``{key, name, vat_id, tax_number, bic, country, known, source, invoices,
        trusted_accounts}`` (IBANs in full: this is the register's own data).

        Args:
            name: only those whose normalised name contains this (normalised).
            known: only known (True) or not yet known (False) ones.
        """
        sql = (
            "SELECT s.key, s.name, s.vat_id, s.tax_number, s.bic, s.country, s.known, s.source, "
            "(SELECT count(*) FROM register_entries e WHERE e.tenant = s.tenant AND e.supplier_key = s.key) "
            "FROM register_suppliers s WHERE s.tenant = ?"
        )
        with self.db.transaction(write=False) as tx:
            rows = self.db.execute(tx, sql + " ORDER BY s.key", (self.tenant,)).fetchall()
            accounts: dict[str, list[dict]] = {}
            for r in self.db.execute(
                tx,
                "SELECT supplier_key, iban, source, by_whom, at FROM register_accounts WHERE tenant = ? "
                "ORDER BY at, iban",
                (self.tenant,),
            ).fetchall():
                accounts.setdefault(r[0], []).append({"iban": r[1], "source": r[2], "by": r[3], "at": r[4]})
        wanted = name_key(name) if name else None
        out = []
        for r in rows:
            if wanted and wanted not in (name_key(r[1]) or ""):
                continue
            if known is not None and bool(r[6]) != known:
                continue
            out.append(
                {
                    "key": r[0],
                    "name": r[1],
                    "vat_id": r[2],
                    "tax_number": r[3],
                    "bic": r[4],
                    "country": r[5],
                    "known": bool(r[6]),
                    "source": r[7],
                    "invoices": int(r[8]),
                    "trusted_accounts": accounts.get(r[0], []),
                }
            )
        return out

    @outlasting
    def invoices(
        self,
        *,
        supplier: str | None = None,
        number: str | None = None,
        since: str | None = None,
        until: str | None = None,
        flagged: bool = False,
        limit: int | None = None,
    ) -> list[dict]:
        """The registered documents, in the order they were registered: ``{entry, source, place, seen_at,
        supplier, supplier_name, document_type, number, printed, issue_date, total, currency, verified, status,
        findings}`` (``findings``: their codes).

        Args:
            supplier: only this supplier's (its key, or a name contained in its name).
            number: only this number (normalised as the register does).
            since: only issued on or after this ISO date; until: on or before.
            flagged: only those with a warning.
            limit: at most this many (the latest).
        """
        where: list[str] = ["tenant = ?"]
        params: list[str | None] = [self.tenant]
        if supplier:
            where.append("(supplier_key = ? OR lower(supplier_name) LIKE ?)")
            params += [supplier, f"%{supplier.lower()}%"]
        if number:
            where.append("number = ?")
            params.append(number_key(number))
        if since:
            where.append("issue_date >= ?")
            params.append(since)
        if until:
            where.append("issue_date <= ?")
            params.append(until)
        sql = (
            "SELECT sha256 || ':' || fingerprint, source, place, kind, seen_at, supplier_key, supplier_name, "
            "document_type, number, printed, issue_date, total, currency, verified, status, result "
            "FROM register_entries"
        )
        sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY seq"
        rows = self.db.read(sql, tuple(params))
        out = []
        for r in rows:
            result = json.loads(r[15]) if r[15] else {}
            findings = result.get("findings") or []
            if flagged and not any(f.get("severity") == WARNING for f in findings):
                continue
            out.append(
                {
                    "entry": r[0],
                    "source": r[1],
                    r[3]: r[2],
                    "seen_at": r[4],
                    "supplier": r[5],
                    "supplier_name": r[6],
                    "document_type": r[7],
                    "number": r[8],
                    "printed": r[9],
                    "issue_date": r[10],
                    "total": r[11],
                    "currency": r[12],
                    "verified": bool(r[13]),
                    "status": r[14],
                    "findings": [f["code"] for f in findings],
                }
            )
        return out[-limit:] if limit else out

    @outlasting
    def entry_place(self, *, sha256: str, fingerprint: str, source: str | None) -> str | None:
        """Where the register holds a record's entry (its input's path or job id as registered), None when it is not
        there."""
        rows = self.db.read(
            "SELECT place FROM register_entries WHERE tenant = ? AND sha256 = ? AND fingerprint = ? AND source = ? "
            "ORDER BY seq LIMIT 1",
            (self.tenant, sha256, fingerprint, source),
        )
        return rows[0][0] if rows else None

    @outlasting
    def entry_values(self, *, sha256: str, place: str) -> dict | None:
        """An entry's key values as registered (``{supplier, number, date, total, currency, iban}``, the IBAN in full),
        the first of ``sha256`` at ``place``; None when there is none."""
        rows = self.db.read(
            "SELECT supplier_name, printed, issue_date, total, currency, iban FROM register_entries "
            "WHERE tenant = ? AND sha256 = ? AND place = ? ORDER BY seq LIMIT 1",
            (self.tenant, sha256, place),
        )
        keys = ("supplier", "number", "date", "total", "currency", "iban")
        return dict(zip(keys, rows[0], strict=True)) if rows else None

    def export(self) -> dict:
        """Everything the register holds, as JSON-ready data: ``{suppliers, invoices}`` (``suppliers`` as
        ``import_suppliers`` reads them back, with every trusted account)."""
        return {"suppliers": self.suppliers(), "invoices": self.invoices()}


__all__ = ["RegisterListing"]
