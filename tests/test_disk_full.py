"""A full output folder (a real 1 MiB tmpfs, filled up): the document is not marked done, nothing torn is left, the
error names the file; a batch exits 2, the intakes (the core's ``take``: ``extract mail``; the watcher) wait and
catch up once there is space. Mounting needs root: skipped with the reason elsewhere, failed under CI=true."""

import datetime
import hashlib
import json
import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fpdf import FPDF
from helpers import full_tmpfs, toy_documents, wait_for

from extractor.api import Extractor
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
    with full_tmpfs(tmp_path / "out") as out:
        args = [sys.executable, "-m", "extractor.cli", "run", str(tmp_path / "a.pdf"), "--out", str(out)]
        args += ["--model", model[0], "--schema", model[1], "--no-isolate"]
        first = subprocess.run(args, capture_output=True, text=True, timeout=HANG_GUARD_S)
        message = " ".join(first.stderr.split())  # rich wraps long lines
        assert first.returncode == 2, first.stderr
        assert f"{out / 'a.json'}: cannot write it" in message and "is full" in message
        assert left_in(out) == []  # no record, no temporary file
        (out / "filler").unlink()
        again = subprocess.run(args, capture_output=True, text=True, timeout=HANG_GUARD_S)
        assert again.returncode == 0, again.stderr
        assert json.loads((out / "a.json").read_text(encoding="utf-8"))["status"] == "ok"


def spells(caplog) -> tuple[int, int]:
    """The warnings that a write met the full output, and that it takes records again (one each per spell)."""
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    return sum("cannot write it" in line for line in lines), sum("takes records again" in line for line in lines)


def make_space_when(seen, out: Path, *, then=None) -> tuple[threading.Thread, dict]:
    """Beside the intake (which runs on the thread that loaded the model): once ``seen()``, note what the output
    holds and the ledger says, then delete the filler; then wait for ``then()``, if given."""
    noted: dict = {}

    def body():
        try:
            wait_for(seen, what="the intake to meet the full disk")
            time.sleep(0.5)  # a few more tries at the 0.1 s back-off: still one line
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
        documents = toy_documents(ledger, extractor)
        with caplog.at_level(logging.WARNING, logger="toy"):
            helper, noted = make_space_when(lambda: "waiting" in caplog.text, out)
            taken = documents.take(sha, name="a.pdf", result=out / "a.json", source=lambda: source)
            helper.join(HANG_GUARD_S)
        assert "error" not in noted and noted["left"] == []  # while full: no record, no temporary file
        assert f"{out / 'a.json'}: cannot write it" in caplog.text and "is full" in caplog.text
        assert spells(caplog) == (1, 1)
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
        assert spells(caplog) == (1, 1)
        records = [p.name for p in out.glob("a-*.json")]
        assert len(records) == 1 and left_in(out) == records
        with Ledger(book, create=False) as ledger:
            assert [(e.state, e.attempts) for e in ledger.entries()] == [("done", 1)]
