"""Runaway bench: how many tokens a never-ending model wastes with bare ``mlx_vlm.generate`` versus ``extract``.

Three scripted tiny qwen3_5 models (``extractor.testing``) emit the ~280-token sample invoice JSON, then
(a) ``<|im_end|>`` forever, (b) whitespace forever, (c) a repeating line. Their directories are configured as upstream
ships Qwen3.5 (config.json ``eos_token_id`` 248044 only, tokenizer eos ``<|endoftext|>``, no generation_config.json),
so bare mlx-vlm 0.7.10 never stops on ``<|im_end|>``. Each model runs with max_tokens 2048 through:

* ``mlx_vlm.generate``  bare mlx-vlm, its own stop set;
* ``extract``           our pipeline with the resolved stop set and the runaway guards (defaults);
* ``extract -248046``   the same with 248046 dropped from the stop set (``Settings.drop_stop_ids``): guards alone.

Constrained decoding is off for the ``extract`` rows: a JSON grammar forces the stop token right after the value,
which would hide what the stop set and the guards do. "after" counts the tokens generated after the answer's last
token, not counting the stop token that ended generation. Targets: (a) 0 after with the stop set; (b) and (c)
<= 16 after with guards alone.

Usage::

    HF_HUB_OFFLINE=1 MLX_DISABLE_COMPILE=1 python bench/runaway.py [--json] [--max-tokens 2048] [--models DIR]
        [--scenarios abc]

``--smoke`` runs scenario (a) alone (one model built, loaded twice, where the three cost ~30 s of CPU).

Exit 0 when every target is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smoke import exit_code, parse, prebuilt, smoke_option  # noqa: E402  (bench/ is the script's folder)

from extractor.testing import IM_END, SAMPLE_INVOICE_ANSWER, TinyModel, build_scripted_model  # noqa: E402

SCENARIOS = {
    "a": ("im_end", "<|im_end|> forever"),
    "b": ("whitespace", "whitespace forever"),
    "c": ("repeat", "a repeating line"),
}
REPEAT_LINE = '\n{"note": "see above"}'
TARGETS = {("a", "extract"): 0, ("b", "extract -248046"): 16, ("c", "extract -248046"): 16}


@dataclass(frozen=True)
class Row:
    """One run: a scenario through one runner."""

    scenario: str
    runner: str
    generated: int
    after_answer: int
    seconds: float
    status: str
    finish: str
    guard: str | None


def page():
    """A blank portrait page (the scripted models ignore what they see)."""
    from PIL import Image

    return Image.new("RGB", (448, 640), "white")


def bare_status(text: str, finish: str) -> str:
    """Judge bare mlx-vlm's output with extract's own rules (parse, validate, verdict)."""
    from extractor.schema import load_schema, validate_data
    from extractor.trust.parse import parse_answer
    from extractor.trust.verdict import decide

    parsed = parse_answer(text)
    errors = validate_data(parsed.value, load_schema("invoice")) if parsed.found else []
    return decide(finish_reason=finish, parsed=parsed, schema_errors=errors).status


def run_bare(model: TinyModel, *, key: str, max_tokens: int) -> Row:
    """Bare ``mlx_vlm.generate`` with the stop set mlx-vlm builds from the directory."""
    from mlx_vlm import generate, load
    from mlx_vlm.prompt_utils import apply_chat_template

    vlm, processor = load(str(model.path))
    prompt = apply_chat_template(processor, vlm.config, "Extract the invoice as JSON.", num_images=1)
    start = time.perf_counter()
    result = generate(vlm, processor, prompt, image=[page()], max_tokens=max_tokens, temperature=0.0)
    seconds = time.perf_counter() - start
    stopped = result.finish_reason == "stop"
    after = result.generation_tokens - len(model.answer_token_ids) - (1 if stopped else 0)
    return Row(
        key,
        "mlx_vlm.generate",
        result.generation_tokens,
        after,
        round(seconds, 2),
        bare_status(result.text, "stop" if stopped else "length"),
        "stop" if stopped else "length",
        None,
    )


def run_extract(model: TinyModel, runner, *, key: str, label: str, max_tokens: int, drop: tuple[int, ...]) -> Row:
    """Our pipeline (``Extractor``) on the already loaded runner."""
    from dataclasses import fields

    from extractor import Extractor, Settings

    options = {"constrained": False} if "constrained" in {f.name for f in fields(Settings)} else {}
    settings = Settings(model=str(model.path), max_tokens=max_tokens, drop_stop_ids=drop, **options)
    extractor = Extractor(settings=settings, runner=runner)
    start = time.perf_counter()
    record = extractor.extract(page())
    seconds = time.perf_counter() - start
    generated = record.usage.generated_tokens
    after = generated - len(model.answer_token_ids) - (1 if record.finish_reason == "stop" else 0)
    return Row(
        key, label, generated, after, round(seconds, 2), record.status, record.finish_reason or "-", record.guard
    )


def build_models(root: Path, scenarios: str = "".join(SCENARIOS)) -> dict[str, TinyModel]:
    """Build the scenarios' scripted models (all three by default) as upstream configures Qwen3.5 (eos 248044
    only; the first built before the run, ``prebuilt``, where it was)."""
    from extractor.testing import read_tiny_model

    kept = {"a": prebuilt("sample")}  # then <|im_end|> forever, the kit's default repeat line: the tests' model
    return {
        key: read_tiny_model(kept[key])
        if kept.get(key)
        else build_scripted_model(
            root / f"runaway-{then}", answer=SAMPLE_INVOICE_ANSWER, then=then, repeat_line=REPEAT_LINE
        )
        for key, (then, _) in SCENARIOS.items()
        if key in scenarios
    }


def run(root: Path, *, max_tokens: int, scenarios: str = "".join(SCENARIOS)) -> tuple[list[Row], int]:
    """Run the scenarios (all three by default) through the three runners.

    Args:
        root: where the tiny models are built.
        max_tokens: generation cap.
        scenarios: the scenarios' letters.

    Returns:
        The rows, scenario by scenario, and the answer's length in tokens.
    """
    from extractor.runners.mlx.runner import MlxRunner

    rows = []
    models = build_models(root, scenarios)
    for key, model in models.items():
        rows.append(run_bare(model, key=key, max_tokens=max_tokens))
        runner = MlxRunner(model=str(model.path))
        rows.append(run_extract(model, runner, key=key, label="extract", max_tokens=max_tokens, drop=()))
        rows.append(run_extract(model, runner, key=key, label="extract -248046", max_tokens=max_tokens, drop=(IM_END,)))
    return rows, len(next(iter(models.values())).answer_token_ids)


def targets(rows: list[Row]) -> list[dict]:
    """Check the issue's targets against the rows (those of the scenarios run)."""
    out = []
    for (key, label), limit in TARGETS.items():
        row = next((r for r in rows if r.scenario == key and r.runner == label), None)
        if row is None:
            continue
        out.append(
            {
                "scenario": key,
                "runner": label,
                "after_answer": row.after_answer,
                "limit": limit,
                "met": row.after_answer <= limit,
            }
        )
    return out


