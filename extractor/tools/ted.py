"""Donut's nTED accuracy: normalised tree edit distance between a prediction and the ground truth.

Trees as Donut builds them (sorted keys as nodes, ``<subtree>`` per list object, values as leaves), Zhang-Shasha
tree edit distance with Donut's costs (a leaf costs its length, a value change its character edit distance).
``extract eval`` (``evaluate.py``) reports it per document and averaged.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from extractor.leaves import normalize_value


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


def tree_edit_distance(a: _Node, b: _Node) -> int:
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

    def __init__(self, root: _Node):
        self.nodes, self.lmd = _postorder(root)
        self.cost = [node.cost for node in self.nodes]
        self.keyroots = _keyroots(self.lmd)


class _Columns:
    """What a forest-distance pass needs about keyroot ``j`` of the second tree (shared by every row keyroot)."""

    def __init__(self, B: _Annotated, j: int):
        bj = self.bj = B.lmd[j]
        self.n = j - bj + 2
        self.ins = B.cost[bj : j + 1]  # insert cost of column y at ins[y - 1]
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
    cum[1:] = np.cumsum(np.asarray(B.cost[bj : j + 1], dtype=np.int64))
    lm = np.asarray(bl[bj : j + 1], dtype=np.int64)
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
        drow = np.asarray(dist[xi][bj : j + 1], dtype=np.int64)
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
            for k, val in zip(on_list, fd[x, on_k + 1].tolist(), strict=False):
                dx[k + bj] = val
                dist_t[k + bj][xi] = val


class _Node:
    __slots__ = ("label", "kids", "leaf", "cost")

    def __init__(self, label: str, kids: list | None = None, leaf: bool = False):
        self.label, self.kids, self.leaf = label, kids or [], leaf
        self.cost = len(label) if leaf else 1


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
