"""The OpenAI-compatible runner's parts, and its protocol against a local HTTP server that records every request.

Pure parts are table-driven. The protocol tests run a real HTTP server on 127.0.0.1 that answers in the shapes
vLLM 0.32 and mlx_vlm.server 0.7.10 use (recorded from the real servers, /work/scratch/servers in the research) and
keeps each request body: what we send, how we read a stream, and how failures are retried. The end-to-end tests
against real ``mlx_vlm.server`` processes are in test_endpoints.py.
"""

from __future__ import annotations

import base64
import io
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from helpers import make_pdf
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.errors import ExtractorError, ModelError
from extractor.runners.base import GenerationRequest, GuardHit, Message
from extractor.runners.constrain.bounds import bounded_schema
from extractor.runners.guards import GuardSettings
from extractor.runners.openai.choose import choose_model, detect_kind, remote_stop_set
from extractor.runners.openai.endpoints import EndpointFailure, EndpointPool, api_base, summarize
from extractor.runners.openai.wire import (
    StreamOutcome,
    check_status,
    error_message,
    finish_reason,
    image_url,
    read_stream,
    request_body,
    retry_after,
    sse_data,
)
from extractor.runners.stopping import StopSet
from extractor.settings import DEFAULT_MODEL

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "string", "maxLength": 8}},
    "required": ["n"],
    "additionalProperties": False,
}
QWEN = "Qwen/Qwen3.5-2B"


# ------------------------------------------------------------------------------------------------- pure parts


@pytest.mark.parametrize(
    "header, models, kind",
    [
        ("mlx_vlm/0.7.10", [{"id": "/m", "object": "model", "loaded": True}], "mlx"),
        ("uvicorn", [{"id": "/m", "owned_by": "vllm", "root": "/m"}], "vllm"),
        ("", [{"id": "qwen", "owned_by": "sglang"}], "sglang"),
        ("", [{"id": "qwen/qwen3.5-9b", "owned_by": "organization_owner"}], "openai"),
        ("", [], "openai"),
    ],
)
def test_detect_kind(header, models, kind):
    assert detect_kind(server_header=header, models=models) == kind


def test_choose_model(tmp_path):
    (tmp_path / "m").mkdir()
    assert choose_model("a", ["a", "b"], url="u") == "a"
    assert choose_model(str(tmp_path / "." / "m"), ["x", str(tmp_path / "m")], url="u") == str(tmp_path / "m")
    assert choose_model(DEFAULT_MODEL, ["/srv/models/lift"], url="u") == "/srv/models/lift"  # the only one
    assert choose_model("a", [], url="u") == "a"  # a server without a list takes the name as given
    with pytest.raises(ModelError, match="u: the server serves a, b; --model c is none of them"):
        choose_model("c", ["a", "b"], url="u")


@pytest.mark.parametrize(
    "model, stop_ids, ids, sources",
    [
        (
            QWEN,
            (),
            (248044, 248046),
            {248044: ("qwen-family id:<|endoftext|>",), 248046: ("qwen-family id:<|im_end|>",)},
        ),
        ("Qwen/Qwen2.5-VL-7B-Instruct", (), (), {}),  # another Qwen vocabulary: 151645, not 248046; unknown here
        ("google/gemma-3-4b-it", (), (), {}),  # never Qwen ids for a Gemma model
        (
            DEFAULT_MODEL,
            (),
            (248044, 248046),
            {248044: ("qwen-family id:<|endoftext|>",), 248046: ("qwen-family id:<|im_end|>",)},
        ),
        ("meta-llama/Llama-3.2-11B-Vision", (), (), {}),
        (QWEN, (7, 3, 7), (3, 7), {3: ("--stop-id",), 7: ("--stop-id",)}),
    ],
)
def test_remote_stop_set(model, stop_ids, ids, sources):
    stop = remote_stop_set(model, stop_ids=stop_ids)
    assert (stop.ids, dict(stop.sources)) == (ids, sources)


def test_remote_stop_set_reads_a_local_model_directory(model_factory):
    tiny = model_factory.random()  # config eos 248044 only; the tokenizer has both Qwen end tokens
    stop = remote_stop_set(str(tiny.path))
    assert stop.ids == (248044, 248046)
    assert "config.json:eos_token_id" in stop.sources[248044] and "tokenizer:<|im_end|>" in stop.sources[248046]


