"""Forcing an answer on any model with a logits processor: the answer's tokens one by one, then an end token forever.

The qwen3_5 kit programs its answer into the weights (:func:`~extractor.testing.qwen35.build_scripted_model`);
that trick needs qwen3_5's linear-attention register and does not carry over to other families. For those,
:func:`force_answer` returns a logits processor that makes any model (random weights included) emit a chosen
answer text exactly, then ``end_token_id`` forever — so a runner whose stop set lacks that token never stops.
Loading, prefill and decoding stay real; only the logits are replaced.

Contract (the one ``mlx_vlm.generate_step`` and ``extractor.runners.base.GenerationRequest.logits_processors`` share):
the processor is called as ``processor(tokens, logits)`` with ``tokens`` the prompt's *last* token followed by
every token generated so far — sampled ones and, under jump-forward constrained decoding, the ones the runner fed
— and ``logits`` of shape ``(1, V)``. It returns logits of the same shape: 0 for the token to emit, ``-inf`` for
every other. The processor keeps no state between calls (it can be reused across generations and retries): it
reads how much of the answer ``tokens[1:]`` already holds. Where those tokens are exactly a prefix of the answer's
own tokenization it emits the next one; where a runner fed a different tokenization of the same text (a grammar
forcing ``":"`` as one token where the answer has ``":`` + ``"``), it compares bytes and emits the first token of
the rest of the answer; once the whole answer is out (or the tokens left the answer), it emits ``end_token_id``.

Under constrained decoding the runner's grammar mask still applies: the answer must be valid for the schema in
the grammar's compact form (``json.dumps(data, separators=(",", ":"), ensure_ascii=False)``), else the mask
can remove the forced token (a runner that applies it after the forcing processor then sees only ``-inf``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from extractor.errors import UsageError

_NEG = float("-inf")


@dataclass(frozen=True)
class ForcedAnswer:
    """A logits processor forcing ``answer_ids``, then ``end_token_id`` forever (see the module docstring).

    Attributes:
        answer: the answer text.
        answer_ids: its tokens (the model's tokenizer, no special tokens).
        end_token_id: emitted after the answer, forever.
    """

    answer: str
    answer_ids: tuple[int, ...]
    end_token_id: int
    _tokenizer: object = field(repr=False, compare=False, default=None)

    def expected_ids(self, count: int) -> tuple[int, ...]:
        """The first ``count`` tokens a generation forced by this processor emits: the answer, then end tokens."""
        ids = self.answer_ids[:count]
        return ids + (self.end_token_id,) * (count - len(ids))

    def next_token(self, generated: Sequence[int]) -> int:
        """The token to emit after ``generated`` (every token after the prompt, fed ones included)."""
        count = len(generated)
        if count < len(self.answer_ids) and tuple(generated) == self.answer_ids[:count]:
            return self.answer_ids[count]
        if tuple(generated[: len(self.answer_ids)]) == self.answer_ids:
            return self.end_token_id
        return self._by_bytes(generated)

    def _by_bytes(self, generated: Sequence[int]) -> int:
        """The next token where ``generated`` is another tokenization of the answer's start (or left it)."""
        table = _byte_table(self._tokenizer)
        done = b"".join(table.get(token, b"\x00\xff") for token in generated)  # an unknown id never matches
        answer = self.answer.encode("utf-8")
        if len(done) >= len(answer) or not answer.startswith(done):
            return self.end_token_id
        return _first_token(self._tokenizer, table, answer[len(done) :])

    def __call__(self, tokens, logits):
        """The logits processor: (tokens, logits (1, V)) -> logits (1, V), one-hot on the token to emit."""
        import mlx.core as mx

        target = self.next_token(tokens.tolist()[1:])
        hot = mx.arange(logits.shape[-1]) == target
        return mx.broadcast_to(mx.where(hot, 0.0, _NEG).astype(logits.dtype), logits.shape)


TokenizerSource = str | Path | object


def _backend(tokenizer_or_dir: TokenizerSource):
    """The ``tokenizers.Tokenizer`` behind a model directory, a transformers tokenizer or an mlx-vlm processor."""
    from tokenizers import Tokenizer

    if isinstance(tokenizer_or_dir, (str, Path)):
        path = Path(tokenizer_or_dir)
        file = path / "tokenizer.json" if path.is_dir() else path
        try:
            return Tokenizer.from_file(str(file))
        except Exception as exc:  # tokenizers raises its own Exception type
            raise UsageError(f"cannot read the tokenizer: {exc}", source=file) from exc
    if isinstance(tokenizer_or_dir, Tokenizer):
        return tokenizer_or_dir
    for attribute in ("backend_tokenizer", "tokenizer", "_tokenizer"):  # transformers, processors, wrappers
        inner = getattr(tokenizer_or_dir, attribute, None)
        if inner is not None and inner is not tokenizer_or_dir:
            return _backend(inner)
    raise UsageError(
        f"force_answer: expected a model directory, a tokenizer or a processor, got {type(tokenizer_or_dir).__name__}"
    )


@functools.lru_cache(maxsize=8)
def _byte_table(tokenizer) -> dict[int, bytes]:
    """id -> bytes for a byte-level BPE tokenizer (vocabulary strings through GPT-2's byte map; added tokens as
    their UTF-8 text)."""
    from extractor.testing.tokenizer import _byte_to_unicode

    decoder = json.loads(tokenizer.to_str()).get("decoder") or {}
    if decoder.get("type") != "ByteLevel":
        raise UsageError(
            "force_answer needs a byte-level BPE tokenizer (as every kit model has) to match fed "
            f"tokens by their bytes; this one decodes with {decoder.get('type')!r}"
        )
    inverse = {char: byte for byte, char in _byte_to_unicode().items()}
    table = {tid: bytes(inverse.get(char, 0) for char in text) for text, tid in tokenizer.get_vocab(False).items()}
    table.update({tid: added.content.encode("utf-8") for tid, added in tokenizer.get_added_tokens_decoder().items()})
    return table


def _first_token(tokenizer, table: dict[int, bytes], rest: bytes) -> int:
    """The first token of ``rest``'s own tokenization; where ``rest`` starts inside a character, the longest
    vocabulary entry that is a prefix of it."""
    try:
        return tokenizer.encode(rest.decode("utf-8"), add_special_tokens=False).ids[0]
    except UnicodeDecodeError:
        best = max(
            (tid for tid, data in table.items() if data and rest.startswith(data)),
            key=lambda tid: len(table[tid]),
            default=None,
        )
        if best is None:
            raise UsageError(f"force_answer: no token spells the bytes {rest[:8]!r}") from None
        return best


def force_answer(
    tokenizer_or_dir: TokenizerSource, answer_text: str, *, end_token_id: int, answer_ids: Sequence[int] | None = None
) -> ForcedAnswer:
    """A logits processor that forces ``answer_text``'s tokens one by one, then ``end_token_id`` forever.

    Args:
        tokenizer_or_dir: the model directory (its tokenizer.json), a transformers tokenizer, a
            ``tokenizers.Tokenizer`` or an mlx-vlm processor.
        answer_text: the text to emit (non-empty); tokenized with this tokenizer, no special tokens.
        end_token_id: the token emitted after the answer, forever (e.g. the family's end-of-turn id).
        answer_ids: the answer's tokens when they are not the tokenizer's own tokenization (e.g. a schema-aware
            script's); they must spell ``answer_text``.

    Returns:
        The :class:`ForcedAnswer` (call it as ``processor(tokens, logits)``; see the module docstring).

    Raises:
        UsageError: an empty answer, a bad end id, answer ids that do not spell the answer, or an unreadable
            tokenizer.
    """
    if not isinstance(answer_text, str) or not answer_text:
        raise UsageError("answer_text: the forced answer must be a non-empty string")
    if not isinstance(end_token_id, int) or isinstance(end_token_id, bool) or end_token_id < 0:
        raise UsageError(f"end_token_id: expected a token id, got {end_token_id!r}")
    tokenizer = _backend(tokenizer_or_dir)
    if answer_ids is None:
        ids = tuple(tokenizer.encode(answer_text, add_special_tokens=False).ids)
    else:
        ids = tuple(int(t) for t in answer_ids)
        table = _byte_table(tokenizer)
        if b"".join(table.get(t, b"\x00\xff") for t in ids) != answer_text.encode("utf-8"):
            raise UsageError("answer_ids: the tokens do not spell answer_text")
    if end_token_id >= tokenizer.get_vocab_size(True):
        raise UsageError(f"end_token_id: {end_token_id} is outside the tokenizer's vocabulary")
    return ForcedAnswer(answer=answer_text, answer_ids=ids, end_token_id=end_token_id, _tokenizer=tokenizer)
