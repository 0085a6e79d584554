"""The schema as an llguidance grammar for one tokenizer and stop set, and one generation's walk through it.

:class:`Constrainer` compiles the bounded schema (:func:`~extractor.runners.constrain.bounds.bounded_schema`) for a
Hugging Face tokenizer, caching llguidance's tokenizers and grammars; :class:`ConstraintState` is one generation's
walk: every step, which tokens may come next (:meth:`ConstraintState.mask`, a packed bitmask the runner applies),
and where the grammar forces text, the forced tokens (:meth:`ConstraintState.forced`, for jump-forward).

Decisions (each one keeps a weak model from breaking or looping):

* Compact JSON: no whitespace between tokens (``whitespace_flexible`` off, separators ``,`` and ``:``), so no
  pretty-printing tokens and no whitespace loops.
* Forced text in any split: where the grammar forces bytes (keys, ``","``, ``":"``), llguidance's mask allows only
  the *canonical* tokenization's next token, so a model that spells ``"seller":{"name":"`` in other, equally valid
  pieces is pushed off its path (a scripted test model is derailed at once; a real model is pushed out of
  distribution). :class:`TokenIndex` widens each such mask to every token whose bytes are a prefix of the forced
  bytes, plus tokens that run past them and that the matcher accepts: no grammar-valid token is ever masked.
* The end: llguidance's tokenizer is built with the request's stop-set ids as its end tokens, so once the value
  closes *only* stop tokens are allowed, and no stop token is allowed before.
  :meth:`CompiledSchema.check_stop_set` checks that the grammar's end tokens are in the request's stop set
  (:class:`~extractor.errors.ModelError` if not).
* Jump-forward feeds llguidance's ``compute_ff_tokens()``: the canonical tokenization of the forced text, without
  the last tokens that could still merge with what follows (e.g. ``":`` before a value that may open with ``"``);
  those the model samples itself, under the widened mask. Stop tokens are never forced.
* Schema keywords llguidance cannot express (``not``, ``if``/``then``/``else``, ``uniqueItems``, ``contains``,
  ``dependentRequired``, ``propertyNames``, ``unevaluatedProperties``, unknown formats): :func:`compile_schema`
  with ``lenient=False`` raises :class:`~extractor.errors.SchemaError` naming them; leniently (as the pipeline
  compiles, :func:`~extractor.runners.constrain.plan.plan_constraint`) they are reported in
  :attr:`CompiledSchema.ignored`.

numpy and llguidance are imported lazily (inside functions), so importing this module costs nothing.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from extractor.errors import ModelError, SchemaError
from extractor.runners.constrain.bounds import bounded_schema
from extractor.runners.stopping import StopSet

MAX_EXTENSION_CHECKS = 256  # tokens running past forced bytes, checked one by one per step at most
# llguidance tokenizers kept per process for the shared Constrainers (``constrainer_for``), by the Rust tokenizer's
# serialized form and stop set: a model loaded again (a new Extractor, a new runner) reuses its tokenizer instead
# of building it again (~2 s each for a 248k vocabulary). A few models' worth; each holds its vocabulary.
MAX_SHARED_TOKENIZERS = 4
JSON_OPTIONS = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}


class TokenIndex:
    """Every token's bytes, for widening masks over forced text (see the module docstring)."""

    def __init__(self, tokenizer) -> None:
        """Read every token's bytes (~0.25 s for 248k tokens; cached per tokenizer by ``Constrainer``).

        Args:
            tokenizer: an ``llguidance.LLTokenizer``.
        """
        special, decode = tokenizer.is_special_token, tokenizer.decode_bytes
        # special tokens are never part of JSON text: no bytes, left out
        data = [b"" if special(token) else decode([token]) for token in range(tokenizer.vocab_size)]
        ids = [token for token, spelled in enumerate(data) if spelled]
        ids.sort(key=data.__getitem__)  # stable: equal bytes keep id order (3x faster than sorting pairs)
        self._sorted_bytes = [data[token] for token in ids]
        self._sorted_ids = ids
        self._widening: dict[bytes, tuple] = {}

    def _spelling(self, data: bytes) -> list[int]:
        """The ids of the tokens whose bytes are exactly ``data``, in id order."""
        start = bisect.bisect_left(self._sorted_bytes, data)
        return self._sorted_ids[start : bisect.bisect_right(self._sorted_bytes, data, lo=start)]

    def widen(self, matcher, words) -> None:
        """Allow, in a freshly computed mask, every valid token that spells the forced bytes differently.

        The tokens that are prefixes of the forced bytes are looked up once per forced text (a cached array, set
        with one numpy call); tokens that run past them are checked with the matcher, at most
        ``MAX_EXTENSION_CHECKS`` per forced text.

        Args:
            matcher: the llguidance matcher in the state the mask was computed for.
            words: the mask as a numpy uint32 view (1, W), modified in place.
        """
        forced = matcher.compute_ff_bytes()
        if not forced:
            return
        import numpy as np

        prefixes, extensions = self._candidates(forced)
        limit = words.shape[1] * 32
        if prefixes.size:
            ids = prefixes[prefixes < limit]
            np.bitwise_or.at(words[0], ids >> 5, np.left_shift(np.uint32(1), (ids & 31).astype(np.uint32)))
        for token in extensions:  # tokens running past the forced bytes: the matcher decides
            if token < limit and not self._is_allowed(words, token) and matcher.validate_tokens([token]) == 1:
                words[0, token >> 5] |= np.uint32(1 << (token & 31))

    def _candidates(self, forced: bytes):
        """(ids spelling a prefix of ``forced``, ids that start with it and run on), cached per forced text."""
        cached = self._widening.get(forced)
        if cached is None:
            import numpy as np

            prefixes = [t for end in range(1, len(forced) + 1) for t in self._spelling(forced[:end])]
            start = bisect.bisect_right(self._sorted_bytes, forced)
            extensions = []
            for j in range(start, min(start + MAX_EXTENSION_CHECKS, len(self._sorted_bytes))):
                if not self._sorted_bytes[j].startswith(forced):
                    break
                extensions.append(self._sorted_ids[j])
            cached = (np.array(prefixes, dtype=np.int64), tuple(extensions))
            if len(self._widening) >= 4096:
                self._widening.clear()  # forced texts come from a handful of schemas: a bound, not an LRU
            self._widening[forced] = cached
        return cached

    @staticmethod
    def _is_allowed(words, token: int) -> bool:
        return token < words.shape[1] * 32 and bool(words[0, token >> 5] >> (token & 31) & 1)


