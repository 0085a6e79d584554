"""What the routes that submit and answer jobs share: a submission checked and stored (``submitted``), the 202 that
accepts it (``accepted``) and the wait for a job to end (``ended``)."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from fastapi import Header, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from extractor.errors import SchemaError, UsageError
from extractor.schema import schema_reference
from extractor.service import contract
from extractor.service.intake import Submission, read_submission
from extractor.service.problems import ProblemError
from extractor.service.request_options import request_options
from extractor.service.routes.answers import job_answer, respond
from extractor.service.routes.depends import Parts
from extractor.service.sources import check_source
from extractor.service.stored_job import ENDED, StoredJob
from extractor.service.webhooks import check_callback

LOOK_AGAIN = 0.5  # seconds between a long poll's looks at the store for jobs other processes' workers end
RETRY_AFTER = 2  # seconds a 202 suggests before the next look (a long poll, ?wait=, answers as soon as it ends)
JOB_HEADERS = {
    "Location": {"description": "The job's URL.", "schema": {"type": "string"}},
    "X-Request-Id": {"description": "The request's id (the client's, or a fresh one).", "schema": {"type": "string"}},
}
ACCEPTED_HEADERS = {
    **JOB_HEADERS,
    "Retry-After": {"description": "Seconds to wait before looking again.", "schema": {"type": "integer"}},
    "Idempotent-Replayed": {"description": "`true`: the job of an earlier request.", "schema": {"type": "string"}},
}
idempotency = Header(
    None, description="The same key returns the same job (409 for another file, URL or other settings)."
)


def accepted_responses(description: str, *, problems: tuple[int, ...]) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that answers 202 with a job (``description``), and its errors' statuses."""
    return {202: {"description": description, "headers": ACCEPTED_HEADERS}, **contract.problems(*problems)}


def checked_options(service: Parts, schema: str | None, options: Any) -> tuple[dict, str]:
    """A request's options as its job keeps them, and their settings' fingerprint."""
    try:
        chosen = request_options(
            schema=schema, options=options, server_schema=schema_reference(service.settings.schema)
        )
        return chosen, service.engine.fingerprint(chosen)
    except SchemaError as exc:  # a request's own JSON Schema that does not load
        raise ProblemError("invalid_schema", str(exc)) from None
    except UsageError as exc:
        code = "invalid_schema" if str(exc).startswith("schema") else "invalid_options"
        raise ProblemError(code, str(exc)) from None


def accept(
    service: Parts, given: Submission, idempotency_key: str | None, owner: str, request_id: str
) -> tuple[StoredJob, bool]:
    """Check a submission and store its job (or find the job of its idempotency key)."""
    chosen, fingerprint = checked_options(service, given.schema, given.options)
    try:
        callback_url = (
            check_callback(given.callback_url, settings=service.serve.webhooks, tenant=owner)
            if given.callback_url
            else None
        )
    except UsageError as exc:
        raise ProblemError("callback_refused", str(exc)) from None
    if given.url is not None:
        try:
            check_source(given.url, settings=service.serve.sources)
        except UsageError as exc:
            raise ProblemError("source_refused", str(exc)) from None
    data = given.data or b""
    sha256 = hashlib.sha256(data).hexdigest() if given.url is None else ""  # a URL's bytes: when fetched
    job, created = service.store.submit(
        tenant=owner,
        filename=given.filename,
        data=data,
        sha256=sha256,
        fingerprint=fingerprint,
        options=chosen,
        idempotency_key=idempotency_key,
        callback_url=callback_url,
        reuse=service.serve.reuse,
        register=service.engine.register is not None,  # a repeat is then ended by a worker, registered
        request_id=request_id,
        source_url=given.url,
    )
    if not created and (job.sha256, job.fingerprint, job.source_url) != (sha256, fingerprint, given.url):
        raise ProblemError("idempotency_conflict", "Idempotency-Key: already used for another file or other settings")
    if service.worker is not None:
        service.worker.wake()
    if service.deliverer is not None and job.callback_state == "pending":
        service.deliverer.wake()
    return job, created


def accepted(service: Parts, job: StoredJob, *, replayed: bool) -> JSONResponse:
    """The 202 of a job accepted (or due again): the job, its URL and when to look again."""
    headers = {"Location": f"/v1/jobs/{job.id}", "Retry-After": str(RETRY_AFTER)}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return respond(job_answer(job, store=service.store), status_code=202, headers=headers)


async def submitted(
    service: Parts, request: Request, idempotency_key: str | None, owner: str
) -> tuple[StoredJob, bool]:
    """The job of a request's submission (read, checked, stored), and whether it was made now."""
    given = await read_submission(request, max_bytes=service.settings.max_bytes)
    return await run_in_threadpool(accept, service, given, idempotency_key, owner, request.state.request_id)


async def ended(service: Parts, job_id: str, owner: str, seconds: float) -> StoredJob | None:
    """The job once it ended or ``seconds`` passed (looked up again only when the worker changed a job)."""
    worker = service.worker
    clock = asyncio.get_running_loop().time
    deadline = clock() + seconds
    while True:
        seen, looked = (worker.version if worker else 0), clock()
        job = await run_in_threadpool(service.store.get, job_id, tenant=owner)
        if job is None or job.status in ENDED or clock() >= deadline:
            return job
        # this process's worker says when it changed a job; another process's is seen by looking again
        while (worker.version if worker else 0) == seen and clock() < min(deadline, looked + LOOK_AGAIN):
            await asyncio.sleep(0.05)


__all__ = [
    "ACCEPTED_HEADERS",
    "JOB_HEADERS",
    "accepted",
    "accepted_responses",
    "ended",
    "idempotency",
    "submitted",
]
