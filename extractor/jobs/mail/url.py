"""The mailbox ``extract mail`` reads: ``imaps://USER@HOST[:PORT]/FOLDER`` or ``imap://USER@HOST[:PORT]/FOLDER``.

``imaps`` is IMAP over TLS (port 993). ``imap`` (port 143) upgrades with STARTTLS whenever the server offers it;
without STARTTLS it talks in plain text to a loopback address only (a test server), never over a network.
A password in the URL is refused: it would end up in shell histories, process lists and logs
(``EXTRACT_MAIL_PASSWORD``, ``--mail-password-file`` or ``--oauth-token-command`` instead).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from extractor.errors import UsageError

PORTS = {"imaps": 993, "imap": 143}


@dataclass(frozen=True)
class MailURL:
    """A parsed mailbox URL.

    Attributes:
        scheme: ``imaps`` (TLS) or ``imap`` (STARTTLS, or plain text on loopback).
        user: the login name (percent-decoded: ``ap%40example.com`` is ``ap@example.com``).
        host: the server.
        port: the server's port.
        folder: the folder to read (default ``INBOX``).
    """

    scheme: str
    user: str
    host: str
    port: int
    folder: str = "INBOX"

    @property
    def tls(self) -> bool:
        """TLS from the first byte (``imaps``)."""
        return self.scheme == "imaps"

    @property
    def loopback(self) -> bool:
        """The server is this machine (``localhost``, ``127.0.0.0/8``, ``::1``)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    @property
    def mailbox(self) -> str:
        """The mailbox without its folder, as records and logs name it (never a password)."""
        default = PORTS[self.scheme] == self.port
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{self.user}@{host}{'' if default else f':{self.port}'}"

    def __str__(self) -> str:
        return f"{self.mailbox}/{self.folder}"


def parse_mail_url(text: str) -> MailURL:
    """Parse ``imaps://USER@HOST[:PORT]/FOLDER`` (or ``imap://``).

    Args:
        text: the URL.

    Returns:
        The MailURL.

    Raises:
        UsageError: another scheme, no user or host, a password in the URL, a bad port.
    """
    parts = urlsplit(text.strip())
    if parts.scheme not in PORTS:
        raise UsageError(f"mail URL {text!r}: expected imaps://USER@HOST[:PORT]/FOLDER (or imap:// for STARTTLS)")
    if parts.password is not None:
        raise UsageError(
            "mail URL: put no password in the URL; use EXTRACT_MAIL_PASSWORD, --mail-password-file or "
            "--oauth-token-command"
        )
    if not parts.username or not parts.hostname:
        raise UsageError(f"mail URL {text!r}: name the user and the host (imaps://USER@HOST/FOLDER)")
    try:
        port = parts.port or PORTS[parts.scheme]
    except ValueError as exc:
        raise UsageError(f"mail URL {text!r}: {exc}") from None
    if parts.query or parts.fragment:
        raise UsageError(f"mail URL {text!r}: no ?query or #fragment expected")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return MailURL(scheme=parts.scheme, user=unquote(parts.username), host=parts.hostname, port=port, folder=folder)


__all__ = ["PORTS", "MailURL", "parse_mail_url"]
