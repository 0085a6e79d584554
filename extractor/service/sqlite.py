"""The embedded store: one SQLite file (WAL, synchronous writes) holding the service's jobs, for one server and the
workers on its machine, through the database layer (``extractor.db``: a connection per thread, ``BEGIN IMMEDIATE``
so two workers never claim the same job, the schema's versions)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from extractor.db import Database, Naming, Schema, Tuning, before_the_layer, open_database
from extractor.errors import UsageError
from extractor.service.store import Store
from extractor.service.stored_job import LATER_COLUMNS

BUSY_TIMEOUT = 30.0  # seconds a writer waits for another's write lock
_TABLES = """
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- the queue's order
    id TEXT NOT NULL UNIQUE,                -- random: a job id says nothing about other jobs
    tenant TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    idempotency_key TEXT,
    filename TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    options TEXT NOT NULL,                  -- the request's settings (JSON, passwords dropped once the job ends)
    upload BLOB,                            -- the file's bytes (dropped once the job ends)
    records TEXT,                           -- the records (JSON list of Record.to_dict()) when done
    error TEXT,                             -- why a job failed
    runs INTEGER NOT NULL DEFAULT 0         -- claims (more than one only after a crash mid-job)
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_idempotency ON jobs (tenant, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, seq);
CREATE INDEX IF NOT EXISTS jobs_tenant ON jobs (tenant, seq)
"""


def _later_columns(db: Database, tx: Any) -> None:
    """The columns added after the store's first release, where a file made by an earlier one lacks them."""
    have = {row[1] for row in db.execute(tx, "PRAGMA table_info(jobs)")}
    for column, kind in LATER_COLUMNS:
        if column not in have:
            db.execute(tx, f"ALTER TABLE jobs ADD COLUMN {column} {kind}")
    db.execute(tx, "CREATE INDEX IF NOT EXISTS jobs_callbacks ON jobs (callback_state, callback_next)")


SCHEMA = Schema(
    name="jobs",
    meta="jobs_meta",
    migrations=(*before_the_layer("job store", (_TABLES, _later_columns)),),
    found=lambda db, tx, tables: 1 if "jobs" in tables else None,  # before its version was kept
)


class SqliteStore(Store):
    """The jobs in one SQLite file, safe to use from several threads and processes on one machine."""

    def __init__(self, path: Path) -> None:
        """Open (or create, or bring up to date) the store.

        Raises:
            UsageError: the file cannot be opened as a SQLite database, or holds a store of a newer release.
        """
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--store {self.path}: cannot make its folder ({exc})") from None
        # FULL: an accepted job survives a power cut, not only a kill -9; beside it, the register's tables may be
        self.db = open_database(
            str(self.path),
            schema=SCHEMA,
            naming=Naming("--store", UsageError),
            tuning=Tuning(busy_timeout=BUSY_TIMEOUT, synchronous="FULL"),
            alongside=True,
        )

    def describe(self) -> str:
        """The file's path."""
        return str(self.path)

    def binary(self, data: bytes) -> Any:
        """A ``sqlite3.Binary``."""
        return sqlite3.Binary(data)

    def now(self, tx: Any) -> float:
        """This machine's clock (every process of a SQLite store runs on it)."""
        return time.time()


__all__ = ["SCHEMA", "SqliteStore"]
