"""The IMAP connection (IMAPClient): log in, select the folder, list the mails not yet dealt with, fetch a mail
whole or only some of its parts, flag or move it, and wait for new mail with IDLE (or by polling).

The password or token never reaches a log line: IMAPClient's own debug logging of commands is off, and our log
lines name the mailbox by :attr:`MailURL.mailbox` only.

Every IMAP or socket failure surfaces as :class:`ConnectionLost` (the loop reconnects with back-off); a refused
login as :class:`LoginRefused`.
"""

from __future__ import annotations

import imaplib
import logging
import select
import shlex
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from extractor.errors import ExtractorError, UsageError
from extractor.jobs.mail.parts import Leaf
from extractor.jobs.mail.url import MailURL

log = logging.getLogger("extractor.jobs.mail")

DONE_KEYWORD = "$Extracted"  # the mail's documents were extracted (default: it stays where it is)
FAILED_KEYWORD = "$ExtractFailed"  # a document of the mail failed
SKIPPED_KEYWORD = "$ExtractSkipped"  # nothing in the mail to extract (the ledger says why)
KEYWORDS = (DONE_KEYWORD, FAILED_KEYWORD, SKIPPED_KEYWORD)
IDLE_RENEW_S = 25 * 60  # RFC 2177: re-issue IDLE before the server's 30-minute inactivity time-out
TOKEN_TIMEOUT_S = 60.0


class ConnectionLost(Exception):
    """The connection failed or dropped (the loop reconnects)."""


class LoginRefused(ExtractorError):
    """The server refused the credentials (exit 1 at start; later, retried with back-off)."""

    code = "mail_login"


