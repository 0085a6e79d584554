"""Bench: what ``--einvoice``'s default schema (``invoice-en16931``) costs against ``invoice``, side by side in one run.

Per schema:

* **prefix tokens**: the prompt's shared prefix (the system message: instruction and the schema's field list,
  ``pipeline.describe``), prefilled once per batch and cached after (``pipeline.prompt``), in the kit's tokenizer
  (the scripted models' byte-level BPE with Qwen's pre-tokenizer);
* **answer tokens**: each sample's expected answer (``samples/expected/*.json`` and ``samples/expected/en16931/``)
  as a model that leaves out what is absent writes it (``extractor.testing.lean_answer``), compact JSON, summed
  over the 7 invoice samples (what a model generates, before jump-forward feeds the keys);
* on the kit's scripted ``qwen3_5`` model answering ``invoice-de-einfach``'s expected answer under each schema,
  leaving out what is absent (``omit_absent=True``; the record's data is the full answer all the same), constrained,
  jump-forward on, as ``extract`` runs: the record's prompt tokens, generated tokens and decode steps,
  the first extraction's seconds (grammar compiled, prefix prefilled) and the median of the next ``--repeat``
  (prefix cached), the schemas alternating.

The kit model is tiny (hidden 32): its seconds show the pipeline's and the constraint's own cost, not a real
model's; a real model's time scales with the token counts (prefill with the prefix, decode with the decode steps).

Usage::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/einvoice_schema_cost.py [--repeat N] [--json]

Prints one Markdown table (JSON with ``--json``) and the ratio row, then the machine's load average; exit 0.
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
sys.path.insert(0, str(ROOT))
from smoke import parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

SCHEMAS = ("invoice", "invoice-en16931")
SAMPLE = "invoice-de-einfach"


def _answers(schema: str) -> dict[str, dict]:
    folder = ROOT / "samples" / "expected" / ("en16931" if schema == "invoice-en16931" else "")
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("invoice-*.json"))}


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def measure(*, repeat: int) -> list[dict]:
    """One row per schema (see the module docstring)."""
    from tokenizers import Tokenizer

    from extractor import Extractor
    from extractor.pipeline.prompt import build_messages
    from extractor.schema import load_schema
    from extractor.testing import build_scripted_model, lean_answer

    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="einvoice-schema-cost-") as tmp:
        models = {
            schema: build_scripted_model(
                Path(tmp) / schema, answer=_compact(_answers(schema)[SAMPLE]), schema=schema, omit_absent=True
            ).path
            for schema in SCHEMAS
        }
        tokenizer = Tokenizer.from_file(str(models["invoice"] / "tokenizer.json"))
        for schema in SCHEMAS:
            prefix = build_messages(load_schema(schema), pages=1)[0].text
            answers = _answers(schema)
            rows[schema] = {
                "schema": schema,
                "prefix_tokens": len(tokenizer.encode(prefix).ids),
                "answer_tokens": sum(len(tokenizer.encode(lean_answer(a, schema)).ids) for a in answers.values()),
                "samples": len(answers),
                "runs": [],
            }
        extractors = {s: Extractor(model=str(models[s]), schema=s, isolate=False) for s in SCHEMAS}
        try:
            for _ in range(repeat + 1):  # the first run of each: cold (grammar, prefix)
                for schema in SCHEMAS:
                    start = time.perf_counter()
                    record = extractors[schema].extract(str(ROOT / "samples" / f"{SAMPLE}.pdf"))
                    seconds = time.perf_counter() - start
                    assert record.data == _answers(schema)[SAMPLE], (schema, record.status, record.errors)
                    rows[schema]["runs"].append(seconds)
                    rows[schema].update(
                        prompt_tokens=record.usage.prompt_tokens,
                        generated_tokens=record.usage.generated_tokens,
                        decode_steps=record.usage.decode_steps,
                    )
        finally:
            for ex in extractors.values():
                ex.close()
    out = []
    for row in rows.values():
        runs = row.pop("runs")
        out.append({**row, "first_s": round(runs[0], 3), "warm_median_s": round(statistics.median(runs[1:]), 3)})
    return out


KEYS = (
    "prefix_tokens",
    "answer_tokens",
    "prompt_tokens",
    "generated_tokens",
    "decode_steps",
    "first_s",
    "warm_median_s",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm extractions per schema (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    smoke_option(parser, repeat=1)
    args = parse(parser)
    rows = measure(repeat=max(1, args.repeat))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| schema | " + " | ".join(KEYS) + " |")
    print("|---|" + "---:|" * len(KEYS))
    for row in rows:
        print(f"| {row['schema']} | " + " | ".join(str(row[k]) for k in KEYS) + " |")
    base, big = rows
    print("| ratio | " + " | ".join(f"{big[k] / base[k]:.2f}x" if base[k] else "" for k in KEYS) + " |")
    print(f"\nload average (1, 5, 15 min) after the run: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