@pytest.mark.parametrize(
    "lines, events",
    [
        (["data: a", "", "data: [DONE]", ""], ["a", "[DONE]"]),
        (["data:a", "data: b", "", ": comment", "event: x", "data: c"], ["a\nb", "c"]),
        (["", "", 'data: {"x": 1}', ""], ['{"x": 1}']),
    ],
)
def test_sse_data(lines, events):
    assert list(sse_data(lines)) == events


@pytest.mark.parametrize(
    "status, text, message",
    [
        (400, '{"detail":"Failed to load model: no such path"}', "HTTP 400: Failed to load model: no such path"),
        (
            404,
            '{"error":{"message":"The model `x` does not exist.","type":"NotFoundError","code":404}}',
            "HTTP 404: The model `x` does not exist.",
        ),
        (400, '{"object":"error","message":"bad schema","type":"BadRequestError"}', "HTTP 400: bad schema"),
        (
            422,
            '{"detail":[{"loc":["body","messages"],"msg":"Field required"}]}',
            'HTTP 422: [{"loc": ["body", "messages"], "msg": "Field required"}]',
        ),
        (502, "<html>Bad Gateway</html>\n", "HTTP 502: <html>Bad Gateway</html>"),
        (500, "", "HTTP 500: (no body)"),
    ],
)
def test_error_message(status, text, message):
    assert error_message(status, text) == message


@pytest.mark.parametrize(
    "status, raised, code",
    [
        (401, ExtractorError, "auth"),
        (403, ExtractorError, "auth"),
        (429, EndpointFailure, None),
        (500, EndpointFailure, None),
        (503, EndpointFailure, None),
        (400, ModelError, "model_error"),
        (404, ModelError, "model_error"),
    ],
)
def test_check_status(status, raised, code):
    with pytest.raises(raised) as caught:
        check_status(status, '{"detail":"no"}', url="http://h:1", headers={"retry-after": "3"})
    assert type(caught.value) is raised
    if code is not None:
        assert caught.value.code == code and "http://h:1" in str(caught.value)
    if status == 429:
        assert caught.value.retry_after == 3.0


def test_retry_after():
    assert [retry_after(v) for v in (None, "", "2", "0.5", "-3", "soon")] == [None, None, 2.0, 0.5, 0.0, None]
    assert 59 <= retry_after(time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 60))) <= 61


@pytest.mark.parametrize(
    "url, base",
    [
        ("http://h:8000", "http://h:8000/v1"),
        ("http://h:8000/", "http://h:8000/v1"),
        ("http://h:8000/v1", "http://h:8000/v1"),
        ("https://h/llm/v1/", "https://h/llm/v1"),
    ],
)
def test_api_base(url, base):
    assert api_base(url) == base


def test_summarize_counts_repeats():
    assert summarize(["a: refused", "a: refused", "b: HTTP 503"]) == "a: refused (2x); b: HTTP 503"


def vllm_chunks(pieces, *, finish="stop", stop_reason=248046, usage=True):
    """A vLLM 0.32 stream (continuous usage): role chunk, one chunk per piece, the finish chunk, usage, [DONE]."""

    def chunk(choices, n):
        body = {"id": "c", "object": "chat.completion.chunk", "choices": choices}
        if usage:
            body["usage"] = {"prompt_tokens": 40, "completion_tokens": n, "total_tokens": 40 + n}
        return "data: " + json.dumps(body)

    lines = [chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}], 0), ""]
    for n, piece in enumerate(pieces, 1):
        lines += [chunk([{"index": 0, "delta": {"content": piece}, "finish_reason": None}], n), ""]
    lines += [
        chunk(
            [{"index": 0, "delta": {"content": ""}, "finish_reason": finish, "stop_reason": stop_reason}],
            len(pieces) + 1,
        ),
        "",
    ]
    if usage:
        lines += [chunk([], len(pieces) + 1), ""]
    return lines + ["data: [DONE]", ""]


def mlx_chunks(pieces, *, finish="length"):
    """An mlx_vlm.server 0.7.10 stream: role repeated in every chunk, a separate finish chunk, no usage."""

    def chunk(content, reason):
        return "data: " + json.dumps(
            {
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": reason,
                        "delta": {"role": "assistant", "content": content, "reasoning": None},
                    }
                ],
                "usage": None,
            }
        )

    return [line for piece in pieces for line in (chunk(piece, None), "")] + [
        chunk(None, finish),
        "",
        "data: [DONE]",
        "",
    ]


