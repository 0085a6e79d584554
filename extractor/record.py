"""The record: one per document, one documented JSON shape used by every output.

Status, exactly one per record:
  ok         stopped cleanly (stop token, or a guard after a complete answer), parsed, schema-valid, checks passed
  review     valid JSON, but an invoice check failed or a key value is not grounded in the page text
  invalid    complete JSON that breaks the schema, or no JSON at all
  truncated  hit max_tokens before the JSON value closed; no data
  runaway    the JSON closed, then generation went on until max_tokens (data kept, flagged), or a guard fired before
             the JSON closed
  error      the input could not be read, or the model failed
``finish_reason == "length"`` never yields ``ok``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

STATUSES = ("ok", "review", "invalid", "truncated", "runaway", "error")
RECORD_VERSION = 1


@dataclass(frozen=True)
class Usage:
    """Token usage of the model call (zeros when no model ran)."""

    prompt_tokens: int = 0
    image_tokens: int = 0
    generated_tokens: int = 0


@dataclass(frozen=True)
class Record:
    """The result for one document. ``to_dict()`` is the documented JSON shape."""

    source: str
    status: str
    sha256: str = ""
    pages: int = 0
    model: str = ""
    schema: str = ""
    data: Any = None
    errors: tuple[dict, ...] = ()
    warnings: tuple[dict, ...] = ()
    finish_reason: Optional[str] = None
    stop_token_id: Optional[int] = None
    stop_token_ids: tuple[int, ...] = ()
    guard: Optional[str] = None
    usage: Usage = field(default_factory=Usage)
    timings: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # later steps (checks, grounding, attempts, constraints) report here

    @property
    def ok(self) -> bool:
        """True when the status is ``ok``."""
        return self.status == "ok"

    def to_dict(self) -> dict:
        """Return the record as a JSON-ready dict (the documented shape)."""
        out = {
            "version": RECORD_VERSION,
            "source": self.source,
            "sha256": self.sha256,
            "pages": self.pages,
            "model": self.model,
            "schema": self.schema,
            "status": self.status,
            "data": self.data,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "finish_reason": self.finish_reason,
            "stop_token_id": self.stop_token_id,
            "stop_token_ids": list(self.stop_token_ids),
            "guard": self.guard,
            "usage": asdict(self.usage),
            "timings": dict(self.timings),
        }
        out.update(self.extra)
        return out

    def to_json(self, *, indent: Optional[int] = 2) -> str:
        """Return the record as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


def issue(code: str, message: str, path: Optional[str] = None) -> dict:
    """Build an error / warning entry: ``{"code", "message"[, "path"]}``.

    Args:
        code: a stable machine-readable code.
        message: plain words for a person.
        path: a JSON pointer into ``data``, when the issue is about one field.

    Returns:
        The entry dict.
    """
    entry = {"code": code, "message": message}
    if path is not None:
        entry["path"] = path
    return entry


def error_record(*, source: str, code: str, message: str, sha256: str = "", model: str = "", schema: str = "",
                 pages: int = 0, timings: Optional[dict] = None, stop_token_ids: tuple[int, ...] = ()) -> Record:
    """Build an ``error`` record for an input that could not be processed.

    Args:
        source: the input as given.
        code: the error code (``not_found``, ``corrupt``, ``encrypted``, ``model_error``, ...).
        message: what went wrong, naming the file.
        sha256: content hash, when the bytes could be read.
        model: model id.
        schema: schema name.
        pages: page count, when known.
        timings: seconds spent so far.
        stop_token_ids: the resolved stop set (every record reports it, even when no model ran).

    Returns:
        The Record.
    """
    return Record(source=source, status="error", sha256=sha256, pages=pages, model=model, schema=schema,
                  errors=(issue(code, message),), timings=dict(timings or {}), stop_token_ids=tuple(stop_token_ids))
