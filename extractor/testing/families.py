"""Tiny random checkpoints of the mlx-vlm model families documents are read with, each with its real turn markers.

:func:`build_family_model` writes a directory that the real ``mlx_vlm.load`` loads (model and processor) and
``mlx_vlm.generate`` runs, with an image or text only: random float32 weights of the family's real mlx-vlm
architecture at a tiny size (hidden 64, 2 layers, a one- or two-layer vision tower, images kept to a few tokens by
the preprocessor configs), the family's chat template (:mod:`extractor.testing.templates`), a tokenizer holding
the family's special tokens as added special tokens (the kit's byte-level BPE for everything else), and the eos
ids the family's official checkpoints declare — or, with ``config_bug=True``, the family's typical bug: config.json
and generation_config.json name only the tokenizer's eos, while the template still ends every turn with the
end-of-turn token (so a runner that trusts the config never stops).

The family table is :data:`~extractor.testing.configs.FAMILIES` (one ``Family`` per family: its special
tokens, eos declarations, config.json and processor files); qwen3_5 is built by the kit's own
:func:`~extractor.testing.qwen35.build_random_model`. Special-token ids are the real ones where ``real_ids``
(Qwen's and GLM's ~151k-row vocabularies, SmolVLM's 49,280, Mistral's Tekken ids 0-999); Gemma 3/4 keep their real
low ids (<eos> 1, the turn markers 105/106) with the image tokens moved next to the BPE; Idefics3's Llama-3 ids
(128k) and PaddleOCR-VL's ERNIE ids (103k) are not kept: their specials follow the BPE. Writing the files:
:mod:`extractor.testing.family_files`.

Each directory holds ``family.json`` (what was built: family, end-of-turn token and id, declared eos ids, ...);
:func:`read_family_model` reads it back as a :class:`FamilyModel`.

Answers are forced with a logits processor (:func:`extractor.testing.forcing.force_answer`), not programmed into
the weights: loading and generation stay real.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import ModelError, UsageError
from extractor.testing.configs import FAMILIES
from extractor.testing.configs.base import Family

FAMILY_FILE = "family.json"


@dataclass(frozen=True)
class FamilyModel:
    """A tiny family checkpoint directory and what it declares.

    Attributes:
        path: the model directory (pass it to ``mlx_vlm.load``).
        family: the family's name (a :data:`FAMILIES` key).
        model_type: config.json's ``model_type``.
        end_of_turn: the token text the chat template ends an assistant turn with.
        end_of_turn_id: its id.
        eos_token: the tokenizer's ``eos_token`` text as written.
        eos_token_id: its id.
        declared_eos_ids: every id config.json (top level and text_config) and generation_config.json name as eos,
            sorted, without duplicates.
        config_bug: whether the directory carries the family's typical bug (``end_of_turn_id`` not declared).
        vocab_size: rows of the embedding.
        real_ids: whether special ids are the official checkpoints' ids.
        image_token: the image placeholder token text; ``image_token_id`` its id.
        seed: the weights' seed.
    """

    path: Path
    family: str
    model_type: str
    end_of_turn: str
    end_of_turn_id: int
    eos_token: str
    eos_token_id: int
    declared_eos_ids: tuple[int, ...]
    config_bug: bool
    vocab_size: int
    real_ids: bool
    image_token: str
    image_token_id: int
    seed: int = 0

    def token_id(self, text: str) -> int:
        """The id of one of the family's special tokens (as written in this directory's tokenizer).

        Raises:
            UsageError: ``text`` is not one of the family's special tokens.
        """
        if self.family == "qwen3_5":
            from extractor.testing.tokenizer import TOKEN_IDS

            ids = TOKEN_IDS
        else:
            ids = {content: tid for tid, content in FAMILIES[self.family].specials}
        if text not in ids:
            raise UsageError(f"{text!r} is not a special token of family {self.family}", source=self.path)
        return ids[text]


def _declared_ids(config: dict, generation: dict | None) -> tuple[int, ...]:
    """Every eos id a checkpoint's config.json and generation_config.json name."""
    found: set[int] = set()
    for value in (
        config.get("eos_token_id"),
        (config.get("text_config") or {}).get("eos_token_id"),
        (generation or {}).get("eos_token_id"),
    ):
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, list):
            found.update(v for v in value if isinstance(v, int))
    return tuple(sorted(found))


def _family(name: str) -> Family:
    if name not in FAMILIES:
        raise UsageError(f"family: expected one of qwen3_5, {', '.join(FAMILIES)}, got {name!r}")
    return FAMILIES[name]


