"""The OpenAI-compatible runner: the model runs on inference servers (vLLM, SGLang, ``mlx_vlm.server``, LM Studio,
...), and this process streams their answers through the same stop set, guards and records as the local runner.

Client: **httpx**, one shared ``httpx.Client`` per runner (a thread-safe connection pool), used directly rather than
through the ``openai`` SDK: the SDK retries a failed request twice by default, and ``mlx_vlm.server`` keeps generating
a request its client dropped, so every retry multiplies the work; and the fields we must read (vLLM's
``stop_reason``, SGLang's ``matched_stop``) are buried in its typed objects. Every request **streams**: closing a
stream is the one way to stop a server that would otherwise generate to ``max_tokens`` (``mlx_vlm.server`` ignores a
non-streaming request's disconnect). Time-outs per request: :data:`CONNECT_TIMEOUT` to connect, ``read_timeout``
between two chunks (and before the first).

What each kind of server honours (:data:`KINDS`; ``--server-kind``, else detected from ``/v1/models`` and the
``server`` header):

========  ===============  ======================  ==================================  ===========================
kind      stop_token_ids   JSON schema             thinking off                        detected by
========  ===============  ======================  ==================================  ===========================
vllm      yes              ``response_format``     ``chat_template_kwargs``            ``owned_by: "vllm"``
sglang    yes              ``response_format``     ``chat_template_kwargs``            ``owned_by: "sglang"``
mlx       no (ignored)     no (Metal only; 500)    ``enable_thinking: false``          header ``server: mlx_vlm/…``
openai    no               ``response_format``     (the server's default)              anything else (LM Studio…)
========  ===============  ======================  ==================================  ===========================

The request: the same messages as the local runner (system text; the user turn with the page images first, as PNG or
JPEG data URLs at the rendered size, then the text), ``max_tokens``, ``temperature``, ``seed`` (0 when unset: servers
differ in what no seed means) and plain sampling (``top_p`` 1, no top-k, no penalties: a server's defaults from the
model's generation config must not change the answer), ``stream_options.include_usage``. The stop set goes as
``stop_token_ids`` and the bounded schema as ``response_format`` where the kind honours them.

Reading the stream: every content delta is fed to the request's monitors (the runaway guards) as one token (a
delta's text stands for its id: the loop guard compares equal pieces); when one fires the response is closed at
once, so the server stops generating. ``finish_reason`` maps onto ours: ``stop`` (with the stop id where the server
names it: vLLM's ``stop_reason``, SGLang's ``matched_stop``), ``length``, or ``guard`` when we cut. Usage comes from
the server's ``usage`` (vLLM and SGLang report it with every chunk, so also after a cut); when a cut leaves none,
the generated tokens are the deltas counted and the prompt tokens are unknown (0), and the record's
``server.usage`` says ``stream`` instead of ``server``. ``constrained`` is true only when the schema went to a kind
that enforces it; a schema that could not be sent gives the record an ``unconstrained`` warning.

httpx is imported lazily (inside functions), like mlx in the local runner.
"""

from __future__ import annotations

import base64
import io
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence

from extractor.runners.constrain.plan import unconstrained_warning
from extractor.record import issue
from extractor.errors import ExtractorError, ModelError
from extractor.runners.base import GenerationRequest, GenerationResult, GuardHit, Runner
from extractor.runners.modelfiles import DEFAULT_MODEL
from extractor.runners.stopping import END_TOKEN_TEXTS, StopSet, resolve_stop_set
from extractor.runners.openai.endpoints import Endpoint, EndpointFailure, EndpointPool

DEFAULT_READ_TIMEOUT = 300.0  # seconds a server may stay silent (a long prefill of many pages on a busy server)
CONNECT_TIMEOUT = 10.0
WRITE_TIMEOUT = 60.0  # sending a request (a document of many pages is a few MB)
PROBE_TIMEOUT = 5.0  # the look at /v1/models when the runner starts
JPEG_QUALITY = 92
ERROR_BODY_LIMIT = 2000  # characters of an error body quoted in a message
STOP_SET_UNKNOWN = "stop_set_unknown"  # warning code: no stop ids could be resolved for the served model
QWEN_STOP_IDS = {248044: "<|endoftext|>", 248046: "<|im_end|>"}
KNOWN_QWEN_MODELS = frozenset({DEFAULT_MODEL})  # Qwen3.5-based, whatever their names say
QWEN35_NAME = re.compile(r"qwen3[._-]?5", re.I)  # Qwen3.5 ids, not Qwen2.5-VL's 151645 or Qwen3-VL's
DEFAULT_PIXELS_PER_TOKEN = (16 * 2) ** 2  # Qwen-VL: 16-px patches merged 2x2
RETRYABLE_STATUS = frozenset({408, 500, 502, 503, 504})


