"""Bench: documents per minute against local ``mlx_vlm.server`` processes, and the in-process runner as the baseline.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/endpoints.py [--json]

The documents are the bundled samples (samples/*.pdf and *.png: 8 documents) through ``Extractor.extract_many``
(invoice schema, rendering in this process). The model is ``bench/throughput.py``'s small one: a tiny scripted
qwen3_5 (hidden 32 x 2 layers, built once into the temp dir) that answers ``invoice-de-einfach``'s data (~280 tokens)
for every page, converted as upstream ships Qwen3.5 (config.json eos 248044 only): the servers do not stop on
``<|im_end|>``, so our ``end_marker`` guard closes each stream one token after the answer. Rows:

* ``in-process``: ``MlxRunner`` in this process (constrained decoding with jump-forward, prefix cache), one
  document at a time;
* ``N server(s), concurrency C``: ``--endpoint`` on N ``python -m mlx_vlm.server`` processes started here on
  127.0.0.1 (each loads the same model; each is warmed up with one request first), C documents in flight in total.

Every row extracts the same documents once; the ``records = baseline`` column checks that the data and statuses are
the in-process runner's. The in-process runner is warmed up with one document first (its one-time costs: the
grammar's tokenizer, the prefix). On the 2-core machine this was written on, a second server competes for the same
two cores as the first: expect no speed-up from it here; on a GPU box or several Macs each server brings its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the test kit's MlxServer starts and stops the servers (one copy of it)
sys.path.insert(0, str(ROOT / "bench"))  # throughput.build_model: the same scripted model, built once for both
from smoke import parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

SERVERS = (1, 2)
CONCURRENCY = (1, 2, 4)


def documents() -> list[str]:
    """The bundled samples, in name order."""
    return sorted(str(p) for p in (ROOT / "samples").iterdir() if p.suffix in (".pdf", ".png"))


def run_row(extractor, docs: list[str]) -> dict:
    """Extract every document once; the figures and the records."""
    started = time.perf_counter()
    records = list(extractor.extract_many(docs))
    wall = time.perf_counter() - started
    pool = getattr(extractor.runner, "pool", None)
    return {
        "docs_per_min": len(records) / wall * 60,
        "wall_s": wall,
        "generated": statistics.fmean(r.usage.generated_tokens for r in records),
        "per_endpoint": [s["requests"] for s in pool.stats().values()] if pool else [],
        "peak_in_flight": pool.peak_in_flight if pool else 1,
        "records": [(r.data, r.status) for r in records],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--docs", type=int, default=0, help="only the first N samples (0: all)")
    parser.add_argument("--servers", default=",".join(map(str, SERVERS)), help="server counts, one row each")
    parser.add_argument("--concurrency", default=",".join(map(str, CONCURRENCY)), help="concurrencies per count")
    parser.add_argument("--no-warm", dest="warm", action="store_false", help="no untimed first document per runner")
    smoke_option(parser, docs=1, servers="1", concurrency="1", warm=False)
    args = parse(parser, argv)
    servers_rows, concurrencies = ([int(n) for n in arg.split(",")] for arg in (args.servers, args.concurrency))

    from helpers import MlxServer
    from throughput import build_model

    from extractor import Extractor, Settings

    docs, model = documents()[: args.docs or None], build_model("small")
    base = Settings(model=str(model), schema="invoice", max_tokens=1024)
    rows = []
    with Extractor(base) as local:
        if args.warm:
            local.extract(docs[0])  # warm-up: llguidance's tokenizer, the prefix cache
        rows.append({"row": "in-process", **run_row(local, docs)})
    logs = Path(tempfile.mkdtemp(prefix="extractor-bench-endpoints-"))
    servers = [MlxServer(model, logs / f"server{i}.log") for i in range(max(servers_rows))]
    try:
        for server in servers:
            server.wait_ready()
            if args.warm:
                with Extractor(base.replace(endpoint=server.url)) as warm:
                    warm.extract(docs[0])  # warm-up: the server's first request
        for count in servers_rows:
            for concurrency in concurrencies:
                settings = base.replace(endpoint=tuple(s.url for s in servers[:count]), concurrency=concurrency)
                with Extractor(settings) as remote:
                    rows.append(
                        {
                            "row": f"{count} server{'s' if count > 1 else ''}, concurrency {concurrency}",
                            **run_row(remote, docs),
                        }
                    )
    finally:
        for server in servers:
            server.stop()
    baseline = rows[0]["records"]
    for row in rows:
        row["same_records"] = row.pop("records") == baseline
    if args.json:
        print(json.dumps({"documents": len(docs), "rows": rows}, indent=2))
    else:
        print(f"{len(docs)} documents, tiny scripted qwen3_5 (invoice answer), one run per row\n")
        print(
            "| runner | docs/min | x in-process | wall s | generated / doc | requests per server | "
            "peak in flight | records = baseline |"
        )
        print("|---|---:|---:|---:|---:|---|---:|---|")
        first = rows[0]["docs_per_min"]
        for row in rows:
            print(
                f"| {row['row']} | {row['docs_per_min']:.1f} | {row['docs_per_min'] / first:.2f} | "
                f"{row['wall_s']:.1f} | {row['generated']:.0f} | "
                f"{' / '.join(map(str, row['per_endpoint'])) or '-'} | {row['peak_in_flight']} | "
                f"{'yes' if row['same_records'] else 'NO'} |"
            )
    return 0 if all(row["same_records"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
