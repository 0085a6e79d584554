"""Tiny, offline checkpoints of the real mlx-vlm ``qwen3_5`` architecture, for tests without weights.

The models built here are loadable by the real ``mlx_vlm.load`` (and ``python -m mlx_vlm.server``), use the
real Qwen3.5 special-token ids (``<|endoftext|>`` 248044, ``<|im_start|>`` 248045, ``<|im_end|>`` 248046,
``<|vision_start|>`` 248053, ``<|vision_end|>`` 248054, ``<|image_pad|>`` 248056), hidden size 64, a vocabulary
of 248,320 and a preprocessor that keeps images tiny (at most 128 x 128 px, 16 image tokens). A directory is
about 36 MB (random) or 67 MB (scripted) and builds in about a second.

Two kinds:

* :func:`build_random_model` — random weights: generates arbitrary tokens (for plumbing, timing of a pipeline,
  constrained decoding).
* :func:`build_scripted_model` — weights programmed so that *any* prompt (and any image), decoded greedily or
  sampled at temperature 1 through ``mlx_vlm.generate`` / ``stream_generate`` / ``generate_step``, emits a
  chosen answer text exactly, then a chosen continuation forever (``then``): ``<|im_end|>`` (the real
  end-of-turn token), ``<|endoftext|>``, a whitespace token, a repeated line, or the *text* ``<|im_end|>``
  spelled with ordinary tokens. With the default eos settings (config.json ``eos_token_id`` 248044 only,
  tokenizer ``eos_token`` ``<|endoftext|>``) mlx-vlm 0.7.10 does not stop on ``<|im_end|>``: plain
  ``generate`` runs to ``max_tokens``, which reproduces the never-stopping bug.

How the scripted model works: the answer is cut into chunks of a few characters that are all distinct
strings; each chunk replaces one unused filler entry of the byte-level BPE vocabulary, so every scripted token
has exactly one successor. Every residual write (attention/linear-attention output and MLP down projection)
is zeroed, so the last hidden state is the normalised embedding of the current token; each scripted token
gets a random unit vector as embedding (all other tokens share one default vector, which leads to the first
chunk), and the lm_head row of its successor holds that vector times a large scale. The minimum logit margin
is checked at build time (:class:`~extractor.errors.ModelError` if too small); it is 200-400 for answers
of 20 to 40,000 characters, so sampling at temperature 1 picks the scripted token with probability 1.

Each directory also holds ``program.json`` (what it was built to emit, and the build options);
:func:`read_tiny_model` reads it back. :data:`SAMPLE_INVOICE` / :data:`SAMPLE_INVOICE_ANSWER` are a realistic
invoice (valid against schemas/invoice.schema.json) and its compact JSON text, shared by tests and benchmarks.

Caveats: the successor depends only on the last token, so a prompt whose *last* token is itself a scripted
token (e.g. a raw prompt ending in ``<|im_end|>`` with ``then="im_end"``, or in a character that a very short
answer reuses as its own token) continues from there; every chat-template prompt ends in a newline and is
fine. Every scripted token needs a text of its own, so a one-character answer and a one-character
``repeat_line`` must differ.

Shell::

    python -m extractor.testing DIR [--script FILE] [--then im_end|whitespace|repeat|endoftext|marker_text]
                                    [--config-eos ID ...] [--text-eos ID ...] [--generation-eos ID ...]
                                    [--tokenizer-eos TOKEN] [--no-vision-ids] [--seed N]

Without ``--script`` it builds a random model; ``--script FILE`` builds a scripted model whose answer is the
file's text (UTF-8, trailing newlines dropped; a ``.json`` file is compacted). ``--config-eos``/``--text-eos`` take one or more ids, or
``none`` to omit the key; ``--generation-eos`` writes generation_config.json (``none``: without an eos key;
not given: no file). It prints the directory and a one-line summary.

mlx, mlx_vlm, numpy and tokenizers are imported lazily, inside the functions that need them.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

from extractor.errors import ExtractorError, ModelError, UsageError

ENDOFTEXT = 248044
IM_START = 248045
IM_END = 248046
VISION_START = 248053
VISION_END = 248054
IMAGE_PAD = 248056
VIDEO_PAD = 248057

VOCAB_SIZE = 248320  # real Qwen3.5 embedding rows
HIDDEN_SIZE = 64
FIRST_ADDED_ID = ENDOFTEXT  # the byte-level BPE vocabulary is dense over 0..248043
CHUNK_BASE_ID = 1000  # scripted chunks take the filler ids 1000, 1001, ... (the trained BPE ends below 600)
CHUNK_CHARS = 6  # preferred scripted chunk length: ~280 tokens for a 1,500-character answer
LOGIT_SCALE = 100.0
MIN_LOGIT_MARGIN = 100.0  # exp(-100) per wrong token: temperature-1 sampling never leaves the script
PROGRAM_FILE = "program.json"
THEN_CHOICES = ("im_end", "endoftext", "whitespace", "repeat", "marker_text")
WHITESPACE_TEXT = " "  # 'then="whitespace"' token; chat-template prompts end in "\n", never in " "
MARKER_TEXT = "<|im_end|>"

EosValue = Union[int, Sequence[int], None]


class _Missing:
    """Type of :data:`MISSING`: "do not write this file at all"."""

    _instance: Optional["_Missing"] = None

    def __new__(cls) -> "_Missing":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self) -> str:
        return "MISSING"


MISSING = _Missing()
"""Sentinel for ``generation_eos``: write no generation_config.json."""

# Qwen2.5-style added-token block at the Qwen3.5 base id (content, special).
ADDED_TOKENS: tuple[tuple[str, bool], ...] = (
    ("<|endoftext|>", True),  # 248044
    ("<|im_start|>", True),  # 248045
    ("<|im_end|>", True),  # 248046
    ("<|object_ref_start|>", True),  # 248047
    ("<|object_ref_end|>", True),  # 248048
    ("<|box_start|>", True),  # 248049
    ("<|box_end|>", True),  # 248050
    ("<|quad_start|>", True),  # 248051
    ("<|quad_end|>", True),  # 248052
    ("<|vision_start|>", True),  # 248053
    ("<|vision_end|>", True),  # 248054
    ("<|vision_pad|>", True),  # 248055
    ("<|image_pad|>", True),  # 248056
    ("<|video_pad|>", True),  # 248057
    ("<tool_call>", False),  # 248058
    ("</tool_call>", False),  # 248059
    ("<|fim_prefix|>", False),  # 248060
    ("<|fim_middle|>", False),  # 248061
    ("<|fim_suffix|>", False),  # 248062
    ("<|fim_pad|>", False),  # 248063
    ("<|repo_name|>", False),  # 248064
    ("<|file_sep|>", False),  # 248065
    ("<tool_response>", False),  # 248066
    ("</tool_response>", False),  # 248067
    ("<think>", False),  # 248068
    ("</think>", False),  # 248069
)
TOKEN_IDS: dict[str, int] = {content: FIRST_ADDED_ID + i for i, (content, _) in enumerate(ADDED_TOKENS)}

_PRETOKENIZE_REGEX = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
_CORPUS = (
    "Hello world! This is a tiny test model for the image pipeline.",
    "Describe the image. The picture shows a red square on a white background.",
    "The quick brown fox jumps over the lazy dog. A cat sat on the mat.",
    'Answer in JSON: {"name": "box", "color": "red", "count": 3, "ok": true}',
    '{"items": [1, 2, 3], "label": "tiny", "score": 0.5, "valid": false, "note": null}',
    "Invoice number date total amount due currency seller buyer address tax rate",
    "user assistant system tool image video think answer question yes no",
    "one two three four five six seven eight nine ten hundred thousand",
)

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

# A realistic German office-supplies invoice, valid against schemas/invoice.schema.json, arithmetic consistent
# (line amounts, subtotal, per-rate tax, total, amount due). Treat it as read-only (copy.deepcopy to change it).
SAMPLE_INVOICE: dict = {
    "invoice_number": "RE-2024-00817",
    "issue_date": "2024-03-14",
    "due_date": "2024-04-13",
    "currency": "EUR",
    "seller": {
        "name": "Müller Bürobedarf GmbH",
        "address": {"street": "Hauptstraße 12", "postal_code": "80331", "city": "München", "country": "DE"},
        "vat_id": "DE123456788",
        "tax_id": "143/123/45678",
    },
    "buyer": {
        "name": "Schmidt & Partner Steuerberatung",
        "address": {"street": "Lindenallee 5", "postal_code": "50667", "city": "Köln", "country": "DE"},
        "vat_id": "DE987654328",
        "tax_id": None,
    },
    "line_items": [
        {"description": "Kopierpapier A4, 80 g/m², 500 Blatt", "quantity": 10, "unit": "Pck", "unit_price": 4.99,
         "tax_rate": 19, "amount": 49.9},
        {"description": "Kugelschreiber blau, 10er Pack", "quantity": 5, "unit": "Pck", "unit_price": 3.49,
         "tax_rate": 19, "amount": 17.45},
        {"description": "Ordner A4, 8 cm, schwarz", "quantity": 12, "unit": "Stk", "unit_price": 2.79,
         "tax_rate": 19, "amount": 33.48},
        {"description": "Toner HP 305A schwarz", "quantity": 2, "unit": "Stk", "unit_price": 64.9,
         "tax_rate": 19, "amount": 129.8},
        {"description": "Haftnotizen 76 x 76 mm, gelb, 12 Blöcke", "quantity": 3, "unit": "Pck",
         "unit_price": 6.5, "tax_rate": 19, "amount": 19.5},
        {"description": "Fachbuch Umsatzsteuer 2024", "quantity": 1, "unit": "Stk", "unit_price": 39.0,
         "tax_rate": 7, "amount": 39.0},
        {"description": "Lieferung und Versand", "quantity": 1, "unit": None, "unit_price": 5.9,
         "tax_rate": 19, "amount": 5.9},
    ],
    "subtotal": 295.03,
    "tax_lines": [
        {"rate": 19, "base": 256.03, "amount": 48.65},
        {"rate": 7, "base": 39.0, "amount": 2.73},
    ],
    "total": 346.41,
    "prepaid_amount": 50.0,
    "amount_due": 296.41,
    "payment_terms": "Zahlbar innerhalb von 30 Tagen ohne Abzug. Bei Zahlung bis 2024-03-24 2 % Skonto.",
    "bank_account": {"iban": "DE89370400440532013000", "bic": "COBADEFFXXX",
                     "account_holder": "Müller Bürobedarf GmbH"},
}

SAMPLE_INVOICE_ANSWER: str = json.dumps(SAMPLE_INVOICE, ensure_ascii=False, separators=(",", ":"))
""":data:`SAMPLE_INVOICE` as compact JSON text (about 1,700 characters, ~280 scripted tokens)."""


@dataclass(frozen=True)
class TinyModel:
    """A tiny model directory and what it was built to emit.

    Attributes:
        path: the model directory (pass it to ``mlx_vlm.load``).
        answer: the scripted answer text; None for a random model.
        answer_token_ids: the ids the answer is emitted as, in order (empty for a random model).
        then: what follows the answer (one of ``THEN_CHOICES``); None for a random model.
        continuation_token_ids: the ids of one cycle of the continuation, repeated forever after the answer
            (e.g. ``(248046,)`` for ``then="im_end"``, the repeated line's ids for ``then="repeat"``).
    """

    path: Path
    answer: Optional[str]
    answer_token_ids: tuple[int, ...]
    then: Optional[str]
    continuation_token_ids: tuple[int, ...]

    def expected_token_ids(self, count: int) -> tuple[int, ...]:
        """The first ``count`` ids the scripted model emits: the answer, then the continuation cycle.

        Args:
            count: how many ids (e.g. the ``max_tokens`` of a generation).

        Returns:
            The ids, in order.

        Raises:
            UsageError: the model is a random model (it has no script).
        """
        if self.answer is None:
            raise UsageError("a random tiny model has no scripted output", source=self.path)
        ids = list(self.answer_token_ids[:count])
        cycle = self.continuation_token_ids
        while len(ids) < count:
            ids.append(cycle[(len(ids) - len(self.answer_token_ids)) % len(cycle)])
        return tuple(ids)


# ---------------------------------------------------------------------------------------------------------
# Tokenizer
# ---------------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _byte_to_unicode() -> dict[int, str]:
    """GPT-2's reversible byte -> printable character map used by byte-level BPE vocabularies."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = keep[:]
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(keep, chars)}