@dataclass(frozen=True)
class Kind:
    """What one kind of server honours in a chat-completions request.

    Attributes:
        stop_token_ids: per-request ``stop_token_ids`` (ids that end generation besides the model's own).
        json_schema: ``response_format: {"type": "json_schema", ...}``, enforced while decoding.
        thinking: body fields that switch the chat template's thinking off.
        sampling: body fields that make sampling plain temperature sampling.
        usage_every_chunk: ``stream_options.continuous_usage_stats`` (usage in every chunk, so known after a cut).
    """

    stop_token_ids: bool
    json_schema: bool
    thinking: Mapping[str, Any] = field(default_factory=dict)
    sampling: Mapping[str, Any] = field(default_factory=dict)
    usage_every_chunk: bool = False


_PLAIN = {"top_p": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0}
_TEMPLATE_NO_THINKING = {"chat_template_kwargs": {"enable_thinking": False}}
KINDS = {
    "vllm": Kind(stop_token_ids=True, json_schema=True, thinking=_TEMPLATE_NO_THINKING,
                 sampling={**_PLAIN, "top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0}, usage_every_chunk=True),
    "sglang": Kind(stop_token_ids=True, json_schema=True, thinking=_TEMPLATE_NO_THINKING,
                   sampling={**_PLAIN, "top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0}, usage_every_chunk=True),
    "mlx": Kind(stop_token_ids=False, json_schema=False, thinking={"enable_thinking": False},
                sampling={"top_p": 1.0, "top_k": 0, "min_p": 0.0}),
    "openai": Kind(stop_token_ids=False, json_schema=True, sampling=_PLAIN),
}


@dataclass(frozen=True)
class ServerInfo:
    """What a server said about itself.

    Attributes:
        kind: a key of :data:`KINDS`.
        models: the model ids it serves (``/v1/models``), in its order.
        detected: the kind was detected (not given with ``--server-kind``).
    """

    kind: str
    models: tuple[str, ...]
    detected: bool = True


# ---------------------------------------------------------------------------------------------------- pure parts


def detect_kind(*, server_header: str, models: Sequence[Mapping[str, Any]]) -> str:
    """Tell the kind of server from its ``server`` header and its ``/v1/models`` items.

    Args:
        server_header: the response's ``server`` header ('' when absent).
        models: the ``data`` items of ``/v1/models``.

    Returns:
        ``mlx`` (header ``mlx_vlm/...``), ``vllm`` / ``sglang`` (``owned_by``), else ``openai``.
    """
    if server_header.lower().startswith("mlx_vlm"):
        return "mlx"
    owners = {str(m.get("owned_by", "")).lower() for m in models if isinstance(m, Mapping)}
    for kind in ("vllm", "sglang"):
        if kind in owners:
            return kind
    return "openai"


def choose_model(wanted: str, served: Sequence[str], *, url: str) -> str:
    """The id to send for the model the user named: the same id, the same directory, or the only one served.

    Args:
        wanted: the ``model`` setting (a served id, or a local directory the server loaded too); '' for none.
        served: the ids in the server's ``/v1/models`` (empty when it has no such list).
        url: the endpoint, for the message.

    Returns:
        The id, exactly as the server lists it (``mlx_vlm.server`` loads whatever path another id names).

    Raises:
        ModelError: the server serves several models and none of them is ``wanted``.
    """
    if not served or wanted in served:
        return wanted
    same = [s for s in served if wanted and _same_directory(wanted, s)]
    if same:
        return same[0]
    if len(served) == 1:
        return served[0]
    named = f"--model {wanted} is none of them" if wanted else "no --model given"
    raise ModelError(f"the server serves {', '.join(served)}; {named} (pass one of these ids)", source=url)


def _same_directory(a: str, b: str) -> bool:
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve() and Path(a).expanduser().is_dir()
    except (OSError, RuntimeError):
        return False


def remote_stop_set(model: str, *, stop_ids: Sequence[int] = ()) -> StopSet:
    """The stop set sent to the servers: ``stop_ids`` when given, else the local model directory's (when ``model``
    names one, or a hub id in the local cache), resolved exactly as in-process (``stopping``), else Qwen3.5's
    <|endoftext|> and <|im_end|> for a Qwen3.5 model (the default model, or an id naming Qwen3.5: every Qwen3.5
    checkpoint shares that vocabulary), else empty: the served model's stop set is unknown, and no other family's
    ids are guessed from a name (each record says so: ``stop_set_unknown``; the guards still watch the text).

    Args:
        model: the ``model`` setting.
        stop_ids: the ``--stop-id`` override.

    Returns:
        The StopSet, each id with where it came from.

    Raises:
        ModelError: the model directory exists but one of its files cannot be read.
    """
    if stop_ids:
        ids = tuple(sorted(set(int(i) for i in stop_ids)))
        return StopSet(ids=ids, sources={i: ("--stop-id",) for i in ids}, texts=END_TOKEN_TEXTS)
    directory = local_model_dir(model)
    if directory is not None:
        return resolve_stop_set(directory)
    if model in KNOWN_QWEN_MODELS or QWEN35_NAME.search(model or ""):
        return StopSet(ids=tuple(sorted(QWEN_STOP_IDS)),
                       sources={i: (f"qwen-family id:{t}",) for i, t in QWEN_STOP_IDS.items()}, texts=END_TOKEN_TEXTS)
    return StopSet(ids=(), texts=END_TOKEN_TEXTS)


def local_model_dir(model: str) -> Optional[Path]:
    """The model's directory when it is here: a path, or a hub id already in the local cache (never downloads).

    Args:
        model: the ``model`` setting.

    Returns:
        The directory, or None.
    """
    if not model:
        return None
    path = Path(model).expanduser()
    if path.is_dir():
        return path
    if path.exists() or "/" not in model or model.startswith((".", "/", "~")):
        return None
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(repo_id=model, local_files_only=True))
    except Exception:  # noqa: BLE001 - not cached (or no hub library): the id alone decides
        return None


def pixels_per_token(model: str) -> int:
    """Image pixels per vision token: from the local directory's ``preprocessor_config.json`` when there is one
    (``(patch_size * merge_size) ** 2``), else Qwen-VL's 32 x 32."""
    directory = local_model_dir(model)
    try:
        config = json.loads((directory / "preprocessor_config.json").read_text(encoding="utf-8")) if directory else {}
    except (OSError, ValueError):
        config = {}
    patch, merge = config.get("patch_size"), config.get("merge_size")
    if isinstance(patch, int) and isinstance(merge, int) and patch > 0 and merge > 0:
        return (patch * merge) ** 2
    return DEFAULT_PIXELS_PER_TOKEN


def image_url(image, *, image_format: str) -> str:
    """A page image as a data URL: PNG (lossless) or JPEG (quality :data:`JPEG_QUALITY`), same pixels.

    Args:
        image: a PIL image.
        image_format: ``png`` or ``jpeg``.

    Returns:
        ``data:image/png;base64,...`` or ``data:image/jpeg;base64,...``.
    """
    buffer = io.BytesIO()
    if image_format == "jpeg":
        image.convert("RGB").save(buffer, "JPEG", quality=JPEG_QUALITY)
    else:
        image.save(buffer, "PNG")
    return f"data:image/{image_format};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def request_body(request: GenerationRequest, *, model: str, kind: str, image_format: str = "png") -> dict:
    """The chat-completions body for one generation on one kind of server.

    Args:
        request: the generation request (messages, images, limits, stop set, schema).
        model: the served model id.
        kind: a key of :data:`KINDS`.
        image_format: ``png`` or ``jpeg``.

    Returns:
        The JSON body (always streaming, usage included).
    """
    spec = KINDS[kind]
    urls = iter([image_url(image, image_format=image_format) for image in request.images])
    messages = []
    for message in request.messages:
        if message.images:
            parts = [{"type": "image_url", "image_url": {"url": next(urls)}} for _ in range(message.images)]
            messages.append({"role": message.role, "content": [*parts, {"type": "text", "text": message.text}]})
        else:
            messages.append({"role": message.role, "content": message.text})
    body = {"model": model, "messages": messages, "max_tokens": request.max_tokens,
            "temperature": request.temperature, "seed": 0 if request.seed is None else request.seed,
            **spec.sampling, **spec.thinking, "stream": True, "stream_options": {"include_usage": True}}
    if spec.usage_every_chunk:
        body["stream_options"]["continuous_usage_stats"] = True
    if spec.stop_token_ids and request.stop.ids:
        body["stop_token_ids"] = list(request.stop.ids)
    if spec.json_schema and request.json_schema is not None:
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": "answer", "schema": dict(request.json_schema),
                                                   "strict": True}}
    return body


def sse_data(lines: Iterable[str]) -> Iterator[str]:
    """The ``data`` of each server-sent event (multi-line data joined with newlines; comments and other fields
    skipped).

    Args:
        lines: the response's lines, without line ends.

    Yields:
        Each event's data, as soon as the blank line that ends it arrives.
    """
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


def server_message(text: str) -> str:
    """A server's error body in a few words: FastAPI's ``detail``, OpenAI's ``error.message`` (or a plain
    ``error`` string, as in mlx_vlm.server's stream), SGLang's ``message``, else the text itself (cut).

    Args:
        text: the body (or an error event's data).

    Returns:
        The message, at most :data:`ERROR_BODY_LIMIT` characters.
    """
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    message = None
    if isinstance(body, dict):
        error = body.get("error")
        message = (error.get("message") if isinstance(error, dict) else error) or body.get("detail") \
            or body.get("message")
    if message is None:
        message = text.strip()
    if not isinstance(message, str):
        message = json.dumps(message, ensure_ascii=False)
    return message[:ERROR_BODY_LIMIT] or "(no body)"


def error_message(status: int, text: str) -> str:
    """An error answer in a few words: ``HTTP 404: The model `x` does not exist.`` (see :func:`server_message`)."""
    return f"HTTP {status}: {server_message(text)}"


def retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds from a ``Retry-After`` header (a number of seconds or an HTTP date); None when absent or bad."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def check_status(status: int, text: str, *, url: str, headers: Mapping[str, str]) -> None:
    """Raise what a non-200 answer means: a refused key stops everything, 429 / 5xx / 408 are retried
    elsewhere, any other status fails this document.

    Args:
        status: the HTTP status.
        text: the body.
        url: the endpoint (named in the message).
        headers: the response headers (``Retry-After``).

    Raises:
        ExtractorError: (code ``auth``) 401 / 403.
        EndpointFailure: 429 (with its Retry-After), 408, 500, 502, 503, 504.
        ModelError: any other status.
    """
    if status == 200:
        return
    message = error_message(status, text)
    if status in (401, 403):
        raise ExtractorError(f"{url} refused the API key ({message}); set the key in the environment variable "
                             "named by --api-key-env", code="auth", source=url)
    if status == 429:
        raise EndpointFailure(message, retry_after=retry_after(headers.get("retry-after")))
    if status in RETRYABLE_STATUS:
        raise EndpointFailure(message)
    raise ModelError(message, source=url)


def transport_reason(exc: BaseException) -> str:
    """A transport error in a few words (``connection refused``, ``no answer within 300 s``...)."""
    import httpx

    text = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.ConnectError):
        return "connection refused" if "refused" in text.lower() else f"cannot connect ({text})"
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out ({type(exc).__name__})"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the connection broke ({text})"
    return f"{type(exc).__name__}: {text}"


