"""``extract doctor``: the six checks on tiny model directories, ``--fix``, ``--json``, exit codes and ``--smoke``.

Most checks only read files, so the table-driven cases write just the JSON / template files; the acceptance cases run
on real tiny qwen3_5 directories from ``extractor.testing`` (through the CLI, ``typer.testing.CliRunner``).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.testing import CHAT_TEMPLATE, ENDOFTEXT, FAMILIES, IM_END, TOKEN_IDS
from extractor.testing.family_files import write_family_files
from extractor.tools.doctor.files import (
    check_config_eos,
    check_generation_config,
    check_thinking,
    check_tokenizer_ids,
    check_vision_ids,
    run_checks,
)
from extractor.tools.doctor.fix import fix_generation_config
from extractor.tools.doctor.stopset import mlx_vlm_stop_ids, read_facts

BOTH = [ENDOFTEXT, IM_END]
FIX_NAMED = "fix: run `extract doctor MODEL --fix` (sets eos_token_id to [248044, 248046])"
BARE_MISSES = (
    "eos_token_id=248044, text_config.eos_token_id=248044; mlx-vlm 0.7.10: config.json eos_token_id = "
    "248044; + tokenizer eos <|endoftext|> -> stops on [248044 <|endoftext|>]; misses [248046 <|im_end|>] "
    "(never stops); run `extract doctor MODEL --fix`"
)
TOKENIZER_OK = {
    "name": "tokenizer_ids",
    "status": "pass",
    "source": "tokenizer_config.json",
    "detail": "ids agree: <|endoftext|>=248044, <|im_start|>=248045, <|im_end|>=248046, eos_token <|endoftext|>=248044",
}
VISION_OK = {
    "name": "vision_ids",
    "status": "pass",
    "source": "config.json",
    "detail": "vision_start_token_id=248053; vision_end_token_id=248054; image_token_id=248056",
}
THINKING_OK = {
    "name": "thinking",
    "status": "pass",
    "source": "chat_template.jinja",
    "detail": "supports enable_thinking; the runner passes enable_thinking=False and the generation "
    "prompt then holds no open <think> block",
}
UPSTREAM = [
    {
        "name": "generation_config",
        "status": "fail",
        "source": "generation_config.json",
        "detail": "missing; mlx-vlm falls back to config.json's eos_token_id and misses [248046 <|im_end|>]; "
        + FIX_NAMED,
    },
    {"name": "config_eos", "status": "fail", "source": "config.json", "detail": BARE_MISSES},
    TOKENIZER_OK,
    {
        "name": "chat_template",
        "status": "warn",
        "source": "chat_template.jinja",
        "detail": "assistant turns end with <|im_end|> (248046): in extract's stop set, not in bare mlx-vlm's "
        "[248044 <|endoftext|>] (run `extract doctor MODEL --fix`)",
    },
    VISION_OK,
    THINKING_OK,
]
FIXED = [
    {
        "name": "generation_config",
        "status": "pass",
        "source": "generation_config.json",
        "detail": "eos_token_id [248044 <|endoftext|>, 248046 <|im_end|>] holds every end token",
    },
    {
        "name": "config_eos",
        "status": "pass",
        "source": "config.json",
        "detail": "eos_token_id=248044, text_config.eos_token_id=248044; mlx-vlm 0.7.10: generation_config.json "
        "eos_token_id (replaces config.json's) = [248044, 248046]; + tokenizer eos <|endoftext|> -> stops on "
        "[248044 <|endoftext|>, 248046 <|im_end|>]",
    },
    TOKENIZER_OK,
    {
        "name": "chat_template",
        "status": "pass",
        "source": "chat_template.jinja",
        "detail": "assistant turns end with <|im_end|> (248046): in the stop set (extract and bare mlx-vlm)",
    },
    VISION_OK,
    THINKING_OK,
]


def doctor_cli(*args: str):
    """Run ``extract doctor ARGS`` in-process; return (exit code, parsed JSON or None, output)."""
    result = CliRunner().invoke(app, dispatch_args(["doctor", *args]))
    parsed = json.loads(result.stdout) if "--json" in args and result.stdout.strip() else None
    return result.exit_code, parsed, result.output


# ---------------------------------------------------------------------------------------------------------------
# Acceptance on tiny model directories
# ---------------------------------------------------------------------------------------------------------------
def test_upstream_bug_fails_with_the_fix_named(model_factory):
    model = model_factory.random()  # config.json eos 248044 only, tokenizer eos <|endoftext|>, no generation_config
    code, checks, _ = doctor_cli(str(model.path), "--json")
    assert (code, checks) == (1, UPSTREAM)


def test_table_output_and_exit_code(model_factory):
    code, _, output = doctor_cli(str(model_factory.random().path))
    assert code == 1
    assert "generation_config" in output and "fail" in output


def test_fix_creates_generation_config_then_passes_and_is_idempotent(model_factory, tmp_path):
    model = model_factory.copy(model_factory.random(), tmp_path / "m")
    code, checks, _ = doctor_cli(str(model.path), "--fix", "--json")
    created = {
        "name": "fix",
        "status": "pass",
        "source": "generation_config.json",
        "detail": "created generation_config.json with eos_token_id [248044, 248046]",
    }
    assert (code, checks) == (0, [created] + FIXED)
    gen = model.path / "generation_config.json"
    assert json.loads(gen.read_text()) == {"eos_token_id": BOTH}
    assert not (model.path / "generation_config.json.bak").exists()  # nothing existed to back up
    before = gen.read_bytes()
    code, checks, _ = doctor_cli(str(model.path), "--fix", "--json")
    unchanged = {
        "name": "fix",
        "status": "pass",
        "source": "generation_config.json",
        "detail": "nothing to change: eos_token_id is [248044, 248046]",
    }
    assert (code, checks, gen.read_bytes()) == (0, [unchanged] + FIXED, before)


def test_fix_keeps_other_keys_and_backs_up_once(model_factory, tmp_path):
    # a re-converted model: generation_config.json exists, with eos 248044 only
    model = model_factory.copy(model_factory.random(generation_eos=ENDOFTEXT), tmp_path / "m")
    gen, bak = model.path / "generation_config.json", model.path / "generation_config.json.bak"
    original = gen.read_bytes()
    code, checks, _ = doctor_cli(str(model.path), "--json")
    assert (code, checks[0]) == (
        1,
        {
            "name": "generation_config",
            "status": "fail",
            "source": "generation_config.json",
            "detail": "eos_token_id 248044 misses [248046 <|im_end|>]; " + FIX_NAMED,
        },
    )
    code, checks, _ = doctor_cli(str(model.path), "--fix", "--json")
    assert (code, checks[0]) == (
        0,
        {
            "name": "fix",
            "status": "pass",
            "source": "generation_config.json",
            "detail": "rewrote generation_config.json: eos_token_id 248044 -> "
            "[248044, 248046]; original backed up to generation_config.json.bak",
        },
    )
    assert checks[1:] == FIXED
    assert json.loads(gen.read_text()) == {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT, "eos_token_id": BOTH}
    assert bak.read_bytes() == original
    fixed = gen.read_bytes()
    doctor_cli(str(model.path), "--fix")
    assert (gen.read_bytes(), bak.read_bytes()) == (fixed, original)
    # re-converted again: the bug is back; --fix repairs it and keeps the first backup
    gen.write_bytes(original)
    assert doctor_cli(str(model.path), "--fix")[0] == 0
    assert (gen.read_bytes(), bak.read_bytes()) == (fixed, original)


def test_mismatched_tokenizer_ids_fail_and_block_the_fix(model_factory, tmp_path):
    model = model_factory.random(tokenizer_ids_ok=False)  # <|im_end|> is 248047 in tokenizer_config.json only
    code, checks, _ = doctor_cli(str(model.path), "--json")
    assert code == 1
    assert checks[2] == {
        "name": "tokenizer_ids",
        "status": "fail",
        "source": "tokenizer_config.json",
        "detail": "<|im_end|> is 248047 in tokenizer_config.json but 248046 in tokenizer.json",
    }
    assert checks[0]["detail"].endswith(
        "fix: make tokenizer_config.json and tokenizer.json agree first (see "
        "tokenizer_ids), then run `extract doctor MODEL --fix`"
    )
    copy = model_factory.copy(model, tmp_path / "m")
    code, _, output = doctor_cli(str(copy.path), "--fix")
    assert code == 1 and "tokenizer files disagree" in output
    assert not (copy.path / "generation_config.json").exists()


def test_missing_vision_ids_fail(model_factory):
    code, checks, _ = doctor_cli(str(model_factory.random(vision_ids=False).path), "--json")
    assert code == 1
    assert checks[4] == {
        "name": "vision_ids",
        "status": "fail",
        "source": "config.json",
        "detail": "vision_start_token_id missing: mlx-vlm 0.7.10 defaults it to 248045 (<|im_start|>), the tokenizer "
        'has <|vision_start|>=248053; set "vision_start_token_id": 248053 in config.json; '
        "vision_end_token_id missing: mlx-vlm 0.7.10 defaults it to 248046 (<|im_end|>), the tokenizer has "
        '<|vision_end|>=248054; set "vision_end_token_id": 248054 in config.json; image_token_id=248056',
    }


def test_a_healthy_directory_passes(model_factory):
    model = model_factory.random(generation_eos=BOTH)
    code, checks, _ = doctor_cli(str(model.path), "--json")
    assert (code, checks) == (0, FIXED)


def test_missing_model_is_an_error():
    code, _, output = doctor_cli("./no/such/model", "--json")
    assert code == 1 and "does not exist" in output


def test_hub_id_from_the_local_cache(model_factory, tmp_path, monkeypatch):
    """A hub id resolves through the local Hugging Face cache (no network); --fix replaces the snapshot's symlink,
    never the shared blob."""
    import huggingface_hub.constants

    src = model_factory.random().path
    repo = tmp_path / "hub" / "models--acme--tiny"
    snap, blobs = repo / "snapshots" / ("0" * 40), repo / "blobs"
    snap.mkdir(parents=True)
    blobs.mkdir()
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0" * 40)
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
        (snap / name).symlink_to(src / name)
    (blobs / "gen").write_text(json.dumps({"eos_token_id": ENDOFTEXT, "do_sample": False}))
    (snap / "generation_config.json").symlink_to(blobs / "gen")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    code, checks, _ = doctor_cli("acme/tiny", "--json")
    assert (code, checks[0]["status"]) == (1, "fail")
    code, checks, _ = doctor_cli("acme/tiny", "--fix", "--json")
    assert (code, checks[1:]) == (0, FIXED)
    assert json.loads((snap / "generation_config.json").read_text()) == {"eos_token_id": BOTH, "do_sample": False}
    assert json.loads((blobs / "gen").read_text()) == {"eos_token_id": ENDOFTEXT, "do_sample": False}


# ---------------------------------------------------------------------------------------------------------------
# --smoke: one real generation through our runner
# ---------------------------------------------------------------------------------------------------------------
SHORT = '{"total": 1}'


@pytest.mark.parametrize(
    "feed_ms, feed_words",
    [
        ({"one_pass": 2.5, "per_token": 6.5}, ""),
        ({"one_pass": 36.4, "per_token": 15.7}, ", forced runs one token per pass"),
    ],
)
def test_smoke_on_a_model_that_stops(model_factory, monkeypatch, feed_ms, feed_words):
    """The words follow the load-time feed timing, which is the machine's: the timing is given here (CI's busy
    CPU measured this model either way), ``feed_choice`` is table-tested in test_decode."""
    from extractor.runners.mlx import plan as decoding

    monkeypatch.setattr(decoding, "time_forced_feed", lambda *_, **__: feed_ms)
    model = model_factory.scripted(answer=SHORT, then="im_end", generation_eos=BOTH)
    code, checks, _ = doctor_cli(str(model.path), "--smoke", "--smoke-tokens", "40", "--json")
    n = len(model.answer_token_ids) + 1
    assert (code, checks[-1]) == (
        0,
        {
            "name": "smoke",
            "status": "pass",
            "source": None,
            "detail": f"stopped on 248046 <|im_end|> after {n} tokens (stop token included); bare mlx-vlm stops on "
            f"it too; decodes on the fast path (prefix cache, jump-forward{feed_words})",
        },
    )


def test_smoke_on_a_model_that_never_stops(model_factory):
    model = model_factory.scripted(answer=SHORT, then="whitespace", generation_eos=BOTH)
    code, checks, _ = doctor_cli(str(model.path), "--smoke", "--smoke-tokens", "40", "--json")
    guard_at = len(model.answer_token_ids) + 8  # json_closed: 8 whitespace tokens after the answer
    assert checks[:-1] == FIXED
    assert (code, checks[-1]) == (
        1,
        {
            "name": "smoke",
            "status": "fail",
            "source": None,
            "detail": f"no stop token within 40 tokens (finish: length); the runaway guards would have stopped it "
            f"(json_closed) after {guard_at} tokens",
        },
    )


# ---------------------------------------------------------------------------------------------------------------
# Pure checks on file-only directories
# ---------------------------------------------------------------------------------------------------------------
def write_model_files(
    root: Path, *, config: dict, generation=None, tokenizer_eos="<|endoftext|>", template=CHAT_TEMPLATE
) -> Path:
    """Write only what the checks read: config, generation config, tokenizer files, chat template."""
    root.mkdir(parents=True, exist_ok=True)
    added = [{"id": i, "content": t, "special": True} for t, i in TOKEN_IDS.items()]
    (root / "tokenizer.json").write_text(json.dumps({"added_tokens": added}))
    (root / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "eos_token": tokenizer_eos,
                "added_tokens_decoder": {str(i): {"content": t, "special": True} for t, i in TOKEN_IDS.items()},
            }
        )
    )
    (root / "config.json").write_text(json.dumps({"model_type": "qwen3_5", **config}))
    if generation is not None:
        (root / "generation_config.json").write_text(json.dumps(generation))
    if template is not None:
        (root / "chat_template.jinja").write_text(template)
    return root


VISION = {"vision_start_token_id": 248053, "vision_end_token_id": 248054, "image_token_id": 248056}
# name -> (files, mlx-vlm's stop ids, generation_config status, config_eos status)
EMULATION = {
    "upstream": (
        dict(config={"eos_token_id": ENDOFTEXT, "text_config": {"eos_token_id": ENDOFTEXT}}),
        [ENDOFTEXT],
        "fail",
        "fail",
    ),
    "generation list": (
        dict(config={"eos_token_id": ENDOFTEXT}, generation={"eos_token_id": BOTH}),
        BOTH,
        "pass",
        "pass",
    ),
    "generation overrides a complete config": (
        dict(config={"eos_token_id": BOTH}, generation={"eos_token_id": ENDOFTEXT}),
        [ENDOFTEXT],
        "fail",
        "fail",
    ),
    "text_config only (qwen3_5 adds 248046)": (
        dict(config={"text_config": {"eos_token_id": ENDOFTEXT}}),
        BOTH,
        "warn",
        "pass",
    ),
    "tokenizer eos <|im_end|>": (
        dict(config={"eos_token_id": ENDOFTEXT}, tokenizer_eos="<|im_end|>"),
        BOTH,
        "warn",
        "pass",
    ),
    "generation_config without eos": (
        dict(config={"eos_token_id": ENDOFTEXT}, generation={"do_sample": False}),
        [ENDOFTEXT],
        "fail",
        "fail",
    ),
    "generation eos as a lone int, complete": (
        dict(config={"eos_token_id": BOTH}, generation={"eos_token_id": ENDOFTEXT}, tokenizer_eos="<|im_end|>"),
        BOTH,
        "warn",
        "pass",
    ),
}


@pytest.mark.parametrize("name", list(EMULATION))
def test_mlx_vlm_emulation_and_eos_checks(tmp_path, name):
    files, bare, gen_status, cfg_status = EMULATION[name]
    facts = read_facts(write_model_files(tmp_path / "m", **files))
    assert mlx_vlm_stop_ids(facts)[0] == bare
    assert (check_generation_config(facts).status, check_config_eos(facts).status) == (gen_status, cfg_status)


@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(generation_eos=BOTH), dict(config_eos=None), dict(generation_eos=ENDOFTEXT, config_eos=BOTH)],
)
def test_emulation_matches_real_mlx_vlm(model_factory, kwargs):
    """The doctor's no-mlx emulation of mlx-vlm's stop set equals what mlx_vlm.load really builds."""
    from mlx_vlm import load

    model = model_factory.random(**kwargs)
    _, processor = load(str(model.path))
    real = sorted(set(processor.tokenizer.stopping_criteria.eos_token_ids))
    assert mlx_vlm_stop_ids(read_facts(model.path))[0] == real


def test_config_eos_naming_a_non_end_token_fails(tmp_path):
    facts = read_facts(write_model_files(tmp_path / "m", config={"eos_token_id": 248045, **VISION}))
    assert check_tokenizer_ids(facts).to_dict() == {
        "name": "tokenizer_ids",
        "status": "fail",
        "source": "tokenizer_config.json",
        "detail": "config.json eos_token_id 248045 is <|im_start|> in the tokenizer, not an end token",
    }


def test_vision_ids_explicitly_wrong_fail_and_defaults_that_match_warn(tmp_path):
    wrong = read_facts(write_model_files(tmp_path / "a", config={**VISION, "vision_start_token_id": 248045}))
    assert check_vision_ids(wrong).to_dict() == {
        "name": "vision_ids",
        "status": "fail",
        "source": "config.json",
        "detail": "vision_start_token_id=248045 but the tokenizer has <|vision_start|>=248053; "
        "vision_end_token_id=248054; image_token_id=248056",
    }
    lucky = read_facts(
        write_model_files(tmp_path / "b", config={k: v for k, v in VISION.items() if k != "image_token_id"})
    )
    assert check_vision_ids(lucky).to_dict() == {
        "name": "vision_ids",
        "status": "warn",
        "source": "config.json",
        "detail": "vision_start_token_id=248053; vision_end_token_id=248054; image_token_id missing: mlx-vlm's "
        "default 248056 happens to match",
    }


THINK_ALWAYS = (
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "<|im_start|>assistant\n<think>\n"
)
THINK_IGNORED = THINK_ALWAYS + "{# enable_thinking is accepted but ignored #}"


@pytest.mark.parametrize(
    "template,status,detail",
    [
        (CHAT_TEMPLATE, "pass", THINKING_OK["detail"]),
        (
            THINK_ALWAYS,
            "warn",
            "the template has <think> but no enable_thinking switch: the model may think before "
            "answering (parsing drops <think> blocks; they cost tokens)",
        ),
        (
            THINK_IGNORED,
            "fail",
            "supports enable_thinking, but with enable_thinking=False the generation prompt still "
            "opens a <think> block",
        ),
        ("{{ messages[0].content }}<|im_end|>", "pass", "the template has no thinking mode"),
        ("{% if enable_thinking %}{{ broken(}}{% endif %}", "warn", None),
        (None, "pass", "no chat template: no thinking switch to set"),
    ],
)
def test_thinking_check(tmp_path, template, status, detail):
    facts = read_facts(write_model_files(tmp_path / "m", config=VISION, template=template))
    check = check_thinking(facts)
    assert check.status == status
    if detail is not None:
        assert check.detail == detail


def test_unreadable_generation_config_fails_and_fix_refuses(tmp_path):
    root = write_model_files(tmp_path / "m", config={"eos_token_id": ENDOFTEXT, **VISION})
    (root / "generation_config.json").write_text("{not json")
    checks = {c.name: c for c in run_checks(root)}
    assert checks["generation_config"].status == "fail"
    assert checks["generation_config"].detail.startswith("unreadable (JSONDecodeError")
    from extractor.errors import ModelError

    with pytest.raises(ModelError, match="cannot fix generation_config.json"):
        fix_generation_config(root)


# ---------------------------------------------------------------------------------------------------------------
# The vision check follows the family, not the vocabulary
# ---------------------------------------------------------------------------------------------------------------
QWEN_VISION_TOKENS = ("<|vision_start|>", "<|vision_end|>", "<|image_pad|>")


def write_family_dir(root: Path, family: str, *, also: tuple[str, ...] = (), config_bug: bool = False) -> dict:
    """Write a kit family's files as ``build_family_model`` does (``extractor.testing.family_files``), its
    vocabulary also carrying the tokens ``also`` (at its highest free ids), as a checkpoint built or merged on a
    Qwen tokenizer does. No weights: no check here loads them. Returns the special token text -> id."""
    spec = FAMILIES[family]
    taken = {tid for tid, _ in spec.specials}
    free = (i for i in range(spec.vocab_size - 1, 0, -1) if i not in taken)
    spec = dataclasses.replace(spec, specials=(*spec.specials, *((next(free), text) for text in also)))
    ids = {text: tid for tid, text in spec.specials}
    root.mkdir(parents=True, exist_ok=True)
    write_family_files(root, spec, ids, config_bug=config_bug)
    return ids


def patch_config(root: Path, **changes) -> None:
    """Change config.json's keys (None: delete the key)."""
    config = {**json.loads((root / "config.json").read_text()), **changes}
    (root / "config.json").write_text(json.dumps({k: v for k, v in config.items() if v is not None}))


