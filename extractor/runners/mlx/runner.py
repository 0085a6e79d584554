"""The mlx-vlm runner: loads a model once and generates with a per-call stop set, on every family mlx-vlm loads.

mlx / mlx-vlm are imported lazily (inside functions), so ``--help``, ``doctor`` and parsing work without them.

Why not ``mlx_vlm.generate``: its ``eos_tokens=`` extends the processor's shared StoppingCriteria (the ids stay for
later calls), ``stream_generate`` ignores the argument. Each request here carries its own stop set, tested against
every token in our code; mlx-vlm's shared state is never touched. Two paths (``runners.decoding`` decides at load,
per model, and per request where a model forbids chunked prefill):

* ``fast`` (``runners.decode``): our own loop over mlx-vlm's family-generic calls, with the prefix cache,
  jump-forward and host-side masks, where a probe at load shows it equals ``generate_step``;
* ``generic`` (``runners.generic``): mlx-vlm's ``generate_step`` itself, with our stop set, guards, constraint and
  logits processors.

The record's ``usage.decoding`` says which path and features each call used.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from extractor.errors import ModelError
from extractor.quiet import quiet_imports
from extractor.runners.base import GenerationRequest, GenerationResult, Runner
from extractor.runners.chat_template import template_options
from extractor.runners.mlx.batching import BatchLoop, batch_reason, split_runs
from extractor.runners.mlx.generic import GenericDecoder
from extractor.runners.mlx.loop import (
    Decoder,
    Forward,
    Prompt,
    build_prompt,
    count_media,
    embed,
    media_ids,
    prepare_inputs,
)
from extractor.runners.mlx.merged import merged_reason
from extractor.runners.mlx.plan import FAST, PER_TOKEN, DecodingPlan, decide, request_path
from extractor.runners.mlx.prefix_cache import PrefixCache
from extractor.runners.mlx.vision import VisionBudget, measure_vision_budget
from extractor.runners.modelfiles import resolve_model_dir
from extractor.runners.stopping import StopSet, resolve_stop_set
from extractor.runners.templates import render_messages

quiet_imports()


class MlxRunner(Runner):
    """A model loaded as ``mlx_vlm.load`` loads it (``load_model``), reused for every document.

    Thread-safe: generations are serialized by a lock (mlx-vlm models keep per-call state such as mRoPE deltas),
    or, with ``batch`` > 1, decoded together on one loop thread (``runners.batching``).

    Attributes:
        decoding: the load-time ``DecodingPlan`` (path and features; ``doctor`` and ``bench/families.py`` show it).
        vision: how the processor turns page pixels into vision tokens (``runners.vision``).
        batch_feed_ms: with batching, the layer-pass timings that decided whether forced runs go one token per
            merged step (``batching.split_runs``); empty otherwise.
    """

    tokenizer: Any  # the processor's Hugging Face tokenizer (or the processor itself), set at load
    batch_feed_ms: dict
    _batch_reasons: tuple[str, ...]
    _loop: BatchLoop | None

    def __init__(self, *, model: str, batch: int = 1) -> None:
        """Load the model and decide how to decode it.

        Args:
            model: local model directory or cached hub id.
            batch: documents decoded together at most (``runners.batching``); 1: one at a time. Where batching
                is not exact for the model, one at a time, and every record's ``usage.decoding`` says why; where
                only the merged layer pass is not (``runners.merged``), each document its own pass, and says so.

        Raises:
            ModelError: the model cannot be found or loaded.
        """
        self.model_dir = resolve_model_dir(model)
        self.model_id = model
        self._lock = threading.Lock()
        self._pieces: dict[int, str] = {}
        try:
            self._model, self._processor = load_model(self.model_dir)
        except Exception as exc:  # noqa: BLE001 - surface every load failure as ModelError
            raise ModelError(f"cannot load model {model}: {exc}", source=model) from exc
        self.tokenizer = getattr(self._processor, "tokenizer", self._processor)
        self.stop_set: StopSet = resolve_stop_set(self.model_dir).plus(
            _processor_eos_ids(self._processor), "processor:additional_eos_token_ids", self.tokenizer
        )
        self.template_text = self._chat_template_source()
        config = self._model.config
        self._media_ids = frozenset(media_ids(config))
        # the shared prefix ends where the first image starts (its start marker or, without one, its placeholder)
        self._boundary_ids = self._media_ids | frozenset(
            i
            for i in (
                getattr(config, "vision_start_token_id", None),
                getattr(config, "boi_token_index", None),
                getattr(config, "boi_token_id", None),
            )
            if isinstance(i, int)
        )
        self._prefix_cache = PrefixCache()
        self._forward: Forward | None = None  # set once the load-time probes are done
        try:
            self.vision: VisionBudget = measure_vision_budget(self._model, self._processor, self._render_user)
            self.decoding: DecodingPlan = decide(self._model, self._processor, render=self._render_user)
        except Exception as exc:  # noqa: BLE001
            raise ModelError(f"cannot prepare model {model}: {type(exc).__name__}: {exc}", source=model) from exc
        self._forward = Forward(
            self._model.language_model,
            hidden_head=self.decoding.hidden_head,
            stepwise=self.decoding.forced_feed == PER_TOKEN,
        )
        self.plan_batch(batch)

    def plan_batch(self, batch: int) -> None:
        """Decide how ``batch`` documents decode together (the load-time probes of ``runners.batching`` and
        ``runners.merged``): ``batch``, the loop, and the reasons every record gives where a part is off. Called at
        load; again only while no generation runs."""
        with self._lock:
            self.batch, self._batch_reasons, self._loop, self.batch_feed_ms = 1, (), None, {}
            if batch <= 1:
                return
            reason = batch_reason(self._model, self._processor, self._forward, self.decoding, render=self._render_user)
            if reason is not None:
                self._batch_reasons = (f"batching off: {reason}",)
                return
            layers = merged_reason(
                self._model,
                self._processor,
                self._forward,
                render=self._render_user,
                images=self.vision.method != "default",
            )
            split, self.batch_feed_ms = False, {}
            if layers is None and self.decoding.jump_forward:
                split, self.batch_feed_ms = split_runs(
                    self._model, self._processor, self._forward, render=self._render_user
                )
            self.batch, self._loop = batch, BatchLoop(self, size=batch, merged=layers is None, split=split)
            self._batch_reasons = () if layers is None else (f"layers per sequence: {layers}",)

    @property
    def concurrent(self) -> bool:
        """Generations from several threads overlap: they decode together (batching on)."""
        return self._loop is not None

    @property
    def in_flight(self) -> int:
        """Documents worth keeping in flight: a batch decoding and as many rendered and waiting for a slot."""
        return 2 * self.batch if self._loop is not None else 1

    @property
    def pixels_per_token(self) -> int:
        """Page pixels per vision token, as measured for this model's processor (the page budget's unit)."""
        return self.vision.pixels_per_token

    @property
    def max_page_pixels(self) -> int | None:
        """The most page pixels worth rendering: a processor that resizes every image itself (``vision.fixed``)
        gets pages no larger than the probe's; None: the budget alone decides."""
        return self.vision.max_pixels

    def clear_prefix_cache(self) -> None:
        """Forget every cached prompt prefix (the next document prefills its whole prompt again): for benches and
        tests that time or check a cold start."""
        with self._lock:
            self._prefix_cache.clear()

    def _chat_template_source(self) -> str:
        template = getattr(self._processor, "chat_template", None) or getattr(self.tokenizer, "chat_template", "")
        return template if isinstance(template, str) else ""

    def _render_user(self, text: str, images: int = 0) -> str:
        """A one-turn prompt (for the load-time probes)."""
        from extractor.runners.base import Message

        return self._render((Message(role="user", text=text, images=images),), images)

    def _render(self, messages, images: int) -> str:
        return render_messages(
            self._processor,
            self._model.config,
            messages,
            num_images=images,
            options=template_options(self.template_text),
        )

    def render_prompt(self, request: GenerationRequest) -> str:
        """Render the request's messages through the model's own chat template.

        Args:
            request: the generation request.

        Returns:
            The prompt string (with image placeholders).
        """
        return self._render(request.messages, len(request.images))

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
        try:
            if self._loop is not None:
                return self._loop.submit(request, self.prepare(request))
            with self._lock:
                return self._generate(request)
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - a model failure becomes an error record
            raise ModelError(f"generation failed: {type(exc).__name__}: {exc}", source=self.model_id) from exc

    def _generate(self, request: GenerationRequest) -> GenerationResult:
        import mlx.core as mx

        inputs = self.prepare(request)
        mx.reset_peak_memory()
        generation = self.start(request, inputs)
        if generation.decoder is not None and not generation.done:
            if generation.prompt is None:
                raise RuntimeError("a fast-path generation without its prompt")
            logits = generation.decoder.prefill(generation.prompt)
            generation.first_at = time.perf_counter()
            generation.decoder.run(logits)
        return self.result(generation)

    def prepare(self, request: GenerationRequest) -> dict:
        """Render, tokenize and preprocess the request (no mlx: a batched caller runs it in its own thread)."""
        return prepare_inputs(self._model, self._processor, self.render_prompt(request), request.images)

    def start(self, request: GenerationRequest, inputs: dict) -> Generation:
        """Embed the prompt and choose the path for this request: a fast ``Decoder`` ready to prefill (the
        caller drives it), or the generic path run to the end here."""
        generation = Generation(request=request, inputs=inputs, plan=self.decoding, start=time.perf_counter())
        if generation.plan.path == FAST:
            embedded = embed(self._model, inputs)
            generation.plan = request_path(
                self._model, generation.plan, inputs=inputs, embeddings=embedded[0], kwargs=embedded[1]
            )
        if generation.plan.path == FAST:
            if self._forward is None:
                raise RuntimeError("the model is not loaded yet")
            generation.prompt = build_prompt(
                inputs, embedded, media_ids=self._media_ids, boundary_ids=self._boundary_ids
            )
            generation.decoder = Decoder(
                forward=self._forward,
                request=request,
                piece=self._piece,
                prefix_cache=self._prefix_cache,
                use_prefix=generation.plan.prefix_cache,
                jump_forward=generation.plan.jump_forward,
            )
            return generation
        if request.seed is not None:
            import mlx.core as mx

            mx.random.seed(request.seed)  # generate_step samples from mlx's global generator
        decoder = GenericDecoder(model=self._model, request=request, piece=self._piece)
        decoder.run(inputs, time.perf_counter)
        generation.generic, generation.done = decoder, True
        generation.first_at = decoder.first_token_at or time.perf_counter()
        return generation

    def result(self, generation: Generation) -> GenerationResult:
        """The finished generation as a GenerationResult."""
        import mlx.core as mx

        end = time.perf_counter()
        plan, decoder = generation.plan, generation.decoder or generation.generic
        if decoder is None:
            raise RuntimeError("the generation never started")
        if generation.decoder is not None:
            prompt_tokens, image_tokens, cached = generation.decoder.prompt_counts
            jump = generation.decoder.jump_forward
        else:
            flat = generation.inputs["input_ids"][0].tolist()
            prompt_tokens, image_tokens, cached = len(flat), count_media(flat, self._media_ids), 0
            jump = False
        first_at = generation.first_at or end
        reasons = list(plan.reasons) + list(self._batch_reasons)
        text = self._final_text(decoder.tokens, decoder.stop_id, decoder.text, decoder.hit)
        evidence = None
        collector = decoder.evidence  # the fast loop's or the generic path's (None when not asked for)
        if collector is not None:
            answer = decoder.tokens[:-1] if decoder.stop_id is not None else decoder.tokens
            evidence = collector.result(answer, text=text, piece=self._piece, decode=self.tokenizer.decode)
        return GenerationResult(
            text=text,
            token_ids=tuple(decoder.tokens),
            finish_reason=decoder.finish,
            stop_token_id=decoder.stop_id,
            guard=decoder.hit.guard if decoder.hit else None,
            prompt_tokens=prompt_tokens,
            image_tokens=image_tokens,
            generated_tokens=len(decoder.tokens),
            cached_prompt_tokens=cached,
            decode_steps=decoder.steps,
            prefill_s=first_at - generation.start,
            decode_s=end - first_at,
            peak_memory_gb=mx.get_peak_memory() / 1e9,
            decoding={
                "path": plan.path,
                "prefix_cache": cached > 0 or (plan.prefix_cache and generation.request.prefix_cache),
                "jump_forward": jump,
                "forced_feed": (PER_TOKEN if generation.split else plan.forced_feed) if jump else None,
                "batch": generation.batch,
                "merged_steps": generation.merged_steps,
                "reasons": reasons,
            },
            evidence=evidence,
        )

    def _final_text(self, tokens: list[int], stop_id: int | None, pieced: str, hit) -> str:
        answer = tokens[:-1] if stop_id is not None else tokens
        text = self.tokenizer.decode(answer, skip_special_tokens=False)
        if hit is not None and hit.keep_chars is not None:
            # guards measure positions on the piecewise text; cut that, it equals the decode for whole tokens
            text = pieced[: hit.keep_chars]
        return text


