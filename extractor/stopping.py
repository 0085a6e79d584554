"""Resolve the stop set of a model directory: every end token the directory declares, with where each came from.

Qwen-family chat models end a turn with ``<|im_end|>`` while ``config.json`` often names only ``<|endoftext|>``.
A runner that trusts one file never stops, so the stop set is the union of every declaration we can find:
``config.json`` (top level and ``text_config``), ``generation_config.json``, the tokenizer's eos token
(``tokenizer_config.json``, else ``special_tokens_map.json``) and the chat template's end-of-turn token; when the tokenizer knows both ``<|endoftext|>`` and ``<|im_end|>`` both are always in.
The files are read by ``modelfiles`` (the one reader ``extract doctor`` uses too). No mlx, no transformers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Optional

from .modelfiles import ModelFiles, as_id_list, read_model_files

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
        ModelError: a config, tokenizer or template file exists but cannot be read (names the file and why).
    """
    return stop_set_of(read_model_files(model_dir, strict=True))


def stop_set_of(files: ModelFiles) -> StopSet:
    """Resolve the stop set from files already read (the doctor passes what the readable files say).

    Args:
        files: the model directory's files.

    Returns:
        The StopSet, ids sorted, each with its sources.
    """
    sources: dict[int, list[str]] = {}

    def add(ids: Iterable[int], where: str) -> None:
        for i in ids:
            sources.setdefault(int(i), [])
            if where not in sources[int(i)]:
                sources[int(i)].append(where)

    add(as_id_list((files.config or {}).get("eos_token_id")), "config.json:eos_token_id")
    add(as_id_list(files.text_config.get("eos_token_id")), "config.json:text_config.eos_token_id")
    add(as_id_list((files.generation or {}).get("eos_token_id")), "generation_config.json:eos_token_id")

    ids = files.token_ids
    if files.eos_token in ids:
        add([ids[files.eos_token]], f"{files.eos_token_file}:eos_token={files.eos_token}")
    end = template_end_token(files.template)
    if end in ids:
        add([ids[end]], f"chat_template:end_of_turn={end}")
    if all(t in ids for t in ALWAYS_PAIR):
        for text in ALWAYS_PAIR:
            add([ids[text]], f"tokenizer:{text}")

    names = files.token_names
    texts = {names[i] for i in sources if i in names} | set(END_TOKEN_TEXTS)
    return StopSet(
        ids=tuple(sorted(sources)),
        sources={i: tuple(s) for i, s in sources.items()},
        texts=tuple(sorted(texts)),
    )
