"""Tests of extractor.testing: tiny real-architecture qwen3_5 models, loaded and run by the real mlx-vlm."""

from __future__ import annotations

import base64
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from decimal import Decimal
from pathlib import Path

import pytest

from extractor import testing
from extractor.errors import ModelError, UsageError
from extractor.testing import (
    ENDOFTEXT,
    IM_END,
    IMAGE_PAD,
    SAMPLE_INVOICE,
    SAMPLE_INVOICE_ANSWER,
    THEN_CHOICES,
    VISION_END,
    VISION_START,
    TinyModel,
    build_scripted_model,
    read_tiny_model,
    scripted_answer_ids,
)
from extractor.testing import register as kit_register
from extractor.testing import tokenizer as kit_tokenizer

ROOT = Path(__file__).resolve().parents[1]
SHORT_ANSWER = '{"total": 12.5, "note": "Grüße"}'
ABSENT = "<absent>"
REPEAT_LINE = '\n{"note": "see above"}'


def _image():
    from PIL import Image

    return Image.new("RGB", (96, 64), (200, 30, 30))


def _load(tiny: TinyModel):
    from mlx_vlm import load

    return load(str(tiny.path))


def _prompt(model, processor) -> str:
    from mlx_vlm.prompt_utils import apply_chat_template

    return apply_chat_template(processor, model.config, "Extract the invoice as JSON.", num_images=1)


def _generate(tiny: TinyModel, max_tokens: int, **options):
    from mlx_vlm import generate

    model, processor = _load(tiny)
    return generate(model, processor, _prompt(model, processor), image=[_image()], max_tokens=max_tokens, **options)


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _eos_view(path: Path) -> dict:
    """The eos-related settings of a model directory, absent keys/files shown as ABSENT."""
    config = _read(path / "config.json")
    generation = path / "generation_config.json"
    return {
        "config": config.get("eos_token_id", ABSENT),
        "text_config": config["text_config"].get("eos_token_id", ABSENT),
        "generation_config": _read(generation) if generation.exists() else ABSENT,
        "tokenizer": _read(path / "tokenizer_config.json")["eos_token"],
    }


