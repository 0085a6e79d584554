"""Issue 19 end to end: ``extract --engine ray`` on a local Ray cluster against a real ``python -m mlx_vlm.server``.

One cluster and one server for the module. The cluster is started here (``ray.init`` in this process, token auth on
as Ray 2.60 does by default, the token in ``RAY_AUTH_TOKEN`` so nothing is written to ~/.ray); every Ray batch is a
second driver, a subprocess joining it with ``--address`` (so it can be killed). The model answers ``{"n":"x"}`` for a
one-field schema: short answers keep the module short. The local batch (``--engine local``) is the reference: the
Ray batches must give the same records.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, MlxServer, in_ci, make_pdf, text_pdf
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.errors import UsageError
from extractor.jobs.ray import LOCAL_STARTS, RAY_MISSING, RaySettings, actor_cpus, engine_for, extract_on_ray
from extractor.settings import Settings
from extractor.testing import ENDOFTEXT, IM_END

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "string", "maxLength": 8}},
    "required": ["n"],
    "additionalProperties": False,
}
ANSWER = '{"n":"x"}'
GOOD = 14  # text PDFs; with the sample, the scan and four bad files: 20 documents


def _ray():
    try:
        import ray
    except ImportError:
        if in_ci():
            pytest.fail('Ray is not installed: CI installs it with the dev extra (pip install -e ".[dev]")')
        pytest.skip('Ray is not installed (pip install "extractor-vlm[ray]")')
    return ray


@pytest.fixture(scope="module")
def setup(model_factory, tmp_path_factory):
    """The schema, the 20 documents, the server, the cluster (its address) and the local batch's records."""
    ray = _ray()
    root = tmp_path_factory.mktemp("ray")
    schema = root / "one.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    model = model_factory.scripted(answer=ANSWER, then="im_end", schema=schema, config_eos=(ENDOFTEXT, IM_END))
    server = None
    with pytest.MonkeyPatch.context() as env:  # restored after the module: nothing leaks into other modules
        # Ray 2.60 turns token auth on for a new local cluster (RAY_AUTH_MODE=token in this process: put back below)
        mode = os.environ.get("RAY_AUTH_MODE")
        env.setenv("RAY_AUTH_TOKEN", secrets.token_hex(16))  # the cluster's and every driver's token (not ~/.ray)
        try:
            start_cluster(ray)
            server = MlxServer(model.path, root / "server.log").wait_ready()  # after the cluster: not both at once
            base = ["--endpoint", server.url, "--model", str(model.path), "--schema", str(schema)]
            docs = documents(root / "docs")
            local = root / "local"
            result = CliRunner().invoke(
                app,
                dispatch_args(
                    [
                        *map(str, docs),
                        *base,
                        "--out",
                        str(local / "out"),
                        "--jsonl",
                        str(local / "all.jsonl"),
                        "--csv",
                        str(local / "all.csv"),
                    ]
                ),
            )
            assert result.exit_code == 1, result.output  # the bad files are error records
            yield {
                "root": root,
                "docs": docs,
                "base": base,
                "address": ray.get_runtime_context().gcs_address,
                "local": local,
                "server": server,
            }
        finally:
            if server is not None:
                server.stop()
            ray.shutdown()
            os.environ.pop("RAY_AUTH_MODE", None) if mode is None else os.environ.update(RAY_AUTH_MODE=mode)


def start_cluster(ray) -> None:
    """A local 2-CPU cluster, tried as often as the engine tries its own (its start can time out on busy cores)."""
    for attempt in range(1, LOCAL_STARTS + 1):
        try:
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                object_store_memory=128 * 1024**2,
                logging_level="WARNING",
                log_to_driver=False,
            )
            return
        except Exception:
            ray.shutdown()
            if attempt == LOCAL_STARTS:
                raise


def documents(folder: Path) -> list[Path]:
    """20 documents: good text PDFs, a bundled sample, a scan (OCR), corrupt, not a PDF, encrypted, empty."""
    folder.mkdir()
    files = {
        "a-corrupt.pdf": make_pdf(["Invoice c"])[:300],
        "a-notpdf.pdf": b"just some text, not a PDF\n",
        "a-encrypted.pdf": make_pdf(["Invoice e"], user_password="secret"),
        "a-empty.pdf": b"",
        "b-scan.pdf": text_pdf(["Invoice 77", "Total 12.50"], size=(300, 200), image_only=True),
    }
    files.update({f"doc{i:02d}.pdf": make_pdf([f"Invoice {i}"]) for i in range(GOOD)})
    paths = []
    for name, data in files.items():
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    shutil.copy(ROOT / "samples" / "invoice-de-einfach.pdf", folder / "c-sample.pdf")
    return paths[:5] + [folder / "c-sample.pdf"] + paths[5:]


