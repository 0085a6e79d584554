"""Bench: what one decode step costs on each kit family (which family the tests force answers on, and why).

A 5-page invoice of 50 line items (``tests/test_windows.long_invoice``; ``--per-page 10``) goes through
``MlxRunner`` in one 8-page window, the answer forced per window by ``tests/helpers.following`` (the invoice schema,
constrained, jump-forward on): ~2,200 generated tokens, ~1,700 decode steps. The second of two runs is timed (prefix
cache warm). ``--smoke``: the cheapest family (mistral3) on one line a page.

Usage::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 OPENBLAS_NUM_THREADS=1 \\
        HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/decode_step.py [--families gemma3,mistral3,...]
        [--per-page 10]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests")]
from smoke import family_model, parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

DEFAULT_FAMILIES = "mistral3,idefics3,gemma3,smolvlm,qwen2_5_vl,qwen3_5"


def measure(name: str, folder: Path, *, per_page: int) -> dict:
    """One family's row."""
    import test_windows as windows

    from extractor.runners.mlx.runner import MlxRunner

    family = family_model(folder, name)
    runner = MlxRunner(model=str(family.path))
    (folder / f"{name}-doc").mkdir()
    path, data = windows.long_invoice(folder / f"{name}-doc", 5, per_page)
    for _ in range(2):  # the second run is timed: prefix cache warm, like every document after a batch's first
        extractor = windows._extractor(
            runner,
            window_pages=8,
            max_tokens=4096,
            request_processors=windows._answers(family.path, data, per_page, end=family.end_of_turn_id),
        )
        start = time.perf_counter()
        record = extractor.extract(path)
        seconds = time.perf_counter() - start
    steps = record.usage.decode_steps
    return {
        "family": name,
        "status": record.status,
        "tokens": record.usage.generated_tokens,
        "steps": steps,
        "s/doc": round(seconds, 1),
        "ms/step": round(1000 * seconds / steps, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=DEFAULT_FAMILIES)
    parser.add_argument("--per-page", type=int, default=10, help="line items on each of the invoice's 5 pages")
    smoke_option(parser, families="mistral3", per_page=1)
    args = parse(parser)
    with tempfile.TemporaryDirectory(prefix="extractor-bench-step-") as tmp:
        rows = [measure(name, Path(tmp), per_page=args.per_page) for name in args.families.split(",")]
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" if c in ("family", "status") else "---:" for c in columns) + "|")
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")


if __name__ == "__main__":
    main()
