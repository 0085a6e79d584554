"""Qwen2.5-VL and Qwen3-VL: the Qwen special-token block at its real ids, their config.json and processor files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from extractor.testing import templates
from extractor.testing.configs import base
from extractor.testing.configs.base import HIDDEN, Family, after, tiny_text

_QWEN_BLOCK = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<tool_call>",
    "</tool_call>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
)
QWEN_VL_SPECIALS = after(151643, _QWEN_BLOCK)  # Qwen2/2.5/3 ids: <|endoftext|> 151643, <|im_end|> 151645
QWEN_VL_VOCAB = 151936


def _qwen_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    end, eot = ids["<|im_end|>"], ids["<|endoftext|>"]
    if config_bug:  # e.g. OCR fine-tunes re-exported from the base model: <|endoftext|> only
        return {"config": eot, "generation_config": eot}
    return {"config": end, "generation_config": [end, eot]}


def _qwen_ids(ids: Mapping[str, int]) -> dict:
    return {
        "image_token_id": ids["<|image_pad|>"],
        "video_token_id": ids["<|video_pad|>"],
        "vision_start_token_id": ids["<|vision_start|>"],
        "vision_end_token_id": ids["<|vision_end|>"],
    }


def _qwen2_5_vl_config(spec: Family, ids: Mapping[str, int]) -> dict:
    # Qwen2.5-VL's config.json is flat: mlx-vlm builds text_config from the top-level keys.
    return {
        "architectures": ["Qwen2_5_VLForConditionalGeneration"],
        "model_type": "qwen2_5_vl",
        **tiny_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 1000000.0,
        "tie_word_embeddings": True,
        "hidden_act": "silu",
        "bos_token_id": ids["<|endoftext|>"],
        "rope_scaling": {"type": "mrope", "mrope_section": [4, 6, 6]},  # sums to head_dim / 2
        **_qwen_ids(ids),
        "vision_token_id": ids["<|vision_pad|>"],
        "vision_config": base.tiny_vision(
            {
                "model_type": "qwen2_5_vl",
                "depth": 1,
                "num_heads": 2,
                "out_hidden_size": HIDDEN,
                "patch_size": 14,
                "spatial_patch_size": 14,
                "spatial_merge_size": 2,
                "temporal_patch_size": 2,
                "window_size": 56,
                "fullatt_block_indexes": [0],
                "in_chans": 3,
                "in_channels": 3,
                "hidden_act": "silu",
                "tokens_per_second": 2,
            }
        ),
    }


# each family's processors: (patch side, processor_class, image_processor_type, normalisation, video_processor_type)
_PROCESSORS = {
    "qwen2_5_vl": (14, "Qwen2_5_VLProcessor", "Qwen2VLImageProcessor", base.CLIP_NORM, "Qwen2VLVideoProcessor"),
    "qwen3_vl": (16, "Qwen3VLProcessor", "Qwen2VLImageProcessorFast", base.HALF_NORM, "Qwen3VLVideoProcessor"),
}


def _qwen_files(spec: Family, ids: Mapping[str, int]) -> dict:
    """The family's preprocessor_config.json and video_preprocessor_config.json (its row of ``_PROCESSORS``)."""
    patch, processor_class, image_processor_type, norm, video_processor_type = _PROCESSORS[spec.name]
    side = 2 * patch * 4  # at most 4 x 4 merged patches: 16 image tokens per image
    least, most = (2 * patch) ** 2, side * side
    sizes = {"min_pixels": least, "max_pixels": most, "size": {"shortest_edge": least, "longest_edge": most}}
    image = base.image_processor(
        image_processor_type,
        processor=processor_class,
        norm=norm,
        own={"patch_size": patch, "temporal_patch_size": 2, "merge_size": 2, **sizes},
    )
    video = dict(image, video_processor_type=video_processor_type, fps=2, min_frames=2, max_frames=4)
    return {"preprocessor_config.json": image, "video_preprocessor_config.json": video}


def _qwen3_vl_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "qwen3_vl_text",
        **tiny_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 5000000.0,
        "tie_word_embeddings": True,
        "hidden_act": "silu",
        "attention_bias": False,
        "bos_token_id": ids["<|endoftext|>"],
        "rope_scaling": {"rope_type": "default", "mrope_interleaved": True, "mrope_section": [6, 5, 5]},
    }
    return {
        "architectures": ["Qwen3VLForConditionalGeneration"],
        "model_type": "qwen3_vl",
        "tie_word_embeddings": True,
        **_qwen_ids(ids),
        "text_config": text,
        # two vision layers, both feeding deepstack features into the decoder's layers 0 and 1
        "vision_config": base.tiny_vision(
            {
                "model_type": "qwen3_vl",
                "depth": 2,
                "num_heads": 2,
                "out_hidden_size": HIDDEN,
                "patch_size": 16,
                "spatial_merge_size": 2,
                "temporal_patch_size": 2,
                "in_channels": 3,
                "num_position_embeddings": 64,
                "deepstack_visual_indexes": [0, 1],
                "hidden_act": "gelu_pytorch_tanh",
            }
        ),
    }


QWEN2_5_VL = Family(
    name="qwen2_5_vl",
    module="qwen2_5_vl",
    specials=QWEN_VL_SPECIALS,
    vocab_size=QWEN_VL_VOCAB,
    real_ids=True,
    end_of_turn="<|im_end|>",
    eos_token="<|im_end|>",
    bug_eos_token="<|endoftext|>",
    bos_token=None,
    pad_token="<|endoftext|>",
    image_token="<|image_pad|>",
    chat_template=templates.QWEN2_5_VL,
    declared=_qwen_declared,
    config=_qwen2_5_vl_config,
    processor_files=_qwen_files,
)
# Qwen3-VL keeps Qwen2.5-VL's tokens and eos declarations: its template and config are its own (its processors: its
# row of _PROCESSORS)
QWEN3_VL = replace(
    QWEN2_5_VL,
    name="qwen3_vl",
    module="qwen3_vl",
    chat_template=templates.QWEN3_VL,
    config=_qwen3_vl_config,
)
