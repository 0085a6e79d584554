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


def watch_logging() -> None:
    """Send the folder watcher's log lines (``extractor.watch``) to stderr, one timestamped line each."""
    import logging

    class StderrHandler(logging.StreamHandler):
        """Writes to whatever ``sys.stderr`` is at the time (test runners swap it)."""

        stream = property(lambda self: sys.stderr, lambda self, value: None)

    logger = logging.getLogger("extractor.watch")
    if not any(type(h).__name__ == "StderrHandler" for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def show_watch_summary(summary: dict, *, as_json: bool) -> None:
    """Show what a ``watch`` run did (``WatchSummary.to_dict()``): JSON or one line.

    Args:
        summary: the counts.
        as_json: print JSON instead.
    """
    if as_json:
        print_json(summary)
        return
    console().print(", ".join(f"{n} {name}" for name, n in summary.items()), highlight=False)


def show_ledger_status(report: dict, *, as_json: bool) -> None:
    """Show ``extract status``: counts per state and the recent failures (``Ledger.report()``).

    Args:
        report: the ledger report.
        as_json: print JSON instead.
    """
    if as_json:
        print_json(report)
        return
    from rich.table import Table

    counts = report["counts"]
    console().print(f"{report['ledger']}: {report['documents']} document(s) from {report['sources']} input name(s): "
                    + ", ".join(f"{n} {state}" for state, n in counts.items()), highlight=False)
    if not report["failures"]:
        return
    table = Table(title="recent failures")
    for col in ("when", "input", "code", "reason", "attempts"):
        table.add_column(col, overflow="fold")
    for f in report["failures"]:
        table.add_row(f["updated_at"], ", ".join(f["sources"]), f["error_code"] or "", (f["error"] or "")[:200],
                      str(f["attempts"]))
    console().print(table)


def show_eval(report, *, as_json: bool) -> None:
    """Show an ``evaluate.EvalReport``: its JSON form or its text table.

    Args:
        report: the EvalReport.
        as_json: print JSON instead.
    """
    if as_json:
        print_json(report.to_dict())
    else:
        console().print(report.to_text(), highlight=False)


def error(message: str) -> None:
    """Print an error message on stderr."""
    console(stderr=True).print(f"[red]error:[/] {message}", highlight=False)
