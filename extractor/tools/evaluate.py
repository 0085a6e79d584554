"""``extract eval PRED GOLD``: field-level precision / recall / F1 and nTED accuracy against ground truth.

Either side is a JSON file or a directory of them, holding our records (the ``data`` is compared) or plain JSON.
Documents are matched by file stem; a record is also matched by the stem of its ``source`` and a record file named
``<stem>-<hash>.json`` by ``<stem>``. A gold document with no prediction counts as predicted empty (all its fields
missed) and is listed in ``missing_pred``; predictions with no gold are listed in ``missing_gold`` and not scored.
In a folder, ``<name>.reviewed.json`` files (corrections saved by ``extract review``) are not predictions; with
``extract eval OUT --gold reviewed`` (``evaluate_reviewed``) they are the gold for the records beside them.

Scores (as in Donut, Kim et al. 2022):

* **Field F1** (micro): each document is flattened to ``(JSON pointer, value)`` pairs, list items by index
  (``/line_items/0/amount``), values normalised (strings casefolded with whitespace collapsed, numbers as normalised
  decimals so ``19``, ``19.0`` and ``19.00`` agree; nulls and empty strings are no value). TP = predicted pairs in
  the gold, FP = predicted pairs not in the gold, FN = gold pairs not predicted; P = TP / (TP + FP),
  R = TP / (TP + FN), F1 = 2PR / (P + R), summed over all documents. The per-field table groups pointers with the
  list indexes written ``*`` (``/line_items/*/amount``).
* **nTED accuracy**: ``max(0, 1 - TED(pred, gold) / TED(empty, gold))`` per document, averaged; trees as Donut
  builds them (sorted keys as nodes, ``<subtree>`` per list object, values as leaves), Zhang-Shasha tree edit
  distance with Donut's costs (a leaf costs its length, a value change its character edit distance): ``ted.py``.
* **Grounding precision** (when predictions are records with ``grounding``): of the fields the record marks found
  on the page (``grounding.fields[ptr]`` true), how many hold the gold value at that path; of those marked not
  found, how many do anyway (grounding's misses); and how many were not checkable (null). A green box on a wrong
  value is what this counts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.leaves import field_path, leaves, normalize_value
from extractor.tools.ted import nted_accuracy

REVIEWED_SUFFIX = ".reviewed.json"  # corrections saved by ``extract review`` (gold for ``--gold reviewed``)


@dataclass(frozen=True)
class Counts:
    """True positives, false positives and false negatives, with the scores they give."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was predicted and nothing was expected, else 0.0 on no prediction."""
        if self.tp + self.fp == 0:
            return 1.0 if self.fn == 0 else 0.0
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when the gold has no values."""
        if self.tp + self.fn == 0:
            return 1.0
        return self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        """2TP / (2TP + FP + FN), the harmonic mean of precision and recall; 1.0 when both sides are empty."""
        if self.tp + self.fp + self.fn == 0:
            return 1.0
        return 2 * self.tp / (2 * self.tp + self.fp + self.fn)

    def scores(self) -> dict:
        """Return counts and scores as a dict (scores rounded to 6 places)."""
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 6),
            "recall": round(self.recall, 6),
            "f1": round(self.f1, 6),
        }


@dataclass(frozen=True)
class DocumentScore:
    """Scores of one matched document.

    Attributes:
        stem: the gold file's stem.
        pred: the prediction file ("" when none was found).
        gold: the gold file.
        counts: its TP / FP / FN.
        nted: its nTED accuracy.
    """

    stem: str
    pred: str
    gold: str
    counts: Counts
    nted: float

    def to_dict(self) -> dict:
        """Return the document's scores as a dict."""
        return {
            "stem": self.stem,
            "pred": self.pred,
            "gold": self.gold,
            **self.counts.scores(),
            "nted": round(self.nted, 6),
        }


