"""The testing kit's model families (extractor.testing.families / forcing): every family's tiny checkpoint loads with
the real mlx-vlm, generates with an image, renders its own end-of-turn token, carries its config bug on request, and
follows a forced answer through mlx-vlm's own generate_step. Table-driven over the family table; each family's
directories are built once per session (``model_factory.family``) and loaded once per module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.errors import UsageError
from extractor.testing import FAMILIES, family_names, force_answer, read_family_model

FAMILY_NAMES = family_names()
ANSWER = '{"total": 12.5, "note": "Grüße"}'
MARKER = "ZQXJ"  # an assistant turn's text, to find what the template puts after it


@pytest.fixture(scope="module")
def loaded(model_factory):
    """``loaded(name)``: (FamilyModel, model, processor) of the family's official directory, loaded once."""
    from mlx_vlm import load

    cache: dict = {}

    def get(name: str):
        if name not in cache:
            family = model_factory.family(name)
            cache[name] = (family, *load(str(family.path)))
        return cache[name]

    return get


def _image():
    from PIL import Image

    return Image.new("RGB", (96, 64), (200, 30, 30))


def _tokenizer(processor):
    return getattr(processor, "tokenizer", processor)


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _inputs(model, processor, images):
    from mlx_vlm.prompt_utils import apply_chat_template
    from mlx_vlm.utils import prepare_inputs

    prompt = apply_chat_template(processor, model.config, "Extract the invoice as JSON.", num_images=len(images))
    token = getattr(model.config, "image_token_index", None) or getattr(model.config, "image_token_id", None)
    return prepare_inputs(processor, images=images or None, prompts=prompt, image_token_index=token)


# --- pure parts ------------------------------------------------------------------------------------------------
def test_table_lists_at_least_the_eight_families():
    assert {"qwen3_5", "qwen2_5_vl", "qwen3_vl", "gemma3", "gemma4", "idefics3", "smolvlm", "mistral3"} <= set(
        FAMILY_NAMES
    )
    assert FAMILY_NAMES[0] == "qwen3_5" and len(set(FAMILY_NAMES)) == len(FAMILY_NAMES)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_table_rows_are_consistent(name):
    family = FAMILIES[name]
    ids = dict((text, tid) for tid, text in family.specials)
    assert len(ids) == len(family.specials), "special texts are distinct"
    assert len({tid for tid, _ in family.specials}) == len(family.specials), "special ids are distinct"
    assert max(ids.values()) < family.vocab_size
    for token in (family.end_of_turn, family.eos_token, family.bug_eos_token, family.image_token):
        assert token in ids
    for bug in (False, True):
        declared = family.declared(bug, ids)
        assert set(declared) <= {"config", "text_config", "generation_config"}


def test_unknown_family_and_bad_options_raise(tmp_path):
    from extractor.testing import build_family_model

    with pytest.raises(UsageError, match="family: expected one of qwen3_5"):
        build_family_model(tmp_path / "m", "llava")
    with pytest.raises(UsageError, match="config_bug"):
        build_family_model(tmp_path / "m", "gemma3", config_bug="yes")
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(
    "answer, end, message",
    [("", 1, "non-empty"), ("x", -1, "end_token_id"), ("x", True, "end_token_id"), ("x", 10**7, "outside")],
)
def test_force_answer_rejects_bad_options(model_factory, answer, end, message):
    family = model_factory.family("gemma3")
    with pytest.raises(UsageError, match=message):
        force_answer(family.path, answer, end_token_id=end)


