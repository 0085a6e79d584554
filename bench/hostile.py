"""Hostile-input bench: the whole hostile corpus through the ``extract`` CLI, one batch, with a tiny scripted model.

Runs ``python -m extractor.cli DIR --password-file P --jsonl R`` (the passwords are MANIFEST.json's) as a child
process and reports:

* outcomes: records per status, and per error code for ``error`` records;
* the slowest file (total seconds in its record, and its rendering seconds);
* peak memory of the run, two ways: the largest single process (``ru_maxrss`` from ``os.wait4`` on the CLI, which
  covers the render workers it reaps) and, on Linux, the largest *sum* of resident memory over the CLI and all its
  descendants, sampled from /proc every 50 ms;
* with ``--compare``, the same batch with ``--no-isolate`` side by side, and the render-only overhead per document
  of a worker (``RenderPool.render``, warm worker, one at a time) against rendering in-process (``render_here``).

The scripted model answers the sample invoice, cut by ``--max-tokens`` (default 2): the bench measures inputs, not
generation. Constrained decoding is off for the same reason.

Usage::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/hostile.py [--corpus DIR] [--model DIR] [--workers N]
                                                                   [--timeout S] [--compare] [--json]

Exit 0 when every file got exactly one record, none timed out or crashed, and the largest process stayed under
2 GiB; 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# bench/smoke.py by its path: tests/test_hostile.py loads this file by path too, and bench/ on sys.path would make
# `import ray` find bench/ray.py in that test process
_SMOKE = importlib.util.spec_from_file_location("bench_smoke", Path(__file__).with_name("smoke.py"))
smoke = importlib.util.module_from_spec(_SMOKE)
_SMOKE.loader.exec_module(smoke)  # type: ignore[union-attr]
exit_code, parse, prebuilt, smoke_option = smoke.exit_code, smoke.parse, smoke.prebuilt, smoke.smoke_option

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "hostile"
RSS_TARGET = 2 * 1024**3
MIB = 1024**2


class TreeSampler:
    """Samples the resident memory of a process and all its descendants (Linux /proc): ``peak`` is the largest sum
    of their resident sizes seen, ``largest`` the largest own peak (``VmHWM``, counted from its ``exec``) of any one
    of them (tests/test_hostile.py uses it too)."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.largest = 0
        self.processes = 0
        self._parents: dict[int, int] = {}  # pid -> its parent's pid, as first read
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def available() -> bool:
        """Whether /proc can be read for this."""
        return Path("/proc/self/status").exists()

    def __enter__(self) -> TreeSampler:
        if self.available():
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            tree = self._tree()
            self.processes = max(self.processes, len(tree))
            self.peak = max(self.peak, sum(_status(pid, b"VmRSS:") for pid in tree))
            self.largest = max([self.largest] + [_status(pid, b"VmHWM:") for pid in tree])

    def _tree(self) -> list[int]:
        # each process's parent is read once (a sample reads only the new ones: a busy machine has hundreds)
        alive = {int(entry.name) for entry in os.scandir("/proc") if entry.name.isdigit()}
        for pid in set(self._parents) - alive:
            del self._parents[pid]
        for pid in alive - set(self._parents):
            try:
                with open(f"/proc/{pid}/stat", "rb") as stat:
                    self._parents[pid] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
        children = collections.defaultdict(list)
        for pid, ppid in self._parents.items():
            children[ppid].append(pid)
        tree, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(children.get(pid, ()))
        return tree


