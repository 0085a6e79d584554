"""The review web app: JSON APIs over a ``RecordStore`` and two HTML pages (list, record) rendered from the same data.

Routes (``NAME`` is a record file's stem in OUT):

* ``GET /`` the list; ``GET /r/NAME`` one record beside its pages;
* ``GET /api/records`` counts by status and the records, ``review`` and ``invalid`` first;
* ``GET /api/records/NAME`` the record, its schema, its reviewed file, its pages, each field's state and each
  field's confidence and evidence (``records.field_evidence``: the least confident first);
* ``GET /api/records/NAME/pages/N`` page N as PNG (rendered in a child process, cached for the server's life);
* ``POST /api/records/NAME/check`` ``{"data"}`` -> the field states of edited data (validation, checks, grounding);
* ``POST /api/records/NAME/save`` ``{"data", "approved"}`` -> writes ``OUT/NAME.reviewed.json`` (422 when invalid);
* ``POST /api/records/NAME/register/trust`` confirms the account the document pays to, ``POST
  /api/records/NAME/register/not-duplicate`` ``{"sha256", "place"}`` says it is not a duplicate of that original
  (``register_panel``: saved in the invoice register with who and when; 409 without a register).

Anything not found (an unknown name, a traversal attempt, a page out of range) is a 404. With a ``token`` every
request must carry it (``?token=``, an ``X-Review-Token`` header or the cookie set after the first ``?token=``);
without it: 403.

Only the page's own requests are answered (``extractor.service.origin``): a ``Host`` other than the bound name or
address is refused with 403 on every route (DNS rebinding), and a POST must be ``application/json`` and carry the
per-start token the pages embed (``<meta name="review-csrf">``, sent back as ``X-Review-Csrf``) or an ``Origin``
equal to the page's own, else 403 with nothing changed (another site's page posting ``text/plain`` or a form).
"""

from __future__ import annotations

import json
import secrets
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractor.errors import ExtractorError, UsageError
from extractor.schema import Schema, load_schema
from extractor.service.origin import SAFE_METHODS, Hosts, is_json, same_origin
from extractor.tools.review_page.layout_panel import LayoutPanel, ReviewRefused
from extractor.tools.review_page.pages import SourcePages, read_pages, render_pool
from extractor.tools.review_page.recheck import embedded_xpaths, field_states
from extractor.tools.review_page.records import STATUS_ORDER, Entry, RecordStore, field_evidence
from extractor.tools.review_page.register_panel import RegisterPanel, find_register

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class ServiceTenant:
    """A service tenant whose records the page reviews (``extract review URL --api-key KEY``).

    Attributes:
        url: the service's base URL.
        api_key: the tenant's key.
    """

    url: str
    api_key: str = field(repr=False)


TOKEN_COOKIE = "review_token"
TOKEN_HEADER = "x-review-token"
CSRF_HEADER = "x-review-csrf"  # the per-start token the pages embed, sent back with every POST


