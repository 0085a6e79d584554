"""The record: one per document, one documented JSON shape used by every output.

``status`` is decided in ``verdict`` (its docstring lists the statuses and their rules); this module only holds it.

``Record.extra`` holds the keys later steps add, in the JSON shape and in the order they were added (the record's
key order, which differs by path: a long document lists ``ocr`` after ``windows``, a one-prompt one before
``attempts``). The structured ones are typed here, built by their producers and read back through the record:
``AttemptReport`` (``attempts``, ``Record.attempts``), ``WindowReport`` (``windows``, ``Record.windows``) and
``Part`` with its ``ModelPage`` decisions (``part``, ``Record.part``). Each ``to_dict()`` is the JSON entry and
``from_dict()`` reads one back, so a record read from a file (``record_from_dict``) reads like a fresh one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any

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
    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, format_spec: str) -> str:
        return str.__format__(self, format_spec)


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
    decoding: dict | None = None

    def __add__(self, other: Usage) -> Usage:
        """The sum of two usages (counts added; ``decoding`` the later call's)."""
        counts = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self) if f.name != "decoding"}
        return Usage(**counts, decoding=other.decoding if other.decoding is not None else self.decoding)


def _usage_from(data: Mapping | None) -> Usage:
    """A Usage from its JSON shape (``asdict``), keys it does not know left out."""
    names = {f.name for f in fields(Usage)}
    return Usage(**{k: v for k, v in (data or {}).items() if k in names})


@dataclass(frozen=True)
class AttemptReport:
    """One attempt's entry in the record's ``attempts`` (``pipeline.retry``: the first, then each retry).

    Attributes:
        number: 1 for the first attempt.
        reason: the previous attempt's status that caused this one (None for the first).
        status: this attempt's own status (its answer's verdict).
        finish_reason: how its generation ended (``stop``, ``length``, ``guard``).
        generated_tokens: tokens it generated.
        max_tokens: its cap on generated tokens.
        errors: its errors' codes.
        pages: a long document's window (first and last page), None for a document read in one prompt.
    """

    number: int
    reason: str | None
    status: Status | str
    finish_reason: str | None
    generated_tokens: int
    max_tokens: int
    errors: tuple[str | None, ...] = ()
    pages: tuple[int, int] | None = None

    def to_dict(self) -> dict:
        """The JSON entry: ``{"number", "reason", "status", "finish_reason", "generated_tokens", "max_tokens",
        "errors"}``, and ``pages`` for a window's attempt."""
        out: dict[str, Any] = {
            "number": self.number,
            "reason": self.reason,
            "status": self.status,
            "finish_reason": self.finish_reason,
            "generated_tokens": self.generated_tokens,
            "max_tokens": self.max_tokens,
            "errors": list(self.errors),
        }
        if self.pages is not None:
            out["pages"] = list(self.pages)
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> AttemptReport:
        """Read an entry back (``to_dict``'s shape)."""
        pages = data.get("pages")
        return cls(
            number=data["number"],
            reason=data.get("reason"),
            status=data["status"],
            finish_reason=data.get("finish_reason"),
            generated_tokens=data.get("generated_tokens", 0),
            max_tokens=data.get("max_tokens", 0),
            errors=tuple(data.get("errors") or ()),
            pages=None if pages is None else (pages[0], pages[1]),
        )


