"""The intake core alone (extractor.jobs.intake): a toy source, a folder whose files are taken in name order and
moved to ``done/`` once finished, gets exactly-once across a kill -9 between the core's steps (``KILLED_AT``), from
the core's lock, ledger steps and feeds, nothing else. The toy source is ``toy`` below (this file's ``__main__``)."""

import datetime
import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fpdf import FPDF

from extractor.jobs.feeds import Feeds, FeedSettings
from extractor.jobs.intake.document import Documents
from extractor.jobs.intake.lock import IntakeLock, ledger_path
from extractor.jobs.intake.policy import RetryPolicy
from extractor.jobs.intake.stop import Stopping
from extractor.jobs.ledger import Ledger

PAUSE_ENV = "EXTRACTOR_TOY_TEST_PAUSE"
NOTE_SCHEMA = {"title": "note", "type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
HANG_GUARD_S = 150  # only stops a hung test; no test asserts on time
# where the kills land (each a process start with its model, ~9 s: one per gap that recovers differently): record
# written but not fed (re-queued and done again into the same path, as after a kill mid-extraction, which adds no
# other path of the core's and which test_watch.py's kill "in the model" covers on the same core), fed but not
# committed (fed again, its --jsonl line kept once), committed but not acknowledged (acknowledged only)
KILLED_AT = ("written", "fed", "committed")


def pdf(text: str) -> bytes:
    """A one-page PDF whose bytes depend only on ``text``."""
    doc = FPDF()
    doc.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    doc.add_page()
    doc.set_font("helvetica", size=14)
    doc.cell(text=text)
    return bytes(doc.output())


def toy(drop: Path, out: Path, extractor) -> None:
    """The toy source: each file in ``drop``, in name order, through the core; acknowledged by moving it to done/."""
    book = ledger_path(out)
    feeds = Feeds(FeedSettings(jsonl=out / "records.jsonl"), log=logging.getLogger("toy"))
    with IntakeLock(book), Ledger(book) as ledger, feeds:
        documents = Documents(
            ledger=ledger,
            feeds=feeds,
            extractor=extractor,
            policy=RetryPolicy(error_retries=len(KILLED_AT)),  # one kill per step is not a document that crashes us
            stopping=Stopping(),
            pause_env=PAUSE_ENV,
            log=logging.getLogger("toy"),
        )
        documents.recover()
        (drop / "done").mkdir(exist_ok=True)
        for path in sorted(p for p in drop.iterdir() if p.is_file()):
            sha = hashlib.sha256(path.read_bytes()).hexdigest()
            result = out / f"{path.stem}-{sha[:12]}.json"
            if documents.take(sha, name=path.name, result=result, source=lambda path=path: path) is not None:
                path.rename(drop / "done" / path.name)


def run_toy(tmp_path: Path, model_dir: Path, schema: Path, *, pause: str = "") -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != PAUSE_ENV}
    env.update({PAUSE_ENV: pause} if pause else {})
    args = [sys.executable, __file__, str(model_dir), str(schema), str(tmp_path / "drop"), str(tmp_path / "out")]
    return subprocess.Popen(args, env=env, stderr=open(tmp_path / "toy.err", "ab"))  # noqa: SIM115 - the child's


def test_a_toy_source_gets_exactly_once_across_a_kill_at_every_step_of_the_core(tmp_path, model_factory):
    schema = tmp_path / "note.schema.json"
    schema.write_text(json.dumps(NOTE_SCHEMA), encoding="utf-8")
    model_dir = model_factory.scripted(answer='{"n":"1"}', then="im_end", schema=schema).path
    (tmp_path / "drop").mkdir()
    contents = {name: pdf(f"note {name}") for name in "abc"}
    for name, data in contents.items():  # the kills all land on a.pdf: each restart does it again, one step further
        (tmp_path / "drop" / f"{name}.pdf").write_bytes(data)
    for step in KILLED_AT:
        marker = tmp_path / f"paused-{step}"
        proc = run_toy(tmp_path, model_dir, schema, pause=f"{step}:{marker}")
        deadline = time.monotonic() + HANG_GUARD_S
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), (tmp_path / "toy.err").read_text()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=HANG_GUARD_S)
    last = run_toy(tmp_path, model_dir, schema)
    assert last.wait(timeout=HANG_GUARD_S) == 0, (tmp_path / "toy.err").read_text()
    out = tmp_path / "out"
    records = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}
    names = {f"{n}-{hashlib.sha256(data).hexdigest()[:12]}.json" for n, data in contents.items()}
    assert set(records) == names  # one record per document, none torn, no temporary file left
    assert [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != ".extractor"] == []
    lines = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(line["sha256"] for line in lines) == sorted(r["sha256"] for r in records.values())  # no duplicate
    with Ledger(ledger_path(out), create=False) as ledger:
        assert {(e.sources, e.state, e.status) for e in ledger.entries()} == {
            ((f"{n}.pdf",), "done", "ok") for n in "abc"
        }
    assert sorted(p.name for p in (tmp_path / "drop").iterdir()) == ["done"]
    assert sorted(p.name for p in (tmp_path / "drop" / "done").iterdir()) == ["a.pdf", "b.pdf", "c.pdf"]


if __name__ == "__main__":  # the toy source's process: MODEL SCHEMA DROP OUT
    from extractor.api import Extractor
    from extractor.settings import Settings

    model, schema_path, drop_dir, out_dir = sys.argv[1:5]
    # constrained decoding off: the scripted model writes its answer anyway, and each process would build
    # llguidance's tokenizer for it (a quarter of a toy process's CPU): the core is the point, not the grammar
    with Extractor(Settings(model=model, schema=schema_path, constrained=False)) as loaded:
        toy(Path(drop_dir), Path(out_dir), loaded)
