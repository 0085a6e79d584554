"""One document exactly once, on the documents ledger (:mod:`extractor.jobs.ledger`): the steps every intake runs.

Per document (a file of the watched folder, a mail's attachment, whatever a source hands over), in this order, each
step atomic:

1. ``see``: its content's sha256 and the name it came under go into the ledger; a content already ``done`` /
   ``failed`` is not extracted again (the source files the duplicate like the original);
2. ``claim``: state ``running``, attempts + 1, its record's path fixed (an earlier claim's path is kept); a
   document started more often than the policy allows is failed as ``crashed`` (:mod:`.policy`);
3. extract (``Documents.extract``), retrying a transient failure with back-off (:class:`~.policy.RetryPolicy`);
   an output whose file system is full or read-only (``sinks.OutputFull``) is waited for (the back-off's first
   delay, again and again) and written when there is space: nothing torn is left, nothing is committed before;
4. write its record atomically (:func:`~extractor.jobs.sinks.write_atomic`), its e-invoices beside it first; a file
   of several invoices: one record per part (:func:`~extractor.jobs.sinks.part_path`), all of them; then feed each
   (:mod:`extractor.jobs.feeds`: its ``--jsonl`` line once, its ``--hook`` at least once);
5. ``finish``: ``done``, or ``failed`` for an ``error`` outcome (:func:`outcome`), committed.

The source then acknowledges the input (moves the file, flags the mail): only after step 5, so a kill -9 between any
two steps loses nothing and doubles nothing: a restart re-queues ``running`` rows (:meth:`Documents.recover`)
and does the document again into the same record path (its ``--jsonl`` line is kept once), or only acknowledges a
document already finished.

The test pause (:mod:`extractor.jobs.pause`) holds the process at ``claimed``, ``extracting``, ``extracted``,
``written``, ``fed`` and ``committed`` (under the source's environment variable), where the kill tests stop it.
"""

from __future__ import annotations

import dataclasses
import glob
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from extractor.jobs.feeds import Feeds
from extractor.jobs.intake.policy import RetryPolicy, retryable
from extractor.jobs.intake.stop import Abandon, Stopping
from extractor.jobs.ledger import RUNNING, TERMINAL, Entry, Ledger
from extractor.jobs.pause import pause_at
from extractor.jobs.sinks import OutputFull, part_path, write_record_beside
from extractor.record import Record
from extractor.trust.verdict import ERROR, OK, error_record

STEPS = ("claimed", "extracting", "extracted", "written", "fed", "committed")
_T = TypeVar("_T")


def outcome(records: Sequence[Record]) -> Record:
    """The record that stands for a document of several records (a file of several invoices): its first ``error``,
    else its first record that is not ``ok``, else its first."""
    return next((r for r in records if r.status == ERROR), next((r for r in records if r.status != OK), records[0]))


def _same(record: Record) -> Record:
    return record


@dataclass(frozen=True)
class Taken:
    """What :meth:`Documents.take` did with one document.

    Attributes:
        entry: its ledger entry (for a duplicate: the content's, with the name it was first seen under).
        record: the outcome record written (None when the content was finished before: not extracted again).
        written: each record file written, with its record as written (several for a file of several invoices).
    """

    entry: Entry
    record: Record | None = None
    written: tuple[tuple[Path, Record], ...] = ()

    @property
    def failed(self) -> bool:
        """The document ended ``failed`` (now or before)."""
        return self.entry.state == "failed" if self.record is None else self.record.status == ERROR


