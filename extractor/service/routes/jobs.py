"""The jobs: ``POST /v1/jobs`` (a multipart upload or a JSON ``{"url": ...}``; 202 + ``Location`` +
``Retry-After``), ``GET /v1/jobs/{id}`` (``?wait=`` long-polls), ``GET /v1/jobs``, ``DELETE /v1/jobs/{id}`` and
``POST /v1/jobs/{id}/callback/retry``."""

from __future__ import annotations

from fastapi import Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from extractor.service import contract
from extractor.service.problems import ProblemError
from extractor.service.routes import resource_router
from extractor.service.routes.answers import job_answer, respond
from extractor.service.routes.depends import Service, needs
from extractor.service.routes.submit import accepted, accepted_responses, ended, idempotency, submitted

MAX_WAIT = 60.0  # seconds one long poll may wait at most
PAGE_LIMIT = 200  # jobs per page of GET /v1/jobs at most

router = resource_router("jobs")


@router.post(
    "/v1/jobs",
    status_code=202,
    summary="Submit a file (multipart) or a URL (JSON) as a job",
    response_model=contract.Job,
    responses=accepted_responses("Accepted: the job, and its URL in Location", problems=(400, 401, 409, 413, 415, 422)),
    openapi_extra={"requestBody": contract.upload_body()},
)
async def create_job(
    service: Service, request: Request, idempotency_key: str | None = idempotency, owner: str = needs("submit")
) -> JSONResponse:
    """Submit a file or a URL as a job: 202 with the job."""
    job, created = await submitted(service, request, idempotency_key, owner)
    return accepted(service, job, replayed=not created)


@router.get(
    "/v1/jobs/{job_id}",
    summary="A job: its status, queue position and (when done) its record",
    response_model=contract.Job,
    responses=contract.problems(401, 404, 422),
)
async def get_job(
    service: Service,
    job_id: str,
    wait: float = Query(0.0, ge=0.0, description=f"Seconds to wait for the job to end (at most {MAX_WAIT:g})."),
    owner: str = needs("read"),
) -> JSONResponse:
    """A job of the caller's, once it ended or ``wait`` passed."""
    job = await ended(service, job_id, owner, min(wait, MAX_WAIT))
    if job is None:
        raise ProblemError("job_not_found", f"no job {job_id} of this key")
    return respond(await run_in_threadpool(job_answer, job, store=service.store))


@router.get(
    "/v1/jobs",
    summary="The caller's jobs, newest first (without their records)",
    response_model=contract.JobList,
    responses=contract.problems(401, 422),
)
def list_jobs(
    service: Service,
    limit: int = Query(50, ge=1, le=PAGE_LIMIT),
    before: int | None = Query(None, description="The `next` of the previous page."),
    owner: str = needs("read"),
) -> JSONResponse:
    """A page of the caller's jobs, newest first."""
    jobs = service.store.jobs(tenant=owner, limit=limit, before=before)
    answers = [job_answer(job, store=service.store, records=False) for job in jobs]
    return respond(contract.JobList(jobs=answers, next=jobs[-1].seq if len(jobs) == limit else None))


@router.delete(
    "/v1/jobs/{job_id}",
    summary="Cancel a queued or running job, or delete an ended one",
    response_model=contract.Deleted,
    responses=contract.problems(401, 404),
)
def delete_job(service: Service, job_id: str, owner: str = needs("submit")) -> JSONResponse:
    """Cancel a queued or running job, or delete an ended one."""
    outcome = service.store.cancel(job_id, tenant=owner)
    if outcome is None:
        raise ProblemError("job_not_found", f"no job {job_id} of this key")
    return respond(contract.Deleted(id=job_id, status=outcome))


@router.post(
    "/v1/jobs/{job_id}/callback/retry",
    status_code=202,
    summary="Send an ended job's webhook again (a fresh set of tries) after its delivery failed",
    response_model=contract.Job,
    responses=accepted_responses("Due again: the job, its callback pending", problems=(401, 404, 409)),
)
def retry_callback(service: Service, job_id: str, owner: str = needs("submit")) -> JSONResponse:
    """Make a failed webhook due again."""
    job, again = service.store.retry_callback(job_id, tenant=owner)
    if job is None:
        raise ProblemError("job_not_found", f"no job {job_id} of this key")
    if not again:
        state = f"its webhook is {job.callback_state}" if job.callback_url else "it has no callback_url"
        raise ProblemError("callback_not_retryable", f"job {job_id}: {state}; only a failed webhook is sent again")
    if service.deliverer is not None:
        service.deliverer.wake()
    return accepted(service, job, replayed=False)


__all__ = ["router"]
