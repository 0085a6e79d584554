"""One inbox document's exactly-once steps: hash and note it, claim it, extract, write the record, commit, move.

Per file, in this order (each step is atomic; see "crash safety"):

1. hash the content (sha256) and record the name in the ledger (``see``); content already ``done`` / ``failed``
   is not extracted again: go to step 6 (the duplicate is moved like the original);
2. ``claim``: state ``processing``, attempts + 1, result path fixed (``OUT/<stem>-<sha256[:12]>.json``; an earlier
   claim's path is kept);
3. extract (retryable failures: back to ``queued`` with a back-off, the input stays; nothing is written);
4. write the record to the result path atomically (temporary file, fsync, rename, fsync of the folder), its
   e-invoices (``--einvoice``) beside it first; then feed it (:mod:`extractor.jobs.feeds`: its line appended to
   ``--jsonl``, the ``--hook`` run);
5. ``finish``: state ``done`` (or ``failed`` for an ``error`` record) with status and error, committed;
6. move the input to ``INBOX/processed/`` or ``INBOX/failed/`` (a rename; ``keep_inputs``: left in place).

Crash safety (kill -9 between any two steps): the input leaves the inbox only in step 6, after the ledger knows the
result, so it is never lost; a restart re-queues ``processing`` rows and catches up with the inbox: before step 4
the document is simply extracted again; between 4 and 5 it is extracted again and the record *overwrites* the same
path (the path depends only on the content and was fixed in step 2), so no second record (and no second
``--jsonl`` line: the log keeps the first; the hook runs again: at least once); between 5 and 6 the
content is already finished, so the input is only moved. A document whose extraction keeps killing the process
is failed with code ``crashed`` after ``error_retries + 3`` starts.

Several documents at once: with a remote or batching runner (``Extractor.concurrency`` > 1) steps 1-2 and 4-6
still run on the watcher's thread, one document at a time, while up to ``concurrency`` step-3 extractions run in
worker threads. A content is in flight at most once (a copy dropped meanwhile waits, then counts as a duplicate),
so the ledger's exactly-once holds as before.

Stopping (:class:`StopSignals`, the CLI's): SIGINT / SIGTERM stop after the current document and, if a document is
being extracted, abandon it after ``stop_timeout`` seconds (a second SIGINT: at once): its row goes back to
``queued`` (the attempt is not counted), the input stays in the inbox.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import logging
import os
import signal
import stat
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from extractor.errors import UsageError
from extractor.jobs.feeds import Feeds
from extractor.jobs.hooks import pause_at
from extractor.jobs.ledger import TERMINAL, Entry, Ledger, parse_timestamp
from extractor.jobs.sinks import write_record_beside
from extractor.jobs.watch.inbox import Candidate, Inbox, StatKey, WatchPaths, WatchSettings, stat_key
from extractor.record import Record
from extractor.trust.verdict import ERROR, OK, TRANSIENT_ERROR_CODES, error_record

# what signal.signal takes and returns (typeshed's alias for it is private)
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

log = logging.getLogger("extractor.jobs.watch")

CRASH_ALLOWANCE = 2  # starts beyond error_retries + 1 before a document that keeps killing the watcher is failed
MAX_BACKOFF_S = 600.0
MAX_NAME_BYTES = 200  # file-name stems are cut to this many UTF-8 bytes (NAME_MAX is 255)
# Test hook: EXTRACTOR_WATCH_TEST_PAUSE=STEP:FILE makes the watcher touch FILE and hang at STEP (one of STEPS),
# so the kill -9 / SIGTERM tests can stop it at an exact point. Unset, it costs one environment lookup per step.
TEST_PAUSE_ENV = "EXTRACTOR_WATCH_TEST_PAUSE"
STEPS = ("claimed", "extracting", "extracted", "written", "fed", "committed")
# the WatchSummary counts the steps keep (``left`` is the inbox's)
COUNTS = ("extracted", "failed", "duplicates", "error_retries", "abandoned", "recovered")


class _Abandon(BaseException):
    """Raised into a running extraction by the stop timer; BaseException so no ``except Exception`` swallows it."""


@dataclass
class _Job:
    """A claimed document (steps 1-2 done) whose extraction is running or done."""

    name: str
    seen: Candidate
    entry: Entry
    path: Path
    key: StatKey


def _cut(text: str, limit: int = MAX_NAME_BYTES) -> str:
    """Cut text to ``limit`` UTF-8 bytes without splitting a character; control characters become ``_``."""
    text = "".join("_" if ord(c) < 32 or c == "\x7f" else c for c in text)
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def result_name(name: str, sha256: str) -> str:
    """Return the record file name for an input name and content: ``<stem>-<sha256[:12]>.json``.

    Args:
        name: the input's name (any folders are dropped).
        sha256: the content hash.

    Returns:
        The file name; the same content always maps to one name once the ledger has fixed it.
    """
    stem = _cut(Path(name).stem or Path(name).name) or "document"
    return f"{stem}-{sha256[:12]}.json"


def _hash_file(path: Path) -> tuple[str, StatKey]:
    """Hash a regular file without following a symlink; return (sha256, stat key) and check it did not change."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            raise IsADirectoryError(f"{path}: not a regular file")
        digest = hashlib.sha256()
        with os.fdopen(os.dup(fd), "rb", buffering=0) as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    if stat_key(after) != stat_key(before):
        raise InterruptedError(f"{path}: changed while being read")
    return digest.hexdigest(), stat_key(after)


