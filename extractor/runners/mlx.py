"""The mlx-vlm runner: loads a model once, generates with our own per-call stop matching.

mlx / mlx-vlm are imported lazily (inside functions), so ``--help``, ``doctor`` and parsing work without them.

Why our own loop: mlx-vlm 0.7.10's ``generate(eos_tokens=...)`` extends the processor's shared StoppingCriteria (the
ids stay for later calls), ``stream_generate`` ignores the argument, and its qwen3_5 config adds 248046 only when the
top-level eos is missing. We drive ``generate_step`` directly and test each token against the request's stop set.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Optional

from ..errors import ModelError
from ..modelfiles import resolve_model_dir
from ..prompt import template_options
from ..runner import GenerationRequest, GenerationResult, GuardHit
from ..stopping import StopSet, resolve_stop_set

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
        from mlx_vlm.generate import generate_step
        from mlx_vlm.utils import prepare_inputs, should_add_special_tokens

        if request.seed is not None:
            mx.random.seed(request.seed)
        prompt = self.render_prompt(request)
        inputs = prepare_inputs(
            self._processor,
            images=list(request.images) or None,
            prompts=prompt,
            image_token_index=getattr(self._model.config, "image_token_index", None),
            add_special_tokens=should_add_special_tokens(self._model.config.model_type, self._processor),
        )
        input_ids = inputs["input_ids"]
        extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "pixel_values", "attention_mask")}
        image_tokens = self._count_image_tokens(extra)
        mx.reset_peak_memory()
        stop_ids = frozenset(request.stop.ids)
        monitors = list(request.monitor_factory()) if request.monitor_factory else []
        tokens: list[int] = []
        text = ""  # piecewise decode so far, for the monitors (grown in place: O(new text) per token)
        finish, stop_id, hit = "length", None, None
        start = time.perf_counter()
        first_at: Optional[float] = None
        steps = generate_step(
            input_ids,
            self._model,
            inputs.get("pixel_values"),
            inputs.get("attention_mask"),
            max_tokens=request.max_tokens,
            temperature=request.temperature,
            logits_processors=list(request.logits_processors) or None,
            **extra,
        )
        for token, _ in steps:
            if first_at is None:
                first_at = time.perf_counter()
            token = int(token)
            tokens.append(token)
            if token in stop_ids:
                finish, stop_id = "stop", token
                break
            text += self._piece(token)
            hit = self._check_monitors(monitors, token, text)
            if hit is not None:
                finish = "guard"
                break
        steps.close()
        end = time.perf_counter()
        first_at = first_at or end
        return GenerationResult(
            text=self._final_text(tokens, stop_id, text, hit),
            token_ids=tuple(tokens),
            finish_reason=finish,
            stop_token_id=stop_id,
            guard=hit.guard if hit else None,
            prompt_tokens=int(input_ids.size),
            image_tokens=image_tokens,
            generated_tokens=len(tokens),
            prefill_s=first_at - start,
            decode_s=end - first_at,
            peak_memory_gb=mx.get_peak_memory() / 1e9,
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
