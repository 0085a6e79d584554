"""The kit's tokenizer: a byte-level BPE with Qwen's pre-tokenizer and the Qwen3.5 added-token block.

Trained once per process on a few sentences and on compact JSON in the shape of the builtin schemas (their
property names and punctuation, :data:`~extractor.testing.samples.SAMPLE_INVOICE`, the schemas themselves and, in a
repository checkout, ``samples/expected/``). It has about 2,000 trained entries (the corpus saturates below the
trainer's 4,000), so JSON structure tokenizes compactly as with Qwen's own tokenizer (``{"``, ``invoice``
``_number``, ``":"``, ``","``, ``":{"``). Never-produced filler entries keep the vocabulary dense up to 248,043
(mlx-vlm's detokenizer indexes a list); the added tokens sit at their real ids.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from extractor.errors import ModelError
from extractor.testing.samples import SAMPLE_INVOICE_ANSWER

ENDOFTEXT = 248044
IM_START = 248045
IM_END = 248046
VISION_START = 248053
VISION_END = 248054
IMAGE_PAD = 248056
VIDEO_PAD = 248057

VOCAB_SIZE = 248320  # real Qwen3.5 embedding rows
FIRST_ADDED_ID = ENDOFTEXT  # the byte-level BPE vocabulary is dense over 0..248043
# the built-in schemas the BPE is trained on: fixed, because a schema added to the corpus retrains every kit model's
# tokenizer and so changes every kit record's token counts (tests/golden); ``invoice-en16931`` keys tokenize longer
CORPUS_SCHEMAS = ("invoice", "receipt")
TRAINED_VOCAB_LIMIT = 4000  # the BPE trainer's target; the corpus saturates near 2,000 entries
CHUNK_BASE_ID = 5000  # scripted chunks take the filler ids 5000, 5001, ... (above every trained entry)
CHUNK_CHARS = 6  # preferred scripted chunk length: ~280 tokens for a 1,700-character answer

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

_PRETOKENIZE_REGEX = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
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
    return {b: chr(c) for b, c in zip(keep, chars, strict=False)}


def _to_bytelevel(text: str | bytes) -> str:
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


def schema_corpus(names: tuple[str, ...]) -> list[str]:
    """BPE training texts: the kit's sentences, then each named built-in schema as compact JSON (its shape, then the
    schema itself, descriptions included); no answers."""
    from extractor.schema import builtin_schema_dir

    texts = list(_CORPUS)
    for name in names:
        schema = json.loads((builtin_schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
        texts += [_compact(_schema_skeleton(schema)), _compact(schema)]
    return texts


def _tokenizer_corpus() -> list[str]:
    """The BPE training texts: sentences, compact JSON in the shape of the builtin schemas, then sample answers."""
    texts = schema_corpus(CORPUS_SCHEMAS)
    texts.append(SAMPLE_INVOICE_ANSWER)
    samples = Path(__file__).resolve().parents[2] / "samples" / "expected"  # a repository checkout only
    for sample in sorted(samples.glob("*.json")) if samples.is_dir() else ():
        texts.append(_compact(json.loads(sample.read_text(encoding="utf-8"))))
    return texts


@functools.lru_cache(maxsize=1)
def _trained_bpe() -> str:
    """The trained byte-level BPE as tokenizer.json text, its vocabulary dense over 0..N-1 (~2,000 entries).

    Trained once per process on :func:`_tokenizer_corpus`; every tiny model's tokenizer starts from it.
    """
    text = train_bpe(tuple(_tokenizer_corpus()))
    vocab: dict[str, int] = json.loads(text)["model"]["vocab"]
    trained = len(vocab)
    if sorted(vocab.values()) != list(range(trained)) or trained >= CHUNK_BASE_ID:
        raise ModelError(f"the trained tiny BPE vocabulary is not dense below {CHUNK_BASE_ID} ({trained} entries)")
    return text


def train_bpe(texts: tuple[str, ...]) -> str:
    """A byte-level BPE with Qwen's pre-tokenizer trained on ``texts`` (the kit's trainer settings), as
    tokenizer.json text: the kit's own on :func:`_tokenizer_corpus`; a bench's on another corpus."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(_PRETOKENIZE_REGEX), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()  # it takes no options (the binding ignores any given)
    tok.post_processor = processors.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    trainer = trainers.BpeTrainer(
        vocab_size=TRAINED_VOCAB_LIMIT,
        min_frequency=1,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[],
    )
    tok.train_from_iterator(list(texts) * 4, trainer=trainer)
    return tok.to_str()


@functools.lru_cache(maxsize=1)
def _base_tokenizer() -> dict:
    """The tokenizer.json dict shared by every tiny qwen3_5 model (built once per process; never mutate it).

    The trained BPE (:func:`_trained_bpe`), padded with never-produced filler entries up to id 248043 (the
    vocabulary must be dense: mlx-vlm's streaming detokenizer indexes a list), then the Qwen added tokens at their
    real ids and reserved added tokens up to the model's vocabulary size, so every id the model can emit decodes.
    """
    return with_added_tokens(_trained_bpe())


