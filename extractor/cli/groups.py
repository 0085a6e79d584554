"""Groups of options several commands share, each declared once and given to a command by one decorator.

A command names the group by one parameter (``feeds: FeedSettings = FEEDS``); the decorator (``option_group``)
puts the group's options in its place, so ``--help`` and the CLI reference keep their order, and calls the command
with what the group's options make: ``@feed_options`` (``--jsonl``, ``--hook``, ``--hook-timeout``) for
``extract watch`` and ``extract mail``, ``@state_register_options`` (``--register``, ``--no-register``,
``--require-known-supplier``, ``--learn``) for the same two, ``@batch_register_options`` and ``@engine_options``
for ``extract`` run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from extractor.cli.options import LEARN_OPTION, option_group
from extractor.errors import UsageError
from extractor.jobs.feeds import FeedSettings, split_hook
from extractor.jobs.ray import RaySettings
from extractor.settings import Settings

DEFAULTS = Settings()  # the defaults, named once there


def _register_option(help_text: str) -> tuple[Any, Any]:
    """``--register PATH_OR_URL`` (none by default), with the command's own help."""
    return (str | None, typer.Option(None, "--register", metavar="PATH_OR_URL", help=help_text))


# ---------------------------------------------------------------- a service's own invoice register (watch, mail)


@dataclass(frozen=True, kw_only=True)
class RegisterChoice:
    """What ``extract watch`` / ``extract mail`` were told about their invoice register."""

    register: str | None = None  # --register: a path or URL; None: the state folder's
    off: bool = False  # --no-register
    strict: bool = False  # --require-known-supplier
    learn: str = DEFAULTS.learn  # --learn


STATE_REGISTER_OPTIONS = {
    "register": _register_option(
        "The invoice register every invoice is checked against and added to (default: register.sqlite in the state "
        "folder, beside the ledger; postgresql://... to share one)."
    ),
    "no_register": (bool, typer.Option(False, "--no-register", help="Keep no invoice register (no register checks).")),
    "require_known_supplier": (
        bool,
        typer.Option(
            False,
            "--require-known-supplier",
            help="A supplier the register does not know yet makes the record review.",
        ),
    ),
    "learn": (str, LEARN_OPTION),
}


def _register_choice(*, register: str | None, no_register: bool, require_known_supplier: bool, learn: str):
    return RegisterChoice(register=register, off=no_register, strict=require_known_supplier, learn=learn)


state_register_options = option_group("choice", STATE_REGISTER_OPTIONS, _register_choice)


def state_register(settings: Settings | None, default: Path, choice: RegisterChoice) -> Settings:
    """The settings of ``extract watch`` / ``extract mail`` with their invoice register: ``--register``, else
    ``default`` (the state folder's, made if missing), none with ``--no-register``; ``--learn``: what the register's
    learned layouts do (as ``extract`` run's)."""
    if choice.off and choice.register:
        raise UsageError("--register and --no-register: give one of them")
    settings = (settings or Settings()).replace(learn=choice.learn)
    if choice.off:
        return settings.replace(register=None)
    register = choice.register
    if register is None:
        default.parent.mkdir(parents=True, exist_ok=True)
        register = str(default)
    return settings.replace(register=register, require_known_supplier=choice.strict)


# ---------------------------------------------------------- where a service's records go besides OUT (watch, mail)

FEEDS = FeedSettings()  # the defaults, named once there (extractor.settings)
FEED_OPTIONS = {
    "jsonl": (
        Path | None,
        typer.Option(
            None,
            "--jsonl",
            metavar="FILE",
            help="Also append every new record to FILE as one JSON line (kept across runs; once per record, even "
            "after a kill -9).",
        ),
    ),
    "hook": (
        str | None,
        typer.Option(
            None,
            "--hook",
            metavar="CMD",
            help="Run CMD (split like a shell line, no shell) on every new record: the record's JSON on stdin, "
            "EXTRACT_RECORD, EXTRACT_STATUS, EXTRACT_SOURCE, EXTRACT_SHA256 and EXTRACT_RECORD_KEY in its "
            "environment (at least once: deduplicate on EXTRACT_RECORD_KEY). A failure is logged and counted, "
            "never fatal.",
        ),
    ),
    "hook_timeout": (
        float,
        typer.Option(
            FEEDS.hook_timeout,
            "--hook-timeout",
            metavar="SECONDS",
            help="Kill a --hook run still going after this long (counted as failed).",
        ),
    ),
}


