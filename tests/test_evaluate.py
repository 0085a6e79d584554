"""``extract eval``: field-level P / R / F1 (Donut-style micro) and nTED accuracy, matched by file stem."""

import copy
import json
from pathlib import Path

import pytest

from extractor.errors import UsageError
from extractor.tools.evaluate import Counts, evaluate, evaluate_reviewed, flatten
from extractor.tools.ted import _Node, nted_accuracy, tree_edit_distance

EXPECTED = Path(__file__).resolve().parents[1] / "samples" / "expected"


def record(source, data, status="ok"):
    """A record file's content, as the pipeline writes it (only the keys evaluation reads matter)."""
    return {
        "version": 1,
        "source": source,
        "sha256": "",
        "pages": 1,
        "model": "m",
        "schema": "invoice",
        "status": status,
        "data": data,
        "errors": [],
        "warnings": [],
    }


def write(path, obj):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def test_flatten():
    data = {"a": {"b": "X"}, "items": [{"q": 2, "u": None}, {"q": 3.50}], "tags": ["x", ""], "n": None, "k/1": 0}
    assert flatten(data) == {
        "/a/b": ("/a/b", "x"),
        "/items/0/q": ("/items/*/q", "2"),
        "/items/1/q": ("/items/*/q", "3.5"),
        "/tags/0": ("/tags/*", "x"),
        "/k~11": ("/k~11", "0"),
    }


def test_counts():
    assert Counts(3, 1, 1).scores() == {"tp": 3, "fp": 1, "fn": 1, "precision": 0.75, "recall": 0.75, "f1": 0.75}
    assert (Counts(0, 0, 0).f1, Counts(0, 0, 4).precision, Counts(0, 0, 4).f1) == (1.0, 0.0, 0.0)


GOLD = {"a": "X", "b": 1, "items": [{"q": 2}, {"q": 3}]}
PRED = {"a": "x ", "b": 1.0, "items": [{"q": 2}], "c": "extra"}


def test_tiny_case_by_hand(tmp_path):
    write(tmp_path / "gold" / "doc.json", GOLD)
    write(tmp_path / "pred" / "doc.json", PRED)
    report = evaluate(tmp_path / "pred", tmp_path / "gold")
    # gold pairs: /a, /b, /items/0/q, /items/1/q; predicted: /a, /b, /items/0/q (all right) and /c (wrong)
    # TP 3, FP 1, FN 1 -> P = R = F1 = 3/4.
    # Trees (keys sorted, one leaf per value): TED(empty, gold) = 11 nodes; pred -> gold deletes c and its leaf
    # "extra" (1 + 5) and inserts the second <subtree>, q and leaf "3" (3) = 9 -> nTED = 1 - 9/11 = 2/11.
    assert report.to_dict() == {
        "documents": 1,
        "tp": 3,
        "fp": 1,
        "fn": 1,
        "precision": 0.75,
        "recall": 0.75,
        "f1": 0.75,
        "nted": round(2 / 11, 6),
        "fields": [
            {"path": "/a", "tp": 1, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0, "f1": 1.0},
            {"path": "/b", "tp": 1, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0, "f1": 1.0},
            {"path": "/c", "tp": 0, "fp": 1, "fn": 0, "precision": 0.0, "recall": 1.0, "f1": 0.0},
            {"path": "/items/*/q", "tp": 1, "fp": 0, "fn": 1, "precision": 1.0, "recall": 0.5, "f1": round(2 / 3, 6)},
        ],
        "per_document": [
            {
                "stem": "doc",
                "pred": str(tmp_path / "pred" / "doc.json"),
                "gold": str(tmp_path / "gold" / "doc.json"),
                "tp": 3,
                "fp": 1,
                "fn": 1,
                "precision": 0.75,
                "recall": 0.75,
                "f1": 0.75,
                "nted": round(2 / 11, 6),
            }
        ],
        "missing_pred": [],
        "missing_gold": [],
        "unreadable": [],
    }


