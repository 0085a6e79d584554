"""Scripts: the tokens a scripted tiny model emits its answer as.

Without a schema the answer is cut into chunks of about six characters, each a new vocabulary entry (never produced by
the BPE). With ``schema=`` the script is exactly what a runtime with JSON-Schema-constrained, jump-forward decoding sees
(llguidance via :mod:`extractor.runners.constrain.grammar`, for the model's own tokenizer and resolved stop set):
wherever ``matcher.compute_ff_tokens()`` (cut at the first stop id) is not empty, the script holds those tokens, *fed*
(a jump-forward runtime feeds them in one forward pass; ``TinyModel.fed``); where forced bytes remain that llguidance
holds back, the first token of their canonical tokenization (a prefix of the forced bytes, inside the widened mask);
where nothing is forced, a new chunk token of a few answer characters, inside llguidance's own mask (a chunk never
*starts* with forced bytes, so no capped "extension" widening is needed). A chunk ends where the grammar starts forcing
bytes, unless the forced run after it would repeat a token (one (register, token) pair with two successors, see below):
then it absorbs more of the forced bytes. The script is walked through a fresh matcher for the tokenizer as written
(chunk entries can change what llguidance holds back) and planned again against it until the walk agrees. Greedy or
temperature-1 decoding, with or without constraints, with or without jump-forward, then emits the same tokens.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.errors import ExtractorError, ModelError, UsageError
from extractor.testing.tokenizer import (
    CHUNK_BASE_ID,
    CHUNK_CHARS,
    ENDOFTEXT,
    IM_END,
    _added_contents,
    _base_tokenizer,
    _cut_chunks,
    _to_bytelevel,
    _write_tokenizer,
)

THEN_CHOICES = ("im_end", "endoftext", "whitespace", "repeat", "marker_text")
WHITESPACE_TEXT = " "  # 'then="whitespace"' token; chat-template prompts end in "\n", never in " "
MARKER_TEXT = "<|im_end|>"
_MAX_RESTARTS = 50  # chunk-planning restarts (a chunk text another position needs is reserved for it)
_MAX_REPLANS = 3  # plans against the written tokenizer until its llguidance walk agrees

SchemaValue = str | Path | Mapping[str, Any] | None


@dataclass(frozen=True)
class _Piece:
    """One answer token of a plan: a new chunk (``token`` None) or an existing, forced one."""

    data: bytes
    token: int | None = None

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

    from extractor.runners.constrain.grammar import constrainer_for

    hf_tokenizer = AutoTokenizer.from_pretrained(str(path))  # held: the Constrainer keeps only a weak reference
    return constrainer_for(hf_tokenizer).llg_tokenizer(stop_ids)


class _ScriptPlanner:
    """Cuts an answer into what a constrained, jump-forward runtime sees (see the module docstring)."""

    def __init__(
        self,
        answer: str,
        *,
        compiled,
        tokenizer,
        stop_ids: Sequence[int],
        base_vocab: Mapping[str, int],
        reserved: Mapping[str, int],
    ) -> None:
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
            if isinstance(chunk, _Piece):  # a text only the base vocabulary spells: its own token, sampled
                pieces += [chunk, *run]
                continue
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
                if self.data[pos : pos + len(data)] != data:
                    where = self.char_at.get(pos, pos)
                    raise UsageError(
                        f"the scripted answer does not follow the schema at character {where}: the "
                        f"schema forces {data.decode(errors='replace')!r}"
                    )
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
            raise ModelError(
                f"cannot script the answer: the schema's forced text ends inside a character at byte {pos}"
            )
        start = self.char_at[pos]
        blocked = []
        lengths = self._lengths(self._free_chars(matcher, start))
        tail = len(self.answer) - start
        if tail <= CHUNK_CHARS + 4:  # the answer's tail is one chunk: closing braces the grammar does not force
            lengths = [tail, *(n for n in lengths if n != tail)]  # (optional members may still follow) stay in it
        for length in lengths:
            text = self.answer[start : start + length]
            if (
                start + length > len(self.answer)
                or _to_bytelevel(text) in self.base_vocab
                or text in _added_contents()
                or self.reserved.get(text, pos) != pos
            ):
                continue
            if text in taken:
                blocked.append(text)
                continue
            found = self._try_chunk(matcher, text, self.offsets[start + length])
            if found is not None:
                return (text, *found)
        if blocked:
            raise _Blocked(pos, blocked)
        found = self._base_token(matcher, start)
        if found is not None:
            return found
        raise self._no_chunk(matcher, start)

    def _base_token(self, matcher, start: int):
        """Where every chunk text is a base-vocabulary entry (a lone ``}`` that closes an object whose optional
        members were left out: the grammar does not force it), the base token itself, sampled and not writing the
        register: (piece, matcher after it and its forced run, the run, the position after); None if the grammar
        refuses it."""
        text = self.answer[start]
        form = _to_bytelevel(text)
        token = self.base_vocab.get(form)
        if token is None:
            return None
        probe = matcher.deep_copy()
        if probe.validate_tokens([token]) != 1:
            return None
        probe.consume_tokens([token])
        run, after = self._forced_run(probe, self.offsets[start + 1])
        return _Piece(text.encode("utf-8"), token), probe, run, after

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
            return UsageError(
                f"the scripted answer does not follow the schema at character {start} "
                f"({self.answer[max(0, start - 20) : start + 20]!r})"
            )
        return ModelError(
            f"cannot script the answer: no new chunk text is left at character {start} "
            f"({self.answer[start : start + 20]!r})"
        )


def _plan_script(
    answer: str, *, compiled, tokenizer, stop_ids: Sequence[int], base_vocab: Mapping[str, int]
) -> list[_Piece]:
    """Plan the answer's pieces, reserving a chunk text for the position that cannot do without it."""
    reserved: dict[str, int] = {}
    for _ in range(_MAX_RESTARTS):
        planner = _ScriptPlanner(
            answer, compiled=compiled, tokenizer=tokenizer, stop_ids=stop_ids, base_vocab=base_vocab, reserved=reserved
        )
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