def outcome_view(out: StreamOutcome) -> dict:
    return {
        "text": out.text,
        "pieces": out.pieces,
        "finish_reason": out.finish_reason,
        "stop_token_id": out.stop_token_id,
        "hit": out.hit,
        "usage": out.usage,
        "done": out.done,
    }


def guard_monitors():
    return GuardSettings().factory(stop_texts=("<|im_end|>",))()


def test_read_stream_vllm_stop_with_stop_reason():
    out = read_stream(vllm_chunks(['{"', "n", '":"', 'x"', "}"]), monitors=guard_monitors())
    assert outcome_view(out) == {
        "text": '{"n":"x"}',
        "pieces": 6,
        "finish_reason": "stop",
        "stop_token_id": 248046,
        "hit": None,
        "usage": {"prompt_tokens": 40, "completion_tokens": 6, "total_tokens": 46},
        "done": True,
    }
    assert finish_reason(out) == "stop"


def test_read_stream_mlx_bug_is_cut_at_the_first_end_marker():
    out = read_stream(mlx_chunks(['{"', "n", '":"', 'x"', "}"] + ["<|im_end|>"] * 50), monitors=guard_monitors())
    assert outcome_view(out) == {
        "text": '{"n":"x"}',
        "pieces": 6,
        "finish_reason": None,
        "stop_token_id": None,
        "hit": GuardHit("end_marker", keep_chars=9),
        "usage": None,
        "done": False,
    }
    assert finish_reason(out) == "guard"


def test_read_stream_hidden_special_tokens_are_cut_after_the_grace():
    """vLLM without stop ids on the bug config: clean text, one empty delta per hidden <|im_end|>."""
    out = read_stream(
        vllm_chunks(['{"n":"x"}'] + [""] * 40, finish="length", stop_reason=None), monitors=guard_monitors()
    )
    assert (out.text, out.pieces, out.hit.guard, out.usage["completion_tokens"]) == ('{"n":"x"}', 9, "json_closed", 9)


@pytest.mark.parametrize(
    "reason, stop_reason, expected",
    [
        ("stop", 248046, ("stop", 248046)),
        ("stop", "<|im_end|>", ("stop", None)),
        ("stop", None, ("stop", None)),
        ("length", None, ("length", None)),
    ],
)
def test_finish_reasons(reason, stop_reason, expected):
    out = read_stream(vllm_chunks(["a"], finish=reason, stop_reason=stop_reason))
    assert (finish_reason(out), out.stop_token_id) == expected


@pytest.mark.parametrize(
    "outcome, raised",
    [
        (StreamOutcome(finish_reason=None), EndpointFailure),
        (StreamOutcome(finish_reason="abort"), EndpointFailure),
        (StreamOutcome(finish_reason="content_filter"), ModelError),
    ],
)
def test_finish_reasons_that_are_failures(outcome, raised):
    with pytest.raises(raised):
        finish_reason(outcome)


@pytest.mark.parametrize(
    "data, message",
    [
        (
            '{"error": "[metal_kernel] No Metal back-end."}',
            r"failed while generating: \[metal_kernel\] No Metal back-end\.",
        ),
        ("[1, 2]", r"a chunk that is not a JSON object: '\[1, 2\]'"),
        ("{oops", r"a chunk that is not JSON: '\{oops'"),
    ],
)
def test_a_bad_or_error_event_is_a_model_error(data, message):
    with pytest.raises(ModelError, match=message):
        read_stream([f"data: {data}", ""])


def page():
    from PIL import Image

    return Image.new("RGB", (64, 96), "white")


def test_image_url_keeps_the_pixels():
    from PIL import Image

    for fmt in ("png", "jpeg"):
        url = image_url(page(), image_format=fmt)
        head, _, data = url.partition(",")
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        assert (head, image.format, image.size) == (f"data:image/{fmt};base64", fmt.upper(), (64, 96))


def request(**changes):
    fields = dict(
        messages=(Message("system", "S"), Message("user", "U", images=1)),
        images=(page(),),
        max_tokens=64,
        stop=StopSet(ids=(248044, 248046)),
        temperature=0.0,
        json_schema=SCHEMA,
    )
    return GenerationRequest(**{**fields, **changes})


