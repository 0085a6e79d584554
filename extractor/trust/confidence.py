"""One confidence per field, fused from its evidence by a small logistic regression, and the thresholds on it.

**What it is.** For every scalar the record holds (``fields[pointer]``, :func:`assess`), a number in [0, 1]:
``sigmoid(bias + sum(weight_i * feature_i))`` over these features of the field's evidence:

==============  ===========================================================================================
``log_p_min``   ln of the least probability of the value's sampled tokens, floored at -:data:`LOG_FLOOR` and
                divided by it (0: certain, -1: p <= e^-10); 0 when every token was forced
``log_p_mean``  the same for the mean probability
``margin``      the logit margin to the runner-up at the value's first sampled token, clipped to +-10, / 10;
                1 when every token was forced
``grounded``    1 when the value was found in the page text (text layer or OCR)
``ungrounded``  1 when it was looked for and not found
``check_failed`` 1 when a failed check touches the field (its path, or a list item or object holding it); each
                such check is in ``fields[pointer].checks`` as ``{"code", "holds"[, "rule"]}``, ``rule`` the
                EN 16931 business rule it is (``BR-CO-15``; ``trust.checks``)
``no_evidence`` 1 when there are no token probabilities for it (a server without logprobs, evidence
                off)
``agreed``      1 when a second, sampled answer (``--passes 2``, ``pipeline.passes``) holds the same value
``disagreed``   1 when it holds another value or none (both 0 with one pass: ``agreement`` null)
``layout_read`` 1 when a supplier's learned layout read the value (the record's data is the layout's: exactly
                one candidate on the page, parsed by the learned format; ``pipeline.learned``); on a scan, OCR's
                confidence in its words (``ocr_confidence``) instead of 1
``layout_agreed`` 1 when the model read it and a learned layout read the same value (``fields[pointer].layout``);
                on a scan, OCR's confidence in its words
``layout_disagreed`` 1 when the layout read another value (the field is flagged with both)
==============  ===========================================================================================

The agreement features (:data:`OPTIONAL_FEATURES`) came later: a calibration file without their weights loads with
weight 0 for them, and a fit on records made with one pass gives them weight 0 (they never vary).

**The default weights** (:data:`DEFAULT_WEIGHTS`) are set by hand, **uncalibrated**: they order fields sensibly
(a forced or high-margin, grounded value 0.989, a grounded value whose least token had p = 0.5 about 0.88, one
with p = 0.01 about 0.03) but a 0.95 means "95 % right" only after calibration on the user's own reviewed records
(``extract calibrate``: :mod:`extractor.trust.calibration` fits the same model per field type and writes a file the
records then name). The record's ``confidence`` says which: ``{"calibration": name or "uncalibrated",
"threshold": the --auto-accept default or null, "below": [pointers under their threshold]}``.

**Thresholds** (straight-through processing): a field's threshold is its schema's ``x-extractor-threshold``
(``schema.field_thresholds``), else the ``--auto-accept`` default, else none. Each field under its threshold is a
``low_confidence`` finding; ``trust.verdict.record_status`` turns an ``ok`` answer with any into ``review``.

Data read from embedded e-invoice XML is exact, not generated: each field's confidence is 1 (``exact``), unless the
official EN 16931 rules reject that XML (the pipeline passes ``exact=False`` then: ``embedded.rules.fatal``).

What it does not mean: the model's own belief about the document (token probabilities are over spellings, before the
grammar mask), or anything about a field that is missing altogether (a value the model never wrote has no entry).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from extractor.leaves import field_path
from extractor.record import issue
from extractor.trust.evidence import EMPTY_TOKENS

# weight 0 where a calibration file has none (written before them)
OPTIONAL_FEATURES = ("agreed", "disagreed", "layout_read", "layout_agreed", "layout_disagreed")
FEATURES = (
    "log_p_min",
    "log_p_mean",
    "margin",
    "grounded",
    "ungrounded",
    "check_failed",
    "no_evidence",
    *OPTIONAL_FEATURES,
)
LOG_FLOOR = 10.0  # nats: a token probability below e^-10 counts as e^-10
MARGIN_CLIP = 10.0
UNCALIBRATED = "uncalibrated"
ANY_FIELD = "*"  # the calibration model every field type without its own uses


@dataclass(frozen=True)
class Fusion:
    """One logistic-regression model: ``sigmoid(bias + sum(weights[f] * x[f]))``."""

    bias: float
    weights: Mapping[str, float]

    def score(self, x: Mapping[str, float]) -> float:
        """The confidence of one field's features."""
        z = self.bias + sum(self.weights.get(name, 0.0) * x[name] for name in FEATURES)
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def to_dict(self) -> dict:
        """``{"bias", "weights": {feature: weight}}``."""
        return {"bias": self.bias, "weights": {name: self.weights.get(name, 0.0) for name in FEATURES}}