class Review:
    """The data behind the app: records, their pages (rendered once) and their field states."""

    def __init__(
        self,
        store: RecordStore,
        *,
        cache: Path,
        register: RegisterPanel | None = None,
        layout: LayoutPanel | None = None,
    ) -> None:
        """Serve a store, keeping rendered pages under ``cache``; ``register``: the invoice register's panel;
        ``layout``: the layout panel (default: the register's layouts, issue 51; a service's: ``ServiceLayouts``)."""
        self.store = store
        self.register = register if register is not None else RegisterPanel(store, None)
        self.layout = layout if layout is not None else LayoutPanel(store, self.register.register)
        self.cache = cache
        self._pool = render_pool()  # workers start on the first page view
        self._pages: dict[str, SourcePages] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def listing(self) -> dict:
        """Counts by status and one summary per record, ``review`` and ``invalid`` first."""
        entries = self.store.entries()
        counts: dict[object, int] = {status: 0 for status in STATUS_ORDER}  # and whatever else records say
        for entry in entries:
            counts[entry.record.get("status")] = counts.get(entry.record.get("status"), 0) + 1
        return {
            "out": self.store.where,
            "counts": counts,
            "records": [e.summary(self.store.reviewed(e)) for e in entries],
        }

    def record(self, entry: Entry) -> dict:
        """Everything the record page shows: the record, schema, reviewed file, pages, field states, neighbours."""
        schema, schema_error = _schema(entry)
        pages = self.pages(entry)
        reviewed = self.store.reviewed(entry)
        data = reviewed["data"] if reviewed is not None else entry.record.get("data")
        entries = self.store.entries()
        names = [e.name for e in entries]
        at = names.index(entry.name) if entry.name in names else 0
        return {
            "name": entry.name,
            "file": Path(str(entry.record.get("source") or entry.name)).name,
            "record": entry.record,
            "schema": None if schema is None else schema.schema,
            "schema_error": schema_error,
            "reviewed": reviewed,
            "data": data,
            "pages": [p.to_dict() for p in pages.pages],
            "pages_error": pages.error,
            "pages_warnings": list(pages.warnings),
            "state": None if data is None else self.states(entry, data, schema=schema, pages=pages),
            "evidence": field_evidence(entry.record),
            "register": self.register.view(entry, entries, data),
            "layout": self.layout.view(entry),
            "previous": names[at - 1] if at > 0 else None,
            "next": names[at + 1] if at + 1 < len(names) else None,
        }

    def states(
        self, entry: Entry, data: Any, *, schema: Schema | None = None, pages: SourcePages | None = None
    ) -> dict:
        """The field states of (edited) data of a record."""
        if schema is None:
            schema, _ = _schema(entry)
        pages = pages if pages is not None else self.pages(entry)
        return field_states(
            data,
            schema=schema,
            schema_name=str(entry.record.get("schema") or ""),
            original=entry.record.get("data"),
            page_texts=[p.text for p in pages.pages],
            xpaths=embedded_xpaths(entry.record),
        )

    def pages(self, entry: Entry) -> SourcePages:
        """The record's source pages, rendered on first use (an error when the source is gone or unreadable)."""
        key = f"{entry.name}-{entry.record.get('sha256')}"
        with self._lock:  # one render per source at a time; a slow source does not hold up the others
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._pages:
                self._pages[key] = self._render(entry, key)
            return self._pages[key]

    def save(self, entry: Entry, data: Any, *, approved: bool) -> tuple[int, dict]:
        """Save corrected data when it is valid: (200, the reviewed file) or (422, the field states)."""
        schema, schema_error = _schema(entry)
        if schema is None:
            return 422, {"errors": [{"code": "schema", "path": "", "message": schema_error}]}
        states = self.states(entry, data, schema=schema)
        if not states["valid"]:
            return 422, states
        try:
            learned = self.layout.teach(entry, data, approved=approved)  # approving teaches; a correction demotes
        except ReviewRefused as exc:  # a service refused it: nothing is saved here either
            return exc.status, {"error": str(exc)}
        return 200, self.store.save(entry, data, approved=approved, learned=learned)

    def _render(self, entry: Entry, key: str) -> SourcePages:
        source = self.store.source(entry)
        if source is None:
            return SourcePages(
                error={
                    "code": "source_missing",
                    "message": f"{entry.record.get('source')}: the "
                    "source file is not found (or its content changed since the extraction)",
                }
            )
        folder = self.cache / key
        folder.mkdir(parents=True, exist_ok=True)
        return read_pages(source, cache=folder, pool=self._pool, part=entry.record.get("part"))

    def close(self) -> None:
        """Stop the render workers; close the register."""
        self._pool.close()
        self.register.close()


def create_app(
    out: Path,
    *,
    reviewer: str | None = None,
    token: str | None = None,
    register: str | None = None,
    host: str = "127.0.0.1",
):
    """Build the Starlette app for an output folder.

    Args:
        out: the folder of records.
        reviewer: the name written into reviewed files (default: the OS user).
        token: when set, every request must carry it.
        register: the invoice register (a path or URL; default: a watcher's in OUT, when there is one).
        host: the address the server is bound to: the one name (and address) a request's ``Host`` may carry.

    Returns:
        The ASGI app (its ``state.review`` is the ``Review``; its render workers and cache folder go when the app shuts
        down).
    """
    cache = Path(tempfile.mkdtemp(prefix="extract-review-"))
    records = RecordStore(out, reviewer=reviewer)
    review = Review(records, cache=cache, register=RegisterPanel(records, find_register(records.out, register)))
    return _assembled(review, cache=cache, token=token, host=host)


def create_service_app(
    url: str,
    *,
    api_key: str,
    files: Path,
    reviewer: str | None = None,
    token: str | None = None,
    host: str = "127.0.0.1",
):
    """Build the Starlette app over a service tenant (``service_records``): its records through the API, a review
    saved and approved through ``POST /v1/jobs/{id}/review`` (approving teaches that tenant's layouts).

    Args:
        url: the service's base URL.
        api_key: the tenant's key (scopes ``read`` and ``review``).
        files: the folder of the files the tenant submitted (found by SHA-256); reviewed files are written there.
        reviewer: the name written into reviewed files (default: the OS user).
        token: when set, every request to the page must carry it.
        host: the address the page is bound to.

    Returns:
        The ASGI app, as ``create_app``'s.

    Raises:
        UsageError: not a service URL, no key, ``files`` not a folder, or the service cannot be reached or refuses
            the key (exit 2).
    """
    from extractor.tools.review_page.service_records import ServiceClient, ServiceError, ServiceLayouts, ServiceRecords

    client = ServiceClient(url, api_key=api_key)
    try:
        client.get("/v1/jobs?limit=1")  # a wrong key or URL fails here, before the page is served
    except ServiceError as exc:
        raise UsageError(str(exc)) from None
    records = ServiceRecords(client, files=files, reviewer=reviewer)
    cache = Path(tempfile.mkdtemp(prefix="extract-review-"))
    review = Review(records, cache=cache, layout=ServiceLayouts(records))
    return _assembled(review, cache=cache, token=token, host=host)


