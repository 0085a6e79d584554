"""Schema-aware scripted models (extractor.testing): the script is what a constrained runtime with jump-forward
decoding sees, and the model emits it exactly however it is decoded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import testing
from extractor.errors import ModelError, UsageError
from extractor.testing import (
    ENDOFTEXT,
    IM_END,
    MIN_LOGIT_MARGIN,
    SAMPLE_INVOICE,
    SAMPLE_INVOICE_ANSWER,
    THEN_CHOICES,
    TinyModel,
    build_scripted_model,
    read_tiny_model,
)
from extractor.testing import qwen35_files as kit_qwen35_files
from extractor.testing import register as kit_register
from extractor.testing import script as kit_script
from extractor.testing import tokenizer as kit_tokenizer

ROOT = Path(__file__).resolve().parents[1]
SHORT_SCHEMA = {
    "type": "object",
    "properties": {"total": {"type": "number"}, "note": {"type": ["string", "null"], "maxLength": 40}},
    "required": ["total", "note"],
    "additionalProperties": False,
}
SHORT_ANSWER = '{"total":12.5,"note":"Grüße"}'
REPEAT_LINE = '\n{"note": "see above"}'


def _image():
    from PIL import Image

    return Image.new("RGB", (96, 64), (200, 30, 30))


def _prompt_inputs(model, processor, text: str = "Extract the invoice as JSON."):
    from mlx_vlm import prepare_inputs
    from mlx_vlm.prompt_utils import apply_chat_template

    prompt = apply_chat_template(processor, model.config, text, num_images=1)
    return prepare_inputs(
        processor, images=[_image()], prompts=prompt, image_token_index=getattr(model.config, "image_token_index", None)
    )


def _step_tokens(model, processor, count: int, temperature: float) -> tuple[int, ...]:
    """``count`` tokens from mlx-vlm's own ``generate_step`` (an image in the prompt)."""
    from mlx_vlm.generate.ar import generate_step

    inputs = _prompt_inputs(model, processor)
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    out = []
    for token, _ in generate_step(
        inputs["input_ids"],
        model,
        inputs["pixel_values"],
        inputs["attention_mask"],
        max_tokens=count,
        temperature=temperature,
        **extra,
    ):
        out.append(int(token))
        if len(out) == count:
            break
    return tuple(out)


def _compiled(tiny: TinyModel, processor):
    """The runtime's grammar: the model's own tokenizer, the resolved stop set, extractor.runners.constrain.grammar."""
    from extractor.runners.constrain.grammar import constrainer_for
    from extractor.runners.stopping import resolve_stop_set

    stop = resolve_stop_set(tiny.path)
    return constrainer_for(processor.tokenizer).compile(tiny.schema, stop_ids=stop.ids), set(stop.ids)


def _forced(matcher, stop_ids: set[int]) -> list[int]:
    """compute_ff_tokens() cut at the first stop id (a runtime samples a stop token, it never feeds it)."""
    out = []
    for token in matcher.compute_ff_tokens():
        if token in stop_ids:
            break
        out.append(token)
    return out


