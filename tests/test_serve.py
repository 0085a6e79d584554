"""``extract serve`` for real: the server started as a subprocess on a free port with a scripted tiny model, httpx as
the client, SQLite as the store.

The model answers ``{"n": "x"}`` for a one-field schema (~0.3 s a document; the invoice schema costs ~10 s on the
tiny model), and the service does not care what is extracted. Each server start loads the model (a few seconds):
one server serves most tests, the kill -9 test starts its own twice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from helpers import ROOT
from servekit import KEYS, WEBHOOK_SECRET, in_process_app
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.service.worker import TEST_PAUSE_ENV

ANSWER = '{"n":"x"}'
NOTE_SCHEMA = {"title": "note", "type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
app_client = in_process_app  # the fixture: the app in-process

MAX_BYTES = "300K"  # the sample is ~30 KB
HANG_GUARD_S = 120  # only stops a hung test; no test asserts on time


@pytest.fixture(scope="module")
def tiny(model_factory, tmp_path_factory):
    """The scripted model and its schema file."""
    schema = tmp_path_factory.mktemp("schema") / "note.schema.json"
    schema.write_text(json.dumps(NOTE_SCHEMA), encoding="utf-8")
    return model_factory.scripted(answer=ANSWER, then="im_end", schema=schema), schema


def extraction_options(tiny) -> list[str]:
    """The extraction options the server and ``extract run`` share."""
    model, schema = tiny
    return [
        "--model",
        str(model.path),
        "--schema",
        str(schema),
        "--no-isolate",
        "--ocr",
        "never",
        "--max-bytes",
        MAX_BYTES,
    ]


class Server:
    """``extract serve`` in a subprocess; ``url`` once it listens."""

    def __init__(self, tiny, store: Path | str, *, env: dict | None = None, args: tuple[str, ...] = ()) -> None:
        self.log = Path(os.environ.get("TMPDIR", "/tmp")) / f"extract-serve.{time.monotonic_ns()}.log"
        if isinstance(store, Path):
            self.log = store.with_suffix(f".{time.monotonic_ns()}.log")
            store = f"sqlite:///{store}"
        environment = {
            **os.environ,
            "EXTRACT_API_KEYS": ",".join(f"{t}:{k}" for t, k in KEYS.items()),
            "EXTRACT_WEBHOOK_SECRET": WEBHOOK_SECRET,
            **(env or {}),
        }
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "extractor.cli",
                    "serve",
                    "--port",
                    "0",
                    "--store",
                    store,
                    "--sync-timeout",
                    "30",
                    "--callback-allow",
                    "127.0.0.1",
                    "--callback-backoff",
                    "0.2",
                    "--source-allow",
                    "127.0.0.1",
                    *args,
                    *extraction_options(tiny),
                ],
                env=environment,
                stdout=log,
                stderr=log,
            )
        deadline = time.monotonic() + HANG_GUARD_S
        while "serve: http://" not in self.log.read_text(errors="replace"):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.log.read_text(errors="replace")
            time.sleep(0.05)
        line = next(x for x in self.log.read_text().splitlines() if x.startswith("serve: "))
        self.url = line.split()[1].rstrip("/")

    def client(self, tenant: str | None = "alice") -> httpx.Client:
        """A client of the server whose every error answer is checked to be problem+json with a documented code."""
        headers = {"Authorization": f"Bearer {KEYS[tenant]}"} if tenant else {}
        return httpx.Client(
            base_url=self.url,
            headers=headers,
            timeout=HANG_GUARD_S,
            trust_env=False,
            event_hooks={"response": [problem_shaped]},
        )

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


def problem_shaped(response: httpx.Response) -> None:
    """An error answer is application/problem+json whose code is in the one table (docs/serve.md lists it)."""
    from extractor.service.problems import PROBLEMS

    if response.status_code >= 400:
        response.read()
        body = response.json()
        assert response.headers["content-type"] == "application/problem+json", response.text
        assert PROBLEMS[body["code"]][0] == body["status"] == response.status_code, body


def post(
    client: httpx.Client, body: bytes, *, name: str = "invoice-de-einfach.pdf", path: str = "/v1/jobs", **options
) -> httpx.Response:
    return client.post(path, files={"file": (name, body, "application/pdf")}, **options)


def done(client: httpx.Client, job_id: str) -> dict:
    """The job once it ended (long polls)."""
    deadline = time.monotonic() + HANG_GUARD_S
    while True:
        job = client.get(f"/v1/jobs/{job_id}", params={"wait": 30}).raise_for_status().json()
        if job["status"] in ("done", "failed", "cancelled") or time.monotonic() > deadline:
            return job


@pytest.fixture(scope="module")
def server(tiny, tmp_path_factory):
    """One server for the module, whose first job is the sample (so its record is a fresh process's first, as
    ``extract run``'s is: the prefix cache is empty for both)."""
    server = Server(tiny, tmp_path_factory.mktemp("serve") / "jobs.sqlite")
    with server.client() as client:
        server.first = post(client, SAMPLE.read_bytes())
    yield server
    server.stop()


def _normal(record: dict) -> dict:
    """A record without what cannot repeat between two runs (as tests/test_records_unchanged.py leaves it out), and
    without ``usage.decoding.forced_feed``: each process times both exact ways of feeding forced tokens when it loads
    the model and keeps the faster (``runners.mlx.plan.feed_choice``), which two processes on a busy machine may
    measure differently."""
    out = {k: v for k, v in record.items() if k not in ("timings", "peak_memory_gb")}
    if (out.get("usage") or {}).get("decoding"):
        out["usage"] = {**out["usage"], "decoding": {**out["usage"]["decoding"], "forced_feed": "<measured>"}}
    return out


def test_a_sample_becomes_the_record_extract_run_writes(server, tiny, tmp_path):
    response = server.first
    assert response.status_code == 202
    job = response.json()
    assert response.headers["location"] == f"/v1/jobs/{job['id']}"
    assert job["status"] in ("queued", "running") and job["created"].endswith("Z")
    with server.client() as client:
        ended = done(client, job["id"])
        document = client.get("/openapi.json").json()  # the record conforms to the contract's Record
        assert conforms(client.get(f"/v1/jobs/{job['id']}"), document, path="/v1/jobs/{job_id}") == ended
    assert ended["status"] == "done" and ended["runs"] == 1 and "records" not in ended

    (tmp_path / SAMPLE.name).write_bytes(SAMPLE.read_bytes())
    cwd = os.getcwd()
    os.chdir(tmp_path)  # extract run names the file as given: the same name the upload had
    try:
        result = CliRunner().invoke(app, dispatch_args(["run", SAMPLE.name, "--json", *extraction_options(tiny)]))
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    (expected,) = json.loads(result.stdout)
    assert _normal(ended["record"]) == _normal(expected)
    assert ended["record"]["status"] == "ok" and ended["record"]["source"] == SAMPLE.name


def test_keys_and_tenants(server):
    job_id = server.first.json()["id"]
    with server.client(None) as anonymous:
        for call in (
            lambda: anonymous.get(f"/v1/jobs/{job_id}"),
            lambda: anonymous.get("/v1/jobs"),
            lambda: post(anonymous, SAMPLE.read_bytes()),
        ):
            response = call()
            assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
        wrong = anonymous.get("/v1/jobs", headers={"Authorization": "Bearer not-a-key"})
        assert wrong.status_code == 401
        assert anonymous.get("/healthz").json() == {"status": "serving"}
    with server.client("bob") as bob:
        assert bob.get(f"/v1/jobs/{job_id}").status_code == 404  # another tenant's job does not exist for bob
        assert bob.delete(f"/v1/jobs/{job_id}").status_code == 404
        assert bob.get("/v1/jobs").json()["jobs"] == []
    with server.client() as alice:
        assert job_id in [job["id"] for job in alice.get("/v1/jobs").json()["jobs"]]
    log = server.log.read_text(errors="replace")
    assert not any(key in log for key in KEYS.values())
    assert "extractor.service.access: GET /v1/jobs/{job_id} 404 tenant=bob " in log  # the access log, one line each
    assert f"/v1/jobs/{job_id} " not in log  # routes as templates: no job id


def test_an_upload_over_max_bytes_is_refused_before_it_is_stored(server):
    with server.client() as client:
        before = len(client.get("/v1/jobs").json()["jobs"])
        assert post(client, b"%PDF-1.4\n" + b"0" * 400_000).status_code == 413  # Content-Length says it

        def chunks():  # no Content-Length: the bytes are counted as they come
            yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n'
            for _ in range(40):
                yield b"0" * 10_000
            yield b"\r\n--b--\r\n"

        streamed = client.post(
            "/v1/jobs", content=chunks(), headers={"Content-Type": "multipart/form-data; boundary=b"}
        )
        assert streamed.status_code == 413
        assert len(client.get("/v1/jobs").json()["jobs"]) == before


def test_a_hostile_file_is_a_done_job_with_an_error_record(server):
    with server.client() as client:
        corrupt = done(
            client, post(client, b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R", name="x.pdf").json()["id"]
        )
        empty = client.post("/v1/extract", files={"file": ("empty.pdf", b"")})
        assert client.get("/healthz").status_code == 200  # the worker lives on
    assert corrupt["status"] == "done" and corrupt["record"]["status"] == "error"
    assert corrupt["record"]["errors"][0]["code"] == "corrupt" and corrupt["record"]["source"] == "x.pdf"
    assert empty.status_code == 200 and empty.json()["record"]["errors"][0]["code"] == "empty"


def test_the_synchronous_shortcut_answers_the_record(server):
    with server.client() as client:
        response = post(client, SAMPLE.read_bytes(), path="/v1/extract", data={"options": json.dumps({"pages": "1"})})
        assert response.status_code == 200, response.text
        job = response.json()
        assert job["record"]["data"] == json.loads(ANSWER) and job["options"] == {"pages": "1"}
        assert client.get(response.headers["location"]).json()["record"] == job["record"]
        bad = post(client, SAMPLE.read_bytes(), data={"options": json.dumps({"model": "other"})})
        assert bad.status_code == 422 and "unknown model" in bad.json()["detail"]
        assert post(client, SAMPLE.read_bytes(), data={"schema": "/etc/passwd"}).status_code == 422
        facturx = post(client, SAMPLE.read_bytes(), data={"options": json.dumps({"einvoice": ["facturx"]})})
        assert facturx.status_code == 422 and "does not keep" in facturx.json()["detail"]


def test_a_received_einvoice_xml_is_a_job_like_any_upload(server):
    """A bare e-invoice XML upload: read exactly by the worker (no model call, pages 0), as ``extract run``."""
    xml = (ROOT / "tests" / "data" / "einvoice" / "peppol-base-example.xml").read_bytes()
    with server.client() as client:
        response = post(client, xml, name="peppol.xml", path="/v1/extract", data={"schema": "invoice"})
        assert response.status_code == 200, response.text
        record = response.json()["record"]
    assert (record["source"], record["pages"], record["data_source"]) == ("peppol.xml", 0, "embedded_xml")
    assert record["data"]["invoice_number"] == "Snippet1" and record["usage"]["generated_tokens"] == 0


def test_an_idempotency_key_returns_the_same_job(server):
    with server.client() as client:
        first = post(client, SAMPLE.read_bytes(), headers={"Idempotency-Key": "order-17"})
        again = post(client, SAMPLE.read_bytes(), headers={"Idempotency-Key": "order-17"})
        assert first.status_code == again.status_code == 202
        assert again.json()["id"] == first.json()["id"] and again.headers["idempotent-replayed"] == "true"
        other = post(client, SAMPLE.read_bytes() + b"\n%other", headers={"Idempotency-Key": "order-17"})
        assert other.status_code == 409
    with server.client("bob") as bob:  # keys are per tenant
        assert (
            post(bob, SAMPLE.read_bytes(), headers={"Idempotency-Key": "order-17"}).json()["id"] != first.json()["id"]
        )


def test_an_ended_job_is_deleted(server):
    with server.client() as client:
        job_id = post(client, SAMPLE.read_bytes() + b"\n%delete-me").json()["id"]
        done(client, job_id)
        assert client.delete(f"/v1/jobs/{job_id}").json() == {"id": job_id, "status": "deleted"}
        assert client.get(f"/v1/jobs/{job_id}").status_code == 404


def test_the_openapi_document_lists_every_endpoint(server):
    with server.client(None) as client:
        paths = client.get("/openapi.json").json()["paths"]
        assert client.get("/docs").status_code == 200
    assert {path: sorted(methods) for path, methods in paths.items()} == {
        "/v1/jobs": ["get", "post"],
        "/v1/jobs/{job_id}": ["delete", "get"],
        "/v1/jobs/{job_id}/einvoice/{fmt}": ["get"],
        "/v1/jobs/{job_id}/callback/retry": ["post"],
        "/v1/jobs/{job_id}/review": ["post"],
        "/v1/extract": ["post"],
        "/healthz": ["get"],
        "/metrics": ["get"],
    }


def test_no_keys_beyond_loopback_is_refused(monkeypatch, tiny):
    monkeypatch.delenv("EXTRACT_API_KEYS", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", *extraction_options(tiny)])
    assert result.exit_code == 2 and "needs API keys" in result.output


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_learn_is_an_option_of_the_service_as_of_extract(command, tmp_path):
    """--learn (read by default with the store's register) on serve and worker: a bad mode is refused first."""
    store = str(tmp_path / "jobs.sqlite")
    result = CliRunner().invoke(app, [command, "--store", store, "--learn", "always"])
    assert result.exit_code == 2 and "learn must be one of read, check, off, got 'always'" in result.output


def test_kill_9_loses_no_job_and_reruns_none(tiny, tmp_path):
    """Six accepted jobs, the server killed with two done, one running and three queued; restarted on the same
    store, every job ends with exactly one record, and the two done before the kill are not run again."""
    store, marker = tmp_path / "jobs.sqlite", tmp_path / "paused"
    first = Server(tiny, store, env={TEST_PAUSE_ENV: f"2:{marker}"}, args=("--batch", "1"))  # one job at a time
    try:
        with first.client() as client:
            ids = [
                post(client, SAMPLE.read_bytes() + f"\n%{i}".encode(), name=f"doc{i}.pdf").json()["id"]
                for i in range(6)
            ]
        deadline = time.monotonic() + HANG_GUARD_S
        while not marker.exists():
            assert first.proc.poll() is None and time.monotonic() < deadline, first.log.read_text()
            time.sleep(0.05)
        with first.client() as client:
            before = {job_id: client.get(f"/v1/jobs/{job_id}").json() for job_id in ids}
    finally:
        first.kill()
    assert sorted(job["status"] for job in before.values()) == ["done"] * 2 + ["queued"] * 3 + ["running"]

    second = Server(tiny, store)
    try:
        with second.client() as client:
            after = {job_id: done(client, job_id) for job_id in ids}
    finally:
        second.stop()
    assert "3 job(s) queued again" not in second.log.read_text() and "1 job(s) queued again" in second.log.read_text()
    for number, job_id in enumerate(ids):
        job = after[job_id]
        assert job["status"] == "done" and job["record"]["source"] == f"doc{number}.pdf"
        assert job["record"]["data"] == json.loads(ANSWER)
        if before[job_id]["status"] == "done":
            assert job == before[job_id]  # the same record, the same times: not run again
        assert job["runs"] == (2 if before[job_id]["status"] == "running" else 1)


class Receiver:
    """A webhook receiver on loopback: records every delivery; ``fail`` deliveries to a path answer 500 first."""

    def __init__(self) -> None:
        self.deliveries: list[dict] = []
        self.fail: dict[str, int] = {}
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.arrived:
                    receiver.deliveries.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    failing = receiver.fail.get(self.path, 0)
                    receiver.fail[self.path] = failing - 1
                    receiver.arrived.notify_all()
                self.send_response(500 if failing > 0 else 204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def wait(self, path: str, count: int) -> list[dict]:
        """The deliveries to ``path`` once there are ``count`` of them."""
        with self.arrived:
            assert self.arrived.wait_for(
                lambda: sum(d["path"] == path for d in self.deliveries) >= count, timeout=HANG_GUARD_S
            ), self.deliveries
            return [d for d in self.deliveries if d["path"] == path]


@pytest.fixture(scope="module")
def receiver():
    receiver = Receiver()
    yield receiver
    receiver.http.shutdown()


def verified(delivery: dict) -> dict:
    """The delivery's body, once its signature verifies with the secret (the check docs/serve.md shows)."""
    headers = delivery["headers"]
    timestamp, tenant, number = (headers[f"X-Extractor-{n}"] for n in ("Timestamp", "Tenant", "Delivery"))
    signed = f"{timestamp}.{tenant}.{number}.".encode() + delivery["body"]
    expected = hmac.new(WEBHOOK_SECRET.encode(), signed, hashlib.sha256)
    assert hmac.compare_digest(headers["X-Extractor-Signature"], "v2=" + expected.hexdigest())
    assert abs(time.time() - int(timestamp)) < 300
    return json.loads(delivery["body"])


def test_a_webhook_is_delivered_once_signed_and_retried_with_every_attempt_recorded(server, receiver):
    with server.client() as client:
        once = post(client, SAMPLE.read_bytes() + b"%hook1", data={"callback_url": receiver.url + "/once"})
        receiver.fail["/flaky?t=tok"] = 2
        flaky = post(client, SAMPLE.read_bytes() + b"%hook2", data={"callback_url": receiver.url + "/flaky?t=tok"})
        assert once.status_code == flaky.status_code == 202, once.text
        (delivery,) = receiver.wait("/once", 1)
        body = verified(delivery)
        job = done(client, once.json()["id"])
        assert body == {"id": job["id"], "status": "done", "record": job["record"]}
        attempts = receiver.wait("/flaky?t=tok", 3)
        assert [verified(a)["id"] for a in attempts] == [flaky.json()["id"]] * 3
        deadline = time.monotonic() + HANG_GUARD_S
        while (view := client.get(f"/v1/jobs/{flaky.json()['id']}").json())["callback"]["state"] == "pending":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)  # a fourth delivery would come within the backoff
    assert len(receiver.wait("/once", 1)) == 1 and len(receiver.wait("/flaky?t=tok", 3)) == 3
    callback = view["callback"]
    assert callback["url"] == receiver.url + "/flaky" and callback["state"] == "delivered"  # no query shown
    assert all(a["at"].endswith("Z") for a in callback["deliveries"])  # ISO 8601 UTC, as every time
    assert [(a["attempt"], a["status_code"], a["ok"]) for a in callback["deliveries"]] == [
        (1, 500, False),
        (2, 500, False),
        (3, 204, True),
    ]
    assert WEBHOOK_SECRET not in server.log.read_text(errors="replace")


def test_a_callback_to_a_private_address_is_refused_at_submission(server):
    with server.client() as client:
        before = len(client.get("/v1/jobs").json()["jobs"])
        for url in (
            "http://10.1.2.3/hook",
            "http://169.254.169.254/latest",
            "http://[::1]:9/x",
            "ftp://example.com/",
            "http://[64:ff9b::7f00:1]/",  # NAT64, 6to4, IPv4-compatible and -mapped: the IPv4 address they carry
            "http://[2002:7f00:1::]/",
            "http://[::127.0.0.1]/",
            "http://[::ffff:169.254.169.254]/",
        ):
            response = post(client, SAMPLE.read_bytes(), data={"callback_url": url})
            assert response.status_code == 422, (url, response.text)
        assert "--callback-allow" in post(client, b"x", data={"callback_url": "http://10.1.2.3/"}).json()["detail"]
        assert len(client.get("/v1/jobs").json()["jobs"]) == before


def test_a_repeat_is_answered_from_the_stored_record_and_metrics_count_the_jobs(server):
    with server.client() as client:
        first = done(client, post(client, SAMPLE.read_bytes() + b"%repeat").json()["id"])
        again = post(client, SAMPLE.read_bytes() + b"%repeat")
        # the server keeps a register: a worker ends the repeat, its record checked under its own id (not shown
        # before: a client never sees it unchecked)
        assert again.status_code == 202 and again.json()["status"] == "queued" and "record" not in again.json()
        assert again.json()["answered_from"] == first["id"]
        repeat = done(client, again.json()["id"])
        assert (repeat["status"], repeat["answered_from"], repeat["runs"]) == ("done", first["id"], 1)
        # the tiny model's sample is no invoice the register checks: the stored record as it was (a checked one is
        # a duplicate_file of the first: tests/test_service_register.py)
        assert repeat["record"] == first["record"] and "register" not in repeat["record"]
    with server.client(None) as anonymous:
        text = anonymous.get("/metrics").text
    values = {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if not line.startswith("#")}
    assert values['extractor_jobs{state="queued"}'] >= 0 and values['extractor_jobs{state="done"}'] >= 3
    assert values["extractor_model_seconds_count"] >= 2 and values["extractor_documents_per_minute"] > 0
    assert 'extractor_queue_wait_seconds{quantile="0.95"}' in values


def test_postgres_one_api_replica_two_workers_one_killed_mid_job(tiny, tmp_path):
    """12 jobs through an API replica on PostgreSQL, run by two ``extract worker`` processes; one is killed with
    ``kill -9`` holding a job: its lease passes, the other worker claims that job again, and every job ends with
    exactly one record."""
    from test_store import fresh_database, postgres_admin_url

    url = fresh_database(postgres_admin_url(), "extractor_serve_e2e")
    api = Server(tiny, url, args=("--no-worker",))
    marker = tmp_path / "paused"
    logs = [tmp_path / "w0.log", tmp_path / "w1.log"]
    workers = [  # the second decodes two documents at once (--batch 2: two job threads)
        worker_process(tiny, url, logs[0], pause=f"0:{marker}", extra=("--batch", "1")),  # holds one job
        worker_process(tiny, url, logs[1], pause=None, extra=("--batch", "2")),
    ]
    try:
        deadline = time.monotonic() + HANG_GUARD_S
        while not all("worker: claiming" in log.read_text(errors="replace") for log in logs):
            assert time.monotonic() < deadline and all(w.poll() is None for w in workers), logs[0].read_text()
            time.sleep(0.05)
        with api.client() as client:
            ids = [
                post(client, SAMPLE.read_bytes() + f"\n%pg{i}".encode(), name=f"pg{i}.pdf").json()["id"]
                for i in range(12)
            ]
            while not marker.exists():  # worker 0 hangs holding the first job it claims
                assert time.monotonic() < deadline and workers[0].poll() is None, logs[0].read_text()
                time.sleep(0.05)
            workers[0].send_signal(signal.SIGKILL)
            workers[0].wait()
            jobs = {job_id: done(client, job_id) for job_id in ids}
    finally:
        for proc in workers:
            proc.kill()
            proc.wait()
        api.stop()
    assert [job["status"] for job in jobs.values()] == ["done"] * 12
    for number, job_id in enumerate(ids):
        job = jobs[job_id]
        assert job["record"]["source"] == f"pg{number}.pdf" and job["record"]["data"] == json.loads(ANSWER)
        assert "records" not in job  # exactly one record
    # the killed worker's job was claimed again (a job whose lease passed while it waited for the other worker's
    # batch on a busy machine may be too: its first claim then writes nothing)
    runs = [job["runs"] for job in jobs.values()]
    assert max(runs) >= 2 and sum(runs) >= 13


def worker_process(tiny, store: str, log: Path, *, pause: str | None, extra: tuple = ()) -> subprocess.Popen:
    """An ``extract worker`` on ``store`` with a 3 s lease (``pause``: ``N:MARKER``, hang holding its (N+1)th job)."""
    env = {**os.environ, **({TEST_PAUSE_ENV: pause} if pause else {})}
    args = [
        sys.executable,
        "-m",
        "extractor.cli",
        "worker",
        "--store",
        store,
        "--lease",
        "3s",
        *extra,
        *extraction_options(tiny),
    ]
    with open(log, "wb") as out:
        return subprocess.Popen(args, env=env, stdout=out, stderr=out)


def test_a_request_may_bring_its_own_json_schema(server):
    own = {**NOTE_SCHEMA, "title": "inline-note", "description": "The request's own schema."}
    with server.client() as client:
        response = post(client, SAMPLE.read_bytes(), path="/v1/extract", data={"schema": json.dumps(own)})
        assert response.status_code == 200, response.text
        job = response.json()
        assert job["options"] == {"schema": own} and job["record"]["data"] == json.loads(ANSWER)
        assert job["record"]["status"] == "ok"
        for bad, reason in (
            ('{"type": 5}', "schema"),
            ('{"$ref": "https://example.com/s.json"}', "points outside the schema"),
            ("{not json", "not JSON"),
        ):
            refused = post(client, SAMPLE.read_bytes(), data={"schema": bad})
            assert refused.status_code == 422 and reason in refused.json()["detail"], refused.text


def test_a_jobs_einvoice_is_the_xml_that_was_checked(tmp_path):
    """``GET /v1/jobs/{id}/einvoice/{format}`` answers the e-invoice the record's check was made on (its sha256),
    in-process on a store holding a done invoice job (no model needed)."""
    from fastapi.testclient import TestClient

    from extractor.einvoice.report import einvoice_report
    from extractor.service.app import create_app
    from extractor.service.config import ApiKeys, ServeSettings, open_store
    from extractor.service.worker import Engine
    from extractor.settings import Settings

    data = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8"))
    report = einvoice_report(data, ["cii", "ubl"])
    store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    ids = []
    for changed in (False, True):
        stored = {**data, "total": data["total"] + 10} if changed else data  # a record not as it was checked
        job, _ = store.submit(
            tenant="local", filename="inv.pdf", data=b"%PDF", sha256=str(changed), fingerprint="f", options={}
        )
        claimed = store.claim(lease=60)
        assert claimed is not None and claimed.id == job.id
        store.finish(
            claimed, records=[{"source": "inv.pdf", "status": "ok", "data": stored, "einvoice": report.entries}]
        )
        ids.append(job.id)
    settings = Settings(schema="invoice")
    app = create_app(
        store=store, worker=None, engine=Engine(settings), keys=ApiKeys(), serve=ServeSettings(), settings=settings
    )
    with TestClient(app, base_url="http://127.0.0.1") as client:  # a server without keys: its own address
        for fmt in ("cii", "ubl"):
            response = client.get(f"/v1/jobs/{ids[0]}/einvoice/{fmt}")
            assert response.status_code == 200 and response.headers["content-type"] == "application/xml"
            assert hashlib.sha256(response.content).hexdigest() == report.entries[fmt]["sha256"]
            assert response.headers["x-extractor-valid"] == str(report.entries[fmt]["valid"]).lower()
            assert f'filename="inv.{fmt}.xml"' in response.headers["content-disposition"]
        assert client.get(f"/v1/jobs/{ids[0]}/einvoice/facturx").status_code == 404
        assert client.get(f"/v1/jobs/{ids[1]}/einvoice/cii").status_code == 500
        assert client.get("/v1/jobs/nope/einvoice/cii").status_code == 404


def test_every_error_is_problem_json_with_a_documented_code(app_client):
    from extractor.service.problems import PROBLEMS, TYPE_BASE

    client, pdf = app_client, SAMPLE.read_bytes()
    queued = post(client, pdf, headers={"Idempotency-Key": "k1"}).json()["id"]
    provoked = {
        "unauthorized": client.get("/v1/jobs", headers={"Authorization": "Bearer nope"}),
        "not_found": client.get("/v1/nowhere"),
        "job_not_found": client.get("/v1/jobs/nope"),
        "einvoice_not_found": client.get(f"/v1/jobs/{queued}/einvoice/pdf"),
        "method_not_allowed": client.put("/v1/jobs"),
        "idempotency_conflict": post(client, pdf + b"%other", headers={"Idempotency-Key": "k1"}),
        "file_too_large": post(client, b"%PDF-1.4\n" + b"0" * 200_000),
        "invalid_request": client.get("/v1/jobs", params={"limit": 0}),
        "invalid_options": post(client, pdf, data={"options": '{"model": "x"}'}),
        "invalid_schema": post(client, pdf, data={"schema": "/etc/passwd"}),
        "callback_refused": post(client, pdf, data={"callback_url": "http://169.254.169.254/latest"}),
        "unsupported_media_type": client.post("/v1/jobs", content=pdf, headers={"Content-Type": "application/pdf"}),
        "review_refused": client.post(  # a job not ended (and no register): nothing to teach
            f"/v1/jobs/{queued}/review", files={"file": ("a.pdf", pdf, "application/pdf")}, data={"data": "{}"}
        ),
    }
    documented = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    for code, response in provoked.items():
        body = response.json()
        assert response.headers["content-type"] == "application/problem+json", (code, response.text)
        assert body == {
            "type": TYPE_BASE + code,
            "title": PROBLEMS[code][1],
            "status": response.status_code,
            "detail": body["detail"],
            "code": code,
            **{k: body[k] for k in ("errors", "formats") if k in body},
        }, body
        assert response.status_code == PROBLEMS[code][0] and body["detail"]
    assert provoked["unauthorized"].headers["www-authenticate"] == "Bearer"
    assert provoked["invalid_request"].json()["errors"][0]["loc"] == ["query", "limit"]
    assert (
        provoked["einvoice_not_found"].json()["formats"] == []
        and "cii" in provoked["einvoice_not_found"].json()["detail"]
    )
    for code, (status, _) in PROBLEMS.items():  # every code in the docs' table, with its status
        assert f'| <a id="{code}"></a>`{code}` | {status} |' in documented, code


def conforms(response: httpx.Response, document: dict, *, path: str) -> dict:
    """The response's JSON, once it validates against the OpenAPI document's schema for its route, method, status
    and content type (every status a route answers must be declared)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    method = response.request.method.lower()
    declared = document["paths"][path][method]["responses"]
    assert str(response.status_code) in declared, (path, method, response.status_code, response.text)
    kind = response.headers["content-type"].split(";")[0]
    schema = declared[str(response.status_code)]["content"][kind]["schema"]
    registry = Registry().with_resource("urn:api", Resource.from_contents(document, default_specification=DRAFT202012))
    anchored = {"$ref": "urn:api#/" + schema["$ref"].removeprefix("#/")} if "$ref" in schema else schema
    Draft202012Validator(anchored, registry=registry).validate(response.json())
    return response.json()


def test_the_served_openapi_document_is_the_one_in_the_repository(app_client):
    served = app_client.get("/openapi.json").json()
    kept = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))
    assert served == kept, (
        "docs/openapi.json is not the served document: python -m extractor.service.app > docs/openapi.json"
    )
    from extractor.record import record_schema

    def loose(schema):  # the file leaves some arrays' items out; the component says items: {} (the same: any)
        if isinstance(schema, dict):
            return {k: loose(v) for k, v in schema.items() if not (k == "items" and v == {})}
        return [loose(v) for v in schema] if isinstance(schema, list) else schema

    own = {k: v for k, v in record_schema().items() if k not in ("$schema", "$id")}
    assert loose(served["components"]["schemas"]["Record"]) == loose(own)  # the record schema file, not a copy
    options = served["components"]["schemas"]["Options"]
    assert sorted(options["properties"]) == ["einvoice", "pages", "password", "split"]
    for path, methods in served["paths"].items():  # every error of every route is a Problem
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")):
                    assert list(answer["content"]) == ["application/problem+json"], (path, method, status)


def test_every_answer_conforms_to_the_contract(app_client):
    client, pdf = app_client, SAMPLE.read_bytes()
    document = client.get("/openapi.json").json()
    options = json.dumps({"pages": "1", "password": "pw", "einvoice": ["cii"]})
    response = post(client, pdf + b"%contract", data={"options": options, "callback_url": "http://127.0.0.1:9/h?t=1"})
    job = conforms(response, document, path="/v1/jobs")
    assert response.status_code == 202 and response.headers["retry-after"].isdigit()
    assert job["options"] == {"pages": "1", "einvoice": ["cii"]} and job["callback"]["url"] == "http://127.0.0.1:9/h"
    assert job["status"] == "queued" and job["queue_position"] >= 1 and job["created"].endswith("Z")
    assert conforms(client.get(f"/v1/jobs/{job['id']}"), document, path="/v1/jobs/{job_id}")["id"] == job["id"]
    listed = conforms(client.get("/v1/jobs", params={"limit": 1}), document, path="/v1/jobs")
    assert [j["id"] for j in listed["jobs"]] == [job["id"]] and listed["next"] is not None
    retry = client.post(f"/v1/jobs/{job['id']}/callback/retry")
    assert conforms(retry, document, path="/v1/jobs/{job_id}/callback/retry")["code"] == "callback_not_retryable"
    for response, path in (
        (client.get("/v1/jobs/nope"), "/v1/jobs/{job_id}"),
        (client.delete("/v1/jobs/nope"), "/v1/jobs/{job_id}"),
        (client.get(f"/v1/jobs/{job['id']}/einvoice/cii"), "/v1/jobs/{job_id}/einvoice/{fmt}"),
        (client.post("/v1/jobs", content=b"x", headers={"Content-Type": "text/plain"}), "/v1/jobs"),
        (post(client, pdf, data={"options": "[1]"}), "/v1/jobs"),
        (client.get("/v1/jobs", headers={"Authorization": ""}), "/v1/jobs"),
    ):
        assert conforms(response, document, path=path)["status"] == response.status_code
    deleted = client.delete(f"/v1/jobs/{job['id']}")
    assert conforms(deleted, document, path="/v1/jobs/{job_id}") == {"id": job["id"], "status": "cancelled"}
    assert conforms(client.get("/healthz"), document, path="/healthz") == {"status": "serving"}


def docs_examples() -> dict[str, str]:
    """docs/serve.md's complete programs, by the name each is marked with (``<!-- example: NAME -->``)."""
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- example: (\S+) -->\n```\w+\n(.*?)\n```", text, flags=re.S))


def test_the_docs_examples_run_as_written(server, tmp_path):
    """Each example of docs/serve.md, as printed, against the live server: the record's status and data on its last
    line; a wrong key is said (its problem's code) and exits non-zero."""
    examples = docs_examples()
    assert sorted(examples) == ["extract.mjs", "extract.py", "extract.sh", "webhook.mjs", "webhook.py"]
    runners = {".sh": ["bash"], ".py": [sys.executable], ".mjs": ["node"]}
    if shutil.which("node") is None:
        assert os.environ.get("CI") != "true", "node is required in CI (the JavaScript examples)"
        examples = {name: program for name, program in examples.items() if not name.endswith(".mjs")}
    env = {
        **os.environ,
        "EXTRACT_URL": server.url,
        "EXTRACT_API_KEY": KEYS["alice"],
        "EXTRACT_WEBHOOK_SECRET": WEBHOOK_SECRET,
    }
    for number, (name, program) in enumerate(examples.items()):
        (tmp_path / name).write_text(program, encoding="utf-8")
        document = tmp_path / f"invoice-{number}.pdf"  # bytes of its own: a new job, polled until it ends
        document.write_bytes(SAMPLE.read_bytes() + f"\n%example {name}".encode())
        command = [*runners[Path(name).suffix], name, document.name]
        ran = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S)
        assert ran.returncode == 0, (name, ran.stdout, ran.stderr)
        assert json.loads(ran.stdout.splitlines()[-1]) == {"status": "ok", "data": json.loads(ANSWER)}, name
        if not name.startswith("webhook"):
            refused = subprocess.run(
                command, cwd=tmp_path, env={**env, "EXTRACT_API_KEY": "wrong"}, capture_output=True, text=True
            )
            assert refused.returncode != 0 and "401: unauthorized" in refused.stderr, (name, refused.stderr)


def test_every_answer_has_a_request_id_and_one_access_log_line(app_client, caplog):
    with caplog.at_level("INFO", logger="extractor.service.access"):
        given = app_client.get("/v1/jobs/nope", headers={"X-Request-Id": "trace-7"})
        fresh = app_client.get("/healthz")
        forged = app_client.get("/healthz", headers={"X-Request-Id": "a b\nforged line"})
        refused = app_client.get("/v1/jobs", headers={"Authorization": "Bearer wrong-key"})
    assert given.headers["x-request-id"] == "trace-7" and len(fresh.headers["x-request-id"]) == 24
    assert forged.headers["x-request-id"] != "a b\nforged line" and refused.headers["x-request-id"]
    lines = [r.getMessage() for r in caplog.records if r.name == "extractor.service.access"]
    assert [line.split()[:4] for line in lines] == [
        ["GET", "/v1/jobs/{job_id}", "404", "tenant=alice"],
        ["GET", "/healthz", "200", "tenant=alice"],
        ["GET", "/healthz", "200", "tenant=alice"],
        ["GET", "-", "401", "tenant=-"],
    ]
    assert lines[0].endswith("request_id=trace-7") and "nope" not in lines[0]
    assert not any(key in "".join(lines) for key in KEYS.values())


def test_a_url_source_is_fetched_by_the_worker_and_a_failed_fetch_is_an_error_record(server, tmp_path):
    """``{"url": ...}`` on the live server (``--source-allow 127.0.0.1``): the document from a local HTTP server
    becomes the record an upload of it gives; a URL that answers 404 is a done job whose error record names the URL
    without its query."""
    from functools import partial
    from http.server import SimpleHTTPRequestHandler

    (tmp_path / "invoice.pdf").write_bytes(SAMPLE.read_bytes() + b"\n%from a url")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    origin = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{origin.server_address[1]}"
    try:
        with server.client() as client:
            fetched = client.post("/v1/jobs", json={"url": f"{base}/invoice.pdf?sig=secret", "options": {"pages": "1"}})
            missing = client.post("/v1/jobs", json={"url": f"{base}/gone.pdf?sig=secret"})
            assert fetched.status_code == missing.status_code == 202, fetched.text
            ok, failed = done(client, fetched.json()["id"]), done(client, missing.json()["id"])
    finally:
        origin.shutdown()
    assert (ok["status"], ok["url"], ok["filename"]) == ("done", f"{base}/invoice.pdf", "invoice.pdf")
    assert ok["record"]["status"] == "ok" and ok["record"]["data"] == json.loads(ANSWER)
    assert ok["record"]["source"] == "invoice.pdf" and ok["options"] == {"pages": "1"}
    error = failed["record"]["errors"][0]
    assert failed["status"] == "done" and failed["record"]["status"] == "error"
    assert failed["record"]["source"] == f"{base}/gone.pdf" and error["code"] == "unreachable"
    assert "HTTP 404" in error["message"] and "secret" not in json.dumps(failed)
    # the model, schema and stop set its extraction would have had, as any other record of the job
    same = ("model", "schema", "stop_token_ids")
    assert {k: failed["record"][k] for k in same} == {k: ok["record"][k] for k in same} and failed["record"]["model"]


def test_a_broken_body_and_a_bug_are_problems_too(tmp_path):
    """A multipart body that cannot be parsed is 400 ``bad_request``; an exception in a route (here a store that
    fails) is 500 ``internal_error``, its detail naming no more than the exception's type."""
    from fastapi.testclient import TestClient

    from extractor.service.app import create_app
    from extractor.service.config import ApiKeys, ServeSettings, open_store
    from extractor.service.worker import Engine
    from extractor.settings import Settings

    class Failing(type(open_store(f"sqlite:///{tmp_path / 'a.sqlite'}"))):  # the SQLite store, its listing broken
        def jobs(self, **kwargs):
            raise RuntimeError("secret detail")

    settings = Settings(schema="invoice")
    store = Failing(tmp_path / "b.sqlite")
    app = create_app(
        store=store, worker=None, engine=Engine(settings), keys=ApiKeys(), serve=ServeSettings(), settings=settings
    )
    with TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1") as client:
        bug = client.get("/v1/jobs")
        broken = client.post(
            "/v1/jobs", content=b"--b\r\nnot a part", headers={"Content-Type": "multipart/form-data; boundary=b"}
        )
    assert (bug.status_code, bug.json()["code"]) == (500, "internal_error") and "secret" not in bug.text
    assert (broken.status_code, broken.json()["code"]) == (400, "bad_request"), broken.text
    assert bug.headers["content-type"] == broken.headers["content-type"] == "application/problem+json"


def test_a_failed_webhook_is_sent_again_by_request(app_client):
    """``POST /v1/jobs/{id}/callback/retry``: 202 with the job, its webhook pending again (a fresh set of tries)."""
    document = app_client.get("/openapi.json").json()
    store = app_client.store
    job = post(app_client, SAMPLE.read_bytes() + b"%retry", data={"callback_url": "http://127.0.0.1:9/hook"}).json()
    claimed = store.claim(lease=60)
    while claimed is not None and claimed.id != job["id"]:  # the module's other queued jobs: ended without a record
        store.finish(claimed, error="not this test's")
        claimed = store.claim(lease=60)
    from extractor.trust.verdict import error_record

    record = error_record(source="x.pdf", code="corrupt", message="x.pdf: damaged").to_dict()  # a record as made
    assert claimed is not None and store.finish(claimed, records=[record])
    due = store.due_delivery(hold=60)
    while due is not None and due.id != job["id"]:  # another test's webhook, held meanwhile
        due = store.due_delivery(hold=60)
    assert due is not None
    store.delivered(
        due, attempt={"attempt": 1, "at": 0.0, "ok": False, "error": "refused"}, state="failed", retry_in=None
    )
    again = app_client.post(f"/v1/jobs/{job['id']}/callback/retry")
    view = conforms(again, document, path="/v1/jobs/{job_id}/callback/retry")
    assert again.status_code == 202 and view["callback"]["state"] == "pending"
    assert view["callback"]["deliveries"] == [
        {"attempt": 1, "at": "1970-01-01T00:00:00.000Z", "ok": False, "error": "refused"}
    ]
    assert app_client.post(f"/v1/jobs/{job['id']}/callback/retry").json()["code"] == "callback_not_retryable"


def test_a_schema_planted_under_the_shared_temp_folder_is_not_used(tmp_path, monkeypatch):
    """Another local user writes a schema file where a request's schema would have gone (the shared temp folder,
    the name a hash of the content): the worker writes and reads its own, in a folder only it may enter."""
    import hashlib
    import json
    import stat
    import tempfile

    from extractor.service import request_options

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the "shared" temp folder of this test
    request_options.schema_folder.cache_clear()
    schema = {"type": "object", "properties": {"total": {"type": "number"}}}
    text = json.dumps(schema, sort_keys=True, ensure_ascii=False).encode()
    name = f"{hashlib.sha256(text).hexdigest()[:32]}.schema.json"
    for planted in (tmp_path / "extract-serve-schemas", tmp_path / "extract-serve-schemas-"):
        planted.mkdir(mode=0o777)
        (planted / name).write_text('{"type": "object", "properties": {"iban": {"const": "attacker"}}}')
    try:
        path = request_options.inline_schema_path(schema)
        assert path.read_bytes() == text and path.name == name
        assert path.parent.parent == tmp_path and path.parent.name.startswith("extract-serve-schemas-")
        assert path.parent not in {tmp_path / "extract-serve-schemas", tmp_path / "extract-serve-schemas-"}
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        path.write_text('{"type": "object"}')  # changed under it: written again, never used as found
        assert request_options.inline_schema_path(schema).read_bytes() == text
    finally:
        request_options.schema_folder.cache_clear()
