"""The one model-directory reader, and the runtime stop set and ``extract doctor`` agreeing because they share it.

Every directory here holds only the JSON / template files the readers look at (no weights needed).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.errors import ModelError
from extractor.runners.modelfiles import as_id_list, read_model_files, token_content
from extractor.runners.stopping import resolve_stop_set
from extractor.tools.doctor.files import run_checks
from extractor.tools.doctor.stopset import read_facts, required_end_ids

QWEN_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
GEMMA_TEMPLATE = "{% for m in messages %}<start_of_turn>model\n{{ m.content }}<end_of_turn>\n{% endfor %}"
NOT_JSON = "{not json"
NOT_JSON_WHY = "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
NOT_UTF8_WHY = "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
FIX = "run `extract doctor MODEL --fix`"


def tokenizer_json(ids: dict) -> dict:
    """tokenizer.json with the given added tokens (text -> id)."""
    return {"added_tokens": [{"id": i, "content": t, "special": True} for t, i in ids.items()]}


def tokenizer_config(ids: dict, **extra) -> dict:
    """tokenizer_config.json with the given ``added_tokens_decoder`` (text -> id) and extra keys."""
    return {"added_tokens_decoder": {str(i): {"content": t, "special": True} for t, i in ids.items()}, **extra}


QWEN_IDS = {"<|endoftext|>": 248044, "<|im_start|>": 248045, "<|im_end|>": 248046}
LLAMA_IDS = {"<|begin_of_text|>": 1, "<|end_of_text|>": 2, "<|eot_id|>": 9}
GEMMA_IDS = {"<s>": 1, "</s>": 2, "<end_of_turn>": 107}
QWEN = {
    "config.json": {"model_type": "qwen3_5", "eos_token_id": 248044},
    "tokenizer.json": tokenizer_json(QWEN_IDS),
    "tokenizer_config.json": tokenizer_config(QWEN_IDS, eos_token="<|endoftext|>"),
}


def write_files(root: Path, files: dict) -> Path:
    """Write ``{name: content}``: dicts and lists as JSON, str as text, bytes as they are."""
    root.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        if isinstance(content, bytes):
            (root / name).write_bytes(content)
        elif isinstance(content, str):
            (root / name).write_text(content, encoding="utf-8")
        else:
            (root / name).write_text(json.dumps(content), encoding="utf-8")
    return root


# ---------------------------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------------------------
EMPTY = {
    "config": None,
    "generation": None,
    "generation_exists": False,
    "tokenizer_json_ids": {},
    "tokenizer_config_ids": {},
    "eos_token": None,
    "eos_token_file": None,
    "template": None,
    "template_file": None,
    "errors": {},
}
QWEN_READ = {
    **EMPTY,
    "config": QWEN["config.json"],
    "tokenizer_json_ids": QWEN_IDS,
    "tokenizer_config_ids": QWEN_IDS,
    "eos_token": "<|endoftext|>",
    "eos_token_file": "tokenizer_config.json",
}
NAMED = [{"name": "tool_use", "template": "{{ tools }}</s>"}, {"name": "default", "template": GEMMA_TEMPLATE}]
# name -> (files, every ModelFiles field but model_dir)
READS = {
    "empty directory": ({}, EMPTY),
    "qwen with a generation config and a jinja template": (
        {
            **QWEN,
            "generation_config.json": {"eos_token_id": [248044, 248046], "do_sample": False},
            "chat_template.jinja": QWEN_TEMPLATE,
            "chat_template.json": {"chat_template": "ignored: the .jinja file comes first"},
        },
        {
            **QWEN_READ,
            "generation": {"eos_token_id": [248044, 248046], "do_sample": False},
            "generation_exists": True,
            "template": QWEN_TEMPLATE,
            "template_file": "chat_template.jinja",
        },
    ),
    "eos only in special_tokens_map.json (an AddedToken dict)": (
        {
            **QWEN,
            "tokenizer_config.json": tokenizer_config(QWEN_IDS),
            "special_tokens_map.json": {"eos_token": {"content": "<|im_end|>", "lstrip": False}},
        },
        {**QWEN_READ, "eos_token": "<|im_end|>", "eos_token_file": "special_tokens_map.json"},
    ),
    "tokenizer_config.json's eos wins; a broken special_tokens_map.json is then not read": (
        {**QWEN, "special_tokens_map.json": NOT_JSON},
        QWEN_READ,
    ),
    "named templates in chat_template.json: the default one": (
        {
            "chat_template.json": {"chat_template": NAMED},
            "tokenizer_config.json": {"chat_template": "ignored: chat_template.json comes first"},
        },
        {**EMPTY, "template": GEMMA_TEMPLATE, "template_file": "chat_template.json"},
    ),
    "named templates without a default fall through to tokenizer_config.json": (
        {
            "chat_template.json": {"chat_template": [NAMED[0], "not a dict"]},
            "tokenizer_config.json": {"chat_template": [{"name": "default", "template": QWEN_TEMPLATE}]},
        },
        {**EMPTY, "template": QWEN_TEMPLATE, "template_file": "tokenizer_config.json"},
    ),
    "unreadable generation_config.json": (
        {**QWEN, "generation_config.json": NOT_JSON},
        {**QWEN_READ, "generation_exists": True, "errors": {"generation_config.json": NOT_JSON_WHY}},
    ),
    "files that are JSON but not objects": (
        {"config.json": [1, 2], "tokenizer.json": "null", "generation_config.json": "248046"},
        {
            **EMPTY,
            "generation_exists": True,
            "errors": {
                "config.json": "not a JSON object",
                "generation_config.json": "not a JSON object",
                "tokenizer.json": "not a JSON object",
            },
        },
    ),
    "a chat_template.jinja that is not UTF-8 is not replaced by another template": (
        {"chat_template.jinja": b"\xff\xfe", "tokenizer_config.json": {"chat_template": QWEN_TEMPLATE}},
        {**EMPTY, "errors": {"chat_template.jinja": NOT_UTF8_WHY}},
    ),
    "malformed added tokens are skipped": (
        {
            "tokenizer.json": {
                "added_tokens": [{"id": "7", "content": "<a>"}, {"id": 8}, "x", {"id": 9, "content": "<b>"}]
            },
            "tokenizer_config.json": {"added_tokens_decoder": {"x1": {"content": "<c>"}, "11": "<d>", "12": {"id": 3}}},
        },
        {**EMPTY, "tokenizer_json_ids": {"<b>": 9}, "tokenizer_config_ids": {"<d>": 11}},
    ),
}


@pytest.mark.parametrize("whole_tokenizer", [True, False])
@pytest.mark.parametrize("name", list(READS))
def test_read_model_files(tmp_path, name, whole_tokenizer):
    files, expected = READS[name]
    read = read_model_files(write_files(tmp_path / "m", files), whole_tokenizer=whole_tokenizer)
    assert {f: getattr(read, f) for f in expected} == expected
    assert read.model_dir == tmp_path / "m"


ADDED = [{"id": 7, "content": "<a>"}]
MEMBER_TEXTS = {  # tokenizer.json texts a reader meets; each decodes with json.loads to the same added_tokens
    "first member": json.dumps({"added_tokens": ADDED, "model": {"vocab": {"a": 0}}}),
    "after others, spaced": ' \n{ "version" : "1.0", "padding":null,\t"added_tokens" : ' + json.dumps(ADDED) + " }\n",
    "keys and strings that look like it": json.dumps(
        {"x": {"added_tokens": []}, "y": '"added_tokens": [] }', "added_tokens": ADDED}
    ),
    "absent": json.dumps({"version": "1.0", "model": {}}),
    "empty object": "{}",
    "an escaped name": '{"add\\u0065d": 1, "added_\\u0074okens": ' + json.dumps(ADDED) + "}",  # added_tokens
}


@pytest.mark.parametrize("name", list(MEMBER_TEXTS))
def test_a_member_read_alone_is_what_json_decodes(name):
    from extractor.runners.modelfiles import _member

    text = MEMBER_TEXTS[name]
    assert _member(text, "added_tokens") == json.loads(text).get("added_tokens")


@pytest.mark.parametrize(
    "text,why",
    [
        (NOT_JSON, NOT_JSON_WHY),
        ('{"added_tokens": [1,', "JSONDecodeError: Expecting value: line 1 column 21 (char 20)"),
        (
            '{"version" "1.0", "added_tokens": []}',
            "JSONDecodeError: Expecting ':' delimiter: line 1 column 12 (char 11)",
        ),
        ("[1, 2]", "not a JSON object"),
        ("\ufeff{}", "JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"),
    ],
)
def test_a_member_read_alone_reports_the_file_as_json_does(tmp_path, text, why):
    root = write_files(tmp_path / "m", {"tokenizer.json": text})
    assert read_model_files(root, whole_tokenizer=False).errors == {"tokenizer.json": why}
    assert read_model_files(root).errors == {"tokenizer.json": why}


def test_the_stop_set_reads_tokenizer_json_only_as_far_as_its_added_tokens(tmp_path):
    """Damage after ``added_tokens`` (a cut-off vocabulary) is the doctor's to report and the loader's to refuse."""
    text = json.dumps(QWEN["tokenizer.json"])[:-1] + ', "model": {"vocab": {"a": 0, "b'
    root = write_files(tmp_path / "m", {**QWEN, "tokenizer.json": text})
    assert read_model_files(root, whole_tokenizer=False).tokenizer_json_ids == QWEN_IDS
    assert resolve_stop_set(root).ids == (248044, 248046)
    assert set(read_model_files(root).errors) == {"tokenizer.json"}


def test_token_ids_take_tokenizer_config_over_tokenizer_json(tmp_path):
    read = read_model_files(
        write_files(
            tmp_path / "m",
            {
                "tokenizer.json": tokenizer_json({"<|endoftext|>": 248044, "<|im_end|>": 248046}),
                "tokenizer_config.json": tokenizer_config({"<|im_end|>": 248047}),
            },
        )
    )
    assert (read.token_ids, read.token_names) == (
        {"<|endoftext|>": 248044, "<|im_end|>": 248047},
        {248044: "<|endoftext|>", 248047: "<|im_end|>"},
    )


@pytest.mark.parametrize(
    "config,text_config,model_type",
    [
        ({"model_type": "qwen3_5", "text_config": {"eos_token_id": 248044}}, {"eos_token_id": 248044}, "qwen3_5"),
        ({"text_config": "not an object"}, {}, None),
        (None, {}, None),
    ],
)
def test_config_views(tmp_path, config, text_config, model_type):
    read = read_model_files(write_files(tmp_path / "m", {} if config is None else {"config.json": config}))
    assert (read.text_config, read.model_type) == (text_config, model_type)


@pytest.mark.parametrize(
    "files,name,why",
    [
        ({"config.json": NOT_JSON}, "config.json", NOT_JSON_WHY),
        ({"config.json": "[]"}, "config.json", "not a JSON object"),
        (
            {**QWEN, "generation_config.json": NOT_JSON, "tokenizer.json": NOT_JSON},
            "generation_config.json",
            NOT_JSON_WHY,
        ),
        ({"chat_template.jinja": b"\xff\xfe"}, "chat_template.jinja", NOT_UTF8_WHY),
    ],
)
def test_strict_reading_raises_naming_the_first_bad_file(tmp_path, files, name, why):
    root = write_files(tmp_path / "m", files)
    with pytest.raises(ModelError) as caught:
        read_model_files(root, strict=True)
    assert (caught.value.message, caught.value.source) == (f"cannot read {name}: {why}", str(root / name))


@pytest.mark.parametrize(
    "value,expected",
    [(None, []), (248046, [248046]), ([248044, "248046", "x", 1.5], [248044, 248046]), ("7", [7]), ("x", [])],
)
def test_as_id_list(value, expected):
    assert as_id_list(value) == expected


@pytest.mark.parametrize(
    "value,expected",
    [
        ("<|im_end|>", "<|im_end|>"),
        ({"content": "</s>", "lstrip": False}, "</s>"),
        ({"content": 5}, None),
        (None, None),
    ],
)
def test_token_content(value, expected):
    assert token_content(value) == expected


# ---------------------------------------------------------------------------------------------------------------
# The runtime stop set and the doctor, fed the same directories
# ---------------------------------------------------------------------------------------------------------------
ERROR = "error"  # marks a runtime that must refuse the directory
# name -> (files,
#          the runtime: resolve_stop_set(...).to_dict(), or (ERROR, the ModelError message, the file it names),
#          the doctor: the ids a complete eos_token_id must hold (what --fix writes with no generation_config),
#          the doctor: some of its checks, as whole dicts)
AGREE = {
    "only special_tokens_map.json names the eos (qwen)": (
        {
            **QWEN,
            "tokenizer_config.json": tokenizer_config(QWEN_IDS),
            "special_tokens_map.json": {"eos_token": "<|im_end|>"},
        },
        {
            "ids": [248044, 248046],
            "sources": {
                "248044": ["config.json:eos_token_id", "tokenizer:<|endoftext|>"],
                "248046": ["special_tokens_map.json:eos_token=<|im_end|>", "tokenizer:<|im_end|>"],
            },
        },
        [248044, 248046],
        {
            "tokenizer_ids": {
                "name": "tokenizer_ids",
                "status": "pass",
                "source": "tokenizer_config.json",
                "detail": "ids agree: <|endoftext|>=248044, <|im_start|>=248045, <|im_end|>=248046, "
                "eos_token <|im_end|>=248046",
            }
        },
    ),
    "only special_tokens_map.json names the eos (llama: it adds an id)": (
        {
            "config.json": {"eos_token_id": 2},
            "tokenizer.json": tokenizer_json(LLAMA_IDS),
            "tokenizer_config.json": tokenizer_config(LLAMA_IDS),
            "special_tokens_map.json": {"eos_token": {"content": "<|eot_id|>"}},
        },
        {
            "ids": [2, 9],
            "sources": {"2": ["config.json:eos_token_id"], "9": ["special_tokens_map.json:eos_token=<|eot_id|>"]},
        },
        [2, 9],
        {
            "config_eos": {
                "name": "config_eos",
                "status": "pass",
                "source": "config.json",
                "detail": "eos_token_id=2, text_config.eos_token_id=null; mlx-vlm 0.7.10: config.json "
                "eos_token_id = 2; + tokenizer eos <|eot_id|> -> stops on [2 <|end_of_text|>, "
                "9 <|eot_id|>]",
            }
        },
    ),
    "unreadable generation_config.json": (
        {**QWEN, "generation_config.json": NOT_JSON, "chat_template.jinja": QWEN_TEMPLATE},
        (ERROR, f"cannot read generation_config.json: {NOT_JSON_WHY}", "generation_config.json"),
        [248044, 248046],  # what the readable files say (an unreadable file once emptied the doctor's stop set)
        {
            "generation_config": {
                "name": "generation_config",
                "status": "fail",
                "source": "generation_config.json",
                "detail": f"unreadable ({NOT_JSON_WHY}); mlx-vlm ignores it; fix: {FIX} (sets "
                f"eos_token_id to [248044, 248046])",
            },
            "chat_template": {
                "name": "chat_template",
                "status": "warn",
                "source": "chat_template.jinja",
                "detail": f"assistant turns end with <|im_end|> (248046): in extract's stop set, not in "
                f"bare mlx-vlm's [248044 <|endoftext|>] ({FIX})",
            },
        },
    ),
    "named chat-template list in chat_template.json": (
        {
            "config.json": {"eos_token_id": 2},
            "tokenizer.json": tokenizer_json(GEMMA_IDS),
            "tokenizer_config.json": tokenizer_config(GEMMA_IDS, eos_token="</s>"),
            "chat_template.json": {"chat_template": NAMED},
        },
        {
            "ids": [2, 107],
            "sources": {
                "2": ["config.json:eos_token_id", "tokenizer_config.json:eos_token=</s>"],
                "107": ["chat_template:end_of_turn=<end_of_turn>"],
            },
        },
        [2, 107],
        {
            "chat_template": {
                "name": "chat_template",
                "status": "warn",
                "source": "chat_template.json",
                "detail": f"assistant turns end with <end_of_turn> (107): in extract's stop set, not in "
                f"bare mlx-vlm's [2 </s>] ({FIX})",
            }
        },
    ),
    "tokenizer_config.json and tokenizer.json disagree on an id": (
        {
            **QWEN,
            "tokenizer_config.json": tokenizer_config({**QWEN_IDS, "<|im_end|>": 248047}, eos_token="<|endoftext|>"),
            "chat_template.jinja": QWEN_TEMPLATE,
        },
        # <|im_end|> is not 248046 here: Qwen3.5's pair rule stays out; the template's end token still stops
        {
            "ids": [248044, 248047],
            "sources": {
                "248044": ["config.json:eos_token_id", "tokenizer_config.json:eos_token=<|endoftext|>"],
                "248047": ["chat_template:end_of_turn=<|im_end|>"],
            },
        },
        [248044, 248047],
        {
            "tokenizer_ids": {
                "name": "tokenizer_ids",
                "status": "fail",
                "source": "tokenizer_config.json",
                "detail": "<|im_end|> is 248047 in tokenizer_config.json but 248046 in tokenizer.json",
            },
            "chat_template": {
                "name": "chat_template",
                "status": "warn",
                "source": "chat_template.jinja",
                "detail": f"assistant turns end with <|im_end|> (248047): in extract's stop set, not in "
                f"bare mlx-vlm's [248044 <|endoftext|>] ({FIX})",
            },
        },
    ),
    "unreadable special_tokens_map.json when it is needed": (
        {**QWEN, "tokenizer_config.json": tokenizer_config(QWEN_IDS), "special_tokens_map.json": NOT_JSON},
        (ERROR, f"cannot read special_tokens_map.json: {NOT_JSON_WHY}", "special_tokens_map.json"),
        [248044, 248046],
        {
            "tokenizer_ids": {
                "name": "tokenizer_ids",
                "status": "fail",
                "source": "tokenizer_config.json",
                "detail": f"special_tokens_map.json unreadable ({NOT_JSON_WHY}); the tokenizer declares no eos_token",
            }
        },
    ),
    "unreadable chat_template.json next to a usable tokenizer_config template": (
        {
            **QWEN,
            "tokenizer_config.json": tokenizer_config(QWEN_IDS, eos_token="<|endoftext|>", chat_template=QWEN_TEMPLATE),
            "chat_template.json": NOT_JSON,
        },
        (ERROR, f"cannot read chat_template.json: {NOT_JSON_WHY}", "chat_template.json"),
        [248044, 248046],
        {
            "chat_template": {
                "name": "chat_template",
                "status": "fail",
                "source": "chat_template.json",
                "detail": f"chat_template.json unreadable ({NOT_JSON_WHY}): repair or delete it",
            }
        },
    ),
    "config.json that is not an object": (
        {**QWEN, "config.json": [248044]},
        (ERROR, "cannot read config.json: not a JSON object", "config.json"),
        [248044, 248046],
        {
            "config_eos": {
                "name": "config_eos",
                "status": "fail",
                "source": "config.json",
                "detail": "config.json not a JSON object: mlx-vlm cannot load this directory",
            }
        },
    ),
}


@pytest.mark.parametrize("name", list(AGREE))
def test_runtime_stop_set_and_doctor_agree(tmp_path, name):
    files, runtime, end_ids, checks = AGREE[name]
    root = write_files(tmp_path / "m", files)
    found = {c.name: c.to_dict() for c in run_checks(root)}
    assert {n: found[n] for n in checks} == checks
    assert required_end_ids(read_facts(root)) == end_ids
    if isinstance(runtime, tuple):
        _, message, file = runtime
        with pytest.raises(ModelError) as caught:
            resolve_stop_set(root)
        assert (caught.value.message, caught.value.source) == (message, str(root / file))
        # the file the runtime refuses is the one a failing doctor check names
        assert any(c["status"] == "fail" and file in f"{c['source']} {c['detail']}" for c in found.values())
    else:
        assert resolve_stop_set(root).to_dict() == runtime
        assert runtime["ids"] == end_ids
