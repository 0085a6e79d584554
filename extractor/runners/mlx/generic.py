"""The generic path: mlx-vlm's own ``generate_step``, for models where our fast loop is not exact.

``generate_step`` is what ``mlx_vlm.generate`` runs for every family, so it is right wherever mlx-vlm is. What it
lacks we add per call, never in mlx-vlm's shared state: the request's stop set (we test each yielded token), the
guards (fed each token), the schema constraint (a logits processor that walks the grammar with the tokens it is
shown and masks the logits; forced tokens are sampled one step each through the mask), the caller's logits
processors, temperature and seed (our sampler), ``max_tokens``, and per-token evidence (``runners.token_evidence``, when
the request asks for it): the logits the mask is applied to (after the caller's processors) are kept by the last
processor (:class:`EvidenceTap`, or the constraint's own), and our sampler hands them with the sampled token to the
``EvidenceCollector``, as the fast loop does; a one-token mask marks the token forced. No prefix cache and no
jump-forward here (so every token is sampled: forced ones only by a one-token mask).
"""

from __future__ import annotations

from extractor.runners.base import GenerationRequest, GuardHit
from extractor.runners.mlx.loop import check_monitors, sample, split_inputs
from extractor.runners.token_evidence import EvidenceCollector


class ConstraintProcessor:
    """The schema constraint as a ``generate_step`` logits processor.

    ``generate_step`` calls it with every token so far (the prompt's last one first) and the next logits; it feeds
    the grammar the tokens it has not seen and masks the logits. ``generate_step`` computes one step ahead, so it
    can be called once after a stop token or a guard's last token: those are not fed to the grammar.
    """

    def __init__(self, state, stop_ids: frozenset, *, tap: EvidenceTap | None = None) -> None:
        self.state = state
        self.stop_ids = stop_ids
        self.seen = 1  # the prompt's last token
        self.closed = False
        self.tap = tap  # keeps the logits before the mask, and the mask, for the evidence

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
        words = self.state.mask()
        if self.tap is not None:
            self.tap(tokens, logits)
            self.tap.collector.note_mask(words)
        return apply_bitmask(logits, mx.array(words))


class EvidenceTap:
    """The last logits processor's input (the logits before the mask, after every other processor), kept for the
    sampler's evidence (``GenericDecoder``); it changes nothing."""

    def __init__(self, collector) -> None:
        self.collector = collector
        self.raw = None

    def __call__(self, tokens, logits):
        self.raw = logits
        return logits


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
        # per-token evidence (``runners.token_evidence``)
        self.evidence = EvidenceCollector() if request.evidence else None

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
        tap = EvidenceTap(self.evidence) if self.evidence is not None else None
        if self.request.constraint is not None:
            # the constraint masks last, as on the fast loop; a walk without jump-forward: one token per step
            processors.append(ConstraintProcessor(_no_jump(self.request.constraint()), self.stop_ids, tap=tap))
        elif tap is not None:
            processors.append(tap)
        processors = [FromLastPromptToken(p) for p in processors]
        temperature = self.request.temperature

        def sampler(logprobs):
            sampled = sample(logprobs, temperature)
            if tap is None or tap.raw is None:
                return sampled
            import mlx.core as mx

            # the step's one synchronisation: the token with its evidence, from the logits before the mask
            return mx.array([tap.collector.take(tap.raw, sampled)], dtype=sampled.dtype)

        reset_call_state(self.model.language_model)
        steps = generate_step(
            ids,
            self.model,
            pixels,
            mask,
            max_tokens=self.request.max_tokens,
            temperature=temperature,
            sampler=sampler,
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
