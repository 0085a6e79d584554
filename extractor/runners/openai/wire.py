"""The wire protocol of OpenAI-compatible chat completions: the request body, the answer's stream, its errors.

What each kind of server honours (:data:`KINDS`; ``--server-kind``, else detected from ``/v1/models`` and the
``server`` header by :func:`~extractor.runners.openai.choose.detect_kind`):

========  ===============  ======================  ==================================  ===========================
kind      stop_token_ids   JSON schema             thinking off                        detected by
========  ===============  ======================  ==================================  ===========================
vllm      yes              ``response_format``     ``chat_template_kwargs``            ``owned_by: "vllm"``
sglang    yes              ``response_format``     ``chat_template_kwargs``            ``owned_by: "sglang"``
mlx       no (ignored)     no (Metal only; 500)    ``enable_thinking: false``          header ``server: mlx_vlm/…``
openai    no               ``response_format``     (the server's default)              anything else (LM Studio…)
========  ===============  ======================  ==================================  ===========================

The request (:func:`request_body`): the same messages as the local runner (system text; the user turn with the
page images first, as PNG or JPEG data URLs at the rendered size, then the text), ``max_tokens``, ``temperature``,
``seed`` (0 when unset: servers differ in what no seed means) and plain sampling (``top_p`` 1, no top-k, no
penalties: a server's defaults from the model's generation config must not change the answer),
``stream_options.include_usage``. The stop set goes as ``stop_token_ids`` and the bounded schema as
``response_format`` where the kind honours them; vLLM and SGLang are also asked for ``logprobs`` with the runner-up
(``top_logprobs: 2``) when the request wants evidence, and each token's logprob is kept with its place in the text
(``StreamOutcome.evidence``, for the per-field confidence: ``runners.token_evidence``).

Reading the stream (:func:`read_stream`): every content delta is fed to the request's monitors (the runaway guards)
as one token (a delta's text stands for its id: the loop guard compares equal pieces); when one fires the caller
closes the response at once, so the server stops generating. ``finish_reason`` maps onto ours
(:func:`finish_reason`): ``stop`` (with the stop id where the server names it: vLLM's ``stop_reason``, SGLang's
``matched_stop``), ``length``, or ``guard`` when we cut. Usage comes from the server's ``usage`` (vLLM and SGLang
report it with every chunk, so also after a cut).

An error answer (:func:`check_status`) either stops everything (a refused key), is retried on another endpoint
(429, 408, 5xx: :class:`~extractor.runners.openai.endpoints.EndpointFailure`) or fails the document.

httpx is imported lazily (inside functions); the rest is pure Python over bodies and lines.
"""

from __future__ import annotations

import base64
import io
import json
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from extractor.errors import ExtractorError, ModelError
from extractor.runners.base import GenerationRequest, GuardHit, Monitor
from extractor.runners.constrain.omit import every_member_listed
from extractor.runners.openai.endpoints import EndpointFailure

