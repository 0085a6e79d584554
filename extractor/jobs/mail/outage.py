"""A mail server that is gone for a while (a restart, a network drop, an upgrade lasting minutes): ``extract mail``
reconnects with the intake policy's capped back-off (:meth:`~extractor.jobs.intake.policy.RetryPolicy.delay`, at most
``max_backoff`` seconds apart) and says so ONCE: one log line when the outage begins, one when the server is back
(never one per attempt), and the mail ledger keeps it (``mail_outages``: since when, the last error, the attempts),
so ``extract status`` shows an outage going on, or the last one, even from another process.

A process started during an outage goes on with the ledger's (its ``since`` is kept): the outage is the server's,
not the process's.
"""

from __future__ import annotations

import logging

from extractor.jobs.ledger import parse_timestamp, timestamp
from extractor.jobs.mail.ledger import MailLedger


class MailOutage:
    """One mailbox's outages, logged once each and kept in the mail ledger (the reading loop's thread owns it)."""

    def __init__(self, mails: MailLedger, *, mailbox: str, log: logging.Logger) -> None:
        """Args: mails: the mail ledger; mailbox: the mailbox as logs name it (``MailURL.mailbox``); log: where
        the two lines go."""
        self.mails, self.mailbox, self.log = mails, mailbox, log
        last = next((o for o in mails.outages() if o["mailbox"] == mailbox), None)
        self.since = last["since"] if last is not None and last["back_at"] is None else None
        self.attempts = last["attempts"] if self.since is not None and last is not None else 0

    @property
    def on(self) -> bool:
        """Whether an outage goes on."""
        return self.since is not None

    def failed(self, error: str, *, retry_in: float) -> None:
        """A connection failed with ``error``; the next attempt in ``retry_in`` seconds. Logged only when this
        begins an outage."""
        self.mails.outage_failed(self.mailbox, error=error)
        self.attempts += 1
        if self.since is not None:
            self.log.debug("%s; reconnecting in %g s (attempt %d)", error, retry_in, self.attempts)
            return
        self.since = timestamp()
        self.log.warning(
            "%s: the mail server is unreachable (%s); reconnecting with back-off, first in %g s "
            "(one line when it is back)",
            self.mailbox,
            error,
            retry_in,
        )

    def back(self) -> None:
        """Connected: an outage going on ends (logged once, with how long it lasted and the attempts)."""
        if self.since is None:
            return
        self.mails.outage_ended(self.mailbox)
        lasted = max(0.0, parse_timestamp(timestamp()) - parse_timestamp(self.since))
        self.log.warning(
            "%s: the mail server is back after %.1f s (%d failed attempts); catching up",
            self.mailbox,
            lasted,
            self.attempts,
        )
        self.since, self.attempts = None, 0


__all__ = ["MailOutage"]
