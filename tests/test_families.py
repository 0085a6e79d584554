"""The runner on every kit family: the stop set the model really ends on (each family's config bug), our decode
loop where the load-time probe allows it and mlx-vlm's generate_step where it does not, the same records with the
prefix cache and jump-forward on or off, and the doctor's diagnosis, fix and smoke check.

Every family's directory carries its typical bug (``config_bug=True``: config.json and generation_config.json name
only the tokenizer's eos, the template ends turns with another token); answers are forced token by token with the
kit's ``force_answer`` (then the end-of-turn token forever), so a runner that trusted the config would never stop.
"""

from __future__ import annotations

import json
import shutil

import pytest
from helpers import fed_stepwise, make_pdf, settings_for

from extractor import Extractor
from extractor.testing import family_names, force_answer
from extractor.tools.doctor import run_doctor
from extractor.tools.doctor.smoke import smoke_check

FAMILIES = family_names()
# A small custom schema (no invoice checks, no key fields) keeps every generation short: the record is ok exactly
# when the answer is schema-valid and ended on a stop token.
SCHEMA = {
    "title": "Note",
    "type": "object",
    "additionalProperties": False,
    "required": ["number", "total"],
    "properties": {
        "number": {"type": "string", "maxLength": 12},
        "total": {"type": "number", "minimum": 0, "maximum": 100000, "multipleOf": 0.01},
    },
}
ANSWER = {"number": "RE-2026-42", "total": 1234.56}
ANSWER_TEXT = json.dumps(ANSWER, separators=(",", ":"))
# Turn openers a stop set must never hold (GLM's <|user|> is its end: it has no closing token)
OPENERS = ("<|im_start|>", "<start_of_turn>", "<|turn>", "[INST]", "<|assistant|>")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The schema file and two one-page documents."""
    root = tmp_path_factory.mktemp("families")
    schema = root / "note.schema.json"
    schema.write_text(json.dumps(SCHEMA), encoding="utf-8")
    docs = []
    for i, text in enumerate(("Rechnung RE-2026-42 Summe 1.234,56 EUR", "Invoice RE-2026-42 total 1,234.56")):
        docs.append(root / f"doc{i}.pdf")
        docs[-1].write_bytes(make_pdf([text]))
    return {"schema": schema, "docs": docs}


@pytest.fixture(scope="module")
def runner(model_factory):
    """``runner(name)``: (FamilyModel with the config bug, MlxRunner), loaded once per module."""
    from extractor.runners.mlx.runner import MlxRunner

    cache: dict = {}

    def get(name: str):
        if name not in cache:
            family = model_factory.family(name, config_bug=True)
            cache[name] = (family, MlxRunner(model=str(family.path)))
        return cache[name]

    return get


def extract(runner, files, *, doc: int = 0, max_tokens: int = 160, **changes):
    settings = settings_for(
        runner.model_dir, schema=str(files["schema"]), isolate=False, ocr="never", max_tokens=max_tokens, **changes
    )
    return Extractor(settings, runner=runner).extract(str(files["docs"][doc]))


def forcing(family, runner):
    forced = force_answer(runner.tokenizer, ANSWER_TEXT, end_token_id=family.end_of_turn_id)
    return forced, (lambda attempt: (forced,))


def _status_of_random_data(record: dict) -> str:
    """A random-weight model's schema-valid answer is ok, unless its invented values are not on the page: the
    schema's required fields are key fields (``schema.key_fields``), so those make it review."""
    return "review" if any(w["code"] == "ungrounded" for w in record["warnings"]) else "ok"


def outcome(record) -> dict:
    """What must not change with the prefix cache or jump-forward."""
    out = record.to_dict()
    return {k: out[k] for k in ("status", "data", "errors", "warnings", "finish_reason", "stop_token_id")}


@pytest.mark.parametrize("name", ["qwen3_5", "idefics3"])
def test_the_runner_loads_what_mlx_vlm_load_loads(runner, name):
    """``runners.mlx.load_model`` is ``mlx_vlm.load`` less its streaming detokenizer and shared StoppingCriteria:
    the same weights, processor and prepared inputs (a page included)."""
    import mlx.core as mx
    import numpy as np
    from mlx.utils import tree_flatten
    from mlx_vlm import load
    from PIL import Image

    from extractor.runners.mlx.loop import prepare_inputs

    family, loaded = runner(name)
    model, processor = load(str(family.path))
    assert (type(loaded._model), type(loaded._processor)) == (type(model), type(processor))
    ours, theirs = dict(tree_flatten(loaded._model.parameters())), dict(tree_flatten(model.parameters()))
    assert ours.keys() == theirs.keys() and all(mx.array_equal(ours[k], theirs[k]).item() for k in ours)
    prompt = loaded._render_user("Read this page.", 1)
    page = Image.new("RGB", (120, 90), "white")
    mine, real = (
        prepare_inputs(m, p, prompt, [page]) for m, p in ((loaded._model, loaded._processor), (model, processor))
    )
    assert mine.keys() == real.keys()
    for key in mine:
        assert np.array_equal(np.array(mine[key]), np.array(real[key])), key
    assert hasattr(processor.tokenizer, "stopping_criteria") and not hasattr(loaded.tokenizer, "stopping_criteria")


