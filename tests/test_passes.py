"""``--passes 2``: a second, sampled answer and each field's agreement with the first (``pipeline.passes``), on the
kit's scripted model whose low-margin fields flip under sampling (``testing.ambiguity``, ``flip=True``):
test_decode.py's short invoice (151 tokens where the demo's answer takes 376; the session builds it once). One
runner, three decodes: a two-pass extraction and the second pass's settings alone (the same sampled answer: the
record is reproducible per seed). The rest is table-driven."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT, einvoice_pdf
from test_decode import SHORT_ANSWER
from typer.testing import CliRunner

from extractor.errors import UsageError
from extractor.record import record_schema

SAMPLE = str(ROOT / "samples" / "invoice-de-einfach.pdf")
FLIP = {"/invoice_number": 0.5, "/seller/name": 0.2}  # low margins that sampling flips (seed 0 + 1 flips both)


@pytest.fixture(scope="module")
def two_passes(model_factory):
    """The short invoice's two-pass record, and the second pass's settings run alone as one pass."""
    from extractor import Extractor
    from extractor.pipeline.passes import pass_settings
    from extractor.settings import Settings
    from extractor.testing.ambiguity import ambiguous_fields

    short = model_factory.scripted(answer=SHORT_ANSWER, schema="invoice")  # test_decode.py's
    blur = ambiguous_fields(short, FLIP, flip=True)
    settings = Settings(model=str(short.path), passes=2, extra_processors=lambda attempt: (blur,))
    first = Extractor(settings=settings)
    record = first.extract(SAMPLE).to_dict()
    alone = pass_settings(settings).replace(passes=1)
    second = Extractor(settings=alone, runner=first.runner).extract(SAMPLE).to_dict()
    return json.loads(SHORT_ANSWER), record, second, first.runner


def test_low_margin_fields_disagree_the_others_agree(two_passes):
    script, record, _, _ = two_passes
    assert record["data"] == script  # the data stays the first (greedy) answer
    fields = record["fields"]
    disagree = sorted(p for p, e in fields.items() if e["agreement"] is False)
    assert disagree == sorted(FLIP)
    assert all(e["agreement"] is True for p, e in fields.items() if p not in FLIP)
    assert max(fields[p]["confidence"] for p in FLIP) < min(e["confidence"] for p, e in fields.items() if p not in FLIP)
    forced = [p for p, e in fields.items() if e["forced_tokens"]]  # partly forced by the grammar: agree
    assert forced and all(fields[p]["agreement"] is True for p in forced)
    jsonschema = pytest.importorskip("jsonschema")
    assert not list(jsonschema.Draft202012Validator(record_schema()).iter_errors(record))


def test_the_second_answer_is_reproducible_per_seed_and_its_cost_is_in_the_record(two_passes):
    from extractor.trust.confidence import agreement

    script, record, second, _ = two_passes
    assert agreement(script, second["data"]) == {p: e["agreement"] for p, e in record["fields"].items()}
    assert second["data"] != script and "passes" not in second
    assert all(e["agreement"] is None for e in second["fields"].values())  # one pass: null
    passes = record["passes"]
    assert {k: passes[k] for k in ("count", "temperature", "seed", "status", "compared", "agreed", "reason")} == {
        "count": 2,
        "temperature": 1.0,
        "seed": 1,
        "status": "ok",  # the second answer's own verdict: it parsed and fits the schema
        "compared": len(record["fields"]),
        "agreed": len(record["fields"]) - len(FLIP),
        "reason": None,
    }
    assert passes["usage"]["generated_tokens"] == second["usage"]["generated_tokens"]
    first_tokens = record["usage"]["generated_tokens"] - passes["usage"]["generated_tokens"]
    assert first_tokens > 0  # the record's usage sums both passes
    assert passes["timings"]["decode_s"] > 0 and record["timings"]["decode_s"] > passes["timings"]["decode_s"]
    assert record["timings"]["total_s"] >= record["timings"]["decode_s"]


def test_without_a_second_answer_the_record_says_why(two_passes, tmp_path):
    from extractor import Extractor
    from extractor.settings import Settings

    *_, runner = two_passes
    pdf = einvoice_pdf(tmp_path / "einvoice.pdf")  # valid embedded XML: its data, nothing generated
    record = Extractor(settings=Settings(model=runner.model_id, passes=2), runner=runner).extract(str(pdf)).to_dict()
    assert record["data_source"] == "embedded_xml" and record["usage"]["generated_tokens"] == 0
    assert {k: record["passes"][k] for k in ("count", "compared", "usage", "reason")} == {
        "count": 1,
        "compared": 0,
        "usage": None,
        "reason": "the data was read from embedded XML",
    }
    assert record["fields"] and all(e["agreement"] is None for e in record["fields"].values())


def test_agreement_compares_values_as_json():
    from extractor.trust.confidence import agreement

    first = {"a": 12, "b": True, "c": [{"d": "x"}, {"d": None}], "e": "y"}
    second = {"a": 12.0, "b": 1, "c": [{"d": "x"}], "e": "z"}
    assert agreement(first, second) == {"/a": True, "/b": False, "/c/0/d": True, "/c/1/d": False, "/e": False}
    assert set(agreement(first, None).values()) == {False}


def test_agreement_is_a_feature_and_old_calibration_files_load(tmp_path):
    from extractor.trust.calibration import fit, read_calibration, to_dict
    from extractor.trust.confidence import DEFAULT_WEIGHTS, OPTIONAL_FEATURES, features

    entry = {"p_min": 0.9, "p_mean": 0.95, "margin_first": 3.0, "tokens": 3, "forced_tokens": 0}
    one, agreed, disagreed = (features({**entry, "agreement": a}) for a in (None, True, False))
    assert (one["agreed"], one["disagreed"], agreed["agreed"], disagreed["disagreed"]) == (0, 0, 1, 1)
    assert DEFAULT_WEIGHTS.score(disagreed) < DEFAULT_WEIGHTS.score(one) < DEFAULT_WEIGHTS.score(agreed)
    # fitted on records made with one pass, the agreement features never vary: weight 0
    examples = [("/a", features({**entry, "p_min": p}), p > 0.5) for p in (0.1, 0.2, 0.7, 0.8, 0.9)]
    calibration = fit(examples, name="one-pass")
    assert all(calibration.models["*"].weights[name] == 0 for name in OPTIONAL_FEATURES)
    # a file written before the agreement features: they read as weight 0
    old = to_dict(calibration)
    for model in old["models"].values():
        for name in OPTIONAL_FEATURES:
            del model["weights"][name]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert read_calibration(path).models == calibration.models
    # fitted on records with agreement, disagreeing fields that were wrong weigh it
    mixed = [("/a", features({**entry, "agreement": i % 3 != 0}), i % 3 != 0) for i in range(12)]
    assert fit(mixed, name="two-pass").models["*"].weights["disagreed"] < 0


def test_passes_setting_option_and_fingerprint():
    from extractor.cli.commands import app
    from extractor.settings import Settings

    with pytest.raises(UsageError, match="passes must be 1 to 2"):
        Settings(passes=3)
    one = Settings().fingerprint(schema_text="{}")
    assert Settings(passes=1).fingerprint(schema_text="{}") == one != Settings(passes=2).fingerprint(schema_text="{}")
    result = CliRunner().invoke(app, ["run", "x.pdf", "--passes", "3"])
    assert result.exit_code == 2 and "--passes" in result.output