def test_tiny_case_as_text(tmp_path):
    write(tmp_path / "gold" / "doc.json", GOLD)
    write(tmp_path / "pred" / "doc.json", PRED)
    assert evaluate(tmp_path / "pred", tmp_path / "gold").to_text().splitlines() == [
        "documents 1  precision 0.7500  recall 0.7500  F1 0.7500  nTED accuracy 0.1818  (TP 3, FP 1, FN 1)",
        "",
        "field            P       R      F1     TP     FP     FN",
        "/a           1.000   1.000   1.000      1      0      0",
        "/b           1.000   1.000   1.000      1      0      0",
        "/c           0.000   1.000   0.000      0      1      0",
        "/items/*/q   1.000   0.500   0.667      1      0      1",
    ]


def test_list_item_and_digit_key_do_not_agree(tmp_path):
    """Both are the pointer /a/0; the field path tells the list index from the object key."""
    write(tmp_path / "gold.json", {"a": [1]})
    write(tmp_path / "pred.json", {"a": {"0": 1}})
    d = evaluate(tmp_path / "pred.json", tmp_path / "gold.json").to_dict()
    assert (d["tp"], d["fp"], d["fn"]) == (0, 1, 1)
    assert [(f["path"], f["tp"], f["fp"], f["fn"]) for f in d["fields"]] == [("/a/*", 0, 0, 1), ("/a/0", 0, 1, 0)]


@pytest.mark.parametrize(
    "pred,gold,accuracy",
    [
        (GOLD, GOLD, 1.0),
        ({}, GOLD, 0.0),
        (PRED, GOLD, 2 / 11),
        ({"a": "Y"}, {"a": "X"}, 0.5),  # root + a + leaf "x": change one character of a 1-character leaf: 1 - 1/2
        ({}, {}, 1.0),
        ({"a": 1}, {}, 0.0),
    ],
)
def test_nted(pred, gold, accuracy):
    assert nted_accuracy(pred, gold) == pytest.approx(accuracy)


def test_tree_edit_distance_costs():
    leaf = lambda text: _Node(text, leaf=True)  # noqa: E731
    a = _Node("<root>", [_Node("k", [leaf("kitten")])])
    b = _Node("<root>", [_Node("k", [leaf("sitting")])])
    assert tree_edit_distance(a, b) == 3  # Levenshtein(kitten, sitting)
    c = _Node("<root>", [_Node("j", [leaf("kitten")])])
    assert tree_edit_distance(a, c) == 1
    assert tree_edit_distance(_Node("<root>"), a) == 1 + len("kitten")


def test_matching_records_by_stem_source_and_hash(tmp_path):
    gold = tmp_path / "gold"
    for stem in ("one", "two", "three", "four"):
        write(gold / f"{stem}.json", {"n": stem})
    pred = tmp_path / "pred"
    write(pred / "one.json", record("in/one.pdf", {"n": "one"}))  # same stem
    write(pred / "renamed.json", record("/data/in/two.pdf", {"n": "two"}))  # the record's source
    write(pred / "three-0a1b2c3d.json", record("x/three-copy.pdf", {"n": "three"}))  # <stem>-<hash>
    write(pred / "extra.json", {"n": "extra"})
    (pred / "broken.json").write_text("{not json", encoding="utf-8")
    report = evaluate(pred, gold)
    d = report.to_dict()
    assert (d["tp"], d["fp"], d["fn"]) == (3, 0, 1)
    assert [(x["stem"], Path(x["pred"]).name) for x in d["per_document"]] == [
        ("four", ""),
        ("one", "one.json"),
        ("three", "three-0a1b2c3d.json"),
        ("two", "renamed.json"),
    ]
    assert d["missing_pred"] == ["four"]
    assert d["missing_gold"] == [str(pred / "extra.json")]
    assert [Path(x["file"]).name for x in d["unreadable"]] == ["broken.json"]


