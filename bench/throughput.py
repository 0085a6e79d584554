"""Bench: documents per minute with the prefix cache and jump-forward, on a mid-size scripted qwen3_5 model.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/throughput.py \
        [--size mid|small] [--docs N] [--repeat 1] [--json]

The documents are the bundled samples (samples/*.pdf and *.png: 8 documents) through ``Extractor.extract_many``
with constrained decoding on. The model is built once (``python -m extractor.testing DIR --size mid --schema
invoice``: hidden 768 x 8 layers, float32, ~1.6 GB in /tmp) and scripted to answer ``invoice-de-einfach``'s data,
so every row decodes the same tokens (``--docs N``: the first N samples only; the mid model on 2 CPU cores takes
~2 minutes a document). Rows, each on the same loaded model with its prefix cache emptied first:

* ``today``: no prefix cache, no jump-forward (every document prefills the whole prompt; one decode step per token);
* ``+ prefix cache``: the instruction and schema are prefilled once, later documents prefill their images + suffix;
* ``+ jump-forward``: forced tokens (keys, quotes, commas) fed in one pass with the sampled token before them;
* ``+ both``;
* ``+ batch 2/4/8``: both, with that many documents decoded together (``Settings.batch``, ``runners.batching``:
  the one-token feeds of a step through the layers in one merged pass (``runners.merged``), forced runs in their
  own or, where the load-time timing says so, one token per merged step (``batching.split_runs``), the lm_head once
  per step over all of them), on a runner loaded with that batch size. The lines under the table say how each
  runner feeds forced runs, with the timings that decided it.

``--rows`` picks rows (``today,prefix,jump,both,batch2,batch4,batch8``; default all): the first one picked is the
reference of the ``x`` and records columns.

Columns: documents per minute (wall) and CPU seconds per document (this process, all threads: less sensitive
to other jobs on a shared machine than wall time), prompt tokens prefilled per document (after the first), decode
steps per document, those of them whose layer pass ran merged with other documents', generated tokens per second
of the row's wall time, mlx's peak memory during the row, and the records' agreement with the first row (data,
status, finish_reason, stop token and generated tokens must be equal). A last line measures the constrained
overhead: decode seconds per sampled token with constraints on vs off, jump-forward off so both decode the same
tokens, prefix cache on. Use OpenBLAS (the LD_PRELOAD above): the mlx[cpu] wheel's reference
BLAS is ~25x slower for float32 matmuls.
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

from smoke import parse, prebuilt, smoke_option  # noqa: E402  (bench/ is the script's folder)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
# (key, name, prefix cache, jump-forward, batch)
ROWS = (
    ("today", "today", False, False, 1),
    ("prefix", "+ prefix cache", True, False, 1),
    ("jump", "+ jump-forward", False, True, 1),
    ("both", "+ both", True, True, 1),
    ("batch2", "+ batch 2", True, True, 2),
    ("batch4", "+ batch 4", True, True, 4),
    ("batch8", "+ batch 8", True, True, 8),
)


def documents() -> list[str]:
    """The bundled samples, in name order."""
    return sorted(str(p) for p in (ROOT / "samples").iterdir() if p.suffix in (".pdf", ".png"))


def build_model(size: str) -> Path:
    """The scripted model (built once per size into the temp dir, reused by later runs)."""
    from extractor.testing import build_scripted_model, read_tiny_model

    if size == "small" and (kept := prebuilt("demo")) is not None:
        return kept
    path = Path(tempfile.gettempdir()) / f"extractor-bench-throughput-{size}"
    try:
        read_tiny_model(path)
        return path
    except Exception:  # noqa: BLE001 - not built yet (or an older build): build it
        pass
    answer = (ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8")
    answer = json.dumps(json.loads(answer), ensure_ascii=False, separators=(",", ":"))
    started = time.perf_counter()
    build_scripted_model(path, answer=answer, schema="invoice", size=size)
    print(f"built the {size} scripted model in {time.perf_counter() - started:.1f} s: {path}", file=sys.stderr)
    return path


def run_row(runner, docs: list[str], *, prefix_cache: bool, jump_forward: bool, constrained: bool = True) -> dict:
    """Extract every document once on a loaded runner; return the figures and the records."""
    import mlx.core as mx

    from extractor import Extractor, Settings

    runner.clear_prefix_cache()  # every row starts cold: its first document pays for the prefix
    settings = Settings(
        model=str(runner.model_dir),
        prefix_cache=prefix_cache,
        jump_forward=jump_forward,
        constrained=constrained,
        max_tokens=1024,
        batch=runner.batch,
    )
    mx.reset_peak_memory()
    started, cpu = time.perf_counter(), time.process_time()
    records = list(Extractor(settings, runner=runner).extract_many(docs))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    later = sorted(records, key=lambda r: r.usage.cached_prompt_tokens)[1:] or records  # all but the cold one
    return {
        "docs_per_min": len(records) / wall * 60,
        "cpu_s_per_doc": cpu / len(records),
        "prefilled": statistics.fmean(r.usage.prompt_tokens - r.usage.cached_prompt_tokens for r in later),
        "prefilled_text": statistics.fmean(
            r.usage.prompt_tokens - r.usage.cached_prompt_tokens - r.usage.image_tokens for r in later
        ),
        "decode_steps": statistics.fmean(r.usage.decode_steps for r in records),
        "generated": statistics.fmean(r.usage.generated_tokens for r in records),
        "decode_s_per_step": sum(r.timings.get("decode_s", 0) for r in records)
        / max(1, sum(r.usage.decode_steps for r in records)),
        "tokens_per_s": sum(r.usage.generated_tokens for r in records) / wall,
        "peak_gb": max([mx.get_peak_memory() / 1e9, *(r.extra.get("peak_memory_gb", 0) for r in records)]),
        "batch": max((r.usage.decoding or {}).get("batch", 1) for r in records),
        "merged_steps": statistics.fmean((r.usage.decoding or {}).get("merged_steps", 0) for r in records),
        "records": [(r.data, r.status, r.finish_reason, r.stop_token_id, r.usage.generated_tokens) for r in records],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="mid", choices=("mid", "small"))
    parser.add_argument("--docs", type=int, default=0, help="only the first N samples (0: all)")
    parser.add_argument("--repeat", type=int, default=1, help="run the rows this many times, alternating")
    parser.add_argument(
        "--rows", default=",".join(key for key, *_ in ROWS), help="rows to run, comma-separated (default: all)"
    )
    parser.add_argument("--skip-overhead", action="store_true", help="leave out the constrained-overhead line")
    parser.add_argument("--json", action="store_true")
    smoke_option(parser, size="small", docs=1, repeat=1, skip_overhead=True, rows="both")
    args = parse(parser, argv)

    from extractor.runners.mlx.runner import MlxRunner

    keys = args.rows.split(",")
    rows = [row for key in keys for row in ROWS if row[0] == key]
    if len(rows) != len(keys):
        parser.error(f"--rows: expected some of {', '.join(key for key, *_ in ROWS)}")
    docs = documents()[: args.docs or None]
    model = str(build_model(args.size))
    runners = {batch: MlxRunner(model=model, batch=batch) for batch in sorted({row[4] for row in rows} | {1})}
    results: dict[str, list[dict]] = {name: [] for _, name, *_ in rows}
    overhead = {"on": [], "off": []}
    for _ in range(args.repeat):
        for _, name, cache, jump, batch in rows:
            results[name].append(run_row(runners[batch], docs, prefix_cache=cache, jump_forward=jump))
            print(f"{name}: {results[name][-1]['docs_per_min']:.2f} docs/min", file=sys.stderr, flush=True)
        for label, constrained in () if args.skip_overhead else (("on", True), ("off", False)):
            overhead[label].append(
                run_row(runners[1], docs, prefix_cache=True, jump_forward=False, constrained=constrained)[
                    "decode_s_per_step"
                ]
            )
    first = results[rows[0][1]][0]["records"]
    table = []
    for _, name, *_ in rows:
        runs = results[name]
        table.append(
            {
                "row": name,
                "docs_per_min": statistics.median(r["docs_per_min"] for r in runs),
                "cpu_s_per_doc": statistics.median(r["cpu_s_per_doc"] for r in runs),
                "prefilled": runs[0]["prefilled"],
                "prefilled_text": runs[0]["prefilled_text"],
                "decode_steps": runs[0]["decode_steps"],
                "generated": runs[0]["generated"],
                "tokens_per_s": statistics.median(r["tokens_per_s"] for r in runs),
                "peak_gb": max(r["peak_gb"] for r in runs),
                "batch": max(r["batch"] for r in runs),
                "merged_steps": runs[0]["merged_steps"],
                "same_records": all(r["records"] == first for r in runs),
            }
        )
    cost = statistics.median(overhead["on"]) / statistics.median(overhead["off"]) - 1 if overhead["on"] else None
    if args.json:
        print(
            json.dumps(
                {"documents": len(docs), "size": args.size, "rows": table, "constrained_overhead": cost}, indent=2
            )
        )
        return 0
    base, cpu_base = table[0]["docs_per_min"], table[0]["cpu_s_per_doc"]
    print(f"{len(docs)} documents, {args.size} scripted model, constrained decoding, median of {args.repeat} run(s)\n")
    print(
        f"| row | docs/min | x {table[0]['row']} | CPU s / doc | x (CPU) | "
        "prompt tokens prefilled / doc (text only) | decode steps / doc (generated) | merged steps / doc | "
        "generated tok/s | peak GB | most decoded together | records = first row |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in table:
        print(
            f"| {row['row']} | {row['docs_per_min']:.2f} | {row['docs_per_min'] / base:.2f} | "
            f"{row['cpu_s_per_doc']:.1f} | {cpu_base / row['cpu_s_per_doc']:.2f} | "
            f"{row['prefilled']:.0f} ({row['prefilled_text']:.0f}) | {row['decode_steps']:.0f} "
            f"({row['generated']:.0f}) | {row['merged_steps']:.0f} | {row['tokens_per_s']:.1f} | "
            f"{row['peak_gb']:.2f} | {row['batch']} | "
            f"{'yes' if row['same_records'] else 'NO'} |"
        )
    print()
    for batch, runner in runners.items():  # how each runner feeds forced runs (timed at its load)
        feed = runner.decoding.probe.get("feed_ms", {})
        print(
            f"batch {batch}: forced runs {runner.decoding.forced_feed} (one pass {feed.get('one_pass')} ms, "
            f"per token {feed.get('per_token')} ms)"
            + (
                f"; in the batch {'one token per merged step' if runner._loop.split else 'their own passes'} "
                f"(layers over a run {runner.batch_feed_ms.get('run')} ms, over one token "
                f"{runner.batch_feed_ms.get('one')} ms)"
                if runner._loop is not None
                else ""
            )
        )
    if cost is not None:
        print(f"\nconstrained overhead (decode s per sampled token, constrained vs not, jump-forward off): {cost:+.1%}")
    return 0 if all(row["same_records"] for row in table) else 1


if __name__ == "__main__":
    sys.exit(main())