def body_view(body: dict) -> dict:
    """The body with the image data URL replaced by a marker (checked separately)."""
    body = json.loads(json.dumps(body))
    part = body["messages"][1]["content"][0]
    assert part["image_url"]["url"].startswith("data:image/png;base64,")
    part["image_url"]["url"] = "<png>"
    return body


BASE = {
    "model": "m",
    "messages": [
        {"role": "system", "content": "S"},
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": {"url": "<png>"}}, {"type": "text", "text": "U"}],
        },
    ],
    "max_tokens": 64,
    "temperature": 0.0,
    "seed": 0,
    "stream": True,
    "top_p": 1.0,
}
SCHEMA_FORMAT = {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": True}}


@pytest.mark.parametrize(
    "kind, expected",
    [
        (
            "vllm",
            {
                **BASE,
                "top_k": -1,
                "min_p": 0.0,
                "repetition_penalty": 1.0,
                "presence_penalty": 0.0,
                "frequency_penalty": 0.0,
                "chat_template_kwargs": {"enable_thinking": False},
                "stream_options": {"include_usage": True, "continuous_usage_stats": True},
                "stop_token_ids": [248044, 248046],
                "logprobs": True,
                "top_logprobs": 2,
                "response_format": SCHEMA_FORMAT,
            },
        ),
        (
            "sglang",
            {
                **BASE,
                "top_k": -1,
                "min_p": 0.0,
                "repetition_penalty": 1.0,
                "presence_penalty": 0.0,
                "frequency_penalty": 0.0,
                "chat_template_kwargs": {"enable_thinking": False},
                "stream_options": {"include_usage": True, "continuous_usage_stats": True},
                "stop_token_ids": [248044, 248046],
                "logprobs": True,
                "top_logprobs": 2,
                "response_format": SCHEMA_FORMAT,
            },
        ),
        (
            "mlx",
            {**BASE, "top_k": 0, "min_p": 0.0, "enable_thinking": False, "stream_options": {"include_usage": True}},
        ),
        (
            "openai",
            {
                **BASE,
                "presence_penalty": 0.0,
                "frequency_penalty": 0.0,
                "stream_options": {"include_usage": True},
                "response_format": SCHEMA_FORMAT,
            },
        ),
    ],
)
def test_request_body_per_kind(kind, expected):
    assert body_view(request_body(request(), model="m", kind=kind)) == expected


def test_request_body_seed_and_no_schema():
    body = request_body(
        request(seed=7, temperature=0.5, json_schema=None, stop=StopSet(ids=())), model="m", kind="vllm"
    )
    assert (body["seed"], body["temperature"], "stop_token_ids" in body, "response_format" in body) == (
        7,
        0.5,
        False,
        False,
    )


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"endpoint": "gpu1:8000"}, "endpoint 'gpu1:8000': expected a URL such as http://host:8000/v1"),
        ({"endpoint": ["http://a:1", "ftp://b"]}, "endpoint 'ftp://b': expected a URL such as http://host:8000/v1"),
        ({"concurrency": 0}, "concurrency must be at least 1, got 0"),
        ({"server_kind": "tgi"}, "server kind 'tgi': expected one of vllm, sglang, mlx, openai"),
        ({"image_format": "gif"}, "image format 'gif': expected one of png, jpeg"),
        ({"read_timeout": 0}, "read timeout must be positive, got 0"),
    ],
)
def test_bad_remote_settings_are_usage_errors(changes, message):
    from extractor.errors import UsageError
    from extractor.settings import Settings

    with pytest.raises(UsageError) as caught:
        Settings(**changes)
    assert str(caught.value) == message


def test_a_string_endpoint_is_one_url_and_remote_settings_only_touch_remote_fingerprints():
    from extractor.settings import Settings

    local = Settings()
    assert Settings(endpoint="http://a:1").endpoint == ("http://a:1",)
    # without endpoints the server settings change nothing (local fingerprints stay what they were)
    assert local.replace(server_kind="vllm", image_format="jpeg", concurrency=9).fingerprint(
        schema_text="s"
    ) == local.fingerprint(schema_text="s")
    remote = local.replace(endpoint=("http://a:1",))
    assert remote.fingerprint(schema_text="s") != local.fingerprint(schema_text="s")
    # which hosts and how many at once do not change an answer; what the servers are told does
    assert remote.replace(
        endpoint=("http://b:2", "http://c:3"), concurrency=8, api_key_env="K", read_timeout=5
    ).fingerprint(schema_text="s") == remote.fingerprint(schema_text="s")
    assert remote.replace(stop_ids=(248046,)).fingerprint(schema_text="s") != remote.fingerprint(schema_text="s")


