"""One configuration for every command: ``extract.toml``.

The file holds a ``[common]`` table, whose keys reach every command that has the option, and one table per command
(``[watch]``, ``[mail]``, ``[serve]``; ``[register.invoices]`` for a subcommand), whose keys win over the common ones.
A key is an option's long flag without its dashes (``max-tokens``, ``no-register``; ``max_tokens`` too) or an
argument's name (``inbox``, ``url``). The file becomes click's ``default_map``, so a flag wins over the file; every
option also reads ``EXTRACT_<KEY>`` from the environment (``EXTRACT_MAX_TOKENS``), which wins over the file. Which
file: ``--config FILE`` (taken out of the arguments before typer parses, like ``--verbose``), else
``$EXTRACT_CONFIG``, else ``extract.toml`` in the working directory when there is one.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import typer

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (pyproject's dependency)
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

from extractor.errors import UsageError
from extractor.settings import CONFIG_ENV, CONFIG_FILE, ENV_PREFIX

CONFIG_FLAG = "--config"
COMMON = "common"  # the table whose keys reach every command


@dataclass(frozen=True)
class Configuration:
    """A read configuration file: ``defaults`` is click's ``default_map`` (command -> parameter name -> value,
    nested for subcommands), ``origins`` the table each value came from (same shape, ``extract.toml [watch]``)."""

    path: Path | None = None
    defaults: dict = field(default_factory=dict)
    origins: dict = field(default_factory=dict)


def take_config_flag(args: list[str]) -> tuple[str | None, list[str]]:
    """Take ``--config FILE`` / ``--config=FILE`` out of the arguments (before ``--``).

    Args:
        args: the command-line arguments after the program name.

    Returns:
        The file named (None without the flag) and the arguments without it.
    """
    end = args.index("--") if "--" in args else len(args)
    for index, arg in enumerate(args[:end]):
        if arg.startswith(CONFIG_FLAG + "="):
            return arg.split("=", 1)[1], args[:index] + args[index + 1 :]
        if arg == CONFIG_FLAG:
            if index + 1 >= end:
                raise UsageError(f"{CONFIG_FLAG}: name a FILE")
            return args[index + 1], args[:index] + args[index + 2 :]
    return None, args


def config_path(flag: str | None, *, environ: Mapping[str, str], cwd: Path) -> Path | None:
    """The configuration file in effect: the flag's, else the environment's, else ``extract.toml`` here if any.

    Raises:
        UsageError: a file named by the flag or the environment does not exist.
    """
    named = flag or environ.get(CONFIG_ENV) or None
    if named is None:
        found = cwd / CONFIG_FILE
        return found if found.is_file() else None
    path = Path(named)
    if not path.is_file():
        how = CONFIG_FLAG if flag else f"${CONFIG_ENV}"
        raise UsageError(f"{path}: no such configuration file ({how})")
    return path


def option_key(param) -> str:
    """The configuration key of a parameter: its first long flag without dashes, or an argument's name."""
    for opt in param.opts:
        if opt.startswith("--"):
            return opt[2:]
    return param.name


def env_name(key: str) -> str:
    """The environment variable of a key (``max-tokens`` -> ``EXTRACT_MAX_TOKENS``)."""
    return ENV_PREFIX + key.replace("-", "_").upper()


def with_environment(command) -> None:
    """Give every option of a command (and its subcommands') its ``EXTRACT_<KEY>`` variable, unless it has one."""
    for param in command.params:
        if param.param_type_name == "option" and param.envvar is None:
            param.envvar = env_name(option_key(param))
            param.show_envvar = False  # one rule for all, told in docs/config.md: --help stays as it was
    for sub in getattr(command, "commands", {}).values():
        with_environment(sub)


def read_config(path: Path | None, group) -> Configuration:
    """Read and check a configuration file against the app's commands.

    Args:
        path: the file (None: no configuration, every default stands).
        group: the ``extract`` click group.

    Raises:
        UsageError: the file cannot be read, is not TOML (file and line named), or names a table or key that no
            command has, or a value an option refuses (file, table and key named).
    """
    if path is None:
        return Configuration()
    try:
        tables = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the configuration ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the configuration is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    common = tables.pop(COMMON, {})
    if not isinstance(common, dict):
        raise UsageError(f"{path}: [{COMMON}] must be a table")
    defaults: dict = {}
    origins: dict = {}
    _check_keys(path, COMMON, common, _all_keys(group))
    misfits: dict[str, str | None] = {}
    _fill(path, group, typer.Context(group, info_name="extract"), common, tables, defaults, origins, misfits, ())
    for key, problem in misfits.items():  # a common value no command takes is a mistake, not a choice
        if problem is not None:
            raise UsageError(f"{path}: [{COMMON}] {key}: {problem}")
    return Configuration(path=path, defaults=defaults, origins=origins)


def _all_keys(group) -> set[str]:
    """Every key some command (or subcommand) of the group takes."""
    keys: set[str] = set()
    for sub in group.commands.values():
        keys |= _all_keys(sub) if hasattr(sub, "commands") else set(_keys(sub))
    return keys


def _keys(command) -> dict:
    """A command's keys and their parameters (``_`` spelling folded into ``-``)."""
    return {option_key(param).replace("_", "-"): param for param in command.params if param.name != "help"}


def _check_keys(path: Path, table: str, values: dict, known) -> None:
    """Refuse a key the table's command(s) do not take."""
    for key in values:
        if key.replace("_", "-") not in known:
            raise UsageError(f"{path}: [{table}] has an unknown key {key!r}")


