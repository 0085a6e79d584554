"""Bench: constrained decoding (llguidance grammar, mask applied with plain mx ops) on a tiny random qwen3_5 model.

One command, one table::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/constrained.py [-n 5] [--max-tokens 2048]
        [--unconstrained-max-tokens 128] [--schema invoice] [--model DIR] [--json]

The default run takes ~4 minutes on 2 busy cores (a constrained random-model invoice is ~400-900 tokens at ~20
tokens/s); ``-n 100`` gives failures per 100 generations (~1 hour there).

It measures: building llguidance's tokenizer (per tokenizer and stop set; cached in use), compiling the schema's
grammar, the mask cost per token on the 248,320-token vocabulary (computing the mask, and applying it with mx:
replayed over the constrained generations' tokens, on fixed random logits), decode tokens/s with and without
constraints, and parse / schema / no-stop failures over N generations (temperature 1, seeds 0..N-1) with and
without; and the loop's own overhead (``--loop-runs``, ``bench/confidence.py``'s rows): constrained against
unconstrained decoding of the same 362 tokens on the demo's scripted model and page (jump-forward off, so the same
decode steps; one runner; medians of alternating runs), with and without the confidence evidence (issue 32's
target: 1.05x with evidence on). Generations go through the runner with the pipeline's prompt
(``prompt.build_messages``) and a blank page; guards are off so the unconstrained numbers show what the model
itself does. Unconstrained, the random model practically never samples a stop token (2 of 248,320 ids), so those
runs use a smaller max_tokens.
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


def percentile(values: list[float], q: float) -> float:
    """Return the q-th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def generate_all(runner, schema, *, seeds: range, max_tokens: int, constrained: bool) -> list[dict]:
    """Run one generation per seed; return per-generation outcomes.

    Args:
        runner: the loaded MlxRunner.
        schema: the Schema.
        seeds: sampling seeds.
        max_tokens: cap per generation.
        constrained: use the schema grammar.

    Returns:
        Dicts with token ids, counts, timing and failure flags.
    """
    from PIL import Image

    from extractor.pipeline.prompt import build_messages
    from extractor.runners.base import GenerationRequest
    from extractor.runners.constrain.plan import plan_constraint
    from extractor.schema import validate_data
    from extractor.trust.parse import parse_answer

    page = Image.new("RGB", (128, 128), "white")
    out = []
    for seed in seeds:
        plan = plan_constraint(runner, schema=schema.schema, stop=runner.stop_set, enabled=constrained)
        if constrained and not plan.active:
            raise SystemExit(f"constraints could not be built: {plan.warnings}")
        request = GenerationRequest(
            messages=build_messages(schema, pages=1),
            images=(page,),
            max_tokens=max_tokens,
            stop=runner.stop_set,
            temperature=1.0,
            seed=seed,
            constraint=plan.factory(jump_forward=False),
        )
        result = runner.generate(request)
        parsed = parse_answer(result.text)
        invalid = parsed.found and bool(validate_data(parsed.value, schema))
        out.append(
            {
                "seed": seed,
                "token_ids": result.token_ids,
                "tokens": result.generated_tokens,
                "decode_s": result.decode_s,
                "prefill_s": result.prefill_s,
                "parse_failure": not parsed.found,
                "schema_failure": invalid,
                "no_stop": result.finish_reason != "stop",
            }
        )
    return out


