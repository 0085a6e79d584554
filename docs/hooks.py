"""mkdocs hook: the CLI reference, generated from the typer app at every build so it cannot drift from the code,
and the e-invoice formats' table, generated from ``extractor.einvoice.formats.TABLE`` (marker
``<!-- einvoice-formats -->`` in ``docs/einvoice.md``).

``docs/cli.md`` holds the marker ``<!-- cli-reference -->``; this hook replaces it with each command's usage, help
and options as ``extract COMMAND --help`` shows them (rich markup read as the terminal renders it). typer (0.29 and
later) ships its own copy of click, so the command tree is read through typer's objects
(``typer.main.get_command``, ``typer.Context``), never ``import click``.
"""

import html

import typer
from rich.text import Text

MARKER = "<!-- cli-reference -->"
FORMATS_MARKER = "<!-- einvoice-formats -->"


def _plain(text: str) -> str:
    """The help text as the terminal shows it: typer renders it as rich markup (``\\[ray]`` is ``[ray]``)."""
    return Text.from_markup(text or "").plain


def _cell(text: str) -> str:
    """Text for a Markdown table cell: HTML-escaped; pipes, asterisks, underscores and brackets literal."""
    return (
        html.escape(" ".join(text.split()))
        .replace("|", "&#124;")
        .replace("*", "&#42;")
        .replace("_", "&#95;")
        .replace("[", "&#91;")
        .replace("]", "&#93;")
    )


def _row(param, ctx: typer.Context) -> str:
    """One table row: the names and value as ``--help`` lists them, then the help with its default and range."""
    names, text = param.get_help_record(ctx)
    own = param.help or ""  # typer appends "[default: ...]", "[required]" and ranges: not markup, kept as they are
    text = _plain(own) + text[len(own) :] if text.startswith(own) else text
    return f"| <code>{_cell(names)}</code> | {_cell(text)} |"


def _usage(name: str, command, ctx: typer.Context) -> str:
    """``extract NAME [OPTIONS] ARGS``, the usage line of ``extract NAME --help``."""
    pieces = [f"extract {name}", "[OPTIONS]"]
    for param in command.params:
        if param.param_type_name == "argument":
            pieces.extend(param.get_usage_pieces(ctx))
    return " ".join(pieces)


def cli_reference() -> str:
    """Markdown for every command of the ``extract`` app: usage, help paragraphs, arguments, options."""
    from extractor.cli.app import app  # every command registered (extractor.cli imports them all)

    group = typer.main.get_command(app)
    root = typer.Context(group, info_name="extract")
    out = [_cell(_plain(group.help or "")) + "\n"]
    for name in group.list_commands(root):
        command = group.get_command(root, name)
        ctx = typer.Context(command, info_name=name, parent=root)
        out.append(f"## `extract {name}`\n")
        out.append(f"```\n{_usage(name, command, ctx)}\n```\n")
        out.extend(_cell(paragraph) + "\n" for paragraph in _plain(command.help or "").split("\n\n"))
        for kind in ("argument", "option"):
            params = [p for p in command.params if p.param_type_name == kind and not getattr(p, "hidden", False)]
            if params:
                out.append(f"| {kind} | help |\n|---|---|")
                out.extend(_row(p, ctx) for p in params)
                out.append("")
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files):
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    if FORMATS_MARKER in markdown:
        from extractor.einvoice.formats import formats_table

        markdown = markdown.replace(FORMATS_MARKER, formats_table())
    return markdown
