"""All terminal output lives here: commands return data, this module shows it (rich text or JSON)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from extractor.record import Record
from extractor.trust.verdict import ERROR, INVALID, OK, REVIEW, RUNAWAY, TRUNCATED

if TYPE_CHECKING:
    from rich.progress import Progress

STATUS_STYLE: dict[str, str] = {
    OK: "green",
    REVIEW: "yellow",
    INVALID: "red",
    TRUNCATED: "red",
    RUNAWAY: "magenta",
    ERROR: "red bold",
}


def console(*, stderr: bool = False):
    """Return a rich Console (on stderr for progress and messages)."""
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=False)


def print_json(value) -> None:
    """Print a JSON value to stdout."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def shown_as_json(value, *, as_json: bool) -> bool:
    """Print ``value`` as JSON when ``as_json`` (``--json``); whether it did, so that the table is left out."""
    if as_json:
        print_json(value)
    return as_json


# C0 (but tab and newline), DEL and C1: ESC starts CSI/OSC sequences (OSC-8 links, titles), 0x9b is a one-byte CSI
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """Text with every control character but tab and newline shown as ``\\xNN``: a value read from a document, a
    mail or the register (a supplier's name) can start no terminal sequence (a link, a title, a cursor move)."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def cell(value: object, *, style: str = ""):
    """A table cell as every table here shows one: the value as plain text (never rich markup: ``[link=...]`` is
    text), its control characters escaped (:func:`terminal_safe`), in ``style``."""
    from rich.text import Text

    return Text(terminal_safe("" if value is None else str(value)), style=style)


TABLE_WIDTH = 80  # the summary table fits an 80-column terminal; the records hold the full text


def shorten_middle(text: str, width: int) -> str:
    """Shorten text to ``width`` characters by cutting its middle (file names keep their start and extension)."""
    if len(text) <= width:
        return text
    keep = width - 1
    return text[: (keep + 1) // 2] + "…" + text[len(text) - keep // 2 :]


def cut(text: str, width: int) -> str:
    """Cut text to ``width`` characters, ending in ``…`` when anything was cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def detail(record: Record) -> str:
    """The one-line reason shown for a record: its first errors, else its first warning."""
    text = "; ".join(e["message"] for e in record.errors[:2]) or "; ".join(w["message"] for w in record.warnings[:1])
    return " ".join(text.split())


def records_table(records: Sequence[Record]):
    """Build the batch summary table (fits :data:`TABLE_WIDTH` columns).

    Args:
        records: the batch's records.

    Returns:
        A rich Table.
    """
    from rich.table import Table

    table = Table(title=f"{len(records)} document(s)", width=TABLE_WIDTH, box=None, pad_edge=False)
    widths = {"source": 22, "status": 9, "pages": 5, "tokens": 6, "s": 5}
    widths["detail"] = TABLE_WIDTH - sum(widths.values()) - 2 * len(widths)  # two spaces between columns
    for col, width in widths.items():
        table.add_column(
            col,
            no_wrap=True,
            overflow="ellipsis",
            min_width=width,
            max_width=width,
            justify="right" if col in ("pages", "tokens", "s") else "left",
        )
    for r in records:
        table.add_row(
            cell(shorten_middle(Path(r.source).name or r.source, widths["source"])),
            cell(r.status, style=STATUS_STYLE.get(r.status, "")),
            cell(r.pages),
            cell(r.usage.generated_tokens),
            cell(f"{r.timings.get('total_s', 0):.1f}"),
            cell(cut(detail(r), widths["detail"])),
        )
    return table


def totals(records: Sequence[Record], *, skipped: int = 0) -> str:
    """One line: how many documents, per status, and how many were skipped as already done."""
    counts: dict[str, int] = {}
    for r in records:
        counts[r.status] = counts.get(r.status, 0) + 1
    line = f"{len(records)} document(s): " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    return line + (f" ({skipped} skipped: already done)" if skipped else "")


