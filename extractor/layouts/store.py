"""Learned layouts kept per tenant in the register's database (SQLite, or PostgreSQL with the same URLs).

    >>> store = LayoutStore.of(register)                  # the register's database, its tenant
    >>> store.save(layout)                                 # doctest: +SKIP
    >>> store.candidates(("vat:DE123456789",), schema="invoice")  # doctest: +SKIP

A layout is one row (``layouts``: its JSON, ``Layout.to_json``) and one row per identity key it is keyed on
(``layout_keys``: ``vat:...``, ``iban:...``, ``tax:...``), so the candidates of a document are found by the
identities printed on it through one index, whatever the number of suppliers. Every read and write is the tenant's
own: tenants never share a layout.

The SQL is written here only (the register's ``Database`` runs it: ``?`` placeholders on both backends); the tables
are the register's migration 3 (``extractor/register/db.py``), made when a register is opened, so a register written
by a newer release is refused there (exit 2). A layout row that cannot be read is refused here (``LayoutStoreError``,
exit 2, as for the register).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from extractor.db.database import outlasting
from extractor.register.db import Database, RegisterError

if TYPE_CHECKING:  # the engine's package imports nothing of the store
    from extractor.layouts import Layout


class LayoutStoreError(RegisterError):
    """A layout in the store cannot be read: corrupt, or its JSON of a newer format (exit 2, as for the register)."""


@dataclass(frozen=True)
class Stored:
    """One layout as listed (``LayoutStore.list``): what ``extract layouts list`` shows.

    Attributes:
        id: the layout's id.
        supplier_key: the identity it is keyed on.
        supplier_name: the supplier's name, as learned.
        schema: the schema it reads.
        source: what taught it (``Teacher.source``).
        learned_at: when it was last taught (ISO 8601 UTC).
    """

    id: str
    supplier_key: str
    supplier_name: str | None
    schema: str
    source: str
    learned_at: str

    def to_dict(self) -> dict:
        """The listing's JSON."""
        return {
            "id": self.id,
            "supplier_key": self.supplier_key,
            "supplier_name": self.supplier_name,
            "schema": self.schema,
            "source": self.source,
            "learned_at": self.learned_at,
        }