def _fill(
    path: Path, group, ctx, common: dict, tables: dict, defaults: dict, origins: dict, misfits: dict, where: tuple
) -> None:
    """Fill the default map of a group's commands: the common keys each takes, then its own table's.

    A common value an option of the same name refuses skips that command (serve's ``--register`` is a flag: its
    register lives in its store), noted in ``misfits`` (key -> the refusal, None once a command took it).
    """
    for name, value in tables.items():
        table = ".".join((*where, name))
        if name not in group.commands or not isinstance(value, dict):
            raise UsageError(f"{path}: [{table}] names no command")
    for name, command in group.commands.items():
        own = tables.get(name, {})
        sub_ctx = typer.Context(command, info_name=name, parent=ctx)
        if hasattr(command, "commands"):
            defaults[name], origins[name] = {}, {}
            _fill(path, command, sub_ctx, common, own, defaults[name], origins[name], misfits, (*where, name))
            continue
        keys = _keys(command)
        table = ".".join((*where, name))
        _check_keys(path, table, own, keys)
        values = {key: (value, COMMON) for key, value in common.items() if key.replace("_", "-") in keys}
        values.update({key: (value, table) for key, value in own.items()})
        for key, (value, source) in values.items():
            param = keys[key.replace("_", "-")]
            problem = _refusal(param, value, sub_ctx)
            if problem is not None and source == COMMON:
                misfits.setdefault(key, problem)
                continue
            if problem is not None:
                raise UsageError(f"{path}: [{source}] {key}: {problem}")
            misfits[key] = None
            defaults.setdefault(name, {})[param.name] = value  # as written: click reads it as it reads a flag
            origins.setdefault(name, {})[param.name] = f"{path} [{source}]"


def _refusal(param, value, ctx) -> str | None:
    """Why the option refuses the value (its type or range), or None when it takes it."""
    try:
        param.process_value(ctx, value)
    except (typer.BadParameter, TypeError, ValueError) as exc:
        return exc.format_message() if isinstance(exc, typer.BadParameter) else str(exc)
    return None


def load(args: list[str], group, *, environ: Mapping[str, str] | None = None) -> tuple[Configuration, list[str]]:
    """The configuration the arguments, the environment and the working directory name, and the arguments left.

    Args:
        args: the command-line arguments after the program name.
        group: the ``extract`` click group.
        environ: the environment (default: ``os.environ``).
    """
    flag, rest = take_config_flag(args)
    path = config_path(flag, environ=os.environ if environ is None else environ, cwd=Path.cwd())
    return read_config(path, group), rest


SOURCES = {"COMMANDLINE": "flag", "ENVIRONMENT": "environment", "DEFAULT_MAP": "file", "DEFAULT": "default"}
URL_PASSWORD = re.compile(r"(://[^:/@\s]+:)[^@/\s]+@")
SECRETS = ("password", "api_key")  # options whose values ``extract config`` never shows


def resolve(group_ctx, config: Configuration, path: tuple[str, ...], args: list[str]) -> dict:
    """The settings a command would run with, and where each came from (``extract config``).

    Args:
        group_ctx: the ``extract`` group's context (its default map is the configuration's).
        config: the configuration read (for the table each file value came from).
        path: the command's name (and a subcommand's: ``("register", "invoices")``).
        args: the command's arguments, parsed as it would parse them (nothing is run).

    Returns:
        ``{"config": file or None, "command": name, "settings": {key: {"value", "source", "from"}}}``; ``source``
        is default, file, environment or flag.

    Raises:
        UsageError: no such command, or arguments it refuses.
    """
    ctx, command, origins = group_ctx, group_ctx.command, config.origins
    for index, name in enumerate(path):
        sub = command.get_command(ctx, name) if hasattr(command, "commands") else None
        if sub is None:
            raise UsageError(f"config: no command {' '.join(path)!r}")
        # resilient: an argument the file does not name yet (watch's INBOX) leaves its value empty, not an error
        last = index == len(path) - 1
        ctx = sub.make_context(name, list(args) if last else [], parent=ctx, resilient_parsing=True)
        command, origins = sub, origins.get(name, {})
    if hasattr(command, "commands"):
        raise UsageError(f"config: name one of {' '.join(path)}'s commands: {', '.join(command.commands)}")
    settings = {}
    for param in command.get_params(ctx):
        if param.name == "help" or getattr(param, "hidden", False):
            continue
        source = SOURCES[ctx.get_parameter_source(param.name).name]
        detail = {"file": origins.get(param.name, ""), "environment": param.envvar or "", "flag": _spelling(param)}
        value = ctx.params.get(param.name)
        if param.name in SECRETS and value:
            value = "***" if isinstance(value, str) else ["***"] * len(value)
        settings[option_key(param)] = {"value": _plain(value), "source": source, "from": detail.get(source, "")}
    file = None if config.path is None else str(config.path)
    return {"config": file, "command": " ".join(path), "settings": settings}


def _spelling(param) -> str:
    """How the command line names a parameter: ``--max-tokens``, or an argument's ``INBOX``."""
    return param.opts[0] if param.param_type_name == "option" else param.name.upper()


def _plain(value):
    """A parsed value as JSON holds it (paths as strings, tuples as lists), a URL's password as ``***``."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return URL_PASSWORD.sub(r"\1***@", value)  # postgresql://user:secret@host: the store's, the register's
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return str(value)


__all__ = [
    "CONFIG_FLAG",
    "Configuration",
    "env_name",
    "load",
    "option_key",
    "read_config",
    "resolve",
    "with_environment",
]
