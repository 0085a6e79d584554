"""The ``extract`` app itself: the typer app every command module registers on, the routing of ``extract
INPUTS...`` to the batch command, and how an error becomes an exit code (``handle_errors``)."""

from __future__ import annotations

import functools

import typer
from typer.core import TyperGroup

from extractor.cli import output as render
from extractor.cli.configfile import with_environment
from extractor.errors import ExitCode, ExtractorError, is_full


class _App(TyperGroup):
    """The ``extract`` group: ``run`` (what ``extract INPUTS...`` runs) listed first, the other commands in the order
    they register; and flags without a type label (typer's rich help writes ``<bool>`` beside every flag)."""

    def list_commands(self, ctx) -> list[str]:
        """The commands' names, ``run`` first."""
        return sorted(super().list_commands(ctx), key=lambda name: name != BATCH)

    def get_params(self, ctx) -> list:
        """The group's own options (``--help``), flags unlabelled."""
        return _unlabelled(super().get_params(ctx))

    def get_command(self, ctx, cmd_name: str):
        """A command, its flags (and its subcommands' flags) unlabelled, each option reading ``EXTRACT_<KEY>``."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _unlabel(command, ctx)
            with_environment(command)
        return command


def _unlabelled(params: list) -> list:
    """The parameters, every flag given an empty metavar: typer's rich help shows a metavar in place of the type."""
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    return params


def _unlabel(command, ctx) -> None:
    """Unlabel a command's flags, its help option's included, and its subcommands' (``extract einvoice ...``)."""
    _unlabelled(command.get_params(ctx))
    for sub in getattr(command, "commands", {}).values():
        _unlabel(sub, ctx)


app = typer.Typer(
    cls=_App,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Invoices and business PDFs to schema-valid JSON with a local vision-language model. "
    "Add --verbose to any command to see third-party notes too.",
)
BATCH = "run"
VERBOSE = "--verbose"  # a global flag: third-party notes too (taken out before typer parses)
SUBCOMMANDS = {BATCH}  # other modules register theirs with @app.command and add the name here


def exit_code_for(exc: ExtractorError) -> ExitCode:
    """Map an error onto the CLI's exit code: bad options and schemas are usage errors (2), and so is an output
    or store whose file system is full or read-only (``disk_full``, ``errors.is_full``: the batch stops, naming the
    file); the rest 1."""
    return ExitCode.USAGE if exc.code in ("usage", "schema", "disk_full") or is_full(exc) else ExitCode.NOT_OK


def handle_errors(command):
    """Decorate a command so an ExtractorError prints one clear line and exits with its mapped code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ExtractorError as exc:
            render.error(str(exc))
            raise typer.Exit(exit_code_for(exc)) from exc

    return wrapper


def dispatch_args(args: list[str]) -> list[str]:
    """Route ``extract INPUTS...`` to the batch command and ``extract NAME ...`` to a subcommand.

    Args:
        args: the command-line arguments after the program name.

    Returns:
        The arguments for the typer app.
    """
    if args and (args[0] in SUBCOMMANDS or args[0] in ("--help", "-h") and len(args) == 1):
        return args
    return [BATCH, *args]


def command_tree():
    """The app's click group (every command registered by then), which ``extract.toml`` is checked against."""
    return typer.main.get_command(app)


def given_option(ctx: typer.Context, name: str) -> bool:
    """Whether the command's option ``name`` came from the command line, its environment variable or the
    configuration file (``extract.toml``), not its default."""
    source = ctx.get_parameter_source(name)  # typer's click (it may vendor its own): compared by name
    return source is not None and source.name != "DEFAULT"


__all__ = [
    "BATCH",
    "SUBCOMMANDS",
    "VERBOSE",
    "app",
    "command_tree",
    "dispatch_args",
    "exit_code_for",
    "given_option",
    "handle_errors",
]
