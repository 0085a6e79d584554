"""Every script in bench/ runs at its ``--smoke`` size against today's code, so that none goes stale between the
rounds that measure with them (bench/smoke.py). A smoke run checks that the script runs and prints its table; the
figures are too small to judge, and no time is asserted.

Every script runs in every test run but those in ``SLOW`` (each with why), marked ``slow``:
``python -m pytest -q -m slow tests/test_benches.py`` runs them. The scripts share one temporary folder, so that
the ones keeping their tiny model there (``bench/throughput.py``'s ``build_model``: citations, confidence,
constrained, endpoints, ray, register, regression, throughput) build it once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, in_ci, shared_path

from extractor.testing.dovecot import dovecot_available
from extractor.testing.postgres import postgres_available

BENCH = ROOT / "bench"
MODULES = {"smoke"}  # imported by the scripts, not run
SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py") if p.stem not in MODULES)
NEEDS_SHARED = {
    "einvoice_corpus": ("corpus", "invoices"),
    "hostile": ("corpus", "hostile"),
    "learn": ("corpus", "invoices"),
    "ocr": ("corpus",),
}
TIMEOUT = 900  # seconds: a hung script fails here instead of holding the run
# The scripts left out of CI, each with why: a smoke run that loads a kit model costs its process (~3 CPU-s of
# imports), the model's build and load (~5-10 CPU-s), its generations; the set costs minutes, where CI's tests have
# none to spare (CPU-s of each smoke run alone, this machine under load, at 9798774-fe8a836; "build": it built the
# demo model that the others then share). The rest, no model and no OCR, run in every test run (layout_store 1.4,
# learn 4.3 CPU-s; the e-invoice ones).
MODEL = "builds, loads and runs a kit model"
SLOW: dict[str, str] = {
    "bombs": f"{MODEL} in two extract processes, and waits out a trickling source and receiver",
    "citations": f"{MODEL} (28 CPU-s, build)",
    "confidence": f"{MODEL}: its decode, passes and reliability tables (133 CPU-s)",
    "constrained": f"{MODEL}: two of them, the 248k-token llguidance tokenizer built and timed (80 CPU-s)",
    "decode_step": f"{MODEL} (11 CPU-s)",
    "einvoice_schema_cost": f"{MODEL}: two of them",
    "endpoints": f"{MODEL} in mlx_vlm.server processes (28 CPU-s)",
    "faults": "serve, two workers, watch and mail twice over, undisturbed and under the fault schedule (~100 s); "
    "tests/test_faults.py runs the same stack and schedule in every run",
    "families": f"{MODEL} (6 CPU-s)",
    "grounding": "OCRs a page rendered at 200 DPI (17 CPU-s)",
    "hostile": f"{MODEL} over hostile files in render workers",
    "long": f"{MODEL} (12 CPU-s)",
    "mail": f"{MODEL} in extract mail and extract watch beside a private Dovecot",
    "ocr": "OCRs a page of the corpus (28 CPU-s)",
    "ray": f"{MODEL} in Ray actors",
    "register": f"{MODEL} beside its register rows (30 CPU-s, build)",
    "regression": f"{MODEL} (14 CPU-s)",
    "runaway": f"{MODEL}, with and without bare mlx-vlm (15 CPU-s)",
    "serve": f"{MODEL} in extract serve and extract run processes",
    "throughput": f"{MODEL} (14 CPU-s)",
}


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


def test_every_slow_script_is_a_script():
    assert sorted(set(SLOW) - set(SCRIPTS)) == []


@pytest.fixture(scope="module")
def temporary(tmp_path_factory) -> Path:
    """The scripts' TMPDIR: their temporary folders and models go with the test run, shared between them."""
    return tmp_path_factory.mktemp("benches")


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in SCRIPTS]
)
def test_the_script_runs_at_its_smoke_size(name, temporary):
    _skip_without(name)
    env = {**os.environ, "TMPDIR": str(temporary)}
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
