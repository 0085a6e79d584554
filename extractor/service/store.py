"""The service's durable job store: every accepted job, its upload, its records and its webhook deliveries, in a
database (``sqlite`` one file; ``postgres`` shared by many servers and workers on many machines).

A job is ``queued`` when its upload is stored (one transaction: the row and the bytes together). A worker claims
the oldest queued job with a **lease**: the claim writes a fresh claim token and ``lease_until`` (the database's
clock), and the worker renews the lease while it runs the job. A worker that dies stops renewing; once its lease
has passed, the next claim takes the job again (``runs`` counts the claims). A job ends ``done`` (its records
written in the same statement that ends it, and only by the claim that holds it: a worker whose lease passed and
whose job was claimed again writes nothing, so a job yields exactly one set of records), ``failed`` (the core
raised, which it should never do) or ``cancelled``. An ended job with a ``callback_url`` has its webhook
``pending`` until a delivery succeeds or its tries are spent (``webhooks``; ``retry_callback`` makes a failed one
due again). A job of the same tenant, bytes and settings as one already queued or running **joins** it
(``answered_from``): never claimed itself, it ends with that job's records, so equal submissions run once. When the
service keeps an invoice register (``register=True`` to ``submit`` and ``finish``) a repeat does not end here: it
is queued holding the records it is answered from (at once when that job is done, when it ends otherwise), and a
worker claims it and ends it with them checked against the register under its own id (the second upload of a file
is a ``duplicate_file``), so no client sees it ended unchecked. Ended jobs older than the retention are deleted with
their uploads (``sweep``).

The SQL is written once here, for both databases (``?`` placeholders; the Postgres store turns them into ``%s``);
``SqliteStore`` and ``PostgresStore`` give the connections, the clock and the table definitions. The record it reads
and writes (``StoredJob``, ``Stats``, the statuses and columns, a row's decoding) is ``stored_job.py``.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, ParamSpec, Protocol, TypeVar

from extractor.db import Database
from extractor.db.database import outlasting
from extractor.service.stored_job import (
    CALLBACK_STATES,
    COLUMNS,
    ENDED,
    STATUSES,
    Outcome,
    Stats,
    StoredJob,
    from_row,
    shown_options,
)

DEFAULT_STORE = "sqlite:///extract-serve.sqlite"  # beside the working directory
DEFAULT_RETENTION = 7 * 24 * 3600.0  # seconds an ended job is kept
DEFAULT_LEASE = 60.0  # seconds a claim holds a job without renewal (renewed every third of it while it runs)
DEFAULT_TENANT_SHARE = 1  # running jobs a tenant holds before another tenant's waiting job goes first


_SELECT = ", ".join(COLUMNS)
_INSERT = (
    "INSERT INTO {table} (id, tenant, status, created, started, finished, idempotency_key, filename, sha256, "
    "fingerprint, options, upload, records, callback_url, callback_state, callback_next, deliveries, answered_from, "
    "request_id, source_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
P = ParamSpec("P")
T = TypeVar("T")


def _once_more_on_conflict(method: Callable[P, T]) -> Callable[P, T]:
    """A store's method run once more when its transaction lost a race on a unique key: the same Idempotency-Key
    submitted at the same moment elsewhere, whose job the second run then finds and answers with."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except args[0].conflict:  # type: ignore[attr-defined]
            return method(*args, **kwargs)

    return run


class Cursor(Protocol):
    """What both databases' cursors offer the shared SQL."""

    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list: ...


