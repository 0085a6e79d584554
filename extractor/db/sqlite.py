"""SQLite: one file in WAL mode (or ``:memory:``, one connection of this process), one connection per thread, a
writing transaction taking the write lock first (``BEGIN IMMEDIATE``: two processes never decide one thing at once),
and, with ``Tuning.checkpoints``, a background thread that copies the WAL back into the file so no commit does."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from extractor.db.database import Database, Naming, Tuning
from extractor.db.url import Target

CHECKPOINT_EVERY = 1.0  # seconds between background WAL checkpoints
# SQLite's primary result codes (https://sqlite.org/rescode.html) of a write its file system refused
SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 8, 10, 13, 14


def full_reason(exc: sqlite3.Error, folder: Path) -> str | None:
    """Why ``folder``'s file system refused a write of SQLite's, in words (``full``, ``read-only``), or None when
    the failure is not its file system's. SQLite says ``SQLITE_FULL`` for ENOSPC; EROFS (and EDQUOT) reach it as a
    read-only, I/O or cannot-open error, told apart here by asking the file system itself."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code not in (SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN):
        return None
    try:
        stats = os.statvfs(folder)
    except OSError:
        return "full" if code == SQLITE_FULL else None
    if stats.f_flag & os.ST_RDONLY:
        return "read-only"
    if code == SQLITE_FULL or stats.f_bavail == 0:
        return "full"
    return None