@dataclass(frozen=True)
class GroundingScore:
    """How far the records' grounding verdicts agree with the gold.

    Attributes:
        records: matched predictions that carry a grounding report.
        grounded: fields marked found.
        grounded_correct: of those, the ones holding the gold value.
        ungrounded: fields marked not found.
        ungrounded_correct: of those, the ones holding the gold value anyway.
        unchecked: fields marked not checkable.
    """

    records: int = 0
    grounded: int = 0
    grounded_correct: int = 0
    ungrounded: int = 0
    ungrounded_correct: int = 0
    unchecked: int = 0

    @property
    def precision(self) -> float | None:
        """grounded_correct / grounded (None when nothing was marked found)."""
        return self.grounded_correct / self.grounded if self.grounded else None

    def to_dict(self) -> dict:
        """The score as a dict (precision rounded to 6 places)."""
        precision = self.precision
        return {
            "records": self.records,
            "grounded": self.grounded,
            "grounded_correct": self.grounded_correct,
            "precision": None if precision is None else round(precision, 6),
            "ungrounded": self.ungrounded,
            "ungrounded_correct": self.ungrounded_correct,
            "unchecked": self.unchecked,
        }


@dataclass(frozen=True)
class EvalReport:
    """The evaluation of a prediction set against ground truth.

    Attributes:
        documents: per gold document, sorted by stem.
        fields: per field path (a JSON pointer with list indexes written ``*``), sorted by path.
        missing_pred: gold stems with no prediction (scored as empty predictions).
        missing_gold: prediction files with no gold (not scored).
        unreadable: ``{"file", "error"}`` for files that are not JSON.
        grounding: the grounding precision, when some prediction is a record with a grounding report.
    """

    documents: tuple[DocumentScore, ...]
    fields: tuple[tuple[str, Counts], ...]
    missing_pred: tuple[str, ...] = ()
    missing_gold: tuple[str, ...] = ()
    unreadable: tuple[dict, ...] = ()
    grounding: GroundingScore | None = None

    @property
    def counts(self) -> Counts:
        """Micro totals over all documents."""
        return Counts(
            tp=sum(d.counts.tp for d in self.documents),
            fp=sum(d.counts.fp for d in self.documents),
            fn=sum(d.counts.fn for d in self.documents),
        )

    @property
    def nted(self) -> float:
        """Mean nTED accuracy over the documents (0.0 when there are none)."""
        return sum(d.nted for d in self.documents) / len(self.documents) if self.documents else 0.0

    def to_dict(self) -> dict:
        """Return the report in the stable ``--json`` shape (``grounding`` only when the predictions carry it)."""
        out = {
            "documents": len(self.documents),
            **self.counts.scores(),
            "nted": round(self.nted, 6),
            "fields": [{"path": path, **counts.scores()} for path, counts in self.fields],
            "per_document": [d.to_dict() for d in self.documents],
            "missing_pred": list(self.missing_pred),
            "missing_gold": list(self.missing_gold),
            "unreadable": list(self.unreadable),
        }
        if self.grounding is not None:
            out["grounding"] = self.grounding.to_dict()
        return out

    def to_text(self) -> str:
        """Return a plain-text summary and per-field table."""
        c = self.counts
        lines = [
            f"documents {len(self.documents)}  precision {c.precision:.4f}  recall {c.recall:.4f}  "
            f"F1 {c.f1:.4f}  nTED accuracy {self.nted:.4f}  (TP {c.tp}, FP {c.fp}, FN {c.fn})",
            "",
        ]
        width = max([len(p) for p, _ in self.fields] + [5])
        lines.append(f"{'field':<{width}}  {'P':>6}  {'R':>6}  {'F1':>6}  {'TP':>5}  {'FP':>5}  {'FN':>5}")
        for path, k in self.fields:
            lines.append(
                f"{path:<{width}}  {k.precision:6.3f}  {k.recall:6.3f}  {k.f1:6.3f}  {k.tp:5d}  {k.fp:5d}  {k.fn:5d}"
            )
        for label, items in (("no prediction for", self.missing_pred), ("no gold for", self.missing_gold)):
            if items:
                lines.append(f"{label}: {', '.join(items)}")
        for entry in self.unreadable:
            lines.append(f"unreadable: {entry['file']}: {entry['error']}")
        g = self.grounding
        if g is not None:
            precision = "-" if g.precision is None else f"{g.precision:.4f}"
            lines.append(
                f"grounding ({g.records} records): {g.grounded_correct} of {g.grounded} fields marked found "
                f"hold the gold value (precision {precision}); {g.ungrounded_correct} of {g.ungrounded} "
                f"marked not found do; {g.unchecked} not checkable"
            )
        return "\n".join(lines)


