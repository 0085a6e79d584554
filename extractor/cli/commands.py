"""The ``extract`` commands: parse their own options, call the core, render. No extraction logic lives here.

``extract [OPTIONS] INPUTS...`` runs a batch; ``extract doctor|watch|status|eval|calibrate|review|einvoice ...``
are subcommands (``serve`` and ``worker`` are in ``extractor.cli.service``; the app they all register on, in
``extractor.cli.app``). The extraction options they share, and the Settings those make, are in
``extractor.cli.options``.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import typer

from extractor.api import Extractor, api_key
from extractor.cli import output as render
from extractor.cli.app import (
    BATCH,
    SUBCOMMANDS,
    VERBOSE,
    app,
    command_tree,
    dispatch_args,
    given_option,
    handle_errors,
)
from extractor.cli.configfile import load as load_config
from extractor.cli.groups import (
    FEEDS,
    BatchRegister,
    EngineChoice,
    RegisterChoice,
    batch_register_options,
    engine_options,
    feed_options,
    state_register,
    state_register_options,
)
from extractor.cli.options import settings_options
from extractor.einvoice import INVOICE_SCHEMA_MISSES
from extractor.einvoice.formats import XML_FORMATS, formats_help
from extractor.errors import ExitCode, UsageError
from extractor.inputs.discover import find_inputs
from extractor.jobs.batch import run_batch
from extractor.jobs.feeds import FeedSettings
from extractor.jobs.ray import engine_for
from extractor.jobs.watch.inbox import WatchSettings
from extractor.quiet import configure
from extractor.settings import Settings, job_batch
from extractor.tools.doctor import run_doctor, run_endpoint_doctor
from extractor.tools.doctor.smoke import DEFAULT_SMOKE_TOKENS
from extractor.trust.verdict import trusted

WATCH = WatchSettings()  # the watcher's defaults, named once there


@app.command(
    BATCH,
    help="Extract INPUTS (files, directories, glob patterns) to JSON records.\n\n"
    "With --out, a re-run skips inputs whose record there is already final for the same content "
    "and settings (--force: extract all again).",
)
@handle_errors
@settings_options
@batch_register_options
@engine_options
def run_batch_command(
    ctx: typer.Context,
    inputs: list[str] = typer.Argument(..., help="PDF / PNG / JPEG / TIFF / WebP files, directories or globs."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write one <name>.json record per input here."),
    jsonl: Path | None = typer.Option(None, "--jsonl", help="Write every record to this JSONL file."),
    csv_path: Path | None = typer.Option(None, "--csv", help="Write one CSV row per document."),
    as_json: bool = typer.Option(False, "--json", help="Print the records as JSON instead of a table."),
    force: bool = typer.Option(
        False, "--force", help="Extract every input again, even when --out already holds its final record."
    ),
    runs_on: EngineChoice = EngineChoice(),  # given by engine_options
    register_options: BatchRegister = BatchRegister(),  # given by batch_register_options
    settings: Settings | None = None,  # given by settings_options
) -> None:
    """Run a batch and exit 0 when every record is ok, 1 otherwise, 2 on usage errors."""
    if settings is None:
        raise TypeError("run_batch_command runs through settings_options, which gives it settings")
    settings = register_options.applied(settings)
    if settings.einvoice and settings.schema == "invoice":
        render.note(f"--schema invoice with --einvoice: {INVOICE_SCHEMA_MISSES}")
    found = find_inputs(inputs)
    for name, why in found.skipped:  # an .xml met in a directory that is no e-invoice
        render.note(f"skipped {name}: {why}")
    paths = list(found.paths)
    if not paths:
        raise UsageError("no input files")
    settings = job_batch(settings, documents=len(paths), given=given_option(ctx, "batch"))
    remote = engine_for(runs_on.engine, settings=settings, out=out, options=runs_on.ray)
    logged = bool(out or jsonl or csv_path) and not as_json
    with (
        Extractor(settings) as extractor,
        remote or contextlib.nullcontext(),
        render.BatchProgress(len(paths), log_lines=logged) as progress,
    ):
        result = run_batch(
            extractor,
            [str(p) for p in paths],
            out=out,
            jsonl=jsonl,
            csv_path=csv_path,
            force=force,
            on_record=progress.advance,
            engine=remote,
        )
    render.show_batch(result, as_json=as_json, table=not logged)
    raise typer.Exit(ExitCode.OK if trusted(result.records) else ExitCode.NOT_OK)


@app.command(
    "doctor",
    help="Check a model directory's stop configuration (and fix it with --fix), or a running "
    "inference server (--endpoint URL): does it stop on its own?\n\n"
    "MODEL is a local directory or a hub id already in the local Hugging Face cache; with "
    "--endpoint it names the served model to check (default: the only one served). "
    "Exit 0 when no check fails, 1 otherwise.",
)
@handle_errors
def doctor_command(
    model: str | None = typer.Argument(
        None, help="Model directory or cached hub id (with --endpoint: the served model's id)."
    ),
    fix: bool = typer.Option(
        False,
        "--fix",
        help="Rewrite generation_config.json's eos_token_id to the full list "
        "(original kept as generation_config.json.bak), then re-check.",
    ),
    smoke: bool = typer.Option(
        False, "--smoke", help="Also run one short real generation on a blank page: does it stop?"
    ),
    smoke_tokens: int = typer.Option(
        DEFAULT_SMOKE_TOKENS,
        "--smoke-tokens",
        min=1,
        help="max_tokens of the --smoke generation (and of the --endpoint requests).",
    ),
    endpoint: str | None = typer.Option(
        None,
        "--endpoint",
        metavar="URL",
        help="Check this OpenAI-compatible server instead of a directory: the "
        "models it serves, and one smoke request without our stop ids.",
    ),
    server_kind: str | None = typer.Option(
        None, "--server-kind", metavar="KIND", help="With --endpoint: vllm, sglang, mlx or openai (default: detected)."
    ),
    api_key_env: str | None = typer.Option(
        None, "--api-key-env", metavar="NAME", help="With --endpoint: the environment variable holding the API key."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the checks as a JSON list instead of a table."),
) -> None:
    """Run the doctor's checks; exit 0 when nothing fails, 1 otherwise."""
    if endpoint is not None:
        if fix or smoke:
            raise UsageError("--fix and --smoke check a model directory; with --endpoint the server is smoke-tested")
        settings = Settings(endpoint=(endpoint,), server_kind=server_kind)  # checks the URL and the kind
        report = run_endpoint_doctor(
            settings.endpoint[0],
            model=model,
            server_kind=server_kind,
            api_key=api_key(api_key_env),
            smoke_tokens=smoke_tokens,
        )
    elif model is None:
        raise UsageError("doctor: name a MODEL directory, or a server with --endpoint URL")
    else:
        report = run_doctor(model, fix=fix, smoke=smoke, smoke_tokens=smoke_tokens)
    render.show_checks(report.to_list(), title=f"doctor: {report.model_dir}", as_json=as_json)
    raise typer.Exit(ExitCode.NOT_OK if report.failed else ExitCode.OK)


