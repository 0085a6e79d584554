"""Every record status is decided here, and only here: a generation's verdict, an embedded e-invoice answer, the
windows' answer, the record's status from every signal, and error records (a test checks that no other module writes
a status).

Status, exactly one per record:
  ok         stopped cleanly (stop token, or a guard after a complete answer), parsed, schema-valid, checks passed
  review     valid JSON, but an invoice check (an EN 16931 business rule, mostly) failed, a key value is not
             grounded in the page text, a long document's merged lines do not add up, an e-invoice asked for
             (``--einvoice``) or the embedded XML an answer was read from fires a fatal EN 16931 rule, or a
             field's confidence is below its threshold (``--auto-accept`` / ``x-extractor-threshold``,
             ``trust.confidence``)
  invalid    complete JSON that breaks the schema, or no JSON at all
  truncated  hit max_tokens before the JSON value closed; no data
  runaway    the JSON closed, then generation went on until max_tokens (data kept, flagged), or a guard fired before
             the JSON closed
  error      the input could not be read, or the model failed
``finish_reason == "length"`` never yields ``ok``.

Two steps, each decided once:

1. **The answer's status** (``decide`` for one generation, which retries read; ``windowed_status`` for a document
   read in page windows; ``embedded_status`` for data read from embedded e-invoice XML).
2. **The record's status** (``record_status``), once every signal is in (``Signals``: the answer's status, the
   review's findings, the windows merge's findings). Review and merge only contribute findings; this decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from extractor.record import Record, Status, issue
from extractor.trust.parse import ParseResult

OK, REVIEW, INVALID, TRUNCATED, RUNAWAY, ERROR = (
    Status.OK,
    Status.REVIEW,
    Status.INVALID,
    Status.TRUNCATED,
    Status.RUNAWAY,
    Status.ERROR,
)
STATUSES = tuple(Status)
RETRYABLE = (INVALID, TRUNCATED, RUNAWAY)  # a second attempt can fix these (``retry``)
# Error codes that say nothing about the document itself: the same file may well succeed on another try.
TRANSIENT_ERROR_CODES = frozenset({"model_error", "timeout", "crashed", "internal"})


@dataclass(frozen=True)
class Verdict:
    """Status, the data kept, and the errors / warnings explaining it."""

    status: str
    data: Any
    errors: tuple[dict, ...] = ()
    warnings: tuple[dict, ...] = ()


def decide(*, finish_reason: str, parsed: ParseResult, schema_errors: list[dict], guard: str | None = None) -> Verdict:
    """Decide a generation's status.

    Args:
        finish_reason: ``stop``, ``length`` or ``guard``.
        parsed: the parse of the answer text.
        schema_errors: validation errors of ``parsed.value`` (empty when valid or nothing parsed).
        guard: the guard that fired, when finish_reason is ``guard``.

    Returns:
        The Verdict.
    """
    warnings = []
    if parsed.found and parsed.trailing and finish_reason == "stop":
        warnings.append(issue("trailing_text", f"text after the JSON value was ignored: {parsed.trailing[:80]!r}"))
    if finish_reason == "length":
        return _after_length(parsed, schema_errors)
    if finish_reason == "guard":
        if not parsed.found:
            return Verdict(
                RUNAWAY, None, (issue("runaway", f"guard {guard!r} stopped generation before the JSON value closed"),)
            )
        warnings.append(issue(f"guard_{guard}", f"guard {guard!r} cut generation after a complete answer"))
    if not parsed.found:
        return Verdict(INVALID, None, (issue("no_json", parsed.error or "no JSON in the answer"),), tuple(warnings))
    if schema_errors:
        return Verdict(INVALID, parsed.value, tuple(schema_errors), tuple(warnings))
    return Verdict(OK, parsed.value, (), tuple(warnings))


def _after_length(parsed: ParseResult, schema_errors: list[dict]) -> Verdict:
    if not parsed.found:
        return Verdict(
            TRUNCATED,
            None,
            (issue("truncated", "max_tokens reached before the JSON value closed (raise --max-tokens)"),),
        )
    # the answer closed, yet the model never emitted a stop token: keep the data, flag the waste
    errors = (
        issue(
            "runaway",
            "the JSON closed but generation went on until max_tokens (the model's end token is "
            "missing from the stop set? run `extract doctor`)",
        ),
    ) + tuple(schema_errors)
    return Verdict(RUNAWAY, parsed.value, errors)


def embedded_status(*, schema_errors: int = 0) -> str:
    """The status of an answer read from schema-valid embedded e-invoice XML, before review: the XML is the issuer's
    own data (exact, unless the official EN 16931 rules reject it: their fatal rules are ``Signals.einvoice``
    findings, which make it ``review``). A received XML (no pages, so no model to fall back on) that breaks the
    schema (``schema_errors``) is ``invalid``."""
    return INVALID if schema_errors else OK


def reviewed(status: str) -> bool:
    """Whether a record with this status gets checks and grounding (only answers that would be trusted do)."""
    return status == OK


def windowed_status(statuses: Sequence[str], *, schema_errors: int) -> str:
    """The status of a document read in page windows (``windows``): the first window's status that is not ``ok``
    (its answer is missing, so the document's is), else ``invalid`` when the merged data breaks the schema, else
    ``ok`` (review follows)."""
    failed = next((s for s in statuses if s != OK), None)
    if failed is not None:
        return failed
    return INVALID if schema_errors else OK


@dataclass(frozen=True)
class Signals:
    """Everything a record's status is decided from, gathered before it is decided (``record_status``).

    Attributes:
        answer: the answer's status (``decide``, ``windowed_status`` or ``embedded_status``).
        review: the review's findings (failed checks, ungrounded key fields; ``trust.review``); empty when every
            check passed, or when the answer was not reviewed (``reviewed``: only ``ok`` answers are).
        merge: the windows merge's findings (``window_lines`` / ``window_tax``, ``pipeline.merge``); empty for a
            document read in one prompt.
        einvoice: the e-invoice check's findings (a fatal EN 16931 rule that fired, or a format that could not be
            checked; ``einvoice.einvoice_report``, empty without ``--einvoice``), and those of the embedded XML an
            answer was read from (``einvoice.source_report``; ``Settings.embedded_rules``, on by default).
        confidence: the fields whose confidence is below their threshold (``low_confidence`` findings,
            ``trust.confidence.assess``); empty without thresholds.
    """

    answer: str
    review: tuple[dict, ...] = ()
    merge: tuple[dict, ...] = ()
    einvoice: tuple[dict, ...] = ()
    confidence: tuple[dict, ...] = ()


def record_status(signals: Signals) -> str:
    """Decide a record's status, once, from every signal.

    Decision table (the first row that holds decides):

    | answer     | review          | merge       | e-invoice   | confidence  | status              |
    |------------|-----------------|-------------|-------------|-------------|---------------------|
    | not ``ok`` | (not reviewed)  | (none)      | (none)      | any         | the answer's status |
    | ``ok``     | one or more     | any         | any         | any         | ``review``          |
    | ``ok``     | none            | one or more | any         | any         | ``review``          |
    | ``ok``     | none            | none        | one or more | any         | ``review``          |
    | ``ok``     | none            | none        | none        | one or more | ``review``          |
    | ``ok``     | none            | none        | none        | none        | ``ok``              |

    (Each column: that step's findings.)

    Args:
        signals: the answer's status and the findings of review, merge, the e-invoice check and the confidence
            thresholds.

    Returns:
        The record's status.
    """
    if not reviewed(signals.answer):
        return signals.answer  # its data is not trusted in the first place: nothing to review
    return REVIEW if signals.review or signals.merge or signals.einvoice or signals.confidence else OK


def trusted(records: Iterable[Record]) -> bool:
    """Whether every record is ``ok`` (the batch's exit code 0)."""
    return all(r.status == OK for r in records)


def final(record: Record) -> bool:
    """Whether a record's outcome would come out the same on another run with the same settings: anything but an
    ``error`` whose code says the failure was not the document's (a model error, a time-out, a crashed worker)."""
    if record.status != ERROR:
        return record.status in STATUSES
    return not any(e.get("code") in TRANSIENT_ERROR_CODES for e in record.errors[:1])


def error_record(
    *,
    source: str,
    code: str,
    message: str,
    sha256: str = "",
    model: str = "",
    schema: str = "",
    pages: int = 0,
    timings: dict | None = None,
    stop_token_ids: tuple[int, ...] = (),
) -> Record:
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
    return Record(
        source=source,
        status=ERROR,
        sha256=sha256,
        pages=pages,
        model=model,
        schema=schema,
        errors=(issue(code, message),),
        timings=dict(timings or {}),
        stop_token_ids=tuple(stop_token_ids),
    )


__all__ = [
    "ERROR",
    "INVALID",
    "OK",
    "RETRYABLE",
    "REVIEW",
    "RUNAWAY",
    "STATUSES",
    "TRANSIENT_ERROR_CODES",
    "TRUNCATED",
    "Signals",
    "Verdict",
    "decide",
    "embedded_status",
    "error_record",
    "final",
    "record_status",
    "reviewed",
    "trusted",
    "windowed_status",
]
