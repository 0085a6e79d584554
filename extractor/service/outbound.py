"""The server's own outbound requests (webhooks to callbacks, URL sources), in one place: which addresses they may
reach (SSRF), the connection pinned to the address that was checked (DNS rebinding), and one deadline for the whole
request.

**Addresses.** A host must resolve only to public addresses unless the server allows it by name
(``--callback-allow``, ``--source-allow``). IPv6 forms that carry an IPv4 address are judged by the IPv4 address they
carry: IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible (``::a.b.c.d``), NAT64 (``64:ff9b::/96``) and 6to4
(``2002::/16``); a local-use NAT64 address (``64:ff9b:1::/48``) and Teredo (``2001::/32``) are refused whole. A
refusal names the rule it broke, never the address a name resolved to (that would map the inside for a caller).

**Deadline.** A request's socket is shut when its deadline passes, whatever it is waiting for (connecting, TLS,
the status line, a header, the body): a peer that trickles one header line every few seconds cannot stretch it.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from urllib.parse import urlsplit

from extractor.errors import UsageError

URL_LIMIT = 2048

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_TEREDO = ipaddress.ip_network("2001::/32")
_COMPATIBLE = ipaddress.ip_network("::/96")


def _kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """What makes an address not public ("" for a public one)."""
    checks = (
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("unspecified", ip.is_unspecified),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
        ("non-public", not ip.is_global),
    )
    return next((name for name, hit in checks if hit), "")


def refused_by(address: str) -> str:
    """The rule an address breaks, in words (``"a NAT64 address carrying a loopback IPv4 address"``), or "" for a
    public address a request may reach."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _NAT64_LOCAL:
            return "a local-use NAT64 address (64:ff9b:1::/48)"
        if ip in _TEREDO:
            return "a Teredo address (2001::/32)"
        carried = _carried(ip)
        if carried is not None:
            form, inner = carried
            kind = _kind(inner)
            return f"{form} address carrying a {kind} IPv4 address" if kind else ""
    kind = _kind(ip)
    return f"a {kind} address" if kind else ""


def _carried(ip: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 address an IPv6 form carries, with the form's name (None: it carries none)."""
    if ip.ipv4_mapped is not None:
        return "an IPv4-mapped (::ffff:0:0/96)", ip.ipv4_mapped
    if ip.sixtofour is not None:
        return "a 6to4 (2002::/16)", ip.sixtofour
    last = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64:
        return "a NAT64 (64:ff9b::/96)", last
    if ip in _COMPATIBLE and int(ip) > 1:  # ::a.b.c.d (not :: and ::1, which are judged as they are)
        return "an IPv4-compatible (::/96)", last
    return None


def public_address(url: str, *, allow: tuple[str, ...], field: str, option: str) -> str | None:
    """The address to connect to for ``url`` (the SSRF rules, shared by callbacks and URL sources): an http(s) URL
    without credentials whose host resolves only to public addresses; None for a host named in ``allow``.

    Args:
        field: the request's field the errors name (``callback_url``, ``url``).
        option: the option that allows a private host (``--callback-allow``, ``--source-allow``).

    Raises:
        UsageError: too long, not http(s), credentials, a host that does not resolve, or one that resolves to an
            address a rule refuses (:func:`refused_by`; the message names the rule, not the address) not in ``allow``.
    """
    if len(url) > URL_LIMIT:
        raise UsageError(f"{field}: longer than {URL_LIMIT} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{field}: expected an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise UsageError(f"{field}: credentials in the URL are not accepted")
    host = parts.hostname.lower()
    if host in allow:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = sorted({str(info[4][0]) for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)})
    except (OSError, ValueError) as exc:
        raise UsageError(f"{field}: {host} does not resolve ({type(exc).__name__})") from None
    rules = [rule for rule in map(refused_by, addresses) if rule]
    if rules:
        raise UsageError(
            f"{field}: {host} resolves to {rules[0]}, which requests may not reach; "
            f"the server allows it only with {option} {host}"
        )
    return addresses[0]


class Deadline:
    """The moment a whole request must have ended by (connect, TLS, headers and body together)."""

    def __init__(self, seconds: float) -> None:
        """A deadline ``seconds`` from now."""
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.at

    def left(self) -> float:
        """Seconds left.

        Raises:
            TimeoutError: none are.
        """
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"not done within {self.seconds:g} s")
        return left


def pinned_connection(url: str, *, address: str | None, deadline: Deadline) -> http.client.HTTPConnection:
    """An HTTP(S) connection for ``url`` that connects to ``address`` (the one checked; None: by the host's name),
    TLS verified for the URL's host name, its socket shut when ``deadline`` passes (``close`` it when done)."""
    parts = urlsplit(url)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    return kind(parts.hostname or "", parts.port, address=address, deadline=deadline)


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to the address that was checked, whatever the name resolves to by now (DNS rebinding),
    shut at its deadline."""

    def __init__(self, host: str, port: int | None, *, address: str | None, deadline: Deadline) -> None:
        super().__init__(host, port, timeout=deadline.left())
        self.address, self.deadline = address, deadline
        self._timer: threading.Timer | None = None

    def _dial(self) -> socket.socket:
        """Connect to the checked address (an allowed host: by its name) and arm the deadline on the socket."""
        sock = socket.create_connection((self.address or self.host, self.port), self.deadline.left())
        self.sock = sock
        self._timer = threading.Timer(self.deadline.left(), self._expire)
        self._timer.daemon = True
        self._timer.start()
        return sock

    def _expire(self) -> None:
        # shut the descriptor (not SSLSocket.shutdown, which drops its TLS state under a reading thread)
        if self.sock is not None:
            try:
                socket.socket.shutdown(self.sock, socket.SHUT_RDWR)
            except OSError:
                pass  # closed meanwhile

    def connect(self) -> None:
        """Connect to the checked address."""
        self._dial()

    def close(self) -> None:
        """Close the connection and disarm its deadline."""
        if self._timer is not None:
            self._timer.cancel()
        super().close()


class _PinnedHTTPS(_PinnedHTTP, http.client.HTTPSConnection):
    """As ``_PinnedHTTP``, with TLS verified for the URL's host name (SNI and certificate)."""

    def __init__(self, host: str, port: int | None, *, address: str | None, deadline: Deadline) -> None:
        http.client.HTTPSConnection.__init__(
            self, host, port, timeout=deadline.left(), context=ssl.create_default_context()
        )
        self.address, self.deadline = address, deadline
        self._timer = None

    def connect(self) -> None:
        """Connect to the checked address and start TLS for the host's name."""
        sock = self._dial()
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


__all__ = ["URL_LIMIT", "Deadline", "pinned_connection", "public_address", "refused_by"]