@pytest.mark.parametrize("name", FAMILIES)
def test_stop_set_holds_the_rendered_end_of_turn_token(runner, name):
    family, loaded = runner(name)
    assert family.end_of_turn_id not in family.declared_eos_ids or family.end_of_turn_id == family.eos_token_id
    stop = loaded.stop_set
    assert family.end_of_turn_id in stop.ids
    assert f"chat_template:end_of_turn={family.end_of_turn}" in stop.sources[family.end_of_turn_id]
    opener_ids = {loaded.tokenizer.convert_tokens_to_ids(t) for t in OPENERS if t != family.end_of_turn}
    assert not opener_ids & set(stop.ids) - {loaded.tokenizer.unk_token_id}
    if loaded.tokenizer.convert_tokens_to_ids("<|im_end|>") != 248046:
        assert 248046 not in stop.ids and 248044 not in stop.ids  # the Qwen3.5 pair only on its own vocabulary


@pytest.mark.parametrize("name", FAMILIES)
def test_random_weights_with_constraints_end_on_a_stop_token(runner, files, name):
    _, loaded = runner(name)
    record = extract(loaded, files)
    assert (record.finish_reason, record.errors) == ("stop", ())
    assert record.status == _status_of_random_data(record.to_dict())
    assert record.stop_token_id in loaded.stop_set.ids
    assert set(record.data) == {"number", "total"}
    assert 0 < record.usage.image_tokens < record.usage.prompt_tokens  # counted from the prompt, every family
    assert loaded.pixels_per_token > 0


@pytest.mark.parametrize("name", FAMILIES)
def test_config_bug_forced_answer_stops_on_the_end_of_turn_token(runner, files, name):
    family, loaded = runner(name)
    forced, processors = forcing(family, loaded)
    record = extract(loaded, files, constrained=False, extra_processors=processors)
    assert (record.status, record.finish_reason, record.stop_token_id) == ("ok", "stop", family.end_of_turn_id)
    assert record.data == ANSWER
    assert record.usage.generated_tokens == len(forced.answer_ids) + 1
    constrained = extract(loaded, files, extra_processors=processors)  # the same answer under the schema's masks
    assert outcome(constrained) == outcome(record)


@pytest.mark.parametrize("name", FAMILIES)
def test_prefix_cache_and_jump_forward_give_the_same_records(runner, files, name):
    family, loaded = runner(name)
    _, processors = forcing(family, loaded)
    plan = loaded.decoding
    loaded.clear_prefix_cache()
    cold = [extract(loaded, files, doc=d, extra_processors=processors, prefix_cache=False) for d in (0, 1)]
    warm = [extract(loaded, files, doc=d, extra_processors=processors) for d in (0, 1)]
    stepped = extract(loaded, files, doc=1, extra_processors=processors, jump_forward=False)
    per_token = fed_stepwise(loaded, True, lambda: extract(loaded, files, doc=1, extra_processors=processors))
    assert (outcome(per_token), per_token.usage.decode_steps) == (outcome(warm[1]), warm[1].usage.decode_steps)
    for a, b in zip(cold, warm, strict=False):
        assert outcome(a) == outcome(b)
        assert (a.usage.generated_tokens, a.usage.prompt_tokens) == (b.usage.generated_tokens, b.usage.prompt_tokens)
    assert outcome(stepped) == outcome(warm[1])
    used = warm[1].usage.decoding
    fast = used["path"] == "fast"  # gemma4 forbids chunked prefill with images: generate_step for these prompts
    assert fast == (plan.path == "fast" and name != "gemma4")
    assert used["prefix_cache"] == (fast and plan.prefix_cache)
    if fast and plan.prefix_cache:
        assert warm[1].usage.cached_prompt_tokens > 0 and cold[1].usage.cached_prompt_tokens == 0
    if fast and plan.jump_forward:
        assert used["jump_forward"] and warm[1].usage.decode_steps < stepped.usage.decode_steps
    assert stepped.usage.decoding["jump_forward"] is False


