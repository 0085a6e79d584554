"""Decide at load, per model, which decode path and which of its features are exact.

Never silently wrong: our fast loop (``runners.decode``) is used only where it reproduces mlx-vlm's own
``generate_step``, which is what ``mlx_vlm.generate`` runs for the family. The decision, in order:

1. the model's own flags: an encoder-decoder or cross-attention model (``decoder_inputs_embeds`` /
   ``cross_attention_states``, ``no_chunked_prefill``) takes the generic path;
2. a short text-only probe: greedy ``generate_step`` against the fast loop on the same prompt, float32 logits
   compared step by step: cold prefill (the fast path), a prefix restored from a snapshot (the prefix cache) and
   two tokens fed in one pass (jump-forward). A step that differs turns its feature off, a cold mismatch the whole
   fast path;
3. the cache layout: a prefix snapshot is kept only where every cache layer can be snapshotted;
   and, for jump-forward, how forced tokens are fed: a short run of them in one pass, or one token per pass where
   that is measured faster (``time_forced_feed``: both exact, the second is ``generate_step``'s own way);
4. per request (``request_path``): a model that forbids chunked prefill for the prompt at hand (Gemma 4 and
   PaliGemma with images) runs that request on the generic path.

The plan is reported in every record's ``usage.decoding`` (path and features of that call) and by ``doctor``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from extractor.fields_json import fields_json

FAST = "fast"
GENERIC = "generic"
PROBE_TEXT = "Extract the invoice number and the total of this document. Reply in JSON."
PROBE_STEPS = 4  # generated tokens compared
# max |difference| of log-probabilities over the reference's top tokens: float32 noise from other matmul shapes is
# ~1e-5; a wrong embedding scale, a dropped input or a wrong position is > 0.1
FLOAT32_TOLERANCE = 1e-3
HALF_TOLERANCE = 0.1  # bf16 / fp16 / quantized weights: rounding differs between chunkings
TOP_COMPARED = 10
# forced runs go one token per pass only where that takes under this share of one pass over the run: clear of the
# timing noise of a busy machine (the kit's Gated-DeltaNet qwen3_5 on the CPU: ~0.5; attention models: > 2)
STEPWISE_GAIN = 0.75
FEED_RUN = 4  # the forced run timed: JSON keys and punctuation run 2-5 tokens (the sample invoice: 84 runs)
FEED_REPEATS = 4  # timed feeds of each kind, after one untimed: the fastest counts
FEED_BUDGET_S = 2.0  # past this, two repeats are enough (a big model on the CPU)
PER_TOKEN = "per_token"
ONE_PASS = "one_pass"


@dataclass(frozen=True)
class DecodingPlan:
    """Which path a model decodes on and what it may use there.

    Attributes:
        path: ``fast`` (our loop) or ``generic`` (mlx-vlm's ``generate_step``).
        prefix_cache: the shared prompt prefix may be restored from a snapshot.
        jump_forward: forced tokens are fed without sampling.
        forced_feed: how (with jump-forward): ``one_pass`` (a run with the token before it) or ``per_token`` (runs
            of up to ``decode.STEPWISE_MAX`` tokens one per pass, where a run of ``FEED_RUN`` is timed faster that
            way at load); None without jump-forward.
        hidden_head: the lm_head runs on the last hidden state only (``speculative_logits_from_hidden``).
        reasons: why a path or a feature is off, in words.
        probe: the probe's measurements (max |difference| per check), for ``doctor``.
    """

    path: str
    prefix_cache: bool
    jump_forward: bool
    forced_feed: str | None = ONE_PASS
    hidden_head: bool = False
    reasons: tuple[str, ...] = ()
    probe: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The plan as the record and doctor report it."""
        return fields_json(self, leave_out=("hidden_head", "probe"))

    def generic(self, reason: str) -> DecodingPlan:
        """This plan moved to the generic path (no prefix cache, no jump-forward) for ``reason``."""
        return replace(
            self,
            path=GENERIC,
            prefix_cache=False,
            jump_forward=False,
            forced_feed=None,
            reasons=self.reasons + (reason,),
        )


def flag_reason(model) -> str | None:
    """Why the model's own flags rule our loop out, or None."""
    lm = model.language_model
    for candidate in (model, lm):
        if getattr(candidate, "no_chunked_prefill", False):
            return f"{type(candidate).__module__.split('.')[-2]} forbids chunked prefill"
    model_type = getattr(model.config, "model_type", "")
    if model_type in ("florence2", "nemotron_parse", "mllama"):
        return f"{model_type} is an encoder-decoder / cross-attention model"
    return None


def layout_reason(lm) -> str | None:
    """Why the cache layout cannot be snapshotted for a prefix cache, or None."""
    from mlx_vlm.apc import validate_prompt_cache_layout

    from extractor.runners.mlx.loop import make_cache

    result = validate_prompt_cache_layout(make_cache(lm))
    if result.ok:
        return None
    kinds = sorted({getattr(layer, "type_name", "?") for layer in result.unsupported})
    return f"cache layers {', '.join(kinds)} cannot be snapshotted"


def decide(model, processor, *, render) -> DecodingPlan:
    """Decide the plan for a loaded model (flags, cache layout, probe).

    Args:
        model: the mlx-vlm model.
        processor: its processor.
        render: renders a text-only user message through the model's chat template (the runner's).

    Returns:
        The DecodingPlan.
    """
    lm = model.language_model
    hidden = hasattr(lm, "speculative_logits_from_hidden")
    plan = DecodingPlan(path=FAST, prefix_cache=True, jump_forward=True, hidden_head=hidden)
    reason = flag_reason(model)
    if reason:
        return plan.generic(reason)
    try:
        measured = probe(model, processor, render=render, hidden_head=hidden)
    except Exception as exc:  # noqa: BLE001 - a loop that cannot even run the probe is not ours to use
        return plan.generic(f"the probe failed on the fast loop: {type(exc).__name__}: {exc}")
    plan = replace(plan, probe=measured)
    tolerance = tolerance_for(model)
    if measured["cold"] > tolerance:
        return plan.generic(f"fast loop differs from generate_step (max |dlogprob| {measured['cold']:.3g})")
    reasons = list(plan.reasons)
    prefix_ok, jump_ok = measured["prefix"] <= tolerance, measured["jump"] <= tolerance
    if not prefix_ok:
        reasons.append(f"prefix cache differs from a cold prefill (max |dlogprob| {measured['prefix']:.3g})")
    layout = layout_reason(lm)
    if layout:
        reasons.append(layout)
    feed = None
    if jump_ok:
        try:
            timings = time_forced_feed(model, processor, render=render, hidden_head=hidden)
        except Exception as exc:  # noqa: BLE001 - the probe's passes ran: feed forced runs as it checked them
            timings = {"error": f"{type(exc).__name__}: {exc}"}
        plan = replace(plan, probe={**measured, "feed_ms": timings})
        feed = feed_choice(timings)
    else:
        reasons.append(f"jump-forward differs from one token per step (max |dlogprob| {measured['jump']:.3g})")
    return replace(
        plan, prefix_cache=prefix_ok and layout is None, jump_forward=jump_ok, forced_feed=feed, reasons=tuple(reasons)
    )


def tolerance_for(model) -> float:
    """The probe's tolerance for the model's weights: tight for float32, looser for half precision."""
    import mlx.core as mx
    from mlx.utils import tree_flatten

    dtypes = {v.dtype for _, v in tree_flatten(model.language_model.parameters()) if hasattr(v, "dtype")}
    return FLOAT32_TOLERANCE if dtypes <= {mx.float32, mx.int32, mx.uint32} else HALF_TOLERANCE


def probe(model, processor, *, render, hidden_head: bool) -> dict:
    """Compare the fast loop with ``generate_step`` on a short text-only prompt (greedy, float32 logprobs).

    Returns:
        ``{"cold", "prefix", "jump"}``: the largest |difference| of log-probabilities (over generate_step's top
        tokens) for a cold prefill, for a prefix restored from a snapshot, and for two tokens fed in one pass.
    """
    import mlx.core as mx
    from mlx_vlm.generate import generate_step

    from extractor.runners.mlx.loop import Forward, embed, make_cache, prepare_inputs, reset_call_state, split_inputs
    from extractor.runners.mlx.prefix_cache import PrefixCache

    inputs = prepare_inputs(model, processor, render(PROBE_TEXT), ())
    ids, _, mask, extras = split_inputs(inputs)
    lm = model.language_model
    reset_call_state(lm)
    reference, tokens = [], []
    steps = generate_step(
        ids,
        model,
        None,
        mask,
        max_tokens=PROBE_STEPS,
        temperature=0.0,
        sampler=lambda lp: mx.argmax(lp, axis=-1),
        **extras,
    )
    for token, logprobs in steps:
        reference.append(mx.array(logprobs.astype(mx.float32)).reshape(-1))
        tokens.append(int(token))
    steps.close()

    forward = Forward(lm, hidden_head=hidden_head)
    embeddings, kwargs = embed(model, inputs)
    length = ids.shape[1]

    def run(prefix: int, *, jump: bool) -> list:
        reset_call_state(lm)
        cache = make_cache(lm)
        if prefix:
            forward.prefill(ids[:, :prefix], embeddings[:, :prefix], cache, kwargs)
            snapshots = PrefixCache()
            snapshots.keep(tuple(ids[0, :prefix].tolist()), cache)
            restored = snapshots.restore(tuple(ids[0, :prefix].tolist()), lambda: make_cache(lm))
            if restored is None:
                raise RuntimeError("the probe's prefix snapshot was not kept")
            cache = restored
        if length - 1 > prefix:
            forward.prefill(ids[:, prefix : length - 1], embeddings[:, prefix : length - 1], cache, kwargs)
        out = [forward.logits(ids[:, -1:], cache, embeddings=embeddings[:, -1:], kwargs=kwargs)]
        out.append(forward.logits(mx.array([[tokens[0]]]), cache))
        if jump:  # tokens 2 and 3 in one pass: its last logits are the reference's fourth step
            out.append(forward.logits(mx.array([[tokens[1], tokens[2]]]), cache))
        else:
            out.append(forward.logits(mx.array([[tokens[1]]]), cache))
            out.append(forward.logits(mx.array([[tokens[2]]]), cache))
        return out

    def gap(got: list, want: list) -> float:
        worst = 0.0
        for logits, ref in zip(got, want, strict=False):
            lp = logits.astype(mx.float32).reshape(-1)
            lp = lp - mx.logsumexp(lp)
            top = mx.argsort(-ref)[:TOP_COMPARED]
            worst = max(worst, float(mx.max(mx.abs(lp[top] - ref[top])).item()))  # type: ignore[arg-type]  # mlx's stub types item() as int | float | complex; a float32 array's is a float
        return worst

    cold = gap(run(0, jump=False), reference)
    prefix = gap(run(max(1, (length - 1) // 2), jump=False), reference)
    jump = gap(run(0, jump=True), [reference[0], reference[1], reference[3]])
    reset_call_state(lm)
    return {"cold": round(cold, 6), "prefix": round(prefix, 6), "jump": round(jump, 6)}


def feed_choice(timings: dict) -> str:
    """How forced runs are fed, from ``time_forced_feed``'s timings: one token per pass only where that took under
    ``STEPWISE_GAIN`` of one pass (timings that failed: one pass, as the probe checked)."""
    per_token, one_pass = timings.get(PER_TOKEN), timings.get(ONE_PASS)
    if per_token is None or one_pass is None:
        return ONE_PASS
    return PER_TOKEN if per_token < STEPWISE_GAIN * one_pass else ONE_PASS


def time_forced_feed(model, processor, *, render, hidden_head: bool) -> dict:
    """How long a forced run of ``FEED_RUN`` tokens takes to feed, in one pass and one token per pass (the fastest
    of up to ``FEED_REPEATS`` after an untimed one, milliseconds; CPU time on the CPU). Where a pass over one token,
    times the run's length, is already the slower, that product stands for the per-token feed (a big model on the
    CPU is not fed the run token by token just to time it).

    Returns:
        ``{"one_pass": ms, "per_token": ms}``.
    """
    import mlx.core as mx

    bench = _FeedBench(model, processor, render=render, hidden_head=hidden_head)
    grouped, stepwise, run, cache = bench.grouped, bench.stepwise, bench.run, bench.cache

    def one_pass():
        mx.eval(grouped.logits(run, cache))

    def per_token():
        mx.eval(stepwise.logits(run, cache))

    grouped_ms, single_ms = bench.fastest(one_pass, bench.layers(1), repeats=2)  # a first look: spares big models
    stepwise_ms = single_ms * run.shape[1]
    if stepwise_ms < grouped_ms:
        grouped_ms, stepwise_ms = bench.fastest(one_pass, per_token, repeats=FEED_REPEATS)
    return {ONE_PASS: round(grouped_ms, 3), PER_TOKEN: round(stepwise_ms, 3)}


def time_layer_passes(model, processor, *, render, hidden_head: bool) -> dict:
    """How long one pass through the layers (no lm_head) takes over a forced run of ``FEED_RUN`` tokens and over
    one token, milliseconds as ``time_forced_feed`` measures them: whether a batch should feed forced runs one token
    per merged pass (``runners.batching``).

    Returns:
        ``{"run": ms, "one": ms}``.
    """
    bench = _FeedBench(model, processor, render=render, hidden_head=hidden_head)
    run_ms, one_ms = bench.fastest(bench.layers(bench.run.shape[1]), bench.layers(1), repeats=FEED_REPEATS)
    return {"run": round(run_ms, 3), "one": round(one_ms, 3)}


class _FeedBench:
    """The probe prompt prefilled for the feed timings, a run of its text tokens to feed, and the clock."""

    def __init__(self, model, processor, *, render, hidden_head: bool) -> None:
        import time

        import mlx.core as mx

        from extractor.runners.mlx.loop import Forward, prefilled, probe_prompt

        ids, embeddings, kwargs = probe_prompt(model, processor, render(PROBE_TEXT))
        self.grouped, self.stepwise = (
            Forward(model.language_model, hidden_head=hidden_head, stepwise=s) for s in (False, True)
        )
        self.cache = prefilled(self.grouped, ids, embeddings, kwargs)
        mx.eval(self.grouped.logits(ids[:, -1:], self.cache, embeddings=embeddings[:, -1:], kwargs=kwargs))
        self.run = ids[:, -FEED_RUN - 1 : -1]  # any text tokens will do: the timing, not the tokens, counts
        # on the CPU, the process's CPU time: what other processes on a busy machine take is not ours
        self.clock = time.process_time if mx.default_device() == mx.cpu else time.perf_counter
        self._now = time.perf_counter

    def layers(self, tokens: int):
        """A feed of the run's first ``tokens`` in one pass through the layers (no lm_head), evaluated."""
        import mlx.core as mx

        def feed():
            self.grouped.layers(self.run[:, :tokens], self.cache)
            mx.eval([c.state for c in self.cache])

        return feed

    def fastest(self, *feeds, repeats: int) -> list[float]:
        """The fastest time of each feed (milliseconds), timed in turns (a busy spell weighs on all alike)."""
        for feed in feeds:  # a first feed of each kind pays one-time costs
            feed()
        times: list[list[float]] = []
        deadline = self._now() + FEED_BUDGET_S
        while len(times) < repeats and (len(times) < 2 or self._now() < deadline):
            times.append([self._timed(feed) for feed in feeds])
        return [min(column) for column in zip(*times, strict=False)]

    def _timed(self, feed) -> float:
        start = self.clock()
        feed()
        return (self.clock() - start) * 1000


def request_path(model, plan: DecodingPlan, *, inputs: dict, embeddings, kwargs: dict) -> DecodingPlan:
    """The plan for one request: the generic path where the model forbids chunked prefill for this prompt.

    Args:
        model: the mlx-vlm model.
        plan: the load-time plan.
        inputs: the prepared prompt.
        embeddings / kwargs: its embedding step's result (``decode.embed``).
    """
    if plan.path != FAST:
        return plan
    from mlx_vlm.generate.common import _chunked_prefill_enabled

    if _chunked_prefill_enabled(
        model, input_ids=inputs["input_ids"], inputs_embeds=embeddings, prompt_cache=None, prefill_kwargs=kwargs
    ):
        return plan
    return plan.generic("the model forbids chunked prefill for this prompt (images)")
