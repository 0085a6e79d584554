"""Tiny, offline checkpoints of the real mlx-vlm ``qwen3_5`` architecture, for tests without weights.

The models built here are loadable by the real ``mlx_vlm.load`` (and ``python -m mlx_vlm.server``), use the
real Qwen3.5 special-token ids (``<|endoftext|>`` 248044, ``<|im_start|>`` 248045, ``<|im_end|>`` 248046,
``<|vision_start|>`` 248053, ``<|vision_end|>`` 248054, ``<|image_pad|>`` 248056), a vocabulary of 248,320,
float32 weights (bf16 matmuls are slow on CPUs), tied embeddings (as Qwen3.5's small models) and a preprocessor
that keeps images tiny (at most 128 x 128 px, 16 image tokens). The default size is hidden 64 x 2 layers
(linear attention, full attention): a directory is about 70 MB and builds in about a second (a schema-aware
script: 3-5 s, mostly llguidance's tokenizers). ``size="mid"`` is hidden 768 x 8 layers (full attention every
4th layer, 6 attention heads of 128, 6 key / 12+ value heads of 128 in the linear-attention layers, MLP 2,048),
about 1 GB and ~10 s to build, for benchmarks: every layer computes, so prefill is dominated by matmuls and
decoding by weight reads.

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

The tokenizer: a byte-level BPE with Qwen's pre-tokenizer, trained once per process on a few sentences and on
compact JSON in the shape of the builtin schemas (their property names and punctuation, :data:`SAMPLE_INVOICE`,
the schemas themselves and, in a repository checkout, ``samples/expected/``). It has about 2,000 trained entries
(the corpus saturates below the trainer's 4,000), so JSON structure tokenizes compactly as with Qwen's own
tokenizer (``{"``, ``invoice`` ``_number``, ``":"``, ``","``, ``":{"``). Never-produced filler entries keep the
vocabulary dense up to 248,043 (mlx-vlm's detokenizer indexes a list); the added tokens sit at their real ids.

Scripts. Without a schema the answer is cut into chunks of about six characters, each a new vocabulary entry
(never produced by the BPE). With ``schema=`` the script is exactly what a runtime with JSON-Schema-constrained,
jump-forward decoding sees (llguidance via :mod:`extractor.constrain`, for the model's own tokenizer and resolved
stop set): wherever ``matcher.compute_ff_tokens()`` (cut at the first stop id) is not empty, the script holds
those tokens, *fed* (a jump-forward runtime feeds them in one forward pass; ``TinyModel.fed``); where forced bytes
remain that llguidance holds back, the first token of their canonical tokenization (a prefix of the forced bytes,
inside the widened mask); where nothing is forced, a new chunk token of a few answer characters, inside
llguidance's own mask (a chunk never *starts* with forced bytes, so no capped "extension" widening is needed).
A chunk ends where the grammar starts forcing bytes, unless the forced run after it would repeat a token (one
(register, token) pair with two successors, see below): then it absorbs more of the forced bytes. The script is
walked through a fresh matcher for the tokenizer as written (chunk entries can change what llguidance holds
back) and planned again against it until the walk agrees. Greedy or temperature-1 decoding, with or without
constraints, with or without jump-forward, then emits the same tokens.

How a scripted model works. A bigram machine cannot know where it is after a run of structural tokens that
occurs many times (``","quantity":`` once per line item), so the first linear-attention layer (Gated DeltaNet)
is a *register* holding the most recent writer token: chunk tokens, continuation tokens and the one default
embedding shared by every non-script token write; structural script tokens and image positions do not. Its
conv1d looks at the current position only; q = k = one constant direction (every embedding, and every image
feature, carries a constant "bias" component that the q/k rows read); beta = sigmoid(+-40) from a "writer flag"
component; A_log = -30, so nothing decays. The layer's output at position t is then out_proj(rmsnorm(v_c) *
silu(z_t)) for the register's token c: a feature of the pair (c, t). ``linear_num_value_heads`` is chosen so
that there are at least 1.3 features per distinct (c, t) pair of the script, and out_proj is fitted by least
squares (on features computed by the real mlx layer) so that embedding(t) + out_proj(...) equals the embedding
of the pair's successor. Every other residual write is zero (other linear-attention layers, full attention,
MLPs: they still compute). Script tokens get random directions, every other token one shared default
direction; the final norm scales the logits (the scripted token scores ``LOGIT_SCALE`` x sqrt(hidden - 2),
~790 at hidden 64). The minimum logit margin over the whole script, measured by a forward pass of the weights
as written, must be at least :data:`MIN_LOGIT_MARGIN` (typically 300-450 at hidden 64), else
:class:`~extractor.errors.ModelError`; so temperature-1 sampling never leaves the script. A 30,000-character
answer (~4,200 pairs) still has a margin above 300, but takes a minute to build: the fit's linear system grows
with the square of the pairs.

Each directory also holds ``program.json`` (what it was built to emit, which tokens are fed, the schema, the
build options and the measured margin); :func:`read_tiny_model` reads it back. :data:`SAMPLE_INVOICE` /
:data:`SAMPLE_INVOICE_ANSWER` are a realistic invoice (valid against schemas/invoice.schema.json) and its compact
JSON text, shared by tests and benchmarks.

Caveats: the prompt's *last* token must be a non-script token (every chat-template prompt ends in a newline;
a raw prompt ending in, say, ``<|im_end|>`` with ``then="im_end"`` continues from there). Structural script
tokens are ordinary tokens and may occur anywhere else in a prompt: they do not write the register. Every chunk
needs a text of its own, so a one-character answer and a one-character ``repeat_line`` must differ. With a
schema, only the stop-token continuations (``im_end``, ``endoftext``) survive constrained decoding.

Shell::

    python -m extractor.testing DIR [--script FILE] [--schema NAME|FILE] [--size small|mid]
                                    [--hidden-size N] [--layers L]
                                    [--then im_end|whitespace|repeat|endoftext|marker_text]
                                    [--config-eos ID ...] [--text-eos ID ...] [--generation-eos ID ...]
                                    [--tokenizer-eos TOKEN] [--no-vision-ids] [--seed N]

Without ``--script`` it builds a random model; ``--script FILE`` builds a scripted model whose answer is the
file's text (UTF-8, trailing newlines dropped; a ``.json`` file is compacted). ``--schema`` (``invoice``,
``receipt`` or a schema file) makes the script schema-aware, as above. ``--size mid`` builds the benchmark size;
``--hidden-size``/``--layers`` override the size's numbers (hidden 128 or more must be a multiple of 128).
``--config-eos``/``--text-eos`` take one or more ids, or ``none`` to omit the key; ``--generation-eos`` writes
generation_config.json (``none``: without an eos key; not given: no file). It prints the directory and a
one-line summary.

mlx, mlx_vlm, numpy, tokenizers, transformers and llguidance are imported lazily, inside the functions that need
them.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

from extractor.errors import ExtractorError, ModelError, SchemaError, UsageError

ENDOFTEXT = 248044
IM_START = 248045
IM_END = 248046
VISION_START = 248053
VISION_END = 248054
IMAGE_PAD = 248056
VIDEO_PAD = 248057

VOCAB_SIZE = 248320  # real Qwen3.5 embedding rows
HIDDEN_SIZE = 64
SIZES: dict[str, tuple[int, int]] = {"small": (HIDDEN_SIZE, 2), "mid": (768, 8)}  # (hidden size, layers)
FIRST_ADDED_ID = ENDOFTEXT  # the byte-level BPE vocabulary is dense over 0..248043
TRAINED_VOCAB_LIMIT = 4000  # the BPE trainer's target; the corpus saturates near 2,000 entries
CHUNK_BASE_ID = 5000  # scripted chunks take the filler ids 5000, 5001, ... (above every trained entry)
CHUNK_CHARS = 6  # preferred scripted chunk length: ~280 tokens for a 1,700-character answer
LOGIT_SCALE = 100.0
MIN_LOGIT_MARGIN = 100.0  # exp(-100) per wrong token: temperature-1 sampling never leaves the script
FEATURE_RATIO = 1.3  # register features per distinct (register, token) pair: keeps the fit well conditioned
PROGRAM_FILE = "program.json"
THEN_CHOICES = ("im_end", "endoftext", "whitespace", "repeat", "marker_text")
WHITESPACE_TEXT = " "  # 'then="whitespace"' token; chat-template prompts end in "\n", never in " "
MARKER_TEXT = "<|im_end|>"

# The register layer (see the module docstring): embedding components and gains.
_BIAS = 0  # constant component: q and k read it, so both are one fixed direction
_FLAG = 1  # +1 for writer tokens, -1 for the others
_QK_GAIN = 4.0
_BETA_GAIN = 40.0  # beta = sigmoid(+-40): exactly 1.0 / ~4e-18 in float32
_A_LOG = -30.0  # decay exp(-exp(A_log) * softplus(dt_bias)) == 1.0 in float32
_IMAGE_GAIN = 10.0  # image features: bias +10, flag -10 (never write, keep q = k)
_DEFAULT = -1  # the shared default embedding, in register sequences
_MAX_RESTARTS = 50  # chunk-planning restarts (a chunk text another position needs is reserved for it)
_MAX_REPLANS = 3  # plans against the written tokenizer until its llguidance walk agrees

EosValue = Union[int, Sequence[int], None]
SchemaValue = Union[str, Path, Mapping[str, Any], None]


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
        answer_token_ids: every token the answer is emitted as, in order, fed ones included (empty for a
            random model).
        then: what follows the answer (one of ``THEN_CHOICES``); None for a random model.
        continuation_token_ids: the ids of one cycle of the continuation, repeated forever after the answer
            (e.g. ``(248046,)`` for ``then="im_end"``, the repeated line's ids for ``then="repeat"``).
        fed: one flag per answer token: True where a jump-forward runtime feeds it (llguidance forces it) instead
            of sampling it; all False without a schema.
        schema_name: ``invoice``, ``receipt``, a schema file's path, ``inline`` (a dict), or None (no schema).
        schema: the JSON Schema the script follows, or None.
    """

    path: Path
    answer: Optional[str]
    answer_token_ids: tuple[int, ...]
    then: Optional[str]
    continuation_token_ids: tuple[int, ...]
    fed: tuple[bool, ...] = ()
    schema_name: Optional[str] = None
    schema: Optional[Mapping[str, Any]] = field(default=None, hash=False)

    @property
    def fed_count(self) -> int:
        """How many answer tokens a jump-forward runtime feeds rather than samples."""
        return sum(self.fed)

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


