"""The service's HTTP face (FastAPI): accept documents as jobs, answer their status and records.

Endpoints: ``POST /v1/jobs`` (a multipart upload or a JSON ``{"url": ...}``; 202 + ``Location`` + ``Retry-After``),
``GET /v1/jobs/{id}`` (``?wait=`` long-polls), ``GET /v1/jobs``, ``DELETE /v1/jobs/{id}``,
``POST /v1/jobs/{id}/callback/retry``, ``GET /v1/jobs/{id}/einvoice/{format}``, ``POST /v1/extract`` (the record
within ``--sync-timeout``, else 202), ``GET /healthz``, ``GET /metrics`` (Prometheus), and FastAPI's
``/openapi.json`` and ``/docs``. The responses' models are ``contract``'s, every error ``problems``' problem+json;
``gate.Gate`` checks keys and body sizes before a body is read (without keys: the Host and other sites' pages,
``origin``), and stamps and logs every request; each route declares the scope its key needs in one line
(``owner: str = needs("read")``).
"""

import asyncio
import datetime
import hashlib
import json
from typing import Any, cast

from fastapi import Depends, FastAPI, Header, Query, Request, Security
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, SecurityScopes
from starlette.concurrency import run_in_threadpool

from extractor.errors import SchemaError, UsageError
from extractor.schema import schema_reference
from extractor.service import contract, health, metrics
from extractor.service.config import OPEN_TENANT, ApiKeys, ServeSettings
from extractor.service.gate import NO_KEY, Gate
from extractor.service.intake import Submission, read_review, read_submission
from extractor.service.job import ENDED, Job, shown_options
from extractor.service.origin import Hosts
from extractor.service.problems import Problem, install
from extractor.service.requests import SERVICE_EINVOICE, request_options
from extractor.service.sources import check_source
from extractor.service.store import Store
from extractor.service.webhooks import Deliverer, check_callback, shown_url
from extractor.service.worker import Engine, Worker
from extractor.settings import Settings

MAX_WAIT = 60.0  # seconds one long poll may wait at most
LOOK_AGAIN = 0.5  # seconds between a long poll's looks at the store for jobs other processes' workers end
MULTIPART_SLACK = 64 * 1024  # a multipart body's bytes beside the file (boundaries, headers, the form fields)
PAGE_LIMIT = 200  # jobs per page of GET /v1/jobs at most
KEY_DESCRIPTION = (
    "An API key of this server (EXTRACT_API_KEYS, --api-keys-file). Each operation's security names the scope its "
    "key needs (submit, read, review, admin; a key holds all of them unless its entry names its own): 403 "
    "scope_missing without it."
)
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


def _time(seconds: float | None) -> str | None:
    """A store time (Unix seconds) as ISO 8601 UTC with milliseconds, as every answer gives times."""
    if seconds is None:
        return None
    moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _no_einvoice(fmt: str, made: list[str]) -> str:
    """Why a job has no e-invoice ``fmt``, and what one may ask for."""
    here = f"this job has {', '.join(made)}" if made else "this job made none"
    if fmt not in SERVICE_EINVOICE:
        return f"{fmt!r} is no e-invoice format ({', '.join(SERVICE_EINVOICE)}); {here}"
    return f"no {fmt} e-invoice in this job ({here}): submit with options.einvoice [{fmt!r}] to get one"


