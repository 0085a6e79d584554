"""Read a model directory's JSON and template files, once, into one frozen ``ModelFiles``.

The runtime stop set (``stopping.resolve_stop_set``) and ``extract doctor`` both decide from what these files say, so
they read them here and cannot disagree about it. What is read:

* ``config.json`` (and its ``text_config``), ``generation_config.json`` (and whether it exists);
* special-token ids from ``tokenizer.json``'s ``added_tokens`` and ``tokenizer_config.json``'s
  ``added_tokens_decoder``;
* the tokenizer's eos token text: ``tokenizer_config.json``, else ``special_tokens_map.json``;
* the chat template source: ``chat_template.jinja``, else ``chat_template.json``, else ``tokenizer_config.json``
  (a list of named templates gives its ``default`` one).

A file that is missing is simply absent; one that exists but cannot be read, is not valid JSON or is not a JSON object
is recorded in ``errors`` (file name -> reason), never raised, unless the caller asks for ``strict`` reading. The
runtime stop set decodes tokenizer.json only as far as ``added_tokens`` (``whole_tokenizer=False``): its vocabulary
is the loader's to read; the doctor decodes all of it.
Pure file reading: no mlx, no transformers.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.errors import ModelError

DEFAULT_MODEL = "mlx-community/lift-oQ3"  # ``Settings.model``: a Qwen3.5-based model (ends its turn with <|im_end|>)
CONFIG = "config.json"
GENERATION_CONFIG = "generation_config.json"
TOKENIZER = "tokenizer.json"
TOKENIZER_CONFIG = "tokenizer_config.json"
SPECIAL_TOKENS_MAP = "special_tokens_map.json"
CHAT_TEMPLATE_JINJA = "chat_template.jinja"
CHAT_TEMPLATE_JSON = "chat_template.json"


@dataclass(frozen=True)
class ModelFiles:
    """What a model directory's files say, read once.

    Attributes:
        model_dir: the directory.
        config: config.json (None when missing or unreadable; see ``errors``).
        generation: generation_config.json (None when missing or unreadable).
        generation_exists: whether generation_config.json exists (readable or not).
        tokenizer_json_ids: added-token text -> id from tokenizer.json's ``added_tokens``.
        tokenizer_config_ids: added-token text -> id from tokenizer_config.json's ``added_tokens_decoder``.
        eos_token: the tokenizer's eos token text, or None.
        eos_token_file: the file that named it (``tokenizer_config.json`` or ``special_tokens_map.json``), or None.
        template: the chat template source, or None.
        template_file: the file the template came from, or None.
        errors: file name -> why it could not be read (files that exist but are unreadable only).
    """

    model_dir: Path
    config: dict | None
    generation: dict | None
    generation_exists: bool
    tokenizer_json_ids: Mapping[str, int]
    tokenizer_config_ids: Mapping[str, int]
    eos_token: str | None
    eos_token_file: str | None
    template: str | None
    template_file: str | None
    errors: Mapping[str, str]

    @property
    def token_ids(self) -> dict:
        """Token text -> id as the loaded tokenizer sees it (tokenizer_config.json wins, as in transformers)."""
        return {**self.tokenizer_json_ids, **self.tokenizer_config_ids}

    @property
    def token_names(self) -> dict:
        """Id -> token text (the inverse of ``token_ids``)."""
        return {i: t for t, i in self.token_ids.items()}

    @property
    def text_config(self) -> dict:
        """config.json's ``text_config`` (empty when missing or not an object)."""
        text = (self.config or {}).get("text_config")
        return text if isinstance(text, dict) else {}

    @property
    def model_type(self) -> str | None:
        """config.json's ``model_type``."""
        return (self.config or {}).get("model_type")


def as_id_list(value) -> list[int]:
    """Normalise an ``eos_token_id`` value (int, list or None) to a list of ints."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value if isinstance(v, int) or str(v).isdigit()]
    if isinstance(value, int) or str(value).isdigit():
        return [int(value)]
    return []


def token_content(value) -> str | None:
    """Return a special token's text from a tokenizer_config value (a string or ``{"content": ...}``)."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) else None


