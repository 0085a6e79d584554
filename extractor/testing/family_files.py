"""Writing a family checkpoint's files: tokenizer, tokenizer_config, chat template, configs, random weights."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from extractor.testing.checkpoint import _write_json
from extractor.testing.configs.base import Family
from extractor.testing.tokenizer import added_token, decoded_token

FILLER = "<|x{}|>"  # never-produced vocabulary entries: every id below the vocabulary size decodes


def family_tokenizer(specials: tuple[tuple[int, str], ...], vocab_size: int) -> dict:
    """A tokenizer.json dict: the kit's trained BPE, ``specials`` at their ids, dense over ``vocab_size`` ids.

    The special tokens are both model-vocabulary entries and added tokens at the same ids (as real tokenizers
    ship them; an added token whose text is not in the vocabulary would be renumbered by ``tokenizers``). The
    trained entries take the lowest free ids, never-produced fillers the rest.
    """
    from extractor.testing.tokenizer import _trained_bpe

    data = json.loads(_trained_bpe())
    taken = {tid: content for tid, content in specials}
    trained = sorted(data["model"]["vocab"].items(), key=lambda item: item[1])
    free = (i for i in range(vocab_size) if i not in taken)
    vocab = {content: tid for tid, content in specials}
    for text, _ in trained:
        vocab[text] = next(free)
    for i in free:
        vocab[FILLER.format(i)] = i
    if len(vocab) != vocab_size:  # a special text equal to a trained entry, or ids past the vocabulary
        raise ValueError(f"family vocabulary is not dense over {vocab_size} ids ({len(vocab)} entries)")
    data["model"]["vocab"] = vocab
    data["added_tokens"] = [added_token(tid, content, special=True) for tid, content in sorted(specials)]
    return data


def _tokenizer_config(spec: Family, eos_token: str) -> dict:
    # transformers 5 takes the added tokens from this map (not only tokenizer.json's list): every special listed.
    decoder = {str(tid): decoded_token(content, special=True) for tid, content in sorted(spec.specials)}
    config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "add_bos_token": False,
        "add_eos_token": False,
        "bos_token": spec.bos_token,
        "eos_token": eos_token,
        "pad_token": spec.pad_token,
        "unk_token": None,
        "clean_up_tokenization_spaces": False,
        "model_max_length": 131072,
        "added_tokens_decoder": decoder,
    }
    config.update(spec.tokenizer_extra or {})
    return config


def write_family_files(
    path: Path, spec: Family, ids: Mapping[str, int], *, config_bug: bool
) -> tuple[dict, dict | None]:
    """Write everything but the weights; returns (config.json, generation_config.json or None) as written."""
    eos_token = spec.bug_eos_token if config_bug else spec.eos_token
    (path / "tokenizer.json").write_text(
        json.dumps(family_tokenizer(spec.specials, spec.vocab_size), ensure_ascii=False), encoding="utf-8"
    )
    _write_json(path / "tokenizer_config.json", _tokenizer_config(spec, eos_token))
    (path / "chat_template.jinja").write_text(spec.chat_template, encoding="utf-8")
    for name, data in spec.processor_files(spec, ids).items():
        _write_json(path / name, data)
    config = spec.config(spec, ids)
    declared = spec.declared(config_bug, ids)
    if "config" in declared:
        config["eos_token_id"] = declared["config"]
    if "text_config" in declared:
        config["text_config"]["eos_token_id"] = declared["text_config"]
    _write_json(path / "config.json", config)
    generation_file = path / "generation_config.json"
    generation = None
    if "generation_config" in declared:
        generation = {"eos_token_id": declared["generation_config"]}
        for key, token in (("bos_token_id", spec.bos_token), ("pad_token_id", spec.pad_token)):
            if token is not None:
                generation[key] = ids[token]
        _write_json(generation_file, generation)
    else:
        generation_file.unlink(missing_ok=True)  # rebuilding into an old directory must not keep a stale file
    return config, generation


def _instantiate(module_name: str, config: dict):
    import importlib

    from mlx_vlm.utils import update_module_configs

    module = importlib.import_module(f"mlx_vlm.models.{module_name}")
    cfg = json.loads(json.dumps(config))  # from_dict may change its argument
    model_config = module.ModelConfig.from_dict(cfg)
    model_config = update_module_configs(
        model_config, module, cfg, ["text", "vision", "perceiver", "projector", "audio"]
    )
    return module.Model(model_config)


def _random_weights(model, seed: int) -> list:
    """Numpy-drawn weights (a function of ``seed`` alone): matrices N(0, 1/fan_in), biases N(0, 0.02^2).

    Norm scales and every other vector (rotary frequencies, constants) keep their initial values.
    """
    import math

    import mlx.core as mx
    import numpy as np
    from mlx.utils import tree_flatten

    rng = np.random.default_rng(seed)
    out = []
    for name, value in tree_flatten(model.parameters()):
        if not mx.issubdtype(value.dtype, mx.floating):
            continue
        if value.ndim >= 2 and (name.endswith("weight") or name.endswith("embedding")):
            fan_in = math.prod(value.shape[1:])
            drawn = rng.standard_normal(value.shape, dtype=np.float32) / np.float32(math.sqrt(fan_in))
        elif name.endswith(".bias") and value.ndim == 1:
            drawn = (rng.standard_normal(value.shape) * 0.02).astype(np.float32)
        else:
            continue
        out.append((name, mx.array(drawn)))
    return out


def write_family_weights(path: Path, module_name: str, config: dict, *, seed: int) -> None:
    """Instantiate the family's real mlx-vlm model from ``config``, draw its weights, write model.safetensors.

    The file is then loaded back through mlx-vlm's own ``load_model`` (its ``sanitize`` steps: Gemma 3 ties its
    head to the embeddings whatever the file holds) and rewritten from what loaded, so that the weights a test reads
    from the file are exactly the model's.
    """
    from mlx_vlm.utils import load_model

    from extractor.testing.checkpoint import _write_weights

    model = _instantiate(module_name, config)
    model.load_weights(_random_weights(model, seed), strict=False)
    _write_weights(model, path)
    _write_weights(load_model(path), path)
