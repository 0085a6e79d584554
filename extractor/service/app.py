"""The service's HTTP face (FastAPI): accept uploads as jobs, answer their status and records, guard the door.

Endpoints: ``POST /v1/jobs`` (202 + ``Location``), ``GET /v1/jobs/{id}`` (``?wait=`` long-polls), ``GET /v1/jobs``,
``DELETE /v1/jobs/{id}``, ``POST /v1/extract`` (the record within ``--sync-timeout``, else 202), ``GET /healthz``,
``GET /metrics`` (Prometheus), and FastAPI's ``/openapi.json`` and ``/docs``. Every ``/v1`` call needs
``Authorization: Bearer KEY`` when the server has keys; a body over ``--max-bytes`` is refused with 413 before it
is stored (``Gate``).
"""

import asyncio
import datetime
import hashlib
import json
from collections.abc import Callable
from typing import Any

from fastapi import Depends, FastAPI, File, Form, Header, Query, UploadFile
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from extractor.errors import SchemaError, UsageError
from extractor.schema import schema_reference
from extractor.service import metrics
from extractor.service.config import OPEN_TENANT, ApiKeys, ServeSettings
from extractor.service.problems import MEDIA_TYPE, PROBLEMS, Problem, install, problem_body
from extractor.service.requests import SERVICE_EINVOICE, request_options, upload_name
from extractor.service.store import ENDED, Job, Store, shown_options
from extractor.service.webhooks import Deliverer, check_callback, shown_callback
from extractor.service.worker import Engine, Worker
from extractor.settings import Settings

SCHEMA_HELP = "invoice, receipt, the server's --schema, or a JSON Schema (JSON text)."
MAX_WAIT = 60.0  # seconds one long poll may wait at most
LOOK_AGAIN = 0.5  # seconds between a long poll's looks at the store for jobs other processes' workers end
MULTIPART_SLACK = 64 * 1024  # a multipart body's bytes beside the file (boundaries, headers, the form fields)
PAGE_LIMIT = 200  # jobs per page of GET /v1/jobs at most
UPLOAD_PATHS = ("/v1/jobs", "/v1/extract")
DRAIN_LIMIT = 4 << 20  # bytes of a refused streamed body read (and dropped) so that its client reads the 413
NO_KEY = "a valid API key is required (Authorization: Bearer KEY)"
TOO_LARGE = "the upload is larger than the server's --max-bytes"


class Gate:
    """ASGI middleware run before a request's body is read: a ``/v1`` call without a valid key gets 401, an upload
    whose ``Content-Length`` exceeds the limit gets 413 (a body without one is counted as it streams)."""

    def __init__(self, app: Callable, *, keys: ApiKeys, max_body: int) -> None:
        self.app, self.keys, self.max_body = app, keys, max_body

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        if self.keys and _tenant(self.keys, headers.get("authorization")) is None:
            await _plain(send, "unauthorized", NO_KEY, extra=[(b"www-authenticate", b"Bearer")])
            return
        if scope["method"] != "POST" or scope["path"] not in UPLOAD_PATHS:
            await self.app(scope, receive, send)
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            await _plain(send, "file_too_large", TOO_LARGE)
            return
        await self.app(scope, _counted(receive, self.max_body), send)


def _counted(receive: Callable, limit: int) -> Callable:
    """``receive`` counting a body's bytes as they stream: past ``limit`` it raises the 413 that the exception
    handlers answer as problem+json (a body without ``Content-Length``)."""
    seen = 0

    async def counted() -> dict:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                await _drain(receive, message)
                raise StarletteHTTPException(413, TOO_LARGE)
        return message

    return counted


async def _drain(receive: Callable, message: dict) -> None:
    """Read up to ``DRAIN_LIMIT`` more of a refused body: a client still sending when the connection closes on
    unread bytes gets a reset instead of the 413."""
    drained = 0
    while message.get("more_body") and drained < DRAIN_LIMIT:
        message = await receive()
        drained += len(message.get("body", b""))


