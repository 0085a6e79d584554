"""Calibrating the per-field confidence on the user's own reviewed records: the fit, its file, its reliability.

``extract calibrate OUT...`` (``tools.calibrate``) turns every field of every reviewed record into one example:
its features (``trust.confidence.features``, from the record's ``fields[pointer]``) and whether it was right (the
reviewer left it as it was: its normalised value equals the reviewed file's). :func:`fit` fits the fusion's logistic
regression on them: one model over every field (:data:`~extractor.trust.confidence.ANY_FIELD`), and one per field
type (``/line_items/*/amount``) that has at least :data:`MIN_TYPE_EXAMPLES` examples, both right and wrong ones;
the others use the one over every field. Plain numpy: Newton's method (IRLS) on standardised features with an L2
penalty of :data:`RIDGE` on the weights (not the bias), so a small or separable set still gives finite weights.

:func:`reliability` is what the command prints before and after: ECE (expected calibration error over
:data:`ECE_BINS` equal-width bins), AUROC (how well the confidence ranks right above wrong fields; None with one
class only) and the accuracy of the most confident 50 / 80 / 95 % of fields (what straight-through processing at
that coverage would get right). Measured on the examples the fit saw (in-sample): a first look, not a promise.

The file (:func:`write_calibration` / :func:`read_calibration`, JSON): ``{"format": "extractor-calibration",
"version": 1, "name", "features", "models": {field type: {"bias", "weights"}}, "report"}``. A file written before
the agreement features (``trust.confidence.OPTIONAL_FEATURES``) has no weights for them: they read as 0.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.trust.confidence import ANY_FIELD, FEATURES, OPTIONAL_FEATURES, Calibration, Fusion

FORMAT = "extractor-calibration"
VERSION = 1
MIN_TYPE_EXAMPLES = 20  # a field type with fewer examples (or one class only) uses the model over every field
RIDGE = 1.0
ECE_BINS = 10
COVERAGES = (0.5, 0.8, 0.95)


def fit_one(x: Sequence[Mapping[str, float]], y: Sequence[bool], *, ridge: float = RIDGE) -> Fusion:
    """Fit one logistic regression (IRLS, L2 on the weights) on feature dicts and right / wrong labels.

    The features are standardised for the fit (so the penalty weighs each alike, whatever its range: a
    probability feature that spans 0.05 is not penalised for needing a large weight) and the weights turned back
    to the raw features; a feature that never varies gets weight 0.
    """
    import numpy as np

    raw = np.array([[row[name] for name in FEATURES] for row in x], dtype=np.float64)
    mean, spread = raw.mean(axis=0), raw.std(axis=0)
    varies = spread > 1e-12
    z = np.where(varies, (raw - mean) / np.where(varies, spread, 1.0), 0.0)
    a = np.hstack([np.ones((len(z), 1)), z])
    t = np.array([1.0 if v else 0.0 for v in y])
    penalty = np.eye(a.shape[1]) * ridge
    penalty[0, 0] = 1e-6  # the bias is (almost) free
    w = np.zeros(a.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -50, 50)))
        gradient = a.T @ (p - t) + penalty @ w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    weights = np.where(varies, w[1:] / np.where(varies, spread, 1.0), 0.0)
    bias = float(w[0] - np.sum(weights * mean))
    return Fusion(bias=round(bias, 6), weights={n: round(float(v), 6) for n, v in zip(FEATURES, weights, strict=True)})


def fit(examples: Sequence[tuple[str, Mapping[str, float], bool]], *, name: str) -> Calibration:
    """Fit the fusion over every field and per field type (see the module docstring).

    Args:
        examples: ``(field type, features, right)`` per field.
        name: the calibration's name (records made with it say so).

    Raises:
        UsageError: no example, or no wrong (or no right) field at all: nothing to calibrate against.
    """
    labels = [right for _, _, right in examples]
    if not examples or all(labels) or not any(labels):
        raise UsageError(
            f"calibration needs right and wrong fields; the reviewed records give {labels.count(True)} right and "
            f"{labels.count(False)} wrong (review more records, correcting what is wrong)"
        )
    models = {ANY_FIELD: fit_one([x for _, x, _ in examples], labels)}
    kinds = sorted({kind for kind, _, _ in examples})
    for kind in kinds:
        own = [(x, right) for k, x, right in examples if k == kind]
        wrong = sum(1 for _, right in own if not right)
        if len(own) >= MIN_TYPE_EXAMPLES and 0 < wrong < len(own):
            models[kind] = fit_one([x for x, _ in own], [right for _, right in own])
    return Calibration(name=name, models=models)


def reliability(scores: Sequence[float], right: Sequence[bool]) -> dict[str, Any]:
    """ECE, AUROC and accuracy at coverage 50 / 80 / 95 % of confidences against right / wrong labels.

    Returns:
        ``{"fields", "accuracy", "ece", "auroc", "coverage": {"50": accuracy, "80": ..., "95": ...}}``.
    """
    n = len(scores)
    if n == 0:
        return {"fields": 0, "accuracy": None, "ece": None, "auroc": None, "coverage": {}}
    ece = 0.0
    for b in range(ECE_BINS):
        low, high = b / ECE_BINS, (b + 1) / ECE_BINS
        members = [i for i, s in enumerate(scores) if low <= s < high or (b == ECE_BINS - 1 and s == 1.0)]
        if members:
            mean = sum(scores[i] for i in members) / len(members)
            hit = sum(1 for i in members if right[i]) / len(members)
            ece += len(members) / n * abs(mean - hit)
    order = sorted(range(n), key=lambda i: -scores[i])
    coverage = {}
    for share in COVERAGES:
        top = order[: max(1, math.ceil(share * n))]
        coverage[str(round(share * 100))] = round(sum(1 for i in top if right[i]) / len(top), 4)
    return {
        "fields": n,
        "accuracy": round(sum(1 for r in right if r) / n, 4),
        "ece": round(ece, 4),
        "auroc": _auroc(scores, right),
        "coverage": coverage,
    }


def _auroc(scores: Sequence[float], right: Sequence[bool]) -> float | None:
    """The probability that a right field scores above a wrong one (ties count half); None with one class."""
    pos = [s for s, r in zip(scores, right, strict=True) if r]
    neg = [s for s, r in zip(scores, right, strict=True) if not r]
    if not pos or not neg:
        return None
    ranked = sorted(scores)
    # mid-ranks (1-based), ties averaged: the Mann-Whitney U statistic
    first: dict[float, int] = {}
    count: dict[float, int] = {}
    for i, s in enumerate(ranked):
        first.setdefault(s, i + 1)
        count[s] = count.get(s, 0) + 1
    rank_sum = sum(first[s] + (count[s] - 1) / 2 for s in pos)
    u = rank_sum - len(pos) * (len(pos) + 1) / 2
    return round(u / (len(pos) * len(neg)), 4)


def to_dict(calibration: Calibration) -> dict:
    """The calibration file's JSON (see the module docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": calibration.name,
        "features": list(FEATURES),
        "models": {kind: model.to_dict() for kind, model in calibration.models.items()},
        "report": dict(calibration.report),
    }


