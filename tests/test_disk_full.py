"""A full output folder (a real 1 MiB tmpfs, filled up): the document is not marked done, nothing torn is left, the
error names the file; a batch exits 2, the intakes (the core's ``take``: ``extract mail``; the watcher) wait and
catch up once there is space. Mounting needs root: skipped with the reason elsewhere, failed under CI=true."""

import hashlib
import json
import logging
import threading
import time
from pathlib import Path

import pytest
from helpers import CII_PRINTED, einvoice_pdf, full_tmpfs, settings_for, toy_documents, wait_for
from typer.testing import CliRunner

from extractor.api import Extractor
from extractor.cli.commands import app, dispatch_args
from extractor.jobs.ledger import Ledger
from extractor.jobs.watch import WatchSettings, watch

HANG_GUARD_S = 150  # only stops a hung test; no test asserts on time


def pdf(path: Path, text: str) -> Path:
    """An e-invoice PDF printing its values and ``text`` (read from its XML: no generation; grounded: ``ok``)."""
    return einvoice_pdf(path, lines=(*CII_PRINTED, text))


def left_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "filler")


@pytest.fixture(scope="module")
def model(model_factory) -> str:
    return str(model_factory.random().path)  # the session's: no build of its own


@pytest.fixture(scope="module")
def extractor(model):
    with Extractor(settings_for(model, max_tokens=4, embedded_rules=False)) as loaded:
        yield loaded


def test_a_batch_into_a_full_folder_exits_2_naming_the_file_and_runs_once_there_is_space(tmp_path, model):
    """``extract run`` in this process (the CLI's own error handling and exit code; no interpreter to start)."""
    pdf(tmp_path / "a.pdf", "batch")
    with full_tmpfs(tmp_path / "out") as out:
        args = [str(tmp_path / "a.pdf"), "--out", str(out), "--model", model, "--max-tokens", "4"]
        args += ["--no-embedded-rules", "--no-isolate"]
        first = CliRunner().invoke(app, dispatch_args(args), terminal_width=400)
        message = " ".join(first.output.split())  # rich wraps long lines
        assert first.exit_code == 2, first.output
        assert f"{out / 'a.json'}: cannot write it" in message and "is full" in message
        assert left_in(out) == []  # no record, no temporary file
        (out / "filler").unlink()
        again = CliRunner().invoke(app, dispatch_args(args))
        assert again.exit_code == 0, again.output
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
    pdf(source, "core")
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
    pdf(inbox / "a.pdf", "watch")
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
