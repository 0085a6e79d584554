"""``extract doctor MODEL``: check a model directory's stop configuration, say where each value came from, fix it.

The stop-set fix lives in files users convert and re-convert themselves, so a re-converted model silently brings the
never-stopping bug back. The doctor runs six checks, each a small function returning a ``Check``:

1. ``generation_config``  generation_config.json exists and its ``eos_token_id`` lists every end token.
2. ``config_eos``         config.json's ``eos_token_id`` (top level, ``text_config``) and what mlx-vlm 0.7.10 makes
                          of it (generation_config.json's value *replaces* config.json's).
3. ``tokenizer_ids``      special-token ids agree between tokenizer_config.json, tokenizer.json and the configs.
4. ``chat_template``      the token that ends an assistant turn, and whether it is in the stop set.
5. ``vision_ids``         config.json's vision token ids match the tokenizer (mlx-vlm's qwen3_5 defaults collide).
6. ``thinking``           does the template support ``enable_thinking``, and does our runner turn it off.

``fix_generation_config`` rewrites generation_config.json so ``eos_token_id`` is the full list (keeping every other
key, backing the original up once, writing atomically, changing nothing when already right); ``smoke_check`` runs one
short real generation on a blank page. Only ``smoke_check`` imports mlx (through ``runners.mlx``, lazily).

``extract doctor --endpoint URL`` checks a running inference server instead (``endpoint_checks``): what it serves and
what kind it is, then one smoke request on a blank page *without* our stop ids, as any other client would send it:
does the server stop on its own after the answer? When it does not (it streams ``<|im_end|>`` as text, or keeps
generating hidden tokens after the JSON closed: the seed's bug on the server), the check fails with the fix for that
kind of server, and for kinds that take per-request ``stop_token_ids`` a second request says whether ours stop it.
The files are read by ``modelfiles`` and the stop set is ``stopping.stop_set_of``, exactly as at run time; where the
runtime refuses an unreadable file, the check about that file fails.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from extractor.runners.chat_template import render
from extractor.errors import ExtractorError, ModelError
from extractor.runners.modelfiles import (
    CHAT_TEMPLATE_JINJA, CHAT_TEMPLATE_JSON, GENERATION_CONFIG, SPECIAL_TOKENS_MAP, ModelFiles, as_id_list,
    read_model_files, resolve_model_dir,
)
from extractor.runners.chat_template import ENABLE_THINKING
from extractor.runners.stopping import END_TOKEN_TEXTS, stop_set_of, template_end_token

STATUSES = ("pass", "warn", "fail")
BACKUP_SUFFIX = ".bak"
CHATML_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
# mlx-vlm 0.7.10's qwen3_5 / qwen3_5_moe configs append <|im_end|> only when the top-level eos is missing.
QWEN_EOS_RULE_TYPES = frozenset({"qwen3_5", "qwen3_5_moe", "qwen4_exp"})
QWEN_CHAT_EOS = 248046
# config.json key -> tokenizer token it must name
VISION_KEYS = {"vision_start_token_id": "<|vision_start|>", "vision_end_token_id": "<|vision_end|>",
               "image_token_id": "<|image_pad|>"}
# mlx-vlm 0.7.10's ModelConfig defaults for those keys, per model_type (used when config.json omits them)
VISION_DEFAULTS = {
    **{t: {"vision_start_token_id": 248045, "vision_end_token_id": 248046, "image_token_id": 248056}
       for t in ("qwen3_5", "qwen3_5_moe")},
    "qwen4_exp": {"vision_start_token_id": 248053, "vision_end_token_id": 248054, "image_token_id": 248056},
    **{t: {"vision_start_token_id": 151652, "vision_end_token_id": 151653, "image_token_id": 151655}
       for t in ("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_omni_moe")},
}
DEFAULT_SMOKE_TOKENS = 512
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
    source_file: Optional[str] = None

    def to_dict(self) -> dict:
        """Return ``{"name", "status", "detail", "source"}`` (the shape ``render.show_checks`` prints)."""
        return {"name": self.name, "status": self.status, "detail": self.detail, "source": self.source_file}


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


def _named(ids: Sequence[int], facts: ModelFacts) -> str:
    names = facts.token_names
    return "[" + ", ".join(f"{i} {names[i]}" if i in names else str(i) for i in ids) + "]"


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
        return Check(name, "fail", f"unreadable ({facts.errors[GENERATION_CONFIG]}); mlx-vlm ignores it; {fix}",
                     src)
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
    what = ("has no eos_token_id" if value is None
            else f"eos_token_id {json.dumps(value)} misses {_named(missing, facts)}")
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
    detail = (f"eos_token_id={json.dumps(top)}, text_config.eos_token_id={json.dumps(text)}; "
              f"mlx-vlm 0.7.10: {how} -> stops on {_named(effective, facts)}")
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
    family = [t for t in dict.fromkeys(chatml + ([turn] if turn in facts.token_ids else []))]
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
    declared = [("config.json eos_token_id", (facts.config or {}).get("eos_token_id")),
                ("config.json text_config.eos_token_id", facts.text_config.get("eos_token_id")),
                ("generation_config.json eos_token_id", (facts.generation or {}).get("eos_token_id"))]
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
        return Check(name, "warn", "no chat template (chat_template.jinja, chat_template.json or "
                                   "tokenizer_config.json chat_template): prompts fall back to a generic format", None)
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
        return Check(name, "warn", f"{lead}: in extract's stop set, not in bare mlx-vlm's {_named(bare, facts)} "
                                   f"({FIX_HINT})", src)
    return Check(name, "pass", f"{lead}: in the stop set (extract and bare mlx-vlm)", src)


def check_vision_ids(facts: ModelFacts) -> Check:
    """Check 5: config.json's ``vision_start_token_id`` / ``vision_end_token_id`` / ``image_token_id`` match the
    tokenizer. When a key is missing mlx-vlm uses its own default (qwen3_5: 248045 / 248046, which are
    ``<|im_start|>`` / ``<|im_end|>``, so image positions are computed from the wrong tokens).

    Args:
        facts: the model directory's facts.

    Returns:
        The Check.
    """
    name, src = "vision_ids", "config.json"
    config = facts.config or {}
    if not any(t in facts.token_ids for t in VISION_KEYS.values()):
        return Check(name, "pass", "no Qwen-style vision tokens in the tokenizer (not applicable: the family's "
                                   "processor places its own image tokens)", src)
    defaults = VISION_DEFAULTS.get(facts.model_type or "", {})
    names = facts.token_names
    statuses, parts = [], []
    for key, token in VISION_KEYS.items():
        want = facts.token_ids.get(token)
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
        default = defaults.get(key)
        if default is None:
            statuses.append("warn")
            parts.append(f"{key} missing (no known mlx-vlm default for {facts.model_type})")
        elif want is not None and default != want:
            statuses.append("fail")
            parts.append(f"{key} missing: mlx-vlm 0.7.10 defaults it to {default} "
                         f"({names.get(default, 'unknown')}), the tokenizer has {token}={want}; "
                         f"set \"{key}\": {want} in config.json")
        else:
            statuses.append("warn")
            parts.append(f"{key} missing: mlx-vlm's default {default} happens to match")
    return Check(name, _worst(statuses), "; ".join(parts), src)


def render_generation_prompt(template: str, *, enable_thinking: Optional[bool] = None) -> str:
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
    variables = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
    return render(template, [{"role": "user", "content": "Read this invoice."}], add_generation_prompt=True,
                  **variables)


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
            return Check(name, "warn", "the template has <think> but no enable_thinking switch: the model may think "
                                       "before answering (parsing drops <think> blocks; they cost tokens)", src)
        return Check(name, "pass", "the template has no thinking mode", src)
    try:
        prompt = render_generation_prompt(template, enable_thinking=ENABLE_THINKING)
    except Exception as exc:  # noqa: BLE001 - any template failure is a finding, not a crash
        return Check(name, "warn", f"supports enable_thinking; could not render it to verify "
                                   f"({type(exc).__name__}: {exc})", src)
    tail = prompt[prompt.rfind("<think>"):] if "<think>" in prompt else ""
    if tail and "</think>" not in tail:
        return Check(name, "fail", "supports enable_thinking, but with enable_thinking=False the generation prompt "
                                   "still opens a <think> block", src)
    return Check(name, "pass", "supports enable_thinking; the runner passes enable_thinking=False and the "
                               "generation prompt then holds no open <think> block", src)


CHECKS: tuple[Callable[[ModelFacts], Check], ...] = (
    check_generation_config, check_config_eos, check_tokenizer_ids, check_chat_template, check_vision_ids,
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


@dataclass(frozen=True)
class FixResult:
    """What ``--fix`` did.

    Attributes:
        path: generation_config.json.
        changed: whether the file was (re)written.
        created: whether it did not exist before.
        backup: the backup written now, or None (nothing to back up, or a backup already existed).
        before: the ``eos_token_id`` before (None when missing).
        after: the ``eos_token_id`` after.
    """

    path: Path
    changed: bool
    created: bool
    backup: Optional[Path]
    before: object
    after: list

    def to_check(self) -> Check:
        """Describe the fix as a ``Check`` named ``fix`` (for the same table / JSON list)."""
        if not self.changed:
            return Check("fix", "pass", f"nothing to change: eos_token_id is {json.dumps(self.after)}",
                         GENERATION_CONFIG)
        if self.created:
            return Check("fix", "pass", f"created {GENERATION_CONFIG} with eos_token_id {json.dumps(self.after)}",
                         GENERATION_CONFIG)
        backup = f"; original backed up to {self.backup.name}" if self.backup else ""
        return Check("fix", "pass", f"rewrote {GENERATION_CONFIG}: eos_token_id {json.dumps(self.before)} -> "
                                    f"{json.dumps(self.after)}{backup}", GENERATION_CONFIG)


def fix_generation_config(model_dir: Path) -> FixResult:
    """Make generation_config.json's ``eos_token_id`` the full list of end tokens.

    Every other key is kept; the original is copied to ``generation_config.json.bak`` the first time (an existing
    backup is never overwritten); the write is atomic; a file that is already right is not touched.

    Args:
        model_dir: the model directory.

    Returns:
        The FixResult.

    Raises:
        ModelError: generation_config.json is unreadable, or the directory cannot be written.
    """
    from extractor.jobs.sinks import write_atomic

    facts = read_facts(model_dir)
    path = model_dir / GENERATION_CONFIG
    if GENERATION_CONFIG in facts.errors:
        raise ModelError(f"cannot fix {GENERATION_CONFIG}: {facts.errors[GENERATION_CONFIG]} "
                         f"(repair or delete it, then run --fix again)", source=path)
    conflicts = id_conflicts(facts)
    if conflicts:
        # which id the model really ends on is unknowable from files that contradict each other
        raise ModelError(f"cannot fix {GENERATION_CONFIG}: the tokenizer files disagree ({'; '.join(conflicts)}); "
                         f"make them agree first", source=model_dir)
    target = fix_eos_list(facts)
    if not target:
        raise ModelError("cannot fix: no end token is declared anywhere (config.json, tokenizer, chat template)",
                         source=model_dir)
    before = (facts.generation or {}).get("eos_token_id") if facts.generation_exists else None
    if facts.generation_exists and before == target:
        return FixResult(path=path, changed=False, created=False, backup=None, before=before, after=target)
    data = dict(facts.generation or {})
    data["eos_token_id"] = target  # keeps the key's position when it existed
    backup = None
    try:
        # write_atomic's temp file is private (0600); model files are meant to be readable like their siblings
        mode = _file_mode(path if facts.generation_exists else model_dir / "config.json")
        if facts.generation_exists:
            bak = model_dir / (GENERATION_CONFIG + BACKUP_SUFFIX)
            if not bak.exists():
                write_atomic(bak, path.read_bytes())
                bak.chmod(mode)
                backup = bak
        write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        path.chmod(mode)
    except OSError as exc:
        raise ModelError(f"cannot write {GENERATION_CONFIG}: {exc}", source=path) from exc
    return FixResult(path=path, changed=True, created=not facts.generation_exists, backup=backup, before=before,
                     after=target)


def _file_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o644


class _Watch:
    """A monitor that never stops generation; it notes when the runaway guards would have."""

    def __init__(self) -> None:
        from extractor.runners.guards import GuardMonitor, GuardSettings

        self.inner = GuardMonitor(GuardSettings())
        self.tokens = 0
        self.would_fire: Optional[tuple[str, int]] = None

    def feed(self, token_id: int, text: str):
        """Count tokens and remember the first guard that would have fired."""
        self.tokens += 1
        if self.would_fire is None:
            hit = self.inner.feed(token_id, text)
            if hit is not None:
                self.would_fire = (hit.guard, self.tokens)
        return None


def smoke_check(model_dir: Path, *, max_tokens: int = DEFAULT_SMOKE_TOKENS,
                logits_processors: Sequence = ()) -> Check:
    """One short real generation with our runner (stop set only, no guards) on a blank page, through the family's
    own chat template: does it stop?

    Args:
        model_dir: the model directory.
        max_tokens: generation cap.
        logits_processors: passed to the generation (tests force an answer on random weights with one).

    Returns:
        A Check named ``smoke``: ``pass`` when it ended on a stop token, ``fail`` when it ran to ``max_tokens``.

    Raises:
        ModelError: the model cannot be loaded or fails.
    """
    from PIL import Image

    from extractor.runners.mlx.runner import MlxRunner
    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.schema import load_schema

    runner = MlxRunner(model=str(model_dir))
    watch = _Watch()
    page = Image.new("RGB", (448, 640), "white")  # a blank portrait page
    request = GenerationRequest(messages=build_messages(load_schema("invoice"), pages=1), images=(page,),
                                max_tokens=max_tokens, stop=runner.stop_set, temperature=0.0,
                                monitor_factory=lambda: [watch], logits_processors=tuple(logits_processors))
    result = runner.generate(request)
    facts = read_facts(model_dir)
    names = facts.token_names
    if result.finish_reason == "stop":
        bare, _ = mlx_vlm_stop_ids(facts)
        tid = result.stop_token_id
        also = "bare mlx-vlm stops on it too" if tid in bare else f"bare mlx-vlm would not stop on it ({FIX_HINT})"
        token = f"{tid} {names[tid]}" if tid in names else str(tid)
        return Check("smoke", "pass", f"stopped on {token} after {result.generated_tokens} tokens (stop token "
                                      f"included); {also}; {_decoding_words(runner)}", None)
    guard = (f"; the runaway guards would have stopped it ({watch.would_fire[0]}) after {watch.would_fire[1]} tokens"
             if watch.would_fire else "; the runaway guards would not have stopped it either")
    return Check("smoke", "fail", f"no stop token within {result.generated_tokens} tokens (finish: "
                                  f"{result.finish_reason}){guard}", None)


def _decoding_words(runner) -> str:
    """The load-time decoding plan in words, for the smoke check."""
    plan = runner.decoding
    jump = "jump-forward" + (", forced runs one token per pass" if plan.forced_feed == "per_token" else "")
    features = [f for f, on in (("prefix cache", plan.prefix_cache), (jump, plan.jump_forward)) if on]
    words = f"decodes on the {plan.path} path" + (f" ({', '.join(features)})" if features else "")
    return words + (f"; {'; '.join(plan.reasons)}" if plan.reasons else "")


# What to do when a server does not stop on its own, per kind (``{ids}``: the stop set, ``{hint}``: the fix).
SERVER_FIXES = {
    "vllm": "restart vLLM with `--generation-config DIR`, DIR holding a generation_config.json whose eos_token_id "
            "is {ids} (or fix the model's own file: {hint}, then restart); extract's own requests carry "
            "stop_token_ids and stop anyway",
    "sglang": "fix the model's generation_config.json ({hint}: eos_token_id {ids}) and restart SGLang; extract's own "
              "requests carry stop_token_ids and stop anyway",
    "mlx": "mlx_vlm.server ignores per-request stop ids: fix the model directory it loads ({hint}: eos_token_id "
           "{ids}) and restart it; until then extract's guards cut every answer at the first end marker "
           "(finish guard)",
    "openai": "this server takes no per-request stop ids: fix the model's end tokens ({hint}: eos_token_id {ids}, "
              "or the server's model settings) and reload it; until then extract's guards cut every answer",
}
ENDPOINT_HINT = "`extract doctor MODEL_DIR --fix` on the directory the server loads"


@dataclass(frozen=True)
class DoctorReport:
    """The doctor's findings for one model directory (or one inference server).

    Attributes:
        model_dir: the directory checked (for a server: its URL).
        checks: the fix (when asked), the six checks, the smoke test (when asked), in that order; for a server:
            the endpoint check, then the smoke checks.
    """

    model_dir: Path | str
    checks: tuple[Check, ...]

    @property
    def failed(self) -> bool:
        """True when any check failed."""
        return any(c.status == "fail" for c in self.checks)

    def to_list(self) -> list[dict]:
        """Return the checks as a JSON-ready list of dicts."""
        return [c.to_dict() for c in self.checks]


def run_doctor(model: str, *, fix: bool = False, smoke: bool = False,
               smoke_tokens: int = DEFAULT_SMOKE_TOKENS) -> DoctorReport:
    """Diagnose (and optionally fix and smoke-test) a model directory or a cached hub id.

    Args:
        model: a local directory or a hub id already in the local Hugging Face cache.
        fix: rewrite generation_config.json's ``eos_token_id`` first, then check.
        smoke: also run one short real generation (loads the model with mlx-vlm).
        smoke_tokens: the smoke test's ``max_tokens``.

    Returns:
        The DoctorReport.

    Raises:
        ModelError: the model cannot be found, fixed or (with ``smoke``) loaded.
    """

    model_dir = resolve_model_dir(model)
    checks: list[Check] = []
    if fix:
        checks.append(fix_generation_config(model_dir).to_check())
    checks.extend(run_checks(model_dir))
    if smoke:
        checks.append(smoke_check(model_dir, max_tokens=smoke_tokens))
    return DoctorReport(model_dir=model_dir, checks=tuple(checks))


def endpoint_checks(url: str, *, model: Optional[str] = None, server_kind: Optional[str] = None,
                    api_key: Optional[str] = None, smoke_tokens: int = DEFAULT_SMOKE_TOKENS) -> tuple[Check, ...]:
    """Check a running OpenAI-compatible server: what it serves, and whether it stops on its own.

    Args:
        url: the endpoint.
        model: the served model to check (its id, or a local copy of its directory); None: the only one served.
        server_kind: a kind of ``runners.openai.wire.KINDS``; None: detected.
        api_key: the bearer token, if the server wants one.
        smoke_tokens: ``max_tokens`` of the smoke requests.

    Returns:
        ``endpoint`` (reachable, kind, models), then ``smoke`` (stops on its own?) and, when that fails on a
        server that takes per-request stop ids, ``smoke_stop_ids`` (do ours stop it?).
    """
    from extractor.runners.openai.runner import OpenAIRunner

    runner = OpenAIRunner(endpoints=[url], model=model or "", server_kind=server_kind, api_key=api_key, probe=False)
    try:
        return _endpoint_checks(runner, url=url, model=model, smoke_tokens=smoke_tokens)
    finally:
        runner.close()


def _endpoint_checks(runner, *, url: str, model: Optional[str], smoke_tokens: int) -> tuple[Check, ...]:
    """``endpoint_checks`` with the runner made (and closed by the caller)."""
    from extractor.runners.openai.choose import choose_model, remote_stop_set
    from extractor.runners.openai.endpoints import EndpointFailure
    from extractor.runners.openai.wire import KINDS

    try:
        info = runner.describe(runner.pool.endpoints[0])
        served = choose_model(model or "", info.models, url=url)
    except EndpointFailure as exc:
        return (Check("endpoint", "fail", f"{url}: {exc.reason}", None),)
    except ExtractorError as exc:
        return (Check("endpoint", "fail", str(exc), None),)
    how = "detected" if info.detected else "given"
    found = Check("endpoint", "pass", f"{info.kind} server ({how}); serves {', '.join(info.models) or '(no list)'}; "
                                      f"checking {served}", None)
    stop = remote_stop_set(model or served)
    smoke = _server_smoke(runner, stop=None, max_tokens=smoke_tokens)
    if smoke.status == "pass":
        return found, smoke
    fix = SERVER_FIXES[info.kind].format(ids=list(stop.ids) or "[the model's end tokens]", hint=ENDPOINT_HINT)
    smoke = Check("smoke", "fail", f"{smoke.detail}. Fix: {fix}", None)
    if not KINDS[info.kind].stop_token_ids or not stop.ids:
        return found, smoke
    again = _server_smoke(runner, stop=stop, max_tokens=smoke_tokens)
    return found, smoke, Check("smoke_stop_ids", again.status, f"with stop_token_ids {list(stop.ids)} (what "
                                                               f"extract sends): {again.detail}", None)


def _server_smoke(runner, *, stop, max_tokens: int) -> Check:
    """One request on a blank page (the invoice prompt, no schema) watched by the end-marker and JSON-closed
    guards: ``pass`` when the server stops on its own, ``fail`` when it streams an end marker as text, goes on after
    the JSON closed, or runs to ``max_tokens``."""
    from PIL import Image

    from extractor.runners.guards import GuardSettings
    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.runners.stopping import StopSet
    from extractor.schema import load_schema

    page = Image.new("RGB", (448, 640), "white")  # a blank portrait page
    guards = GuardSettings(loop=False)
    request = GenerationRequest(messages=build_messages(load_schema("invoice"), pages=1), images=(page,),
                                max_tokens=max_tokens, stop=stop or StopSet(ids=()), temperature=0.0,
                                monitor_factory=guards.factory())
    try:
        result = runner.generate(request)
    except ExtractorError as exc:
        return Check("smoke", "fail", f"the request failed: {exc}", None)
    tokens = f"{result.generated_tokens} tokens"
    if result.finish_reason == "stop":
        named = f" on {result.stop_token_id}" if result.stop_token_id is not None else ""
        how = "stopped" if stop else "stopped on its own"
        return Check("smoke", "pass", f"{how}{named} after {tokens} (stop token included)", None)
    if result.guard == "end_marker":
        return Check("smoke", "fail", f"does not stop: it streamed an end marker as text after {tokens} (the "
                                      "model's end token is missing from the server's stop set)", None)
    if result.guard == "json_closed":
        return Check("smoke", "fail", f"does not stop: it went on generating after the JSON closed ({tokens}; a "
                                      "server that hides special tokens streams them as empty text)", None)
    return Check("smoke", "fail", f"no stop within {tokens} (finish length): it ran to max_tokens", None)


__all__ = ["Check", "DoctorReport", "FixResult", "ModelFacts", "check_chat_template",
           "check_config_eos", "check_generation_config", "check_thinking", "check_tokenizer_ids",
           "check_vision_ids", "endpoint_checks", "fix_generation_config", "mlx_vlm_stop_ids", "read_facts",
           "required_end_ids", "run_checks", "run_doctor", "smoke_check"]
