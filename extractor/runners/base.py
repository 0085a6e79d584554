"""The runner protocol: one generation method, plus the request and result types it speaks.

The pipeline depends on this protocol only; the implementations live in ``extractor.runners`` (``runners.mlx``:
mlx-vlm in this process; ``runners.openai``: OpenAI-compatible inference servers). mlx is imported by the backends,
by ``constrain.mask`` (to apply token masks) and by the testing kit, each lazily, inside functions.

A remote runner cannot apply logits processors or constraint states (``tokenizer`` is None): it sends the stop set
and, where its server enforces one, the JSON schema (``GenerationRequest.json_schema``), feeds the monitors with
each streamed piece of text, and says in ``GenerationResult.constrained`` whether the schema was enforced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from extractor.runners.stopping import StopSet
from extractor.runners.token_evidence import TokenEvidence

# A logits processor sees the tokens so far and the (1, V) logits, and returns (1, V) logits.
LogitsProcessor = Callable[[object, object], object]


@dataclass(frozen=True)
class Message:
    """One chat message: plain text plus, for user turns, how many page images come before the text."""

    role: str
    text: str
    images: int = 0


@dataclass(frozen=True)
class GuardHit:
    """A monitor's decision to stop: which guard fired and where the kept text ends."""

    guard: str
    keep_chars: int | None = None  # cut the decoded text here (None: keep everything)


class Monitor(Protocol):
    """Watches the decoded stream token by token and may stop generation (runaway guards)."""

    def feed(self, token_id: int, text: str) -> GuardHit | None:
        """Look at the newest token and the whole decoded text so far; return a GuardHit to stop."""


class Constraint(Protocol):
    """One generation's walk through a schema's grammar, as the decoders drive it (``constrain.ConstraintState``)."""

    jump_forward: bool  # whether ``forced`` hands out the tokens the grammar forces

    def forced(self) -> Sequence[int]:
        """The tokens the grammar forces now, taken as if generated (empty without jump-forward)."""

    def accept(self, token: int) -> None:
        """Take a sampled token."""

    def mask(self) -> Any:
        """The allowed next tokens as a packed bitmask (numpy int32, (1, ceil(V / 32)))."""


@dataclass(frozen=True)
class GenerationRequest:
    """Everything one generation needs.

    Attributes:
        messages: the chat, built by ``prompt.build_messages``.
        images: page images (PIL), in the order the messages reference them.
        max_tokens: hard cap on generated tokens.
        stop: the stop set owned by this call (never written into shared processor state).
        temperature: 0 for greedy.
        seed: sampling seed (None: leave the generator as is).
        logits_processors: callables (tokens, logits (1, V)) -> logits (1, V); ``tokens`` holds the prompt's last
            token, then every generated one.
        monitor_factory: builds fresh monitors for this call (guards), or None.
        constraint: starts this call's walk through the schema's grammar (``constrain.grammar.ConstraintState``): token
            masks and, with jump-forward, the forced tokens; None: unconstrained.
        prefix_cache: reuse the model state after the prompt's shared prefix (everything before the first image).
        json_schema: for a runner that constrains on its server (``Runner.server_constraints``): the schema to
            enforce there (``constrain.bounds.bounded_schema`` of the user's); None: not asked.
        evidence: collect per-token evidence (``runners.token_evidence``: each token's probability and margin before
            the grammar mask, and which tokens the grammar forced) for per-field confidence; False: none of it runs.
    """

    messages: tuple[Message, ...]
    images: tuple = ()
    max_tokens: int = 2048
    stop: StopSet = field(default_factory=lambda: StopSet(ids=()))
    temperature: float = 0.0
    seed: int | None = None
    logits_processors: tuple[LogitsProcessor, ...] = ()
    monitor_factory: Callable[[], Sequence[Monitor]] | None = None
    constraint: Callable[[], Constraint] | None = None
    prefix_cache: bool = True
    json_schema: Mapping | None = None
    evidence: bool = True


