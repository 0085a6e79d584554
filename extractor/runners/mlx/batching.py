"""In-process continuous batching: up to ``batch`` documents decode together, each exactly as it would alone.

Decoding is bound by reading the weights once per step, and most of them are the lm_head's (the mid testing
model's 248,320 x 768 head is 0.76 GB of its 1.6). So the lm_head runs once per step over the stacked last hidden
states of all active sequences, and the layers run once for all the sequences that feed one token this step (the
merged pass, ``runners.merged``: their caches merged into batch caches and extracted back). A sequence that feeds
several tokens (jump-forward's ragged forced runs) or its prompt's last embedding runs its own pass through the
layers (its own cache and tokens: no padding, and a recurrent state such as Gated-DeltaNet's never sees another
sequence's padding); or, where a pass over a run through the layers costs more than ``SPLIT_RATIO`` passes over
one token (timed at load, ``decoding.time_layer_passes``: Gated-DeltaNet without mlx-vlm's Metal kernel pads every
multi-token pass to a 64-token chunked scan), its forced run is fed one token per step in the merged pass, and it
samples once the run is in (``split_runs``: generate_step's own one token per pass, so exact as the merged pass
is). Per sequence, everything stays as in the serial loop (``decode.Decoder``): its stop set, constraint mask
(computed on the host while the step's forward passes run), jump-forward, guards, ``max_tokens``, temperature and
seed (its own random key), logits processors. A sequence that ends frees its slot for the next request at once; a
new sequence's prompt is prefilled one chunk per step so the others keep decoding. A retry is a new request: it
joins the batch as a new sequence.

Exact where the head can run apart from the layers and gives the same logits stacked as alone: ``batch_reason``
checks that at load on a short text prompt (float32 logits of two sequences, alone against stacked). Elsewhere the
runner decodes one document at a time and says so in every record (``usage.decoding.reasons``). The merged layer
pass has its own load-time probe (``merged.merged_reason``); where it fails, every sequence keeps its own pass
through the layers, and the records say that too. A request the model
must run on the generic path (``generate_step``: Gemma 4 with images) runs alone in the loop's thread.

All mlx work happens on the loop's one thread (callers only render and tokenize): mlx-vlm models keep per-call
state (Qwen's mRoPE deltas), swapped in and out per sequence around each of its passes.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from extractor.runners.base import GenerationRequest, GenerationResult
from extractor.runners.mlx.loop import restore_call_state, save_call_state
from extractor.runners.mlx.merged import MergedRows

BATCH_TOLERANCE = 1e-4  # max |difference| of float32 logits, one sequence stacked with another against alone
# forced runs go one token per merged pass where a layer pass over a run costs more than this many over one token
# (the mid testing model on the CPU: ~3; attention models: ~1)
SPLIT_RATIO = 2.0


def split_runs(model, processor, forward, *, render) -> tuple[bool, dict]:
    """Whether a merged batch feeds forced runs one token per step (see the module docstring), and the timings.

    Args:
        model: the mlx-vlm model.
        processor: its processor.
        forward: the runner's ``decode.Forward``.
        render: renders a text-only user message through the model's chat template.
    """
    from extractor.runners.mlx.plan import time_layer_passes

    try:
        timings = time_layer_passes(model, processor, render=render, hidden_head=forward.hidden_head)
    except Exception as exc:  # noqa: BLE001 - untimed: forced runs keep their own passes
        return False, {"error": f"{type(exc).__name__}: {exc}"}
    return timings["run"] > SPLIT_RATIO * timings["one"], timings


def batch_reason(model, processor, forward, plan, *, render) -> str | None:
    """Why batching would not be exact for this model, or None (see the module docstring).

    Args:
        model: the mlx-vlm model.
        processor: its processor.
        forward: the runner's ``decode.Forward``.
        plan: the load-time ``DecodingPlan``.
        render: renders a text-only user message through the model's chat template.
    """
    if plan.path != "fast":
        return "the model decodes on the generic path"
    if not forward.can_split_head():
        return "the lm_head cannot run apart from the layers (tied embeddings or no separate head)"
    try:
        gap = stacked_gap(model, processor, forward, render=render)
    except Exception as exc:  # noqa: BLE001 - a head that cannot be split this way is not batched
        return f"the stacked head failed: {type(exc).__name__}: {exc}"
    if gap > BATCH_TOLERANCE:
        return f"the stacked head differs from one sequence alone (max |dlogit| {gap:.3g})"
    return None


def stacked_gap(model, processor, forward, *, render) -> float:
    """Max |difference| of the logits of two different prompts, each alone against both stacked."""
    import mlx.core as mx

    from extractor.runners.mlx.loop import prefilled, probe_prompt, reset_call_state

    alone, hidden = [], []
    for text in ("Extract the invoice number.", "Extract the total of this document, please."):
        ids, embeddings, kwargs = probe_prompt(model, processor, render(text))
        alone.append(
            forward.logits(
                ids[:, -1:], prefilled(forward, ids, embeddings, kwargs), embeddings=embeddings[:, -1:], kwargs=kwargs
            )
        )
        hidden.append(
            forward.hidden(
                ids[:, -1:], prefilled(forward, ids, embeddings, kwargs), embeddings=embeddings[:, -1:], kwargs=kwargs
            )
        )
    reset_call_state(forward.lm)
    stacked = forward.head(mx.concatenate(hidden, axis=0)).astype(mx.float32)
    return max(
        float(mx.max(mx.abs(stacked[i] - alone[i].astype(mx.float32).reshape(-1))).item())  # type: ignore[arg-type]  # mlx's stub types item() as int | float | complex; a float32 array's is a float
        for i in range(len(alone))
    )


class _Job:
    """A request waiting for, or in, the batch; the caller's thread waits on ``done``."""

    def __init__(self, request: GenerationRequest, inputs: dict) -> None:
        self.request, self.inputs = request, inputs
        self.done = threading.Event()
        # runner.Generation (Any: that module imports this one, and the layers forbid the cycle)
        self.generation: Any = None
        self.result: GenerationResult | None = None
        self.error: BaseException | None = None
        self.prefilled = False
        self.rest = None  # a split forced run's tokens still to feed, one per step