class Generation:
    """One request's way through the runner: its prepared inputs, the path chosen for it, the decoder that runs
    it (fast or generic) and its timings; ``batch``: the most sequences it shared forward passes with (1: alone)."""

    def __init__(self, *, request: GenerationRequest, inputs: dict, plan: DecodingPlan, start: float) -> None:
        self.request, self.inputs, self.plan, self.start = request, inputs, plan, start
        self.prompt: Prompt | None = None  # on the fast path (released once prefilled)
        self.decoder: Decoder | None = None
        self.generic: GenericDecoder | None = None
        self.done = False
        self.first_at: float | None = None
        self.batch = 1
        self.merged_steps = 0  # passes through the layers it shared with other sequences
        self.split = False  # the batch fed its forced runs one token per step (``batching.split_runs``)
        self.call_state: dict = {}  # the language model's per-call state between batched passes


def load_model(model_dir) -> tuple[Any, Any]:
    """``mlx_vlm.load`` (the same calls: model, image processor, processor) without the two parts of its processor
    we never use: the streaming detokenizer and the shared StoppingCriteria (we decode and stop per call ourselves).
    Building them reads the whole vocabulary twice: ~1 s of every load of a 248k-token model.

    Returns:
        (the model, its processor).
    """
    from mlx_vlm.utils import get_model_path, load_image_processor, load_processor
    from mlx_vlm.utils import load_model as mlx_load_model

    path = get_model_path(str(model_dir))
    model = mlx_load_model(path, False, strict=True)
    image_processor = load_image_processor(path)
    processor = load_processor(path, add_detokenizer=False)
    if image_processor is not None:
        processor.image_processor = image_processor
    return model, processor


def _processor_eos_ids(processor) -> list[int]:
    """End ids a processor adds of its own (Idefics3's ``<end_of_utterance>``)."""
    ids = getattr(processor, "additional_eos_token_ids", None) or []
    return [int(i) for i in ids if isinstance(i, int)]