# Hand-set, uncalibrated (see the module docstring): certainty of the tokens weighs most, a failed check or an
# ungrounded value pulls down, no evidence at all is a mild doubt; a second answer that differs is a strong one
# (self-consistency), one that agrees a mild reassurance (greedy and sampled answers agree on most fields).
DEFAULT_WEIGHTS = Fusion(
    bias=2.0,
    weights={
        "log_p_min": 12.0,
        "log_p_mean": 2.0,
        "margin": 1.5,
        "grounded": 1.0,
        "ungrounded": -2.0,
        "check_failed": -3.0,
        "no_evidence": -1.0,
        "agreed": 0.5,
        "disagreed": -4.0,
        # a learned layout is an exact reading from a place a person confirmed: as strong as forced tokens
        "layout_read": 2.0,
        "layout_agreed": 2.0,
        "layout_disagreed": -4.0,
    },
)


@dataclass(frozen=True)
class Calibration:
    """A fitted fusion per field type (``extract calibrate``), and its name for the records.

    Attributes:
        name: what records made with it say in ``confidence.calibration``.
        models: field type (``/line_items/*/amount``) -> its model; :data:`ANY_FIELD` for every other field.
        report: what the fit measured (counts, before / after reliability), kept in the file for people.
    """

    name: str
    models: Mapping[str, Fusion]
    report: Mapping[str, Any] = field(default_factory=dict)

    def model_for(self, field_type: str) -> Fusion:
        """The model of a field type (its own, else :data:`ANY_FIELD`'s, else the default weights)."""
        return self.models.get(field_type) or self.models.get(ANY_FIELD) or DEFAULT_WEIGHTS


def features(entry: Mapping[str, Any]) -> dict[str, float]:
    """A field's features (see the module docstring) from its ``fields[pointer]`` entry (a stored record's too)."""
    tokens, forced = entry.get("tokens"), entry.get("forced_tokens")
    p_min, p_mean, margin = entry.get("p_min"), entry.get("p_mean"), entry.get("margin_first")
    all_forced = bool(tokens) and tokens == forced
    x = dict.fromkeys(FEATURES, 0.0)
    layout = entry.get("layout") or {}
    # a layout read from OCR words (a scan) is as sure as OCR was of them: its evidence scaled by their confidence
    words = ocr_confidence(entry)
    if entry.get("read_by") == "layout":
        x["layout_read"] = words  # no tokens: the layout's reading is the evidence, not an absence of it
    elif all_forced:
        x["margin"] = 1.0
    elif p_min is None or p_mean is None:
        x["no_evidence"] = 1.0
    else:
        x["log_p_min"] = max(math.log(max(p_min, 1e-300)), -LOG_FLOOR) / LOG_FLOOR
        x["log_p_mean"] = max(math.log(max(p_mean, 1e-300)), -LOG_FLOOR) / LOG_FLOOR
        if margin is not None:
            x["margin"] = max(-MARGIN_CLIP, min(MARGIN_CLIP, margin)) / MARGIN_CLIP
    grounding = entry.get("grounding") or {}
    x["grounded"] = 1.0 if grounding.get("grounded") is True else 0.0
    x["ungrounded"] = 1.0 if grounding.get("grounded") is False else 0.0
    x["check_failed"] = 1.0 if any(not c.get("holds", True) for c in entry.get("checks") or ()) else 0.0
    agreed = entry.get("agreement")
    x["agreed"] = 1.0 if agreed is True else 0.0
    x["disagreed"] = 1.0 if agreed is False else 0.0
    x["layout_agreed"] = words if layout.get("agrees") is True else 0.0
    x["layout_disagreed"] = 1.0 if layout.get("agrees") is False else 0.0
    return x


