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
  distance with Donut's costs (a leaf costs its length, a value change its character edit distance).
* **Grounding precision** (when predictions are records with ``grounding``): of the fields the record marks found
  on the page (``grounding.fields[ptr]`` true), how many hold the gold value at that path; of those marked not
  found, how many do anyway (grounding's misses); and how many were not checkable (null). A green box on a wrong
  value is what this counts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from .errors import UsageError
from .leaves import field_path, leaves, normalize_value

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
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(self.precision, 6),
                "recall": round(self.recall, 6), "f1": round(self.f1, 6)}


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
        return {"stem": self.stem, "pred": self.pred, "gold": self.gold, **self.counts.scores(),
                "nted": round(self.nted, 6)}


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
    def precision(self) -> Optional[float]:
        """grounded_correct / grounded (None when nothing was marked found)."""
        return self.grounded_correct / self.grounded if self.grounded else None

    def to_dict(self) -> dict:
        """The score as a dict (precision rounded to 6 places)."""
        precision = self.precision
        return {"records": self.records, "grounded": self.grounded, "grounded_correct": self.grounded_correct,
                "precision": None if precision is None else round(precision, 6), "ungrounded": self.ungrounded,
                "ungrounded_correct": self.ungrounded_correct, "unchecked": self.unchecked}


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
    grounding: Optional[GroundingScore] = None

    @property
    def counts(self) -> Counts:
        """Micro totals over all documents."""
        return Counts(tp=sum(d.counts.tp for d in self.documents), fp=sum(d.counts.fp for d in self.documents),
                      fn=sum(d.counts.fn for d in self.documents))

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
        lines = [f"documents {len(self.documents)}  precision {c.precision:.4f}  recall {c.recall:.4f}  "
                 f"F1 {c.f1:.4f}  nTED accuracy {self.nted:.4f}  (TP {c.tp}, FP {c.fp}, FN {c.fn})", ""]
        width = max([len(p) for p, _ in self.fields] + [5])
        lines.append(f"{'field':<{width}}  {'P':>6}  {'R':>6}  {'F1':>6}  {'TP':>5}  {'FP':>5}  {'FN':>5}")
        for path, k in self.fields:
            lines.append(f"{path:<{width}}  {k.precision:6.3f}  {k.recall:6.3f}  {k.f1:6.3f}  {k.tp:5d}  "
                         f"{k.fp:5d}  {k.fn:5d}")
        for label, items in (("no prediction for", self.missing_pred), ("no gold for", self.missing_gold)):
            if items:
                lines.append(f"{label}: {', '.join(items)}")
        for entry in self.unreadable:
            lines.append(f"unreadable: {entry['file']}: {entry['error']}")
        g = self.grounding
        if g is not None:
            precision = "-" if g.precision is None else f"{g.precision:.4f}"
            lines.append(f"grounding ({g.records} records): {g.grounded_correct} of {g.grounded} fields marked found "
                         f"hold the gold value (precision {precision}); {g.ungrounded_correct} of {g.ungrounded} "
                         f"marked not found do; {g.unchecked} not checkable")
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
    return _score(_load(pred, unreadable), _load(gold, unreadable), unreadable,
                  pair_files=pred.is_file() and gold.is_file())


def _score(preds: list["_Doc"], golds: list["_Doc"], unreadable: list[dict], *, pair_files: bool) -> EvalReport:
    """Match predictions to gold documents (by stem; two single files with each other) and score them."""
    pairs: list[tuple[_Doc, Optional[_Doc]]] = []
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
    documents, per_field, grounding = [], {}, []
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
        documents.append(DocumentScore(stem=g.stem, pred=p.file if p is not None else "", gold=g.file,
                                       counts=Counts(tp, fp, fn), nted=nted))
    documents.sort(key=lambda d: (d.stem, d.gold))
    return EvalReport(
        documents=tuple(documents),
        fields=tuple(sorted((k, Counts(*v)) for k, v in per_field.items())),
        missing_pred=tuple(sorted(g.stem for g, p in pairs if p is None)),
        missing_gold=tuple(sorted(p.file for p in preds if p.file not in used)),
        unreadable=tuple(sorted(unreadable, key=lambda e: e["file"])),
        grounding=_sum_grounding(grounding) if grounding else None,
    )


