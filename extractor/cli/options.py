"""The extraction options every ``extract`` command shares, and how they become one Settings.

``extract``, ``extract watch`` and ``extract serve`` take them through ``@settings_options``: one definition per
setting in ``SETTINGS_OPTIONS``, parsed values turned into ``Settings`` by ``settings_from_options`` (sizes such as
``200M``, password files, guard names and endpoint lists are read here).
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import typer

from extractor.einvoice.formats import FORMATS, formats_help
from extractor.errors import UsageError
from extractor.runners.guards import GuardSettings
from extractor.settings import BATCH_JOB_DEFAULT, MAX_BATCH, MAX_PASSES, Settings, command_line_settings, default


def size_text(size: int) -> str:
    """A byte count the way --max-bytes is written (``209715200`` -> ``200M``)."""
    for unit, factor in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if size % factor == 0:
            return f"{size // factor}{unit}"
    return str(size)


# The options of every extraction setting, one definition each: ``extract`` and ``extract watch`` both get them
# through @settings_options and receive one Settings (``settings.command_line_settings``).
SETTINGS_OPTIONS = {
    "model": (str, typer.Option(default("model"), "--model", "-m", help="Model directory or cached hub id.")),
    "schema": (
        str | None,
        typer.Option(
            None,  # Settings' own default: invoice, or invoice-en16931 with --einvoice
            "--schema",
            "-s",
            show_default=False,
            help="invoice, receipt, a JSON Schema file, or module:Class naming a Pydantic model (imported). "
            "Default: invoice; invoice-en16931 with --einvoice.",
        ),
    ),
    "max_tokens": (
        int,
        typer.Option(default("max_tokens"), "--max-tokens", min=1, help="Cap on generated tokens per document."),
    ),
    "vision_tokens": (
        int,
        typer.Option(default("vision_tokens"), "--vision-tokens", min=4, help="Vision-token budget per page."),
    ),
    "max_pixels": (
        int | None,
        typer.Option(None, "--max-pixels", min=1024, help="Pixel budget per page (overrides --vision-tokens)."),
    ),
    "pages": (str | None, typer.Option(None, "--pages", help="Pages to read, e.g. 1-3,5 (default: all).")),
    "password": (list[str], typer.Option([], "--password", help="Password for encrypted PDFs (repeatable).")),
    "password_file": (
        Path | None,
        typer.Option(
            None,
            "--password-file",
            metavar="FILE",
            help="Passwords, one per line (UTF-8), tried after the --password ones.",
        ),
    ),
    "temperature": (
        float,
        typer.Option(default("temperature"), "--temperature", min=0.0, help="Sampling temperature (0: greedy)."),
    ),
    "seed": (int | None, typer.Option(None, "--seed", help="Sampling seed.")),
    "drop_stop_id": (
        list[int],
        typer.Option([], "--drop-stop-id", hidden=True, help="Diagnosis: remove this id from the stop set."),
    ),
    "constrained": (
        bool,
        typer.Option(
            default("constrained"),
            "--constrained/--no-constrained",
            help="Constrain decoding to the JSON Schema (the answer always parses and ends).",
        ),
    ),
    "prefix_cache": (
        bool,
        typer.Option(
            default("prefix_cache"),
            "--prefix-cache/--no-prefix-cache",
            help="Prefill the instruction and schema once and reuse them for every document (exact).",
        ),
    ),
    "jump_forward": (
        bool,
        typer.Option(
            default("jump_forward"),
            "--jump-forward/--no-jump-forward",
            help="With constraints, feed the text the schema forces (keys, quotes) in "
            "one pass instead of one decode step per token.",
        ),
    ),
    "no_guard": (
        list[str],
        typer.Option(
            [],
            "--no-guard",
            metavar="NAME",
            help="Switch a runaway guard off: end_marker, json_closed, loop, or all "
            "(repeatable; all guards are on by default).",
        ),
    ),
    "retries": (
        int,
        typer.Option(
            default("retries"),
            "--retries",
            min=0,
            metavar="N",
            help="Retries of a failed answer in total: invalid (once, with the errors as "
            "feedback), truncated (max tokens doubled, up to 4x), runaway (once, tighter "
            "guards). 0: one attempt.",
        ),
    ),
    "embedded": (
        bool,
        typer.Option(
            default("embedded"),
            "--embedded/--no-embedded",
            help="Use a PDF's ZUGFeRD / Factur-X / XRechnung XML as the answer when it is "
            "valid (invoice schema; no tokens). --no-embedded always asks the model.",
        ),
    ),
    "embedded_rules": (
        bool,
        typer.Option(
            default("embedded_rules"),
            "--embedded-rules/--no-embedded-rules",
            help="Check embedded e-invoice XML by the official EN 16931 rules (CEN, and XRechnung / Peppol where "
            "its BT-24 says so): XML they reject is not taken as exact, the record is review.",
        ),
    ),
    "cross_check": (
        bool,
        typer.Option(
            default("cross_check"),
            "--cross-check",
            help="With embedded XML, also run the model and list every field where they "
            "disagree (the answer stays the XML's).",
        ),
    ),
    "einvoice_formats": (
        str,
        typer.Option(
            ",".join(default("einvoice")),
            "--einvoice",
            metavar="FORMATS",
            help=f"Also write each invoice as an EN 16931 e-invoice: {formats_help(FORMATS)}, "
            "comma-separated, checked by the official CEN rules and XRechnung's "
            "or Peppol's (a fatal rule makes the record review); with --out, "
            "<name>.<format>.xml (.pdf) beside the record (docs/einvoice.md).",
        ),
    ),
    "einvoice_attachments": (
        bool,
        typer.Option(
            default("einvoice_attachments"),
            "--einvoice-attachments",
            help="For an invoice read from e-invoice XML, name the files embedded in its supporting "
            "documents (BG-24) in the record and, with --out, write them beside it as "
            "<name>.attachments/<n>-<file name> (docs/einvoice.md).",
        ),
    ),
    "timeout": (
        float,
        typer.Option(
            default("timeout"),
            "--timeout",
            min=0.1,
            metavar="SECONDS",
            help="Seconds one file may take to open and render; then it is stopped (code timeout).",
        ),
    ),
    "max_pages": (
        int,
        typer.Option(
            default("max_pages"),
            "--max-pages",
            min=1,
            help="Pages read per document at most; the rest are skipped with a warning.",
        ),
    ),
    "window_pages": (
        int,
        typer.Option(
            default("window_pages"),
            "--window-pages",
            min=2,
            max=8,
            metavar="N",
            help="Read a longer document in windows of N pages (overlapping by one), one generation each, merged.",
        ),
    ),
    "batch": (
        int,
        typer.Option(
            default("batch"),
            "--batch",
            min=1,
            max=MAX_BATCH,
            metavar="N",
            help="In-process model: decode up to N documents together (the same tokens as one "
            "at a time; where that is not exact for the model, one at a time, and the "
            f"record says why). Default: {BATCH_JOB_DEFAULT} where extract runs several "
            "documents in-process, else 1 (extract watch: 1).",
        ),
    ),
    "split": (
        str,
        typer.Option(
            default("split"),
            "--split",
            metavar="auto|never",
            help="auto: a file holding several invoices gives one record per invoice (found "
            "from the page text, OCR text for scans unless --ocr never); never: one "
            "record per file.",
        ),
    ),
    "split_questions": (
        int,
        typer.Option(
            default("split_questions"),
            "--split-questions",
            min=0,
            metavar="N",
            help="With --split auto: ask the in-process model about at most N pages "
            "per file whose text is unsure (no signal in a file of several "
            "invoices, or conflicting signals); 0: the text alone decides.",
        ),
    ),
    "max_bytes": (
        str,
        typer.Option(
            size_text(default("max_bytes")),
            "--max-bytes",
            metavar="SIZE",
            help="Larger input files fail with code too_large (bytes, or e.g. 50M, 1G).",
        ),
    ),
    "workers": (
        int | None,
        typer.Option(
            None,
            "--workers",
            min=1,
            help="Render worker processes (with --no-isolate: render threads "
            "when several documents are in flight; default: the cores, at "
            "most 4).",
        ),
    ),
    "ocr": (
        str,
        typer.Option(
            default("ocr"),
            "--ocr",
            metavar="MODE",
            help="Read pages by OCR to check values against their text: auto (pages without a "
            "usable text layer: scans, photos, images), always, or never.",
        ),
    ),
    "isolate": (
        bool,
        typer.Option(
            default("isolate"),
            "--isolate/--no-isolate",
            help="Open and render each file in a worker process, so a crash or a hang costs only that file.",
        ),
    ),
    "endpoints": (
        list[str],
        typer.Option(
            [],
            "--endpoint",
            metavar="URL",
            envvar="EXTRACT_ENDPOINTS",
            help="Run the model on this OpenAI-compatible server (vLLM, SGLang, "
            "mlx_vlm.server, LM Studio), e.g. http://gpu1:8000/v1; repeatable "
            "(or EXTRACT_ENDPOINTS, separated by spaces or commas).",
        ),
    ),
    "concurrency": (
        int | None,
        typer.Option(
            None,
            "--concurrency",
            min=1,
            metavar="N",
            help="With --endpoint: documents in flight at once, in total (default: 2 per endpoint).",
        ),
    ),
    "server_kind": (
        str | None,
        typer.Option(
            None,
            "--server-kind",
            metavar="KIND",
            help="vllm, sglang, mlx (mlx_vlm.server) or openai (any other); default: detected.",
        ),
    ),
    "api_key_env": (
        str | None,
        typer.Option(
            None, "--api-key-env", metavar="NAME", help="The environment variable holding the servers' API key."
        ),
    ),
    "stop_id": (
        list[int],
        typer.Option(
            [],
            "--stop-id",
            metavar="ID",
            help="With --endpoint: a token id that ends generation, sent to the servers "
            "instead of the resolved stop set (repeatable).",
        ),
    ),
    "image_format": (
        str,
        typer.Option(
            default("image_format"),
            "--image-format",
            metavar="png|jpeg",
            help="How page images travel to the servers: png (lossless) or jpeg (quality 92, same pixels).",
        ),
    ),
    "read_timeout": (
        float,
        typer.Option(
            default("read_timeout"),
            "--read-timeout",
            min=0.1,
            metavar="SECONDS",
            help="Seconds a server may stay silent before the request is tried on another endpoint.",
        ),
    ),
    "auto_accept": (
        float | None,
        typer.Option(
            None,
            "--auto-accept",
            min=0.0,
            max=1.0,
            metavar="CONFIDENCE",
            help="A record stays ok only when every field's confidence reaches this (a schema's "
            "x-extractor-threshold overrides it per field); else review, naming the fields below.",
        ),
    ),
    "passes": (
        int,
        typer.Option(
            default("passes"),
            "--passes",
            min=1,
            max=MAX_PASSES,
            help="2: decode a second, sampled answer per document (about twice the decode time); each field "
            "then says whether it agrees, and its confidence weighs that. The data stays the first answer.",
        ),
    ),
    "calibration": (
        str | None,
        typer.Option(
            None,
            "--calibration",
            metavar="FILE",
            help="A calibration file from `extract calibrate`: the fields' confidence is computed with it.",
        ),
    ),
}


def settings_from_options(
    *,
    password: list[str],
    password_file: Path | None,
    drop_stop_id: list[int],
    no_guard: list[str],
    max_bytes: str,
    endpoints: list[str],
    stop_id: list[int],
    einvoice_formats: str,
    **settings,
) -> Settings:
    """Turn the parsed SETTINGS_OPTIONS into one Settings (the options that are not spelled like their setting are
    converted here).

    Raises:
        UsageError: a bad value (an unreadable password file, a bad size, an unknown guard, ...).
    """
    if settings.get("schema") is None:
        settings["schema"] = default("schema")  # left to Settings: invoice, or invoice-en16931 with --einvoice
    return command_line_settings(
        **settings,
        passwords=tuple(password) + _password_file(password_file),
        drop_stop_ids=tuple(drop_stop_id),
        guards=_guard_settings(no_guard),
        max_bytes=_size(max_bytes, "--max-bytes"),
        endpoint=_urls(endpoints),
        stop_ids=tuple(stop_id),
        einvoice=tuple(einvoice_formats.split(",")),
    )


def _urls(values: list[str]) -> tuple[str, ...]:
    """``--endpoint`` values (and EXTRACT_ENDPOINTS) split on commas and whitespace."""
    return tuple(url for value in values for url in re.split(r"[\s,]+", value) if url)


def option_group(name: str, options: Mapping[str, tuple[Any, Any]], build: Callable[..., Any]):
    """A decorator: the command's parameter ``name`` becomes the ``options`` (declared once, shared by several
    commands, in its place so that ``--help`` keeps its order) and the command is called with ``name=`` what
    ``build`` makes of their parsed values."""

    def decorate(command):
        own = inspect.signature(command, eval_str=True)
        params: list[inspect.Parameter] = []
        for param in own.parameters.values():
            if param.name != name:
                params.append(param)
                continue
            params += [  # the replaced parameter's kind: the signature stays in a valid order
                inspect.Parameter(option, param.kind, default=declared, annotation=annotation)
                for option, (annotation, declared) in options.items()
            ]

        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            values = {option: kwargs.pop(option) for option in options}
            return command(*args, **{name: build(**values)}, **kwargs)

        wrapper.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]  # wraps() is typed without it
        return wrapper

    return decorate


# Give a command every SETTINGS_OPTIONS option and call it with ``settings=`` the Settings they make.
settings_options = option_group("settings", SETTINGS_OPTIONS, settings_from_options)


def _password_file(path: Path | None) -> tuple[str, ...]:
    """Read ``--password-file``: one password per line (UTF-8, BOM allowed), line ends stripped, blank lines
    skipped; spaces are kept, they may be part of a password."""
    if path is None:
        return ()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"--password-file {path}: not UTF-8 text") from None
    except OSError as exc:
        raise UsageError(f"--password-file {path}: cannot read it ({exc.strerror or exc})") from None
    return tuple(line.removesuffix("\r") for line in text.split("\n") if line.removesuffix("\r"))


_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def _size(text: str, option: str) -> int:
    """Parse a byte count such as ``200M`` (K, M, G are powers of 1024; a trailing B or iB is allowed)."""
    value = text.strip().upper().removesuffix("IB").removesuffix("B")
    number, unit = (value[:-1], value[-1]) if value[-1:] in ("K", "M", "G") else (value, "")
    try:
        size = int(float(number) * _SIZE_UNITS[unit])
    except (ValueError, OverflowError):
        raise UsageError(f"{option} {text!r}: expected a size such as 200M, 1G or 5000000") from None
    if size < 1:
        raise UsageError(f"{option} {text!r}: must be positive")
    return size


def _guard_settings(no_guard: list[str]) -> GuardSettings:
    try:
        return GuardSettings.without(no_guard)
    except ValueError as exc:
        raise UsageError(f"--no-guard: {exc}") from exc


# one definition for every command that keeps a register (extract, watch, mail, serve, worker): the same default
LEARN_OPTION = typer.Option(
    Settings().learn,
    "--learn",
    metavar="read|check|off",
    help="With a register: read a known supplier's document by its learned layout, with no model, when it reads "
    "every required field (read); let the layout only check the model's reading (check); or neither (off) "
    "(docs/learning.md).",
)