def job_view(job: Job, *, store: Store, records: bool = True) -> dict:
    """A job as the API answers it (``contract.Job``): its state and times, its place in the queue while queued,
    and when done its ``record`` (the first; ``records`` holds every one when ``split: auto`` found several)."""
    out: dict[str, Any] = {
        "id": job.id,
        "status": job.status,
        "created": _time(job.created),
        "started": _time(job.started),
        "finished": _time(job.finished),
        "filename": job.filename,
        "sha256": job.sha256,
        "fingerprint": job.fingerprint,
        "options": shown_options(job.options),
        "runs": job.runs,
    }
    if job.source_url is not None:
        out["url"] = shown_url(job.source_url)
    if job.status == "queued":
        out["queue_position"] = store.position(job)
    if job.error is not None:
        out["error"] = job.error
    if job.answered_from is not None:
        out["answered_from"] = job.answered_from  # the earlier job of the same bytes and settings
    if job.callback_url is not None:
        out["callback"] = {
            "url": shown_url(job.callback_url),
            "state": job.callback_state,
            "deliveries": [{**attempt, "at": _time(attempt["at"])} for attempt in job.deliveries],
        }
    if records and job.records is not None and job.status == "done":  # a repeat waiting for its check: not yet
        out["record"] = job.records[0] if job.records else None
        if len(job.records) > 1:
            out["records"] = job.records
    return out