@pytest.mark.parametrize("family", ["idefics3", "smolvlm"])
@pytest.mark.parametrize("also", [("<|image_pad|>",), QWEN_VISION_TOKENS], ids=["image_pad", "qwen_vision"])
@pytest.mark.parametrize("config_bug", [False, True], ids=["official", "eos_bug"])
def test_idefics_family_on_a_qwen_vocabulary_passes_before_and_after_the_fix(tmp_path, family, also, config_bug):
    """Idefics3 / SmolVLM have no vision start / end tokens and place ``<image>`` themselves: Qwen token names in
    the vocabulary change nothing, before ``--fix`` and after it (once the eos bug, when present, is fixed)."""
    ids = write_family_dir(tmp_path / family, family, also=also, config_bug=config_bug)
    vision = {
        "name": "vision_ids",
        "status": "pass",
        "source": "config.json",
        "detail": f"image_token_id={ids['<image>']}",
    }
    code, checks, _ = doctor_cli(str(tmp_path / family), "--json")
    assert next(c for c in checks if c["name"] == "vision_ids") == vision
    assert code == (1 if config_bug else 0), checks
    code, checks, _ = doctor_cli(str(tmp_path / family), "--fix", "--json")
    assert next(c for c in checks if c["name"] == "vision_ids") == vision
    assert code == 0 and all(c["status"] != "fail" for c in checks), checks


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_vision_check_passes_a_correct_directory_of_every_family(tmp_path, family):
    write_family_dir(tmp_path / family, family)
    check = check_vision_ids(read_facts(tmp_path / family))
    assert check.status == "pass", check.detail


