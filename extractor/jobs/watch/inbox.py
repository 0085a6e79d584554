"""The watched inbox: its folders and lock, how it is watched, and which of its files are ready to be taken.

A file is taken when its name is not a temporary one (``IGNORED_PATTERNS``), it is a regular file (symlinks are
never followed), its size, mtime and inode have not changed for ``settle`` seconds, and it opens. Subfolders are
watched too; ``processed/``, ``failed/``, dot-folders and the output / ledger folders are never scanned.

New files are found by ``watchdog`` (inotify / FSEvents / ...) or, with ``poll``, by scanning every ``poll``
seconds; on start the watcher first catches up with what is already in the inbox (and it rescans every
``RESCAN_S`` seconds anyway, in case an event was lost). :class:`Inbox` keeps the candidates and their settle
timers; what happens to a taken file is :mod:`extractor.jobs.watch.steps`.

One watcher per inbox and per ledger: the intake core's lock (:class:`~extractor.jobs.intake.lock.IntakeLock`) on
``<ledger>.lock`` and on ``INBOX/.extractor-watch.lock`` (:func:`watch_lock`).
"""

from __future__ import annotations

import fnmatch
import logging
import os
import queue
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import UsageError
from extractor.jobs.intake.lock import LEDGER_DIR, LEDGER_NAME, IntakeLock
from extractor.jobs.intake.policy import IntakeSettings

log = logging.getLogger("extractor.jobs.watch")

IGNORED_PATTERNS = (
    "*.part",
    "*.partial",
    "*.crdownload",
    "*.download",
    "*.tmp",
    "~$*",
    ".*",
    "thumbs.db",
    "desktop.ini",
)
PROCESSED = "processed"
FAILED = "failed"
REGISTER_NAME = "register.sqlite"  # the default invoice register, beside the ledger (WatchPaths.register)
INBOX_LOCK = ".extractor-watch.lock"
RESCAN_S = 60.0  # full rescan interval when events are used (an inotify queue can overflow)
FALLBACK_POLL_S = 2.0  # scan interval when file-system events are unavailable

StatKey = tuple[int, int, int]  # (size, mtime_ns, inode): a file that keeps it for ``settle`` seconds is settled


@dataclass(frozen=True)
class WatchSettings(IntakeSettings):
    """How the watcher behaves (the model's own settings live in the Extractor): every intake's settings
    (:class:`~extractor.jobs.intake.policy.IntakeSettings`: ``poll`` scans the inbox instead of using file-system
    events, for network shares; ``error_retries`` are the document's, a failed *answer*'s are the extractor's
    ``Settings.retries``) and the watcher's own; each default is named here only.

    Attributes:
        settle: seconds a file's size, mtime and inode must stay unchanged before it is taken.
        keep_inputs: leave inputs in the inbox (the ledger alone prevents a second extraction).
    """

    settle: float = 2.0
    keep_inputs: bool = False

    def __post_init__(self) -> None:
        if self.settle < 0:
            raise UsageError(f"the settle time must not be negative, got {self.settle}")
        super().__post_init__()


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
    def resolve(cls, inbox: str | Path, out: str | Path, ledger: str | Path | None = None) -> WatchPaths:
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
        return cls(
            inbox=inbox_path,
            out=out_path,
            ledger=ledger_path,
            processed=inbox_path / PROCESSED,
            failed=inbox_path / FAILED,
        )

    @property
    def lock(self) -> Path:
        """The lock file next to the ledger."""
        return self.ledger.with_name(self.ledger.name + ".lock")

    @property
    def register(self) -> Path:
        """The watcher's default invoice register (``extract watch``): ``register.sqlite`` beside the ledger, in its
        state folder (``OUT/.extractor/`` by default)."""
        return self.ledger.with_name(REGISTER_NAME)


def watch_lock(paths: WatchPaths) -> IntakeLock:
    """The watcher's lock: the ledger's and the inbox's (one process per ledger, one watcher per inbox)."""
    return IntakeLock(paths.ledger, optional=[(paths.inbox / INBOX_LOCK, f"the inbox {paths.inbox}")])


def check_unlocked(paths: WatchPaths) -> None:
    """Fail fast, before a model is loaded, when another watcher holds the inbox or the ledger.

    Args:
        paths: the watcher's paths.

    Raises:
        UsageError: (code ``locked``) another watcher is running.
    """
    with watch_lock(paths):
        pass


def ignored_name(name: str) -> bool:
    """Return True for names the watcher never takes (temporary, partial, hidden and system files).

    Args:
        name: a file name (no folder).

    Returns:
        Whether the name matches ``IGNORED_PATTERNS`` (case-insensitive).
    """
    lower = name.lower()
    return any(fnmatch.fnmatchcase(lower, pattern) for pattern in IGNORED_PATTERNS)


def stat_key(info: os.stat_result) -> StatKey:
    """Return the (size, mtime_ns, inode) that must stay unchanged while a file settles and is processed."""
    return info.st_size, info.st_mtime_ns, info.st_ino


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


@dataclass
class Candidate:
    """A file waiting in the inbox: its last (size, mtime, inode) and since when it has not changed.

    Attributes:
        key: the file's last stat key.
        since: ``time.monotonic()`` when the key last changed (the settle timer's start).
        not_before: not taken before this ``time.monotonic()`` (a retry's back-off, a copy in flight).
    """

    key: StatKey
    since: float
    not_before: float = 0.0

    def resettle(self, key: StatKey | None = None) -> None:
        """Start the settle timer again (with the file's new key, when it changed)."""
        if key is not None:
            self.key = key
        self.since = time.monotonic()

    def defer(self, seconds: float) -> None:
        """Do not take the file for another ``seconds``."""
        self.not_before = time.monotonic() + seconds


