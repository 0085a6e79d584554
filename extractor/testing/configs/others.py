"""Mistral 3 (Pixtral), PaddleOCR-VL and GLM-4V: their specials, eos declarations, configs and processors."""

from __future__ import annotations

from collections.abc import Mapping

from extractor.testing import templates
from extractor.testing.configs import base
from extractor.testing.configs.base import HIDDEN, Family, after, tiny_text

# ------------------------------------------------------------------------------------------ Mistral 3 / Pixtral
# Tekken's first 1,000 ids are its special tokens (real ids: <s> 1, </s> 2, [INST] 3, [/INST] 4, [IMG] 10,
# [IMG_BREAK] 12, [IMG_END] 13, [SYSTEM_PROMPT] 17 ...); the BPE follows from 1000 (real vocabulary 131,072).
_TEKKEN = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)
MISTRAL3_SPECIALS = after(0, _TEKKEN + tuple(f"<SPECIAL_{i}>" for i in range(len(_TEKKEN), 1000)))


def _mistral_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    if config_bug:  # conversions that lost every eos id (mlx-lm #1296): only the tokenizer's </s> is left
        return {}
    return {"text_config": ids["</s>"], "generation_config": ids["</s>"]}


def _mistral3_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "mistral",
        **tiny_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 1000000000.0,
        "sliding_window": None,
        "tie_word_embeddings": False,
        "hidden_act": "silu",
    }
    vision = base.tiny_vision(
        {
            "model_type": "pixtral",
            "num_hidden_layers": 1,
            "head_dim": 16,
            "num_attention_heads": 2,
            "image_size": 56,
            "patch_size": 14,
            "rope_theta": 10000.0,
            "num_channels": 3,
        }
    )
    return {
        "architectures": ["Mistral3ForConditionalGeneration"],
        "model_type": "mistral3",
        "text_config": text,
        "vision_config": vision,
        "image_token_index": ids["[IMG]"],
        "spatial_merge_size": 2,
        "multimodal_projector_bias": False,
        "projector_hidden_act": "gelu",
        "vision_feature_layer": -1,
        "vocab_size": spec.vocab_size,
    }


def _mistral3_files(spec: Family, ids: Mapping[str, int]) -> dict:
    # at most 56 px a side: 4 x 4 patches of 14, merged 2 x 2 -> 2 rows of 2 [IMG] tokens (+ breaks and end)
    image = base.image_processor(
        "PixtralImageProcessor",
        processor="PixtralProcessor",
        norm=base.CLIP_NORM,
        own={"patch_size": {"height": 14, "width": 14}, "size": {"longest_edge": 56}, "resample": 3},
    )
    return {
        "preprocessor_config.json": image,
        "processor_config.json": {
            "processor_class": "PixtralProcessor",
            "image_token": "[IMG]",
            "image_break_token": "[IMG_BREAK]",
            "image_end_token": "[IMG_END]",
            "patch_size": 14,
            "spatial_merge_size": 2,
        },
    }


# ------------------------------------------------------------------------------------------------- PaddleOCR-VL
# ERNIE-4.5's ids are not kept (real image tokens 100295 / 101305 / 101306 in a 103,424-row vocabulary): the
# specials follow the BPE.
PADDLE_HIDDEN = 1024
PADDLEOCR_VL_SPECIALS = after(
    2048,
    (
        "<unk>",
        "<s>",
        "</s>",
        "<|begin_of_sentence|>",
        "<|end_of_sentence|>",
        "<|IMAGE_PLACEHOLDER|>",
        "<|IMAGE_START|>",
        "<|IMAGE_END|>",
        "<|video_pad|>",
    ),
)


def _paddle_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    eos, end = ids["</s>"], ids["<|end_of_sentence|>"]
    if config_bug:
        return {"config": eos}
    return {"config": [eos, end], "generation_config": [eos, end]}


def _paddleocr_vl_config(spec: Family, ids: Mapping[str, int]) -> dict:
    # flat like Qwen2.5-VL: mlx-vlm builds text_config from the top-level keys. Hidden 1024: mlx-vlm 0.7.10's
    # projector hard-codes its output width (vision.py: context_dim=1024).
    return {
        "architectures": ["PaddleOCRVLForConditionalGeneration"],
        "model_type": "paddleocr_vl",
        **tiny_text(hidden_size=PADDLE_HIDDEN),
        "vocab_size": spec.vocab_size,
        "rope_theta": 500000.0,
        "hidden_act": "silu",
        "use_bias": False,
        "tie_word_embeddings": False,
        "pad_token_id": ids["<unk>"],
        "bos_token_id": ids["<s>"],
        "rope_scaling": {"rope_type": "default", "type": "default", "mrope_section": [4, 6, 6]},
        "image_token_id": ids["<|IMAGE_PLACEHOLDER|>"],
        "video_token_id": ids["<|video_pad|>"],
        "vision_start_token_id": ids["<|IMAGE_START|>"],
        "vision_end_token_id": ids["<|IMAGE_END|>"],
        "vision_config": base.tiny_vision(
            {
                "model_type": "paddleocr_vl",
                "num_hidden_layers": 1,
                "num_attention_heads": 2,
                "num_channels": 3,
                "image_size": 56,
                "patch_size": 14,
                "spatial_merge_size": 2,
                "hidden_act": "gelu_pytorch_tanh",
            }
        ),
    }


