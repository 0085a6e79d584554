"""The ``extract`` command line: parse options, call the core, render. No extraction logic lives here.

``extract [OPTIONS] INPUTS...`` runs a batch; ``extract doctor|watch|status|eval ...`` are subcommands.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import doctor, render
from .errors import ExitCode, ExtractorError, UsageError
from .guards import GuardSettings
from .isolate import DEFAULT_TIMEOUT
from .pipeline import DEFAULT_MODEL, Extractor, Settings
from .rasterize import DEFAULT_MAX_PAGES, DEFAULT_VISION_TOKENS, expand_inputs
from .record import Record

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Invoices and business PDFs to schema-valid JSON with a local vision-language model.")
BATCH = "run"
SUBCOMMANDS = {BATCH}  # other modules register theirs with @app.command and add the name here


def exit_code_for(exc: ExtractorError) -> ExitCode:
    """Map an error onto the CLI's exit code: bad options and schemas are usage errors (2), the rest 1."""
    return ExitCode.USAGE if exc.code in ("usage", "schema") else ExitCode.NOT_OK


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


def dispatch_args(args: List[str]) -> List[str]:
    """Route ``extract INPUTS...`` to the batch command and ``extract NAME ...`` to a subcommand.

    Args:
        args: the command-line arguments after the program name.

    Returns:
        The arguments for the typer app.
    """
    if args and (args[0] in SUBCOMMANDS or args[0] in ("--help", "-h") and len(args) == 1):
        return args
    return [BATCH, *args]


# Options the batch and watch commands share: one definition each.
MODEL_OPTION = typer.Option(DEFAULT_MODEL, "--model", "-m", help="Model directory or cached hub id.")
SCHEMA_OPTION = typer.Option("invoice", "--schema", "-s", help="invoice, receipt or a JSON Schema file.")
MAX_TOKENS_OPTION = typer.Option(2048, "--max-tokens", min=1, help="Cap on generated tokens per document.")
VISION_TOKENS_OPTION = typer.Option(DEFAULT_VISION_TOKENS, "--vision-tokens", min=4,
                                      help="Vision-token budget per page.")
MAX_PIXELS_OPTION = typer.Option(None, "--max-pixels", min=1024,
                                             help="Pixel budget per page (overrides --vision-tokens).")
PAGES_OPTION = typer.Option(None, "--pages", help="Pages to read, e.g. 1-3,5 (default: all).")
PASSWORD_OPTION = typer.Option([], "--password", help="Password for encrypted PDFs (repeatable).")
TEMPERATURE_OPTION = typer.Option(0.0, "--temperature", min=0.0, help="Sampling temperature (0: greedy).")
SEED_OPTION = typer.Option(None, "--seed", help="Sampling seed.")
DROP_STOP_ID_OPTION = typer.Option([], "--drop-stop-id", hidden=True,
                                           help="Diagnosis: remove this id from the stop set.")
CONSTRAINED_OPTION = typer.Option(True, "--constrained/--no-constrained",
                                     help="Constrain decoding to the JSON Schema (the answer always parses and ends).")
PASSWORD_FILE_OPTION = typer.Option(None, "--password-file", metavar="FILE",
                                                 help="Passwords, one per line (UTF-8), tried after the --password "
                                                      "ones.")
MAX_PAGES_OPTION = typer.Option(DEFAULT_MAX_PAGES, "--max-pages", min=1,
                                  help="Pages read per document at most; the rest are skipped with a warning.")
MAX_BYTES_OPTION = typer.Option("200M", "--max-bytes", metavar="SIZE",
                                  help="Larger input files fail with code too_large (bytes, or e.g. 50M, 1G).")
WORKERS_OPTION = typer.Option(None, "--workers", min=1,
                                          help="Render worker processes (default: the cores, at most 4).")
ISOLATE_OPTION = typer.Option(True, "--isolate/--no-isolate",
                                 help="Open and render each file in a worker process, so a crash or a hang costs "
                                      "only that file.")


@app.command(BATCH, help="Extract INPUTS (files, directories, glob patterns) to JSON records.\n\n"
                         "Subcommands: extract doctor MODEL | watch INBOX | status | eval PRED GOLD.")
