"""Our own decode loop, written against the contract every mlx-vlm 0.7.10 family shares (the one ``generate_step``
relies on), so one loop serves qwen3_5, qwen2_5_vl, gemma3, idefics3, mistral3 and the rest alike:

* caches from ``mlx_vlm.models.cache.make_prompt_cache(language_model)`` (a model's own ``make_cache`` when it has
  one, else one ``KVCache`` per layer);
* ``model.get_input_embeddings(ids, pixel_values, mask=..., **processor extras)``, and every non-empty field of its
  result (mRoPE positions, deepstack features, per-layer inputs, ...) passed with the processor's extras to each
  prefill pass, exactly as ``generate_step`` passes them (the models slice sequence-aligned ones by cache offset);
  decode passes get token ids only;
* tokens the grammar forces (jump-forward) and every sampled token fed as ids, so each model embeds and scales them
  itself (Gemma's ``embed_scale``);
* logits from ``out.logits``; only where a model has the hidden-state hook (``speculative_logits_from_hidden``,
  qwen3_5) is the lm_head applied to the last position alone.

What makes it faster than ``generate_step`` (and where it is exact is decided at load, ``runners.decoding``):

* prefix cache: the prompt's shared prefix (everything before the first image) is prefilled once per process and
  restored for every later document (``prefix_cache.PrefixCache``);
* jump-forward: the forced tokens go into the model with the token before them, without sampling: in the same
  forward pass, or, where the load-time timing finds a multi-token pass dearer (a Gated-DeltaNet layer without
  mlx-vlm's Metal kernel pads every multi-token pass to a 64-token chunked scan), one token per pass, their
  outputs never evaluated (so no lm_head runs for them);
* constraint masks computed on the host while the model's forward pass runs (mlx evaluates lazily).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from extractor.runners.base import Constraint, GenerationRequest, GuardHit
from extractor.runners.mlx.prefix_cache import MIN_PREFIX_TOKENS
from extractor.runners.token_evidence import EvidenceCollector

PREFILL_STEP = 2048  # prompt tokens per forward pass while prefilling (bounds the attention's memory)
STEPWISE_MAX = 8  # the longest forced run fed one token per pass where that is faster (``Forward.stepwise``)
# prepare_inputs' outputs that are not processor extras: the ids, the pixels and the padding mask go their own way
_NOT_EXTRAS = ("input_ids", "pixel_values", "attention_mask")


@dataclass
class Prompt:
    """A request's prompt as the model sees it: ids, embeddings (images merged in), the keyword arguments every
    prefill pass gets, and how much of it a cached prefix covers."""

    ids: Any  # mx array (1, L) (mlx is not type-checked: its arrays are Any here)
    embeddings: Any  # mx array (1, L, H)
    prefill_kwargs: dict  # processor extras + the embedding step's fields, for the language model's prefill passes
    image_tokens: int
    prefix_ids: tuple[int, ...]  # the tokens before the first image: the part every document shares
    last_is_text: bool  # the prompt's last token is text (it can be fed as an id with the forced tokens)
    cached: int = 0

    @property
    def prefix(self) -> int:
        return len(self.prefix_ids)

    @property
    def length(self) -> int:
        return int(self.ids.shape[1])


def media_ids(config) -> set[int]:
    """The ids of image (and video) placeholders in a prompt, from the model's config (mlx-vlm's own list)."""
    from mlx_vlm.apc import multimodal_token_ids_from_config

    return {i for i in multimodal_token_ids_from_config(config) if i >= 0}


def prepare_inputs(model, processor, prompt: str, images) -> dict:
    """Tokenize the prompt and preprocess the images with mlx-vlm's processor (as ``generate`` does)."""
    from mlx_vlm.utils import prepare_inputs as mlx_prepare
    from mlx_vlm.utils import should_add_special_tokens

    return mlx_prepare(
        processor,
        images=list(images) or None,
        prompts=prompt,
        image_token_index=getattr(model.config, "image_token_index", None),
        add_special_tokens=should_add_special_tokens(model.config.model_type, processor),
    )