# --- pure parts -----------------------------------------------------------------------------------------------
def test_module_imports_without_heavy_packages():
    code = (
        "import sys, extractor.testing; "
        "print(sorted({'mlx', 'mlx_vlm', 'numpy', 'tokenizers', 'transformers'} "
        "& {name.split('.')[0] for name in sys.modules}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


def test_sample_invoice_is_valid_and_consistent():
    import jsonschema

    schema = _read(ROOT / "schemas" / "invoice.schema.json")
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(SAMPLE_INVOICE)
    assert json.loads(SAMPLE_INVOICE_ANSWER) == SAMPLE_INVOICE
    assert len(SAMPLE_INVOICE_ANSWER) >= 1500
    money = lambda value: Decimal(str(value))  # noqa: E731
    lines = SAMPLE_INVOICE["line_items"]
    assert all(money(li["quantity"]) * money(li["unit_price"]) == money(li["amount"]) for li in lines)
    assert sum(money(li["amount"]) for li in lines) == money(SAMPLE_INVOICE["subtotal"])
    for tax in SAMPLE_INVOICE["tax_lines"]:
        base = sum(money(li["amount"]) for li in lines if li["tax_rate"] == tax["rate"])
        assert (base, (base * money(tax["rate"]) / 100).quantize(Decimal("0.01"))) == (
            money(tax["base"]),
            money(tax["amount"]),
        )
    total = money(SAMPLE_INVOICE["subtotal"]) + sum(money(t["amount"]) for t in SAMPLE_INVOICE["tax_lines"])
    assert total == money(SAMPLE_INVOICE["total"])
    assert total - money(SAMPLE_INVOICE["prepaid_amount"]) == money(SAMPLE_INVOICE["amount_due"])


@pytest.mark.parametrize(
    "options",
    [
        {"answer": ""},
        {"answer": "x", "then": "never"},
        {"answer": "x", "then": "repeat", "repeat_line": ""},
        {"answer": "x", "config_eos": "248044"},
        {"answer": "x", "generation_eos": [IM_END, "eos"]},
        {"answer": "x", "tokenizer_eos": ""},
    ],
)
def test_bad_options_raise_usage_error(tmp_path, options):
    with pytest.raises(UsageError):
        build_scripted_model(tmp_path / "m", **options)


@pytest.mark.parametrize(
    "text", ["x", "{}", "ü", "a" * 300, "\n" + " " * 200, "0" * 120, "ab" * 200, json.dumps(SAMPLE_INVOICE, indent=4)]
)
def test_chunks_are_distinct_and_rebuild_the_text(text):
    base_vocab = kit_tokenizer._base_tokenizer()["model"]["vocab"]
    taken = {"aaaaaa"}  # as if another text of the same model already used "aaaaaa"
    chunks = kit_tokenizer._cut_chunks(text, taken, base_vocab)
    forms = [kit_tokenizer._to_bytelevel(chunk) for chunk in chunks]
    assert "".join(chunks) == text
    assert len(set(forms)) == len(forms) and "aaaaaa" not in forms
    assert set(forms) <= taken


@pytest.mark.parametrize("answer", ["x", "  "])
def test_short_answers_get_distinct_ids(tmp_path, answer):
    tiny = build_scripted_model(tmp_path / "m", answer=answer, then="repeat", repeat_line="y")
    ids = (*tiny.answer_token_ids, *tiny.continuation_token_ids)
    assert len(set(ids)) == len(ids)
    program = _read(tiny.path / testing.PROGRAM_FILE)
    assert ("".join(program["answer_chunks"]), "".join(program["continuation_chunks"])) == (answer, "y")


def test_a_lone_newline_cannot_be_scripted(tmp_path):
    # "\n" is already a vocabulary entry, and reusing it would make every chat-template prompt start mid-script
    with pytest.raises(ModelError, match="text of its own"):
        build_scripted_model(tmp_path / "m", answer="\n")


def test_too_small_logit_margin_raises(tmp_path, monkeypatch):
    monkeypatch.setattr(kit_register, "MIN_LOGIT_MARGIN", 1e6)
    with pytest.raises(ModelError, match="logit margin"):
        build_scripted_model(tmp_path / "m", answer=SHORT_ANSWER)


@pytest.fixture(scope="module")
def random_processor(model_factory):
    """The default random model's processor, loaded once for the tokenizer tests (a load per case cost ~5 s)."""
    return _load(model_factory.random())[1]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ('{"invoice_number":"', ['{"', "invoice", "_number", '":"']),
        ('","seller":{"name":"', ['","', "seller", '":{"', "name", '":"']),
        ('"},"vat_id":', ['"},"', "vat", "_id", '":']),
        (',"unit_price":', [',"', "unit", "_price", '":']),
        ('}],"subtotal":', ['}],"', "subtotal", '":']),
        ("null", ["null"]),
    ],
)
def test_json_structure_tokenizes_compactly(random_processor, text, tokens):
    processor = random_processor
    ids = processor.tokenizer.encode(text, add_special_tokens=False)
    assert processor.tokenizer.convert_ids_to_tokens(ids) == tokens


def test_every_schema_key_is_one_or_two_tokens(random_processor):
    from extractor.schema import load_schema
    from extractor.testing.tokenizer import CORPUS_SCHEMAS

    def keys(node):
        if isinstance(node, dict):
            for key, sub in (node.get("properties") or {}).items():
                yield key
                yield from keys(sub)
            yield from keys(node.get("items"))

    processor = random_processor
    names = {key for name in CORPUS_SCHEMAS for key in keys(load_schema(name).schema)}
    lengths = {key: len(processor.tokenizer.encode(key, add_special_tokens=False)) for key in names}
    assert len(names) > 30 and max(lengths.values()) <= 2, lengths


