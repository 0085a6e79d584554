"""The family table's shared parts: the ``Family`` row, the tiny decoder shape, and helpers of every family's files.

Sizes: text hidden 64, 2 layers, 2 attention heads (1 key/value head) of 32, MLP 128; vision towers of width 32,
one or two layers; images resized by each family's own preprocessor to at most a few dozen pixels a side, so that a
page costs 4-16 image tokens. Official eos declarations are those of the families' public instruct checkpoints
(config.json / generation_config.json); the typical bug names only the tokenizer's eos.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

HIDDEN = 64
LAYERS = 2
INTERMEDIATE = 128
HEADS = 2
KV_HEADS = 1
HEAD_DIM = 32


@dataclass(frozen=True)
class Family:
    """One row of the family table: how to write a tiny checkpoint of one mlx-vlm model family.

    Attributes:
        name: the family's name (a :data:`~extractor.testing.configs.FAMILIES` key).
        module: the mlx-vlm model module (``mlx_vlm.models.<module>``), config.json's ``model_type``.
        specials: every added token, ``(id, text)``, all special; ids are real where ``real_ids``.
        vocab_size: rows of the embedding (the tokenizer is dense over them).
        real_ids: whether the special ids are the official checkpoints' ids (all of them).
        end_of_turn: the token the chat template closes an assistant turn with (GLM: the next turn's opener).
        eos_token: the tokenizer's ``eos_token`` as officially shipped.
        bug_eos_token: the tokenizer's ``eos_token`` in the typical bug (often the base model's eos).
        bos_token: the tokenizer's ``bos_token`` (None: none).
        pad_token: the tokenizer's ``pad_token`` (None: none).
        image_token: the placeholder token the processor expands per image.
        chat_template: the family's template text (:mod:`extractor.testing.templates`).
        declared: ``(config_bug, ids) -> {"config": eos, "text_config": eos, "generation_config": eos}``; a key
            left out is not written (no ``generation_config``: no generation_config.json).
        config: ``(family, ids) -> config.json`` without eos keys (``ids``: special token text -> id).
        processor_files: ``(family, ids) -> {file name: JSON}`` (preprocessor_config.json, processor_config.json).
        tokenizer_extra: more tokenizer_config.json keys (e.g. Gemma 3's ``extra_special_tokens``).
        note: what is not like the official checkpoints (ids moved, sizes), for the table in the README.
    """

    name: str
    module: str
    specials: tuple[tuple[int, str], ...]
    vocab_size: int
    real_ids: bool
    end_of_turn: str
    eos_token: str
    bug_eos_token: str
    bos_token: str | None
    pad_token: str | None
    image_token: str
    chat_template: str
    declared: Callable[[bool, Mapping[str, int]], Mapping[str, object]]
    config: Callable[[Family, Mapping[str, int]], dict]
    processor_files: Callable[[Family, Mapping[str, int]], Mapping[str, dict]]
    tokenizer_extra: Mapping[str, object] | None = None
    note: str = ""


def after(first: int, texts: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """``texts`` at consecutive ids from ``first``."""
    return tuple((first + i, text) for i, text in enumerate(texts))


def tiny_text(**more) -> dict:
    """The tiny decoder shape shared by every family (Llama-like keys); ``more`` adds or overrides keys."""
    return {
        "hidden_size": HIDDEN,
        "num_hidden_layers": LAYERS,
        "intermediate_size": INTERMEDIATE,
        "num_attention_heads": HEADS,
        "num_key_value_heads": KV_HEADS,
        "head_dim": HEAD_DIM,
        "rms_norm_eps": 1e-6,
        "max_position_embeddings": 32768,
        **more,
    }


def tiny_vision(own: Mapping[str, object]) -> dict:
    """The tiny vision tower's width shared by every family (32 wide, MLP 64), then the family's ``own`` keys."""
    return {"hidden_size": 32, "intermediate_size": 64, **own}


# a preprocessor's normalisation, (image_mean, image_std): CLIP's, which several share, and the halves of the rest
CLIP_NORM = ([0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711])
HALF_NORM = ([0.5] * 3, [0.5] * 3)


def image_processor(kind: str, *, processor: str, norm: tuple[list, list], own: Mapping[str, object]) -> dict:
    """A preprocessor_config.json: ``kind`` (``image_processor_type``) for ``processor`` (``processor_class``),
    resizing, rescaling by 1/255, normalising with ``norm`` (mean, std) and converting to RGB as every family's does;
    ``own`` adds the family's own keys (or overrides one)."""
    return {
        "image_processor_type": kind,
        "processor_class": processor,
        "do_resize": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": norm[0],
        "image_std": norm[1],
        "do_convert_rgb": True,
        **own,
    }