async def _plain(send: Callable, code: str, detail: str, *, extra: list | None = None) -> None:
    """Answer a problem before the app runs (its body unread: the server reads and drops it, so that the client,
    still sending, reads this answer instead of a reset connection)."""
    body = json.dumps(problem_body(code, detail)).encode()
    headers = [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": PROBLEMS[code][0], "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _tenant(keys: ApiKeys, authorization: str | None) -> str | None:
    scheme, _, key = (authorization or "").partition(" ")
    return keys.tenant(key.strip()) if scheme.lower() == "bearer" and key.strip() else None


def _time(seconds: float | None) -> str | None:
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
    """A job as the API answers it: its state and times, its place in the queue while queued, and when done its
    ``record`` (the first; ``records`` holds every one when ``split: auto`` found several invoices)."""
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
    if job.status == "queued":
        out["queue_position"] = store.position(job)
    if job.error is not None:
        out["error"] = job.error
    if job.answered_from is not None:
        out["answered_from"] = job.answered_from  # the earlier job of the same bytes and settings
    if job.callback_url is not None:
        out["callback"] = {
            "url": shown_callback(job.callback_url),
            "state": job.callback_state,
            "deliveries": job.deliveries,
        }
    if records and job.records is not None:
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
        deliverer: the webhooks' deliverer (woken when a job is answered at once from a stored record).
        engine: the core (fingerprints of the requests' settings; its model only in the worker).
        keys: the API keys (empty: a loopback server open to this machine).
        serve: the service's settings (the sync timeout).
        settings: the extraction settings (``max_bytes`` is the upload limit).
    """
    max_body = settings.max_bytes + MULTIPART_SLACK
    app = FastAPI(
        title="extractor",
        version="1",
        description="Invoices and business PDFs to schema-valid JSON "
        "records: upload a file as a job, poll it (or long-poll with ?wait=), read its record.",
    )
    install(app)  # every error as application/problem+json
    bearer = HTTPBearer(auto_error=False, description="An API key of this server (EXTRACT_API_KEYS).")

    def tenant(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
        if not keys:
            return OPEN_TENANT
        found = keys.tenant(credentials.credentials) if credentials is not None else None
        if found is None:  # Gate answers first; kept for a route mounted without it
            raise Problem("unauthorized", NO_KEY, headers={"WWW-Authenticate": "Bearer"})
        return found

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

    def accept(
        file: UploadFile,
        schema: str | None,
        options: str | None,
        idempotency_key: str | None,
        owner: str,
        callback_url: str | None = None,
    ) -> tuple[Job, bool]:
        data = file.file.read(settings.max_bytes + 1)
        if len(data) > settings.max_bytes:
            raise Problem("file_too_large", TOO_LARGE)
        try:
            parsed = json.loads(options) if options else None
        except ValueError:
            raise Problem("invalid_options", "options: not JSON") from None
        chosen, fingerprint = checked_options(schema, parsed)
        if callback_url:
            try:
                callback_url = check_callback(callback_url, settings=serve.webhooks)
            except UsageError as exc:
                raise Problem("callback_refused", str(exc)) from None
        sha256 = hashlib.sha256(data).hexdigest()
        job, created = store.submit(
            tenant=owner,
            filename=upload_name(file.filename),
            data=data,
            sha256=sha256,
            fingerprint=fingerprint,
            options=chosen,
            idempotency_key=idempotency_key,
            callback_url=callback_url or None,
            reuse=serve.reuse,
        )
        if not created and (job.sha256, job.fingerprint) != (sha256, fingerprint):
            raise Problem("idempotency_conflict", "Idempotency-Key: already used for another file or other settings")
        if worker is not None:
            worker.wake()
        if deliverer is not None and job.callback_state == "pending":
            deliverer.wake()
        return job, created

    def accepted(job: Job, *, replayed: bool) -> JSONResponse:
        headers = {"Location": f"/v1/jobs/{job.id}", **({"Idempotent-Replayed": "true"} if replayed else {})}
        return JSONResponse(job_view(job, store=store), status_code=202, headers=headers)

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

    @app.post(
        "/v1/jobs",
        status_code=202,
        summary="Submit a file as a job",
        responses={202: {"description": "Accepted: the job, and its URL in Location"}},
    )
    def create_job(
        file: UploadFile = File(..., description="The PDF or image."),
        schema_name: str | None = Form(None, alias="schema", description=SCHEMA_HELP),
        options: str | None = Form(None, description='JSON: {"pages": "1-3", "password": "...", "split": "auto"}'),
        callback_url: str | None = Form(None, description="Where the signed webhook goes when the job ends."),
        idempotency_key: str | None = Header(None, description="The same key returns the same job."),
        owner: str = Depends(tenant),
    ) -> JSONResponse:
        job, created = accept(file, schema_name, options, idempotency_key, owner, callback_url)
        return accepted(job, replayed=not created)

    @app.get("/v1/jobs/{job_id}", summary="A job: its status, queue position and (when done) its record")
    async def get_job(
        job_id: str,
        wait: float = Query(0.0, ge=0.0, description=f"Seconds to wait for the job to end (at most {MAX_WAIT:g})."),
        owner: str = Depends(tenant),
    ) -> dict:
        job = await ended(job_id, owner, min(wait, MAX_WAIT))
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        return await run_in_threadpool(job_view, job, store=store)

    @app.get("/v1/jobs", summary="The caller's jobs, newest first (without their records)")
    def list_jobs(
        limit: int = Query(50, ge=1, le=PAGE_LIMIT),
        before: int | None = Query(None, description="The `next` of the previous page."),
        owner: str = Depends(tenant),
    ) -> dict:
        jobs = store.jobs(tenant=owner, limit=limit, before=before)
        return {
            "jobs": [job_view(job, store=store, records=False) for job in jobs],
            "next": jobs[-1].seq if len(jobs) == limit else None,
        }

    @app.delete("/v1/jobs/{job_id}", summary="Cancel a queued or running job, or delete an ended one")
    def delete_job(job_id: str, owner: str = Depends(tenant)) -> dict:
        outcome = store.cancel(job_id, tenant=owner)
        if outcome is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        return {"id": job_id, "status": outcome}

    @app.post(
        "/v1/extract",
        summary="Submit a file and wait for its record (202 with the job past the sync timeout)",
        responses={202: {"description": "Not done within --sync-timeout: the job, and its URL in Location"}},
    )
    async def extract(
        file: UploadFile = File(..., description="The PDF or image."),
        schema_name: str | None = Form(None, alias="schema", description=SCHEMA_HELP),
        options: str | None = Form(None, description="JSON, as for POST /v1/jobs."),
        callback_url: str | None = Form(None, description="As for POST /v1/jobs."),
        idempotency_key: str | None = Header(None),
        owner: str = Depends(tenant),
    ) -> JSONResponse:
        job, created = await run_in_threadpool(accept, file, schema_name, options, idempotency_key, owner, callback_url)
        done = await ended(job.id, owner, serve.sync_timeout)
        if done is None or done.status not in ENDED:
            return accepted(done or job, replayed=not created)
        return JSONResponse(
            await run_in_threadpool(job_view, done, store=store), headers={"Location": f"/v1/jobs/{job.id}"}
        )

    @app.get(
        "/v1/jobs/{job_id}/einvoice/{fmt}",
        summary="A done job's invoice as EN 16931 XML (cii or ubl), when the job asked for that format",
        response_class=Response,
        responses={200: {"content": {"application/xml": {}}}},
    )
    def get_einvoice(job_id: str, fmt: str, number: int = Query(1, ge=1), owner: str = Depends(tenant)) -> Response:
        job = store.get(job_id, tenant=owner)
        if job is None:
            raise Problem("job_not_found", f"no job {job_id} of this key")
        records = job.records or []
        record = records[number - 1] if number <= len(records) else None
        made = sorted(((record or {}).get("einvoice") or {}).keys())
        entry = ((record or {}).get("einvoice") or {}).get(fmt)
        if entry is None:
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

    @app.get("/healthz", summary="Liveness: the server (and its worker, if it runs one) serves")
    def healthz() -> dict:
        return {"status": "serving"}

    @app.get(
        "/metrics",
        summary="Prometheus metrics: jobs by state, documents/min, queue wait, model time, webhooks",
        response_class=PlainTextResponse,
    )
    def metrics_page() -> PlainTextResponse:
        text = metrics.render(store.stats(window=metrics.WINDOW))
        return PlainTextResponse(text, media_type=metrics.CONTENT_TYPE)

    app.add_middleware(Gate, keys=keys, max_body=max_body)
    return app


__all__ = ["Gate", "create_app", "job_view"]