JPEG_QUALITY = 92
ERROR_BODY_LIMIT = 2000  # characters of an error body quoted in a message
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
        logprobs: ``logprobs`` / ``top_logprobs`` in streamed chat completions (each token's log-probability and
            its runner-up's, for the per-field confidence: ``runners.token_evidence``); asked only where honoured.
        every_member_required: its strict ``json_schema`` needs every member ``required`` (OpenAI's): the members
            the model may leave out elsewhere (``constrain.omit``) are listed again, and it writes their nulls.
    """

    stop_token_ids: bool
    json_schema: bool
    thinking: Mapping[str, Any] = field(default_factory=dict)
    sampling: Mapping[str, Any] = field(default_factory=dict)
    usage_every_chunk: bool = False
    logprobs: bool = False
    every_member_required: bool = False


_PLAIN = {"top_p": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0}
_TEMPLATE_NO_THINKING = {"chat_template_kwargs": {"enable_thinking": False}}
# vLLM and SGLang speak the same dialect: stop ids, a JSON schema, the template's switch, usage in every chunk
_VLLM_LIKE = Kind(
    stop_token_ids=True,
    json_schema=True,
    thinking=_TEMPLATE_NO_THINKING,
    sampling={**_PLAIN, "top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0},
    usage_every_chunk=True,
    logprobs=True,
)
KINDS = {
    "vllm": _VLLM_LIKE,
    "sglang": _VLLM_LIKE,
    "mlx": Kind(
        stop_token_ids=False,
        json_schema=False,
        thinking={"enable_thinking": False},
        sampling={"top_p": 1.0, "top_k": 0, "min_p": 0.0},
    ),
    "openai": Kind(stop_token_ids=False, json_schema=True, sampling=_PLAIN, every_member_required=True),
}


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
    body = {
        "model": model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "seed": 0 if request.seed is None else request.seed,
        **spec.sampling,
        **spec.thinking,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if spec.usage_every_chunk:
        body["stream_options"]["continuous_usage_stats"] = True
    if spec.stop_token_ids and request.stop.ids:
        body["stop_token_ids"] = list(request.stop.ids)
    if spec.logprobs and request.evidence:
        body.update(logprobs=True, top_logprobs=2)  # the token's and its runner-up's
    if spec.json_schema and request.json_schema is not None:
        schema = every_member_listed(request.json_schema) if spec.every_member_required else dict(request.json_schema)
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "answer", "schema": schema, "strict": True},
        }
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
        message = (
            (error.get("message") if isinstance(error, dict) else error) or body.get("detail") or body.get("message")
        )
    if message is None:
        message = text.strip()
    if not isinstance(message, str):
        message = json.dumps(message, ensure_ascii=False)
    return message[:ERROR_BODY_LIMIT] or "(no body)"


def error_message(status: int, text: str) -> str:
    """An error answer in a few words: ``HTTP 404: The model `x` does not exist.`` (see :func:`server_message`)."""
    return f"HTTP {status}: {server_message(text)}"


def retry_after(value: str | None) -> float | None:
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
        raise ExtractorError(
            f"{url} refused the API key ({message}); set the key in the environment variable named by --api-key-env",
            code="auth",
            source=url,
        )
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
    finish_reason: str | None = None  # the server's
    stop_token_id: int | None = None
    hit: GuardHit | None = None
    usage: dict | None = None
    done: bool = False  # [DONE] arrived
    first_at: float | None = None
    # per token the server gave logprobs for: (offset in text, logprob, margin to the runner-up or None)
    evidence: list[tuple[int, float, float | None]] = field(default_factory=list)


def read_stream(lines: Iterable[str], *, monitors: Sequence[Monitor] = ()) -> StreamOutcome:
    """Read a chat-completions stream, feeding each content delta to the monitors; stop at the first hit.

    Args:
        lines: the response's lines.
        monitors: ``base.Monitor`` objects (fed ``(piece id, text so far)``; a delta's text stands for its id).

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


def _take_choice(out: StreamOutcome, choice: Mapping, monitors: Sequence[Monitor], ids: dict[str, int]) -> bool:
    """Take one choice of a chunk; True when a monitor fired."""
    delta = choice.get("delta") or {}
    content = delta.get("content")
    # vLLM opens with {"role": "assistant", "content": ""}: not a token; later empty deltas are hidden specials
    if content is not None and (content or "role" not in delta):
        out.pieces += 1
        out.first_at = out.first_at or time.perf_counter()
        _take_logprobs(out, choice, len(content))
        out.text += content
        piece_id = ids.setdefault(content, len(ids))
        for monitor in monitors:
            hit = monitor.feed(piece_id, out.text)
            if hit is not None:
                out.hit = hit
                if hit.keep_chars is not None:
                    out.text = out.text[: hit.keep_chars]
                return True
    if choice.get("finish_reason"):
        out.finish_reason = choice["finish_reason"]
        named = choice.get("stop_reason", choice.get("matched_stop"))
        out.stop_token_id = named if isinstance(named, int) and not isinstance(named, bool) else None
    return False


def _take_logprobs(out: StreamOutcome, choice: Mapping, length: int) -> None:
    """Record the tokens of a content delta the server gave logprobs for (``choice.logprobs.content``): each at
    its offset in the text (the delta's start plus the tokens before it, within the delta), its logprob and its
    margin to the best other of its ``top_logprobs``."""
    entries = (choice.get("logprobs") or {}).get("content") if isinstance(choice.get("logprobs"), Mapping) else None
    start, used = len(out.text), 0
    for entry in entries or ():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("logprob"), (int, float)):
            continue
        others = [
            float(top["logprob"])
            for top in entry.get("top_logprobs") or ()
            if isinstance(top, Mapping) and top.get("token") != entry.get("token") and "logprob" in top
        ]
        logprob = float(entry["logprob"])
        out.evidence.append((start + min(used, length), logprob, logprob - max(others) if others else None))
        used += len(str(entry.get("token") or ""))


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
        raise EndpointFailure(
            "the stream ended before the answer did" if reason is None else "the server aborted the request"
        )
    raise ModelError(f"the server ended the answer with finish_reason {reason!r}")


__all__ = [
    "ERROR_BODY_LIMIT",
    "JPEG_QUALITY",
    "KINDS",
    "RETRYABLE_STATUS",
    "Kind",
    "StreamOutcome",
    "check_status",
    "error_message",
    "finish_reason",
    "image_url",
    "read_stream",
    "request_body",
    "retry_after",
    "server_message",
    "sse_data",
    "transport_reason",
]
