"""The batched layer pass: the sequences of a batch step that each feed one token go through the layers together.

``runners.batching`` runs the lm_head once per step over every sequence's last hidden state; this module does the
same for the layers, where a step's sequences each feed exactly one token (a sampled token with no forced tokens
after it, the common case): their caches are merged into mlx-vlm's batch caches (``KVCache.merge`` ->
``BatchKVCache``, left-padded with per-row offsets; ``ArraysCache.merge`` for the Gated-DeltaNet and conv states),
one forward pass of batch B runs over the B tokens, and each row's cache is extracted back (``extract(row)``). The
layer weights are read once for the B sequences instead of B times. A sequence that feeds several tokens
(jump-forward) keeps its own pass, as does one whose first pass carries the prompt's last embedding.

Per-row model call state: Qwen-style mRoPE models keep ``_rope_deltas`` per call (an image shifts the positions of
the text after it); the merged pass gets every row's deltas stacked (``rope_deltas=``), and the model adds them to
each row's own cache offset. A one-token decode pass leaves that state as it was, so every sequence keeps its own.

The merged caches stay merged across steps (``MergedRows``) while the same sequences, in the same order, feed one
token each: merging and extracting copy every cache (~28 ms for 4 sequences on the mid testing model, timed alone;
its merged step ran 5 % faster kept merged), so they run only when the set changes (a sequence joins, ends, or
feeds a forced run in its own pass). Exact where ``merged_reason``'s probe at load finds the merged pass's logits
equal to each sequence's alone, on fresh merged caches, on caches kept merged and on caches extracted and merged
again; elsewhere every sequence keeps its own pass and the records say why (``usage.decoding.reasons``).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from extractor.runners.mlx.loop import (
    make_cache,
    prefilled,
    probe_prompt,
    reset_call_state,
    restore_call_state,
    save_call_state,
)

MERGED_TOLERANCE = 1e-4  # max |difference| of float32 logits, a merged pass against each sequence alone
PROBE_TEXTS = ("Extract the invoice number.", "Extract the total of this document and its currency, please.")
PROBE_SIDE = 64  # px: the probe's blank page (a few vision tokens)
# merged passes compared: on fresh merged caches, on the same caches kept merged, on caches extracted and merged again
PROBE_STEPS = 3


def merged_reason(model, processor, forward, *, render, images: bool) -> str | None:
    """Why the merged layer pass would not be exact for this model, or None.

    Args:
        model: the mlx-vlm model.
        processor: its processor.
        forward: the runner's ``decode.Forward`` (its head can run apart from the layers: batching is on).
        render: renders a one-turn user prompt: ``render(text, images)``.
        images: the model takes images (one probe prompt then carries a page, so per-row positions differ).
    """
    layout = layout_reason(make_cache(forward.lm))
    if layout is not None:
        return layout
    try:
        gap = merged_gap(model, processor, forward, render=render, images=images)
    except Exception as exc:  # noqa: BLE001 - a model whose caches cannot be merged this way keeps its own passes
        return f"the merged pass failed: {type(exc).__name__}: {exc}"
    if gap > MERGED_TOLERANCE:
        return f"the merged pass differs from one sequence alone (max |dlogit| {gap:.3g})"
    return None


def layout_reason(cache: list) -> str | None:
    """Why these cache layers cannot be merged and extracted row by row, or None."""
    for entry in cache:
        merge = getattr(type(entry), "merge", None)
        if not callable(merge):
            return f"its {type(entry).__name__} cache cannot be merged"
    return None


def merged_gap(model, processor, forward, *, render, images: bool) -> float:
    """Max |difference| of the float32 logits of two prompts of different lengths (one with a page where the model
    takes images), each decoding ``PROBE_STEPS`` tokens alone against both merged (``MergedRows``: kept merged
    after the first step, extracted and merged again before the last)."""
    import mlx.core as mx

    rows = [
        _probe_row(model, processor, forward, text, render=render, page=images and i == 1)
        for i, text in enumerate(PROBE_TEXTS)
    ]
    lm, gap, group = forward.lm, 0.0, MergedRows()
    for step in range(PROBE_STEPS):
        tokens = [mx.array([[token + step]]) for token in (11, 13)]
        alone = []
        for row, ids in zip(rows, tokens, strict=False):
            restore_call_state(lm, row["state"])
            alone.append(forward.head(forward.hidden(ids, row["alone"].cache)).astype(mx.float32))
        if step == PROBE_STEPS - 1:
            group.release()
        hidden = group.hidden(forward, [row["merged"] for row in rows], tokens, [row["state"] for row in rows])
        stacked = forward.head(hidden).astype(mx.float32)
        gap = max(
            gap,
            *(
                float(mx.max(mx.abs(stacked[i] - alone[i].reshape(-1))).item())  # type: ignore[arg-type]  # mlx's stub types item() as int | float | complex; a float32 array's is a float
                for i in range(len(rows))
            ),
        )
    reset_call_state(lm)
    return gap


def _probe_row(model, processor, forward, text: str, *, render, page: bool) -> dict:
    """One probe prompt prefilled twice (a cache to decode alone, one to merge), its call state after the prompt."""
    from PIL import Image

    pages = (Image.new("RGB", (PROBE_SIDE, PROBE_SIDE), "white"),) if page else ()
    ids, embeddings, kwargs = probe_prompt(model, processor, render(text, len(pages)), pages)
    row: dict[str, Any] = {}
    for name in ("alone", "merged"):
        cache = prefilled(forward, ids, embeddings, kwargs)
        forward.hidden(ids[:, -1:], cache, embeddings=embeddings[:, -1:], kwargs=kwargs)
        # held as a decoder holds its cache (None while ``MergedRows`` holds its row)
        row[name], row["state"] = SimpleNamespace(cache=cache), save_call_state(forward.lm)
    return row


def mergeable(lm, feed, state: dict) -> bool:
    """Whether a sequence's next pass can join the merged one: one token id, no prompt embedding or prefill
    arguments, and (on a model with per-call mRoPE state) its rope deltas known."""
    ids, embeddings, kwargs = feed
    if ids.shape[1] != 1 or embeddings is not None or kwargs:
        return False
    return not hasattr(lm, "_rope_deltas") or state.get("_rope_deltas") is not None


class MergedRows:
    """The caches of the sequences that decoded merged last step, kept merged (one batch cache per layer).

    Each sequence is its decoder (anything with a ``cache`` attribute: its list of cache layers), whose ``cache`` is
    None while this holds its row. A step over the same decoders in the same order runs on the held caches; any
    other set is merged afresh after ``release`` gives every held row back to its decoder.
    """

    def __init__(self) -> None:
        self.decoders: list = []
        self.cache: list | None = None

    def holds(self, decoders: list) -> bool:
        """Whether these decoders, in this order, are the held rows."""
        return (
            self.cache is not None
            and len(decoders) == len(self.decoders)
            and all(a is b for a, b in zip(decoders, self.decoders, strict=False))
        )

    def hidden(self, forward, decoders: list, tokens: list, states: list):
        """One forward pass through the layers for B sequences that each feed one token.

        Args:
            forward: the runner's ``decode.Forward``.
            decoders: the sequences (their ``cache``: a list of layers, or None where this holds it), B of them.
            tokens: each sequence's (1, 1) token ids.
            states: each sequence's saved call state (``decode.save_call_state``).

        Returns:
            (B, H) hidden states for the head, lazy. The caches stay held; on an exception over freshly merged
            caches every decoder keeps its own, untouched (the exception is raised as it came).

        Raises:
            RowsLost: the pass failed on caches held from an earlier step (their state is unknown: those
                sequences cannot go on).
        """
        fresh = not self.holds(decoders)
        if fresh:
            self.release()
            merged = [type(layer[0]).merge(list(layer)) for layer in zip(*(d.cache for d in decoders), strict=False)]
        elif self.cache is None:
            raise RuntimeError("held rows without their merged caches")
        else:
            merged = self.cache
        try:
            hidden = _merged_forward(forward, merged, tokens, states)
        except Exception as exc:
            if fresh:
                raise  # the decoders' own caches were only read
            self.decoders, self.cache = [], None
            raise RowsLost(f"the merged pass failed: {type(exc).__name__}: {exc}") from exc
        if fresh:
            for decoder in decoders:
                decoder.cache = None  # one copy of each cache: the merged one
            self.decoders, self.cache = list(decoders), merged
        return hidden

    def release(self) -> None:
        """Give every held row's cache back to its decoder (extracted from the merged caches)."""
        cache = self.cache
        for row, decoder in enumerate(self.decoders):
            if cache is None:
                raise RuntimeError("held rows without their merged caches")
            decoder.cache = [entry.extract(row) for entry in cache]
        self.decoders, self.cache = [], None

    def clear(self) -> None:
        """Forget the held rows (every sequence they belong to is over)."""
        self.decoders, self.cache = [], None

    def arrays(self) -> list:
        """The held caches' arrays (to evaluate them with the step's logits)."""
        return cache_arrays(self.cache or [])


class RowsLost(RuntimeError):
    """A merged pass failed on caches kept merged from an earlier step: those sequences' caches are lost."""


def _merged_forward(forward, merged: list, tokens: list, states: list):
    import mlx.core as mx

    lm = forward.lm
    kwargs = {}
    deltas = [state.get("_rope_deltas") for state in states]
    if any(delta is not None for delta in deltas):
        kwargs["rope_deltas"] = mx.concatenate([delta.reshape(1, 1) for delta in deltas], axis=0)
    reset_call_state(lm)
    try:
        return forward.hidden(mx.concatenate(tokens, axis=0), merged, kwargs=kwargs)
    finally:
        reset_call_state(lm)  # the stacked deltas are no sequence's own


def cache_arrays(cache: list) -> list:
    """The arrays a sequence's cache holds (to evaluate them with the step's logits)."""
    import mlx.core as mx

    out: list = []
    for entry in cache:
        state = entry.state
        out.extend(a for a in (state if isinstance(state, (list, tuple)) else [state]) if isinstance(a, mx.array))
    return out