def evaluate(pred: Path, gold: Path) -> EvalReport:
    """Score predictions against ground truth.

    Args:
        pred: a JSON file or a directory of JSON files (records or plain JSON).
        gold: a JSON file or a directory of JSON files (plain JSON or records).

    Returns:
        The EvalReport.

    Raises:
        UsageError: a path does not exist.
    """
    pred, gold = Path(pred), Path(gold)
    for side, path in (("PRED", pred), ("GOLD", gold)):
        if not path.exists():
            raise UsageError(f"{side} not found: {path}", source=path)
    unreadable: list[dict] = []
    return _score(
        _load(pred, unreadable), _load(gold, unreadable), unreadable, pair_files=pred.is_file() and gold.is_file()
    )


def _score(preds: list[_Doc], golds: list[_Doc], unreadable: list[dict], *, pair_files: bool) -> EvalReport:
    """Match predictions to gold documents (by stem; two single files with each other) and score them."""
    pairs: list[tuple[_Doc, _Doc | None]] = []
    used: set[str] = set()
    if pair_files and preds and golds:
        pairs.append((golds[0], preds[0]))
        used.add(preds[0].file)
    else:
        for g in golds:
            match = _match(g.stem, preds, used)
            if match is not None:
                used.add(match.file)
            pairs.append((g, match))
    documents: list[DocumentScore] = []
    per_field: dict[str, list[int]] = {}  # field path -> [tp, fp, fn]
    grounding: list[GroundingScore] = []
    for g, p in pairs:
        gold_pairs = flatten(g.data)
        pred_pairs = flatten(p.data) if p is not None else {}
        tp = fp = fn = 0
        for pointer, pair in pred_pairs.items():
            hit = gold_pairs.get(pointer) == pair
            tp, fp = tp + hit, fp + (not hit)
            _bump(per_field, pair[0], tp=hit, fp=not hit)
        for pointer, pair in gold_pairs.items():
            if pred_pairs.get(pointer) != pair:
                fn += 1
                _bump(per_field, pair[0], fn=True)
        if p is not None and p.grounding is not None:
            grounding.append(_grounding_score(p, gold_pairs))
        nted = nted_accuracy(p.data if p is not None else {}, g.data)
        documents.append(
            DocumentScore(
                stem=g.stem, pred=p.file if p is not None else "", gold=g.file, counts=Counts(tp, fp, fn), nted=nted
            )
        )
    documents.sort(key=lambda d: (d.stem, d.gold))
    return EvalReport(
        documents=tuple(documents),
        fields=tuple(sorted((k, Counts(*v)) for k, v in per_field.items())),
        missing_pred=tuple(sorted(g.stem for g, p in pairs if p is None)),
        missing_gold=tuple(sorted(p.file for p in preds if p.file not in used)),
        unreadable=tuple(sorted(unreadable, key=lambda e: e["file"])),
        grounding=_sum_grounding(grounding) if grounding else None,
    )


def _grounding_score(pred: _Doc, gold_pairs: dict[str, tuple[str, str]]) -> GroundingScore:
    """One record's grounding verdicts against the gold values at the same paths."""
    values = flatten(pred.data)
    verdicts = pred.grounding or {}
    correct = {p: p in values and gold_pairs.get(p) == values[p] for p in verdicts}
    return GroundingScore(
        records=1,
        grounded=sum(1 for v in verdicts.values() if v is True),
        grounded_correct=sum(1 for p, v in verdicts.items() if v is True and correct[p]),
        ungrounded=sum(1 for v in verdicts.values() if v is False),
        ungrounded_correct=sum(1 for p, v in verdicts.items() if v is False and correct[p]),
        unchecked=sum(1 for v in verdicts.values() if v is None),
    )


def _sum_grounding(scores: list[GroundingScore]) -> GroundingScore:
    return GroundingScore(
        *(
            sum(getattr(s, f) for s in scores)
            for f in ("records", "grounded", "grounded_correct", "ungrounded", "ungrounded_correct", "unchecked")
        )
    )