def _grounding_score(pred: "_Doc", gold_pairs: dict[str, tuple[str, str]]) -> GroundingScore:
    """One record's grounding verdicts against the gold values at the same paths."""
    values = flatten(pred.data)
    verdicts = pred.grounding or {}
    correct = {p: p in values and gold_pairs.get(p) == values[p] for p in verdicts}
    return GroundingScore(records=1, grounded=sum(1 for v in verdicts.values() if v is True),
                          grounded_correct=sum(1 for p, v in verdicts.items() if v is True and correct[p]),
                          ungrounded=sum(1 for v in verdicts.values() if v is False),
                          ungrounded_correct=sum(1 for p, v in verdicts.items() if v is False and correct[p]),
                          unchecked=sum(1 for v in verdicts.values() if v is None))


def _sum_grounding(scores: list[GroundingScore]) -> GroundingScore:
    return GroundingScore(*(sum(getattr(s, f) for s in scores) for f in (
        "records", "grounded", "grounded_correct", "ungrounded", "ungrounded_correct", "unchecked")))


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
        raise UsageError(f"no reviewed files (*{REVIEWED_SUFFIX}) in {out}: review some with `extract review`",
                         source=out)
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
    return {leaf.pointer: (field_path(leaf.parts), normalize_value(leaf.value)) for leaf in leaves(data)}


def nted_accuracy(pred: Any, gold: Any) -> float:
    """Donut's normalised tree edit distance accuracy: ``max(0, 1 - TED(pred, gold) / TED(empty, gold))``.

    Args:
        pred: the predicted JSON.
        gold: the ground truth JSON.

    Returns:
        A value in [0, 1]; 1.0 for a perfect prediction (and for an empty prediction of an empty gold).
    """
    gold, pred = _prune(gold), _prune(pred)
    gold_tree, pred_tree = _tree(gold), _tree(pred)
    # TED(empty, gold): the roots match for free and every other gold node is inserted
    scale = sum(node.cost for node in _postorder(gold_tree)[0]) - gold_tree.cost
    if pred == gold:  # the common case, and the distance is quadratic in tree size
        return 1.0
    if scale == 0:
        return 0.0
    return max(0.0, 1.0 - tree_edit_distance(pred_tree, gold_tree) / scale)


def tree_edit_distance(a: "_Node", b: "_Node") -> int:
    """Zhang-Shasha tree edit distance with Donut's costs.

    Inserting or removing a leaf costs its text length, any other node 1; renaming leaf to leaf costs the
    character edit distance, inner node to inner node 0 or 1, leaf to inner node 1 + the leaf's length.
    Small subproblems run in plain Python; large ones a row at a time with numpy (a row's insertions are a
    prefix minimum), along the longer side, so a 40-line invoice takes well under a second.

    Args:
        a: the source tree.
        b: the target tree.

    Returns:
        The minimal edit cost.
    """
    A, B = _Annotated(a), _Annotated(b)
    dist = [[0] * len(B.nodes) for _ in A.nodes]
    dist_t = [[0] * len(A.nodes) for _ in B.nodes]  # the same table transposed, for row reads the other way
    an, bn = A.nodes, B.nodes

    def update(i: int, j: int) -> int:  # each node pair is on one keyroot pair's leftmost paths: no cache
        return _update_cost(an[i], bn[j])

    def update_t(j: int, i: int) -> int:
        return _update_cost(an[i], bn[j])

    columns = {j: _Columns(B, j) for j in B.keyroots}
    for i in A.keyroots:
        m = i - A.lmd[i] + 1
        for j in B.keyroots:
            n = j - B.lmd[j] + 1
            if m == 2 and n == 2:
                _pair_of_chains(i, j, A, B, dist, dist_t, update)
            elif max(m, n) < _NUMPY_FROM:
                _forest_py(i, j, A, columns[j], dist, dist_t, update)
            elif n >= m:
                _forest_np(i, j, A, B, dist, dist_t, update)
            else:
                _forest_np(j, i, B, A, dist_t, dist, update_t)
    return dist[-1][-1]


_NUMPY_FROM = 48  # subtree size from which a row-vectorised pass beats the scalar loop


class _Annotated:
    """A tree in postorder with leftmost-leaf indexes, costs and keyroots."""

    def __init__(self, root: "_Node"):
        self.nodes, self.lmd = _postorder(root)
        self.cost = [node.cost for node in self.nodes]
        self.keyroots = _keyroots(self.lmd)


