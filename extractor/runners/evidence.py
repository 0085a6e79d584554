"""Per-token evidence from the decode loop: how sure the model was of each token it chose.

For every token of a generation the in-process loop (``runners.mlx.loop.Decoder``) records, from the model's
distribution **before the grammar mask** (after the request's logits processors, at temperature 1):

* ``logprob``: the log-probability of the token that was sampled (over the :data:`TOP_K` likeliest tokens);
* ``margin``: its logit minus the best other token's (the runner-up; negative when the sampled token was not the
  model's first choice, as sampling at a temperature, or a grammar that forbade the first choice, can make it);
* ``forced``: the grammar decided the token, not the model: fed by jump-forward, or the only token its mask
  allowed. A forced token carries no evidence (``logprob`` and ``margin`` are None) and never counts as any.

The work per sampled token is a few lazy mx reductions over the vocabulary, evaluated with the sampled token in the
one host transfer the step already makes (``EvidenceCollector.stats``); a forced-by-mask step is found on the host
from the packed bitmask the step already computed. Without evidence (``GenerationRequest.evidence`` False) none of it
runs. A server that returns ``logprobs`` fills the same fields (``runners.openai``); its logprobs are the server's
(usually after its own processing), and it cannot say which tokens its grammar forced.

``TokenEvidence.offsets`` places each token in the answer text (character offsets), so ``trust.evidence`` can map
tokens to the JSON values they spell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TokenEvidence:
    """One generation's per-token evidence, one entry per token of the answer text (the stop token excluded).

    Attributes:
        offsets: where each token starts in the answer text (characters; non-decreasing).
        logprob: the sampled token's log-probability before the mask (None where forced or unknown).
        margin: its logit minus the runner-up's (None where forced or unknown).
        forced: the grammar decided the token (jump-forward feed, or a one-token mask).
        source: ``loop`` (the in-process decode loop) or ``server`` (an OpenAI-compatible server's logprobs).
    """

    offsets: tuple[int, ...]
    logprob: tuple[float | None, ...]
    margin: tuple[float | None, ...]
    forced: tuple[bool, ...]
    source: str = "loop"

    def __post_init__(self) -> None:
        n = len(self.offsets)
        if not len(self.logprob) == len(self.margin) == len(self.forced) == n:
            raise ValueError("TokenEvidence: offsets, logprob, margin and forced must have one entry per token")


# The log-probability is taken over the model's TOP_K most likely tokens (and the sampled one): exact up to the
# mass of the rest of the vocabulary, which it leaves out (so it is an upper bound of the true probability; for a
# confident step the rest holds next to nothing). Why not over the whole vocabulary: mx.exp over 248k logits costs
# 3.7 ms per step on a CPU, the top 64 0.86 ms (bench/confidence.py).
TOP_K = 64


class EvidenceCollector:
    """Collects one generation's evidence, step by step, for the decode loop (see the module docstring)."""

    def __init__(self) -> None:
        self.logprob: list[float | None] = []
        self.margin: list[float | None] = []
        self.forced: list[bool] = []
        self.next_forced = False  # the mask of the coming step allowed one token only (``note_mask``)

    def note_mask(self, words) -> None:
        """Look at the packed bitmask (numpy int32, (1, W)) the next sampled token is drawn under: one allowed
        token means the grammar forces it (a few microseconds: the non-zero words are found by numpy)."""
        import numpy as np

        flat = words.reshape(-1)
        nonzero = np.flatnonzero(flat)
        if nonzero.size != 1:
            self.next_forced = False
            return
        word = int(flat[nonzero[0]]) & 0xFFFFFFFF
        self.next_forced = word & (word - 1) == 0

    @staticmethod
    def stats(raw, sampled):
        """Lazy (1, 3) float32: the sampled token id, its log-probability and its margin to the runner-up, from the
        (1, V) logits before the mask (see :data:`TOP_K`). Evaluated with the token in one host transfer
        (``take``)."""
        import mlx.core as mx

        raw = raw.astype(mx.float32)
        picked = mx.take_along_axis(raw, sampled.reshape(1, 1).astype(mx.int32), axis=-1)  # (1, 1)
        top = mx.sort(mx.topk(raw, TOP_K, axis=-1), axis=-1)  # (1, K) ascending
        first, second = top[:, -1:], top[:, -2:-1]
        other = mx.where(picked >= first, second, first)  # the best token that is not the sampled one
        outside = mx.where(picked < top[:, :1], picked, -float("inf"))  # the sampled token, when not in the top K
        logprob = picked - mx.logsumexp(mx.concatenate([top, outside], axis=-1), axis=-1, keepdims=True)
        return mx.concatenate([sampled.reshape(1, 1).astype(mx.float32), logprob, picked - other], axis=-1)

    def take(self, stats) -> int:
        """Evaluate a step's ``stats`` (the one host transfer), record the token's evidence, return the token."""
        token, logprob, margin = stats.tolist()[0]
        if self.next_forced:
            self.forced_tokens(1)
        else:
            self.logprob.append(float(logprob))
            self.margin.append(float(margin))
            self.forced.append(False)
        self.next_forced = False
        return int(token)

    def forced_tokens(self, count: int) -> None:
        """Record ``count`` tokens the grammar forced (jump-forward): no evidence."""
        self.logprob.extend([None] * count)
        self.margin.extend([None] * count)
        self.forced.extend([True] * count)

    def result(self, tokens: Sequence[int], *, text: str, piece: Callable[[int], str], decode) -> TokenEvidence:
        """The evidence of the finished generation, placed in its answer ``text`` (``token_offsets``).

        Args:
            tokens: the answer's tokens (the stop token excluded), as many as were recorded or fewer.
            text: the answer text.
            piece: token id -> its text alone.
            decode: token ids -> their text (the tokenizer's ``decode``).
        """
        n = len(tokens)
        return TokenEvidence(
            offsets=token_offsets(tokens, text=text, piece=piece, decode=decode),
            logprob=tuple(self.logprob[:n]),
            margin=tuple(self.margin[:n]),
            forced=tuple(self.forced[:n]),
        )


def token_offsets(tokens: Sequence[int], *, text: str, piece: Callable[[int], str], decode) -> tuple[int, ...]:
    """Where each token starts in ``text``: the pieces' lengths summed where the pieces spell the text (every token
    whole characters: the common case, free), else the length of each prefix's decode (a character split over
    tokens; one decode per token)."""
    offsets, at = [], 0
    for token in tokens:
        offsets.append(at)
        at += len(piece(token))
    if at == len(text) and "".join(piece(t) for t in tokens) == text:
        return tuple(offsets)
    out, seen = [], 0
    for i in range(len(tokens)):
        out.append(min(seen, len(text)))
        seen = len(decode(list(tokens[: i + 1])))
    return tuple(out)


__all__ = ["EvidenceCollector", "TokenEvidence", "token_offsets"]