# ------------------------------------------------------------------------------------------------ the stream


@dataclass
class StreamOutcome:
    """What one streamed answer gave (text cut at a guard), before it becomes a GenerationResult."""

    text: str = ""
    pieces: int = 0  # content deltas seen (one per token on the servers we know)
    finish_reason: Optional[str] = None  # the server's
    stop_token_id: Optional[int] = None
    hit: Optional[GuardHit] = None
    usage: Optional[dict] = None
    done: bool = False  # [DONE] arrived
    first_at: Optional[float] = None


def read_stream(lines: Iterable[str], *, monitors: Sequence[object] = ()) -> StreamOutcome:
    """Read a chat-completions stream, feeding each content delta to the monitors; stop at the first hit.

    Args:
        lines: the response's lines.
        monitors: ``runner.Monitor`` objects (fed ``(piece id, text so far)``; a delta's text stands for its id).

    Returns:
        The StreamOutcome (``hit`` set when a monitor stopped it: the caller closes the response).

    Raises:
        ModelError: the server sent an error event or a chunk that is not JSON.
    """
    out = StreamOutcome()
    ids: dict[str, int] = {}
    for data in sse_data(lines):
        if data.strip() == "[DONE]":
            out.done = True
            return out
        try:
            event = json.loads(data)
        except ValueError:
            raise ModelError(f"the server sent a chunk that is not JSON: {data[:200]!r}") from None
        if not isinstance(event, dict):
            raise ModelError(f"the server sent a chunk that is not a JSON object: {data[:200]!r}")
        if event.get("error"):
            raise ModelError(f"the server failed while generating: {server_message(data)}")
        if isinstance(event.get("usage"), dict):
            out.usage = event["usage"]
        for choice in event.get("choices") or ():
            if _take_choice(out, choice, monitors, ids):
                return out
    return out