def ocr_confidence(entry: Mapping[str, Any]) -> float:
    """OCR's lowest confidence in the words a field is printed in (its ``citations`` read by OCR); 1.0 where none
    was read by OCR (a text layer's words are what the PDF says)."""
    read = [
        float(c["confidence"])
        for c in entry.get("citations") or ()
        if isinstance(c, Mapping) and c.get("source") == "ocr" and isinstance(c.get("confidence"), (int, float))
    ]
    return max(0.0, min(1.0, min(read))) if read else 1.0


def agreement(first: Any, second: Any) -> dict[str, bool]:
    """Each scalar of ``first`` (by JSON pointer, in document order): whether ``second`` holds the same value at
    its pointer, as JSON compares (12 and 12.0 agree, true and 1 do not); False where it holds another or none (a
    ``second`` of None holds none)."""
    out = {}
    for pointer, parts in scalars(first):
        mine, theirs = _at(first, parts), _at(second, parts)
        same = theirs == mine and isinstance(theirs, bool) == isinstance(mine, bool)  # 12 == 12.0, True != 1
        out[pointer] = theirs is not _ABSENT and same
    return out


_ABSENT = object()


def _at(data: Any, parts: tuple) -> Any:
    """The value at ``parts`` in JSON data, or :data:`_ABSENT`."""
    for part in parts:
        if isinstance(data, dict) and isinstance(part, str) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return _ABSENT
    return data


@dataclass(frozen=True)
class Assessment:
    """Every field's evidence and confidence, and the record's ``confidence`` entry.

    Attributes:
        fields: ``{pointer: {"p_min", "p_mean", "margin_first", "tokens", "forced_tokens", "grounding", "checks",
            "agreement", "citations", "confidence"}}``, in document order.
        summary: the record's ``confidence``: ``{"calibration", "threshold", "below"}``.
        findings: one ``low_confidence`` warning per field under its threshold (``trust.verdict.Signals``).
    """

    fields: dict[str, dict]
    summary: dict
    findings: tuple[dict, ...]

    def to_extra(self) -> dict:
        """The record's ``fields`` and ``confidence`` entries."""
        return {"fields": self.fields, "confidence": self.summary}


