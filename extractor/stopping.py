"""Resolve the stop set of a model directory: every end token the directory declares, with where each came from.

Qwen-family chat models end a turn with ``<|im_end|>`` while ``config.json`` often names only ``<|endoftext|>``.
A runner that trusts one file never stops, so the stop set is the union of every declaration we can find:
``config.json`` (top level and ``text_config``), ``generation_config.json``, the tokenizer's eos token and the chat
template's end-of-turn token; when the tokenizer knows both ``<|endoftext|>`` and ``<|im_end|>`` both are always in.
Pure file reading: no mlx, no transformers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Optional

from .errors import ModelError

# Tokens that end a turn / a sequence across the model families we know of.
END_TOKEN_TEXTS = (
    "<|im_end|>",
    "<|endoftext|>",
    "</s>",
    "<end_of_turn>",
    "<|eot_id|>",
    "<|end_of_text|>",
    "<|end|>",
    "<|eot|>",
    "<|return|>",
)
# Qwen-style pairs that must both stop whenever the tokenizer defines them.
ALWAYS_PAIR = ("<|endoftext|>", "<|im_end|>")


@dataclass(frozen=True)
class StopSet:
    """The resolved stop set.

    Attributes:
        ids: sorted token ids that end generation.
        sources: for each id, the declarations it came from (e.g. ``["config.json:eos_token_id"]``).
        texts: end-marker strings (the tokens' text), for guards that look at decoded text.
    """

    ids: tuple[int, ...]
    sources: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    texts: tuple[str, ...] = ()

    def without(self, removed: Iterable[int]) -> "StopSet":
        """Return a copy without the given ids (for diagnosis: reproduce a broken config).

        Args:
            removed: ids to drop.

        Returns:
            A new StopSet.
        """
        gone = set(removed)
        return StopSet(
            ids=tuple(i for i in self.ids if i not in gone),
            sources={i: s for i, s in self.sources.items() if i not in gone},
            texts=self.texts,
        )

    def to_dict(self) -> dict:
        """Return a JSON-ready view: ``{"ids": [...], "sources": {"248046": [...]}}``."""
        return {"ids": list(self.ids), "sources": {str(i): list(s) for i, s in sorted(self.sources.items())}}


@dataclass(frozen=True)
class TokenTable:
    """What the tokenizer files say about special tokens."""

    ids: Mapping[str, int]  # token text -> id (added / special tokens)
    eos_token: Optional[str]


def read_json(path: Path) -> Optional[dict]:
    """Read a JSON file; return None when it does not exist.

    Args:
        path: the file.

    Returns:
        The parsed object, or None if the file is missing.

    Raises:
        ModelError: the file exists but is not valid JSON.
    """
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read {path.name}: {exc}", source=path) from exc


def as_id_list(value) -> list[int]:
    """Normalise an ``eos_token_id`` value (int, list or None) to a list of ints."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value if isinstance(v, int) or str(v).isdigit()]
    if isinstance(value, int) or str(value).isdigit():
        return [int(value)]
    return []


def token_content(value) -> Optional[str]:
    """Return a special token's text from a tokenizer_config value (a string or ``{"content": ...}``)."""
    if isinstance(value, dict):
        return value.get("content")
    return value if isinstance(value, str) else None


def read_token_table(model_dir: Path) -> TokenTable:
    """Collect special-token ids from ``tokenizer.json`` and ``tokenizer_config.json``.

    ``tokenizer_config.json``'s ``added_tokens_decoder`` wins where both speak (transformers rebuilds Qwen
    tokenizers from it).

    Args:
        model_dir: the model directory.

    Returns:
        A TokenTable.
    """
    ids: dict[str, int] = {}
    tok = read_json(model_dir / "tokenizer.json") or {}
    for entry in tok.get("added_tokens") or []:
        if isinstance(entry, dict) and "content" in entry and "id" in entry:
            ids[entry["content"]] = int(entry["id"])
    cfg = read_json(model_dir / "tokenizer_config.json") or {}
    for key, entry in (cfg.get("added_tokens_decoder") or {}).items():
        content = token_content(entry)
        if content is not None and str(key).isdigit():
            ids[content] = int(key)
    return TokenTable(ids=ids, eos_token=token_content(cfg.get("eos_token")))


def template_text(model_dir: Path) -> Optional[str]:
    """Return the chat template source (``chat_template.jinja``, ``chat_template.json`` or tokenizer_config)."""
    jinja = model_dir / "chat_template.jinja"
    if jinja.is_file():
        return jinja.read_text(encoding="utf-8")
    for name in ("chat_template.json", "tokenizer_config.json"):
        data = read_json(model_dir / name) or {}
        tpl = data.get("chat_template")
        if isinstance(tpl, list):  # named templates: take the default one
            tpl = next((t.get("template") for t in tpl if t.get("name") == "default"), None)
        if isinstance(tpl, str):
            return tpl
    return None


_ASSISTANT_END = re.compile(r"assistant.{0,400}?(<\|im_end\|>|<end_of_turn>|<\|eot_id\|>|<\|end\|>|</s>)", re.S)


def template_end_token(template: Optional[str]) -> Optional[str]:
    """Find the token that ends an assistant turn in a chat template.

    Args:
        template: the Jinja source, or None.

    Returns:
        The end-of-turn token text (e.g. ``<|im_end|>``), or None when the template names none.
    """
    if not template:
        return None
    match = _ASSISTANT_END.search(template)
    if match:
        return match.group(1)
    for text in END_TOKEN_TEXTS:  # a template that ends every message the same way
        if text in template:
            return text
    return None


def resolve_stop_set(model_dir: Path | str) -> StopSet:
    """Resolve the union of every end token a model directory declares.

    Args:
        model_dir: a local model directory.

    Returns:
        The StopSet, ids sorted, each with its sources.

    Raises:
        ModelError: a config file is unreadable.
    """
    model_dir = Path(model_dir)
    sources: dict[int, list[str]] = {}

    def add(ids: Iterable[int], where: str) -> None:
        for i in ids:
            sources.setdefault(int(i), [])
            if where not in sources[int(i)]:
                sources[int(i)].append(where)

    config = read_json(model_dir / "config.json") or {}
    add(as_id_list(config.get("eos_token_id")), "config.json:eos_token_id")
    add(as_id_list((config.get("text_config") or {}).get("eos_token_id")), "config.json:text_config.eos_token_id")
    gen = read_json(model_dir / "generation_config.json") or {}
    add(as_id_list(gen.get("eos_token_id")), "generation_config.json:eos_token_id")

    table = read_token_table(model_dir)
    if table.eos_token in table.ids:
        add([table.ids[table.eos_token]], f"tokenizer_config.json:eos_token={table.eos_token}")
    end = template_end_token(template_text(model_dir))
    if end in table.ids:
        add([table.ids[end]], f"chat_template:end_of_turn={end}")
    if all(t in table.ids for t in ALWAYS_PAIR):
        for text in ALWAYS_PAIR:
            add([table.ids[text]], f"tokenizer:{text}")

    by_id = {i: t for t, i in table.ids.items()}
    texts = {by_id[i] for i in sources if i in by_id} | set(END_TOKEN_TEXTS)
    return StopSet(
        ids=tuple(sorted(sources)),
        sources={i: tuple(s) for i, s in sources.items()},
        texts=tuple(sorted(texts)),
    )