def test_base_vocabulary_is_trained_then_filled_densely():
    vocab = kit_tokenizer._base_tokenizer()["model"]["vocab"]
    trained = sorted(i for form, i in vocab.items() if not form.startswith("<|x"))
    assert 1500 <= len(trained) <= testing.TRAINED_VOCAB_LIMIT < testing.CHUNK_BASE_ID
    assert trained == list(range(len(trained)))
    assert sorted(vocab.values()) == list(range(testing.FIRST_ADDED_ID))


@pytest.mark.parametrize("kind", ["random", "scripted"])
def test_weights_are_float32_and_tied(model_factory, kind):
    import mlx.core as mx

    tiny = getattr(model_factory, kind)()
    weights = mx.load(str(tiny.path / "model.safetensors"))
    assert {str(v.dtype) for v in weights.values() if mx.issubdtype(v.dtype, mx.floating)} == {"mlx.core.float32"}
    assert "language_model.lm_head.weight" not in weights
    assert _read(tiny.path / "config.json")["tie_word_embeddings"] is True


# --- files written ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {},
            {"config": ENDOFTEXT, "text_config": ENDOFTEXT, "generation_config": ABSENT, "tokenizer": "<|endoftext|>"},
        ),
        (
            {
                "config_eos": [IM_END, ENDOFTEXT],
                "text_eos": None,
                "generation_eos": None,
                "tokenizer_eos": "<|im_end|>",
            },
            {
                "config": [IM_END, ENDOFTEXT],
                "text_config": ABSENT,
                "generation_config": {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT},
                "tokenizer": "<|im_end|>",
            },
        ),
        (
            {"config_eos": None, "generation_eos": [IM_END, ENDOFTEXT]},
            {
                "config": ABSENT,
                "text_config": ENDOFTEXT,
                "generation_config": {
                    "bos_token_id": ENDOFTEXT,
                    "pad_token_id": ENDOFTEXT,
                    "eos_token_id": [IM_END, ENDOFTEXT],
                },
                "tokenizer": "<|endoftext|>",
            },
        ),
        (
            {"config_eos": None, "text_eos": None, "generation_eos": IM_END},
            {
                "config": ABSENT,
                "text_config": ABSENT,
                "generation_config": {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT, "eos_token_id": IM_END},
                "tokenizer": "<|endoftext|>",
            },
        ),
    ],
)
def test_eos_fields_are_written_as_asked(model_factory, options, expected):
    assert _eos_view(model_factory.random(**options).path) == expected


def test_vision_ids_written_or_omitted(model_factory):
    def view(config: dict) -> dict:
        keys = ("image_token_id", "vision_start_token_id", "vision_end_token_id")
        return {key: config.get(key, ABSENT) for key in keys}

    assert view(_read(model_factory.random().path / "config.json")) == {
        "image_token_id": IMAGE_PAD,
        "vision_start_token_id": VISION_START,
        "vision_end_token_id": VISION_END,
    }
    assert view(_read(model_factory.random(vision_ids=False).path / "config.json")) == {
        "image_token_id": IMAGE_PAD,
        "vision_start_token_id": ABSENT,
        "vision_end_token_id": ABSENT,
    }


def test_mismatched_tokenizer_ids_still_load(model_factory):
    tiny = model_factory.random(tokenizer_ids_ok=False)
    in_json = {t["id"]: t["content"] for t in _read(tiny.path / "tokenizer.json")["added_tokens"]}
    decoder = _read(tiny.path / "tokenizer_config.json")["added_tokens_decoder"]
    in_config = {int(k): v["content"] for k, v in decoder.items()}
    assert (in_json[IM_END], in_json[IM_END + 1]) == ("<|im_end|>", "<|object_ref_start|>")
    assert (in_config[IM_END], in_config[IM_END + 1]) == ("<|object_ref_start|>", "<|im_end|>")
    _, processor = _load(tiny)
    assert processor.tokenizer.convert_tokens_to_ids("<|im_end|>") == IM_END + 1