SUBCOMMANDS.add("doctor")


@app.command(
    "watch",
    help="Watch INBOX and extract every new document once: records go to OUT, inputs to "
    "INBOX/processed/ or INBOX/failed/, a SQLite ledger remembers every content.\n\n"
    "Runs until SIGINT / SIGTERM (exit 0); --once processes what is there now and exits.",
)
@handle_errors
@settings_options
@feed_options
@state_register_options
def watch_command(
    inbox: Path = typer.Argument(..., help="The folder to watch (subfolders included)."),
    out: Path = typer.Option(..., "--out", "-o", help="Write one <name>-<sha256[:12]>.json record per content here."),
    ledger: Path | None = typer.Option(
        None, "--ledger", help="The SQLite ledger (default: OUT/.extractor/ledger.sqlite)."
    ),
    once: bool = typer.Option(WATCH.once, "--once", help="Process what is in the inbox now, then exit (cron, timers)."),
    poll: float | None = typer.Option(
        WATCH.poll,
        "--poll",
        min=0.1,
        metavar="SECONDS",
        help="Scan every SECONDS instead of using file-system events (network shares).",
    ),
    settle: float = typer.Option(
        WATCH.settle,
        "--settle",
        min=0.0,
        metavar="SECONDS",
        help="A file is taken once its size and mtime have not changed for this long.",
    ),
    error_retries: int = typer.Option(
        WATCH.error_retries,
        "--error-retries",
        min=0,
        metavar="N",
        help="Retries of a model error or time-out, with back-off (answer retries: --retries).",
    ),
    backoff: float = typer.Option(
        WATCH.backoff,
        "--backoff",
        min=0.0,
        metavar="SECONDS",
        help="Seconds before the first error retry (doubled for each further one).",
    ),
    keep_inputs: bool = typer.Option(
        WATCH.keep_inputs, "--keep-inputs", help="Leave inputs in the inbox (the ledger alone prevents re-extraction)."
    ),
    stop_timeout: float = typer.Option(
        WATCH.stop_timeout,
        "--stop-timeout",
        min=0.0,
        metavar="SECONDS",
        help="After SIGINT / SIGTERM, seconds the current document may still run "
        "before it is abandoned (it stays queued).",
    ),
    feeds: FeedSettings = FEEDS,  # given by feed_options
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
    choice: RegisterChoice = RegisterChoice(),  # given by state_register_options
    settings: Settings | None = None,  # given by settings_options
) -> None:
    """Watch until stopped (exit 0), or with --once until the inbox is done (exit 0)."""
    from extractor.jobs.watch import watch
    from extractor.jobs.watch.inbox import WatchPaths, check_unlocked

    behaviour = WatchSettings(
        settle=settle,
        poll=poll,
        error_retries=error_retries,
        backoff=backoff,
        keep_inputs=keep_inputs,
        once=once,
        stop_timeout=stop_timeout,
        feeds=feeds,
    )
    paths = WatchPaths.resolve(inbox, out, ledger)
    check_unlocked(paths)  # a second watcher fails before spending time on the model
    settings = state_register(settings, paths.register, choice)
    render.watch_logging()
    with Extractor(settings) as extractor:
        summary = watch(
            paths.inbox, paths.out, extractor=extractor, settings=behaviour, ledger=paths.ledger, handle_signals=True
        )
    render.show_watch_summary(summary.to_dict(), as_json=as_json)
    raise typer.Exit(ExitCode.OK)


