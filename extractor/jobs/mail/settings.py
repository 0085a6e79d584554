"""How ``extract mail`` behaves: every default of its own named once (the model's live in ``Settings``)."""

from __future__ import annotations

import email.utils
import fnmatch
from dataclasses import dataclass

from extractor.jobs.feeds import FeedSettings
from extractor.jobs.mail.parts import ZipLimits


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
        max_backoff: the longest wait between reconnects.
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
    error_retries: int = 2
    backoff: float = 5.0
    max_backoff: float = 300.0
    timeout: float = 60.0
    zips: ZipLimits = ZipLimits()
    feeds: FeedSettings = FeedSettings()

    def allowed(self, sender: str | None) -> bool:
        """Whether a From address matches ``allow_from`` (always, when it is empty)."""
        if not self.allow_from:
            return True
        address = email.utils.parseaddr(sender or "")[1].lower()
        return bool(address) and any(fnmatch.fnmatchcase(address, p.lower()) for p in self.allow_from)


__all__ = ["MailSettings"]