def with_added_tokens(bpe: str) -> dict:
    """A trained BPE (tokenizer.json text) as a kit tokenizer.json dict: filler entries up to id 248043, then the
    Qwen added tokens at their real ids and the reserved ones (see :func:`_base_tokenizer`)."""
    data = json.loads(bpe)
    vocab: dict[str, int] = data["model"]["vocab"]
    for i in range(len(vocab), FIRST_ADDED_ID):
        vocab[f"<|x{i}|>"] = i
    data["added_tokens"] = [
        added_token(tid, content, special=special) for tid, (content, special) in _all_added_tokens()
    ]
    return data


_KEPT_WHOLE = {"single_word": False, "lstrip": False, "rstrip": False, "normalized": False}


def added_token(tid: int, content: str, *, special: bool) -> dict:
    """One tokenizer.json ``added_tokens`` entry: the token kept whole (no stripping, no normalising)."""
    return {"id": tid, **decoded_token(content, special=special)}


def decoded_token(content: str, *, special: bool) -> dict:
    """One tokenizer_config.json ``added_tokens_decoder`` entry: tokenizer.json's without its id (the map's key)."""
    return {"content": content, **_KEPT_WHOLE, "special": special}


def _all_added_tokens() -> list[tuple[int, tuple[str, bool]]]:
    """(id, (content, special)) for the Qwen block and the reserved tokens up to the vocabulary size."""
    out = [(FIRST_ADDED_ID + i, tok) for i, tok in enumerate(ADDED_TOKENS)]
    out += [(tid, (f"<|reserved_{tid}|>", True)) for tid in range(FIRST_ADDED_ID + len(ADDED_TOKENS), VOCAB_SIZE)]
    return out


def _tokenizer_config(eos_token: str, *, ids_ok: bool) -> dict:
    # transformers 5.x rebuilds the Qwen tokenizer from vocab/merges and takes the added tokens from this
    # map (not tokenizer.json's added_tokens), so every added id must be listed here too.
    decoder = {str(tid): decoded_token(content, special=special) for tid, (content, special) in _all_added_tokens()}
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


def _cut_chunks(text: str, taken: set[str], base_vocab: Mapping[str, int]) -> list[str]:
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
        chunk = next(
            (text[pos : pos + n] for reuse in (False, True) for n in lengths if free(text[pos : pos + n], reuse)), None
        )
        if chunk is None:  # every piece of the tail is taken (a long run of one character): absorb it back
            chunk = text[pos:]
            while chunks and not free(chunk, True):
                taken.discard(_to_bytelevel(chunks[-1]))
                chunk = chunks.pop() + chunk
            if not free(chunk, True):
                raise ModelError(
                    f"cannot script {text!r}: every scripted token needs a text of its own, and "
                    f"{text[pos:]!r} has none left (use a longer text)"
                )
            pos = len(text) - len(chunk)
        chunks.append(chunk)
        taken.add(_to_bytelevel(chunk))
        pos += len(chunk)
    return chunks


def _write_tokenizer(path: Path, vocab: Mapping[str, int]) -> None:
    """tokenizer.json: the base tokenizer (``_base_tokenizer``) with ``vocab`` as its model's vocabulary (the same
    JSON as ``json.dumps`` of that dict, spliced from text kept for the base: a scripted model changes a few hundred
    of its 248k entries, and encoding them all again took ~0.5 s a write)."""
    head, tail, entries, position = _base_text()
    base_vocab = _base_tokenizer()["model"]["vocab"]
    dropped = sorted(position[token] for token, tid in base_vocab.items() if vocab.get(token) != tid)
    kept, start = [], 0
    for index in dropped:
        kept += entries[start:index]
        start = index + 1
    kept += entries[start:]
    kept += [_vocab_entry(token, tid) for token, tid in vocab.items() if base_vocab.get(token) != tid]
    (path / "tokenizer.json").write_text(f"{head}{{{', '.join(kept)}}}{tail}", encoding="utf-8")


def _vocab_entry(token: str, tid: int) -> str:
    return f"{json.dumps(token, ensure_ascii=False)}: {tid}"


@functools.lru_cache(maxsize=1)
def _base_text() -> tuple[str, str, list[str], dict[str, int]]:
    """The base tokenizer.json's text around its vocabulary, the vocabulary's entries as text, and each token's
    position among them."""
    base = _base_tokenizer()
    marker = "\x00vocab\x00"
    text = json.dumps(dict(base, model=dict(base["model"], vocab=marker)), ensure_ascii=False)
    head, tail = text.split(json.dumps(marker))
    vocab = base["model"]["vocab"]
    return head, tail, [_vocab_entry(t, i) for t, i in vocab.items()], {t: n for n, t in enumerate(vocab)}
