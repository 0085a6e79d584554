"""``extract serve`` and ``extract worker``: the HTTP service's two processes, their shared options, and the
settings they make (the service itself is ``extractor.service``, imported only when a command runs)."""

from __future__ import annotations

from pathlib import Path

import typer

from extractor.cli.app import SUBCOMMANDS, app, given_option, handle_errors
from extractor.cli.options import LEARN_OPTION, settings_options
from extractor.service.config import DEFAULT_SYNC_TIMEOUT
from extractor.service.sources import DEFAULT_SOURCE_TIMEOUT
from extractor.service.store import DEFAULT_STORE, DEFAULT_TENANT_SHARE
from extractor.settings import BATCH_JOB_DEFAULT, Settings, job_batch

# the options extract serve and extract worker share (one OptionInfo serves both signatures)
STORE_OPTION = typer.Option(
    DEFAULT_STORE,
    "--store",
    metavar="URL",
    help="The job store: sqlite:///PATH (one machine) or postgresql://USER:PASSWORD@HOST/DB (shared).",
)
LEASE_OPTION = typer.Option(
    "60s",
    "--lease",
    metavar="DURATION",
    help="How long a worker's claim holds a job unrenewed (a killed worker's job is claimed again after it).",
)
TENANT_SHARE_OPTION = typer.Option(
    DEFAULT_TENANT_SHARE,
    "--tenant-share",
    min=1,
    metavar="N",
    help="Jobs one tenant runs at once before another tenant's waiting job goes first (alone: every worker).",
)
RETENTION_OPTION = typer.Option(
    "7d", "--retention", metavar="DURATION", help="How long ended jobs and their records are kept (7d, 12h, 3600)."
)
REGISTER_OPTION = typer.Option(
    True,
    "--register/--no-register",
    help="Keep the invoice register in the store, one per tenant: every job's invoice checked against the "
    "tenant's earlier ones (duplicates, changed bank details; docs/register.md).",
)
CALLBACK_ALLOW_OPTION = typer.Option(
    [], "--callback-allow", metavar="HOST", help="A webhook host allowed although private/loopback (repeat)."
)
CALLBACK_TRIES_OPTION = typer.Option(5, "--callback-tries", min=1, help="Webhook delivery attempts in all.")
CALLBACK_BACKOFF_OPTION = typer.Option(
    2.0, "--callback-backoff", min=0.0, metavar="SECONDS", help="Seconds before the 2nd attempt, doubled after."
)

SOURCE_ALLOW_OPTION = typer.Option(
    [], "--source-allow", metavar="HOST", help="A URL source's host allowed although private/loopback (repeat)."
)
SOURCE_TIMEOUT_OPTION = typer.Option(
    DEFAULT_SOURCE_TIMEOUT,
    "--source-timeout",
    min=0.1,
    metavar="SECONDS",
    help="Seconds a URL source's whole fetch may take.",
)


def _stream_settings(ctx: typer.Context, settings: Settings | None, *, command: str) -> Settings:
    """The extraction settings of a stream of jobs: as ``extract run``'s batch of several files, an in-process model
    decodes them in batches (``job_batch``) unless ``--batch`` says otherwise."""
    if settings is None:
        raise TypeError(f"{command} runs through settings_options, which gives it settings")
    return job_batch(settings, documents=BATCH_JOB_DEFAULT, given=given_option(ctx, "batch"))


def _service_logging() -> None:
    """The service's log to stderr, one timestamped line each: the access log (``extractor.service.access``: one
    line a request), webhook attempts, a worker's warnings (never a key, a password or a secret)."""
    import logging
    import sys

    logger = logging.getLogger("extractor.service")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _source_settings(allow: list[str], timeout: float):
    from extractor.service.sources import SourceSettings

    return SourceSettings(allow=tuple(h.lower() for h in allow), timeout=timeout)


def _webhook_settings(allow: list[str], tries: int, backoff: float):
    from extractor.service.webhooks import WebhookSettings

    return WebhookSettings.from_environment(allow=tuple(allow), tries=tries, backoff=backoff)


