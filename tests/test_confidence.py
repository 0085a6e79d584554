"""Per-field confidence end to end on a kit model whose scripted answer has controlled ambiguity
(``extractor.testing.ambiguity``): evidence from the decode loop, the fused confidence, ``--auto-accept`` and schema
thresholds, ``extract calibrate`` and its file. One runner, a handful of extractions of one small page."""

from __future__ import annotations

import json
import math

import pytest
from helpers import ROOT
from typer.testing import CliRunner

from extractor.errors import SchemaError, UsageError
from extractor.record import record_schema
from extractor.schema import load_schema

SAMPLE = str(ROOT / "samples" / "invoice-de-einfach.pdf")
DEMO_ANSWER = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
BLUR = {"/invoice_number": 0.5, "/issue_date": 1.0, "/total": 2.0}  # pointer -> the logit margin its sampled tokens get


@pytest.fixture(scope="module")
def demo(model_factory):
    """The records test's demo model (the same arguments: built once per session)."""
    answer = json.dumps(json.loads(DEMO_ANSWER.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
    return model_factory.scripted(answer=answer, schema="invoice")


@pytest.fixture(scope="module")
def runs(demo):
    """Extract the sample page under named settings, once each (the runner loaded once)."""
    from extractor import Extractor
    from extractor.settings import Settings
    from extractor.testing.ambiguity import ambiguous_fields

    blur = ambiguous_fields(demo, BLUR)
    base = Extractor(settings=Settings(model=str(demo.path)))
    cache: dict[str, dict] = {}

    def run(name: str, **changes) -> dict:
        if name not in cache:
            if changes.pop("blur", False):
                changes["extra_processors"] = lambda attempt: (blur,)
            settings = Settings(model=str(demo.path), **changes)
            cache[name] = Extractor(settings=settings, runner=base.runner).extract(SAMPLE).to_dict()
        return cache[name]

    return run


def _blurred(runs) -> dict:
    return runs("blurred", blur=True, temperature=1.0, seed=7, auto_accept=0.95)


def _plain(runs) -> dict:
    return runs("plain", auto_accept=0.95)


def test_low_margin_fields_get_lower_confidence_exactly_per_seed(runs):
    record = _blurred(runs)
    again = runs("blurred-again", blur=True, temperature=1.0, seed=7, auto_accept=0.95)
    assert record["fields"] == again["fields"]  # exactly reproducible
    fields = record["fields"]
    for pointer, margin in BLUR.items():
        assert fields[pointer]["p_min"] == pytest.approx(
            1 / (1 + math.exp(-margin)), abs=1e-4
        )  # float32 logits near 550: ulp 6e-5
        assert fields[pointer]["margin_first"] == pytest.approx(margin, abs=1e-3)
    others = [v["confidence"] for k, v in fields.items() if k not in BLUR]
    order = [fields[p]["confidence"] for p in ("/invoice_number", "/issue_date", "/total")]
    assert order == sorted(order) and order[-1] < min(others)
    assert all(0 <= v["confidence"] <= 1 for v in fields.values())
    assert record["confidence"]["calibration"] == "uncalibrated"
    jsonschema = pytest.importorskip("jsonschema")
    assert not list(jsonschema.Draft202012Validator(record_schema()).iter_errors(record))


def test_forced_tokens_never_count_as_evidence(demo, runs):
    from extractor.testing.ambiguity import field_token_indexes

    fields = _plain(runs)["fields"]
    indexes = field_token_indexes(demo)
    for pointer, own in indexes.items():
        fed = sum(1 for i in own if demo.fed[i])
        entry = fields[pointer]
        assert entry["tokens"] == len(own)
        assert entry["forced_tokens"] >= fed  # every fed token is forced (a one-token mask may force more)
        if entry["forced_tokens"] == entry["tokens"]:
            assert entry["p_min"] is None and entry["margin_first"] is None
        else:
            assert entry["p_min"] == pytest.approx(1.0, abs=1e-6)
    assert any(e["forced_tokens"] for e in fields.values())
    # /issue_date is partly forced: its mean is over the sampled tokens alone (a forced token, certain under the
    # script, would pull it towards 1)
    date = _blurred(runs)["fields"]["/issue_date"]
    assert 0 < date["forced_tokens"] < date["tokens"]
    assert date["p_mean"] == pytest.approx(1 / (1 + math.exp(-1.0)), abs=1e-4)  # float32 logits near 550: ulp 6e-5


def test_evidence_off_leaves_token_features_null(runs):
    fields = runs("no-evidence", evidence=False)["fields"]
    assert fields and all(e["p_min"] is None and e["tokens"] is None for e in fields.values())
    assert all(e["grounding"] is not None for e in fields.values())


def test_auto_accept_names_the_field_below_and_keeps_the_others_ok(runs):
    below = _blurred(runs)
    assert below["status"] == "review"
    names = ["/invoice_number", "/issue_date"]  # /total's margin of 2 keeps it above 0.95
    assert below["confidence"] == {"calibration": "uncalibrated", "threshold": 0.95, "below": names}
    assert [w["path"] for w in below["warnings"] if w["code"] == "low_confidence"] == names
    above = _plain(runs)
    assert above["status"] == "ok" and above["confidence"]["below"] == []


def test_a_schema_threshold_overrides_the_default(runs, tmp_path):
    schema = json.loads((ROOT / "schemas" / "invoice.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["total"]["x-extractor-threshold"] = 0.999
    path = tmp_path / "strict.schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    record = runs("schema-threshold", schema=str(path))
    assert record["status"] == "review"
    assert record["confidence"]["below"] == ["/total"]
    bad = tmp_path / "bad.schema.json"
    schema["properties"]["total"]["x-extractor-threshold"] = 1.5
    bad.write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(SchemaError, match="x-extractor-threshold of /total"):
        load_schema(str(bad))


def _reviewed(record: dict, name: str, wrong: dict) -> dict:
    """The review page's file for a record whose fields in ``wrong`` (pointer -> corrected value) were changed."""
    data = json.loads(json.dumps(record["data"]))
    for pointer, value in wrong.items():
        target = data
        parts = pointer.strip("/").split("/")
        for part in parts[:-1]:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[parts[-1]] = value
    return {"version": 1, "record": name, "data": data, "approved": True, "changed": sorted(wrong)}


def test_calibrate_improves_ece_and_records_name_the_file(runs, demo, tmp_path):
    from extractor.cli.commands import app
    from extractor.trust.calibration import read_calibration

    out = tmp_path / "out"
    out.mkdir()
    # the low-margin fields were wrong, and so, in every record, was a confident one: uncalibrated, the
    # confidence is too high for it; the fit learns the rate
    systematic = {"/buyer/name": "Someone Else", "/buyer/address/street": "Elsewhere 1"}
    sets = {
        "a": (_blurred(runs), {"/invoice_number": "RE-X", "/issue_date": "2026-01-01", **systematic}),
        "b": (_plain(runs), systematic),
        "c": (runs("no-evidence", evidence=False), systematic),
    }
    for name, (record, wrong) in sets.items():
        (out / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
        (out / f"{name}.reviewed.json").write_text(json.dumps(_reviewed(record, name, wrong)), encoding="utf-8")
    target = tmp_path / "ours.json"
    result = CliRunner().invoke(app, ["calibrate", str(out), "--output", str(target), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    overall = report["reliability"]["*"]
    assert overall["before"]["fields"] == overall["after"]["fields"] == sum(len(r["fields"]) for r, _ in sets.values())
    assert overall["after"]["ece"] < overall["before"]["ece"]
    assert overall["after"]["auroc"] is not None and overall["after"]["coverage"].keys() == {"50", "80", "95"}
    stored = json.loads(target.read_text(encoding="utf-8"))
    calibration = read_calibration(target)
    assert calibration.name == "ours" == stored["name"]
    assert {k: m.to_dict() for k, m in calibration.models.items()} == stored["models"]  # round trip
    record = runs("calibrated", calibration=str(target))
    assert record["confidence"] == {"calibration": "ours", "threshold": None, "below": []}
    assert record["fields"]["/seller/name"]["confidence"] != _plain(runs)["fields"]["/seller/name"]["confidence"]


def test_calibrate_and_calibration_refuse_bad_inputs(tmp_path):
    from extractor.settings import Settings
    from extractor.tools.calibrate import calibrate

    with pytest.raises(UsageError, match="no reviewed records"):
        calibrate([tmp_path], output=tmp_path / "c.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(UsageError, match=f"calibration file {bad}: not an extractor-calibration file"):
        Settings(calibration=str(bad))
    with pytest.raises(UsageError, match="auto_accept"):
        Settings(auto_accept=1.5)


def test_reliability_metrics_on_known_values():
    from extractor.trust.calibration import reliability

    perfect = reliability([0.9, 0.8, 0.2, 0.1], [True, True, False, False])
    assert perfect["auroc"] == 1.0 and perfect["coverage"]["50"] == 1.0
    inverted = reliability([0.1, 0.2, 0.8, 0.9], [True, True, False, False])
    assert inverted["auroc"] == 0.0 and inverted["coverage"]["50"] == 0.0
    # one bin each: |0.9 - 1| and |0.1 - 0| weighted by half
    assert reliability([0.95, 0.05], [True, False])["ece"] == pytest.approx(0.05)


def test_the_host_and_device_evidence_agree():
    """The CPU path (numpy on the logits' memory, a 20-nat window) gives the device path's numbers (mx logsumexp
    and topk over the whole vocabulary), ties, a sampled token that is not the best and a one-hot row included; the
    CPU path's reading, deferred until the next pass is under way (``flush``), keeps the tokens' order."""
    import mlx.core as mx

    from extractor.runners.token_evidence import MARGIN_CAP, EvidenceCollector

    rng = mx.random.key(3)
    logits = mx.random.normal((1, 248_320), key=rng) * 4
    mx.eval(logits)
    for token in (int(mx.argmax(logits).item()), 17):
        host, device = (
            EvidenceCollector._host_stats(logits, token),
            EvidenceCollector._device(logits, mx.array([token])),
        )
        assert device[0] == token
        assert host[0] == pytest.approx(device[1], abs=1e-3) and host[1] == pytest.approx(device[2], abs=1e-4)
    tied = mx.array([[1.0, 5.0, 5.0, -2.0]])
    mx.eval(tied)
    assert EvidenceCollector._host_stats(tied, 1)[1] == 0.0
    one_hot = mx.array([[-float("inf"), 0.0, -float("inf")]])
    collector = EvidenceCollector()
    assert collector.take(one_hot, mx.array([1])) == 1
    assert collector.logprob == [] or not collector.host  # on the CPU: read at the next step's flush
    collector.forced_tokens(2)  # jump-forward after it: the sampled token's evidence comes first
    assert (collector.logprob, collector.margin, collector.forced) == (
        [0.0, None, None],
        [MARGIN_CAP, None, None],
        [False, True, True],
    )


def test_assess_thresholds_checks_and_exact_data():
    from extractor.trust.confidence import assess

    data = {"total": 10.0, "lines": [{"amount": 4.0}, {"amount": None}], "note": ""}
    checks = [{"code": "lines_subtotal", "message": "m", "path": "/lines"}]
    grounding = {"fields": {"/total": True, "/lines/0/amount": False}, "where": {"/total": {"page": 1}}}
    result = assess(
        data, tokens=None, grounding=grounding, checks=checks, field_thresholds={"": 0.5, "/lines/*/amount": 0.99}
    )
    assert list(result.fields) == ["/total", "/lines/0/amount", "/lines/1/amount", "/note"]  # nulls, "" included
    assert result.fields["/lines/0/amount"]["checks"] == [{"code": "lines_subtotal", "holds": False}]
    assert result.fields["/total"]["checks"] == [] and result.fields["/total"]["grounding"]["page"] == 1
    conf = {p: e["confidence"] for p, e in result.fields.items()}
    assert conf["/lines/0/amount"] < conf["/lines/1/amount"] < conf["/total"]  # ungrounded + failed check lowest
    assert result.summary["below"] == ["/lines/0/amount", "/lines/1/amount"]  # the items' 0.99; the root's 0.5
    assert [f["path"] for f in result.findings] == result.summary["below"]
    exact = assess(data, tokens=None, grounding=grounding, checks=(), threshold=0.99, exact=True)
    assert {e["confidence"] for e in exact.fields.values()} == {1.0} and exact.summary["below"] == []


def test_the_review_list_puts_the_least_confident_first(tmp_path):
    from extractor.tools.review_page.records import RecordStore

    def record(name: str, confidences: list[float] | None) -> None:
        body = {"source": f"{name}.pdf", "status": "review", "data": {}}
        if confidences is not None:
            body["fields"] = {f"/f{i}": {"confidence": c} for i, c in enumerate(confidences)}
            body["confidence"] = {"calibration": "uncalibrated", "threshold": 0.9, "below": ["/f0"]}
        (tmp_path / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")

    record("a-sure", [0.99, 0.98])
    record("b-unsure", [0.4, 0.99])
    record("c-older", None)  # made before per-field confidence: after the others
    store = RecordStore(tmp_path)
    entries = store.entries()
    assert [e.name for e in entries] == ["b-unsure", "a-sure", "c-older"]
    summary = entries[0].summary(None)
    assert (summary["confidence"], summary["below"]) == (0.4, ["/f0"])
