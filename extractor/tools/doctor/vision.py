"""Which vision token ids each model family's mlx-vlm model reads from config.json, and which family a directory is.

The doctor's ``vision_ids`` check (:func:`extractor.tools.doctor.files.check_vision_ids`) compares these ids with
the tokenizer. The family is decided by config.json's ``model_type`` (the mlx-vlm model that loads the directory),
else by its processor's class, never by the vocabulary: a checkpoint built or merged on a Qwen tokenizer carries
``<|image_pad|>`` whatever its family, and Idefics3 / SmolVLM have no vision start or end tokens at all. The image
token is the one the family's processor places (its own ``image_token`` when the processor files name one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from extractor.runners.modelfiles import ModelFiles


@dataclass(frozen=True)
class VisionKey:
    """One config.json id a family's mlx-vlm model reads to find the image positions, and the token it must name.

    Attributes:
        key: the config.json key (as checkpoints write it).
        token: the tokenizer token it must name.
        default: mlx-vlm 0.7.10's value when config.json omits the key (None: no default known).
        image: whether it is the image placeholder, whose text the family's processor may name itself.
        read_first: a key mlx-vlm reads instead when config.json has it (``image_token_index`` over
            ``image_token_id`` for Idefics3, SmolVLM, Mistral 3).
    """

    key: str
    token: str
    default: int | None = None
    image: bool = False
    read_first: str | None = None


def _qwen_vision(start: int, end: int, image: int) -> tuple[VisionKey, ...]:
    """Qwen-VL's placement: ``<|vision_start|>``, the ``<|image_pad|>`` run, ``<|vision_end|>`` (M-RoPE reads all)."""
    return (
        VisionKey("vision_start_token_id", "<|vision_start|>", start),
        VisionKey("vision_end_token_id", "<|vision_end|>", end),
        VisionKey("image_token_id", "<|image_pad|>", image, image=True),
    )


# Per model_type: the ids its mlx-vlm 0.7.10 model reads, with that model's defaults. Families whose processor
# places its own image run (Idefics3 / SmolVLM: <image> between <fake_token_around_image>) read only the image id.
VISION_RULES: Mapping[str, tuple[VisionKey, ...]] = {
    **{t: _qwen_vision(248045, 248046, 248056) for t in ("qwen3_5", "qwen3_5_moe")},
    "qwen4_exp": _qwen_vision(248053, 248054, 248056),
    **{
        t: _qwen_vision(151652, 151653, 151655)
        for t in ("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_omni_moe")
    },
    **{
        t: (VisionKey("image_token_id", "<image>", 49153, image=True, read_first="image_token_index"),)
        for t in ("idefics3", "smolvlm")
    },
    "gemma3": (VisionKey("image_token_index", "<image_soft_token>", 262144, image=True),),
    "gemma4": (VisionKey("image_token_id", "<|image|>", 258880, image=True),),
    "mistral3": (VisionKey("image_token_id", "[IMG]", image=True, read_first="image_token_index"),),
    "paddleocr_vl": (
        VisionKey("vision_start_token_id", "<|IMAGE_START|>", 101305),
        VisionKey("image_token_id", "<|IMAGE_PLACEHOLDER|>", 100295, image=True),
    ),
    "glm4v": (
        VisionKey("vision_start_token_id", "<|begin_of_image|>", 151339),
        VisionKey("image_token_id", "<|image|>", 151363, image=True),
    ),
}
# A model_type the table does not know is read by its processor's class instead (without mlx-vlm's defaults,
# which belong to a model_type).
PROCESSOR_FAMILIES = {
    "Qwen2VLProcessor": "qwen2_vl",
    "Qwen2_5_VLProcessor": "qwen2_5_vl",
    "Qwen3VLProcessor": "qwen3_vl",
    "Idefics3Processor": "idefics3",
    "SmolVLMProcessor": "smolvlm",
    "Gemma3Processor": "gemma3",
    "Gemma4Processor": "gemma4",
    "PixtralProcessor": "mistral3",
    "PaddleOCRVLProcessor": "paddleocr_vl",
    "Glm4vProcessor": "glm4v",
}
PROCESSOR_FILES = ("processor_config.json", "preprocessor_config.json", "tokenizer_config.json")


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a broken tokenizer_config.json is check 3's to report
    return data if isinstance(data, dict) else {}


def processor_facts(model_dir: Path) -> tuple[str | None, str | None]:
    """The processor a directory names, as transformers finds it: its class, and the image token it places.

    Args:
        model_dir: the model directory.

    Returns:
        (``processor_class``, the image token's text): from processor_config.json, preprocessor_config.json and
        tokenizer_config.json (``image_token``, or ``extra_special_tokens``' ``image_token``), first found; None
        where none names one.
    """
    processor_class = image_token = None
    for name in PROCESSOR_FILES:
        data = _read_json(model_dir / name)
        extra = data.get("extra_special_tokens")
        token = data.get("image_token") or (extra.get("image_token") if isinstance(extra, dict) else None)
        if isinstance(token, dict):  # an AddedToken written out
            token = token.get("content")
        if processor_class is None and isinstance(data.get("processor_class"), str):
            processor_class = data["processor_class"]
        if image_token is None and isinstance(token, str):
            image_token = token
    return processor_class, image_token


def vision_rules(facts: ModelFiles) -> tuple[str | None, tuple[VisionKey, ...]]:
    """The family whose vision ids a directory must name, and those ids (the image token as its processor names it).

    Args:
        facts: the model directory's facts.

    Returns:
        (the family, its ``VisionKey`` rules); ``(None, ())`` for a family the doctor has no rule for.
    """
    processor_class, image_token = processor_facts(facts.model_dir)
    family = facts.model_type if facts.model_type in VISION_RULES else PROCESSOR_FAMILIES.get(processor_class or "")
    if family is None:
        return None, ()
    rules = VISION_RULES[family]
    if family != facts.model_type:  # mlx-vlm's defaults are those of the model_type it loads, not of this family
        rules = tuple(replace(r, default=None) for r in rules)
    if image_token:
        rules = tuple(replace(r, token=image_token) if r.image else r for r in rules)
    return family, rules


__all__ = ["PROCESSOR_FAMILIES", "VISION_RULES", "VisionKey", "processor_facts", "vision_rules"]