def test_a_model_that_forbids_chunked_prefill_with_images_runs_on_generate_step(runner, files):
    family, loaded = runner("gemma4")
    assert loaded.decoding.path == "fast"  # text-only prompts are ours: the probe passed
    _, processors = forcing(family, loaded)
    record = extract(loaded, files, extra_processors=processors)
    assert (record.status, record.data) == ("ok", ANSWER)
    assert record.usage.decoding == {
        "path": "generic",
        "prefix_cache": False,
        "jump_forward": False,
        "forced_feed": None,
        "batch": 1,
        "merged_steps": 0,
        "reasons": ["the model forbids chunked prefill for this prompt (images)"],
    }
    assert record.usage.image_tokens > 0 and record.usage.cached_prompt_tokens == 0


def test_every_family_decodes_on_the_fast_path_where_the_probe_passes(runner):
    plans = {name: runner(name)[1].decoding for name in FAMILIES}
    for name, plan in plans.items():
        assert plan.probe["cold"] <= 1e-3, (name, plan.probe)
        assert (plan.path, plan.prefix_cache, plan.jump_forward) == ("fast", True, True), (name, plan)


@pytest.mark.parametrize("name", FAMILIES)
def test_doctor_fails_the_bug_fixes_it_and_the_smoke_check_passes(runner, tmp_path, name):
    family, loaded = runner(name)
    model = tmp_path / name
    shutil.copytree(family.path, model)
    report = run_doctor(str(model))
    bug = family.end_of_turn_id != family.eos_token_id  # Mistral ends turns with its eos: no bug to find
    assert report.failed == bug, report.to_list()
    fixed = run_doctor(str(model), fix=True)
    assert not fixed.failed, fixed.to_list()
    generation = json.loads((model / "generation_config.json").read_text(encoding="utf-8"))
    assert family.end_of_turn_id in generation["eos_token_id"]
    forced = force_answer(loaded.tokenizer, ANSWER_TEXT, end_token_id=family.end_of_turn_id)
    smoke = smoke_check(model, max_tokens=40, logits_processors=(forced,))
    assert smoke.status == "pass", smoke.detail
    assert "bare mlx-vlm stops on it too" in smoke.detail and "path" in smoke.detail


@pytest.mark.parametrize("name", FAMILIES)
def test_prompt_holds_the_instruction_verbatim_once_before_the_pages(runner, name):
    from PIL import Image

    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.runners.mlx.loop import prepare_inputs
    from extractor.schema import load_schema

    _, loaded = runner(name)
    count = 1 if name == "paddleocr_vl" else 2  # mlx-vlm 0.7.10's PaddleOCR-VL processor fails on two images
    messages = build_messages(load_schema("invoice"), pages=count)
    pages = (Image.new("RGB", (120, 160), "white"),) * count
    prompt = loaded.render_prompt(GenerationRequest(messages=messages, images=pages))
    assert prompt.count(messages[0].text) == 1  # as written: no list repr, no second copy
    ids = prepare_inputs(loaded._model, loaded._processor, prompt, pages)["input_ids"][0].tolist()
    first_image = next(i for i, t in enumerate(ids) if t in loaded._boundary_ids)
    assert first_image >= len(loaded.tokenizer.encode(messages[0].text, add_special_tokens=False))  # prefix first


def test_generic_path_keeps_guards_limits_retries_and_seeds(runner, files):
    """Everything a caller passes works on generate_step too (gemma4 with images): guards, max_tokens, retries,
    temperature and seed."""
    from extractor.testing import force_answer

    family, loaded = runner("gemma4")
    space = loaded.tokenizer.encode(" ", add_special_tokens=False)[-1]
    assert space not in loaded.stop_set.ids
    spaces = force_answer(loaded.tokenizer, ANSWER_TEXT, end_token_id=space)  # the answer, then spaces forever
    guarded = extract(loaded, files, constrained=False, extra_processors=lambda attempt: (spaces,))
    assert (guarded.status, guarded.finish_reason, guarded.guard, guarded.data) == (
        "ok",
        "guard",
        "json_closed",
        ANSWER,
    )
    assert guarded.usage.decoding["path"] == "generic"
    short = extract(loaded, files, constrained=False, max_tokens=5, extra_processors=lambda attempt: (spaces,))
    assert (short.status, short.finish_reason, short.usage.generated_tokens) == ("truncated", "length", 5)
    wrong = force_answer(loaded.tokenizer, '{"number":"RE-2026-42"}', end_token_id=family.end_of_turn_id)
    right = force_answer(loaded.tokenizer, ANSWER_TEXT, end_token_id=family.end_of_turn_id)
    retried = extract(
        loaded,
        files,
        constrained=False,
        retries=1,
        extra_processors=lambda attempt: (wrong if attempt == 1 else right,),
    )
    assert (retried.status, retried.data) == ("ok", ANSWER)
    assert [a["status"] for a in retried.extra["attempts"]] == ["invalid", "ok"]
    sampled = [extract(loaded, files, temperature=1.0, seed=11).to_dict() for _ in range(2)]
    assert sampled[0]["data"] == sampled[1]["data"] and sampled[0]["status"] == _status_of_random_data(sampled[0])


