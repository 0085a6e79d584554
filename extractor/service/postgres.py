"""The shared store: the service's jobs in PostgreSQL, for any number of ``extract serve`` replicas and ``extract
worker`` processes on any machines.

A claim is one ``UPDATE ... WHERE seq = (SELECT ... FOR UPDATE SKIP LOCKED)``: concurrent workers each lock a
different row and never wait on one another, and the lease's times are the database's clock, so machines whose
clocks differ still agree on when a lease has passed. Chosen over a queue library on Postgres (procrastinate,
pgqueuer): the job row already holds the upload, the records and the webhook state, and one statement on it keeps
"a job yields exactly one set of records" a property of one table, with no second schema to migrate.
Its connections are the database layer's (``extractor.db``: psycopg imported there, only for such a URL).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from extractor.db import Naming, Schema, before_the_layer, open_database
from extractor.db.postgres import PostgresDatabase
from extractor.errors import UsageError
from extractor.service.store import Store

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
CHANNEL = "extractor_jobs"  # LISTEN / NOTIFY: a job was queued
WAKE_CHECK = 0.2  # seconds between a listening worker's looks at its own wake-up (a local job, a stop)

SCHEMA = Schema(
    name="jobs",
    meta=f"{TABLE}_meta",
    migrations=(*before_the_layer("job store", (_SCHEMA,)),),
    found=lambda db, tx, tables: 1 if TABLE in tables else None,  # before its version was kept
)


class PostgresStore(Store):
    """The jobs in one PostgreSQL table, one connection per thread."""

    table = TABLE
    lock = "FOR UPDATE SKIP LOCKED"
    shared = True

    def __init__(self, url: str) -> None:
        """Connect and create (or bring up to date) the table.

        Raises:
            UsageError: psycopg is not installed, or the database cannot be reached or used, or it holds a store
                of a newer release.
        """
        self.url, self._local = url, threading.local()  # this thread's listening connection
        self.db: PostgresDatabase = open_database(url, schema=SCHEMA, naming=Naming("--store", UsageError))  # type: ignore[assignment]

    def serialize(self, tx: Any, key: str) -> None:
        """A transaction-scoped advisory lock on ``key``: equal submissions on any replica check and insert one after
        the other."""
        self.db.lock(tx, key)

    def describe(self) -> str:
        """The database's URL, its password masked."""
        return self.db.name

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
                listener = self.db.connect()
                listener.execute(f"LISTEN {CHANNEL}")
                self._local.listener = listener
            while not wake.is_set() and (left := deadline - time.monotonic()) > 0:
                for _ in listener.notifies(timeout=min(left, WAKE_CHECK), stop_after=1):
                    return
        except self.db.errors:
            self._local.listener = None  # the poll at the next claim still finds the job
            wake.wait(max(0.0, deadline - time.monotonic()))

    def binary(self, data: bytes) -> Any:
        """Bytes are BYTEA as they are."""
        return data

    def now(self, tx: Any) -> float:
        """The database's clock: every machine's leases are measured on it."""
        return float(self.db.execute(tx, "SELECT extract(epoch FROM clock_timestamp())::float8").fetchone()[0])


__all__ = ["SCHEMA", "TABLE", "PostgresStore"]