def _to_bytelevel(text: str) -> str:
    table = _byte_to_unicode()
    return "".join(table[b] for b in text.encode("utf-8"))


@functools.lru_cache(maxsize=1)
def _base_tokenizer() -> dict:
    """The tokenizer.json dict shared by every tiny model (trained once per process; never mutate it).

    A small byte-level BPE trained on a few sentences, padded with never-produced filler entries up to id
    248043 (the vocabulary must be dense: mlx-vlm's streaming detokenizer indexes a list), then the Qwen added
    tokens at their real ids and reserved added tokens up to the model's vocabulary size, so every id the
    model can emit decodes.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(_PRETOKENIZE_REGEX), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    tok.post_processor = processors.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    trainer = trainers.BpeTrainer(vocab_size=600, min_frequency=1, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(list(_CORPUS) * 4, trainer=trainer)
    data = json.loads(tok.to_str())
    vocab: dict[str, int] = data["model"]["vocab"]
    trained = len(vocab)
    if sorted(vocab.values()) != list(range(trained)) or trained >= CHUNK_BASE_ID:
        raise ModelError(f"the trained tiny BPE vocabulary is not dense below {CHUNK_BASE_ID} ({trained} entries)")
    for i in range(trained, FIRST_ADDED_ID):
        vocab[f"<|x{i}|>"] = i
    data["added_tokens"] = [
        {"id": tid, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": special}
        for tid, (content, special) in _all_added_tokens()
    ]
    return data


def _all_added_tokens() -> list[tuple[int, tuple[str, bool]]]:
    """(id, (content, special)) for the Qwen block and the reserved tokens up to the vocabulary size."""
    out = [(FIRST_ADDED_ID + i, tok) for i, tok in enumerate(ADDED_TOKENS)]
    out += [(tid, (f"<|reserved_{tid}|>", True)) for tid in range(FIRST_ADDED_ID + len(ADDED_TOKENS), VOCAB_SIZE)]
    return out


def _tokenizer_config(eos_token: str, *, ids_ok: bool) -> dict:
    # transformers 5.x rebuilds the Qwen tokenizer from vocab/merges and takes the added tokens from this
    # map (not tokenizer.json's added_tokens), so every added id must be listed here too.
    decoder = {
        str(tid): {"content": content, "lstrip": False, "normalized": False, "rstrip": False,
                   "single_word": False, "special": special}
        for tid, (content, special) in _all_added_tokens()
    }
    if not ids_ok:
        # <|im_end|> and <|object_ref_start|> swap ids here only: tokenizer.json says 248046 is <|im_end|>.
        decoder[str(IM_END)], decoder[str(IM_END + 1)] = decoder[str(IM_END + 1)], decoder[str(IM_END)]
    return {
        "tokenizer_class": "Qwen2Tokenizer",
        "add_bos_token": False,
        "add_prefix_space": False,
        "bos_token": None,
        "eos_token": eos_token,
        "pad_token": "<|endoftext|>",
        "unk_token": None,
        "errors": "replace",
        "clean_up_tokenization_spaces": False,
        "split_special_tokens": False,
        "model_max_length": 262144,
        "added_tokens_decoder": decoder,
    }


@functools.lru_cache(maxsize=1)
def _added_contents() -> frozenset[str]:
    return frozenset(content for _, (content, _) in _all_added_tokens())


def _cut_chunks(text: str, taken: set[str], base_vocab: dict[str, int]) -> list[str]:
    """Cut ``text`` into chunks whose byte-level forms are all distinct (``taken`` is updated).

    Prefers chunks of about ``CHUNK_CHARS`` characters that are new vocabulary strings; a chunk never splits a
    character and never equals an added token (transformers would map it onto that token's id). Where no new
    string is left (short texts of single characters, e.g. ``"x"``), an existing non-whitespace vocabulary entry
    is reused (chat-template prompts end in whitespace, so their last token never is a scripted one).

    Raises:
        ModelError: the end of ``text`` cannot get an entry of its own.
    """
    def free(chunk: str, reuse: bool) -> bool:
        form = _to_bytelevel(chunk)
        if form in taken or chunk in _added_contents():
            return False
        return form not in base_vocab or (reuse and bool(chunk.strip()))

    preferred = [CHUNK_CHARS] + [n for d in range(1, 16) for n in (CHUNK_CHARS + d, CHUNK_CHARS - d) if n >= 1]
    chunks: list[str] = []
    pos = 0
    while pos < len(text):
        rest = len(text) - pos
        lengths = [n for n in preferred if n <= rest] + [n for n in range(max(preferred) + 1, rest + 1)]
        chunk = next((text[pos:pos + n] for reuse in (False, True) for n in lengths
                      if free(text[pos:pos + n], reuse)), None)
        if chunk is None:  # every piece of the tail is taken (a long run of one character): absorb it back
            chunk = text[pos:]
            while chunks and not free(chunk, True):
                taken.discard(_to_bytelevel(chunks[-1]))
                chunk = chunks.pop() + chunk
            if not free(chunk, True):
                raise ModelError(f"cannot script {text!r}: every scripted token needs a text of its own, and "
                                 f"{text[pos:]!r} has none left (use a longer text)")
            pos = len(text) - len(chunk)
        chunks.append(chunk)
        taken.add(_to_bytelevel(chunk))
        pos += len(chunk)
    return chunks


# ---------------------------------------------------------------------------------------------------------
# Config files
# ---------------------------------------------------------------------------------------------------------
def _eos_json(value: EosValue, what: str) -> Union[int, list[int], None]:
    if value is None:
        return None
    if isinstance(value, (bool, str, bytes)):
        raise UsageError(f"{what}: expected a token id, a list of ids or None, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        ids = [int(v) for v in value]
    except (TypeError, ValueError):
        raise UsageError(f"{what}: expected a token id, a list of ids or None, got {value!r}") from None
    return ids


def _model_config(*, config_eos: EosValue, text_eos: EosValue, vision_ids: bool, tied: bool) -> dict:
    text = {
        "model_type": "qwen3_5_text",
        "hidden_size": HIDDEN_SIZE,
        "intermediate_size": 2 * HIDDEN_SIZE,
        "num_hidden_layers": 2,
        "full_attention_interval": 2,  # layer i is full attention iff (i+1) % 2 == 0: [linear, full]
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 32,
        "linear_num_key_heads": 1,
        "linear_num_value_heads": 2,
        "linear_key_head_dim": 16,
        "linear_value_head_dim": 16,
        "linear_conv_kernel_dim": 4,
        "rms_norm_eps": 1e-6,
        "vocab_size": VOCAB_SIZE,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": tied,
        "attention_bias": False,
        "hidden_act": "silu",
        # rotary dim = head_dim * 0.25 = 8 -> 4 frequencies = sum(mrope_section)
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000000, "partial_rotary_factor": 0.25,
                            "mrope_interleaved": True, "mrope_section": [2, 1, 1]},
    }
    if text_eos is not None:
        text["eos_token_id"] = text_eos
    vision = {
        "model_type": "qwen3_5",
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": HIDDEN_SIZE,
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
    cfg.update({"tie_word_embeddings": tied, "vocab_size": VOCAB_SIZE, "text_config": text,
                "vision_config": vision})
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


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------
# Weights
# ---------------------------------------------------------------------------------------------------------
def _instantiate(cfg: dict):
    from mlx_vlm.models import qwen3_5
    from mlx_vlm.utils import update_module_configs

    model_config = qwen3_5.ModelConfig.from_dict(cfg)
    model_config = update_module_configs(model_config, qwen3_5, cfg, ["text", "vision", "perceiver", "projector",
                                                                      "audio"])
    return qwen3_5.Model(model_config)


def _random_parameters(model, rng, *, skip: tuple[str, ...] = ()) -> list:
    """Numpy-drawn replacements for every randomly initialised parameter (deterministic per seed).

    mlx's own initialisers use its global PRNG; drawing here keeps the weights a function of ``seed`` alone and
    leaves the caller's mlx random state unseeded. Constant initialisations (norm weights, biases) are kept.
    """
    import mlx.core as mx
    import numpy as np
    from mlx.utils import tree_flatten

    out = []
    for name, value in tree_flatten(model.parameters()):
        if name in skip or not mx.issubdtype(value.dtype, mx.floating):
            continue
        if name.endswith("embed_tokens.weight"):  # too big to evaluate mlx's init just to measure it
            drawn = rng.standard_normal(value.shape, dtype=np.float32) / np.float32(np.sqrt(value.shape[-1]))
            out.append((name, mx.array(drawn)))
            continue
        arr = np.array(value.astype(mx.float32))
        low, high = float(arr.min()), float(arr.max())
        if low != high:
            out.append((name, mx.array(rng.uniform(low, high, size=value.shape).astype(np.float32))))
    return out


def _write_weights(model, path: Path) -> None:
    import mlx.core as mx
    from mlx.utils import tree_flatten

    weights = {k: (v.astype(mx.bfloat16) if mx.issubdtype(v.dtype, mx.floating) else v)
               for k, v in tree_flatten(model.parameters())}
    mx.eval(weights)
    # mlx-native key names (language_model.model.*, vision_tower.*): mlx-vlm's sanitize() leaves them as they
    # are (no conv transpose, no +1 norm shift), so the saved weights are exactly the loaded ones.
    mx.save_safetensors(str(path / "model.safetensors"), weights, metadata={"format": "mlx"})


def _program_weights(model, *, transitions: dict[int, int], first: int, rng) -> float:
    """Turn ``model`` into a bigram machine (next id = ``transitions[id]``, any other id -> ``first``).

    Returns:
        The minimum logit margin (scripted successor minus the best other token) over every scripted id and
        the default, computed from the bf16 weights exactly as written.

    Raises:
        ModelError: the margin is below ``MIN_LOGIT_MARGIN`` (too many scripted tokens for hidden size 64).
    """
    import mlx.core as mx
    import numpy as np

    lm = model.language_model
    for layer in lm.model.layers:  # zero every residual write: the last hidden state is the token embedding
        proj = layer.linear_attn.out_proj if layer.is_linear else layer.self_attn.o_proj
        proj.weight = mx.zeros_like(proj.weight)
        layer.mlp.down_proj.weight = mx.zeros_like(layer.mlp.down_proj.weight)
    lm.model.norm.weight = mx.ones_like(lm.model.norm.weight)

    def bf16(a):
        return np.array(mx.array(a).astype(mx.bfloat16).astype(mx.float32))

    sources = list(transitions)
    vectors = rng.standard_normal((len(sources) + 1, HIDDEN_SIZE)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = bf16(vectors)  # row -1: the shared default vector of every non-scripted id
    targets = sorted({*transitions.values(), first})
    row_of = {t: i for i, t in enumerate(targets)}
    head_rows = np.zeros((len(targets), HIDDEN_SIZE), np.float32)
    for k, src in enumerate(sources):
        head_rows[row_of[transitions[src]]] += LOGIT_SCALE * vectors[k]
    head_rows[row_of[first]] += LOGIT_SCALE * vectors[-1]
    head_rows = bf16(head_rows)

    # Exact check: final RMSNorm (weight 1) then lm_head; all other lm_head rows are 0.
    eps = lm.args.rms_norm_eps
    hidden = bf16(vectors / np.sqrt(np.mean(vectors**2, axis=1, keepdims=True) + eps))
    logits = hidden @ head_rows.T  # (cases, targets)
    wanted = np.array([row_of[transitions[s]] for s in sources] + [row_of[first]])
    correct = logits[np.arange(len(wanted)), wanted]
    logits[np.arange(len(wanted)), wanted] = -np.inf
    best_other = np.maximum(logits.max(axis=1), 0.0)
    margin = float(np.min(correct - best_other))
    if margin < MIN_LOGIT_MARGIN:
        raise ModelError(f"scripted program of {len(sources)} tokens is too long for hidden size {HIDDEN_SIZE}: "
                         f"logit margin {margin:.1f} < {MIN_LOGIT_MARGIN} (try a shorter answer or another seed)")

    emb = np.empty((VOCAB_SIZE, HIDDEN_SIZE), np.float32)
    emb[:] = vectors[-1]
    emb[np.array(sources)] = vectors[:-1]
    head = np.zeros((VOCAB_SIZE, HIDDEN_SIZE), np.float32)
    head[np.array(targets)] = head_rows
    lm.model.embed_tokens.weight = mx.array(emb).astype(mx.bfloat16)
    lm.lm_head.weight = mx.array(head).astype(mx.bfloat16)
    return margin


# ---------------------------------------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------------------------------------
def _write_common(path: Path, *, tokenizer: dict, config_eos: EosValue, text_eos: EosValue, generation_eos,
                  tokenizer_eos: str, vision_ids: bool, tokenizer_ids_ok: bool, tied: bool) -> dict:
    """Write every file but the weights and program.json; return the config.json dict."""
    config_eos = _eos_json(config_eos, "config_eos")
    text_eos = _eos_json(text_eos, "text_eos")
    path.mkdir(parents=True, exist_ok=True)
    (path / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf-8")
    _write_json(path / "tokenizer_config.json", _tokenizer_config(tokenizer_eos, ids_ok=tokenizer_ids_ok))
    (path / "chat_template.jinja").write_text(CHAT_TEMPLATE, encoding="utf-8")
    image, video = _preprocessor_configs()
    _write_json(path / "preprocessor_config.json", image)
    _write_json(path / "video_preprocessor_config.json", video)
    cfg = _model_config(config_eos=config_eos, text_eos=text_eos, vision_ids=vision_ids, tied=tied)
    _write_json(path / "config.json", cfg)
    gen_file = path / "generation_config.json"
    if generation_eos is MISSING:
        gen_file.unlink(missing_ok=True)  # rebuilding into an old directory must not keep a stale file
    else:
        gen: dict = {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT}
        if generation_eos is not None:
            gen["eos_token_id"] = _eos_json(generation_eos, "generation_eos")
        _write_json(gen_file, gen)
    return cfg


def _settings(*, config_eos, text_eos, generation_eos, tokenizer_eos, vision_ids, tokenizer_ids_ok, seed) -> dict:
    """The build options as program.json records them; raises UsageError for a malformed one."""
    if not isinstance(tokenizer_eos, str) or not tokenizer_eos:
        raise UsageError(f"tokenizer_eos: expected a token string such as '<|im_end|>', got {tokenizer_eos!r}")
    return {"config_eos": _eos_json(config_eos, "config_eos"), "text_eos": _eos_json(text_eos, "text_eos"),
            "generation_config": generation_eos is not MISSING,
            "generation_eos": None if generation_eos is MISSING else _eos_json(generation_eos, "generation_eos"),
            "tokenizer_eos": tokenizer_eos, "vision_ids": vision_ids, "tokenizer_ids_ok": tokenizer_ids_ok,
            "seed": seed}


def build_random_model(
    path: Union[str, Path],
    *,
    config_eos: EosValue = ENDOFTEXT,
    text_eos: EosValue = ENDOFTEXT,
    generation_eos: Union[EosValue, _Missing] = MISSING,
    tokenizer_eos: str = "<|endoftext|>",
    vision_ids: bool = True,
    tokenizer_ids_ok: bool = True,
    seed: int = 0,
) -> TinyModel:
    """Write a tiny random-weight ``qwen3_5`` checkpoint (tied embeddings, ~36 MB) to ``path``.

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        config_eos: config.json top-level ``eos_token_id``: an id, a list of ids, or None to omit the key.
        text_eos: config.json ``text_config.eos_token_id``: an id, a list of ids, or None to omit the key.
        generation_eos: :data:`MISSING` writes no generation_config.json; None writes one without an
            ``eos_token_id``; an id or a list of ids writes that value.
        tokenizer_eos: tokenizer_config.json ``eos_token`` (a token string, e.g. ``"<|im_end|>"``).
        vision_ids: False omits ``vision_start_token_id``/``vision_end_token_id`` from config.json, so
            mlx-vlm falls back to its defaults, which collide with ``<|im_start|>``/``<|im_end|>``.
        tokenizer_ids_ok: False writes a tokenizer_config.json whose ``added_tokens_decoder`` swaps the ids of
            ``<|im_end|>`` and ``<|object_ref_start|>`` (248046/248047), disagreeing with tokenizer.json. The
            model still loads; transformers then maps ``<|im_end|>`` to 248047.
        seed: seed of the weights (numpy; mlx's global random state is not reseeded).

    Returns:
        The :class:`TinyModel` (``answer`` None, no token ids).

    Raises:
        UsageError: an option has the wrong type.
    """
    import numpy as np

    settings = _settings(config_eos=config_eos, text_eos=text_eos, generation_eos=generation_eos,
                         tokenizer_eos=tokenizer_eos, vision_ids=vision_ids, tokenizer_ids_ok=tokenizer_ids_ok,
                         seed=seed)  # validates the options before any work
    path = Path(path)
    cfg = _write_common(path, tokenizer=_base_tokenizer(), config_eos=config_eos, text_eos=text_eos,
                        generation_eos=generation_eos, tokenizer_eos=tokenizer_eos, vision_ids=vision_ids,
                        tokenizer_ids_ok=tokenizer_ids_ok, tied=True)
    model = _instantiate(cfg)
    model.load_weights(_random_parameters(model, np.random.default_rng(seed)), strict=False)
    _write_weights(model, path)
    program = {"kind": "random", "answer": None, "answer_chunks": [], "answer_token_ids": [], "then": None,
               "continuation_chunks": [], "continuation_token_ids": [], **settings}
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(path=path, answer=None, answer_token_ids=(), then=None, continuation_token_ids=())


def build_scripted_model(
    path: Union[str, Path],
    *,
    answer: str,
    then: str = "im_end",
    repeat_line: str = '\n{"note": "see above"}',
    config_eos: EosValue = ENDOFTEXT,
    text_eos: EosValue = ENDOFTEXT,
    generation_eos: Union[EosValue, _Missing] = MISSING,
    tokenizer_eos: str = "<|endoftext|>",
    vision_ids: bool = True,
    tokenizer_ids_ok: bool = True,
    seed: int = 0,
) -> TinyModel:
    """Write a tiny ``qwen3_5`` checkpoint (~67 MB) that emits ``answer`` exactly, then ``then`` forever.

    Whatever the prompt and image, greedy decoding and sampling at temperature 1 emit the answer's chunk ids
    (``TinyModel.answer_token_ids``), then the continuation cycle (``TinyModel.continuation_token_ids``) until
    something stops the generation. The eos options are the same as :func:`build_random_model`'s; with the
    defaults nothing in the continuation ``"im_end"`` stops mlx-vlm 0.7.10 (the never-stopping bug).

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        answer: the text to emit (non-empty; 1,500 characters make ~270 tokens; answers of 40,000
            characters / 4,000 tokens were checked to fit hidden size 64).
        then: what follows the answer, forever: ``"im_end"`` (token 248046), ``"endoftext"`` (248044),
            ``"whitespace"`` (the token ``" "``), ``"repeat"`` (the chunks of ``repeat_line``, cycled), or
            ``"marker_text"`` (the text ``<|im_end|>`` as ordinary, non-special vocabulary tokens).
        repeat_line: the line cycled by ``then="repeat"`` (ignored otherwise).
        config_eos: see :func:`build_random_model`.
        text_eos: see :func:`build_random_model`.
        generation_eos: see :func:`build_random_model`.
        tokenizer_eos: see :func:`build_random_model`.
        vision_ids: see :func:`build_random_model`.
        tokenizer_ids_ok: see :func:`build_random_model`.
        seed: seed of the weights and of the scripted vectors.

    Returns:
        The :class:`TinyModel`.

    Raises:
        UsageError: empty answer or repeat line, an unknown ``then``, or an option of the wrong type.
        ModelError: the answer is too long for a reliable script (logit margin too small).
    """
    import numpy as np

    if not isinstance(answer, str) or not answer:
        raise UsageError("answer: the scripted answer must be a non-empty string")
    if then not in THEN_CHOICES:
        raise UsageError(f"then: expected one of {', '.join(THEN_CHOICES)}, got {then!r}")
    if then == "repeat" and (not isinstance(repeat_line, str) or not repeat_line):
        raise UsageError("repeat_line: must be a non-empty string for then='repeat'")
    settings = _settings(config_eos=config_eos, text_eos=text_eos, generation_eos=generation_eos,
                         tokenizer_eos=tokenizer_eos, vision_ids=vision_ids, tokenizer_ids_ok=tokenizer_ids_ok,
                         seed=seed)  # validates the options before any work
    path = Path(path)
    base = _base_tokenizer()
    base_vocab: dict[str, int] = base["model"]["vocab"]
    taken: set[str] = set()
    answer_chunks = _cut_chunks(answer, taken, base_vocab)
    loop_text = {"repeat": repeat_line, "marker_text": MARKER_TEXT}.get(then)
    loop_chunks = _cut_chunks(loop_text, taken, base_vocab) if loop_text else []

    vocab = dict(base_vocab)  # the cached base stays untouched
    ids = []
    next_id = CHUNK_BASE_ID
    for chunk in answer_chunks + loop_chunks:
        form = _to_bytelevel(chunk)
        if form in base_vocab:  # a reused entry (see _cut_chunks)
            ids.append(base_vocab[form])
            continue
        del vocab[f"<|x{next_id}|>"]
        vocab[form] = next_id
        ids.append(next_id)
        next_id += 1
    answer_ids = tuple(ids[: len(answer_chunks)])
    if then == "im_end":
        cycle: tuple[int, ...] = (IM_END,)
    elif then == "endoftext":
        cycle = (ENDOFTEXT,)
    elif then == "whitespace":
        cycle = (base_vocab[_to_bytelevel(WHITESPACE_TEXT)],)
    else:
        cycle = tuple(ids[len(answer_chunks):])
    transitions = dict(zip(answer_ids, answer_ids[1:]))
    transitions[answer_ids[-1]] = cycle[0]
    transitions.update(zip(cycle, cycle[1:]))
    transitions[cycle[-1]] = cycle[0]

    tokenizer = dict(base, model=dict(base["model"], vocab=vocab))
    cfg = _write_common(path, tokenizer=tokenizer, config_eos=config_eos, text_eos=text_eos,
                        generation_eos=generation_eos, tokenizer_eos=tokenizer_eos, vision_ids=vision_ids,
                        tokenizer_ids_ok=tokenizer_ids_ok, tied=False)
    model = _instantiate(cfg)
    rng = np.random.default_rng(seed)
    # embed_tokens and lm_head are programmed below: drawing (and evaluating) 2 x 16M random values is waste
    skip = ("language_model.model.embed_tokens.weight", "language_model.lm_head.weight")
    model.load_weights(_random_parameters(model, rng, skip=skip), strict=False)
    margin = _program_weights(model, transitions=transitions, first=answer_ids[0], rng=rng)
    _write_weights(model, path)
    program = {"kind": "scripted", "answer": answer, "answer_chunks": answer_chunks,
               "answer_token_ids": list(answer_ids), "then": then, "continuation_chunks": loop_chunks,
               "continuation_token_ids": list(cycle), "repeat_line": repeat_line if then == "repeat" else None,
               "transitions": {str(k): v for k, v in transitions.items()}, "first_token_id": answer_ids[0],
               "min_logit_margin": round(margin, 2), "logit_scale": LOGIT_SCALE, **settings}
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(path=path, answer=answer, answer_token_ids=answer_ids, then=then, continuation_token_ids=cycle)


def read_tiny_model(path: Union[str, Path]) -> TinyModel:
    """Read back what a tiny model directory was built to emit (its ``program.json``).

    Args:
        path: a directory written by :func:`build_random_model` or :func:`build_scripted_model` (or the CLI).

    Returns:
        The :class:`TinyModel`.

    Raises:
        ModelError: the directory has no readable program.json.
    """
    path = Path(path)
    try:
        program = json.loads((path / PROGRAM_FILE).read_text(encoding="utf-8"))
        return TinyModel(path=path, answer=program["answer"], answer_token_ids=tuple(program["answer_token_ids"]),
                         then=program["then"], continuation_token_ids=tuple(program["continuation_token_ids"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"not a tiny test model ({PROGRAM_FILE}: {exc})", source=path) from exc


def _script_answer(path: Path) -> str:
    """A script file's answer: its text, trailing newlines dropped; a ``.json`` file is compacted, the way a model
    under constrained decoding writes JSON (so the README's demo answers the same with constraints on or off)."""
    text = path.read_text(encoding="utf-8").rstrip("\r\n")
    if path.suffix == ".json":
        try:
            return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
        except ValueError:
            pass  # not JSON after all: script it verbatim
    return text


def scripted_answer_ids(path: Union[str, Path]) -> tuple[int, ...]:
    """The ids a scripted tiny model emits its answer as (empty for a random model).

    Args:
        path: a tiny model directory.

    Returns:
        The answer's token ids, in order.

    Raises:
        ModelError: the directory has no readable program.json.
    """
    return read_tiny_model(path).answer_token_ids


# ---------------------------------------------------------------------------------------------------------
# Shell entry point
# ---------------------------------------------------------------------------------------------------------
def _parse_eos(values: Optional[list[str]], option: str) -> Union[int, list[int], None]:
    if values == ["none"]:
        return None
    try:
        ids = [int(v) for v in values or []]
    except ValueError:
        raise UsageError(f"{option}: expected token ids or 'none', got {' '.join(values or [])}") from None
    return ids[0] if len(ids) == 1 else ids


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Build a tiny model from the command line (see the module docstring).

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 built, 1 the build failed, 2 bad arguments.
    """
    parser = argparse.ArgumentParser(prog="python -m extractor.testing",
                                     description="Build a tiny offline qwen3_5 model for tests.")
    parser.add_argument("dir", type=Path, help="directory to write")
    parser.add_argument("--script", type=Path, help="file whose text is the scripted answer (else: random model); "
                                                    "a .json file is compacted")
    parser.add_argument("--then", choices=THEN_CHOICES, default="im_end", help="what follows the answer")
    parser.add_argument("--repeat-line", default='\n{"note": "see above"}', help="line cycled by --then repeat")
    parser.add_argument("--config-eos", nargs="+", metavar="ID", default=[str(ENDOFTEXT)],
                        help="config.json eos_token_id (ids, or 'none' to omit)")
    parser.add_argument("--text-eos", nargs="+", metavar="ID", default=[str(ENDOFTEXT)],
                        help="config.json text_config.eos_token_id (ids, or 'none' to omit)")
    parser.add_argument("--generation-eos", nargs="+", metavar="ID",
                        help="write generation_config.json with this eos_token_id ('none': without one)")
    parser.add_argument("--tokenizer-eos", default="<|endoftext|>", metavar="TOKEN",
                        help="tokenizer_config.json eos_token")
    parser.add_argument("--no-vision-ids", action="store_true",
                        help="omit vision_start/vision_end token ids from config.json")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        eos = {"config_eos": _parse_eos(args.config_eos, "--config-eos"),
               "text_eos": _parse_eos(args.text_eos, "--text-eos"),
               "generation_eos": MISSING if args.generation_eos is None
               else _parse_eos(args.generation_eos, "--generation-eos")}
        if args.script is None:
            tiny = build_random_model(args.dir, **eos, tokenizer_eos=args.tokenizer_eos,
                                      vision_ids=not args.no_vision_ids, seed=args.seed)
            summary = "random"
        else:
            try:
                answer = _script_answer(args.script)
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"cannot read the script: {exc}", source=args.script) from exc
            tiny = build_scripted_model(args.dir, answer=answer, then=args.then, repeat_line=args.repeat_line,
                                        **eos, tokenizer_eos=args.tokenizer_eos,
                                        vision_ids=not args.no_vision_ids, seed=args.seed)
            summary = (f"scripted: {len(answer)} characters as {len(tiny.answer_token_ids)} tokens, "
                       f"then {args.then} {list(tiny.continuation_token_ids)}")
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ExtractorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(tiny.path)
    generation = eos["generation_eos"]
    generation = ("no generation_config.json" if generation is MISSING
                  else f"generation_config.json eos {'(none)' if generation is None else generation}")
    shown = {key: "(omitted)" if eos[key] is None else eos[key] for key in ("config_eos", "text_eos")}
    print(f"{summary}; config eos {shown['config_eos']}, text_config eos {shown['text_eos']}, {generation}, "
          f"tokenizer eos {args.tokenizer_eos}")
    return 0


if __name__ == "__main__":
    import os

    # Never let the loaders reach for the Hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.exit(main())
