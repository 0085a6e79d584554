"""Bench: every channel under one fault schedule (issue 48.6) against the same stack undisturbed.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/faults.py [--seconds 60]

Two runs side by side, each on a fresh ``extractor.testing.faults.Stack`` (a private PostgreSQL holding the job
store and one register, ``extract serve`` with two ``extract worker`` processes, ``extract watch`` and
``extract mail`` on a private Dovecot, the output on a size-limited tmpfs; needs root to mount it), fed the same
documents for ``--seconds`` (bare e-invoice XML read exactly: no model tokens, a random tiny qwen3_5): one
undisturbed, one while the schedule kills a worker, restarts PostgreSQL, restarts Dovecot, and fills then frees the
output, at 15 / 30 / 45 / 60 / 80 % of the feeding time. Rows: documents per minute of each run, then per fault
the longest arrival-to-record seconds of the documents in flight across it and the recovery seconds (from its end
until every document that arrived before it had its record). Also the machine's load and whether every rule of
``extractor.testing.schedule.violations`` held.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import exit_code, parse, prebuilt, smoke_option  # noqa: E402  (bench/ is the script's folder)

TEMPLATE = ROOT / "tests" / "data" / "einvoice" / "xrechnung-01.01a-INVOICE_uncefact.xml"
AT = {"kill_worker": 0.15, "restart_postgres": 0.3, "restart_dovecot": 0.45, "fill_output": 0.6, "free_output": 0.8}


def run(model: Path, work: Path, *, seconds: float, gap: float, faulty: bool):
    """One run on a fresh stack: its outcome."""
    from extractor.testing.faults import Schedule, Stack
    from extractor.testing.schedule import run_schedule

    faults = tuple((round(seconds * share, 1), name) for name, share in AT.items()) if faulty else ()
    schedule = Schedule(documents=round(seconds / gap), gap=gap, faults=faults)
    with Stack(work=work, model=model) as stack:
        return run_schedule(stack, template=TEMPLATE.read_bytes(), schedule=schedule)


def main(argv: list[str] | None = None) -> int:
    """Run both rows and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds documents are fed in each run")
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between two documents")
    smoke_option(parser, seconds=15.0)
    args = parse(parser, argv)

    from extractor.testing import build_random_model
    from extractor.testing.schedule import fault_table, throughput, violations

    work = Path(tempfile.mkdtemp(prefix="extractor-bench-faults-"))
    model = prebuilt("random") or build_random_model(work / "model").path
    load = os.getloadavg()[0]
    started = time.monotonic()
    calm = run(model, work / "calm", seconds=args.seconds, gap=args.gap, faulty=False)
    faulty = run(model, work / "faulty", seconds=args.seconds, gap=args.gap, faulty=True)
    broken = violations(calm) + violations(faulty)
    print(f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; {os.cpu_count()} cores; ", end="")
    print(f"{time.monotonic() - started:.0f} s in all; rules held: {'yes' if not broken else 'NO'}\n")
    print("| run | documents | documents/min | longest arrival -> record s | recovery s |")
    print("|---|---:|---:|---:|---:|")
    for name, outcome in (("undisturbed", calm), ("fault schedule", faulty)):
        print(f"| {name} | {len(outcome.arrivals)} | {throughput(outcome):.1f} | | |")
    for row in fault_table(faulty):
        print(f"| {row['fault']} | | | {row['longest_s']:.2f} | {row['recovery_s']:.2f} |")
    for line in broken:
        print(f"broken: {line}", file=sys.stderr)
    return exit_code(args, not broken)


if __name__ == "__main__":
    sys.exit(main())
