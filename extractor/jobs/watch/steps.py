"""The watched folder as a source of the intake core (:mod:`extractor.jobs.intake`): hash a settled file, hand it
to the core's exactly-once steps (see, claim, extract, write, feed, finish), move it by its outcome.

Per file, in this order (each step is atomic; see "crash safety"; steps 1-5 are the core's):

1. hash the content (sha256) and record the name in the ledger (``see``); content already ``done`` / ``failed``
   is not extracted again: go to step 6 (the duplicate is moved like the original);
2. ``claim``: state ``running``, attempts + 1, result path fixed (``OUT/<stem>-<sha256[:12]>.json``; an earlier
   claim's path is kept);
3. extract (retryable failures: back to ``queued`` with a back-off, the input stays; nothing is written);
4. write the record to the result path atomically (temporary file, fsync, rename, fsync of the folder), its
   e-invoices (``--einvoice``) beside it first; then feed it (:mod:`extractor.jobs.feeds`: its line appended to
   ``--jsonl``, the ``--hook`` run);
5. ``finish``: state ``done`` (or ``failed`` for an ``error`` record) with status and error, committed;
6. move the input to ``INBOX/processed/`` or ``INBOX/failed/`` (a rename; ``keep_inputs``: left in place).

Crash safety (kill -9 between any two steps): the input leaves the inbox only in step 6, after the ledger knows the
result, so it is never lost; a restart re-queues ``running`` rows and catches up with the inbox: before step 4
the document is simply extracted again; between 4 and 5 it is extracted again and the record *overwrites* the same
path (the path depends only on the content and was fixed in step 2), so no second record (and no second
``--jsonl`` line: the log keeps the first; the hook runs again: at least once); between 5 and 6 the
content is already finished, so the input is only moved. A document whose extraction keeps killing the process
is failed with code ``crashed`` after ``error_retries + 3`` starts (the core's policy,
:mod:`extractor.jobs.intake.policy`). A transient failure is retried after the policy's back-off without holding
the loop: the row waits in the ledger (``retry_later``) while other files go on.

Several documents at once: with a remote or batching runner (``Extractor.concurrency`` > 1) steps 1-2 and 4-6
still run on the watcher's thread, one document at a time, while up to ``concurrency`` step-3 extractions run in
worker threads. A content is in flight at most once (a copy dropped meanwhile waits, then counts as a duplicate),
so the ledger's exactly-once holds as before.

Stopping (the core's :class:`~extractor.jobs.intake.stop.StopSignals`, the CLI's): SIGINT / SIGTERM stop after the
current document and, if a document is being extracted, abandon it after ``stop_timeout`` seconds (a second SIGINT:
at once): its row goes back to ``queued`` (the attempt is not counted), the input stays in the inbox.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import stat
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import UsageError
from extractor.jobs.intake.document import Documents, outcome
from extractor.jobs.intake.policy import RetryPolicy, retryable
from extractor.jobs.intake.stop import Abandon, Stopping
from extractor.jobs.ledger import TERMINAL, Entry, parse_timestamp
from extractor.jobs.sinks import OutputFull
from extractor.jobs.watch.inbox import Candidate, Inbox, StatKey, WatchPaths, WatchSettings, stat_key
from extractor.record import Record

log = logging.getLogger("extractor.jobs.watch")

MAX_NAME_BYTES = 200  # file-name stems are cut to this many UTF-8 bytes (NAME_MAX is 255)
# Test pause: EXTRACTOR_WATCH_TEST_PAUSE=STEP:FILE makes the watcher touch FILE and hang at STEP (one of STEPS),
# so the kill -9 / SIGTERM tests can stop it at an exact point. Unset, it costs one environment lookup per step.
TEST_PAUSE_ENV = "EXTRACTOR_WATCH_TEST_PAUSE"
# the WatchSummary counts the steps keep (``left`` is the inbox's)
COUNTS = ("extracted", "failed", "duplicates", "error_retries", "abandoned", "recovered")


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


class Steps:
    """Steps 1-6 for the inbox's settled files, on the watcher's thread (step 3 in worker threads when the
    extractor takes several documents at once); steps 1-5 are the core's (``documents``).

    Attributes:
        counts: what was done so far, by ``COUNTS`` name.
        stop: set to stop after the documents in flight (``stopping.event``).
    """

    def __init__(
        self,
        *,
        paths: WatchPaths,
        settings: WatchSettings,
        documents: Documents,
        inbox: Inbox,
        on_record: Callable[[Record], None] | None,
    ) -> None:
        """Args: as ``watch``'s, with the core's steps on the opened ledger and feeds, and the inbox whose files the
        steps take."""
        self.paths = paths
        self.settings = settings
        self.documents = documents
        self.ledger = documents.ledger
        self.feeds = documents.feeds
        self.policy: RetryPolicy = settings.policy
        self.stopping: Stopping = documents.stopping
        self.stop = self.stopping.event
        self.inbox = inbox
        self.on_record = on_record
        self.counts = dict.fromkeys(COUNTS, 0)
        self.concurrency = max(1, int(getattr(documents.extractor, "concurrency", 1)))
        self.executor: ThreadPoolExecutor | None = None  # only with concurrency > 1
        self.in_flight: dict[Future, _Job] = {}

    # ------------------------------------------------------------------------------------------ start and end

    def recover(self) -> None:
        """On start: delete what a kill during step 4 left, and re-queue the ``running`` rows of a crash."""
        self.counts["recovered"] = self.documents.recover()
        if self.counts["recovered"]:
            log.info("re-queued %d document(s) left running by an earlier stop", self.counts["recovered"])

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
        entry, crashed = self.documents.claim(sha, result=self.paths.out / result_name(name, sha), source=str(path))
        job = _Job(name=name, seen=seen, entry=entry, path=path, key=key)  # step 2 done
        if crashed is not None:
            self._complete(job, (crashed,))
            return
        if self.executor is not None:
            future = self.executor.submit(self.documents.extract_in_worker, path)  # step 3, in a worker thread
            self.in_flight[future] = job
            future.add_done_callback(lambda _: self.inbox.wake())  # wake the loop
            return
        self._conclude(job, self.documents.extract_once(path))  # step 3

    def _conclude(self, job: _Job, records: tuple[Record, ...] | None) -> None:
        """After step 3: abandon, re-queue or retry later, or steps 4-6."""
        sha = job.entry.sha256
        # the file's outcome for the retry rules: a part's retryable error retries the whole file
        record = None if records is None else next((r for r in records if retryable(r)), records[0])
        # a retryable failure during a stop may be the stop's doing (e.g. SIGTERM reached the render workers)
        if record is None or records is None or (self.stop.is_set() and retryable(record)):
            self._abandon(job)
            return
        if (record.sha256 and record.sha256 != sha) or not self._unchanged(job.path, job.key):
            self.ledger.release(sha)
            job.seen.resettle()
            log.info("%s: changed while it was being extracted; it will be taken again once settled", job.name)
            return
        delay = self.policy.retry_after(record, attempt=job.entry.attempts)
        if delay is not None:  # not held here: the row waits in the ledger, other files go on
            error = record.errors[0]
            self.ledger.retry_later(
                sha, error_code=error.get("code", "error"), error=error.get("message", ""), at=time.time() + delay
            )
            job.seen.defer(delay)
            self.counts["error_retries"] += 1
            log.warning(
                "%s: %s (%s); retry %d of %d in %g s",
                job.name,
                error.get("code"),
                error.get("message"),
                job.entry.attempts,
                self.policy.error_retries,
                delay,
            )
            return
        self._complete(job, records)

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
        stopping = self.stopping
        try:
            while self.in_flight:
                if stopping.abandoning:
                    raise Abandon()
                stopping.in_extract = True  # the stop timer may abandon while we wait here
                try:
                    wait(list(self.in_flight), timeout=0.25, return_when=FIRST_COMPLETED)
                finally:
                    stopping.in_extract = False
                self.collect()
        except Abandon:
            for job in self.in_flight.values():
                self._abandon(job)
            self.in_flight.clear()

    def _unchanged(self, path: Path, key: StatKey) -> bool:
        try:
            return stat_key(path.lstat()) == key
        except OSError:
            return False

    def _complete(self, job: _Job, records: tuple[Record, ...]) -> None:
        """Steps 4-6: the core writes, feeds and commits the records; then the input is moved. A full (or
        read-only) output puts the document back in the queue for the policy's first back-off: nothing torn is
        written, nothing committed, the input stays; it is extracted again once there is space."""
        try:
            taken = self.documents.complete(job.entry, records)
        except OutputFull as exc:
            self.ledger.release(job.entry.sha256)
            delay = self.policy.delay(1)
            job.seen.defer(delay)
            self.documents.met_full(exc, then=f"{job.name} stays in the inbox, tried again in {delay:g} s")
            return
        self.documents.space_back()
        record = outcome(records)
        record = record if record.sha256 else dataclasses.replace(record, sha256=job.entry.sha256)
        self._move(job.name, job.entry.sha256, failed=taken.failed, key=job.key)  # step 6
        self.counts["failed" if taken.failed else "extracted"] += 1
        result = job.entry.result_path
        if taken.failed:
            error = record.errors[0] if record.errors else {}
            log.warning("%s: failed (%s): %s -> %s", job.name, error.get("code"), error.get("message"), result)
        else:
            log.info("%s: %s -> %s", job.name, record.status, result)
        if self.on_record is not None:
            try:
                self.on_record(record)
            except Exception:  # noqa: BLE001 - a broken callback must not stop the watcher
                log.exception("on_record failed for %s", job.name)

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


__all__ = ["TEST_PAUSE_ENV", "Steps", "result_name"]