def test_factory_copy_is_private(model_factory, tmp_path):
    tiny = model_factory.random()
    copy = model_factory.copy(tiny, tmp_path / "copy")
    (copy.path / "generation_config.json").write_text("{}", encoding="utf-8")
    assert copy == TinyModel(tmp_path / "copy", None, (), None, ())
    assert not (tiny.path / "generation_config.json").exists()


def test_program_json_reads_back(model_factory):
    tiny = model_factory.scripted(answer=SHORT_ANSWER)
    program = _read(tiny.path / testing.PROGRAM_FILE)
    assert read_tiny_model(tiny.path) == tiny
    assert scripted_answer_ids(tiny.path) == tiny.answer_token_ids == tuple(program["answer_token_ids"])
    assert "".join(program["answer_chunks"]) == SHORT_ANSWER
    assert len(set(tiny.answer_token_ids)) == len(tiny.answer_token_ids)
    assert tiny.expected_token_ids(len(tiny.answer_token_ids) + 2) == (*tiny.answer_token_ids, IM_END, IM_END)
    assert (tiny.fed, tiny.fed_count, tiny.schema_name, tiny.schema) == (
        (False,) * len(tiny.answer_token_ids),
        0,
        None,
        None,
    )
    assert program["min_logit_margin"] >= testing.MIN_LOGIT_MARGIN
    random = model_factory.random()
    assert read_tiny_model(random.path) == TinyModel(random.path, None, (), None, ())


def test_read_tiny_model_rejects_other_directories(tmp_path):
    with pytest.raises(ModelError, match="program.json"):
        read_tiny_model(tmp_path)


# --- generation through the real mlx-vlm ----------------------------------------------------------------------------
def test_random_model_generates_with_an_image(model_factory):
    result = _generate(model_factory.random(), max_tokens=6)
    assert (result.finish_reason, len(result.token_ids)) == ("length", 6)


@pytest.fixture(scope="module")
def invoice_model(model_factory):
    """The default scripted model (invoice answer, then <|im_end|>, config eos 248044 only), loaded."""
    tiny = model_factory.scripted()
    return (tiny, *_load(tiny))


@pytest.mark.parametrize("temperature", [1.0])  # sampled as the script: greedy is too (margins >= MIN_LOGIT_MARGIN)
def test_scripted_invoice_never_stops_with_default_eos(invoice_model, temperature):
    from mlx_vlm import generate

    tiny, model, processor = invoice_model
    assert len(tiny.answer_token_ids) >= 200
    max_tokens = len(tiny.answer_token_ids) + 20
    result = generate(
        model, processor, _prompt(model, processor), image=[_image()], max_tokens=max_tokens, temperature=temperature
    )
    assert processor.tokenizer.stopping_criteria.eos_token_ids == [ENDOFTEXT]  # why it never stops
    assert result.finish_reason == "length"
    assert tuple(result.token_ids) == tiny.expected_token_ids(max_tokens)
    assert result.text.startswith(SAMPLE_INVOICE_ANSWER)
    assert json.loads(result.text[: len(SAMPLE_INVOICE_ANSWER)]) == SAMPLE_INVOICE