def _paddleocr_vl_files(spec: Family, ids: Mapping[str, int]) -> dict:
    patches = {"patch_size": 14, "temporal_patch_size": 1, "merge_size": 2}
    image = base.image_processor(
        "PaddleOCRVLImageProcessor",
        processor="PaddleOCRVLProcessor",
        norm=base.HALF_NORM,
        own={"min_pixels": 28 * 28, "max_pixels": 112 * 112, **patches},
    )
    return {"preprocessor_config.json": image}


# -------------------------------------------------------------------------------------------------------- GLM-4V
# GLM-4.1V / 4.5V ids (vocabulary 151,552): <|endoftext|> 151329, [gMASK] 151331, <sop> 151333, <|system|> 151335,
# <|user|> 151336, <|assistant|> 151337, <|observation|> 151338, <|begin_of_image|> 151339 ... <|image|> 151363.
GLM4V_SPECIALS = (
    *after(
        151329,
        (
            "<|endoftext|>",
            "[MASK]",
            "[gMASK]",
            "[sMASK]",
            "<sop>",
            "<eop>",
            "<|system|>",
            "<|user|>",
            "<|assistant|>",
            "<|observation|>",
            "<|begin_of_image|>",
            "<|end_of_image|>",
            "<|begin_of_video|>",
            "<|end_of_video|>",
        ),
    ),
    (151350, "<think>"),
    (151351, "</think>"),
    (151363, "<|image|>"),
    (151364, "<|video|>"),
)


def _glm_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    if config_bug:  # llama.cpp / LM Studio style: <|endoftext|> only, <|user|> not an end of generation
        return {"text_config": ids["<|endoftext|>"], "generation_config": ids["<|endoftext|>"]}
    eos = [ids["<|endoftext|>"], ids["<|user|>"], ids["<|observation|>"]]
    return {"text_config": eos, "generation_config": eos}


def _glm4v_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "glm4v_text",
        **tiny_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 10000.0,
        "attention_bias": True,
        "partial_rotary_factor": 0.5,
        "hidden_act": "silu",
        "rope_scaling": {"rope_type": "default", "mrope_section": [2, 3, 3]},  # 2 x 8 = half the head
        "pad_token_id": ids["<|endoftext|>"],
        "tie_word_embeddings": False,
    }
    vision = base.tiny_vision(
        {
            "model_type": "glm4v",
            "depth": 1,
            "num_heads": 2,
            "patch_size": 14,
            "image_size": 56,
            "in_channels": 3,
            "out_hidden_size": HIDDEN,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "hidden_act": "silu",
        }
    )
    return {
        "architectures": ["Glm4vForConditionalGeneration"],
        "model_type": "glm4v",
        "text_config": text,
        "vision_config": vision,
        "vocab_size": spec.vocab_size,
        "hidden_size": HIDDEN,
        "image_token_id": ids["<|image|>"],
        "image_token_index": ids["<|image|>"],
        "video_token_id": ids["<|video|>"],
        "video_token_index": ids["<|video|>"],
        "vision_start_token_id": ids["<|begin_of_image|>"],
        "vision_end_token_id": ids["<|end_of_image|>"],
        "pad_token_id": ids["<|endoftext|>"],
    }


def _glm4v_files(spec: Family, ids: Mapping[str, int]) -> dict:
    patches = {"patch_size": 14, "temporal_patch_size": 2, "merge_size": 2}
    image = base.image_processor(
        "Glm4vImageProcessor",
        processor="Glm4vProcessor",
        norm=base.CLIP_NORM,
        own={**patches, "size": {"shortest_edge": 28 * 28, "longest_edge": 112 * 112}},
    )
    return {"preprocessor_config.json": image}


MISTRAL3 = Family(
    name="mistral3",
    module="mistral3",
    specials=MISTRAL3_SPECIALS,
    vocab_size=3072,
    real_ids=True,
    end_of_turn="</s>",
    eos_token="</s>",
    bug_eos_token="</s>",
    bos_token="<s>",
    pad_token="<pad>",
    image_token="[IMG]",
    chat_template=templates.MISTRAL3,
    declared=_mistral_declared,
    config=_mistral3_config,
    processor_files=_mistral3_files,
    note="special ids 0-999 real; vocabulary 3,072 (real 131,072)",
)
PADDLEOCR_VL = Family(
    name="paddleocr_vl",
    module="paddleocr_vl",
    specials=PADDLEOCR_VL_SPECIALS,
    vocab_size=2112,
    real_ids=False,
    end_of_turn="<|end_of_sentence|>",
    eos_token="</s>",
    bug_eos_token="</s>",
    bos_token="<s>",
    pad_token="<unk>",
    image_token="<|IMAGE_PLACEHOLDER|>",
    chat_template=templates.PADDLEOCR_VL,
    declared=_paddle_declared,
    config=_paddleocr_vl_config,
    processor_files=_paddleocr_vl_files,
    tokenizer_extra={"cls_token": "<|begin_of_sentence|>", "sep_token": "<|end_of_sentence|>"},
    note="ERNIE ids not kept: specials at 2048-2056; vocabulary 2,112 (real 103,424)",
)
GLM4V = Family(
    name="glm4v",
    module="glm4v",
    specials=GLM4V_SPECIALS,
    vocab_size=151552,
    real_ids=True,
    end_of_turn="<|user|>",
    eos_token="<|endoftext|>",
    bug_eos_token="<|endoftext|>",
    bos_token=None,
    pad_token="<|endoftext|>",
    image_token="<|image|>",
    chat_template=templates.GLM4V,
    declared=_glm_declared,
    config=_glm4v_config,
    processor_files=_glm4v_files,
)