class Inbox:
    """The inbox's candidates: found by events and scans, settled by time, handed out oldest first.

    The file-system observer's thread only puts paths on ``events``; everything else runs on the watcher's thread.
    """

    def __init__(self, *, paths: WatchPaths, settle: float) -> None:
        """Args: paths: the watcher's paths; settle: seconds a file must stay unchanged before it is taken."""
        self.paths = paths
        self.settle = settle
        self.events: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.pending: dict[str, Candidate] = {}
        self.handled: dict[str, StatKey] = {}  # keep_inputs: files already dealt with
        self.noted: set[str] = set()  # names already logged as skipped (log once)
        self.dropped = 0  # --once: files given up because they do not open
        excluded = [paths.processed, paths.failed, paths.out, paths.ledger.parent]
        self.excluded = tuple(p for p in excluded if _inside(p, paths.inbox))

    @property
    def left(self) -> int:
        """Files still waiting (or given up) now: the summary's ``left``."""
        return len(self.pending) + self.dropped

    # ------------------------------------------------------------------------------------------ what it hears

    def start_observer(self):
        """Start a watchdog observer feeding ``events``; None (poll instead) when it cannot start."""
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

    def wake(self) -> None:
        """Wake a ``wait`` (from any thread; ``SimpleQueue.put`` is safe in a signal handler)."""
        self.events.put(None)

    def wait(self, seconds: float) -> None:
        """Sleep until an event arrives or ``seconds`` pass (short slices, so a stop is seen quickly)."""
        try:
            item = self.events.get(timeout=min(max(seconds, 0.01), 0.25))
        except queue.Empty:
            return
        if item is not None:
            self.consider(item)

    def drain(self) -> None:
        """Consider every path the observer has reported so far."""
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self.consider(item)

    # ------------------------------------------------------------------------------------------- discovery

    def _relative(self, path: Path) -> str | None:
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

    def scan(self, folder: Path | None = None) -> None:
        """Walk a folder (default: the inbox; no symlinks followed) and consider every file in it."""
        folder = folder or self.paths.inbox
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            if folder == self.paths.inbox:
                log.warning("cannot read the inbox %s: %s", folder, exc)
            return
        for entry in sorted(entries, key=lambda e: e.name):
            self.consider(entry.path)

    def consider(self, raw: str) -> None:
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
            self.note(name, "is a symbolic link: never followed")
            return
        if stat.S_ISDIR(info.st_mode):
            self.scan(path)
            return
        if not stat.S_ISREG(info.st_mode) or ignored_name(path.name):
            return
        key = stat_key(info)
        if self.handled.get(name) == key:
            return
        seen = self.pending.get(name)
        if seen is None:
            self.pending[name] = Candidate(key=key, since=time.monotonic())
        elif seen.key != key:
            seen.resettle(key)

    def note(self, name: str, why: str) -> None:
        """Log once why a file is skipped."""
        if name not in self.noted:
            self.noted.add(name)
            log.info("skipping %s: %s", name, why)

    # -------------------------------------------------------------------------------------- handing files out

    def next_due(self, *, busy: set[str]) -> float:
        """The ``time.monotonic()`` when the next candidate (not among ``busy``) may be settled."""
        now = time.monotonic()
        due = [max(p.since + self.settle, p.not_before) for n, p in self.pending.items() if n not in busy]
        return min(due, default=now + 1.0)

    def settled(self, *, busy: set[str], until: Callable[[], bool]) -> Iterator[tuple[str, Candidate]]:
        """Yield every settled file, oldest first, as (inbox-relative name, candidate); stop once ``until()``.

        Args:
            busy: names being extracted now (skipped).
            until: asked before each file; True ends the round (a stop, or enough documents in flight).
        """
        for name in sorted(self.pending, key=lambda n: (self.pending[n].since, n)):
            if until():
                return
            if name in busy:
                continue
            self.drain()  # a file touched meanwhile restarts its settle timer
            seen = self.pending.get(name)
            if seen is None:
                continue
            now = time.monotonic()
            if now < seen.since + self.settle or now < seen.not_before:
                continue
            try:
                info = (self.paths.inbox / name).lstat()
            except OSError:
                self.pending.pop(name, None)
                continue
            if stat_key(info) != seen.key or not stat.S_ISREG(info.st_mode):
                seen.key, seen.since = stat_key(info), now
                continue
            yield name, seen

    def forget(self, name: str) -> None:
        """The file is gone or dealt with: no longer a candidate."""
        self.pending.pop(name, None)

    def keep(self, name: str, key: StatKey) -> None:
        """``keep_inputs``: the file stays, dealt with; taken again only once its content changes."""
        self.pending.pop(name, None)
        self.handled[name] = key

    def give_up(self, name: str) -> None:
        """``once``: drop a file that does not open (it counts as left)."""
        self.pending.pop(name, None)
        self.dropped += 1


__all__ = [
    "IGNORED_PATTERNS",
    "LEDGER_DIR",
    "LEDGER_NAME",
    "Candidate",
    "Inbox",
    "WatchPaths",
    "WatchSettings",
    "check_unlocked",
    "watch_lock",
    "ignored_name",
    "stat_key",
]
