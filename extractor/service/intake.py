"""What a ``POST /v1/jobs`` (or ``/v1/extract``) brings, read from either body it may have: a multipart upload
(``file``, and ``schema``, ``options`` as JSON text, ``callback_url``) or a JSON ``UrlSource`` (``url`` instead of a
file). Nothing is checked here beyond the shape: ``request_options.request_options`` checks the options, the
webhooks' and sources' rules the URLs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.requests import Request

from extractor.service.contract import UrlSource
from extractor.service.gate import TOO_LARGE
from extractor.service.problems import ProblemError
from extractor.service.request_options import upload_name

FORM_FIELDS = 8  # a multipart body's parts at most (file, schema, options, callback_url, and slack)


@dataclass(frozen=True)
class Submission:
    """One submitted document and what its request asked for.

    Attributes:
        data: the uploaded bytes (None: a URL source, fetched by the worker).
        filename: the name it is extracted under (the record's ``source``).
        url: the URL source (None: an upload).
        schema: a schema's name or a JSON Schema as JSON text (None: the server's).
        options: the parsed ``options`` (None: none given).
        callback_url: where the webhook goes (None: none).
    """

    data: bytes | None
    filename: str
    url: str | None = None
    schema: str | None = None
    options: Any = None
    callback_url: str | None = None


async def read_submission(request: Request, *, max_bytes: int) -> Submission:
    """The submission of a request's body, multipart or JSON.

    Raises:
        ProblemError: ``unsupported_media_type``, ``invalid_request`` (no file, not JSON, a field of the wrong type),
            ``invalid_options`` (``options`` not JSON, an unknown option), ``file_too_large``.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "multipart/form-data":
        return await _upload(request, max_bytes=max_bytes)
    if kind == "application/json" or kind.endswith("+json"):
        return await _url_source(request)
    raise ProblemError(
        "unsupported_media_type",
        f"content-type {kind or 'none'}: send multipart/form-data (a file) or application/json (a url)",
    )


async def _upload(request: Request, *, max_bytes: int) -> Submission:
    form = await request.form(max_files=1, max_fields=FORM_FIELDS)
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise ProblemError(
            "invalid_request",
            "file: a multipart part named file (the PDF or image) is required",
            extra={"errors": [{"loc": ["body", "file"], "msg": "Field required", "type": "missing"}]},
        )
    data = await file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ProblemError("file_too_large", TOO_LARGE)
    options_text = await _text(form.get("options"))
    try:
        options = json.loads(options_text) if options_text else None
    except ValueError:
        raise ProblemError("invalid_options", "options: not JSON") from None
    return Submission(
        data=data,
        filename=upload_name(file.filename),
        schema=await _text(form.get("schema")),
        options=options,
        callback_url=await _text(form.get("callback_url")) or None,
    )


@dataclass(frozen=True)
class ReviewSubmission:
    """A ``POST /v1/jobs/{id}/review`` body: the job's file again, the corrected data, whether it is approved."""

    data: bytes
    corrected: Any
    approved: bool


async def read_review(request: Request, *, max_bytes: int) -> ReviewSubmission:
    """The review of a request's multipart body (``file``, ``data`` as JSON, ``approved``: true or false).

    Raises:
        ProblemError: ``unsupported_media_type``, ``invalid_request`` (no file, data not JSON), ``file_too_large``.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "multipart/form-data":
        raise ProblemError("unsupported_media_type", f"content-type {kind or 'none'}: send multipart/form-data")
    form = await request.form(max_files=1, max_fields=FORM_FIELDS)
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise ProblemError("invalid_request", "file: a multipart part named file (the job's PDF or image) is required")
    data = await file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ProblemError("file_too_large", TOO_LARGE)
    try:
        corrected = json.loads(await _text(form.get("data")) or "")
    except ValueError:
        raise ProblemError("invalid_request", "data: the corrected data, as JSON, is required") from None
    approved = (await _text(form.get("approved")) or "false").strip().lower() in ("true", "1", "yes")
    return ReviewSubmission(data=data, corrected=corrected, approved=approved)


async def _text(value: Any) -> str | None:
    """A form field's text (a part sent as a file, as some clients send a JSON part, read as UTF-8)."""
    if isinstance(value, UploadFile):
        return (await value.read()).decode("utf-8", errors="replace")
    return value


async def _url_source(request: Request) -> Submission:
    try:
        body = await request.json()
    except ValueError:
        raise ProblemError("invalid_request", "the body is not JSON") from None
    try:
        source = UrlSource.model_validate(body)
    except ValidationError as exc:
        errors = [
            {"loc": ["body", *(str(part) for part in e["loc"])], "msg": e["msg"], "type": e["type"]}
            for e in exc.errors()
        ]
        code = "invalid_options" if all(e["loc"][1:2] == ["options"] for e in errors) else "invalid_request"
        shown = "; ".join(f"{'.'.join(e['loc'][1:])}: {e['msg']}" for e in errors[:3])
        raise ProblemError(code, shown, extra={"errors": errors}) from None
    schema = source.schema_
    return Submission(
        data=None,
        filename=url_name(source.url),
        url=source.url,
        schema=json.dumps(schema) if isinstance(schema, dict) else schema,
        options=source.options.model_dump(exclude_none=True) if source.options else None,
        callback_url=source.callback_url or None,
    )


def url_name(url: str) -> str:
    """The name a URL's document is extracted under: its path's last part (``document`` when it has none)."""
    last = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    return upload_name(last) if re.search(r"\w", last) else "document"


__all__ = ["Submission", "read_submission", "url_name"]
