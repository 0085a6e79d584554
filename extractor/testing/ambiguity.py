"""Controlled ambiguity for a scripted model: chosen fields of its answer get a chosen logit margin.

A scripted model (:func:`~extractor.testing.qwen35.build_scripted_model`) is certain of every token (a logit margin
of 100 or more). :func:`ambiguous_fields` returns a logits processor that, at every token of the chosen values
the runtime samples, gives a *competitor* token the scripted token's logit minus the field's margin: the model's
distribution then holds the scripted token at ``p = 1 / (1 + exp(-margin))`` with a runner-up ``margin`` behind,
while what is sampled stays the script (the default competitor, ``<|vision_start|>``, is a special token no JSON
grammar ever allows, so the mask removes it: greedy or sampled, constrained decoding emits the same answer). Tokens
the runtime feeds (jump-forward) are never sampled, so never touched: a field's forced tokens stay evidence-free.

This is what the per-field confidence tests and ``bench/confidence.py`` use to make low-margin fields on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from extractor.errors import UsageError
from extractor.testing.forcing import _backend, _byte_table
from extractor.testing.qwen35 import TinyModel
from extractor.testing.tokenizer import VISION_START


@dataclass(frozen=True)
class AmbiguousFields:
    """A logits processor (``(tokens, logits) -> logits``) giving the answer tokens in ``margins`` a runner-up.

    Attributes:
        answer_ids: the scripted answer's tokens (fed ones included).
        margins: answer token index -> the margin its sampled token gets.
        competitor: the runner-up token.
    """

    answer_ids: tuple[int, ...]
    margins: Mapping[int, float]
    competitor: int = VISION_START

    def __call__(self, tokens, logits):
        """Leave the logits as they are, except at a chosen token while the answer is on its script."""
        import mlx.core as mx

        generated = tokens.tolist()[1:]
        margin = self.margins.get(len(generated))
        if margin is None or tuple(generated) != self.answer_ids[: len(generated)]:
            return logits
        target = self.answer_ids[len(generated)]
        hot = mx.arange(logits.shape[-1]) == self.competitor
        return mx.where(hot, logits[:, target : target + 1] - margin, logits)


def field_token_indexes(tiny: TinyModel) -> dict[str, tuple[int, ...]]:
    """Which of a scripted model's answer tokens spell each value of its answer (JSON pointer -> token indexes)."""
    from extractor.trust.evidence import value_spans

    if tiny.answer is None:
        raise UsageError("a random tiny model has no scripted answer", source=tiny.path)
    table = _byte_table(_backend(tiny.path))
    data = tiny.answer.encode("utf-8")
    char_at = {}  # byte offset -> character offset
    at = 0
    for i, letter in enumerate(tiny.answer):
        char_at[at] = i
        at += len(letter.encode("utf-8"))
    char_at[at] = len(tiny.answer)
    starts, at = [], 0
    for token in tiny.answer_token_ids:
        starts.append(at)
        at += len(table[token])
    if at != len(data):
        raise UsageError("the scripted answer's tokens do not spell its answer", source=tiny.path)
    ends = [*starts[1:], at]

    def char(offset: int) -> int:  # a token may end inside a character: its character counts
        while offset not in char_at:
            offset -= 1
        return char_at[offset]

    spans = value_spans(tiny.answer, json.loads(tiny.answer))
    return {
        pointer: tuple(i for i in range(len(starts)) if char(starts[i]) < end and char(ends[i] - 1) >= start)
        for pointer, (start, end) in spans.items()
    }


def ambiguous_fields(
    tiny: TinyModel, margins: Mapping[str, float], *, competitor: int = VISION_START
) -> AmbiguousFields:
    """A logits processor giving each value in ``margins`` (JSON pointer -> logit margin) that margin at every
    token of it the runtime samples (see the module docstring).

    Raises:
        UsageError: a pointer that is not a value of the answer.
    """
    indexes = field_token_indexes(tiny)
    unknown = sorted(set(margins) - set(indexes))
    if unknown:
        raise UsageError(f"not values of the scripted answer: {', '.join(unknown)}", source=tiny.path)
    by_token = {i: float(margin) for pointer, margin in margins.items() for i in indexes[pointer]}
    return AmbiguousFields(answer_ids=tiny.answer_token_ids, margins=by_token, competitor=competitor)


__all__ = ["AmbiguousFields", "ambiguous_fields", "field_token_indexes"]