class _Columns:
    """What a forest-distance pass needs about keyroot ``j`` of the second tree (shared by every row keyroot)."""

    def __init__(self, B: _Annotated, j: int):
        bj = self.bj = B.lmd[j]
        self.n = j - bj + 2
        self.ins = B.cost[bj:j + 1]  # insert cost of column y at ins[y - 1]
        self.on_y = [B.lmd[yj] == bj for yj in range(bj, j + 1)]
        self.qs = [B.lmd[yj] - bj for yj in range(bj, j + 1)]
        row = [0] * self.n
        for y in range(1, self.n):
            row[y] = row[y - 1] + self.ins[y - 1]
        self.row0 = row


def _pair_of_chains(i: int, j: int, A: _Annotated, B: _Annotated, dist: list, dist_t: list, update) -> None:
    """The forest pass for two keyroots that are each a node over one leaf (most key: value pairs), unrolled."""
    c, p, c2, p2 = i - 1, i, j - 1, j
    rc, rp, ic, ip = A.cost[c], A.cost[p], B.cost[c2], B.cost[p2]
    d11 = min(rc + ic, update(c, c2))
    d12 = min(rc + ic + ip, d11 + ip, ic + update(c, p2))
    d21 = min(d11 + rp, rc + rp + ic, rc + update(p, c2))
    d22 = min(d12 + rp, d21 + ip, d11 + update(p, p2))
    dist[c][c2], dist[c][p2], dist[p][c2], dist[p][p2] = d11, d12, d21, d22
    dist_t[c2][c], dist_t[p2][c], dist_t[c2][p], dist_t[p2][p] = d11, d12, d21, d22


def _forest_py(i: int, j: int, A: _Annotated, cols: _Columns, dist: list, dist_t: list, update) -> None:
    al, ac = A.lmd, A.cost
    ai, bj, n = al[i], cols.bj, cols.n
    ins, on_y, qs = cols.ins, cols.on_y, cols.qs
    fd = [cols.row0]
    row0 = cols.row0
    col0 = 0
    for xi in range(ai, i + 1):
        rem = ac[xi]
        col0 += rem
        prev, cur = fd[-1], [col0] * n
        dx = dist[xi]
        left = col0
        if al[xi] == ai:
            for y in range(1, n):
                yj = y + bj - 1
                v = prev[y] + rem
                w = left + ins[y - 1]
                if w < v:
                    v = w
                if on_y[y - 1]:
                    w = prev[y - 1] + update(xi, yj)
                    if w < v:
                        v = w
                    dx[yj] = v
                    dist_t[yj][xi] = v
                else:
                    w = row0[qs[y - 1]] + dx[yj]
                    if w < v:
                        v = w
                cur[y] = left = v
        else:
            fp = fd[al[xi] - ai]
            for y in range(1, n):
                v = prev[y] + rem
                w = left + ins[y - 1]
                if w < v:
                    v = w
                w = fp[qs[y - 1]] + dx[y + bj - 1]
                if w < v:
                    v = w
                cur[y] = left = v
        fd.append(cur)


def _forest_np(i: int, j: int, A: _Annotated, B: _Annotated, dist: list, dist_t: list, update) -> None:
    import numpy as np

    al, bl, ac = A.lmd, B.lmd, A.cost
    ai, bj = al[i], bl[j]
    m, n = i - ai + 2, j - bj + 2
    cum = np.zeros(n, dtype=np.int64)
    cum[1:] = np.cumsum(np.asarray(B.cost[bj:j + 1], dtype=np.int64))
    lm = np.asarray(bl[bj:j + 1], dtype=np.int64)
    q = lm - bj
    on_k = np.nonzero(lm == bj)[0]  # columns (y - 1) on the leftmost path
    on_list = on_k.tolist()
    fd = np.empty((m, n), dtype=np.int64)
    fd[0] = cum
    col0 = 0
    v = np.empty(n, dtype=np.int64)
    for x in range(1, m):
        xi = x + ai - 1
        rem = ac[xi]
        col0 += rem
        drow = np.asarray(dist[xi][bj:j + 1], dtype=np.int64)
        on_x = al[xi] == ai
        third = fd[al[xi] - ai, q] + drow
        if on_x:
            upd = np.asarray([update(xi, k + bj) for k in on_list], dtype=np.int64)
            third[on_k] = fd[x - 1, on_k] + upd
        v[0] = col0
        np.minimum(fd[x - 1, 1:] + rem, third, out=v[1:])
        fd[x] = cum + np.minimum.accumulate(v - cum)
        if on_x:
            dx = dist[xi]
            for k, val in zip(on_list, fd[x, on_k + 1].tolist()):
                dx[k + bj] = val
                dist_t[k + bj][xi] = val