def _take_choice(out: StreamOutcome, choice: Mapping, monitors: Sequence[object], ids: dict[str, int]) -> bool:
    """Take one choice of a chunk; True when a monitor fired."""
    delta = choice.get("delta") or {}
    content = delta.get("content")
    # vLLM opens with {"role": "assistant", "content": ""}: not a token; later empty deltas are hidden specials
    if content is not None and (content or "role" not in delta):
        out.pieces += 1
        out.first_at = out.first_at or time.perf_counter()
        out.text += content
        piece_id = ids.setdefault(content, len(ids))
        for monitor in monitors:
            hit = monitor.feed(piece_id, out.text)
            if hit is not None:
                out.hit = hit
                if hit.keep_chars is not None:
                    out.text = out.text[:hit.keep_chars]
                return True
    if choice.get("finish_reason"):
        out.finish_reason = choice["finish_reason"]
        named = choice.get("stop_reason", choice.get("matched_stop"))
        out.stop_token_id = named if isinstance(named, int) and not isinstance(named, bool) else None
    return False


# ------------------------------------------------------------------------------------------------ the runner


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

    def __init__(self, *, endpoints: Sequence[str], model: str, server_kind: Optional[str] = None,
                 api_key: Optional[str] = None, stop_ids: Sequence[int] = (), image_format: str = "png",
                 read_timeout: float = DEFAULT_READ_TIMEOUT, probe: bool = True) -> None:
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
        self._client = httpx.Client(headers=headers, limits=httpx.Limits(max_connections=None,
                                                                          max_keepalive_connections=32))
        if probe:
            for endpoint in self.pool.endpoints:
                try:
                    self.describe(endpoint, timeout=PROBE_TIMEOUT)
                except EndpointFailure:
                    continue  # not up yet: looked at again when a request goes there

    def describe(self, endpoint: Endpoint, *, timeout: Optional[float] = None) -> ServerInfo:
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
            if endpoint.info is None:
                endpoint.info = fetch_server_info(self._client, endpoint, kind=self.server_kind,
                                                  timeout=timeout or self.timeout)
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
            with self._client.stream("POST", f"{endpoint.base}/chat/completions", json=body,
                                     timeout=self.timeout) as response:
                if response.status_code != 200:
                    check_status(response.status_code, response.read().decode("utf-8", "replace"), url=endpoint.url,
                                 headers=response.headers)
                outcome = read_stream(response.iter_lines(), monitors=monitors)
            # leaving the block closed the response: after a guard hit, that is what stops the server
        except httpx.TransportError as exc:
            raise EndpointFailure(transport_reason(exc)) from exc
        except ModelError as exc:
            raise ModelError(exc.message, source=endpoint.url) from exc
        return self._result(outcome, request=request, endpoint=endpoint, info=info, model=model, start=start)

    def _result(self, outcome: StreamOutcome, *, request: GenerationRequest, endpoint: Endpoint, info: ServerInfo,
                model: str, start: float) -> GenerationResult:
        """Map a finished stream onto a GenerationResult (finish, usage, constrained, warnings)."""
        finish = finish_reason(outcome)
        usage = outcome.usage or {}
        reported = "completion_tokens" in usage
        details = usage.get("prompt_tokens_details") or {}
        end = time.perf_counter()
        first = outcome.first_at or end
        spec = KINDS[info.kind]
        asked = request.json_schema is not None
        warnings = ()
        if asked and not spec.json_schema:
            warnings = (unconstrained_warning(f"the server at {endpoint.url} ({info.kind}) does not enforce a JSON "
                                              "schema; the answer is validated afterwards"),)
        if not request.stop.ids:
            warnings += (issue(STOP_SET_UNKNOWN, f"the stop set of {model!r} is unknown here (no local model "
                                                 "directory): no stop ids were sent, so the server's own end tokens "
                                                 "decide; pass --stop-id ID or a local model directory as --model"),)
        return GenerationResult(
            text=outcome.text, token_ids=(), finish_reason=finish,
            stop_token_id=outcome.stop_token_id if finish == "stop" else None,
            guard=outcome.hit.guard if outcome.hit else None,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            generated_tokens=int(usage["completion_tokens"]) if reported else outcome.pieces,
            cached_prompt_tokens=int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0,
            decode_steps=int(usage["completion_tokens"]) if reported else outcome.pieces,
            prefill_s=first - start, decode_s=end - first,
            constrained=asked and spec.json_schema, warnings=warnings,
            server={"endpoint": endpoint.url, "kind": info.kind, "model": model,
                    "usage": "server" if reported else "stream"},
        )

    def close(self) -> None:
        """Close the connections (streams still running end with an error, which stops their servers)."""
        self._client.close()


