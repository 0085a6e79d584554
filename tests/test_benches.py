"""Every script in bench/ runs at its ``--smoke`` size against today's code, so that none goes stale between the
rounds that measure with them (bench/smoke.py). A smoke run checks that the script runs and prints its table; the
figures are too small to judge, and no time is asserted.

The scripts run in this process (``runpy``, as ``python bench/NAME.py --smoke`` would: no interpreter start and
imports of ~3 CPU-s each), on the session's models: ``EXTRACTOR_BENCH_MODELS`` names a folder of links to the
``model_factory`` models the other tests build anyway (``bench/smoke.py``'s ``prebuilt``), and the conftest's
``_reuse_loaded_models`` hands a runner loaded before to every ``Extractor`` of the same model. Their temporary
folders and anything they build go into one folder of the test run, shared between them. Those in ``SLOW`` (each
with why) are marked ``slow``: ``python -m pytest -q -n 0 -m slow tests/test_benches.py`` runs them."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import tempfile
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
DEMO_ANSWER = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
TIMEOUT = 900  # seconds: a hung script run as a process fails here instead of holding the run
# The scripts run as a process of their own, each with why (the others run in this one).
OWN_PROCESS = {
    "ray": "named ray.py, it takes bench/ off sys.path; its Ray cluster's workers import its __main__",
}
# The scripts left out of CI, each with why. CI's budget for the benches: ~60 CPU-s over what the no-model ones cost
# as processes before (einvoice, einvoice_corpus, einvoice_rules, layout_store, learn: 48 CPU-s; in this process
# 23). The cheapest model benches fit it (families 1.6, mail 3.1, decode_step 6.6, long 6.9, runaway 7.4, regression
# 9.6, throughput 11.1, constrained 12.7, hostile 14.7 CPU-s: 97-106 in all in two runs, 49-58 over), the rest not:
# CPU-s of each smoke run in this process (its call alone; the models are the session's), 2 loaded cores, at 0812180.
MODEL = "runs the demo's scripted model"
SLOW: dict[str, str] = {
    "bombs": "five child processes by design: two extract processes' peak RSS, a trickling source and receiver "
    "(29 CPU-s)",
    "citations": f"{MODEL} over the demo page with and without citations, then their coverage (15 CPU-s)",
    "confidence": f"{MODEL}: five decode rows of 362 steps, one and two passes, two records of two passes for the "
    "reliability table (65 CPU-s)",
    "einvoice_schema_cost": "two scripted models (invoice, invoice-en16931), each schema's grammar compiled and the "
    "page extracted twice (33 CPU-s)",
    "endpoints": f"{MODEL} in this process and in an mlx_vlm.server process (imports, load; 30 CPU-s)",
    "faults": "serve, two workers, watch and mail twice over, undisturbed and under the fault schedule (~100 s); "
    "tests/test_faults.py runs the same stack and schedule in every run",
    "grounding": "OCRs a page rendered at 200 DPI (15 CPU-s)",
    "ocr": "OCRs a page of the corpus (22 CPU-s)",
    "ray": "a local Ray cluster started and stopped beside an mlx_vlm.server; tests/test_ray.py runs the engine in "
    "every run",
    "register": f"fills a SQLite and a PostgreSQL register; {MODEL} with and without one (17 CPU-s)",
    "serve": "extract run, extract serve and an idle extract worker: three processes, each importing and loading its "
    "model (49 CPU-s)",
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


def test_every_slow_or_separate_script_is_a_script():
    assert sorted((set(SLOW) | set(OWN_PROCESS)) - set(SCRIPTS)) == []


@pytest.fixture(scope="module")
def temporary(tmp_path_factory) -> Path:
    """The scripts' TMPDIR: their temporary folders and models go with the test run, shared between them."""
    return tmp_path_factory.mktemp("benches")


@pytest.fixture(scope="module")
def models(model_factory, tmp_path_factory) -> Path:
    """``EXTRACTOR_BENCH_MODELS``: links to the session's models by the names ``bench/smoke.py`` reads (the demo's
    scripted model and its EN 16931 form, the sample invoice's, the random one, mistral3's with and without its eos
    bug: all built by other tests too)."""
    answer, en16931 = (
        json.dumps(json.loads(path.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
        for path in (DEMO_ANSWER, DEMO_ANSWER.parent / "en16931" / DEMO_ANSWER.name)
    )
    folder = tmp_path_factory.mktemp("bench-models")
    built = {
        "demo": model_factory.scripted(answer=answer, schema="invoice"),
        "sample": model_factory.scripted(),
        "en16931": model_factory.scripted(answer=en16931, schema="invoice-en16931", omit_absent=True),
        "random": model_factory.random(),
        "mistral3": model_factory.family("mistral3"),
        "mistral3-config-bug": model_factory.family("mistral3", config_bug=True),
    }
    for name, model in built.items():
        (folder / name).symlink_to(model.path, target_is_directory=True)
    return folder


def _run_here(name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    """``python bench/NAME.py --smoke`` in this process: its exit code, stdout and stderr."""
    path = BENCH / f"{name}.py"
    monkeypatch.setattr(sys, "argv", [str(path), "--smoke"])
    monkeypatch.syspath_prepend(str(BENCH))  # the script's folder, as for `python bench/NAME.py` (undone after)
    try:
        runpy.run_path(str(path), run_name="__main__")
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if not isinstance(done.code, int | None):
            print(done.code, file=sys.stderr)
    out, err = capsys.readouterr()
    return code, out, err


def _run_apart(name: str, env: dict[str, str]) -> tuple[int, str, str]:
    """``python bench/NAME.py --smoke`` as a process of its own."""
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in SCRIPTS]
)
def test_the_script_runs_at_its_smoke_size(name, temporary, models, monkeypatch, capsys):
    _skip_without(name)
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))  # read once per process: set for the in-process runs
    monkeypatch.setenv("EXTRACTOR_BENCH_MODELS", str(models))
    if name in OWN_PROCESS:
        code, out, err = _run_apart(name, dict(os.environ))
    else:
        code, out, err = _run_here(name, monkeypatch, capsys)
    assert code == 0, f"bench/{name}.py --smoke exited {code}:\n{err[-4000:]}"
    assert "|" in out or out.lstrip().startswith(("{", "[")), out[-2000:]