@handle_errors
def run_batch(
    inputs: List[str] = typer.Argument(..., help="PDF / PNG / JPEG / TIFF / WebP files, directories or globs."),
    model: str = MODEL_OPTION,
    schema: str = SCHEMA_OPTION,
    max_tokens: int = MAX_TOKENS_OPTION,
    vision_tokens: int = VISION_TOKENS_OPTION,
    max_pixels: Optional[int] = MAX_PIXELS_OPTION,
    pages: Optional[str] = PAGES_OPTION,
    password: List[str] = PASSWORD_OPTION,
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write one <name>.json record per input here."),
    jsonl: Optional[Path] = typer.Option(None, "--jsonl", help="Append every record to this JSONL file."),
    csv_path: Optional[Path] = typer.Option(None, "--csv", help="Write one CSV row per document."),
    as_json: bool = typer.Option(False, "--json", help="Print the records as JSON instead of a table."),
    temperature: float = TEMPERATURE_OPTION,
    seed: Optional[int] = SEED_OPTION,
    drop_stop_id: List[int] = DROP_STOP_ID_OPTION,
    constrained: bool = CONSTRAINED_OPTION,
    no_guard: List[str] = typer.Option([], "--no-guard", metavar="NAME",
                                       help="Switch a runaway guard off: end_marker, json_closed, loop, or all "
                                            "(repeatable; all guards are on by default)."),
    password_file: Optional[Path] = PASSWORD_FILE_OPTION,
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.1, metavar="SECONDS",
                                  help="Seconds one file may take to open and render; then it is stopped (code "
                                       "timeout)."),
    max_pages: int = MAX_PAGES_OPTION,
    max_bytes: str = MAX_BYTES_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    isolate: bool = ISOLATE_OPTION,
    retries: int = typer.Option(1, "--retries", min=0, metavar="N",
                                help="Retries of a failed answer in total: invalid (once, with the errors as "
                                     "feedback), truncated (max tokens doubled, up to 4x), runaway (once, tighter "
                                     "guards). 0: one attempt."),
    embedded: bool = typer.Option(True, "--embedded/--no-embedded",
                                  help="Use a PDF's ZUGFeRD / Factur-X / XRechnung XML as the answer when it is "
                                       "valid (invoice schema; no tokens). --no-embedded always asks the model."),
    cross_check: bool = typer.Option(False, "--cross-check",
                                     help="With embedded XML, also run the model and list every field where they "
                                          "disagree (the answer stays the XML's)."),
) -> None:
    """Run a batch and exit 0 when every record is ok, 1 otherwise, 2 on usage errors."""
    settings = Settings(model=model, schema=schema, max_tokens=max_tokens, vision_tokens=vision_tokens,
                        max_pixels=max_pixels, pages=pages,
                        passwords=tuple(password) + _password_file(password_file), temperature=temperature,
                        seed=seed, drop_stop_ids=tuple(drop_stop_id), constrained=constrained,
                        guards=_guard_settings(no_guard), isolate=isolate, timeout=timeout, workers=workers,
                        max_pages=max_pages, max_bytes=_size(max_bytes, "--max-bytes"), retries=retries,
                        embedded=embedded, cross_check=cross_check)
    paths = expand_inputs(inputs)
    if not paths:
        raise UsageError("no input files")
    with Extractor(settings=settings) as extractor:  # closing stops and reaps the render workers
        records = run_with_sinks(extractor, [str(p) for p in paths], out=out, jsonl=jsonl, csv_path=csv_path)
    if not (out or jsonl or csv_path) or as_json:
        render.show_records(records, as_json=as_json)
    raise typer.Exit(ExitCode.OK if all(r.ok for r in records) else ExitCode.NOT_OK)


def run_with_sinks(extractor: Extractor, sources: List[str], *, out: Optional[Path], jsonl: Optional[Path],
                   csv_path: Optional[Path]) -> List[Record]:
    """Extract every source and write each record to the chosen sinks as soon as it is done.

    Args:
        extractor: the loaded extractor.
        sources: input paths.
        out: directory for one JSON per input.
        jsonl: JSONL file.
        csv_path: CSV file.

    Returns:
        The records, in input order.
    """
    from .sinks import CsvSink, JsonDirSink, JsonlSink

    sinks = []
    if out:
        sinks.append(JsonDirSink(out))
    if jsonl:
        sinks.append(JsonlSink(jsonl))
    if csv_path:
        sinks.append(CsvSink(csv_path, columns=extractor.schema.top_level_scalars()))
    records = []
    try:
        with _progress(len(sources)) as advance:
            for record in extractor.extract_many(sources):
                for sink in sinks:
                    sink.write(record)
                records.append(record)
                advance(record)
    finally:
        for sink in sinks:
            sink.close()
    return records


