"""The model's state after a prompt's shared prefix, kept per process and reused: the next document with the same
prefix prefills only its own tokens.

Every document's prompt starts with the same tokens up to its first image (``prompt.build_messages``: the system
text, the instruction and the schema come first). The runner prefills that prefix once, snapshots the model cache
(mlx-vlm's own per-layer ``prefix_cache_snapshot``: KV caches of the attention layers, conv and recurrent states of
the Gated-DeltaNet layers) and restores a copy for every later document. Exact: the state after the same tokens is
the same state. Keyed by the prefix token ids; a few entries (per schema), least recently used first out, and
bounded in bytes; it lives in the runner and goes with the model.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

DEFAULT_ENTRIES = 4  # schemas in use at once in one process
DEFAULT_MAX_BYTES = 2 * 1024**3
MIN_PREFIX_TOKENS = 16  # shorter prefixes are not worth a snapshot


class PrefixCache:
    """Snapshots of model caches, keyed by the token ids they were prefilled from. Not thread-safe: the runner
    calls it under its generation lock."""

    def __init__(self, *, entries: int = DEFAULT_ENTRIES, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        """Args: entries: snapshots kept at most; max_bytes: their total size at most."""
        self.entries = entries
        self.max_bytes = max_bytes
        self._snapshots: OrderedDict[tuple[int, ...], tuple[list, int]] = OrderedDict()

    def restore(self, key: Sequence[int], make_cache: Callable[[], list]) -> list | None:
        """A fresh model cache in the state after the prefix ``key``, or None when it is not kept.

        Args:
            key: the prefix token ids.
            make_cache: builds an empty model cache (``language_model.make_cache``).

        Returns:
            The cache (its own containers; the kept arrays are shared, never written in place), or None.
        """
        found = self._snapshots.get(tuple(key))
        if found is None:
            return None
        self._snapshots.move_to_end(tuple(key))
        cache = make_cache()
        for layer, payload in zip(cache, found[0], strict=False):
            layer.prefix_cache_restore(_containers(payload))
        return cache

    def keep(self, key: Sequence[int], cache: list) -> None:
        """Snapshot a model cache that has prefilled exactly the prefix ``key`` (arrays copied and evaluated)."""
        import mlx.core as mx

        payloads = [_detached(layer.prefix_cache_snapshot()) for layer in cache]
        arrays: list = []
        _arrays(payloads, arrays)
        mx.eval(arrays)
        size = sum(a.nbytes for a in arrays)
        if size > self.max_bytes:
            return
        self._snapshots[tuple(key)] = (payloads, size)
        self._snapshots.move_to_end(tuple(key))
        while len(self._snapshots) > self.entries or sum(s for _, s in self._snapshots.values()) > self.max_bytes:
            self._snapshots.popitem(last=False)

    def clear(self) -> None:
        """Drop every snapshot."""
        self._snapshots.clear()

    def __len__(self) -> int:
        return len(self._snapshots)


def _detached(tree: Any) -> Any:
    """Copy every mx array in a snapshot tree: caches write into their arrays in place."""
    import mlx.core as mx

    if isinstance(tree, mx.array):
        return mx.array(tree)
    return _map(tree, _detached)


def _containers(tree: Any) -> Any:
    """New lists / tuples / dicts around the same arrays: a restored cache replaces entries of its containers."""
    return _map(tree, _containers)


def _map(tree: Any, fn) -> Any:
    if isinstance(tree, list):
        return [fn(t) for t in tree]
    if isinstance(tree, tuple):
        return tuple(fn(t) for t in tree)
    if isinstance(tree, dict):
        return {k: fn(v) for k, v in tree.items()}
    return tree


def _arrays(tree: Any, out: list) -> None:
    import mlx.core as mx

    if isinstance(tree, mx.array):
        out.append(tree)
    elif isinstance(tree, (list, tuple)):
        for t in tree:
            _arrays(t, out)
    elif isinstance(tree, dict):
        for t in tree.values():
            _arrays(t, out)


__all__ = ["DEFAULT_ENTRIES", "DEFAULT_MAX_BYTES", "MIN_PREFIX_TOKENS", "PrefixCache"]
