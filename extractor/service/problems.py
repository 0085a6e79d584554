"""Every error the service answers, in one shape: RFC 9457 ``application/problem+json`` with a stable ``code``.

``PROBLEMS`` is the one table of codes (status and title), as ``extractor.errors`` maps exit codes once; routes raise
``ProblemError(code, detail)``, and ``install`` makes FastAPI's own errors (validation, unknown routes, a body over the
limit, a bug) the same shape. docs/serve.md lists every code (a test keeps the two the same).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from extractor.service.contract import Problem

log = logging.getLogger("extractor.service")

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "https://github.com/extractor/extractor/blob/main/docs/serve.md#"  # + the code: its row in the docs

# code: (HTTP status, title); a code never changes meaning once released
PROBLEMS: dict[str, tuple[int, str]] = {
    "bad_request": (400, "The request could not be read"),
    "unauthorized": (401, "A valid API key is required"),
    "host_refused": (403, "The Host is not this server's"),
    "cross_site": (403, "A change sent from another site's page"),
    "scope_missing": (403, "The API key lacks the scope this route needs"),
    "not_found": (404, "No such route"),
    "job_not_found": (404, "No such job"),
    "einvoice_not_found": (404, "No such e-invoice in this job"),
    "method_not_allowed": (405, "Method not allowed"),
    "idempotency_conflict": (409, "Idempotency-Key already used for another request"),
    "callback_not_retryable": (409, "The job's webhook has not failed"),
    "review_refused": (409, "The review cannot teach: no register, the job has not ended, or another file"),
    "file_too_large": (413, "The upload is larger than the server's --max-bytes"),
    "unsupported_media_type": (415, "Expected multipart/form-data or application/json"),
    "invalid_request": (422, "The request is not well formed"),
    "invalid_options": (422, "The options are not valid"),
    "invalid_schema": (422, "The schema is not offered or not valid"),
    "callback_refused": (422, "The callback URL is refused"),
    "source_refused": (422, "The source URL is refused"),
    "einvoice_mismatch": (500, "The e-invoice could not be made again as it was checked"),
    "internal_error": (500, "Internal server error"),
    "store_unavailable": (503, "A database the service needs cannot be reached now"),
}
# the code of an error FastAPI or Starlette raise themselves, by status
_BY_STATUS = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "file_too_large",
}


class ProblemError(Exception):
    """An error answered as ``application/problem+json``.

    Attributes:
        code: a key of ``PROBLEMS`` (its status and title).
        detail: what went wrong with this request, in a sentence.
        headers: extra response headers (``WWW-Authenticate``).
        extra: extension members (``formats``, ``errors``).
    """

    def __init__(
        self, code: str, detail: str, *, headers: dict[str, str] | None = None, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(detail)
        if code not in PROBLEMS:
            raise KeyError(f"no problem code {code!r}")
        unknown = sorted(set(extra or ()) - set(Problem.model_fields))
        if unknown:  # a member the contract does not publish would be dropped from the answer
            raise KeyError(f"no problem member {', '.join(unknown)} in contract.Problem")
        self.code, self.detail, self.headers, self.extra = code, detail, headers or {}, extra or {}

    @property
    def status(self) -> int:
        """The HTTP status of its code."""
        return PROBLEMS[self.code][0]


def problem_body(code: str, detail: str, *, extra: dict[str, Any] | None = None) -> dict:
    """The JSON of a problem (``contract.Problem``): ``type``, ``title``, ``status``, ``detail``, ``code`` and the
    extension members given in ``extra`` (``errors``, ``formats``, ``outages``)."""
    status, title = PROBLEMS[code]
    given = {"type": TYPE_BASE + code, "title": title, "status": status, "detail": detail, "code": code}
    return Problem.model_validate({**given, **(extra or {})}).model_dump(mode="json", exclude_unset=True)


def problem_response(problem: ProblemError) -> JSONResponse:
    """The response of a ``ProblemError``."""
    body = problem_body(problem.code, problem.detail, extra=problem.extra)
    return JSONResponse(body, status_code=problem.status, headers=problem.headers, media_type=MEDIA_TYPE)


async def _problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ProblemError)
    return problem_response(exc)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _BY_STATUS.get(exc.status_code, "internal_error" if exc.status_code >= 500 else "bad_request")
    given = exc.detail if isinstance(exc.detail, str) and exc.detail else ""
    # Starlette's own words for a route or a body limit say less than the table's title
    detail = PROBLEMS[code][1] if code in ("not_found", "file_too_large") or not given else given
    return problem_response(ProblemError(code, detail, headers=dict(exc.headers or {})))


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": [str(part) for part in error.get("loc", ())], "msg": str(error.get("msg", "")), "type": error["type"]}
        for error in exc.errors()
    ]
    shown = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors[:3])
    return problem_response(ProblemError("invalid_request", shown or "invalid request", extra={"errors": errors}))


async def _bug(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s %s: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
    return problem_response(
        ProblemError("internal_error", f"{type(exc).__name__}: the server failed (its log says more)")
    )


def install(app: FastAPI) -> None:
    """Answer every error of ``app`` as problem+json: ``ProblemError``, FastAPI's validation errors, Starlette's HTTP
    errors (an unknown route, a method, a body over the limit) and any exception (500, logged)."""
    app.add_exception_handler(ProblemError, _problem)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(Exception, _bug)


__all__ = ["MEDIA_TYPE", "PROBLEMS", "TYPE_BASE", "ProblemError", "install", "problem_body", "problem_response"]
