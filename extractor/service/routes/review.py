"""``POST /v1/jobs/{id}/review``: a reviewed job teaches its tenant's layout of its supplier (docs/learning.md)."""

from __future__ import annotations

import hashlib

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from extractor.errors import UsageError
from extractor.service import contract
from extractor.service.intake import read_review
from extractor.service.problems import ProblemError
from extractor.service.routes import resource_router
from extractor.service.routes.answers import respond
from extractor.service.routes.depends import Service, needs
from extractor.service.stored_job import ENDED

router = resource_router("jobs")


@router.post(
    "/v1/jobs/{job_id}/review",
    summary="Review an ended job: its file again, the corrected data and approved; an approved review teaches "
    "the tenant's layout of its supplier, a correction of a value a layout read demotes it (docs/learning.md)",
    response_model=contract.Taught,
    responses=contract.problems(401, 404, 409, 413, 415, 422),
    openapi_extra={"requestBody": contract.review_body()},
)
async def review_job(service: Service, job_id: str, request: Request, owner: str = needs("review")) -> JSONResponse:
    """Teach (or demote) the tenant's layout from a review of an ended job of its own."""
    job = await run_in_threadpool(service.store.get, job_id, tenant=owner)
    if job is None:
        raise ProblemError("job_not_found", f"no job {job_id} of this key")
    review = await read_review(request, max_bytes=service.settings.max_bytes)
    if job.status not in ENDED:
        raise ProblemError("review_refused", f"job {job_id} is {job.status}: review it once it has ended")
    if hashlib.sha256(review.data).hexdigest() != job.sha256:
        raise ProblemError("review_refused", f"file: not job {job_id}'s file (its SHA-256 differs)")
    try:
        taught = await run_in_threadpool(
            service.engine.learn, job, review.data, review.corrected, approved=review.approved, by=owner
        )
    except UsageError as exc:
        raise ProblemError("review_refused", str(exc)) from None
    return respond(contract.Taught.model_validate(taught))


__all__ = ["router"]
