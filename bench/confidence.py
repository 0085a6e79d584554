"""Bench: what per-field confidence costs in the decode loop, and how reliable it is on the kit's scripted set.

One command, two tables::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 OPENBLAS_NUM_THREADS=1 HF_HUB_OFFLINE=1 \\
        MLX_DISABLE_COMPILE=1 python bench/confidence.py [--runs 5] [--records 12] [--size small|mid] [--json]

**Decode cost.** The demo's scripted answer (``samples/expected/invoice-de-einfach.json``: 362 tokens under the
invoice schema) on one blank page, the runner loaded once and reused, through the pipeline's own requests
(``pipeline.generate.generation_request``), greedy. Rows, each the median ``decode_s`` of ``--runs`` runs, the rows
alternating run by run (so drifting load hits every row alike):

* ``unconstrained`` / ``constrained`` / ``constrained + evidence``: jump-forward off, so all three take the same
  362 decode steps: the loop's per-token host work (mask, evidence) against plain decoding (issue 32's
  ``constrained / unconstrained`` target: 1.05x with evidence on);
* ``jump-forward`` / ``jump-forward + evidence``: the default path (fewer steps): evidence's cost where it is used
  (target: 3 % of decode wall).

**Passes.** The whole pipeline on the demo page (``Extractor.extract``: render, prompt, generation, review) with
``passes=1`` and ``passes=2`` (a second, sampled answer: ``pipeline.passes``), the rows alternating run by run:
median ``decode_s`` (the record's: both answers' with two passes) and ``total_s``.

**Reliability.** ``--records`` extractions of the demo page with ``--passes 2``, each with three random fields
given a random logit margin in [0, 4] (``extractor.testing.ambiguity`` with ``flip=True``: sampling can change
them, seeded); a reviewer "corrects" each such field with probability 1 - sigmoid(margin) (a model as sure as its
logits), and the buyer's name in every third record (an error the tokens do not show). ``extract calibrate``'s code
fits on them: ECE, AUROC and accuracy at 50 / 80 / 95 % coverage before (uncalibrated default weights) and after
(in-sample: the same records), once with the fields' ``agreement`` and once with it set to null (one pass's
features: the same records, the agreement feature left out).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
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

SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
DEMO_ANSWER = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
ROWS = {  # name -> settings (all greedy)
    "unconstrained": {"constrained": False, "jump_forward": False, "evidence": False},
    "constrained": {"constrained": True, "jump_forward": False, "evidence": False},
    "constrained + evidence": {"constrained": True, "jump_forward": False, "evidence": True},
    "jump-forward": {"constrained": True, "jump_forward": True, "evidence": False},
    "jump-forward + evidence": {"constrained": True, "jump_forward": True, "evidence": True},
}


def build_model(folder: Path | None, size: str):
    """The demo's scripted model under the invoice schema, built once per folder (None: the one the benches keep in
    the temp folder, ``bench/throughput.py``'s)."""
    from extractor.testing import build_scripted_model, read_tiny_model

    if folder is None:
        from throughput import build_model as kept

        return read_tiny_model(kept(size))
    path = folder / f"demo-{size}"
    if (path / "program.json").exists():
        return read_tiny_model(path)
    answer = json.dumps(json.loads(DEMO_ANSWER.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
    return build_scripted_model(path, answer=answer, schema="invoice", size=size)


def decode_once(runner, schema, settings) -> tuple[float, int, int]:
    """One generation as the pipeline asks it, on a blank page: (decode_s, decode steps, tokens)."""
    from PIL import Image

    from extractor.pipeline.generate import generation_request
    from extractor.pipeline.prompt import build_messages
    from extractor.pipeline.retry import first_attempt

    request, _, _ = generation_request(
        runner,
        settings,
        schema=schema.schema,
        messages=build_messages(schema, pages=1),
        images=(Image.new("RGB", (128, 128), "white"),),
        attempt=first_attempt(max_tokens=settings.max_tokens, guards=settings.guards),
    )
    result = runner.generate(request)
    return result.decode_s, result.decode_steps, result.generated_tokens


def decode_table(runner, schema, model_path: str, runs: int, *, warm: bool = True) -> list[dict]:
    """The decode-cost rows (see the module docstring); ``warm``: each row run once, untimed, first."""
    from extractor.settings import Settings

    settings = {name: Settings(model=model_path, **changes) for name, changes in ROWS.items()}
    for name in ROWS if warm else ():  # warm every path once (grammar compiled, prefix cached)
        decode_once(runner, schema, settings[name])
    seconds: dict[str, list[float]] = {name: [] for name in ROWS}
    shape: dict[str, tuple[int, int]] = {}
    for run in range(runs):
        order = list(ROWS) if run % 2 == 0 else list(reversed(ROWS))
        for name in order:
            decode_s, steps, tokens = decode_once(runner, schema, settings[name])
            seconds[name].append(decode_s)
            shape[name] = (steps, tokens)
    base = statistics.median(seconds["unconstrained"])
    jump = statistics.median(seconds["jump-forward"])
    rows = []
    for name in ROWS:
        median = statistics.median(seconds[name])
        rows.append(
            {
                "row": name,
                "steps": shape[name][0],
                "tokens": shape[name][1],
                "decode_s": round(median, 4),
                "ms_per_step": round(median / shape[name][0] * 1e3, 3),
                "vs_unconstrained": round(median / base, 3),
                "vs_jump_forward": round(median / jump, 3) if name.startswith("jump") else None,
            }
        )
    return rows


def passes_table(runner, model_path: str, runs: int, *, warm: bool = True) -> list[dict]:
    """The passes rows (see the module docstring): median decode_s and total_s with one and two passes; ``warm``:
    each run once, untimed, first."""
    from extractor import Extractor
    from extractor.settings import Settings

    extractors = {n: Extractor(settings=Settings(model=model_path, passes=n), runner=runner) for n in (1, 2)}
    for extractor in extractors.values() if warm else ():  # warm
        extractor.extract(str(SAMPLE))
    seen: dict[int, list[tuple[float, float, int]]] = {1: [], 2: []}
    for run in range(runs):
        for n in (1, 2) if run % 2 == 0 else (2, 1):
            record = extractors[n].extract(str(SAMPLE)).to_dict()
            seen[n].append(
                (record["timings"]["decode_s"], record["timings"]["total_s"], record["usage"]["generated_tokens"])
            )
    one = statistics.median(d for d, _, _ in seen[1])
    rows = []
    for n in (1, 2):
        decode, total = statistics.median(d for d, _, _ in seen[n]), statistics.median(t for _, t, _ in seen[n])
        rows.append(
            {
                "passes": n,
                "tokens": seen[n][-1][2],
                "decode_s": round(decode, 4),
                "total_s": round(total, 4),
                "decode_vs_one_pass": round(decode / one, 3),
            }
        )
    return rows


def reliability_table(runner, tiny, records: int, seed: int) -> dict:
    """The reliability rows on the scripted set, with and without the agreement feature (see the module
    docstring)."""
    from extractor import Extractor
    from extractor.settings import Settings
    from extractor.testing.ambiguity import ambiguous_fields, field_token_indexes
    from extractor.tools.calibrate import calibrate

    rng = random.Random(seed)
    pointers = [p for p in field_token_indexes(tiny) if p != "/buyer/name"]
    out = Path(tempfile.mkdtemp(prefix="extractor-bench-confidence-"))
    with_agreement, without = out / "with", out / "without"
    with_agreement.mkdir()
    without.mkdir()
    for n in range(records):
        margins = {p: rng.uniform(0.0, 4.0) for p in rng.sample(pointers, 3)}
        blur = ambiguous_fields(tiny, margins, flip=True)
        settings = Settings(model=str(tiny.path), passes=2, seed=n, extra_processors=lambda attempt, blur=blur: (blur,))
        record = Extractor(settings=settings, runner=runner).extract(str(SAMPLE)).to_dict()
        data = json.loads(json.dumps(record["data"]))
        changed = [p for p, m in margins.items() if rng.random() > 1 / (1 + math.exp(-m))]
        if n % 3 == 2:
            changed.append("/buyer/name")
        for pointer in changed:
            _set(data, pointer, "corrected")
        reviewed = {"version": 1, "record": f"r{n}.json", "data": data, "approved": True, "changed": changed}
        one_pass = _one_pass(record)
        for folder, body in ((with_agreement, record), (without, one_pass)):
            (folder / f"r{n}.json").write_text(json.dumps(body), encoding="utf-8")
            (folder / f"r{n}.reviewed.json").write_text(json.dumps(reviewed), encoding="utf-8")
    return {
        name: calibrate([folder], output=folder / "calibration.json", name="bench").to_dict()["reliability"]["*"]
        for name, folder in (("with agreement", with_agreement), ("without agreement", without))
    }


def _one_pass(record: dict) -> dict:
    """The record as one pass would have scored it: agreement null, each field's stored confidence rescored."""
    from extractor.trust.confidence import DEFAULT_WEIGHTS, features

    fields = {}
    for pointer, entry in record["fields"].items():
        entry = {**entry, "agreement": None}
        fields[pointer] = {**entry, "confidence": round(DEFAULT_WEIGHTS.score(features(entry)), 4)}
    return {**record, "fields": fields}


def _set(data, pointer: str, value) -> None:
    parts = pointer.strip("/").split("/")
    for part in parts[:-1]:
        data = data[int(part)] if isinstance(data, list) else data[part]
    if isinstance(data, list):
        data[int(parts[-1])] = value
    else:
        data[parts[-1]] = value


def main() -> None:
    """Run the bench and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per decode row (medians)")
    parser.add_argument("--records", type=int, default=12, help="records in the scripted reliability set")
    parser.add_argument("--size", choices=("small", "mid"), default="small", help="the kit model's size")
    parser.add_argument("--seed", type=int, default=0, help="seed of the scripted set")
    parser.add_argument("--folder", type=Path, help="build the model here (default: the benches' one, in TMPDIR)")
    parser.add_argument("--skip-reliability", action="store_true", help="the decode table only")
    parser.add_argument("--skip-decode", action="store_true", help="the reliability table only")
    parser.add_argument("--skip-passes", action="store_true", help="no passes table")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--no-warm", dest="warm", action="store_false", help="no untimed first run of each row")
    smoke_option(parser, runs=1, records=2, warm=False)
    args = parse(parser)

    from extractor import Extractor
    from extractor.schema import load_schema
    from extractor.settings import Settings

    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
    tiny = build_model(args.folder, args.size)
    started = time.perf_counter()
    runner = Extractor(settings=Settings(model=str(tiny.path))).runner
    schema = load_schema("invoice")
    decode = [] if args.skip_decode else decode_table(runner, schema, str(tiny.path), args.runs, warm=args.warm)
    passes = [] if args.skip_passes else passes_table(runner, str(tiny.path), args.runs, warm=args.warm)
    reliability = None if args.skip_reliability else reliability_table(runner, tiny, args.records, args.seed)
    result = {"size": args.size, "runs": args.runs, "decode": decode, "passes": passes, "reliability": reliability}
    result["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    if decode:
        print(f"decode, {args.size} scripted qwen3_5, demo answer, medians of {args.runs} alternating runs\n")
        print("| row | steps | tokens | decode s | ms/step | vs unconstrained | vs jump-forward |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    for row in decode:
        jump = "" if row["vs_jump_forward"] is None else f"{row['vs_jump_forward']:.3f}x"
        print(
            f"| {row['row']} | {row['steps']} | {row['tokens']} | {row['decode_s']:.3f} | {row['ms_per_step']:.2f} "
            f"| {row['vs_unconstrained']:.3f}x | {jump} |"
        )
    if passes:
        print(f"\npasses, the whole pipeline on the demo page, medians of {args.runs} alternating runs\n")
        print("| passes | tokens (last run) | decode s | total s | decode vs 1 pass |")
        print("|---:|---:|---:|---:|---:|")
        for row in passes:
            print(
                f"| {row['passes']} | {row['tokens']} | {row['decode_s']:.3f} | {row['total_s']:.3f} "
                f"| {row['decode_vs_one_pass']:.3f}x |"
            )
    if reliability is not None:
        print(f"\nreliability, {args.records} scripted records (every field), before -> after calibration\n")
        print("| features | | fields | accuracy | ECE | AUROC | acc@50 % | acc@80 % | acc@95 % |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for name, table in reliability.items():
            for when in ("before", "after"):
                r = table[when]
                cov = r["coverage"]
                print(
                    f"| {name} | {when} | {r['fields']} | {r['accuracy']} | {r['ece']} | {r['auroc']} | {cov['50']} | "
                    f"{cov['80']} | {cov['95']} |"
                )
    print(f"\n{result['seconds']} s")


if __name__ == "__main__":
    main()
