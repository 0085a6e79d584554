"""The family table: per family, its special tokens, eos declarations, config.json and processor files (tiny).

Sizes: text hidden 64, 2 layers, 2 attention heads (1 key/value head) of 32, MLP 128; vision towers of width 32,
one or two layers; images resized by each family's own preprocessor to at most a few dozen pixels a side, so that a
page costs 4-16 image tokens. Official eos declarations are those of the families' public instruct checkpoints
(config.json / generation_config.json); the typical bug names only the tokenizer's eos.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from extractor.testing import templates

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
        name: the family's name (a :data:`FAMILIES` key).
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


def _after(first: int, texts: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """``texts`` at consecutive ids from ``first``."""
    return tuple((first + i, text) for i, text in enumerate(texts))


def _text(**more) -> dict:
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


# ------------------------------------------------------------------------------------------------------ Qwen-VL
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
QWEN_VL_SPECIALS = _after(151643, _QWEN_BLOCK)  # Qwen2/2.5/3 ids: <|endoftext|> 151643, <|im_end|> 151645
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
        **_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 1000000.0,
        "tie_word_embeddings": True,
        "hidden_act": "silu",
        "bos_token_id": ids["<|endoftext|>"],
        "rope_scaling": {"type": "mrope", "mrope_section": [4, 6, 6]},  # sums to head_dim / 2
        **_qwen_ids(ids),
        "vision_token_id": ids["<|vision_pad|>"],
        "vision_config": {
            "model_type": "qwen2_5_vl",
            "depth": 1,
            "hidden_size": 32,
            "intermediate_size": 64,
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
        },
    }


def _qwen_processor(
    *, patch: int, processor_class: str, image_processor_type: str, mean: list, std: list, video_processor_type: str
) -> dict:
    side = 2 * patch * 4  # at most 4 x 4 merged patches: 16 image tokens per image
    image = {
        "processor_class": processor_class,
        "image_processor_type": image_processor_type,
        "patch_size": patch,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "image_mean": mean,
        "image_std": std,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "do_convert_rgb": True,
        "min_pixels": (2 * patch) ** 2,
        "max_pixels": side * side,
        "size": {"shortest_edge": (2 * patch) ** 2, "longest_edge": side * side},
    }
    video = dict(image, video_processor_type=video_processor_type, fps=2, min_frames=2, max_frames=4)
    return {"preprocessor_config.json": image, "video_preprocessor_config.json": video}


_CLIP_MEAN, _CLIP_STD = [0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711]


def _qwen2_5_vl_files(spec: Family, ids: Mapping[str, int]) -> dict:
    return _qwen_processor(
        patch=14,
        processor_class="Qwen2_5_VLProcessor",
        image_processor_type="Qwen2VLImageProcessor",
        mean=_CLIP_MEAN,
        std=_CLIP_STD,
        video_processor_type="Qwen2VLVideoProcessor",
    )


def _qwen3_vl_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "qwen3_vl_text",
        **_text(),
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
        "vision_config": {
            "model_type": "qwen3_vl",
            "depth": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": HIDDEN,
            "patch_size": 16,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "in_channels": 3,
            "num_position_embeddings": 64,
            "deepstack_visual_indexes": [0, 1],
            "hidden_act": "gelu_pytorch_tanh",
        },
    }


def _qwen3_vl_files(spec: Family, ids: Mapping[str, int]) -> dict:
    return _qwen_processor(
        patch=16,
        processor_class="Qwen3VLProcessor",
        image_processor_type="Qwen2VLImageProcessorFast",
        mean=[0.5] * 3,
        std=[0.5] * 3,
        video_processor_type="Qwen3VLVideoProcessor",
    )


# ------------------------------------------------------------------------------------------------------ Gemma 3
# Gemma's low ids are real (<pad> 0, <eos> 1, <bos> 2, <unk> 3, <start_of_turn> 105, <end_of_turn> 106); its
# image tokens (255999, 256000, 262144 in a 262,208-row vocabulary) follow the BPE here instead.
_GEMMA_LOW = (
    (0, "<pad>"),
    (1, "<eos>"),
    (2, "<bos>"),
    (3, "<unk>"),
    (4, "<mask>"),
    (105, "<start_of_turn>"),
    (106, "<end_of_turn>"),
)
_GEMMA_VOCAB = 2176
GEMMA3_SPECIALS = _GEMMA_LOW + _after(2100, ("<start_of_image>", "<end_of_image>", "<image_soft_token>"))


def _gemma_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    eos, end = ids["<eos>"], ids["<end_of_turn>" if "<end_of_turn>" in ids else "<turn|>"]
    if config_bug:  # a conversion that dropped generation_config.json's [1, 106]
        return {"config": eos, "text_config": eos}
    return {"config": [eos, end], "text_config": eos, "generation_config": [eos, end]}


def _gemma3_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "gemma3_text",
        **_text(),
        "head_dim": HEAD_DIM,
        "vocab_size": spec.vocab_size,
        "query_pre_attn_scalar": HEAD_DIM,
        "sliding_window": 512,
        "sliding_window_pattern": 2,
        "rope_global_base_freq": 1000000.0,
        "rope_local_base_freq": 10000.0,
        "mm_tokens_per_image": 4,
        "rope_scaling": None,
    }
    vision = {
        "model_type": "siglip_vision_model",
        "num_hidden_layers": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_attention_heads": 2,
        "patch_size": 14,
        "image_size": 56,
        "num_channels": 3,
        "layer_norm_eps": 1e-6,
    }
    return {
        "architectures": ["Gemma3ForConditionalGeneration"],
        "model_type": "gemma3",
        "text_config": text,
        "vision_config": vision,
        "image_token_index": ids["<image_soft_token>"],
        "boi_token_index": ids["<start_of_image>"],
        "eoi_token_index": ids["<end_of_image>"],
        "mm_tokens_per_image": 4,
        "pad_token_id": ids["<pad>"],
        "vocab_size": spec.vocab_size,
        "hidden_size": HIDDEN,
    }


def _gemma3_files(spec: Family, ids: Mapping[str, int]) -> dict:
    image = {
        "image_processor_type": "Gemma3ImageProcessor",
        "processor_class": "Gemma3Processor",
        "do_resize": True,
        "size": {"height": 56, "width": 56},
        "resample": 2,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": [0.5] * 3,
        "image_std": [0.5] * 3,
        "do_convert_rgb": True,
        "do_pan_and_scan": False,
        "pan_and_scan_min_crop_size": 256,
        "pan_and_scan_max_num_crops": 4,
        "pan_and_scan_min_ratio_to_activate": 1.2,
    }
    return {
        "preprocessor_config.json": image,
        "processor_config.json": {"processor_class": "Gemma3Processor", "image_seq_length": 4},
    }


# -------------------------------------------------------------------------------------------- Idefics3 / SmolVLM
def _idefics_declared(config_bug: bool, ids: Mapping[str, int], base_eos: tuple[str, ...]) -> dict:
    base = [ids[text] for text in base_eos]
    if config_bug:  # the language model's eos only: <end_of_utterance> is in the template alone
        return {"text_config": base[0], "generation_config": base[0]}
    return {"text_config": base, "generation_config": [*base, ids["<end_of_utterance>"]]}


def _idefics_config(spec: Family, ids: Mapping[str, int], *, text_type: str, rope_theta: float) -> dict:
    if spec.pad_token is None:
        raise ValueError(f"{spec.module}: an Idefics3 family declares its pad token")
    text = {
        "model_type": text_type,
        **_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": rope_theta,
        "tie_word_embeddings": True,
        "pad_token_id": ids[spec.pad_token],
    }
    vision = {
        "model_type": "idefics3_vision" if spec.module == "idefics3" else "smolvlm_vision",
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_attention_heads": 2,
        "num_hidden_layers": 1,
        "patch_size": 14,
        "image_size": 56,
        "num_channels": 3,
        "layer_norm_eps": 1e-6,
    }
    return {
        "architectures": [
            "Idefics3ForConditionalGeneration" if spec.module == "idefics3" else "SmolVLMForConditionalGeneration"
        ],
        "model_type": spec.module,
        "image_token_id": ids["<image>"],
        "scale_factor": 2,
        "vocab_size": spec.vocab_size,
        "tie_word_embeddings": True,
        "text_config": text,
        "vision_config": vision,
    }


def _idefics_files(spec: Family, ids: Mapping[str, int]) -> dict:
    kind = "Idefics3" if spec.module == "idefics3" else "SmolVLM"
    image = {
        "image_processor_type": f"{kind}ImageProcessor",
        "processor_class": f"{kind}Processor",
        "do_resize": True,
        "size": {"longest_edge": 56},
        "max_image_size": {"longest_edge": 56},
        "do_image_splitting": False,
        "resample": 1,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": [0.5] * 3,
        "image_std": [0.5] * 3,
        "do_convert_rgb": True,
        "do_pad": True,
    }
    # (56 / 14)^2 patches / scale_factor^2 = 4 image tokens per image
    return {
        "preprocessor_config.json": image,
        "processor_config.json": {"processor_class": f"{kind}Processor", "image_seq_len": 4},
    }


_ROWS = tuple(f"<row_{r}_col_{c}>" for r in range(1, 7) for c in range(1, 7))
# SmolVLM-256M/500M-Instruct ids: <|endoftext|> 0, <|im_start|> 1, <|im_end|> 2, <global-img> 49152, the 36
# row/column tokens, <fake_token_around_image> 49189, <image> 49190, <end_of_utterance> 49279 (vocab 49,280).
SMOLVLM_SPECIALS = (
    (0, "<|endoftext|>"),
    (1, "<|im_start|>"),
    (2, "<|im_end|>"),
    *_after(49152, ("<global-img>", *_ROWS, "<fake_token_around_image>", "<image>")),
    (49279, "<end_of_utterance>"),
)
# Idefics3-8B's Llama-3 ids (128000-128258) are not kept: its specials follow the BPE.
IDEFICS3_SPECIALS = _after(
    2048,
    (
        "<|begin_of_text|>",
        "<|end_of_text|>",
        "<|eot_id|>",
        "<global-img>",
        *_ROWS,
        "<fake_token_around_image>",
        "<image>",
        "<end_of_utterance>",
    ),
)

FAMILIES: dict[str, Family] = {}


def _add(family: Family) -> None:
    FAMILIES[family.name] = family


_add(
    Family(
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
        processor_files=_qwen2_5_vl_files,
    )
)
_add(
    Family(
        name="qwen3_vl",
        module="qwen3_vl",
        specials=QWEN_VL_SPECIALS,
        vocab_size=QWEN_VL_VOCAB,
        real_ids=True,
        end_of_turn="<|im_end|>",
        eos_token="<|im_end|>",
        bug_eos_token="<|endoftext|>",
        bos_token=None,
        pad_token="<|endoftext|>",
        image_token="<|image_pad|>",
        chat_template=templates.QWEN3_VL,
        declared=_qwen_declared,
        config=_qwen3_vl_config,
        processor_files=_qwen3_vl_files,
    )
)
_add(
    Family(
        name="gemma3",
        module="gemma3",
        specials=GEMMA3_SPECIALS,
        vocab_size=_GEMMA_VOCAB,
        real_ids=False,
        end_of_turn="<end_of_turn>",
        eos_token="<eos>",
        bug_eos_token="<eos>",
        bos_token="<bos>",
        pad_token="<pad>",
        image_token="<image_soft_token>",
        chat_template=templates.GEMMA3,
        declared=_gemma_declared,
        config=_gemma3_config,
        processor_files=_gemma3_files,
        tokenizer_extra={
            "extra_special_tokens": {
                "image_token": "<image_soft_token>",
                "boi_token": "<start_of_image>",
                "eoi_token": "<end_of_image>",
            }
        },
        note="ids 0-106 real; image tokens moved to 2100-2102; vocabulary 2,176 (real 262,208)",
    )
)
_add(
    Family(
        name="idefics3",
        module="idefics3",
        specials=IDEFICS3_SPECIALS,
        vocab_size=2112,
        real_ids=False,
        end_of_turn="<end_of_utterance>",
        eos_token="<|end_of_text|>",
        bug_eos_token="<|end_of_text|>",
        bos_token="<|begin_of_text|>",
        pad_token="<|end_of_text|>",
        image_token="<image>",
        chat_template=templates.IDEFICS3,
        declared=lambda bug, ids: _idefics_declared(bug, ids, ("<|end_of_text|>", "<|eot_id|>")),
        config=lambda spec, ids: _idefics_config(spec, ids, text_type="llama", rope_theta=500000.0),
        processor_files=_idefics_files,
        note="Llama-3 ids (128000-128258) not kept: specials at 2048-2090; vocabulary 2,112 (real 128,259)",
    )
)
_add(
    Family(
        name="smolvlm",
        module="smolvlm",
        specials=SMOLVLM_SPECIALS,
        vocab_size=49280,
        real_ids=True,
        end_of_turn="<end_of_utterance>",
        eos_token="<end_of_utterance>",
        bug_eos_token="<|im_end|>",
        bos_token="<|im_start|>",
        pad_token="<|im_end|>",
        image_token="<image>",
        chat_template=templates.SMOLVLM,
        declared=lambda bug, ids: _idefics_declared(bug, ids, ("<|im_end|>",)),
        config=lambda spec, ids: _idefics_config(spec, ids, text_type="llama", rope_theta=100000.0),
        processor_files=_idefics_files,
    )
)


# ------------------------------------------------------------------------------------------------------ Gemma 4
# Gemma 4's low ids are real (<|turn> 105, <turn|> 106; <end_of_turn> is not in its vocabulary); the image and
# audio tokens (255999 <|image>, 258880 <|image|>, 258882 <image|>, ...) follow the BPE here.
GEMMA4_SPECIALS = (
    (0, "<pad>"),
    (1, "<eos>"),
    (2, "<bos>"),
    (3, "<unk>"),
    (4, "<mask>"),
    (105, "<|turn>"),
    (106, "<turn|>"),
    *_after(
        2100,
        (
            "<|image>",
            "<|image|>",
            "<image|>",
            "<|audio>",
            "<|audio|>",
            "<audio|>",
            "<|video|>",
            "<|channel>",
            "<channel|>",
            "<|think|>",
        ),
    ),
)


def _gemma4_config(spec: Family, ids: Mapping[str, int]) -> dict:
    rope = {
        "full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1000000.0, "rope_type": "proportional"},
        "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"},
    }
    text = {
        "model_type": "gemma4_text",
        **_text(),
        "global_head_dim": HEAD_DIM,
        "vocab_size": spec.vocab_size,
        "vocab_size_per_layer_input": spec.vocab_size,
        "hidden_size_per_layer_input": 16,
        "num_kv_shared_layers": 0,
        "sliding_window": 512,
        "sliding_window_pattern": 2,
        "layer_types": ["sliding_attention", "full_attention"],
        "rope_parameters": rope,
        "final_logit_softcapping": 30.0,
        "use_double_wide_mlp": False,
        "tie_word_embeddings": True,
        "hidden_activation": "gelu_pytorch_tanh",
        "pad_token_id": ids["<pad>"],
        # as the released checkpoints: image tokens attend to each other both ways, so the model forbids
        # chunked prefill of a prompt with images (mlx-vlm's chunked_prefill_policy)
        "use_bidirectional_attention": "vision",
    }
    vision = {
        "model_type": "gemma4_vision",
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "global_head_dim": 16,
        "patch_size": 16,
        "pooling_kernel_size": 2,
        "position_embedding_size": 64,
        "default_output_length": 4,
        "rope_parameters": {"rope_theta": 100.0, "rope_type": "default"},
    }
    return {
        "architectures": ["Gemma4ForConditionalGeneration"],
        "model_type": "gemma4",
        "text_config": text,
        "vision_config": vision,
        "audio_config": None,
        "vocab_size": spec.vocab_size,
        "hidden_size": HIDDEN,
        "image_token_id": ids["<|image|>"],
        "boi_token_id": ids["<|image>"],
        "eoi_token_id": ids["<image|>"],
        "audio_token_id": ids["<|audio|>"],
        "boa_token_id": ids["<|audio>"],
        "eoa_token_id": ids["<audio|>"],
        "video_token_id": ids["<|video|>"],
        "pad_token_id": ids["<pad>"],
        "vision_soft_tokens_per_image": 4,
        "tie_word_embeddings": True,
    }


def _gemma4_files(spec: Family, ids: Mapping[str, int]) -> dict:
    # at most 4 soft tokens per image: 16 patches of 16 px, pooled 2 x 2
    image = {
        "patch_size": 16,
        "max_soft_tokens": 4,
        "pooling_kernel_size": 2,
        "do_resize": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": False,
        "image_mean": [0.0] * 3,
        "image_std": [1.0] * 3,
    }
    return {
        "processor_config.json": {
            "processor_class": "Gemma4Processor",
            "image_seq_length": 4,
            "image_processor": dict(image, image_processor_type="Gemma4ImageProcessor"),
        }
    }


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
MISTRAL3_SPECIALS = _after(0, _TEKKEN + tuple(f"<SPECIAL_{i}>" for i in range(len(_TEKKEN), 1000)))


def _mistral_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    if config_bug:  # conversions that lost every eos id (mlx-lm #1296): only the tokenizer's </s> is left
        return {}
    return {"text_config": ids["</s>"], "generation_config": ids["</s>"]}


def _mistral3_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "mistral",
        **_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 1000000000.0,
        "sliding_window": None,
        "tie_word_embeddings": False,
        "hidden_act": "silu",
    }
    vision = {
        "model_type": "pixtral",
        "num_hidden_layers": 1,
        "hidden_size": 32,
        "head_dim": 16,
        "intermediate_size": 64,
        "num_attention_heads": 2,
        "image_size": 56,
        "patch_size": 14,
        "rope_theta": 10000.0,
        "num_channels": 3,
    }
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
    image = {
        "image_processor_type": "PixtralImageProcessor",
        "processor_class": "PixtralProcessor",
        "patch_size": {"height": 14, "width": 14},
        "size": {"longest_edge": 56},
        "do_resize": True,
        "resample": 3,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": _CLIP_MEAN,
        "image_std": _CLIP_STD,
        "do_convert_rgb": True,
    }
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


_add(
    Family(
        name="gemma4",
        module="gemma4",
        specials=GEMMA4_SPECIALS,
        vocab_size=_GEMMA_VOCAB,
        real_ids=False,
        end_of_turn="<turn|>",
        eos_token="<eos>",
        bug_eos_token="<eos>",
        bos_token="<bos>",
        pad_token="<pad>",
        image_token="<|image|>",
        chat_template=templates.GEMMA4,
        declared=_gemma_declared,
        config=_gemma4_config,
        processor_files=_gemma4_files,
        tokenizer_extra={
            "extra_special_tokens": {
                "image_token": "<|image|>",
                "boi_token": "<|image>",
                "eoi_token": "<image|>",
                "audio_token": "<|audio|>",
                "boa_token": "<|audio>",
                "eoa_token": "<audio|>",
                "video_token": "<|video|>",
            }
        },
        note="ids 0-106 real; image/audio/channel tokens moved to 2100-2109; vocabulary 2,176 (real 262,144)",
    )
)
_add(
    Family(
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
)


# ------------------------------------------------------------------------------------------------- PaddleOCR-VL
# ERNIE-4.5's ids are not kept (real image tokens 100295 / 101305 / 101306 in a 103,424-row vocabulary): the
# specials follow the BPE.
PADDLE_HIDDEN = 1024
PADDLEOCR_VL_SPECIALS = _after(
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
        **_text(hidden_size=PADDLE_HIDDEN),
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
        "vision_config": {
            "model_type": "paddleocr_vl",
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "num_channels": 3,
            "image_size": 56,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "hidden_act": "gelu_pytorch_tanh",
        },
    }


def _paddleocr_vl_files(spec: Family, ids: Mapping[str, int]) -> dict:
    image = {
        "image_processor_type": "PaddleOCRVLImageProcessor",
        "processor_class": "PaddleOCRVLProcessor",
        "min_pixels": 28 * 28,
        "max_pixels": 112 * 112,
        "patch_size": 14,
        "temporal_patch_size": 1,
        "merge_size": 2,
        "image_mean": [0.5] * 3,
        "image_std": [0.5] * 3,
        "do_resize": True,
        "do_rescale": True,
        "do_normalize": True,
        "do_convert_rgb": True,
    }
    return {"preprocessor_config.json": image}


# -------------------------------------------------------------------------------------------------------- GLM-4V
# GLM-4.1V / 4.5V ids (vocabulary 151,552): <|endoftext|> 151329, [gMASK] 151331, <sop> 151333, <|system|> 151335,
# <|user|> 151336, <|assistant|> 151337, <|observation|> 151338, <|begin_of_image|> 151339 ... <|image|> 151363.
GLM4V_SPECIALS = (
    *_after(
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
        **_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": 10000.0,
        "attention_bias": True,
        "partial_rotary_factor": 0.5,
        "hidden_act": "silu",
        "rope_scaling": {"rope_type": "default", "mrope_section": [2, 3, 3]},  # 2 x 8 = half the head
        "pad_token_id": ids["<|endoftext|>"],
        "tie_word_embeddings": False,
    }
    vision = {
        "model_type": "glm4v",
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "patch_size": 14,
        "image_size": 56,
        "in_channels": 3,
        "out_hidden_size": HIDDEN,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "hidden_act": "silu",
    }
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
    image = {
        "image_processor_type": "Glm4vImageProcessor",
        "processor_class": "Glm4vProcessor",
        "patch_size": 14,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "image_mean": _CLIP_MEAN,
        "image_std": _CLIP_STD,
        "do_resize": True,
        "do_rescale": True,
        "do_normalize": True,
        "do_convert_rgb": True,
        "size": {"shortest_edge": 28 * 28, "longest_edge": 112 * 112},
    }
    return {"preprocessor_config.json": image}


_add(
    Family(
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
)
_add(
    Family(
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
)
