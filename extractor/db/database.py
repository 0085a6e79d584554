"""The database a store uses, whatever its kind: transactions on this thread's connection, ``?`` placeholders, the
store's errors naming it (never a secret), the settings a store opens it with (``Tuning``, ``Naming``).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from extractor.db.url import first_line

BUSY_TIMEOUT = 10.0  # seconds a SQLite writer waits for another's write lock before it says "locked"
CONNECT_TIMEOUT = 10  # seconds (PostgreSQL)


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
    """

    busy_timeout: float = BUSY_TIMEOUT
    synchronous: str = "NORMAL"
    checkpoints: bool = False
    mmap_bytes: int = 0
    cache_kib: int = 0
    foreign_keys: bool = False
    lazy_commit: bool = False


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

    def error(self, exc: BaseException | str) -> Exception:
        """``exc`` (or a reason) as the store's error, naming the database; never a secret."""
        why = exc if isinstance(exc, str) else f"{type(exc).__name__}: {first_line(exc, url=self._url())}"
        label = f"{self.naming.label} " if self.naming.label else ""
        return self.naming.error(f"{label}{self.name}: {why}")

    def _url(self) -> str:
        return ""


__all__ = ["BUSY_TIMEOUT", "CONNECT_TIMEOUT", "Database", "Naming", "Tuning"]