def build_family_model(path: str | Path, family: str, *, config_bug: bool = False, seed: int = 0) -> FamilyModel:
    """Write a tiny random-weight checkpoint of ``family`` to ``path`` (see the module docstring).

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        family: a :data:`FAMILIES` key (``qwen3_5``, ``qwen2_5_vl``, ``qwen3_vl``, ``gemma3``, ``gemma4``,
            ``idefics3``, ``smolvlm``, ``mistral3``, ...).
        config_bug: write the family's typical bug (config and generation_config name only the tokenizer's eos,
            not the end-of-turn token) instead of what its official checkpoints declare.
        seed: seed of the weights (numpy; mlx's global random state is not touched).

    Returns:
        The :class:`FamilyModel`.

    Raises:
        UsageError: an unknown family or an option of the wrong type.
    """
    if not isinstance(config_bug, bool):
        raise UsageError(f"config_bug: expected True or False, got {config_bug!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise UsageError(f"seed: expected an integer, got {seed!r}")
    if family == "qwen3_5":
        return _build_qwen35(Path(path), config_bug=config_bug, seed=seed)
    spec = _family(family)
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    from extractor.testing.checkpoint import _write_json
    from extractor.testing.family_files import write_family_files, write_family_weights

    ids = {content: tid for tid, content in spec.specials}
    config, generation = write_family_files(path, spec, ids, config_bug=config_bug)
    write_family_weights(path, spec.module, config, seed=seed)
    eos_token = spec.bug_eos_token if config_bug else spec.eos_token
    model = FamilyModel(
        path=path,
        family=spec.name,
        model_type=config["model_type"],
        end_of_turn=spec.end_of_turn,
        end_of_turn_id=ids[spec.end_of_turn],
        eos_token=eos_token,
        eos_token_id=ids[eos_token],
        declared_eos_ids=_declared_ids(config, generation),
        config_bug=config_bug,
        vocab_size=spec.vocab_size,
        real_ids=spec.real_ids,
        image_token=spec.image_token,
        image_token_id=ids[spec.image_token],
        seed=seed,
    )
    _write_json(path / FAMILY_FILE, _family_json(model))
    return model


def _build_qwen35(path: Path, *, config_bug: bool, seed: int) -> FamilyModel:
    """qwen3_5 through the kit's own random builder: official eos 248046 (+248044), the bug 248044 only."""
    from extractor.testing.checkpoint import _write_json
    from extractor.testing.qwen35 import build_random_model
    from extractor.testing.tokenizer import ENDOFTEXT, IM_END, IMAGE_PAD, VOCAB_SIZE

    if config_bug:
        build_random_model(path, config_eos=ENDOFTEXT, text_eos=ENDOFTEXT, tokenizer_eos="<|endoftext|>", seed=seed)
    else:
        build_random_model(
            path,
            config_eos=IM_END,
            text_eos=IM_END,
            generation_eos=[IM_END, ENDOFTEXT],
            tokenizer_eos="<|im_end|>",
            seed=seed,
        )
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    generation_file = path / "generation_config.json"
    generation = json.loads(generation_file.read_text(encoding="utf-8")) if generation_file.exists() else None
    eos_token = "<|endoftext|>" if config_bug else "<|im_end|>"
    model = FamilyModel(
        path=path,
        family="qwen3_5",
        model_type="qwen3_5",
        end_of_turn="<|im_end|>",
        end_of_turn_id=IM_END,
        eos_token=eos_token,
        eos_token_id=ENDOFTEXT if config_bug else IM_END,
        declared_eos_ids=_declared_ids(config, generation),
        config_bug=config_bug,
        vocab_size=VOCAB_SIZE,
        real_ids=True,
        image_token="<|image_pad|>",
        image_token_id=IMAGE_PAD,
        seed=seed,
    )
    _write_json(path / FAMILY_FILE, _family_json(model))
    return model


def _family_json(model: FamilyModel) -> dict:
    from dataclasses import asdict

    data = asdict(model)
    data["path"] = None  # the directory may move: read_family_model takes the path it is given
    data["declared_eos_ids"] = list(model.declared_eos_ids)
    return data


def read_family_model(path: str | Path) -> FamilyModel:
    """Read back what a family directory declares (its ``family.json``).

    Raises:
        ModelError: the directory has no readable family.json.
    """
    path = Path(path)
    try:
        data = json.loads((path / FAMILY_FILE).read_text(encoding="utf-8"))
        data["path"] = path
        data["declared_eos_ids"] = tuple(data["declared_eos_ids"])
        return FamilyModel(**data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"not a tiny family model ({FAMILY_FILE}: {exc})", source=path) from exc


def family_names() -> tuple[str, ...]:
    """Every family :func:`build_family_model` builds, qwen3_5 first."""
    return ("qwen3_5", *FAMILIES)