def mask_costs(compiled, generations: list[dict], vocab: int) -> dict:
    """Replay the generated tokens through a fresh matcher, timing mask computation and mx application.

    Args:
        compiled: the CompiledSchema.
        generations: constrained generations (their token ids).
        vocab: logits width (the model's vocabulary).

    Returns:
        Lists of seconds per token: ``compute`` and ``apply``.
    """
    import mlx.core as mx
    import numpy as np

    from extractor.runners.constrain.mask import apply_bitmask

    logits = mx.random.normal((1, vocab))
    mx.eval(logits)
    bitmask = np.zeros((1, (compiled.vocab_size + 31) // 32), dtype=np.int32)
    compute, apply = [], []
    for gen in generations:
        matcher = compiled.new_matcher()
        for token in gen["token_ids"]:
            start = time.perf_counter()
            compiled.fill_mask(matcher, bitmask)  # llguidance's mask, widened over forced text
            mid = time.perf_counter()
            mx.eval(apply_bitmask(logits, mx.array(bitmask)))
            end = time.perf_counter()
            compute.append(mid - start)
            apply.append(end - mid)
            if not matcher.consume_token(token):
                raise SystemExit(f"replay: token {token} rejected: {matcher.get_error()}")
    return {"compute": compute, "apply": apply}


def ms(seconds: list[float]) -> dict:
    """Median, p95 and mean of a list of durations, in milliseconds."""
    return {
        "median": round(statistics.median(seconds) * 1e3, 3),
        "p95": round(percentile(seconds, 95) * 1e3, 3),
        "mean": round(statistics.fmean(seconds) * 1e3, 3),
    }


def summarize(generations: list[dict]) -> dict:
    """Failure counts, token counts and decode speed of a set of generations."""
    tokens = [g["tokens"] for g in generations]
    decode_s = sum(g["decode_s"] for g in generations)
    return {
        "generations": len(generations),
        "parse_failures": sum(g["parse_failure"] for g in generations),
        "schema_failures": sum(g["schema_failure"] for g in generations),
        "no_stop": sum(g["no_stop"] for g in generations),
        "tokens_median": statistics.median(tokens),
        "tokens_max": max(tokens),
        # the first token comes out of the prefill: decode_s covers the rest
        "decode_tokens_per_s": round(sum(t - 1 for t in tokens) / decode_s, 2) if decode_s else None,
    }


def main(argv=None) -> int:
    """Run the bench and print the table (or JSON).

    Args:
        argv: command-line arguments (default: sys.argv[1:]).

    Returns:
        The exit code (0).
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--generations", type=int, default=5, help="generations per mode (seeds 0..N-1)")
    parser.add_argument("--max-tokens", type=int, default=2048, help="max_tokens of constrained generations")
    parser.add_argument(
        "--unconstrained-max-tokens", type=int, default=128, help="max_tokens of unconstrained generations"
    )
    parser.add_argument("--schema", default="invoice", help="invoice, receipt or a schema file")
    parser.add_argument("--model", help="model directory (default: build a tiny random qwen3_5 model)")
    parser.add_argument(
        "--loop-runs", type=int, default=5, help="alternating runs of the loop-overhead rows (0: skip them)"
    )
    parser.add_argument(
        "--builds", type=int, default=3, help="llguidance tokenizer builds and (x7) grammar compiles timed (median)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    # --smoke leaves out the loop rows: they are bench/confidence.py's decode table, which its own smoke run runs
    smoke_option(parser, generations=1, max_tokens=64, unconstrained_max_tokens=8, loop_runs=0, builds=1)
    args = parse(parser, argv)

    from extractor.runners.constrain.grammar import Constrainer, compile_schema
    from extractor.runners.mlx.runner import MlxRunner
    from extractor.runners.modelfiles import read_model_files
    from extractor.schema import load_schema

    schema = load_schema(args.schema)
    with tempfile.TemporaryDirectory(prefix="bench-constrained-") as tmp:
        model_dir = args.model or (str(kept) if (kept := prebuilt("random")) else None)
        if model_dir is None:
            from extractor.testing import build_random_model

            model_dir = str(build_random_model(Path(tmp) / "tiny-random").path)
        runner = MlxRunner(model=model_dir)
        stop_ids = runner.stop_set.ids
        files = read_model_files(runner.model_dir)
        vocab = int(files.text_config.get("vocab_size") or (files.config or {}).get("vocab_size"))

        builds = []
        for _ in range(args.builds):  # a fresh Constrainer each time: no cache
            constrainer = Constrainer(runner.tokenizer)
            start = time.perf_counter()
            tokenizer = constrainer.llg_tokenizer(stop_ids)
            builds.append(time.perf_counter() - start)
        start = time.perf_counter()
        index = constrainer.token_index(tokenizer)
        index_s = time.perf_counter() - start
        compiles = []
        for _ in range(7 * args.builds - 1):  # 20 by default
            compiled = compile_schema(schema.schema, tokenizer=tokenizer, lenient=True, index=index)
            compiles.append(compiled.compile_s)

        seeds = range(args.generations)
        on = generate_all(runner, schema, seeds=seeds, max_tokens=args.max_tokens, constrained=True)
        off = generate_all(runner, schema, seeds=seeds, max_tokens=args.unconstrained_max_tokens, constrained=False)
        costs = mask_costs(compiled, on, vocab)
        loop = loop_overhead(args.loop_runs) if args.loop_runs > 0 else None

    total = [c + a for c, a in zip(costs["compute"], costs["apply"], strict=False)]
    report = {
        "model": model_dir if args.model else "tiny random qwen3_5 (extractor.testing.build_random_model)",
        "vocab": vocab,
        "llg_vocab": compiled.vocab_size,
        "schema": schema.name,
        "stop_ids": list(stop_ids),
        "cpu_count": os.cpu_count(),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "llg_tokenizer_build_s": {"median": round(statistics.median(builds), 3), "runs": [round(b, 3) for b in builds]},
        "token_index_build_s": round(index_s, 3),
        "grammar_compile_ms": ms(compiles),
        "mask_tokens_replayed": len(total),
        "mask_compute_ms": ms(costs["compute"]),
        "mask_apply_ms": ms(costs["apply"]),
        "mask_total_ms": ms(total),
        "constrained": dict(summarize(on), max_tokens=args.max_tokens),
        "unconstrained": dict(summarize(off), max_tokens=args.unconstrained_max_tokens),
        "loop_overhead": loop,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return 0


def loop_overhead(runs: int) -> dict:
    """``bench/confidence.py``'s first three rows: decode seconds of the demo's scripted answer unconstrained,
    constrained and constrained with evidence (jump-forward off: the same decode steps), and their ratios."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from confidence import decode_table
    from throughput import build_model  # the demo's scripted model, kept in the temp folder for every bench

    from extractor.runners.mlx.runner import MlxRunner
    from extractor.schema import load_schema
    from extractor.testing import read_tiny_model

    tiny = read_tiny_model(build_model("small"))
    rows = {
        r["row"]: r for r in decode_table(MlxRunner(model=str(tiny.path)), load_schema("invoice"), str(tiny.path), runs)
    }
    plain, constrained, evidence = rows["unconstrained"], rows["constrained"], rows["constrained + evidence"]
    return {
        "runs": runs,
        "tokens": plain["tokens"],
        "unconstrained_s": plain["decode_s"],
        "constrained_s": constrained["decode_s"],
        "evidence_s": evidence["decode_s"],
        "constrained_x": constrained["vs_unconstrained"],
        "evidence_x": evidence["vs_unconstrained"],
    }


def print_table(r: dict) -> None:
    """Print the report as one Markdown table."""
    on, off = r["constrained"], r["unconstrained"]
    n = on["generations"]

    def mask(key: str) -> str:
        return f"{r[key]['median']:.3f} / {r[key]['p95']:.3f}"

    builds = len(r["llg_tokenizer_build_s"]["runs"])
    rows = [
        (f"llguidance tokenizer build (s, median of {builds})", f"{r['llg_tokenizer_build_s']['median']:.2f}", ""),
        ("token index for forced-text widening (s, once)", f"{r['token_index_build_s']:.2f}", ""),
        (f"grammar compile (ms, median of {7 * builds - 1})", f"{r['grammar_compile_ms']['median']:.2f}", ""),
        (f"mask compute per token (ms, median / p95; {r['mask_tokens_replayed']} tokens)", mask("mask_compute_ms"), ""),
        ("mask apply with mx per token (ms, median / p95)", mask("mask_apply_ms"), ""),
        ("mask total per token (ms, median / p95)", mask("mask_total_ms"), ""),
        ("decode tokens/s", f"{on['decode_tokens_per_s']}", f"{off['decode_tokens_per_s']}"),
        ("max_tokens", str(on["max_tokens"]), str(off["max_tokens"])),
        (
            "tokens per generation (median / max)",
            f"{on['tokens_median']:g} / {on['tokens_max']}",
            f"{off['tokens_median']:g} / {off['tokens_max']}",
        ),
        (f"parse failures (of {n})", str(on["parse_failures"]), str(off["parse_failures"])),
        (f"schema failures (of {n})", str(on["schema_failures"]), str(off["schema_failures"])),
        (f"no stop token, hit max_tokens (of {n})", str(on["no_stop"]), str(off["no_stop"])),
    ]
    loop = r.get("loop_overhead")
    if loop is not None:
        rows.append(
            (
                f"loop: decode s, same {loop['tokens']} tokens, scripted (medians of {loop['runs']})",
                f"{loop['constrained_s']:.3f} / {loop['evidence_s']:.3f}",
                f"{loop['unconstrained_s']:.3f}",
            )
        )
        rows.append(
            (
                "loop overhead vs unconstrained (evidence off / on)",
                f"{loop['constrained_x']:.3f}x / {loop['evidence_x']:.3f}x",
                "1.000x",
            )
        )
    print(
        f"constrained decoding bench: {r['model']}, vocab {r['vocab']} (grammar {r['llg_vocab']}), "
        f"schema {r['schema']}, stop ids {r['stop_ids']}, temperature 1, seeds 0..{n - 1}, "
        f"{r['cpu_count']} CPUs, load {r['load_average_1m']}"
    )
    print("\n| metric | constrained | unconstrained |\n|---|---:|---:|")
    for name, a, b in rows:
        print(f"| {name} | {a} | {b} |")


if __name__ == "__main__":
    sys.exit(main())