class Store(ABC):
    """The jobs in one database, safe to use from many threads and processes (every change one transaction)."""

    table = "jobs"
    lock = ""  # the row lock a claim's subquery takes (Postgres: FOR UPDATE SKIP LOCKED)
    shared = False  # True: other machines' workers may hold leases (a start must not take their jobs back)
    db: Database  # the database layer's connection to it (``extractor.db``)

    @property
    def conflict(self) -> tuple[type[BaseException], ...]:
        """The error of a concurrent insert of one idempotency key."""
        return self.db.conflict

    def transaction(self, *, write: bool = True) -> AbstractContextManager[Any]:
        """A transaction (committed on exit, rolled back on an exception); it yields what ``execute`` takes.

        Args:
            write: it may write: it holds the write lock from its first statement (False: a read, which on SQLite
                never waits for a writer nor makes one wait).
        """
        return self.db.transaction(write=write)

    def execute(self, tx: Any, sql: str, params: tuple = ()) -> Cursor:
        """Run one statement of the shared SQL (``?`` placeholders) in ``tx``."""
        return self.db.execute(tx, sql, params)

    def close(self) -> None:
        """Close this thread's connection."""
        self.db.close()

    @abstractmethod
    def binary(self, data: bytes) -> Any:
        """The upload's bytes as the database driver takes a blob."""

    @abstractmethod
    def now(self, tx: Any) -> float:
        """The store's clock (Unix seconds): leases compare against one clock, whatever machine asks."""

    def describe(self) -> str:
        """The store as the start line names it (never a password)."""
        return self.table

    def notify(self, tx: Any) -> None:
        """Tell waiting workers of other processes that a job was queued (when ``tx`` commits)."""
        return None  # SQLite has no notifications: other processes' workers see the job at their next look

    def wait_for_jobs(self, *, timeout: float, wake: threading.Event) -> None:
        """Wait until a job may be waiting: ``wake`` set (a job queued in this process), another process's
        ``notify``, or ``timeout`` seconds (a lease may have passed meanwhile)."""
        wake.wait(timeout)

    def _sql(self, sql: str) -> str:
        return sql.replace("{table}", self.table).replace("{lock}", self.lock)

    def _changed(self, sql: str, *, ago: float | None = None) -> int:
        """Run one statement in a transaction of its own; how many rows it changed (``ago``: its one parameter is
        the store's clock that many seconds ago)."""
        with self.transaction() as tx:
            params = () if ago is None else (self.now(tx) - ago,)
            return self.execute(tx, self._sql(sql), params).rowcount

    def _one(self, tx: Any, sql: str, params: tuple = ()) -> StoredJob | None:
        row = self.execute(tx, self._sql(sql), params).fetchone()
        return from_row(row) if row is not None else None

    def serialize(self, tx: Any, key: str) -> None:
        """Make transactions naming the same ``key`` run one after another (SQLite's writers already do: each
        holds the write lock from its first statement)."""
        return None

    @outlasting
    @_once_more_on_conflict
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
        callback_url: str | None = None,
        reuse: bool = False,
        register: bool = False,
        request_id: str | None = None,
        source_url: str | None = None,
    ) -> tuple[StoredJob, bool]:
        """Store a new queued job with its upload, unless the tenant's ``idempotency_key`` already names one.

        Args:
            reuse: when the tenant already has a job of the same bytes and fingerprint, the new one is answered
                from it (``answered_from`` names it): ``done`` at once with its records when it is done; when it is
                queued or running, the new job joins it (never claimed itself, it ends when that one ends, with
                its records), checked and inserted in one transaction so that two equal submissions never run
                twice. A URL source is never reused (its bytes are not known yet).
            register: the service keeps an invoice register: a repeat of a done job is ``queued`` holding that
                job's records (no upload) instead of ``done``, for a worker to end it with them registered under
                its own id; a joining job waits as without.
            request_id: the submitting request's ``X-Request-Id``.
            source_url: a URL the worker fetches the document from (``data`` then empty).

        Returns:
            ``(job, created)``: the new job, or the existing one of that key with ``created`` False.
        """
        with self.transaction() as tx:
            found = self._keyed(tx, tenant, idempotency_key) if idempotency_key is not None else None
            if found is not None:
                return found, False
            earlier = None
            if reuse and source_url is None:  # a URL's bytes are not known yet
                self.serialize(tx, f"{tenant}\n{sha256}\n{fingerprint}")
                earlier = self._answer(tx, tenant=tenant, sha256=sha256, fingerprint=fingerprint)
            now = self.now(tx)
            done = earlier is not None and earlier.status == "done"
            answered = done and not register  # ended here; with a register a worker ends it (``claim``)
            running = earlier is not None and earlier.status == "running"
            job_id = secrets.token_urlsafe(12)
            self.execute(
                tx,
                self._sql(_INSERT),
                (
                    job_id,
                    tenant,
                    "done" if answered else "running" if running else "queued",
                    now,
                    now if answered or running else None,
                    now if answered else None,
                    idempotency_key,
                    filename,
                    sha256,
                    fingerprint,
                    json.dumps(shown_options(options) if answered else options),
                    # a joined job keeps its bytes: it runs itself should the job it joined be cancelled
                    None if done or source_url is not None else self.binary(data),
                    json.dumps(earlier.records) if done and earlier is not None else None,
                    callback_url,
                    "pending" if callback_url is not None and answered else None,
                    now if callback_url is not None and answered else None,
                    "[]",
                    earlier.id if earlier is not None else None,
                    request_id,
                    source_url,
                ),
            )
            if earlier is None or (done and register):
                self.notify(tx)
            job = self._one(tx, f"SELECT {_SELECT} FROM {{table}} WHERE id = ?", (job_id,))
            assert job is not None
            return job, True

    def _keyed(self, tx: Any, tenant: str, key: str) -> StoredJob | None:
        """The tenant's job of an ``Idempotency-Key``, if any."""
        return self._one(tx, f"SELECT {_SELECT} FROM {{table}} WHERE tenant = ? AND idempotency_key = ?", (tenant, key))

    def _answer(self, tx: Any, *, tenant: str, sha256: str, fingerprint: str) -> StoredJob | None:
        """The tenant's latest job of these bytes and settings that a repeat may be answered from: done with its
        records, or queued or running itself (not waiting on another)."""
        return self._one(
            tx,
            f"SELECT {_SELECT} FROM {{table}} WHERE tenant = ? AND sha256 = ? AND fingerprint = ? "
            "AND source_url IS NULL AND ((status = 'done' AND records IS NOT NULL) "
            "OR (status IN ('queued', 'running') AND answered_from IS NULL)) ORDER BY seq DESC LIMIT 1",
            (tenant, sha256, fingerprint),
        )

    @outlasting
    def get(self, job_id: str, *, tenant: str | None = None) -> StoredJob | None:
        """The job ``job_id`` (None: no such job, or another tenant's)."""
        with self.transaction(write=False) as tx:
            job = self._one(tx, f"SELECT {_SELECT} FROM {{table}} WHERE id = ?", (job_id,))
        return job if job is not None and (tenant is None or job.tenant == tenant) else None

    @outlasting
    def position(self, job: StoredJob) -> int | None:
        """A queued job's place in the queue (1: next to run); None for a job not queued."""
        if job.status != "queued":
            return None
        with self.transaction(write=False) as tx:
            (ahead,) = self.execute(
                tx, self._sql("SELECT COUNT(*) FROM {table} WHERE status = 'queued' AND seq < ?"), (job.seq,)
            ).fetchone()
        return int(ahead) + 1

    @outlasting
    def jobs(self, *, tenant: str, limit: int, before: int | None = None) -> list[StoredJob]:
        """The tenant's jobs, newest first, at most ``limit``, those accepted before job ``seq`` ``before``."""
        with self.transaction(write=False) as tx:
            rows = self.execute(
                tx,
                self._sql(f"SELECT {_SELECT} FROM {{table}} WHERE tenant = ? AND seq < ? ORDER BY seq DESC LIMIT ?"),
                (tenant, before or 2**62, limit),
            ).fetchall()
        return [from_row(row) for row in rows]

    @outlasting
    def upload(self, job_id: str) -> bytes | None:
        """A job's uploaded bytes (None once it ended)."""
        with self.transaction(write=False) as tx:
            row = self.execute(tx, self._sql("SELECT upload FROM {table} WHERE id = ?"), (job_id,)).fetchone()
        return bytes(row[0]) if row is not None and row[0] is not None else None

    @outlasting
    def claim(self, *, lease: float, share: int = DEFAULT_TENANT_SHARE) -> StoredJob | None:
        """Take the oldest job that is queued, or running under a lease that has passed, and hold it for ``lease``
        seconds under a fresh claim token (None: nothing to take); the jobs that joined it show it running.

        Fair between tenants: a tenant already running ``share`` jobs (or more) has its next job taken only when no
        other tenant's job waits, so one tenant's hundred jobs never starve another's single one; alone, a tenant
        has every worker.

        A repeat is taken only once it holds the records it is answered from (``submit`` and ``finish`` with
        ``register``): the claimed job's ``records`` are then those, for the worker to register and end it with;
        one still waiting on the job it joined is not taken."""
        with self.transaction() as tx:
            now = self.now(tx)
            job = self._one(
                tx,
                "UPDATE {table} SET status = 'running', started = ?, runs = runs + 1, claim = ?, lease_until = ? "
                "WHERE seq = (SELECT q.seq FROM {table} q WHERE (q.answered_from IS NULL OR q.records IS NOT NULL) "
                "AND (q.status = 'queued' OR (q.status = 'running' AND q.lease_until < ?)) "
                "ORDER BY (SELECT COUNT(*) FROM {table} r WHERE r.tenant = q.tenant AND r.status = 'running' "
                "AND r.lease_until >= ?) >= ?, q.seq LIMIT 1 {lock}) "
                f"RETURNING {_SELECT}",
                (now, secrets.token_urlsafe(12), now + lease, now, now, share),
            )
            if job is not None:
                self.execute(
                    tx,
                    self._sql(
                        "UPDATE {table} SET status = 'running', started = ? "
                        "WHERE answered_from = ? AND status = 'queued'"
                    ),
                    (now, job.id),
                )
            return job

    @outlasting
    def renew(self, job: StoredJob, *, lease: float) -> bool:
        """Extend the lease of a job this claim holds.

        Returns:
            False when the claim no longer holds it (cancelled, or its lease passed and it was claimed again).
        """
        with self.transaction() as tx:
            now = self.now(tx)
            return (
                self.execute(
                    tx,
                    self._sql("UPDATE {table} SET lease_until = ? WHERE id = ? AND status = 'running' AND claim = ?"),
                    (now + lease, job.id, job.claim),
                ).rowcount
                == 1
            )

    @outlasting
    def finish(
        self, job: StoredJob, *, records: list | None = None, error: str | None = None, register: bool = False
    ) -> bool:
        """End a running job that this claim holds: ``done`` with its records, or ``failed`` with ``error``; its
        upload and passwords are dropped, and its webhook is due, in the same statement. The jobs that joined it
        end with it, or with ``register`` (the service keeps an invoice register) and records, are queued again
        holding them (their uploads dropped), for a worker to end each with them registered under its own id.

        Returns:
            False when this claim no longer holds the job (cancelled, or claimed again): nothing is written.
        """
        with self.transaction() as tx:
            now = self.now(tx)
            ending = "UPDATE {table} SET status = ?, finished = ?, records = ?, error = ?, upload = NULL, options = ?, "
            ending += (
                "lease_until = NULL, callback_state = CASE WHEN callback_url IS NULL THEN NULL ELSE 'pending' END, "
            )
            ending += "callback_next = ? WHERE id = ? "
            values = (
                "failed" if error is not None else "done",
                now,
                json.dumps(records) if records is not None else None,
            )
            if (
                self.execute(
                    tx,
                    self._sql(ending + "AND status = 'running' AND claim = ?"),
                    (*values, error, json.dumps(shown_options(job.options)), now, job.id, job.claim),
                ).rowcount
                != 1
            ):
                return False
            joined = self.execute(
                tx,
                self._sql(
                    "SELECT id, options FROM {table} WHERE answered_from = ? AND status IN ('queued', 'running')"
                ),
                (job.id,),
            ).fetchall()
            if register and records is not None:  # each registered under its own id by a worker before it ends
                if self.execute(
                    tx,
                    self._sql(
                        "UPDATE {table} SET status = 'queued', started = NULL, records = ?, upload = NULL "
                        "WHERE answered_from = ? AND status IN ('queued', 'running')"
                    ),
                    (values[2], job.id),
                ).rowcount:
                    self.notify(tx)
                return True
            for joined_id, options in joined:  # they end with it, with its records
                kept = json.dumps(shown_options(json.loads(options)))
                self.execute(tx, self._sql(ending), (*values, error, kept, now, joined_id))
            return True

    @outlasting
    def cancel(self, job_id: str, *, tenant: str) -> Outcome | None:
        """Cancel a queued or running job (a running one's result is then discarded; its webhook is due; its
        passwords dropped), or delete an ended one.

        Returns:
            ``cancelled``, ``deleted``, or None: no such job of this tenant.
        """
        with self.transaction() as tx:
            row = self.execute(
                tx, self._sql("SELECT status, options FROM {table} WHERE id = ? AND tenant = ?"), (job_id, tenant)
            ).fetchone()
            if row is None:
                return None
            if row[0] in ENDED:
                self.execute(tx, self._sql("DELETE FROM {table} WHERE id = ?"), (job_id,))
                return "deleted"
            now = self.now(tx)
            changed = self.execute(
                tx,
                self._sql(
                    "UPDATE {table} SET status = 'cancelled', finished = ?, upload = NULL, records = NULL, "
                    "lease_until = NULL, options = ?, "  # its passwords dropped, as every ended job's
                    "callback_state = CASE WHEN callback_url IS NULL THEN NULL ELSE 'pending' END, "
                    "callback_next = ? WHERE id = ? AND status IN ('queued', 'running')"
                ),
                (now, json.dumps(shown_options(json.loads(row[1]))), now, job_id),
            ).rowcount
            if changed == 0:  # it ended between the two statements (another machine's worker): deleted, as asked
                self.execute(tx, self._sql("DELETE FROM {table} WHERE id = ?"), (job_id,))
                return "deleted"
            # the jobs that joined it run on their own (each kept its bytes)
            if self.execute(
                tx,
                self._sql(
                    "UPDATE {table} SET answered_from = NULL, status = 'queued', started = NULL "
                    "WHERE answered_from = ? AND status IN ('queued', 'running')"
                ),
                (job_id,),
            ).rowcount:
                self.notify(tx)
            return "cancelled"

    @outlasting
    def recover(self) -> int:
        """Put every running job back in the queue: at the start of the one server of a store no other process
        uses (a killed server's jobs run again at once rather than after their lease).

        Returns:
            How many went back.
        """
        return self._changed(
            "UPDATE {table} SET status = 'queued', started = NULL, claim = NULL, lease_until = NULL "
            "WHERE status = 'running'"
        )

    @outlasting
    def sweep(self, *, retention: float) -> int:
        """Delete the jobs that ended more than ``retention`` seconds ago, with their uploads and records (a
        webhook still pending is kept until it is delivered or its tries are spent).

        Returns:
            How many were deleted.
        """
        return self._changed(
            "DELETE FROM {table} WHERE status IN ('done', 'failed', 'cancelled') AND finished < ? "
            "AND (callback_state IS NULL OR callback_state <> 'pending')",
            ago=retention,
        )

    @outlasting
    def due_delivery(self, *, hold: float, skip: tuple[str, ...] = ()) -> StoredJob | None:
        """Take the ended job whose webhook is due soonest, holding it ``hold`` seconds (another deliverer skips
        it meanwhile; None: nothing due), of a tenant not in ``skip`` (those with a delivery under way)."""
        others = f"AND tenant NOT IN ({', '.join('?' * len(skip))}) " if skip else ""
        with self.transaction() as tx:
            now = self.now(tx)
            return self._one(
                tx,
                "UPDATE {table} SET callback_next = ? WHERE seq = (SELECT seq FROM {table} WHERE "
                f"callback_state = 'pending' AND callback_next <= ? {others}ORDER BY callback_next LIMIT 1 {{lock}}) "
                f"RETURNING {_SELECT}",
                (now + hold, now, *skip),
            )

    @outlasting
    def delivered(self, job: StoredJob, *, attempt: dict, state: str, retry_in: float | None) -> None:
        """Record one delivery attempt of ``job``'s webhook and its new state (``pending`` again ``retry_in``
        seconds from now, ``delivered`` or ``failed``)."""
        with self.transaction() as tx:
            now = self.now(tx)
            self.execute(
                tx,
                self._sql("UPDATE {table} SET deliveries = ?, callback_state = ?, callback_next = ? WHERE id = ?"),
                (json.dumps([*job.deliveries, attempt]), state, now + (retry_in or 0.0), job.id),
            )

    @outlasting
    def retry_callback(self, job_id: str, *, tenant: str) -> tuple[StoredJob | None, bool]:
        """Send an ended job's webhook again, with a fresh set of tries, when its delivery failed.

        Returns:
            ``(job, again)``: the job (None: no such job of this tenant) and whether its webhook is due again (False:
            it has no callback, or its webhook has not failed).
        """
        with self.transaction() as tx:
            job = self._one(tx, f"SELECT {_SELECT} FROM {{table}} WHERE id = ? AND tenant = ?", (job_id, tenant))
            if job is None or job.callback_state != "failed":
                return job, False
            self.execute(
                tx,
                self._sql(
                    "UPDATE {table} SET callback_state = 'pending', callback_next = ?, callback_from = ? WHERE id = ?"
                ),
                (self.now(tx), len(job.deliveries), job_id),
            )
            return self._one(tx, f"SELECT {_SELECT} FROM {{table}} WHERE id = ?", (job_id,)), True

    @outlasting
    def clock(self) -> float:
        """The store's clock now (Unix seconds)."""
        with self.transaction(write=False) as tx:
            return self.now(tx)

    @outlasting
    def stats(self, *, window: float) -> Stats:
        """Counts by status and webhook state, and the times of the jobs a worker ended in the last ``window``
        seconds."""
        with self.transaction(write=False) as tx:
            now = self.now(tx)
            by_status = dict(
                self.execute(tx, self._sql("SELECT status, COUNT(*) FROM {table} GROUP BY status")).fetchall()
            )
            by_delivery = dict(
                self.execute(
                    tx,
                    self._sql(
                        "SELECT callback_state, COUNT(*) FROM {table} WHERE callback_state IS NOT NULL "
                        "GROUP BY callback_state"
                    ),
                ).fetchall()
            )
            ended = self.execute(
                tx,
                self._sql(
                    "SELECT created, started, finished FROM {table} WHERE finished >= ? AND started IS NOT NULL "
                    "AND answered_from IS NULL AND status IN ('done', 'failed')"
                ),
                (now - window,),
            ).fetchall()
        return Stats(
            jobs={status: int(by_status.get(status, 0)) for status in STATUSES},
            deliveries={state: int(by_delivery.get(state, 0)) for state in CALLBACK_STATES},
            ended=[(float(a), float(b), float(c)) for a, b, c in ended],
            now=now,
        )


__all__ = [
    "DEFAULT_LEASE",
    "DEFAULT_TENANT_SHARE",
    "DEFAULT_RETENTION",
    "DEFAULT_STORE",
    "Cursor",
    "Store",
]