def finish_reason(outcome: StreamOutcome) -> str:
    """Our finish reason for a stream: ``guard`` (we cut it), ``stop``, ``length``.

    Args:
        outcome: the stream as read.

    Returns:
        The finish reason.

    Raises:
        EndpointFailure: the stream ended without a finish reason (the server went away), or was aborted.
        ModelError: any other finish reason (``content_filter``, ``tool_calls``, ...).
    """
    if outcome.hit is not None:
        return "guard"
    reason = outcome.finish_reason
    if reason in ("stop", "length"):
        return reason
    if reason is None or reason == "abort":
        raise EndpointFailure("the stream ended before the answer did" if reason is None else "the server aborted "
                              "the request")
    raise ModelError(f"the server ended the answer with finish_reason {reason!r}")


def fetch_server_info(client, endpoint: Endpoint, *, kind: Optional[str], timeout) -> ServerInfo:
    """Ask ``/models`` what a server serves, and tell its kind (unless given).

    Args:
        client: the httpx client.
        endpoint: the endpoint.
        kind: the ``--server-kind`` (None: detect).
        timeout: httpx time-out for the request.

    Returns:
        The ServerInfo (a server without ``/models``: no ids, kind as given or ``openai``).

    Raises:
        EndpointFailure: unreachable, or a 5xx / 429.
        ExtractorError: (code ``auth``) the key was refused.
        ModelError: another error status.
    """
    import httpx

    try:
        response = client.get(f"{endpoint.base}/models", timeout=timeout)
    except httpx.TransportError as exc:
        raise EndpointFailure(transport_reason(exc)) from exc
    if response.status_code == 404:
        return ServerInfo(kind=kind or "openai", models=(), detected=kind is None)
    check_status(response.status_code, response.text, url=endpoint.url, headers=response.headers)
    try:
        items = response.json().get("data") or []
    except (ValueError, AttributeError):
        raise ModelError(f"{endpoint.base}/models did not answer with a model list", source=endpoint.url) from None
    items = [m for m in items if isinstance(m, dict)]
    found = kind or detect_kind(server_header=response.headers.get("server", ""), models=items)
    return ServerInfo(kind=found, models=tuple(str(m.get("id")) for m in items if m.get("id")),
                      detected=kind is None)


__all__ = ["KINDS", "Kind", "OpenAIRunner", "ServerInfo", "StreamOutcome", "check_status", "choose_model",
           "detect_kind", "error_message", "fetch_server_info", "finish_reason", "image_url", "local_model_dir",
           "pixels_per_token", "read_stream", "remote_stop_set", "request_body", "retry_after", "server_message",
           "sse_data", "transport_reason"]