# ------------------------------------------------------------------------------------------ the endpoint pool


class Clock:
    """A fake monotonic clock; sleeping advances it."""

    def __init__(self):
        self.now, self.slept = 100.0, []

    def sleep(self, seconds):
        self.slept.append(round(seconds, 3))
        self.now += seconds


def test_the_pool_spreads_to_the_least_busy_and_fails_over():
    clock = Clock()
    pool = EndpointPool(["http://a", "http://b"], sleep=clock.sleep, clock=lambda: clock.now)
    seen = []

    def attempt(endpoint):
        seen.append(endpoint.url)
        if endpoint.url == "http://a":
            raise EndpointFailure("connection refused")
        return endpoint.url

    assert pool.run(attempt) == "http://b"  # a failed, b answered
    assert pool.run(attempt) == "http://b"  # a is down now: straight to b
    assert seen == ["http://a", "http://b", "http://b"] and clock.slept == [0.25]
    stats = pool.stats()
    assert (stats["http://a"]["down"], stats["http://a"]["last_error"], stats["http://b"]["requests"]) == (
        True,
        "connection refused",
        2,
    )


def test_the_pool_gives_up_with_every_reason():
    clock = Clock()
    pool = EndpointPool(["http://a"], sleep=clock.sleep, clock=lambda: clock.now)
    with pytest.raises(ModelError) as caught:
        pool.run(lambda endpoint: (_ for _ in ()).throw(EndpointFailure("connection refused")))
    assert str(caught.value) == "no endpoint could answer after 3 tries: http://a: connection refused (3x)"
    assert clock.slept == [0.25, 0.5]  # back-off, not the down time: a dead server is simply tried again


def test_the_pool_waits_for_retry_after_when_every_endpoint_is_held():
    clock = Clock()
    pool = EndpointPool(["http://a"], sleep=clock.sleep, clock=lambda: clock.now)
    answers = iter([EndpointFailure("HTTP 429: busy", retry_after=7.0), "ok"])

    def attempt(endpoint):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert pool.run(attempt) == "ok" and clock.slept == [7.0]


def test_the_pool_does_not_retry_other_errors_and_counts_concurrency():
    pool = EndpointPool(["http://a", "http://b"])
    with pytest.raises(ModelError, match="bad request"):
        pool.run(lambda endpoint: (_ for _ in ()).throw(ModelError("bad request")))
    assert [s["requests"] for s in pool.stats().values()] == [1, 0]
    gate, inside = threading.Barrier(3), []

    def attempt(endpoint):
        inside.append(endpoint.url)
        gate.wait(timeout=10)
        return endpoint.url

    threads = [threading.Thread(target=pool.run, args=(attempt,)) for _ in range(2)]
    for t in threads:
        t.start()
    gate.wait(timeout=10)
    for t in threads:
        t.join()
    assert sorted(inside) == ["http://a", "http://b"] and pool.peak_in_flight == 2


# ----------------------------------------------------------------------------- a recording OpenAI-like server


