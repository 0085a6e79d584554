"""Per-token evidence from the decode loop: how sure the model was of each token it chose.

For every token of a generation the in-process loop (``runners.mlx.loop.Decoder``) records, from the model's
distribution **before the grammar mask** (after the request's logits processors, at temperature 1):

* ``logprob``: the log-probability of the token that was sampled;
* ``margin``: its logit minus the best other token's (the runner-up; negative when the sampled token was not the
  model's first choice, as sampling at a temperature, or a grammar that forbade the first choice, can make it);
* ``forced``: the grammar decided the token, not the model: fed by jump-forward, or the only token its mask
  allowed. A forced token carries no evidence (``logprob`` and ``margin`` are None) and never counts as any.

The work per sampled token is a few reductions over the vocabulary, evaluated with the sampled token in the one
synchronisation the step already makes (``EvidenceCollector.take``: mx on a GPU, numpy on the same memory on a CPU);
a forced-by-mask step is found on the host from the packed bitmask the step already computed. Without evidence
(``GenerationRequest.evidence`` False) none of it runs. The generic path (``runners.mlx.generic``: mlx-vlm's
``generate_step``) collects the same: its last logits processor keeps the logits before the mask, and our sampler
hands them with the sampled token to the collector. A server that returns ``logprobs`` fills the same fields
(``runners.openai``); its logprobs are the server's (usually before its own processing), and it cannot say which
tokens its grammar forced.

``TokenEvidence.offsets`` places each token in the answer text (character offsets), so ``trust.evidence`` can map
tokens to the JSON values they spell.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


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


WINDOW = 20.0  # nats: on the host, the log-partition sums the tokens within this of the best (see ``_host``)
MARGIN_CAP = 1000.0  # a runner-up at -inf (a processor that leaves one token) is reported this far behind


class EvidenceCollector:
    """Collects one generation's evidence, step by step, for the decode loop (see the module docstring).

    Two ways to the same numbers, chosen by where mlx computes: on a GPU, a few mx reductions over the logits
    (``logsumexp`` and ``topk(2)``), evaluated with the sampled token; on the CPU (where ``mx.exp`` over 248k logits
    costs ~3.7 ms and ``mx.topk`` ~1 ms a step) numpy on the same memory (zero-copy): the best logit, the tokens
    within :data:`WINDOW` nats of it (the rest of the vocabulary weighs at most 248k x e^-20 = 5e-4 of the
    partition: the log-probability is exact to that), and the runner-up among them.
    """

    def __init__(self) -> None:
        import mlx.core as mx

        self.logprob: list[float | None] = []
        self.margin: list[float | None] = []
        self.forced: list[bool] = []
        self.next_forced = False  # the mask of the coming step allowed one token only (``note_mask``)
        self.host = mx.default_device().type == mx.DeviceType.cpu
        # on the host: the last sampled token's logits, read by ``flush`` while the next forward pass runs
        self._pending: tuple[Any, int] | None = None

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

    def take(self, raw, sampled) -> int:
        """Evaluate the step (the sampled token with its evidence: the step's one synchronisation), record the
        token's evidence from the (1, V) logits before the mask, and return the token. On the host the evidence
        is read later, by :meth:`flush` (the loop calls it once the next forward pass is under way), in order."""
        self.flush()
        forced, self.next_forced = self.next_forced, False
        if forced:
            token = int(sampled.item())
            self.forced_tokens(1)
        elif self.host:
            raw, token = self._evaluated(raw, sampled)
            self._pending = (raw, token)
        else:
            token, logprob, margin = self._device(raw, sampled)
            self._record(logprob, margin)
        return token

    def flush(self) -> None:
        """Record the pending host step's evidence (a no-op without one)."""
        if self._pending is not None:
            raw, token = self._pending
            self._pending = None
            self._record(*self._host_stats(raw, token))

    def _record(self, logprob: float, margin: float) -> None:
        finite = math.isfinite(logprob)
        self.logprob.append(min(0.0, logprob) if finite else None)
        self.margin.append(max(-MARGIN_CAP, min(MARGIN_CAP, margin)) if finite else None)
        self.forced.append(False)

    @staticmethod
    def _device(raw, sampled) -> tuple[int, float, float]:
        import mlx.core as mx

        raw = raw.astype(mx.float32)
        picked = mx.take_along_axis(raw, sampled.reshape(1, 1).astype(mx.int32), axis=-1)  # (1, 1)
        top = mx.topk(raw, 2, axis=-1)  # (1, 2), unordered
        high, low = mx.max(top, axis=-1, keepdims=True), mx.min(top, axis=-1, keepdims=True)
        other = mx.where(picked >= high, low, high)  # the best token that is not the sampled one
        logprob = picked - mx.logsumexp(raw, axis=-1, keepdims=True)
        stats = mx.concatenate([sampled.reshape(1, 1).astype(mx.float32), logprob, picked - other], axis=-1)
        values: list = stats.reshape(-1).tolist()  # type: ignore[assignment]  # a (3,) array gives a list
        return int(values[0]), float(values[1]), float(values[2])

    @staticmethod
    def _evaluated(raw, sampled) -> tuple[Any, int]:
        """Evaluate the sampled token with the logits it was drawn from, those as float32 (so that reading them
        later needs no mx op, which would queue behind the next forward pass); both."""
        import mlx.core as mx

        if raw.dtype != mx.float32:
            raw = raw.astype(mx.float32)
        mx.eval(sampled, raw)
        return raw, int(sampled.item())

    @staticmethod
    def _host_stats(raw, token: int) -> tuple[float, float]:
        """``(logprob, margin)`` of ``token`` from the evaluated (1, V) logits, by numpy on their memory."""
        import numpy as np

        row = np.asarray(raw).reshape(-1)  # the same memory on the CPU (float32, evaluated: ``_evaluated``)
        best = float(row.max())
        picked = float(row[token])
        if not math.isfinite(best) or not math.isfinite(picked):
            return -math.inf, 0.0
        near = row[row >= best - WINDOW]
        logprob = picked - (best + math.log(float(np.exp(near - best).sum())))
        if picked < best:
            return logprob, picked - best
        if near.size >= 2:  # the runner-up is within the window (or ties the best)
            second = float(np.partition(near, near.size - 2)[near.size - 2])
        else:
            rest = row[row < best]
            second = float(rest.max()) if rest.size else -math.inf
        return logprob, picked - second if math.isfinite(second) else MARGIN_CAP

    def forced_tokens(self, count: int) -> None:
        """Record ``count`` tokens the grammar forced (jump-forward): no evidence."""
        self.flush()
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
        self.flush()
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
