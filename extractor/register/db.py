"""The register's two databases: one SQLite file (embedded, the default) or PostgreSQL (shared past one machine),
named by the same URLs as ``extract serve --store``: ``sqlite:///relative/path``, ``sqlite:////absolute/path``, a
plain path (SQLite), or ``postgresql://user:password@host/db``.

The few lines of URL parsing and connection handling are the service store's conventions, written again here (the
service is a later stage, which the register may not import): WAL and one connection per thread for SQLite, a
writing transaction taking the write lock first (``BEGIN IMMEDIATE``); one connection per thread and
``%s`` placeholders for psycopg (imported only here, only for a ``postgresql://`` URL).

Every database carries a ``register_meta`` table with its schema version: a register written by a newer release is
refused (``RegisterError``, exit 2), as is a file that is not a SQLite database, a SQLite database that is not a
register, a locked file and one that cannot be written.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from extractor.errors import UsageError

SCHEMA_VERSION = 1
LOCK_TIMEOUT = 10.0  # seconds a SQLite register waits for another process's write lock before it says "locked"
CONNECT_TIMEOUT = 10  # seconds (PostgreSQL)
MMAP_BYTES = 1 << 30  # SQLite: the register's file mapped up to this size (address space, not memory)
CACHE_KIB = 65536  # SQLite: page cache per connection
CHECKPOINT_EVERY = 1.0  # seconds between a SQLite register's background WAL checkpoints
_DDL_LOCK = 0x7265676973746572  # pg_advisory_xact_lock key: processes opening one register together create it once

_TABLES = """
CREATE TABLE IF NOT EXISTS register_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS register_suppliers (
    tenant TEXT NOT NULL,           -- whose register: "" for one owner, else an extract serve tenant
    key TEXT NOT NULL,              -- vat:..., tax:... or name:...|IBAN (register.keys)
    name TEXT,
    name_norm TEXT,
    vat_id TEXT,
    tax_number TEXT,
    bic TEXT,
    country TEXT,
    known INTEGER NOT NULL,         -- 1: imported, trusted, or an ok record of it was registered
    source TEXT NOT NULL,           -- master_data, record, review
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, key)
);
CREATE INDEX IF NOT EXISTS register_suppliers_name ON register_suppliers (tenant, name_norm);
CREATE TABLE IF NOT EXISTS register_accounts (
    tenant TEXT NOT NULL,
    supplier_key TEXT NOT NULL,
    iban TEXT NOT NULL,
    source TEXT NOT NULL,           -- master_data, ok_record, review
    by_whom TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (tenant, supplier_key, iban)
);
CREATE INDEX IF NOT EXISTS register_accounts_iban ON register_accounts (tenant, iban);
CREATE TABLE IF NOT EXISTS register_entries (
    seq {SEQ},
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,           -- with fingerprint: the record's register.entry (sha256:fingerprint)
    fingerprint TEXT NOT NULL,
    place TEXT NOT NULL,            -- the input's path, or the job's id
    part INTEGER NOT NULL,          -- which invoice of a file of several (record.part.index), else 0
    kind TEXT NOT NULL,             -- record or job
    source TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    supplier_key TEXT,
    supplier_name TEXT,
    document_type TEXT NOT NULL,
    number TEXT,
    printed TEXT,
    issue_date TEXT,
    total TEXT,
    currency TEXT,
    iban TEXT,
    verified INTEGER NOT NULL,
    total_claimed INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT NOT NULL,           -- the record's register key as registered (JSON): a repeat answers it again
    UNIQUE (tenant, sha256, fingerprint, place, part)
);
CREATE INDEX IF NOT EXISTS register_entries_amount
    ON register_entries (tenant, supplier_key, currency, total, issue_date);