@dataclass(frozen=True)
class CompiledSchema:
    """A schema compiled into an llguidance grammar for one tokenizer and one stop set.

    Attributes:
        grammar: the llguidance grammar (serialized).
        stop_ids: the end tokens the grammar allows after the value (the stop set's ids).
        ignored: llguidance's messages about keywords the grammar ignores (lenient compile only).
        compile_s: seconds spent compiling and checking the grammar.
    """

    grammar: str
    stop_ids: tuple[int, ...]
    ignored: tuple[str, ...]
    compile_s: float
    _tokenizer: Any = field(repr=False, compare=False)  # llguidance.LLTokenizer
    _prototype: Any = field(repr=False, compare=False)  # llguidance.LLMatcher in its start state
    _index: TokenIndex | None = field(default=None, repr=False, compare=False)  # None: no widening

    @property
    def vocab_size(self) -> int:
        """Number of token ids the grammar's tokenizer knows (the mask covers these)."""
        return int(self._tokenizer.vocab_size)

    def new_matcher(self):
        """Return a fresh llguidance matcher in the start state (a copy of a cached one)."""
        return self._prototype.deep_copy()

    def fill_mask(self, matcher, bitmask) -> None:
        """Compute the allowed tokens of a matcher's state into a bitmask (llguidance's, widened over forced text).

        Args:
            matcher: an llguidance matcher from :meth:`new_matcher`.
            bitmask: numpy int32 array (1, ceil(vocab_size / 32)), C-contiguous; overwritten.
        """
        matcher.unsafe_compute_mask_ptr(bitmask.ctypes.data, bitmask.nbytes)
        if self._index is not None:
            import numpy as np

            self._index.widen(matcher, bitmask.view(np.uint32))

    def check_stop_set(self, stop: StopSet) -> None:
        """Raise ModelError when an end token of the grammar is not in a request's stop set (generation would
        never stop on it)."""
        missing = sorted(set(self._tokenizer.eos_tokens) - set(stop.ids))
        if missing or not stop.ids:
            raise ModelError(
                f"the grammar ends on token ids {sorted(self._tokenizer.eos_tokens)}, but the "
                f"request's stop set is {list(stop.ids)} (missing {missing})"
            )

    def start(self, *, jump_forward: bool = True) -> ConstraintState:
        """Return a fresh walk through the grammar for one generation."""
        return ConstraintState(self, jump_forward=jump_forward)


