"""Every intake's stop: ``stop_event`` (any thread) or SIGINT / SIGTERM (the CLI's, :class:`StopSignals`).

A stop ends the source's loop after the document in hand (after every document in flight). A document still being
extracted ``stop_timeout`` seconds after the first signal, or at a second SIGINT, is *abandoned*: :class:`Abandon`
is raised into its extraction (on the loop's thread; worker threads are left to finish unheard), its ledger row goes
back to ``queued`` without counting the attempt, and its input stays where it is, to be taken at the next start.

Before the core, ``extract mail`` ended a second SIGINT with ``KeyboardInterrupt`` wherever it was and had no
time-out; both intakes now follow the watcher's documented rule above (the ledger loses and duplicates nothing
either way).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

log = logging.getLogger("extractor.jobs.intake")

# what signal.signal takes and returns (typeshed's alias for it is private)
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


class Abandon(BaseException):
    """Raised into a running extraction by a stop's time-out; BaseException so no ``except Exception`` swallows it."""


def _nothing() -> None:
    """The default wake: a loop that waits on the stop event itself needs none."""


class Stopping:
    """A run's stop, shared by the source's loop, the core's extraction and the signal handlers.

    Attributes:
        event: set to stop after the document in hand.
        abandoning: the stop's time-out passed (or a second SIGINT came): abandon what is being extracted.
        in_extract: an extraction (or the wait for one) runs on the loop's thread now: it may be interrupted.
        wake: called on a stop, to wake a loop that sleeps elsewhere (the watcher's inbox queue).
    """

    def __init__(self, event: threading.Event | None = None, *, wake: Callable[[], None] = _nothing) -> None:
        """Args: event: the caller's ``stop_event`` (a new one when None); wake: see the attributes."""
        self.event = event or threading.Event()
        self.abandoning = False
        self.in_extract = False
        self.wake = wake

    def is_set(self) -> bool:
        """Whether a stop was asked for."""
        return self.event.is_set()

    def abandon_now(self) -> None:
        """Abandon what is being extracted: raise :class:`Abandon` when an extraction runs on this thread."""
        self.abandoning = True
        if self.in_extract:
            raise Abandon()


class StopSignals:
    """SIGINT / SIGTERM set the stop; ``timeout`` seconds later (SIGALRM) or at a second SIGINT what is being
    extracted is abandoned. A context manager: installed on entry (in the main thread only; elsewhere nothing is
    installed) and the previous handlers put back on exit."""

    def __init__(self, stopping: Stopping, *, timeout: float) -> None:
        """Args: stopping: the run's stop; timeout: seconds before an extraction is abandoned."""
        self.stopping = stopping
        self.timeout = timeout
        self.previous: dict[int, _Handler] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum, handler in (
            (signal.SIGINT, self._stop),
            (signal.SIGTERM, self._stop),
            (signal.SIGALRM, self._alarm),
        ):
            self.previous[signum] = signal.signal(signum, handler)
        return self

    def __exit__(self, *exc) -> None:
        if not self.previous:
            return
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}

    def _stop(self, signum, frame) -> None:
        stopping = self.stopping
        again = stopping.is_set()
        stopping.event.set()
        stopping.wake()
        if again and signum == signal.SIGINT:
            stopping.abandon_now()
        if not again:
            log.info("stopping after the document in hand (signal %d)", signum)
            # setitimer(0) would disarm the timer, so a zero bound becomes one millisecond
            signal.setitimer(signal.ITIMER_REAL, max(self.timeout, 0.001))

    def _alarm(self, signum, frame) -> None:
        self.stopping.abandon_now()


__all__ = ["Abandon", "StopSignals", "Stopping"]
