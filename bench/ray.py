"""Bench: the same batch of scans (OCR on) with the local engine and with ``--engine ray`` at 1, 2 and 4 actors.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/ray.py [--docs N] [--json]

The documents are copies of ``samples/invoice-scan.pdf``, each its own file (a comment after ``%%EOF``: no OCR
cache hit on identical bytes): one A4 page with no text layer, read by OCR for grounding (~5 CPU-seconds),
through ``batch.run_batch`` with the command line's settings (isolated render workers, one retry) and the invoice
schema. The model is ``bench/throughput.py``'s small scripted one (the
invoice-de-einfach answer, ~280 tokens), served by one local ``python -m mlx_vlm.server`` (warmed up first). Rows:

* ``local, 1 at a time``: ``--engine local --concurrency 1 --workers 1``: one document at a time, like one actor;
* ``local, defaults``: ``--engine local`` (2 documents in flight per endpoint, render workers = the cores);
* ``ray, N actor(s)``: ``--engine ray --actors N`` on a local Ray cluster of this machine's cores, one for the
  rows, started before the local rows (its start is printed below the table, not in the rows; each row's actors
  start within its wall time).

``CPU-s / doc``: CPU time of this process and every process below it (render workers, the Ray cluster's raylet,
GCS and actors) during the row, per document; the server's CPU (the model) is its own column. ``Ray overhead /
doc`` is the 1-actor row's wall time per document minus the ``local, 1 at a time`` row's: what Ray adds per
document when one worker does the same work. ``records = local`` checks that every row's records (statuses, data,
errors, grounding) equal the first row's. On the 2-core machine this was written on, the gain from more actors is
bounded by the two cores, which the OCR, the render workers, the server and Ray's own processes share.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
# This file is named ray.py: with bench/ on sys.path (as a script's folder is) `import ray` would find it, not Ray.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH]
sys.path.insert(0, str(ROOT / "tests"))  # the test kit's MlxServer starts and stops the server (one copy of it)

ACTORS = (1, 2, 4)
TICK = os.sysconf("SC_CLK_TCK")


def process_cpu() -> dict[int, float]:
    """CPU seconds so far of this process and every live process below it, by pid (from /proc)."""
    parents, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK
    mine, frontier = {os.getpid()}, [os.getpid()]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in mine]
        mine.update(children)
        frontier.extend(children)
    return {pid: cpu[pid] for pid in mine}


def reaped_cpu() -> float:
    """CPU seconds of the children this process has waited for (render workers that ended)."""
    times = os.times()
    return times.children_user + times.children_system


class CpuMeter:
    """CPU seconds spent in a span by this process tree, the server (``exclude``) apart. /proc is sampled every
    half second, so processes that end during the span (actors at the end of a dataset) still count, up to their
    last sample."""

    def __init__(self, exclude: set[int]) -> None:
        import threading

        self.exclude = exclude
        self.before, self.reaped = process_cpu(), reaped_cpu()
        self.last = dict(self.before)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.last.update(process_cpu())

    def spent(self) -> tuple[float, float]:
        """(client CPU seconds, server CPU seconds) since the meter started."""
        self._stop.set()
        self._thread.join()
        self.last.update(process_cpu())
        delta = {pid: seconds - self.before.get(pid, 0.0) for pid, seconds in self.last.items()}
        server = sum(v for pid, v in delta.items() if pid in self.exclude)
        return sum(v for pid, v in delta.items() if pid not in self.exclude) + reaped_cpu() - self.reaped, server


def essentials(record) -> dict:
    """What every row must agree on: the record without timings (the OCR's seconds too) and server facts."""
    same = {k: v for k, v in record.to_dict().items() if k not in ("timings", "server")}
    if same.get("ocr"):
        same["ocr"] = [page and {k: v for k, v in page.items() if k != "seconds"} for page in same["ocr"]]
    return same


def run_row(name: str, settings, docs: list[str], out: Path, *, server_pids: set[int], actors=None) -> dict:
    """One row: the batch once (a fresh --out, so nothing is skipped); its figures and records."""
    from extractor.api import Extractor
    from extractor.jobs.batch import run_batch
    from extractor.jobs.ray import RayEngine, RaySettings

    engine = None if actors is None else RayEngine(settings, RaySettings(actors=actors)).__enter__()  # joins it
    with Extractor(settings) as extractor:
        meter, started = CpuMeter(server_pids), time.perf_counter()
        result = run_batch(extractor, docs, out=out, force=True, engine=engine)
        wall = time.perf_counter() - started
        client_cpu, server_cpu = meter.spent()  # before the render workers end
    return {
        "row": name,
        "wall_s": wall,
        "docs_per_min": len(docs) / wall * 60,
        "cpu_per_doc": client_cpu / len(docs),
        "server_cpu_per_doc": server_cpu / len(docs),
        "statuses": sorted({r.status for r in result.records}),
        "records": [essentials(r) for r in result.records],
    }


def _bench_module(name: str):
    """Another bench script, loaded by path (bench/ stays off sys.path, see above)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=6, help="copies of the scan (default 6)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--actors", default=",".join(map(str, ACTORS)), help="actor counts, one Ray row each")
    smoke = _bench_module("smoke")
    smoke.smoke_option(parser, docs=1, actors="1")
    args = smoke.parse(parser, argv)

    from helpers import MlxServer

    build_model = _bench_module("throughput").build_model  # the same scripted model as the other benches

    from extractor.settings import command_line_settings

    work = Path(tempfile.mkdtemp(prefix="extractor-bench-ray-"))
    docs, scan = [], (ROOT / "samples" / "invoice-scan.pdf").read_bytes()
    for i in range(args.docs):
        docs.append(str(work / f"scan{i:02d}.pdf"))
        # a comment after %%EOF makes each copy its own file (no OCR cache hit on a copy's identical bytes)
        Path(docs[-1]).write_bytes(scan + f"\n% copy {i}\n".encode())
    model = build_model("small")
    server = MlxServer(model, work / "server.log").wait_ready()
    base = command_line_settings(model=str(model), schema="invoice", max_tokens=1024, endpoint=(server.url,))
    rows = []
    from extractor.api import Extractor
    from extractor.jobs.ray import RayEngine

    # the local Ray cluster first (its start fails on badly overloaded cores: fail before the long rows); it idles
    # through the local rows, which it costs a little
    cluster = RayEngine(base)  # each Ray row's engine finds it running
    started = time.perf_counter()
    try:
        with cluster:
            cluster_s = time.perf_counter() - started
            with Extractor(base) as warm:
                warm.extract(docs[0])  # the server's first request; this process's OCR engine
            server_pids = {server.proc.pid}
            rows.append(
                run_row(
                    "local, 1 at a time",
                    base.replace(concurrency=1, workers=1),
                    docs,
                    work / "local1",
                    server_pids=server_pids,
                )
            )
            rows.append(run_row("local, defaults", base, docs, work / "local", server_pids=server_pids))
            for actors in (int(n) for n in args.actors.split(",")):
                rows.append(
                    run_row(
                        f"ray, {actors} actor{'s' if actors > 1 else ''}",
                        base,
                        docs,
                        work / f"ray{actors}",
                        server_pids=server_pids,
                        actors=actors,
                    )
                )
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    reference = rows[0]["records"]
    for row in rows:
        records = row.pop("records")
        row["same_records"] = records == reference
        row["differs"] = sorted(
            {k for a, b in zip(records, reference, strict=False) for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
        )
    one_at_a_time = rows[0]["wall_s"] / len(docs)
    overhead = next(r for r in rows if r["row"] == "ray, 1 actor")["wall_s"] / len(docs) - one_at_a_time
    if args.json:
        print(
            json.dumps(
                {
                    "documents": len(docs),
                    "cores": os.cpu_count(),
                    "ray_overhead_per_doc_s": overhead,
                    "cluster_start_s": cluster_s,
                    "rows": rows,
                },
                indent=2,
            )
        )
    else:
        print(
            f"{len(docs)} scanned invoices (OCR on), tiny scripted qwen3_5 on one mlx_vlm.server, "
            f"{os.cpu_count()} cores, one run per row\n"
        )
        print(
            "| engine | docs/min | wall s | CPU-s / doc (client) | CPU-s / doc (server) | statuses | records = local |"
        )
        print("|---|---:|---:|---:|---:|---|---|")
        for row in rows:
            print(
                f"| {row['row']} | {row['docs_per_min']:.1f} | {row['wall_s']:.1f} | "
                f"{row['cpu_per_doc']:.2f} | {row['server_cpu_per_doc']:.2f} | "
                f"{', '.join(row['statuses'])} | {'yes' if row['same_records'] else 'NO'} |"
            )
        for row in rows:
            if row["differs"]:
                print(f"{row['row']}: records differ in {', '.join(row['differs'])}")
        print(f"\nlocal Ray cluster start: {cluster_s:.1f} s (once, not in the rows)")
        print(f"Ray overhead per document (1 actor vs local one at a time): {overhead:+.2f} s")
    return 0 if all(row["same_records"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
