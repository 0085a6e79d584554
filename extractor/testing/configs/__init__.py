"""The family table: per family, its special tokens, eos declarations, config.json and processor files (tiny).

One module per family group — :mod:`~extractor.testing.configs.qwen` (Qwen2.5-VL, Qwen3-VL),
:mod:`~extractor.testing.configs.gemma` (Gemma 3, Gemma 4), :mod:`~extractor.testing.configs.idefics` (Idefics3,
SmolVLM), :mod:`~extractor.testing.configs.others` (Mistral 3, PaddleOCR-VL, GLM-4V) — over the shared ``Family``
row and tiny shapes of :mod:`~extractor.testing.configs.base`. qwen3_5 is not in the table: the kit builds it
itself (:mod:`extractor.testing.qwen35`).
"""

from __future__ import annotations

from extractor.testing.configs.base import Family
from extractor.testing.configs.gemma import GEMMA3, GEMMA4
from extractor.testing.configs.idefics import IDEFICS3, SMOLVLM
from extractor.testing.configs.others import GLM4V, MISTRAL3, PADDLEOCR_VL
from extractor.testing.configs.qwen import QWEN2_5_VL, QWEN3_VL

# The table's order is the order families are listed and built in (family_names, the CLI's --family, the tests).
FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (QWEN2_5_VL, QWEN3_VL, GEMMA3, IDEFICS3, SMOLVLM, GEMMA4, MISTRAL3, PADDLEOCR_VL, GLM4V)
}