@dataclass(frozen=True)
class GenerationResult:
    """What one generation produced and how it ended.

    Attributes:
        text: decoded answer, the stop token excluded (and text cut by a guard excluded).
        token_ids: generated ids, including the stop token when one was hit.
        finish_reason: ``stop`` (a stop-set token), ``length`` (max_tokens) or ``guard`` (a monitor fired).
        stop_token_id: the stop id hit, if any.
        guard: the guard that fired, if any.
        prompt_tokens / image_tokens / generated_tokens: usage (generated includes the stop token, and the tokens
            jump-forward fed).
        cached_prompt_tokens: prompt tokens not prefilled again because a cached prefix covered them.
        decode_steps: forward passes that ended in sampling a token (generated_tokens without jump-forward).
        prefill_s / decode_s: wall seconds for the prompt and for the generated tokens.
        peak_memory_gb: mlx peak memory during the call.
        constrained: whether ``request.json_schema`` was enforced (a remote runner says, per call: it depends on
            the server that answered); None: the runner does not decide it (the pipeline's plan does).
        warnings: the runner's notes for the record (issue dicts), e.g. a schema the server could not enforce.
        server: a remote runner's facts for the record (``{"endpoint", "kind", "model", "usage"}``); None locally.
        decoding: the local runner's path and features for this call (``{"path": "fast"|"generic",
            "prefix_cache", "jump_forward", "forced_feed", "batch", "merged_steps", "reasons"}``,
            ``runners.decoding``); None for a remote runner.
        evidence: per-token evidence of the answer text (``runners.token_evidence.TokenEvidence``); None where the
            runner collects none (evidence off, a server without logprobs).
    """

    text: str
    token_ids: tuple[int, ...]
    finish_reason: str
    stop_token_id: int | None = None
    guard: str | None = None
    prompt_tokens: int = 0
    image_tokens: int = 0
    generated_tokens: int = 0
    cached_prompt_tokens: int = 0
    decode_steps: int = 0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    peak_memory_gb: float = 0.0
    constrained: bool | None = None
    warnings: tuple[dict, ...] = ()
    server: Mapping | None = None
    decoding: Mapping | None = None
    evidence: TokenEvidence | None = None


class Runner:
    """A loaded model that can generate: the base every runner subclasses (``runners.mlx.runner.MlxRunner``,
    ``runners.openai.runner.OpenAIRunner``). Its optional capabilities are attributes with their defaults here, so
    callers read them directly.

    Attributes:
        model_id: the model as the user named it (records report it).
        stop_set: the resolved stop set (``stopping``); every request carries its own copy.
        pixels_per_token: image pixels per vision token (Qwen3.5: (16 * 2) ** 2), for the page budget.
        max_page_pixels: the most pixels a page is worth (a processor that resizes every image to one size);
            None (the default): the budget alone decides.
        tokenizer: the Hugging Face tokenizer the model samples with, so ``constrain`` can build token masks for
            it; None for a runner that cannot apply logits processors.
        concurrent: generations may run from several threads at once and overlap (a remote runner, or the
            in-process one batching: ``MlxRunner(batch=N)``); False: they are serialized inside the runner, so
            extracting documents in parallel gains nothing (the default).
        in_flight: for an in-process concurrent runner, the documents worth keeping in flight (its batch, and as
            many rendered ahead); ``api.concurrency_for`` uses it. None (the default): no such wish.
        server_constraints: the runner can have a JSON schema enforced where it generates (a server's structured
            output); ``constrain.plan.plan_constraint`` then passes the bounded schema as ``json_schema``. Default
            False.
    """

    model_id: str
    stop_set: StopSet

    if TYPE_CHECKING:
        # Read-only for the pipeline: a runner gives each as a class attribute, an attribute it sets, or a
        # property (MlxRunner's follow the loaded model). A read-only property is what all three may override;
        # at run time the defaults stay plain class attributes (below), so assigning them keeps working.
        @property
        def pixels_per_token(self) -> int: ...

        @property
        def tokenizer(self) -> object | None: ...

        @property
        def concurrent(self) -> bool: ...

        @property
        def in_flight(self) -> int | None: ...

        @property
        def max_page_pixels(self) -> int | None: ...

        @property
        def server_constraints(self) -> bool: ...
    else:
        tokenizer = None
        concurrent = False
        in_flight = None
        max_page_pixels = None
        server_constraints = False

    def generate(self, request: GenerationRequest) -> GenerationResult:
        """Run one generation.

        Args:
            request: the prompt, images, limits and stop set.

        Returns:
            The GenerationResult.

        Raises:
            ModelError: the model failed.
        """
        raise NotImplementedError
