"""One process per ledger: every intake's lock, and where its state lives by default.

The state folder is ``OUT/.extractor/`` (``--ledger`` names another ledger file); beside the ledger,
``<ledger>.lock`` is held with ``fcntl.flock`` by the intake that uses it (``extract watch`` and ``extract mail``
alike: one ledger, one process), and a source may name more lock files (the watcher: its inbox's), each taken the
same way. The holder writes its pid into the file, which the refused process names.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from extractor.errors import UsageError

LEDGER_DIR = ".extractor"
LEDGER_NAME = "ledger.sqlite"


def ledger_path(out: str | Path, ledger: str | Path | None = None) -> Path:
    """The ledger file: ``ledger``, else ``OUT/.extractor/ledger.sqlite`` (absolute)."""
    if ledger:
        return Path(ledger).expanduser().resolve()
    return Path(out).expanduser().resolve() / LEDGER_DIR / LEDGER_NAME


def hold_lock(fd: int, busy: str) -> int:
    """Take an exclusive ``flock`` on an open lock file without waiting and write this process's pid into it.

    Args:
        fd: the lock file, opened read-write.
        busy: what the other process is using, for the refusal (``the ledger L``).

    Returns:
        ``fd``, locked (closing it releases the lock).

    Raises:
        UsageError: (code ``locked``) another process holds it; ``fd`` is closed.
    """
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        owner = os.read(fd, 200).decode("utf-8", "replace").strip() or "unknown"
        os.close(fd)
        raise UsageError(
            f"another extract watch or mail (pid {owner}) is already using {busy}; stop it first, "
            "or give this one its own --out / --ledger",
            code="locked",
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


class IntakeLock:
    """Exclusive locks on ``<ledger>.lock`` and on a source's own lock files (taken without waiting, in order; a
    context manager, or ``acquire`` / ``release``).

    ``optional`` files that cannot be created (a read-only inbox) are skipped: the ledger's lock still guards them.
    """

    def __init__(self, ledger: Path, *, optional: Sequence[tuple[Path, str]] = ()) -> None:
        """Args: ledger: the ledger file; optional: more lock files, each with what it guards (``inbox I``)."""
        self.ledger = Path(ledger)
        self.path = self.ledger.with_name(self.ledger.name + ".lock")
        self.optional = tuple(optional)
        self._fds: list[int] = []

    def acquire(self) -> IntakeLock:
        """Take every lock, or none.

        Raises:
            UsageError: (code ``locked``) another process holds one, naming it and its pid.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._fds.append(hold_lock(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), f"the ledger {self.ledger}"))
            for target, guards in self.optional:
                try:
                    fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
                except OSError:
                    continue
                self._fds.append(hold_lock(fd, f"{guards} (lock {target})"))
        except BaseException:
            self.release()
            raise
        return self

    def release(self) -> None:
        """Drop the locks (closing the files releases them)."""
        while self._fds:
            os.close(self._fds.pop())

    def __enter__(self) -> IntakeLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


__all__ = ["LEDGER_DIR", "LEDGER_NAME", "IntakeLock", "hold_lock", "ledger_path"]