@pytest.mark.parametrize(
    "family,change,detail",
    [
        # a Qwen-VL config whose image id names another Qwen token: M-RoPE and the image run are read from it
        (
            "qwen2_5_vl",
            {"image_token_id": "<|vision_pad|>"},
            "vision_start_token_id=151652; vision_end_token_id=151653; image_token_id=151654 but the tokenizer has "
            "<|image_pad|>=151655",
        ),
        (
            "qwen3_vl",
            {"vision_start_token_id": "<|im_start|>"},
            "vision_start_token_id=151644 but the tokenizer has <|vision_start|>=151652; vision_end_token_id=151653; "
            "image_token_id=151655",
        ),
        # an Idefics3 checkpoint merged on a Qwen tokenizer whose config took Qwen's image token
        (
            "idefics3",
            {"image_token_id": "<|image_pad|>"},
            "image_token_id={image_pad} but the tokenizer has <image>={image}",
        ),
        # SmolVLM without image_token_id: mlx-vlm 0.7.10 defaults it to 49153, a row/column token
        (
            "smolvlm",
            {"image_token_id": None},
            "image_token_id missing: mlx-vlm 0.7.10 defaults it to 49153 (<row_1_col_1>), the tokenizer has "
            '<image>=49190; set "image_token_id": 49190 in config.json',
        ),
    ],
    ids=["qwen2_5_vl_image", "qwen3_vl_start", "idefics3_qwen_image", "smolvlm_default"],
)
def test_a_broken_vision_id_still_fails(tmp_path, family, change, detail):
    root = tmp_path / family
    ids = write_family_dir(root, family, also=QWEN_VISION_TOKENS if family in ("idefics3", "smolvlm") else ())
    patch_config(root, **{key: ids[token] if token else None for key, token in change.items()})
    check = check_vision_ids(read_facts(root))
    assert (check.status, check.detail) == (
        "fail",
        detail.format(image_pad=ids.get("<|image_pad|>"), image=ids.get("<image>")),
    )
    code, checks, _ = doctor_cli(str(root), "--fix", "--json")
    assert code == 1 and next(c for c in checks if c["name"] == "vision_ids")["status"] == "fail"


