"""The shared store: the service's jobs in PostgreSQL, for any number of ``extract serve`` replicas and ``extract
worker`` processes on any machines.

A claim is one ``UPDATE ... WHERE seq = (SELECT ... FOR UPDATE SKIP LOCKED)``: concurrent workers each lock a
different row and never wait on one another, and the lease's times are the database's clock, so machines whose
clocks differ still agree on when a lease has passed. Chosen over a queue library on Postgres (procrastinate,
pgqueuer): the job row already holds the upload, the records and the webhook state, and one statement on it keeps
"a job yields exactly one set of records" a property of one table, with no second schema to migrate.
Needs ``psycopg`` (``pip install 'extractor-vlm[postgres]'``), imported only here.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from extractor.errors import UsageError
from extractor.service.store import Cursor, Store

TABLE = "extractor_jobs"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL,
    status TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    started DOUBLE PRECISION,
    finished DOUBLE PRECISION,
    idempotency_key TEXT,
    filename TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    options TEXT NOT NULL,
    upload BYTEA,
    records TEXT,  -- TEXT, not JSONB: a record's keys keep their order, byte for byte
    error TEXT,
    runs INTEGER NOT NULL DEFAULT 0,
    claim TEXT,
    lease_until DOUBLE PRECISION,
    callback_url TEXT,
    callback_state TEXT,
    callback_next DOUBLE PRECISION,
    deliveries TEXT,
    answered_from TEXT
);
-- added after the first release (a table made by an earlier one gains them)
ALTER TABLE {TABLE} ADD COLUMN IF NOT EXISTS request_id TEXT;
ALTER TABLE {TABLE} ADD COLUMN IF NOT EXISTS source_url TEXT;
ALTER TABLE {TABLE} ADD COLUMN IF NOT EXISTS callback_from INTEGER;
CREATE UNIQUE INDEX IF NOT EXISTS {TABLE}_idempotency ON {TABLE} (tenant, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS {TABLE}_status ON {TABLE} (status, seq);
CREATE INDEX IF NOT EXISTS {TABLE}_tenant ON {TABLE} (tenant, seq);
CREATE INDEX IF NOT EXISTS {TABLE}_callbacks ON {TABLE} (callback_state, callback_next);
"""
_DDL_LOCK = 0x657874726163  # pg_advisory_xact_lock key: replicas starting together create the table once
CONNECT_TIMEOUT = 10  # seconds
CHANNEL = "extractor_jobs"  # LISTEN / NOTIFY: a job was queued
WAKE_CHECK = 0.2  # seconds between a listening worker's looks at its own wake-up (a local job, a stop)


def shown_url(url: str) -> str:
    """The URL without its password (what the start line and errors name)."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class PostgresStore(Store):
    """The jobs in one PostgreSQL table, one connection per thread."""

    table = TABLE
    lock = "FOR UPDATE SKIP LOCKED"
    shared = True

    def __init__(self, url: str) -> None:
        """Connect and create the table if it is not there.

        Raises:
            UsageError: psycopg is not installed, or the database cannot be reached or used.
        """
        try:
            import psycopg
        except ImportError:
            raise UsageError(
                "--store postgresql://...: needs psycopg (pip install 'extractor-vlm[postgres]')"
            ) from None
        self.url, self._psycopg, self._local = url, psycopg, threading.local()
        self.conflict = (psycopg.errors.UniqueViolation,)
        try:
            with self.transaction() as tx:
                tx.execute("SELECT pg_advisory_xact_lock(%s)", (_DDL_LOCK,))
                tx.execute(_SCHEMA)
        except psycopg.Error as exc:
            raise UsageError(f"--store {shown_url(url)}: {type(exc).__name__}: {_first_line(exc)}") from None

    def serialize(self, tx: Any, key: str) -> None:
        """A transaction-scoped advisory lock on ``key``: equal submissions on any replica check and insert one after
        the other."""
        lock = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
        tx.execute("SELECT pg_advisory_xact_lock(%s)", (lock,))

    def describe(self) -> str:
        """The database's URL, its password masked."""
        return shown_url(self.url)

    def _connection(self) -> Any:
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            db = self._psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            self._local.db = db
        return db

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[Any]:
        """A transaction on this thread's connection (reconnected after a lost connection); reads and writes
        alike (MVCC: a read never blocks a claim)."""
        db = self._connection()
        try:
            with db.transaction(), db.cursor() as cursor:
                yield cursor
        except self._psycopg.OperationalError:
            db.close()  # the next call connects again
            raise

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Cursor:
        """psycopg's ``%s`` placeholders for the shared SQL's ``?`` (which holds no other ``?`` or ``%``)."""
        tx.execute(sql.replace("?", "%s"), params)
        return tx

    def notify(self, tx: Any) -> None:
        """``NOTIFY``: delivered to every listening worker when the submitting transaction commits."""
        tx.execute(f"NOTIFY {CHANNEL}")

    def wait_for_jobs(self, *, timeout: float, wake: threading.Event) -> None:
        """``LISTEN`` on this thread's own second connection: a job submitted on any machine wakes the worker at
        once, instead of at its next look at the table."""
        deadline = time.monotonic() + timeout
        try:
            listener = getattr(self._local, "listener", None)
            if listener is None or listener.closed or listener.broken:
                listener = self._psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
                listener.execute(f"LISTEN {CHANNEL}")
                self._local.listener = listener
            while not wake.is_set() and (left := deadline - time.monotonic()) > 0:
                for _ in listener.notifies(timeout=min(left, WAKE_CHECK), stop_after=1):
                    return
        except self._psycopg.Error:
            self._local.listener = None  # the poll at the next claim still finds the job
            wake.wait(max(0.0, deadline - time.monotonic()))

    def binary(self, data: bytes) -> Any:
        """Bytes are BYTEA as they are."""
        return data

    def now(self, tx: Any) -> float:
        """The database's clock: every machine's leases are measured on it."""
        tx.execute("SELECT extract(epoch FROM clock_timestamp())::float8")
        return float(tx.fetchone()[0])


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0]


__all__ = ["PostgresStore", "TABLE", "shown_url"]