class Recorder:
    """A local HTTP server answering /v1/models and streaming /v1/chat/completions from a script; it keeps every
    chat request's body and ``Authorization`` header. ``script`` is a list of answers, one per chat request (the
    last one repeats): a list of SSE lines, an int status (with ``Retry-After: 0.3``), or ``"cut"`` (half a stream,
    then the connection drops). ``gate(body)``, when given, runs before each answer (it may hold it back)."""

    def __init__(self, *, owned_by="vllm", script=None, models=(QWEN,), gate=None):
        self.bodies, self.auth, self.owned_by, self.models, self.gate = [], [], owned_by, models, gate
        self.answered_at = []  # when each stream was sent in full
        self.script = list(script or [vllm_chunks(['{"', "n", '":"', 'x"', "}"])])
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                data = json.dumps(
                    {
                        "object": "list",
                        "data": [{"id": m, "object": "model", "owned_by": recorder.owned_by} for m in recorder.models],
                    }
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                recorder.bodies.append(body)
                recorder.auth.append(self.headers.get("authorization"))
                answer = recorder.script[min(len(recorder.bodies), len(recorder.script)) - 1]
                if recorder.gate is not None:
                    recorder.gate(body)
                if isinstance(answer, int):
                    data = b'{"error": {"message": "busy"}}'
                    self.send_response(answer)
                    self.send_header("retry-after", "0.3")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                lines = vllm_chunks(['{"', "n"])[:4] if answer == "cut" else answer
                for line in lines:
                    self.wfile.write((line + "\n").encode())
                    self.wfile.flush()
                recorder.answered_at.append(time.monotonic())
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorders():
    made = []

    def make(**options):
        made.append(Recorder(**options))
        return made[-1]

    yield make
    for recorder in made:
        recorder.close()


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "one.schema.json"
    path.write_text(json.dumps(SCHEMA))
    return path


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("doc") / "doc.pdf"
    path.write_bytes(make_pdf(["Invoice 1"]))
    return path


def extract(pdf, schema_file, *urls, extra=()):
    args = [str(pdf), "--model", QWEN, "--schema", str(schema_file), "--json", "--no-isolate", *extra]
    for url in urls:
        args += ["--endpoint", url]
    result = CliRunner().invoke(app, dispatch_args(args))
    return result, json.loads(result.stdout)


def test_server_kind_vllm_sends_stop_token_ids_and_the_schema_as_vllm_documents(recorders, pdf, schema_file):
    server = recorders(owned_by="someone")  # not detected as vLLM: --server-kind says so
    result, [record] = extract(pdf, schema_file, server.url, extra=("--server-kind", "vllm", "--max-tokens", "99"))
    assert result.exit_code == 0, result.output
    [body] = server.bodies
    assert body["stop_token_ids"] == [248044, 248046]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": bounded_schema(SCHEMA), "strict": True},
    }
    assert (body["model"], body["max_tokens"], body["temperature"], body["seed"], body["stream"]) == (
        QWEN,
        99,
        0.0,
        0,
        True,
    )
    assert [p["type"] for p in body["messages"][1]["content"]] == ["image_url", "text"]
    assert (record["status"], record["data"], record["finish_reason"], record["stop_token_id"]) == (
        "ok",
        {"n": "x"},
        "stop",
        248046,
    )
    assert (record["constrained"], record["usage"]["prompt_tokens"], record["usage"]["generated_tokens"]) == (
        True,
        40,
        6,
    )
    assert record["server"] == {"endpoint": server.url, "kind": "vllm", "model": QWEN, "usage": "server"}
    assert not any(w["code"] == "unconstrained" for w in record["warnings"])


def test_a_kind_without_stop_ids_gets_none_and_detection_reads_owned_by(recorders, pdf, schema_file):
    server = recorders(owned_by="organization_owner")
    result, [record] = extract(pdf, schema_file, server.url)
    assert result.exit_code == 0, result.output
    assert "stop_token_ids" not in server.bodies[0] and "response_format" in server.bodies[0]
    assert record["server"]["kind"] == "openai" and record["constrained"] is True


def test_a_model_whose_stop_set_is_unknown_sends_none_and_says_so(recorders, pdf, schema_file):
    gemma = "google/gemma-3-4b-it"  # no local directory: its stop set cannot be resolved here
    server = recorders(models=(gemma,))
    result, [record] = extract(pdf, schema_file, server.url, extra=("--model", gemma, "--server-kind", "vllm"))
    assert result.exit_code == 0, result.output
    assert "stop_token_ids" not in server.bodies[0]
    [warning] = [w for w in record["warnings"] if w["code"] == "stop_set_unknown"]
    assert gemma in warning["message"] and "--stop-id" in warning["message"]
    assert record["stop_token_ids"] == []
    with_ids = recorders(models=(gemma,))
    _, [record] = extract(
        pdf,
        schema_file,
        with_ids.url,
        extra=("--model", gemma, "--server-kind", "vllm", "--stop-id", "106", "--stop-id", "1"),
    )
    assert with_ids.bodies[0]["stop_token_ids"] == [1, 106]
    assert not any(w["code"] == "stop_set_unknown" for w in record["warnings"])