def file_line(record: Record, *, skipped: bool = False) -> str:
    """The log line of one finished document: status, file, cost and, when not ok, why."""
    if skipped:
        return f"{record.status:<9} {record.source}  (skipped: already done)"
    cost = f"{record.pages} page(s), {record.usage.generated_tokens} tokens, {record.timings.get('total_s', 0):.1f} s"
    why = detail(record) if record.status != OK else ""
    return f"{record.status:<9} {record.source}  ({cost})" + (f"  {cut(why, 120)}" if why else "")


class BatchProgress:
    """What a person sees while a batch runs: a progress bar on a terminal (stderr) and, when the records go to
    files, one line per finished document on stderr."""

    def __init__(self, total: int, *, log_lines: bool) -> None:
        """Args: total: the number of inputs; log_lines: print a line per document (stderr)."""
        self.total = total
        self.log_lines = log_lines
        self.bar: Progress | None = None

    def __enter__(self) -> BatchProgress:
        if sys.stderr.isatty():
            from rich.progress import Progress

            bar = self.bar = Progress(console=console(stderr=True), transient=True)
            bar.start()
            self.task = bar.add_task("extracting", total=self.total)
        return self

    def advance(self, record: Record, skipped: bool = False) -> None:
        """Note one finished (or skipped) document."""
        if self.log_lines:
            console(stderr=True).print(
                file_line(record, skipped=skipped), highlight=False, markup=False, soft_wrap=True
            )
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=f"{Path(record.source).name}: {record.status}")

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def show_batch(result, *, as_json: bool, table: bool) -> None:
    """Show a finished batch (``batch.BatchResult``): JSON records (``--json``), the summary table (no output
    option), and always the totals line (stderr when the records went to files).

    Args:
        result: the BatchResult.
        as_json: print the records as a JSON array on stdout.
        table: print the summary table on stdout.
    """
    if as_json:
        print_json([r.to_dict() for r in result.records])
    elif table:
        console().print(records_table(result.records))
    line = totals(result.records, skipped=result.skipped)
    console(stderr=not table or as_json).print(line, highlight=False, markup=False)


def show_checks(checks: Iterable[dict], *, title: str, as_json: bool) -> None:
    """Show a list of checks ``{"name", "status", "detail", "source"}`` as a table or JSON.

    Args:
        checks: the checks.
        title: table title.
        as_json: print JSON instead.
    """
    checks = list(checks)
    if shown_as_json(checks, as_json=as_json):
        return
    from rich.table import Table

    style = {"pass": "green", "warn": "yellow", "fail": "red"}
    table = Table(title=title)
    for col in ("check", "status", "detail", "source"):
        table.add_column(col, overflow="fold")
    for c in checks:
        table.add_row(
            cell(c["name"]),
            cell(c["status"], style=style.get(c["status"], "")),
            cell(c.get("detail")),
            cell(c.get("source")),
        )
    console().print(table)


def show_einvoice_checks(checks: Sequence[dict], *, as_json: bool) -> None:
    """Show ``extract einvoice validate``'s results (``FileCheck.to_dict()``): per file its verdict and each fired
    rule (id, flag, text), or why it could not be checked; JSON with ``as_json``."""
    if shown_as_json(list(checks), as_json=as_json):
        return
    out = console()
    for check in checks:
        name = check["source"] + (f" ({check['attachment']})" if check.get("attachment") else "")
        if check.get("error"):
            out.print(f"[red bold]not checked[/] {check['error']}", highlight=False)
            continue
        verdict = "[green]valid[/]" if check["valid"] else "[red]invalid[/]"
        counts = f"{len(check['fatal'])} fatal, {len(check['warnings'])} warning rules"
        rules = ", ".join(check["rules"])
        out.print(f"{verdict} {name} [{check['syntax']}, {rules}]: {counts}", highlight=False)
        for finding in check["findings"]:
            style = "red" if finding["flag"] == "fatal" else "yellow"
            out.print(
                f"  [{style}]{finding['flag']:<7}[/] {finding['id']}: {cut(finding['text'], 160)}", highlight=False
            )


