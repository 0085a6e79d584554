"""Folder-watch ingestion: ``extract watch INBOX --out OUT`` and ``watch(inbox, out, extractor=...)``, a source of
the intake core (:mod:`extractor.jobs.intake`: its lock, stop, retry policy and exactly-once document steps).

One resident model; the inbox (:mod:`~extractor.jobs.watch.inbox`: which files are taken, and when they have
settled) hands its settled files, oldest first, to the steps (:mod:`~extractor.jobs.watch.steps`: hash, the
core's see, claim, extract, write, commit, then move), which a SQLite ledger (:mod:`extractor.jobs.ledger`) makes
safe against a kill -9 between any two of them. This module is the loop between the two: catch up with the inbox,
then take settled files until stopped (or, with ``once``, until the inbox is done).

The invoice register is the extractor's (``Settings.register``: every record is checked against it and added as it
is extracted, keyed by its file's sha256, the settings' fingerprint and its inbox path, so a document extracted
again after a kill -9 answers its first registration: nothing lost, nothing doubled). ``extract watch`` keeps one by
default in the state folder (``WatchPaths.register``, beside the ledger).

Stopping: ``stop_event`` ends the loop after the current document (after every document in flight). With
``handle_signals`` (the CLI), SIGINT / SIGTERM set it, and a document still being extracted ``stop_timeout``
seconds later is abandoned (the core's ``StopSignals``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from extractor.jobs.feeds import Feeds
from extractor.jobs.intake.document import Documents
from extractor.jobs.intake.stop import Stopping, StopSignals
from extractor.jobs.ledger import Ledger
from extractor.jobs.watch.inbox import FALLBACK_POLL_S, RESCAN_S, Inbox, WatchPaths, WatchSettings, watch_lock
from extractor.jobs.watch.steps import TEST_PAUSE_ENV, Steps
from extractor.record import Record

log = logging.getLogger("extractor.jobs.watch")


@dataclass(frozen=True)
class WatchSummary:
    """What one ``watch`` run did.

    Attributes:
        extracted: contents extracted and finished ``done`` (record written, input moved to ``processed/``).
        failed: contents finished ``failed`` (error record written, input moved to ``failed/``).
        duplicates: inputs whose content was already finished (a copy, or the same file seen again after a
            restart): recorded as a name seen and moved like the original, not extracted again.
        error_retries: transient failures (model error, time-out) scheduled for another attempt.
        abandoned: documents given up by a stop (back to ``queued``; the input stays in the inbox).
        recovered: ``running`` rows left by a crash and re-queued at start.
        left: files still waiting in the inbox at the end (not settled, unreadable, or waiting for a retry).
        hook_failed: runs of the ``--hook`` command that failed (exit code, time-out; each logged).
    """

    extracted: int = 0
    failed: int = 0
    duplicates: int = 0
    error_retries: int = 0
    abandoned: int = 0
    recovered: int = 0
    left: int = 0
    hook_failed: int = 0

    def to_dict(self) -> dict:
        """Return the counts as a dict."""
        return dataclasses.asdict(self)


def watch(
    inbox: str | Path,
    out: str | Path,
    *,
    extractor,
    settings: WatchSettings | None = None,
    ledger: str | Path | None = None,
    on_record: Callable[[Record], None] | None = None,
    stop_event: threading.Event | None = None,
    handle_signals: bool = False,
) -> WatchSummary:
    """Watch a folder and extract every new document exactly once, until stopped (or, with ``once``, done).

    With the in-process model, documents are extracted on the calling thread, one at a time; call it from the
    thread that created the extractor (mlx keeps GPU streams per thread). With a remote or batching runner, up to
    ``extractor.concurrency`` documents are extracted at once in worker threads; the ledger, the record files and
    the moves stay on the calling thread.

    Args:
        inbox: the folder to watch.
        out: where the records go (one ``<stem>-<sha256[:12]>.json`` per distinct content).
        extractor: a loaded ``Extractor`` (its model stays resident).
        settings: how the watcher behaves (settle time, polling, error retries and back-off, ``keep_inputs``,
            ``once``, the stop time-out), and where each record goes besides OUT (``settings.feeds``: a ``--jsonl``
            log appended once per record, a ``--hook`` run at least once); default ``WatchSettings()``.
        ledger: the ledger file (default ``OUT/.extractor/ledger.sqlite``).
        on_record: called with each new record after it is committed and its input moved (not for duplicates).
            It runs on the watcher's thread; an exception in it is logged and the watcher goes on.
        stop_event: set it (from any thread) to stop after the current document.
        handle_signals: install SIGINT / SIGTERM handlers (main thread only; the CLI does): a stop, then after
            ``settings.stop_timeout`` seconds the current document is abandoned.

    Returns:
        The WatchSummary of this run.

    Raises:
        UsageError: bad paths, or (code ``locked``) another watcher on the inbox or ledger.
    """
    settings = settings or WatchSettings()
    paths = WatchPaths.resolve(inbox, out, ledger)
    with watch_lock(paths), Ledger(paths.ledger) as document_ledger, Feeds(settings.feeds, log=log) as feeds:
        folder = Inbox(paths=paths, settle=settings.settle)
        stopping = Stopping(stop_event, wake=folder.wake)
        documents = Documents(
            ledger=document_ledger,
            feeds=feeds,
            extractor=extractor,
            policy=settings.policy,
            stopping=stopping,
            pause_env=TEST_PAUSE_ENV,
            log=log,
        )
        steps = Steps(paths=paths, settings=settings, documents=documents, inbox=folder, on_record=on_record)
        if handle_signals:
            with StopSignals(stopping, timeout=settings.stop_timeout):
                return _run(paths, settings, folder, steps)
        return _run(paths, settings, folder, steps)


def _run(paths: WatchPaths, settings: WatchSettings, folder: Inbox, steps: Steps) -> WatchSummary:
    """Catch up, then watch until stopped (or until the inbox is done, with ``once``)."""
    paths.out.mkdir(parents=True, exist_ok=True)
    if not settings.keep_inputs:
        paths.processed.mkdir(exist_ok=True)
        paths.failed.mkdir(exist_ok=True)
    steps.recover()
    observer = None if settings.once or settings.poll else folder.start_observer()
    scan_every = settings.poll or (RESCAN_S if observer is not None else FALLBACK_POLL_S)
    log.info(
        "watching %s -> %s (ledger %s)%s",
        paths.inbox,
        paths.out,
        paths.ledger,
        " once" if settings.once else f", polling every {settings.poll:g} s" if settings.poll else "",
    )
    steps.open()
    try:
        folder.scan()
        next_scan = time.monotonic() + scan_every
        while not steps.stop.is_set():
            folder.drain()
            steps.collect()
            if not settings.once and time.monotonic() >= next_scan:
                folder.scan()
                next_scan = time.monotonic() + scan_every
            # every settled file, oldest first, until a stop or until as many are in flight as the extractor takes
            for name, seen in folder.settled(busy=steps.busy, until=lambda: steps.stop.is_set() or steps.full):
                steps.process(name, seen)
            if settings.once and not folder.pending:
                break
            # a finished extraction wakes the loop itself, so the files in flight are not waited for here
            folder.wait(min(folder.next_due(busy=steps.busy), next_scan) - time.monotonic())
        steps.finish_in_flight()
    finally:
        steps.close()
        if observer is not None:
            observer.stop()
            observer.join(timeout=5)
    summary = WatchSummary(**steps.counts, left=folder.left, hook_failed=steps.feeds.hook_failed)
    log.info("stopped: %s", ", ".join(f"{v} {k}" for k, v in summary.to_dict().items()))
    return summary


__all__ = ["WatchSettings", "WatchSummary", "watch"]
