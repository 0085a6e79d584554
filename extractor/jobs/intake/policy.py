"""Every intake's retry rules, as a pure policy: when a document's failure is tried again, after how long, and when a
document (or a mail) that keeps killing the process is given up.

* A record is *retryable* when it is an ``error`` whose first error's code is transient (``TRANSIENT_ERROR_CODES``:
  model error, time-out, crashed worker); anything else is final.
* A document is tried at most ``error_retries + 1`` times; retry ``n`` (1 for the first) waits
  ``min(backoff * 2 ** (n - 1), max_backoff)`` seconds (:meth:`RetryPolicy.delay`; a lost mail connection waits
  the same way).
* Crash allowance: a document (or a mail) *started* more than ``error_retries + 1 + CRASH_ALLOWANCE`` times without
  being finished is failed with code ``crashed`` (:meth:`RetryPolicy.given_up`): the process was killed while
  working on it that often, so it is probably what kills it.

Before the core, the watcher allowed 2 crashes and capped its back-off at a 600 s constant, ``extract mail`` allowed
3 (counted from the mail's first start, the same number of starts) and capped at its 300 s ``max_backoff``; the
rule kept is the documented one: ``error_retries + 3`` starts, ``max_backoff`` (``DEFAULT_MAX_BACKOFF``) for both.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractor.errors import UsageError
from extractor.jobs.feeds import FeedSettings
from extractor.record import Record
from extractor.settings import DEFAULT_BACKOFF, DEFAULT_ERROR_RETRIES, DEFAULT_MAX_BACKOFF, DEFAULT_STOP_TIMEOUT
from extractor.trust.verdict import ERROR, TRANSIENT_ERROR_CODES

CRASH_ALLOWANCE = 2  # starts beyond error_retries + 1 before a document that keeps killing the process is failed


def retryable(record: Record) -> bool:
    """Whether a record is a transient failure that another attempt may fix."""
    return record.status == ERROR and any(e.get("code") in TRANSIENT_ERROR_CODES for e in record.errors[:1])


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how late a document's transient failure is tried again (see the module docstring).

    Attributes:
        error_retries: retries of a transient failure before the document fails.
        backoff: seconds before the first retry; doubled for each further one.
        max_backoff: the longest wait between two retries.
    """

    error_retries: int = DEFAULT_ERROR_RETRIES
    backoff: float = DEFAULT_BACKOFF
    max_backoff: float = DEFAULT_MAX_BACKOFF

    def __post_init__(self) -> None:
        if self.error_retries < 0:
            raise UsageError(f"--error-retries must not be negative, got {self.error_retries}")
        if self.backoff < 0 or self.max_backoff < 0:
            raise UsageError("backoff and max backoff must not be negative")

    @property
    def attempts(self) -> int:
        """Attempts of one document at most."""
        return self.error_retries + 1

    def delay(self, retry: int) -> float:
        """Seconds before retry number ``retry`` (1 for the first)."""
        return min(self.backoff * 2 ** max(retry - 1, 0), self.max_backoff)

    def retry_after(self, record: Record, *, attempt: int) -> float | None:
        """After attempt number ``attempt`` (1 for the first) gave ``record``: the seconds to wait before the next
        attempt, or None when the record is final (not retryable, or the retries are spent)."""
        if not retryable(record) or attempt >= self.attempts:
            return None
        return self.delay(attempt)

    def given_up(self, starts: int) -> bool:
        """Whether a document (or mail) started ``starts`` times (this start included) is failed as ``crashed``."""
        return starts > self.attempts + CRASH_ALLOWANCE


@dataclass(frozen=True)
class IntakeSettings:
    """What every intake's settings share (``WatchSettings``, ``MailSettings`` add their own): how it waits, its
    retry rules and its stop, and where each record goes besides OUT; each default named once in ``settings.py``.

    Attributes:
        poll: look for new documents every this many seconds (None: the intake's own way of waiting: file-system
            events, IMAP IDLE).
        once: take what is there now, then return.
        error_retries: retries of a transient failure (model error, time-out, crashed worker), with back-off.
        backoff: seconds before the first retry (and a mailbox's first reconnect); doubled each time.
        max_backoff: the longest wait between two retries or reconnects (:class:`RetryPolicy`).
        stop_timeout: with signal handling, seconds a document may still run after SIGINT / SIGTERM before it is
            abandoned (the intake core's stop: :mod:`extractor.jobs.intake.stop`).
        feeds: where each new record goes besides OUT: the ``--jsonl`` log and the ``--hook`` command
            (:mod:`extractor.jobs.feeds`).
    """

    poll: float | None = None
    once: bool = False
    error_retries: int = DEFAULT_ERROR_RETRIES
    backoff: float = DEFAULT_BACKOFF
    max_backoff: float = DEFAULT_MAX_BACKOFF
    stop_timeout: float = DEFAULT_STOP_TIMEOUT
    feeds: FeedSettings = FeedSettings()

    def __post_init__(self) -> None:
        if self.stop_timeout < 0:
            raise UsageError(f"the stop timeout must not be negative, got {self.stop_timeout}")
        if self.poll is not None and self.poll <= 0:
            raise UsageError(f"--poll must be a positive number of seconds, got {self.poll}")
        _ = self.policy  # checks the retry settings: a bad one fails here, before a model loads

    @property
    def policy(self) -> RetryPolicy:
        """The retry rules these settings give (:class:`RetryPolicy`)."""
        return RetryPolicy(error_retries=self.error_retries, backoff=self.backoff, max_backoff=self.max_backoff)


__all__ = ["CRASH_ALLOWANCE", "IntakeSettings", "RetryPolicy", "retryable"]