def feed_settings(*, jsonl: Path | None, hook: str | None, hook_timeout: float) -> FeedSettings:
    """``--jsonl``, ``--hook`` and ``--hook-timeout`` as FeedSettings (a missing hook command fails here, before
    the model loads)."""
    return FeedSettings(jsonl=jsonl, hook=split_hook(hook or ""), hook_timeout=hook_timeout)


feed_options = option_group("feeds", FEED_OPTIONS, feed_settings)

# ---------------------------------------------------------------- extract run: its register and where it runs


@dataclass(frozen=True, kw_only=True)
class BatchRegister:
    """``extract`` run's register options (no register unless ``--register`` names one)."""

    register: str | None = None
    require_known_supplier: bool = False
    duplicate_window: int = DEFAULTS.duplicate_window
    learn: str = DEFAULTS.learn

    def applied(self, settings: Settings) -> Settings:
        """``settings`` with these register options."""
        return settings.replace(
            register=self.register,
            require_known_supplier=self.require_known_supplier,
            duplicate_window=self.duplicate_window,
            learn=self.learn,
        )


BATCH_REGISTER_OPTIONS = {
    "register": _register_option(
        "Check every invoice against this invoice register and add it (a path: SQLite; or postgresql://...): "
        "duplicates, changed bank details, new suppliers (docs/register.md). Without it, the batch flags only the "
        "duplicates within itself."
    ),
    "require_known_supplier": (
        bool,
        typer.Option(
            False,
            "--require-known-supplier",
            help="With --register: a supplier the register does not know yet makes the record review.",
        ),
    ),
    "duplicate_window": (
        int,
        typer.Option(
            DEFAULTS.duplicate_window,
            "--duplicate-window",
            min=0,
            metavar="DAYS",
            help="possible_duplicate: the same supplier, total and currency issued at most DAYS apart.",
        ),
    ),
    "learn": (str, LEARN_OPTION),
}
batch_register_options = option_group("register_options", BATCH_REGISTER_OPTIONS, BatchRegister)


@dataclass(frozen=True, kw_only=True)
class EngineChoice:
    """Where ``extract`` run's batch runs: ``local``, or ``ray`` with its cluster settings."""

    engine: str = "local"
    ray: RaySettings = field(default_factory=RaySettings)


ENGINE_OPTIONS = {
    "engine": (
        str,
        typer.Option(
            EngineChoice().engine,
            "--engine",
            metavar="local|ray",
            help="Where the batch runs: local (this machine) or ray (a Ray cluster; pip install "
            '"extractor-vlm\\[ray]"; needs --endpoint and --out on shared storage: the '
            "in-process MLX model stays on one machine).",
        ),
    ),
    "address": (
        str | None,
        typer.Option(
            None,
            "--address",
            metavar="ADDR",
            help="With --engine ray: the cluster to join (head host:port, ray://host:10001 or auto; default: a "
            "local cluster of this machine's cores).",
        ),
    ),
    "actors": (
        int | None,
        typer.Option(
            None,
            "--actors",
            min=1,
            metavar="N",
            help="With --engine ray: extraction actors, one document each at a time (default: one per CPU of the "
            "cluster).",
        ),
    ),
}


def _engine_choice(*, engine: str, address: str | None, actors: int | None) -> EngineChoice:
    return EngineChoice(engine=engine, ray=RaySettings(address=address, actors=actors))


engine_options = option_group("runs_on", ENGINE_OPTIONS, _engine_choice)