@dataclass(frozen=True)
class Credentials:
    """How to log in: a password, or an OAuth2 access token printed by a command (XOAUTH2).

    Attributes:
        password: the mailbox password (never printed: not in ``repr``).
        token_command: a command that prints a fresh access token (run at every connect).
    """

    password: str | None = field(default=None, repr=False)
    token_command: str | None = None

    def token(self) -> str:
        """Run ``token_command`` and return the token it prints.

        Raises:
            LoginRefused: the command fails, times out or prints nothing.
        """
        if not self.token_command:
            raise LoginRefused("no --oauth-token-command")
        try:
            done = subprocess.run(
                shlex.split(self.token_command), capture_output=True, text=True, timeout=TOKEN_TIMEOUT_S, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LoginRefused(f"--oauth-token-command failed: {exc}") from None
        token = done.stdout.strip()
        if done.returncode != 0 or not token:
            why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            raise LoginRefused(f"--oauth-token-command printed no token ({why})")
        return token


@dataclass(frozen=True)
class Head:
    """What is fetched first of a mail: enough to decide without its body.

    Attributes:
        uid: its UID.
        size: RFC822.SIZE in bytes.
        structure: the parsed BODYSTRUCTURE.
        header: its header bytes.
    """

    uid: int
    size: int
    structure: object
    header: bytes


class Mailbox:
    """One IMAP connection to the folder a mail URL names; its commands may come from two threads (the mail in
    hand's, and the reader's that fetches ahead), one command (or one IDLE) at a time."""

    def __init__(self, url: MailURL, credentials: Credentials, *, timeout: float = 60.0) -> None:
        """Args: url: the mailbox; credentials: how to log in; timeout: seconds a server may stay silent."""
        self.url = url
        self.credentials = credentials
        self.timeout = timeout
        self.client: Any = None  # an IMAPClient while connected
        self.uidvalidity = 0
        self.idle_supported = False
        self.fetched_bytes = 0  # bytes of mail fetched so far (the tests check a too-large part is not fetched)
        self._lock = threading.RLock()  # one command on the connection at a time

    # ------------------------------------------------------------------------------------------- the session

    def connect(self) -> None:
        """Connect, secure (TLS or STARTTLS), log in and select the folder.

        Raises:
            LoginRefused: the credentials were refused.
            UsageError: plain text to a host that is not loopback, or the folder does not exist.
            ConnectionLost: the server cannot be reached.
        """
        from imapclient import IMAPClient
        from imapclient.exceptions import LoginError

        context = ssl.create_default_context()
        try:
            client = IMAPClient(
                self.url.host, port=self.url.port, ssl=self.url.tls, ssl_context=context, timeout=self.timeout
            )
        except (OSError, imaplib.IMAP4.error) as exc:
            raise ConnectionLost(f"{self.url.mailbox}: cannot connect ({exc})") from None
        try:
            if not self.url.tls:
                if b"STARTTLS" in client.capabilities():
                    client.starttls(context)
                elif not self.url.loopback:
                    raise UsageError(
                        f"{self.url.mailbox}: the server offers no STARTTLS; plain text only to a loopback address "
                        "(use imaps://)"
                    )
            try:
                if self.credentials.token_command:
                    client.oauth2_login(self.url.user, self.credentials.token())
                else:
                    client.login(self.url.user, self.credentials.password or "")
            except LoginError as exc:
                raise LoginRefused(f"{self.url.mailbox}: login refused ({_reason(exc)})") from None
            if not client.folder_exists(self.url.folder):
                raise UsageError(f"{self.url}: no folder {self.url.folder!r} on the server")
            selected = client.select_folder(self.url.folder)
            self.uidvalidity = int(selected[b"UIDVALIDITY"])
            self.idle_supported = b"IDLE" in client.capabilities()
        except (OSError, imaplib.IMAP4.abort) as exc:
            _close_quietly(client)
            raise ConnectionLost(f"{self.url.mailbox}: {exc}") from None
        except BaseException:
            _close_quietly(client)
            raise
        self.client = client

    def close(self) -> None:
        """Log out (quietly: the connection may be gone already)."""
        with self._lock:
            client, self.client = self.client, None
        if client is not None:
            _close_quietly(client)

    def _call(self, what: str, function, *args, **kwargs):
        """Run one IMAP command; a failure of the connection or the command becomes ConnectionLost."""
        with self._lock:
            if self.client is None:
                raise ConnectionLost(f"{self.url.mailbox}: not connected")
            try:
                return function(*args, **kwargs)
            except (OSError, imaplib.IMAP4.error) as exc:
                raise ConnectionLost(f"{self.url.mailbox}: {what}: {_reason(exc)}") from None

    # ------------------------------------------------------------------------------------------- the mails

    def pending(self) -> list[int]:
        """The UIDs of the folder's mails that carry none of our keywords, oldest first."""
        criteria: list = []
        for keyword in KEYWORDS:
            criteria += ["NOT", "KEYWORD", keyword]
        return sorted(self._call("search", self.client.search, criteria))

    def heads(self, uids: list[int]) -> dict[int, Head]:
        """Some mails' sizes, structures and headers, in one command (a mail gone meanwhile is left out)."""
        if not uids:
            return {}
        items = ["RFC822.SIZE", "BODYSTRUCTURE", "BODY.PEEK[HEADER]"]
        answer = self._call("fetch", self.client.fetch, uids, items)
        heads = {}
        for uid, data in answer.items():
            if uid not in uids or b"BODY[HEADER]" not in data:
                continue
            header = data[b"BODY[HEADER]"] or b""
            self.fetched_bytes += len(header)
            heads[uid] = Head(uid=uid, size=int(data[b"RFC822.SIZE"]), structure=data[b"BODYSTRUCTURE"], header=header)
        return heads

    def wholes(self, uids: list[int]) -> dict[int, bytes]:
        """Some mails' bytes, in one command (only mails within the size limit; a mail gone is left out)."""
        if not uids:
            return {}
        answer = self._call("fetch", self.client.fetch, uids, ["BODY.PEEK[]"])
        bodies = {uid: data[b"BODY[]"] for uid, data in answer.items() if uid in uids and b"BODY[]" in data}
        self.fetched_bytes += sum(len(b) for b in bodies.values())
        return bodies

    def sections(self, uid: int, leaves: list[Leaf]) -> dict[str, bytes]:
        """Some leaves of a mail, each as its MIME header and body (``{section: bytes}``, ready for ``email``)."""
        if not leaves:
            return {}
        items = [f"BODY.PEEK[{s}]" for leaf in leaves for s in (leaf.mime, leaf.section)]
        data = self._call("fetch", self.client.fetch, [uid], items).get(uid) or {}
        out = {}
        for leaf in leaves:
            header = data.get(f"BODY[{leaf.mime}]".encode()) or b""
            body = data.get(f"BODY[{leaf.section}]".encode()) or b""
            self.fetched_bytes += len(header) + len(body)
            out[leaf.section] = header + body
        return out

    def file(self, uids: list[int], *, keyword: str, seen: bool, folder: str | None) -> None:
        """Flag mails with our keyword (and ``\\Seen``), then move them to ``folder`` when one is given (UIDs
        already gone are ignored by the server: filing twice is harmless)."""
        flags = [keyword, "\\Seen"] if seen else [keyword]
        self._call("store", self.client.add_flags, uids, flags)
        if not folder:
            return
        self.ensure_folder(folder)
        if self._has(b"MOVE"):
            self._call("move", self.client.move, uids, folder)
            return
        # RFC 6851 absent: copy, then delete and expunge only those UIDs (UIDPLUS), else the whole flagged set
        self._call("copy", self.client.copy, uids, folder)
        self._call("store", self.client.delete_messages, uids)
        if self._has(b"UIDPLUS"):
            self._call("expunge", self.client.uid_expunge, uids)
        else:
            self._call("expunge", self.client.expunge)

    def _has(self, capability: bytes) -> bool:
        return capability in self._call("capability", self.client.capabilities)

    def ensure_folder(self, folder: str) -> None:
        """Create a folder when it does not exist."""
        if not self._call("list", self.client.folder_exists, folder):
            self._call("create", self.client.create_folder, folder)
            log.info("created folder %s on %s", folder, self.url.mailbox)

    # ------------------------------------------------------------------------------------------- waiting

    def wait(self, seconds: float, *, stop: threading.Event, poll: float | None) -> None:
        """Wait until the server reports a change (IDLE), ``seconds`` pass, or ``stop`` is set.

        Args:
            seconds: the longest wait.
            stop: checked every quarter second.
            poll: without IDLE (or with ``--poll``), wait this long between checks instead.
        """
        if not self.idle_supported or poll:
            deadline = time.monotonic() + min(seconds, poll or seconds)
            while not stop.is_set() and time.monotonic() < deadline:
                time.sleep(0.25)
            self._call("noop", self.client.noop)  # notices a dropped connection
            return
        with self._lock:  # no other command while in IDLE (a fetch ahead still running finishes first)
            self._idle(seconds, stop=stop)

    def _idle(self, seconds: float, *, stop: threading.Event) -> None:
        client = self.client
        self._call("idle", client.idle)
        deadline = time.monotonic() + min(seconds, IDLE_RENEW_S)
        sock = client.socket()
        try:
            while not stop.is_set() and time.monotonic() < deadline:
                if not select.select([sock], [], [], 0.25)[0]:
                    continue
                responses = self._call("idle", client.idle_check, timeout=0)
                if not responses:  # readable, yet nothing to read: the server closed the connection
                    raise ConnectionLost(f"{self.url.mailbox}: the server closed the connection")
                if any(_news(r) for r in responses):
                    break
        finally:
            if self.client is client:
                self._call("idle done", client.idle_done)


def _news(response) -> bool:
    """An IDLE response that may mean new mail (EXISTS, RECENT) or a closing server (BYE)."""
    words = {w for w in response if isinstance(w, bytes)} if isinstance(response, tuple) else set()
    return bool(words & {b"EXISTS", b"RECENT", b"BYE"})


def _reason(exc: BaseException) -> str:
    text = exc.args[0] if exc.args else exc
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def _close_quietly(client) -> None:
    try:
        client.logout()
    except Exception:  # noqa: BLE001 - the connection may be gone; nothing to do about it
        try:
            client.shutdown()
        except Exception:  # noqa: BLE001
            pass


__all__ = [
    "DONE_KEYWORD",
    "FAILED_KEYWORD",
    "KEYWORDS",
    "SKIPPED_KEYWORD",
    "ConnectionLost",
    "Credentials",
    "Head",
    "LoginRefused",
    "Mailbox",
]