def _assembled(review: Review, *, cache: Path, token: str | None, host: str):
    """The app's routes and guards (Host, CSRF, token) over a ``Review``, whatever its records' store."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
    from starlette.templating import Jinja2Templates

    csrf = secrets.token_urlsafe(24)  # this start's: a page of another site cannot read it
    templates = Jinja2Templates(directory=str(HERE / "templates"), context_processors=[lambda request: {"csrf": csrf}])
    handlers = _Handlers(review, templates)

    @asynccontextmanager
    async def lifespan(app):
        yield
        review.close()
        shutil.rmtree(cache, ignore_errors=True)

    routes = [
        Route("/", handlers.index),
        Route("/r/{name}", handlers.record_page),
        Route("/api/records", handlers.records),
        Route("/api/records/{name}", handlers.record),
        Route("/api/records/{name}/pages/{number:int}", handlers.page_image),
        Route("/api/records/{name}/check", handlers.check, methods=["POST"]),
        Route("/api/records/{name}/save", handlers.save, methods=["POST"]),
        Route("/api/records/{name}/register/trust", handlers.register_trust, methods=["POST"]),
        Route("/api/records/{name}/register/not-duplicate", handlers.register_not_duplicate, methods=["POST"]),
        Route("/api/records/{name}/layout/forget", handlers.layout_forget, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = [Middleware(_OwnPages, hosts=Hosts.bound(host), csrf=csrf)]  # first: before any token is looked at
    middleware += [Middleware(_TokenGate, token=token)] if token else []
    refused = {ReviewRefused: _refused}  # a service that cannot be reached mid-session: its reason, not a bare 500
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers=refused)
    app.state.review = review
    return app


class _Handlers:
    """The endpoints: each finds the record (404 when there is none), asks ``Review`` and renders."""

    def __init__(self, review: Review, templates) -> None:
        self.review = review
        self.templates = templates

    def index(self, request):
        """GET /: the list page."""
        return self.templates.TemplateResponse(request, "index.html", {"listing": self.review.listing()})

    def record_page(self, request):
        """GET /r/NAME: the record page (its data as JSON inside, for the form)."""
        entry = self._entry(request)
        view = self.review.record(entry)
        return self.templates.TemplateResponse(request, "record.html", {"view": view, "view_json": _script_json(view)})

    def records(self, request):
        """GET /api/records: the listing."""
        from starlette.responses import JSONResponse

        return JSONResponse(self.review.listing())

    def record(self, request):
        """GET /api/records/NAME: everything the record page shows."""
        from starlette.responses import JSONResponse

        return JSONResponse(self.review.record(self._entry(request)))

    def page_image(self, request):
        """GET /api/records/NAME/pages/N: the page as PNG."""
        from starlette.exceptions import HTTPException
        from starlette.responses import FileResponse

        pages = self.review.pages(self._entry(request))
        page = next((p for p in pages.pages if p.number == request.path_params["number"]), None)
        if page is None or not page.image.is_file():
            raise HTTPException(404)
        return FileResponse(page.image, media_type="image/png")

    async def check(self, request):
        """POST /api/records/NAME/check: the field states of the posted data."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse

        entry = self._entry(request)
        data = await _posted(request)
        return JSONResponse(await run_in_threadpool(self.review.states, entry, data.get("data")))

    async def save(self, request):
        """POST /api/records/NAME/save: write the reviewed file (422 with the states when invalid)."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse

        entry = self._entry(request)
        data = await _posted(request)
        status, body = await run_in_threadpool(
            self.review.save, entry, data.get("data"), approved=bool(data.get("approved"))
        )
        return JSONResponse(body, status_code=status)

    async def register_trust(self, request):
        """POST /api/records/NAME/register/trust: confirm the account the document pays to (the register)."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse

        status, body = await run_in_threadpool(self.review.register.trust, self._entry(request))
        return JSONResponse(body, status_code=status)

    async def register_not_duplicate(self, request):
        """POST /api/records/NAME/register/not-duplicate ``{"sha256", "place"}``: not a duplicate of that original."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse

        entry = self._entry(request)
        posted = await _posted(request)
        status, body = await run_in_threadpool(self.review.register.not_duplicate, entry, posted)
        return JSONResponse(body, status_code=status)

    async def layout_forget(self, request):
        """POST /api/records/NAME/layout/forget: forget the learned layout that read the record."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse

        status, body = await run_in_threadpool(self.review.layout.forget, self._entry(request))
        return JSONResponse(body, status_code=status)

    def _entry(self, request) -> Entry:
        from starlette.exceptions import HTTPException

        entry = self.review.store.entry(request.path_params["name"])
        if entry is None:
            raise HTTPException(404)
        return entry


