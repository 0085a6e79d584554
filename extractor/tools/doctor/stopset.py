"""The stop set a model directory should declare, and the one bare mlx-vlm 0.7.10 derives from its files.

The doctor's checks (:mod:`extractor.tools.doctor.files`), its ``--fix`` (:mod:`extractor.tools.doctor.fix`) and
its smoke test compare the two: ``required_end_ids`` is every end token (extract's resolved stop set, read by
``modelfiles`` and ``stopping.stop_set_of`` exactly as at run time), ``mlx_vlm_stop_ids`` what mlx-vlm stops on
without extract's help, and ``fix_eos_list`` the ``eos_token_id`` list that closes the gap.
"""

from __future__ import annotations

import json
from pathlib import Path

from extractor.runners.modelfiles import ModelFiles, as_id_list, read_model_files
from extractor.runners.stopping import END_TOKEN_TEXTS, stop_set_of, template_end_token

CHATML_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
# mlx-vlm 0.7.10's qwen3_5 / qwen3_5_moe configs append <|im_end|> only when the top-level eos is missing.
QWEN_EOS_RULE_TYPES = frozenset({"qwen3_5", "qwen3_5_moe", "qwen4_exp"})
QWEN_CHAT_EOS = 248046


# The checks read a directory through the one model-file reader the runtime stop set uses too.
ModelFacts = ModelFiles


def read_facts(model_dir: Path) -> ModelFacts:
    """Read the files the checks need (never raises for a bad file: it is recorded in ``errors``).

    Args:
        model_dir: the model directory.

    Returns:
        The ModelFacts (``modelfiles.ModelFiles``).
    """
    return read_model_files(model_dir)


def required_end_ids(facts: ModelFacts) -> list[int]:
    """The end tokens a complete ``eos_token_id`` list must hold: extract's resolved stop set, minus ids the
    tokenizer names as something other than an end token (a wrong config id must not be copied along).

    Args:
        facts: the model directory's facts.

    Returns:
        The ids, sorted.
    """
    names = facts.token_names
    return [i for i in stop_set_of(facts).ids if i not in names or names[i] in end_texts(facts)]


def end_texts(facts: ModelFacts) -> set[str]:
    """Token texts that may end generation for this directory: the known end tokens, the tokenizer's eos and the
    template's own end-of-turn token (GLM's ``<|user|>`` included)."""
    ends = set(END_TOKEN_TEXTS) | ({facts.eos_token} if facts.eos_token else set())
    turn = template_end_token(facts.template, facts.token_ids, eos_token=facts.eos_token)
    return ends | ({turn} if turn else set())


def mlx_vlm_stop_ids(facts: ModelFacts) -> tuple[list[int], str]:
    """Emulate how bare mlx-vlm 0.7.10 resolves its stop set for this directory (no mlx needed).

    ``load_config`` copies generation_config.json's ``eos_token_id`` over config.json's (when the key is present);
    qwen3_5 configs then append 248046 only when that value is missing (from ``text_config``); finally the
    processor's StoppingCriteria adds the tokenizer's eos token.

    Args:
        facts: the model directory's facts.

    Returns:
        The ids bare mlx-vlm stops on, and how they were derived (in words).
    """
    config = facts.config or {}
    steps = []
    value, origin = config.get("eos_token_id"), "config.json eos_token_id"
    if facts.generation and "eos_token_id" in facts.generation:
        value, origin = facts.generation["eos_token_id"], "generation_config.json eos_token_id (replaces config.json's)"
    ids = as_id_list(value)
    steps.append(f"{origin} = {json.dumps(value)}")
    if value is None and facts.model_type in QWEN_EOS_RULE_TYPES:
        text_ids = as_id_list(facts.text_config.get("eos_token_id"))
        if text_ids:
            ids = text_ids + ([QWEN_CHAT_EOS] if QWEN_CHAT_EOS not in text_ids else [])
            steps.append(f"{facts.model_type}: text_config eos + {QWEN_CHAT_EOS}")
    tok_eos = facts.token_ids.get(facts.eos_token) if facts.eos_token else None
    if tok_eos is not None:
        steps.append(f"+ tokenizer eos {facts.eos_token}")
        if tok_eos not in ids:
            ids.append(tok_eos)
    return sorted(set(ids)), "; ".join(steps)


def id_conflicts(facts: ModelFacts) -> list[str]:
    """Special tokens whose id differs between tokenizer_config.json and tokenizer.json.

    Args:
        facts: the model directory's facts.

    Returns:
        One sentence per conflicting token (empty when they agree).
    """
    out = []
    for text in dict.fromkeys(CHATML_TOKENS + tuple(END_TOKEN_TEXTS) + tuple(sorted(end_texts(facts)))):
        a, b = facts.tokenizer_config_ids.get(text), facts.tokenizer_json_ids.get(text)
        if a is not None and b is not None and a != b:
            out.append(f"{text} is {a} in tokenizer_config.json but {b} in tokenizer.json")
    return out


def fix_eos_list(facts: ModelFacts) -> list[int]:
    """The ``eos_token_id`` list ``--fix`` writes: the current generation_config ids (order kept) plus every
    missing end token (sorted).

    Args:
        facts: the model directory's facts.

    Returns:
        The ids.
    """
    current = as_id_list((facts.generation or {}).get("eos_token_id"))
    current = list(dict.fromkeys(current))
    return current + [i for i in required_end_ids(facts) if i not in current]


__all__ = [
    "CHATML_TOKENS",
    "ModelFacts",
    "end_texts",
    "fix_eos_list",
    "id_conflicts",
    "mlx_vlm_stop_ids",
    "read_facts",
    "required_end_ids",
]