# --- every family ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_family_json_matches_the_directory(model_factory, name):
    family = model_factory.family(name)
    assert read_family_model(family.path) == family
    tokenizer = _read(family.path / "tokenizer.json")
    added = {token["content"]: token for token in tokenizer["added_tokens"]}
    for text, tid in (
        (family.end_of_turn, family.end_of_turn_id),
        (family.eos_token, family.eos_token_id),
        (family.image_token, family.image_token_id),
    ):
        assert (added[text]["id"], added[text]["special"]) == (tid, True), text
    assert _read(family.path / "tokenizer_config.json")["eos_token"] == family.eos_token
    assert _read(family.path / "config.json")["model_type"] == family.model_type
    assert family.token_id(family.end_of_turn) == family.end_of_turn_id
    with pytest.raises(UsageError, match="not a special token"):
        family.token_id("<no such token>")


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_config_bug_drops_the_end_of_turn_id(model_factory, name):
    official, bug = model_factory.family(name), model_factory.family(name, config_bug=True)
    assert official.end_of_turn_id in official.declared_eos_ids
    assert bug.end_of_turn_id not in bug.declared_eos_ids
    assert (bug.config_bug, official.config_bug) == (True, False)
    assert bug.end_of_turn_id == official.end_of_turn_id  # the template still ends turns with it
    assert (bug.path / "chat_template.jinja").read_text() == (official.path / "chat_template.jinja").read_text()


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_load_builds_the_real_processor_and_keeps_the_weights(loaded, name):
    import mlx.core as mx
    from mlx.utils import tree_flatten

    family, model, processor = loaded(name)
    assert model.config.model_type == family.model_type
    assert _tokenizer(processor).convert_tokens_to_ids(family.end_of_turn) == family.end_of_turn_id
    assert hasattr(processor, "image_processor")
    saved = mx.load(str(family.path / "model.safetensors"))
    params = dict(tree_flatten(model.parameters()))
    assert set(saved) == set(params)
    assert all(params[key].dtype == mx.float32 for key in saved)
    assert [key for key in saved if not mx.array_equal(saved[key], params[key]).item()] == []


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_generate_with_an_image_and_text_only(loaded, name):
    from mlx_vlm import generate
    from mlx_vlm.prompt_utils import apply_chat_template

    family, model, processor = loaded(name)
    with_image = generate(
        model,
        processor,
        apply_chat_template(processor, model.config, "Read it.", num_images=1),
        image=[_image()],
        max_tokens=2,
        verbose=False,
    )
    text_only = generate(
        model,
        processor,
        apply_chat_template(processor, model.config, "Read it.", num_images=0),
        max_tokens=2,
        verbose=False,
    )
    assert isinstance(with_image.text, str) and isinstance(text_only.text, str)
    assert with_image.generation_tokens >= 1 and text_only.generation_tokens >= 1
    assert with_image.prompt_tokens > text_only.prompt_tokens  # the image is expanded into image tokens


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_template_ends_an_assistant_turn_with_the_end_of_turn_token(loaded, name):
    family, _, processor = loaded(name)
    tokenizer = _tokenizer(processor)
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [{"type": "text", "text": MARKER}]},
        {"role": "user", "content": [{"type": "text", "text": "again"}]},
    ]
    rendered = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    after = tokenizer.encode(rendered[rendered.index(MARKER) + len(MARKER) :], add_special_tokens=False)
    specials = set(tokenizer.all_special_ids) | {tid for tid in after if tid in tokenizer.added_tokens_decoder}
    assert next(tid for tid in after if tid in specials) == family.end_of_turn_id, rendered


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_forced_answer_through_generate_step_then_end_of_turn_forever(loaded, name):
    from mlx_vlm.generate.ar import generate_step

    from extractor.runners.mlx.generic import FromLastPromptToken

    family, model, processor = loaded(name)
    forced = force_answer(family.path, ANSWER, end_token_id=family.end_of_turn_id)
    inputs = _inputs(model, processor, [_image()])
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    count = len(forced.answer_ids) + 3
    # generate_step shows processors the whole prompt where a model forbids chunked prefill (gemma4 with an
    # image): the runner's adapter gives them the contract's tokens (the prompt's last one, then the generated)
    steps = generate_step(
        inputs["input_ids"],
        model,
        inputs["pixel_values"],
        inputs["attention_mask"],
        logits_processors=[FromLastPromptToken(forced)],
        max_tokens=count,
        **extra,
    )
    tokens = tuple(token for token, _ in steps)
    assert tokens == forced.answer_ids + (family.end_of_turn_id,) * 3
    assert _tokenizer(processor).decode(list(forced.answer_ids)) == ANSWER


# --- forcing under jump-forward ----------------------------------------------------------------------------------
def test_force_answer_counts_fed_tokens_and_reads_other_tokenizations(model_factory):
    from tokenizers import Tokenizer

    family = model_factory.family("smolvlm")
    forced = force_answer(family.path, ANSWER, end_token_id=family.end_of_turn_id)
    ids = forced.answer_ids
    prompt_last = 7
    # fed tokens count as generated: after k answer tokens (however they came), the next answer token
    assert [forced.next_token(ids[:k]) for k in range(len(ids) + 2)] == [
        *ids,
        family.end_of_turn_id,
        family.end_of_turn_id,
    ]
    # another tokenization of the answer's start (byte by byte): the rest of the answer, then the end token
    tokenizer = Tokenizer.from_file(str(family.path / "tokenizer.json"))
    head = ANSWER[:9]
    by_bytes = [tid for char in head for tid in tokenizer.encode(char, add_special_tokens=False).ids]
    assert by_bytes != list(ids[: len(by_bytes)])
    rest = tokenizer.encode(ANSWER[9:], add_special_tokens=False).ids
    assert forced.next_token(by_bytes) == rest[0]
    assert forced.next_token(by_bytes + rest) == family.end_of_turn_id
    # tokens that left the answer: the end token (the runner's record then shows the difference)
    assert forced.next_token([ids[1]]) == family.end_of_turn_id
    # the processor itself: one-hot logits of the shape it was given
    import mlx.core as mx

    logits = forced(mx.array([prompt_last, *ids[:3]]), mx.zeros((1, family.vocab_size)))
    assert logits.shape == (1, family.vocab_size)
    assert mx.argmax(logits, axis=-1).item() == ids[3] and mx.isinf(logits).sum().item() == family.vocab_size - 1


