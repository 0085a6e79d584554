"""Bench: every kit model family through the runner: decode path, features, end-of-turn token, doctor, speed.

One command, one table (docs/models.md's "Model families" section carries it)::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/families.py [--docs 3] [--json]

Each family's tiny checkpoint (``extractor.testing.build_family_model``, random float32 weights of the real
mlx-vlm architecture) is built with its typical config bug: config.json and generation_config.json name only the
tokenizer's eos, while the template ends turns with its own token. Columns:

* ``path``, ``prefix cache``, ``jump-forward``: the load-time decision (``runners.decoding``: flags, the probe
  against ``generate_step``); ``image prompts``: the path a prompt with page images takes (a model that forbids
  chunked prefill with images runs those on ``generate_step``);
* ``end of turn``: the token the template ends an assistant turn with, its id, and where the stop set found it;
* ``doctor``: the verdict on the bug directory, then after ``--fix``;
* ``s/doc``: wall seconds per document (``invoice-de-einfach.pdf`` and the other samples, a one-field schema, the
  answer forced token by token with the kit's ``force_answer``, then the end-of-turn token forever), prefix cache
  warm; ``tokens``: generated tokens per document (answer + the stop token); ``status``: the records' statuses.
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

from smoke import family_model, parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = {
    "title": "Note",
    "type": "object",
    "additionalProperties": False,
    "required": ["number", "total"],
    "properties": {
        "number": {"type": "string", "maxLength": 12},
        "total": {"type": "number", "minimum": 0, "maximum": 100000, "multipleOf": 0.01},
    },
}
ANSWER = '{"number":"RE-2026-0042","total":1234.56}'
DOCS = ("invoice-de-einfach.pdf", "invoice-fr-services.pdf", "invoice-us.png", "invoice-jp-yen.pdf")


def verdict(report) -> str:
    statuses = [c.status for c in report.checks]
    return "fail" if "fail" in statuses else "warn" if "warn" in statuses else "pass"


def measure(name: str, root: Path, schema: Path, docs: int) -> dict:
    from extractor import Extractor, Settings
    from extractor.runners.mlx.runner import MlxRunner
    from extractor.testing import force_answer
    from extractor.tools.doctor import run_doctor

    family = family_model(root, name, config_bug=True)
    before = verdict(run_doctor(str(family.path)))
    fixed_dir = root / f"{name}-fixed"
    shutil.copytree(family.path, fixed_dir)
    after = verdict(run_doctor(str(fixed_dir), fix=True))
    runner = MlxRunner(model=str(family.path))
    forced = force_answer(runner.tokenizer, ANSWER, end_token_id=family.end_of_turn_id)
    settings = Settings(
        model=str(family.path),
        schema=str(schema),
        isolate=False,
        ocr="never",
        max_tokens=200,
        extra_processors=lambda attempt: (forced,),
    )
    extractor = Extractor(settings, runner=runner)
    extractor.extract(str(ROOT / "samples" / DOCS[0]))  # warm: the prefix cache and the grammar
    start, records = time.perf_counter(), []
    for doc in DOCS[:docs]:
        records.append(extractor.extract(str(ROOT / "samples" / doc)))
    seconds = (time.perf_counter() - start) / len(records)
    plan, used = runner.decoding, records[0].usage.decoding
    source = next(s for s in runner.stop_set.sources[family.end_of_turn_id] if s.startswith("chat_template"))
    return {
        "family": name,
        "path": plan.path,
        "image prompts": used["path"],
        "prefix cache": plan.prefix_cache,
        "jump-forward": plan.jump_forward,
        "end of turn": f"{family.end_of_turn} {family.end_of_turn_id}",
        "found": source,
        "in config": family.end_of_turn_id in family.declared_eos_ids,
        "doctor": f"{before} -> {after}",
        "s/doc": round(seconds, 2),
        "tokens": round(sum(r.usage.generated_tokens for r in records) / len(records), 1),
        "status": ",".join(sorted({r.status for r in records})),
    }


def table(rows: list[dict]) -> str:
    keys = list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in rows:
        lines.append(
            "| " + " | ".join("yes" if v is True else "no" if v is False else str(v) for v in row.values()) + " |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=3, help="documents timed per family (1-4)")
    parser.add_argument("--family", action="append", help="only these families (repeatable)")
    parser.add_argument("--json", action="store_true")
    smoke_option(parser, docs=1, family=["mistral3"])  # the cheapest family to build and decode (decode_step.py)
    args = parse(parser, argv)
    from extractor.testing import family_names

    with tempfile.TemporaryDirectory(prefix="families-") as tmp:
        root = Path(tmp)
        schema = root / "note.schema.json"
        schema.write_text(json.dumps(SCHEMA), encoding="utf-8")
        rows = []
        for name in args.family or family_names():
            rows.append(measure(name, root, schema, max(1, min(args.docs, len(DOCS)))))
            print(f"{name}: {rows[-1]['s/doc']} s/doc", file=sys.stderr, flush=True)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