def _walk_script(ids: Sequence[int], *, compiled, tokenizer, stop_ids: Sequence[int]) -> tuple[bool, ...] | None:
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
            if list(ids[len(fed) : len(fed) + len(forced)]) != forced or not matcher.consume_tokens(forced):
                return None
            fed += [True] * len(forced)
            continue
        if len(fed) == len(ids):
            return tuple(fed) if matcher.is_accepting() else None
        token = ids[len(fed)]
        if not _in_widened_mask(matcher, token, tokenizer) or not matcher.consume_token(token):
            return None
        fed.append(False)


def _resolve_schema(schema: SchemaValue) -> tuple[str | None, dict | None]:
    """(name, schema) of the ``schema`` option: None, a builtin name, a file path, or a dict (``inline``)."""
    from extractor.schema import load_schema

    if schema is None:
        return None, None
    if isinstance(schema, Mapping):
        return "inline", json.loads(json.dumps(schema))  # a private, JSON-only copy
    if not isinstance(schema, (str, Path)):
        raise UsageError(f"schema: expected None, 'invoice', 'receipt', a file path or a dict, got {schema!r}")
    return str(schema), dict(load_schema(str(schema)).schema)


def lean_answer(answer: str | Mapping[str, Any] | list, schema: SchemaValue) -> str:
    """An answer as a model that leaves out what is absent writes it (compact JSON, the grammar's form).

    Every member that is required and ``null`` in ``answer``, and whose schema admits ``null``, is left out
    (:func:`extractor.runners.constrain.omit.omit_absent`); the pipeline puts each back as ``null``, so a scripted
    model emitting this text makes the same record as one emitting ``answer`` (with fewer generated tokens).

    Args:
        answer: the full answer (JSON text or the parsed value).
        schema: the schema it follows (a built-in name, a file path or a dict).

    Returns:
        The lean answer as compact JSON text.

    Raises:
        UsageError: the answer is not JSON, or there is no schema.
    """
    from extractor.runners.constrain.omit import omit_absent

    _, schema_json = _resolve_schema(schema)
    if schema_json is None:
        raise UsageError("lean_answer: the schema says what may be left out; pass one")
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except json.JSONDecodeError as exc:
            raise UsageError(f"lean_answer: the answer is not JSON: {exc}") from exc
    return json.dumps(omit_absent(answer, schema_json), ensure_ascii=False, separators=(",", ":"))


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
    # a one-byte text: in every base vocabulary (the byte-level alphabet)
    cycle = {
        "im_end": (IM_END,),
        "endoftext": (ENDOFTEXT,),
        "whitespace": (base_vocab[_to_bytelevel(WHITESPACE_TEXT)],),
    }.get(then, tuple(ids[cut:]))
    return _Script(
        texts=tuple(piece.text for piece in pieces),
        ids=tuple(ids[:cut]),
        writers=tuple(piece.token is None for piece in pieces),
        fed=(False,) * cut,
        continuation_texts=tuple(loop),
        cycle=cycle,
        vocab=vocab,
    )


def _plain_script(answer: str, *, then: str, repeat_line: str, base_vocab: Mapping[str, int]) -> _Script:
    """The answer as chunks only (no schema): every token writes the register."""
    taken: set[str] = set()
    pieces = [_Piece(text.encode("utf-8")) for text in _cut_chunks(answer, taken, base_vocab)]
    return _make_script(pieces, then=then, repeat_line=repeat_line, base_vocab=base_vocab)


def _schema_script(
    path: Path,
    answer: str,
    schema: Mapping[str, Any],
    *,
    then: str,
    repeat_line: str,
    base: dict,
    stop_ids: Sequence[int],
) -> _Script:
    """Plan the answer for a schema, write the tokenizer, and walk the plan through the written tokenizer.

    Chunk entries can change what llguidance forces (it holds back forced tokens that a longer entry could
    extend), so a plan made against the base vocabulary is planned again against the written one until the walk
    agrees (:data:`_MAX_REPLANS` times at most).
    """
    from extractor.runners.constrain.grammar import compile_schema

    if not stop_ids:
        raise ModelError("a schema-aware script needs the model's stop set, and it is empty", source=path)
    base_vocab = base["model"]["vocab"]
    tokenizer = _planning_tokenizer(tuple(stop_ids))
    for _ in range(_MAX_REPLANS):
        compiled = compile_schema(schema, tokenizer=tokenizer, lenient=True)
        pieces = _plan_script(answer, compiled=compiled, tokenizer=tokenizer, stop_ids=stop_ids, base_vocab=base_vocab)
        script = _make_script(pieces, then=then, repeat_line=repeat_line, base_vocab=base_vocab)
        _write_tokenizer(path, script.vocab)
        tokenizer = _model_llg_tokenizer(path, stop_ids)
        fed = _walk_script(
            script.ids,
            compiled=compile_schema(schema, tokenizer=tokenizer, lenient=True),
            tokenizer=tokenizer,
            stop_ids=stop_ids,
        )
        if fed is not None:
            return dataclasses.replace(script, fed=fed)
    raise ModelError(
        f"cannot script the answer for this schema: the plan and llguidance's forced tokens still "
        f"disagree after {_MAX_REPLANS} plans",
        source=path,
    )