def watch_logging(name: str = "extractor.jobs.watch") -> None:
    """Send the folder watcher's log lines (``extractor.jobs.watch``; ``extract mail``'s: ``extractor.jobs.mail``)
    to stderr, one timestamped line each."""
    import logging

    class StderrHandler(logging.StreamHandler):
        """Writes to whatever ``sys.stderr`` is at the time (test runners swap it)."""

        stream = property(lambda self: sys.stderr, lambda self, value: None)

    logger = logging.getLogger(name)
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
    if shown_as_json(summary, as_json=as_json):
        return
    console().print(", ".join(f"{n} {name}" for name, n in summary.items()), highlight=False)


def show_ledger_status(report: dict, *, as_json: bool) -> None:
    """Show ``extract status``: counts per state and the recent failures (``Ledger.report()``).

    Args:
        report: the ledger report.
        as_json: print JSON instead.
    """
    if shown_as_json(report, as_json=as_json):
        return
    from rich.table import Table

    counts = report["counts"]
    console().print(
        f"{report['ledger']}: {report['documents']} document(s) from {report['sources']} input name(s): "
        + ", ".join(f"{n} {state}" for state, n in counts.items()),
        highlight=False,
    )
    if report.get("mail"):
        show_mail_status(report["mail"])
    if not report["failures"]:
        return
    table = Table(title="recent failures")
    for col in ("when", "input", "code", "reason", "attempts"):
        table.add_column(col, overflow="fold")
    for f in report["failures"]:
        table.add_row(
            cell(f["updated_at"]),
            cell(", ".join(f["sources"])),
            cell(f["error_code"]),
            cell((f["error"] or "")[:200]),
            cell(f["attempts"]),
        )
    console().print(table)


def show_mail_status(report: dict) -> None:
    """Show the mail part of ``extract status`` (``MailLedger.report()``): mails per state, the mail server's outage
    (going on, or the last), the recent failed and skipped mails with their reasons."""
    from rich.table import Table

    counts = ", ".join(f"{n} {state}" for state, n in report["counts"].items())
    console().print(f"{report['mails']} mail(s): {counts}", highlight=False)
    for o in report.get("outages", ()):  # the mail server's outage going on, or its last one
        if o["back_at"] is None:
            line = f"{o['mailbox']}: the mail server is UNREACHABLE since {o['since']}"
        else:
            line = f"{o['mailbox']}: the mail server's last outage: from {o['since']} to {o['back_at']}"
        line += f" ({o['attempts']} failed attempts; last error: {o['error']})"
        console().print(cell(line), highlight=False)
    if not report["recent"]:
        return
    table = Table(title="recent mails failed or skipped")
    for col in ("when", "UID", "from", "subject", "state", "reason"):
        table.add_column(col, overflow="fold")
    for m in report["recent"]:
        cells = (
            m["updated_at"],
            str(m["uid"]),
            m["sender"] or "",
            m["subject"] or "",
            m["state"],
            (m["reason"] or "")[:200],
        )
        table.add_row(*(cell(c) for c in cells))  # a subject or reason may hold [brackets] or escapes
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


def show_calibration(report, *, as_json: bool) -> None:
    """Show a ``tools.calibrate.CalibrationReport``: its JSON form or its table (before -> after)."""
    if as_json:
        print_json(report.to_dict())
    else:
        console().print(report.to_text(), highlight=False)


def error(message: str) -> None:
    """Print an error message on stderr."""
    from rich.markup import escape

    # escaped: a message naming a file such as "scan[1].pdf" or 'pip install "extractor-vlm[ray]"' is not markup
    console(stderr=True).print(f"[red]error:[/] {escape(terminal_safe(message))}", highlight=False)


# --------------------------------------------------------------------------- the invoice register (extract register)


