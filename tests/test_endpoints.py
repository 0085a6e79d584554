"""Issue 13 end to end: ``extract --endpoint`` against real ``python -m mlx_vlm.server`` processes on 127.0.0.1.

Two servers start once for the module, in parallel: A serves the scripted tiny model as converted (config.json eos
248044 only: the upstream bug, so the server streams ``<|im_end|>`` as text after the answer) and wants an API key;
C serves a copy fixed by ``extract doctor --fix``. The two-server test runs on both (a mixed fleet) and kills C, so it
comes last. The model answers ``{"n":"x"}`` for a one-field schema:
short answers keep the module at about half a minute. The model is schema-aware, so the in-process runner (with
constraints and jump-forward) gives the same answer as the servers (which decode without our grammar).
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest
from helpers import MlxServer, free_port, make_pdf
from typer.testing import CliRunner

from extractor import Extractor, Settings
from extractor.cli.commands import app, dispatch_args
from extractor.jobs.watch import WatchSettings, watch
from extractor.testing import ENDOFTEXT, IM_END

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "string", "maxLength": 8}},
    "required": ["n"],
    "additionalProperties": False,
}
ANSWER = '{"n":"x"}'
KEY, KEY_ENV = "sesame", "EXTRACT_TEST_KEY"
MAX_TOKENS = 256


@pytest.fixture(scope="module")
def setup(model_factory, tmp_path_factory):
    """The schema file, the model, its fixed copy, and the two running servers (A: bug config, key; C: fixed)."""
    root = tmp_path_factory.mktemp("endpoints")
    schema = root / "one.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    model = model_factory.scripted(answer=ANSWER, then="im_end", schema=schema)
    fixed = model_factory.copy(model, root / "fixed")
    done = run("doctor", fixed.path, "--fix", "--json")  # the acceptance's "after extract doctor --fix"
    assert done.exit_code == 0, done.output
    servers = {"A": MlxServer(model.path, root / "a.log", api_key=KEY), "C": MlxServer(fixed.path, root / "c.log")}
    try:
        for server in servers.values():
            server.wait_ready()
        yield {"schema": str(schema), "model": model, "fixed": fixed, **servers}
    finally:
        for server in servers.values():
            server.stop()


def run(*args, env=None):
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]), env=env)


def documents(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"doc{i}.pdf"
        path.write_bytes(make_pdf([f"Invoice {i}"]))
        paths.append(path)
    return paths


def extract_json(setup, url, model_dir, paths, *extra):
    """``extract PATHS --endpoint URL --json`` with the module's schema; returns (result, records)."""
    result = run(
        *paths,
        "--endpoint",
        url,
        "--model",
        model_dir,
        "--schema",
        setup["schema"],
        "--max-tokens",
        MAX_TOKENS,
        "--json",
        *extra,
        env={KEY_ENV: KEY},
    )
    return result, json.loads(result.stdout) if result.stdout.strip().startswith("[") else None


def cancelled_tokens(log: str) -> list[int]:
    """generated_tokens of every ``Generation cancelled`` line of an mlx_vlm.server log (a closed stream)."""
    return [int(n) for n in re.findall(r"Generation cancelled: request=\S+ generated_tokens=(\d+)", log)]


