"""A full output folder (a real 1 MiB tmpfs, filled up): the document is not marked done, nothing torn is left, the
error names the file; a batch exits 2, the intakes (the core's ``take``: ``extract mail``; the watcher) wait and
catch up once there is space. Mounting needs root: skipped with the reason elsewhere, failed under CI=true."""

import contextlib
import datetime
import hashlib
import json
import logging
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from fpdf import FPDF
from helpers import in_ci

from extractor.api import Extractor
from extractor.jobs.feeds import Feeds, FeedSettings
from extractor.jobs.intake.document import Documents
from extractor.jobs.intake.policy import RetryPolicy
from extractor.jobs.intake.stop import Stopping
from extractor.jobs.ledger import Ledger
from extractor.jobs.watch import WatchSettings, watch
from extractor.settings import Settings

NOTE_SCHEMA = {"title": "note", "type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
HANG_GUARD_S = 150  # only stops a hung test; no test asserts on time


def pdf(text: str) -> bytes:
    doc = FPDF()
    doc.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    doc.add_page()
    doc.set_font("helvetica", size=14)
    doc.cell(text=text)
    return bytes(doc.output())


@contextlib.contextmanager
def full_tmpfs(folder: Path):
    """A 1 MiB tmpfs at ``folder``, filled by ``folder/filler`` (delete it to make space); unmounted after."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        message = f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    try:
        fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        finally:
            os.close(fd)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def wait_for(predicate, *, what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "filler")


@pytest.fixture(scope="module")
def model(model_factory, tmp_path_factory) -> tuple[str, str]:
    schema = tmp_path_factory.mktemp("schema") / "note.schema.json"
    schema.write_text(json.dumps(NOTE_SCHEMA), encoding="utf-8")
    return str(model_factory.scripted(answer='{"n":"x"}', then="im_end", schema=schema).path), str(schema)


@pytest.fixture(scope="module")
def extractor(model):
    with Extractor(Settings(model=model[0], schema=model[1])) as loaded:
        yield loaded


def test_a_batch_into_a_full_folder_exits_2_naming_the_file_and_runs_once_there_is_space(tmp_path, model):
    (tmp_path / "a.pdf").write_bytes(pdf("batch"))
    from typer.testing import CliRunner

    from extractor.cli.commands import app, dispatch_args

    with full_tmpfs(tmp_path / "out") as out:
        # in this process (typer's runner: the command's exit code and output), so that the session's loaded model
        # serves both runs instead of two processes loading it
        args = dispatch_args(["run", str(tmp_path / "a.pdf"), "--out", str(out)])
        args += ["--model", model[0], "--schema", model[1], "--no-isolate"]
        first = CliRunner().invoke(app, args)
        message = " ".join(first.output.split())  # rich wraps long lines
        assert first.exit_code == 2, first.output
        assert f"{out / 'a.json'}: cannot write it" in message and "is full" in message
        assert left_in(out) == []  # no record, no temporary file
        (out / "filler").unlink()
        again = CliRunner().invoke(app, args)
        assert again.exit_code == 0, again.output
        assert json.loads((out / "a.json").read_text(encoding="utf-8"))["status"] == "ok"


def make_space_when(seen, out: Path, *, then=None) -> tuple[threading.Thread, dict]:
    """Beside the intake (which runs on the thread that loaded the model): once ``seen()``, note what the output
    holds and the ledger says, then delete the filler; then wait for ``then()``, if given."""
    noted: dict = {}

    def body():
        try:
            wait_for(seen, what="the intake to meet the full disk")
            noted["left"] = left_in(out)
            (out / "filler").unlink()
            if then is not None:
                wait_for(then, what="the intake to catch up")
        except BaseException as exc:  # noqa: BLE001 - re-raised by the test
            noted["error"] = exc
        finally:
            noted["done"] = True

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return thread, noted


def test_the_core_waits_for_space_with_the_record_in_hand(tmp_path, extractor, caplog):
    """``Documents.take`` (``extract mail``'s way): not done, nothing torn, until space returns; then done once."""
    source = tmp_path / "a.pdf"
    source.write_bytes(pdf("core"))
    sha = hashlib.sha256(source.read_bytes()).hexdigest()
    with full_tmpfs(tmp_path / "out") as out, Ledger(tmp_path / "ledger.sqlite") as ledger:
        documents = Documents(
            ledger=ledger,
            feeds=Feeds(FeedSettings(), log=logging.getLogger("toy")),
            extractor=extractor,
            policy=RetryPolicy(backoff=0.1),
            stopping=Stopping(),
            pause_env="EXTRACTOR_TOY_TEST_PAUSE",
            log=logging.getLogger("toy"),
        )
        with caplog.at_level(logging.WARNING, logger="toy"):
            helper, noted = make_space_when(lambda: "waiting" in caplog.text, out)
            taken = documents.take(sha, name="a.pdf", result=out / "a.json", source=lambda: source)
            helper.join(HANG_GUARD_S)
        assert "error" not in noted and noted["left"] == []  # while full: no record, no temporary file
        assert f"{out / 'a.json'}: cannot write it" in caplog.text and "is full" in caplog.text
        assert taken is not None and taken.record is not None and taken.record.status == "ok"
        assert left_in(out) == ["a.json"] and ledger.get(sha).state == "done"


def test_the_watcher_waits_for_space_and_catches_up(tmp_path, extractor, caplog):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.pdf").write_bytes(pdf("watch"))
    stop = threading.Event()
    book = tmp_path / "state" / "ledger.sqlite"  # the state folder has space; the output has none
    settings = WatchSettings(settle=0.1, backoff=0.1)
    with full_tmpfs(tmp_path / "out") as out, caplog.at_level(logging.WARNING, logger="extractor.jobs.watch"):
        helper, noted = make_space_when(
            lambda: "tried again" in caplog.text, out, then=lambda: (inbox / "processed" / "a.pdf").exists()
        )
        threading.Thread(target=lambda: (helper.join(HANG_GUARD_S), stop.set()), daemon=True).start()
        watch(inbox, out, extractor=extractor, settings=settings, ledger=book, stop_event=stop)
        assert "error" not in noted and noted["left"] == []  # while full: nothing written
        assert f"{out}/a-" in caplog.text and "is full" in caplog.text
        records = [p.name for p in out.glob("a-*.json")]
        assert len(records) == 1 and left_in(out) == records
        with Ledger(book, create=False) as ledger:
            assert [(e.state, e.attempts) for e in ledger.entries()] == [("done", 1)]