def write_calibration(path: Path, calibration: Calibration) -> None:
    """Write a calibration file atomically (a temporary file beside it, then renamed)."""
    path = Path(path)
    text = json.dumps(to_dict(calibration), ensure_ascii=False, indent=1) + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_calibration(path: str | Path) -> Calibration:
    """Read a calibration file (cached while the file is unchanged).

    Raises:
        UsageError: the file is missing, not JSON, or not a calibration file (naming the file and the reason).
    """
    try:
        info = os.stat(path)
    except OSError as exc:
        raise UsageError(f"calibration file {path}: {exc.strerror or exc}", source=str(path)) from exc
    return _read(str(path), info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=8)
def _read(path: str, _mtime: int, _size: int) -> Calibration:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"calibration file {path}: cannot read it as JSON ({exc})", source=path) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise UsageError(f"calibration file {path}: not an {FORMAT} file of version {VERSION}", source=path)
    models: dict[str, Fusion] = {}
    try:
        for kind, model in (data.get("models") or {}).items():
            given = model["weights"]
            weights = {  # a file written before the optional features: weight 0 for them
                name: float(given[name] if name in given or name not in OPTIONAL_FEATURES else 0.0) for name in FEATURES
            }
            models[str(kind)] = Fusion(bias=float(model["bias"]), weights=weights)
        name = str(data["name"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UsageError(f"calibration file {path}: a model lacks a bias or a weight ({exc})", source=path) from exc
    if ANY_FIELD not in models:
        raise UsageError(f"calibration file {path}: no model for every field ({ANY_FIELD!r})", source=path)
    return Calibration(name=name, models=models, report=data.get("report") or {})


__all__ = [
    "COVERAGES",
    "FORMAT",
    "MIN_TYPE_EXAMPLES",
    "fit",
    "fit_one",
    "read_calibration",
    "reliability",
    "to_dict",
    "write_calibration",
]
