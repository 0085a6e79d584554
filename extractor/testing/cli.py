"""``python -m extractor.testing``: build a tiny model from the shell.

Caveats: the prompt's *last* token must be a non-script token (every chat-template prompt ends in a newline;
a raw prompt ending in, say, ``<|im_end|>`` with ``then="im_end"`` continues from there). Structural script
tokens are ordinary tokens and may occur anywhere else in a prompt: they do not write the register. Every chunk
needs a text of its own, so a one-character answer and a one-character ``repeat_line`` must differ. With a
schema, only the stop-token continuations (``im_end``, ``endoftext``) survive constrained decoding.

Shell::

    python -m extractor.testing DIR [--script FILE] [--schema NAME|FILE] [--size small|mid]
                                    [--hidden-size N] [--layers L]
                                    [--then im_end|whitespace|repeat|endoftext|marker_text]
                                    [--config-eos ID ...] [--text-eos ID ...] [--generation-eos ID ...]
                                    [--tokenizer-eos TOKEN] [--no-vision-ids] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional, Sequence, Union

from extractor.errors import ExtractorError, SchemaError, UsageError
from extractor.testing.qwen35 import (
    MISSING,
    PROGRAM_FILE,
    SIZES,
    _script_answer,
    build_random_model,
    build_scripted_model,
)
from extractor.testing.script import THEN_CHOICES
from extractor.testing.tokenizer import ENDOFTEXT


def _parse_eos(values: Optional[list[str]], option: str) -> Union[int, list[int], None]:
    if values == ["none"]:
        return None
    try:
        ids = [int(v) for v in values or []]
    except ValueError:
        raise UsageError(f"{option}: expected token ids or 'none', got {' '.join(values or [])}") from None
    return ids[0] if len(ids) == 1 else ids


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Build a tiny model from the command line (see the module docstring).

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 built, 1 the build failed, 2 bad arguments.
    """
    parser = argparse.ArgumentParser(prog="python -m extractor.testing",
                                     description="Build a tiny offline qwen3_5 model for tests.")
    parser.add_argument("dir", type=Path, help="directory to write")
    parser.add_argument("--script", type=Path, help="file whose text is the scripted answer (else: random model); "
                                                    "a .json file is compacted")
    parser.add_argument("--schema", metavar="NAME|FILE",
                        help="make the script schema-aware: invoice, receipt or a schema file (see the docstring)")
    parser.add_argument("--size", choices=tuple(SIZES), default="small",
                        help="small: hidden 64 x 2 layers; mid: hidden 768 x 8 layers (benchmarks)")
    parser.add_argument("--hidden-size", type=int, metavar="N", help="override the size's hidden size")
    parser.add_argument("--layers", type=int, metavar="L", help="override the size's number of layers")
    parser.add_argument("--then", choices=THEN_CHOICES, default="im_end", help="what follows the answer")
    parser.add_argument("--repeat-line", default='\n{"note": "see above"}', help="line cycled by --then repeat")
    parser.add_argument("--config-eos", nargs="+", metavar="ID", default=[str(ENDOFTEXT)],
                        help="config.json eos_token_id (ids, or 'none' to omit)")
    parser.add_argument("--text-eos", nargs="+", metavar="ID", default=[str(ENDOFTEXT)],
                        help="config.json text_config.eos_token_id (ids, or 'none' to omit)")
    parser.add_argument("--generation-eos", nargs="+", metavar="ID",
                        help="write generation_config.json with this eos_token_id ('none': without one)")
    parser.add_argument("--tokenizer-eos", default="<|endoftext|>", metavar="TOKEN",
                        help="tokenizer_config.json eos_token")
    parser.add_argument("--no-vision-ids", action="store_true",
                        help="omit vision_start/vision_end token ids from config.json")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        eos = {"config_eos": _parse_eos(args.config_eos, "--config-eos"),
               "text_eos": _parse_eos(args.text_eos, "--text-eos"),
               "generation_eos": MISSING if args.generation_eos is None
               else _parse_eos(args.generation_eos, "--generation-eos")}
        if args.script is None:
            if (args.schema, args.size, args.hidden_size, args.layers) != (None, "small", None, None):
                raise UsageError("--schema, --size, --hidden-size and --layers need --script")
            tiny = build_random_model(args.dir, **eos, tokenizer_eos=args.tokenizer_eos,
                                      vision_ids=not args.no_vision_ids, seed=args.seed)
            summary = "random"
        else:
            try:
                answer = _script_answer(args.script)
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"cannot read the script: {exc}", source=args.script) from exc
            tiny = build_scripted_model(args.dir, answer=answer, then=args.then, repeat_line=args.repeat_line,
                                        schema=args.schema, size=args.size, hidden_size=args.hidden_size,
                                        layers=args.layers, **eos, tokenizer_eos=args.tokenizer_eos,
                                        vision_ids=not args.no_vision_ids, seed=args.seed)
            shape = json.loads((tiny.path / PROGRAM_FILE).read_text(encoding="utf-8"))
            fed = f" ({tiny.fed_count} fed by jump-forward, schema {tiny.schema_name})" if tiny.schema_name else ""
            summary = (f"scripted: {len(answer)} characters as {len(tiny.answer_token_ids)} tokens{fed}, "
                       f"then {args.then} {list(tiny.continuation_token_ids)}; hidden {shape['hidden_size']} x "
                       f"{shape['layers']} layers, logit margin {shape['min_logit_margin']}")
    except (UsageError, SchemaError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ExtractorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(tiny.path)
    generation = eos["generation_eos"]
    generation = ("no generation_config.json" if generation is MISSING
                  else f"generation_config.json eos {'(none)' if generation is None else generation}")
    shown = {key: "(omitted)" if eos[key] is None else eos[key] for key in ("config_eos", "text_eos")}
    print(f"{summary}; config eos {shown['config_eos']}, text_config eos {shown['text_eos']}, {generation}, "
          f"tokenizer eos {args.tokenizer_eos}")
    return 0

