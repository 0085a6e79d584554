"""Long-document bench: does the cost of a long invoice grow linearly with its pages (``windows``)?

Invoices of 1, 10, 50 and 200 pages, 10 line items a page (``samples/generate.py``: ``invoice_long`` /
``render_long``), each extracted once by ``Extractor`` (isolated rendering, the default windows, constrained
decoding with jump-forward) on a tiny random model of the kit (``extractor.testing``; ``--family gemma3``, the
default, has a 2,176-token vocabulary, so 2,000 lines generate in minutes, not hours), whose answer for each window is
forced by a logits processor built from the window's own prompt (the lines printed on the pages it names:
``tests/helpers.following``); generation, rendering, merging and review are the real ones.

Columns: wall and CPU seconds per page (CPU: this process and its render workers), the prompt tokens of the
largest single generation, the peak resident memory of the whole process tree (``bench/hostile.TreeSampler``),
and whether every line came out exactly once, in order (``lines``: merged / printed). Targets: s/page at 200
pages within 1.3x of 10 pages; the largest prompt independent of the page count; peak RSS under 2 GB; every line
once.

Usage::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/long.py [--pages 1,10,50,200] [--json]
        [--family gemma3|qwen3_5|...]

Exit 0 when every target is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]
from smoke import exit_code, family_model, parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

PER_PAGE = 10


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _answers(model: Path, data: dict, end: int):
    """``request_processors``: each window's answer from the pages its prompt names, then ``end``."""
    from helpers import following

    def factory(request):
        found = re.search(r"pages (\d+)-(\d+) of a", request.messages[-1].text)
        first, last = (int(found[1]), int(found[2])) if found else (1, 10**6)
        lines = data["line_items"][(first - 1) * PER_PAGE : last * PER_PAGE]
        text = json.dumps({**data, "line_items": lines}, ensure_ascii=False, separators=(",", ":"))
        return (following(model, text, end=end),)

    return factory


def run_one(pages: int, *, model: Path, runner, folder: Path, end: int) -> dict:
    """Extract one long invoice and measure it."""
    from helpers import sample_generator
    from hostile import TreeSampler

    from extractor.api import Extractor
    from extractor.settings import Settings

    generator = sample_generator()
    inv = generator.invoice_long(pages, per_page=PER_PAGE)
    data = generator.to_json(inv)
    path = folder / f"long-{pages}.pdf"
    generator.render_long(inv, per_page=PER_PAGE).output(str(path))
    settings = Settings(
        model=str(model), isolate=True, workers=2, max_tokens=4096, request_processors=_answers(model, data, end)
    )
    with Extractor(settings, runner=runner) as extractor:
        cpu, wall = _cpu(), time.perf_counter()
        with TreeSampler(os.getpid()) as sampler:
            record = extractor.extract(path)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    windows = record.extra.get("windows") or [{"usage": {"prompt_tokens": record.usage.prompt_tokens}}]
    merged = (record.data or {}).get("line_items") or []
    return {
        "pages": pages,
        "status": record.status,
        "windows": len(record.extra.get("windows") or [1]),
        "wall_s_per_page": wall / pages,
        "cpu_s_per_page": cpu / pages,
        "largest_prompt": max(w["usage"]["prompt_tokens"] for w in windows),
        "generated": record.usage.generated_tokens,
        "peak_rss_mb": sampler.peak / 2**20,
        "lines": len(merged),
        "printed": len(data["line_items"]),
        "once": merged == data["line_items"],
    }


def targets(rows: list[dict]) -> list[str]:
    """The targets each missed (empty: all met)."""
    by = {r["pages"]: r for r in rows}
    missed = []
    if 10 in by and 200 in by and by[200]["wall_s_per_page"] > 1.3 * by[10]["wall_s_per_page"]:
        missed.append("s/page at 200 pages over 1.3x of 10 pages")
    many = [r for r in rows if r["pages"] >= 10]
    if many and max(r["largest_prompt"] for r in many) > min(r["largest_prompt"] for r in many) * 1.05:
        missed.append("the largest prompt grows with the page count")
    missed += [f"{r['pages']} pages: peak RSS {r['peak_rss_mb']:.0f} MB" for r in rows if r["peak_rss_mb"] >= 2048]
    missed += [f"{r['pages']} pages: {r['lines']} of {r['printed']} lines" for r in rows if not r["once"]]
    return missed


def table(rows: list[dict]) -> str:
    """The Markdown table."""
    out = [
        "| pages | windows | status | wall s/page | CPU s/page | largest prompt | generated | peak RSS MB | lines |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['pages']} | {r['windows']} | {r['status']} | {r['wall_s_per_page']:.2f} | "
            f"{r['cpu_s_per_page']:.2f} | {r['largest_prompt']} | {r['generated']} | {r['peak_rss_mb']:.0f} | "
            f"{r['lines']}/{r['printed']}{'' if r['once'] else ' (not once each)'} |"
        )
    return "\n".join(out)


def main(argv=None) -> int:
    """Run the bench; print the table (or JSON); exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="1,10,50,200")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--family", default="gemma3", help="the kit family of the tiny random model (gemma3)")
    smoke_option(parser, pages="1", family="mistral3")  # the cheapest family to decode (bench/decode_step.py)
    args = parse(parser, argv)
    from extractor.runners.mlx.runner import MlxRunner

    with tempfile.TemporaryDirectory() as tmp:
        family = family_model(Path(tmp), args.family)
        model, end = family.path, family.end_of_turn_id
        runner = MlxRunner(model=str(model))
        run_one(1, model=model, runner=runner, folder=Path(tmp), end=end)  # warm-up: one-time costs (grammar)
        rows = []
        for pages in (int(p) for p in args.pages.split(",")):
            rows.append(run_one(pages, model=model, runner=runner, folder=Path(tmp), end=end))
            if not args.json:
                print(f"{pages} pages done: {json.dumps(rows[-1])}", file=sys.stderr, flush=True)
    missed = targets(rows)
    if args.json:
        print(json.dumps({"rows": rows, "missed": missed}, indent=2))
    else:
        print(table(rows))
        print("\ntargets: " + ("all met" if not missed else "; ".join(missed)))
    return exit_code(args, not missed)


if __name__ == "__main__":
    sys.exit(main())
