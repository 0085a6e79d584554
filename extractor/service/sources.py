"""A document by URL (``POST /v1/jobs`` with ``{"url": ...}``), fetched by the worker under the callbacks' SSRF
rules: public addresses only unless the host is named by ``--source-allow``, checked when the job is submitted and
again when it is fetched, the connection made to the very address checked (DNS rebinding), each redirect checked as
the first URL was, ``--max-bytes`` counted as the body streams, and one time limit for the whole fetch.

A fetch that fails is the job's error record (``fetch_error``: ``unreachable``, ``too_large`` or ``timeout``), naming
the URL without its query, never a failed job.
"""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from extractor.errors import UsageError
from extractor.service.outbound import Deadline, pinned_connection, public_address
from extractor.service.webhooks import shown_url

DEFAULT_SOURCE_TIMEOUT = 60.0  # seconds a whole fetch (redirects and body) may take
MAX_REDIRECTS = 5
CHUNK = 64 * 1024
REDIRECTS = (301, 302, 303, 307, 308)


@dataclass(frozen=True)
class SourceSettings:
    """How URL sources are fetched.

    Attributes:
        allow: hosts a URL may name although they resolve to private, loopback or link-local addresses.
        timeout: seconds the whole fetch may take (connecting, redirects, the body).
        redirects: redirects followed at most (each checked as the first URL).
    """

    allow: tuple[str, ...] = ()
    timeout: float = DEFAULT_SOURCE_TIMEOUT
    redirects: int = MAX_REDIRECTS


class FetchError(Exception):
    """A URL source that could not be fetched.

    Attributes:
        code: the record's error code: ``unreachable``, ``too_large`` or ``timeout``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_source(url: str, *, settings: SourceSettings) -> str:
    """Check a submitted URL source before its job is stored.

    Returns:
        The URL as given.

    Raises:
        UsageError: not http(s), credentials in it, a host that does not resolve, or one aimed inside (a private,
            loopback or link-local address) not allowed by ``--source-allow``.
    """
    public_address(url, allow=settings.allow, field="url", option="--source-allow")
    return url


def fetch(url: str, *, settings: SourceSettings, max_bytes: int) -> bytes:
    """The document at ``url``: each hop checked and pinned, the body at most ``max_bytes``, all within the time
    limit.

    Raises:
        FetchError: refused (an address inside), an answer other than 200, too many redirects, over ``max_bytes``,
            past the time limit, or the connection failed; its message names the URL without its query.
    """
    deadline = Deadline(settings.timeout)  # one for every hop: connect, headers and body together
    shown = shown_url(url)
    for _ in range(settings.redirects + 1):
        try:
            address = public_address(url, allow=settings.allow, field="url", option="--source-allow")
        except UsageError as exc:
            raise FetchError("unreachable", f"{shown}: refused ({exc})") from None
        try:
            located = _get(url, address=address, deadline=deadline, max_bytes=max_bytes)
        except TimeoutError:
            raise FetchError("timeout", f"{shown}: not fetched within {settings.timeout:g} s") from None
        except (OSError, http.client.HTTPException) as exc:
            if deadline.passed:  # the deadline shut the socket under a read
                raise FetchError("timeout", f"{shown}: not fetched within {settings.timeout:g} s") from None
            raise FetchError("unreachable", f"{shown}: {type(exc).__name__}: {exc}") from None
        if isinstance(located, bytes):
            return located
        url = urljoin(url, located)  # a redirect: checked as the first URL at the top of the loop
    raise FetchError("unreachable", f"{shown}: more than {settings.redirects} redirects")


def _get(url: str, *, address: str | None, deadline: Deadline, max_bytes: int) -> bytes | str:
    """One GET: the body, or a redirect's ``Location``.

    Raises:
        TimeoutError: past the deadline. FetchError: an answer other than 200 or a redirect, or too large.
    """
    parts = urlsplit(url)
    connection = pinned_connection(url, address=address, deadline=deadline)
    try:
        connection.request("GET", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        response = connection.getresponse()
        if deadline.passed:  # the headers "ended" because the deadline shut the socket
            raise TimeoutError
        location = response.getheader("Location")
        if response.status in REDIRECTS and location:
            return location
        if response.status != 200:
            raise FetchError("unreachable", f"{shown_url(url)}: HTTP {response.status} {response.reason}")
        declared = response.getheader("Content-Length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise FetchError("too_large", f"{shown_url(url)}: {declared} bytes, over --max-bytes ({max_bytes})")
        body = bytearray()
        while chunk := response.read1(CHUNK):
            body += chunk
            if len(body) > max_bytes:
                raise FetchError("too_large", f"{shown_url(url)}: over --max-bytes ({max_bytes}) as it streamed")
        if deadline.passed:  # the end came from the deadline shutting the socket, not from the body's end
            raise TimeoutError
        return bytes(body)
    finally:
        connection.close()


__all__ = ["DEFAULT_SOURCE_TIMEOUT", "FetchError", "SourceSettings", "check_source", "fetch"]
