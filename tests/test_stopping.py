"""Stop-set resolution over the ways a model directory can declare (or fail to declare) its end tokens."""

import json

import pytest

from extractor.errors import ModelError
from extractor.runners.stopping import StopSet, resolve_stop_set, template_end_token

EOT, IM_START, IM_END = 248044, 248045, 248046
QWEN_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def write_dir(
    root, *, config=None, generation=None, tokenizer_eos=None, template=None, added=None, special_map_eos=None
):
    """Write just the files stop resolution reads (no weights needed)."""
    root.mkdir(parents=True, exist_ok=True)
    added = added if added is not None else {"<|endoftext|>": EOT, "<|im_start|>": IM_START, "<|im_end|>": IM_END}
    (root / "tokenizer.json").write_text(
        json.dumps({"added_tokens": [{"id": i, "content": t, "special": True} for t, i in added.items()]})
    )
    tok_cfg = {"added_tokens_decoder": {str(i): {"content": t, "special": True} for t, i in added.items()}}
    if tokenizer_eos is not None:
        tok_cfg["eos_token"] = tokenizer_eos
    (root / "tokenizer_config.json").write_text(json.dumps(tok_cfg))
    if config is not None:
        (root / "config.json").write_text(json.dumps(config))
    if generation is not None:
        (root / "generation_config.json").write_text(json.dumps(generation))
    if template is not None:
        (root / "chat_template.jinja").write_text(template)
    if special_map_eos is not None:
        (root / "special_tokens_map.json").write_text(json.dumps({"eos_token": special_map_eos}))
    return root


