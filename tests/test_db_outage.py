"""Database outages (issue 48.1, the database side): a store's operation waits out a PostgreSQL restart and a stop of
several seconds, and a SQLite file locked past its busy timeout; one log line when an outage begins and one when it
ends; ``/healthz`` answers 503 while the job store is unreachable; a job claimed before a restart ends exactly once.
On a PRIVATE PostgreSQL (``extractor.testing.postgres``), never the shared one."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

import pytest
from helpers import in_ci
from test_register import record

from extractor.db import outage
from extractor.register import Register
from extractor.register import db as register_db
from extractor.service import health
from extractor.service.config import open_store
from extractor.service.problems import ProblemError
from extractor.testing.postgres import PrivatePostgres, postgres_available

# seconds the server stays stopped: past four of the retries' doubling waits (0.2 s to 1.6 s; outage.FIRST_WAIT),
# so that the operation is seen waiting through several failed tries; the next try, at 6.2 s, finds it back
STOP = 4.0


@pytest.fixture(scope="module")
def server():
    if not postgres_available():
        message = "Debian's PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    with PrivatePostgres() as running:
        yield running


def _lines(caplog, word: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "extractor.db" and word in r.getMessage()]


def _in_thread(call) -> tuple[threading.Thread, list]:
    out: list = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _wait_for(predicate, *, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def test_the_register_waits_out_a_restart_and_a_stop(server, caplog):
    caplog.set_level(logging.WARNING, logger="extractor.db")
    register = Register.open(server.url)
    assert register.check_and_add(record("RE-1", sha="1", source="a.pdf")) is not None
    # a registration commits without waiting for the server's flush (register.db: lazy_commit), which the server
    # writes within a few hundred ms: a crash of the server itself just after it may lose it, by design
    time.sleep(1.0)
    server.restart()  # every connection dropped: the next operation reconnects
    assert register.check_and_add(record("RE-2", sha="2", source="b.pdf")) is not None
    time.sleep(1.0)  # flushed, as above
    server.stop()
    thread, out = _in_thread(lambda: register.check_and_add(record("RE-3", sha="3", source="c.pdf")))
    _wait_for(lambda: any(v.store == "register" for v in outage.current()), what="the outage")
    time.sleep(STOP)
    assert thread.is_alive()  # still waiting, not failed
    server.start()
    thread.join(timeout=30)
    assert not thread.is_alive() and out and not isinstance(out[0], Exception), out
    assert [i["source"] for i in register.invoices()] == ["a.pdf", "b.pdf", "c.pdf"]
    assert len(_lines(caplog, "unreachable")) == 2  # the restart's and the stop's: one line each, not per try
    assert len(_lines(caplog, "back after")) == 2
    assert not outage.current()
    register.close()


def test_a_claimed_job_ends_once_across_a_restart_and_healthz_says_503_meanwhile(server, caplog):
    caplog.set_level(logging.WARNING, logger="extractor.db")
    store = open_store(server.url)
    for n in range(2):
        data = f"doc {n}".encode()
        store.submit(tenant="t", filename=f"{n}.pdf", data=data, sha256=str(n), fingerprint="f", options={})
    job = store.claim(lease=60.0)
    assert job is not None
    server.restart()
    assert store.renew(job, lease=60.0)  # the same claim holds it after the restart
    server.stop()
    with pytest.raises(ProblemError) as unavailable:
        health.answer(store)
    assert unavailable.value.status == 503 and unavailable.value.code == "store_unavailable"
    assert [o["store"] for o in unavailable.value.extra["outages"]] == ["--store"]
    assert "test-password" not in str(unavailable.value.extra) + unavailable.value.detail
    thread, out = _in_thread(lambda: store.finish(job, records=[{"source": "0.pdf"}]))
    time.sleep(STOP)
    assert thread.is_alive()
    with pytest.raises(ProblemError, match="unreachable: --store postgresql://extractor:\\*\\*\\*@"):
        health.answer(store)
    assert "extractor_store_up 0" in health.metrics_text(store)
    server.start()
    thread.join(timeout=30)
    assert out == [True]
    assert health.answer(store).model_dump() == {"status": "serving"}
    ended = store.get(job.id)
    assert ended is not None and (ended.status, ended.runs, ended.records) == ("done", 1, [{"source": "0.pdf"}])
    assert not store.finish(job, records=[{"source": "again"}])  # ended once: the claim holds it no more
    other = store.claim(lease=60.0)
    assert other is not None and other.id != job.id and store.claim(lease=60.0) is None
    assert len(_lines(caplog, "unreachable")) == 2 and len(_lines(caplog, "back after")) == 2
    store.close()


def test_sqlite_locked_past_the_busy_timeout_is_waited_out(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger="extractor.db")
    monkeypatch.setattr(register_db, "LOCK_TIMEOUT", 0.2)
    path = tmp_path / "r.sqlite"
    register = Register.open(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    thread, out = _in_thread(lambda: register.check_and_add(record()))
    _wait_for(lambda: bool(_lines(caplog, "unreachable")), what="the outage's line")
    time.sleep(1.0)  # several busy timeouts: still one line
    holder.execute("ROLLBACK")
    holder.close()
    thread.join(timeout=20)
    assert out and not isinstance(out[0], Exception), out
    assert [m.split(": ", 1)[0] for m in _lines(caplog, "unreachable")] == [f"register {path}"]
    assert len(_lines(caplog, "back after")) == 1
    register.close()
