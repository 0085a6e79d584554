"""The files of a tiny ``qwen3_5`` checkpoint other than its weights: config.json, chat template, tokenizer, processors.

A checkpoint's shape (:data:`SIZES`, hidden size and layers, the head counts each size implies), its config.json
with the eos declarations a test asks for, the Qwen3.5-like chat template (:data:`CHAT_TEMPLATE`), preprocessor
configs that keep images tiny, and generation_config.json (or none: :data:`MISSING`). The builders that add the
weights and program.json: :mod:`extractor.testing.qwen35`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.testing.checkpoint import EosValue, _write_json
from extractor.testing.register import FEATURE_RATIO
from extractor.testing.tokenizer import (
    ENDOFTEXT,
    IMAGE_PAD,
    VIDEO_PAD,
    VISION_END,
    VISION_START,
    VOCAB_SIZE,
    _base_tokenizer,
    _tokenizer_config,
    _write_tokenizer,
)

# 32, not 64: the tied 248,320-row lm_head is most of a decode step's work, so half its width is ~15 % less CPU
# per tiny-model document (measured side by side on the sample invoice), margins still above MIN_LOGIT_MARGIN.
HIDDEN_SIZE = 32
SIZES: dict[str, tuple[int, int]] = {"small": (HIDDEN_SIZE, 2), "mid": (768, 8)}  # (hidden size, layers)


class _Missing:
    """Type of :data:`MISSING`: "do not write this file at all"."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self) -> str:
        return "MISSING"


MISSING = _Missing()
"""Sentinel for ``generation_eos``: write no generation_config.json."""

CHAT_TEMPLATE = r"""{%- macro render_content(content) -%}
{%- if content is string -%}{{- content -}}
{%- elif content is not none -%}
{%- for item in content -%}
{%- if item.type == 'image' or item.type == 'image_url' or item.type == 'input_image' -%}<|vision_start|><|image_pad|><|vision_end|>
{%- elif item.type == 'video' or item.type == 'video_url' -%}<|vision_start|><|video_pad|><|vision_end|>
{%- elif item.text is defined and item.text -%}{{- item.text -}}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{%- endmacro -%}
{%- for message in messages -%}
{%- if message.role == 'assistant' -%}
{{- '<|im_start|>assistant\n' + render_content(message.content) -}}
{%- if message.tool_calls is defined and message.tool_calls -%}
{%- for tc in message.tool_calls -%}
{%- set fn = tc.function if tc.function is defined else tc -%}
{{- '\n<tool_call>\n{"name": "' + fn.name + '", "arguments": ' + (fn.arguments if fn.arguments is string else fn.arguments | tojson) + '}\n</tool_call>' -}}
{%- endfor -%}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- elif message.role == 'tool' -%}
{{- '<|im_start|>user\n<tool_response>\n' + render_content(message.content) + '\n</tool_response><|im_end|>\n' -}}
{%- else -%}
{{- '<|im_start|>' + message.role + '\n' + render_content(message.content) + '<|im_end|>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|im_start|>assistant\n' -}}
{%- if enable_thinking is defined and enable_thinking is false -%}
{{- '<think>\n\n</think>\n\n' -}}
{%- else -%}
{{- '<think>\n' -}}
{%- endif -%}
{%- endif -%}"""


def _model_size(size: str, hidden_size: int | None, layers: int | None) -> tuple[int, int]:
    """(hidden size, layers) of a size preset with overrides; UsageError for a shape the builder cannot make."""
    if size not in SIZES:
        raise UsageError(f"size: expected one of {', '.join(SIZES)}, got {size!r}")
    hidden = SIZES[size][0] if hidden_size is None else hidden_size
    depth = SIZES[size][1] if layers is None else layers
    if not isinstance(hidden, int) or isinstance(hidden, bool) or hidden < 8 or (hidden >= 128 and hidden % 128):
        raise UsageError(f"hidden_size: expected 8 to 127, or a multiple of 128, got {hidden!r}")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 2:
        raise UsageError(f"layers: expected an integer of at least 2, got {depth!r}")
    return hidden, depth