def _jump_forward_decode(
    model, processor, compiled, stop_ids: set[int], *, jump: bool, temperature: float, max_tokens: int, seed: int = 0
) -> tuple[list[int], list[bool]]:
    """Decode as the runtime contract says: forced tokens fed in one forward pass (``jump``), every other token
    sampled under the widened mask (only stop tokens once the value is complete). Returns tokens and fed flags."""
    import mlx.core as mx
    import numpy as np
    from mlx_vlm.models import cache as mlx_cache

    from extractor.runners.constrain.mask import apply_bitmask

    mx.random.seed(seed)
    inputs = _prompt_inputs(model, processor)
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    lm = model.language_model
    cache = mlx_cache.make_prompt_cache(lm)
    embedded = model.get_input_embeddings(
        inputs["input_ids"], inputs["pixel_values"], mask=inputs["attention_mask"], **extra
    )
    meta = {k: v for k, v in embedded.to_dict().items() if k != "inputs_embeds" and v is not None}
    logits = lm(inputs["input_ids"], inputs_embeds=embedded.inputs_embeds, cache=cache, **meta).logits[:, -1, :]
    matcher = compiled.new_matcher()
    bitmask = np.zeros((1, (compiled.vocab_size + 31) // 32), np.int32)
    stop_only = np.full((1, logits.shape[-1]), -np.inf, np.float32)
    stop_only[0, sorted(stop_ids)] = 0.0
    tokens: list[int] = []
    fed: list[bool] = []
    while len(tokens) < max_tokens:
        forced = _forced(matcher, stop_ids) if jump and not matcher.is_stopped() else []
        if forced:
            assert matcher.consume_tokens(forced)
            tokens += forced
            fed += [True] * len(forced)
            logits = lm(mx.array([forced]), cache=cache).logits[:, -1, :]
            continue
        if matcher.is_stopped():
            allowed = logits + mx.array(stop_only)
        else:
            compiled.fill_mask(matcher, bitmask)
            allowed = apply_bitmask(logits, mx.array(bitmask))
        token = int(
            (mx.argmax(allowed, axis=-1) if temperature == 0 else mx.random.categorical(allowed / temperature)).item()
        )
        if not matcher.is_stopped():
            assert matcher.consume_token(token), matcher.get_error()
        tokens.append(token)
        fed.append(False)
        if token in stop_ids:
            break
        logits = lm(mx.array([[token]]), cache=cache).logits[:, -1, :]
    return tokens, fed


@pytest.fixture(scope="module")
def invoice_script(tmp_path_factory):
    """SAMPLE_INVOICE scripted for the invoice schema (then <|im_end|>), loaded."""
    from mlx_vlm import load

    tiny = build_scripted_model(
        tmp_path_factory.mktemp("schema") / "invoice", answer=SAMPLE_INVOICE_ANSWER, schema="invoice"
    )
    return (tiny, *load(str(tiny.path)))


# --- what was built -----------------------------------------------------------------------------------------------
def test_schema_script_reads_back_and_rebuilds_the_answer(invoice_script):
    from extractor.schema import load_schema

    tiny, _, _ = invoice_script
    program = json.loads((tiny.path / testing.PROGRAM_FILE).read_text(encoding="utf-8"))
    assert read_tiny_model(tiny.path) == tiny
    assert (tiny.schema_name, tiny.schema) == ("invoice", dict(load_schema("invoice").schema))
    assert "".join(program["answer_chunks"]) == SAMPLE_INVOICE_ANSWER
    assert len(tiny.fed) == len(tiny.answer_token_ids) == len(program["answer_chunks"])
    assert (program["fed"], program["fed_count"]) == (list(tiny.fed), tiny.fed_count)
    assert 0.3 < tiny.fed_count / len(tiny.answer_token_ids) < 0.7  # keys and punctuation: about half
    assert tiny.expected_token_ids(len(tiny.answer_token_ids) + 2) == (*tiny.answer_token_ids, IM_END, IM_END)
    assert program["min_logit_margin"] >= MIN_LOGIT_MARGIN


def test_script_follows_the_runtime_contract(invoice_script):
    """Walk a fresh matcher: fed tokens are exactly compute_ff_tokens() there; every other token is inside the
    runtime's widened mask (llguidance's own mask, or a prefix of the forced bytes); then only the stop token."""
    import numpy as np

    tiny, _, processor = invoice_script
    compiled, stop_ids = _compiled(tiny, processor)
    matcher = compiled.new_matcher()
    widened = np.zeros((1, (compiled.vocab_size + 31) // 32), dtype=np.int32)
    plain = widened.copy()
    tokenizer = processor.tokenizer
    i, fed, kinds = 0, [], {"fed": 0, "held back": 0, "free": 0}
    while i < len(tiny.answer_token_ids):
        forced = _forced(matcher, stop_ids)
        if forced:
            assert list(tiny.answer_token_ids[i : i + len(forced)]) == forced, i
            assert matcher.consume_tokens(forced)
            fed += [True] * len(forced)
            kinds["fed"] += len(forced)
            i += len(forced)
            continue
        token = tiny.answer_token_ids[i]
        compiled.fill_mask(matcher, widened)  # the runtime's widened mask
        matcher.unsafe_compute_mask_ptr(plain.ctypes.data, plain.nbytes)  # llguidance's own
        assert widened.view(np.uint32)[0, token >> 5] >> (token & 31) & 1, (i, tokenizer.decode([token]))
        data = tokenizer.decode([token]).encode("utf-8")
        forced_bytes = matcher.compute_ff_bytes()
        in_plain = bool(plain.view(np.uint32)[0, token >> 5] >> (token & 31) & 1)
        assert in_plain or forced_bytes.startswith(data), (i, data, forced_bytes)
        kinds["held back" if forced_bytes else "free"] += 1
        if not forced_bytes:  # a chunk: never relies on widening
            assert in_plain and len(tokenizer.encode(data.decode("utf-8"), add_special_tokens=False)) > 1, i
        assert matcher.consume_token(token)
        fed.append(False)
        i += 1
    assert tuple(fed) == tiny.fed
    assert matcher.is_accepting() and IM_END in stop_ids  # the value is complete: the stop token comes next
    assert min(kinds.values()) > 0  # fed runs, forced tokens llguidance holds back, chunks


# --- generation ----------------------------------------------------------------------------------------------------
# Sampling at temperature 1 gives the script only where each of its tokens is the best by far (the margin test
# below): greedy decoding gives it too, so it is not run again at temperature 0.
@pytest.mark.parametrize("temperature", [1.0])
def test_generate_step_emits_the_schema_script(invoice_script, temperature):
    tiny, model, processor = invoice_script
    count = len(tiny.answer_token_ids) + 3
    tokens = _step_tokens(model, processor, count, temperature)
    assert tokens == tiny.expected_token_ids(count)
    assert json.loads(processor.tokenizer.decode(tokens[: len(tiny.answer_token_ids)])) == SAMPLE_INVOICE


def test_jump_forward_decoding_feeds_exactly_the_fed_tokens(invoice_script):
    tiny, model, processor = invoice_script
    compiled, stop_ids = _compiled(tiny, processor)
    tokens, fed = _jump_forward_decode(
        model, processor, compiled, stop_ids, jump=True, temperature=1.0, max_tokens=len(tiny.answer_token_ids) + 5
    )
    assert tuple(tokens) == (*tiny.answer_token_ids, IM_END)  # stopped on the stop token
    assert tuple(fed) == (*tiny.fed, False)


@pytest.mark.parametrize(("jump", "temperature"), [(False, 1.0)])  # (True, 1.0): the test above
def test_constrained_decoding_emits_the_same_tokens_with_or_without_jump_forward(invoice_script, jump, temperature):
    tiny, model, processor = invoice_script
    compiled, stop_ids = _compiled(tiny, processor)
    tokens, _ = _jump_forward_decode(
        model,
        processor,
        compiled,
        stop_ids,
        jump=jump,
        temperature=temperature,
        max_tokens=len(tiny.answer_token_ids) + 5,
    )
    assert tuple(tokens) == (*tiny.answer_token_ids, IM_END)  # unconstrained: test_generate_step_emits_...


def test_one_pass_over_prompt_and_script_predicts_every_next_token_with_margin(invoice_script):
    """Feed the prompt (with an image) and the whole script in one forward pass, as a long jump-forward run would:
    every position's best token is the script's next one, ahead of every other token by MIN_LOGIT_MARGIN."""
    import mlx.core as mx
    import numpy as np
    from mlx_vlm.models import cache as mlx_cache

    tiny, model, processor = invoice_script
    inputs = _prompt_inputs(model, processor)
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    script = list(tiny.expected_token_ids(len(tiny.answer_token_ids) + 2))
    ids = mx.concatenate([inputs["input_ids"], mx.array([script[:-1]])], axis=1)
    lm = model.language_model
    embedded = model.get_input_embeddings(ids, inputs["pixel_values"], mask=None, **extra)
    meta = {k: v for k, v in embedded.to_dict().items() if k != "inputs_embeds" and v is not None}
    hidden = lm.model(
        ids,
        inputs_embeds=embedded.inputs_embeds,
        cache=mlx_cache.make_prompt_cache(lm),
        position_ids=meta["position_ids"],
    )[0, inputs["input_ids"].shape[1] - 1 :]
    weight = lm.model.embed_tokens.weight  # tied: the lm_head
    best, margins = [], []
    for start in range(0, hidden.shape[0], 64):
        logits = hidden[start : start + 64] @ weight.T
        top = mx.topk(logits, 2, axis=-1)  # unordered: sort the two
        best += mx.argmax(logits, axis=-1).tolist()
        margins += np.abs(np.diff(np.array(top), axis=-1))[:, 0].tolist()
    assert best == script
    assert min(margins) >= MIN_LOGIT_MARGIN


# --- continuations and options -------------------------------------------------------------------------------------
@pytest.mark.parametrize("then", THEN_CHOICES)
def test_each_continuation_follows_a_schema_script(tmp_path, then):
    from mlx_vlm import load

    tiny = build_scripted_model(
        tmp_path / "m", answer=SHORT_ANSWER, schema=SHORT_SCHEMA, then=then, repeat_line=REPEAT_LINE
    )
    assert (tiny.schema_name, tiny.fed_count > 0) == ("inline", True)
    model, processor = load(str(tiny.path))
    count = len(tiny.answer_token_ids) + 6
    tokens = _step_tokens(model, processor, count, 1.0)
    assert tokens == tiny.expected_token_ids(count)
    text = processor.tokenizer.decode(tokens[: len(tiny.answer_token_ids)])
    assert text == SHORT_ANSWER
    if then in ("im_end", "endoftext"):
        assert tiny.continuation_token_ids == ({"im_end": IM_END, "endoftext": ENDOFTEXT}[then],)


@pytest.mark.parametrize(
    ("answer", "match"),
    [
        ('{"total":"12.5","note":null}', "does not follow the schema at character 9"),
        # total is required and cannot be null: never left out (note, which may be null, may be: issue 47)
        ('{"note":null}', "does not follow the schema at character 2: the schema forces 'total'"),
        ('{"total":12.5,"note":"Gr', "ends before the schema's JSON value is complete"),
        ('{"total":12.5,"note":null', "does not follow the schema at character 25: the schema forces '}'"),
        ('{"total": 12.5, "note": null}', "does not follow the schema at character 9"),  # not compact
    ],
)
def test_an_answer_that_breaks_the_schema_is_a_usage_error(tmp_path, answer, match):
    with pytest.raises(UsageError, match=match):
        build_scripted_model(tmp_path / "m", answer=answer, schema=SHORT_SCHEMA)


def test_a_bad_schema_option_is_refused(tmp_path):
    from extractor.errors import SchemaError

    with pytest.raises(UsageError, match="schema"):
        build_scripted_model(tmp_path / "m", answer=SHORT_ANSWER, schema=42)
    with pytest.raises(SchemaError):
        build_scripted_model(tmp_path / "m", answer=SHORT_ANSWER, schema=str(tmp_path / "missing.json"))


def test_every_sample_can_be_scripted_for_its_schema(tmp_path):
    """The plans (no weights): every bundled sample's compact JSON, cut for its schema, rebuilds the sample."""
    from extractor.runners.constrain.grammar import compile_schema
    from extractor.schema import load_schema

    base = kit_tokenizer._base_tokenizer()
    tokenizer = kit_script._planning_tokenizer((ENDOFTEXT, IM_END))
    counts = {}
    for sample in sorted((ROOT / "samples" / "expected").glob("*.json")):
        answer = json.dumps(json.loads(sample.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
        schema = load_schema("receipt" if sample.name.startswith("receipt") else "invoice").schema
        compiled = compile_schema(schema, tokenizer=tokenizer, lenient=True)
        pieces = kit_script._plan_script(
            answer,
            compiled=compiled,
            tokenizer=tokenizer,
            stop_ids=(ENDOFTEXT, IM_END),
            base_vocab=base["model"]["vocab"],
        )
        chunks = [piece.text for piece in pieces if piece.token is None]
        assert b"".join(piece.data for piece in pieces).decode("utf-8") == answer, sample.name
        assert len(set(chunks)) == len(chunks), sample.name
        assert not {kit_tokenizer._to_bytelevel(c) for c in chunks} & set(base["model"]["vocab"]), sample.name
        counts[sample.name] = len(pieces)
    assert len(counts) == 8


# --- pure parts ----------------------------------------------------------------------------------------------------
D = kit_register._DEFAULT


@pytest.mark.parametrize(
    ("sequence", "writers", "expected", "positions"),
    [
        # chunk 10, forced 1, 2; chunk 11, forced 1, 2 (the same forced run after another chunk): 4 + 4 pairs
        (
            [D, 10, 1, 2, 11, 1, 2, 99, 99],
            [1, 1, 0, 0, 1, 0, 0, 1, 1],
            {(D, D): 10, (10, 10): 1, (10, 1): 2, (10, 2): 11, (11, 11): 1, (11, 1): 2, (11, 2): 99, (99, 99): 99},
            [0, 1, 2, 3, 4, 5, 6, 7],
        ),
        # plain chunks cycling: a pair seen again is not a new one
        ([D, 5, 6, 5, 6, 5], [1, 1, 1, 1, 1, 1], {(D, D): 5, (5, 5): 6, (6, 6): 5}, [0, 1, 2]),
        # the forced run before any chunk reads the prompt's default register
        (
            [D, 1, 2, 10, 99, 99],
            [1, 0, 0, 1, 1, 1],
            {(D, D): 1, (D, 1): 2, (D, 2): 10, (10, 10): 99, (99, 99): 99},
            [0, 1, 2, 3, 4],
        ),
    ],
)
def test_register_pairs(sequence, writers, expected, positions):
    assert kit_register._register_pairs(sequence, [bool(w) for w in writers], {}) == (expected, positions)


@pytest.mark.parametrize(
    ("sequence", "writers", "match"),
    [
        ([D, 10, 1, 2, 1, 3], [1, 1, 0, 0, 0, 0], "followed by both"),  # a forced run repeats token 1
        ([D, 10, 1, 1, 3], [1, 1, 0, 1, 1], "both a chunk and forced text"),
    ],
)
def test_register_pairs_refuse_ambiguous_scripts(sequence, writers, match):
    with pytest.raises(ModelError, match=match):
        kit_register._register_pairs(sequence, [bool(w) for w in writers], {})


@pytest.mark.parametrize(
    ("tokens", "stop", "expected"),
    [([1, 2, 3], (9,), [1, 2, 3]), ([1, 9, 3], (9,), [1]), ([9, 1], (8, 9), []), ([], (9,), [])],
)
def test_forced_tokens_are_cut_at_the_first_stop_id(tokens, stop, expected):
    assert kit_script._cut_at_stop(tokens, stop) == expected


@pytest.mark.parametrize(
    ("size", "hidden", "layers", "expected"),
    [
        ("small", None, None, (32, 2)),
        ("mid", None, None, (768, 8)),
        ("mid", 128, 4, (128, 4)),
        ("small", 64, 3, (64, 3)),
    ],
)
def test_model_sizes(size, hidden, layers, expected):
    assert kit_qwen35_files._model_size(size, hidden, layers) == expected


@pytest.mark.parametrize(
    ("size", "hidden", "layers"), [("large", None, None), ("mid", 200, None), ("small", None, 1), ("small", 4, None)]
)
def test_bad_model_sizes_are_usage_errors(size, hidden, layers):
    with pytest.raises(UsageError):
        kit_qwen35_files._model_size(size, hidden, layers)


# --- mid-style models ----------------------------------------------------------------------------------------------
def _check_mid(tiny: TinyModel, hidden: int, layers: int) -> None:
    from mlx_vlm import load

    config = json.loads((tiny.path / "config.json").read_text(encoding="utf-8"))["text_config"]
    heads = hidden // 128
    assert {
        key: config[key]
        for key in (
            "hidden_size",
            "num_hidden_layers",
            "full_attention_interval",
            "num_attention_heads",
            "head_dim",
            "linear_num_key_heads",
            "linear_value_head_dim",
            "intermediate_size",
        )
    } == {
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "full_attention_interval": 4,
        "num_attention_heads": heads,
        "head_dim": 128,
        "linear_num_key_heads": heads,
        "linear_value_head_dim": 128,
        "intermediate_size": 8 * hidden // 3 // 64 * 64,
    }
    model, processor = load(str(tiny.path))
    count = len(tiny.answer_token_ids) + 2
    assert _step_tokens(model, processor, count, 1.0) == tiny.expected_token_ids(count)


def test_a_mid_style_model_with_small_numbers_follows_its_script(tmp_path):
    tiny = build_scripted_model(
        tmp_path / "m", answer=SHORT_ANSWER, schema=SHORT_SCHEMA, size="mid", hidden_size=128, layers=4
    )
    _check_mid(tiny, 128, 4)


@pytest.mark.slow
def test_the_mid_size_follows_the_invoice_script(tmp_path):
    tiny = build_scripted_model(tmp_path / "m", answer=SAMPLE_INVOICE_ANSWER, schema="invoice", size="mid")
    _check_mid(tiny, 768, 8)
