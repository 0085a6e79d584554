"""Folder-watch ingestion with the real watchdog, the real file system and a scripted tiny model.

The model answers ``{"n": "x"}`` for a one-field schema: the invoice schema's prompt and answer cost ~10 s per
document on the tiny model (3,700 prompt and 300 answer tokens), this one ~0.4 s, and the watcher does not care
what is extracted. Subprocess tests load the model in the child (a few seconds each).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fpdf import FPDF
from fpdf.enums import EncryptionMethod
from helpers import hook_command, jsonl_lines
from test_learning import SECOND, taught  # noqa: F401 - taught: a register that knows a supplier's layout
from typer.testing import CliRunner

from extractor import Extractor, Settings
from extractor.cli.commands import app, dispatch_args
from extractor.errors import ModelError, UsageError
from extractor.jobs.feeds import FeedSettings
from extractor.jobs.ledger import Ledger
from extractor.jobs.watch import WatchSettings, watch
from extractor.jobs.watch.inbox import WatchPaths, ignored_name, watch_lock
from extractor.jobs.watch.steps import TEST_PAUSE_ENV, result_name
from extractor.runners.base import Runner

ANSWER = '{"n":"x"}'
NOTE_SCHEMA = {"title": "note", "type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
HANG_GUARD_S = 150  # only stops a hung test; no test asserts on time


# ------------------------------------------------------------------------------------------------------- helpers


@functools.cache
def pdf(text: str, *, password: str = "") -> bytes:
    """A one-page PDF whose bytes depend only on ``text`` (fixed creation date; cached)."""
    doc = FPDF()
    doc.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    if password:
        doc.set_encryption(owner_password="owner", user_password=password, encryption_method=EncryptionMethod.RC4)
    doc.add_page()
    doc.set_font("helvetica", size=14)
    doc.cell(text=text)
    return bytes(doc.output())


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wait_for(predicate, *, what: str) -> None:
    """Poll until ``predicate()`` is true; fail (not hang) after HANG_GUARD_S."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def files_under(folder: Path) -> set[str]:
    """Relative names of the regular files and symlinks under a folder."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def inputs_left(inbox: Path) -> set[str]:
    """Files still in the inbox, outside processed/ and failed/, dotfiles excluded."""
    return {n for n in files_under(inbox) if not n.startswith(("processed/", "failed/", "."))}


def records_in(out: Path) -> dict[str, dict]:
    """The record files in OUT by name."""
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}


def ledger_entries(out: Path) -> dict[str, dict]:
    with Ledger(out / ".extractor" / "ledger.sqlite", create=False) as book:
        return {e.sha256: e.to_dict() for e in book.entries()}


def run_in_thread(target, stop: threading.Event) -> tuple[threading.Thread, list]:
    """Run ``target`` beside the watcher; set ``stop`` when it ends, however it ends (no hung watcher)."""
    errors: list = []

    def body():
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test thread
            errors.append(exc)
        finally:
            stop.set()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return thread, errors


@pytest.fixture(scope="module")
def note_schema(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "note.schema.json"
    path.write_text(json.dumps(NOTE_SCHEMA), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def model_dir(model_factory, note_schema) -> Path:
    return model_factory.scripted(answer=ANSWER, then="im_end", schema=note_schema).path


@pytest.fixture(scope="module")
def extractor(model_dir, note_schema) -> Extractor:
    with Extractor(Settings(model=str(model_dir), schema=str(note_schema))) as ex:
        yield ex


@pytest.fixture
def dirs(tmp_path) -> tuple[Path, Path]:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return inbox, tmp_path / "out"


def cli_args(inbox: Path, out: Path, model_dir: Path, schema: Path, *extra: str) -> list[str]:
    return [
        "watch",
        str(inbox),
        "--out",
        str(out),
        "--model",
        str(model_dir),
        "--schema",
        str(schema),
        "--no-isolate",
        "--settle",
        "0.1",
        *extra,
    ]


def start_cli(args: list[str], tmp_path: Path, tag: str, *, pause: str = "") -> subprocess.Popen:
    env = dict(os.environ, HF_HUB_OFFLINE="1", MLX_DISABLE_COMPILE="1")
    env.pop(TEST_PAUSE_ENV, None)
    if pause:
        env[TEST_PAUSE_ENV] = pause
    with open(tmp_path / f"{tag}.out", "wb") as stdout, open(tmp_path / f"{tag}.err", "wb") as stderr:
        return subprocess.Popen([sys.executable, "-m", "extractor.cli", *args], env=env, stdout=stdout, stderr=stderr)


def finish_cli(proc: subprocess.Popen, tmp_path: Path, tag: str) -> tuple[int, str, str]:
    rc = proc.wait(timeout=HANG_GUARD_S)
    return (
        rc,
        (tmp_path / f"{tag}.out").read_text(encoding="utf-8"),
        (tmp_path / f"{tag}.err").read_text(encoding="utf-8"),
    )


# ---------------------------------------------------------------------------------------------------- pure parts


@pytest.mark.parametrize(
    "name, ignored",
    [
        ("invoice.pdf", False),
        ("scan 01.PDF", False),
        ("-rf.pdf", False),
        ("Rechnung März.pdf", False),
        ("noextension", False),
        ("download.pdf.part", True),
        ("x.PARTIAL", True),
        ("report.pdf.crdownload", True),
        ("a.download", True),
        ("upload.tmp", True),
        ("~$invoice.docx", True),
        (".hidden.pdf", True),
        (".DS_Store", True),
        ("Thumbs.db", True),
        ("desktop.ini", True),
    ],
)
def test_ignored_names(name, ignored):
    assert ignored_name(name) is ignored


@pytest.mark.parametrize(
    "name, expected",
    [
        ("invoice.pdf", "invoice-0123456789ab.json"),
        ("2024/03/scan one.pdf", "scan one-0123456789ab.json"),
        ("-rf.pdf", "-rf-0123456789ab.json"),
        ("noextension", "noextension-0123456789ab.json"),
        ("line\nbreak.pdf", "line_break-0123456789ab.json"),
        ("ü" * 150 + ".pdf", "ü" * 100 + "-0123456789ab.json"),  # cut to 200 UTF-8 bytes
    ],
)
def test_result_names(name, expected):
    assert result_name(name, "0123456789ab" + "f" * 52) == expected


def test_paths_are_checked(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        WatchPaths.resolve(tmp_path / "missing", tmp_path / "out")
    with pytest.raises(UsageError, match="inbox itself"):
        WatchPaths.resolve(tmp_path, tmp_path)
    paths = WatchPaths.resolve(tmp_path, tmp_path / "out")
    assert (paths.ledger, paths.lock, paths.processed) == (
        tmp_path.resolve() / "out" / ".extractor" / "ledger.sqlite",
        tmp_path.resolve() / "out" / ".extractor" / "ledger.sqlite.lock",
        tmp_path.resolve() / "processed",
    )


@pytest.mark.parametrize("options", [{"settle": -1}, {"poll": 0}, {"error_retries": -1}, {"backoff": -0.5}])
def test_bad_settings_are_usage_errors(options):
    with pytest.raises(UsageError):
        WatchSettings(**options)


def test_the_watch_api_and_the_cli_import_without_mlx():
    """In a fresh interpreter (this one has loaded mlx long ago): importing the watcher, the CLI and the API
    loads neither mlx nor mlx_vlm; only loading a model does."""
    code = (
        "import sys; from extractor import WatchSummary, Extractor, Settings; from extractor.jobs.watch import watch; "
        "import extractor.cli.commands, extractor.tools.doctor, extractor.jobs.batch, extractor.pipeline.extract; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mlx', 'mlx_vlm', 'transformers')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


# --------------------------------------------------------------------------------------------------- acceptance


def test_fifty_files_dropped_at_once_are_extracted_once_per_content(dirs, extractor, tmp_path):
    inbox, out = dirs
    (inbox / "processed").mkdir()
    (inbox / "processed" / "old.pdf").write_bytes(pdf("already processed"))  # never scanned
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(pdf("outside the inbox"))
    (inbox / "link.pdf").symlink_to(outside)  # never followed
    special = [
        "Rechnung März №5 ü.pdf",
        "請求書.pdf",
        "emoji 🧾 receipt.pdf",
        "-rf.pdf",
        "--help.pdf",
        "L" * 200 + ".pdf",
        "2024/03/sub folder invoice.pdf",
        "scan0001",
        "SCAN.PDF",
        "a  b   c .pdf",
    ]
    names = special + [f"invoice {i:02d}.pdf" for i in range(50 - len(special))]
    contents = {name: pdf(f"Invoice {i % 15}") for i, name in enumerate(names)}
    ignored = {
        "big.pdf.part": b"%PDF-1.4 partial",
        "~$draft.pdf": b"lock",
        "report.crdownload": b"x",
        "upload.tmp": b"x",
    }
    records, stop = [], threading.Event()

    def drop():
        first = names[0]
        (inbox / first).write_bytes(contents[first])  # caught up on start
        wait_for(lambda: len(records) == 1, what="the first record")
        for name in names[1:]:  # the rest while the watcher runs: watchdog events
            (inbox / name).parent.mkdir(parents=True, exist_ok=True)
            (inbox / name).write_bytes(contents[name])
        for name, data in ignored.items():
            (inbox / name).write_bytes(data)
        wait_for(lambda: inputs_left(inbox) == set(ignored) | {"link.pdf"}, what="every input to be moved")

    thread, errors = run_in_thread(drop, stop)
    summary = watch(
        inbox, out, extractor=extractor, on_record=records.append, stop_event=stop, settings=WatchSettings(settle=0.3)
    )
    thread.join()
    assert not errors, errors

    distinct = {sha(data) for data in contents.values()}
    assert len(distinct) == 15
    assert summary.to_dict() == {
        "extracted": 15,
        "failed": 0,
        "duplicates": 35,
        "error_retries": 0,
        "abandoned": 0,
        "recovered": 0,
        "left": 0,
        "hook_failed": 0,
    }
    assert sorted(r.sha256 for r in records) == sorted(distinct)
    assert {r["sha256"]: r["status"] for r in records_in(out).values()} == dict.fromkeys(distinct, "ok")
    assert files_under(inbox / "processed") == set(names) | {"old.pdf"}
    assert files_under(inbox / "failed") == set()
    assert inputs_left(inbox) == set(ignored) | {"link.pdf"}
    entries = ledger_entries(out)
    assert {s: (e["state"], e["attempts"], sorted(e["sources"])) for s, e in entries.items()} == {
        s: ("done", 1, sorted(n for n in names if sha(contents[n]) == s)) for s in distinct
    }
    with Ledger(out / ".extractor" / "ledger.sqlite", create=False) as book:
        report = book.report()
    assert (report["counts"], report["documents"], report["sources"]) == (
        {"queued": 0, "running": 0, "done": 15, "failed": 0},
        15,
        50,
    )


def test_a_file_written_slowly_is_taken_only_when_complete(dirs, extractor):
    inbox, out = dirs
    slow, download = pdf("written slowly, in chunks " * 20), pdf("downloaded by a browser")
    records, stop = [], threading.Event()

    def write():
        wait_for(lambda: (out / ".extractor" / "ledger.sqlite").exists(), what="the watcher to start")
        with open(inbox / "slow.pdf", "wb") as handle:
            step = len(slow) // 8 + 1
            for start in range(0, len(slow), step):
                handle.write(slow[start : start + step])
                handle.flush()
                time.sleep(0.1)  # well inside the 1.5 s settle interval
        partial = inbox / "fast.pdf.crdownload"
        partial.write_bytes(download)
        time.sleep(0.5)
        partial.rename(inbox / "fast.pdf")
        wait_for(lambda: not inputs_left(inbox), what="both files to be moved")

    thread, errors = run_in_thread(write, stop)
    watch(
        inbox, out, extractor=extractor, on_record=records.append, stop_event=stop, settings=WatchSettings(settle=1.5)
    )
    thread.join()
    assert not errors, errors
    assert sorted((r.sha256, r.status) for r in records) == sorted([(sha(slow), "ok"), (sha(download), "ok")])
    assert {s: (e["state"], e["attempts"], e["sources"]) for s, e in ledger_entries(out).items()} == {
        sha(slow): ("done", 1, ["slow.pdf"]),
        sha(download): ("done", 1, ["fast.pdf"]),
    }
    assert files_under(inbox / "processed") == {"slow.pdf", "fast.pdf"}


def test_kill_9_at_three_steps_then_restart_loses_and_duplicates_nothing(dirs, tmp_path, model_dir, note_schema):
    inbox, out = dirs
    contents = {"a.pdf": pdf("first"), "b.pdf": pdf("second"), "c copy.pdf": pdf("first")}
    for name, data in contents.items():
        (inbox / name).write_bytes(data)
    first, second = sha(contents["a.pdf"]), sha(contents["b.pdf"])
    record_a = out / result_name("a.pdf", first)

    def state():
        entry = ledger_entries(out)[first]
        return entry["state"], entry["attempts"], record_a.exists(), (inbox / "a.pdf").exists()

    # each run re-queues what the previous kill left, takes a.pdf first and is killed at the next step
    observed = []
    for _run, step in enumerate(["claimed", "written", "committed"]):
        marker = tmp_path / f"paused-{step}"
        proc = start_cli(cli_args(inbox, out, model_dir, note_schema), tmp_path, step, pause=f"{step}:{marker}")
        try:
            wait_for(
                lambda marker=marker, proc=proc: marker.exists() or proc.poll() is not None,
                what=f"the watcher to pause at {step}",
            )
            assert marker.exists(), (tmp_path / f"{step}.err").read_text()
        finally:
            proc.kill()  # SIGKILL
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        observed.append((step, *state()))
    assert observed == [
        ("claimed", "running", 1, False, True),  # (state, attempts, record?, input in inbox?)
        ("written", "running", 2, True, True),
        ("committed", "done", 3, True, True),
    ]

    # the last watcher runs to the end: in this process (a fourth subprocess would load the model once more)
    final = CliRunner().invoke(app, dispatch_args(cli_args(inbox, out, model_dir, note_schema, "--once", "--json")))
    assert final.exit_code == 0, final.output
    assert json.loads(final.stdout) == {
        "extracted": 1,
        "failed": 0,
        "duplicates": 2,
        "error_retries": 0,
        "abandoned": 0,
        "recovered": 0,
        "left": 0,
        "hook_failed": 0,
    }
    records = records_in(out)
    assert sorted(records) == sorted([record_a.name, result_name("b.pdf", second)])
    assert sorted(r["sha256"] for r in records.values()) == sorted([first, second])
    assert [p.name for p in out.iterdir() if p.name != ".extractor"] == [p.name for p in out.glob("*.json")]
    assert files_under(inbox / "processed") == set(contents)
    assert inputs_left(inbox) == set()
    assert {s: (e["state"], e["attempts"], sorted(e["sources"])) for s, e in ledger_entries(out).items()} == {
        first: ("done", 3, ["a.pdf", "c copy.pdf"]),
        second: ("done", 1, ["b.pdf"]),
    }


def test_corrupt_and_encrypted_pdfs_fail_with_a_reason_and_the_watcher_goes_on(dirs, extractor):
    inbox, out = dirs
    contents = {
        "a corrupt.pdf": b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref, no trailer\n",
        "b encrypted.pdf": pdf("secret", password="letmein"),
        "c good.pdf": pdf("good"),
    }
    for name, data in contents.items():
        (inbox / name).write_bytes(data)
    records = []
    summary = watch(
        inbox, out, extractor=extractor, on_record=records.append, settings=WatchSettings(once=True, settle=0.1)
    )
    assert summary.to_dict() == {
        "extracted": 1,
        "failed": 2,
        "duplicates": 0,
        "error_retries": 0,
        "abandoned": 0,
        "recovered": 0,
        "left": 0,
        "hook_failed": 0,
    }
    assert [(Path(r.source).name, r.status, [e["code"] for e in r.errors]) for r in records] == [
        ("a corrupt.pdf", "error", ["corrupt"]),
        ("b encrypted.pdf", "error", ["encrypted"]),
        ("c good.pdf", "ok", []),
    ]
    saved = {r["sha256"]: r for r in records_in(out).values()}
    for name, code in (("a corrupt.pdf", "corrupt"), ("b encrypted.pdf", "encrypted")):
        record = saved[sha(contents[name])]
        assert (record["status"], record["errors"][0]["code"]) == ("error", code)
        assert name in record["errors"][0]["message"]
    assert files_under(inbox / "failed") == {"a corrupt.pdf", "b encrypted.pdf"}
    assert files_under(inbox / "processed") == {"c good.pdf"}
    assert {e["sources"][0]: (e["state"], e["attempts"], e["error_code"]) for e in ledger_entries(out).values()} == {
        "a corrupt.pdf": ("failed", 1, "corrupt"),
        "b encrypted.pdf": ("failed", 1, "encrypted"),
        "c good.pdf": ("done", 1, None),
    }


def test_sigterm_abandons_within_the_bound_and_a_second_watcher_refuses(dirs, tmp_path, model_dir, note_schema):
    inbox, out = dirs
    data = pdf("slow model")
    (inbox / "doc.pdf").write_bytes(data)
    marker = tmp_path / "paused"
    args = cli_args(inbox, out, model_dir, note_schema, "--stop-timeout", "0.5", "--json")
    args.remove("--no-isolate")  # the CLI default: render workers must not delay the stop either
    proc = start_cli(args, tmp_path, "first", pause=f"extracting:{marker}")  # hangs "in the model"
    try:
        wait_for(lambda: marker.exists() or proc.poll() is not None, what="the watcher to start a document")
        assert marker.exists(), (tmp_path / "first.err").read_text()
        other_out = tmp_path / "other-out"  # another ledger, same inbox: the inbox lock refuses it
        for target in (out, other_out):
            second = subprocess.run(
                [sys.executable, "-m", "extractor.cli", *cli_args(inbox, target, model_dir, note_schema, "--once")],
                capture_output=True,
                text=True,
                timeout=HANG_GUARD_S,
            )
            assert second.returncode == 1
            message = " ".join(second.stderr.split())  # rich wraps long lines
            assert "another extract watch or mail" in message and "is already using the" in message
        proc.send_signal(signal.SIGTERM)
        rc, stdout, stderr = finish_cli(proc, tmp_path, "first")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == 0, stderr
    assert json.loads(stdout) == {
        "extracted": 0,
        "failed": 0,
        "duplicates": 0,
        "error_retries": 0,
        "abandoned": 1,
        "recovered": 0,
        "left": 1,
        "hook_failed": 0,
    }
    assert {s: (e["state"], e["attempts"]) for s, e in ledger_entries(out).items()} == {sha(data): ("queued", 0)}
    assert inputs_left(inbox) == {"doc.pdf"}
    assert records_in(out) == {}


def test_once_and_status_json_through_the_cli(dirs, model_dir, note_schema):
    inbox, out = dirs
    contents = {"bad.pdf": b"%PDF-1.4\nnot really a pdf\n", "good.pdf": pdf("good"), "good copy.pdf": pdf("good")}
    for name, data in contents.items():
        (inbox / name).write_bytes(data)
    runner = CliRunner()
    result = runner.invoke(app, dispatch_args(cli_args(inbox, out, model_dir, note_schema, "--once", "--json")))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "extracted": 1,
        "failed": 1,
        "duplicates": 1,
        "error_retries": 0,
        "abandoned": 0,
        "recovered": 0,
        "left": 0,
        "hook_failed": 0,
    }

    result = runner.invoke(app, dispatch_args(["status", "--out", str(out), "--json"]))
    assert result.exit_code == 0, result.output
    ledger = out / ".extractor" / "ledger.sqlite"
    bad = ledger_entries(out)[sha(contents["bad.pdf"])]
    assert json.loads(result.stdout) == {
        "ledger": str(ledger),
        "counts": {"queued": 0, "running": 0, "done": 1, "failed": 1},
        "documents": 2,
        "sources": 3,
        "failures": [
            {
                "sha256": sha(contents["bad.pdf"]),
                "state": "failed",
                "attempts": 1,
                "result_path": str(out.resolve() / result_name("bad.pdf", sha(contents["bad.pdf"]))),
                "status": "error",
                "error_code": "corrupt",
                "error": bad["error"],
                "next_attempt_at": None,
                "created_at": bad["created_at"],
                "updated_at": bad["updated_at"],
                "sources": ["bad.pdf"],
            }
        ],
    }
    assert "bad.pdf" in bad["error"]
    result = runner.invoke(app, dispatch_args(["status", "--ledger", str(ledger.parent / "missing.sqlite")]))
    assert result.exit_code == 2 and "no ledger at" in " ".join(result.output.split())


# ------------------------------------------------------------------------------------------------ more behaviour


class FlakyRunner(Runner):
    """The real tiny model behind a runner whose first ``failures`` generations raise ModelError."""

    def __init__(self, runner, *, failures: int) -> None:
        self.runner, self.failures = runner, failures
        self.model_id, self.stop_set, self.pixels_per_token = runner.model_id, runner.stop_set, runner.pixels_per_token
        self.tokenizer = runner.tokenizer

    def generate(self, request):
        if self.failures:
            self.failures -= 1
            raise ModelError("the accelerator fell over", code="model_error")
        return self.runner.generate(request)


@pytest.mark.parametrize(
    "failures, retries, expected",
    [
        (1, 2, {"state": "done", "attempts": 2, "error_code": None, "where": "processed"}),
        (5, 1, {"state": "failed", "attempts": 2, "error_code": "model_error", "where": "failed"}),
    ],
)
def test_retryable_failures_are_retried_with_backoff(dirs, extractor, failures, retries, expected):
    inbox, out = dirs
    data = pdf("flaky")
    (inbox / "flaky.pdf").write_bytes(data)
    flaky = Extractor(settings=extractor.settings, runner=FlakyRunner(extractor.runner, failures=failures))
    summary = watch(
        inbox, out, extractor=flaky, settings=WatchSettings(once=True, settle=0.1, error_retries=retries, backoff=0.05)
    )
    assert (summary.error_retries, summary.extracted, summary.failed) == (
        1,
        int(expected["state"] == "done"),
        int(expected["state"] == "failed"),
    )
    entry = ledger_entries(out)[sha(data)]
    where = "processed" if (inbox / "processed" / "flaky.pdf").exists() else "failed"
    assert {
        "state": entry["state"],
        "attempts": entry["attempts"],
        "error_code": entry["error_code"],
        "where": where,
    } == expected


def test_keep_inputs_relies_on_the_ledger(dirs, extractor):
    inbox, out = dirs
    data = pdf("kept")
    (inbox / "kept.pdf").write_bytes(data)
    runs = [
        watch(
            inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1, keep_inputs=True)
        ).to_dict()
    ]
    runs.append(
        watch(
            inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1, keep_inputs=True)
        ).to_dict()
    )
    (inbox / "kept again.pdf").write_bytes(data)
    runs.append(
        watch(
            inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1, keep_inputs=True)
        ).to_dict()
    )
    assert [(r["extracted"], r["duplicates"]) for r in runs] == [(1, 0), (0, 0), (0, 1)]
    assert inputs_left(inbox) == {"kept.pdf", "kept again.pdf"}
    assert not (inbox / "processed").exists()
    assert ledger_entries(out)[sha(data)]["sources"] == ["kept.pdf", "kept again.pdf"]


def test_same_name_different_content_keeps_both_records(dirs, extractor):
    inbox, out = dirs
    first, second = pdf("January"), pdf("February")
    (inbox / "scan.pdf").write_bytes(first)
    watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1))
    (inbox / "scan.pdf").write_bytes(second)
    watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1))
    assert sorted(records_in(out)) == sorted(
        [result_name("scan.pdf", sha(first)), result_name("scan.pdf", sha(second))]
    )
    assert files_under(inbox / "processed") == {"scan.pdf", f"scan-{sha(second)[:12]}.pdf"}


def test_a_held_lock_refuses_a_second_watcher(dirs, extractor):
    inbox, out = dirs
    with watch_lock(WatchPaths.resolve(inbox, out)):
        with pytest.raises(UsageError, match="already using the ledger") as caught:
            watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True))
    assert caught.value.code == "locked"
    assert (
        watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1)).extracted == 0
    )  # free again


def test_poll_mode_finds_files_that_arrive_later(dirs, extractor):
    inbox, out = dirs
    records, stop = [], threading.Event()

    def drop():
        wait_for(lambda: (out / ".extractor" / "ledger.sqlite").exists(), what="the watcher to start")
        (inbox / "late.pdf").write_bytes(pdf("late"))
        wait_for(lambda: (inbox / "processed" / "late.pdf").exists(), what="the file to be moved")

    thread, errors = run_in_thread(drop, stop)
    summary = watch(
        inbox,
        out,
        extractor=extractor,
        on_record=records.append,
        stop_event=stop,
        settings=WatchSettings(settle=0.1, poll=0.2),
    )
    thread.join()
    assert not errors, errors
    assert (summary.extracted, [r.sha256 for r in records]) == (1, [sha(pdf("late"))])


def test_a_restart_removes_the_temporary_file_a_kill_left_behind(dirs, extractor):
    inbox, out = dirs
    data = pdf("interrupted write")
    (inbox / "w.pdf").write_bytes(data)
    result = out / result_name("w.pdf", sha(data))
    out.mkdir()
    with Ledger(out / ".extractor" / "ledger.sqlite") as book:  # as a kill inside step 4 leaves it
        book.see(sha(data), name="w.pdf")
        book.claim(sha(data), result_path=str(result))
    (out / f".{result.name}.abc123.tmp").write_bytes(b'{"half": ')
    summary = watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.1))
    assert (summary.recovered, summary.extracted) == (1, 1)
    assert sorted(p.name for p in out.iterdir()) == [".extractor", result.name]


# ------------------------------------------------------------------------ the watcher does what a batch does


def _attempts(record: dict) -> list:
    return [(a["number"], a["reason"], a["status"]) for a in record["attempts"]]


def test_an_invalid_answer_is_asked_again_as_extract_does(dirs, model_dir, tmp_path):
    """The first answer is forced to break the schema (its "not" keyword, which the grammar cannot express); the
    re-ask with the errors as feedback is the model's own: ok with two attempts, in the watcher as in extract."""
    from helpers import forcing, token_ids

    schema = tmp_path / "strict-note.json"
    schema.write_text(json.dumps({**NOTE_SCHEMA, "properties": {"n": {"type": "string", "not": {"const": "bad"}}}}))
    tiny = type("Tiny", (), {"path": model_dir})
    forced = token_ids(tiny, '{"n":"bad"}')

    def processors(attempt):
        return (forcing(forced, (248046,)),) if attempt == 1 else ()

    inbox, out = dirs
    (inbox / "note.pdf").write_bytes(pdf("note"))
    settings = Settings(model=str(model_dir), schema=str(schema), retries=1, extra_processors=processors)
    with Extractor(settings) as ex:
        direct = ex.extract(str(inbox / "note.pdf")).to_dict()
        summary = watch(inbox, out, extractor=ex, settings=WatchSettings(once=True, settle=0.1))
    assert (summary.extracted, summary.failed) == (1, 0)
    (watched,) = records_in(out).values()
    assert _attempts(direct) == _attempts(watched) == [(1, None, "invalid"), (2, "invalid", "ok")]
    assert (watched["status"], watched["data"]) == (direct["status"], direct["data"]) == ("ok", {"n": "x"})