class _OwnPages:
    """ASGI middleware: 403 for a ``Host`` not the server's (any request), and for a POST that is not JSON or
    carries neither this start's token nor the page's own ``Origin`` (see the module's docstring)."""

    def __init__(self, app, *, hosts: Hosts, csrf: str) -> None:
        self.app, self.hosts, self.csrf = app, hosts, csrf

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.responses import JSONResponse

        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        refused = self._refused(scope, headers)
        if refused is None:
            return await self.app(scope, receive, send)
        return await JSONResponse({"error": refused}, status_code=403)(scope, receive, send)

    def _refused(self, scope, headers: dict[str, str]) -> str | None:
        """Why the request is refused, None when it is the page's own."""
        if not self.hosts.allows(headers.get("host")):
            return "this server answers only the address it was opened at (Host refused)"
        if scope["method"] in SAFE_METHODS:
            return None
        if not is_json(headers):
            return "a change must be sent as application/json by the review page"
        offered = headers.get(CSRF_HEADER, "")
        if (offered and secrets.compare_digest(offered, self.csrf)) or same_origin(headers, scheme=scope["scheme"]):
            return None
        return "a change must come from the review page itself (its token or its Origin)"


class _TokenGate:
    """ASGI middleware: a request without the token gets 403; a right ``?token=`` also sets the cookie."""

    def __init__(self, app, *, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.requests import Request
        from starlette.responses import PlainTextResponse

        request = Request(scope)
        offered = request.query_params.get("token")
        if offered is not None and secrets.compare_digest(offered, self.token):

            async def send_with_cookie(message):
                if message["type"] == "http.response.start":
                    cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                    message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
                await send(message)

            return await self.app(scope, receive, send_with_cookie)
        carried = request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE) or ""
        if secrets.compare_digest(carried, self.token):
            return await self.app(scope, receive, send)
        return await PlainTextResponse("a token is required (see the URL extract review printed)", status_code=403)(
            scope, receive, send
        )


async def _refused(request, exc: Exception):
    """A ``ReviewRefused`` raised while reading (the service behind the page gone or refusing): its status and why."""
    from starlette.responses import JSONResponse

    return JSONResponse({"error": str(exc)}, status_code=getattr(exc, "status", 502))


def _schema(entry: Entry) -> tuple[Schema | None, str | None]:
    """The record's schema, or None and why it cannot be loaded."""
    name = entry.record.get("schema")
    if not name:
        return None, "the record names no schema"
    try:
        return load_schema(str(name)), None
    except ExtractorError as exc:
        return None, str(exc)


async def _posted(request) -> dict:
    from starlette.exceptions import HTTPException

    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>`` or HTML comment can close it early)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def needs_token(host: str) -> bool:
    """Whether binding to ``host`` needs a token: every address but the loopback ones."""
    import ipaddress

    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return True


def serve(
    out: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    reviewer: str | None = None,
    open_browser: bool = False,
    echo=print,
    register: str | None = None,
    service: ServiceTenant | None = None,
) -> None:
    """Run the review app until interrupted (Ctrl-C).

    Args:
        out: the folder of records (with ``service``: the folder of the files its tenant submitted).
        host: the address to bind; anything but loopback gets a random token, printed in the URL.
        port: the port (0: any free one).
        reviewer: the name written into reviewed files (default: the OS user).
        open_browser: open the URL in the default browser once the server listens.
        echo: where the URL is printed.
        register: the invoice register (a path or URL; default: a watcher's in OUT, when there is one).
        service: review a service tenant's records instead (``create_service_app``).
    """
    import socket

    import uvicorn

    token = secrets.token_urlsafe(18) if needs_token(host) else None
    if service is not None:
        app = create_service_app(
            service.url, api_key=service.api_key, files=out, reviewer=reviewer, token=token, host=host
        )
    else:
        app = create_app(out, reviewer=reviewer, token=token, register=register, host=host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))  # bound and listening here: port 0 is printed as the real one, and a browser opened
    sock.listen(128)  # at once waits in the backlog until the server accepts
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/" + (f"?token={token}" if token else "")
    echo(f"review: {url}  (records in {app.state.review.store.where}; Ctrl-C stops)")
    if open_browser:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
