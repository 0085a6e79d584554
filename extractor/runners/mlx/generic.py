"""The generic path: mlx-vlm's own ``generate_step``, for models where our fast loop is not exact.

``generate_step`` is what ``mlx_vlm.generate`` runs for every family, so it is right wherever mlx-vlm is. What it
lacks we add per call, never in mlx-vlm's shared state: the request's stop set (we test each yielded token), the
guards (fed each token), the schema constraint (a logits processor that walks the grammar with the tokens it is
shown and masks the logits; forced tokens are sampled one step each through the mask), the caller's logits
processors, temperature and seed (our sampler), and ``max_tokens``. No prefix cache and no jump-forward here.
"""

from __future__ import annotations

from extractor.runners.base import GenerationRequest, GuardHit
from extractor.runners.mlx.loop import check_monitors, sample, split_inputs


class ConstraintProcessor:
    """The schema constraint as a ``generate_step`` logits processor.

    ``generate_step`` calls it with every token so far (the prompt's last one first) and the next logits; it feeds
    the grammar the tokens it has not seen and masks the logits. ``generate_step`` computes one step ahead, so it
    can be called once after a stop token or a guard's last token: those are not fed to the grammar.
    """

    def __init__(self, state, stop_ids: frozenset) -> None:
        self.state = state
        self.stop_ids = stop_ids
        self.seen = 1  # the prompt's last token
        self.closed = False

    def __call__(self, tokens, logits):
        import mlx.core as mx

        from extractor.runners.constrain.mask import apply_bitmask

        new = tokens.tolist()[self.seen :]
        self.seen += len(new)
        for token in new:
            if self.closed or token in self.stop_ids:
                self.closed = True  # generation has ended; the step computed ahead is thrown away
                return logits
            self.state.accept(token)
        return apply_bitmask(logits, mx.array(self.state.mask()))


class FromLastPromptToken:
    """Shows a logits processor the tokens as our runner's contract says (the prompt's last token, then every
    generated one): ``generate_step`` hands its processors every token it has fed, which is the whole prompt
    when the model forbids chunked prefill, or only the last prompt token after a chunked one."""

    def __init__(self, processor) -> None:
        self.processor = processor
        self.skip: int | None = None

    def __call__(self, tokens, logits):
        if self.skip is None:
            self.skip = int(tokens.shape[0]) - 1  # the first call: every prompt token fed so far
        return self.processor(tokens[self.skip :], logits)


class GenericDecoder:
    """One generation through ``generate_step``; ``tokens``, ``finish``, ``stop_id``, ``hit`` and ``steps`` hold
    the outcome, as on ``decode.Decoder``."""

    def __init__(self, *, model, request: GenerationRequest, piece) -> None:
        self.model, self.request, self.piece = model, request, piece
        self.monitors = list(request.monitor_factory()) if request.monitor_factory else []
        self.stop_ids = frozenset(request.stop.ids)
        self.tokens: list[int] = []
        self.text = ""
        self.finish = "length"
        self.stop_id: int | None = None
        self.hit: GuardHit | None = None
        self.steps = 0
        self.first_token_at: float | None = None

    def run(self, inputs: dict, clock) -> None:
        """Generate from ``prepare_inputs``' result until a stop token, a guard or max_tokens.

        Args:
            inputs: the prepared prompt.
            clock: ``time.perf_counter``, read when the first token arrives (the end of the prefill).
        """
        from mlx_vlm.generate import generate_step

        from extractor.runners.mlx.loop import reset_call_state

        ids, pixels, mask, extras = split_inputs(inputs)
        processors = list(self.request.logits_processors)
        if self.request.constraint is not None:
            # the constraint masks last, as on the fast loop; a walk without jump-forward: one token per step
            processors.append(ConstraintProcessor(_no_jump(self.request.constraint()), self.stop_ids))
        processors = [FromLastPromptToken(p) for p in processors]
        temperature = self.request.temperature
        reset_call_state(self.model.language_model)
        steps = generate_step(
            ids,
            self.model,
            pixels,
            mask,
            max_tokens=self.request.max_tokens,
            temperature=temperature,
            sampler=lambda logprobs: sample(logprobs, temperature),
            logits_processors=processors,
            **extras,
        )
        try:
            for token, _ in steps:
                if self.first_token_at is None:
                    self.first_token_at = clock()
                self.steps += 1
                if self._take(int(token)):
                    return
        finally:
            steps.close()

    def _take(self, token: int) -> bool:
        self.tokens.append(token)
        if token in self.stop_ids:
            self.finish, self.stop_id = "stop", token
            return True
        self.text += self.piece(token)
        self.hit = check_monitors(self.monitors, token, self.text)
        if self.hit is not None:
            self.finish = "guard"
        return self.hit is not None


def _no_jump(state):
    """The constraint state with jump-forward off (forced tokens come through the mask, one step each)."""
    state.jump_forward = False
    return state
