"""The testing kit: tiny, offline checkpoints of real mlx-vlm architectures, for tests without weights.

Modules:

* :mod:`~extractor.testing.qwen35` — ``qwen3_5`` checkpoints: :func:`build_random_model` (random weights) and
  :func:`build_scripted_model` (weights programmed to emit a chosen answer, then a chosen continuation forever),
  :func:`read_tiny_model`, :class:`TinyModel`. Their files but the weights (config.json shapes :data:`SIZES`,
  :data:`CHAT_TEMPLATE`, preprocessors, :data:`MISSING`): :mod:`~extractor.testing.qwen35_files`.
* :mod:`~extractor.testing.families` — :func:`build_family_model`: tiny random checkpoints of every model family
  the kit knows (:data:`FAMILIES`: qwen2_5_vl, qwen3_vl, gemma3, gemma4, idefics3, smolvlm, mistral3, paddleocr_vl,
  glm4v; and qwen3_5), each with its real special tokens and chat template, and its typical eos bug as an option
  (``config_bug=True``).
  Per-family configs: :mod:`~extractor.testing.configs`; templates: :mod:`~extractor.testing.templates`.
* :mod:`~extractor.testing.forcing` — :func:`force_answer`: a logits processor forcing an answer's tokens, then an
  end token forever, on any family (random weights included).
* :mod:`~extractor.testing.tokenizer` — the kit's byte-level BPE and the Qwen3.5 added-token block.
* :mod:`~extractor.testing.script` — the tokens a scripted model emits (plain chunks, or what a constrained
  jump-forward runtime sees for a schema).
* :mod:`~extractor.testing.register` — programming a qwen3_5 model's weights so that it follows a script.
* :mod:`~extractor.testing.checkpoint` — writing a checkpoint's files (configs, random float32 weights).
* :mod:`~extractor.testing.samples` — :data:`SAMPLE_INVOICE` and its compact JSON text.
* :mod:`~extractor.testing.cli` — ``python -m extractor.testing DIR ...`` (see there).

Everything heavy (mlx, mlx_vlm, numpy, tokenizers, transformers, llguidance) is imported lazily, inside the
functions that need it: importing this package is cheap.
"""

from extractor.testing.checkpoint import EosValue
from extractor.testing.cli import main
from extractor.testing.families import FAMILIES, FamilyModel, build_family_model, family_names, read_family_model
from extractor.testing.forcing import ForcedAnswer, force_answer
from extractor.testing.qwen35 import (
    PROGRAM_FILE,
    TinyModel,
    build_random_model,
    build_scripted_model,
    read_tiny_model,
    scripted_answer_ids,
)
from extractor.testing.qwen35_files import CHAT_TEMPLATE, HIDDEN_SIZE, MISSING, SIZES
from extractor.testing.register import FEATURE_RATIO, LOGIT_SCALE, MIN_LOGIT_MARGIN
from extractor.testing.samples import SAMPLE_INVOICE, SAMPLE_INVOICE_ANSWER
from extractor.testing.script import MARKER_TEXT, THEN_CHOICES, WHITESPACE_TEXT, SchemaValue, lean_answer
from extractor.testing.tokenizer import (
    ADDED_TOKENS,
    CHUNK_BASE_ID,
    CHUNK_CHARS,
    ENDOFTEXT,
    FIRST_ADDED_ID,
    IM_END,
    IM_START,
    IMAGE_PAD,
    TOKEN_IDS,
    TRAINED_VOCAB_LIMIT,
    VIDEO_PAD,
    VISION_END,
    VISION_START,
    VOCAB_SIZE,
)

__all__ = [
    "ADDED_TOKENS",
    "CHAT_TEMPLATE",
    "CHUNK_BASE_ID",
    "CHUNK_CHARS",
    "ENDOFTEXT",
    "FEATURE_RATIO",
    "FIRST_ADDED_ID",
    "HIDDEN_SIZE",
    "IMAGE_PAD",
    "IM_END",
    "IM_START",
    "LOGIT_SCALE",
    "MARKER_TEXT",
    "MIN_LOGIT_MARGIN",
    "MISSING",
    "PROGRAM_FILE",
    "SAMPLE_INVOICE",
    "SAMPLE_INVOICE_ANSWER",
    "SIZES",
    "THEN_CHOICES",
    "TOKEN_IDS",
    "TRAINED_VOCAB_LIMIT",
    "VIDEO_PAD",
    "VISION_END",
    "VISION_START",
    "VOCAB_SIZE",
    "WHITESPACE_TEXT",
    "EosValue",
    "SchemaValue",
    "TinyModel",
    "build_random_model",
    "build_scripted_model",
    "main",
    "read_tiny_model",
    "scripted_answer_ids",
    "FAMILIES",
    "FamilyModel",
    "build_family_model",
    "family_names",
    "read_family_model",
    "ForcedAnswer",
    "force_answer",
    "lean_answer",
]