def split_inputs(inputs: dict) -> tuple[Any, Any, Any, dict]:
    """``prepare_inputs``' result as (ids, pixel values, attention mask, processor extras)."""
    extras = {k: v for k, v in inputs.items() if k not in _NOT_EXTRAS}
    return inputs["input_ids"], inputs.get("pixel_values"), inputs.get("attention_mask"), extras


def embed(model, inputs: dict) -> tuple[Any, dict]:
    """Run the embedding step (the vision tower runs here) as ``generate_step`` does.

    Returns:
        (inputs_embeds, the keyword arguments for the language model's prefill passes).
    """
    ids, pixels, mask, extras = split_inputs(inputs)
    embedded = model.get_input_embeddings(ids, pixels, mask=mask, **extras)
    kwargs = dict(extras)
    kwargs.update({k: v for k, v in embedded.to_dict().items() if k != "inputs_embeds" and v is not None})
    return embedded.inputs_embeds, kwargs


def count_media(ids, media_ids) -> int:
    """How many of a prompt's token ids are image placeholders."""
    return sum(1 for t in ids if t in media_ids)


def build_prompt(inputs: dict, embedded: tuple, *, media_ids: frozenset, boundary_ids: frozenset) -> Prompt:
    """A prepared and embedded prompt, with its shared prefix found.

    Args:
        inputs: ``prepare_inputs``' result.
        embedded: ``embed``'s result for it.
        media_ids: the image placeholder ids (counted as image tokens).
        boundary_ids: ids where the shared prefix ends (the first image's start marker or placeholder).
    """
    import mlx.core as mx

    embeddings, kwargs = embedded
    ids = inputs["input_ids"]
    flat = ids[0].tolist()
    prefix = next((i for i, t in enumerate(flat) if t in boundary_ids), 0)
    mx.eval(embeddings)
    return Prompt(
        ids=ids,
        embeddings=embeddings,
        prefill_kwargs=kwargs,
        image_tokens=count_media(flat, media_ids),
        prefix_ids=tuple(flat[:prefix]),
        last_is_text=flat[-1] not in media_ids,
    )


CALL_STATE = ("_position_ids", "_rope_deltas")  # per-call mRoPE state Qwen-style language models keep


def reset_call_state(lm) -> None:
    """Forget the per-call mRoPE state a Qwen-style language model keeps from its last call."""
    for name in CALL_STATE:
        if hasattr(lm, name):
            setattr(lm, name, None)


def save_call_state(lm) -> dict:
    """The language model's per-call state now (a batched sequence keeps its own between passes)."""
    return {name: getattr(lm, name) for name in CALL_STATE if hasattr(lm, name)}


def restore_call_state(lm, state: dict) -> None:
    """Put a sequence's per-call state back before its pass (``{}``: a new sequence: reset)."""
    if not state:
        reset_call_state(lm)
    for name, value in state.items():
        setattr(lm, name, value)


def probe_prompt(model, processor, text_prompt: str, images=()) -> tuple[Any, Any, dict]:
    """A load-time probe's prompt, prepared and embedded: (ids, embeddings, the prefill's keyword arguments)."""
    inputs = prepare_inputs(model, processor, text_prompt, images)
    embeddings, kwargs = embed(model, inputs)
    return inputs["input_ids"], embeddings, kwargs


def prefilled(forward, ids, embeddings, kwargs: dict) -> list:
    """A fresh cache (and per-call state) holding a probe prompt but its last token, which the caller feeds."""
    reset_call_state(forward.lm)
    cache = make_cache(forward.lm)
    forward.prefill(ids[:, :-1], embeddings[:, :-1], cache, kwargs)
    return cache


def make_cache(lm) -> list:
    """An empty model cache for the language model (its own layout, or one KVCache per layer)."""
    from mlx_vlm.models.cache import make_prompt_cache

    return make_prompt_cache(lm)