def evaluate_reviewed(out: Path) -> EvalReport:
    """Score the records in a folder against the reviewed files ``extract review`` saved beside them.

    Args:
        out: the folder holding ``<name>.json`` records and ``<name>.reviewed.json`` files (their ``data`` is the
            gold); records nobody reviewed are not scored.

    Returns:
        The EvalReport (document stems are the record names).

    Raises:
        UsageError: the folder does not exist or holds no reviewed file.
    """
    out = Path(out)
    if not out.is_dir():
        raise UsageError(f"not a folder: {out}", source=out)
    unreadable: list[dict] = []
    golds = _load(out, unreadable, reviewed=True)
    if not golds and not unreadable:
        raise UsageError(
            f"no reviewed files (*{REVIEWED_SUFFIX}) in {out}: review some with `extract review`", source=out
        )
    return _score(_load(out, unreadable), golds, unreadable, pair_files=False)


def flatten(data: Any) -> dict[str, tuple[str, str]]:
    """Flatten JSON for scoring; nulls and empty strings give no entry.

    Args:
        data: any JSON value.

    Returns:
        ``{JSON pointer: (field path, normalised value)}``, e.g. ``{"/invoice_number": ("/invoice_number", "re-1"),
        "/line_items/0/amount": ("/line_items/*/amount", "1156")}``. The field path keeps a list item apart from an
        object key of the same digits, so ``{"a": [1]}`` and ``{"a": {"0": 1}}`` do not agree.
    """
    flat = {}
    for leaf in leaves(data):
        value = normalize_value(leaf.value)
        if value is not None:  # never None: leaves() skips nulls and blank strings
            flat[leaf.pointer] = (field_path(leaf.parts), value)
    return flat


# -- internals -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Doc:
    file: str
    stem: str
    source_stem: str
    data: Any
    grounding: dict | None = None  # a record's grounding.fields: pointer -> true / false / null


def _load(path: Path, unreadable: list[dict], *, reviewed: bool = False) -> list[_Doc]:
    """The documents of a file or folder: in a folder the reviewed files (``reviewed``), or everything else."""
    if path.is_file():
        files = [path]
    else:
        files = sorted(
            p
            for p in path.iterdir()
            if p.suffix == ".json" and p.is_file() and p.name.endswith(REVIEWED_SUFFIX) == reviewed
        )
    docs = []
    for file in files:
        try:
            obj = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            unreadable.append({"file": str(file), "error": str(exc)})
            continue
        source_stem, stem, grounding = "", file.stem, None
        if _is_record(obj) and not reviewed:
            verdicts = obj.get("grounding", {}).get("fields") if isinstance(obj.get("grounding"), dict) else None
            grounding = verdicts if isinstance(verdicts, dict) else None
        if _is_record(obj) or (file.name.endswith(REVIEWED_SUFFIX) and isinstance(obj, dict) and "data" in obj):
            source_stem = Path(str(obj.get("source") or "")).stem
            obj = obj.get("data")
        stem = file.name.removesuffix(REVIEWED_SUFFIX) if file.name.endswith(REVIEWED_SUFFIX) else stem
        docs.append(_Doc(file=str(file), stem=stem, source_stem=source_stem, data=obj, grounding=grounding))
    return docs


def _is_record(obj: Any) -> bool:
    return isinstance(obj, dict) and {"version", "source", "status", "data"} <= set(obj)


def _match(stem: str, preds: list[_Doc], used: set[str]) -> _Doc | None:
    free = [p for p in preds if p.file not in used]
    hashed = re.compile(re.escape(stem) + r"-[0-9a-f]{6,64}")
    for test in (
        lambda p: p.stem == stem,
        lambda p: p.source_stem == stem,
        lambda p: hashed.fullmatch(p.stem) is not None,
    ):
        for p in free:
            if test(p):
                return p
    return None


def _bump(table: dict, field: str, *, tp: bool = False, fp: bool = False, fn: bool = False) -> None:
    row = table.setdefault(field, [0, 0, 0])
    row[0] += tp
    row[1] += fp
    row[2] += fn