class _Reader:
    """Reads one directory's files, recording why a file could not be read."""

    def __init__(self, model_dir: Path) -> None:
        self.model_dir = model_dir
        self.errors: dict[str, str] = {}

    def text(self, name: str) -> str | None:
        """The file's text; None when it is missing or unreadable (recorded)."""
        path = self.model_dir / name
        if not path.is_file():
            return None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: not UTF-8
            self.errors[name] = f"{type(exc).__name__}: {exc}"
            return None

    def json(self, name: str) -> dict | None:
        """The file's JSON object; None when it is missing or unreadable (recorded)."""
        return self._decoded(name, _whole_object)

    def member(self, name: str, key: str):
        """One member of the file's JSON object, the rest of the file not decoded (see :func:`_member`); None when
        the file or the member is missing or the file cannot be read that far (recorded)."""
        return self._decoded(name, lambda text: _member(text, key))

    def _decoded(self, name: str, decode: Callable[[str], Any]):
        """``decode`` of the file's text; None when the file is missing or does not decode (recorded)."""
        text = self.text(name)
        if text is None:
            return None
        try:
            return decode(text)
        except _NotAnObject:
            self.errors[name] = "not a JSON object"
        except ValueError as exc:
            self.errors[name] = f"{type(exc).__name__}: {exc}"
        return None


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


class _NotAnObject(ValueError):
    """Valid JSON, but not an object."""


def _member(text: str, key: str):
    """The value of ``key`` in the JSON object ``text``, its members decoded in order only as far as that one (the
    first, should the key repeat); None when the object has no such member.

    Raises:
        ValueError: not valid JSON (json's own message, from decoding all of it); _NotAnObject: not an object.
    """
    try:
        return _scan_for_member(text, key)
    except ValueError:
        return _whole_object(text).get(key)  # what the scan rejects, json judges (and names where it breaks)


def _whole_object(text: str) -> dict:
    """The JSON object ``text``. Raises ValueError (json's message) or _NotAnObject."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise _NotAnObject()
    return data


def _skip_space(text: str, pos: int) -> int:
    """The first position from ``pos`` on that is not JSON whitespace."""
    match = _SPACE.match(text, pos)
    if match is None:
        raise AssertionError("a pattern of optional whitespace always matches")
    return match.end()


def _scan_for_member(text: str, key: str):
    """:func:`_member`'s scan: ValueError for anything it does not follow (json then decides)."""
    decoder, pos = json.JSONDecoder(), _skip_space(text, 0)
    if not text.startswith("{", pos):
        raise ValueError("not an object")
    pos = _skip_space(text, pos + 1)
    if text.startswith("}", pos):
        return None
    while True:
        name, pos = decoder.raw_decode(text, pos)
        pos = _skip_space(text, pos)
        if not isinstance(name, str) or not text.startswith(":", pos):
            raise ValueError("not a member")
        value, pos = decoder.raw_decode(text, _skip_space(text, pos + 1))
        if name == key:
            return value
        pos = _skip_space(text, pos)
        if text.startswith("}", pos):
            return None
        if not text.startswith(",", pos):
            raise ValueError("no ',' between members")
        pos = _skip_space(text, pos + 1)


def _tokenizer_json_ids(entries) -> dict[str, int]:
    ids = {}
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("content"), str) and isinstance(entry.get("id"), int):
            ids[entry["content"]] = entry["id"]
    return ids


def _tokenizer_config_ids(tok_cfg: dict) -> dict[str, int]:
    decoder = tok_cfg.get("added_tokens_decoder")
    if not isinstance(decoder, dict):
        return {}
    ids = {}
    for key, entry in decoder.items():
        content = token_content(entry)
        if content is not None and str(key).isdigit():
            ids[content] = int(key)
    return ids


def _eos_token(reader: _Reader, tok_cfg: dict) -> tuple[str | None, str | None]:
    eos = token_content(tok_cfg.get("eos_token"))
    if eos is not None:
        return eos, TOKENIZER_CONFIG
    # read only when needed: a broken map tokenizer_config.json overrides is no reason to fail
    eos = token_content((reader.json(SPECIAL_TOKENS_MAP) or {}).get("eos_token"))
    return (eos, SPECIAL_TOKENS_MAP) if eos is not None else (None, None)


def _named_default(template) -> str | None:
    if isinstance(template, list):  # named templates: take the default one
        template = next(
            (t.get("template") for t in template if isinstance(t, dict) and t.get("name") == "default"), None
        )
    return template if isinstance(template, str) else None


