"""How ``extract mail`` behaves: every default of its own named once (the model's live in ``Settings``)."""

from __future__ import annotations

import email.utils
import fnmatch
from dataclasses import dataclass

from extractor.jobs.feeds import FeedSettings
from extractor.jobs.intake.policy import RetryPolicy
from extractor.jobs.mail.parts import ZipLimits
from extractor.settings import DEFAULT_BACKOFF, DEFAULT_ERROR_RETRIES, DEFAULT_MAX_BACKOFF, DEFAULT_STOP_TIMEOUT


@dataclass(frozen=True)
class MailSettings:
    """How ``extract mail`` behaves (the model's own settings live in the Extractor); each default named here.

    Attributes:
        done_folder: move a mail whose documents were extracted here (default: flag it ``\\Seen`` and
            ``$Extracted``, leave it in place).
        failed_folder: move a mail with a failed document here (default: flag it ``$ExtractFailed``).
        allow_from: sender patterns (``*@supplier.com``, ``billing@*``); empty: every sender.
        poll: check the folder every this many seconds instead of IDLE (servers without IDLE use 60).
        once: read what is in the folder now, then return.
        error_retries: retries of a transient failure (model error, time-out) of a document, with back-off.
        backoff: seconds before the first retry and the first reconnect; doubled each time.
        max_backoff: the longest wait between two retries or reconnects (every intake's rule:
            :mod:`extractor.jobs.intake.policy`).
        stop_timeout: with signal handling, seconds a document may still run after SIGINT / SIGTERM before it is
            abandoned (the intake core's stop: :mod:`extractor.jobs.intake.stop`).
        timeout: seconds the server may stay silent.
        zips: the limits of ZIP attachments.
        feeds: where each new record goes besides OUT: the ``--jsonl`` log and the ``--hook`` command
            (:mod:`extractor.jobs.feeds`).
    """

    done_folder: str | None = None
    failed_folder: str | None = None
    allow_from: tuple[str, ...] = ()
    poll: float | None = None
    once: bool = False
    error_retries: int = DEFAULT_ERROR_RETRIES
    backoff: float = DEFAULT_BACKOFF
    max_backoff: float = DEFAULT_MAX_BACKOFF
    stop_timeout: float = DEFAULT_STOP_TIMEOUT
    timeout: float = 60.0
    zips: ZipLimits = ZipLimits()
    feeds: FeedSettings = FeedSettings()

    @property
    def policy(self) -> RetryPolicy:
        """The retry rules these settings give (the core's :class:`~extractor.jobs.intake.policy.RetryPolicy`)."""
        return RetryPolicy(error_retries=self.error_retries, backoff=self.backoff, max_backoff=self.max_backoff)

    def allowed(self, sender: str | None) -> bool:
        """Whether a From address matches ``allow_from`` (always, when it is empty)."""
        if not self.allow_from:
            return True
        address = email.utils.parseaddr(sender or "")[1].lower()
        return bool(address) and any(fnmatch.fnmatchcase(address, p.lower()) for p in self.allow_from)


__all__ = ["MailSettings"]
