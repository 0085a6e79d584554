"""Idefics3 and SmolVLM: their specials (SmolVLM's real ids, Idefics3's after the BPE), configs and processors."""

from __future__ import annotations

from collections.abc import Mapping

from extractor.testing import templates
from extractor.testing.configs import base
from extractor.testing.configs.base import Family, after, tiny_text


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
        **tiny_text(),
        "vocab_size": spec.vocab_size,
        "rope_theta": rope_theta,
        "tie_word_embeddings": True,
        "pad_token_id": ids[spec.pad_token],
    }
    vision = base.tiny_vision(
        {
            "model_type": "idefics3_vision" if spec.module == "idefics3" else "smolvlm_vision",
            "num_attention_heads": 2,
            "num_hidden_layers": 1,
            "patch_size": 14,
            "image_size": 56,
            "num_channels": 3,
            "layer_norm_eps": 1e-6,
        }
    )
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
    sizes = {"size": {"longest_edge": 56}, "max_image_size": {"longest_edge": 56}, "do_image_splitting": False}
    image = base.image_processor(
        f"{kind}ImageProcessor",
        processor=f"{kind}Processor",
        norm=base.HALF_NORM,
        own={**sizes, "resample": 1, "do_pad": True},
    )
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
    *after(49152, ("<global-img>", *_ROWS, "<fake_token_around_image>", "<image>")),
    (49279, "<end_of_utterance>"),
)
# Idefics3-8B's Llama-3 ids (128000-128258) are not kept: its specials follow the BPE.
IDEFICS3_SPECIALS = after(
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


IDEFICS3 = Family(
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
SMOLVLM = Family(
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