class SqliteDatabase(Database):
    """A store in one SQLite file, safe from several threads and processes of one machine."""

    kind = "sqlite"

    def __init__(self, target: Target, *, naming: Naming, tuning: Tuning) -> None:
        """Name the file (connections open on first use).

        Raises:
            naming.error: the file's folder does not exist.
        """
        self.path, self.name, self.naming, self.tuning = target.location, target.shown, naming, tuning
        self.memory = target.memory
        self._local = threading.local()
        self._lock = threading.RLock() if self.memory else None  # one shared connection: one user at a time
        self._checkpoint_lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self._watch()
        if not self.memory and not Path(self.path).parent.is_dir():
            raise self.error(f"its folder {Path(self.path).parent} does not exist")

    # ------------------------------------------------------------------------------------------ connections

    def _connect(self) -> sqlite3.Connection:
        # autocommit: transactions are explicit (BEGIN IMMEDIATE takes the write lock before reading)
        db = sqlite3.connect(self.path, timeout=self.tuning.busy_timeout, isolation_level=None, check_same_thread=False)
        if self.tuning.foreign_keys:
            db.execute("PRAGMA foreign_keys=ON")
        if self.memory:
            return db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={self.tuning.synchronous}")
        if self.tuning.mmap_bytes:  # a large store's reads follow a few B-tree paths: mapped, not read by syscalls
            db.execute(f"PRAGMA mmap_size={self.tuning.mmap_bytes}")
        if self.tuning.cache_kib:
            db.execute(f"PRAGMA cache_size=-{self.tuning.cache_kib}")
        if self.tuning.checkpoints:
            # no checkpoint inside a commit (it copied ~1,000 pages back into the file: the register's p99); a
            # thread of this process checkpoints in the background instead
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._start_checkpoints()
        return db

    def _start_checkpoints(self) -> None:
        with self._checkpoint_lock:
            if self._checkpointer is None or not self._checkpointer.is_alive():
                self._stop = threading.Event()
                self._checkpointer = threading.Thread(
                    target=self._checkpoints, args=(self._stop,), name="db-checkpoint", daemon=True
                )
                self._checkpointer.start()

    def _checkpoints(self, stop: threading.Event) -> None:
        """Copy the WAL back into the file every ``CHECKPOINT_EVERY`` seconds (PASSIVE: it never waits for, nor
        blocks, a writer or a reader; what it cannot copy now, it copies next time), on a connection of its own."""
        try:
            db = sqlite3.connect(self.path, timeout=self.tuning.busy_timeout, isolation_level=None)
        except sqlite3.Error:
            return
        with closing(db):
            while not stop.wait(CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    continue  # busy or gone: the next round tries again

    def _connection(self) -> sqlite3.Connection:
        if self.memory:  # one connection: an in-memory database is per connection
            if self._shared is None:
                self._shared = self._connect()
            return self._shared
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        elif self.tuning.checkpoints and self._checkpointer is None:  # another thread's close() stopped them
            self._start_checkpoints()
        return db

    # --------------------------------------------------------------------------------------------- statements

    @contextmanager
    def transaction(self, *, write: bool = True, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (the write lock first), or a read (``BEGIN``, WAL's snapshot). Every commit survives
        a killed process (WAL), whatever ``durable`` says; ``Tuning.synchronous`` decides a power cut."""
        with self._lock or nullcontext():
            try:
                db = self._connection()
            except sqlite3.Error as exc:
                self._local.db = None
                raise self.error(exc) from None
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    if not self.memory:  # the next transaction opens a fresh connection
                        db.close()
                        self._local.db = None
                    raise self.error(exc) from None
                raise

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:
        """``sqlite3``'s own ``?`` placeholders."""
        return tx.execute(sql, params)

    def executemany(self, tx: Any, sql: str, rows: list[tuple]) -> None:
        """``sqlite3``'s ``executemany``."""
        tx.executemany(sql, rows)

    def tables(self, tx: Any) -> set[str]:
        """The file's tables."""
        return {row[0] for row in tx.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def error(self, exc: BaseException | str, *, lost: bool = False, full: bool = False) -> Exception:
        """A SQLite error as the store's error, its reason in words; locked past the busy timeout is ``lost``; a
        write its file system refused (full, read-only) is ``full``, naming the folder."""
        if isinstance(exc, sqlite3.Error):
            text, folder = str(exc), Path(self.path).parent
            why = None if self.memory else full_reason(exc, folder)
            if why is not None:
                full = True
                exc = f"cannot write it: {text} (the file system of {folder} is {why})"
            elif "locked" in text or "busy" in text:
                exc, lost = f"locked by another process for more than {self.tuning.busy_timeout:g} s", True
            elif "readonly" in text or "read-only" in text or "unable to open" in text:
                exc = "cannot be written (read-only file or folder?)"
            elif "not a database" in text or "malformed" in text:
                exc = "not a SQLite database (corrupt?)"
        return super().error(exc, lost=lost, full=full)

    def has_space(self) -> bool:
        """Whether the file's folder takes writes again: not read-only, not full (``full_reason``'s test)."""
        try:
            stats = os.statvfs(Path(self.path).parent)
        except OSError:
            return True  # nothing to tell by: the next write tells
        return not stats.f_flag & os.ST_RDONLY and stats.f_bavail > 0

    def backup(self, suffix: str) -> str | None:
        """Copy the file (SQLite's backup API: a consistent copy while others may use it) to a sibling named
        ``<file>.<suffix>.bak`` (``.2.bak``, ... when that exists), written under a temporary name and renamed."""
        if self.memory or not Path(self.path).is_file():
            return None
        base = Path(f"{self.path}.{suffix}")
        target = Path(f"{base}.bak")
        n = 1
        while target.exists():
            n += 1
            target = Path(f"{base}.{n}.bak")
        partial = target.with_name(target.name + ".partial")
        try:
            with closing(sqlite3.connect(self.path, timeout=self.tuning.busy_timeout)) as source:
                with closing(sqlite3.connect(partial)) as copy:
                    source.backup(copy)
            with open(partial, "rb") as handle:
                os.fsync(handle.fileno())
            os.replace(partial, target)
        except (OSError, sqlite3.Error) as exc:
            partial.unlink(missing_ok=True)
            raise self.error(f"cannot back it up to {target} before its migration ({exc})") from None
        return str(target)

    def close(self) -> None:
        """Close this thread's connection, after a last checkpoint, and stop the background checkpoints (a later
        transaction starts them again), waiting for the checkpoint thread's connection to close."""
        db = self._shared if self.memory else getattr(self._local, "db", None)
        if db is not None:
            if not self.memory and self.tuning.checkpoints:
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    pass  # the next one copies it
            db.close()
        self._shared = None
        self._local.db = None
        self.outage.forget()
        with self._checkpoint_lock:
            self._stop.set()
            checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None and checkpointer is not threading.current_thread():
            # its connection closes before close() returns: a copy of the folder made next sees a quiet file
            checkpointer.join(timeout=self.tuning.busy_timeout)


__all__ = ["CHECKPOINT_EVERY", "SqliteDatabase", "full_reason"]
