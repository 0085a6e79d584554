"""Writing a tiny checkpoint's files: JSON configs, eos values, random parameters, float32 safetensors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from extractor.errors import UsageError

EosValue = int | Sequence[int] | None


def _eos_json(value: EosValue, what: str) -> int | list[int] | None:
    if value is None:
        return None
    if isinstance(value, (bool, str, bytes)):
        raise UsageError(f"{what}: expected a token id, a list of ids or None, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        ids = [int(v) for v in value]
    except (TypeError, ValueError):
        raise UsageError(f"{what}: expected a token id, a list of ids or None, got {value!r}") from None
    return ids


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _random_parameters(model, rng, *, skip: tuple[str, ...] = ()) -> list:
    """Numpy-drawn replacements for every randomly initialised parameter (deterministic per seed).

    mlx's own initialisers use its global PRNG; drawing here keeps the weights a function of ``seed`` alone and
    leaves the caller's mlx random state unseeded. Constant initialisations (norm weights, biases) are kept.
    """
    import mlx.core as mx
    import numpy as np
    from mlx.utils import tree_flatten

    out = []
    for name, value in tree_flatten(model.parameters()):
        if name in skip or not mx.issubdtype(value.dtype, mx.floating):
            continue
        if name.endswith("embed_tokens.weight"):  # too big to evaluate mlx's init just to measure it
            drawn = rng.standard_normal(value.shape, dtype=np.float32) / np.float32(np.sqrt(value.shape[-1]))
            out.append((name, mx.array(drawn)))
            continue
        arr = np.array(value.astype(mx.float32))
        low, high = float(arr.min()), float(arr.max())
        if low != high:
            out.append((name, mx.array(rng.uniform(low, high, size=value.shape).astype(np.float32))))
    return out


def _write_weights(model, path: Path) -> None:
    import mlx.core as mx
    from mlx.utils import tree_flatten

    weights = dict(tree_flatten(model.parameters()))  # float32 as built: bf16 matmuls are slow on CPUs
    mx.eval(weights)
    # mlx-native key names (language_model.model.*, vision_tower.*): mlx-vlm's sanitize() leaves them as they
    # are (no conv transpose, no +1 norm shift), so the saved weights are exactly the loaded ones.
    mx.save_safetensors(str(path / "model.safetensors"), weights, metadata={"format": "mlx"})
