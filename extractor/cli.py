"""The ``extract`` command line: parse options, call the core, render. No extraction logic lives here.

``extract [OPTIONS] INPUTS...`` runs a batch; ``extract doctor|watch|status|eval ...`` are subcommands.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import render
from .errors import ExitCode, ExtractorError, UsageError
from .pipeline import DEFAULT_MODEL, Extractor, Settings
from .rasterize import DEFAULT_VISION_TOKENS, expand_inputs
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


@app.command(BATCH, help="Extract INPUTS (files, directories, glob patterns) to JSON records.\n\n"
                         "Subcommands: extract doctor MODEL | watch INBOX | status | eval PRED GOLD.")
@handle_errors
def run_batch(
    inputs: List[str] = typer.Argument(..., help="PDF / PNG / JPEG / TIFF / WebP files, directories or globs."),
    model: str = typer.Option(DEFAULT_MODEL, "--model", "-m", help="Model directory or cached hub id."),
    schema: str = typer.Option("invoice", "--schema", "-s", help="invoice, receipt or a JSON Schema file."),
    max_tokens: int = typer.Option(2048, "--max-tokens", min=1, help="Cap on generated tokens per document."),
    vision_tokens: int = typer.Option(DEFAULT_VISION_TOKENS, "--vision-tokens", min=4,
                                      help="Vision-token budget per page."),
    max_pixels: Optional[int] = typer.Option(None, "--max-pixels", min=1024,
                                             help="Pixel budget per page (overrides --vision-tokens)."),
    pages: Optional[str] = typer.Option(None, "--pages", help="Pages to read, e.g. 1-3,5 (default: all)."),
    password: List[str] = typer.Option([], "--password", help="Password for encrypted PDFs (repeatable)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write one <name>.json record per input here."),
    jsonl: Optional[Path] = typer.Option(None, "--jsonl", help="Append every record to this JSONL file."),
    csv_path: Optional[Path] = typer.Option(None, "--csv", help="Write one CSV row per document."),
    as_json: bool = typer.Option(False, "--json", help="Print the records as JSON instead of a table."),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0, help="Sampling temperature (0: greedy)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Sampling seed."),
    drop_stop_id: List[int] = typer.Option([], "--drop-stop-id", hidden=True,
                                           help="Diagnosis: remove this id from the stop set."),
) -> None:
    """Run a batch and exit 0 when every record is ok, 1 otherwise, 2 on usage errors."""
    settings = Settings(model=model, schema=schema, max_tokens=max_tokens, vision_tokens=vision_tokens,
                        max_pixels=max_pixels, pages=pages, passwords=tuple(password), temperature=temperature,
                        seed=seed, drop_stop_ids=tuple(drop_stop_id))
    paths = expand_inputs(inputs)
    if not paths:
        raise UsageError("no input files")
    extractor = Extractor(settings=settings)
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


def main(argv: Optional[List[str]] = None) -> None:
    """Console-script entry point (exits with the command's exit code).

    Args:
        argv: arguments (default: ``sys.argv[1:]``).
    """
    app(dispatch_args(list(sys.argv[1:] if argv is None else argv)), prog_name="extract")


if __name__ == "__main__":
    main()
