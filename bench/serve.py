"""Bench: ``extract serve`` against ``extract run`` on the same documents, and the store's claim latency.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/serve.py \
        [--docs 40] [--repeat 5] [--postgres postgresql://USER:PASSWORD@HOST/DB]

The documents are copies of ``samples/invoice-de-einfach.pdf``, each with a distinct trailing comment (so no job is
answered from an earlier one's record), on a scripted tiny qwen3_5 model answering a one-field schema; what is
measured is the service's overhead around the same core, not the model. Rows:

* ``extract run``: one process over N documents, documents/min from its first record file's write to its last's
  over N - 1 documents (process start, model load and the first document's warm-up left out);
* ``extract serve``: the server started and loaded first; N uploads posted at once; documents/min from the first
  job's end to the last's over N - 1 documents (the same steady state), and the time ratio to ``extract run``
  (the median of the rounds' ratios, each round's two rows measured back to back; target: 1.1x or less);
  p50/p95 of the time to first status (POST until its 202 answer);

both rows alternate ``--repeat`` rounds (medians shown), so a busy machine weighs on both alike;
* ``claim (sqlite|postgres)``: the store alone: N jobs claimed and finished by 4 threads; p50/p95 of one claim
  statement, and the queue wait of a job submitted to an idle ``extract worker`` polling the store (p50/p95 over 8
  jobs; bounded by the worker's idle interval, 1 s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
SCHEMA = {"title": "note", "type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
KEY = "bench-key"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def extraction_options(model: Path, schema: Path) -> list[str]:
    return ["--model", str(model), "--schema", str(schema), "--no-isolate", "--ocr", "never"]


def documents(folder: Path, n: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        path = folder / f"doc{i:03d}.pdf"
        path.write_bytes(SAMPLE.read_bytes() + f"\n%bench {i}\n".encode())
        paths.append(path)
    return paths


def cli_rate(model: Path, schema: Path, docs: list[Path], work: Path) -> float:
    """Documents/min of ``extract run`` in steady state: from its first record file's write to its last's, over
    N - 1 documents (the service's row is measured the same way, from job ends: start and load left out of both)."""
    out = work / "cli"
    command = [sys.executable, "-m", "extractor.cli", "run", *map(str, docs), "--out", str(out)]
    subprocess.run([*command, *extraction_options(model, schema)], check=False, capture_output=True)
    ends = sorted(path.stat().st_mtime for path in out.glob("*.json"))
    assert len(ends) == len(docs), f"extract run wrote {len(ends)} of {len(docs)} records"
    return (len(docs) - 1) * 60.0 / (ends[-1] - ends[0])


class Service:
    """``extract serve`` in a subprocess, loaded once; ``rate`` posts a batch of documents to it."""

    def __init__(self, model: Path, schema: Path, work: Path) -> None:
        import httpx

        self.log = work / "serve.log"
        env = {**os.environ, "EXTRACT_API_KEYS": f"bench:{KEY}"}
        command = [sys.executable, "-m", "extractor.cli", "serve", "--port", "0", "--store"]
        command += [f"sqlite:///{work / 'jobs.sqlite'}", "--no-reuse", *extraction_options(model, schema)]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(command, env=env, stdout=out, stderr=out)
        while "serve: http://" not in self.log.read_text(errors="replace"):
            assert self.proc.poll() is None, self.log.read_text()
            time.sleep(0.05)
        url = next(x for x in self.log.read_text().splitlines() if x.startswith("serve: ")).split()[1].rstrip("/")
        headers = {"Authorization": f"Bearer {KEY}"}
        self.client = httpx.Client(base_url=url, headers=headers, timeout=600, trust_env=False)

    def rate(self, docs: list[Path], tag: str) -> tuple[float, list[float]]:
        """Documents/min in steady state (first job's end to the last's), and each POST's time to its 202."""

        def submit(path: Path) -> tuple[str, float]:
            start = time.perf_counter()
            body = path.read_bytes() + tag.encode()  # distinct bytes each round
            response = self.client.post("/v1/jobs", files={"file": (path.name, body)})
            response.raise_for_status()
            return response.json()["id"], time.perf_counter() - start

        with ThreadPoolExecutor(8) as pool:
            submitted = list(pool.map(submit, docs))
        finished = []
        for job_id, _ in submitted:
            while (job := self.client.get(f"/v1/jobs/{job_id}", params={"wait": 60}).json())["status"] != "done":
                pass
            finished.append(job["finished"])
        ends = sorted(datetime.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp() for t in finished)
        return (len(docs) - 1) * 60.0 / (ends[-1] - ends[0]), [seconds for _, seconds in submitted]

    def close(self) -> None:
        self.client.close()
        self.proc.terminate()
        self.proc.wait(timeout=30)


def claim_latency(url: str, n: int) -> tuple[list[float], str]:
    """Each claim statement's seconds, with 4 threads claiming and finishing ``n`` jobs of one store."""
    from extractor.service.config import open_store

    store = open_store(url)
    for i in range(n):
        store.submit(tenant="bench", filename=f"{i}.pdf", data=b"x", sha256=str(i), fingerprint="f", options={})
    seconds: list[float] = []
    lock = threading.Lock()

    def drain() -> None:
        while True:
            start = time.perf_counter()
            job = store.claim(lease=60)
            took = time.perf_counter() - start
            if job is None:
                return
            with lock:
                seconds.append(took)
            store.finish(job, records=[{}])

    threads = [threading.Thread(target=drain) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return seconds, store.describe()


def idle_worker_wait(url: str, model: Path, schema: Path, work: Path, jobs: int = 8) -> list[float]:
    """Queue wait (accepted to claimed) of jobs submitted one at a time to an idle ``extract worker``."""
    from extractor.service.config import open_store

    store = open_store(url)
    log = work / "worker.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "extractor.cli", "worker", "--store", url, *extraction_options(model, schema)],
            stdout=out,
            stderr=out,
        )
    waits = []
    try:
        while "worker: claiming" not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text()
            time.sleep(0.05)
        data = SAMPLE.read_bytes()
        for i in range(jobs):
            time.sleep(0.37)  # a submission at a random moment of the worker's idle interval
            job, _ = store.submit(
                tenant="bench",
                filename=f"w{i}.pdf",
                data=data + f"%w{i}".encode(),
                sha256=f"w{i}",
                fingerprint="f",
                options={},
            )
            while (current := store.get(job.id)) is not None and current.status != "done":
                time.sleep(0.02)
            assert current is not None and current.started is not None
            waits.append(current.started - current.created)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5, help="alternating rounds of extract run and extract serve")
    parser.add_argument("--postgres", metavar="URL", help="also measure a PostgreSQL store (a scratch database)")
    parser.add_argument("--claims", type=int, default=200, help="jobs claimed and finished by 4 threads per store")
    parser.add_argument("--idle-jobs", type=int, default=8, help="jobs submitted one at a time to an idle worker")
    smoke_option(parser, docs=2, repeat=1, claims=20, idle_jobs=2)
    args = parse(parser)
    from extractor.testing.qwen35 import build_scripted_model

    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        work = Path(folder)
        schema = work / "note.schema.json"
        schema.write_text(json.dumps(SCHEMA))
        model = build_scripted_model(work / "model", answer='{"n":"x"}', schema=str(schema)).path
        docs = documents(work / "docs", args.docs)
        service = Service(model, schema, work)
        cli_rates, served_rates, first_status = [], [], []
        try:
            for round_ in range(args.repeat):  # alternating, so both see the same machine
                cli_rates.append(cli_rate(model, schema, docs, work / f"cli{round_}"))
                rate, seconds = service.rate(docs, f"%round {round_}")
                served_rates.append(rate)
                first_status += seconds
        finally:
            service.close()
        cli, served = statistics.median(cli_rates), statistics.median(served_rates)
        ratio = statistics.median(c / v for c, v in zip(cli_rates, served_rates, strict=True))  # paired, per round
        print(f"documents: {args.docs} x {SAMPLE.name} (distinct bytes), scripted tiny qwen3_5, one-field schema;")
        print(f"medians of {args.repeat} alternating rounds (extract run: {', '.join(f'{r:.0f}' for r in cli_rates)};")
        print(f"extract serve: {', '.join(f'{r:.0f}' for r in served_rates)} documents/min)\n")
        print("| row | documents/min | time vs extract run | p50 | p95 |")
        print("|---|---|---|---|---|")
        print(f"| extract run | {cli:.1f} | 1.00x | | |")
        print(
            f"| extract serve | {served:.1f} | {ratio:.2f}x | first status"
            f" {quantile(first_status, 0.5) * 1000:.0f} ms | {quantile(first_status, 0.95) * 1000:.0f} ms |"
        )
        stores = [f"sqlite:///{work / 'claims.sqlite'}"] + ([args.postgres] if args.postgres else [])
        for url in stores:
            seconds, name = claim_latency(url, args.claims)
            kind = "postgres" if url.startswith("postgres") else "sqlite"
            print(
                f"| claim ({kind}, 4 threads, {args.claims} jobs) | | | {statistics.median(seconds) * 1000:.2f} ms"
                f" | {quantile(seconds, 0.95) * 1000:.2f} ms |"
            )
            waits = idle_worker_wait(
                url if kind == "postgres" else f"sqlite:///{work / 'idle.sqlite'}", model, schema, work, args.idle_jobs
            )
            print(
                f"| queue wait, idle extract worker ({kind}) | | | {quantile(waits, 0.5) * 1000:.0f} ms"
                f" | {quantile(waits, 0.95) * 1000:.0f} ms |"
            )


if __name__ == "__main__":
    main()
