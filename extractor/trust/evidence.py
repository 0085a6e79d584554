"""Token evidence mapped to the JSON values of an answer: ``fields[pointer]``'s token part.

The answer text is scanned once (:func:`value_spans`: every scalar of the first JSON value that parses as the
answer's, with its JSON pointer, as ``leaves.json_pointer`` writes it, and its character span, quotes included);
each value gets the tokens that overlap its span (a token such as ``":"Ac`` that starts in the key and ends in the
value counts for the value: it is where the value was decided). Over a value's *own* tokens, forced ones left out
(:mod:`extractor.runners.token_evidence`):

* ``p_min`` / ``p_mean``: the least and the mean probability of the sampled tokens;
* ``margin_first``: the logit margin to the runner-up at the first sampled token;
* ``tokens`` / ``forced_tokens``: how many tokens overlap the value, and how many of them the grammar forced.

A value whose every token was forced (an enum with one choice, a const) has ``p_min`` etc. null and
``forced_tokens == tokens``: the schema decided it. Without evidence (a server without logprobs, evidence off,
embedded XML) every one of these is null. The generic decoding path (``runners.mlx.generic``) collects the same
evidence as the fast loop; a long document's merged values keep the evidence of the window value each was taken
from (``pipeline.merge.merged_tokens``: the same tokens, exact).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from extractor.leaves import json_pointer
from extractor.runners.token_evidence import TokenEvidence

_WS = " \t\n\r"
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_DECODER = json.JSONDecoder()

EMPTY_TOKENS = {"p_min": None, "p_mean": None, "margin_first": None, "tokens": None, "forced_tokens": None}


def value_spans(text: str, value: Any) -> dict[str, tuple[int, int]]:
    """Every scalar of ``value`` (nulls included) as it is written in ``text``: pointer -> (start, end).

    The value is looked for where it starts (each ``{`` / ``[``, in order, whose JSON equals ``value``), as the
    parse found it; empty when it is not in the text as such (e.g. a merged long document's data).
    """
    for match in re.finditer(r"[{\[]", text):
        try:
            found, _ = _DECODER.raw_decode(text, match.start())
        except ValueError:
            continue
        if found == value:
            spans: dict[str, tuple[int, int]] = {}
            _scan(text, match.start(), (), spans)
            return spans
    return {}


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WS:
        at += 1
    return at


def _scan(text: str, at: int, parts: tuple, spans: dict) -> int:
    """Scan the JSON value at ``at`` (known to parse), recording scalars' spans; return the offset after it."""
    at = _skip(text, at)
    char = text[at]
    if char == "{":
        at = _skip(text, at + 1)
        if text[at] == "}":
            return at + 1
        while True:
            key, at = _DECODER.raw_decode(text, _skip(text, at))
            at = _skip(text, at) + 1  # the colon
            at = _skip(text, _scan(text, at, (*parts, key), spans))
            if text[at] == "}":
                return at + 1
            at += 1  # the comma
    if char == "[":
        at = _skip(text, at + 1)
        if text[at] == "]":
            return at + 1
        index = 0
        while True:
            at = _skip(text, _scan(text, at, (*parts, index), spans))
            index += 1
            if text[at] == "]":
                return at + 1
            at += 1
    if char == '"':
        _, end = _DECODER.raw_decode(text, at)
    elif char in "tfn":
        end = at + (4 if text.startswith(("true", "null"), at) else 5)
    else:
        number = _NUMBER.match(text, at)
        end = number.end() if number else at + 1
    spans[json_pointer(parts)] = (at, end)
    return end


def field_tokens(evidence: TokenEvidence | None, text: str, value: Any) -> dict[str, dict]:
    """Each scalar's token evidence (see the module docstring), by JSON pointer, in document order.

    Args:
        evidence: the generation's token evidence (None: every scalar's entries are null).
        text: the answer text the evidence's offsets point into.
        value: the parsed answer.

    Returns:
        ``{pointer: {"p_min", "p_mean", "margin_first", "tokens", "forced_tokens"}}``; empty when the value is
        not found in the text.
    """
    spans = value_spans(text, value)
    if evidence is None:
        return {pointer: dict(EMPTY_TOKENS) for pointer in spans}
    starts = evidence.offsets
    ends = [*starts[1:], len(text)]
    out: dict[str, dict] = {}
    first = 0  # tokens are in text order, so is the scan: one walk
    for pointer, (start, end) in spans.items():
        while first < len(starts) and ends[first] <= start:
            first += 1
        own = []
        i = first
        while i < len(starts) and starts[i] < end:
            if ends[i] > starts[i]:  # a token with no text of its own spells nothing
                own.append(i)
            i += 1
        out[pointer] = _summary(evidence, own)
    return out


def _summary(evidence: TokenEvidence, own: list[int]) -> dict:
    free = [i for i in own if not evidence.forced[i] and evidence.logprob[i] is not None]
    probs = [math.exp(evidence.logprob[i] or 0.0) for i in free]
    first_margin = evidence.margin[free[0]] if free else None
    return {
        "p_min": round(min(probs), 6) if probs else None,
        "p_mean": round(sum(probs) / len(probs), 6) if probs else None,
        "margin_first": None if first_margin is None else round(first_margin, 4),
        "tokens": len(own),
        "forced_tokens": sum(1 for i in own if evidence.forced[i]),
    }


__all__ = ["EMPTY_TOKENS", "field_tokens", "value_spans"]