def test_force_answer_accepts_a_processor_and_explicit_ids(loaded):
    family, _, processor = loaded("gemma3")
    own = force_answer(family.path, ANSWER, end_token_id=family.end_of_turn_id)
    through_processor = force_answer(processor, ANSWER, end_token_id=family.end_of_turn_id)
    assert through_processor.answer_ids == own.answer_ids
    explicit = force_answer(family.path, ANSWER, end_token_id=1, answer_ids=own.answer_ids)
    assert explicit.expected_ids(len(own.answer_ids) + 2) == (*own.answer_ids, 1, 1)
    with pytest.raises(UsageError, match="do not spell"):
        force_answer(family.path, ANSWER, end_token_id=1, answer_ids=own.answer_ids[1:])


# features the families exist for in the kit: qwen3_vl's deepstack, gemma4's per-layer inputs
@pytest.mark.parametrize(
    "name, fields", [("qwen3_vl", {"deepstack_visual_embeds", "visual_pos_masks"}), ("gemma4", {"per_layer_inputs"})]
)
def test_image_embeddings_carry_the_family_specific_fields(loaded, name, fields):
    family, model, processor = loaded(name)
    inputs = _inputs(model, processor, [_image()])
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    features = model.get_input_embeddings(
        inputs["input_ids"], inputs["pixel_values"], mask=inputs["attention_mask"], **extra
    )
    present = {key for key, value in vars(features).items() if value is not None}
    assert fields <= present, present


# --- shell entry point -------------------------------------------------------------------------------------------
def _cli(*args: str):
    import os
    import subprocess
    import sys

    env = dict(os.environ, HF_HUB_OFFLINE="1", MLX_DISABLE_COMPILE="1")
    return subprocess.run(
        [sys.executable, "-m", "extractor.testing", *args],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_builds_a_family_model_with_its_config_bug(tmp_path):
    done = _cli(str(tmp_path / "g"), "--family", "gemma3", "--config-bug", "--seed", "3")
    assert done.returncode == 0, done.stderr
    family = read_family_model(tmp_path / "g")
    assert (family.family, family.config_bug, family.seed, family.declared_eos_ids) == ("gemma3", True, 3, (1,))
    assert done.stdout.splitlines() == [
        str(tmp_path / "g"),
        "gemma3 (gemma3), random: end of turn <end_of_turn> 106, tokenizer eos <eos> 1, declared eos [1] (the "
        "typical config bug); vocabulary 2176 (special ids not all real)",
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--family", "llava"], "family: expected one of qwen3_5"),
        (["--family", "gemma3", "--schema", "invoice"], "--schema cannot be used with it"),
        (["--family", "gemma3", "--size", "mid"], "--size/--then cannot be used"),
        (["--config-bug"], "--config-bug needs --family"),
    ],
)
def test_cli_rejects_family_option_mixes(tmp_path, args, message):
    done = _cli(str(tmp_path / "m"), *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "m").exists()


# mlx-vlm's own stop set: the official declarations stop a forced answer; the bug runs on past the end-of-turn token
# (except where mlx-vlm itself adds the token: idefics3's processor, and mistral3 whose tokenizer eos is </s>)
MLX_VLM_STOPS_ANYWAY = {"idefics3", "mistral3"}


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_mlx_vlm_generate_stops_with_official_eos_and_runs_on_with_the_bug(loaded, model_factory, name):
    from mlx_vlm import generate, load
    from mlx_vlm.prompt_utils import apply_chat_template

    runs = {}
    for bug in (False, True):
        if bug:
            family = model_factory.family(name, config_bug=True)
            model, processor = load(str(family.path))
        else:
            family, model, processor = loaded(name)
        forced = force_answer(family.path, ANSWER, end_token_id=family.end_of_turn_id)
        prompt = apply_chat_template(processor, model.config, "Read it.", num_images=0)
        out = generate(
            model, processor, prompt, max_tokens=len(forced.answer_ids) + 4, verbose=False, logits_processors=[forced]
        )
        runs[bug] = (out.text.startswith(ANSWER), out.generation_tokens - len(forced.answer_ids))
    stops_anyway = name in MLX_VLM_STOPS_ANYWAY
    assert runs == {False: (True, 1), True: (True, 1 if stops_anyway else 4)}
