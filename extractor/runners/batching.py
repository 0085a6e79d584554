"""In-process continuous batching: up to ``batch`` documents decode together, each exactly as it would alone.

Decoding is bound by reading the weights once per step, and most of them are the lm_head's (the mid testing
model's 248,320 x 768 head is 0.76 GB of its 1.6). So every active sequence runs its own forward pass through the
layers (its own cache, its own tokens: the tokens jump-forward feeds need no padding, and a recurrent state such as
Gated-DeltaNet's never sees another sequence's padding), and the lm_head runs once per step over the stacked last
hidden states of all of them. Per sequence, everything stays as in the serial loop (``decode.Decoder``): its stop
set, constraint mask (computed on the host while the step's forward passes run), jump-forward, guards,
``max_tokens``, temperature and seed (its own random key), logits processors. A sequence that ends frees its slot
for the next request at once; a new sequence's prompt is prefilled one chunk per step so the others keep decoding.
A retry is a new request: it joins the batch as a new sequence.

Exact where the head can run apart from the layers and gives the same logits stacked as alone: ``batch_reason``
checks that at load on a short text prompt (float32 logits of two sequences, alone against stacked). Elsewhere the
runner decodes one document at a time and says so in every record (``usage.decoding.reasons``). A request the model
must run on the generic path (``generate_step``: Gemma 4 with images) runs alone in the loop's thread.

All mlx work happens on the loop's one thread (callers only render and tokenize): mlx-vlm models keep per-call
state (Qwen's mRoPE deltas), swapped in and out per sequence around each of its passes.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Optional

from ..runner import GenerationRequest, GenerationResult
from .decode import restore_call_state, save_call_state

BATCH_TOLERANCE = 1e-4  # max |difference| of float32 logits, one sequence stacked with another against alone


def batch_reason(model, processor, forward, plan, *, render) -> Optional[str]:
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

    from .decode import embed, make_cache, prepare_inputs, reset_call_state

    lm = forward.lm
    alone, hidden = [], []
    for text in ("Extract the invoice number.", "Extract the total of this document, please."):
        inputs = prepare_inputs(model, processor, render(text), ())
        embeddings, kwargs = embed(model, inputs)
        ids = inputs["input_ids"]
        for out in (alone, hidden):
            reset_call_state(lm)
            cache = make_cache(lm)
            forward.prefill(ids[:, :-1], embeddings[:, :-1], cache, kwargs)
            if out is alone:
                out.append(forward.logits(ids[:, -1:], cache, embeddings=embeddings[:, -1:], kwargs=kwargs))
            else:
                out.append(forward.hidden(ids[:, -1:], cache, embeddings=embeddings[:, -1:], kwargs=kwargs))
    reset_call_state(lm)
    stacked = forward.head(mx.concatenate(hidden, axis=0)).astype(mx.float32)
    return max(float(mx.max(mx.abs(stacked[i] - alone[i].astype(mx.float32).reshape(-1))).item())
               for i in range(len(alone)))


class _Job:
    """A request waiting for, or in, the batch; the caller's thread waits on ``done``."""

    def __init__(self, request: GenerationRequest, inputs: dict) -> None:
        self.request, self.inputs = request, inputs
        self.done = threading.Event()
        self.generation = None
        self.result: Optional[GenerationResult] = None
        self.error: Optional[BaseException] = None
        self.prefilled = False


class BatchLoop:
    """The loop thread that steps every active sequence together (started on the first request)."""

    def __init__(self, runner, *, size: int) -> None:
        """Args: runner: the ``MlxRunner`` (its start/result, forward passes and lock); size: sequences at once."""
        self.runner, self.size = runner, size
        self._pending: deque[_Job] = deque()
        self._wake = threading.Condition()
        self._thread: Optional[threading.Thread] = None
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
        return job.result

    def _run(self) -> None:
        active: list[_Job] = []
        while True:
            with self._wake:
                while not self._pending and not active:
                    self._wake.wait()
                admitted = []
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
        """One forward pass for every decoding sequence, the lm_head once over all of them, then each samples."""
        import mlx.core as mx

        if not jobs:
            return
        forward, lm = self.runner._forward, self.runner._forward.lm
        stepped, hidden = [], []
        for job in jobs:
            generation = job.generation
            decoder = generation.decoder
            restore_call_state(lm, generation.call_state)
            try:
                ids, embeddings, kwargs = decoder.feed
                hidden.append(forward.hidden(ids, decoder.cache, embeddings=embeddings, kwargs=kwargs))
            except Exception as exc:  # noqa: BLE001
                self._fail(job, exc)
                continue
            generation.call_state = save_call_state(lm)
            stepped.append(job)
        if not stepped:
            return
        try:
            logits = forward.head(mx.concatenate(hidden, axis=0))
            mx.async_eval(logits)
        except Exception as exc:  # noqa: BLE001 - the shared pass failed: every sequence in it fails
            for job in stepped:
                self._fail(job, exc)
            return
        masks = [self._guarded_mask(job) for job in stepped]  # on the host while the passes run
        for row, (job, mask) in enumerate(zip(stepped, masks)):
            if job.done.is_set():
                continue
            generation = job.generation
            generation.batch = max(generation.batch, len(stepped))
            try:
                over = generation.decoder.advance(logits[row:row + 1], mask=mask)
            except Exception as exc:  # noqa: BLE001
                self._fail(job, exc)
                continue
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