@pytest.mark.parametrize("then", THEN_CHOICES)
def test_each_continuation_is_emitted(model_factory, then):
    tiny = model_factory.scripted(answer=SHORT_ANSWER, then=then, repeat_line=REPEAT_LINE)
    result = _generate(tiny, max_tokens=len(tiny.answer_token_ids) + 8)
    ids = tuple(result.token_ids)
    tail_ids, tail_text = ids[len(tiny.answer_token_ids) :], result.text[len(SHORT_ANSWER) :]
    assert result.text.startswith(SHORT_ANSWER)
    assert ids == tiny.expected_token_ids(len(ids))
    if then == "endoftext":
        assert (result.finish_reason, tail_ids) == ("stop", (ENDOFTEXT,))
        return
    assert result.finish_reason == "length"
    if then == "im_end":
        assert tail_ids == (IM_END,) * 8
    elif then == "whitespace":
        assert len(set(tail_ids)) == 1 and tail_ids[0] < ENDOFTEXT
        assert tail_text and not tail_text.strip()
    elif then == "repeat":
        assert tail_text.startswith(REPEAT_LINE + REPEAT_LINE[:1])
    else:  # marker_text: the text of an end marker, with no special token behind it
        assert tail_text.startswith("<|im_end|><|im_end|>")
        assert max(tail_ids) < ENDOFTEXT


def test_stream_generate_and_generate_step_follow_the_script(model_factory):
    from mlx_vlm import prepare_inputs, stream_generate
    from mlx_vlm.generate.ar import generate_step

    tiny = model_factory.scripted(answer=SHORT_ANSWER)
    model, processor = _load(tiny)
    prompt = _prompt(model, processor)
    count = len(tiny.answer_token_ids) + 3
    chunks = list(stream_generate(model, processor, prompt, image=[_image()], max_tokens=count, temperature=1.0))
    # the last chunk repeats the last token with the flushed text
    streamed = {chunk.generation_tokens: chunk.token for chunk in chunks}
    assert tuple(streamed.values()) == tiny.expected_token_ids(count)
    assert "".join(chunk.text for chunk in chunks).startswith(SHORT_ANSWER)

    inputs = prepare_inputs(
        processor, images=[_image()], prompts=prompt, image_token_index=getattr(model.config, "image_token_index", None)
    )
    extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
    stepped = []
    for token, _ in generate_step(
        inputs["input_ids"], model, inputs["pixel_values"], inputs["attention_mask"], max_tokens=count, **extra
    ):
        stepped.append(int(token))
        if len(stepped) == count:
            break
    assert tuple(stepped) == tiny.expected_token_ids(count)


