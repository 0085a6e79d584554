"""The record: one per document, one documented JSON shape used by every output.

``status`` is decided in ``verdict`` (its docstring lists the statuses and their rules); this module only holds it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any, Optional, Union

RECORD_VERSION = 1
RECORD_SCHEMA = "record.schema.json"  # the record's JSON Schema, shipped in ``extractor.schemas`` (``record_schema()``)


class Status(str, Enum):
    """A record's status (decided in ``trust.verdict``). String-valued: ``Status.OK == "ok"`` and JSON holds the
    plain string, so records read as before."""

    OK = "ok"
    REVIEW = "review"
    INVALID = "invalid"
    TRUNCATED = "truncated"
    RUNAWAY = "runaway"
    ERROR = "error"

    # the value, not "Status.OK", wherever a status is printed or formatted
    __str__ = str.__str__
    __format__ = str.__format__


@dataclass(frozen=True)
class Usage:
    """Token usage of the model calls (zeros when no model ran).

    Attributes:
        prompt_tokens: prompt tokens, the full count (a cached prefix included).
        image_tokens: of those, the page images' tokens.
        generated_tokens: tokens generated (the stop token and the tokens jump-forward fed included).
        cached_prompt_tokens: prompt tokens a cached prefix covered (not prefilled again).
        decode_steps: forward passes that sampled a token (fewer than generated_tokens with jump-forward).
        decoding: how the in-process model decoded (the last call's): ``{"path": "fast"|"generic",
            "prefix_cache", "jump_forward", "forced_feed", "batch", "merged_steps", "reasons"}``; None when no
            local model ran (servers, embedded XML).
    """

    prompt_tokens: int = 0
    image_tokens: int = 0
    generated_tokens: int = 0
    cached_prompt_tokens: int = 0
    decode_steps: int = 0
    decoding: Optional[dict] = None

    def __add__(self, other: "Usage") -> "Usage":
        """The sum of two usages (counts added; ``decoding`` the later call's)."""
        counts = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self) if f.name != "decoding"}
        return Usage(**counts, decoding=other.decoding if other.decoding is not None else self.decoding)


@dataclass(frozen=True)
class Record:
    """The result for one document. ``to_dict()`` is the documented JSON shape."""

    source: str
    status: Union[Status, str]
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

    def to_dict(self) -> dict:
        """Return the record as a JSON-ready dict (the documented shape)."""
        out = {
            "version": RECORD_VERSION,
            "source": self.source,
            "sha256": self.sha256,
            "pages": self.pages,
            "model": self.model,
            "schema": self.schema,
            "status": str(self.status),
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


def record_from_dict(data: dict) -> Record:
    """Rebuild a Record from its JSON shape (``Record.to_dict()``), e.g. a record file of an earlier run.

    Args:
        data: the parsed record.

    Returns:
        The Record; keys beyond the core shape go back into ``extra``.

    Raises:
        ValueError: not a record (no ``source`` / ``status``).
    """
    if not isinstance(data, dict) or not isinstance(data.get("source"), str) or not isinstance(data.get("status"), str):
        raise ValueError("not a record: no source or status")
    core = {f.name for f in fields(Record)} - {"extra", "usage"}
    known = {k: data[k] for k in core if k in data}
    for key in ("errors", "warnings", "stop_token_ids"):
        if key in known:
            known[key] = tuple(known[key] or ())
    usage_keys = {f.name for f in fields(Usage)}
    usage = Usage(**{k: v for k, v in (data.get("usage") or {}).items() if k in usage_keys})
    extra = {k: v for k, v in data.items() if k not in core and k not in ("usage", "version")}
    if known["status"] in Status._value2member_map_:
        known["status"] = Status(known["status"])
    return Record(**known, usage=usage, extra=extra)


def record_schema() -> dict:
    """Return the JSON Schema every record's ``to_dict()`` satisfies (users validate our output with it)."""
    from extractor.schema import builtin_schema_dir

    return json.loads((builtin_schema_dir() / RECORD_SCHEMA).read_text(encoding="utf-8"))