def test_bug_config_a_guard_ends_the_stream_and_the_server_stops(setup, tmp_path):
    model, server = setup["model"], setup["A"]
    answer_tokens = len(model.answer_token_ids)
    before = len(cancelled_tokens(server.log()))
    result, records = extract_json(
        setup, server.url, server.model_dir, documents(tmp_path, 1), "--api-key-env", KEY_ENV, "--retries", "0"
    )
    assert result.exit_code == 0, result.output
    [record] = records
    assert (record["status"], record["data"], record["finish_reason"], record["guard"]) == (
        "ok",
        {"n": "x"},
        "guard",
        "end_marker",
    )
    assert record["server"] == {"endpoint": server.url, "kind": "mlx", "model": server.model_dir, "usage": "stream"}
    assert record["stop_token_ids"] == [ENDOFTEXT, IM_END] and record["constrained"] is False
    assert [w["code"] for w in record["warnings"]] == ["unconstrained", "guard_end_marker"]
    assert KEY not in result.output  # the key went to the server (A wants it) and nowhere else
    after_answer = record["usage"]["generated_tokens"] - answer_tokens
    assert 0 < after_answer <= 16
    # the server saw the stream close and stopped: its own count, far below max_tokens
    deadline = time.monotonic() + 10
    while len(cancelled_tokens(server.log())) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    [generated] = cancelled_tokens(server.log())[before:]
    assert answer_tokens < generated <= answer_tokens + 16 < MAX_TOKENS


def test_after_doctor_fix_the_server_stops_on_im_end_with_nothing_after_the_answer(setup, tmp_path):
    model, server = setup["fixed"], setup["C"]
    result, records = extract_json(setup, server.url, server.model_dir, documents(tmp_path, 1))
    assert result.exit_code == 0, result.output
    [record] = records
    assert (record["status"], record["data"], record["finish_reason"], record["guard"]) == (
        "ok",
        {"n": "x"},
        "stop",
        None,
    )
    # mlx_vlm.server does not name the token it stopped on; the script's next token is <|im_end|>, and the server
    # counted exactly the answer plus that one token: nothing after the answer
    assert model.continuation_token_ids == (IM_END,)
    assert record["usage"]["generated_tokens"] == len(model.answer_token_ids) + 1
    assert record["stop_token_id"] is None and record["server"]["usage"] == "server"
    assert record["usage"]["prompt_tokens"] > 0
    assert re.search(rf"generated_tokens={len(model.answer_token_ids) + 1} .*finish_reason=stop", server.log())


def test_connection_refused_everywhere_gives_error_records_naming_the_endpoint(setup, tmp_path):
    url = f"http://127.0.0.1:{free_port()}"
    result, records = extract_json(setup, url, setup["model"].path, documents(tmp_path, 3))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert [(r["status"], [e["code"] for e in r["errors"]]) for r in records] == [("error", ["model_error"])] * 3
    for record in records:
        assert url in record["errors"][0]["message"] and "connection refused" in record["errors"][0]["message"]