@app.command(
    "serve",
    help="Serve extraction over HTTP: POST /v1/jobs a file (or a URL), GET /v1/jobs/{id} its record "
    "(docs/serve.md; the API at /docs). Every extraction option applies to every job.\n\n"
    "API keys: EXTRACT_API_KEYS (comma-separated KEY or TENANT:KEY) or --api-keys-file; each "
    "key is a tenant that sees only its own jobs. Webhooks: EXTRACT_WEBHOOK_SECRET signs them (NEW,OLD while "
    "rotating: both sign); EXTRACT_WEBHOOK_TENANT_SECRETS (TENANT=SECRET;...) gives each tenant its own. "
    "Runs until Ctrl-C / SIGTERM.",
)
@handle_errors
@settings_options
def serve_command(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help="The address to bind; any but loopback requires API keys."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port (0: any free one, printed)."),
    store: str = STORE_OPTION,
    api_keys_file: Path | None = typer.Option(
        None,
        "--api-keys-file",
        metavar="FILE",
        help="API keys, one [TENANT:]KEY [scopes=SCOPE+SCOPE] per line (# comments; docs/serve.md).",
    ),
    retention: str = RETENTION_OPTION,
    sync_timeout: float = typer.Option(
        DEFAULT_SYNC_TIMEOUT,
        "--sync-timeout",
        min=0.0,
        metavar="SECONDS",
        help="POST /v1/extract answers the record if done within this, else 202 with the job.",
    ),
    worker: bool = typer.Option(
        True, "--worker/--no-worker", help="Run the jobs here (--no-worker: an API replica; extract worker runs them)."
    ),
    lease: str = LEASE_OPTION,
    tenant_share: int = TENANT_SHARE_OPTION,
    reuse: bool = typer.Option(
        True, "--reuse/--no-reuse", help="Answer a repeated file with the same settings from its stored record."
    ),
    callback_allow: list[str] = CALLBACK_ALLOW_OPTION,
    callback_tries: int = CALLBACK_TRIES_OPTION,
    callback_backoff: float = CALLBACK_BACKOFF_OPTION,
    register: bool = REGISTER_OPTION,
    learn: str = LEARN_OPTION,
    source_allow: list[str] = SOURCE_ALLOW_OPTION,
    source_timeout: float = SOURCE_TIMEOUT_OPTION,
    settings: Settings | None = None,  # given by settings_options
) -> None:
    """Serve until interrupted (exit 0)."""
    settings = _stream_settings(ctx, settings, command="serve_command")
    settings = settings.replace(register=store if register else None, learn=learn)
    _service_logging()
    from extractor.service.config import ApiKeys, ServeSettings, parse_duration
    from extractor.service.process import serve

    config = ServeSettings(
        host=host,
        port=port,
        store=store,
        sync_timeout=sync_timeout,
        retention=parse_duration(retention, option="--retention"),
        lease=parse_duration(lease, option="--lease"),
        tenant_share=tenant_share,
        worker=worker,
        reuse=reuse,
        webhooks=_webhook_settings(callback_allow, callback_tries, callback_backoff),
        sources=_source_settings(source_allow, source_timeout),
    )
    serve(
        settings=settings,
        serve_settings=config,
        keys=ApiKeys.from_environment(file=api_keys_file),
        echo=lambda line: typer.echo(line, err=True),
    )


SUBCOMMANDS.add("serve")


@app.command(
    "worker",
    help="Run extract serve's jobs on this machine's model: claim them from the shared --store "
    "(PostgreSQL: any number of workers and serve replicas on any machines) under a lease, "
    "store their records, send their webhooks (EXTRACT_WEBHOOK_SECRET). Every extraction "
    "option applies. Runs until Ctrl-C / SIGTERM (the job running is finished first).",
)
@handle_errors
@settings_options
def worker_command(
    ctx: typer.Context,
    store: str = STORE_OPTION,
    lease: str = LEASE_OPTION,
    tenant_share: int = TENANT_SHARE_OPTION,
    retention: str = RETENTION_OPTION,
    callback_allow: list[str] = CALLBACK_ALLOW_OPTION,
    callback_tries: int = CALLBACK_TRIES_OPTION,
    callback_backoff: float = CALLBACK_BACKOFF_OPTION,
    register: bool = REGISTER_OPTION,
    learn: str = LEARN_OPTION,
    source_allow: list[str] = SOURCE_ALLOW_OPTION,
    source_timeout: float = SOURCE_TIMEOUT_OPTION,
    settings: Settings | None = None,  # given by settings_options
) -> None:
    """Work until interrupted (exit 0)."""
    settings = _stream_settings(ctx, settings, command="worker_command")
    settings = settings.replace(register=store if register else None, learn=learn)
    _service_logging()
    from extractor.service.config import ServeSettings, parse_duration
    from extractor.service.process import work

    config = ServeSettings(
        store=store,
        lease=parse_duration(lease, option="--lease"),
        tenant_share=tenant_share,
        retention=parse_duration(retention, option="--retention"),
        webhooks=_webhook_settings(callback_allow, callback_tries, callback_backoff),
        sources=_source_settings(source_allow, source_timeout),
    )
    work(settings=settings, serve_settings=config, echo=lambda line: typer.echo(line, err=True))


SUBCOMMANDS.add("worker")


__all__ = ["serve_command", "worker_command"]