class LayoutStore:
    """A tenant's learned layouts in a register database (module docstring). Thread-safe as the database is."""

    def __init__(self, db: Database, *, tenant: str = "") -> None:
        """Use the register's open database (its layout tables made when it was opened: ``register.db.SCHEMA``)."""
        self.db, self.tenant = db, tenant

    @classmethod
    def of(cls, register: Any) -> LayoutStore:
        """The layouts of a ``register.Register`` (its database and tenant)."""
        return cls(register.db, tenant=register.tenant)

    @property
    def name(self) -> str:
        """Where it lives (the register's path, or its URL without a password)."""
        return self.db.name

    # ----------------------------------------------------------------------------------------------- writes

    @outlasting  # whole transactions: run again after a database outage (issue 48.1)
    def save(self, layout: Layout) -> Layout:
        """Keep ``layout`` (a layout of the same id is replaced whole: never a blend), keyed on its identities."""
        # name: keys are matched by ``layouts.choose`` (every identity key printed), not looked up
        keys = sorted(k for k in {layout.supplier_key, *layout.identity} if not k.startswith("name:"))
        with self.db.transaction() as tx:
            self.db.execute(tx, "DELETE FROM layout_keys WHERE tenant = ? AND layout_id = ?", (self.tenant, layout.id))
            self.db.execute(tx, "DELETE FROM layouts WHERE tenant = ? AND id = ?", (self.tenant, layout.id))
            self.db.execute(
                tx,
                "INSERT INTO layouts (tenant, id, supplier_key, supplier_name, schema_name, source, learned_at, body) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    self.tenant,
                    layout.id,
                    layout.supplier_key,
                    layout.supplier_name,
                    layout.schema,
                    layout.teacher.source,
                    layout.teacher.at,
                    _body(layout),
                ),
            )
            for key in keys:
                self.db.execute(
                    tx,
                    "INSERT INTO layout_keys (tenant, key, layout_id) VALUES (?, ?, ?)",
                    (self.tenant, key, layout.id),
                )
        return layout

    @outlasting
    def forget(self, layout_id: str) -> bool:
        """Forget a layout; False when the tenant has none of that id."""
        with self.db.transaction() as tx:
            self.db.execute(tx, "DELETE FROM layout_keys WHERE tenant = ? AND layout_id = ?", (self.tenant, layout_id))
            gone = self.db.execute(tx, "DELETE FROM layouts WHERE tenant = ? AND id = ?", (self.tenant, layout_id))
            return bool(gone.rowcount)

    def demote(self, layout_id: str, pointers: Iterable[str]) -> Layout | None:
        """The layout of that id with ``pointers`` demoted (``layouts.demote``: it stops reading them until taught
        again), kept; None when the tenant has none of that id."""
        from extractor.layouts import demote

        layout = self.get(layout_id)
        if layout is None:
            return None
        return self.save(demote(layout, tuple(pointers)))

    # ------------------------------------------------------------------------------------------------ reads

    @outlasting
    def get(self, layout_id: str) -> Layout | None:
        """The tenant's layout of that id, or None.

        Raises:
            LayoutStoreError: its row cannot be read.
        """
        with self.db.transaction(write=False) as tx:
            row = self.db.execute(
                tx, "SELECT id, body FROM layouts WHERE tenant = ? AND id = ?", (self.tenant, layout_id)
            ).fetchone()
        return None if row is None else self._layout(row[0], row[1])

    @outlasting
    def candidates(self, keys: Iterable[str], *, schema: str) -> list[Layout]:
        """Every layout of the tenant reading ``schema`` keyed on one of ``keys`` (the identities printed on a
        document), in the order they were learned (``layouts.choose`` picks among them).

        Raises:
            LayoutStoreError: a row cannot be read.
        """
        keys = sorted(set(keys))
        if not keys:
            return []
        marks = ", ".join("?" for _ in keys)
        with self.db.transaction(write=False) as tx:
            rows = self.db.execute(
                tx,
                "SELECT DISTINCT l.id, l.body, l.learned_at FROM layout_keys k JOIN layouts l "
                "ON l.tenant = k.tenant AND l.id = k.layout_id "
                f"WHERE k.tenant = ? AND k.key IN ({marks}) AND l.schema_name = ? ORDER BY l.learned_at, l.id",
                (self.tenant, *keys, schema),
            ).fetchall()
        return [self._layout(row[0], row[1]) for row in rows]

    @outlasting
    def list(self, *, supplier: str | None = None) -> list[Stored]:
        """The tenant's layouts (``supplier``: those keyed on that identity or whose name holds it), by supplier."""
        sql = "SELECT id, supplier_key, supplier_name, schema_name, source, learned_at FROM layouts WHERE tenant = ?"
        params: tuple = (self.tenant,)
        with self.db.transaction(write=False) as tx:
            rows = self.db.execute(tx, sql + " ORDER BY supplier_key, learned_at, id", params).fetchall()
        found = [Stored(*row) for row in rows]
        if supplier:
            wanted = supplier.casefold()
            found = [
                s for s in found if wanted in s.supplier_key.casefold() or wanted in (s.supplier_name or "").casefold()
            ]
        return found

    def _layout(self, layout_id: str, body: str) -> Layout:
        from extractor.layouts import Layout

        try:
            return Layout.from_json(json.loads(body))
        except (ValueError, KeyError, TypeError) as exc:  # LayoutError and a JSON decode error are ValueErrors
            raise LayoutStoreError(
                f"layouts in {self.name}: layout {layout_id} cannot be read (corrupt?): {exc}"
            ) from None


def _body(layout: Layout) -> str:
    """The layout's JSON text (``Layout.to_json``: a text, or data written here)."""
    body = layout.to_json()
    return body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, sort_keys=True)


__all__ = ["LayoutStore", "LayoutStoreError", "Stored"]
