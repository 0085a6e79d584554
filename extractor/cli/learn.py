"""``extract learn`` (teach suppliers' layouts from truth) and ``extract layouts list|show|forget`` (docs/learning.md).
Each takes ``--register PATH_OR_URL`` as ``extract run`` does, calls the layouts' store and hands the data to
``cli.output``."""

from __future__ import annotations

from pathlib import Path

import typer

from extractor.cli import output as render
from extractor.cli.app import SUBCOMMANDS, app, handle_errors
from extractor.cli.register import AS_JSON, REGISTER, _open, _person
from extractor.errors import UsageError

layouts_app = typer.Typer(
    no_args_is_help=True,
    help="The suppliers' layouts learned from reviews, embedded e-invoices and archives (docs/learning.md).",
)
app.add_typer(layouts_app, name="layouts")
SUBCOMMANDS.update({"layouts", "learn"})


def _layouts(opened):
    """The layouts of an open register (its one owner's)."""
    from extractor.layouts.store import LayoutStore

    return LayoutStore.of(opened)


@app.command(
    "learn",
    help="Teach suppliers' layouts from truth: an output folder's approved reviews (OUT), a document and its true "
    "data (PDF --data DATA.json), or a folder of name.pdf + name.json pairs (DIR: an archive of booked invoices). "
    "A model's answer never teaches. Exit 2 when something could not teach (the reason is said).",
)
@handle_errors
def learn_command(
    target: Path = typer.Argument(..., help="OUT (saved reviews), a PDF (with --data) or DIR (pairs)."),
    register: str = REGISTER,
    data: Path | None = typer.Option(None, "--data", metavar="DATA.json", help="The document's true data."),
    schema: str | None = typer.Option(None, "--schema", help="The schema the data follows (default: invoice)."),
    by: str | None = typer.Option(None, "--by", help="Who teaches (default: the OS user)."),
    as_json: bool = AS_JSON,
) -> None:
    """Teach layouts; exit 2 when a teacher was refused."""
    from extractor.tools.learn import learn_target

    with _open(register) as opened:
        taught = learn_target(_layouts(opened), target, data=data, schema=schema, by=_person(by))
    render.show_taught([t.to_dict() for t in taught], as_json=as_json)
    refused = [t for t in taught if t.refused]
    if data is not None and refused:  # one document: its refusal is the command's error
        raise UsageError(f"{refused[0].document}: {refused[0].refused}")
    if refused:
        raise typer.Exit(2)


@layouts_app.command("list", help="List the learned layouts, by supplier.")
@handle_errors
def list_command(
    register: str = REGISTER,
    supplier: str | None = typer.Option(None, "--supplier", help="Only this supplier's (its key, or part of a name)."),
    as_json: bool = AS_JSON,
) -> None:
    """List layouts."""
    with _open(register) as opened:
        rows = [s.to_dict() for s in _layouts(opened).list(supplier=supplier)]
    columns = ("id", "supplier_key", "supplier_name", "schema", "source", "learned_at")
    render.show_register_rows(rows, columns=columns, title="layouts", as_json=as_json)


@layouts_app.command("show", help="Show one layout whole: what it reads, where, and from what it was learned.")
@handle_errors
def show_command(layout_id: str = typer.Argument(..., metavar="ID"), register: str = REGISTER) -> None:
    """Print a layout's JSON."""
    with _open(register) as opened:
        layout = _layouts(opened).get(layout_id)
    if layout is None:
        raise UsageError(f"no layout {layout_id} in {register} (extract layouts list)")
    render.print_json(layout.to_json())


@layouts_app.command("forget", help="Forget a layout: its supplier's documents are read by the model again.")
@handle_errors
def forget_command(
    layout_id: str = typer.Argument(..., metavar="ID"), register: str = REGISTER, as_json: bool = AS_JSON
) -> None:
    """Forget a layout."""
    with _open(register) as opened:
        gone = _layouts(opened).forget(layout_id)
    if not gone:
        raise UsageError(f"no layout {layout_id} in {register} (extract layouts list)")
    render.show_register_done({"layout": layout_id, "done": f"layout {layout_id} forgotten"}, as_json=as_json)
