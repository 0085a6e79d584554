"""A job of ``extract serve`` as its store keeps it: the ``StoredJob`` record, the ``Stats`` that ``/metrics``
reads, the statuses, the table's columns (``COLUMNS``, in ``SELECT`` order; ``LATER_COLUMNS``, added to older SQLite
files) and the decoding of one row into a ``StoredJob`` (``from_row``: its JSON columns parsed).

These are the data: ``store.py`` holds the SQL that reads and changes them (submission, claims and leases, endings,
webhook deliveries, sweeps), shared by ``sqlite.py`` and ``postgres.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

JobStatus = Literal["queued", "running", "done", "failed", "cancelled"]  # the API's too (contract.Job)
STATUSES: tuple[JobStatus, ...] = get_args(JobStatus)
ENDED: tuple[JobStatus, ...] = ("done", "failed", "cancelled")
CallbackState = Literal["pending", "delivered", "failed"]  # a webhook's: due, sent, its tries spent
CALLBACK_STATES: tuple[CallbackState, ...] = get_args(CallbackState)
Outcome = Literal["cancelled", "deleted"]  # what cancelling did (``Store.cancel``)

COLUMNS = (
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
    "claim",
    "lease_until",
    "callback_url",
    "callback_state",
    "deliveries",
    "answered_from",
    "request_id",
    "source_url",
    "callback_from",
)
# added after the first release of the SQLite store: (column, SQL type) added to an older file when it is opened
LATER_COLUMNS = (
    ("claim", "TEXT"),
    ("lease_until", "REAL"),
    ("callback_url", "TEXT"),
    ("callback_state", "TEXT"),
    ("callback_next", "REAL"),
    ("deliveries", "TEXT"),
    ("answered_from", "TEXT"),
    ("request_id", "TEXT"),
    ("source_url", "TEXT"),
    ("callback_from", "INTEGER"),
)


@dataclass(frozen=True)
class StoredJob:
    """One job as stored (its upload aside: ``Store.upload`` reads it).

    Attributes:
        seq: the queue's order (lower: accepted earlier).
        id: the job's id (random, URL-safe).
        tenant: the API key's tenant that submitted it; only it sees the job.
        status: ``queued``, ``running``, ``done``, ``failed`` or ``cancelled``.
        created: accepted at (Unix seconds, the store's clock); ``started`` / ``finished`` likewise, None until then.
        idempotency_key: the client's ``Idempotency-Key`` (None: none given).
        filename: the upload's file name (sanitized; the records' ``source``).
        sha256: the upload's SHA-256.
        fingerprint: the settings' fingerprint (``Extractor.fingerprint``): equal settings, equal fingerprints.
        options: the request's settings (``schema``, ``pages``, ``password``, ``split``).
        records: the records (``Record.to_dict()``) once done: one, or one per invoice with ``split: auto``; a
            repeat not yet ended (a register kept) holds those it is answered from, unchecked, never shown.
        error: why a job failed.
        runs: how many times a worker claimed it.
        claim: the token of the claim that holds it while running (only that claim may end it).
        lease_until: while running, when the claim's lease passes unless renewed.
        callback_url: where its webhook goes when it ends (None: no webhook).
        callback_state: ``pending``, ``delivered`` or ``failed`` (tries spent); None without a callback.
        deliveries: each delivery attempt: ``{"attempt", "at", "status_code" | "error", "ok"}``.
        answered_from: the earlier job whose records answer this one (the same bytes and settings), else None;
            while that job is queued or running this one waits for it (joined) and is never claimed itself; with a
            register kept, it is claimed once it holds that job's records, to be registered under its own id.
        request_id: the ``X-Request-Id`` of the request that submitted it (its webhook deliveries carry it).
        source_url: a URL source the worker fetches (None: an upload).
        callback_from: deliveries made before its webhook was last sent again by request (its tries count after).
    """

    seq: int
    id: str
    tenant: str
    status: JobStatus
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
    claim: str | None = None
    lease_until: float | None = None
    callback_url: str | None = None
    callback_state: CallbackState | None = None
    deliveries: list = field(default_factory=list)
    answered_from: str | None = None
    request_id: str | None = None
    source_url: str | None = None
    callback_from: int | None = None


@dataclass(frozen=True)
class Stats:
    """What ``/metrics`` reports, read from the store (so every replica reports the same).

    Attributes:
        jobs: jobs by status (every status, zeros included).
        deliveries: webhooks by state (``pending``, ``delivered``, ``failed``).
        ended: ``(created, started, finished)`` of the jobs a worker ended since the window's start.
        now: the store's clock when read.
    """

    jobs: dict[str, int]
    deliveries: dict[str, int]
    ended: list[tuple[float, float, float]]
    now: float


def from_row(row: tuple) -> StoredJob:
    """The job of one row of ``COLUMNS`` (its JSON columns parsed)."""
    values: dict[str, Any] = dict(zip(COLUMNS, row, strict=True))
    values["options"] = json.loads(values["options"])
    values["records"] = json.loads(values["records"]) if values["records"] is not None else None
    values["deliveries"] = json.loads(values["deliveries"]) if values["deliveries"] else []
    return StoredJob(**values)


def shown_options(options: dict) -> dict:
    """A job's options as kept once it ends and as every response shows them: passwords dropped."""
    return {name: value for name, value in options.items() if name != "password"}


__all__ = [
    "CALLBACK_STATES",
    "COLUMNS",
    "ENDED",
    "CallbackState",
    "JobStatus",
    "Outcome",
    "LATER_COLUMNS",
    "STATUSES",
    "StoredJob",
    "Stats",
    "from_row",
    "shown_options",
]