def _template(reader: _Reader, tok_cfg: dict) -> tuple[str | None, str | None]:
    if (reader.model_dir / CHAT_TEMPLATE_JINJA).is_file():
        # the loader takes this file first, so an unreadable one is not replaced by another source
        text = reader.text(CHAT_TEMPLATE_JINJA)
        return (text, CHAT_TEMPLATE_JINJA) if text is not None else (None, None)
    for name in (CHAT_TEMPLATE_JSON, TOKENIZER_CONFIG):
        data = tok_cfg if name == TOKENIZER_CONFIG else reader.json(name) or {}
        template = _named_default(data.get("chat_template"))
        if template is not None:
            return template, name
    return None, None


def read_model_files(model_dir: Path | str, *, strict: bool = False, whole_tokenizer: bool = True) -> ModelFiles:
    """Read a model directory's config, tokenizer and template files.

    Args:
        model_dir: the model directory.
        strict: raise for the first file that exists but cannot be read, instead of recording it in ``errors``.
        whole_tokenizer: decode all of tokenizer.json, so damage anywhere in it is recorded. False decodes it only
            as far as ``added_tokens``, all these files need from it: its vocabulary (~0.5 s for 248k tokens) is
            left to the loader, which reads it anyway.

    Returns:
        The ModelFiles.

    Raises:
        ModelError: with ``strict``, a file is unreadable, not valid JSON or not a JSON object (names the file and
            the reason).
    """
    model_dir = Path(model_dir)
    reader = _Reader(model_dir)
    config = reader.json(CONFIG)
    generation = reader.json(GENERATION_CONFIG)
    if whole_tokenizer:
        added = (reader.json(TOKENIZER) or {}).get("added_tokens")
    else:
        added = reader.member(TOKENIZER, "added_tokens")
    tok_cfg = reader.json(TOKENIZER_CONFIG) or {}
    eos_token, eos_token_file = _eos_token(reader, tok_cfg)
    template, template_file = _template(reader, tok_cfg)
    if strict and reader.errors:
        name, why = next(iter(reader.errors.items()))
        raise ModelError(f"cannot read {name}: {why}", source=model_dir / name)
    return ModelFiles(
        model_dir=model_dir,
        config=config,
        generation=generation,
        generation_exists=(model_dir / GENERATION_CONFIG).is_file(),
        tokenizer_json_ids=_tokenizer_json_ids(added),
        tokenizer_config_ids=_tokenizer_config_ids(tok_cfg),
        eos_token=eos_token,
        eos_token_file=eos_token_file,
        template=template,
        template_file=template_file,
        errors=reader.errors,
    )


# What a hub download fetches: configs, weights, tokenizer and template files (no README images, no other formats).
MODEL_FILES = ["*.json", "*.safetensors", "*.jinja", "*.txt", "*.model", "*.tiktoken", "*.py"]


def resolve_model_dir(model: str) -> Path:
    """Find a model's local directory: a path as given, or a hub id already in the local cache.

    Args:
        model: a directory or a hub id such as ``mlx-community/lift-oQ3``.

    Returns:
        The directory.

    Raises:
        ModelError: not a directory and not in the local hub cache.
    """
    path = Path(model).expanduser()
    if path.is_dir():
        return path
    if path.exists() or model.startswith((".", "/", "~")):
        raise ModelError(f"model directory {model} does not exist or is not a directory", source=model)
    try:
        from huggingface_hub import snapshot_download

        # the local cache first; download only where the hub is allowed (HF_HUB_OFFLINE unset)
        try:
            return Path(snapshot_download(repo_id=model, local_files_only=True))
        except Exception:  # noqa: BLE001 - not cached: fall through to a download
            if os.environ.get("HF_HUB_OFFLINE", "0") not in ("0", "", "false", "False"):
                raise
        return Path(snapshot_download(repo_id=model, allow_patterns=MODEL_FILES))
    except Exception as exc:  # noqa: BLE001 - any hub failure means "not available"
        raise ModelError(
            f"model {model!r} is neither a local directory nor in the local Hugging Face cache, and could not be "
            f"downloaded (pass --model DIR for a local model): {type(exc).__name__}: {exc}",
            source=model,
        ) from exc


__all__ = ["MODEL_FILES", "ModelFiles", "as_id_list", "read_model_files", "resolve_model_dir", "token_content"]