def _status(pid: int, field: bytes) -> int:
    """A size field of /proc/PID/status in bytes (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def build_model(folder: Path) -> Path:
    """A tiny scripted qwen3_5 model answering the sample invoice (built before the run: ``prebuilt``, or here)."""
    from extractor.testing import SAMPLE_INVOICE_ANSWER, build_scripted_model

    if (kept := prebuilt("sample")) is not None:
        return kept
    return build_scripted_model(folder / "scripted", answer=SAMPLE_INVOICE_ANSWER).path


def first_files(corpus: Path, count: int, folder: Path) -> Path:
    """A corpus of the first ``count`` files of ``corpus`` (links, and their part of the manifest)."""
    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    folder.mkdir(parents=True)
    kept = dict(sorted(manifest.items())[:count])
    for name in kept:
        (folder / name).symlink_to(corpus / name)
    (folder / "MANIFEST.json").write_text(json.dumps(kept), encoding="utf-8")
    return folder


def run_batch(
    corpus: Path, *, model: Path, work: Path, max_tokens: int, timeout: float, workers: int | None, isolate: bool
) -> dict:
    """Run the corpus through the CLI once and summarise it."""
    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    passwords = list(dict.fromkeys(m["password"] for m in manifest.values() if m.get("password")))
    password_file = work / "passwords.txt"
    password_file.write_text("\n".join(passwords) + "\n", encoding="utf-8")
    jsonl = work / f"records-{'isolated' if isolate else 'in-process'}.jsonl"
    jsonl.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "extractor.cli",
        str(corpus),
        "--model",
        str(model),
        "--max-tokens",
        str(max_tokens),
        "--no-constrained",
        "--timeout",
        str(timeout),
        "--password-file",
        str(password_file),
        "--jsonl",
        str(jsonl),
        "--isolate" if isolate else "--no-isolate",
    ]
    if workers:
        command += ["--workers", str(workers)]
    start = time.perf_counter()
    with open(work / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        with TreeSampler(proc.pid) as sampler:
            _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()] if jsonl.exists() else []
    outcomes = collections.Counter(
        f"error: {r['errors'][0]['code']}" if r["status"] == "error" else r["status"] for r in records
    )
    slowest = max(records, key=lambda r: r["timings"].get("total_s", 0), default=None)
    slowest_render = max(records, key=lambda r: r["timings"].get("render_s", 0), default=None)
    largest = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    names = sorted(Path(r["source"]).name for r in records)
    return {
        "mode": "isolated" if isolate else "in-process",
        "files": len(manifest),
        "records": len(records),
        "one_record_per_file": names == sorted(manifest),
        "exit_code": proc.returncode,
        "wall_s": round(wall, 1),
        "outcomes": dict(sorted(outcomes.items())),
        "slowest": None
        if slowest is None
        else {
            "file": Path(slowest["source"]).name,
            "total_s": slowest["timings"].get("total_s"),
            "pages": slowest["pages"],
        },
        "slowest_render": None
        if slowest_render is None
        else {"file": Path(slowest_render["source"]).name, "render_s": slowest_render["timings"].get("render_s")},
        "render_s_sum": round(sum(r["timings"].get("render_s", 0) for r in records), 2),
        "render_wait_s_sum": round(sum(r["timings"].get("render_wait_s", 0) for r in records), 2),
        "peak_rss_mib": {
            "largest_process": round(largest / MIB),
            "process_tree_sampled": round(sampler.peak / MIB) if sampler.peak else None,
        },
        "processes_seen": sampler.processes or None,
        "timed_out_or_crashed": sum(n for k, n in outcomes.items() if k in ("error: timeout", "error: crashed")),
    }


def render_overhead(corpus: Path) -> dict:
    """Render-only cost per document: a warm worker (one document at a time) against this process."""
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.pool import RenderPool
    from extractor.inputs.renderer import render_here

    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    # 50 pages at most, as docs/benchmarks.md's numbers were measured: RasterSettings' default is the batch's 500
    # (read in windows there), ~2 GB of pixels in one document at the default budget, a worker's whole 2 GiB limit
    raster = RasterSettings(
        passwords=tuple(dict.fromkeys(m["password"] for m in manifest.values() if m.get("password"))), max_pages=50
    )
    files = sorted(str(p) for p in corpus.glob("*.pdf"))
    here, isolated, pages = {}, {}, {}
    for path in files:
        start = time.perf_counter()
        rendered = render_here(path, raster=raster)
        here[path] = time.perf_counter() - start
        pages[path] = len(rendered.document.pages) if rendered.document else 0
        del rendered
    with RenderPool(workers=1) as pool:
        start = time.perf_counter()
        pool.render(files[0], raster=raster)  # start-up, measured separately
        startup = time.perf_counter() - start
        for path in files:
            start = time.perf_counter()
            pool.render(path, raster=raster)
            isolated[path] = time.perf_counter() - start
    extra = {path: isolated[path] - here[path] for path in files}
    one_page = [extra[p] for p in files if pages[p] == 1]
    failed = [extra[p] for p in files if pages[p] == 0]
    many = max(files, key=lambda p: pages[p])
    return {
        "worker_start_s": round(startup, 3),
        "in_process_s_total": round(sum(here.values()), 2),
        "isolated_s_total": round(sum(isolated.values()), 2),
        "overhead_ms_median_one_page": round(statistics.median(one_page) * 1000, 1) if one_page else None,
        "overhead_ms_median_error": round(statistics.median(failed) * 1000, 1) if failed else None,
        "overhead_ms_largest": {"file": Path(many).name, "pages": pages[many], "ms": round(extra[many] * 1000, 1)},
    }


def show(result: dict) -> None:
    """Print the result as Markdown tables."""
    runs = result["runs"]
    print(f"hostile corpus: {runs[0]['files']} files, model: {result['model']}\n")
    print("| outcome | " + " | ".join(run["mode"] for run in runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for key in sorted({k for run in runs for k in run["outcomes"]}):
        print(f"| {key} | " + " | ".join(str(run["outcomes"].get(key, 0)) for run in runs) + " |")
    rows = [
        ("records / exit code", lambda r: f"{r['records']} / {r['exit_code']}"),
        ("wall seconds", lambda r: f"{r['wall_s']}"),
        (
            "slowest file (total_s, pages)",
            lambda r: (
                f"{r['slowest']['file']} ({r['slowest']['total_s']:.2f} s, {r['slowest']['pages']} p.)"
                if r["slowest"]
                else "-"
            ),
        ),
        (
            "slowest render",
            lambda r: (
                f"{r['slowest_render']['file']} ({r['slowest_render']['render_s']:.2f} s)"
                if r["slowest_render"]
                else "-"
            ),
        ),
        ("render seconds, sum", lambda r: f"{r['render_s_sum']}"),
        ("generation waited for rendering, s", lambda r: f"{r['render_wait_s_sum']}"),
        ("peak RSS, largest process", lambda r: f"{r['peak_rss_mib']['largest_process']} MiB"),
        (
            "peak RSS, process tree (sampled)",
            lambda r: (
                f"{r['peak_rss_mib']['process_tree_sampled']} MiB"
                if r["peak_rss_mib"]["process_tree_sampled"]
                else "n/a"
            ),
        ),
        ("processes at once (max seen)", lambda r: f"{r['processes_seen'] or 'n/a'}"),
    ]
    print("\n| | " + " | ".join(run["mode"] for run in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(run) for run in runs) + " |")
    if "render_overhead" in result:
        print("\nrender-only overhead of a worker (warm worker, one document at a time):\n")
        print("| measure | value |\n|---|---|")
        for key, value in result["render_overhead"].items():
            if isinstance(value, dict):
                value = ", ".join(f"{k} {v}" for k, v in value.items())
            print(f"| {key} | {value} |")


def main(argv: list[str] | None = None) -> int:
    """Run the bench; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the hostile corpus folder")
    parser.add_argument("--model", type=Path, help="model directory (default: build a tiny scripted one)")
    parser.add_argument("--max-tokens", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--compare", action="store_true", help="also run with --no-isolate, and time rendering")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--files", type=int, default=0, help="only the first N files of the corpus (0: all)")
    smoke_option(parser, files=2)
    args = parse(parser, argv)
    if not (args.corpus / "MANIFEST.json").is_file():
        parser.error(f"{args.corpus} has no MANIFEST.json (is ../shared there?)")
    with tempfile.TemporaryDirectory(prefix="hostile-bench-") as tmp:
        work = Path(tmp)
        corpus = first_files(args.corpus, args.files, work / "corpus") if args.files else args.corpus
        model = args.model or build_model(work)
        common = dict(model=model, work=work, max_tokens=args.max_tokens, timeout=args.timeout, workers=args.workers)
        runs = [run_batch(corpus, isolate=True, **common)]
        if args.compare:
            runs.append(run_batch(corpus, isolate=False, **common))
        result = {"model": "tiny scripted qwen3_5" if args.model is None else str(args.model), "runs": runs}
        if args.compare:
            result["render_overhead"] = render_overhead(corpus)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
    first = runs[0]
    ok = (
        first["one_record_per_file"]
        and first["timed_out_or_crashed"] == 0
        and first["peak_rss_mib"]["largest_process"] * MIB < RSS_TARGET
    )
    return exit_code(args, ok)


if __name__ == "__main__":
    sys.exit(main())
