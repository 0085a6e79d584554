"""``--smoke``, the one size every bench script offers: its smallest run, to show the script still works.

CI runs every script so (``tests/test_benches.py``), so that none goes stale between the rounds that measure with
them: a smoke run proves the script runs against today's code and prints its table, not that a target is met (its
figures are too small to mean anything, and its exit code says only whether it ran). Each script names its smallest
sizes once, in its own ``smoke_option`` call::

    parser = argparse.ArgumentParser(...)
    parser.add_argument("--repeat", type=int, default=5)
    smoke_option(parser, repeat=1)
    args = parse(parser, argv)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any


def smoke_option(parser: argparse.ArgumentParser, **smallest: Any) -> None:
    """Add ``--smoke`` to a bench's parser; with it, ``parse`` sets each named option to its smallest value."""
    sizes = ", ".join(f"--{name.replace('_', '-')} {value}" for name, value in smallest.items())
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"the smallest run, to check that the script works (CI runs it so){': ' + sizes if sizes else ''}; "
        "its exit code says only that it ran",
    )
    parser.set_defaults(smoke_sizes=smallest)


def parse(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> argparse.Namespace:
    """The parsed arguments, with ``--smoke``'s sizes applied over the options given."""
    args = parser.parse_args(argv)
    if args.smoke:
        for name, value in args.smoke_sizes.items():
            setattr(args, name, value)
    return args


def exit_code(args: argparse.Namespace, met: bool) -> int:
    """0 when the bench's targets are met, else 1; always 0 under ``--smoke``, whose sizes measure nothing."""
    return 0 if met or args.smoke else 1


MODELS = "EXTRACTOR_BENCH_MODELS"  # a folder of kit models built before the run, by name (see ``prebuilt``)


def prebuilt(name: str) -> Path | None:
    """The kit model ``name`` built before the run, or None (the bench builds its own).

    ``EXTRACTOR_BENCH_MODELS`` names a folder holding them by name: ``demo`` (the demo's scripted model:
    ``invoice-de-einfach``'s answer under the invoice schema, small), ``sample`` (``SAMPLE_INVOICE_ANSWER``, no
    schema, then ``<|im_end|>`` forever: ``build_scripted_model``'s defaults), ``random`` (``build_random_model``'s
    defaults), ``en16931`` (the demo's answer in its EN 16931 form under ``invoice-en16931``, absent members left
    out), ``mistral3`` and ``mistral3-config-bug`` (``build_family_model``'s, without and with the family's eos
    bug). ``tests/test_benches.py`` fills it with its session's models, so that a smoke run builds none; a name
    not there is built by the bench as without it."""
    folder = os.environ.get(MODELS)
    path = Path(folder) / name if folder else None
    return path if path is not None and (path / "config.json").is_file() else None


def family_model(folder: Path, name: str, *, config_bug: bool = False):
    """The kit's tiny ``name`` checkpoint: built before the run (``prebuilt``), else built under ``folder``."""
    from extractor.testing import build_family_model, read_family_model

    kept = prebuilt(f"{name}-config-bug" if config_bug else name)
    return read_family_model(kept) if kept else build_family_model(folder / name, name, config_bug=config_bug)