# -- internals -------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Doc:
    file: str
    stem: str
    source_stem: str
    data: Any
    grounding: Optional[dict] = None  # a record's grounding.fields: pointer -> true / false / null


class _Node:
    __slots__ = ("label", "kids", "leaf", "cost")

    def __init__(self, label: str, kids: Optional[list] = None, leaf: bool = False):
        self.label, self.kids, self.leaf = label, kids or [], leaf
        self.cost = len(label) if leaf else 1


def _load(path: Path, unreadable: list[dict], *, reviewed: bool = False) -> list[_Doc]:
    """The documents of a file or folder: in a folder the reviewed files (``reviewed``), or everything else."""
    if path.is_file():
        files = [path]
    else:
        files = sorted(p for p in path.iterdir() if p.suffix == ".json" and p.is_file()
                       and p.name.endswith(REVIEWED_SUFFIX) == reviewed)
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


def _match(stem: str, preds: list[_Doc], used: set[str]) -> Optional[_Doc]:
    free = [p for p in preds if p.file not in used]
    hashed = re.compile(re.escape(stem) + r"-[0-9a-f]{6,64}")
    for test in (lambda p: p.stem == stem, lambda p: p.source_stem == stem,
                 lambda p: hashed.fullmatch(p.stem) is not None):
        for p in free:
            if test(p):
                return p
    return None


def _bump(table: dict, field: str, *, tp: bool = False, fp: bool = False, fn: bool = False) -> None:
    row = table.setdefault(field, [0, 0, 0])
    row[0] += tp
    row[1] += fp
    row[2] += fn


def _prune(value: Any) -> Any:
    """Normalise leaves and drop nulls / empty values, as Donut does before building trees."""
    if isinstance(value, dict):
        out = {}
        for key in sorted(value, key=str):
            item = _prune(value[key])
            if item not in (None, {}, []):
                out[str(key)] = item
        return out
    if isinstance(value, list):
        items = [_prune(x) for x in value]
        return [x for x in items if x not in (None, {}, [])]
    return normalize_value(value)


def _tree(value: Any, label: str = "<root>") -> _Node:
    node = _Node(label)
    if isinstance(value, dict):
        node.kids = [_tree(item, key) for key, item in value.items()]
    elif isinstance(value, list):
        node.kids = [_tree(x, "<subtree>") if isinstance(x, (dict, list)) else _Node(x, leaf=True) for x in value]
    elif value is not None:
        node.kids = [_Node(value, leaf=True)]
    return node


def _postorder(root: _Node) -> tuple[list[_Node], list[int]]:
    nodes: list[_Node] = []
    lmd: list[int] = []

    def visit(node: _Node) -> int:
        first = None
        for kid in node.kids:
            leftmost = visit(kid)
            if first is None:
                first = leftmost
        nodes.append(node)
        index = len(nodes) - 1
        lmd.append(index if first is None else first)
        return lmd[index]

    visit(root)
    return nodes, lmd


def _keyroots(lmd: list[int]) -> list[int]:
    last: dict[int, int] = {}
    for i, leftmost in enumerate(lmd):
        last[leftmost] = i
    return sorted(last.values())


def _update_cost(a: _Node, b: _Node) -> int:
    if a.leaf and b.leaf:
        return _levenshtein(a.label, b.label)
    if a.leaf != b.leaf:
        return 1 + len(a.label if a.leaf else b.label)
    return int(a.label != b.label)


@lru_cache(maxsize=65536)
def _levenshtein(a: str, b: str) -> int:
    """Character edit distance, bit-parallel (Myers 1999 / Hyyrö 2001): one pass of integer operations per
    character of the longer string, which keeps tree edit distances over long descriptions fast."""
    if a == b:
        return 0
    if len(a) > len(b):
        a, b = b, a
    m = len(a)
    if m == 0:
        return len(b)
    peq: dict[str, int] = {}
    for i, c in enumerate(a):
        peq[c] = peq.get(c, 0) | (1 << i)
    full, top = (1 << m) - 1, 1 << (m - 1)
    pv, mv, score = full, 0, m
    for c in b:
        eq = peq.get(c, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & full
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score