def test_5xx_and_a_cut_stream_are_retried_on_the_other_endpoint(recorders, pdf, schema_file):
    failing, cut, good = recorders(script=[503]), recorders(script=["cut"]), recorders()
    result, [record] = extract(pdf, schema_file, failing.url, cut.url, good.url)
    assert result.exit_code == 0, result.output
    assert (len(failing.bodies), len(cut.bodies), len(good.bodies)) == (1, 1, 1)
    assert record["server"]["endpoint"] == good.url and record["data"] == {"n": "x"}


def test_429_honours_retry_after(recorders, pdf, schema_file):
    server = recorders(script=[429, vllm_chunks(['{"n":"x"}'])])
    start = time.monotonic()
    result, [record] = extract(pdf, schema_file, server.url)
    assert result.exit_code == 0, result.output
    assert len(server.bodies) == 2 and time.monotonic() - start >= 0.3


@pytest.mark.parametrize(
    "kind, fix",
    [
        (
            "vllm",
            "restart vLLM with `--generation-config DIR`, DIR holding a generation_config.json whose eos_token_id "
            "is [248044, 248046]",
        ),
        (
            "sglang",
            "fix the model's generation_config.json (`extract doctor MODEL_DIR --fix` on the directory the server "
            "loads: eos_token_id [248044, 248046]) and restart SGLang",
        ),
        ("openai", "this server takes no per-request stop ids"),
    ],
)
def test_doctor_endpoint_gives_the_fix_for_each_kind_and_tries_our_stop_ids(recorders, kind, fix):
    """The seed's bug on a server that hides special tokens (vLLM, SGLang): clean JSON, then empty deltas to
    max_tokens without our stop ids; with them (the second request) it stops on 248046."""
    bug = vllm_chunks(['{"', "n", '":"', 'x"', "}"] + [""] * 40, finish="length", stop_reason=None)
    owner = "organization_owner" if kind == "openai" else kind
    server = recorders(owned_by=owner, script=[bug, vllm_chunks(["{}"])])
    result = CliRunner().invoke(app, dispatch_args(["doctor", "--endpoint", server.url, "--json"]))
    assert result.exit_code == 1, result.output
    checks = json.loads(result.stdout)
    expected = [("endpoint", "pass"), ("smoke", "fail")] + ([] if kind == "openai" else [("smoke_stop_ids", "pass")])
    assert [(c["name"], c["status"]) for c in checks] == expected
    assert checks[0]["detail"] == f"{kind} server (detected); serves {QWEN}; checking {QWEN}"
    assert checks[1]["detail"].startswith("does not stop: it went on generating after the JSON closed")
    assert fix in checks[1]["detail"]
    assert ["stop_token_ids" in body for body in server.bodies] == [False, True][: len(expected) - 1]
    if kind != "openai":
        assert checks[2]["detail"] == (
            "with stop_token_ids [248044, 248046] (what extract sends): stopped on 248046 "
            "after 2 tokens (stop token included)"
        )


def pictures(folder):
    """doc0 a portrait page, doc1 a landscape one: the server tells their requests apart by the image's shape."""
    from PIL import Image

    paths = []
    for name, size in (("doc0.png", (200, 300)), ("doc1.png", (300, 200))):
        Image.new("RGB", size, "white").save(folder / name)
        paths.append(folder / name)
    return paths


def hold_doc0(until, *, timeout=20.0):
    """A Recorder gate: doc0's answer (the portrait page) waits until ``until()`` is true, doc1's goes at once.
    Returns the gate and a list that gets True if doc0 was let go by the time-out instead."""
    from PIL import Image

    timed_out = []

    def gate(body):
        url = body["messages"][1]["content"][0]["image_url"]["url"]
        image = Image.open(io.BytesIO(base64.b64decode(url.partition(",")[2])))
        if image.height <= image.width:
            return
        deadline = time.monotonic() + timeout
        while not until():
            if time.monotonic() > deadline:
                timed_out.append(True)
                return
            time.sleep(0.02)

    return gate, timed_out