@app.command(
    "status",
    help="Show a watcher's ledger: documents per state and the recent failures with reasons (and extract mail's "
    "mails: per state, the recent ones failed or skipped, and why).",
)
@handle_errors
def status_command(
    ledger: Path | None = typer.Option(
        None, "--ledger", help="The ledger file (default: OUT/.extractor/ledger.sqlite)."
    ),
    out: Path = typer.Option(
        Path("."), "--out", "-o", help="The watcher's output folder (when --ledger is not given)."
    ),
    recent: int = typer.Option(10, "--recent", min=0, help="How many recent failures to list."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Print the ledger report; exit 0."""
    from extractor.jobs.ledger import Ledger
    from extractor.jobs.watch.inbox import LEDGER_DIR, LEDGER_NAME

    with Ledger(ledger or out / LEDGER_DIR / LEDGER_NAME, create=False) as documents:
        report = documents.report(recent=recent)
    from extractor.jobs.mail.ledger import mail_report  # extract mail's tables, when it wrote to this ledger

    mails = mail_report(ledger or out / LEDGER_DIR / LEDGER_NAME, recent=recent)
    if mails is not None:
        report["mail"] = mails
    render.show_ledger_status(report, as_json=as_json)
    raise typer.Exit(ExitCode.OK)


SUBCOMMANDS.update({"watch", "status"})


@app.command(
    "eval",
    help="Score predictions against ground truth: field precision / recall / F1 and nTED.\n\n"
    "PRED and GOLD are JSON files or directories (our records or plain JSON), matched by stem. "
    "`extract eval OUT --gold reviewed` scores the records in OUT against the corrections "
    "`extract review` saved beside them.",
)
@handle_errors
def eval_command(
    pred: Path = typer.Argument(..., help="Predicted records / JSON (file or directory)."),
    gold: Path | None = typer.Argument(None, help="Ground-truth JSON (file or directory)."),
    gold_kind: str | None = typer.Option(
        None, "--gold", help="`reviewed`: the gold is PRED's *.reviewed.json files (instead of a GOLD argument)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Evaluate PRED against GOLD (or against the reviewed files in PRED) and print the report."""
    from extractor.tools.evaluate import evaluate, evaluate_reviewed

    if gold_kind not in (None, "reviewed"):
        raise UsageError(f"--gold takes `reviewed`, not {gold_kind!r} (give a GOLD path as the second argument)")
    if (gold is None) == (gold_kind is None):
        raise UsageError("give either GOLD or --gold reviewed")
    report = evaluate(pred, gold) if gold is not None else evaluate_reviewed(pred)
    render.show_eval(report, as_json=as_json)


SUBCOMMANDS.add("eval")


@app.command(
    "calibrate",
    help="Fit the per-field confidence on your reviewed records (OUT/<name>.reviewed.json from `extract review`) "
    "and write a calibration file for --calibration; prints ECE, AUROC and accuracy at 50/80/95 % coverage "
    "before and after, per field type.",
)
@handle_errors
def calibrate_command(
    out: list[Path] = typer.Argument(..., metavar="OUT", help="Folders of records with reviewed files beside them."),
    output: Path = typer.Option(
        Path("calibration.json"), "--output", "-o", metavar="FILE", help="The calibration file to write."
    ),
    name: str | None = typer.Option(None, "--name", help="Its name in records (default: the file's stem)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Calibrate on the reviewed records in OUT... and print the reliability before and after."""
    from extractor.tools.calibrate import calibrate

    render.show_calibration(calibrate(out, output=output, name=name), as_json=as_json)


SUBCOMMANDS.add("calibrate")


@app.command(
    "review",
    help="Review the records in OUT in a browser: each beside its pages, values boxed where they "
    "are printed; corrections go to OUT/<name>.reviewed.json.\n\n"
    "`extract review URL --api-key KEY --files DIR` reviews a service tenant's records instead (extract serve at "
    "URL): saved and approved through POST /v1/jobs/{id}/review, so approving teaches that tenant's layouts; DIR "
    "holds the files the tenant submitted (found by SHA-256) and gets the reviewed files.",
)
@handle_errors
def review_command(
    out: str = typer.Argument(
        ..., metavar="OUT|URL", help="The folder of records (a batch's --out or a watcher's OUT), or a service's URL."
    ),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port (0: any free one)."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="The address to bind; any but loopback requires the token printed at start."
    ),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the default browser."),
    reviewer: str | None = typer.Option(
        None, "--reviewer", help="Your name in the reviewed files (default: the OS user)."
    ),
    register: str | None = typer.Option(
        None,
        "--register",
        metavar="PATH_OR_URL",
        help="The invoice register whose findings the page shows and acts on (default: a watcher's, "
        "OUT/.extractor/register.sqlite, when there is one).",
    ),
    api_key: str | None = typer.Option(
        None,
        "--api-key",
        envvar="EXTRACT_REVIEW_API_KEY",
        metavar="KEY",
        help="With a service URL: the tenant's key (scopes read and review).",
    ),
    files: Path | None = typer.Option(
        None, "--files", metavar="DIR", help="With a service URL: the folder of the files its tenant submitted."
    ),
) -> None:
    """Serve the review page until Ctrl-C."""
    from extractor.tools.review_page.app import ServiceTenant, serve

    service = None
    if out.startswith(("http://", "https://")):
        if files is None or not api_key or register:
            raise UsageError(f"extract review {out}: a service needs --api-key KEY and --files DIR (no --register)")
        service = ServiceTenant(url=out, api_key=api_key)
    elif api_key or files:
        raise UsageError("--api-key and --files go with a service's URL (extract review URL ...)")
    where = files if files is not None else Path(out)
    serve(where, host=host, port=port, reviewer=reviewer, open_browser=open_browser, register=register, service=service)


SUBCOMMANDS.add("review")


einvoice_app = typer.Typer(
    no_args_is_help=True, help="E-invoices: check EN 16931 XML with the official CEN, XRechnung and Peppol rules."
)
app.add_typer(einvoice_app, name="einvoice")


@einvoice_app.command(
    "validate",
    help="Check e-invoice FILES (CII / UBL XML, or the XML a Factur-X / ZUGFeRD PDF carries) with the pinned "
    "CEN EN 16931 rules, and with XRechnung's or Peppol's when the document's specification identifier "
    "(BT-24) names that CIUS (or --rules says so); print the rules that fire per file.\n\nExit 0 when no "
    "fatal rule fires, 1 when one does or a file cannot be checked (an unreadable file, no EN 16931 XML, no "
    "rules engine).",
)
@handle_errors
def einvoice_validate_command(
    files: list[Path] = typer.Argument(..., help="XML files or Factur-X / ZUGFeRD PDFs."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
    rules: str = typer.Option(
        "",
        "--rules",
        metavar="RULES",
        help="The rule sets to check by: cen, xrechnung (CEN + XRechnung 3.0) or peppol (CEN + Peppol BIS "
        "Billing 3.0); default: those the document's BT-24 names.",
    ),
) -> None:
    """Validate each file and exit 0 only when every file was checked and none fires a fatal rule."""
    from extractor.einvoice.check_files import validate_file
    from extractor.einvoice.validate import check_rule_sets

    try:
        rule_sets = check_rule_sets(rules.split(",")) if rules.strip() else None
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}") from exc
    checks = [validate_file(path, rules=rule_sets) for path in files]
    render.show_einvoice_checks([c.to_dict() for c in checks], as_json=as_json)
    valid = all(c.validation is not None and c.validation.valid for c in checks)
    raise typer.Exit(ExitCode.OK if valid else ExitCode.NOT_OK)


@einvoice_app.command(
    "convert",
    help="Write a received e-invoice FILE (CII or UBL XML, or the XML a Factur-X / ZUGFeRD PDF carries) as "
    "another EN 16931 syntax or CIUS: read exactly (every term invoice-en16931 holds), written and checked "
    "by the same writer and rules as --einvoice.\n\nThe XML goes to stdout, or to OUT with -o (written "
    "atomically); the rules' verdict to stderr. Exit 0 when no fatal rule fires, 1 when one does (the file "
    "is still written) or FILE cannot be read as an e-invoice, 2 on usage errors.",
)
@handle_errors
def einvoice_convert_command(
    file: Path = typer.Argument(..., help="A CII or UBL XML file, or a Factur-X / ZUGFeRD PDF."),
    to: str = typer.Option(..., "--to", metavar="FORMAT", help=f"{formats_help(XML_FORMATS)}."),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="OUT", help="Write here (default: stdout)."),
    as_json: bool = typer.Option(False, "--json", help="Print the rules' verdict as JSON (stderr)."),
) -> None:
    """Convert one file; exit 0 only when the result fires no fatal rule."""
    from extractor.einvoice.convert import convert
    from extractor.errors import InputError
    from extractor.jobs.sinks import write_atomic

    try:
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{file}: cannot read the file ({exc.strerror or exc})", source=str(file)) from None
    try:
        result = convert(data, name=str(file), to=to)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if output is None:
        sys.stdout.buffer.write(result.xml)
        sys.stdout.flush()
    else:
        try:
            write_atomic(output, result.xml)
        except OSError as exc:
            raise UsageError(f"-o {output}: cannot write it ({exc.strerror or exc})") from None
    render.show_conversion(result.to_dict(), as_json=as_json)
    raise typer.Exit(ExitCode.OK if result.valid else ExitCode.NOT_OK)


SUBCOMMANDS.add("einvoice")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (exits with the command's exit code).

    ``--verbose`` (anywhere before ``--``, any command) also shows third-party notes (``quiet``); ``--config
    FILE`` names the configuration (``configfile``).

    Args:
        argv: arguments (default: ``sys.argv[1:]``).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    options = args[: args.index("--")] if "--" in args else args
    verbose = VERBOSE in options
    if verbose:
        args.remove(VERBOSE)
    configure(verbose=verbose)
    try:  # extract.toml (or --config FILE, $EXTRACT_CONFIG): click's default map, a flag still wins
        config, args = load_config(args, command_tree())
    except UsageError as exc:
        render.error(str(exc))
        raise SystemExit(ExitCode.USAGE) from exc
    app(dispatch_args(args), prog_name="extract", default_map=config.defaults, obj=config)


if __name__ == "__main__":
    main()