# --- shell entry point ------------------------------------------------------------------------------------------
def _cli(*args: str, process: bool = False) -> subprocess.CompletedProcess:
    """``python -m extractor.testing ARGS``: its ``main`` in this process (a new process would import mlx-vlm and
    transformers again, ~3 s a call), or as a subprocess with ``process`` (the real entry point)."""
    if process:
        env = dict(os.environ, HF_HUB_OFFLINE="1", MLX_DISABLE_COMPILE="1")
        return subprocess.run(
            [sys.executable, "-m", "extractor.testing", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    import contextlib

    from extractor.testing.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(
        ["python", "-m", "extractor.testing", *args], code, out.getvalue(), err.getvalue()
    )


def test_cli_builds_a_scripted_model(tmp_path):
    script = tmp_path / "answer.json"
    script.write_text(SHORT_ANSWER + "\n", encoding="utf-8")
    done = _cli(str(tmp_path / "m"), "--script", str(script), "--then", "im_end", "--plain", process=True)
    assert done.returncode == 0, done.stderr
    assert "(plain: no schema)" in done.stdout
    assert done.stdout.splitlines()[0] == str(tmp_path / "m")
    tiny = read_tiny_model(tmp_path / "m")
    compact = json.dumps(json.loads(SHORT_ANSWER), ensure_ascii=False, separators=(",", ":"))
    assert (tiny.answer, tiny.then, tiny.continuation_token_ids) == (compact, "im_end", (IM_END,))
    assert _eos_view(tmp_path / "m") == {
        "config": ENDOFTEXT,
        "text_config": ENDOFTEXT,
        "generation_config": ABSENT,
        "tokenizer": "<|endoftext|>",
    }
    text_script = tmp_path / "answer.txt"  # any other file is scripted verbatim
    text_script.write_text(SHORT_ANSWER + "\n", encoding="utf-8")
    assert _cli(str(tmp_path / "t"), "--script", str(text_script)).returncode == 0
    assert read_tiny_model(tmp_path / "t").answer == SHORT_ANSWER


def test_cli_builds_a_random_model_with_eos_options(tmp_path):
    done = _cli(
        str(tmp_path / "m"),
        "--config-eos",
        "none",
        "--generation-eos",
        str(IM_END),
        str(ENDOFTEXT),
        "--tokenizer-eos",
        "<|im_end|>",
        "--no-vision-ids",
    )
    assert done.returncode == 0, done.stderr
    assert read_tiny_model(tmp_path / "m").answer is None
    assert _eos_view(tmp_path / "m") == {
        "config": ABSENT,
        "text_config": ENDOFTEXT,
        "tokenizer": "<|im_end|>",
        "generation_config": {
            "bos_token_id": ENDOFTEXT,
            "pad_token_id": ENDOFTEXT,
            "eos_token_id": [IM_END, ENDOFTEXT],
        },
    }
    assert "vision_start_token_id" not in _read(tmp_path / "m" / "config.json")


def test_cli_rejects_a_bad_eos_id(tmp_path):
    done = _cli(str(tmp_path / "m"), "--config-eos", "eos")
    assert done.returncode == 2
    assert "--config-eos" in done.stderr
    assert not (tmp_path / "m").exists()


def test_cli_builds_the_readme_demo_with_a_schema(tmp_path):
    sample = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
    done = _cli(str(tmp_path / "m"), "--script", str(sample), "--schema", "invoice")
    assert done.returncode == 0, done.stderr
    tiny = read_tiny_model(tmp_path / "m")
    compact = json.dumps(json.loads(sample.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
    assert (tiny.answer, tiny.schema_name, tiny.then) == (compact, "invoice", "im_end")
    assert 0 < tiny.fed_count < len(tiny.answer_token_ids)
    assert f"{tiny.fed_count} fed by jump-forward, schema invoice" in done.stdout


def test_cli_builds_a_mid_style_model_with_a_schema_file(tmp_path):
    schema = tmp_path / "short.schema.json"
    schema.write_text(
        json.dumps({"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}),
        encoding="utf-8",
    )
    script = tmp_path / "answer.json"
    script.write_text('{"total": 12.5}\n', encoding="utf-8")
    done = _cli(
        str(tmp_path / "m"),
        "--script",
        str(script),
        "--schema",
        str(schema),
        "--size",
        "mid",
        "--hidden-size",
        "128",
        "--layers",
        "4",
    )
    assert done.returncode == 0, done.stderr
    text = _read(tmp_path / "m" / "config.json")["text_config"]
    assert (text["hidden_size"], text["num_hidden_layers"], text["full_attention_interval"]) == (128, 4, 4)
    assert read_tiny_model(tmp_path / "m").schema_name == str(schema)
    assert "hidden 128 x 4 layers" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--schema", "invoice"], "need --script"),
        (["--script", "SCRIPT", "--schema", "missing.schema.json"], "schema file not found"),
        (["--script", "SCRIPT", "--hidden-size", "200", "--plain"], "hidden_size"),
        (["--script", "SCRIPT", "--schema", "invoice"], "does not follow the schema at character 2"),
    ],
)
def test_cli_rejects_bad_schema_and_size_options(tmp_path, args, message):
    script = tmp_path / "answer.json"
    script.write_text(SHORT_ANSWER, encoding="utf-8")
    done = _cli(str(tmp_path / "m"), *[str(script) if a == "SCRIPT" else a for a in args])
    assert done.returncode == 2, done.stderr
    assert message in done.stderr


@pytest.mark.parametrize(
    ("content", "hint"),
    [
        (None, "--schema invoice (the answer is valid against it)"),  # README's demo answer
        ('{"total": 12.5}', "--schema FILE (your schema; it matches no builtin one)"),
    ],
)
def test_cli_refuses_a_json_script_without_a_schema(tmp_path, content, hint):
    sample = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
    script = tmp_path / "answer.json"
    script.write_text(content if content is not None else sample.read_text(encoding="utf-8"), encoding="utf-8")
    done = _cli(str(tmp_path / "m"), "--script", str(script))
    assert done.returncode == 2, done.stderr
    assert hint in done.stderr and "--plain" in done.stderr and "jump-forward" in done.stderr
    assert not (tmp_path / "m").exists()


def test_cli_schema_none_builds_the_plain_script(tmp_path):
    script = tmp_path / "answer.json"
    script.write_text(SHORT_ANSWER, encoding="utf-8")
    done = _cli(str(tmp_path / "m"), "--script", str(script), "--schema", "none")
    assert done.returncode == 0, done.stderr
    assert read_tiny_model(tmp_path / "m").schema_name is None


def test_a_plain_json_script_breaks_jump_forward_decoding(model_factory):
    """Why the CLI refuses: a plain script of a JSON answer is not what constrained jump-forward decoding produces
    (the grammar forces tokens the script does not hold); a schema-aware script is (its build walks it, and
    test_testing_kit_schema checks the records)."""
    from extractor.runners.constrain.grammar import compile_schema
    from extractor.runners.stopping import resolve_stop_set
    from extractor.testing import script as kit_script

    schema = {
        "type": "object",
        "properties": {"total": {"type": "number"}, "note": {"type": "string"}},
        "required": ["total", "note"],
        "additionalProperties": False,
    }
    tiny = model_factory.scripted(
        answer=json.dumps(json.loads(SHORT_ANSWER), ensure_ascii=False, separators=(",", ":"))
    )
    stop = resolve_stop_set(tiny.path).ids
    tokenizer = kit_script._model_llg_tokenizer(tiny.path, stop)
    compiled = compile_schema(schema, tokenizer=tokenizer, lenient=True)
    assert compiled.new_matcher().compute_ff_tokens(), "the grammar forces the opening of the object"
    assert kit_script._walk_script(tiny.answer_token_ids, compiled=compiled, tokenizer=tokenizer, stop_ids=stop) is None


# --- mlx_vlm.server ---------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _http(url: str, body: dict | None = None, timeout: float = 120) -> tuple[int, str]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_mlx_vlm_server_answers_with_the_script(model_factory, tmp_path):
    tiny = model_factory.scripted()
    buffer = io.BytesIO()
    _image().save(buffer, format="PNG")
    data_url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    base = f"http://127.0.0.1:{_free_port()}"
    log_path = tmp_path / "server.log"
    env = dict(os.environ, HF_HUB_OFFLINE="1", MLX_DISABLE_COMPILE="1")
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mlx_vlm.server",
                "--model",
                str(tiny.path),
                "--host",
                "127.0.0.1",
                "--port",
                base.rsplit(":", 1)[1],
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            deadline = time.monotonic() + 180
            while True:
                assert server.poll() is None, "server exited:\n" + log_path.read_text()[-3000:]
                assert time.monotonic() < deadline, "server not ready:\n" + log_path.read_text()[-3000:]
                try:
                    code, body = _http(base + "/health", timeout=2)
                    if code == 200 and json.loads(body).get("loaded_model"):
                        break
                except OSError:
                    pass
                time.sleep(0.3)
            code, body = _http(
                base + "/v1/chat/completions",
                {
                    "model": str(tiny.path),
                    "messages": [
                        {
                            "role": "user",
                            "content": [
                                {"type": "image_url", "image_url": {"url": data_url}},
                                {"type": "text", "text": "Extract the invoice as JSON."},
                            ],
                        }
                    ],
                    "max_tokens": len(tiny.answer_token_ids) + 2,
                    "temperature": 0.0,
                },
            )
            assert code == 200, body
            content = json.loads(body)["choices"][0]["message"]["content"]
            assert content.startswith(SAMPLE_INVOICE_ANSWER)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