class _progress:
    """A progress bar on a terminal (stderr), nothing otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar = None

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(console=render.console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("extracting", total=self.total)
        return self.advance

    def advance(self, record: Record) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=f"{Path(record.source).name}: {record.status}")

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def _password_file(path: Optional[Path]) -> tuple[str, ...]:
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


def _guard_settings(no_guard: List[str]) -> GuardSettings:
    try:
        return GuardSettings.without(no_guard)
    except ValueError as exc:
        raise UsageError(f"--no-guard: {exc}") from exc


@app.command("doctor", help="Check a model directory's stop configuration (and fix it with --fix).\n\n"
                            "MODEL is a local directory or a hub id already in the local Hugging Face cache. "
                            "Exit 0 when no check fails, 1 otherwise.")
@handle_errors
def doctor_command(
    model: str = typer.Argument(..., help="Model directory or cached hub id."),
    fix: bool = typer.Option(False, "--fix", help="Rewrite generation_config.json's eos_token_id to the full list "
                                                  "(original kept as generation_config.json.bak), then re-check."),
    smoke: bool = typer.Option(False, "--smoke", help="Also run one short real generation on a blank page: "
                                                      "does it stop?"),
    smoke_tokens: int = typer.Option(doctor.DEFAULT_SMOKE_TOKENS, "--smoke-tokens", min=1,
                                     help="max_tokens of the --smoke generation."),
    as_json: bool = typer.Option(False, "--json", help="Print the checks as a JSON list instead of a table."),
) -> None:
    """Run the doctor's checks; exit 0 when nothing fails, 1 otherwise."""
    report = doctor.run_doctor(model, fix=fix, smoke=smoke, smoke_tokens=smoke_tokens)
    render.show_checks(report.to_list(), title=f"doctor: {report.model_dir}", as_json=as_json)
    raise typer.Exit(ExitCode.NOT_OK if report.failed else ExitCode.OK)


SUBCOMMANDS.add("doctor")


@app.command("watch", help="Watch INBOX and extract every new document once: records go to OUT, inputs to "
                           "INBOX/processed/ or INBOX/failed/, a SQLite ledger remembers every content.\n\n"
                           "Runs until SIGINT / SIGTERM (exit 0); --once processes what is there now and exits.")
