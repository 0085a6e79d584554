"""``POST /v1/extract``: submit a file or a URL and wait for its record (within ``--sync-timeout``, else 202)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from extractor.service import contract
from extractor.service.routes import resource_router
from extractor.service.routes.answers import job_answer, respond
from extractor.service.routes.depends import Service, needs
from extractor.service.routes.submit import (
    ACCEPTED_HEADERS,
    JOB_HEADERS,
    accepted,
    ended,
    idempotency,
    submitted,
)
from extractor.service.stored_job import ENDED

router = resource_router("jobs")


@router.post(
    "/v1/extract",
    summary="Submit a file or a URL and wait for its record (202 with the job past the sync timeout)",
    response_model=contract.Job,
    responses={
        200: {"description": "Ended: the job and its record", "headers": JOB_HEADERS},
        202: {
            "description": "Not done within --sync-timeout: the job, and its URL in Location",
            "model": contract.Job,
            "headers": ACCEPTED_HEADERS,
        },
        **contract.problems(400, 401, 409, 413, 415, 422),
    },
    openapi_extra={"requestBody": contract.upload_body()},
)
async def extract(
    service: Service, request: Request, idempotency_key: str | None = idempotency, owner: str = needs("submit")
) -> JSONResponse:
    """Submit, and answer the ended job (its record) or, past the sync timeout, 202 with the job."""
    job, created = await submitted(service, request, idempotency_key, owner)
    done = await ended(service, job.id, owner, service.serve.sync_timeout)
    if done is None or done.status not in ENDED:
        return accepted(service, done or job, replayed=not created)
    answer = await run_in_threadpool(job_answer, done, store=service.store)
    return respond(answer, headers={"Location": f"/v1/jobs/{job.id}"})


__all__ = ["router"]