def _free_name(folder: Path, name: str, sha256: str) -> Path:
    """Return a path in ``folder`` that does not exist yet: the name, else ``<stem>-<sha12>[-N]<suffix>``."""
    suffix = _cut(Path(name).suffix, 40)
    stem = _cut(name[: len(name) - len(Path(name).suffix)] if suffix else name)
    numbered = (f"{stem}-{sha256[:12]}{'' if n == 1 else f'-{n}'}{suffix}" for n in range(1, 1000))
    candidates = [_cut(name, 240), *numbered]
    for candidate in candidates:
        target = folder / candidate
        if not os.path.lexists(target):
            return target
    raise UsageError(f"{folder}: no free name for {name}")


def _pause_for_tests(step: str) -> None:
    pause_at(TEST_PAUSE_ENV, step)


def _retryable(record: Record) -> bool:
    return record.status == ERROR and any(e.get("code") in TRANSIENT_ERROR_CODES for e in record.errors[:1])


class Steps:
    """Steps 1-6 for the inbox's settled files, on the watcher's thread (step 3 in worker threads when the
    extractor takes several documents at once).

    Attributes:
        counts: what was done so far, by ``COUNTS`` name.
        stop: set to stop after the documents in flight.
        in_extract: a step-3 extraction (or the wait for one) is running on the watcher's thread now.
        abandoning: the stop's time-out passed: abandon what is being extracted (set by ``StopSignals``).
    """

    def __init__(
        self,
        *,
        paths: WatchPaths,
        settings: WatchSettings,
        extractor,
        ledger: Ledger,
        inbox: Inbox,
        on_record: Callable[[Record], None] | None,
        stop: threading.Event,
        feeds: Feeds,
    ) -> None:
        """Args: as ``watch``'s, with the opened ledger, the inbox whose files the steps take and the opened feeds
        (``settings.feeds``)."""
        self.paths = paths
        self.settings = settings
        self.extractor = extractor
        self.ledger = ledger
        self.inbox = inbox
        self.on_record = on_record
        self.stop = stop
        self.feeds = feeds
        self.counts = dict.fromkeys(COUNTS, 0)
        self.in_extract = False
        self.abandoning = False
        self.max_attempts = settings.error_retries + 1
        self.concurrency = max(1, int(getattr(extractor, "concurrency", 1)))
        self.executor: ThreadPoolExecutor | None = None  # only with concurrency > 1
        self.in_flight: dict[Future, _Job] = {}
        # a file split into invoices (``Settings.split``): its part records, by source, from step 3 to step 4
        self.parts: dict[str, tuple[Record, ...]] = {}

    # ------------------------------------------------------------------------------------------ start and end

    def recover(self) -> None:
        """On start: delete what a kill during step 4 left, and re-queue the ``processing`` rows of a crash."""
        for entry in self.ledger.entries(state="processing"):
            if entry.result_path:
                result = Path(entry.result_path)
                for temporary in result.parent.glob(f".{glob.escape(result.name)}.*.tmp"):
                    temporary.unlink(missing_ok=True)
        self.counts["recovered"] = self.ledger.recover()
        if self.counts["recovered"]:
            log.info("re-queued %d document(s) left in processing by an earlier stop", self.counts["recovered"])

    def open(self) -> None:
        """Start the worker threads of step 3 (only when the extractor takes several documents at once)."""
        if self.concurrency > 1:
            self.executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="watch-extract")

    def close(self) -> None:
        """Let the worker threads go (their unfinished extractions were concluded or abandoned)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    @property
    def busy(self) -> set[str]:
        """The inbox names being extracted now."""
        return {job.name for job in self.in_flight.values()}

    @property
    def full(self) -> bool:
        """As many documents in flight as the extractor takes at once."""
        return len(self.in_flight) >= self.concurrency

    # ------------------------------------------------------------------------------------------- one document

    def process(self, name: str, seen: Candidate) -> None:
        """Run steps 1-6 for one settled file (steps 4-6 later, in ``collect``, when step 3 runs in a worker)."""
        path = self.paths.inbox / name
        try:
            sha, key = _hash_file(path)
        except FileNotFoundError:
            self.inbox.forget(name)
            return
        except (InterruptedError, IsADirectoryError):
            seen.resettle()  # changed under us: let it settle again
            return
        except OSError as exc:  # it does not open (yet): try again after another settle interval
            self.inbox.note(name, f"cannot be opened ({exc.strerror or exc}); waiting")
            seen.resettle()
            if self.settings.once:
                self.inbox.give_up(name)
            return
        if key != seen.key:
            seen.resettle(key)
            return
        if any(job.entry.sha256 == sha for job in self.in_flight.values()):
            seen.defer(self.settings.settle)  # a copy of a document in flight: wait for it
            return
        known = self.ledger.get(sha)
        entry = self.ledger.see(sha, name=name)  # step 1
        if entry.state in TERMINAL:
            self._finish_known(name, entry, key=key, new_name=known is None or name not in known.sources)
            return
        if entry.next_attempt_at and parse_timestamp(entry.next_attempt_at) > time.time():
            seen.defer(parse_timestamp(entry.next_attempt_at) - time.time())
            return
        result_path = self.paths.out / result_name(name, sha)
        if entry.attempts >= self.max_attempts + CRASH_ALLOWANCE:
            entry = self.ledger.claim(sha, result_path=str(result_path))
            record = error_record(
                source=str(path),
                code="crashed",
                sha256=sha,
                message=(
                    f"{path}: the watcher stopped {entry.attempts - 1} times while extracting this document; given up"
                ),
            )
            self._complete(name, entry, record, key=key)
            return
        entry = self.ledger.claim(sha, result_path=str(result_path))  # step 2
        _pause_for_tests("claimed")
        job = _Job(name=name, seen=seen, entry=entry, path=path, key=key)
        if self.executor is not None:
            future = self.executor.submit(self._extract_document, path)  # step 3, in a worker thread
            self.in_flight[future] = job
            future.add_done_callback(lambda _: self.inbox.wake())  # wake the loop
            return
        self._conclude(job, self._extract(path))  # step 3

    def _conclude(self, job: _Job, record: Record | None) -> None:
        """After step 3: abandon, re-queue or retry later, or steps 4-6."""
        name, seen, entry, path, key, sha = job.name, job.seen, job.entry, job.path, job.key, job.entry.sha256
        # a retryable failure during a stop may be the stop's doing (e.g. SIGTERM reached the render workers)
        if record is None or (self.stop.is_set() and _retryable(record)):
            self._abandon(job)
            return
        if (record.sha256 and record.sha256 != sha) or not self._unchanged(path, key):
            self.ledger.release(sha)
            seen.resettle()
            log.info("%s: changed while it was being extracted; it will be taken again once settled", name)
            return
        if _retryable(record) and entry.attempts < self.max_attempts:
            self.parts.pop(record.source, None)
            delay = min(self.settings.backoff * 2 ** (entry.attempts - 1), MAX_BACKOFF_S)
            error = record.errors[0]
            self.ledger.retry_later(
                sha, error_code=error.get("code", "error"), error=error.get("message", ""), at=time.time() + delay
            )
            seen.defer(delay)
            self.counts["error_retries"] += 1
            log.warning(
                "%s: %s (%s); retry %d of %d in %g s",
                name,
                error.get("code"),
                error.get("message"),
                entry.attempts,
                self.settings.error_retries,
                delay,
            )
            return
        self._complete(name, entry, record, key=key)

    def _abandon(self, job: _Job) -> None:
        """Give a claimed document back to the queue (the attempt is not counted; the input stays)."""
        self.ledger.release(job.entry.sha256)
        self.counts["abandoned"] += 1
        log.info("%s: abandoned (stopping); it stays queued for the next start", job.name)

    def collect(self) -> None:
        """Conclude the extractions that finished in the worker threads (steps 4-6 on this thread)."""
        for future in [f for f in self.in_flight if f.done()]:
            self._conclude(self.in_flight.pop(future), future.result())

    def finish_in_flight(self) -> None:
        """On a stop: wait for the documents in flight and conclude them; a stop's time-out (``StopSignals``)
        abandons those still running."""
        try:
            while self.in_flight:
                if self.abandoning:
                    raise _Abandon()
                self.in_extract = True  # the stop timer may abandon while we wait here
                try:
                    wait(list(self.in_flight), timeout=0.25, return_when=FIRST_COMPLETED)
                finally:
                    self.in_extract = False
                self.collect()
        except _Abandon:
            for job in self.in_flight.values():
                self._abandon(job)
            self.in_flight.clear()

    def _extract(self, path: Path) -> Record | None:
        """Extract one document on the watcher's thread; None when a stop abandoned it."""
        try:
            self.in_extract = True
            try:
                if self.stop.is_set():
                    return None  # a stop arrived just before: do not start a document it would have to abandon
                return self._extract_document(path)
            finally:
                self.in_extract = False
        except _Abandon:
            return None

    def _extract_document(self, path: Path) -> Record:
        """Step 3 itself (on the watcher's thread, or a worker thread). Never raises for a bad document."""
        _pause_for_tests("extracting")
        try:
            records = self.extractor.extract_parts(str(path))
            _pause_for_tests("extracted")  # the register (when kept) knows it; its record is not written yet
            if len(records) == 1:
                return records[0]
            self.parts[str(path)] = records  # step 4 writes every part before step 6 moves the file
            # the file's outcome for the retry rules: a part's retryable error retries the whole file
            return next((r for r in records if _retryable(r)), records[0])
        except Exception as exc:  # noqa: BLE001 - one document's unexpected failure must not end the watcher
            log.exception("%s: unexpected failure while extracting", path)
            return error_record(source=str(path), code="internal", message=f"{path}: {type(exc).__name__}: {exc}")

    def _unchanged(self, path: Path, key: StatKey) -> bool:
        try:
            return stat_key(path.lstat()) == key
        except OSError:
            return False

    def _complete(self, name: str, entry: Entry, record: Record, *, key: StatKey) -> None:
        """Steps 4-6: write the record, commit the ledger, move the input."""
        if not record.sha256:
            record = dataclasses.replace(record, sha256=entry.sha256)
        if entry.result_path is None:  # claiming sets it: None here is a ledger bug, not a bad document
            raise RuntimeError(f"{name}: the ledger entry has no result path")
        result = Path(entry.result_path)
        result.parent.mkdir(parents=True, exist_ok=True)
        parts = self.parts.pop(record.source, None)
        written: list[tuple[Path, Record]] = []
        for part in parts or ():  # step 4 for a file of several invoices: one record per part, all of them
            index, of = part.extra["part"]["index"], part.extra["part"]["of"]
            part = part if part.sha256 else dataclasses.replace(part, sha256=entry.sha256)
            part_path = result.with_name(f"{result.stem}.part-{index:0{len(str(of))}d}-of-{of}.json")
            written.append((part_path, write_record_beside(part_path, part)))
        if parts:
            record = next((p for p in parts if p.status == ERROR), next((p for p in parts if p.status != OK), parts[0]))
        else:
            # step 4, its e-invoices (--einvoice) beside it first: a crash between them leaves files a retry rewrites
            written.append((result, write_record_beside(result, record)))
        _pause_for_tests("written")
        for path, one in written:  # before the commit: a kill from here on feeds it again (feeds: once, at least)
            self.feeds.send(path, one)
        _pause_for_tests("fed")
        failed = record.status == ERROR
        error = record.errors[0] if failed and record.errors else {}
        self.ledger.finish(
            entry.sha256,
            state="failed" if failed else "done",
            status=record.status,  # step 5
            error_code=error.get("code"),
            error=error.get("message"),
        )
        _pause_for_tests("committed")
        self._move(name, entry.sha256, failed=failed, key=key)  # step 6
        self.counts["failed" if failed else "extracted"] += 1
        if failed:
            log.warning("%s: failed (%s): %s -> %s", name, error.get("code"), error.get("message"), result)
        else:
            log.info("%s: %s -> %s", name, record.status, result)
        if self.on_record is not None:
            try:
                self.on_record(record)
            except Exception:  # noqa: BLE001 - a broken callback must not stop the watcher
                log.exception("on_record failed for %s", name)

    def _finish_known(self, name: str, entry: Entry, *, key: StatKey, new_name: bool) -> None:
        """Content already finished: do not extract it again; move the input like the original (step 6)."""
        if self.settings.keep_inputs and not new_name:
            self.inbox.keep(name, key)
            return
        self._move(name, entry.sha256, failed=entry.state == "failed", key=key)
        self.counts["duplicates"] += 1
        log.info("%s: same content as %s (%s): not extracted again", name, entry.sources[0], entry.state)

    def _move(self, name: str, sha256: str, *, failed: bool, key: StatKey) -> None:
        """Move an input to processed/ or failed/ (keeping its subfolder); leave it with ``keep_inputs``."""
        if self.settings.keep_inputs:
            self.inbox.keep(name, key)
            return
        self.inbox.forget(name)
        source = self.paths.inbox / name
        if not self._unchanged(source, key):
            self.inbox.consider(str(source))  # replaced after it was hashed: the new content is a new input
            return
        target_dir = (self.paths.failed if failed else self.paths.processed) / Path(name).parent
        target_dir.mkdir(parents=True, exist_ok=True)
        target = _free_name(target_dir, Path(name).name, sha256)
        try:
            os.rename(source, target)
        except FileNotFoundError:
            return