def assess(
    data: Any,
    *,
    tokens: Mapping[str, Mapping] | None,
    grounding: Mapping[str, Any] | None,
    checks: Sequence[Mapping],
    calibration: Calibration | None = None,
    threshold: float | None = None,
    field_thresholds: Mapping[str, float] | None = None,
    exact: bool = False,
    agreed: Mapping[str, bool] | None = None,
    citations: Mapping[str, list[dict]] | None = None,
    layout: Mapping[str, dict] | None = None,
    read_by_layout: bool = False,
) -> Assessment:
    """Fuse each field's evidence into its confidence and compare it with its threshold.

    Args:
        data: the record's data.
        tokens: the token part of each field (``trust.evidence.field_tokens``); None: no token evidence.
        grounding: the record's ``grounding`` entry (``GroundingReport.to_dict()``); None: not reviewed.
        checks: the failed checks (``{"code", "message", "path"}``).
        calibration: the fitted fusion; None: :data:`DEFAULT_WEIGHTS` (uncalibrated).
        threshold: the default threshold (``--auto-accept``); None: only the schema's thresholds apply.
        field_thresholds: the schema's per-field thresholds by field path (``schema.field_thresholds``).
        exact: the data was read, not generated (embedded e-invoice XML): every field's confidence is 1 (its
            checks still decide the status through review).
        agreed: each field's agreement with a second, sampled answer (``agreement``); None: one pass (null).
        citations: each field's citations (``trust.citations``: where it is on its page); a field without any
            (or every field, when None: not reviewed) has ``[]``.
        layout: per field, a learned layout's ``{"value", "agrees"}`` where the model read the document too
            (``fields[pointer].layout``); None: no layout was tried.
        read_by_layout: the data is a learned layout's (``layout_read``).

    Returns:
        The Assessment.
    """
    thresholds = dict(field_thresholds or {})
    default = thresholds.pop("", threshold)  # a threshold on the schema's root is every field's default
    verdicts = (grounding or {}).get("fields") or {}
    where = (grounding or {}).get("where") or {}
    out: dict[str, dict] = {}
    below: list[str] = []
    findings: list[dict] = []
    for pointer, parts in scalars(data):
        entry = dict((tokens or {}).get(pointer) or EMPTY_TOKENS)
        entry["grounding"] = _grounding(pointer, verdicts, where) if grounding is not None else None
        entry["checks"] = [
            {"code": c.get("code"), "holds": False, **({"rule": c["rule"]} if c.get("rule") else {})}
            for c in checks
            if _touches(str(c.get("path") or ""), pointer)
        ]
        entry["agreement"] = None if agreed is None else agreed.get(pointer, False)
        if layout is not None and pointer in layout:
            entry["layout"] = dict(layout[pointer])
        entry["citations"] = list((citations or {}).get(pointer) or ())
        kind = field_path(parts)
        model = calibration.model_for(kind) if calibration is not None else DEFAULT_WEIGHTS
        shown = {**entry, "read_by": "layout"} if read_by_layout else entry
        entry["confidence"] = 1.0 if exact else round(model.score(features(shown)), 4)
        out[pointer] = entry
        limit = thresholds.get(kind, default)
        if limit is not None and entry["confidence"] < limit:
            below.append(pointer)
            findings.append(
                issue(
                    "low_confidence",
                    f"{pointer}: confidence {entry['confidence']:.3f} is below its threshold {limit:g}",
                    pointer,
                )
            )
    summary = {
        "calibration": calibration.name if calibration is not None else UNCALIBRATED,
        "threshold": threshold,
        "below": below,
    }
    return Assessment(fields=out, summary=summary, findings=tuple(findings))


def scalars(data: Any, parts: tuple = ()):
    """Every scalar of JSON data, nulls and empty strings included (the model wrote them), with its pointer and
    parts, in document order."""
    from extractor.leaves import json_pointer

    if isinstance(data, dict):
        for key, value in data.items():
            yield from scalars(value, (*parts, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from scalars(value, (*parts, index))
    elif parts:
        yield json_pointer(parts), parts


def _grounding(pointer: str, verdicts: Mapping, where: Mapping) -> dict:
    """A field's grounding: ``{"grounded": true / false / null, "page", "source", "box", "confidence"}``."""
    found = where.get(pointer) or {}
    return {
        "grounded": verdicts.get(pointer),
        "page": found.get("page"),
        "source": found.get("source"),
        "box": found.get("box"),
        "ocr_confidence": found.get("confidence"),
    }


def _touches(path: str, pointer: str) -> bool:
    """Whether a finding at ``path`` is about the field at ``pointer`` (the field itself, or what holds it)."""
    return bool(path) and (pointer == path or pointer.startswith(path + "/"))


__all__ = [
    "ANY_FIELD",
    "DEFAULT_WEIGHTS",
    "FEATURES",
    "OPTIONAL_FEATURES",
    "UNCALIBRATED",
    "Assessment",
    "Calibration",
    "Fusion",
    "agreement",
    "assess",
    "features",
    "scalars",
]