class Forward:
    """The language model's forward passes, as the fast loop uses them (one object per loaded model)."""

    def __init__(self, lm, *, hidden_head: bool, stepwise: bool = False) -> None:
        """Args: lm: the language model; hidden_head: apply the lm_head to the last hidden state only
        (``speculative_logits_from_hidden``; qwen3_5); stepwise: feed forced runs of up to ``STEPWISE_MAX``
        tokens one token per pass (``runners.decoding`` times both ways at load)."""
        self.lm = lm
        self.hidden_head = hidden_head
        self.stepwise = stepwise
        self._head_site = None if hidden_head else _head_site(lm)  # where the lm_head lives (batching splits it)

    def prefill(self, ids, embeddings, cache, kwargs: dict) -> None:
        """Run prompt tokens into the cache; their logits are never evaluated."""
        import mlx.core as mx

        extra = {"skip_logits": True} if self.hidden_head else {}
        self.lm(ids, inputs_embeds=embeddings, cache=cache, **kwargs, **extra)
        mx.eval([c.state for c in cache])

    def logits(self, ids, cache, *, embeddings=None, kwargs: dict | None = None):
        """One forward pass over ``ids``; the (1, V) logits of its last position (evaluation started, not awaited)."""
        import mlx.core as mx

        kwargs = kwargs or {}
        ids = self._stepped(ids, cache, embeddings)
        if self.hidden_head:
            out = self.lm(ids, inputs_embeds=embeddings, cache=cache, skip_logits=True, return_hidden=True, **kwargs)
            logits = self.lm.speculative_logits_from_hidden(out.hidden_states[-1][:, -1, :])
        else:
            out = self.lm(ids, inputs_embeds=embeddings, cache=cache, **kwargs)
            logits = out.logits[:, -1, :]
        mx.async_eval(logits)
        return logits

    def layers(self, ids, cache) -> None:
        """A pass over token ``ids`` into the cache whose outputs are never used: lazily, no lm_head runs."""
        self.lm(ids, cache=cache, **({"skip_logits": True} if self.hidden_head else {}))

    def _stepped(self, ids, cache, embeddings):
        """Where forced runs go one token per pass: all of a short run of token ids but its last go in now, one
        pass each (as ``generate_step`` feeds them); the rest, for the pass that gives the logits."""
        if not self.stepwise or embeddings is not None or not 1 < ids.shape[1] <= STEPWISE_MAX:
            return ids
        for i in range(ids.shape[1] - 1):
            self.layers(ids[:, i : i + 1], cache)
        return ids[:, -1:]

    def can_split_head(self) -> bool:
        """Whether the lm_head can run apart from the layers (``hidden`` + ``head``): the hidden-state hook, a
        separate ``lm_head`` module, or tied embeddings' ``as_linear``, applied last (``runners.batching`` checks
        that it is exact)."""
        return self.hidden_head or self._head_site is not None

    def hidden(self, ids, cache, *, embeddings=None, kwargs: dict | None = None):
        """One forward pass over ``ids`` without the lm_head: the (1, H) hidden state its last position gives the
        head (lazy). Only where ``can_split_head``."""
        kwargs = kwargs or {}
        ids = self._stepped(ids, cache, embeddings)
        if self.hidden_head:
            out = self.lm(ids, inputs_embeds=embeddings, cache=cache, skip_logits=True, return_hidden=True, **kwargs)
            return out.hidden_states[-1][:, -1, :]
        owner, name = self._split_site()
        # the model applies its head last: with an identity in its place, its "logits" are the head's input. An
        # instance attribute shadows the module's child (or method) and is removed after the pass.
        object.__setattr__(owner, name, _Identity())
        try:
            out = self.lm(ids, inputs_embeds=embeddings, cache=cache, **kwargs)
        finally:
            object.__delattr__(owner, name)
        return out.logits[:, -1, :]

    def head(self, hidden):
        """The lm_head over stacked hidden states (B, H): (B, V) logits."""
        if self.hidden_head:
            return self.lm.speculative_logits_from_hidden(hidden)
        owner, name = self._split_site()
        return getattr(owner, name)(hidden)

    def _split_site(self) -> tuple[Any, str]:
        if self._head_site is None:
            raise RuntimeError("the lm_head cannot run apart from the layers here (can_split_head is False)")
        return self._head_site