class StopSignals:
    """SIGINT / SIGTERM: stop after the current document, abandoning it after ``stop_timeout`` (SIGALRM).

    A context manager: the handlers are installed on entry (main thread only) and the previous ones put back on exit.
    """

    def __init__(self, steps: Steps) -> None:
        """Args: steps: the steps whose documents a stop ends or abandons."""
        self.steps = steps
        self.previous: dict[int, _Handler] = {}

    def __enter__(self) -> StopSignals:
        for signum, handler in (
            (signal.SIGINT, self._stop),
            (signal.SIGTERM, self._stop),
            (signal.SIGALRM, self._alarm),
        ):
            self.previous[signum] = signal.signal(signum, handler)
        return self

    def __exit__(self, *exc) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _stop(self, signum, frame) -> None:
        steps = self.steps
        again = steps.stop.is_set()
        steps.stop.set()
        steps.inbox.wake()  # wake the loop
        if again and signum == signal.SIGINT:
            steps.abandoning = True
            if steps.in_extract:
                raise _Abandon()
        if not again:
            # setitimer(0) would disarm the timer, so a zero bound becomes one millisecond
            signal.setitimer(signal.ITIMER_REAL, max(steps.settings.stop_timeout, 0.001))

    def _alarm(self, signum, frame) -> None:
        self.steps.abandoning = True
        if self.steps.in_extract:
            raise _Abandon()


__all__ = ["STEPS", "TEST_PAUSE_ENV", "Steps", "StopSignals", "result_name"]
