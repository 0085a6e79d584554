"""Bench: the throughput bench's "+ both" row (prefix cache and jump-forward) for one checkout, as JSON, so two
versions of the runner can be compared side by side on the same prebuilt model::

    python bench/throughput.py --size mid --docs 1        # builds /tmp/extractor-bench-throughput-mid once
    git worktree add /tmp/old REV
    for i in 1 2; do for code in /tmp/old .; do
        LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 \\
            python bench/regression.py $code /tmp/extractor-bench-throughput-mid 2 >> both.jsonl
    done; done

Each line: the checkout, docs/min (wall), CPU seconds per document (this process), decode steps per document, and
each record's data, status, finish_reason, generated and prompt tokens (compare them across lines: identical
records). Alternate the checkouts and repeat: wall time is noisy on a shared machine, CPU seconds less so.
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path


def main(checkout: str, model: str, docs: int) -> None:
    sys.path.insert(0, checkout)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
    import extractor

    assert extractor.__file__.startswith(str(Path(checkout).resolve())), extractor.__file__
    from extractor import Extractor, Settings
    from extractor.runners.mlx.runner import MlxRunner

    sources = sorted(str(p) for p in (Path(checkout) / "samples").iterdir() if p.suffix in (".pdf", ".png"))[:docs]
    runner = MlxRunner(model=model)
    runner.clear_prefix_cache()
    settings = Settings(model=model, prefix_cache=True, jump_forward=True, constrained=True, max_tokens=1024)
    started, cpu = time.perf_counter(), time.process_time()
    records = list(Extractor(settings, runner=runner).extract_many(sources))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        json.dumps(
            {
                "code": checkout,
                "docs_per_min": len(records) / wall * 60,
                "cpu_s_per_doc": cpu / len(records),
                "decode_steps": statistics.fmean(r.usage.decode_steps for r in records),
                "records": [
                    [r.data, r.status, r.finish_reason, r.usage.generated_tokens, r.usage.prompt_tokens]
                    for r in records
                ],
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["--smoke"]:  # this checkout, the throughput bench's small model, one document
        from throughput import build_model

        main(str(Path(__file__).resolve().parents[1]), str(build_model("small")), 1)
    elif len(sys.argv) == 4:
        main(str(Path(sys.argv[1]).resolve()), sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit("usage: python bench/regression.py CHECKOUT MODEL DOCS (or --smoke: the smallest run, CI's)")