def _text_dims(hidden_size: int) -> dict:
    """Head counts and widths: the tiny test shape below hidden 128, Qwen3.5-like 128-wide heads above."""
    if hidden_size < 128:
        return {
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 32,
            "linear_num_key_heads": 1,
            "linear_num_value_heads": 2,
            "linear_key_head_dim": 16,
            "linear_value_head_dim": 16,
            "intermediate_size": 2 * hidden_size,
            "mrope_section": [2, 1, 1],
        }  # rotary 8 = 2 x (2+1+1)
    heads = hidden_size // 128
    return {
        "num_attention_heads": heads,
        "num_key_value_heads": 2 if heads % 2 == 0 else 1,
        "head_dim": 128,
        "linear_num_key_heads": heads,
        "linear_num_value_heads": 2 * heads,
        "linear_key_head_dim": 128,
        "linear_value_head_dim": 128,
        "intermediate_size": max(128, 8 * hidden_size // 3 // 64 * 64),
        "mrope_section": [6, 5, 5],
    }  # rotary 32 = 2 x (6+5+5)


def _value_heads(hidden_size: int, pairs: int) -> int:
    """Linear-attention value heads: the size's own, or enough for FEATURE_RATIO features per register pair."""
    dims = _text_dims(hidden_size)
    group = dims["linear_num_key_heads"]  # value heads must be a multiple of the key heads
    needed = math.ceil(FEATURE_RATIO * pairs / dims["linear_value_head_dim"])
    return max(dims["linear_num_value_heads"], -(-needed // group) * group)


def _model_config(
    *,
    config_eos: EosValue,
    text_eos: EosValue,
    vision_ids: bool,
    hidden_size: int = HIDDEN_SIZE,
    layers: int = 2,
    value_heads: int | None = None,
) -> dict:
    dims = _text_dims(hidden_size)
    text = {
        "model_type": "qwen3_5_text",
        "hidden_size": hidden_size,
        "intermediate_size": dims["intermediate_size"],
        "num_hidden_layers": layers,
        # layer i is full attention iff (i+1) % interval == 0: layer 0 is always linear (the register)
        "full_attention_interval": 4 if layers >= 4 else 2,
        "num_attention_heads": dims["num_attention_heads"],
        "num_key_value_heads": dims["num_key_value_heads"],
        "head_dim": dims["head_dim"],
        "linear_num_key_heads": dims["linear_num_key_heads"],
        "linear_num_value_heads": value_heads or dims["linear_num_value_heads"],
        "linear_key_head_dim": dims["linear_key_head_dim"],
        "linear_value_head_dim": dims["linear_value_head_dim"],
        "linear_conv_kernel_dim": 4,
        "rms_norm_eps": 1e-6,
        "vocab_size": VOCAB_SIZE,
        "max_position_embeddings": 32768,
        "tie_word_embeddings": True,
        "attention_bias": False,
        "hidden_act": "silu",
        # rotary dim = head_dim * 0.25 = 2 x sum(mrope_section)
        "rope_parameters": {
            "rope_type": "default",
            "rope_theta": 10000000,
            "partial_rotary_factor": 0.25,
            "mrope_interleaved": True,
            "mrope_section": dims["mrope_section"],
        },
    }
    if text_eos is not None:
        text["eos_token_id"] = text_eos
    vision = {
        "model_type": "qwen3_5",
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": hidden_size,
        "patch_size": 16,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "in_channels": 3,
        "num_position_embeddings": 64,  # a perfect square (8 x 8 grid)
        "deepstack_visual_indexes": [],  # qwen3_5 rejects deepstack
        "hidden_act": "gelu_pytorch_tanh",
    }
    cfg: dict = {
        "architectures": ["Qwen3_5ForConditionalGeneration"],
        "model_type": "qwen3_5",
        "image_token_id": IMAGE_PAD,
        "video_token_id": VIDEO_PAD,
    }
    if vision_ids:
        # mlx-vlm's defaults are 248045/248046 (== <|im_start|>/<|im_end|>): without these keys the mRoPE
        # image positions are computed from the wrong tokens.
        cfg["vision_start_token_id"] = VISION_START
        cfg["vision_end_token_id"] = VISION_END
    cfg.update({"tie_word_embeddings": True, "vocab_size": VOCAB_SIZE, "text_config": text, "vision_config": vision})
    if config_eos is not None:
        cfg["eos_token_id"] = config_eos
    return cfg


def _preprocessor_configs() -> tuple[dict, dict]:
    image = {
        "processor_class": "Qwen3VLProcessor",
        "image_processor_type": "Qwen2VLImageProcessorFast",
        "patch_size": 16,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "image_mean": [0.5, 0.5, 0.5],
        "image_std": [0.5, 0.5, 0.5],
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "do_convert_rgb": True,
        # at most 128 x 128 px -> 8 x 8 patches -> 16 image tokens, whatever the input image size
        "size": {"shortest_edge": 32 * 32, "longest_edge": 128 * 128},
    }
    video = dict(image, video_processor_type="Qwen3VLVideoProcessor", fps=2, min_frames=2, max_frames=4)
    return image, video


def _write_common(path: Path, settings: Mapping[str, Any]) -> None:
    """Write every file but the weights and program.json (config.json with the default text shape), as the build
    options say (``settings``: checked, in program.json's shape, ``qwen35._settings``)."""
    path.mkdir(parents=True, exist_ok=True)
    _write_tokenizer(path, _base_tokenizer()["model"]["vocab"])
    tokenizer_config = _tokenizer_config(settings["tokenizer_eos"], ids_ok=settings["tokenizer_ids_ok"])
    _write_json(path / "tokenizer_config.json", tokenizer_config)
    (path / "chat_template.jinja").write_text(CHAT_TEMPLATE, encoding="utf-8")
    image, video = _preprocessor_configs()
    _write_json(path / "preprocessor_config.json", image)
    _write_json(path / "video_preprocessor_config.json", video)
    config = _model_config(
        config_eos=settings["config_eos"], text_eos=settings["text_eos"], vision_ids=settings["vision_ids"]
    )
    _write_json(path / "config.json", config)
    gen_file = path / "generation_config.json"
    if not settings["generation_config"]:
        gen_file.unlink(missing_ok=True)  # rebuilding into an old directory must not keep a stale file
    else:
        gen: dict = {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT}
        if settings["generation_eos"] is not None:
            gen["eos_token_id"] = settings["generation_eos"]
        _write_json(gen_file, gen)
