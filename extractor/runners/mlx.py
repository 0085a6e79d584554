"""The mlx-vlm runner: loads a model once, generates in our own loop with per-call stop matching.

mlx / mlx-vlm are imported lazily (inside functions), so ``--help``, ``doctor`` and parsing work without them.

Why our own loop: mlx-vlm 0.7.10's ``generate(eos_tokens=...)`` extends the processor's shared StoppingCriteria (the
ids stay for later calls), ``stream_generate`` ignores the argument, and its qwen3_5 config adds 248046 only when the
top-level eos is missing. We call the model ourselves (mlx-vlm's ``get_input_embeddings`` and language model) and
test each token against the request's stop set. The loop also does what ``generate_step`` cannot:

* prefix cache: the prompt's shared prefix (everything before the first image) is prefilled once per process and
  restored for every later document (``prefix_cache.PrefixCache``); mlx-vlm's own prompt caches reuse a prefix
  only when the rest is text, and ours is followed by the page images;
* jump-forward: tokens the grammar forces (``constrain.ConstraintState.forced``) go into the model in the same
  forward pass as the sampled token before them, instead of one decode step each;
* constraint masks computed on the host while the model's forward pass runs (mlx evaluates lazily and
  asynchronously), and the lm_head applied to the last position only.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Optional

from ..errors import ModelError
from ..modelfiles import resolve_model_dir
from ..prompt import template_options
from ..runner import GenerationRequest, GenerationResult, GuardHit
from ..stopping import StopSet, resolve_stop_set
from .prefix_cache import MIN_PREFIX_TOKENS, PrefixCache

PREFILL_STEP = 2048  # prompt tokens per forward pass while prefilling (bounds the attention's memory)

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class MlxRunner:
    """A model loaded with ``mlx_vlm.load``, reused for every document.

    Thread-safe: generations are serialized by a lock (mlx-vlm models keep per-call state such as mRoPE deltas).
    """

    def __init__(self, *, model: str) -> None:
        """Load the model.

        Args:
            model: local model directory or cached hub id.

        Raises:
            ModelError: the model cannot be found or loaded.
        """
        self.model_dir = resolve_model_dir(model)
        self.model_id = model
        self.stop_set: StopSet = resolve_stop_set(self.model_dir)
        self._lock = threading.Lock()
        self._pieces: dict[int, str] = {}
        try:
            from mlx_vlm import load

            self._model, self._processor = load(str(self.model_dir))
        except Exception as exc:  # noqa: BLE001 - surface every load failure as ModelError
            raise ModelError(f"cannot load model {model}: {exc}", source=model) from exc
        self.tokenizer = getattr(self._processor, "tokenizer", self._processor)
        image_processor = getattr(self._processor, "image_processor", None)
        patch = int(getattr(image_processor, "patch_size", 16) or 16)
        merge = int(getattr(image_processor, "merge_size", 2) or 2)
        self._merge = merge
        self.pixels_per_token = (patch * merge) ** 2
        self.template_text = self._chat_template_source()
        config = self._model.config
        # the shared prefix ends where the first image starts (its <|vision_start|> or, without one, its pad)
        self._image_boundary_ids = frozenset(i for i in (getattr(config, "vision_start_token_id", None),
                                                         getattr(config, "image_token_index", None),
                                                         getattr(config, "image_token_id", None)) if i is not None)
        self._prefix_cache = PrefixCache()

    def clear_prefix_cache(self) -> None:
        """Forget every cached prompt prefix (the next document prefills its whole prompt again): for benches and
        tests that time or check a cold start."""
        with self._lock:
            self._prefix_cache.clear()

    def _chat_template_source(self) -> str:
        template = getattr(self._processor, "chat_template", None) or getattr(self.tokenizer, "chat_template", "")
        return template if isinstance(template, str) else ""

    def render_prompt(self, request: GenerationRequest) -> str:
        """Render the request's messages through the model's own chat template.

        Args:
            request: the generation request.

        Returns:
            The prompt string (with image placeholders).
        """
        from mlx_vlm.prompt_utils import apply_chat_template

        messages = [{"role": m.role, "content": m.text} for m in request.messages]
        extra = template_options(self.template_text)
        return apply_chat_template(
            self._processor, self._model.config, messages, num_images=len(request.images), **extra
        )

    def _piece(self, token_id: int) -> str:
        piece = self._pieces.get(token_id)
        if piece is None:
            piece = self.tokenizer.decode([token_id], skip_special_tokens=False)
            self._pieces[token_id] = piece
        return piece

    def generate(self, request: GenerationRequest) -> GenerationResult:
        """Generate an answer, stopping on the request's own stop set.

        Args:
            request: prompt, images, limits, stop set, logits processors and monitors.

        Returns:
            The GenerationResult (finish_reason ``stop``, ``length`` or ``guard``).

        Raises:
            ModelError: mlx-vlm failed.
        """
        with self._lock:
            try:
                return self._generate(request)
            except ModelError:
                raise
            except Exception as exc:  # noqa: BLE001 - a model failure becomes an error record
                raise ModelError(f"generation failed: {type(exc).__name__}: {exc}", source=self.model_id) from exc

    def _generate(self, request: GenerationRequest) -> GenerationResult:
        import mlx.core as mx

        if request.seed is not None:
            mx.random.seed(request.seed)
        prompt = _Prompt.build(self, request)
        mx.reset_peak_memory()
        start = time.perf_counter()
        decoder = _Decoder(self, request)
        logits = decoder.prefill(prompt)
        first_at = time.perf_counter()
        decoder.run(logits)
        end = time.perf_counter()
        return GenerationResult(
            text=self._final_text(decoder.tokens, decoder.stop_id, decoder.text, decoder.hit),
            token_ids=tuple(decoder.tokens),
            finish_reason=decoder.finish,
            stop_token_id=decoder.stop_id,
            guard=decoder.hit.guard if decoder.hit else None,
            prompt_tokens=prompt.length,
            image_tokens=prompt.image_tokens,
            generated_tokens=len(decoder.tokens),
            cached_prompt_tokens=prompt.cached,
            decode_steps=decoder.steps,
            prefill_s=first_at - start,
            decode_s=end - first_at,
            peak_memory_gb=mx.get_peak_memory() / 1e9,
        )

    def _inputs(self, request: GenerationRequest) -> dict:
        """Tokenize the prompt and preprocess the images (mlx-vlm's processor)."""
        from mlx_vlm.utils import prepare_inputs, should_add_special_tokens

        return prepare_inputs(
            self._processor,
            images=list(request.images) or None,
            prompts=self.render_prompt(request),
            image_token_index=getattr(self._model.config, "image_token_index", None),
            add_special_tokens=should_add_special_tokens(self._model.config.model_type, self._processor),
        )

    @staticmethod
    def _check_monitors(monitors, token: int, text: str) -> Optional[GuardHit]:
        if not monitors:
            return None
        for monitor in monitors:
            hit = monitor.feed(token, text)
            if hit is not None:
                return hit
        return None

    def _final_text(self, tokens: list[int], stop_id: Optional[int], pieced: str, hit) -> str:
        answer = tokens[:-1] if stop_id is not None else tokens
        text = self.tokenizer.decode(answer, skip_special_tokens=False)
        if hit is not None and hit.keep_chars is not None:
            # guards measure positions on the piecewise text; cut that, it equals the decode for whole tokens
            text = pieced[: hit.keep_chars]
        return text

    def _count_image_tokens(self, extra: dict) -> int:
        grid = extra.get("image_grid_thw")
        if grid is None:
            return 0
        # the grid counts 16-px patches; each merge x merge block becomes one token
        return sum((t * h * w) // (self._merge**2) for t, h, w in grid.tolist())


@dataclass
class _Prompt:
    """A request's prompt as the model sees it: ids, embeddings (images merged in), positions, and how much of it a
    cached prefix covers."""

    ids: object  # mx array (1, L)
    embeddings: object  # mx array (1, L, H)
    positions: object  # mx array: mRoPE position ids of the whole prompt
    rope_deltas: object
    image_tokens: int
    prefix_ids: tuple[int, ...]  # the tokens before the first image: the part every document shares
    cached: int = 0

    @property
    def prefix(self) -> int:
        return len(self.prefix_ids)

    @property
    def length(self) -> int:
        return int(self.ids.shape[1])

    @classmethod
    def build(cls, runner: "MlxRunner", request: GenerationRequest) -> "_Prompt":
        """Tokenize, embed (the vision tower runs here) and find the shared prefix."""
        import mlx.core as mx

        inputs = runner._inputs(request)
        ids = inputs["input_ids"]
        extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
        embedded = runner._model.get_input_embeddings(ids, inputs.get("pixel_values"), **extra)
        flat = ids[0].tolist()
        prefix = next((i for i, t in enumerate(flat) if t in runner._image_boundary_ids), 0)
        mx.eval(embedded.inputs_embeds)
        return cls(ids=ids, embeddings=embedded.inputs_embeds, positions=embedded.position_ids,
                   rope_deltas=embedded.rope_deltas, image_tokens=runner._count_image_tokens(extra),
                   prefix_ids=tuple(flat[:prefix]))


class _Decoder:
    """One generation: prefill (reusing a cached prefix), then sample under the constraint's masks, feeding the
    tokens the grammar forces in one forward pass (jump-forward), until a stop token, a guard or max_tokens."""

    def __init__(self, runner: "MlxRunner", request: GenerationRequest) -> None:
        self.runner = runner
        self.request = request
        self.lm = runner._model.language_model
        self.constraint = request.constraint() if request.constraint else None
        self.monitors = list(request.monitor_factory()) if request.monitor_factory else []
        self.stop_ids = frozenset(request.stop.ids)
        self.tokens: list[int] = []  # generated, fed ones included
        self.text = ""  # piecewise decode so far, for the monitors (grown in place: O(new text) per token)
        self.finish, self.stop_id, self.hit = "length", None, None
        self.steps = 0  # forward passes that ended in sampling a token
        self.cache = None
        self.rope_deltas = None
        self.last_prompt_token = 0

    def prefill(self, prompt: _Prompt):
        """Run the prompt (after any cached prefix) and the tokens forced at the start; return the next logits."""
        import mlx.core as mx

        lm, runner = self.lm, self.runner
        lm._position_ids, lm._rope_deltas = None, None  # per-call mRoPE state of the last call: start clean
        self.rope_deltas = prompt.rope_deltas
        self.last_prompt_token = int(prompt.ids[0, -1].item())
        start = 0
        if self.request.prefix_cache and prompt.prefix >= MIN_PREFIX_TOKENS:
            key = prompt.prefix_ids
            self.cache = runner._prefix_cache.restore(key, lm.make_cache)
            if self.cache is not None:
                start = prompt.cached = prompt.prefix
            else:
                self.cache = lm.make_cache()
                self._run(prompt.ids[:, :prompt.prefix], prompt.embeddings[:, :prompt.prefix], prompt)
                runner._prefix_cache.keep(key, self.cache)
                start = prompt.prefix
        if self.cache is None:
            self.cache = lm.make_cache()
        end = prompt.length - 1  # the last prompt token goes with the forced ones, in the pass that gives logits
        for chunk in range(start, end, PREFILL_STEP):
            stop = min(chunk + PREFILL_STEP, end)
            self._run(prompt.ids[:, chunk:stop], prompt.embeddings[:, chunk:stop], prompt)
        forced = self._take_forced()
        if not forced:
            return self._logits(prompt.ids[:, -1:], prompt.embeddings[:, -1:], positions=prompt.positions)
        embeddings = mx.concatenate([prompt.embeddings[:, -1:], lm.model.embed_tokens(mx.array([forced]))], axis=1)
        ids = mx.concatenate([prompt.ids[:, -1:], mx.array([forced], dtype=prompt.ids.dtype)], axis=1)
        return self._logits(ids, embeddings, positions=None)

    def run(self, logits) -> None:
        """Sample until a stop token, a guard or max_tokens; the results stay on this object."""
        import mlx.core as mx

        from ..constrain import apply_bitmask

        max_tokens = self.request.max_tokens
        while len(self.tokens) < max_tokens and self.hit is None:
            if self.constraint is not None:  # computed while the forward pass for ``logits`` runs
                logits = apply_bitmask(logits, mx.array(self.constraint.mask()))
            for processor in self.request.logits_processors:
                logits = processor(mx.array([self.last_prompt_token, *self.tokens]), logits)
            token = int(self._sample(logits).item())
            self.steps += 1
            if self._take(token):
                return
            if self.constraint is not None:
                self.constraint.accept(token)
            forced = self._take_forced()
            if self.hit is not None or len(self.tokens) >= max_tokens:
                return
            logits = self._logits(mx.array([[token, *forced]]), None, positions=None)

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
        if self.constraint is None:
            return []
        forced = list(self.constraint.forced())[: self.request.max_tokens - len(self.tokens)]
        taken = []
        for token in forced:
            self.tokens.append(token)
            taken.append(token)
            self._watch(token)
            if self.hit is not None:
                break
        return taken

    def _watch(self, token: int) -> None:
        self.text += self.runner._piece(token)
        hit = self.runner._check_monitors(self.monitors, token, self.text)
        if hit is not None:
            self.hit, self.finish = hit, "guard"

    def _sample(self, logits):
        import mlx.core as mx

        if self.request.temperature <= 0:
            return mx.argmax(logits, axis=-1)
        return mx.random.categorical(logits * (1.0 / self.request.temperature))

    def _run(self, ids, embeddings, prompt: _Prompt) -> None:
        """Prefill part of the prompt into the cache (no logits)."""
        import mlx.core as mx

        self.lm(ids, inputs_embeds=embeddings, cache=self.cache, position_ids=prompt.positions,
                rope_deltas=prompt.rope_deltas, skip_logits=True)
        mx.eval([c.state for c in self.cache])

    def _logits(self, ids, embeddings, *, positions):
        """One forward pass over ``ids``; the logits of its last position only (the lm_head runs on one row)."""
        import mlx.core as mx

        out = self.lm(ids, inputs_embeds=embeddings, cache=self.cache, position_ids=positions,
                      rope_deltas=self.rope_deltas, skip_logits=True, return_hidden=True)
        logits = self.lm.speculative_logits_from_hidden(out.hidden_states[-1][:, -1, :])
        mx.async_eval(logits)
        return logits