def show_register_rows(rows: Sequence[dict], *, columns: Sequence[str], title: str, as_json: bool) -> None:
    """Show ``extract register suppliers`` / ``invoices``: a JSON list, or a table of ``columns`` (lists joined,
    IBANs in the suppliers' ``trusted_accounts`` shown masked in the table; the JSON holds them whole).

    Args:
        rows: the register's rows (``Register.suppliers()`` / ``invoices()``).
        columns: the keys shown in the table, in order.
        title: the table's title.
        as_json: print JSON instead.
    """
    if shown_as_json(list(rows), as_json=as_json):
        return
    from rich.table import Table

    table = Table(title=f"{title} ({len(rows)})")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(cell(_register_cell(row.get(c))) for c in columns))  # a supplier's name may hold escapes
    console().print(table)


def _register_cell(value) -> str:
    if isinstance(value, list):
        return ", ".join(_register_cell(v) for v in value)
    if isinstance(value, dict) and "iban" in value:
        return f"****{value['iban'][-4:]} ({value.get('source')})"
    if value is None:
        return ""
    return str(value)


def show_taught(taught: Sequence[dict], *, as_json: bool) -> None:
    """Show what ``extract learn`` taught (``Taught.to_dict()`` each): JSON, or one line per document: the layout
    learned (and the one it replaced), what was not learned, or why nothing was."""
    if shown_as_json(list(taught), as_json=as_json):
        return
    out = console()
    for item in taught:
        if item["refused"]:
            line = f"{item['document']}: refused: {item['refused']}"
        else:
            line = f"{item['document']}: layout {item['layout']} ({item['supplier'] or 'supplier'})"
            if item["replaced"]:
                line += f", replacing {item['replaced']}"
        out.print(line, highlight=False, markup=False)
        for note_line in item["notes"]:
            out.print(f"  {note_line}", highlight=False, markup=False)


def show_register_done(result: dict, *, as_json: bool) -> None:
    """Show what an ``extract register`` change did (``{"register", "done", ...}``): JSON or its ``done`` line."""
    if shown_as_json(result, as_json=as_json):
        return
    console().print(result["done"], highlight=False, markup=False)


def note(message: str) -> None:
    """Print a note on stderr (a file skipped, and why)."""
    from rich.markup import escape

    console(stderr=True).print(f"[yellow]note:[/] {escape(terminal_safe(message))}", highlight=False)


def show_conversion(conversion: dict, *, as_json: bool) -> None:
    """Show ``extract einvoice convert``'s verdict (``Conversion.to_dict()``) on stderr (stdout may carry the XML):
    valid or not, the fatal rules, what reading the source found; JSON with ``as_json``."""
    from rich.markup import escape

    out = console(stderr=True)
    if as_json:
        out.print_json(json.dumps(conversion, ensure_ascii=False))
        return
    check = conversion["check"]
    verdict = "[green]valid[/]" if conversion["valid"] else "[red]invalid[/]"
    rules = ", ".join(check.get("rules") or [])
    fatal = ", ".join(check.get("fatal") or []) or "no"
    said = escape(f"{conversion['source']} as {conversion['format']} [{rules}]: {fatal} fatal rules")
    out.print(f"{verdict} {said}", highlight=False)
    for finding in conversion["findings"]:
        out.print(f"  [yellow]{finding['code']}[/] {escape(cut(finding['message'], 200))}", highlight=False)
    if check.get("error"):
        out.print(f"  [red]error[/] {escape(check['error'])}", highlight=False)


def show_config(report: dict, *, as_json: bool) -> None:
    """Show ``extract config``: each setting's value and where it came from (``configfile.resolve``).

    Args:
        report: the resolved settings.
        as_json: print JSON instead.
    """
    if shown_as_json(report, as_json=as_json):
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"extract {report['command']}: {report['config'] or 'no configuration file'}"))
    for column in ("setting", "value", "source", "from"):
        table.add_column(column)
    for key, setting in report["settings"].items():
        cells = (key, json.dumps(setting["value"]), setting["source"], setting["from"])
        table.add_row(*(escape(cell) for cell in cells))
    console().print(table)
