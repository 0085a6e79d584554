"""Resolve the stop set of a model directory: every end token the model really emits, with where each came from.

Chat models end a turn with their template's end-of-turn token, and many directories do not declare it as eos:
Qwen ``<|im_end|>`` while ``config.json`` names ``<|endoftext|>``, Gemma ``<end_of_turn>`` / ``<turn|>`` versus
``<eos>``, Idefics3 / SmolVLM ``<end_of_utterance>``, GLM the next turn's ``<|user|>``. A runner that trusts one
file never stops, so the stop set is the union of:

* ``config.json`` (top level and ``text_config``) and ``generation_config.json`` ``eos_token_id``;
* the tokenizer's eos token (``tokenizer_config.json``, else ``special_tokens_map.json``);
* the chat template's end-of-turn token, found by *rendering* the template (``chat_template.rendered_turn_end``:
  the first special token after an assistant turn), backed up by a table of known end tokens where the template
  cannot be rendered;
* Qwen3.5's ``<|endoftext|>`` 248044 and ``<|im_end|>`` 248046, both, where the tokenizer maps those ids to them;
* at load, the processor's own ``additional_eos_token_ids`` (``StopSet.plus``, by the runner).

The files are read by ``modelfiles`` (the one reader ``extract doctor`` uses too). No mlx, no transformers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from extractor.runners.chat_template import rendered_turn_end
from extractor.runners.modelfiles import ModelFiles, as_id_list, read_model_files

# Tokens that end a turn / a sequence across the model families we know of: the backup for templates that cannot be
# rendered, and the texts the end-marker guard looks for in decoded text.
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
    "<end_of_utterance>",
    "<turn|>",
)
# Qwen3.5's pair, both stopping wherever the tokenizer maps exactly these ids to these tokens.
ALWAYS_PAIR = {"<|endoftext|>": 248044, "<|im_end|>": 248046}


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

    def without(self, removed: Iterable[int]) -> StopSet:
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

    def plus(self, ids: Iterable[int], source: str, tokenizer=None) -> StopSet:
        """Return a copy with more ids (e.g. a processor's own end ids), each also credited to ``source``.

        Args:
            ids: the ids to add.
            source: where they come from (``processor:additional_eos_token_ids``).
            tokenizer: decodes an id's text for ``texts`` (optional).
        """
        added = [int(i) for i in ids]
        if not added:
            return self
        sources = {i: tuple(s) for i, s in self.sources.items()}
        texts = set(self.texts)
        for i in added:
            sources[i] = tuple(dict.fromkeys(sources.get(i, ()) + (source,)))
            if tokenizer is not None:
                texts.add(tokenizer.decode([i], skip_special_tokens=False))
        return StopSet(ids=tuple(sorted(sources)), sources=sources, texts=tuple(sorted(t for t in texts if t)))

    def to_dict(self) -> dict:
        """Return a JSON-ready view: ``{"ids": [...], "sources": {"248046": [...]}}``."""
        return {"ids": list(self.ids), "sources": {str(i): list(s) for i, s in sorted(self.sources.items())}}


_ASSISTANT_END = re.compile(
    r"assistant.{0,400}?(<\|im_end\|>|<end_of_turn>|<\|eot_id\|>|<\|end\|>|"
    r"<end_of_utterance>|<turn\|>|</s>)",
    re.S,
)


def template_end_token(
    template: str | None, special_texts: Iterable[str] = (), *, eos_token: str | None = None
) -> str | None:
    """Find the token that ends an assistant turn in a chat template.

    Args:
        template: the Jinja source, or None.
        special_texts: the tokenizer's added token texts (the rendered template is searched for them).
        eos_token: the tokenizer's eos text (templates that close turns with ``{{ eos_token }}``).

    Returns:
        The end-of-turn token text (e.g. ``<|im_end|>``, GLM's ``<|user|>``), or None when the template names none.
    """
    return turn_end(template, special_texts, eos_token=eos_token)[0]


def turn_end(
    template: str | None, special_texts: Iterable[str] = (), *, eos_token: str | None = None
) -> tuple[str | None, str]:
    """The end-of-turn token and how it was found: ``rendered`` (from the template's output) or ``table`` (the
    backup: the template's source searched for known end tokens); ``(None, "")`` when neither finds one."""
    rendered = rendered_turn_end(template, special_texts, eos_token=eos_token)
    if rendered is not None:
        return rendered, "rendered"
    found = _table_end_token(template)
    return (found, "table") if found else (None, "")


def _table_end_token(template: str | None) -> str | None:
    """The backup: a known end token the template's source names after ``assistant`` (or anywhere)."""
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
    return stop_set_of(read_model_files(model_dir, strict=True, whole_tokenizer=False))


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
    end, how = turn_end(files.template, ids, eos_token=files.eos_token)
    if end in ids:
        add([ids[end]], f"chat_template:end_of_turn={end}" + ("" if how == "rendered" else " (table)"))
    if all(ids.get(text) == i for text, i in ALWAYS_PAIR.items()):
        for text in ALWAYS_PAIR:
            add([ids[text]], f"tokenizer:{text}")

    names = files.token_names
    texts = {names[i] for i in sources if i in names} | set(END_TOKEN_TEXTS)
    return StopSet(
        ids=tuple(sorted(sources)), sources={i: tuple(s) for i, s in sources.items()}, texts=tuple(sorted(texts))
    )
