"""``extract mail URL``: read a mailbox over IMAP and extract every attachment once (``extractor.jobs.mail``).

Every extraction option of ``extract watch`` applies (``@settings_options``: the model options, ``--einvoice``,
``--password-file`` for encrypted PDFs, ...); the mailbox's own password comes from ``EXTRACT_MAIL_PASSWORD`` or
``--mail-password-file``, or an OAuth2 token from ``--oauth-token-command``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import typer

from extractor.api import Extractor
from extractor.cli import output as render
from extractor.cli.app import SUBCOMMANDS, app, handle_errors
from extractor.cli.groups import FEEDS, RegisterChoice, feed_options, state_register, state_register_options
from extractor.cli.options import option_group, settings_options
from extractor.errors import ExitCode, UsageError
from extractor.jobs.feeds import FeedSettings
from extractor.jobs.mail.settings import MailSettings
from extractor.settings import Settings

MAIL = MailSettings()  # the defaults, named once there
PASSWORD_ENV = "EXTRACT_MAIL_PASSWORD"


def _mail_settings(
    *,
    done_folder: str | None,
    failed_folder: str | None,
    allow_from: list[str],
    once: bool,
    poll: float | None,
    error_retries: int,
    backoff: float,
    max_backoff: float,
) -> MailSettings:
    """The mailbox options as MailSettings (an empty folder name: none)."""
    return MailSettings(
        done_folder=done_folder or None,
        failed_folder=failed_folder or None,
        allow_from=tuple(allow_from),
        once=once,
        poll=poll,
        error_retries=error_retries,
        backoff=backoff,
        max_backoff=max_backoff,
    )


# extract mail's own options, from --done-folder to --max-backoff
MAIL_OPTIONS = {
    "done_folder": (
        str | None,
        typer.Option(
            MAIL.done_folder,
            "--done-folder",
            metavar="FOLDER",
            help="Move a mail here once its documents are extracted (default: flag it \\Seen and $Extracted, "
            "leave it).",
        ),
    ),
    "failed_folder": (
        str | None,
        typer.Option(
            MAIL.failed_folder,
            "--failed-folder",
            metavar="FOLDER",
            help="Move a mail with a failed document here (default: flag it $ExtractFailed, leave it).",
        ),
    ),
    "allow_from": (
        list[str],
        typer.Option(
            [],
            "--allow-from",
            metavar="PATTERN",
            help="Read only mail from these senders (*@supplier.com; repeatable); others are skipped and logged.",
        ),
    ),
    "once": (
        bool,
        typer.Option(MAIL.once, "--once", help="Read what is in the folder now, then exit (cron, timers)."),
    ),
    "poll": (
        float | None,
        typer.Option(
            MAIL.poll, "--poll", min=1.0, metavar="SECONDS", help="Check every SECONDS instead of waiting with IDLE."
        ),
    ),
    "error_retries": (
        int,
        typer.Option(
            MAIL.error_retries, "--error-retries", min=0, metavar="N", help="Retries of a model error or time-out."
        ),
    ),
    "backoff": (
        float,
        typer.Option(
            MAIL.backoff,
            "--backoff",
            min=0.0,
            metavar="SECONDS",
            help="Seconds before the first retry or reconnect (doubled for each further one).",
        ),
    ),
    "max_backoff": (
        float,
        typer.Option(
            MAIL.max_backoff,
            "--max-backoff",
            min=0.0,
            metavar="SECONDS",
            help="The longest wait between two retries or reconnects (a mail server down for minutes is tried "
            "this often).",
        ),
    ),
}
mail_options = option_group("behaviour", MAIL_OPTIONS, _mail_settings)


def mail_credentials(password_file: Path | None, token_command: str | None):
    """The mailbox credentials from ``--oauth-token-command``, ``--mail-password-file`` or ``EXTRACT_MAIL_PASSWORD``.

    Raises:
        UsageError: none given, two given, or an unreadable password file.
    """
    from extractor.jobs.mail.client import Credentials

    given = [
        name
        for name, value in (("--oauth-token-command", token_command), ("--mail-password-file", password_file))
        if value
    ]
    if len(given) > 1:
        raise UsageError("give --oauth-token-command or --mail-password-file, not both")
    if token_command:
        return Credentials(token_command=token_command)
    if password_file is not None:
        try:
            lines = password_file.read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--mail-password-file {password_file}: cannot read it ({exc})") from None
        if not lines or not lines[0]:
            raise UsageError(f"--mail-password-file {password_file}: the first line is empty")
        return Credentials(password=lines[0])
    if os.environ.get(PASSWORD_ENV):
        return Credentials(password=os.environ[PASSWORD_ENV])
    raise UsageError(f"no mailbox password: set {PASSWORD_ENV}, or give --mail-password-file or --oauth-token-command")


def probe(target, credentials, *, once: bool) -> None:
    """Log in once before the model loads: refused credentials, a missing folder or plain text to a remote host
    fail at once (a server that cannot be reached is waited for, unless ``once``).

    Raises:
        LoginRefused, UsageError: as ``Mailbox.connect``.
        ExtractorError: (``once``) the server cannot be reached.
    """
    from extractor.errors import ExtractorError
    from extractor.jobs.mail.client import ConnectionLost, Mailbox

    box = Mailbox(target, credentials)
    try:
        box.connect()
    except ConnectionLost as exc:
        if once:
            raise ExtractorError(str(exc), code="mail_connect") from None
    finally:
        box.close()


@app.command(
    "mail",
    help="Read a mailbox folder over IMAP and extract every PDF, image or e-invoice XML attachment once: records "
    "go to OUT (named <mail key>-<part>-<name>.json, with a `mail` key), attachments to OUT/attachments, a "
    "SQLite ledger remembers every mail and content. URL: imaps://USER@HOST[:PORT]/FOLDER (imap:// for "
    "STARTTLS or a loopback test server).\n\nWaits for new mail with IMAP IDLE; runs until SIGINT / SIGTERM "
    "(exit 0); --once reads what is there now and exits.",
)
@handle_errors
@settings_options
@mail_options
@feed_options
@state_register_options
def mail_command(
    url: str = typer.Argument(..., metavar="URL", help="imaps://USER@HOST[:PORT]/FOLDER (user %-encoded: ap%40x.com)."),
    out: Path = typer.Option(
        ..., "--out", "-o", help="Write the records here (and the attachments to OUT/attachments)."
    ),
    ledger: Path | None = typer.Option(
        None, "--ledger", help="The SQLite ledger (default: OUT/.extractor/ledger.sqlite)."
    ),
    mail_password_file: Path | None = typer.Option(
        None,
        "--mail-password-file",
        metavar="FILE",
        help=f"The mailbox password, the file's first line (else {PASSWORD_ENV}).",
    ),
    oauth_token_command: str | None = typer.Option(
        None,
        "--oauth-token-command",
        metavar="CMD",
        help="Log in with XOAUTH2: CMD prints a fresh access token (run at every connect; Microsoft 365, Gmail).",
    ),
    behaviour: MailSettings = MAIL,  # given by mail_options (--done-folder ... --max-backoff)
    feeds: FeedSettings = FEEDS,  # given by feed_options
    choice: RegisterChoice = RegisterChoice(),  # given by state_register_options
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
    settings: Settings | None = None,  # given by settings_options
) -> None:
    """Read the mailbox until stopped (exit 0), or with --once until the folder is done (exit 0)."""
    from extractor.jobs.intake.lock import IntakeLock
    from extractor.jobs.mail import ledger_path, mail, parse_mail_url
    from extractor.jobs.watch.inbox import REGISTER_NAME

    target = parse_mail_url(url)
    credentials = mail_credentials(mail_password_file, oauth_token_command)
    behaviour = replace(behaviour, feeds=feeds)
    ledger_file = ledger_path(out, ledger)
    settings = state_register(settings, ledger_file.parent / REGISTER_NAME, choice)
    with IntakeLock(ledger_file):  # a second process fails before spending time on the model
        pass
    render.watch_logging("extractor.jobs.mail")
    probe(target, credentials, once=behaviour.once)  # a wrong password or folder fails before the model loads
    with Extractor(settings) as extractor:
        summary = mail(
            target,
            out,
            extractor=extractor,
            credentials=credentials,
            settings=behaviour,
            ledger=ledger_file,
            handle_signals=True,
        )
    render.show_watch_summary(summary.to_dict(), as_json=as_json)
    raise typer.Exit(ExitCode.OK)


SUBCOMMANDS.add("mail")