# Each case: files -> the full {id: sources} map expected. With Qwen's token table both ids are always in.
PAIR = {EOT: ["tokenizer:<|endoftext|>"], IM_END: ["tokenizer:<|im_end|>"]}
CASES = {
    "top-level eos only": (
        dict(config={"eos_token_id": EOT}),
        {EOT: ["config.json:eos_token_id", "tokenizer:<|endoftext|>"], IM_END: ["tokenizer:<|im_end|>"]},
    ),
    "text_config only": (
        dict(config={"text_config": {"eos_token_id": EOT}}),
        {EOT: ["config.json:text_config.eos_token_id", "tokenizer:<|endoftext|>"], IM_END: ["tokenizer:<|im_end|>"]},
    ),
    "generation_config list": (
        dict(config={}, generation={"eos_token_id": [IM_END, EOT]}),
        {
            EOT: ["generation_config.json:eos_token_id", "tokenizer:<|endoftext|>"],
            IM_END: ["generation_config.json:eos_token_id", "tokenizer:<|im_end|>"],
        },
    ),
    "generation_config overriding config": (
        dict(config={"eos_token_id": [IM_END]}, generation={"eos_token_id": EOT}),
        {
            EOT: ["generation_config.json:eos_token_id", "tokenizer:<|endoftext|>"],
            IM_END: ["config.json:eos_token_id", "tokenizer:<|im_end|>"],
        },
    ),
    "tokenizer eos only": (
        dict(tokenizer_eos="<|im_end|>"),
        {
            EOT: ["tokenizer:<|endoftext|>"],
            IM_END: ["tokenizer_config.json:eos_token=<|im_end|>", "tokenizer:<|im_end|>"],
        },
    ),
    "special_tokens_map eos only": (
        dict(special_map_eos={"content": "<|im_end|>", "special": True}),
        {
            EOT: ["tokenizer:<|endoftext|>"],
            IM_END: ["special_tokens_map.json:eos_token=<|im_end|>", "tokenizer:<|im_end|>"],
        },
    ),
    "tokenizer_config eos wins over special_tokens_map": (
        dict(tokenizer_eos="<|endoftext|>", special_map_eos="<|im_end|>"),
        {
            EOT: ["tokenizer_config.json:eos_token=<|endoftext|>", "tokenizer:<|endoftext|>"],
            IM_END: ["tokenizer:<|im_end|>"],
        },
    ),
    "nothing declared": (dict(), PAIR),
    "chat template end of turn": (
        dict(config={"eos_token_id": EOT}, template=QWEN_TEMPLATE),
        {
            EOT: ["config.json:eos_token_id", "tokenizer:<|endoftext|>"],
            IM_END: ["chat_template:end_of_turn=<|im_end|>", "tokenizer:<|im_end|>"],
        },
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_stop_set_resolution(tmp_path, name):
    files, expected = CASES[name]
    stop = resolve_stop_set(write_dir(tmp_path / "m", **files))
    assert {i: list(s) for i, s in stop.sources.items()} == expected
    assert stop.ids == (EOT, IM_END)


def test_non_qwen_tokenizer_only_declared_ids(tmp_path):
    """Without the Qwen pair, only what is declared stops (here: a Llama-style eot)."""
    added = {"<|begin_of_text|>": 1, "<|eot_id|>": 9}
    stop = resolve_stop_set(
        write_dir(tmp_path / "m", config={"eos_token_id": 9}, added=added, template="{{ m.content }}<|eot_id|>")
    )
    # the template renders no marker turn (it never loops over messages): the backup table finds its end token
    assert stop.to_dict() == {
        "ids": [9],
        "sources": {"9": ["config.json:eos_token_id", "chat_template:end_of_turn=<|eot_id|> (table)"]},
    }


def test_nothing_at_all_is_empty(tmp_path):
    stop = resolve_stop_set(write_dir(tmp_path / "m", added={}))
    assert stop.ids == ()


@pytest.mark.parametrize(
    "name,text,why",
    [
        (
            "config.json",
            "{not json",
            "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        ("config.json", "[248044]", "not a JSON object"),
        ("generation_config.json", "", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
        ("tokenizer_config.json", "null", "not a JSON object"),
    ],
)
def test_unreadable_file_fails_naming_it(tmp_path, name, text, why):
    root = write_dir(tmp_path / "m", config={"eos_token_id": EOT})
    (root / name).write_text(text)
    with pytest.raises(ModelError) as caught:
        resolve_stop_set(root)
    assert (caught.value.message, caught.value.source) == (f"cannot read {name}: {why}", str(root / name))


def test_without_drops_ids():
    stop = StopSet(ids=(EOT, IM_END), sources={EOT: ("a",), IM_END: ("b",)})
    assert stop.without([IM_END]).to_dict() == {"ids": [EOT], "sources": {str(EOT): ["a"]}}


@pytest.mark.parametrize(
    "template,expected",
    [
        (QWEN_TEMPLATE, "<|im_end|>"),
        ("<start_of_turn>model\n{{ c }}<end_of_turn>", "<end_of_turn>"),
        ("{{ bos }}{{ content }}</s>", "</s>"),
        ("{{ content }}", None),
        (None, None),
    ],
)
def test_template_end_token(template, expected):
    assert template_end_token(template) == expected


def _family_case(name: str):
    from extractor.testing import FAMILIES

    family = FAMILIES[name]
    return family.chat_template, [text for _, text in family.specials]


@pytest.mark.parametrize(
    "name, eos, expected",
    [
        ("qwen2_5_vl", "<|endoftext|>", "<|im_end|>"),
        ("qwen3_vl", "<|endoftext|>", "<|im_end|>"),
        ("gemma3", "<eos>", "<end_of_turn>"),
        ("gemma4", "<eos>", "<turn|>"),
        ("idefics3", "<|end_of_text|>", "<end_of_utterance>"),
        ("smolvlm", "<|im_end|>", "<end_of_utterance>"),
        ("mistral3", "</s>", "</s>"),  # closed with {{ eos_token }}: the variable must be the tokenizer's eos
        ("paddleocr_vl", "</s>", "<|end_of_sentence|>"),
        ("glm4v", "<|endoftext|>", "<|user|>"),  # no closing token: the next turn's opener is what GLM emits
    ],
)
def test_the_rendered_template_names_each_familys_end_of_turn_token(name, eos, expected):
    """Rendering, not a list of names, finds the end token (the templates are the families' public ones)."""
    from extractor.runners.chat_template import rendered_turn_end
    from extractor.runners.stopping import turn_end

    template, specials = _family_case(name)
    assert rendered_turn_end(template, specials, eos_token=eos) == expected
    assert turn_end(template, specials, eos_token=eos) == (expected, "rendered")


@pytest.mark.parametrize(
    "template, expected",
    [
        ("{% for m in messages %}{{ m['content'] | bad_filter }}{% endfor %}", "</s>"),  # cannot render: the table
        ("{{ undefined_macro() }}<end_of_utterance>", "<end_of_utterance>"),
        ("{% for m in messages %}{{ m['content'] }}{% endfor %}", None),  # renders, but no special token, no table hit
    ],
)
def test_templates_that_cannot_be_rendered_fall_back_to_the_table(template, expected):
    from extractor.runners.stopping import turn_end

    specials = ["</s>", "<end_of_utterance>", "<s>"]
    template = template if expected != "</s>" else template + "</s>"
    got = turn_end(template, specials)
    assert got == ((expected, "table") if expected else (None, ""))
