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
