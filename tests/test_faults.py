"""One fault schedule over every channel at once (issue 48.6): ``extract serve`` with two ``extract worker``
processes, an ``extract watch`` and an ``extract mail`` sharing one register on a PRIVATE PostgreSQL
(``extractor.testing.postgres``: the test restarts it), fed documents, some through two channels, while a worker is
killed with SIGKILL, PostgreSQL restarts (``pg_ctl restart -m immediate``), Dovecot restarts and the output tmpfs
fills, then frees. Afterwards every document has exactly one record, every duplicate is flagged once and only
once, every webhook is delivered, no process died or hung, and the register equals the records
(``extractor.testing.schedule`` states each rule).

The documents are bare e-invoice XML read exactly (no model tokens): the random tiny model suffices. One test
function: its processes are started once. Mounting the tmpfs needs root, PostgreSQL 15 and Dovecot must be
installed: skipped with the reason elsewhere, failed under CI=true."""

from __future__ import annotations

import pytest
from helpers import ROOT, in_ci

from extractor.testing.dovecot import dovecot_available
from extractor.testing.faults import CannotMount, Schedule, Stack
from extractor.testing.postgres import postgres_available
from extractor.testing.schedule import fault_table, run_schedule, violations

TEMPLATE = ROOT / "tests" / "data" / "einvoice" / "xrechnung-01.01a-INVOICE_uncefact.xml"


def _missing(message: str) -> None:
    pytest.fail(message) if in_ci() else pytest.skip(message)


def test_every_channel_survives_the_fault_schedule(model_factory, tmp_path):
    if not postgres_available():
        _missing("Debian's PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin)")
    if not dovecot_available():
        _missing("Debian's dovecot-imapd is not installed (/usr/sbin/dovecot)")
    try:
        stack = Stack(work=tmp_path, model=model_factory.random().path)
    except CannotMount as exc:
        _missing(str(exc))
    with stack:
        outcome = run_schedule(stack, template=TEMPLATE.read_bytes(), schedule=Schedule())
        logs = {name: stack.log(name) for name in stack.logs}
    assert violations(outcome) == [], {name: text[-2000:] for name, text in logs.items()}
    # each fault reached the channels it is for (else the schedule proved nothing)
    workers = logs["worker0"] + logs["worker1"]
    assert "unreachable" in logs["serve"] + workers and "unreachable" in logs["watch"] + logs["mail"]
    assert "reconnecting" in logs["mail"]
    assert "No space left on device" in logs["watch"] + logs["mail"]
    faults = [row["fault"] for row in fault_table(outcome)]
    assert faults == ["kill_worker", "restart_postgres", "restart_dovecot", "fill_output", "free_output"]
    channels = {a.channel for a in outcome.arrivals}
    assert channels == {"service", "watch", "mail"} and len(outcome.arrivals) >= 30