def _to_bytelevel(text: Union[str, bytes]) -> str:
    table = _byte_to_unicode()
    return "".join(table[b] for b in (text.encode("utf-8") if isinstance(text, str) else text))


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _schema_skeleton(schema: Mapping[str, Any]) -> object:
    """A value in the shape of a schema (two items per array): its keys and punctuation, for the BPE corpus."""
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    if "object" in types:
        return {key: _schema_skeleton(sub) for key, sub in (schema.get("properties") or {}).items()}
    if "array" in types:
        return [_schema_skeleton(schema.get("items") or {})] * 2
    for kind, value in (("string", "text"), ("number", 1.5), ("integer", 1), ("boolean", True)):
        if kind in types:
            return value
    return None


def _tokenizer_corpus() -> list[str]:
    """The BPE training texts: sentences, then compact JSON in the shape of the builtin schemas."""
    from extractor.validate import BUILTIN_SCHEMAS, builtin_schema_dir

    texts = list(_CORPUS)
    for name in BUILTIN_SCHEMAS:
        schema = json.loads((builtin_schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
        texts += [_compact(_schema_skeleton(schema)), _compact(schema)]
    texts.append(SAMPLE_INVOICE_ANSWER)
    samples = Path(__file__).resolve().parent.parent / "samples" / "expected"  # a repository checkout only
    for sample in sorted(samples.glob("*.json")) if samples.is_dir() else ():
        texts.append(_compact(json.loads(sample.read_text(encoding="utf-8"))))
    return texts


@functools.lru_cache(maxsize=1)
def _base_tokenizer() -> dict:
    """The tokenizer.json dict shared by every tiny model (trained once per process; never mutate it).

    A byte-level BPE trained on :func:`_tokenizer_corpus`, padded with never-produced filler entries up to id
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
    trainer = trainers.BpeTrainer(vocab_size=TRAINED_VOCAB_LIMIT, min_frequency=1, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(_tokenizer_corpus() * 4, trainer=trainer)
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
# Scripts: the tokens an answer is emitted as
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Piece:
    """One answer token of a plan: a new chunk (``token`` None) or an existing, forced one."""

    data: bytes
    token: Optional[int] = None

    @property
    def text(self) -> str:
        """The token's text (a forced token may hold part of a character: shown as U+FFFD)."""
        return self.data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class _Script:
    """A scripted model's tokens: the answer's, then one cycle of the continuation.

    ``writers`` marks the answer tokens that write the register (chunks); ``vocab`` is the tokenizer vocabulary
    with every chunk in it.
    """

    texts: tuple[str, ...]
    ids: tuple[int, ...]
    writers: tuple[bool, ...]
    fed: tuple[bool, ...]
    continuation_texts: tuple[str, ...]
    cycle: tuple[int, ...]
    vocab: Mapping[str, int]


class _Blocked(Exception):
    """Every chunk that could start at ``pos`` is already used by an earlier position."""

    def __init__(self, pos: int, texts: list[str]) -> None:
        super().__init__(pos)
        self.pos, self.texts = pos, texts


def _cut_at_stop(tokens: Sequence[int], stop_ids: Sequence[int]) -> list[int]:
    """Forced tokens up to the first stop id: a runtime samples the stop token, it never feeds it."""
    out = []
    for token in tokens:
        if token in stop_ids:
            break
        out.append(token)
    return out


@functools.lru_cache(maxsize=4)
def _planning_tokenizer(stop_ids: tuple[int, ...]):
    """llguidance's tokenizer for the base vocabulary (no chunks yet), to plan scripts against (~1.5 s, cached)."""
    import llguidance

    return llguidance.LLTokenizer(json.dumps(_base_tokenizer()), eos_token=list(stop_ids))


def _model_llg_tokenizer(path: Path, stop_ids: Sequence[int]):
    """llguidance's tokenizer exactly as a runtime builds it: transformers' tokenizer of ``path``, our Constrainer."""
    from transformers import AutoTokenizer

    from extractor.constrain import constrainer_for

    hf_tokenizer = AutoTokenizer.from_pretrained(str(path))  # held: the Constrainer keeps only a weak reference
    return constrainer_for(hf_tokenizer).llg_tokenizer(stop_ids)


class _ScriptPlanner:
    """Cuts an answer into what a constrained, jump-forward runtime sees (see the module docstring)."""

    def __init__(self, answer: str, *, compiled, tokenizer, stop_ids: Sequence[int], base_vocab: Mapping[str, int],
                 reserved: Mapping[str, int]) -> None:
        self.answer = answer
        self.data = answer.encode("utf-8")
        self.offsets = [0]  # byte offset of every character boundary
        for char in answer:
            self.offsets.append(self.offsets[-1] + len(char.encode("utf-8")))
        self.char_at = {offset: i for i, offset in enumerate(self.offsets)}
        self.compiled, self.tokenizer, self.stop_ids = compiled, tokenizer, stop_ids
        self.base_vocab, self.reserved = base_vocab, reserved

    def plan(self) -> list[_Piece]:
        """The answer's pieces, in order.

        Raises:
            _Blocked: a chunk needed here is used earlier (the caller reserves it and plans again).
            UsageError: the answer does not follow the schema.
            ModelError: no new chunk text is left at some position.
        """
        matcher = self.compiled.new_matcher()
        pieces, pos = self._forced_run(matcher, 0)
        taken: set[str] = set()
        while pos < len(self.data):
            chunk, matcher, run, pos = self._next_chunk(matcher, pos, taken)
            taken.add(chunk)
            pieces += [_Piece(chunk.encode("utf-8")), *run]
        if not matcher.is_accepting():
            raise UsageError("the scripted answer ends before the schema's JSON value is complete")
        return pieces

    def _forced_run(self, matcher, pos: int) -> tuple[list[_Piece], int]:
        """Consume what the grammar forces at ``pos``: fed tokens, then held-back forced bytes' first tokens."""
        run: list[_Piece] = []
        while True:
            tokens = _cut_at_stop(matcher.compute_ff_tokens(), self.stop_ids)
            if not tokens:
                forced = matcher.compute_ff_bytes()
                if not forced:
                    return run, pos
                tokens = self.tokenizer.tokenize_bytes(forced)[:1]  # canonical first token: a forced prefix
            for token in tokens:
                data = self.tokenizer.decode_bytes([token])
                if self.data[pos:pos + len(data)] != data:
                    where = self.char_at.get(pos, pos)
                    raise UsageError(f"the scripted answer does not follow the schema at character {where}: the "
                                     f"schema forces {data.decode(errors='replace')!r}")
                if not matcher.consume_token(token):
                    raise ModelError(f"llguidance rejected its own forced token {data!r}: {matcher.get_error()}")
                run.append(_Piece(data, token))
                pos += len(data)

    def _free_chars(self, matcher, start: int) -> int:
        """How many characters from ``start`` the grammar leaves free before it forces bytes again (at most 64)."""
        probe = matcher.deep_copy()
        end = start
        while end < len(self.answer) and end - start < 64:
            tokens = self.tokenizer.tokenize_bytes(self.answer[end].encode("utf-8"))
            if probe.validate_tokens(tokens) != len(tokens):
                return max(end - start, 1)
            probe.consume_tokens(tokens)
            end += 1
            if probe.compute_ff_bytes() or _cut_at_stop(probe.compute_ff_tokens(), self.stop_ids):
                break
        return end - start

    @staticmethod
    def _lengths(free: int) -> list[int]:
        """Chunk lengths to try: the whole free stretch when short, else even pieces of about CHUNK_CHARS; then
        longer ones (absorbing forced bytes) and shorter ones."""
        if free <= CHUNK_CHARS + 2:
            return [free, *range(free + 1, free + 16), *range(free - 1, 0, -1)]
        size = round(free / math.ceil(free / CHUNK_CHARS))
        return [size, *(n for d in range(1, 16) for n in (size + d, size - d) if n >= 1)]

    def _next_chunk(self, matcher, pos: int, taken: set[str]):
        """The chunk at ``pos``: (text, matcher after it and its forced run, the run, the position after)."""
        if pos not in self.char_at:
            raise ModelError(f"cannot script the answer: the schema's forced text ends inside a character at byte {pos}")
        start = self.char_at[pos]
        blocked = []
        for length in self._lengths(self._free_chars(matcher, start)):
            text = self.answer[start:start + length]
            if (start + length > len(self.answer) or _to_bytelevel(text) in self.base_vocab
                    or text in _added_contents() or self.reserved.get(text, pos) != pos):
                continue
            if text in taken:
                blocked.append(text)
                continue
            found = self._try_chunk(matcher, text, self.offsets[start + length])
            if found is not None:
                return (text, *found)
        if blocked:
            raise _Blocked(pos, blocked)
        raise self._no_chunk(matcher, start)

    def _try_chunk(self, matcher, text: str, end: int):
        """(matcher, forced run, position) after ``text`` and what it forces; None if the grammar refuses the
        text or the run repeats a token (one (register, token) pair would have two successors)."""
        probe = matcher.deep_copy()
        tokens = self.tokenizer.tokenize_bytes(text.encode("utf-8"))
        if probe.validate_tokens(tokens) != len(tokens):
            return None
        probe.consume_tokens(tokens)
        run, after = self._forced_run(probe, end)
        return (probe, run, after) if len({piece.token for piece in run}) == len(run) else None

    def _no_chunk(self, matcher, start: int) -> ExtractorError:
        tokens = self.tokenizer.tokenize_bytes(self.answer[start].encode("utf-8"))
        if matcher.validate_tokens(tokens) != len(tokens):
            return UsageError(f"the scripted answer does not follow the schema at character {start} "
                              f"({self.answer[max(0, start - 20):start + 20]!r})")
        return ModelError(f"cannot script the answer: no new chunk text is left at character {start} "
                          f"({self.answer[start:start + 20]!r})")


def _plan_script(answer: str, *, compiled, tokenizer, stop_ids: Sequence[int],
                 base_vocab: Mapping[str, int]) -> list[_Piece]:
    """Plan the answer's pieces, reserving a chunk text for the position that cannot do without it."""
    reserved: dict[str, int] = {}
    for _ in range(_MAX_RESTARTS):
        planner = _ScriptPlanner(answer, compiled=compiled, tokenizer=tokenizer, stop_ids=stop_ids,
                                 base_vocab=base_vocab, reserved=reserved)
        try:
            return planner.plan()
        except _Blocked as blocked:
            for text in blocked.texts:
                if reserved.setdefault(text, blocked.pos) != blocked.pos:
                    raise ModelError(f"cannot script the answer: chunk {text!r} is needed at two places") from None
    raise ModelError("cannot script the answer: too many chunk texts are needed at more than one place")


def _in_widened_mask(matcher, token: int, tokenizer) -> bool:
    """The runtime's widened mask: a prefix of the forced bytes, or llguidance's own mask."""
    forced = matcher.compute_ff_bytes()
    data = tokenizer.decode_bytes([token])
    if forced and data and forced.startswith(data):
        return True
    mask = matcher.compute_bitmask()  # little-endian 32-bit words: token t is bit t % 8 of byte t // 8
    return token < len(mask) * 8 and bool(mask[token >> 3] >> (token & 7) & 1)


def _walk_script(ids: Sequence[int], *, compiled, tokenizer, stop_ids: Sequence[int]) -> Optional[tuple[bool, ...]]:
    """Walk a script through a fresh matcher as a jump-forward runtime would.

    Returns:
        One flag per token, True where it is fed (it is exactly what ``compute_ff_tokens()`` returns there); None
        where the script breaks the runtime contract (a fed run differs from the script, a sampled token is
        outside the widened mask, or the value is incomplete at the end).
    """
    matcher = compiled.new_matcher()
    fed: list[bool] = []
    while True:
        forced = _cut_at_stop(matcher.compute_ff_tokens(), stop_ids)
        if forced:
            if list(ids[len(fed):len(fed) + len(forced)]) != forced or not matcher.consume_tokens(forced):
                return None
            fed += [True] * len(forced)
            continue
        if len(fed) == len(ids):
            return tuple(fed) if matcher.is_accepting() else None
        token = ids[len(fed)]
        if not _in_widened_mask(matcher, token, tokenizer) or not matcher.consume_token(token):
            return None
        fed.append(False)


def _resolve_schema(schema: SchemaValue) -> tuple[Optional[str], Optional[dict]]:
    """(name, schema) of the ``schema`` option: None, a builtin name, a file path, or a dict (``inline``)."""
    from extractor.validate import load_schema

    if schema is None:
        return None, None
    if isinstance(schema, Mapping):
        return "inline", json.loads(json.dumps(schema))  # a private, JSON-only copy
    if not isinstance(schema, (str, Path)):
        raise UsageError(f"schema: expected None, 'invoice', 'receipt', a file path or a dict, got {schema!r}")
    return str(schema), dict(load_schema(str(schema)).schema)


def _continuation_texts(then: str, repeat_line: str, taken: set[str], base_vocab: Mapping[str, int]) -> list[str]:
    loop_text = {"repeat": repeat_line, "marker_text": MARKER_TEXT}.get(then)
    return _cut_chunks(loop_text, taken, base_vocab) if loop_text else []


def _make_script(pieces: Sequence[_Piece], *, then: str, repeat_line: str, base_vocab: Mapping[str, int]) -> _Script:
    """Give every chunk an id (new filler ids, or its own entry where a short plain text reuses one)."""
    taken = {_to_bytelevel(piece.data) for piece in pieces}  # forced tokens too: they must not write
    loop = _continuation_texts(then, repeat_line, taken, base_vocab)
    vocab = dict(base_vocab)  # the cached base stays untouched
    ids = []
    next_id = CHUNK_BASE_ID
    for piece in [*pieces, *(_Piece(text.encode("utf-8")) for text in loop)]:
        form = _to_bytelevel(piece.data)
        if piece.token is not None or form in base_vocab:
            ids.append(piece.token if piece.token is not None else base_vocab[form])
            continue
        del vocab[f"<|x{next_id}|>"]
        vocab[form] = next_id
        ids.append(next_id)
        next_id += 1
    cut = len(pieces)
    cycle = {"im_end": (IM_END,), "endoftext": (ENDOFTEXT,),
             "whitespace": (base_vocab.get(_to_bytelevel(WHITESPACE_TEXT)),)}.get(then, tuple(ids[cut:]))
    return _Script(texts=tuple(piece.text for piece in pieces), ids=tuple(ids[:cut]),
                   writers=tuple(piece.token is None for piece in pieces), fed=(False,) * cut,
                   continuation_texts=tuple(loop), cycle=cycle, vocab=vocab)


def _plain_script(answer: str, *, then: str, repeat_line: str, base_vocab: Mapping[str, int]) -> _Script:
    """The answer as chunks only (no schema): every token writes the register."""
    taken: set[str] = set()
    pieces = [_Piece(text.encode("utf-8")) for text in _cut_chunks(answer, taken, base_vocab)]
    return _make_script(pieces, then=then, repeat_line=repeat_line, base_vocab=base_vocab)


def _schema_script(path: Path, answer: str, schema: Mapping[str, Any], *, then: str, repeat_line: str,
                   base: dict, stop_ids: Sequence[int]) -> _Script:
    """Plan the answer for a schema, write the tokenizer, and walk the plan through the written tokenizer.

    Chunk entries can change what llguidance forces (it holds back forced tokens that a longer entry could
    extend), so a plan made against the base vocabulary is planned again against the written one until the walk
    agrees (:data:`_MAX_REPLANS` times at most).
    """
    from extractor.constrain import compile_schema

    if not stop_ids:
        raise ModelError("a schema-aware script needs the model's stop set, and it is empty", source=path)
    base_vocab = base["model"]["vocab"]
    tokenizer = _planning_tokenizer(tuple(stop_ids))
    for _ in range(_MAX_REPLANS):
        compiled = compile_schema(schema, tokenizer=tokenizer, lenient=True)
        pieces = _plan_script(answer, compiled=compiled, tokenizer=tokenizer, stop_ids=stop_ids,
                              base_vocab=base_vocab)
        script = _make_script(pieces, then=then, repeat_line=repeat_line, base_vocab=base_vocab)
        _write_tokenizer(path, base, script.vocab)
        tokenizer = _model_llg_tokenizer(path, stop_ids)
        fed = _walk_script(script.ids, compiled=compile_schema(schema, tokenizer=tokenizer, lenient=True),
                           tokenizer=tokenizer, stop_ids=stop_ids)
        if fed is not None:
            return dataclasses.replace(script, fed=fed)
    raise ModelError(f"cannot script the answer for this schema: the plan and llguidance's forced tokens still "
                     f"disagree after {_MAX_REPLANS} plans", source=path)


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


def _model_size(size: str, hidden_size: Optional[int], layers: Optional[int]) -> tuple[int, int]:
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
        return {"num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32, "linear_num_key_heads": 1,
                "linear_num_value_heads": 2, "linear_key_head_dim": 16, "linear_value_head_dim": 16,
                "intermediate_size": 2 * hidden_size, "mrope_section": [2, 1, 1]}  # rotary 8 = 2 x (2+1+1)
    heads = hidden_size // 128
    return {"num_attention_heads": heads, "num_key_value_heads": 2 if heads % 2 == 0 else 1, "head_dim": 128,
            "linear_num_key_heads": heads, "linear_num_value_heads": 2 * heads, "linear_key_head_dim": 128,
            "linear_value_head_dim": 128, "intermediate_size": max(128, 8 * hidden_size // 3 // 64 * 64),
            "mrope_section": [6, 5, 5]}  # rotary 32 = 2 x (6+5+5)


def _value_heads(hidden_size: int, pairs: int) -> int:
    """Linear-attention value heads: the size's own, or enough for FEATURE_RATIO features per register pair."""
    dims = _text_dims(hidden_size)
    group = dims["linear_num_key_heads"]  # value heads must be a multiple of the key heads
    needed = math.ceil(FEATURE_RATIO * pairs / dims["linear_value_head_dim"])
    return max(dims["linear_num_value_heads"], -(-needed // group) * group)


def _model_config(*, config_eos: EosValue, text_eos: EosValue, vision_ids: bool, hidden_size: int = HIDDEN_SIZE,
                  layers: int = 2, value_heads: Optional[int] = None) -> dict:
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
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000000, "partial_rotary_factor": 0.25,
                            "mrope_interleaved": True, "mrope_section": dims["mrope_section"]},
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
    cfg.update({"tie_word_embeddings": True, "vocab_size": VOCAB_SIZE, "text_config": text,
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

    weights = dict(tree_flatten(model.parameters()))  # float32 as built: bf16 matmuls are slow on CPUs
    mx.eval(weights)
    # mlx-native key names (language_model.model.*, vision_tower.*): mlx-vlm's sanitize() leaves them as they
    # are (no conv transpose, no +1 norm shift), so the saved weights are exactly the loaded ones.
    mx.save_safetensors(str(path / "model.safetensors"), weights, metadata={"format": "mlx"})


def _register_pairs(sequence: Sequence[int], writers: Sequence[bool],
                    texts: Mapping[int, str]) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Every (register, token) pair a script visits, with its successor, and the first position of each pair.

    Args:
        sequence: token ids, :data:`_DEFAULT` for the shared default embedding (the prompt's last tokens).
        writers: per token, whether it writes the register.
        texts: token texts, for error messages.

    Raises:
        ModelError: a pair has two successors, or a token both writes and does not.
    """
    pairs: dict[tuple[int, int], int] = {}
    positions: list[int] = []
    writes: dict[int, bool] = {}
    register = _DEFAULT
    for i, (token, writer) in enumerate(zip(sequence[:-1], writers)):
        if writes.setdefault(token, writer) != writer:
            raise ModelError(f"cannot script token {texts.get(token, token)!r}: it is both a chunk and forced text")
        register = token if writer else register
        successor = sequence[i + 1]
        known = pairs.setdefault((register, token), successor)
        if known != successor:
            raise ModelError(f"cannot script the answer: after {texts.get(register, 'the prompt')!r}, token "
                             f"{texts.get(token, token)!r} is followed by both {texts.get(known, known)!r} and "
                             f"{texts.get(successor, successor)!r}")
        if len(pairs) > len(positions):
            positions.append(i)
    return pairs, positions


def _token_vectors(writers: Sequence[bool], hidden: int, rng):
    """One embedding per script token (and the default, last): bias 1, writer flag +-1, a random direction.

    Every row has RMS 1, so the input RMSNorm leaves it as it is.
    """
    import numpy as np

    rows = np.zeros((len(writers), hidden), np.float32)
    random = rng.standard_normal((len(writers), hidden - 2))
    rows[:, 2:] = random * (np.sqrt(hidden - 2) / np.linalg.norm(random, axis=1, keepdims=True))
    rows[:, _BIAS] = 1.0
    rows[:, _FLAG] = np.where(np.asarray(writers), 1.0, -1.0)
    return rows


def _set_register(layer, rng) -> None:
    """Make a Gated DeltaNet layer a register (see the module docstring); out_proj is fitted later."""
    import mlx.core as mx
    import numpy as np

    attn = layer.linear_attn
    hidden = layer.input_layernorm.weight.shape[0]
    layer.input_layernorm.weight = mx.ones((hidden,))
    key_dim, value_dim, head = attn.key_dim, attn.value_dim, attn.head_k_dim
    qkv = np.zeros((2 * key_dim + value_dim, hidden), np.float32)
    qkv[0:key_dim:head, _BIAS] = _QK_GAIN  # q: the first component of each key head
    qkv[key_dim:2 * key_dim:head, _BIAS] = _QK_GAIN  # k: the same
    qkv[2 * key_dim:] = rng.standard_normal((value_dim, hidden)) / np.sqrt(hidden)  # v: the token's features
    attn.in_proj_qkv.weight = mx.array(qkv)
    attn.in_proj_z.weight = mx.array((rng.standard_normal((value_dim, hidden)) / np.sqrt(hidden)).astype(np.float32))
    gates = np.zeros((attn.num_v_heads, hidden), np.float32)
    gates[:, _FLAG] = _BETA_GAIN
    attn.in_proj_b.weight = mx.array(gates)
    attn.in_proj_a.weight = mx.zeros_like(attn.in_proj_a.weight)
    attn.A_log = mx.full(attn.A_log.shape, _A_LOG)
    attn.dt_bias = mx.ones(attn.dt_bias.shape)
    conv = np.zeros(attn.conv1d.weight.shape, np.float32)  # (channels, kernel, 1): the last tap is "now"
    conv[:, -1, :] = 1.0
    attn.conv1d.weight = mx.array(conv)
    attn.norm.weight = mx.ones(attn.norm.weight.shape)


def _quiet_everything_else(model) -> None:
    """Zero every residual write but the register's, make image features non-writers, scale the logits."""
    import mlx.core as mx
    import numpy as np

    text = model.language_model.model
    for i, layer in enumerate(text.layers):
        layer.mlp.down_proj.weight = mx.zeros_like(layer.mlp.down_proj.weight)
        if not layer.is_linear:
            layer.self_attn.o_proj.weight = mx.zeros_like(layer.self_attn.o_proj.weight)
        elif i > 0:
            layer.linear_attn.out_proj.weight = mx.zeros_like(layer.linear_attn.out_proj.weight)
    hidden = text.norm.weight.shape[0]
    # Vision features keep the bias component (q = k stay fixed) and a strongly negative writer flag: an image,
    # however long, never touches the register.
    merger = model.vision_tower.merger.linear_fc2
    weight, bias = np.array(merger.weight), np.array(merger.bias)
    weight[[_BIAS, _FLAG]] = 0.0
    bias[_BIAS], bias[_FLAG] = _IMAGE_GAIN, -_IMAGE_GAIN
    merger.weight, merger.bias = mx.array(weight), mx.array(bias)
    # Logits read the random directions only (not bias/flag): the scripted token scores LOGIT_SCALE*sqrt(h-2).
    scale = np.full((hidden,), LOGIT_SCALE / np.sqrt(hidden - 2), np.float32)
    scale[[_BIAS, _FLAG]] = 0.0
    text.norm.weight = mx.array(scale)


def _register_features(layer, inputs):
    """The register layer's features rmsnorm(v_c) * silu(z_t) at every position of ``inputs`` (L, hidden)."""
    import mlx.core as mx
    import mlx.nn as nn
    import numpy as np

    attn = layer.linear_attn
    identity = nn.Linear(attn.value_dim, attn.value_dim, bias=False)
    identity.weight = mx.eye(attn.value_dim)
    fitted, attn.out_proj = attn.out_proj, identity  # the real layer, its output projection taken out
    try:
        return np.array(attn(layer.input_layernorm(mx.array(inputs)[None])))[0]
    finally:
        attn.out_proj = fitted


def _embed_script(model, sequence: Sequence[int], writers: Sequence[bool], rng):
    """Give every script token its own embedding row and every other token the default one.

    Returns:
        (rows, row of each token id with :data:`_DEFAULT` last): the embeddings of the script's tokens.
    """
    import mlx.core as mx
    import numpy as np

    text = model.language_model.model
    tokens = sorted({t for t in sequence if t != _DEFAULT}) + [_DEFAULT]
    token_writes = dict(zip(sequence, writers))
    rows = _token_vectors([token_writes.get(t, True) for t in tokens], text.norm.weight.shape[0], rng)
    embedding = np.empty((VOCAB_SIZE, rows.shape[1]), np.float32)
    embedding[:] = rows[-1]  # every non-script token shares the default (a writer)
    embedding[np.array(tokens[:-1], dtype=np.int64)] = rows[:-1]
    text.embed_tokens.weight = mx.array(embedding)
    return rows, {token: i for i, token in enumerate(tokens)}


def _fit_output(layer, features, targets) -> None:
    """Set the register's out_proj to the minimum-norm exact solution of ``out_proj(features) == targets``."""
    import mlx.core as mx
    import numpy as np

    try:  # out_proj = Y^T (F F^T)^-1 F: one (pairs x pairs) system, well conditioned at FEATURE_RATIO
        solved = np.linalg.solve(features @ features.T, targets)
    except np.linalg.LinAlgError as exc:
        raise ModelError(f"cannot fit the register's output for {len(features)} pairs: {exc}") from exc
    layer.linear_attn.out_proj.weight = mx.array((features.T @ solved).T.astype(np.float32))


def _logit_margin(model, inputs, positions: Sequence[int], rows, wanted) -> float:
    """The minimum margin (wanted token minus the best other) at ``positions`` of one forward pass over
    ``inputs`` (embeddings, (L, hidden)); every non-script token scores like the default row (the last)."""
    import mlx.core as mx
    import numpy as np

    lm = model.language_model
    length = len(inputs)
    position_ids = mx.broadcast_to(mx.arange(length)[None, None], (3, 1, length))
    normed = lm.model(mx.zeros((1, length), dtype=mx.int32), inputs_embeds=mx.array(inputs)[None],
                      cache=lm.make_cache(), position_ids=position_ids)
    logits = np.array(normed)[0][list(positions)] @ rows.T  # tied: the lm_head rows are the embeddings
    correct = logits[np.arange(len(wanted)), wanted]
    logits[np.arange(len(wanted)), wanted] = -np.inf
    return float(np.min(correct - logits.max(axis=1)))


def _program_register(model, *, sequence: Sequence[int], writers: Sequence[bool],
                      pairs: Mapping[tuple[int, int], int], positions: Sequence[int], rng) -> float:
    """Program a model so that every (register, token) pair of ``sequence`` predicts its successor.

    Returns:
        The minimum logit margin over the sequence (the successor minus the best other token), measured by a
        forward pass of the weights as they will be written.

    Raises:
        ModelError: the margin is below ``MIN_LOGIT_MARGIN``, or the fit is singular.
    """
    import numpy as np

    rows, row = _embed_script(model, sequence, writers, rng)
    _quiet_everything_else(model)
    register = model.language_model.model.layers[0]
    _set_register(register, rng)
    inputs = rows[[row[t] for t in sequence]]  # (L, hidden): the sequence's embeddings
    wanted = np.array([row[successor] for successor in pairs.values()])  # insertion order == positions order
    features = _register_features(register, inputs)[list(positions)].astype(np.float64)
    _fit_output(register, features, (rows[wanted] - inputs[list(positions)]).astype(np.float64))
    margin = _logit_margin(model, inputs, positions, rows, wanted)
    if not margin >= MIN_LOGIT_MARGIN:  # NaN fails too
        hidden = rows.shape[1]
        raise ModelError(f"scripted program of {len(pairs)} (register, token) pairs is unreliable at hidden size "
                         f"{hidden}: logit margin {margin:.1f} < {MIN_LOGIT_MARGIN} (try another seed)")
    return margin


# ---------------------------------------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------------------------------------
def _write_tokenizer(path: Path, base: dict, vocab: Mapping[str, int]) -> None:
    tokenizer = dict(base, model=dict(base["model"], vocab=dict(vocab)))  # the cached base stays untouched
    (path / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf-8")


def _write_common(path: Path, *, tokenizer: dict, config_eos: EosValue, text_eos: EosValue, generation_eos,
                  tokenizer_eos: str, vision_ids: bool, tokenizer_ids_ok: bool) -> None:
    """Write every file but the weights and program.json (config.json with the default text shape)."""
    config_eos = _eos_json(config_eos, "config_eos")
    text_eos = _eos_json(text_eos, "text_eos")
    path.mkdir(parents=True, exist_ok=True)
    _write_tokenizer(path, tokenizer, tokenizer["model"]["vocab"])
    _write_json(path / "tokenizer_config.json", _tokenizer_config(tokenizer_eos, ids_ok=tokenizer_ids_ok))
    (path / "chat_template.jinja").write_text(CHAT_TEMPLATE, encoding="utf-8")
    image, video = _preprocessor_configs()
    _write_json(path / "preprocessor_config.json", image)
    _write_json(path / "video_preprocessor_config.json", video)
    _write_json(path / "config.json", _model_config(config_eos=config_eos, text_eos=text_eos, vision_ids=vision_ids))
    gen_file = path / "generation_config.json"
    if generation_eos is MISSING:
        gen_file.unlink(missing_ok=True)  # rebuilding into an old directory must not keep a stale file
    else:
        gen: dict = {"bos_token_id": ENDOFTEXT, "pad_token_id": ENDOFTEXT}
        if generation_eos is not None:
            gen["eos_token_id"] = _eos_json(generation_eos, "generation_eos")
        _write_json(gen_file, gen)


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
    """Write a tiny random-weight ``qwen3_5`` checkpoint (hidden 64, float32, ~70 MB) to ``path``.

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
    _write_common(path, tokenizer=_base_tokenizer(), config_eos=config_eos, text_eos=text_eos,
                  generation_eos=generation_eos, tokenizer_eos=tokenizer_eos, vision_ids=vision_ids,
                  tokenizer_ids_ok=tokenizer_ids_ok)
    model = _instantiate(json.loads((path / "config.json").read_text(encoding="utf-8")))
    model.load_weights(_random_parameters(model, np.random.default_rng(seed)), strict=False)
    _write_weights(model, path)
    program = {"kind": "random", "answer": None, "answer_chunks": [], "answer_token_ids": [], "fed": [],
               "then": None, "continuation_chunks": [], "continuation_token_ids": [], "schema_name": None,
               "schema": None, "hidden_size": HIDDEN_SIZE, "layers": 2, **settings}
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(path=path, answer=None, answer_token_ids=(), then=None, continuation_token_ids=())


def build_scripted_model(
    path: Union[str, Path],
    *,
    answer: str,
    then: str = "im_end",
    repeat_line: str = '\n{"note": "see above"}',
    schema: SchemaValue = None,
    size: str = "small",
    hidden_size: Optional[int] = None,
    layers: Optional[int] = None,
    config_eos: EosValue = ENDOFTEXT,
    text_eos: EosValue = ENDOFTEXT,
    generation_eos: Union[EosValue, _Missing] = MISSING,
    tokenizer_eos: str = "<|endoftext|>",
    vision_ids: bool = True,
    tokenizer_ids_ok: bool = True,
    seed: int = 0,
) -> TinyModel:
    """Write a ``qwen3_5`` checkpoint that emits ``answer`` exactly, then ``then`` forever.

    Whatever the prompt and image, greedy decoding and sampling at temperature 1 emit the answer's tokens
    (``TinyModel.answer_token_ids``), then the continuation cycle (``TinyModel.continuation_token_ids``) until
    something stops the generation. With a ``schema`` the tokens are what a constrained runtime with jump-forward
    decoding sees (``TinyModel.fed`` marks the ones it feeds), so records are the same with constraints on or
    off, and with jump-forward on or off. The eos options are the same as :func:`build_random_model`'s; with the
    defaults nothing in the continuation ``"im_end"`` stops mlx-vlm 0.7.10 (the never-stopping bug).

    Args:
        path: the directory to write (created; existing model files in it are overwritten).
        answer: the text to emit (non-empty; 1,700 characters make ~280 plain tokens or ~420 schema-aware ones,
            about half of those fed).
        then: what follows the answer, forever: ``"im_end"`` (token 248046), ``"endoftext"`` (248044),
            ``"whitespace"`` (the token ``" "``), ``"repeat"`` (the chunks of ``repeat_line``, cycled), or
            ``"marker_text"`` (the text ``<|im_end|>`` as ordinary, non-special vocabulary tokens).
        repeat_line: the line cycled by ``then="repeat"`` (ignored otherwise).
        schema: None (plain chunks), ``"invoice"``, ``"receipt"``, a schema file's path, or a schema dict; the
            answer must be valid JSON text for it in the grammar's compact form.
        size: ``"small"`` (hidden 64, 2 layers) or ``"mid"`` (hidden 768, 8 layers, for benchmarks).
        hidden_size: overrides the size's hidden size (8-127, or a multiple of 128).
        layers: overrides the size's number of layers (at least 2; full attention every 4th from 4 layers on).
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
        UsageError: empty answer or repeat line, an unknown ``then`` or size, an answer that does not follow the
            schema, or an option of the wrong type.
        SchemaError: the schema cannot be read or compiled.
        ModelError: the answer cannot be scripted reliably (logit margin too small, chunks or pairs collide).
    """
    import numpy as np

    from extractor.stopping import resolve_stop_set

    if not isinstance(answer, str) or not answer:
        raise UsageError("answer: the scripted answer must be a non-empty string")
    if then not in THEN_CHOICES:
        raise UsageError(f"then: expected one of {', '.join(THEN_CHOICES)}, got {then!r}")
    if then == "repeat" and (not isinstance(repeat_line, str) or not repeat_line):
        raise UsageError("repeat_line: must be a non-empty string for then='repeat'")
    hidden, depth = _model_size(size, hidden_size, layers)
    settings = _settings(config_eos=config_eos, text_eos=text_eos, generation_eos=generation_eos,
                         tokenizer_eos=tokenizer_eos, vision_ids=vision_ids, tokenizer_ids_ok=tokenizer_ids_ok,
                         seed=seed)  # validates the options before any work
    schema_name, schema_json = _resolve_schema(schema)
    path = Path(path)
    base = _base_tokenizer()
    _write_common(path, tokenizer=base, config_eos=config_eos, text_eos=text_eos, generation_eos=generation_eos,
                  tokenizer_eos=tokenizer_eos, vision_ids=vision_ids, tokenizer_ids_ok=tokenizer_ids_ok)
    if schema_json is None:
        script = _plain_script(answer, then=then, repeat_line=repeat_line, base_vocab=base["model"]["vocab"])
        _write_tokenizer(path, base, script.vocab)
    else:  # the stop set comes from the files just written, as a runtime resolves it
        script = _schema_script(path, answer, schema_json, then=then, repeat_line=repeat_line, base=base,
                                stop_ids=resolve_stop_set(path).ids)

    # The register sequence: the prompt's last (default) token, the answer, one cycle and its first token again.
    sequence = [_DEFAULT, *script.ids, *script.cycle, script.cycle[0]]
    writers = [True, *script.writers, *(True,) * (len(script.cycle) + 1)]
    texts = dict(zip(script.ids, script.texts)) | {IM_END: "<|im_end|>", ENDOFTEXT: "<|endoftext|>"}
    pairs, positions = _register_pairs(sequence, writers, texts)
    cfg = _model_config(config_eos=_eos_json(config_eos, "config_eos"), text_eos=_eos_json(text_eos, "text_eos"),
                        vision_ids=vision_ids, hidden_size=hidden, layers=depth,
                        value_heads=_value_heads(hidden, len(pairs)))
    _write_json(path / "config.json", cfg)
    model = _instantiate(cfg)
    rng = np.random.default_rng(seed)
    # embed_tokens is programmed below: drawing (and evaluating) 16M+ random values is waste
    model.load_weights(_random_parameters(model, rng, skip=("language_model.model.embed_tokens.weight",)),
                       strict=False)
    margin = _program_register(model, sequence=sequence, writers=writers, pairs=pairs, positions=positions, rng=rng)
    _write_weights(model, path)
    program = {"kind": "scripted", "answer": answer, "answer_chunks": list(script.texts),
               "answer_token_ids": list(script.ids), "fed": list(script.fed), "fed_count": sum(script.fed),
               "then": then, "continuation_chunks": list(script.continuation_texts),
               "continuation_token_ids": list(script.cycle), "repeat_line": repeat_line if then == "repeat" else None,
               "schema_name": schema_name, "schema": schema_json, "first_token_id": script.ids[0],
               "hidden_size": hidden, "layers": depth, "register_pairs": len(pairs),
               "min_logit_margin": round(margin, 2), "logit_scale": LOGIT_SCALE, **settings}
    _write_json(path / PROGRAM_FILE, program)
    return TinyModel(path=path, answer=answer, answer_token_ids=script.ids, then=then,
                     continuation_token_ids=script.cycle, fed=script.fed, schema_name=schema_name,
                     schema=schema_json)


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
                         then=program["then"], continuation_token_ids=tuple(program["continuation_token_ids"]),
                         fed=tuple(program.get("fed", ())), schema_name=program.get("schema_name"),
                         schema=program.get("schema"))
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
    parser.add_argument("--schema", metavar="NAME|FILE",
                        help="make the script schema-aware: invoice, receipt or a schema file (see the docstring)")
    parser.add_argument("--size", choices=tuple(SIZES), default="small",
                        help="small: hidden 64 x 2 layers; mid: hidden 768 x 8 layers (benchmarks)")
    parser.add_argument("--hidden-size", type=int, metavar="N", help="override the size's hidden size")
    parser.add_argument("--layers", type=int, metavar="L", help="override the size's number of layers")
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
            if (args.schema, args.size, args.hidden_size, args.layers) != (None, "small", None, None):
                raise UsageError("--schema, --size, --hidden-size and --layers need --script")
            tiny = build_random_model(args.dir, **eos, tokenizer_eos=args.tokenizer_eos,
                                      vision_ids=not args.no_vision_ids, seed=args.seed)
            summary = "random"
        else:
            try:
                answer = _script_answer(args.script)
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"cannot read the script: {exc}", source=args.script) from exc
            tiny = build_scripted_model(args.dir, answer=answer, then=args.then, repeat_line=args.repeat_line,
                                        schema=args.schema, size=args.size, hidden_size=args.hidden_size,
                                        layers=args.layers, **eos, tokenizer_eos=args.tokenizer_eos,
                                        vision_ids=not args.no_vision_ids, seed=args.seed)
            shape = json.loads((tiny.path / PROGRAM_FILE).read_text(encoding="utf-8"))
            fed = f" ({tiny.fed_count} fed by jump-forward, schema {tiny.schema_name})" if tiny.schema_name else ""
            summary = (f"scripted: {len(answer)} characters as {len(tiny.answer_token_ids)} tokens{fed}, "
                       f"then {args.then} {list(tiny.continuation_token_ids)}; hidden {shape['hidden_size']} x "
                       f"{shape['layers']} layers, logit margin {shape['min_logit_margin']}")
    except (UsageError, SchemaError) as exc:
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