@dataclass(frozen=True)
class WindowReport:
    """One page window's entry in a long document's ``windows`` (``pipeline.merge``).

    Attributes:
        pages: the window's first and last page (1-based).
        status: its answer's status.
        finish_reason: how its last attempt's generation ended.
        usage: its usage, over its attempts.
        attempts: how many attempts it took.
        retried: the statuses that caused each retry, in order.
        lines: how many line items its answer held (None when it gave no data).
        errors: its errors.
        kept: how many of its lines the merge kept (the rest repeated the window before); None when nothing was
            merged (a window failed).
    """

    pages: tuple[int, int]
    status: Status | str
    finish_reason: str | None
    usage: Usage
    attempts: int
    retried: tuple[str | None, ...] = ()
    lines: int | None = None
    errors: tuple[dict, ...] = ()
    kept: int | None = None

    def to_dict(self) -> dict:
        """The JSON entry: ``{"pages", "status", "finish_reason", "usage", "attempts", "retried", "lines",
        "errors"}``, and ``kept`` once merged."""
        out: dict[str, Any] = {
            "pages": list(self.pages),
            "status": self.status,
            "finish_reason": self.finish_reason,
            "usage": asdict(self.usage),
            "attempts": self.attempts,
            "retried": list(self.retried),
            "lines": self.lines,
            "errors": list(self.errors),
        }
        if self.kept is not None:
            out["kept"] = self.kept
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> WindowReport:
        """Read an entry back (``to_dict``'s shape)."""
        first, last = data["pages"]
        return cls(
            pages=(first, last),
            status=data["status"],
            finish_reason=data.get("finish_reason"),
            usage=_usage_from(data.get("usage")),
            attempts=data.get("attempts", 0),
            retried=tuple(data.get("retried") or ()),
            lines=data.get("lines"),
            errors=tuple(data.get("errors") or ()),
            kept=data.get("kept"),
        )


@dataclass(frozen=True)
class ModelPage:
    """A page of a file of several invoices whose boundary the model decided (``pipeline.split``).

    Attributes:
        page: the page number (1-based).
        new_invoice: whether it starts a new invoice.
        reason: why the text was unsure of it (``no_signal``, ``conflict``).
    """

    page: int
    new_invoice: bool
    reason: str

    def to_dict(self) -> dict:
        """The JSON entry: ``{"page", "new_invoice", "reason"}``."""
        return {"page": self.page, "new_invoice": self.new_invoice, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: Mapping) -> ModelPage:
        """Read an entry back (``to_dict``'s shape)."""
        return cls(page=data["page"], new_invoice=data["new_invoice"], reason=data["reason"])


@dataclass(frozen=True)
class Part:
    """Which invoice of a file that holds several a record is (``pipeline.split``, the record's ``part``).

    Attributes:
        index: its number among the file's invoices (1-based).
        of: how many invoices the file holds.
        pages: its first and last page (1-based).
        ocr_pages: its pages whose split signals came from OCR text.
        model_pages: its pages whose boundary the model decided.
    """

    index: int
    of: int
    pages: tuple[int, int]
    ocr_pages: tuple[int, ...] = ()
    model_pages: tuple[ModelPage, ...] = ()

    def to_dict(self) -> dict:
        """The JSON entry: ``{"index", "of", "pages": [first, last]}``, with ``ocr_pages`` and ``model_pages`` only
        when there are any."""
        out: dict[str, Any] = {"index": self.index, "of": self.of, "pages": list(self.pages)}
        if self.ocr_pages:
            out["ocr_pages"] = list(self.ocr_pages)
        if self.model_pages:
            out["model_pages"] = [m.to_dict() for m in self.model_pages]
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> Part:
        """Read an entry back (``to_dict``'s shape)."""
        first, last = data["pages"]
        return cls(
            index=data["index"],
            of=data["of"],
            pages=(first, last),
            ocr_pages=tuple(data.get("ocr_pages") or ()),
            model_pages=tuple(ModelPage.from_dict(m) for m in data.get("model_pages") or ()),
        )


