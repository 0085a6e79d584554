"""Outages: a database that went away for a while (a PostgreSQL restart or failover, a SQLite file locked past its
busy timeout) is waited for, not failed on.

A store's operation runs through ``Database.outlast``: when it fails because the database is unreachable (the
driver's connection errors, SQLite's ``database is locked``), it is run again with capped exponential backoff
(``FIRST_WAIT`` doubling up to ``MAX_WAIT``) for up to the store's ``Tuning.outlast`` seconds, then the error is
raised. Each operation is one transaction, rolled back when it failed, so running it again is safe.

A database whose file system is full or read-only (``errors.is_full``: a SQLite file on a full disk, PostgreSQL's
``disk_full``) is waited for the same way, for the store's ``Tuning.space_wait`` seconds (0: its error at once),
and logged the same way: one line saying what is full and where when it begins, one when the write went through.

One ``Outage`` per database says whether it is unreachable now, since when, and why; it logs ONE line when an
outage begins and one when the database is back (never one per attempt). ``current()`` lists the outages of this
process: the service's ``/healthz`` answers 503 while any is on, and ``/metrics`` reports them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from extractor.errors import is_full

FIRST_WAIT = 0.2  # seconds before the first retry
MAX_WAIT = 5.0  # seconds between retries at most
log = logging.getLogger("extractor.db")
T = TypeVar("T")


@dataclass(frozen=True)
class OutageView:
    """An outage as ``/healthz`` and ``/metrics`` show it.

    Attributes:
        store: what the store is (``register``, ``--store``, ``ledger``).
        database: where it is (a path, or a URL with its secrets masked).
        since: when it began (Unix seconds).
        error: the last failure, in a line.
        attempts: operations tried again meanwhile.
    """

    store: str
    database: str
    since: float
    error: str
    attempts: int


class Outage:
    """Whether one database is unreachable now (thread-safe: every thread of the process shares it)."""

    def __init__(self, store: str, database: str) -> None:
        """An outage-free state for ``store`` at ``database`` (what messages call them)."""
        self.store, self.database = store, database
        self._lock = threading.Lock()
        self.since: float | None = None
        self.error = ""
        self.attempts = 0
        self.generation = 0  # outages ended so far: a connection opened before the last one ended is stale
        self.full = False  # the outage is a full (or read-only) file system: reads still go through meanwhile

    def failed(self, error: str, *, full: bool = False) -> None:
        """An operation failed for want of the database (``full``: of room on its file system): the outage begins
        (logged once) or goes on."""
        with self._lock:
            self.attempts += 1
            self.error = error
            if self.since is not None:
                return
            self.full = full
            self.since = time.time()
            _OUTAGES.add(self)
        if full:
            log.warning("%s %s: %s; waiting for space, retrying", self.store, self.database, error)
        else:
            log.warning("%s %s: unreachable (%s); waiting for it, retrying", self.store, self.database, error)

    def succeeded(self, *, has_space: Callable[[], bool] = lambda: True) -> None:
        """An operation went through: an outage ends (logged once). A full file system's outage ends only once
        ``has_space()`` (a read goes through while it is full: it must not end it, nor start another line)."""
        if self.since is None:  # the common case, without the lock
            return
        if self.full and not has_space():
            return
        with self._lock:
            if self.since is None:
                return
            lasted, tries = time.time() - self.since, self.attempts
            self.since, self.error, self.attempts, self.full = None, "", 0, False
            self.generation += 1
            _OUTAGES.discard(self)
        log.warning("%s %s: back after %.1f s (%d failed tries)", self.store, self.database, lasted, tries)

    def forget(self) -> None:
        """The database was closed: no longer an outage of this process (whatever it was)."""
        with self._lock:
            self.since, self.error, self.attempts = None, "", 0
            _OUTAGES.discard(self)

    def view(self) -> OutageView | None:
        """The outage now, or None when the database is reachable."""
        with self._lock:
            if self.since is None:
                return None
            return OutageView(self.store, self.database, self.since, self.error, self.attempts)


_OUTAGES: set[Outage] = set()


def current() -> list[OutageView]:
    """The outages going on in this process, oldest first."""
    views = [view for outage in list(_OUTAGES) if (view := outage.view()) is not None]
    return sorted(views, key=lambda v: v.since)


def outlast(
    call: Callable[[], T],
    *,
    outage: Outage,
    lost: Callable[[BaseException], bool],
    patience: float,
    space_wait: float = 0.0,
    has_space: Callable[[], bool] = lambda: True,
    describe: Callable[[BaseException], str] = str,
) -> T:
    """Run ``call`` until it goes through, again after each failure ``lost`` says is an outage (or ``is_full``
    says is a full or read-only file system), waiting ``FIRST_WAIT`` doubling to ``MAX_WAIT`` between tries, for
    ``patience`` (``space_wait``) seconds at most, then its error; a full file system's outage ends once
    ``has_space()``.

    Raises:
        whatever ``call`` raised: neither, or the outage outlasted its patience.
    """
    start, wait = time.monotonic(), FIRST_WAIT
    while True:
        try:
            result = call()
        except Exception as exc:
            full = is_full(exc)
            if not full and not lost(exc):
                raise
            outage.failed(describe(exc), full=full)
            left = start + (space_wait if full else patience) - time.monotonic()
            if left <= 0:
                raise
            time.sleep(min(wait, left))
            wait = min(wait * 2, MAX_WAIT)
            continue
        outage.succeeded(has_space=has_space)
        return result


__all__ = ["FIRST_WAIT", "MAX_WAIT", "Outage", "OutageView", "current", "outlast"]
