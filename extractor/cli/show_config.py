"""``extract config``: the settings a command would run with, and where each came from (default, the
configuration file, the environment, a flag). The file and the variables are read by ``extractor.cli.configfile``."""

from __future__ import annotations

import typer

from extractor.cli import output as render
from extractor.cli.app import SUBCOMMANDS, app, handle_errors
from extractor.cli.configfile import Configuration, resolve

COMMAND_ARGUMENT = typer.Argument(None, metavar="COMMAND", help="The command, its subcommand and flags (default: run).")
AS_JSON = typer.Option(False, "--json", help="Print the settings as JSON.")


@app.command(
    "config",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    help="Show the settings COMMAND would run with and where each came from: default, file (extract.toml, "
    "--config FILE or $EXTRACT_CONFIG), environment (EXTRACT_<OPTION>) or flag. Nothing is run.\n\n"
    "A subcommand is named in full (register invoices); flags after it are read as that command reads them.",
)
@handle_errors
def config_command(
    ctx: typer.Context,
    command: list[str] = COMMAND_ARGUMENT,
    as_json: bool = AS_JSON,
) -> None:
    """Print the resolved settings of one command."""
    words = list(command or []) + list(ctx.args)
    group_ctx = ctx.parent
    path: list[str] = []
    while words and not words[0].startswith("-") and _is_command(group_ctx, [*path, words[0]]):
        path.append(words.pop(0))
    config = ctx.find_root().obj if isinstance(ctx.find_root().obj, Configuration) else Configuration()
    report = resolve(group_ctx, config, tuple(path or ["run"]), words)
    render.show_config(report, as_json=as_json)


def _is_command(group_ctx, path: list[str]) -> bool:
    """Whether the words name a command or subcommand of the app."""
    command = group_ctx.command
    for name in path:
        command = getattr(command, "commands", {}).get(name)
        if command is None:
            return False
    return True


SUBCOMMANDS.add("config")