def test_error_record_counts_as_nothing_predicted(tmp_path):
    write(tmp_path / "g" / "a.json", {"x": 1, "y": "z"})
    write(tmp_path / "p" / "a.json", record("a.pdf", None, status="error"))
    d = evaluate(tmp_path / "p", tmp_path / "g").to_dict()
    assert (d["tp"], d["fp"], d["fn"], d["precision"], d["recall"], d["f1"], d["nted"]) == (0, 0, 2, 0.0, 0.0, 0.0, 0.0)


def test_single_files(tmp_path):
    g = write(tmp_path / "gold.json", GOLD)
    p = write(tmp_path / "whatever.json", record("x.pdf", PRED))
    d = evaluate(p, g).to_dict()
    assert (d["documents"], d["tp"], d["fp"], d["fn"]) == (1, 3, 1, 1)


def test_missing_path(tmp_path):
    with pytest.raises(UsageError):
        evaluate(tmp_path / "nope", tmp_path)


def _leaf_count(value):
    """Independent count of non-null, non-empty leaves (the gold pairs)."""
    if isinstance(value, dict):
        return sum(_leaf_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(_leaf_count(v) for v in value)
    return 0 if value is None or (isinstance(value, str) and not value.strip()) else 1


def test_samples_with_planted_errors(tmp_path):
    names = sorted(p.stem for p in EXPECTED.glob("*.json"))
    needed = {"invoice-de-einfach", "invoice-fr-services", "invoice-jp-yen"}
    if not needed <= set(names):
        pytest.skip(f"{EXPECTED} not present")
    golds = {n: json.loads((EXPECTED / f"{n}.json").read_text(encoding="utf-8")) for n in names}
    pred = tmp_path / "pred"
    for n, data in golds.items():
        data = copy.deepcopy(data)
        if n == "invoice-de-einfach":
            data["total"] = 2377.87  # one wrong total
        elif n == "invoice-fr-services":
            del data["payment_terms"]  # one missing field
        elif n == "invoice-jp-yen":
            assert data["buyer"]["vat_id"] is None
            data["buyer"]["vat_id"] = "T1234567890123"  # one extra field
        # half as our records (some with a hash in the name), half as plain JSON
        if len(n) % 2:
            write(pred / f"{n}-9f86d081.json", record(f"samples/{n}.pdf", data))
        else:
            write(pred / f"{n}.json", data)
    assert golds["invoice-fr-services"]["payment_terms"] and golds["invoice-de-einfach"]["total"] == 2377.78
    n_gold = sum(_leaf_count(g) for g in golds.values())
    report = evaluate(pred, EXPECTED)
    # the wrong total is one FP and one FN; the missing field one FN; the extra field one FP
    tp, fp, fn = n_gold - 2, 2, 2
    c = report.counts
    assert (c.tp, c.fp, c.fn) == (tp, fp, fn)
    assert c.precision == tp / (tp + fp) == (n_gold - 2) / n_gold
    assert c.recall == tp / (tp + fn)
    assert c.f1 == 2 * tp / (2 * tp + fp + fn)
    rows = dict(report.fields)
    with_total = sum(1 for g in golds.values() if g.get("total") is not None)
    assert rows["/total"] == Counts(with_total - 1, 1, 1)
    assert rows["/buyer/vat_id"].fp == 1 and rows["/payment_terms"].fn == 1
    amounts = sum(1 for g in golds.values() for item in g.get("line_items") or [] if item.get("amount") is not None)
    assert amounts > 10 and rows["/line_items/*/amount"] == Counts(amounts, 0, 0)
    per_doc = {d.stem: d for d in report.documents}
    assert per_doc["invoice-de-einfach"].nted < 1 and per_doc["invoice-ch-chf"].nted == 1.0
    assert report.missing_pred == () and report.missing_gold == ()
    assert "\n/total " in report.to_text()


def reviewed(record_name, data):
    """A reviewed file's content, as ``extract review`` writes it (only ``data`` is read for scoring)."""
    return {
        "version": 1,
        "record": record_name,
        "source": "in/a.pdf",
        "sha256": "",
        "schema": "invoice",
        "data": data,
        "reviewer": "me",
        "reviewed_at": "2026-01-01T00:00:00+00:00",
        "original_status": "review",
        "approved": True,
        "changed": ["/a"],
    }


def test_reviewed_files_are_the_gold_for_the_records_beside_them(tmp_path):
    write(tmp_path / "a.json", record("in/a.pdf", {"a": "x", "b": 1}, status="review"))
    write(tmp_path / "a.reviewed.json", reviewed("a.json", {"a": "y", "b": 1}))
    write(tmp_path / "b.json", record("in/b.pdf", {"a": "z"}))  # nobody reviewed it
    report = evaluate_reviewed(tmp_path).to_dict()
    assert (report["documents"], report["tp"], report["fp"], report["fn"]) == (1, 1, 1, 1)
    assert report["per_document"] == [
        {
            "stem": "a",
            "pred": str(tmp_path / "a.json"),
            "gold": str(tmp_path / "a.reviewed.json"),
            "tp": 1,
            "fp": 1,
            "fn": 1,
            "precision": 0.5,
            "recall": 0.5,
            "f1": 0.5,
            "nted": 0.75,
        }
    ]  # one character changed of the gold's 4 nodes
    assert report["missing_gold"] == [str(tmp_path / "b.json")] and report["missing_pred"] == []
    # any other evaluation never takes a reviewed file for a prediction
    gold = write(tmp_path / "gold" / "a.json", {"a": "y", "b": 1})
    other = evaluate(tmp_path, gold.parent).to_dict()
    assert (other["tp"], other["fp"], other["fn"], other["missing_gold"]) == (1, 1, 1, [str(tmp_path / "b.json")])


@pytest.mark.parametrize(
    "args, message",
    [
        (["eval", "{out}"], "give either GOLD or --gold reviewed"),
        (["eval", "{out}", "{out}", "--gold", "reviewed"], "give either GOLD or --gold reviewed"),
        (["eval", "{out}", "--gold", "mine"], "--gold takes `reviewed`"),
        (["eval", "{out}", "--gold", "reviewed"], "no reviewed files"),
    ],
)
def test_eval_gold_option_usage(tmp_path, args, message):
    from typer.testing import CliRunner

    from extractor.cli.commands import app

    write(tmp_path / "a.json", record("in/a.pdf", {"a": "x"}))
    result = CliRunner().invoke(app, [a.format(out=tmp_path) for a in args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_grounding_precision_against_gold(tmp_path):
    """Of the fields a record marks found on the page, how many hold the gold value: a wrong total marked found
    is what grounding must not do."""
    data = {"invoice_number": "A-1", "total": 99.5, "currency": "EUR", "line_items": [{"quantity": 1}]}
    rec = record("in/a.pdf", data, status="review")
    rec["grounding"] = {
        "fields": {"/invoice_number": True, "/total": True, "/currency": False, "/line_items/0/quantity": None}
    }
    write(tmp_path / "pred" / "a.json", rec)
    write(tmp_path / "pred" / "b.json", {"invoice_number": "B-2"})  # plain JSON: no grounding to score
    write(
        tmp_path / "gold" / "a.json",
        {"invoice_number": "A-1", "total": 100.5, "currency": "EUR", "line_items": [{"quantity": 1}]},
    )
    write(tmp_path / "gold" / "b.json", {"invoice_number": "B-2"})
    report = evaluate(tmp_path / "pred", tmp_path / "gold")
    assert report.to_dict()["grounding"] == {
        "records": 1,
        "grounded": 2,
        "grounded_correct": 1,
        "precision": 0.5,
        "ungrounded": 1,
        "ungrounded_correct": 1,
        "unchecked": 1,
    }
    assert (
        "grounding (1 records): 1 of 2 fields marked found hold the gold value (precision 0.5000); 1 of 1 "
        "marked not found do; 1 not checkable"
    ) in report.to_text()
    assert "grounding" not in evaluate(tmp_path / "pred" / "b.json", tmp_path / "gold" / "b.json").to_dict()