@dataclass(frozen=True)
class Record:
    """The result for one document. ``to_dict()`` is the documented JSON shape.

    ``parsed`` is not part of it: a typed read of ``data`` (an instance of the Pydantic model the ``Extractor``
    was given as its schema, when the record is ok or review; else None), set by the API, never serialized.
    """

    source: str
    status: Status | str
    sha256: str = ""
    pages: int = 0
    model: str = ""
    schema: str = ""
    data: Any = None
    errors: tuple[dict, ...] = ()
    warnings: tuple[dict, ...] = ()
    finish_reason: str | None = None
    stop_token_id: int | None = None
    stop_token_ids: tuple[int, ...] = ()
    guard: str | None = None
    usage: Usage = field(default_factory=Usage)
    timings: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # later steps (checks, grounding, attempts, constraints) report here
    # the Pydantic model instance of ``data`` (``api``); not in to_dict(), so the JSON is the same with or without
    parsed: Any = field(default=None, compare=False, repr=False)
    # the bytes of the files ``extra["embedded"]["attachments"]`` names, in its order (``--einvoice-attachments``),
    # for the sink to write beside the record; never serialized (not in to_dict())
    attachments: tuple[bytes, ...] = field(default=(), compare=False, repr=False)

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

    @property
    def attempts(self) -> tuple[AttemptReport, ...]:
        """The attempts the answer took (``extra["attempts"]``; empty when no model ran)."""
        return tuple(AttemptReport.from_dict(a) for a in self.extra.get("attempts") or ())

    @property
    def windows(self) -> tuple[WindowReport, ...]:
        """A long document's page windows (``extra["windows"]``; empty for a document read in one prompt)."""
        return tuple(WindowReport.from_dict(w) for w in self.extra.get("windows") or ())

    @property
    def part(self) -> Part | None:
        """Which invoice of a file of several this record is (``extra["part"]``), or None."""
        part = self.extra.get("part")
        return Part.from_dict(part) if isinstance(part, Mapping) else None

    @property
    def fingerprint(self) -> str | None:
        """The fingerprint of the settings that shaped the record (``extra["fingerprint"]``), or None."""
        return self.extra.get("fingerprint")

    def citations(self, pointer: str) -> list[dict]:
        """Where the value at a JSON pointer of ``data`` sits on its pages (``fields[pointer].citations``, the best
        first: ``{"page", "box", "page_size", "text", "source", ...}``; docs/records.md); ``[]`` when it is on no
        page, or the record has no such field.

        Example: ``record.citations("/total")[0]["box"]`` is ``[x0, y0, x1, y1]``, 0-1 from the page's top left.
        """
        fields = self.extra.get("fields")
        entry = fields.get(pointer) if isinstance(fields, Mapping) else None
        return [dict(c) for c in entry.get("citations") or ()] if isinstance(entry, Mapping) else []

    def to_json(self, *, indent: int | None = 2) -> str:
        """Return the record as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


def issue(code: str, message: str, path: str | None = None, *, rule: str | None = None) -> dict:
    """Build an error / warning entry: ``{"code", "message"[, "path"][, "rule"]}``.

    Args:
        code: a stable machine-readable code.
        message: plain words for a person.
        path: a JSON pointer into ``data``, when the issue is about one field.
        rule: the EN 16931 business rule the finding is (``BR-CO-15``), when it is one.

    Returns:
        The entry dict.
    """
    entry = {"code": code, "message": message}
    if path is not None:
        entry["path"] = path
    if rule is not None:
        entry["rule"] = rule
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
    core = {f.name for f in fields(Record)} - {"extra", "usage", "parsed", "attachments"}
    known = {k: data[k] for k in core if k in data}
    for key in ("errors", "warnings", "stop_token_ids"):
        if key in known:
            known[key] = tuple(known[key] or ())
    usage = _usage_from(data.get("usage"))
    extra = {k: v for k, v in data.items() if k not in core and k not in ("usage", "version")}
    if known["status"] in Status._value2member_map_:
        known["status"] = Status(known["status"])
    return Record(**known, usage=usage, extra=extra)


def record_schema() -> dict:
    """Return the JSON Schema every record's ``to_dict()`` satisfies (users validate our output with it)."""
    from extractor.schema import builtin_schema_dir

    return json.loads((builtin_schema_dir() / RECORD_SCHEMA).read_text(encoding="utf-8"))
