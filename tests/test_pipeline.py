"""The core pipeline end to end on tiny real-architecture models (real mlx_vlm.load, real generation)."""

import json
from pathlib import Path

import pytest
from helpers import settings_for
from PIL import Image

from extractor import Extractor
from extractor.runners.constrain.omit import complete
from extractor.runners.guards import GuardSettings
from extractor.schema import load_schema
from extractor.testing import ENDOFTEXT, IM_END

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "samples" / "invoice-de-einfach.pdf")
# the scripted models answer with the sample's true data, so the record passes checks and grounding (status ok)
SAMPLE_INVOICE = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8"))
ANSWER = json.dumps(SAMPLE_INVOICE, ensure_ascii=False, separators=(",", ":"))
BAD_INVOICE = {"invoice_number": 42, "issue_date": "31.01.2026", "currency": "EURO"}
NO_GUARDS = GuardSettings.without(["all"])


@pytest.fixture(scope="module")
def bug_model(model_factory):
    """Upstream's bug: config eos 248044 only, tokenizer eos <|endoftext|>; answers, then <|im_end|> forever."""
    return model_factory.scripted(
        answer=ANSWER, then="im_end", config_eos=ENDOFTEXT, tokenizer_eos="<|endoftext|>", schema="invoice"
    )


@pytest.fixture(scope="module")
def bug_extractor(bug_model):
    return Extractor(model=str(bug_model.path))


def test_plain_mlx_vlm_generate_never_stops(bug_model):
    """The seed's bug reproduced: mlx-vlm trusts config.json and runs to max_tokens."""
    from mlx_vlm import generate, load
    from mlx_vlm.prompt_utils import apply_chat_template

    model, processor = load(str(bug_model.path))
    prompt = apply_chat_template(processor, model.config, "Extract the invoice.", num_images=1)
    budget = len(bug_model.answer_token_ids) + 30
    result = generate(model, processor, prompt, image=[Image.new("RGB", (64, 64), "white")], max_tokens=budget)
    assert result.finish_reason == "length"
    assert result.generation_tokens == budget
    assert result.token_ids[len(bug_model.answer_token_ids) :] == [IM_END] * 30


def test_extract_stops_on_first_im_end(bug_model, bug_extractor):
    record = bug_extractor.extract(SAMPLE)
    assert record.status == "ok", record.errors
    assert record.data == SAMPLE_INVOICE
    assert (record.finish_reason, record.stop_token_id) == ("stop", IM_END)
    assert record.usage.generated_tokens == len(bug_model.answer_token_ids) + 1  # the answer + the stop token
    assert {ENDOFTEXT, IM_END} <= set(record.stop_token_ids)
    assert record.usage.prompt_tokens > 0 and record.usage.image_tokens > 0
    assert record.sha256 and record.pages == 1 and record.schema == "invoice"


def test_without_im_end_in_stop_set_is_runaway(bug_model, bug_extractor):
    """Diagnosis option: drop 248046 (and the guards, and constraints) and the waste is flagged, data kept."""
    ex = Extractor(
        settings=settings_for(bug_model, drop_stop_ids=(IM_END,), guards=NO_GUARDS, constrained=False, max_tokens=400),
        runner=bug_extractor.runner,
    )
    record = ex.extract(SAMPLE)
    assert record.status == "runaway"
    assert record.data == SAMPLE_INVOICE
    assert record.finish_reason == "length" and record.usage.generated_tokens == 400
    assert IM_END not in record.stop_token_ids
    assert record.errors[0]["code"] == "runaway"


def test_max_tokens_below_answer_is_truncated(bug_extractor, bug_model):
    ex = Extractor(settings=settings_for(bug_model, max_tokens=40), runner=bug_extractor.runner)
    record = ex.extract(SAMPLE)
    assert (record.status, record.data, record.finish_reason) == ("truncated", None, "length")
    assert record.usage.generated_tokens == 40


def test_nonconforming_json_is_invalid_with_pointers(model_factory):
    tiny = model_factory.scripted(answer=json.dumps(BAD_INVOICE), then="im_end")
    record = Extractor(settings=settings_for(tiny, constrained=False)).extract(SAMPLE)
    assert record.status == "invalid"
    # the members the prompt lets a model leave out (nullable: constrain.omit) come back as null, the rest as written
    assert record.data == complete(BAD_INVOICE, load_schema("invoice").schema)
    assert {k: v for k, v in record.data.items() if v is not None} == BAD_INVOICE
    paths = {e["path"] for e in record.errors}
    assert {"/invoice_number", "/issue_date", "/currency", ""} <= paths


def test_random_model_api_reports_stop_set_and_usage(model_factory):
    tiny = model_factory.random()
    record = Extractor(settings=settings_for(tiny, max_tokens=24)).extract(SAMPLE)
    assert {ENDOFTEXT, IM_END} <= set(record.stop_token_ids)
    assert record.usage.generated_tokens > 0 and record.usage.prompt_tokens > 0
    assert record.status in ("ok", "invalid", "truncated", "runaway")


def test_api_accepts_bytes_and_images(bug_extractor):
    by_bytes = bug_extractor.extract(Path(SAMPLE).read_bytes())
    by_image = bug_extractor.extract(Image.new("RGB", (400, 560), "white"))
    assert (by_bytes.source, by_bytes.status) == ("<bytes>", "ok")
    assert (by_image.source, by_image.status, by_image.pages) == ("<image>", "ok", 1)


def test_extract_many_survives_bad_inputs(bug_extractor, tmp_path):
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF garbage")
    records = list(bug_extractor.extract_many([str(tmp_path / "missing.pdf"), str(corrupt), SAMPLE]))
    assert [r.status for r in records] == ["error", "error", "ok"]
    assert [r.errors[0]["code"] for r in records[:2]] == ["not_found", "corrupt"]
    assert all(r.source in r.errors[0]["message"] for r in records[:2])


def test_api_is_thread_safe(bug_extractor):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=3) as pool:
        records = list(pool.map(bug_extractor.extract, [SAMPLE] * 3))
    assert [r.data for r in records] == [SAMPLE_INVOICE] * 3