def test_watch_cli_honours_answer_retries_embedded_and_cross_check(dirs, model_factory, note_schema, tmp_path):
    """The watch command builds its Settings as the batch does: --retries re-asks a truncated answer (the bug:
    it used to be ignored), --embedded / --no-embedded and --cross-check reach the pipeline."""
    from helpers import einvoice_pdf

    tiny = model_factory.scripted(answer='{"n":"read by the folder watcher"}', then="im_end", schema=note_schema)
    model_dir, first = tiny.path, -(-(len(tiny.answer_token_ids) + 1) // 2)  # one doubling fits the answer
    assert first < len(tiny.answer_token_ids)
    inbox, out = dirs
    (inbox / "note.pdf").write_bytes(pdf("note"))
    runner = CliRunner()
    for retries, expected in (("1", [(1, None, "truncated"), (2, "truncated", "ok")]), ("0", [(1, None, "truncated")])):
        target = tmp_path / f"out-retries-{retries}"
        args = cli_args(
            inbox,
            target,
            model_dir,
            note_schema,
            "--once",
            "--keep-inputs",
            "--max-tokens",
            str(first),
            "--retries",
            retries,
        )
        assert runner.invoke(app, dispatch_args(args)).exit_code == 0
        (watched,) = records_in(target).values()
        batch = runner.invoke(
            app,
            dispatch_args(
                [
                    "--json",
                    str(inbox / "note.pdf"),
                    "--model",
                    str(model_dir),
                    "--schema",
                    str(note_schema),
                    "--no-isolate",
                    "--max-tokens",
                    str(first),
                    "--retries",
                    retries,
                ]
            ),
        )
        (extracted,) = json.loads(batch.stdout)
        assert _attempts(watched) == _attempts(extracted) == expected

    einvoice_pdf(inbox / "einvoice.pdf")
    for flags, source, cross in (
        ((), "embedded_xml", False),
        (("--no-embedded",), "model", False),
        (("--cross-check",), "embedded_xml", True),
    ):
        target = tmp_path / f"out-{'-'.join(flags) or 'default'}"
        args = [
            "watch",
            str(inbox),
            "--out",
            str(target),
            "--model",
            str(model_dir),
            "--schema",
            "invoice",
            "--no-isolate",
            "--settle",
            "0.1",
            "--once",
            "--keep-inputs",
            "--max-tokens",
            "4",
            *flags,
        ]
        assert runner.invoke(app, dispatch_args(args)).exit_code == 0
        record = next(r for r in records_in(target).values() if r["source"].endswith("einvoice.pdf"))
        assert (record["data_source"], "cross_check" in record) == (source, cross)


# -------------------------------------------------------------------------------------------- the invoice register


def _register_rows(path: Path) -> list[tuple]:
    from extractor.register import Register

    with Register.open(path) as register:
        return [(Path(i["source"]).name, i["findings"]) for i in register.invoices()]


def test_the_register_is_kept_in_the_state_folder_and_a_kill_9_neither_loses_nor_doubles(dirs, tmp_path, model_dir):
    """extract watch keeps an invoice register beside its ledger by default: the reminder of an invoice (the same
    number, other bytes) is its duplicate; a watcher killed after a document was registered and its record written,
    then restarted, registers each document once."""
    from helpers import CII_PRINTED, einvoice_pdf

    inbox, out = dirs
    einvoice_pdf(inbox / "invoice.pdf")
    einvoice_pdf(inbox / "reminder.pdf", lines=[*CII_PRINTED, "Zahlungserinnerung"])
    os.utime(inbox / "invoice.pdf", (time.time() - 60, time.time() - 60))  # the invoice first (oldest first)
    args = [*cli_args(inbox, out, model_dir, Path("invoice")), "--max-tokens", "4", "--no-embedded-rules"]
    marker = tmp_path / "paused-written"
    proc = start_cli(args, tmp_path, "register", pause=f"written:{marker}")
    try:
        wait_for(lambda: marker.exists() or proc.poll() is not None, what="the watcher to pause after a record")
        assert marker.exists(), (tmp_path / "register.err").read_text()
    finally:
        proc.kill()
        proc.wait()
    register = out / ".extractor" / "register.sqlite"
    assert _register_rows(register) == [("invoice.pdf", ["bank_account_not_trusted", "new_supplier"])]

    final = CliRunner().invoke(app, dispatch_args([*args, "--once", "--json"]))
    assert final.exit_code == 0, final.output
    assert json.loads(final.stdout)["extracted"] == 2
    assert _register_rows(register) == [
        ("invoice.pdf", ["bank_account_not_trusted", "new_supplier"]),
        ("reminder.pdf", ["duplicate_invoice"]),
    ]
    records = {Path(r["source"]).name: r for r in records_in(out).values()}
    assert records["invoice.pdf"]["status"] == "ok" and records["reminder.pdf"]["status"] == "review"
    (finding,) = [f for f in records["reminder.pdf"]["register"]["findings"] if f["severity"] == "warning"]
    assert (finding["code"], finding["original"]["record"]) == ("duplicate_invoice", str(inbox / "invoice.pdf"))


def test_a_kill_9_between_the_register_and_the_record_leaves_one_entry_and_no_self_duplicate(dirs, tmp_path, model_dir):
    """The register is written inside the extraction, the record after it: a watcher killed between the two has
    registered a document whose record does not exist; the restart extracts it again, finds its own entry (the
    same sha256 and settings) and writes the record it would have written, not a duplicate of itself."""
    from helpers import einvoice_pdf

    inbox, out = dirs
    einvoice_pdf(inbox / "invoice.pdf")
    args = [*cli_args(inbox, out, model_dir, Path("invoice")), "--max-tokens", "4", "--no-embedded-rules"]
    marker = tmp_path / "paused-extracted"
    proc = start_cli(args, tmp_path, "extracted", pause=f"extracted:{marker}")
    try:
        wait_for(lambda: marker.exists() or proc.poll() is not None, what="the watcher to pause after the extraction")
        assert marker.exists(), (tmp_path / "extracted.err").read_text()
    finally:
        proc.kill()
        proc.wait()
    register = out / ".extractor" / "register.sqlite"
    assert _register_rows(register) == [("invoice.pdf", ["bank_account_not_trusted", "new_supplier"])]
    assert records_in(out) == {}  # registered, its record not written

    final = CliRunner().invoke(app, dispatch_args([*args, "--once", "--json"]))
    assert final.exit_code == 0, final.output
    assert json.loads(final.stdout)["extracted"] == 1
    assert _register_rows(register) == [("invoice.pdf", ["bank_account_not_trusted", "new_supplier"])]
    (record,) = records_in(out).values()
    assert record["status"] == "ok"
    assert [f["code"] for f in record["register"]["findings"]] == ["bank_account_not_trusted", "new_supplier"]


def test_the_register_may_live_elsewhere_or_nowhere(dirs, tmp_path, model_dir):
    from helpers import einvoice_pdf

    inbox, out = dirs
    einvoice_pdf(inbox / "invoice.pdf")
    runner = CliRunner()
    elsewhere = tmp_path / "shared.sqlite"
    for extra, target, register in (
        (("--register", str(elsewhere)), tmp_path / "out-elsewhere", elsewhere),
        (("--no-register",), tmp_path / "out-none", None),
    ):
        args = cli_args(inbox, target, model_dir, Path("invoice"), "--once", "--keep-inputs", "--max-tokens", "4")
        assert runner.invoke(app, dispatch_args([*args, "--no-embedded-rules", *extra])).exit_code == 0
        (record,) = records_in(target).values()
        assert not (target / ".extractor" / "register.sqlite").exists()
        if register is None:
            assert "register" not in record
        else:
            assert record["register"]["register"] == str(register)
            assert [name for name, _ in _register_rows(register)] == ["invoice.pdf"]
    both = cli_args(inbox, out, model_dir, Path("invoice"), "--register", "x", "--no-register")
    both = runner.invoke(app, dispatch_args(both))
    assert both.exit_code == 2 and "--no-register" in both.output


# -------------------------------------------------------------------------- --jsonl and --hook (extractor.jobs.feeds)


def test_kill_9_after_the_jsonl_append_then_restart_appends_each_record_once(dirs, tmp_path, model_dir, note_schema):
    inbox, out = dirs
    contents = {"a.pdf": pdf("first"), "b.pdf": pdf("second")}
    for name, data in contents.items():
        (inbox / name).write_bytes(data)
    log, calls = tmp_path / "feed" / "records.jsonl", tmp_path / "calls.jsonl"
    feeds = ("--jsonl", str(log), "--hook", hook_command(tmp_path, calls))
    marker = tmp_path / "paused-fed"
    # killed after its first document's line is appended and its hook has run, before the ledger commits it
    proc = start_cli(cli_args(inbox, out, model_dir, note_schema, *feeds), tmp_path, "fed", pause=f"fed:{marker}")
    try:
        wait_for(lambda: marker.exists() or proc.poll() is not None, what="the watcher to pause after feeding")
        assert marker.exists(), (tmp_path / "fed.err").read_text()
    finally:
        proc.kill()  # SIGKILL
        proc.wait()
    [fed] = jsonl_lines(log)
    assert [c["stdin"]["sha256"] for c in jsonl_lines(calls)] == [fed["sha256"]]
    assert ledger_entries(out)[fed["sha256"]]["state"] == "running"

    final = CliRunner().invoke(
        app, dispatch_args(cli_args(inbox, out, model_dir, note_schema, *feeds, "--once", "--json"))
    )
    assert final.exit_code == 0, final.output
    assert json.loads(final.stdout)["extracted"] == 2 and json.loads(final.stdout)["hook_failed"] == 0
    lines, records = jsonl_lines(log), records_in(out)
    assert sorted(line["sha256"] for line in lines) == sorted(sha(d) for d in contents.values())  # once each
    assert lines[0] == fed  # the line before the kill is the one kept
    by_sha = {r["sha256"]: (name, r) for name, r in records.items()}
    # each line is its record file's content; the redone document's file was written again (what it measured:
    # timings, usage, the process's peak memory, may differ)
    assert lines[1] == by_sha[lines[1]["sha256"]][1]
    redone = {"timings": None, "usage": None, "peak_memory_gb": None}
    assert {**lines[0], **redone} == {**by_sha[lines[0]["sha256"]][1], **redone}
    # the hook: at least once, the same key every time for a document (the redone one ran twice)
    runs = jsonl_lines(calls)
    assert sorted(c["stdin"]["sha256"] for c in runs) == sorted([fed["sha256"], *(sha(d) for d in contents.values())])
    for run in runs:
        name, record = by_sha[run["stdin"]["sha256"]]
        assert run["env"] == {
            "EXTRACT_RECORD": str(out.resolve() / name),
            "EXTRACT_STATUS": "ok",
            "EXTRACT_SOURCE": record["source"],
            "EXTRACT_SHA256": record["sha256"],
            "EXTRACT_RECORD_KEY": record["sha256"],
        }


@pytest.mark.parametrize(
    "then, why",
    [("sys.stderr.write('refused\\n'); sys.exit(4)", "exit code 4; stderr: refused"), ("time.sleep(60)", "timed out")],
)
def test_a_failing_hook_is_logged_and_counted_and_the_watcher_goes_on(dirs, extractor, tmp_path, caplog, then, why):
    inbox, out = dirs
    for name in ("a.pdf", "b.pdf"):
        (inbox / name).write_bytes(pdf(name))
    log, calls = tmp_path / "records.jsonl", tmp_path / "calls.jsonl"
    feeds = FeedSettings(jsonl=log, hook=hook_command(tmp_path, calls, then=then), hook_timeout=1)
    with caplog.at_level(logging.WARNING, logger="extractor.jobs.watch"):
        summary = watch(inbox, out, extractor=extractor, settings=WatchSettings(settle=0.1, once=True, feeds=feeds))
    assert (summary.extracted, summary.hook_failed, summary.left) == (2, 2, 0)
    assert len(records_in(out)) == 2 and len(jsonl_lines(log)) == 2 and len(jsonl_lines(calls)) == 2
    warnings = [r.getMessage() for r in caplog.records if r.getMessage().startswith("hook ")]
    assert len(warnings) == 2
    for name, message in zip(sorted(records_in(out)), sorted(warnings), strict=True):
        assert str(out.resolve() / name) in message and why in message


def test_a_hook_command_that_does_not_exist_is_refused_before_the_model_loads(dirs, tmp_path, note_schema):
    inbox, out = dirs
    args = cli_args(inbox, out, tmp_path / "no model here", note_schema, "--hook", "no-such-hook-cmd --x", "--once")
    result = CliRunner().invoke(app, dispatch_args(args))
    assert result.exit_code == 2, result.output
    assert "--hook no-such-hook-cmd: command not found on PATH" in result.output


# ----------------------------------------------------------------------------------------------- learned layouts


def test_a_taught_supplier_is_read_by_layout_by_default_and_learn_off_asks_the_model(
    dirs,
    model_dir,
    taught,  # noqa: F811 - the fixture imported above
):
    """--learn on extract watch as on extract: with a register, read by default (the supplier ``taught`` taught is
    read by its layout: no model, the record's layout key); --learn off: the model reads it as before."""
    inbox, out = dirs
    records = {}
    for mode, learn in (("read", ()), ("off", ("--learn", "off"))):
        (inbox / f"{mode}.pdf").write_bytes(taught["second"].read_bytes())
        args = [*cli_args(inbox, out / mode, model_dir, Path("invoice")), "--max-tokens", "4", "--no-embedded-rules"]
        result = CliRunner().invoke(app, dispatch_args([*args, "--register", taught["register"], *learn, "--once"]))
        assert result.exit_code == 0, result.output
        (records[mode],) = records_in(out / mode).values()
    read = records["read"]
    assert (read["data_source"], read["data"], read["usage"]["generated_tokens"]) == ("layout", SECOND, 0)
    assert (read["layout"]["mode"], read["layout"]["id"], read["status"]) == ("read", taught["layout"], "ok")
    assert records["off"]["data_source"] == "model" and "layout" not in records["off"]
