"""The database a store uses, whatever its kind: transactions on this thread's connection, ``?`` placeholders, the
store's errors naming it (never a secret), the settings a store opens it with (``Tuning``, ``Naming``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from extractor.db.outage import Outage, outlast
from extractor.db.url import first_line

BUSY_TIMEOUT = 10.0  # seconds a SQLite writer waits for another's write lock before it says "locked"
CONNECT_TIMEOUT = 10  # seconds (PostgreSQL)
OUTLAST = 600.0  # seconds a store's operation waits out an outage (retrying) before it fails
SPACE_WAIT = float("inf")  # seconds a store's write waits for its full (or read-only) file system: until there is room
DISK_FULL_SQLSTATE = "53100"  # PostgreSQL's disk_full: the server's disk, waited for like a full SQLite file
T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class Tuning:
    """How a store's connections behave (each store picks its own: a register favours speed, a job store a power
    cut).

    Attributes:
        busy_timeout: seconds a SQLite writer waits for another process's write lock.
        synchronous: SQLite's ``PRAGMA synchronous`` (``NORMAL``: a commit survives a killed process; ``FULL``:
            a power cut too).
        checkpoints: SQLite: no checkpoint inside a commit; a background thread copies the WAL back every second.
        mmap_bytes: SQLite: the file mapped up to this size (0: read by syscalls).
        cache_kib: SQLite: page cache per connection (0: SQLite's default).
        foreign_keys: SQLite: ``PRAGMA foreign_keys=ON``.
        lazy_commit: PostgreSQL: commits do not wait for the server's disk flush unless a transaction asks for
            ``durable`` (a killed client loses nothing; a crash of the server may lose the last fraction of a
            second).
        outlast: seconds an operation run through ``Database.outlast`` retries while the database is unreachable
            (``extractor.db.outage``) before its error is raised.
        space_wait: seconds an operation waits while its database's file system is full or read-only (``is_full``:
            its write rolled back, nothing torn), retrying, before its error is raised; 0 raises at once (a batch:
            exit 2, naming the file).
    """

    busy_timeout: float = BUSY_TIMEOUT
    synchronous: str = "NORMAL"
    checkpoints: bool = False
    mmap_bytes: int = 0
    cache_kib: int = 0
    foreign_keys: bool = False
    lazy_commit: bool = False
    outlast: float = OUTLAST
    space_wait: float = SPACE_WAIT


@dataclass(frozen=True)
class Naming:
    """How a store's errors name it: ``error(f"{label} {shown}: why")`` (``label`` "" : the name alone).

    Attributes:
        label: ``register``, ``--store``, ``ledger`` ...
        error: the store's exception class (a ``UsageError``: exit code 2).
    """

    label: str
    error: type[Exception]


class Database:
    """One store's database: ``with db.transaction() as tx: db.execute(tx, sql, params)``, ``?`` placeholders."""

    kind = ""  # sqlite or postgresql
    name: str  # what messages call it: a path, or the URL with its secrets masked
    naming: Naming
    tuning: Tuning
    outage: Outage  # whether it is unreachable now (``extractor.db.outage``)
    conflict: tuple[type[BaseException], ...] = ()  # a unique key's violation (a concurrent insert won)
    lost: tuple[type[BaseException], ...] = ()  # the database went away for now (an outage: retried)

    def transaction(self, *, write: bool = True, durable: bool = True) -> AbstractContextManager[Any]:
        """A transaction on this thread's connection, committed on exit and rolled back on an exception; it yields
        what ``execute`` takes.

        Args:
            write: it writes (SQLite: ``BEGIN IMMEDIATE``, the write lock first; False: WAL's snapshot, which never
                waits for a writer).
            durable: PostgreSQL with ``Tuning.lazy_commit``: this commit waits for the server's disk flush.

        Raises:
            the store's error (``Naming.error``) for a database error, naming the database and the reason.
        """
        raise NotImplementedError  # pragma: no cover - each kind's own

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Any:
        """Run one statement (``?`` placeholders) in ``tx``; returns a cursor (``fetchone``, ``fetchall``,
        ``rowcount``)."""
        raise NotImplementedError  # pragma: no cover

    def read(self, sql: str, params: tuple = ()) -> list:
        """Every row of one query (``?`` placeholders), in a read-only transaction of its own (``transaction``'s
        ``write=False``)."""
        with self.transaction(write=False) as tx:
            return self.execute(tx, sql, params).fetchall()

    def executemany(self, tx: Any, sql: str, rows: list[tuple]) -> None:
        """Run one statement for each of ``rows`` in ``tx``."""
        for row in rows:
            self.execute(tx, sql, row)

    def tables(self, tx: Any) -> set[str]:
        """The names of the tables in the database (its current schema on PostgreSQL)."""
        raise NotImplementedError  # pragma: no cover

    def lock(self, tx: Any, key: str) -> None:
        """Make transactions naming ``key`` run one after another (SQLite's writers already do)."""

    def backup(self, suffix: str) -> str | None:
        """Copy the database beside itself before a migration (SQLite files only); the copy's path."""
        return None

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""

    def outlast(self, call: Callable[[], T]) -> T:
        """``call()`` (one or more whole transactions of this database), run again while the database is
        unreachable, for ``Tuning.outlast`` seconds at most (``extractor.db.outage``: one log line per outage)."""
        return outlast(
            call,
            outage=self.outage,
            lost=is_lost,
            patience=self.tuning.outlast,
            space_wait=self.tuning.space_wait,
            has_space=self.has_space,
            describe=self._reason,
        )

    def has_space(self) -> bool:
        """Whether the database's file system takes writes again (SQLite: its folder is writable, not full); a
        server's own disk cannot be asked: True."""
        return True

    def refuse_when_full(self) -> None:
        """From now on a full (or read-only) file system is this database's error at once, not waited for
        (``Tuning.space_wait`` 0): a batch stops with exit 2, naming the file, where an intake would wait."""
        self.tuning = dataclasses.replace(self.tuning, space_wait=0.0)

    def _reason(self, exc: BaseException) -> str:
        """A store's error without the store's name in front (the outage's line names it once)."""
        prefix = f"{self.naming.label} {self.name}: " if self.naming.label else f"{self.name}: "
        return str(exc).removeprefix(prefix)

    def ping(self) -> bool:
        """Whether the database answers now (one read, never retried); a failure for want of it begins or goes on
        with its outage, an answer ends one (``/healthz`` asks this).

        Raises:
            the store's error: the database answers, but wrongly (not an outage).
        """
        try:
            with self.transaction(write=False) as tx:
                self.execute(tx, "SELECT 1").fetchone()
        except Exception as exc:
            if not is_lost(exc):
                raise
            self.outage.failed(self._reason(exc))
            return False
        self.outage.succeeded(has_space=self.has_space)
        return True

    def error(self, exc: BaseException | str, *, lost: bool = False, full: bool = False) -> Exception:
        """``exc`` (or a reason) as the store's error, naming the database; never a secret. ``lost`` (or a
        driver's connection error): the database is unreachable for now (``is_lost``); ``full`` (or PostgreSQL's
        ``disk_full``): its file system is full or read-only (``errors.is_full``)."""
        why = exc if isinstance(exc, str) else f"{type(exc).__name__}: {first_line(exc, url=self._url())}"
        label = f"{self.naming.label} " if self.naming.label else ""
        error = self.naming.error(f"{label}{self.name}: {why}")
        full = full or getattr(exc, "sqlstate", None) == DISK_FULL_SQLSTATE
        error.db_lost = (lost or isinstance(exc, self.lost)) and not full  # type: ignore[attr-defined]  # is_lost
        error.disk_full = full  # type: ignore[attr-defined]  # read by errors.is_full
        return error

    def _watch(self) -> None:
        self.outage = Outage(self.naming.label, self.name)

    def _url(self) -> str:
        return ""


Owner = TypeVar("Owner", bound="DatabaseOwner")


class DatabaseOwner:
    """A store over one ``Database`` (its ``db``): closing the store closes the database, and ``with`` closes it."""

    db: Database

    def close(self) -> None:
        """Close the database (this thread's connection)."""
        self.db.close()

    def __enter__(self: Owner) -> Owner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def is_lost(exc: BaseException) -> bool:
    """Whether a store's error says its database is unreachable for now (a lost or refused connection, a SQLite
    file locked past its busy timeout): worth waiting out, not a fault of the operation."""
    return bool(getattr(exc, "db_lost", False))


def outlasting(method: Callable[P, T]) -> Callable[P, T]:
    """A store's method (on an object with a ``db``), run through ``Database.outlast``: each call is whole
    transactions, so running it again after an outage is safe."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        store = args[0]
        return store.db.outlast(lambda: method(*args, **kwargs))  # type: ignore[attr-defined]

    return run


__all__ = [
    "BUSY_TIMEOUT",
    "CONNECT_TIMEOUT",
    "OUTLAST",
    "SPACE_WAIT",
    "Database",
    "DatabaseOwner",
    "Naming",
    "Tuning",
    "is_lost",
    "outlasting",
]
