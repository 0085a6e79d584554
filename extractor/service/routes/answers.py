"""The service's answers, built from the contract's models (``contract``: one definition of each shape): a job as
the API shows it (``job_answer``) and the JSON response of any answer (``respond``)."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from extractor.service import contract
from extractor.service.store import Store
from extractor.service.stored_job import StoredJob, shown_options
from extractor.service.webhooks import shown_url


def respond(answer: BaseModel, *, status_code: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    """The JSON response of a contract model: its members by their published names; a member never given is left
    out (a job's ``url`` without a URL source, its ``record`` before it is done), one given as None is null."""
    body = answer.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return JSONResponse(body, status_code=status_code, headers=headers)


def _moment(seconds: float) -> datetime.datetime:
    """A store time (Unix seconds) as a UTC moment."""
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def _maybe(seconds: float | None) -> datetime.datetime | None:
    return None if seconds is None else _moment(seconds)


def _callback(job: StoredJob, url: str) -> contract.Callback:
    """A job's webhook: where it goes (its query left out) and every attempt (each with what it has)."""
    deliveries = [contract.Delivery.model_validate({**tried, "at": _moment(tried["at"])}) for tried in job.deliveries]
    return contract.Callback(url=shown_url(url), state=job.callback_state, deliveries=deliveries)


def job_answer(job: StoredJob, *, store: Store, records: bool = True) -> contract.Job:
    """A job as the API answers it: its state and times, its place in the queue while queued, and when done its
    ``record`` (the first; ``records`` holds every one when ``split: auto`` found several)."""
    shown: dict[str, Any] = {}  # the members that apply to this job: the others are left out of its answer
    if job.source_url is not None:
        shown["url"] = shown_url(job.source_url)
    if job.status == "queued":
        shown["queue_position"] = store.position(job)
    if job.error is not None:
        shown["error"] = job.error
    if job.answered_from is not None:
        shown["answered_from"] = job.answered_from  # the earlier job of the same bytes and settings
    if job.callback_url is not None:
        shown["callback"] = _callback(job, job.callback_url)
    if records and job.records is not None and job.status == "done":  # a repeat waiting for its check: not yet
        shown["record"] = job.records[0] if job.records else None
        if len(job.records) > 1:
            shown["records"] = job.records
    return contract.Job(
        id=job.id,
        status=job.status,
        created=_moment(job.created),
        started=_maybe(job.started),
        finished=_maybe(job.finished),
        filename=job.filename,
        sha256=job.sha256,
        fingerprint=job.fingerprint,
        options=contract.JobOptions.model_validate(shown_options(job.options)),
        runs=job.runs,
        **shown,
    )


__all__ = ["job_answer", "respond"]
