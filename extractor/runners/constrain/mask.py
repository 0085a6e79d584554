"""Applying a token mask to the in-process runner's logits: plain ``mx`` ops, no Metal kernel.

mlx-vlm's JSON mode, outlines' MLX path and ``llguidance.mlx`` all apply the mask with ``mx.fast.metal_kernel``,
which fails off the Mac ("No Metal back-end"); here llguidance's packed bitmask is unpacked with shifts into
``±inf`` bounds and applied with ``mx.minimum`` (:func:`apply_bitmask`), which runs on CPU, CUDA and Metal alike.
Only the mlx runners use it; mlx is imported inside the function.

The decode loop applies masks through :class:`BoundCache` (:func:`mask_bound`, then :func:`apply_bound`): a mask
seen again (inside a string or a number the grammar's mask stays the same for many tokens) reuses its bounds, so
the step pays one ``mx.minimum`` (~0.2 ms at 248k tokens) instead of unpacking the bits again (~0.5 ms more).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

_BIT_TO_SIGN = None  # left shifts that move bit j of a word to bit 31
BOUND_CACHE_SIZE = 16  # masks' bounds kept (each 4 bytes per token: 1 MB at 248k tokens)


def apply_bitmask(logits, bitmask):
    """Set every token whose bit is 0 to ``-inf``, keep the others bit for bit (plain mx ops, no kernel).

    Each token's bit is shifted into the sign bit of a float32 ``-inf`` pattern, giving ``+inf`` where allowed and
    ``-inf`` where not; ``min(logit, +inf)`` keeps a logit exactly (even ``-0.0``), ``min(logit, -inf)`` is
    ``-inf``. On CPU this costs ~0.6 ms at 248k tokens, ``mx.where`` ~1.7 ms.

    Args:
        logits: mx array (B, V).
        bitmask: mx int32 array (B, W), bit j of word w allows token 32 w + j (llguidance's layout). Tokens at
            or beyond 32 W are disallowed, as in ``llguidance.numpy.apply_token_bitmask_inplace``.

    Returns:
        A new mx array (B, V) with the same dtype.
    """
    return apply_bound(logits, _bound(bitmask))


def _bound(bitmask):
    """The (B, 32 W) float32 bounds of a packed bitmask: ``+inf`` where a token is allowed, ``-inf`` elsewhere."""
    import mlx.core as mx

    global _BIT_TO_SIGN
    if _BIT_TO_SIGN is None:
        _BIT_TO_SIGN = mx.array([31 - j for j in range(32)], dtype=mx.uint32)
    sign = (bitmask.astype(mx.uint32)[:, :, None] << _BIT_TO_SIGN) & 0x80000000
    return (sign ^ 0xFF800000).reshape(bitmask.shape[0], -1).view(mx.float32)  # 0xFF800000 is -inf, 0x7F800000 +inf


def apply_bound(logits, bound):
    """``min(logits, bound)`` over the logits' width (bounds past it dropped; tokens past the bounds disallowed),
    in the logits' dtype: every allowed logit kept bit for bit, every other ``-inf``."""
    import mlx.core as mx

    batch, vocab = logits.shape
    if bound.shape[1] >= vocab:
        bound = bound[:, :vocab]
    else:
        bound = mx.concatenate([bound, mx.full((batch, vocab - bound.shape[1]), -float("inf"))], axis=1)
    if bound.dtype != logits.dtype:
        bound = bound.astype(logits.dtype)  # +-inf are exact in every float type
    return mx.minimum(logits, bound)


class BoundCache:
    """The bounds of the last :data:`BOUND_CACHE_SIZE` distinct masks, by their exact bits (thread-safe)."""

    def __init__(self, size: int = BOUND_CACHE_SIZE) -> None:
        self._size = size
        self._bounds: OrderedDict[bytes, object] = OrderedDict()
        self._lock = threading.Lock()

    def bound(self, words):
        """The bounds (mx float32 (1, 32 W), lazy the first time) of a packed bitmask (numpy int32 (1, W)); the
        caller may overwrite ``words`` afterwards."""
        import mlx.core as mx

        key = words.tobytes()
        with self._lock:
            found = self._bounds.get(key)
            if found is not None:
                self._bounds.move_to_end(key)
                return found
        made = _bound(mx.array(words))
        with self._lock:
            self._bounds[key] = made
            while len(self._bounds) > self._size:
                self._bounds.popitem(last=False)
        return made


_BOUNDS = BoundCache()


def mask_bound(words):
    """The process's cached bounds of a packed bitmask (:class:`BoundCache`), for :func:`apply_bound`."""
    return _BOUNDS.bound(words)


__all__ = ["BOUND_CACHE_SIZE", "BoundCache", "apply_bitmask", "apply_bound", "mask_bound"]
