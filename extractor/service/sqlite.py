"""The embedded store: one SQLite file (WAL, synchronous writes) holding the service's jobs, for one server and the
workers on its machine. Each thread keeps its own connection; a writing transaction takes the write lock first
(``BEGIN IMMEDIATE``), so two workers never claim the same job."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.service.job import LATER_COLUMNS
from extractor.service.store import Cursor, Store

_SCHEMA = """
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
    options TEXT NOT NULL,                  -- the request's settings (JSON; passwords dropped once the job ends)
    upload BLOB,                            -- the file's bytes (dropped once the job ends)
    records TEXT,                           -- the records (JSON list of Record.to_dict()) when done
    error TEXT,                             -- why a job failed
    runs INTEGER NOT NULL DEFAULT 0         -- claims (more than one only after a crash mid-job)
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_idempotency ON jobs (tenant, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, seq);
CREATE INDEX IF NOT EXISTS jobs_tenant ON jobs (tenant, seq);
"""


class SqliteStore(Store):
    """The jobs in one SQLite file, safe to use from several threads and processes on one machine."""

    def __init__(self, path: Path) -> None:
        """Open (or create, or bring up to date) the store.

        Raises:
            UsageError: the file cannot be opened as a SQLite database.
        """
        self.path = Path(path)
        self._local = threading.local()  # one connection per thread, kept
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
                have = {row[1] for row in db.execute("PRAGMA table_info(jobs)")}
                for column, kind in LATER_COLUMNS:  # a store made by an earlier release
                    if column not in have:
                        db.execute(f"ALTER TABLE jobs ADD COLUMN {column} {kind}")
                db.execute("CREATE INDEX IF NOT EXISTS jobs_callbacks ON jobs (callback_state, callback_next)")
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(f"--store {self.path}: cannot open it as a SQLite database ({exc})") from None

    def describe(self) -> str:
        """The file's path."""
        return str(self.path)

    def _connect(self) -> sqlite3.Connection:
        # autocommit: transactions are explicit (BEGIN IMMEDIATE takes the write lock before reading)
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")  # an accepted job survives a power cut, not only a kill -9
        return db

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction (a read: ``BEGIN``, WAL's snapshot, no lock) on this thread's
        connection (opened once per thread; dropped after a database error, opened again on the next call)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                db.close()
                self._local.db = None
            raise

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Cursor:
        """``sqlite3``'s own ``?`` placeholders."""
        return tx.execute(sql, params)

    def binary(self, data: bytes) -> Any:
        """A ``sqlite3.Binary``."""
        return sqlite3.Binary(data)

    def now(self, tx: Any) -> float:
        """This machine's clock (every process of a SQLite store runs on it)."""
        return time.time()


__all__ = ["SqliteStore"]