@handle_errors
def watch_command(
    inbox: Path = typer.Argument(..., help="The folder to watch (subfolders included)."),
    out: Path = typer.Option(..., "--out", "-o", help="Write one <name>-<sha256[:12]>.json record per content here."),
    ledger: Optional[Path] = typer.Option(None, "--ledger", help="The SQLite ledger (default: "
                                                                 "OUT/.extractor/ledger.sqlite)."),
    once: bool = typer.Option(False, "--once", help="Process what is in the inbox now, then exit (cron, timers)."),
    poll: Optional[float] = typer.Option(None, "--poll", min=0.1, metavar="SECONDS",
                                         help="Scan every SECONDS instead of using file-system events "
                                              "(network shares)."),
    settle: float = typer.Option(2.0, "--settle", min=0.0, metavar="SECONDS",
                                 help="A file is taken once its size and mtime have not changed for this long."),
    retries: int = typer.Option(2, "--retries", min=0, help="Retries of a model error or time-out, with back-off."),
    backoff: float = typer.Option(5.0, "--backoff", min=0.0, metavar="SECONDS",
                                  help="Seconds before the first retry (doubled for each further one)."),
    keep_inputs: bool = typer.Option(False, "--keep-inputs",
                                     help="Leave inputs in the inbox (the ledger alone prevents re-extraction)."),
    stop_timeout: float = typer.Option(10.0, "--stop-timeout", min=0.0, metavar="SECONDS",
                                       help="After SIGINT / SIGTERM, seconds the current document may still run "
                                            "before it is abandoned (it stays queued)."),
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
    model: str = MODEL_OPTION,
    schema: str = SCHEMA_OPTION,
    max_tokens: int = MAX_TOKENS_OPTION,
    vision_tokens: int = VISION_TOKENS_OPTION,
    max_pixels: Optional[int] = MAX_PIXELS_OPTION,
    pages: Optional[str] = PAGES_OPTION,
    password: List[str] = PASSWORD_OPTION,
    password_file: Optional[Path] = PASSWORD_FILE_OPTION,
    temperature: float = TEMPERATURE_OPTION,
    seed: Optional[int] = SEED_OPTION,
    drop_stop_id: List[int] = DROP_STOP_ID_OPTION,
    constrained: bool = CONSTRAINED_OPTION,
    no_guard: List[str] = typer.Option([], "--no-guard", metavar="NAME",
                                       help="Switch a runaway guard off: end_marker, json_closed, loop, or all "
                                            "(repeatable)."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.1, metavar="SECONDS",
                                  help="Seconds one file may take to open and render (code timeout, retried)."),
    max_pages: int = MAX_PAGES_OPTION,
    max_bytes: str = MAX_BYTES_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    isolate: bool = ISOLATE_OPTION,
) -> None:
    """Watch until stopped (exit 0), or with --once until the inbox is done (exit 0)."""
    from .watch import WatchPaths, check_unlocked, watch

    settings = Settings(model=model, schema=schema, max_tokens=max_tokens, vision_tokens=vision_tokens,
                        max_pixels=max_pixels, pages=pages,
                        passwords=tuple(password) + _password_file(password_file), temperature=temperature,
                        seed=seed, drop_stop_ids=tuple(drop_stop_id), constrained=constrained,
                        guards=_guard_settings(no_guard), isolate=isolate, timeout=timeout, workers=workers,
                        max_pages=max_pages, max_bytes=_size(max_bytes, "--max-bytes"))
    paths = WatchPaths.resolve(inbox, out, ledger)
    check_unlocked(paths)  # a second watcher fails before spending time on the model
    render.watch_logging()
    with Extractor(settings=settings) as extractor:
        summary = watch(paths.inbox, paths.out, extractor=extractor, ledger=paths.ledger, settle=settle,
                        poll=poll, retries=retries, backoff=backoff, keep_inputs=keep_inputs, once=once,
                        stop_timeout=stop_timeout, handle_signals=True)
    render.show_watch_summary(summary.to_dict(), as_json=as_json)
    raise typer.Exit(ExitCode.OK)


@app.command("status", help="Show a watcher's ledger: documents per state and the recent failures with reasons.")
@handle_errors
def status_command(
    ledger: Optional[Path] = typer.Option(None, "--ledger", help="The ledger file (default: "
                                                                 "OUT/.extractor/ledger.sqlite)."),
    out: Path = typer.Option(Path("."), "--out", "-o", help="The watcher's output folder (when --ledger is not "
                                                            "given)."),
    recent: int = typer.Option(10, "--recent", min=0, help="How many recent failures to list."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Print the ledger report; exit 0."""
    from .ledger import Ledger
    from .watch import LEDGER_DIR, LEDGER_NAME

    with Ledger(ledger or out / LEDGER_DIR / LEDGER_NAME, create=False) as book:
        report = book.report(recent=recent)
    render.show_ledger_status(report, as_json=as_json)
    raise typer.Exit(ExitCode.OK)


SUBCOMMANDS.update({"watch", "status"})


@app.command("eval", help="Score predictions against ground truth: field precision / recall / F1 and nTED.\n\n"
                          "PRED and GOLD are JSON files or directories (our records or plain JSON), matched by stem.")
@handle_errors
def eval_command(
    pred: Path = typer.Argument(..., help="Predicted records / JSON (file or directory)."),
    gold: Path = typer.Argument(..., help="Ground-truth JSON (file or directory)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Evaluate PRED against GOLD and print the report."""
    from .evaluate import evaluate

    report = evaluate(pred, gold)
    render.show_eval(report, as_json=as_json)


SUBCOMMANDS.add("eval")


def main(argv: Optional[List[str]] = None) -> None:
    """Console-script entry point (exits with the command's exit code).

    Args:
        argv: arguments (default: ``sys.argv[1:]``).
    """
    app(dispatch_args(list(sys.argv[1:] if argv is None else argv)), prog_name="extract")


if __name__ == "__main__":
    main()