def _head_site(lm) -> tuple[Any, str] | None:
    """Where a language model's head lives: (lm, "lm_head") or (its embed_tokens, "as_linear"), or None."""
    if _is_module(getattr(lm, "lm_head", None)):
        return lm, "lm_head"
    embed_tokens = getattr(getattr(lm, "model", None), "embed_tokens", None)
    if _is_module(embed_tokens) and callable(getattr(embed_tokens, "as_linear", None)):
        return embed_tokens, "as_linear"
    return None


def _is_module(value) -> bool:
    import mlx.nn as nn

    return isinstance(value, nn.Module)


class _Identity:
    """Stands in for a model's lm_head during ``Forward.hidden``."""

    def __call__(self, x):
        return x


class Sampler:
    """Greedy (temperature 0) or categorical sampling at ``temperature``; with a seed, from the sequence's own
    random key (split once per token, as mlx's global generator does after ``mx.random.seed``), so a sequence
    samples the same tokens alone or batched with others."""

    def __init__(self, temperature: float, seed: int | None) -> None:
        import mlx.core as mx

        self.temperature = temperature
        self._key = mx.random.key(seed) if seed is not None and temperature > 0 else None

    def __call__(self, logits):
        import mlx.core as mx

        if self.temperature <= 0:
            return mx.argmax(logits, axis=-1)
        if self._key is None:
            return mx.random.categorical(logits * (1.0 / self.temperature))
        self._key, key = mx.random.split(self._key)
        return mx.random.categorical(logits * (1.0 / self.temperature), key=key)


def sample(logits, temperature: float):
    """Greedy (temperature 0) or categorical sampling at ``temperature`` from mlx's global generator."""
    import mlx.core as mx

    if temperature <= 0:
        return mx.argmax(logits, axis=-1)
    return mx.random.categorical(logits * (1.0 / temperature))


