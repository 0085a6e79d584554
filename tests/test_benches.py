"""Every script in bench/ runs at its ``--smoke`` size against today's code, so that none goes stale between the
rounds that measure with them (bench/smoke.py). A smoke run checks that the script runs and prints its table; the
figures are too small to judge, and no time is asserted.

The scripts that run no model (the e-invoice ones) run in every test run. Those that extract with a kit model cost
tens of seconds each even at their smoke size (the scripted answer is a whole invoice, its page an image), so they
are marked ``slow``: ``python -m pytest -q -m slow tests/test_benches.py`` runs them all (about 10 minutes here)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT, in_ci, shared_path

from extractor.testing.dovecot import dovecot_available
from extractor.testing.postgres import postgres_available

BENCH = ROOT / "bench"
MODULES = {"smoke"}  # imported by the scripts, not run
SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py") if p.stem not in MODULES)
NEEDS_SHARED = {"einvoice_corpus": ("corpus", "invoices"), "hostile": ("corpus", "hostile"), "ocr": ("corpus",)}
TIMEOUT = 900  # seconds: a hung script fails here instead of holding the run
NO_MODEL = {"einvoice", "einvoice_corpus", "einvoice_rules"}  # seconds each at their smoke size: every run


def test_every_script_is_run_here_and_listed_in_the_bench_readme():
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    assert [name for name in SCRIPTS if f"`{name}.py`" not in readme] == []
    offers = ("smoke_option(", '"--smoke"')  # through bench/smoke.py, or its own (einvoice_rules, regression)
    source = {name: (BENCH / f"{name}.py").read_text(encoding="utf-8") for name in SCRIPTS}
    assert [name for name in SCRIPTS if not any(mark in source[name] for mark in offers)] == []


def _skip_without(name: str) -> None:
    """Skip (fail under CI=true) a script whose data or server is missing here."""
    if name in NEEDS_SHARED:
        shared_path(*NEEDS_SHARED[name])
    message = ""
    if name in ("mail", "faults") and not dovecot_available():
        message = "Debian's dovecot-imapd is not installed (/usr/sbin/dovecot)"
    elif name == "faults" and not postgres_available():
        message = "Debian's PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin)"
    elif name == "faults" and os.geteuid() != 0:
        message = "bench/faults.py mounts a tmpfs: it needs root"
    if message:
        pytest.fail(message) if in_ci() else pytest.skip(message)


@pytest.mark.parametrize(
    "name", [name if name in NO_MODEL else pytest.param(name, marks=pytest.mark.slow) for name in SCRIPTS]
)
def test_the_script_runs_at_its_smoke_size(name, tmp_path):
    _skip_without(name)
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its temporary folders and models go with the test
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"bench/{name}.py --smoke exited {done.returncode}:\n{done.stderr[-4000:]}"
    assert "|" in done.stdout or done.stdout.lstrip().startswith(("{", "[")), done.stdout[-2000:]