class Documents:
    """The exactly-once steps of the module docstring, for one source's documents, on the calling thread (step 3 may
    run in a worker thread: ``extract_in_worker``)."""

    def __init__(
        self,
        *,
        ledger: Ledger,
        feeds: Feeds,
        extractor,
        policy: RetryPolicy,
        stopping: Stopping,
        pause_env: str,
        log: logging.Logger,
    ) -> None:
        """Args: ledger: the documents ledger; feeds: where records go besides their files; extractor: a loaded
        ``Extractor``; policy: the retry rules; stopping: the run's stop; pause_env: the source's test-pause
        variable; log: the source's logger."""
        self.ledger = ledger
        self.feeds = feeds
        self.extractor = extractor
        self.policy = policy
        self.stopping = stopping
        self.pause_env = pause_env
        self.log = log
        self.full_since: float | None = None  # when the output was first found full (or read-only), this spell

    def pause(self, step: str) -> None:
        """The test pause at ``step`` (nothing unless the source's variable names it)."""
        pause_at(self.pause_env, step)

    def recover(self) -> int:
        """On start: delete the temporary files a kill during step 4 left, and re-queue ``running`` rows.

        Returns:
            The rows re-queued.
        """
        for entry in self.ledger.entries(state=RUNNING):
            if entry.result_path:
                result = Path(entry.result_path)
                for temporary in result.parent.glob(f".{glob.escape(result.stem)}*.tmp"):
                    temporary.unlink(missing_ok=True)
        return self.ledger.recover()

    def claim(self, sha256: str, *, result: Path, source: str) -> tuple[Entry, Record | None]:
        """Step 2: claim a seen content; with it, the ``crashed`` record when it was started too often (the caller
        completes it instead of extracting)."""
        entry = self.ledger.claim(sha256, result_path=str(result))
        if not self.policy.given_up(entry.attempts):
            self.pause("claimed")
            return entry, None
        message = f"{source}: the process stopped {entry.attempts - 1} times while extracting this document; given up"
        return entry, error_record(source=source, code="crashed", sha256=sha256, message=message)

    def extract_in_worker(self, path: Path) -> tuple[Record, ...]:
        """Step 3 once (on any thread): the document's records; never raises for a bad document (an unexpected
        failure is an ``internal`` error record)."""
        self.pause("extracting")
        try:
            records = tuple(self.extractor.extract_parts(str(path)))
        except Exception as exc:  # noqa: BLE001 - one document's unexpected failure must not end the intake
            self.log.exception("%s: unexpected failure while extracting", path)
            return (error_record(source=str(path), code="internal", message=f"{path}: {type(exc).__name__}: {exc}"),)
        self.pause("extracted")  # the register (when kept) knows it; its record is not written yet
        return records

    def extract_once(self, path: Path) -> tuple[Record, ...] | None:
        """Step 3 once on the loop's thread, where a stop's time-out may abandon it; None when abandoned (or when a
        stop came just before: a document it would have to abandon is not begun)."""
        stopping = self.stopping
        try:
            stopping.in_extract = True
            try:
                return None if stopping.is_set() else self.extract_in_worker(path)
            finally:
                stopping.in_extract = False
        except Abandon:
            return None

    def extract(self, path: Path) -> tuple[Record, ...] | None:
        """Step 3 with the policy's retries, waiting its back-off in this process (a stop ends the wait); None when a
        stop abandoned it. A file of several invoices is retried whole when one of its parts is retryable."""
        attempt = 1
        while True:
            records = self.extract_once(path)
            if records is None:
                return None
            failing = next((r for r in records if retryable(r)), records[0])
            delay = self.policy.retry_after(failing, attempt=attempt)
            if delay is None:
                return records
            if self.stopping.is_set():
                return None
            error = failing.errors[0]
            self.log.warning(
                "%s: %s; retry %d of %d in %g s", path, error.get("code"), attempt, self.policy.error_retries, delay
            )
            if self.stopping.event.wait(delay):
                return None
            attempt += 1

    def complete(
        self, entry: Entry, records: Sequence[Record], *, prepare: Callable[[Record], Record] = _same
    ) -> Taken:
        """Steps 4-5 for a claimed document: write its records (each through ``prepare`` first, the content's
        sha256 filled where a record has none), feed them, commit the outcome.

        Raises:
            RuntimeError: the entry has no record path (a ledger bug, not a bad document).
            OutputFull: the output's file system is full or read-only: nothing is committed (the row stays
                ``running``: release it, or call again once there is space).
            OSError: a record could not be written otherwise (nothing is committed: a restart does it again).
        """
        if entry.result_path is None:  # claiming sets it
            raise RuntimeError(f"{entry.sha256}: the ledger entry has no result path")
        result = Path(entry.result_path)
        result.parent.mkdir(parents=True, exist_ok=True)
        written = []
        for record in records:  # step 4: e-invoices beside each record first; a retry rewrites them
            record = prepare(record if record.sha256 else dataclasses.replace(record, sha256=entry.sha256))
            path = part_path(result, record.extra["part"]) if len(records) > 1 else result
            written.append((path, write_record_beside(path, record)))
        self.pause("written")
        for path, record in written:  # before the commit: a kill from here on feeds it again (once, at least)
            self.feeds.send(path, record)
        self.pause("fed")
        final = outcome([record for _, record in written])
        error = final.errors[0] if final.status == ERROR and final.errors else {}
        self.ledger.finish(
            entry.sha256,
            state="failed" if final.status == ERROR else "done",
            status=final.status,
            error_code=error.get("code"),
            error=error.get("message"),
        )
        self.pause("committed")
        return Taken(entry=entry, record=final, written=tuple(written))

    def take(
        self,
        sha256: str,
        *,
        name: str,
        result: Path,
        source: Callable[[], Path],
        prepare: Callable[[Record], Record] = _same,
    ) -> Taken | None:
        """Steps 1-5 for one document, retries waited here: the whole core for a source that takes its documents one
        at a time.

        Args:
            sha256: the content's hash.
            name: the name it arrived under (a ledger source: the first name seen is the original).
            result: its record's path (kept from an earlier claim).
            source: gives the file to extract, once the content is known to be new (a mail saves its attachment).
            prepare: what the source adds to each record before it is written (a mail: its ``mail`` key).

        Returns:
            What was done, or None when a stop abandoned it (the row is ``queued`` again; acknowledge nothing).
        """
        entry = self.ledger.see(sha256, name=name)  # step 1
        if entry.state in TERMINAL:
            return Taken(entry=entry)
        path = self.when_written(source)
        if path is None:
            return None
        entry, crashed = self.claim(sha256, result=result, source=str(path))  # step 2
        records = (crashed,) if crashed is not None else self.extract(path)  # step 3
        taken = None if records is None else self.when_written(lambda: self.complete(entry, records, prepare=prepare))
        if taken is None:
            self.ledger.release(sha256)
        return taken

    def when_written(self, write: Callable[[], _T]) -> _T | None:
        """Call ``write`` until it does not meet a full (or read-only) output, waiting the policy's first back-off
        each time (the records stay in hand: not extracted again, no attempt counted); None when a stop came."""
        while True:
            try:
                written = write()
            except OutputFull as exc:
                delay = self.policy.delay(1)
                self.met_full(exc, then=f"waiting {delay:g} s for space, then writing it again")
                if self.stopping.event.wait(delay):
                    return None
                continue
            self.space_back()
            return written

    def met_full(self, exc: OutputFull, *, then: str) -> None:
        """A write met a full (or read-only) output: said in one warning per spell (``exc`` names the file and
        its folder, ``then`` what happens next); each later try of the same spell only at debug level."""
        if self.full_since is None:
            self.full_since = time.monotonic()
            self.log.warning("%s; %s (one line when there is space again)", exc, then)
        else:
            self.log.debug("%s; %s", exc, then)

    def space_back(self) -> None:
        """A write went through: a spell of a full output ends (said once)."""
        if self.full_since is not None:
            self.log.warning(
                "the output takes records again after %.1f s; catching up", time.monotonic() - self.full_since
            )
            self.full_since = None


__all__ = ["STEPS", "Documents", "Taken", "outcome"]