class ConstraintState:
    """One generation's walk through the grammar; the runner drives it.

    Before each sampled token the runner takes :meth:`forced` (the tokens the grammar forces from here on; with
    jump-forward they are fed to the model in one forward pass instead of one decode step each) and
    :meth:`mask` (which tokens the next one may be); it reports every sampled token with :meth:`accept`. After the
    value closes only the stop tokens are allowed.
    """

    def __init__(self, compiled: CompiledSchema, *, jump_forward: bool) -> None:
        """Start in the grammar's start state.

        Args:
            compiled: the compiled schema.
            jump_forward: whether :meth:`forced` hands out forced tokens (False: it always returns ()).
        """
        import numpy as np

        self.compiled = compiled
        self.jump_forward = jump_forward
        self._matcher = compiled.new_matcher()
        words = (compiled.vocab_size + 31) // 32
        self._bitmask = np.zeros((1, words), dtype=np.int32)
        self._stop_only = np.zeros((1, words), dtype=np.int32)
        for token in compiled.stop_ids:
            if token < words * 32:
                self._stop_only.view(np.uint32)[0, token // 32] |= np.uint32(1 << (token % 32))
        self._stops = frozenset(compiled.stop_ids)

    def forced(self) -> tuple[int, ...]:
        """The tokens the grammar forces now (llguidance's canonical tokenization of the forced text, without the
        tokens that could still merge with what follows), already taken as if generated; () without jump-forward
        or when nothing is forced. Stop tokens are never forced: the model samples its end."""
        if not self.jump_forward:
            return ()
        taken: list[int] = []
        while not self._matcher.is_stopped():
            tokens = list(self._matcher.compute_ff_tokens())
            cut = next((i for i, t in enumerate(tokens) if t in self._stops), len(tokens))
            tokens = tokens[:cut]
            if not tokens:
                break
            self._consume(tokens)
            taken += tokens
        return tuple(taken)

    def accept(self, token: int) -> None:
        """Take a sampled token.

        Raises:
            ModelError: the grammar rejected it (cannot happen when the mask was applied).
        """
        self._consume([token])

    def mask(self):
        """The allowed next tokens as llguidance's packed bitmask (numpy int32, (1, ceil(V / 32))): llguidance's
        mask widened over forced text (``TokenIndex.widen``); only the stop tokens once the value is complete."""
        if self._matcher.is_stopped():
            return self._stop_only  # the value closed and an end token was taken: keep the mask valid
        self.compiled.fill_mask(self._matcher, self._bitmask)
        return self._bitmask

    def _consume(self, tokens: list[int]) -> None:
        if not self._matcher.consume_tokens(tokens):
            raise ModelError(
                f"constrained decoding: the grammar rejected token(s) {tokens}: {self._matcher.get_error()[:300]}"
            )


class Constrainer:
    """Compiles schemas for one Hugging Face tokenizer, caching llguidance tokenizers and grammars.

    Thread-safe. Get the shared one for a tokenizer with :func:`constrainer_for`.
    """

    def __init__(self, hf_tokenizer, *, shared: bool = False) -> None:
        """Wrap a tokenizer (nothing is built until first use).

        Args:
            hf_tokenizer: a fast Hugging Face tokenizer (the model's own).
            shared: take llguidance's tokenizer from the process's cache when an equal tokenizer (the same
                serialized form) built it already, and leave it there (``constrainer_for``'s Constrainers);
                False: always build it (``bench/constrained.py`` times the build).
        """
        self._hf = weakref.ref(hf_tokenizer)
        self._shared = shared
        self._lock = threading.Lock()
        self._tokenizers: dict[tuple[int, ...], Any] = {}
        self._compiled: dict[tuple[str, tuple[int, ...], bool], CompiledSchema] = {}
        self._index: TokenIndex | None = None
        self.tokenizer_build_s: dict[tuple[int, ...], float] = {}

    def llg_tokenizer(self, stop_ids: Sequence[int]):
        """Return llguidance's tokenizer whose end tokens are ``stop_ids`` (built once per stop set, ~1-2 s).

        Args:
            stop_ids: the stop set's ids.

        Returns:
            The ``llguidance.LLTokenizer``.

        Raises:
            ModelError: llguidance is missing or cannot read the tokenizer (it needs a fast tokenizer).
        """
        key = tuple(sorted(set(stop_ids)))
        with self._lock:
            cached = self._tokenizers.get(key)
            if cached is not None:
                return cached
            hf = self._hf()
            if hf is None:
                raise ModelError("constrained decoding: the tokenizer was released")
            start = time.perf_counter()
            try:
                built = _llg_tokenizer(hf, key, shared=self._shared)
            except ImportError as exc:
                raise ModelError(f"constrained decoding needs the llguidance package: {exc}") from exc
            except Exception as exc:  # noqa: BLE001 - any llguidance failure to read the tokenizer
                raise ModelError(f"llguidance cannot use this tokenizer ({type(hf).__name__}): {exc}") from exc
            self.tokenizer_build_s[key] = time.perf_counter() - start
            self._tokenizers[key] = built
            return built

    def compile(self, schema: Mapping[str, Any], *, stop_ids: Sequence[int], lenient: bool = True) -> CompiledSchema:
        """Compile a schema (bounded first, see :func:`bounded_schema`) for this tokenizer; cached.

        Args:
            schema: the JSON Schema as the user wrote it.
            stop_ids: the end tokens allowed after the value.
            lenient: ignore keywords llguidance cannot express (reported in ``ignored``) instead of raising.

        Returns:
            The CompiledSchema.

        Raises:
            SchemaError: llguidance cannot compile the schema (strict: names the unsupported keywords).
            ModelError: the tokenizer cannot be used, or the stop set is empty.
        """
        key_ids = tuple(sorted(set(stop_ids)))
        if not key_ids:
            raise ModelError("constrained decoding needs at least one stop token (the stop set is empty)")
        key = (json.dumps(schema, sort_keys=True, ensure_ascii=False), key_ids, lenient)
        with self._lock:
            cached = self._compiled.get(key)
        if cached is not None:
            return cached
        tokenizer = self.llg_tokenizer(key_ids)
        compiled = compile_schema(schema, tokenizer=tokenizer, lenient=lenient, index=self.token_index(tokenizer))
        with self._lock:
            self._compiled[key] = compiled
        return compiled

    def token_index(self, tokenizer) -> TokenIndex:
        """Return the TokenIndex of this tokenizer (token bytes do not depend on the stop set; built once).

        Args:
            tokenizer: one of this Constrainer's ``llguidance.LLTokenizer``.

        Returns:
            The TokenIndex.
        """
        with self._lock:
            if self._index is None:
                self._index = TokenIndex(tokenizer)
            return self._index


_SHARED_TOKENIZERS: dict[tuple[str, tuple[int, ...]], Any] = {}  # oldest first
_SHARED_TOKENIZERS_LOCK = threading.Lock()


def _llg_tokenizer(hf, eos_ids: tuple[int, ...], *, shared: bool):
    """llguidance's tokenizer for ``hf`` with ``eos_ids`` as its end tokens (:func:`_built_llg_tokenizer`);
    ``shared``: the process's one for the same serialized Rust tokenizer and end tokens when there is one (an
    LLTokenizer is immutable: matchers only read it), else built and kept."""
    backend = getattr(hf, "backend_tokenizer", None)
    if not shared or backend is None:
        return _built_llg_tokenizer(hf, eos_ids)
    key = (hashlib.sha256(backend.to_str().encode()).hexdigest(), eos_ids)  # ~0.1 s for 248k tokens
    with _SHARED_TOKENIZERS_LOCK:
        found = _SHARED_TOKENIZERS.get(key)
    if found is None:
        found = _built_llg_tokenizer(hf, eos_ids)
        with _SHARED_TOKENIZERS_LOCK:
            _SHARED_TOKENIZERS[key] = found
            while len(_SHARED_TOKENIZERS) > MAX_SHARED_TOKENIZERS:
                del _SHARED_TOKENIZERS[next(iter(_SHARED_TOKENIZERS))]
    return found


def _built_llg_tokenizer(hf, eos_ids: tuple[int, ...]):
    """``llguidance.hf.from_tokenizer(hf, eos_token=eos_ids)``, without its copy of the Rust tokenizer where that
    copy changes nothing (no padding, no truncation to switch off): the copy is a serialization round trip, 0.6 of
    its 2.9 s on a 248k-token vocabulary."""
    import llguidance
    import llguidance.hf
    import transformers

    backend = getattr(hf, "backend_tokenizer", None)
    if (
        isinstance(hf, transformers.PreTrainedTokenizerFast)
        and backend is not None
        and backend.padding is None
        and backend.truncation is None
    ):
        return llguidance.LLTokenizer(backend.to_str(), eos_token=list(eos_ids))
    return llguidance.hf.from_tokenizer(hf, eos_token=list(eos_ids))


def compile_schema(
    schema: Mapping[str, Any], *, tokenizer, lenient: bool = False, index: TokenIndex | None = None
) -> CompiledSchema:
    """Compile a JSON Schema (its bounded copy) into an llguidance grammar for a tokenizer.

    Args:
        schema: the JSON Schema as the user wrote it.
        tokenizer: an ``llguidance.LLTokenizer`` whose end tokens are the stop set.
        lenient: ignore keywords llguidance cannot express (reported in ``ignored``) instead of raising.
        index: the tokenizer's TokenIndex, to widen masks over forced text (None: llguidance's masks as they are).

    Returns:
        The CompiledSchema.

    Raises:
        SchemaError: llguidance cannot compile it; the message names the unsupported keywords or formats.
    """
    from llguidance import LLMatcher

    start = time.perf_counter()
    options = dict(JSON_OPTIONS, lenient=lenient)
    try:
        grammar = LLMatcher.grammar_from_json_schema(bounded_schema(schema), overrides=options)
    except ValueError as exc:
        raise SchemaError(f"llguidance cannot read the schema: {exc}") from exc
    prototype = LLMatcher(tokenizer, grammar, log_level=0)  # compiles the grammar against the tokenizer
    if prototype.is_error():
        raise SchemaError(f"llguidance cannot express this schema: {prototype.get_error()}")
    messages = prototype.get_grammar_warnings()  # lenient: the keywords and formats it ignored
    return CompiledSchema(
        grammar=grammar,
        stop_ids=tuple(sorted(tokenizer.eos_tokens)),
        ignored=tuple(messages),
        compile_s=time.perf_counter() - start,
        _tokenizer=tokenizer,
        _prototype=prototype,
        _index=index,
    )


# One Constrainer per live tokenizer object (the runner keeps its tokenizer for its whole life).
_CONSTRAINERS: weakref.WeakKeyDictionary[Any, Constrainer] = weakref.WeakKeyDictionary()
_CONSTRAINERS_LOCK = threading.Lock()


def constrainer_for(hf_tokenizer) -> Constrainer:
    """Return the shared Constrainer of a tokenizer (created on first use).

    Args:
        hf_tokenizer: the model's Hugging Face tokenizer.

    Returns:
        The Constrainer.
    """
    with _CONSTRAINERS_LOCK:
        found = _CONSTRAINERS.get(hf_tokenizer)
        if found is None:
            found = _CONSTRAINERS[hf_tokenizer] = Constrainer(hf_tokenizer, shared=True)
        return found


__all__ = [
    "JSON_OPTIONS",
    "MAX_EXTENSION_CHECKS",
    "CompiledSchema",
    "ConstraintState",
    "Constrainer",
    "TokenIndex",
    "compile_schema",
    "constrainer_for",
]
