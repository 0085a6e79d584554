"""The OpenAI-compatible runner: the model runs on inference servers (vLLM, SGLang, ``mlx_vlm.server``, LM Studio,
...), and this process streams their answers through the same stop set, guards and records as the local runner.

Client: **httpx**, one shared ``httpx.Client`` per runner (a thread-safe connection pool), used directly rather than
through the ``openai`` SDK: the SDK retries a failed request twice by default, and ``mlx_vlm.server`` keeps generating
a request its client dropped, so every retry multiplies the work; and the fields we must read (vLLM's
``stop_reason``, SGLang's ``matched_stop``) are buried in its typed objects. Every request **streams**: closing a
stream is the one way to stop a server that would otherwise generate to ``max_tokens`` (``mlx_vlm.server`` ignores a
non-streaming request's disconnect). Time-outs per request: :data:`CONNECT_TIMEOUT` to connect, ``read_timeout``
between two chunks (and before the first).

One generation: the endpoint (``endpoints.EndpointPool``, the least busy), what it serves (``choose``), the body
and the stream (``wire``), then the result. Usage comes from the server's ``usage``; when a cut leaves none, the
generated tokens are the deltas counted and the prompt tokens are unknown (0), and the record's ``server.usage``
says ``stream`` instead of ``server``. ``constrained`` is true only when the schema went to a kind that enforces it;
a schema that could not be sent gives the record an ``unconstrained`` warning.

httpx is imported lazily (inside functions), like mlx in the local runner.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from extractor.errors import ModelError
from extractor.record import issue
from extractor.runners.base import GenerationRequest, GenerationResult, Runner
from extractor.runners.constrain.plan import unconstrained_warning
from extractor.runners.openai.choose import (
    ServerInfo,
    choose_model,
    fetch_server_info,
    pixels_per_token,
    remote_stop_set,
)
from extractor.runners.openai.endpoints import Endpoint, EndpointFailure, EndpointPool
from extractor.runners.openai.wire import (
    KINDS,
    StreamOutcome,
    check_status,
    finish_reason,
    read_stream,
    request_body,
    transport_reason,
)
from extractor.runners.token_evidence import TokenEvidence

DEFAULT_READ_TIMEOUT = 300.0  # seconds a server may stay silent (a long prefill of many pages on a busy server)
CONNECT_TIMEOUT = 10.0
WRITE_TIMEOUT = 60.0  # sending a request (a document of many pages is a few MB)
PROBE_TIMEOUT = 5.0  # the look at /v1/models when the runner starts
STOP_SET_UNKNOWN = "stop_set_unknown"  # warning code: no stop ids could be resolved for the served model


class OpenAIRunner(Runner):
    """The runner protocol over OpenAI-compatible inference servers (see the module docstring).

    Thread-safe and concurrent: any number of threads may generate at once; each request goes to the least busy
    endpoint (``endpoints.EndpointPool``).

    Attributes:
        model_id: the model as the user named it (records report it; the id sent is the served one).
        stop_set: what is sent as ``stop_token_ids`` (``remote_stop_set``).
        pixels_per_token: for the page budget.
        tokenizer: None (no token masks here: the servers decode).
        pool: the endpoints.
    """

    concurrent = True
    server_constraints = True
    tokenizer = None
    pixels_per_token: int  # set per model in __init__

    def __init__(
        self,
        *,
        endpoints: Sequence[str],
        model: str,
        server_kind: str | None = None,
        api_key: str | None = None,
        stop_ids: Sequence[int] = (),
        image_format: str = "png",
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        probe: bool = True,
    ) -> None:
        """Set up the client and look at every endpoint once (a refused API key fails here, before any document).

        Args:
            endpoints: the servers' URLs.
            model: the served model's id, or a local copy of its directory.
            server_kind: a key of :data:`KINDS`; None: detected per endpoint.
            api_key: sent as ``Authorization: Bearer ...`` (never logged or recorded).
            stop_ids: the stop set to send instead of the resolved one.
            image_format: ``png`` or ``jpeg``.
            read_timeout: seconds a server may stay silent.
            probe: look at the endpoints now (an unreachable one is looked at again when first used).

        Raises:
            ExtractorError: (code ``auth``) a server refused the API key.
            ModelError: a model directory's file cannot be read, or a server does not serve the model.
        """
        import httpx

        self.model_id = model
        self.stop_set = remote_stop_set(model, stop_ids=stop_ids)
        self.pixels_per_token = pixels_per_token(model)
        self.pool = EndpointPool(endpoints)
        self.server_kind = server_kind
        self.image_format = image_format
        self.timeout = httpx.Timeout(connect=CONNECT_TIMEOUT, read=read_timeout, write=WRITE_TIMEOUT, pool=None)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            headers=headers, limits=httpx.Limits(max_connections=None, max_keepalive_connections=32)
        )
        if probe:
            for endpoint in self.pool.endpoints:
                try:
                    self.describe(endpoint, timeout=PROBE_TIMEOUT)
                except EndpointFailure:
                    continue  # not up yet: looked at again when a request goes there

    def describe(self, endpoint: Endpoint, *, timeout: float | None = None) -> ServerInfo:
        """What an endpoint serves and what kind of server it is (asked once, then remembered).

        Args:
            endpoint: the endpoint.
            timeout: seconds for the look (default: the runner's time-outs).

        Returns:
            The ServerInfo.

        Raises:
            EndpointFailure: the server cannot be reached or fails.
            ExtractorError: (code ``auth``) it refused the API key.
        """
        with endpoint.lock:
            if not isinstance(endpoint.info, ServerInfo):  # None until fetched (endpoints cannot name the type)
                endpoint.info = fetch_server_info(
                    self._client, endpoint, kind=self.server_kind, timeout=timeout or self.timeout
                )
            return endpoint.info

    def generate(self, request: GenerationRequest) -> GenerationResult:
        """Generate on the least busy endpoint, retried on another when one fails.

        Args:
            request: prompt, images, limits, stop set, monitors and (optionally) the JSON schema.

        Returns:
            The GenerationResult; ``server`` says which endpoint answered.

        Raises:
            ModelError: no endpoint could answer, or a server refused the request.
            ExtractorError: (code ``auth``) a server refused the API key.
        """
        return self.pool.run(lambda endpoint: self._generate_on(endpoint, request))

    def _generate_on(self, endpoint: Endpoint, request: GenerationRequest) -> GenerationResult:
        import httpx

        info = self.describe(endpoint)
        model = choose_model(self.model_id, info.models, url=endpoint.url)
        body = request_body(request, model=model, kind=info.kind, image_format=self.image_format)
        monitors = list(request.monitor_factory()) if request.monitor_factory else []
        start = time.perf_counter()
        try:
            with self._client.stream(
                "POST", f"{endpoint.base}/chat/completions", json=body, timeout=self.timeout
            ) as response:
                if response.status_code != 200:
                    check_status(
                        response.status_code,
                        response.read().decode("utf-8", "replace"),
                        url=endpoint.url,
                        headers=response.headers,
                    )
                outcome = read_stream(response.iter_lines(), monitors=monitors)
            # leaving the block closed the response: after a guard hit, that is what stops the server
        except httpx.TransportError as exc:
            raise EndpointFailure(transport_reason(exc)) from exc
        except ModelError as exc:
            raise ModelError(exc.message, source=endpoint.url) from exc
        return self._result(outcome, request=request, endpoint=endpoint, info=info, model=model, start=start)

    def _result(
        self,
        outcome: StreamOutcome,
        *,
        request: GenerationRequest,
        endpoint: Endpoint,
        info: ServerInfo,
        model: str,
        start: float,
    ) -> GenerationResult:
        """Map a finished stream onto a GenerationResult (finish, usage, constrained, warnings)."""
        finish = finish_reason(outcome)
        usage = outcome.usage or {}
        reported = "completion_tokens" in usage
        details = usage.get("prompt_tokens_details") or {}
        end = time.perf_counter()
        first = outcome.first_at or end
        spec = KINDS[info.kind]
        asked = request.json_schema is not None
        warnings: tuple[dict, ...] = ()
        if asked and not spec.json_schema:
            warnings = (
                unconstrained_warning(
                    f"the server at {endpoint.url} ({info.kind}) does not enforce a JSON "
                    "schema; the answer is validated afterwards"
                ),
            )
        if not request.stop.ids:
            warnings += (
                issue(
                    STOP_SET_UNKNOWN,
                    f"the stop set of {model!r} is unknown here (no local model "
                    "directory): no stop ids were sent, so the server's own end tokens "
                    "decide; pass --stop-id ID or a local model directory as --model",
                ),
            )
        return GenerationResult(
            text=outcome.text,
            token_ids=(),
            finish_reason=finish,
            stop_token_id=outcome.stop_token_id if finish == "stop" else None,
            guard=outcome.hit.guard if outcome.hit else None,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            generated_tokens=int(usage["completion_tokens"]) if reported else outcome.pieces,
            cached_prompt_tokens=int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0,
            decode_steps=int(usage["completion_tokens"]) if reported else outcome.pieces,
            prefill_s=first - start,
            decode_s=end - first,
            constrained=asked and spec.json_schema,
            warnings=warnings,
            server={
                "endpoint": endpoint.url,
                "kind": info.kind,
                "model": model,
                "usage": "server" if reported else "stream",
            },
            evidence=_evidence(outcome),
        )

    def close(self) -> None:
        """Close the connections (streams still running end with an error, which stops their servers)."""
        self._client.close()


__all__ = [
    "CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "PROBE_TIMEOUT",
    "STOP_SET_UNKNOWN",
    "WRITE_TIMEOUT",
    "OpenAIRunner",
]


def _evidence(outcome: StreamOutcome) -> TokenEvidence | None:
    """The server's logprobs as token evidence (``runners.token_evidence``); None when it gave none. A server does not
    say which tokens its grammar forced: none is marked forced."""
    if not outcome.evidence:
        return None
    offsets, logprobs, margins = zip(*outcome.evidence, strict=True)
    return TokenEvidence(
        offsets=tuple(offsets),
        logprob=tuple(logprobs),
        margin=tuple(margins),
        forced=(False,) * len(offsets),
        source="server",
    )