def test_the_python_api_keeps_documents_in_flight_and_yields_them_in_input_order(recorders, schema_file, tmp_path):
    from extractor import Extractor

    paths = [str(p) for p in pictures(tmp_path)]
    released = threading.Event()
    gate, timed_out = hold_doc0(released.is_set)
    server = recorders(gate=gate)
    with Extractor(endpoint=server.url, concurrency=2, model=QWEN, schema=str(schema_file), isolate=False) as ex:
        assert ex.concurrency == 2
        finished = []
        for index, record in ex.extract_as_done(paths):
            finished.append((index, record.source, record.status))
            released.set()  # doc1 is done while doc0 is still held: now let doc0 go
        assert finished == [(1, paths[1], "ok"), (0, paths[0], "ok")]
        # extract_many: doc0 is held until doc1's answer went out (and had half a second to become a record)
        released.clear()
        gate, timed_out = hold_doc0(
            lambda: len(server.answered_at) >= 3 and time.monotonic() > server.answered_at[2] + 0.5
        )
        server.gate = gate
        assert [(r.source, r.status) for r in ex.extract_many(paths)] == [(paths[0], "ok"), (paths[1], "ok")]
    assert timed_out == [] and len(server.bodies) == 4


def test_out_files_are_written_as_documents_finish_and_jsonl_keeps_input_order(recorders, schema_file, tmp_path):
    """doc0's answer is held until doc1's --out file exists: written as soon as doc1 was done, not after doc0. The
    API key goes to the server as a bearer token and nowhere else."""
    paths = pictures(tmp_path)
    out, jsonl = tmp_path / "out", tmp_path / "all.jsonl"
    gate, timed_out = hold_doc0(lambda: (out / "doc1.json").exists())
    server = recorders(gate=gate)
    args = [
        *map(str, paths),
        "--model",
        QWEN,
        "--schema",
        str(schema_file),
        "--no-isolate",
        "--endpoint",
        server.url,
        "--out",
        str(out),
        "--jsonl",
        str(jsonl),
        "--api-key-env",
        "EXTRACT_TEST_KEY",
    ]
    result = CliRunner().invoke(app, dispatch_args(args), env={"EXTRACT_TEST_KEY": "sesame-1234"})
    assert result.exit_code == 0, result.output
    assert timed_out == []
    assert [json.loads(line)["source"] for line in jsonl.read_text().splitlines()] == [str(p) for p in paths]
    assert sorted(p.name for p in out.iterdir()) == ["doc0.json", "doc1.json"]
    assert server.auth == ["Bearer sesame-1234"] * 2
    written = result.output + jsonl.read_text() + "".join(p.read_text() for p in out.iterdir())
    assert "sesame-1234" not in written


def test_logprobs_become_token_evidence_placed_in_the_text():
    from extractor.runners.openai.runner import _evidence
    from extractor.trust.evidence import field_tokens

    def piece(text, logprob, runner_up):
        top = [{"token": text, "logprob": logprob}, {"token": "?", "logprob": runner_up}]
        return {"content": [{"token": text, "logprob": logprob, "top_logprobs": top}]}

    lines = vllm_chunks(['{"', "n", '":"', "ab", 'c"', "}"])
    scores = [(-0.01, -5.0), (-0.02, -4.0), (-0.01, -6.0), (-0.7, -0.9), (-0.1, -2.5), (0.0, -9.0)]
    for i, (logprob, runner_up) in enumerate(scores):  # the content chunks follow the role chunk
        event = json.loads(lines[2 * (i + 1)].removeprefix("data: "))
        event["choices"][0]["logprobs"] = piece(event["choices"][0]["delta"]["content"], logprob, runner_up)
        lines[2 * (i + 1)] = "data: " + json.dumps(event)
    out = read_stream(lines)
    evidence = _evidence(out)
    assert evidence is not None and evidence.source == "server"
    assert evidence.offsets == (0, 2, 3, 6, 8, 10) and not any(evidence.forced)
    assert evidence.margin[3] == pytest.approx(0.2)
    entry = field_tokens(evidence, out.text, {"n": "abc"})["/n"]
    assert entry["tokens"] == 3 and entry["forced_tokens"] == 0  # '":"' (holds the opening quote), "ab", 'c"'
    assert entry["p_min"] == pytest.approx(math.exp(-0.7), abs=1e-6)
    assert entry["margin_first"] == pytest.approx(6.0 - 0.01, abs=1e-6)  # at its first token, '":"'
    assert _evidence(read_stream(vllm_chunks(["{}"]))) is None  # no logprobs: no evidence
