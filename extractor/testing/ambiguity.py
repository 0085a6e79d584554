"""Controlled ambiguity for a scripted model: chosen fields of its answer get a chosen logit margin.

A scripted model (:func:`~extractor.testing.qwen35.build_scripted_model`) is certain of every token (a logit margin
of 100 or more). :func:`ambiguous_fields` returns a logits processor that, at every token of the chosen values
the runtime samples, gives a *competitor* token the scripted token's logit minus the field's margin: the model's
distribution then holds the scripted token at ``p = 1 / (1 + exp(-margin))`` with a runner-up ``margin`` behind,
while what is sampled stays the script (the default competitor, ``<|vision_start|>``, is a special token no JSON
grammar ever allows, so the mask removes it: greedy or sampled, constrained decoding emits the same answer). Tokens
the runtime feeds (jump-forward) are never sampled, so never touched: a field's forced tokens stay evidence-free.

With ``flip=True`` the competitor at a token whose first byte is a letter or digit is instead a token the grammar
allows: that byte changed to the next of its kind (``2`` -> ``3``, ``R`` -> ``S``, ``z`` -> ``a``), as one byte
token. Greedy decoding still emits the script (the competitor is ``margin`` behind); sampling draws it with
``p = 1 / (1 + exp(margin / T))``, and then the processor steers the model on through the token's other bytes, one
byte token each, and back onto the script (the steered tokens lead by :data:`STEER` logits): the answer holds the
same value with one character changed, so its structure, and what the grammar feeds, stay as scripted. A grammar
that forbids the changed character (a date's day ``31`` -> ``41``) masks the competitor: no flip there. This is
the kit's model of "low-margin fields flip under sampling" for ``--passes 2`` (``pipeline.passes``).

This is what the per-field confidence tests and ``bench/confidence.py`` use to make low-margin fields on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from extractor.errors import UsageError
from extractor.testing.forcing import _backend, _byte_table
from extractor.testing.qwen35 import TinyModel
from extractor.testing.tokenizer import VISION_START

STEER = 200.0  # logits by which a steered token (back onto the script after a flip) leads the best other one


@dataclass(frozen=True)
class AmbiguousFields:
    """A logits processor (``(tokens, logits) -> logits``) giving the answer tokens in ``margins`` a runner-up.

    Attributes:
        answer_ids: the scripted answer's tokens (fed ones included).
        margins: answer token index -> the margin its sampled token gets.
        competitor: the runner-up token where ``flips`` has none.
        flips: answer token index -> (its grammar-allowed competitor, the byte tokens that spell the rest of the
            scripted token's bytes after the changed first byte); empty without ``flip``.
    """

    answer_ids: tuple[int, ...]
    margins: Mapping[int, float]
    competitor: int = VISION_START
    flips: Mapping[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)

    def __call__(self, tokens, logits):
        """Leave the logits as they are, except at a chosen token, and after a flip, while the answer is on its
        script (see the module docstring)."""
        import mlx.core as mx

        generated = tokens.tolist()[1:]
        place = self._place(generated)
        if place is None:
            return logits
        index, target, steered = place
        vocab = mx.arange(logits.shape[-1])
        if steered:
            logits = mx.where(vocab == target, mx.max(logits, axis=-1, keepdims=True) + STEER, logits)
        margin = self.margins.get(index) if target == self.answer_ids[index] else None
        if margin is None:
            return logits
        rival = self.flips[index][0] if index in self.flips else self.competitor
        return mx.where(vocab == rival, logits[:, target : target + 1] - margin, logits)

    def _place(self, generated: list[int]) -> tuple[int, int, bool] | None:
        """Where the answer so far is on the script: (the answer token index, the token due next, whether a flip
        came before, so it must be steered); None when it has left the script or ended."""
        at, flipped = 0, False
        for index, scripted in enumerate(self.answer_ids):
            if at == len(generated):
                return index, scripted, flipped
            if generated[at] == scripted:
                at += 1
                continue
            if index not in self.flips or generated[at] != self.flips[index][0]:
                return None
            flipped = True
            rest = self.flips[index][1]
            at += 1
            for byte_token in rest:
                if at == len(generated):
                    return index, byte_token, True
                if generated[at] != byte_token:
                    return None
                at += 1
        return None


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
    tiny: TinyModel, margins: Mapping[str, float], *, competitor: int = VISION_START, flip: bool = False
) -> AmbiguousFields:
    """A logits processor giving each value in ``margins`` (JSON pointer -> logit margin) that margin at every
    token of it the runtime samples (see the module docstring); ``flip``: with a competitor the grammar allows
    where the token starts with a letter or digit, so sampling can change the value.

    Raises:
        UsageError: a pointer that is not a value of the answer.
    """
    indexes = field_token_indexes(tiny)
    unknown = sorted(set(margins) - set(indexes))
    if unknown:
        raise UsageError(f"not values of the scripted answer: {', '.join(unknown)}", source=tiny.path)
    by_token = {i: float(margin) for pointer, margin in margins.items() for i in indexes[pointer]}
    flips = _flips(tiny, sorted(by_token)) if flip else {}
    return AmbiguousFields(answer_ids=tiny.answer_token_ids, margins=by_token, competitor=competitor, flips=flips)


def _flips(tiny: TinyModel, indexes: list[int]) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Each answer token (of ``indexes``) whose first byte is a letter or digit: the byte token of that byte's
    next of its kind, and the byte tokens of the token's other bytes."""
    table = _byte_table(_backend(tiny.path))
    single: dict[int, int] = {}
    for tid, data in sorted(table.items()):
        if len(data) == 1:
            single.setdefault(data[0], tid)
    out = {}
    for i in indexes:
        data = table[tiny.answer_token_ids[i]]
        if not data or not chr(data[0]).isascii() or not chr(data[0]).isalnum():
            continue
        first = chr(data[0])
        kind = "0123456789" if first.isdigit() else ("abcdefghijklmnopqrstuvwxyz" if first.islower() else None)
        kind = kind or "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        other = kind[(kind.index(first) + 1) % len(kind)].encode()[0]
        if other in single and all(b in single for b in data[1:]):
            out[i] = (single[other], tuple(single[b] for b in data[1:]))
    return out


__all__ = ["AmbiguousFields", "ambiguous_fields", "field_token_indexes"]
