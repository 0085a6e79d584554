"""Mailbox ingestion: ``extract mail imaps://USER@HOST/FOLDER --out OUT`` and ``mail(url, out, extractor=...)``.

One resident model, one IMAP connection (:mod:`~extractor.jobs.mail.client`). This module is the loop: connect,
file what a stop left unfiled, take every mail not yet dealt with, oldest first (:mod:`~extractor.jobs.mail.steps`;
what in a mail is a document: :mod:`~extractor.jobs.mail.parts`; a record's ``mail`` key and its files' names:
:mod:`~extractor.jobs.mail.meta`; the options: :mod:`~extractor.jobs.mail.settings`), then wait for new mail with
IDLE (or poll), until stopped. A source of the intake core (:mod:`extractor.jobs.intake`: its lock, stop, retry
policy and each attachment's exactly-once steps). A dropped connection is reconnected with the core's back-off
(``backoff`` doubled up to ``max_backoff``), an outage of minutes logged once and kept in the ledger for ``extract
status`` (:mod:`~extractor.jobs.mail.outage`); the ledger (:mod:`~extractor.jobs.mail.ledger` beside
:mod:`extractor.jobs.ledger`) makes every step safe against a kill -9.

Stopping: ``stop_event`` ends the loop after the document in hand. With ``handle_signals`` (the CLI), SIGINT and
SIGTERM set it, and a document still being extracted ``stop_timeout`` seconds later (or at a second SIGINT) is
abandoned (the core's ``StopSignals``): the ledger loses and duplicates nothing.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import ExtractorError
from extractor.jobs.feeds import Feeds
from extractor.jobs.intake.document import Documents
from extractor.jobs.intake.lock import IntakeLock, ledger_path
from extractor.jobs.intake.stop import Stopping, StopSignals
from extractor.jobs.ledger import Ledger
from extractor.jobs.mail.client import ConnectionLost, Credentials, LoginRefused, Mailbox
from extractor.jobs.mail.ledger import MailLedger
from extractor.jobs.mail.outage import MailOutage
from extractor.jobs.mail.settings import MailSettings
from extractor.jobs.mail.steps import TEST_PAUSE_ENV, MailSteps
from extractor.jobs.mail.url import MailURL, parse_mail_url
from extractor.record import Record

log = logging.getLogger("extractor.jobs.mail")

IDLE_WAIT_S = 20 * 60  # one IDLE at most this long, then the folder is searched again


@dataclass(frozen=True)
class MailSummary:
    """What one ``mail`` run did.

    Attributes:
        mails: mails read (begun) in this run.
        extracted: documents extracted and finished ``done``.
        failed: documents (or parts: too large, ZIP limits) finished with an ``error`` record.
        duplicates: mails read before (same Message-ID) and attachments whose content was already extracted.
        skipped: mails with nothing to extract (the ledger says why).
        reconnects: connections lost and made again.
        fetched_bytes: bytes of mail fetched from the server.
        hook_failed: runs of the ``--hook`` command that failed (exit code, time-out; each logged).
    """

    mails: int = 0
    extracted: int = 0
    failed: int = 0
    duplicates: int = 0
    skipped: int = 0
    reconnects: int = 0
    fetched_bytes: int = 0
    hook_failed: int = 0

    def to_dict(self) -> dict:
        """Return the counts as a dict."""
        return dataclasses.asdict(self)


def mail(
    url: str | MailURL,
    out: str | Path,
    *,
    extractor,
    credentials: Credentials,
    settings: MailSettings | None = None,
    ledger: str | Path | None = None,
    on_record: Callable[[Record], None] | None = None,
    stop_event: threading.Event | None = None,
    handle_signals: bool = False,
) -> MailSummary:
    """Read a mailbox folder and extract every attachment exactly once, until stopped (or, with ``once``, done).

    Documents are extracted one at a time on the calling thread (call it from the thread that made the extractor).

    Args:
        url: the mailbox (``imaps://USER@HOST[:PORT]/FOLDER``, or a parsed MailURL).
        out: where records go (``<mail key>-<index>-<name>.json``) and the attachments (``OUT/attachments/``).
        extractor: a loaded ``Extractor``.
        credentials: the password, or the OAuth2 token command.
        settings: how it behaves (default ``MailSettings()``), and where each record goes besides OUT
            (``settings.feeds``: a ``--jsonl`` log appended once per record, a ``--hook`` run at least once).
        ledger: the ledger file (default ``OUT/.extractor/ledger.sqlite``).
        on_record: called with each new record after it is written (an exception in it is logged).
        stop_event: set it (from any thread) to stop after the document in hand.
        handle_signals: SIGINT / SIGTERM set the stop (main thread only; the CLI does).

    Returns:
        The MailSummary of this run.

    Raises:
        UsageError: a bad URL, a missing folder, plain text to a remote host, another process on the ledger.
        LoginRefused: the server refused the credentials at the first connect.
        ExtractorError: (``once``) the server cannot be reached.
    """
    target = parse_mail_url(url) if isinstance(url, str) else url
    settings = settings or MailSettings()
    stop = stop_event or threading.Event()
    out_path = Path(out).expanduser().resolve()
    ledger_file = ledger_path(out_path, ledger)
    with IntakeLock(ledger_file), Ledger(ledger_file) as document_ledger, MailLedger(ledger_file) as mails:
        with Feeds(settings.feeds, log=log) as feeds:
            box = Mailbox(target, credentials, timeout=settings.timeout)
            documents = Documents(
                ledger=document_ledger,
                feeds=feeds,
                extractor=extractor,
                policy=settings.policy,
                stopping=Stopping(stop),
                pause_env=TEST_PAUSE_ENV,
                log=log,
            )
            steps = MailSteps(
                box=box, out=out_path, settings=settings, documents=documents, mails=mails, on_record=on_record
            )
            try:
                if handle_signals:
                    with StopSignals(documents.stopping, timeout=settings.stop_timeout):
                        _run(box, steps, settings, stop)
                else:
                    _run(box, steps, settings, stop)
            finally:
                steps.reader.shutdown(wait=False, cancel_futures=True)
                box.close()
    summary = MailSummary(**steps.counts, fetched_bytes=box.fetched_bytes, hook_failed=feeds.hook_failed)
    log.info("stopped: %s", ", ".join(f"{v} {k}" for k, v in summary.to_dict().items()))
    return summary


def _run(box: Mailbox, steps: MailSteps, settings: MailSettings, stop: threading.Event) -> None:
    """Connect (again after a drop, with back-off), then take mails and wait for more until stopped."""
    steps.out.mkdir(parents=True, exist_ok=True)
    steps.recover()
    policy = settings.policy
    lost = 0  # connections lost in a row: the next wait is the policy's delay for that many
    connected_once = False
    outage = MailOutage(steps.mails, mailbox=box.url.mailbox, log=log)  # one line when it begins, one when back
    while not stop.is_set():
        try:
            box.connect()
            outage.back()
            log.info(
                "reading %s -> %s (UIDVALIDITY %d, %s)",
                box.url,
                steps.out,
                box.uidvalidity,
                "once" if settings.once else "IDLE" if box.idle_supported and not settings.poll else "polling",
            )
            connected_once, lost = True, 0
            steps.file_unfiled()
            while not stop.is_set():
                taken = box.pending()
                steps.take_all(taken)
                if settings.once:
                    return
                if set(box.pending()) - set(taken):
                    continue  # came while those were taken: its EXISTS went by with their commands, IDLE won't say
                box.wait(IDLE_WAIT_S, stop=stop, poll=settings.poll)
        except LoginRefused:
            if not connected_once:
                raise
            lost += 1
            outage.failed(f"{box.url.mailbox}: login refused", retry_in=policy.delay(lost))
        except ConnectionLost as exc:
            if settings.once and not connected_once:
                raise ExtractorError(str(exc), code="mail_connect") from None
            lost += 1
            outage.failed(str(exc), retry_in=policy.delay(lost))
        box.close()
        if stop.is_set() or stop.wait(policy.delay(lost)):
            return
        steps.counts["reconnects"] += 1


__all__ = ["Credentials", "MailSettings", "MailSummary", "MailURL", "ledger_path", "mail", "parse_mail_url"]
