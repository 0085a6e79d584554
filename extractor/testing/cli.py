"""``python -m extractor.testing``: build a tiny model from the shell.

Shell::

    python -m extractor.testing DIR [--script FILE] [--schema NAME|FILE|none] [--plain] [--size small|mid]
                                    [--hidden-size N] [--layers L]
                                    [--then im_end|whitespace|repeat|endoftext|marker_text]
                                    [--config-eos ID ...] [--text-eos ID ...] [--generation-eos ID ...]
                                    [--tokenizer-eos TOKEN] [--no-vision-ids] [--seed N]
    python -m extractor.testing DIR --family NAME [--config-bug] [--seed N]

Without ``--script`` it builds a random qwen3_5 model; ``--script FILE`` builds a scripted model whose answer is the
file's text (UTF-8, trailing newlines dropped; a ``.json`` file is compacted). ``--schema`` (``invoice``,
``receipt`` or a schema file) makes the script schema-aware: it is what the extractor's constrained, jump-forward
decoding feeds and samples. A JSON answer (a ``.json`` script holding an object or an array) needs ``--schema``: a
plain script of JSON goes off its program under jump-forward (the grammar feeds tokens the script did not plan,
and the right answer comes out ``review`` or ``truncated``), so the build refuses and names the builtin schemas the
answer validates against; ``--plain`` (or ``--schema none``) builds the plain script anyway, for runs with
constraints or jump-forward off.
``--size mid`` builds the benchmark size; ``--hidden-size``/``--layers`` override the size's numbers (hidden 128 or
more must be a multiple of 128). ``--config-eos``/``--text-eos`` take one or more ids, or ``none`` to omit the key;
``--generation-eos`` writes generation_config.json (``none``: without an eos key; not given: no file).

``--family NAME`` builds a tiny random checkpoint of a model family (:func:`extractor.testing.build_family_model`:
qwen3_5, qwen2_5_vl, qwen3_vl, gemma3, gemma4, idefics3, smolvlm, mistral3, paddleocr_vl, glm4v), with the eos ids
its official checkpoints declare, or its typical bug with ``--config-bug``.

It prints the directory and a one-line summary. Exit codes: 0 built, 1 the build failed, 2 bad arguments.

Caveats of scripted models: the prompt's *last* token must be a non-script token (every chat-template prompt ends
in a newline; a raw prompt ending in, say, ``<|im_end|>`` with ``then="im_end"`` continues from there). Structural
script tokens are ordinary tokens and may occur anywhere else in a prompt: they do not write the register. Every
chunk needs a text of its own, so a one-character answer and a one-character ``repeat_line`` must differ. With a
schema, only the stop-token continuations (``im_end``, ``endoftext``) survive constrained decoding.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from extractor.errors import ExtractorError, SchemaError, UsageError
from extractor.testing.qwen35 import PROGRAM_FILE, _script_answer, build_random_model, build_scripted_model
from extractor.testing.qwen35_files import MISSING, SIZES
from extractor.testing.script import THEN_CHOICES
from extractor.testing.tokenizer import ENDOFTEXT


def _parse_eos(values: list[str] | None, option: str) -> int | list[int] | None:
    if values == ["none"]:
        return None
    try:
        ids = [int(v) for v in values or []]
    except ValueError:
        raise UsageError(f"{option}: expected token ids or 'none', got {' '.join(values or [])}") from None
    return ids[0] if len(ids) == 1 else ids


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m extractor.testing", description="Build a tiny offline model for tests (qwen3_5, or --family)."
    )
    parser.add_argument("dir", type=Path, help="directory to write")
    parser.add_argument(
        "--family",
        metavar="NAME",
        help="build a tiny random checkpoint of this model family instead (see the docstring)",
    )
    parser.add_argument(
        "--config-bug",
        action="store_true",
        help="with --family: write the family's typical eos bug (end-of-turn id not declared)",
    )
    parser.add_argument(
        "--script",
        type=Path,
        help="file whose text is the scripted answer (else: random model); a .json file is compacted",
    )
    parser.add_argument(
        "--schema",
        metavar="NAME|FILE|none",
        help="make the script schema-aware: invoice, receipt or a schema file (JSON answers need "
        "one; 'none' = --plain)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="script a JSON answer without a schema (right only with constraints or jump-forward off)",
    )
    parser.add_argument(
        "--size",
        choices=tuple(SIZES),
        default="small",
        help="small: hidden 32 x 2 layers; mid: hidden 768 x 8 layers (benchmarks)",
    )
    parser.add_argument("--hidden-size", type=int, metavar="N", help="override the size's hidden size")
    parser.add_argument("--layers", type=int, metavar="L", help="override the size's number of layers")
    parser.add_argument("--then", choices=THEN_CHOICES, default="im_end", help="what follows the answer")
    parser.add_argument("--repeat-line", default='\n{"note": "see above"}', help="line cycled by --then repeat")
    parser.add_argument(
        "--config-eos",
        nargs="+",
        metavar="ID",
        help=f"config.json eos_token_id (ids, or 'none' to omit; default {ENDOFTEXT})",
    )
    parser.add_argument(
        "--text-eos",
        nargs="+",
        metavar="ID",
        help=f"config.json text_config.eos_token_id (ids, or 'none' to omit; default {ENDOFTEXT})",
    )
    parser.add_argument(
        "--generation-eos",
        nargs="+",
        metavar="ID",
        help="write generation_config.json with this eos_token_id ('none': without one)",
    )
    parser.add_argument(
        "--tokenizer-eos", metavar="TOKEN", help="tokenizer_config.json eos_token (default <|endoftext|>)"
    )
    parser.add_argument(
        "--no-vision-ids", action="store_true", help="omit vision_start/vision_end token ids from config.json"
    )
    parser.add_argument("--seed", type=int, default=0)
    return parser


_QWEN35_ONLY = (
    "script",
    "schema",
    "plain",
    "hidden_size",
    "layers",
    "config_eos",
    "text_eos",
    "generation_eos",
    "tokenizer_eos",
    "no_vision_ids",
)


def _build_family(args) -> str:
    """``--family``: build the family checkpoint; returns the summary line."""
    from extractor.testing.families import build_family_model

    given = [f"--{name.replace('_', '-')}" for name in _QWEN35_ONLY if getattr(args, name) not in (None, False)]
    if given or args.size != "small" or args.then != "im_end":
        raise UsageError(
            f"--family builds a random checkpoint: {', '.join(given) or '--size/--then'} cannot be used "
            f"with it (only --config-bug and --seed)"
        )
    model = build_family_model(args.dir, args.family, config_bug=args.config_bug, seed=args.seed)
    bug = "the typical config bug" if model.config_bug else "official eos"
    return (
        f"{model.family} ({model.model_type}), random: end of turn {model.end_of_turn} {model.end_of_turn_id}, "
        f"tokenizer eos {model.eos_token} {model.eos_token_id}, declared eos {list(model.declared_eos_ids)} "
        f"({bug}); vocabulary {model.vocab_size}{'' if model.real_ids else ' (special ids not all real)'}"
    )


def _plain_json_refusal(answer: str) -> UsageError | None:
    """The error for a JSON answer scripted without a schema (it goes off its program under jump-forward)."""
    from extractor.schema import BUILTIN_SCHEMAS, load_schema, validate_data

    try:
        data = json.loads(answer)
    except ValueError:
        return None
    if not isinstance(data, (dict, list)):
        return None
    matching = [name for name in BUILTIN_SCHEMAS if not validate_data(data, load_schema(name))]
    hint = (
        f"--schema {matching[0]} (the answer is valid against it)"
        if matching
        else "--schema FILE (your schema; it matches no builtin one)"
    )
    return UsageError(
        f"a JSON answer needs a schema-aware script: the extractor decodes with constraints and "
        f"jump-forward by default, which feeds tokens a plain script did not plan, so the model goes "
        f"off its program (the answer ends up 'review' or 'truncated'). Pass {hint}, or --plain "
        f"(--schema none) to build the plain script for runs with constraints or jump-forward off"
    )


def _build_qwen35(args) -> str:
    """qwen3_5: a random or scripted model; returns the summary line."""
    if args.config_bug:
        raise UsageError(
            "--config-bug needs --family (for qwen3_5: --family qwen3_5 --config-bug, or the --*-eos options)"
        )
    defaults = {"config_eos": [str(ENDOFTEXT)], "text_eos": [str(ENDOFTEXT)]}
    eos: dict[str, object] = {
        key: _parse_eos(getattr(args, key) or defaults[key], f"--{key.replace('_', '-')}") for key in defaults
    }  # and MISSING: no generation_config.json
    eos["generation_eos"] = (
        MISSING if args.generation_eos is None else _parse_eos(args.generation_eos, "--generation-eos")
    )
    options = dict(
        **eos, tokenizer_eos=args.tokenizer_eos or "<|endoftext|>", vision_ids=not args.no_vision_ids, seed=args.seed
    )
    plain = args.plain or (args.schema or "").lower() == "none"
    if args.script is None:
        if (args.schema, args.plain, args.size, args.hidden_size, args.layers) != (None, False, "small", None, None):
            raise UsageError("--schema, --plain, --size, --hidden-size and --layers need --script")
        build_random_model(args.dir, **options)
        summary = "random"
    else:
        try:
            answer = _script_answer(args.script)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the script: {exc}", source=args.script) from exc
        refusal = None if plain or args.schema or args.script.suffix != ".json" else _plain_json_refusal(answer)
        if refusal is not None:
            raise refusal
        tiny = build_scripted_model(
            args.dir,
            answer=answer,
            then=args.then,
            repeat_line=args.repeat_line,
            schema=None if plain else args.schema,
            size=args.size,
            hidden_size=args.hidden_size,
            layers=args.layers,
            **options,
        )
        shape = json.loads((tiny.path / PROGRAM_FILE).read_text(encoding="utf-8"))
        fed = (
            f" ({tiny.fed_count} fed by jump-forward, schema {tiny.schema_name})"
            if tiny.schema_name
            else " (plain: no schema)"
        )
        summary = (
            f"scripted: {len(answer)} characters as {len(tiny.answer_token_ids)} tokens{fed}, "
            f"then {args.then} {list(tiny.continuation_token_ids)}; hidden {shape['hidden_size']} x "
            f"{shape['layers']} layers, logit margin {shape['min_logit_margin']}"
        )
    generation_eos = eos["generation_eos"]
    generation = (
        "no generation_config.json"
        if generation_eos is MISSING
        else f"generation_config.json eos {'(none)' if generation_eos is None else generation_eos}"
    )
    shown = {key: "(omitted)" if eos[key] is None else eos[key] for key in ("config_eos", "text_eos")}
    return (
        f"{summary}; config eos {shown['config_eos']}, text_config eos {shown['text_eos']}, {generation}, "
        f"tokenizer eos {options['tokenizer_eos']}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Build a tiny model from the command line (see the module docstring).

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 built, 1 the build failed, 2 bad arguments.
    """
    args = _parser().parse_args(argv)
    try:
        summary = _build_family(args) if args.family is not None else _build_qwen35(args)
    except (UsageError, SchemaError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ExtractorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(args.dir)
    print(summary)
    return 0
