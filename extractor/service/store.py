"""The service's durable job store: one SQLite file holding every accepted job, its upload and its records.

A job is ``queued`` when its upload is stored (one transaction: the row and the bytes together), ``running`` once a
worker claims it (one ``UPDATE ... RETURNING``: two workers never claim the same job), then ``done`` (its records
written in the same transaction that ends it; an unreadable or hostile file is ``done`` with an error record),
``failed`` (the core raised, which it should never do) or ``cancelled``. A server killed mid-job leaves the job
``running``: ``recover()`` at the next start puts it back in the queue, so no accepted job is lost and none that
finished runs again. Ended jobs older than the retention are deleted with their uploads (``sweep``).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractor.errors import UsageError

STATUSES = ("queued", "running", "done", "failed", "cancelled")
ENDED = ("done", "failed", "cancelled")
DEFAULT_STORE = "sqlite:///extract-serve.sqlite"  # beside the working directory
DEFAULT_RETENTION = 7 * 24 * 3600.0  # seconds an ended job is kept

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

_COLUMNS = (
    "seq",
    "id",
    "tenant",
    "status",
    "created",
    "started",
    "finished",
    "idempotency_key",
    "filename",
    "sha256",
    "fingerprint",
    "options",
    "records",
    "error",
    "runs",
)


@dataclass(frozen=True)
class Job:
    """One job as stored (its upload aside: ``Store.upload`` reads it).

    Attributes:
        seq: the queue's order (lower: accepted earlier).
        id: the job's id (random, URL-safe).
        tenant: the API key's tenant that submitted it; only it sees the job.
        status: ``queued``, ``running``, ``done``, ``failed`` or ``cancelled``.
        created: accepted at (Unix seconds); ``started`` / ``finished`` likewise, None until then.
        idempotency_key: the client's ``Idempotency-Key`` (None: none given).
        filename: the upload's file name (sanitized; the records' ``source``).
        sha256: the upload's SHA-256.
        fingerprint: the settings' fingerprint (``Extractor.fingerprint``): equal settings, equal fingerprints.
        options: the request's settings (``schema``, ``pages``, ``password``, ``split``).
        records: the records (``Record.to_dict()``) once done: one, or one per invoice with ``split: auto``.
        error: why a job failed.
        runs: how many times a worker claimed it.
    """

    seq: int
    id: str
    tenant: str
    status: str
    created: float
    started: float | None = None
    finished: float | None = None
    idempotency_key: str | None = None
    filename: str = ""
    sha256: str = ""
    fingerprint: str = ""
    options: dict = field(default_factory=dict)
    records: list | None = None
    error: str | None = None
    runs: int = 0


def store_path(url: str) -> Path:
    """The SQLite file of a ``--store`` URL (``sqlite:///relative/path`` or ``sqlite:////absolute/path``; a plain
    path is taken as it is).

    Raises:
        UsageError: another scheme (PostgreSQL is not supported yet).
    """
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if "://" in url:
        raise UsageError(f"--store {url.split('://')[0]}://...: only sqlite:///PATH is supported")
    return Path(url)


class Store:
    """The jobs in one SQLite file (WAL), safe to use from several threads and processes: every call opens its
    own connection, and every change is one transaction."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the store.

        Raises:
            UsageError: the file cannot be opened as a SQLite database.
        """
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(f"--store {self.path}: cannot open it as a SQLite database ({exc})") from None

    def _connect(self) -> sqlite3.Connection:
        # autocommit: transactions are explicit (BEGIN IMMEDIATE takes the write lock before reading)
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")  # an accepted job survives a power cut, not only a kill -9
        return db

    def submit(
        self,
        *,
        tenant: str,
        filename: str,
        data: bytes,
        sha256: str,
        fingerprint: str,
        options: dict,
        idempotency_key: str | None = None,
    ) -> tuple[Job, bool]:
        """Store a new queued job with its upload, unless the tenant's ``idempotency_key`` already names one.

        Returns:
            ``(job, created)``: the new job, or the existing one of that key with ``created`` False.
        """
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            if idempotency_key is not None:
                row = db.execute(
                    f"SELECT {', '.join(_COLUMNS)} FROM jobs WHERE tenant = ? AND idempotency_key = ?",
                    (tenant, idempotency_key),
                ).fetchone()
                if row is not None:
                    db.execute("COMMIT")
                    return _job(row), False
            job_id = secrets.token_urlsafe(12)
            db.execute(
                "INSERT INTO jobs (id, tenant, status, created, idempotency_key, filename, sha256, "
                "fingerprint, options, upload) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)",
                (
                    job_id,
                    tenant,
                    time.time(),
                    idempotency_key,
                    filename,
                    sha256,
                    fingerprint,
                    json.dumps(options),
                    sqlite3.Binary(data),
                ),
            )
            row = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM jobs WHERE id = ?", (job_id,)).fetchone()
            db.execute("COMMIT")
            return _job(row), True
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    def get(self, job_id: str, *, tenant: str | None = None) -> Job | None:
        """The job ``job_id`` (None: no such job, or another tenant's)."""
        with closing(self._connect()) as db:
            row = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        job = _job(row) if row is not None else None
        return job if job is not None and (tenant is None or job.tenant == tenant) else None

    def position(self, job: Job) -> int | None:
        """A queued job's place in the queue (1: next to run); None for a job not queued."""
        if job.status != "queued":
            return None
        with closing(self._connect()) as db:
            (ahead,) = db.execute(
                "SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND seq < ?", (job.seq,)
            ).fetchone()
        return ahead + 1

    def jobs(self, *, tenant: str, limit: int, before: int | None = None) -> list[Job]:
        """The tenant's jobs, newest first, at most ``limit``, those accepted before job ``seq`` ``before``."""
        with closing(self._connect()) as db:
            rows = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM jobs WHERE tenant = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                (tenant, before or 2**62, limit),
            ).fetchall()
        return [_job(row) for row in rows]

    def upload(self, job_id: str) -> bytes | None:
        """A job's uploaded bytes (None once it ended)."""
        with closing(self._connect()) as db:
            row = db.execute("SELECT upload FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return bytes(row[0]) if row is not None and row[0] is not None else None

    def claim(self) -> Job | None:
        """Take the oldest queued job and mark it running, in one statement (None: the queue is empty)."""
        with closing(self._connect()) as db:
            row = db.execute(
                f"UPDATE jobs SET status = 'running', started = ?, runs = runs + 1 WHERE seq = "
                "(SELECT seq FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1) "
                f"AND status = 'queued' RETURNING {', '.join(_COLUMNS)}",
                (time.time(),),
            ).fetchone()
        return _job(row) if row is not None else None

    def finish(self, job: Job, *, records: list | None = None, error: str | None = None) -> bool:
        """End a running job: ``done`` with its records, or ``failed`` with ``error``; its upload and passwords are
        dropped in the same transaction.

        Returns:
            False when the job was no longer running (cancelled meanwhile): nothing is written.
        """
        status = "failed" if error is not None else "done"
        with closing(self._connect()) as db:
            changed = db.execute(
                "UPDATE jobs SET status = ?, finished = ?, records = ?, error = ?, upload = NULL, "
                "options = ? WHERE id = ? AND status = 'running'",
                (
                    status,
                    time.time(),
                    json.dumps(records) if records is not None else None,
                    error,
                    json.dumps(shown_options(job.options)),
                    job.id,
                ),
            ).rowcount
        return changed == 1

    def cancel(self, job_id: str, *, tenant: str) -> str | None:
        """Cancel a queued or running job (a running one's result is then discarded), or delete an ended one.

        Returns:
            ``cancelled``, ``deleted``, or None: no such job of this tenant.
        """
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT status FROM jobs WHERE id = ? AND tenant = ?", (job_id, tenant)).fetchone()
            if row is None:
                outcome = None
            elif row[0] in ENDED:
                db.execute("DELETE FROM jobs WHERE id = ?", (job_id,))
                outcome = "deleted"
            else:
                db.execute(
                    "UPDATE jobs SET status = 'cancelled', finished = ?, upload = NULL WHERE id = ?",
                    (time.time(), job_id),
                )
                outcome = "cancelled"
            db.execute("COMMIT")
            return outcome
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    def recover(self) -> int:
        """Put the jobs a killed server left running back in the queue (at start, before any worker runs).

        Returns:
            How many went back.
        """
        with closing(self._connect()) as db:
            return db.execute("UPDATE jobs SET status = 'queued', started = NULL WHERE status = 'running'").rowcount

    def sweep(self, *, retention: float) -> int:
        """Delete the jobs that ended more than ``retention`` seconds ago, with their uploads and records.

        Returns:
            How many were deleted.
        """
        with closing(self._connect()) as db:
            return db.execute(
                "DELETE FROM jobs WHERE status IN ('done', 'failed', 'cancelled') AND finished < ?",
                (time.time() - retention,),
            ).rowcount


def _job(row: tuple) -> Job:
    values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
    values["options"] = json.loads(values["options"])
    values["records"] = json.loads(values["records"]) if values["records"] is not None else None
    return Job(**values)


def shown_options(options: dict) -> dict:
    """A job's options as kept once it ends and as every response shows them: passwords dropped."""
    return {name: value for name, value in options.items() if name != "password"}


__all__ = ["DEFAULT_RETENTION", "DEFAULT_STORE", "ENDED", "STATUSES", "Job", "Store", "shown_options", "store_path"]