def test_a_bad_api_key_is_one_clear_error(setup, tmp_path):
    server = setup["A"]
    refused = server.log().count('" 401')
    result = run(
        *documents(tmp_path / "docs", 4),
        "--endpoint",
        server.url,
        "--model",
        server.model_dir,
        "--schema",
        setup["schema"],
        "--api-key-env",
        KEY_ENV,
        "--out",
        tmp_path / "out",
        env={KEY_ENV: "wrong"},
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert " ".join(result.output.split()) == (  # one message (wrapped to the terminal's width)
        f"error: {server.url} refused the API key (HTTP 401: Invalid API key); set the key in the environment "
        "variable named by --api-key-env"
    )
    assert server.log().count('" 401') == refused + 1  # asked once, not once per document
    assert list((tmp_path / "out").glob("*.json")) == []


def test_doctor_endpoint_fails_on_the_bug_and_passes_after_the_fix(setup):
    bug = run(
        "doctor",
        "--endpoint",
        setup["A"].url,
        "--api-key-env",
        KEY_ENV,
        "--smoke-tokens",
        "64",
        "--json",
        env={KEY_ENV: KEY},
    )
    assert bug.exit_code == 1, bug.output
    checks = {c["name"]: c for c in json.loads(bug.stdout)}
    assert [(c["name"], c["status"]) for c in checks.values()] == [("endpoint", "pass"), ("smoke", "fail")]
    assert checks["endpoint"]["detail"].startswith(f"mlx server (detected); serves {setup['A'].model_dir}")
    assert "streamed an end marker as text" in checks["smoke"]["detail"]
    assert "mlx_vlm.server ignores per-request stop ids" in checks["smoke"]["detail"]
    assert "eos_token_id [248044, 248046]" in checks["smoke"]["detail"]
    fixed = run("doctor", "--endpoint", setup["C"].url, "--smoke-tokens", "64", "--json")
    assert fixed.exit_code == 0, fixed.output
    assert [(c["name"], c["status"]) for c in json.loads(fixed.stdout)] == [("endpoint", "pass"), ("smoke", "pass")]


def test_watch_keeps_documents_in_flight_and_extracts_each_content_once(setup, tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    server = setup["A"]
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    paths = documents(inbox, 5)
    (inbox / "copy of doc0.pdf").write_bytes(paths[0].read_bytes())
    with Extractor(
        model=server.model_dir,
        schema=setup["schema"],
        endpoint=server.url,
        concurrency=3,
        api_key_env=KEY_ENV,
        max_tokens=MAX_TOKENS,
    ) as extractor:
        records = []
        summary = watch(
            inbox, out, extractor=extractor, on_record=records.append, settings=WatchSettings(once=True, settle=0.1)
        )
        peak = extractor.runner.pool.peak_in_flight
    assert (summary.extracted, summary.duplicates, summary.failed, summary.left) == (5, 1, 0, 0)
    assert [(r.status, r.data) for r in records] == [("ok", {"n": "x"})] * 5
    assert len(list(out.glob("*.json"))) == 5
    assert peak > 1  # documents really were in flight together


def test_two_servers_eight_documents_match_the_in_process_runner_and_survive_a_kill(setup, tmp_path):
    paths = documents(tmp_path / "docs", 8)
    with Extractor(Settings(model=str(setup["model"].path), schema=setup["schema"], retries=1)) as local:
        expected = {str(p): r.data for p, r in zip(paths, local.extract_many([str(p) for p in paths]), strict=False)}
    assert list(expected.values()) == [{"n": "x"}] * 8

    a, c = setup["A"], setup["C"]  # the bug config and the fixed one: the data is the same
    out, jsonl = tmp_path / "out", tmp_path / "all.jsonl"
    common = (
        "--model",
        setup["model"].path,
        "--schema",
        setup["schema"],
        "--max-tokens",
        MAX_TOKENS,
        "--api-key-env",
        KEY_ENV,
        "--endpoint",
        a.url,
        "--endpoint",
        c.url,
        "--concurrency",
        "4",
    )
    result = run(*paths, *common, "--out", out, "--jsonl", jsonl, env={KEY_ENV: KEY})
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [r["source"] for r in lines] == [str(p) for p in paths]  # input order, once each
    assert {r["source"]: r["data"] for r in lines} == expected
    assert {r["server"]["endpoint"] for r in lines} == {a.url, c.url}
    assert sorted(p.name for p in out.glob("*.json")) == sorted(f"doc{i}.json" for i in range(8))

    # C dies once the first record is written: the batch finishes on A, nothing lost or duplicated
    out2, jsonl2 = tmp_path / "out2", tmp_path / "all2.jsonl"
    killer = threading.Thread(target=kill_when_written, args=(c, out2), daemon=True)
    killer.start()
    result = run(*paths, *common, "--out", out2, "--jsonl", jsonl2, env={KEY_ENV: KEY})
    killer.join(timeout=60)
    assert c.proc.poll() is not None
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in jsonl2.read_text().splitlines()]
    assert [r["source"] for r in lines] == [str(p) for p in paths]
    assert {r["source"]: (r["status"], r["data"]) for r in lines} == {s: ("ok", d) for s, d in expected.items()}
    assert sorted(p.name for p in out2.glob("*.json")) == sorted(f"doc{i}.json" for i in range(8))


def kill_when_written(server: MlxServer, out: Path) -> None:
    deadline = time.monotonic() + 60
    while not any(out.glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.01)
    server.stop()
