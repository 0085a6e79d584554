"""PostgreSQL: one connection per thread (opened again after a lost one), ``%s`` placeholders for the stores'
``?``, transaction-scoped advisory locks. Needs ``psycopg`` (``pip install 'extractor-vlm[postgres]'``), imported
only here, only for a ``postgresql://`` URL."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from extractor.db.database import CONNECT_TIMEOUT, Database, Naming, Tuning
from extractor.db.url import Target


class PostgresDatabase(Database):
    """A store in PostgreSQL tables, for any number of processes on any machines."""

    kind = "postgresql"

    def __init__(self, target: Target, *, naming: Naming, tuning: Tuning) -> None:
        """Import psycopg (connections open on first use).

        Raises:
            naming.error: psycopg is not installed.
        """
        self.url, self.name, self.naming, self.tuning = target.location, target.shown, naming, tuning
        try:
            import psycopg
        except ImportError:
            raise self.error("needs psycopg (pip install 'extractor-vlm[postgres]')") from None
        self._psycopg, self._local = psycopg, threading.local()
        self._watch()
        self.conflict = (psycopg.errors.UniqueViolation,)
        # a connection lost or refused (a restart, a failover: AdminShutdown is one), or one used after it closed
        self.lost = (psycopg.OperationalError, psycopg.InterfaceError)
        self.errors: tuple[type[BaseException], ...] = (psycopg.Error,)  # any of the driver's

    def _url(self) -> str:
        return self.url

    def connect(self) -> Any:
        """A new autocommit connection of the caller's own (a listener, say), with the layer's timeouts.

        Raises:
            psycopg.Error: the server cannot be reached.
        """
        return self._psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

    def _connection(self) -> Any:
        db = getattr(self._local, "db", None)
        if db is not None and getattr(self._local, "generation", 0) != self.outage.generation:
            db.close()  # opened before the server went away: surely dead, and not worth one more outage line
        if db is None or db.closed or db.broken:
            try:
                self._local.generation = self.outage.generation
                db = self.connect()
                if self.tuning.lazy_commit:  # a transaction that must wait for the flush says so (``durable``)
                    db.execute("SET synchronous_commit TO off")
            except self._psycopg.Error as exc:
                raise self.error(exc) from None
            self._local.db = db
        return db

    @contextmanager
    def transaction(self, *, write: bool = True, durable: bool = True) -> Iterator[Any]:
        """A transaction on this thread's connection (reconnected after a lost one); reads and writes alike (MVCC:
        a read never blocks a writer). ``durable=False`` with ``Tuning.lazy_commit``: committed without waiting
        for the server's disk flush."""
        db = self._connection()
        try:
            with db.transaction(), db.cursor() as cursor:
                if durable and self.tuning.lazy_commit:
                    cursor.execute("SET LOCAL synchronous_commit TO on")
                yield cursor
        except self._psycopg.Error as exc:
            if isinstance(exc, self._psycopg.OperationalError) or db.broken:
                db.close()  # the next transaction connects again
            if isinstance(exc, self.conflict):
                raise  # the store decides (an idempotency key inserted elsewhere a moment ago)
            raise self.error(exc) from None

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:
        """psycopg's ``%s`` placeholders for the SQL's ``?`` (which holds no other ``?`` or ``%``)."""
        tx.execute(sql.replace("?", "%s") if params else sql, params or None)
        return tx

    def executemany(self, tx: Any, sql: str, rows: list[tuple]) -> None:
        """psycopg's ``executemany`` (one round trip per batch, pipelined)."""
        tx.executemany(sql.replace("?", "%s"), rows)

    def tables(self, tx: Any) -> set[str]:
        """The tables of the connection's current schema."""
        tx.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {row[0] for row in tx.fetchall()}

    def lock(self, tx: Any, key: str) -> None:
        """A transaction-scoped advisory lock on ``key`` (a hash of it)."""
        tx.execute("SELECT pg_advisory_xact_lock(%s)", (advisory_key(key),))

    def close(self) -> None:
        """Close this thread's connection."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
        self._local.db = None
        self.outage.forget()


def advisory_key(key: str) -> int:
    """A signed 64-bit lock key for ``key``."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


__all__ = ["PostgresDatabase", "advisory_key"]