def _runner_up(tokens, logits):
    """A logits processor giving the best token a runner-up exactly 1 logit behind (the next token id)."""
    import mlx.core as mx

    best = mx.argmax(logits, axis=-1, keepdims=True)
    rival = mx.arange(logits.shape[-1]) == (best + 1) % logits.shape[-1]
    return mx.where(rival, mx.max(logits, axis=-1, keepdims=True) - 1.0, logits)


def test_the_generic_path_collects_evidence(runner, files):
    """gemma4 with images decodes on generate_step: each value's evidence is read there too, before the mask (the
    forced answer one-hot, a runner-up 1 logit behind it: p = sigmoid(1) at every sampled token); none without
    evidence."""
    import math

    family, loaded = runner("gemma4")
    forced, _ = forcing(family, loaded)
    record = extract(loaded, files, extra_processors=lambda attempt: (forced, _runner_up)).to_dict()
    assert record["usage"]["decoding"]["path"] == "generic" and record["data"] == ANSWER
    fields = record["fields"]
    assert list(fields) == ["/number", "/total"]
    for entry in fields.values():
        assert entry["tokens"] > entry["forced_tokens"]
        assert entry["p_min"] == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-4) == entry["p_mean"]
        assert entry["margin_first"] == pytest.approx(1.0, abs=1e-3)
    off = extract(loaded, files, evidence=False, extra_processors=lambda attempt: (forced,)).to_dict()
    assert off["data"] == ANSWER and all(e["p_min"] is None and e["tokens"] is None for e in off["fields"].values())


def test_a_hidden_state_hook_that_is_not_the_head_fails_the_probe(runner, monkeypatch):
    """A model whose shortcut our loop would take gives other logits than generate_step: the generic path."""
    from extractor.runners.mlx.plan import decide

    _, loaded = runner("qwen3_5")
    lm = loaded._model.language_model
    head = lm.speculative_logits_from_hidden
    monkeypatch.setattr(lm, "speculative_logits_from_hidden", lambda hidden: head(hidden) * 0.5, raising=False)
    plan = decide(loaded._model, loaded._processor, render=loaded._render_user)
    assert (plan.path, plan.prefix_cache, plan.jump_forward) == ("generic", False, False)
    assert plan.reasons[-1].startswith("fast loop differs from generate_step") and plan.probe["cold"] > 0.01


def test_a_cache_that_does_not_restore_turns_the_prefix_cache_off(runner, monkeypatch):
    from mlx_vlm.models.cache import KVCache

    from extractor.runners.mlx.plan import decide

    _, loaded = runner("qwen2_5_vl")
    restore = KVCache.prefix_cache_restore

    def forgetful(self, payload):  # restores the keys and values, loses the offset: positions restart at 0
        restore(self, payload)
        self.offset = 0

    monkeypatch.setattr(KVCache, "prefix_cache_restore", forgetful)
    plan = decide(loaded._model, loaded._processor, render=loaded._render_user)
    assert (plan.path, plan.prefix_cache, plan.jump_forward) == ("fast", False, True)
    assert plan.reasons[0].startswith("prefix cache differs from a cold prefill")


@pytest.mark.parametrize("name", FAMILIES)
def test_batching_is_exact_on_every_family(runner, name):
    """The load-time checks ``--batch`` relies on: two sequences' logits stacked equal each alone (the head found
    as a hidden-state hook, an lm_head module or tied embeddings), and where the layers can run merged."""
    from extractor.runners.mlx.batching import BATCH_TOLERANCE, batch_reason, stacked_gap
    from extractor.runners.mlx.merged import merged_reason

    _, loaded = runner(name)
    assert loaded._forward.can_split_head()
    assert stacked_gap(loaded._model, loaded._processor, loaded._forward, render=loaded._render_user) <= BATCH_TOLERANCE
    assert (
        batch_reason(loaded._model, loaded._processor, loaded._forward, loaded.decoding, render=loaded._render_user)
        is None
    )
    # the merged layer pass (``runners.merged``): exact on every family but glm4v, whose attention mask ignores a
    # batch cache's left padding (its documents each keep their own layer pass)
    reason = merged_reason(
        loaded._model,
        loaded._processor,
        loaded._forward,
        render=loaded._render_user,
        images=loaded.vision.method != "default",
    )
    assert (reason is None) == (name != "glm4v"), reason