def ray_batch(setup, name: str, docs=None, *, actors: int = 2, env=None, wait: bool = True):
    """``extract DOCS --engine ray --address CLUSTER`` as a second driver (a subprocess); its folder's paths."""
    folder = setup["root"] / name
    folder.mkdir(exist_ok=True)
    args = [
        sys.executable,
        "-m",
        "extractor.cli",
        *map(str, docs or setup["docs"]),
        *setup["base"],
        "--engine",
        "ray",
        "--address",
        setup["address"],
        "--actors",
        str(actors),
        "--out",
        str(folder / "out"),
        "--jsonl",
        str(folder / "all.jsonl"),
        "--csv",
        str(folder / "all.csv"),
    ]
    proc = subprocess.Popen(
        args, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    if wait:
        proc.stdout_text, proc.stderr_text = proc.communicate(timeout=300)
    return folder, proc


def essentials(line: dict) -> dict:
    """What two engines must agree on: everything but timings (the OCR's seconds too) and which server answered."""
    same = {k: v for k, v in line.items() if k not in ("timings", "server")}
    if same.get("ocr"):
        same["ocr"] = [page and {k: v for k, v in page.items() if k != "seconds"} for page in same["ocr"]]
    return same


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def wait_for(marker: Path, timeout: float = 120.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text().strip():
            return marker.read_text().strip()
        time.sleep(0.1)
    pytest.fail(f"{marker} never appeared")


def gone(pid: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"process {pid} still runs")


def test_killed_job_resumes_exactly_once_through_dying_actors_and_a_poison_input(setup):
    """Two jobs on one output folder (one job per case would start the actors four times).

    The first job's driver is killed while its one actor is on the 7th input. The re-run skips what was finished
    (error records of bad files included: they carry their sha256) while one actor dies by os._exit mid-task,
    another is killed with kill -9 and a poison input (a 21st file) kills its actor every time: the 20 records equal
    the local batch's (statuses and data), none twice, in input order in --jsonl and --csv; the poison input is one
    crashed record and the job finishes."""
    root, docs = setup["root"], setup["docs"]
    paused = root / "paused-first"
    folder, proc = ray_batch(
        setup, "resumed", actors=1, env={"EXTRACTOR_RAY_TEST_PAUSE": f"doc06.pdf:{paused}"}, wait=False
    )
    actor = int(wait_for(paused))
    proc.kill()
    proc.communicate(timeout=60)
    gone(actor)  # the job's actors die with their driver
    before = {p.name: p.read_bytes() for p in (folder / "out").glob("*.json")}
    assert 5 <= len(before) < 20 and {"a-notpdf.json", "a-corrupt.json"} <= set(before)  # error records: done

    poison = root / "docs" / "z-poison.pdf"
    shutil.copy(docs[7], poison)
    exited, killed = root / "exited", root / "paused-again"
    _, again = ray_batch(
        setup,
        "resumed",
        [*docs, poison],
        actors=2,
        wait=False,
        env={
            "EXTRACTOR_RAY_TEST_EXIT": f"doc09.pdf:{exited};{poison.name}",
            "EXTRACTOR_RAY_TEST_PAUSE": f"doc12.pdf:{killed}",
        },
    )
    os.kill(int(wait_for(killed)), signal.SIGKILL)
    _, err = again.communicate(timeout=300)
    assert again.returncode == 1, err  # the bad files
    assert exited.exists()
    assert f"({len(before)} skipped: already done)" in err and "21 document(s)" in err

    after = {p.name: p.read_bytes() for p in (folder / "out").glob("*.json")}
    assert sorted(after) == sorted([*(p.name for p in (setup["local"] / "out").iterdir()), "z-poison.json"])
    assert all(after[name] == data for name, data in before.items())  # finished ones are not redone
    lines = jsonl(folder / "all.jsonl")
    assert [r["source"] for r in lines] == [*map(str, docs), str(poison)]
    local = jsonl(setup["local"] / "all.jsonl")
    assert [essentials(r) for r in lines[:20]] == [essentials(r) for r in local]
    crashed = lines[20]["errors"][0]
    assert (lines[20]["status"], crashed["code"]) == ("error", "crashed") and "died 2 time(s)" in crashed["message"]
    assert (folder / "all.csv").read_text().splitlines()[:21] == (setup["local"] / "all.csv").read_text().splitlines()
    by_name = {Path(r["source"]).name: r for r in lines}
    assert {n: r["errors"][0]["code"] for n, r in by_name.items() if r["status"] == "error"} == {
        "a-corrupt.pdf": "corrupt",
        "a-notpdf.pdf": "not_a_pdf",
        "a-encrypted.pdf": "encrypted",
        "a-empty.pdf": "empty",
        "z-poison.pdf": "crashed",
    }
    for name in ("a-corrupt.pdf", "a-notpdf.pdf", "a-encrypted.pdf", "a-empty.pdf"):
        data = (docs[0].parent / name).read_bytes()
        assert by_name[name]["sha256"] == hashlib.sha256(data).hexdigest()
    assert by_name["b-scan.pdf"]["ocr"][0] is not None  # read by OCR in the actor, as locally


def test_python_api_on_the_callers_cluster(setup, tmp_path):
    """``extract_on_ray`` in a process that already called ray.init: it uses that cluster and leaves it running."""
    import ray

    url, model, schema = setup["base"][1], setup["base"][3], setup["base"][5]
    docs = [setup["docs"][1], setup["docs"][7]]  # not a PDF, a good one
    settings = Settings(endpoint=(url,), model=model, schema=schema, retries=1)
    result = extract_on_ray(docs, out=tmp_path / "out", settings=settings, options=RaySettings(actors=1))
    local = {r["source"]: essentials(r) for r in jsonl(setup["local"] / "all.jsonl")}
    assert [essentials(r.to_dict()) for r in result.records] == [local[str(d)] for d in docs]
    assert result.skipped == 0 and ray.is_initialized()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a-notpdf.json", "doc01.json"]


def test_a_received_einvoice_xml_on_ray(setup, tmp_path):
    """A bare e-invoice XML through a Ray actor: read exactly there (no model call), the record a local run gives."""
    url, model = setup["base"][1], setup["base"][3]
    xml = tmp_path / "peppol.xml"
    shutil.copy(ROOT / "tests" / "data" / "einvoice" / "peppol-base-example.xml", xml)
    settings = Settings(endpoint=(url,), model=model, schema="invoice", retries=1, embedded_rules=False)
    result = extract_on_ray([xml], out=tmp_path / "out", settings=settings, options=RaySettings(actors=1))
    (record,) = result.records
    assert (record.pages, record.extra["data_source"], record.data["invoice_number"]) == (0, "embedded_xml", "Snippet1")
    assert record.usage.generated_tokens == 0 and record.extra["attempts"] == []


BLOCK_RAY = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray' (blocked)")
sys.meta_path.insert(0, Blocker())
from extractor.cli.commands import main
main(sys.argv[1:])
"""


def test_without_ray_one_clear_error(tmp_path):
    (tmp_path / "a.pdf").write_bytes(make_pdf())
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            BLOCK_RAY,
            str(tmp_path / "a.pdf"),
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--out",
            str(tmp_path / "out"),
            "--engine",
            "ray",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.count("error:") == 1 and "Traceback" not in done.stderr, done.stderr
    assert RAY_MISSING in " ".join(done.stderr.split())  # names pip install "extractor-vlm[ray]"


@pytest.mark.parametrize(
    "name, settings, out, options, message",
    [
        ("ray", Settings(), Path("o"), RaySettings(), "needs --endpoint"),
        ("ray", Settings(endpoint="http://h:1/v1"), None, RaySettings(), "needs --out"),
        ("spark", Settings(), Path("o"), RaySettings(), "expected one of local, ray"),
        ("local", Settings(), None, RaySettings(address="auto"), "need --engine ray"),
    ],
)
def test_engine_usage_errors(name, settings, out, options, message):
    with pytest.raises(UsageError, match=message):
        engine_for(name, settings=settings, out=out, options=options)


@pytest.mark.parametrize(
    "cpus, actors, expected", [(2, 1, 0.5), (2, 2, 0.5), (2, 4, 0.25), (1, 2, 0.25), (64, 64, 0.5), (3, 8, 0.25)]
)
def test_actor_cpus_leave_one_cpu(cpus, actors, expected):
    assert actor_cpus(cpus, actors, most=0.5) == expected


class _Wrapped(Exception):
    """Like Ray's task errors: a long first line, the real error in ``cause``."""

    def __init__(self, cause):
        super().__init__("ray::MapWorker(MapBatches(ExtractStage)) (pid=1, ip=10.0.0.1)\n  more")
        self.cause = cause


@pytest.mark.parametrize(
    "error, reason",
    [
        (_Wrapped(UsageError("no server at http://gpu1:8000/v1")), "no server at http://gpu1:8000/v1"),
        (_Wrapped(_Wrapped(ValueError("deep\nsecond line"))), "deep"),
        (RuntimeError("plain"), "plain"),
    ],
)
def test_a_stopped_job_names_the_innermost_error(error, reason):
    from extractor.jobs.ray import _innermost

    assert _innermost(error) == reason


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--engine", "ray", "--out", "o"], "--engine ray needs --endpoint url"),
        (["--engine", "ray", "--endpoint", "http://127.0.0.1:9/v1"], "--engine ray needs --out dir"),
        (["--actors", "2"], "--address and --actors need --engine ray"),
    ],
)
def test_cli_usage_errors_before_anything_loads(args, needle, tmp_path):
    (tmp_path / "a.pdf").write_bytes(make_pdf())
    result = CliRunner().invoke(
        app, dispatch_args([str(tmp_path / "a.pdf"), "--model", "/nonexistent-model-dir", *args])
    )
    assert result.exit_code == 2
    assert needle in " ".join(result.output.lower().split())