def create_app(
    *,
    store: Store,
    worker: Worker | None,
    deliverer: Deliverer | None = None,
    engine: Engine,
    keys: ApiKeys,
    serve: ServeSettings,
    settings: Settings,
) -> FastAPI:
    """The FastAPI app over one store and (unless an API replica) one worker.

    Args:
        store: the job store.
        worker: the running worker (woken when a job is queued); None: other processes run the jobs.
        deliverer: the webhooks' deliverer (woken when a job is answered at once, or its webhook sent again).
        engine: the core (fingerprints of the requests' settings; its model only in the worker).
        keys: the API keys (empty: a loopback server open to this machine).
        serve: the service's settings (the sync timeout, webhooks, URL sources).
        settings: the extraction settings (``max_bytes`` is the upload limit).
    """
    app = FastAPI(
        title="extractor",
        version="1",
        description="Invoices and business PDFs to schema-valid JSON records: submit a file (or a URL) as a job, "
        "poll it (or long-poll with ?wait=), read its record. Every error is application/problem+json.",
    )
    install(app)  # every error as application/problem+json
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    bearer = HTTPBearer(auto_error=False, description=KEY_DESCRIPTION)

    def tenant(scopes: SecurityScopes, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
        """The caller's tenant, once its key holds the scopes the route declares (``needs``)."""
        if not keys:
            return OPEN_TENANT
        grant = keys.grant(credentials.credentials) if credentials is not None else None
        if grant is None:  # the gate answers first; kept for a route mounted without it
            raise Problem("unauthorized", NO_KEY, headers={"WWW-Authenticate": "Bearer"})
        missing = [scope for scope in scopes.scopes if scope not in grant.scopes]
        if missing:
            raise Problem("scope_missing", f"this key lacks the scope {missing[0]!r}, which this route needs")
        return grant.tenant

    def needs(scope: str) -> Any:
        """A route's one declaration of the scope its key needs (``owner: str = needs("read")``): checked by
        ``tenant``, named in the OpenAPI document (the operation's ``security``), 403 ``scope_missing`` without."""
        return Security(tenant, scopes=[scope])

    def checked_options(schema: str | None, options: Any) -> tuple[dict, str]:
        """A request's options as its job keeps them, and their settings' fingerprint."""
        try:
            chosen = request_options(schema=schema, options=options, server_schema=schema_reference(settings.schema))
            return chosen, engine.fingerprint(chosen)
        except SchemaError as exc:  # a request's own JSON Schema that does not load
            raise Problem("invalid_schema", str(exc)) from None
        except UsageError as exc:
            code = "invalid_schema" if str(exc).startswith("schema") else "invalid_options"
            raise Problem(code, str(exc)) from None

    def accept(given: Submission, idempotency_key: str | None, owner: str, request_id: str) -> tuple[Job, bool]:
        """Check a submission and store its job (or find the job of its idempotency key)."""
        chosen, fingerprint = checked_options(given.schema, given.options)
        try:
            callback_url = (
                check_callback(given.callback_url, settings=serve.webhooks, tenant=owner)
                if given.callback_url
                else None
            )
        except UsageError as exc:
            raise Problem("callback_refused", str(exc)) from None
        if given.url is not None:
            try:
                check_source(given.url, settings=serve.sources)
            except UsageError as exc:
                raise Problem("source_refused", str(exc)) from None
        data = given.data or b""
        sha256 = hashlib.sha256(data).hexdigest() if given.url is None else ""  # a URL's bytes: when fetched
        job, created = store.submit(
            tenant=owner,
            filename=given.filename,
            data=data,
            sha256=sha256,
            fingerprint=fingerprint,
            options=chosen,
            idempotency_key=idempotency_key,
            callback_url=callback_url,
            reuse=serve.reuse,
            register=engine.register is not None,  # a repeat is then ended by a worker, registered
            request_id=request_id,
            source_url=given.url,
        )
        if not created and (job.sha256, job.fingerprint, job.source_url) != (sha256, fingerprint, given.url):
            raise Problem("idempotency_conflict", "Idempotency-Key: already used for another file or other settings")
        if worker is not None:
            worker.wake()
        if deliverer is not None and job.callback_state == "pending":
            deliverer.wake()
        return job, created

    def accepted(job: Job, *, replayed: bool) -> JSONResponse:
        headers = {"Location": f"/v1/jobs/{job.id}", "Retry-After": str(RETRY_AFTER)}
        if replayed:
            headers["Idempotent-Replayed"] = "true"
        return JSONResponse(job_view(job, store=store), status_code=202, headers=headers)

    async def submitted(request: Request, idempotency_key: str | None, owner: str) -> tuple[Job, bool]:
        given = await read_submission(request, max_bytes=settings.max_bytes)
        return await run_in_threadpool(accept, given, idempotency_key, owner, request.state.request_id)

    async def ended(job_id: str, owner: str, seconds: float) -> Job | None:
        """The job once it ended or ``seconds`` passed (looked up again only when the worker changed a job)."""
        clock = asyncio.get_running_loop().time
        deadline = clock() + seconds
        while True:
            seen, looked = (worker.version if worker else 0), clock()
            job = await run_in_threadpool(store.get, job_id, tenant=owner)
            if job is None or job.status in ENDED or clock() >= deadline:
                return job
            # this process's worker says when it changed a job; another process's is seen by looking again
            while (worker.version if worker else 0) == seen and clock() < min(deadline, looked + LOOK_AGAIN):
                await asyncio.sleep(0.05)

    idempotency = Header(
        None, description="The same key returns the same job (409 for another file, URL or other settings)."
    )

    @app.post(
        "/v1/jobs",
        status_code=202,
        operation_id="create_job",
        tags=["jobs"],
        summary="Submit a file (multipart) or a URL (JSON) as a job",
        response_model=contract.Job,
        responses={
            202: {"description": "Accepted: the job, and its URL in Location", "headers": ACCEPTED_HEADERS},
            **contract.problems(400, 401, 409, 413, 415, 422),
        },
        openapi_extra={"requestBody": contract.upload_body()},
    )
    async def create_job(
        request: Request, idempotency_key: str | None = idempotency, owner: str = needs("submit")
    ) -> JSONResponse:
        job, created = await submitted(request, idempotency_key, owner)
        return accepted(job, replayed=not created)

    @app.get(
        "/v1/jobs/{job_id}",
        summary="A job: its status, queue position and (when done) its record",
        operation_id="get_job",
        tags=["jobs"],
        response_model=contract.Job,
        responses=contract.problems(401, 404, 422),
    )
    async def get_job(
        job_id: str,
        wait: float = Query(0.0, ge=0.0, description=f"Seconds to wait for the job to end (at most {MAX_WAIT:g})."),
        owner: str = needs("read"),
    ) -> JSONResponse:
        job = await ended(job_id, owner, min(wait, MAX_WAIT))
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        return JSONResponse(await run_in_threadpool(job_view, job, store=store))

    @app.get(
        "/v1/jobs",
        summary="The caller's jobs, newest first (without their records)",
        operation_id="list_jobs",
        tags=["jobs"],
        response_model=contract.JobList,
        responses=contract.problems(401, 422),
    )
    def list_jobs(
        limit: int = Query(50, ge=1, le=PAGE_LIMIT),
        before: int | None = Query(None, description="The `next` of the previous page."),
        owner: str = needs("read"),
    ) -> JSONResponse:
        jobs = store.jobs(tenant=owner, limit=limit, before=before)
        return JSONResponse(
            {
                "jobs": [job_view(job, store=store, records=False) for job in jobs],
                "next": jobs[-1].seq if len(jobs) == limit else None,
            }
        )

    @app.delete(
        "/v1/jobs/{job_id}",
        summary="Cancel a queued or running job, or delete an ended one",
        operation_id="delete_job",
        tags=["jobs"],
        response_model=contract.Deleted,
        responses=contract.problems(401, 404),
    )
    def delete_job(job_id: str, owner: str = needs("submit")) -> JSONResponse:
        outcome = store.cancel(job_id, tenant=owner)
        if outcome is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        return JSONResponse({"id": job_id, "status": outcome})

    @app.post(
        "/v1/jobs/{job_id}/callback/retry",
        operation_id="retry_callback",
        tags=["jobs"],
        status_code=202,
        summary="Send an ended job's webhook again (a fresh set of tries) after its delivery failed",
        response_model=contract.Job,
        responses={
            202: {"description": "Due again: the job, its callback pending", "headers": ACCEPTED_HEADERS},
            **contract.problems(401, 404, 409),
        },
    )
    def retry_callback(job_id: str, owner: str = needs("submit")) -> JSONResponse:
        job, again = store.retry_callback(job_id, tenant=owner)
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        if not again:
            state = f"its webhook is {job.callback_state}" if job.callback_url else "it has no callback_url"
            raise Problem("callback_not_retryable", f"job {job_id}: {state}; only a failed webhook is sent again")
        if deliverer is not None:
            deliverer.wake()
        return accepted(job, replayed=False)

    @app.post(
        "/v1/jobs/{job_id}/review",
        operation_id="review_job",
        tags=["jobs"],
        summary="Review an ended job: its file again, the corrected data and approved; an approved review teaches "
        "the tenant's layout of its supplier, a correction of a value a layout read demotes it (docs/learning.md)",
        response_model=contract.Taught,
        responses=contract.problems(401, 404, 409, 413, 415, 422),
        openapi_extra={"requestBody": contract.review_body()},
    )
    async def review_job(job_id: str, request: Request, owner: str = needs("review")) -> JSONResponse:
        job = await run_in_threadpool(store.get, job_id, tenant=owner)
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        review = await read_review(request, max_bytes=settings.max_bytes)
        if job.status not in ENDED:
            raise Problem("review_refused", f"job {job_id} is {job.status}: review it once it has ended")
        if hashlib.sha256(review.data).hexdigest() != job.sha256:
            raise Problem("review_refused", f"file: not job {job_id}'s file (its SHA-256 differs)")
        try:
            taught = await run_in_threadpool(
                engine.learn, job, review.data, review.corrected, approved=review.approved, by=owner
            )
        except UsageError as exc:
            raise Problem("review_refused", str(exc)) from None
        return JSONResponse(taught)

    @app.post(
        "/v1/extract",
        operation_id="extract",
        tags=["jobs"],
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
        request: Request, idempotency_key: str | None = idempotency, owner: str = needs("submit")
    ) -> JSONResponse:
        job, created = await submitted(request, idempotency_key, owner)
        done = await ended(job.id, owner, serve.sync_timeout)
        if done is None or done.status not in ENDED:
            return accepted(done or job, replayed=not created)
        return JSONResponse(
            await run_in_threadpool(job_view, done, store=store), headers={"Location": f"/v1/jobs/{job.id}"}
        )

    @app.get(
        "/v1/jobs/{job_id}/einvoice/{fmt}",
        operation_id="get_einvoice",
        tags=["jobs"],
        summary="A done job's invoice as EN 16931 XML, in a format the job asked for (options.einvoice)",
        response_class=Response,
        responses={
            200: {
                "description": "The XML its record's einvoice entry was checked on (the same sha256)",
                "content": {"application/xml": {"schema": {"type": "string"}}},
                "headers": {"X-Extractor-Valid": {"schema": {"type": "string", "enum": ["true", "false"]}}},
            },
            **contract.problems(401, 404, 422, 500),
        },
    )
    def get_einvoice(
        job_id: str,
        fmt: str,
        number: int = Query(1, ge=1, description="The Nth invoice of a split file."),
        owner: str = needs("read"),
    ) -> Response:
        job = store.get(job_id, tenant=owner)
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        records = job.records or []
        record = records[number - 1] if number <= len(records) else None
        made = sorted(((record or {}).get("einvoice") or {}).keys())
        entry = ((record or {}).get("einvoice") or {}).get(fmt)
        if record is None or entry is None:
            raise Problem("einvoice_not_found", _no_einvoice(fmt, made), extra={"formats": made})
        from extractor.einvoice.report import einvoice_xml  # lxml only when asked for

        xml = einvoice_xml(record, fmt)
        if hashlib.sha256(xml).hexdigest() != entry.get("sha256"):  # never a file other than the one checked
            raise Problem("einvoice_mismatch", "the e-invoice could not be made again as it was checked")
        stem = job.filename.rsplit(".", 1)[0] or "invoice"
        headers = {
            "Content-Disposition": f'attachment; filename="{stem}.{fmt}.xml"',
            "X-Extractor-Valid": "true" if entry.get("valid") else "false",
        }
        return Response(xml, media_type="application/xml", headers=headers)

    @app.get(
        "/healthz",
        operation_id="healthz",
        tags=["service"],
        summary="Liveness: the server (and its worker, if it runs one) serves",
        response_model=contract.Health,
        responses=contract.problems(503),
    )
    def healthz() -> JSONResponse:
        return JSONResponse(health.answer(store))

    @app.get(
        "/metrics",
        operation_id="metrics",
        tags=["service"],
        summary="Prometheus metrics: jobs by state, documents/min, queue wait, model time, webhooks",
        response_class=PlainTextResponse,
        responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
    )
    def metrics_page() -> PlainTextResponse:
        return PlainTextResponse(health.metrics_text(store), media_type=metrics.CONTENT_TYPE)

    app.add_middleware(Gate, keys=keys, max_body=settings.max_bytes + MULTIPART_SLACK, hosts=Hosts.bound(serve.host))
    return app


def _openapi(app: FastAPI) -> dict:
    """FastAPI's document of the routes, with the components only requests and errors name (``Options``,
    ``UrlSource``, ``Problem``)."""
    if app.openapi_schema is None:
        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        schemas.update(contract.components())
        for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 shape: ours is Problem
            schemas.pop(unused, None)
        for operation in (op for methods in document["paths"].values() for op in methods.values()):
            if "HTTPValidationError" in json.dumps(operation["responses"].get("422", {})):
                operation["responses"].update(contract.problems(422))
            if any(scopes for need in operation.get("security", ()) for scopes in need.values()):
                operation["responses"].setdefault("403", contract.problems(403)["403"])  # scope_missing
        app.openapi_schema = document
    return app.openapi_schema


def openapi_document() -> dict:
    """The OpenAPI document every server serves (no setting changes it): docs/openapi.json holds it, and the
    generated clients are made from it."""
    settings = Settings()
    app = create_app(
        store=cast(Store, None),  # the document reads no job
        worker=None,
        engine=Engine(settings),
        keys=ApiKeys(),
        serve=ServeSettings(),
        settings=settings,
    )
    return app.openapi()


__all__ = ["create_app", "job_view", "openapi_document"]


if __name__ == "__main__":  # python -m extractor.service.app > docs/openapi.json
    print(json.dumps(openapi_document(), indent=2, ensure_ascii=False))
