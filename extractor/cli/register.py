"""``extract register ...``: the invoice register's commands (``extractor.register``). Each takes ``--register
PATH_OR_URL`` as ``extract run`` does, calls the register and hands the data to ``cli.output``."""

from __future__ import annotations

import getpass
from pathlib import Path

import typer

from extractor.cli import output as render
from extractor.cli.app import SUBCOMMANDS, app, handle_errors

register_app = typer.Typer(
    no_args_is_help=True,
    help="The invoice register (docs/register.md): its suppliers and invoices, supplier master data in and out, "
    "accounts trusted by a person, entries forgotten.",
)
app.add_typer(register_app, name="register")
SUBCOMMANDS.add("register")

REGISTER = typer.Option(
    ..., "--register", metavar="PATH_OR_URL", help="The register: a path (SQLite), sqlite:///PATH or postgresql://..."
)
AS_JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")


def _open(url: str):
    from extractor.register import Register

    return Register.open(url)


def _person(by: str | None) -> str:
    """Who did it: ``--by``, else the OS user."""
    if by:
        return by
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


@register_app.command("suppliers", help="List the suppliers the register knows, with their trusted accounts.")
@handle_errors
def suppliers_command(
    register: str = REGISTER,
    name: str | None = typer.Option(None, "--name", help="Only suppliers whose name contains this."),
    known: bool | None = typer.Option(
        None, "--known/--not-known", help="Only known suppliers (imported, trusted, or with an ok record), or others."
    ),
    as_json: bool = AS_JSON,
) -> None:
    """List suppliers."""
    with _open(register) as opened:
        rows = opened.suppliers(name=name, known=known)
    columns = ("key", "name", "known", "source", "invoices", "trusted_accounts")
    render.show_register_rows(rows, columns=columns, title="suppliers", as_json=as_json)


@register_app.command("invoices", help="List the registered documents, in the order they were registered.")
@handle_errors
def invoices_command(
    register: str = REGISTER,
    supplier: str | None = typer.Option(None, "--supplier", help="Only this supplier's (its key, or part of a name)."),
    number: str | None = typer.Option(None, "--number", help="Only this number (normalised as the register does)."),
    since: str | None = typer.Option(None, "--since", metavar="YYYY-MM-DD", help="Only issued on or after."),
    until: str | None = typer.Option(None, "--until", metavar="YYYY-MM-DD", help="Only issued on or before."),
    flagged: bool = typer.Option(False, "--flagged", help="Only those with a warning (duplicates, changed accounts)."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the latest N."),
    as_json: bool = AS_JSON,
) -> None:
    """List invoices."""
    with _open(register) as opened:
        rows = opened.invoices(supplier=supplier, number=number, since=since, until=until, flagged=flagged, limit=limit)
    columns = ("seen_at", "source", "supplier_name", "printed", "issue_date", "total", "currency", "status", "findings")
    render.show_register_rows(rows, columns=columns, title="invoices", as_json=as_json)


@register_app.command(
    "import",
    help="Import supplier master data (CSV with the header name,vat_id,iban and optionally tax_number,bic,country; "
    "or JSON, e.g. `extract register export`'s): each supplier known, its IBAN trusted. One transaction: a file "
    "with a bad line is refused whole, every bad line named (exit 2).",
)
@handle_errors
def import_command(
    file: Path = typer.Argument(..., help="The CSV or JSON file (UTF-8)."),  # noqa: B008 - typer's API
    register: str = REGISTER,
    by: str | None = typer.Option(None, "--by", help="Who imports it (default: the OS user)."),
    as_json: bool = AS_JSON,
) -> None:
    """Import master data."""
    from extractor.register.masterdata import read_master_data

    rows = read_master_data(file)
    with _open(register) as opened:
        count = opened.import_suppliers(rows, by=_person(by))
        name = opened.name
    done = f"{count} supplier(s) imported from {file} into {name}"
    render.show_register_done({"register": name, "imported": count, "done": done}, as_json=as_json)


@register_app.command("export", help="Print everything the register holds as JSON: {suppliers, invoices}.")
@handle_errors
def export_command(
    register: str = REGISTER,
    out: Path | None = typer.Option(None, "--out", "-o", help="Write it to this file instead of stdout."),  # noqa: B008
) -> None:
    """Export the register."""
    import json

    from extractor.jobs.sinks import write_atomic

    with _open(register) as opened:
        data = opened.export()
    if out is None:
        render.print_json(data)
    else:
        write_atomic(out, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


@register_app.command(
    "trust",
    help="Trust IBAN for SUPPLIER (its key vat:..., its VAT id, tax number or name) after confirming it with the "
    "supplier by a known channel; saved with who and when.",
)
@handle_errors
def trust_command(
    supplier: str = typer.Argument(..., help="The supplier: key, VAT id, tax number or name."),
    iban: str = typer.Argument(..., help="The IBAN (spaces allowed)."),
    register: str = REGISTER,
    by: str | None = typer.Option(None, "--by", help="Who confirmed it (default: the OS user)."),
    as_json: bool = AS_JSON,
) -> None:
    """Trust an account."""
    with _open(register) as opened:
        account = opened.trust(supplier, iban, by=_person(by))
        name = opened.name
    done = f"****{account.iban[-4:]} trusted for {supplier} by {account.by} at {account.at}"
    render.show_register_done({"register": name, "account": account.to_dict(), "done": done}, as_json=as_json)


@register_app.command(
    "not-a-duplicate",
    help="Decide that a flagged document (its path, job id or source) is not a duplicate: its duplicate findings "
    "become notes saying who decided and when, and it is no longer held for them.",
)
@handle_errors
def not_a_duplicate_command(
    source: str = typer.Argument(..., help="The document: its path, job id or source as given."),
    register: str = REGISTER,
    by: str | None = typer.Option(None, "--by", help="Who decided (default: the OS user)."),
    as_json: bool = AS_JSON,
) -> None:
    """Resolve a document's duplicate findings."""
    with _open(register) as opened:
        count = opened.not_a_duplicate(source, by=_person(by))
        name = opened.name
    done = f"{count} finding(s) of {source} resolved as not a duplicate"
    render.show_register_done({"register": name, "resolved": count, "done": done}, as_json=as_json)


@register_app.command(
    "forget",
    help="Forget a supplier (with its trusted accounts) or a document's entries (by its path, job id or source), "
    "so it is no one's original any more.",
)
@handle_errors
def forget_command(
    register: str = REGISTER,
    supplier: str | None = typer.Option(None, "--supplier", help="The supplier: key, VAT id, tax number or name."),
    source: str | None = typer.Option(None, "--source", help="The document: its path, job id or source as given."),
    as_json: bool = AS_JSON,
) -> None:
    """Forget a supplier or a document."""
    with _open(register) as opened:
        count = opened.forget(supplier=supplier, source=source)
        name = opened.name
    done = f"{count} {'supplier' if supplier else 'entry'}(s) forgotten in {name}"
    render.show_register_done({"register": name, "forgotten": count, "done": done}, as_json=as_json)


__all__ = ["register_app"]