class Decoder:
    """One generation on the fast loop, as a step machine the serial loop (``run``) and the batched one
    (``runners.batching``) drive alike: prefill (reusing a cached prefix, in chunks: ``prefill_step``), then, per
    forward pass over ``feed``, ``advance`` samples under the constraint's masks and feeds the tokens the grammar
    forces in the next pass (jump-forward), until a stop token, a guard or max_tokens. ``tokens``, ``finish``,
    ``stop_id``, ``hit`` and ``steps`` hold the outcome."""

    def __init__(
        self, *, forward: Forward, request: GenerationRequest, piece, prefix_cache, use_prefix: bool, jump_forward: bool
    ) -> None:
        """Args:
        forward: the model's passes.
        request: the generation request.
        piece: token id -> its text (for the monitors).
        prefix_cache: the runner's ``PrefixCache``.
        use_prefix: whether the prefix cache may be used for this request (exact for this model and request).
        jump_forward: whether forced tokens may share a forward pass (exact for this model).
        """
        self.forward, self.request, self.piece = forward, request, piece
        self.prefix_cache, self.use_prefix = prefix_cache, use_prefix and request.prefix_cache
        self.constraint: Constraint | None = request.constraint() if request.constraint else None
        self.jump_forward = jump_forward and bool(getattr(self.constraint, "jump_forward", False))
        self.monitors = list(request.monitor_factory()) if request.monitor_factory else []
        self.stop_ids = frozenset(request.stop.ids)
        self.sampler = Sampler(request.temperature, request.seed)
        # per-token evidence (``runners.token_evidence``)
        self.evidence = EvidenceCollector() if request.evidence else None
        self.tokens: list[int] = []  # generated, fed ones included
        self.text = ""  # piecewise decode so far, for the monitors (grown in place: O(new text) per token)
        self.finish = "length"
        self.stop_id: int | None = None
        self.hit: GuardHit | None = None
        self.steps = 0  # forward passes that ended in sampling a token
        self.cache: list | None = None
        self.last_prompt_token = 0
        # the next pass: (ids, embeddings or None, prefill kwargs or None)
        self.feed: tuple[Any, Any, dict | None] | None = None
        self.prompt_counts = (0, 0, 0)  # (prompt tokens, image tokens, cached prompt tokens), set by ``begin``
        self._prompt: Prompt | None = None
        self._chunks: list[tuple[int, int]] = []

    @property
    def finished(self) -> bool:
        """A stop token, a guard or max_tokens ended the generation."""
        return self.stop_id is not None or self.hit is not None or len(self.tokens) >= self.request.max_tokens

    def prefill(self, prompt: Prompt):
        """Run the whole prompt (after any cached prefix) and the forced start; return the next logits."""
        reset_call_state(self.forward.lm)
        self.begin(prompt)
        while not self.prefill_step():
            pass
        ids, embeddings, kwargs = self._next_feed()
        return self.forward.logits(ids, self.cache, embeddings=embeddings, kwargs=kwargs)

    def begin(self, prompt: Prompt) -> None:
        """Restore the shared prefix and plan the rest of the prompt's prefill in chunks (``prefill_step``)."""
        self._prompt = prompt
        self.last_prompt_token = int(prompt.ids[0, -1].item())
        start = self._restore_prefix(prompt)
        self.prompt_counts = (prompt.length, prompt.image_tokens, prompt.cached)
        end = prompt.length - 1  # the last prompt token goes in the pass that gives logits
        self._chunks = [(chunk, min(chunk + PREFILL_STEP, end)) for chunk in range(start, end, PREFILL_STEP)]

    def prefill_step(self) -> bool:
        """Prefill the next chunk; True when the prompt is in (``feed`` then holds the first logits pass)."""
        import mlx.core as mx

        prompt = self._prompt
        if prompt is None:
            raise RuntimeError("prefill_step before begin, or after the prompt is in")
        if self._chunks:
            chunk, stop = self._chunks.pop(0)
            self.forward.prefill(
                prompt.ids[:, chunk:stop], prompt.embeddings[:, chunk:stop], self.cache, prompt.prefill_kwargs
            )
            if self._chunks:
                return False
        forced = self._take_forced() if prompt.last_is_text else []
        if forced:
            self.feed = (mx.array([[self.last_prompt_token, *forced]], dtype=prompt.ids.dtype), None, None)
        else:
            self.feed = (prompt.ids[:, -1:], prompt.embeddings[:, -1:], prompt.prefill_kwargs)
        self._prompt = None  # the embeddings are no longer needed
        return True

    def _restore_prefix(self, prompt: Prompt) -> int:
        """Restore (or prefill and keep) the shared prefix; return the first prompt position still to prefill."""
        lm = self.forward.lm
        if not self.use_prefix or prompt.prefix < MIN_PREFIX_TOKENS or prompt.prefix >= prompt.length - 1:
            self.cache = make_cache(lm)
            return 0
        key = prompt.prefix_ids
        self.cache = self.prefix_cache.restore(key, lambda: make_cache(lm))
        if self.cache is None:
            self.cache = make_cache(lm)
            self.forward.prefill(
                prompt.ids[:, : prompt.prefix], prompt.embeddings[:, : prompt.prefix], self.cache, prompt.prefill_kwargs
            )
            self.prefix_cache.keep(key, self.cache)
        else:
            prompt.cached = prompt.prefix
        return prompt.prefix

    def run(self, logits) -> None:
        """Sample until a stop token, a guard or max_tokens; the results stay on this object."""
        while not self.finished:
            if self.advance(logits):
                return
            logits = self.forward.logits(self._next_feed()[0], self.cache)

    def _next_feed(self) -> tuple[Any, Any, dict | None]:
        """``feed``, which the prefill and every ``advance`` that goes on set."""
        if self.feed is None:
            raise RuntimeError("no pass to run: the prompt is not prefilled")
        return self.feed

    def mask(self):
        """The constraint's token mask for the next token (computed on the host), or None without a constraint."""
        import mlx.core as mx

        words = self._words()
        return None if words is None else mx.array(words)

    def _words(self):
        """The next token's mask as the constraint's packed numpy words (noted by the evidence), or None."""
        if self.constraint is None:
            return None
        words = self.constraint.mask()
        if self.evidence is not None:
            self.evidence.note_mask(words)  # a one-token mask: the grammar forces the token
        return words

    def _allowed_argmax(self, raw, words):
        """Greedy decoding's token when the model's own best token is one the mask allows: then it is the masked
        argmax too (masking only removes tokens; the first best index stays the first), and the mask need not be
        applied to the 248k logits (~0.6 ms a step on the CPU). None when sampling, or when the mask forbids it."""
        import mlx.core as mx

        if self.sampler.temperature > 0:
            return None
        best: Any = mx.argmax(raw, axis=-1)
        token = int(best.item())
        flat = words.reshape(-1)
        word = token >> 5
        return best if word < flat.size and (int(flat[word]) >> (token & 31)) & 1 else None

    def advance(self, logits, *, mask=None) -> bool:
        """Sample from the (1, V) logits of the pass over ``feed`` (the constraint's mask is computed while that
        pass runs, or passed in: ``mask()``), take the token and the tokens it forces; True when the generation is
        over, else ``feed`` holds the next pass.

        The request's logits processors run first, then the mask: the evidence (``runners.token_evidence``) is read
        from the distribution between the two, so it says what the model wanted, not what the grammar allowed.
        """
        import mlx.core as mx

        from extractor.runners.constrain.mask import apply_bitmask

        for processor in self.request.logits_processors:
            logits = processor(mx.array([self.last_prompt_token, *self.tokens]), logits)
        raw = logits
        if self.evidence is not None:
            self.evidence.flush()  # the previous step's, on the host, while this step's pass runs
        sampled = None
        if self.constraint is not None:
            words = self._words() if mask is None else None  # (the batched loop hands its mask in)
            sampled = self._allowed_argmax(raw, words) if words is not None else None
            if sampled is None:
                logits = apply_bitmask(logits, mask if mask is not None else mx.array(words))  # type: ignore[arg-type]
        if sampled is None:
            sampled = self.sampler(logits)
        if self.evidence is not None:
            token = self.evidence.take(raw, sampled)  # the step's one synchronisation
        else:
            token = int(sampled.item())
        self.steps += 1
        if self._take(token):
            return True
        if self.constraint is not None:
            self.constraint.accept(token)
        forced = self._take_forced()
        if self.finished:
            return True
        self.feed = (mx.array([[token, *forced]]), None, None)
        return False

    def _take(self, token: int) -> bool:
        """Record a sampled token; True when it ends the generation (a stop token or a guard)."""
        self.tokens.append(token)
        if token in self.stop_ids:
            self.finish, self.stop_id = "stop", token
            return True
        self._watch(token)
        return self.hit is not None

    def _take_forced(self) -> list[int]:
        """The tokens the grammar forces now (jump-forward), cut to max_tokens and at a guard, recorded."""
        if self.constraint is None or not self.jump_forward:
            return []
        forced = list(self.constraint.forced())[: self.request.max_tokens - len(self.tokens)]
        taken = []
        for token in forced:
            self.tokens.append(token)
            taken.append(token)
            self._watch(token)
            if self.hit is not None:
                break
        if self.evidence is not None:
            self.evidence.forced_tokens(len(taken))
        return taken

    def _watch(self, token: int) -> None:
        self.text += self.piece(token)
        hit = check_monitors(self.monitors, token, self.text)
        if hit is not None:
            self.hit, self.finish = hit, "guard"


def check_monitors(monitors, token: int, text: str) -> GuardHit | None:
    """Feed one token to the guards; the first hit, or None."""
    for monitor in monitors:
        hit = monitor.feed(token, text)
        if hit is not None:
            return hit
    return None
