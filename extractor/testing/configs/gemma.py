"""Gemma 3 and Gemma 4: real low ids, image (and audio) tokens moved next to the BPE, their configs and processors."""

from __future__ import annotations

from collections.abc import Mapping

from extractor.testing import templates
from extractor.testing.configs import base
from extractor.testing.configs.base import HEAD_DIM, HIDDEN, Family, after, tiny_text

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
GEMMA3_SPECIALS = _GEMMA_LOW + after(2100, ("<start_of_image>", "<end_of_image>", "<image_soft_token>"))


def _gemma_declared(config_bug: bool, ids: Mapping[str, int]) -> dict:
    eos, end = ids["<eos>"], ids["<end_of_turn>" if "<end_of_turn>" in ids else "<turn|>"]
    if config_bug:  # a conversion that dropped generation_config.json's [1, 106]
        return {"config": eos, "text_config": eos}
    return {"config": [eos, end], "text_config": eos, "generation_config": [eos, end]}


def _gemma3_config(spec: Family, ids: Mapping[str, int]) -> dict:
    text = {
        "model_type": "gemma3_text",
        **tiny_text(),
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
    vision = base.tiny_vision(
        {
            "model_type": "siglip_vision_model",
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "patch_size": 14,
            "image_size": 56,
            "num_channels": 3,
            "layer_norm_eps": 1e-6,
        }
    )
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
    pan_and_scan = {
        "do_pan_and_scan": False,
        "pan_and_scan_min_crop_size": 256,
        "pan_and_scan_max_num_crops": 4,
        "pan_and_scan_min_ratio_to_activate": 1.2,
    }
    image = base.image_processor(
        "Gemma3ImageProcessor",
        processor="Gemma3Processor",
        norm=base.HALF_NORM,
        own={"size": {"height": 56, "width": 56}, "resample": 2, **pan_and_scan},
    )
    return {
        "preprocessor_config.json": image,
        "processor_config.json": {"processor_class": "Gemma3Processor", "image_seq_length": 4},
    }


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
    *after(
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
        **tiny_text(),
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
    vision = base.tiny_vision(
        {
            "model_type": "gemma4_vision",
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
    )
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


GEMMA3 = Family(
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
GEMMA4 = Family(
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
