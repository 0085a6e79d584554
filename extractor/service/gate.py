"""The door every request passes before the app: its request id, its key, its body's size, and its access-log line.

``Gate`` is ASGI middleware run before a request's body is read: every response carries ``X-Request-Id`` (the
client's, when it sent a sane one; else a fresh one), a ``/v1`` call without a valid key gets 401, an upload whose
``Content-Length`` exceeds the limit gets 413 and one without it is counted as it streams. Each request then logs
one line (``extractor.service.access``): method, route (the template, never an id or a query), status, tenant,
duration and request id; never a key, a password or a file name.

A server without keys (loopback only) answers no other site's page (``origin``): a ``Host`` other than the bound
name or address gets 403 ``host_refused`` on every route (DNS rebinding), and a request that changes something
sent by a browser from another origin (its ``Origin`` or ``Sec-Fetch-Site``) gets 403 ``cross_site``. With keys
neither applies: a key travels in the ``Authorization`` header, which no browser adds to another site's request.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Callable

from starlette.exceptions import HTTPException as StarletteHTTPException

from extractor.service.config import OPEN_TENANT, ApiKeys
from extractor.service.origin import SAFE_METHODS, Hosts, from_other_site
from extractor.service.problems import MEDIA_TYPE, PROBLEMS, problem_body

access = logging.getLogger("extractor.service.access")

REQUEST_ID = "x-request-id"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")  # a client's id is echoed only when it cannot forge a log line
UPLOAD_PATHS = ("/v1/jobs", "/v1/extract")
DRAIN_LIMIT = 4 << 20  # bytes of a refused streamed body read (and dropped) so that its client reads the 413
NO_KEY = "a valid API key is required (Authorization: Bearer KEY)"
TOO_LARGE = "the upload is larger than the server's --max-bytes"
HOST_REFUSED = "this server answers only the name or address it listens on (a DNS rebinding name is refused)"
CROSS_SITE = "a browser sent this change from another site's page: refused (a server without keys)"


class Gate:
    """Request ids, keys, the body limit and the access log, before the app (see the module's docstring)."""

    def __init__(self, app: Callable, *, keys: ApiKeys, max_body: int, hosts: Hosts) -> None:
        """Wrap ``app``: ``max_body`` is the largest request body accepted (bytes); ``hosts``: the names a
        request's ``Host`` may carry when there are no keys."""
        self.app, self.keys, self.max_body, self.hosts = app, keys, max_body, hosts

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """One request: its id on the response, its line in the access log."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        given = headers.get(REQUEST_ID, "")
        request_id = given if _SANE_ID.fullmatch(given) else secrets.token_hex(12)
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        state["tenant"] = tenant = _tenant(self.keys, headers.get("authorization")) if self.keys else OPEN_TENANT
        started, status = time.perf_counter(), 500

        async def stamped(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self._guarded(scope, receive, stamped, headers, tenant)
        finally:
            route = getattr(scope.get("route"), "path", None) or "-"
            access.info(
                "%s %s %d tenant=%s %.1fms request_id=%s",
                scope["method"],
                route,
                status,
                tenant or "-",
                (time.perf_counter() - started) * 1000,
                request_id,
            )

    async def _guarded(
        self, scope: dict, receive: Callable, send: Callable, headers: dict[str, str], tenant: str | None
    ) -> None:
        if not self.keys and not self.hosts.allows(headers.get("host")):
            await _plain(send, "host_refused", HOST_REFUSED)
            return
        if not self.keys and scope["method"] not in SAFE_METHODS and from_other_site(headers, scheme=scope["scheme"]):
            await _plain(send, "cross_site", CROSS_SITE)
            return
        if not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        if tenant is None:
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


def _tenant(keys: ApiKeys, authorization: str | None) -> str | None:
    scheme, _, key = (authorization or "").partition(" ")
    return keys.tenant(key.strip()) if scheme.lower() == "bearer" and key.strip() else None


async def _plain(send: Callable, code: str, detail: str, *, extra: list | None = None) -> None:
    """Answer a problem before the app runs (its body unread: the server reads and drops it, so that the client,
    still sending, reads this answer instead of a reset connection)."""
    body = json.dumps(problem_body(code, detail)).encode()
    headers = [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": PROBLEMS[code][0], "headers": headers})
    await send({"type": "http.response.body", "body": body})


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


__all__ = ["CROSS_SITE", "HOST_REFUSED", "NO_KEY", "REQUEST_ID", "TOO_LARGE", "Gate"]