def _take_one(job: _Job) -> None:
    """Split a sequence's forced run: its first token is this step's feed, the rest waits in ``job.rest``."""
    decoder = job.generation.decoder
    ids, embeddings, kwargs = decoder.feed
    if embeddings is None and not kwargs and ids.shape[1] > 1:
        decoder.feed, job.rest = (ids[:, :1], None, None), ids[:, 1:]


class BatchLoop:
    """The loop thread that steps every active sequence together (started on the first request)."""

    def __init__(self, runner, *, size: int, merged: bool = False, split: bool = False) -> None:
        """Args: runner: the ``MlxRunner`` (its start/result, forward passes and lock); size: sequences at once;
        merged: the one-token feeds of a step share one pass through the layers (``runners.merged``); split: forced
        runs are fed one token per step (``split_runs``; with ``merged`` only)."""
        self.runner, self.size, self.merged, self.split = runner, size, merged, split and merged
        self._rows = MergedRows()  # the caches kept merged across steps (``runners.merged``)
        self._pending: deque[_Job] = deque()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self.joined = 0  # sequences that entered while others were decoding (a freed slot refilled at once)

    def submit(self, request: GenerationRequest, inputs: dict) -> GenerationResult:
        """Queue a prepared request and wait for its result.

        Raises:
            Exception: whatever the model raised for this request (the runner turns it into a ModelError).
        """
        job = _Job(request, inputs)
        with self._wake:
            self._pending.append(job)
            if self._thread is None or not self._thread.is_alive():  # first use, or a loop that died
                self._thread = threading.Thread(target=self._run, name="mlx-batch", daemon=True)
                self._thread.start()
            self._wake.notify()
        job.done.wait()
        if job.error is not None:
            raise job.error
        if job.result is None:
            raise RuntimeError("the batch loop ended a request with neither a result nor an error")
        return job.result

    def _run(self) -> None:
        active: list[_Job] = []
        while True:
            with self._wake:
                if not self._pending and not active:
                    self._rows.clear()  # every sequence is over: their merged caches go
                while not self._pending and not active:
                    self._wake.wait()
                admitted: list[_Job] = []
                while self._pending and len(active) + len(admitted) < self.size:
                    admitted.append(self._pending.popleft())
            try:
                with self.runner._lock:
                    for job in admitted:
                        self.joined += bool(active)
                        if self._guarded(job, self._start):
                            active.append(job)
                    for job in [j for j in active if not j.prefilled]:
                        self._guarded(job, self._prefill_step)
                    active = [j for j in active if not j.done.is_set()]
                    self._step([j for j in active if j.prefilled])
            except BaseException as exc:  # noqa: BLE001 - never leave a caller waiting on a dead loop
                for job in active + admitted:
                    if not job.done.is_set():
                        self._fail(job, exc)
                if not isinstance(exc, Exception):
                    raise
            active = [j for j in active if not j.done.is_set()]

    def _guarded(self, job: _Job, action) -> bool:
        """Run one job's action; an exception ends that job alone. True when the job goes on."""
        try:
            action(job)
        except Exception as exc:  # noqa: BLE001 - one sequence's failure is its own error record
            self._fail(job, exc)
            return False
        return not job.done.is_set()

    def _start(self, job: _Job) -> None:
        lm = self.runner._forward.lm
        generation = job.generation = self.runner.start(job.request, job.inputs)
        if generation.done:  # the generic path ran it alone, here
            self._finish(job)
            return
        restore_call_state(lm, {})  # as the serial loop: a fresh per-call state for the prefill
        generation.decoder.begin(generation.prompt)
        generation.call_state = save_call_state(lm)
        generation.split = self.split

    def _prefill_step(self, job: _Job) -> None:
        generation, lm = job.generation, self.runner._forward.lm
        restore_call_state(lm, generation.call_state)
        job.prefilled = generation.decoder.prefill_step()
        generation.call_state = save_call_state(lm)
        if job.prefilled:
            generation.prompt = None
            if generation.decoder.finished:  # the forced start filled max_tokens or hit a guard
                generation.first_at = time.perf_counter()
                self._finish(job)

    def _step(self, jobs: list[_Job]) -> None:
        """One step for every decoding sequence: the layers (merged for the one-token feeds, ``runners.merged``,
        else one pass per sequence), the lm_head once over all of them, then each samples."""
        import mlx.core as mx

        if not jobs:
            return
        if self.split:
            for job in jobs:
                _take_one(job)
        hidden, caches = self._merged_pass(jobs) if self.merged else ({}, [])
        for job in jobs:
            if job not in hidden and not job.done.is_set():
                self._own_pass(job, hidden)
        for job in [j for j in jobs if j in hidden and j.rest is not None]:  # fed a token of its run: no sampling
            job.generation.decoder.feed, job.rest = (job.rest, None, None), None
            del hidden[job]
        stepped = [job for job in jobs if job in hidden]
        if not stepped:
            if caches:
                mx.async_eval(*caches)
            return
        try:
            logits = self.runner._forward.head(mx.concatenate([hidden[job] for job in stepped], axis=0))
            mx.async_eval(logits, *caches)  # the merged caches with it
        except Exception as exc:  # noqa: BLE001 - the shared pass failed: every sequence in it fails
            for job in stepped:
                self._fail(job, exc)
            return
        masks = [self._guarded_mask(job) for job in stepped]  # on the host while the passes run
        for row, (job, mask) in enumerate(zip(stepped, masks, strict=False)):
            if not job.done.is_set():
                self._advance(job, logits[row : row + 1], mask, len(stepped))

    def _own_pass(self, job: _Job, hidden: dict) -> None:
        """A sequence's own pass through the layers (its call state swapped in and out)."""
        forward, lm = self.runner._forward, self.runner._forward.lm
        generation = job.generation
        decoder = generation.decoder
        restore_call_state(lm, generation.call_state)
        try:
            ids, embeddings, kwargs = decoder.feed
            hidden[job] = forward.hidden(ids, decoder.cache, embeddings=embeddings, kwargs=kwargs)
        except Exception as exc:  # noqa: BLE001
            self._fail(job, exc)
            return
        generation.call_state = save_call_state(lm)

    def _merged_pass(self, jobs: list[_Job]) -> tuple[dict, list]:
        """The one pass through the layers of every sequence that feeds one token (two at least), on the caches
        kept merged from the last step where they are the same sequences (``merged.MergedRows``): (job -> its
        (1, H) hidden row, the arrays of the merged caches)."""
        from extractor.runners.mlx.merged import RowsLost, mergeable

        lm, rows = self.runner._forward.lm, self._rows
        merging = [job for job in jobs if mergeable(lm, job.generation.decoder.feed, job.generation.call_state)]
        if len(merging) < 2:
            rows.release()  # the sequences go on alone
            return {}, []
        decoders = [job.generation.decoder for job in merging]
        try:
            hidden = rows.hidden(
                self.runner._forward,
                decoders,
                [d.feed[0] for d in decoders],
                [job.generation.call_state for job in merging],
            )
        except RowsLost as exc:  # their caches went with the pass: these sequences fail, the others go on
            for job in merging:
                self._fail(job, exc)
            return {}, []
        except Exception:  # noqa: BLE001 - the caches are untouched: this step, each sequence runs its own pass
            return {}, []
        out = {}
        for row, job in enumerate(merging):
            job.generation.merged_steps += 1
            out[job] = hidden[row : row + 1]
        return out, rows.arrays()

    def _advance(self, job: _Job, logits, mask, stepped: int) -> None:
        generation = job.generation
        generation.batch = max(generation.batch, stepped)
        try:
            over = generation.decoder.advance(logits, mask=mask)
        except Exception as exc:  # noqa: BLE001
            self._fail(job, exc)
            return
        if generation.first_at is None:
            generation.first_at = time.perf_counter()
        if over:
            self._finish(job)

    def _guarded_mask(self, job: _Job):
        try:
            return job.generation.decoder.mask()
        except Exception as exc:  # noqa: BLE001
            self._fail(job, exc)
            return None

    def _finish(self, job: _Job) -> None:
        try:
            job.result = self.runner.result(job.generation)
        except Exception as exc:  # noqa: BLE001
            job.error = exc
        job.generation = None  # its cache goes now, not when the caller drops the job
        job.done.set()

    def _fail(self, job: _Job, exc: BaseException) -> None:
        job.error, job.generation = exc, None
        job.done.set()
