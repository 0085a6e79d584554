"""How ``extract mail`` behaves: every default of its own named once (the model's live in ``Settings``)."""

from __future__ import annotations

import email.utils
import fnmatch
from dataclasses import dataclass

from extractor.jobs.intake.policy import IntakeSettings
from extractor.jobs.mail.parts import ZipLimits


@dataclass(frozen=True)
class MailSettings(IntakeSettings):
    """How ``extract mail`` behaves (the model's own settings live in the Extractor): every intake's settings
    (:class:`~extractor.jobs.intake.policy.IntakeSettings`: ``poll`` checks the folder instead of IDLE, servers
    without IDLE use 60; ``backoff`` and ``max_backoff`` time reconnects too) and the mailbox's own; each default
    named here.

    Attributes:
        done_folder: move a mail whose documents were extracted here (default: flag it ``\\Seen`` and
            ``$Extracted``, leave it in place).
        failed_folder: move a mail with a failed document here (default: flag it ``$ExtractFailed``).
        allow_from: sender patterns (``*@supplier.com``, ``billing@*``); empty: every sender.
        timeout: seconds the server may stay silent.
        zips: the limits of ZIP attachments.
    """

    done_folder: str | None = None
    failed_folder: str | None = None
    allow_from: tuple[str, ...] = ()
    timeout: float = 60.0
    zips: ZipLimits = ZipLimits()

    def allowed(self, sender: str | None) -> bool:
        """Whether a From address matches ``allow_from`` (always, when it is empty)."""
        if not self.allow_from:
            return True
        address = email.utils.parseaddr(sender or "")[1].lower()
        return bool(address) and any(fnmatch.fnmatchcase(address, p.lower()) for p in self.allow_from)


__all__ = ["MailSettings"]
