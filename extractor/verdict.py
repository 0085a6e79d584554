"""Turn a generation, its parse and its validation into exactly one status (see ``record`` for the rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .parse import ParseResult
from .record import issue


@dataclass(frozen=True)
class Verdict:
    """Status, the data kept, and the errors / warnings explaining it."""

    status: str
    data: Any
    errors: tuple[dict, ...] = ()
    warnings: tuple[dict, ...] = ()


def decide(*, finish_reason: str, parsed: ParseResult, schema_errors: list[dict],
           guard: Optional[str] = None) -> Verdict:
    """Decide a record's status.

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
            return Verdict("runaway", None, (issue("runaway", f"guard {guard!r} stopped generation before the JSON "
                                                               "value closed"),))
        warnings.append(issue(f"guard_{guard}", f"guard {guard!r} cut generation after a complete answer"))
    if not parsed.found:
        return Verdict("invalid", None, (issue("no_json", parsed.error or "no JSON in the answer"),), tuple(warnings))
    if schema_errors:
        return Verdict("invalid", parsed.value, tuple(schema_errors), tuple(warnings))
    return Verdict("ok", parsed.value, (), tuple(warnings))


def _after_length(parsed: ParseResult, schema_errors: list[dict]) -> Verdict:
    if not parsed.found:
        return Verdict("truncated", None, (issue("truncated", "max_tokens reached before the JSON value closed "
                                                              "(raise --max-tokens)"),))
    # the answer closed, yet the model never emitted a stop token: keep the data, flag the waste
    errors = (issue("runaway", "the JSON closed but generation went on until max_tokens (the model's end token is "
                               "missing from the stop set? run `extract doctor`)"),) + tuple(schema_errors)
    return Verdict("runaway", parsed.value, errors)
