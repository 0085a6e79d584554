"""Find the answer in a model's text: the first complete JSON value, and what trailed it.

Models wrap JSON in code fences, think aloud in ``<think>`` blocks or start with prose; we skip all of that and
take the first value that parses. A value that starts but never closes is reported as incomplete, which the verdict
turns into ``truncated`` when generation hit max_tokens.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from extractor.runners.guards import JsonCloseTracker

_THINK = re.compile(r"<think>.*?</think>", re.S)
_OPEN_THINK = re.compile(r"<think>(?!.*</think>).*\Z", re.S)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class ParseResult:
    """The outcome of looking for JSON in a text.

    Attributes:
        value: the parsed JSON value (None when none was found; check ``found``).
        found: a complete JSON value was parsed.
        started: some ``{`` or ``[`` was seen (an answer began).
        closed: the first started value's brackets balanced (even if it did not parse).
        trailing: the text after the parsed value (fences and whitespace stripped).
        error: why nothing parsed, in words.
    """

    value: Any = None
    found: bool = False
    started: bool = False
    closed: bool = False
    trailing: str = ""
    error: str | None = None


def strip_wrappers(text: str) -> str:
    """Remove ``<think>`` blocks (closed or left open) and Markdown code fences.

    Args:
        text: the raw model text.

    Returns:
        The text without them.
    """
    text = _THINK.sub("", text)
    text = _OPEN_THINK.sub("", text)
    return _FENCE.sub("", text)


def parse_answer(text: str) -> ParseResult:
    """Take the first complete JSON object or array from a model's answer.

    Args:
        text: the decoded answer (stop token already excluded).

    Returns:
        A ParseResult; ``found`` is False when no value parsed.
    """
    clean = strip_wrappers(text)
    starts = [m.start() for m in re.finditer(r"[{\[]", clean)]
    if not starts:
        return ParseResult(error="no JSON object in the answer")
    first_error, floor = None, 0
    for start in starts:
        if start < floor:  # inside a bracketed span that closed without parsing: not a value of its own
            continue
        try:
            value, end = _DECODER.raw_decode(clean, start)
        except json.JSONDecodeError as exc:
            tracker = JsonCloseTracker()
            tracker.feed(clean[start:])
            if tracker.closed_at is None:  # everything after is inside this unfinished value (a truncated answer)
                return ParseResult(started=True, error="the JSON value never closed")
            first_error = first_error or f"{exc.msg} at character {exc.pos}"
            floor = start + tracker.closed_at
            continue
        trailing = _FENCE.sub("", clean[end:]).strip()
        return ParseResult(value=value, found=True, started=True, closed=True, trailing=trailing)
    return ParseResult(started=True, closed=True, error=f"not valid JSON: {first_error}")