def table(rows: list[Row], answer_tokens: int) -> str:
    """Render the rows as a Markdown table."""
    lines = [
        f"answer: {answer_tokens} tokens; after answer = tokens generated after it (the stop token that "
        "ended generation not counted)",
        "",
        "| scenario | runner | generated | after answer | seconds | status | finish | guard |",
        "|---|---|---:|---:|---:|---|---|---|",
    ]
    for r in rows:
        scenario = SCENARIOS[r.scenario][1].replace("|", "\\|")  # Markdown cells: <|im_end|> holds pipes
        lines.append(
            f"| ({r.scenario}) {scenario} | {r.runner} | {r.generated} | {r.after_answer} "
            f"| {r.seconds:.2f} | {r.status} | {r.finish} | {r.guard or '-'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Build the models, run the bench, print the table (or JSON); exit 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--max-tokens", type=int, default=2048)
    parser.add_argument("--models", type=Path, help="build (and keep) the tiny models here (default: a temp dir)")
    parser.add_argument("--scenarios", default="".join(SCENARIOS), help="the scenarios to run, by letter (abc)")
    smoke_option(parser, max_tokens=64, scenarios="a")
    args = parse(parser, argv)
    with tempfile.TemporaryDirectory(prefix="runaway-") as tmp:
        root = args.models or Path(tmp)
        unknown = set(args.scenarios) - set(SCENARIOS)
        if unknown or not args.scenarios:
            parser.error(f"--scenarios: letters among {''.join(SCENARIOS)}, not {args.scenarios!r}")
        rows, answer_tokens = run(root, max_tokens=args.max_tokens, scenarios=args.scenarios)
    checked = targets(rows)
    if args.json:
        print(
            json.dumps(
                {
                    "max_tokens": args.max_tokens,
                    "answer_tokens": answer_tokens,
                    "rows": [asdict(r) for r in rows],
                    "targets": checked,
                },
                indent=2,
            )
        )
    else:
        print(table(rows, answer_tokens))
        print()
        for t in checked:
            print(
                f"target ({t['scenario']}) {t['runner']}: {t['after_answer']} after <= {t['limit']}: "
                f"{'met' if t['met'] else 'MISSED'}"
            )
    return exit_code(args, all(t["met"] for t in checked))


if __name__ == "__main__":
    sys.exit(main())
