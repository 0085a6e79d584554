"""The doctor's live checks: one short real generation, on a model directory or on a running server. Does it stop?

``smoke_check`` (``extract doctor MODEL --smoke``) loads the directory with our runner (stop set only, no guards)
and generates on a blank page through the family's own chat template; it passes when the answer ends on a stop
token. Only it imports mlx (through ``runners.mlx``, lazily).

``endpoint_checks`` (``extract doctor --endpoint URL``) checks a running inference server instead: what it serves
and what kind it is, then one smoke request on a blank page *without* our stop ids, as any other client would send
it: does the server stop on its own after the answer? When it does not (it streams ``<|im_end|>`` as text, or keeps
generating hidden tokens after the JSON closed: the seed's bug on the server), the check fails with the fix for that
kind of server, and for kinds that take per-request ``stop_token_ids`` a second request says whether ours stop it.
The static checks of a directory's files are :mod:`extractor.tools.doctor.files`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from extractor.errors import ExtractorError
from extractor.tools.doctor.files import FIX_HINT, Check
from extractor.tools.doctor.stopset import mlx_vlm_stop_ids, read_facts

DEFAULT_SMOKE_TOKENS = 512


class _GuardWatch:
    """A monitor that never stops generation; it notes when the runaway guards would have."""

    def __init__(self) -> None:
        from extractor.runners.guards import GuardMonitor, GuardSettings

        self.inner = GuardMonitor(GuardSettings())
        self.tokens = 0
        self.would_fire: tuple[str, int] | None = None

    def feed(self, token_id: int, text: str):
        """Count tokens and remember the first guard that would have fired."""
        self.tokens += 1
        if self.would_fire is None:
            hit = self.inner.feed(token_id, text)
            if hit is not None:
                self.would_fire = (hit.guard, self.tokens)
        return None


def smoke_check(model_dir: Path, *, max_tokens: int = DEFAULT_SMOKE_TOKENS, logits_processors: Sequence = ()) -> Check:
    """One short real generation with our runner (stop set only, no guards) on a blank page, through the family's
    own chat template: does it stop?

    Args:
        model_dir: the model directory.
        max_tokens: generation cap.
        logits_processors: passed to the generation (tests force an answer on random weights with one).

    Returns:
        A Check named ``smoke``: ``pass`` when it ended on a stop token, ``fail`` when it ran to ``max_tokens``.

    Raises:
        ModelError: the model cannot be loaded or fails.
    """
    from PIL import Image

    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.runners.mlx.runner import MlxRunner
    from extractor.schema import load_schema

    runner = MlxRunner(model=str(model_dir))
    watch = _GuardWatch()
    page = Image.new("RGB", (448, 640), "white")  # a blank portrait page
    request = GenerationRequest(
        messages=build_messages(load_schema("invoice"), pages=1),
        images=(page,),
        max_tokens=max_tokens,
        stop=runner.stop_set,
        temperature=0.0,
        monitor_factory=lambda: [watch],
        logits_processors=tuple(logits_processors),
    )
    result = runner.generate(request)
    facts = read_facts(model_dir)
    names = facts.token_names
    if result.finish_reason == "stop":
        bare, _ = mlx_vlm_stop_ids(facts)
        tid = result.stop_token_id
        also = "bare mlx-vlm stops on it too" if tid in bare else f"bare mlx-vlm would not stop on it ({FIX_HINT})"
        token = f"{tid} {names[tid]}" if tid in names else str(tid)
        return Check(
            "smoke",
            "pass",
            f"stopped on {token} after {result.generated_tokens} tokens (stop token "
            f"included); {also}; {_decoding_words(runner)}",
            None,
        )
    guard = (
        f"; the runaway guards would have stopped it ({watch.would_fire[0]}) after {watch.would_fire[1]} tokens"
        if watch.would_fire
        else "; the runaway guards would not have stopped it either"
    )
    return Check(
        "smoke",
        "fail",
        f"no stop token within {result.generated_tokens} tokens (finish: {result.finish_reason}){guard}",
        None,
    )


def _decoding_words(runner) -> str:
    """The load-time decoding plan in words, for the smoke check."""
    plan = runner.decoding
    jump = "jump-forward" + (", forced runs one token per pass" if plan.forced_feed == "per_token" else "")
    features = [f for f, on in (("prefix cache", plan.prefix_cache), (jump, plan.jump_forward)) if on]
    words = f"decodes on the {plan.path} path" + (f" ({', '.join(features)})" if features else "")
    return words + (f"; {'; '.join(plan.reasons)}" if plan.reasons else "")


# What to do when a server does not stop on its own, per kind (``{ids}``: the stop set, ``{hint}``: the fix).
SERVER_FIXES = {
    "vllm": "restart vLLM with `--generation-config DIR`, DIR holding a generation_config.json whose eos_token_id "
    "is {ids} (or fix the model's own file: {hint}, then restart); extract's own requests carry "
    "stop_token_ids and stop anyway",
    "sglang": "fix the model's generation_config.json ({hint}: eos_token_id {ids}) and restart SGLang; extract's own "
    "requests carry stop_token_ids and stop anyway",
    "mlx": "mlx_vlm.server ignores per-request stop ids: fix the model directory it loads ({hint}: eos_token_id "
    "{ids}) and restart it; until then extract's guards cut every answer at the first end marker "
    "(finish guard)",
    "openai": "this server takes no per-request stop ids: fix the model's end tokens ({hint}: eos_token_id {ids}, "
    "or the server's model settings) and reload it; until then extract's guards cut every answer",
}
ENDPOINT_HINT = "`extract doctor MODEL_DIR --fix` on the directory the server loads"


def endpoint_checks(
    url: str,
    *,
    model: str | None = None,
    server_kind: str | None = None,
    api_key: str | None = None,
    smoke_tokens: int = DEFAULT_SMOKE_TOKENS,
) -> tuple[Check, ...]:
    """Check a running OpenAI-compatible server: what it serves, and whether it stops on its own.

    Args:
        url: the endpoint.
        model: the served model to check (its id, or a local copy of its directory); None: the only one served.
        server_kind: a kind of ``runners.openai.wire.KINDS``; None: detected.
        api_key: the bearer token, if the server wants one.
        smoke_tokens: ``max_tokens`` of the smoke requests.

    Returns:
        ``endpoint`` (reachable, kind, models), then ``smoke`` (stops on its own?) and, when that fails on a
        server that takes per-request stop ids, ``smoke_stop_ids`` (do ours stop it?).
    """
    from extractor.runners.openai.runner import OpenAIRunner

    runner = OpenAIRunner(endpoints=[url], model=model or "", server_kind=server_kind, api_key=api_key, probe=False)
    try:
        return _endpoint_checks(runner, url=url, model=model, smoke_tokens=smoke_tokens)
    finally:
        runner.close()


def _endpoint_checks(runner, *, url: str, model: str | None, smoke_tokens: int) -> tuple[Check, ...]:
    """``endpoint_checks`` with the runner made (and closed by the caller)."""
    from extractor.runners.openai.choose import choose_model, remote_stop_set
    from extractor.runners.openai.endpoints import EndpointFailure
    from extractor.runners.openai.wire import KINDS

    try:
        info = runner.describe(runner.pool.endpoints[0])
        served = choose_model(model or "", info.models, url=url)
    except EndpointFailure as exc:
        return (Check("endpoint", "fail", f"{url}: {exc.reason}", None),)
    except ExtractorError as exc:
        return (Check("endpoint", "fail", str(exc), None),)
    how = "detected" if info.detected else "given"
    found = Check(
        "endpoint",
        "pass",
        f"{info.kind} server ({how}); serves {', '.join(info.models) or '(no list)'}; checking {served}",
        None,
    )
    stop = remote_stop_set(model or served)
    smoke = _server_smoke(runner, stop=None, max_tokens=smoke_tokens)
    if smoke.status == "pass":
        return found, smoke
    fix = SERVER_FIXES[info.kind].format(ids=list(stop.ids) or "[the model's end tokens]", hint=ENDPOINT_HINT)
    smoke = Check("smoke", "fail", f"{smoke.detail}. Fix: {fix}", None)
    if not KINDS[info.kind].stop_token_ids or not stop.ids:
        return found, smoke
    again = _server_smoke(runner, stop=stop, max_tokens=smoke_tokens)
    return (
        found,
        smoke,
        Check(
            "smoke_stop_ids",
            again.status,
            f"with stop_token_ids {list(stop.ids)} (what extract sends): {again.detail}",
            None,
        ),
    )


def _server_smoke(runner, *, stop, max_tokens: int) -> Check:
    """One request on a blank page (the invoice prompt, no schema) watched by the end-marker and JSON-closed
    guards: ``pass`` when the server stops on its own, ``fail`` when it streams an end marker as text, goes on after
    the JSON closed, or runs to ``max_tokens``."""
    from PIL import Image

    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.runners.guards import GuardSettings
    from extractor.runners.stopping import StopSet
    from extractor.schema import load_schema

    page = Image.new("RGB", (448, 640), "white")  # a blank portrait page
    guards = GuardSettings(loop=False)
    request = GenerationRequest(
        messages=build_messages(load_schema("invoice"), pages=1),
        images=(page,),
        max_tokens=max_tokens,
        stop=stop or StopSet(ids=()),
        temperature=0.0,
        monitor_factory=guards.factory(),
    )
    try:
        result = runner.generate(request)
    except ExtractorError as exc:
        return Check("smoke", "fail", f"the request failed: {exc}", None)
    tokens = f"{result.generated_tokens} tokens"
    if result.finish_reason == "stop":
        named = f" on {result.stop_token_id}" if result.stop_token_id is not None else ""
        how = "stopped" if stop else "stopped on its own"
        return Check("smoke", "pass", f"{how}{named} after {tokens} (stop token included)", None)
    if result.guard == "end_marker":
        return Check(
            "smoke",
            "fail",
            f"does not stop: it streamed an end marker as text after {tokens} (the "
            "model's end token is missing from the server's stop set)",
            None,
        )
    if result.guard == "json_closed":
        return Check(
            "smoke",
            "fail",
            f"does not stop: it went on generating after the JSON closed ({tokens}; a "
            "server that hides special tokens streams them as empty text)",
            None,
        )
    return Check("smoke", "fail", f"no stop within {tokens} (finish length): it ran to max_tokens", None)


__all__ = ["DEFAULT_SMOKE_TOKENS", "ENDPOINT_HINT", "SERVER_FIXES", "endpoint_checks", "smoke_check"]