def test_a_model_type_without_a_rule_is_read_by_its_processor(tmp_path):
    """A renamed model_type is checked by its processor's class (without mlx-vlm's defaults, which are the
    model_type's): SmolVLMProcessor reads only ``<image>``'s id, whatever Qwen tokens the vocabulary has."""
    ids = write_family_dir(tmp_path / "ok", "smolvlm", also=QWEN_VISION_TOKENS)
    patch_config(tmp_path / "ok", model_type="my_vlm")
    assert check_vision_ids(read_facts(tmp_path / "ok")).to_dict() == {
        "name": "vision_ids",
        "status": "pass",
        "source": "config.json",
        "detail": f"image_token_id={ids['<image>']}",
    }
    write_family_dir(tmp_path / "bad", "smolvlm", also=QWEN_VISION_TOKENS)
    patch_config(tmp_path / "bad", model_type="my_vlm", image_token_id=ids["<|image_pad|>"])
    assert check_vision_ids(read_facts(tmp_path / "bad")).status == "fail"
    write_family_dir(tmp_path / "none", "smolvlm")
    patch_config(tmp_path / "none", model_type="my_vlm", image_token_id=None)
    assert check_vision_ids(read_facts(tmp_path / "none")).to_dict() == {
        "name": "vision_ids",
        "status": "warn",
        "source": "config.json",
        "detail": "image_token_id missing (no known mlx-vlm default for my_vlm)",
    }
    write_family_dir(tmp_path / "unknown", "smolvlm", also=QWEN_VISION_TOKENS)
    patch_config(tmp_path / "unknown", model_type="my_vlm")
    (tmp_path / "unknown" / "processor_config.json").unlink()
    (tmp_path / "unknown" / "preprocessor_config.json").unlink()
    assert check_vision_ids(read_facts(tmp_path / "unknown")).to_dict() == {
        "name": "vision_ids",
        "status": "pass",
        "source": "config.json",
        "detail": "model_type my_vlm: no vision ids to check for this family (not applicable)",
    }


def test_doctor_imports_without_mlx():
    import subprocess
    import sys

    code = (
        "import sys; import extractor.tools.doctor, extractor.runners.guards, extractor.cli.commands; "
        "sys.exit(any(m == 'mlx' or m.startswith(('mlx.', 'mlx_vlm')) for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
