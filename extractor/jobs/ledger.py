"""The intakes' document ledger (``extract watch``, ``extract mail`` and any source of the intake core,
``jobs/intake``): one SQLite row per distinct input content (sha256), in WAL mode, through the database
layer (``extractor.db``: ``SCHEMA`` its versions).

Tables:
  documents  sha256 (key), state (queued / running / done / failed), attempts, result_path, status (the
             record's status), error_code, error, next_attempt_at, created_at, updated_at
  sources    (sha256, name): every inbox name a content was seen under, with first/last seen times

A document being extracted is ``running``, the word the service's jobs use (``extract status`` counts it so);
ledgers before version 3 said ``processing``, and open migrated (``renamed_state``).

Every change is one transaction, so a kill -9 leaves each row either before or after a step, never half-way.
Timestamps are ISO 8601 UTC text (``2025-01-31T09:15:02.123Z``) so the file reads well in ``sqlite3``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from extractor.db import Database, Migration, Naming, Schema, Tuning, before_the_layer, open_database
from extractor.db.database import DatabaseOwner, outlasting
from extractor.errors import UsageError
from extractor.fields_json import fields_json

RUNNING = "running"  # a document claimed and being extracted (the service's job status for the same state)
STATES = ("queued", RUNNING, "done", "failed")
TERMINAL = ("done", "failed")
# version 1's tables, as release e61cea9 made them (its running state was called processing: version 3 renames it)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    sha256 TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('queued', 'processing', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    result_path TEXT,
    status TEXT,
    error_code TEXT,
    error TEXT,
    next_attempt_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_state ON documents (state, updated_at);
CREATE TABLE IF NOT EXISTS sources (
    sha256 TEXT NOT NULL REFERENCES documents (sha256),
    name TEXT NOT NULL,
    first_seen_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    PRIMARY KEY (sha256, name)
);
"""
BUSY_TIMEOUT = 30.0  # seconds a writer waits for another process's write lock


def _found(db: Database, tx: Any, tables: set[str]) -> int | None:
    """A ledger of release e61cea9 or before kept its version in ``PRAGMA user_version``."""
    if "documents" not in tables:
        return None
    return int(db.execute(tx, "PRAGMA user_version").fetchone()[0]) or 1


def _refused_by_earlier(db: Database, tx: Any) -> None:
    """``PRAGMA user_version`` 2: the release before this one reads it and refuses the ledger (not misreads it)."""
    db.execute(tx, "PRAGMA user_version = 2")


def renamed_state(table: str, old: str, new: str) -> Callable[[Database, Any], None]:
    """A migration step: ``table``'s state ``old`` is called ``new``, in its rows and its CHECK alike.

    SQLite cannot alter a CHECK: the table is made again from its own CREATE text (``sqlite_master``'s, the state
    renamed), its rows copied back through a temporary table and its indexes made again. The foreign keys that
    point at it are checked at commit (``defer_foreign_keys``): its rows are back by then.
    """

    def step(db: Database, tx: Any) -> None:
        made = db.execute(
            tx, "SELECT type, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL", (table,)
        ).fetchall()
        create = next(sql for kind, sql in made if kind == "table")
        db.execute(tx, "PRAGMA defer_foreign_keys = ON")
        db.execute(tx, f"CREATE TEMP TABLE {table}_renaming AS SELECT * FROM {table}")
        db.execute(tx, f"UPDATE temp.{table}_renaming SET state = ? WHERE state = ?", (new, old))
        db.execute(tx, f"DROP TABLE {table}")
        db.execute(tx, create.replace(f"'{old}'", f"'{new}'"))
        db.execute(tx, f"INSERT INTO {table} SELECT * FROM temp.{table}_renaming")
        db.execute(tx, f"DROP TABLE temp.{table}_renaming")
        for kind, sql in made:
            if kind == "index":
                db.execute(tx, sql)

    return step


SCHEMA = Schema(
    name="ledger",
    meta="ledger_meta",
    migrations=(
        *before_the_layer("watch ledger", (_SCHEMA,), kept=(_refused_by_earlier,)),
        Migration(3, (renamed_state("documents", "processing", RUNNING),), "processing is called running"),
    ),
    found=_found,
)
SCHEMA_VERSION = SCHEMA.version


