"""Several inference servers behind one runner: each request goes to the least busy endpoint that is up, and a
request that fails there is tried on another one after a back-off.

An attempt that fails in a way another server (or a later try) can fix raises :class:`EndpointFailure`: connection
refused, a time-out, a stream cut off, HTTP 5xx, HTTP 429. The endpoint is then *down* for a while
(:data:`DOWN_S`, doubled for each failure in a row, at most :data:`MAX_DOWN_S`; a 429's ``Retry-After`` instead),
and the request is retried after :data:`BACKOFF_S` (doubled per retry, at most :data:`MAX_BACKOFF_S`) on the least
busy endpoint that is up, or, when every endpoint is down, on the one that comes back first (waiting for a 429's
``Retry-After``, not for a failure's down time: a dead server is simply tried again after the back-off). After
``attempts`` failures the request fails with a :class:`~extractor.errors.ModelError` listing what each endpoint
said. Anything else an attempt raises (a bad request, a refused API key) is not retried.

Pure Python, no HTTP here: ``runners.openai.runner`` makes the requests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from extractor.errors import ModelError, UsageError

DOWN_S = 5.0  # an endpoint that failed is avoided this long, doubled per failure in a row
MAX_DOWN_S = 120.0
BACKOFF_S = 0.25  # wait before the first retry, doubled per retry
MAX_BACKOFF_S = 8.0
MAX_RETRY_AFTER_S = 120.0  # a longer Retry-After is cut to this
MIN_ATTEMPTS = 3

T = TypeVar("T")


class EndpointFailure(Exception):
    """One attempt failed in a way that another endpoint, or a later try, may not (retried by the pool).

    Attributes:
        reason: what happened, in words (``connection refused``, ``HTTP 503: ...``).
        retry_after: seconds the server asked us to wait (HTTP 429 ``Retry-After``), or None.
    """

    def __init__(self, reason: str, *, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass
class Endpoint:
    """One server and what the pool knows about it (guarded by the pool's lock).

    Attributes:
        url: the URL as the user gave it (messages and records name it).
        base: the API base the requests go to (``.../v1``).
        index: its position in the list (ties go to the earlier one).
        in_flight: requests running there now.
        requests: requests sent there in total (a retry counts again).
        failures: failures in a row (reset by a success).
        down_until: monotonic time before which it is avoided.
        last_error: the last failure's reason.
        held: the down time is the server's own Retry-After (not a failure's back-off).
        info: what ``runners.openai.choose.fetch_server_info`` found out about the server (kind, served model),
            once known.
    """

    url: str
    base: str
    index: int
    in_flight: int = 0
    requests: int = 0
    failures: int = 0
    down_until: float = 0.0
    last_error: str | None = None
    held: bool = False
    info: object | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)  # one discovery at a time


def api_base(url: str) -> str:
    """The API base of an endpoint URL: ``http://host:8000`` and ``http://host:8000/`` become
    ``http://host:8000/v1``; a URL with a path (``.../v1``, a proxy's ``/llm/v1``) is kept as given.

    Args:
        url: the URL as the user wrote it.

    Returns:
        The base, without a trailing slash.
    """
    base = url.rstrip("/")
    scheme, _, rest = base.partition("://")
    if "/" not in rest:
        base += "/v1"
    return base


class EndpointPool:
    """The endpoints of one runner: which one a request goes to, and retries on another after a failure.

    Thread-safe: any number of threads may call :meth:`run` at once.

    Attributes:
        endpoints: the endpoints, in the order given.
        attempts: tries per request before it fails.
        peak_in_flight: the most requests that were running at once (over all endpoints).
    """

    def __init__(
        self,
        urls: Sequence[str],
        *,
        attempts: int | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Set up the pool.

        Args:
            urls: endpoint URLs (at least one; duplicates are dropped).
            attempts: tries per request (default: twice the endpoints, at least :data:`MIN_ATTEMPTS`).
            sleep: waits between tries (tests pass their own).
            clock: monotonic seconds (tests pass their own).

        Raises:
            UsageError: no endpoint.
        """
        unique = list(dict.fromkeys(urls))
        if not unique:
            raise UsageError("no endpoint given")
        self.endpoints = tuple(Endpoint(url=u, base=api_base(u), index=i) for i, u in enumerate(unique))
        self.attempts = attempts or max(MIN_ATTEMPTS, 2 * len(unique))
        self.peak_in_flight = 0
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()

    def run(self, attempt: Callable[[Endpoint], T]) -> T:
        """Run ``attempt`` on the best endpoint, again on another after each :class:`EndpointFailure`.

        Args:
            attempt: makes the request on the endpoint it is given; raises EndpointFailure for what a retry may
                fix. Anything else it raises goes to the caller at once.

        Returns:
            What the first successful attempt returned.

        Raises:
            ModelError: every try failed (the message lists each endpoint's last reason).
        """
        failures: list[str] = []
        for number in range(1, self.attempts + 1):
            endpoint = self._acquire()
            try:
                result = attempt(endpoint)
            except EndpointFailure as exc:
                self._release(endpoint, failure=exc)
                failures.append(f"{endpoint.url}: {exc.reason}")
                if number < self.attempts:
                    self._sleep(self._delay(number))
                continue
            except BaseException:
                self._release(endpoint, failure=None, counted=False)
                raise
            self._release(endpoint, failure=None)
            return result
        raise ModelError(
            f"no endpoint could answer after {self.attempts} tries: {summarize(failures)}",
            source=", ".join(e.url for e in self.endpoints),
        )

    def stats(self) -> dict:
        """Return ``{url: {"requests", "in_flight", "failures", "down", "last_error"}}`` (for logs and benches)."""
        now = self._clock()
        with self._lock:
            return {
                e.url: {
                    "requests": e.requests,
                    "in_flight": e.in_flight,
                    "failures": e.failures,
                    "down": e.down_until > now,
                    "last_error": e.last_error,
                }
                for e in self.endpoints
            }

    def _acquire(self) -> Endpoint:
        """The least busy endpoint that is up (fewest running, then fewest sent, then the first), else the one
        that comes back first; counted as busy from here on."""
        with self._lock:
            now = self._clock()
            up = [e for e in self.endpoints if e.down_until <= now]
            pool = up or self.endpoints
            key = (lambda e: (e.in_flight, e.requests, e.index)) if up else (lambda e: (e.down_until, e.index))
            endpoint = min(pool, key=key)
            endpoint.in_flight += 1
            endpoint.requests += 1
            self.peak_in_flight = max(self.peak_in_flight, sum(e.in_flight for e in self.endpoints))
            return endpoint

    def _release(self, endpoint: Endpoint, *, failure: EndpointFailure | None, counted: bool = True) -> None:
        with self._lock:
            endpoint.in_flight -= 1
            if failure is None:
                if counted:
                    endpoint.failures = 0
                return
            endpoint.failures += 1
            endpoint.last_error = failure.reason
            if failure.retry_after is not None:
                hold = min(max(failure.retry_after, 0.0), MAX_RETRY_AFTER_S)
            else:
                hold = min(DOWN_S * 2 ** (endpoint.failures - 1), MAX_DOWN_S)
            endpoint.down_until = self._clock() + hold
            endpoint.held = failure.retry_after is not None

    def _delay(self, number: int) -> float:
        """Seconds to wait before try ``number + 1``: the back-off, or longer when every endpoint is held by a
        429's Retry-After (a failure's down time is not waited for: a dead server is tried again)."""
        backoff = min(BACKOFF_S * 2 ** (number - 1), MAX_BACKOFF_S)
        with self._lock:
            now = self._clock()
            if any(e.down_until <= now + backoff for e in self.endpoints):
                return backoff
            held = [e.down_until - now for e in self.endpoints if e.held]
            if len(held) < len(self.endpoints):
                return backoff  # some endpoint is only down after a failure: try it again
            return max(backoff, min(held))


def summarize(failures: Sequence[str]) -> str:
    """Join failure reasons, counting repeats: ``a: refused (3x); b: HTTP 503``.

    Args:
        failures: ``"url: reason"`` strings, in order.

    Returns:
        One line.
    """
    counts: dict[str, int] = {}
    for failure in failures:
        counts[failure] = counts.get(failure, 0) + 1
    return "; ".join(f"{text} ({n}x)" if n > 1 else text for text, n in counts.items())


__all__ = ["BACKOFF_S", "DOWN_S", "Endpoint", "EndpointFailure", "EndpointPool", "api_base", "summarize"]
