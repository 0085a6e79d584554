"""Retries: ask the model again when an answer failed in a way a second attempt can fix.

After each attempt, :func:`next_attempt` decides from its status whether another one runs and how it differs:

``invalid``
    Re-ask once, with the problems (the schema errors with their JSON pointers, or why no JSON was found) as
    feedback in the prompt (``prompt.build_messages(feedback=...)``).
``truncated``
    Retry with ``max_tokens`` doubled, up to :data:`CAP_FACTOR` x the first attempt's (``--max-tokens 2048``: 4096,
    then 8192). Greedy decoding repeats the same tokens, so the longer attempt continues where the short one stopped.
``runaway``
    Retry once with the guards tightened (:func:`tighten`: a shorter grace after the JSON closes, loops caught after
    fewer repeats and tokens) and feedback saying the answer did not end. Only when at least one guard is on: with
    every guard switched off (a diagnosis run) nothing would differ.

``retries`` bounds the total number of retries (``--retries N``; 0: one attempt). ``ok``, ``review`` and ``error``
are never retried (the watcher retries model errors itself). Feedback and guards carry over to later attempts.

:func:`run_with_retries` runs the attempts and returns the last attempt's record (the final answer) with every
attempt listed in ``extra["attempts"]`` (``record.AttemptReport``: ``{"number", "reason", "status", "finish_reason",
"generated_tokens", "max_tokens", "errors"}``; ``reason`` is the status that caused the retry, None for the first)
and ``usage`` and the ``prefill_s`` / ``decode_s`` timings summed over all attempts (what the document really cost).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from extractor.record import AttemptReport, Record, Usage
from extractor.runners.guards import GuardSettings
from extractor.trust.verdict import INVALID, RETRYABLE, RUNAWAY, TRUNCATED

CAP_FACTOR = 4  # truncated answers grow up to 4x the first max_tokens
MAX_FEEDBACK = 12  # schema errors quoted in a retry's prompt; more would crowd out the instruction


@dataclass(frozen=True)
class Attempt:
    """How one attempt runs.

    Attributes:
        number: 1 for the first attempt.
        reason: the previous attempt's status that caused this one (None for the first).
        max_tokens: cap on generated tokens.
        guards: runaway guards and thresholds.
        feedback: problems with an earlier answer, for the prompt (empty on the first attempt).
    """

    number: int
    max_tokens: int
    guards: GuardSettings
    reason: str | None = None
    feedback: tuple[str, ...] = ()


def first_attempt(*, max_tokens: int, guards: GuardSettings) -> Attempt:
    """Return the first attempt for the user's settings.

    Args:
        max_tokens: the configured cap on generated tokens.
        guards: the configured guards.

    Returns:
        Attempt number 1.
    """
    return Attempt(number=1, max_tokens=max_tokens, guards=guards)


def next_attempt(
    history: Sequence[Attempt], *, status: str, errors: Sequence[dict], retries: int, guard: str | None = None
) -> Attempt | None:
    """Decide whether another attempt runs after the last one in ``history``, and how.

    Args:
        history: the attempts so far, in order (at least one).
        status: the last attempt's status.
        errors: the last attempt's errors (``{"code", "message"[, "path"]}``), quoted as feedback for ``invalid``.
        retries: the most retries allowed in total.
        guard: the guard that fired in the last attempt, if any (named in the feedback for ``runaway``).

    Returns:
        The next Attempt, or None when there is none: a status that is not retried, the retries used up, the
        retry for this status already made (``invalid``, ``runaway``), the token cap reached (``truncated``), or
        no guard on (``runaway``).
    """
    last = history[-1]
    if status not in RETRYABLE or len(history) > retries:
        return None
    reasons = {a.reason for a in history}
    number = last.number + 1  # every retry: the next number, and the status that caused it as its reason
    if status == INVALID:
        if INVALID in reasons:
            return None
        return dataclasses.replace(last, number=number, reason=status, feedback=invalid_feedback(errors))
    if status == TRUNCATED:
        cap = history[0].max_tokens * CAP_FACTOR
        if last.max_tokens >= cap:
            return None
        return dataclasses.replace(last, number=number, reason=status, max_tokens=min(cap, last.max_tokens * 2))
    if RUNAWAY in reasons or not last.guards.active:
        return None
    return dataclasses.replace(
        last, number=number, reason=status, guards=tighten(last.guards), feedback=runaway_feedback(guard)
    )


def invalid_feedback(errors: Sequence[dict]) -> tuple[str, ...]:
    """Turn an invalid answer's errors into feedback lines for the retry prompt.

    Args:
        errors: ``{"code", "message"[, "path"]}`` entries (schema errors carry a JSON pointer).

    Returns:
        One line per error (``/issue_date: '31.01.2026' is not a 'date'``), at most :data:`MAX_FEEDBACK` and a
        line counting the rest.
    """
    lines = []
    for e in errors[:MAX_FEEDBACK]:
        path = e.get("path")
        if e.get("code") == "no_json":
            lines.append(f"no JSON value was found in it ({e.get('message')})")
        elif path is not None:
            lines.append(f"{path or '(the whole value)'}: {e.get('message')}")
        else:
            lines.append(str(e.get("message")))
    if len(errors) > MAX_FEEDBACK:
        lines.append(f"... and {len(errors) - MAX_FEEDBACK} more schema errors")
    return tuple(lines)


def runaway_feedback(guard: str | None) -> tuple[str, ...]:
    """Return the feedback line for a retry after a runaway answer.

    Args:
        guard: the guard that stopped it (``loop``, ``end_marker``, ``json_closed``), or None when it ran until
            max_tokens.

    Returns:
        One line.
    """
    how = {"loop": "it repeated itself", "end_marker": "it wrote an end-of-turn marker as text"}.get(
        guard or "", "it did not stop after the JSON value"
    )
    return (f"{how}; write the JSON value once and stop right after its closing bracket",)


def tighten(guards: GuardSettings) -> GuardSettings:
    """Return stricter thresholds for a retry after a runaway answer (the guards switched on stay as they are).

    Args:
        guards: the thresholds of the attempt that ran away.

    Returns:
        Settings with at most 2 grace tokens after the JSON closes, loops caught after one repeat fewer (at least
        3) and over half the tokens (at least 6 outside strings, 24 inside one), whitespace runs at half the length
        (at least 4).
    """
    return dataclasses.replace(
        guards,
        json_grace_tokens=min(guards.json_grace_tokens, 2),
        loop_repeats=max(3, guards.loop_repeats - 1),
        loop_min_tokens=max(6, guards.loop_min_tokens // 2),
        string_loop_min_tokens=max(24, guards.string_loop_min_tokens // 2),
        whitespace_run_tokens=max(4, guards.whitespace_run_tokens // 2),
    )


def run_with_retries(
    generate: Callable[[Attempt], Record], *, max_tokens: int, guards: GuardSettings, retries: int
) -> Record:
    """Run attempts until one needs no retry or the retries are used up.

    Args:
        generate: runs one attempt and returns its record (the pipeline's generation step).
        max_tokens: the first attempt's cap on generated tokens.
        guards: the first attempt's guards.
        retries: the most retries (0: exactly one attempt).

    Returns:
        The last attempt's record, with ``extra["attempts"]`` and ``usage`` / ``prefill_s`` / ``decode_s`` summed
        over the attempts.
    """
    attempt: Attempt | None = first_attempt(max_tokens=max_tokens, guards=guards)
    history: list[Attempt] = []
    records: list[Record] = []
    while attempt is not None:
        record = generate(attempt)
        history.append(attempt)
        records.append(record)
        attempt = next_attempt(history, status=record.status, errors=record.errors, retries=retries, guard=record.guard)
    return combine(history, records)


def combine(history: Sequence[Attempt], records: Sequence[Record]) -> Record:
    """Build the final record from the attempts: the last record, with the attempts listed and the costs summed.

    Args:
        history: the attempts, in order.
        records: their records, in the same order.

    Returns:
        The Record.
    """
    final = records[-1]
    usage = functools.reduce(lambda a, b: a + b, (r.usage for r in records), Usage())
    timings = dict(final.timings)
    for key in ("prefill_s", "decode_s"):
        if key in timings:
            timings[key] = round(sum(r.timings.get(key, 0.0) for r in records), 4)
    return dataclasses.replace(
        final,
        usage=usage,
        timings=timings,
        extra={
            **final.extra,
            "attempts": [attempt_report(a, r).to_dict() for a, r in zip(history, records, strict=False)],
        },
    )


def attempt_report(attempt: Attempt, record: Record) -> AttemptReport:
    """Return one attempt's entry for ``extra["attempts"]``.

    Args:
        attempt: how it ran.
        record: what it gave.

    Returns:
        The AttemptReport; its ``errors`` are the error codes.
    """
    return AttemptReport(
        number=attempt.number,
        reason=attempt.reason,
        status=record.status,
        finish_reason=record.finish_reason,
        generated_tokens=record.usage.generated_tokens,
        max_tokens=attempt.max_tokens,
        errors=tuple(e.get("code") for e in record.errors),
    )
