"""Requests a web page of someone else's cannot make: the Host check against DNS rebinding, and the rule for requests
that change something. ``extract serve`` without keys and ``extract review`` use them.

A page the user visits can make the browser send requests to a server on this machine, in two ways:

* **DNS rebinding**: the attacker's name (``rebind.attacker.example``) resolves to 127.0.0.1 once the page has
  loaded, so the page reads our answers as its own origin's. The browser still sends the attacker's name in
  ``Host``: a request whose ``Host`` is not the name or address the server was bound to (``Hosts``) is refused,
  reads included.
* **Cross-site requests**: a form or ``fetch`` with ``Content-Type: text/plain`` or ``multipart/form-data`` is
  sent without asking first (no CORS preflight), its answer unread but its effect done. A browser always says
  where such a request comes from (``Origin``; ``Sec-Fetch-Site``), and cannot send ``application/json`` or a
  header of its own to another origin without a preflight that our servers never grant.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass

from extractor.service.config import is_loopback

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # requests that change nothing
WILDCARDS = frozenset({"", "0.0.0.0", "::"})  # binds that listen on every address of the machine
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
JSON = "application/json"


@dataclass(frozen=True)
class Hosts:
    """The names a request's ``Host`` may carry (lower case, without the port).

    Attributes:
        names: the bound name and address (a loopback bind: ``localhost`` and the loopback addresses too, which
            no other site's page can be sent to).
        any_address: a wildcard bind (``0.0.0.0``, ``::``): any IP address literal, and this machine's own names.
    """

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def bound(cls, host: str) -> Hosts:
        """The names of a server bound to ``host`` (``--host``)."""
        host = host.strip("[]").lower()
        if host in WILDCARDS:
            own = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
            return cls(names=frozenset(own), any_address=True)
        return cls(names=frozenset({host} | (LOOPBACK_NAMES if is_loopback(host) else set())))

    def allows(self, header: str | None) -> bool:
        """Whether a ``Host`` header names this server (no header: refused; browsers always send one)."""
        name = host_name(header)
        if name is None:
            return False
        return name in self.names or (self.any_address and _address(name))


def host_name(header: str | None) -> str | None:
    """The name of a ``Host`` header without its port, lower case (``[::1]:8000`` -> ``::1``); None when absent."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):  # an IPv6 literal: [addr]:port
        end = header.find("]")
        return header[1:end] if end > 0 else None
    return header.rpartition(":")[0] if ":" in header else header


def same_origin(headers: Mapping[str, str], *, scheme: str) -> bool:
    """Whether the request's ``Origin`` is the server's own: the scheme it was reached by and its ``Host``."""
    origin, host = headers.get("origin"), headers.get("host")
    if not origin or not host:
        return False
    return secrets.compare_digest(origin.lower(), f"{scheme}://{host}".lower())


def from_other_site(headers: Mapping[str, str], *, scheme: str) -> bool:
    """Whether a browser sent this request from another origin's page: an ``Origin`` other than ours (``null``
    included), or ``Sec-Fetch-Site`` saying so. A request without either is no browser's (a browser sends
    ``Origin`` with every request that is neither GET nor HEAD)."""
    if "origin" in headers and not same_origin(headers, scheme=scheme):
        return True
    return headers.get("sec-fetch-site", "same-origin").lower() not in ("same-origin", "none")


def is_json(headers: Mapping[str, str]) -> bool:
    """Whether the body is declared ``application/json`` (which no page may send to another origin unasked)."""
    return headers.get("content-type", "").split(";")[0].strip().lower() == JSON


def _address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


__all__ = ["SAFE_METHODS", "Hosts", "from_other_site", "host_name", "is_json", "same_origin"]
