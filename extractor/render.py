"""All terminal output lives here: commands return data, this module shows it (rich text or JSON)."""

from __future__ import annotations

import json
import sys
from typing import Iterable, Sequence

from .record import Record

STATUS_STYLE = {"ok": "green", "review": "yellow", "invalid": "red", "truncated": "red", "runaway": "magenta",
                "error": "red bold"}


def console(*, stderr: bool = False):
    """Return a rich Console (on stderr for progress and messages)."""
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=False)


def print_json(value) -> None:
    """Print a JSON value to stdout."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def records_table(records: Sequence[Record]):
    """Build the batch summary table.

    Args:
        records: the batch's records.

    Returns:
        A rich Table.
    """
    from rich.table import Table

    table = Table(title=f"{len(records)} document(s)", show_lines=False)
    for col in ("source", "status", "pages", "tokens", "finish", "seconds", "detail"):
        table.add_column(col, overflow="fold")
    for r in records:
        detail = "; ".join(e["message"] for e in r.errors[:2]) or "; ".join(w["message"] for w in r.warnings[:1])
        table.add_row(r.source, f"[{STATUS_STYLE.get(r.status, '')}]{r.status}[/]", str(r.pages),
                      str(r.usage.generated_tokens), r.finish_reason or "-",
                      f"{r.timings.get('total_s', 0):.1f}", detail[:160])
    return table


def show_records(records: Sequence[Record], *, as_json: bool) -> None:
    """Show a batch's records: JSON lines (``--json``) or the summary table.

    Args:
        records: the records.
        as_json: print the records as a JSON array instead of a table.
    """
    if as_json:
        print_json([r.to_dict() for r in records])
        return
    console().print(records_table(records))
    counts = {}
    for r in records:
        counts[r.status] = counts.get(r.status, 0) + 1
    console().print(", ".join(f"{n} {s}" for s, n in sorted(counts.items())))


def show_checks(checks: Iterable[dict], *, title: str, as_json: bool) -> None:
    """Show a list of checks ``{"name", "status", "detail", "source"}`` as a table or JSON.

    Args:
        checks: the checks.
        title: table title.
        as_json: print JSON instead.
    """
    checks = list(checks)
    if as_json:
        print_json(checks)
        return
    from rich.table import Table

    style = {"pass": "green", "warn": "yellow", "fail": "red"}
    table = Table(title=title)
    for col in ("check", "status", "detail", "source"):
        table.add_column(col, overflow="fold")
    for c in checks:
        table.add_row(c["name"], f"[{style.get(c['status'], '')}]{c['status']}[/]", c.get("detail", ""),
                      c.get("source") or "")
    console().print(table)


def error(message: str) -> None:
    """Print an error message on stderr."""
    console(stderr=True).print(f"[red]error:[/] {message}", highlight=False)