CREATE INDEX IF NOT EXISTS register_entries_place ON register_entries (tenant, place);
CREATE TABLE IF NOT EXISTS register_invoice_keys (  -- the one original of each invoice: a unique key decides it
    tenant TEXT NOT NULL,
    supplier_key TEXT NOT NULL,
    document_type TEXT NOT NULL,
    number TEXT NOT NULL,
    entry_seq BIGINT NOT NULL,
    PRIMARY KEY (tenant, supplier_key, document_type, number)
){KEYED};
CREATE INDEX IF NOT EXISTS register_invoice_keys_entry ON register_invoice_keys (entry_seq);
CREATE TABLE IF NOT EXISTS register_file_keys (      -- the first document of each file's bytes
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    entry_seq BIGINT NOT NULL,
    PRIMARY KEY (tenant, sha256)
){KEYED};
CREATE INDEX IF NOT EXISTS register_file_keys_entry ON register_file_keys (entry_seq);
CREATE TABLE IF NOT EXISTS register_decisions (      -- a person's "not a duplicate" (register.decisions)
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,           -- the flagged document: its bytes and place
    place TEXT NOT NULL,
    original_sha256 TEXT NOT NULL,  -- the earlier document it was flagged against
    original_place TEXT NOT NULL,
    decision TEXT NOT NULL,         -- not_duplicate
    by_whom TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (tenant, sha256, place, original_sha256, original_place)
);
"""


class RegisterError(UsageError):
    """The register cannot be used: not found where asked, corrupt, locked, read-only, from a newer release, or a
    bad URL (exit code 2: never a silent run without checks)."""


def shown_url(url: str) -> str:
    """The URL without its password (what errors and records name)."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class Database:
    """One register database: transactions on this thread's connection, ``?`` placeholders."""

    name: str  # what errors and records call it (a path, or a URL without its password)
    conflict: tuple[type[BaseException], ...] = ()

    def transaction(self, *, write: bool = True, durable: bool = True):  # pragma: no cover - each backend's own
        raise NotImplementedError

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""

    def error(self, exc: BaseException) -> RegisterError:
        """A database error as a RegisterError naming the register."""
        return RegisterError(f"register {self.name}: {type(exc).__name__}: {_first_line(exc)}")

    def _prepare(self, ddl: str) -> None:
        """Create the tables (once) and check the schema version."""
        with self.transaction() as tx:
            self._lock_ddl(tx)
            self._check_foreign(tx)
            for statement in ddl.split(";"):
                if statement.strip():
                    self.execute(tx, statement)
            row = self.execute(tx, "SELECT value FROM register_meta WHERE name = 'schema_version'").fetchone()
            if row is None:
                self.execute(
                    tx, "INSERT INTO register_meta (name, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) > SCHEMA_VERSION:
                raise RegisterError(
                    f"register {self.name}: written by a newer release of extractor (schema version {row[0]}, this "
                    f"one reads up to {SCHEMA_VERSION}): upgrade extractor"
                )
            else:  # a write now: a read-only register fails here, not at the first document
                self.execute(tx, "UPDATE register_meta SET value = value WHERE name = 'schema_version'")

    def _lock_ddl(self, tx: Any) -> None:
        """PostgreSQL: one process at a time creates the tables."""

    def _check_foreign(self, tx: Any) -> None:
        """SQLite: a database holding other tables and no register is not a register."""


class SqliteDatabase(Database):
    """A register in one SQLite file (WAL), safe from several threads and processes of one machine; ``:memory:``
    holds one in this process only (a batch's own)."""

    def __init__(self, path: str, *, alongside: bool = False) -> None:
        """Open (or create) the file; ``alongside``: in a database that holds other tables too (the service's job
        store), else such a file is refused as not a register.

        Raises:
            RegisterError: it is not a SQLite database, not a register, locked, read-only, or from a newer release.
        """
        self.memory = path == ":memory:"
        self.path, self.alongside = path, alongside
        self.name = path
        self._local = threading.local()
        self._lock = threading.RLock() if self.memory else None
        self._checkpoint_lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        if not self.memory:
            folder = Path(path).parent
            if not folder.is_dir():
                raise RegisterError(f"register {path}: its folder {folder} does not exist")
        try:
            # key tables WITHOUT ROWID: the primary key is the table (half the size of a rowid table and its index)
            self._prepare(
                _TABLES.replace("{SEQ}", "INTEGER PRIMARY KEY AUTOINCREMENT").replace("{KEYED}", " WITHOUT ROWID")
            )
        except sqlite3.Error as exc:
            raise self._sqlite_error(exc) from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None, check_same_thread=False)
        if not self.memory:
            db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL survives a killed process (the register's promise: kill -9 between record and
            # register leaves both consistent); a power cut may lose the last transactions, never corrupt the file
            db.execute("PRAGMA synchronous=NORMAL")
            # a large register's checks read a few B-tree paths each: mapped and cached, not read by syscalls
            db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            # no checkpoint inside a document's commit (it copied ~1,000 pages back into the file: the checks' p99);
            # a thread of this process checkpoints in the background instead (``_checkpoints``)
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._start_checkpoints()
        return db

    def _start_checkpoints(self) -> None:
        with self._checkpoint_lock:
            if self._checkpointer is None or not self._checkpointer.is_alive():
                self._stop = threading.Event()
                self._checkpointer = threading.Thread(
                    target=self._checkpoints, args=(self._stop,), name="register-checkpoint", daemon=True
                )
                self._checkpointer.start()

    def _checkpoints(self, stop: threading.Event) -> None:
        """Copy the WAL back into the file every ``CHECKPOINT_EVERY`` seconds (PASSIVE: it never waits for, nor
        blocks, a writer or a reader; what it cannot copy now, it copies next time), on a connection of its own."""
        try:
            db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return
        try:
            while not stop.wait(CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    continue  # busy or gone: the next round tries again
        finally:
            db.close()

    def _connection(self) -> sqlite3.Connection:
        if self.memory:  # one connection: an in-memory database is per connection
            if self._shared is None:
                self._shared = self._connect()
            return self._shared
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        return db

    @contextmanager
    def transaction(self, *, write: bool = True, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (the write lock first: two processes never decide one invoice at once), or a read
        (``BEGIN``, WAL's snapshot). Every commit survives a killed process (WAL, ``synchronous=NORMAL``), whatever
        ``durable`` says."""
        with self._lock or _nothing():
            try:
                db = self._connection()
            except sqlite3.Error as exc:
                self._local.db = None
                raise self._sqlite_error(exc) from None
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    if not self.memory:
                        db.close()
                        self._local.db = None
                    raise self._sqlite_error(exc) from None
                raise

    def _sqlite_error(self, exc: sqlite3.Error) -> RegisterError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            why = f"locked by another process for more than {LOCK_TIMEOUT:g} s"
        elif "readonly" in text or "read-only" in text or "unable to open" in text:
            why = "cannot be written (read-only file or folder?)"
        elif "not a database" in text or "malformed" in text:
            why = "not a SQLite database (corrupt?)"
        else:
            why = f"{type(exc).__name__}: {text}"
        return RegisterError(f"register {self.name}: {why}")

    def _check_foreign(self, tx: Any) -> None:
        names = {row[0] for row in tx.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "register_meta" not in names and not self.alongside:
            tables = ", ".join(sorted(names)[:5])
            raise RegisterError(f"register {self.name}: a SQLite database, but not a register (tables: {tables})")

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:
        """``sqlite3``'s own ``?`` placeholders."""
        return tx.execute(sql, params)

    def close(self) -> None:
        """Close this thread's connection, after a last checkpoint, and stop the background checkpoints (a later
        transaction starts them again)."""
        db = self._shared if self.memory else getattr(self._local, "db", None)
        if db is not None:
            if not self.memory:
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    pass  # the next one copies it
            db.close()
        self._shared = None
        self._local.db = None
        with self._checkpoint_lock:
            self._stop.set()
            checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None and checkpointer is not threading.current_thread():
            # its connection closes before close() returns: a copy of the folder made next sees a quiet file
            checkpointer.join(timeout=LOCK_TIMEOUT)


class PostgresDatabase(Database):
    """A register in PostgreSQL tables (``register_*``), one connection per thread, for any number of processes on
    any machines; the unique keys decide an invoice's original."""

    def __init__(self, url: str) -> None:
        """Connect and create the tables if they are not there.

        Raises:
            RegisterError: psycopg is not installed, or the database cannot be reached or used, or it holds a
                register of a newer release.
        """
        try:
            import psycopg
        except ImportError:
            raise RegisterError(
                "register postgresql://...: needs psycopg (pip install 'extractor-vlm[postgres]')"
            ) from None
        self.url, self.name, self._psycopg, self._local = url, shown_url(url), psycopg, threading.local()
        self.conflict = (psycopg.errors.UniqueViolation,)
        self._prepare(
            _TABLES.replace("{SEQ}", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY").replace("{KEYED}", "")
        )

    def _connection(self) -> Any:
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            try:
                db = self._psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
                # a document's registration does not wait for the server's disk flush (``transaction``)
                db.execute("SET synchronous_commit TO off")
            except self._psycopg.Error as exc:
                raise self.error(exc) from None
            self._local.db = db
        return db

    @contextmanager
    def transaction(self, *, write: bool = True, durable: bool = True) -> Iterator[Any]:
        """A transaction on this thread's connection (reconnected after a lost one). ``durable=False``: committed
        without waiting for the server's disk flush (``synchronous_commit = off``): a killed extractor loses nothing
        (the server has it), a crash of the database server itself may lose the last fraction of a second, never
        corrupt anything. A document's registration uses it: the flush would be most of its time."""
        db = self._connection()
        try:
            with db.transaction(), db.cursor() as cursor:
                if durable:  # the connection's default is off (one statement less per document)
                    cursor.execute("SET LOCAL synchronous_commit TO on")
                yield cursor
        except self._psycopg.Error as exc:
            if isinstance(exc, self._psycopg.OperationalError):
                db.close()
            raise self.error(exc) from None

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:
        """psycopg's ``%s`` placeholders for the SQL's ``?`` (which holds no other ``?`` or ``%``)."""
        tx.execute(sql.replace("?", "%s"), params)
        return tx

    def _lock_ddl(self, tx: Any) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(%s)", (_DDL_LOCK,))

    def close(self) -> None:
        """Close this thread's connection."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
        self._local.db = None


def open_database(url: str, *, alongside: bool = False) -> Database:
    """The database of a register URL (module docstring); ``alongside``: beside other tables (``SqliteDatabase``).

    Raises:
        RegisterError: another scheme, or a register that cannot be opened (the reason named, never a password).
    """
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresDatabase(url)
    if url.startswith("sqlite:///") or "://" not in url:
        return SqliteDatabase(url.removeprefix("sqlite:///"), alongside=alongside)
    raise RegisterError(f"register {url.split('://')[0]}://...: expected a path, sqlite:///PATH or postgresql://...")


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0]


__all__ = [
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "Database",
    "PostgresDatabase",
    "RegisterError",
    "SqliteDatabase",
    "open_database",
    "shown_url",
]
