"""Mailbox ingestion: ``extract mail imaps://USER@HOST/FOLDER --out OUT`` and ``mail(url, out, extractor=...)``.

One resident model, one IMAP connection (:mod:`~extractor.jobs.mail.client`). This module is the loop: connect,
file what a stop left unfiled, take every mail not yet dealt with, oldest first (:mod:`~extractor.jobs.mail.steps`;
what in a mail is a document: :mod:`~extractor.jobs.mail.parts`; a record's ``mail`` key and its files' names:
:mod:`~extractor.jobs.mail.meta`; the options: :mod:`~extractor.jobs.mail.settings`), then wait for new mail with
IDLE (or poll), until stopped. A dropped connection is reconnected with back-off (``backoff`` doubled up to
``max_backoff``); the ledger (:mod:`~extractor.jobs.mail.ledger` beside :mod:`extractor.jobs.ledger`) makes every
step safe against a kill -9.

Stopping: ``stop_event`` ends the loop after the document in hand. With ``handle_signals`` (the CLI), SIGINT and
SIGTERM set it (a second SIGINT interrupts at once: the ledger still loses and duplicates nothing).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import ExtractorError
from extractor.jobs.feeds import Feeds
from extractor.jobs.ledger import Ledger
from extractor.jobs.mail.client import ConnectionLost, Credentials, LoginRefused, Mailbox
from extractor.jobs.mail.ledger import MailLedger
from extractor.jobs.mail.settings import MailSettings
from extractor.jobs.mail.steps import MailSteps, wait_backoff
from extractor.jobs.mail.url import MailURL, parse_mail_url
from extractor.jobs.watch.inbox import LEDGER_DIR, LEDGER_NAME, hold_lock
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


def ledger_path(out: str | Path, ledger: str | Path | None = None) -> Path:
    """The ledger file: ``ledger``, else ``OUT/.extractor/ledger.sqlite`` (the watcher's default)."""
    return (
        Path(ledger).expanduser().resolve() if ledger else Path(out).expanduser().resolve() / LEDGER_DIR / LEDGER_NAME
    )


class MailLock:
    """An exclusive ``flock`` on ``<ledger>.lock`` (the watcher's lock file): one process per ledger."""

    def __init__(self, ledger: Path) -> None:
        """Args: ledger: the ledger file."""
        self.path = ledger.with_name(ledger.name + ".lock")
        self.fd: int | None = None

    def __enter__(self) -> MailLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = hold_lock(
            os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644),
            lambda owner: (
                f"another extract mail or watch (pid {owner}) is already using the ledger "
                f"{self.path.with_suffix('')}; stop it first, or give this one its own --out / --ledger"
            ),
        )
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


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
    book = ledger_path(out_path, ledger)
    with MailLock(book), Ledger(book) as documents, MailLedger(book) as mails, Feeds(settings.feeds, log=log) as feeds:
        box = Mailbox(target, credentials, timeout=settings.timeout)
        steps = MailSteps(
            box=box,
            out=out_path,
            settings=settings,
            extractor=extractor,
            documents=documents,
            mails=mails,
            on_record=on_record,
            stop=stop,
            feeds=feeds,
        )
        previous = _install_signals(stop) if handle_signals else {}
        try:
            _run(box, steps, settings, stop)
        finally:
            steps.reader.shutdown(wait=False, cancel_futures=True)
            box.close()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
    summary = MailSummary(**steps.counts, fetched_bytes=box.fetched_bytes, hook_failed=feeds.hook_failed)
    log.info("stopped: %s", ", ".join(f"{v} {k}" for k, v in summary.to_dict().items()))
    return summary


def _install_signals(stop: threading.Event) -> dict:
    """SIGINT / SIGTERM set the stop; a second SIGINT interrupts at once (the default handler)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def handler(signum, frame) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        stop.set()
        log.info("stopping after the document in hand (signal %d)", signum)

    return {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}


def _run(box: Mailbox, steps: MailSteps, settings: MailSettings, stop: threading.Event) -> None:
    """Connect (again after a drop, with back-off), then take mails and wait for more until stopped."""
    steps.out.mkdir(parents=True, exist_ok=True)
    steps.recover()
    delay = settings.backoff
    connected_once = False
    while not stop.is_set():
        try:
            box.connect()
            log.info(
                "reading %s -> %s (UIDVALIDITY %d, %s)",
                box.url,
                steps.out,
                box.uidvalidity,
                "once" if settings.once else "IDLE" if box.idle_supported and not settings.poll else "polling",
            )
            connected_once, delay = True, settings.backoff
            steps.file_unfiled()
            while not stop.is_set():
                steps.take_all(box.pending())
                if settings.once:
                    return
                box.wait(IDLE_WAIT_S, stop=stop, poll=settings.poll)
        except LoginRefused:
            if not connected_once:
                raise
            log.warning("%s: login refused; trying again in %g s", box.url.mailbox, delay)
        except ConnectionLost as exc:
            if settings.once and not connected_once:
                raise ExtractorError(str(exc), code="mail_connect") from None
            log.warning("%s; reconnecting in %g s", exc, delay)
        box.close()
        if stop.is_set() or wait_backoff(stop, delay):
            return
        steps.counts["reconnects"] += 1
        delay = min(delay * 2, settings.max_backoff)


__all__ = ["Credentials", "MailSettings", "MailSummary", "MailURL", "ledger_path", "mail", "parse_mail_url"]