def timestamp(seconds: float | None = None) -> str:
    """Return a UTC time as ISO 8601 text with milliseconds.

    Args:
        seconds: a Unix time (default: now).

    Returns:
        For example ``2025-01-31T09:15:02.123Z``.
    """
    moment = datetime.fromtimestamp(time.time() if seconds is None else seconds, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_timestamp(text: str) -> float:
    """Return the Unix time of a ``timestamp()`` text."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


@dataclass(frozen=True)
class Entry:
    """One ledger row with the names its content was seen under.

    Attributes:
        sha256: content hash (hex).
        state: ``queued``, ``running``, ``done`` or ``failed``.
        attempts: extraction attempts started (an abandoned one is not counted; a crash is).
        result_path: where the record is (or will be) written.
        status: the record's status once finished (``ok``, ``review``, ..., ``error``).
        error_code: the error code of the last failure (``corrupt``, ``model_error``, ...).
        error: the error message of the last failure.
        next_attempt_at: for a queued retry, when it may run.
        created_at: first seen.
        updated_at: last change.
        sources: inbox names seen with this content, in the order first seen.
    """

    sha256: str
    state: str
    attempts: int
    result_path: str | None
    status: str | None
    error_code: str | None
    error: str | None
    next_attempt_at: str | None
    created_at: str
    updated_at: str
    sources: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """Return the entry as a JSON-ready dict."""
        return fields_json(self)


class Ledger(DatabaseOwner):
    """The SQLite ledger. Not thread-safe: one watcher thread owns it (``status`` opens its own)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        """Open (and by default create) a ledger.

        Args:
            path: the SQLite file.
            create: create the file and its directory when missing.

        Raises:
            UsageError: ``create`` is False and there is no ledger at ``path``, or the file is not a ledger.
        """
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise UsageError(f"no ledger at {self.path} (start `extract watch` first, or pass --ledger PATH)")
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # FULL: a committed "done" survives a power cut, not only a process kill
        self.db = open_database(
            str(self.path),
            schema=SCHEMA,
            naming=Naming("ledger", UsageError),
            tuning=Tuning(busy_timeout=BUSY_TIMEOUT, synchronous="FULL", foreign_keys=True),
            create=create,
            alongside=True,  # the mail ledger's tables share its file
        )

    @outlasting
    def _write(self, statements: list[tuple[str, tuple]]) -> int:
        """Run statements in one immediate transaction (all or nothing); the rows the last one changed."""
        changed = 0
        with self.db.transaction() as tx:
            for sql, params in statements:
                changed = self.db.execute(tx, sql, params).rowcount
        return changed

    @outlasting
    def _read(self, sql: str, params: tuple = ()) -> list:
        return self.db.read(sql, params)

    # ---------------------------------------------------------------------------------------------------- reads

    def get(self, sha256: str) -> Entry | None:
        """Return the entry for a content hash, or None when it was never seen."""
        rows = self._read(
            "SELECT sha256, state, attempts, result_path, status, error_code, error, next_attempt_at, created_at, "
            "updated_at FROM documents WHERE sha256 = ?",
            (sha256,),
        )
        if not rows:
            return None
        return Entry(*rows[0], sources=self.sources(sha256))  # type: ignore[misc]  # row is Any: its 10 columns

    def _existing(self, sha256: str) -> Entry:
        """The entry of a row just listed or written (so it is there)."""
        entry = self.get(sha256)
        if entry is None:
            raise LookupError(f"no ledger row for {sha256}")
        return entry

    def sources(self, sha256: str) -> tuple[str, ...]:
        """Return the names a content was seen under, in the order first seen."""
        rows = self._read("SELECT name FROM sources WHERE sha256 = ? ORDER BY first_seen_at, rowid", (sha256,))
        return tuple(r[0] for r in rows)

    def entries(self, *, state: str | None = None) -> list[Entry]:
        """Return every entry (or those in one state), oldest first."""
        where, params = ("WHERE state = ?", (state,)) if state else ("", ())
        rows = self._read(f"SELECT sha256 FROM documents {where} ORDER BY created_at, sha256", params)
        return [self._existing(r[0]) for r in rows]

    def counts(self) -> dict[str, int]:
        """Return the number of entries per state (every state present, zeros included)."""
        counts = dict.fromkeys(STATES, 0)
        for state, n in self._read("SELECT state, count(*) FROM documents GROUP BY state"):
            counts[state] = n
        return counts

    def report(self, *, recent: int = 10) -> dict:
        """Return the status report: counts per state, totals and the most recent failures.

        Args:
            recent: how many failures to list (newest first).

        Returns:
            ``{"ledger", "counts", "documents", "sources", "failures": [Entry.to_dict(), ...]}``.
        """
        rows = self._read(
            "SELECT sha256 FROM documents WHERE state = 'failed' ORDER BY updated_at DESC, sha256 LIMIT ?", (recent,)
        )
        counts = self.counts()
        return {
            "ledger": str(self.path),
            "counts": counts,
            "documents": sum(counts.values()),
            "sources": self._read("SELECT count(*) FROM sources")[0][0],
            "failures": [self._existing(r[0]).to_dict() for r in rows],
        }

    # --------------------------------------------------------------------------------------------------- writes

    def recover(self) -> int:
        """Re-queue rows left ``running`` by a crash (call once at start, under the watcher lock).

        Returns:
            How many rows were re-queued.
        """
        return self._write(
            [("UPDATE documents SET state = 'queued', updated_at = ? WHERE state = ?", (timestamp(), RUNNING))]
        )

    def see(self, sha256: str, *, name: str) -> Entry:
        """Record that a content was seen under a name (creating a ``queued`` row for new content).

        Args:
            sha256: content hash.
            name: the inbox name (relative to the inbox).

        Returns:
            The entry after the change.
        """
        now = timestamp()
        self._write(
            [
                (
                    "INSERT INTO documents (sha256, state, attempts, created_at, updated_at) "
                    "VALUES (?, 'queued', 0, ?, ?) "
                    "ON CONFLICT (sha256) DO NOTHING",
                    (sha256, now, now),
                ),
                (
                    "INSERT INTO sources (sha256, name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (sha256, name) DO UPDATE SET last_seen_at = excluded.last_seen_at",
                    (sha256, name, now, now),
                ),
            ]
        )
        return self._existing(sha256)

    def claim(self, sha256: str, *, result_path: str) -> Entry:
        """Mark a content ``running`` and count the attempt; keep a result path chosen by an earlier claim.

        Args:
            sha256: content hash (its row must exist: call ``see`` first).
            result_path: where the record will be written, unless an earlier claim already chose a path.

        Returns:
            The entry after the change.
        """
        now = timestamp()
        self._write(
            [
                (
                    "UPDATE documents SET state = ?, attempts = attempts + 1, "
                    "result_path = coalesce(result_path, ?), next_attempt_at = NULL, updated_at = ? "
                    "WHERE sha256 = ?",
                    (RUNNING, result_path, now, sha256),
                )
            ]
        )
        return self._existing(sha256)

    def release(self, sha256: str) -> None:
        """Put an abandoned ``running`` row back to ``queued`` without counting the attempt."""
        self._write(
            [
                (
                    "UPDATE documents SET state = 'queued', attempts = max(attempts - 1, 0), updated_at = ? "
                    "WHERE sha256 = ? AND state = ?",
                    (timestamp(), sha256, RUNNING),
                )
            ]
        )

    def retry_later(self, sha256: str, *, error_code: str, error: str, at: float) -> None:
        """Put a row back to ``queued`` after a retryable failure.

        Args:
            sha256: content hash.
            error_code: the failure's code.
            error: the failure's message.
            at: Unix time before which it should not run again.
        """
        self._write(
            [
                (
                    "UPDATE documents SET state = 'queued', error_code = ?, error = ?, next_attempt_at = ?, "
                    "updated_at = ? WHERE sha256 = ?",
                    (error_code, error, timestamp(at), timestamp(), sha256),
                )
            ]
        )

    def finish(
        self, sha256: str, *, state: str, status: str, error_code: str | None = None, error: str | None = None
    ) -> None:
        """Mark a content finished (its record is already written).

        Args:
            sha256: content hash.
            state: ``done`` or ``failed``.
            status: the record's status.
            error_code: the failure's code (``failed`` only).
            error: the failure's message (``failed`` only).

        Raises:
            ValueError: ``state`` is not terminal.
        """
        if state not in TERMINAL:
            raise ValueError(f"finish: state must be one of {TERMINAL}, got {state!r}")
        self._write(
            [
                (
                    "UPDATE documents SET state = ?, status = ?, error_code = ?, error = ?, next_attempt_at = NULL, "
                    "updated_at = ? WHERE sha256 = ?",
                    (state, status, error_code, error, timestamp(), sha256),
                )
            ]
        )


__all__ = [
    "RUNNING",
    "SCHEMA",
    "SCHEMA_VERSION",
    "STATES",
    "TERMINAL",
    "Entry",
    "Ledger",
    "parse_timestamp",
    "renamed_state",
    "timestamp",
]
