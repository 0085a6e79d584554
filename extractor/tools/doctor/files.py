"""``extract doctor MODEL``: check a model directory's files for its stop configuration and say where each value
came from. Nothing here loads the model (the live checks are :mod:`extractor.tools.doctor.smoke`) or writes a file
(``--fix`` is :mod:`extractor.tools.doctor.fix`).

The doctor runs six checks, each a small function returning a ``Check``:

1. ``generation_config``  generation_config.json exists and its ``eos_token_id`` lists every end token.
2. ``config_eos``         config.json's ``eos_token_id`` (top level, ``text_config``) and what mlx-vlm 0.7.10 makes
                          of it (generation_config.json's value *replaces* config.json's).
3. ``tokenizer_ids``      special-token ids agree between tokenizer_config.json, tokenizer.json and the configs.
4. ``chat_template``      the token that ends an assistant turn, and whether it is in the stop set.
5. ``vision_ids``         the vision token ids config.json names for the family's mlx-vlm model match the tokenizer
                          (mlx-vlm's qwen3_5 defaults collide); the family is config.json's ``model_type``, else
                          its processor's class, and the image token is the one its processor places.
6. ``thinking``           does the template support ``enable_thinking``, and does our runner turn it off.

The stop set they compare against (every end token, and what bare mlx-vlm derives) is
:mod:`extractor.tools.doctor.stopset`; where the runtime refuses an unreadable file, the check about that file fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.runners.chat_template import ENABLE_THINKING, render
from extractor.runners.modelfiles import (
    CHAT_TEMPLATE_JINJA,
    CHAT_TEMPLATE_JSON,
    GENERATION_CONFIG,
    SPECIAL_TOKENS_MAP,
    as_id_list,
)
from extractor.runners.stopping import stop_set_of, template_end_token
from extractor.tools.doctor.stopset import (
    CHATML_TOKENS,
    ModelFacts,
    end_texts,
    fix_eos_list,
    id_conflicts,
    mlx_vlm_stop_ids,
    read_facts,
    required_end_ids,
)
from extractor.tools.doctor.vision import vision_rules

STATUSES = ("pass", "warn", "fail")
FIX_HINT = "run `extract doctor MODEL --fix`"


@dataclass(frozen=True)
class Check:
    """One diagnostic result.

    Attributes:
        name: the check (``generation_config``, ``config_eos``, ...).
        status: ``pass``, ``warn`` or ``fail``.
        detail: what was found and, when not passing, what to do.
        source_file: the file the finding is about (relative to the model directory), or None.
    """

    name: str
    status: str
    detail: str
    source_file: str | None = None

    def to_dict(self) -> dict:
        """Return ``{"name", "status", "detail", "source"}`` (the shape ``render.show_checks`` prints)."""
        return {"name": self.name, "status": self.status, "detail": self.detail, "source": self.source_file}


def _named(ids: Sequence[int], facts: ModelFacts) -> str:
    names = facts.token_names
    return "[" + ", ".join(f"{i} {names[i]}" if i in names else str(i) for i in ids) + "]"


def _fix_hint(facts: ModelFacts) -> str:
    if id_conflicts(facts):
        return "fix: make tokenizer_config.json and tokenizer.json agree first (see tokenizer_ids), then " + FIX_HINT
    return f"fix: {FIX_HINT} (sets eos_token_id to {json.dumps(fix_eos_list(facts))})"


def _worst(statuses: Sequence[str]) -> str:
    return max(statuses, key=STATUSES.index, default="pass")


def check_generation_config(facts: ModelFacts) -> Check:
    """Check 1: generation_config.json exists and its ``eos_token_id`` is a list holding every end token.

    Missing or incomplete is a ``fail`` when bare mlx-vlm then misses an end token, a ``warn`` when something
    else (config.json, the tokenizer's eos) happens to cover it.

    Args:
        facts: the model directory's facts.

    Returns:
        The Check.
    """
    name, src = "generation_config", GENERATION_CONFIG
    required = required_end_ids(facts)
    effective, _ = mlx_vlm_stop_ids(facts)
    missing_bare = [i for i in required if i not in effective]
    fix = _fix_hint(facts)
    if GENERATION_CONFIG in facts.errors:
        return Check(name, "fail", f"unreadable ({facts.errors[GENERATION_CONFIG]}); mlx-vlm ignores it; {fix}", src)
    if not facts.generation_exists:
        lead = "missing; mlx-vlm falls back to config.json's eos_token_id"
        if missing_bare:
            return Check(name, "fail", f"{lead} and misses {_named(missing_bare, facts)}; {fix}", src)
        return Check(name, "warn", f"{lead}, which covers every end token; {fix} to make it explicit", src)
    value = (facts.generation or {}).get("eos_token_id")
    ids = as_id_list(value)
    missing = [i for i in required if i not in ids]
    if not missing and isinstance(value, list):
        return Check(name, "pass", f"eos_token_id {_named(ids, facts)} holds every end token", src)
    if not missing:
        return Check(name, "warn", f"eos_token_id {json.dumps(value)} is not a list; {fix}", src)
    what = (
        "has no eos_token_id" if value is None else f"eos_token_id {json.dumps(value)} misses {_named(missing, facts)}"
    )
    status = "fail" if missing_bare else "warn"
    return Check(name, status, f"{what}; {fix}", src)


def check_config_eos(facts: ModelFacts) -> Check:
    """Check 2: config.json's ``eos_token_id`` (top level and ``text_config``) and how mlx-vlm merges it.

    Args:
        facts: the model directory's facts.

    Returns:
        The Check (``fail`` when bare mlx-vlm's resulting stop set misses an end token).
    """
    name, src = "config_eos", "config.json"
    if facts.config is None:
        why = facts.errors.get("config.json", "missing")
        return Check(name, "fail", f"config.json {why}: mlx-vlm cannot load this directory", src)
    top = facts.config.get("eos_token_id")
    text = facts.text_config.get("eos_token_id")
    effective, how = mlx_vlm_stop_ids(facts)
    missing = [i for i in required_end_ids(facts) if i not in effective]
    detail = (
        f"eos_token_id={json.dumps(top)}, text_config.eos_token_id={json.dumps(text)}; "
        f"mlx-vlm 0.7.10: {how} -> stops on {_named(effective, facts)}"
    )
    if missing:
        return Check(name, "fail", f"{detail}; misses {_named(missing, facts)} (never stops); {FIX_HINT}", src)
    return Check(name, "pass", detail, src)


def check_tokenizer_ids(facts: ModelFacts) -> Check:
    """Check 3: the special tokens that end or open turns (ChatML's, the template's end-of-turn token, the eos) have
    the same ids in tokenizer_config.json's ``added_tokens_decoder`` and tokenizer.json, every eos id in the configs
    names an end token, and the tokenizer's ``eos_token`` exists.

    Args:
        facts: the model directory's facts.

    Returns:
        The Check.
    """
    name, src = "tokenizer_ids", "tokenizer_config.json"
    problems, notes, warns = [], [], []
    for file in ("tokenizer.json", "tokenizer_config.json", SPECIAL_TOKENS_MAP):
        if file in facts.errors:
            problems.append(f"{file} unreadable ({facts.errors[file]})")
    problems.extend(id_conflicts(facts))
    chatml = [t for t in CHATML_TOKENS if t in facts.token_ids]
    turn = template_end_token(facts.template, facts.token_ids, eos_token=facts.eos_token)
    family = list(dict.fromkeys(chatml + ([turn] if turn is not None and turn in facts.token_ids else [])))
    for text in family:
        a, b = facts.tokenizer_config_ids.get(text), facts.tokenizer_json_ids.get(text)
        if a is not None and b is not None and a != b:
            continue  # reported above
        elif a is None:
            warns.append(f"{text} is not in tokenizer_config.json's added_tokens_decoder")
        else:
            notes.append(f"{text}={a}")
    names = facts.token_names
    ends = end_texts(facts)
    declared = [
        ("config.json eos_token_id", (facts.config or {}).get("eos_token_id")),
        ("config.json text_config.eos_token_id", facts.text_config.get("eos_token_id")),
        ("generation_config.json eos_token_id", (facts.generation or {}).get("eos_token_id")),
    ]
    for where, value in declared:
        for i in as_id_list(value):
            if i not in names:
                (problems if family else warns).append(f"{where} {i} is not a token the tokenizer defines")
            elif names[i] not in ends:
                problems.append(f"{where} {i} is {names[i]} in the tokenizer, not an end token")
    if facts.eos_token is None:
        warns.append("the tokenizer declares no eos_token")
    elif facts.eos_token not in facts.token_ids:
        problems.append(f"eos_token {facts.eos_token} is not a token the tokenizer defines")
    else:
        notes.append(f"eos_token {facts.eos_token}={facts.token_ids[facts.eos_token]}")
    if not family:
        warns.append("no ChatML tokens and no end-of-turn token in the template: checked the eos ids only")
    status = "fail" if problems else "warn" if warns else "pass"
    detail = "; ".join(problems + warns) if status != "pass" else "ids agree: " + ", ".join(notes)
    return Check(name, status, detail, src)


def check_chat_template(facts: ModelFacts) -> Check:
    """Check 4: which token ends an assistant turn in the chat template, and whether it is in the stop set.

    Args:
        facts: the model directory's facts.

    Returns:
        The Check (``fail`` when a template file is unreadable: extract refuses the directory then; ``warn`` when
        only extract's resolved stop set holds the token, not bare mlx-vlm's).
    """
    name = "chat_template"
    for file in (CHAT_TEMPLATE_JINJA, CHAT_TEMPLATE_JSON):
        if file in facts.errors:
            return Check(name, "fail", f"{file} unreadable ({facts.errors[file]}): repair or delete it", file)
    if facts.template is None:
        return Check(
            name,
            "warn",
            "no chat template (chat_template.jinja, chat_template.json or "
            "tokenizer_config.json chat_template): prompts fall back to a generic format",
            None,
        )
    src = facts.template_file
    end = template_end_token(facts.template, facts.token_ids, eos_token=facts.eos_token)
    if end is None:
        return Check(name, "warn", "the template names no end-of-turn token", src)
    if end not in facts.token_ids:
        return Check(name, "fail", f"assistant turns end with {end}, which the tokenizer does not define", src)
    tid = facts.token_ids[end]
    ours = stop_set_of(facts).ids
    bare, _ = mlx_vlm_stop_ids(facts)
    lead = f"assistant turns end with {end} ({tid})"
    if tid not in ours:
        return Check(name, "fail", f"{lead}, which is not in the stop set {list(ours)}", src)
    if tid not in bare:
        return Check(
            name,
            "warn",
            f"{lead}: in extract's stop set, not in bare mlx-vlm's {_named(bare, facts)} ({FIX_HINT})",
            src,
        )
    return Check(name, "pass", f"{lead}: in the stop set (extract and bare mlx-vlm)", src)


def check_vision_ids(facts: ModelFacts) -> Check:
    """Check 5: the vision token ids config.json names for the family's mlx-vlm model match the tokenizer.

    The family is config.json's ``model_type`` (else its processor's class), never the vocabulary: a checkpoint
    built on a Qwen tokenizer carries ``<|image_pad|>`` whatever its family. Qwen-VL and Qwen3.5 read
    ``vision_start_token_id`` / ``vision_end_token_id`` / ``image_token_id``; Idefics3 and SmolVLM only the id of
    the ``<image>`` their processor places (no vision start or end tokens); Gemma, Mistral 3, PaddleOCR-VL and
    GLM-4V their own. When a key is missing mlx-vlm uses its own default (qwen3_5: 248045 / 248046, which are
    ``<|im_start|>`` / ``<|im_end|>``, so image positions are computed from the wrong tokens).

    Args:
        facts: the model directory's facts.

    Returns:
        The Check: ``fail`` when an id (given, or mlx-vlm's default) names another token than the family's.
    """
    name, src = "vision_ids", "config.json"
    config = facts.config or {}
    family, rules = vision_rules(facts)
    if family is None:
        return Check(
            name, "pass", f"model_type {facts.model_type}: no vision ids to check for this family (not applicable)", src
        )
    names = facts.token_names
    statuses, parts = [], []
    for rule in rules:
        token = rule.token
        want = facts.token_ids.get(token)
        key = rule.read_first if rule.read_first in config else rule.key
        if key in config:
            have = config[key]
            if want is None:
                statuses.append("warn")
                parts.append(f"{key}={have} but the tokenizer has no {token}")
            elif have != want:
                statuses.append("fail")
                parts.append(f"{key}={have} but the tokenizer has {token}={want}")
            else:
                statuses.append("pass")
                parts.append(f"{key}={have}")
            continue
        default = rule.default
        if default is None:
            statuses.append("warn")
            parts.append(f"{key} missing (no known mlx-vlm default for {facts.model_type})")
        elif want is None:
            statuses.append("warn")
            parts.append(f"{key} missing and the tokenizer has no {token}")
        elif default != want:
            statuses.append("fail")
            parts.append(
                f"{key} missing: mlx-vlm 0.7.10 defaults it to {default} "
                f"({names.get(default, 'unknown')}), the tokenizer has {token}={want}; "
                f'set "{key}": {want} in config.json'
            )
        else:
            statuses.append("warn")
            parts.append(f"{key} missing: mlx-vlm's default {default} happens to match")
    return Check(name, _worst(statuses), "; ".join(parts), src)


def render_generation_prompt(template: str, *, enable_thinking: bool | None = None) -> str:
    """Render a chat template's generation prompt for one user message, as transformers would (sandboxed Jinja,
    ``chat_template.render``).

    Args:
        template: the Jinja source.
        enable_thinking: the template variable (None: leave it undefined).

    Returns:
        The rendered prompt.

    Raises:
        Exception: whatever Jinja raises for a template it cannot render.
    """
    # Any: mypy would match a dict[str, bool] against render's str keywords (bos_token, eos_token)
    variables: dict[str, Any] = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
    return render(
        template, [{"role": "user", "content": "Read this invoice."}], add_generation_prompt=True, **variables
    )


def check_thinking(facts: ModelFacts) -> Check:
    """Check 6: does the template support ``enable_thinking``, and does the runner turn thinking off.

    The runner passes ``enable_thinking=False`` whenever the template mentions it; the check renders the
    generation prompt that way and looks for a ``<think>`` block left open.

    Args:
        facts: the model directory's facts.

    Returns:
        The Check.
    """
    name, src = "thinking", facts.template_file
    template = facts.template
    if template is None:
        return Check(name, "pass", "no chat template: no thinking switch to set", src)
    if "enable_thinking" not in template:
        if "<think>" in template:
            return Check(
                name,
                "warn",
                "the template has <think> but no enable_thinking switch: the model may think "
                "before answering (parsing drops <think> blocks; they cost tokens)",
                src,
            )
        return Check(name, "pass", "the template has no thinking mode", src)
    try:
        prompt = render_generation_prompt(template, enable_thinking=ENABLE_THINKING)
    except Exception as exc:  # noqa: BLE001 - any template failure is a finding, not a crash
        return Check(
            name, "warn", f"supports enable_thinking; could not render it to verify ({type(exc).__name__}: {exc})", src
        )
    tail = prompt[prompt.rfind("<think>") :] if "<think>" in prompt else ""
    if tail and "</think>" not in tail:
        return Check(
            name,
            "fail",
            "supports enable_thinking, but with enable_thinking=False the generation prompt "
            "still opens a <think> block",
            src,
        )
    return Check(
        name,
        "pass",
        "supports enable_thinking; the runner passes enable_thinking=False and the "
        "generation prompt then holds no open <think> block",
        src,
    )


CHECKS: tuple[Callable[[ModelFacts], Check], ...] = (
    check_generation_config,
    check_config_eos,
    check_tokenizer_ids,
    check_chat_template,
    check_vision_ids,
    check_thinking,
)


def run_checks(model_dir: Path) -> tuple[Check, ...]:
    """Run the six checks on a model directory.

    Args:
        model_dir: the directory.

    Returns:
        The checks, in order.
    """
    facts = read_facts(model_dir)
    return tuple(check(facts) for check in CHECKS)


__all__ = [
    "FIX_HINT",
    "Check",
    "check_chat_template",
    "check_config_eos",
    "check_generation_config",
    "check_thinking",
    "check_tokenizer_ids",
    "check_vision_ids",
    "render_generation_prompt",
    "run_checks",
]
