"""Folder-watch ingestion: ``extract watch INBOX --out OUT`` and ``watch(inbox, out, extractor=...)``.

One resident model; new files are found by ``watchdog`` (inotify / FSEvents / ...) or, with ``poll``, by scanning
every ``poll`` seconds; on start the watcher first catches up with what is already in the inbox (and it rescans
every ``RESCAN_S`` seconds anyway, in case an event was lost).

A file is taken when its name is not a temporary one (``IGNORED_PATTERNS``), it is a regular file (symlinks are
never followed), its size, mtime and inode have not changed for ``settle`` seconds, and it opens. Subfolders are
watched too; ``processed/``, ``failed/``, dot-folders and the output / ledger folders are never scanned.

Per file, in this order (each step is atomic; see "crash safety"):

1. hash the content (sha256) and record the name in the ledger (``see``); content already ``done`` / ``failed``
   is not extracted again: go to step 6 (the duplicate is moved like the original);
2. ``claim``: state ``processing``, attempts + 1, result path fixed (``OUT/<stem>-<sha256[:12]>.json``; an earlier
   claim's path is kept);
3. extract (retryable failures: back to ``queued`` with a back-off, the input stays; nothing is written);
4. write the record to the result path atomically (temporary file, fsync, rename, fsync of the folder);
5. ``finish``: state ``done`` (or ``failed`` for an ``error`` record) with status and error, committed;
6. move the input to ``INBOX/processed/`` or ``INBOX/failed/`` (a rename; ``keep_inputs``: left in place).

Crash safety (kill -9 between any two steps): the input leaves the inbox only in step 6, after the ledger knows the
result, so it is never lost; a restart re-queues ``processing`` rows and catches up with the inbox: before step 4
the document is simply extracted again; between 4 and 5 it is extracted again and the record *overwrites* the same
path (the path depends only on the content and was fixed in step 2), so no second record; between 5 and 6 the
content is already finished, so the input is only moved. A document whose extraction keeps killing the process
is failed with code ``crashed`` after ``error_retries + 3`` starts.

Several documents at once: with a remote or batching runner (``Extractor.concurrency`` > 1) steps 1-2 and 4-6
still run on the watcher's thread, one document at a time, while up to ``concurrency`` step-3 extractions run in worker threads. A
content is in flight at most once (a copy dropped meanwhile waits, then counts as a duplicate), so the ledger's
exactly-once holds as before.

Stopping: ``stop_event`` ends the loop after the current document (after every document in flight). With
``handle_signals`` (the CLI), SIGINT / SIGTERM set it and, if a document is being extracted, abandon it after
``stop_timeout`` seconds (a second SIGINT: at once): its row goes back to ``queued`` (the attempt is not counted),
the input stays in the inbox.

One watcher per inbox and per ledger: ``fcntl.flock`` on ``<ledger>.lock`` and on ``INBOX/.extractor-watch.lock``.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import glob
import hashlib
import logging
import os
import queue
import signal
import stat
import threading
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

from extractor.errors import UsageError
from extractor.jobs.hooks import pause_at
from extractor.jobs.ledger import TERMINAL, Entry, Ledger, parse_timestamp
from extractor.record import Record
from extractor.jobs.sinks import write_atomic
from extractor.trust.verdict import ERROR, OK, TRANSIENT_ERROR_CODES, error_record

log = logging.getLogger("extractor.jobs.watch")

IGNORED_PATTERNS = ("*.part", "*.partial", "*.crdownload", "*.download", "*.tmp", "~$*", ".*", "thumbs.db",
                    "desktop.ini")
PROCESSED = "processed"
FAILED = "failed"
LEDGER_DIR = ".extractor"
LEDGER_NAME = "ledger.sqlite"
INBOX_LOCK = ".extractor-watch.lock"
CRASH_ALLOWANCE = 2  # starts beyond error_retries + 1 before a document that keeps killing the watcher is failed
RESCAN_S = 60.0  # full rescan interval when events are used (an inotify queue can overflow)
FALLBACK_POLL_S = 2.0  # scan interval when file-system events are unavailable
MAX_BACKOFF_S = 600.0
MAX_NAME_BYTES = 200  # file-name stems are cut to this many UTF-8 bytes (NAME_MAX is 255)
# Test hook: EXTRACTOR_WATCH_TEST_PAUSE=STEP:FILE makes the watcher touch FILE and hang at STEP (one of STEPS),
# so the kill -9 / SIGTERM tests can stop it at an exact point. Unset, it costs one environment lookup per step.
TEST_PAUSE_ENV = "EXTRACTOR_WATCH_TEST_PAUSE"
STEPS = ("claimed", "extracting", "written", "committed")


@dataclass(frozen=True)
class WatchSettings:
    """How the watcher behaves (the model's own settings live in the Extractor).

    Attributes:
        settle: seconds a file's size, mtime and inode must stay unchanged before it is taken.
        poll: scan the inbox every this many seconds instead of using file-system events (network shares).
        error_retries: retries of a transient failure (model error, time-out, crashed worker) before the document
            fails, with back-off. (Retries of a failed *answer* are the extractor's ``Settings.retries``.)
        backoff: seconds before the first retry; doubled for each further one (at most ``MAX_BACKOFF_S``).
        keep_inputs: leave inputs in the inbox (the ledger alone prevents a second extraction).
        once: process what is in the inbox now, then return.
        stop_timeout: with signal handling, seconds a document may still run after SIGINT / SIGTERM.
    """

    settle: float = 2.0
    poll: Optional[float] = None
    error_retries: int = 2
    backoff: float = 5.0
    keep_inputs: bool = False
    once: bool = False
    stop_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.settle < 0 or self.backoff < 0 or self.stop_timeout < 0:
            raise UsageError("settle, backoff and stop timeout must not be negative")
        if self.poll is not None and self.poll <= 0:
            raise UsageError(f"--poll must be a positive number of seconds, got {self.poll}")
        if self.error_retries < 0:
            raise UsageError(f"--error-retries must not be negative, got {self.error_retries}")


@dataclass(frozen=True)
class WatchPaths:
    """Where the watcher reads and writes (all absolute).

    Attributes:
        inbox: the watched folder (symlinks in its own path resolved).
        out: where records are written.
        ledger: the SQLite ledger.
        processed: inputs with a record go here.
        failed: inputs with an ``error`` record go here.
    """

    inbox: Path
    out: Path
    ledger: Path
    processed: Path
    failed: Path

    @classmethod
    def resolve(cls, inbox: Union[str, Path], out: Union[str, Path],
                ledger: Union[str, Path, None] = None) -> "WatchPaths":
        """Check and resolve the watcher's paths.

        Args:
            inbox: the folder to watch (must exist).
            out: the output folder (created later if missing).
            ledger: the ledger file (default ``OUT/.extractor/ledger.sqlite``).

        Returns:
            The paths.

        Raises:
            UsageError: the inbox is missing or not a folder, or the output folder is the inbox itself.
        """
        inbox_path = Path(inbox).expanduser()
        if not inbox_path.is_dir():
            raise UsageError(f"inbox {inbox} does not exist or is not a folder")
        inbox_path = inbox_path.resolve()
        out_path = Path(out).expanduser().resolve()  # resolved like the inbox, so "OUT inside INBOX" is seen
        if out_path == inbox_path:
            raise UsageError(f"--out {out} is the inbox itself; records would be read back as inputs")
        ledger_path = Path(ledger).expanduser().resolve() if ledger else out_path / LEDGER_DIR / LEDGER_NAME
        return cls(inbox=inbox_path, out=out_path, ledger=ledger_path, processed=inbox_path / PROCESSED,
                   failed=inbox_path / FAILED)

    @property
    def lock(self) -> Path:
        """The lock file next to the ledger."""
        return self.ledger.with_name(self.ledger.name + ".lock")


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
        recovered: ``processing`` rows left by a crash and re-queued at start.
        left: files still waiting in the inbox at the end (not settled, unreadable, or waiting for a retry).
    """

    extracted: int = 0
    failed: int = 0
    duplicates: int = 0
    error_retries: int = 0
    abandoned: int = 0
    recovered: int = 0
    left: int = 0

    def to_dict(self) -> dict:
        """Return the counts as a dict."""
        return dataclasses.asdict(self)


class WatchLock:
    """Exclusive ``flock`` locks on the ledger's lock file and on the inbox's (one watcher per ledger and inbox)."""

    def __init__(self, paths: WatchPaths) -> None:
        """Args: paths: the watcher's paths."""
        self.paths = paths
        self._fds: list[int] = []

    def acquire(self) -> "WatchLock":
        """Take both locks (without waiting).

        Returns:
            self.

        Raises:
            UsageError: (code ``locked``) another watcher holds one of the locks.
        """
        import fcntl

        self.paths.lock.parent.mkdir(parents=True, exist_ok=True)
        targets = [self.paths.lock, self.paths.inbox / INBOX_LOCK]
        try:
            for index, target in enumerate(targets):
                try:
                    fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
                except OSError:
                    if index == 0:
                        raise
                    continue  # a read-only inbox (--keep-inputs): the ledger lock still guards it
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    owner = os.read(fd, 200).decode("utf-8", "replace").strip() or "unknown"
                    os.close(fd)
                    raise UsageError(f"another watcher (pid {owner}) is already running on inbox {self.paths.inbox} "
                                     f"or ledger {self.paths.ledger} (lock {target}); stop it first",
                                     code="locked") from None
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode())
                self._fds.append(fd)
        except BaseException:
            self.release()
            raise
        return self

    def release(self) -> None:
        """Drop the locks (closing the files releases them)."""
        while self._fds:
            os.close(self._fds.pop())

    def __enter__(self) -> "WatchLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def check_unlocked(paths: WatchPaths) -> None:
    """Fail fast, before a model is loaded, when another watcher holds the inbox or the ledger.

    Args:
        paths: the watcher's paths.

    Raises:
        UsageError: (code ``locked``) another watcher is running.
    """
    with WatchLock(paths):
        pass


def watch(inbox: Union[str, Path], out: Union[str, Path], *, extractor,
          on_record: Optional[Callable[[Record], None]] = None, stop_event: Optional[threading.Event] = None,
          ledger: Union[str, Path, None] = None, settle: float = 2.0, poll: Optional[float] = None,
          error_retries: int = 2, backoff: float = 5.0, keep_inputs: bool = False, once: bool = False,
          stop_timeout: float = 10.0, handle_signals: bool = False, retries: Optional[int] = None) -> WatchSummary:
    """Watch a folder and extract every new document exactly once, until stopped (or, with ``once``, done).

    With the in-process model, documents are extracted on the calling thread, one at a time; call it from the
    thread that created the extractor (mlx keeps GPU streams per thread). With a remote or batching runner, up to
    ``extractor.concurrency`` documents are extracted at once in worker threads; the ledger, the record files and
    the moves stay on the calling thread.

    Args:
        inbox: the folder to watch.
        out: where the records go (one ``<stem>-<sha256[:12]>.json`` per distinct content).
        extractor: a loaded ``Extractor`` (its model stays resident).
        on_record: called with each new record after it is committed and its input moved (not for duplicates).
            It runs on the watcher's thread; an exception in it is logged and the watcher goes on.
        stop_event: set it (from any thread) to stop after the current document.
        ledger: the ledger file (default ``OUT/.extractor/ledger.sqlite``).
        settle: seconds a file must stay unchanged before it is taken.
        poll: scan every this many seconds instead of using file-system events.
        error_retries: retries of a transient failure (model error, time-out), with back-off.
        backoff: seconds before the first retry (doubled each time).
        keep_inputs: leave inputs in the inbox.
        once: process what is in the inbox now, then return.
        stop_timeout: with ``handle_signals``: seconds the current document may run on after SIGINT / SIGTERM
            before it is abandoned.
        handle_signals: install SIGINT / SIGTERM handlers (main thread only; the CLI does).
        retries: deprecated spelling of ``error_retries`` (warns).

    Returns:
        The WatchSummary of this run.

    Raises:
        UsageError: bad paths or settings, or (code ``locked``) another watcher on the inbox or ledger.
    """
    paths = WatchPaths.resolve(inbox, out, ledger)
    if retries is not None:  # the old name, kept for one release
        warnings.warn("watch(retries=...) is deprecated: it is error_retries now (answer retries are the "
                      "extractor's Settings.retries)", DeprecationWarning, stacklevel=2)
        error_retries = retries
    settings = WatchSettings(settle=settle, poll=poll, error_retries=error_retries, backoff=backoff,
                             keep_inputs=keep_inputs, once=once, stop_timeout=stop_timeout)
    with WatchLock(paths), Ledger(paths.ledger) as book:
        watcher = _Watcher(paths=paths, settings=settings, extractor=extractor, ledger=book, on_record=on_record,
                           stop_event=stop_event or threading.Event())
        if handle_signals and threading.current_thread() is threading.main_thread():
            with _Signals(watcher):
                return watcher.run()
        return watcher.run()


# ------------------------------------------------------------------------------------------------------ internals


class _Abandon(BaseException):
    """Raised into a running extraction by the stop timer; BaseException so no ``except Exception`` swallows it."""


@dataclass
class _Job:
    """A claimed document (steps 1-2 done) whose extraction is running or done."""

    name: str
    seen: "_Pending"
    entry: Entry
    path: Path
    key: tuple[int, int, int]


@dataclass
class _Pending:
    """A candidate file: its last (size, mtime, inode) and since when it has not changed."""

    key: tuple[int, int, int]
    since: float
    not_before: float = 0.0  # retry back-off


def _stat_key(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_size, info.st_mtime_ns, info.st_ino


def ignored_name(name: str) -> bool:
    """Return True for names the watcher never takes (temporary, partial, hidden and system files).

    Args:
        name: a file name (no folder).

    Returns:
        Whether the name matches ``IGNORED_PATTERNS`` (case-insensitive).
    """
    lower = name.lower()
    return any(fnmatch.fnmatchcase(lower, pattern) for pattern in IGNORED_PATTERNS)


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


def _hash_file(path: Path) -> tuple[str, tuple[int, int, int]]:
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
    if _stat_key(after) != _stat_key(before):
        raise InterruptedError(f"{path}: changed while being read")
    return digest.hexdigest(), _stat_key(after)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: some file systems refuse directory fsync)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _pause_for_tests(step: str) -> None:
    pause_at(TEST_PAUSE_ENV, step)


def _retryable(record: Record) -> bool:
    return record.status == ERROR and any(e.get("code") in TRANSIENT_ERROR_CODES for e in record.errors[:1])


class _Watcher:
    """The loop: catch up, then take settled files one at a time on the calling thread (the model's thread)."""

    def __init__(self, *, paths: WatchPaths, settings: WatchSettings, extractor, ledger: Ledger,
                 on_record: Optional[Callable[[Record], None]], stop_event: threading.Event) -> None:
        self.paths = paths
        self.settings = settings
        self.extractor = extractor
        self.ledger = ledger
        self.on_record = on_record
        self.stop = stop_event
        self.events: "queue.SimpleQueue[Optional[str]]" = queue.SimpleQueue()
        self.pending: dict[str, _Pending] = {}
        self.handled: dict[str, tuple[int, int, int]] = {}  # keep_inputs: files already dealt with
        self.noted: set[str] = set()  # names already logged as skipped (log once)
        self.counts = dict.fromkeys((f.name for f in dataclasses.fields(WatchSummary)), 0)
        self.dropped = 0  # --once: files given up because they do not open
        self.in_extract = False
        self.abandoning = False  # the stop's time-out passed (set by _Signals)
        self.max_attempts = settings.error_retries + 1
        self.concurrency = max(1, int(getattr(extractor, "concurrency", 1)))
        self.executor: Optional[ThreadPoolExecutor] = None  # only with concurrency > 1
        self.in_flight: dict[Future, _Job] = {}
        # a file split into invoices (``Settings.split``): its part records, by source, from step 3 to step 4
        self.parts: dict[str, tuple[Record, ...]] = {}
        excluded = [paths.processed, paths.failed, paths.out, paths.ledger.parent]
        self.excluded = tuple(p for p in excluded if _inside(p, paths.inbox))

    # ---------------------------------------------------------------------------------------------- the loop

    def run(self) -> WatchSummary:
        """Catch up, then watch until stopped (or until the inbox is done, with ``once``)."""
        paths, settings = self.paths, self.settings
        paths.out.mkdir(parents=True, exist_ok=True)
        if not settings.keep_inputs:
            paths.processed.mkdir(exist_ok=True)
            paths.failed.mkdir(exist_ok=True)
        self._remove_stale_temporaries()
        self.counts["recovered"] = self.ledger.recover()
        if self.counts["recovered"]:
            log.info("re-queued %d document(s) left in processing by an earlier stop", self.counts["recovered"])
        observer = None if settings.once or settings.poll else self._start_observer()
        scan_every = settings.poll or (RESCAN_S if observer is not None else FALLBACK_POLL_S)
        log.info("watching %s -> %s (ledger %s)%s", paths.inbox, paths.out, paths.ledger,
                 " once" if settings.once else f", polling every {settings.poll:g} s" if settings.poll else "")
        if self.concurrency > 1:
            self.executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="watch-extract")
        try:
            self._scan(paths.inbox)
            next_scan = time.monotonic() + scan_every
            while not self.stop.is_set():
                self._drain_events()
                self._collect()
                if not settings.once and time.monotonic() >= next_scan:
                    self._scan(paths.inbox)
                    next_scan = time.monotonic() + scan_every
                self._take_ready()
                if settings.once and not self.pending:
                    break
                self._wait(min(self._next_due(), next_scan) - time.monotonic())
            self._finish_in_flight()
        finally:
            if self.executor is not None:
                self.executor.shutdown(wait=False, cancel_futures=True)
            if observer is not None:
                observer.stop()
                observer.join(timeout=5)
        self.counts["left"] = len(self.pending) + self.dropped
        summary = WatchSummary(**self.counts)
        log.info("stopped: %s", ", ".join(f"{v} {k}" for k, v in summary.to_dict().items()))
        return summary

    def _remove_stale_temporaries(self) -> None:
        """Delete the temporary files a kill during step 4 left next to the result paths of ``processing`` rows."""
        for entry in self.ledger.entries(state="processing"):
            if entry.result_path:
                result = Path(entry.result_path)
                for temporary in result.parent.glob(f".{glob.escape(result.name)}.*.tmp"):
                    temporary.unlink(missing_ok=True)

    def _wait(self, seconds: float) -> None:
        """Sleep until an event arrives or ``seconds`` pass (short slices, so a stop_event is seen quickly)."""
        try:
            item = self.events.get(timeout=min(max(seconds, 0.01), 0.25))
        except queue.Empty:
            return
        if item is not None:
            self._consider(item)

    def _next_due(self) -> float:
        now = time.monotonic()
        busy = {job.name for job in self.in_flight.values()}  # a finished one wakes the loop itself
        due = [max(p.since + self.settings.settle, p.not_before) for n, p in self.pending.items() if n not in busy]
        return min(due, default=now + 1.0)

    def _start_observer(self):
        """Start a watchdog observer feeding ``self.events``; fall back to polling when it cannot start."""
        try:
            from watchdog.events import FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError:
            log.warning("watchdog is not installed: polling every %g s instead", FALLBACK_POLL_S)
            return None
        events = self.events

        class _Feed(FileSystemEventHandler):
            def on_any_event(self, event) -> None:
                for raw in (event.src_path, getattr(event, "dest_path", "")):
                    if raw:
                        events.put(os.fsdecode(raw))

        observer = Observer()
        try:
            observer.schedule(_Feed(), str(self.paths.inbox), recursive=True)
            observer.start()
        except OSError as exc:  # e.g. the inotify watch limit: still correct, only slower
            log.warning("file-system events unavailable (%s): polling every %g s instead", exc, FALLBACK_POLL_S)
            return None
        return observer

    def _drain_events(self) -> None:
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._consider(item)

    # ---------------------------------------------------------------------------------------------- discovery

    def _relative(self, path: Path) -> Optional[str]:
        """Return the inbox-relative name of a path we may take, or None (outside, excluded or hidden)."""
        try:
            rel = path.relative_to(self.paths.inbox)
        except ValueError:
            return None
        if not rel.parts or any(part.startswith(".") for part in rel.parts):
            return None
        if any(_inside(path, ex) for ex in self.excluded):
            return None
        return rel.as_posix()

    def _scan(self, folder: Path) -> None:
        """Walk a folder (no symlinks followed) and consider every file in it."""
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            if folder == self.paths.inbox:
                log.warning("cannot read the inbox %s: %s", folder, exc)
            return
        for entry in sorted(entries, key=lambda e: e.name):
            self._consider(entry.path)

    def _consider(self, raw: str) -> None:
        """Look at one path from a scan or an event: start or update its settle timer, or descend a folder."""
        path = Path(raw)
        name = self._relative(path)
        if name is None:
            return
        try:
            info = path.lstat()
        except (FileNotFoundError, NotADirectoryError):
            self.pending.pop(name, None)
            return
        except OSError:
            return
        if stat.S_ISLNK(info.st_mode):
            self._note(name, "is a symbolic link: never followed")
            return
        if stat.S_ISDIR(info.st_mode):
            self._scan(path)
            return
        if not stat.S_ISREG(info.st_mode) or ignored_name(path.name):
            return
        key = _stat_key(info)
        if self.handled.get(name) == key:
            return
        seen = self.pending.get(name)
        if seen is None:
            self.pending[name] = _Pending(key=key, since=time.monotonic())
        elif seen.key != key:
            seen.key, seen.since = key, time.monotonic()

    def _note(self, name: str, why: str) -> None:
        if name not in self.noted:
            self.noted.add(name)
            log.info("skipping %s: %s", name, why)

    def _take_ready(self) -> None:
        """Process every settled file, oldest first, one at a time; stop early when asked (or when ``concurrency``
        documents are in flight)."""
        busy = {job.name for job in self.in_flight.values()}
        for name in sorted(self.pending, key=lambda n: (self.pending[n].since, n)):
            if self.stop.is_set() or len(self.in_flight) >= self.concurrency:
                return
            if name in busy:
                continue
            self._drain_events()  # a file touched meanwhile restarts its settle timer
            seen = self.pending.get(name)
            if seen is None:
                continue
            now = time.monotonic()
            if now < seen.since + self.settings.settle or now < seen.not_before:
                continue
            try:
                info = (self.paths.inbox / name).lstat()
            except OSError:
                self.pending.pop(name, None)
                continue
            if _stat_key(info) != seen.key or not stat.S_ISREG(info.st_mode):
                seen.key, seen.since = _stat_key(info), now
                continue
            self._process(name, seen)

    # ------------------------------------------------------------------------------------------- one document

    def _process(self, name: str, seen: _Pending) -> None:
        """Run steps 1-6 for one settled file."""
        path = self.paths.inbox / name
        try:
            sha, key = _hash_file(path)
        except FileNotFoundError:
            self.pending.pop(name, None)
            return
        except (InterruptedError, IsADirectoryError):
            seen.since = time.monotonic()  # changed under us: let it settle again
            return
        except OSError as exc:  # it does not open (yet): try again after another settle interval
            self._note(name, f"cannot be opened ({exc.strerror or exc}); waiting")
            seen.since = time.monotonic()
            if self.settings.once:
                self.pending.pop(name, None)
                self.dropped += 1
            return
        if key != seen.key:
            seen.key, seen.since = key, time.monotonic()
            return
        if any(job.entry.sha256 == sha for job in self.in_flight.values()):
            seen.not_before = time.monotonic() + self.settings.settle  # a copy of a document in flight: wait for it
            return
        known = self.ledger.get(sha)
        entry = self.ledger.see(sha, name=name)  # step 1
        if entry.state in TERMINAL:
            self._finish_known(name, entry, key=key, new_name=known is None or name not in known.sources)
            return
        if entry.next_attempt_at and parse_timestamp(entry.next_attempt_at) > time.time():
            seen.not_before = time.monotonic() + parse_timestamp(entry.next_attempt_at) - time.time()
            return
        result_path = self.paths.out / result_name(name, sha)
        if entry.attempts >= self.max_attempts + CRASH_ALLOWANCE:
            entry = self.ledger.claim(sha, result_path=str(result_path))
            record = error_record(source=str(path), code="crashed", sha256=sha, message=(
                f"{path}: the watcher stopped {entry.attempts - 1} times while extracting this document; given up"))
            self._complete(name, entry, record, key=key)
            return
        entry = self.ledger.claim(sha, result_path=str(result_path))  # step 2
        _pause_for_tests("claimed")
        job = _Job(name=name, seen=seen, entry=entry, path=path, key=key)
        if self.executor is not None:
            future = self.executor.submit(self._extract_document, path)  # step 3, in a worker thread
            self.in_flight[future] = job
            future.add_done_callback(lambda _: self.events.put(None))  # wake the loop
            return
        self._conclude(job, self._extract(path))  # step 3

    def _conclude(self, job: _Job, record: Optional[Record]) -> None:
        """After step 3: abandon, re-queue or retry later, or steps 4-6."""
        name, seen, entry, path, key, sha = job.name, job.seen, job.entry, job.path, job.key, job.entry.sha256
        # a retryable failure during a stop may be the stop's doing (e.g. SIGTERM reached the render workers)
        if record is None or (self.stop.is_set() and _retryable(record)):
            self._abandon(job)
            return
        if (record.sha256 and record.sha256 != sha) or not self._unchanged(path, key):
            self.ledger.release(sha)
            seen.since = time.monotonic()
            log.info("%s: changed while it was being extracted; it will be taken again once settled", name)
            return
        if _retryable(record) and entry.attempts < self.max_attempts:
            self.parts.pop(record.source, None)
            delay = min(self.settings.backoff * 2 ** (entry.attempts - 1), MAX_BACKOFF_S)
            error = record.errors[0]
            self.ledger.retry_later(sha, error_code=error.get("code", "error"), error=error.get("message", ""),
                                    at=time.time() + delay)
            seen.not_before = time.monotonic() + delay
            self.counts["error_retries"] += 1
            log.warning("%s: %s (%s); retry %d of %d in %g s", name, error.get("code"), error.get("message"),
                        entry.attempts, self.settings.error_retries, delay)
            return
        self._complete(name, entry, record, key=key)

    def _abandon(self, job: _Job) -> None:
        """Give a claimed document back to the queue (the attempt is not counted; the input stays)."""
        self.ledger.release(job.entry.sha256)
        self.counts["abandoned"] += 1
        log.info("%s: abandoned (stopping); it stays queued for the next start", job.name)

    def _collect(self) -> None:
        """Conclude the extractions that finished in the worker threads (steps 4-6 on this thread)."""
        for future in [f for f in self.in_flight if f.done()]:
            self._conclude(self.in_flight.pop(future), future.result())

    def _finish_in_flight(self) -> None:
        """On a stop: wait for the documents in flight and conclude them; a stop's time-out (``_Signals``)
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
                self._collect()
        except _Abandon:
            for job in self.in_flight.values():
                self._abandon(job)
            self.in_flight.clear()

    def _extract(self, path: Path) -> Optional[Record]:
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
            if len(records) == 1:
                return records[0]
            self.parts[str(path)] = records  # step 4 writes every part before step 6 moves the file
            # the file's outcome for the retry rules: a part's retryable error retries the whole file
            return next((r for r in records if _retryable(r)), records[0])
        except Exception as exc:  # noqa: BLE001 - one document's unexpected failure must not end the watcher
            log.exception("%s: unexpected failure while extracting", path)
            return error_record(source=str(path), code="internal", message=f"{path}: {type(exc).__name__}: {exc}")

    def _unchanged(self, path: Path, key: tuple[int, int, int]) -> bool:
        try:
            return _stat_key(path.lstat()) == key
        except OSError:
            return False

    def _complete(self, name: str, entry: Entry, record: Record, *, key: tuple[int, int, int]) -> None:
        """Steps 4-6: write the record, commit the ledger, move the input."""
        if not record.sha256:
            record = dataclasses.replace(record, sha256=entry.sha256)
        result = Path(entry.result_path)
        result.parent.mkdir(parents=True, exist_ok=True)
        parts = self.parts.pop(record.source, None)
        for part in parts or ():  # step 4 for a file of several invoices: one record per part, all of them
            index, of = part.extra["part"]["index"], part.extra["part"]["of"]
            part = part if part.sha256 else dataclasses.replace(part, sha256=entry.sha256)
            write_atomic(result.with_name(f"{result.stem}.part-{index:0{len(str(of))}d}-of-{of}.json"),
                         (part.to_json() + "\n").encode("utf-8"))
        if parts:
            record = next((p for p in parts if p.status == ERROR), next((p for p in parts if p.status != OK),
                                                                         parts[0]))
        else:
            write_atomic(result, (record.to_json() + "\n").encode("utf-8"))  # step 4
        _fsync_dir(result.parent)
        _pause_for_tests("written")
        failed = record.status == ERROR
        error = record.errors[0] if failed and record.errors else {}
        self.ledger.finish(entry.sha256, state="failed" if failed else "done", status=record.status,  # step 5
                           error_code=error.get("code"), error=error.get("message"))
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

    def _finish_known(self, name: str, entry: Entry, *, key: tuple[int, int, int], new_name: bool) -> None:
        """Content already finished: do not extract it again; move the input like the original (step 6)."""
        if self.settings.keep_inputs and not new_name:
            self.pending.pop(name, None)
            self.handled[name] = key
            return
        self._move(name, entry.sha256, failed=entry.state == "failed", key=key)
        self.counts["duplicates"] += 1
        log.info("%s: same content as %s (%s): not extracted again", name, entry.sources[0], entry.state)

    def _move(self, name: str, sha256: str, *, failed: bool, key: tuple[int, int, int]) -> None:
        """Move an input to processed/ or failed/ (keeping its subfolder); leave it with ``keep_inputs``."""
        self.pending.pop(name, None)
        if self.settings.keep_inputs:
            self.handled[name] = key
            return
        source = self.paths.inbox / name
        if not self._unchanged(source, key):
            self._consider(str(source))  # replaced after it was hashed: the new content is a new input
            return
        target_dir = (self.paths.failed if failed else self.paths.processed) / Path(name).parent
        target_dir.mkdir(parents=True, exist_ok=True)
        target = _free_name(target_dir, Path(name).name, sha256)
        try:
            os.rename(source, target)
        except FileNotFoundError:
            return


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


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


class _Signals:
    """SIGINT / SIGTERM: stop after the current document, abandoning it after ``stop_timeout`` (SIGALRM)."""

    def __init__(self, watcher: _Watcher) -> None:
        self.watcher = watcher
        self.previous: dict[int, object] = {}

    def __enter__(self) -> "_Signals":
        for signum, handler in ((signal.SIGINT, self._stop), (signal.SIGTERM, self._stop),
                                (signal.SIGALRM, self._alarm)):
            self.previous[signum] = signal.signal(signum, handler)
        return self

    def __exit__(self, *exc) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _stop(self, signum, frame) -> None:
        watcher = self.watcher
        again = watcher.stop.is_set()
        watcher.stop.set()
        watcher.events.put(None)  # wake the loop (SimpleQueue.put is safe in a signal handler)
        if again and signum == signal.SIGINT:
            watcher.abandoning = True
            if watcher.in_extract:
                raise _Abandon()
        if not again:
            # setitimer(0) would disarm the timer, so a zero bound becomes one millisecond
            signal.setitimer(signal.ITIMER_REAL, max(watcher.settings.stop_timeout, 0.001))

    def _alarm(self, signum, frame) -> None:
        self.watcher.abandoning = True
        if self.watcher.in_extract:
            raise _Abandon()


__all__ = ["IGNORED_PATTERNS", "TEST_PAUSE_ENV", "WatchLock", "WatchPaths", "WatchSettings", "WatchSummary",
           "check_unlocked", "ignored_name", "result_name", "watch"]
