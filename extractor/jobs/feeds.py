"""Where a long-running job's records go besides OUT: an appended JSON Lines log (``--jsonl``) and a command run on
each record (``--hook``), for ``extract watch`` and ``extract mail`` alike (``FeedSettings``, ``Feeds``).

Both are fed each new record file the job writes (a failed document's too, each part of a file of several
invoices; not a duplicate the ledger skips), after the file is written and *before* the ledger commits its
document, so a kill -9 between the two makes the restart do the document again and feed it again:

* the log: exactly once (:class:`~extractor.jobs.sinks.JsonlWriter`, the one JSON Lines writer). The line
  (``record.to_json(indent=None)``, the record file's content) is appended with one ``os.write`` and fsync'd. On
  opening, a torn last line (a file not ending in a newline) is cut back to the last newline, and the keys
  (:func:`~extractor.jobs.sinks.record_key`) of the last ``TAIL_LINES`` lines are remembered: a record whose
  key is among them is not appended again. The *earlier* line is kept, what a consumer may already have read (a
  redo differs only in what it measured: timings, usage, memory; the record file holds the redo's). Appends are in
  order, so a redone document's line can only be among the last ones (at most the documents in flight at the
  kill, times their parts). Unlike ``extract --jsonl`` (the same writer, ``truncate``), the file is never
  truncated: it is the job's long-running log.
* the hook: at least once. It runs after the line is appended, so a kill while it runs (or before the commit)
  runs it again on restart: ``EXTRACT_RECORD_KEY`` (the same key, equal across a redo) lets it deduplicate. It
  gets the compact record on stdin and ``EXTRACT_RECORD`` (the record file), ``EXTRACT_STATUS``,
  ``EXTRACT_SOURCE``, ``EXTRACT_SHA256`` and ``EXTRACT_RECORD_KEY`` in its environment (and no other ``EXTRACT_*``
  variable of the job's, such as ``EXTRACT_MAIL_PASSWORD``). A hook that fails (exit code, time-out, gone) is
  logged as a warning and counted (``hook_failed``); the job goes on, the record stays.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import UsageError
from extractor.jobs.sinks import JsonlWriter, record_key
from extractor.record import Record
from extractor.settings import DEFAULT_HOOK_TIMEOUT

STDERR_LINE_CHARS = 500  # a failed hook's last stderr line is logged cut to this many characters


@dataclass(frozen=True)
class FeedSettings:
    """Where records go besides OUT (``--jsonl``, ``--hook``, ``--hook-timeout``); every default named once.

    Attributes:
        jsonl: append every record to this JSON Lines file (created with its folder; never truncated).
        hook: run this command on every record (a string is split with ``shlex.split``; no shell); empty: none.
        hook_timeout: seconds one run of the hook may take before it is killed (counted as failed).
    """

    jsonl: Path | None = None
    hook: tuple[str, ...] = ()
    hook_timeout: float = DEFAULT_HOOK_TIMEOUT

    def __post_init__(self) -> None:
        # a bad hook or log fails here, before a model loads
        hook = split_hook(self.hook) if isinstance(self.hook, str) else tuple(self.hook)  # a str from a caller, too
        object.__setattr__(self, "hook", hook)
        if self.hook:
            check_hook(self.hook[0])
        if not self.hook_timeout > 0:
            raise UsageError(f"--hook-timeout must be a positive number of seconds, got {self.hook_timeout}")
        if self.jsonl is not None:
            object.__setattr__(self, "jsonl", Path(self.jsonl).expanduser())
            if Path(self.jsonl).is_dir():
                raise UsageError(f"--jsonl {self.jsonl}: is a folder; give a file")


def split_hook(command: str) -> tuple[str, ...]:
    """Split a ``--hook`` command line as a shell would (``shlex.split``; it is never run by one).

    Raises:
        UsageError: unbalanced quotes, naming the command.
    """
    try:
        return tuple(shlex.split(command))
    except ValueError as exc:
        raise UsageError(f"--hook {command!r}: {exc}") from None


def check_hook(program: str) -> None:
    """Refuse a hook command that does not exist: a path must be an executable file, a bare name on PATH.

    Raises:
        UsageError: naming the command and why.
    """
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program).expanduser()
        if not path.is_file() or not os.access(path, os.X_OK):
            raise UsageError(f"--hook {program}: no such executable file")
    elif shutil.which(program) is None:
        raise UsageError(f"--hook {program}: command not found on PATH")


def run_hook(argv: tuple[str, ...], record: Record, *, path: Path, key: str, timeout: float) -> str | None:
    """Run the hook once on a record (its compact JSON on stdin, the ``EXTRACT_*`` variables in its environment
    instead of any the job had; its stdout is discarded). It runs in its own process group, so a time-out kills
    whatever it started too.

    Returns:
        None when it exited 0, else why it failed: the exit code (or the time-out) and its stderr's last line.
    """
    env = {
        # the job's own EXTRACT_* variables are not passed on (EXTRACT_MAIL_PASSWORD is a secret): only the hook's
        **{name: value for name, value in os.environ.items() if not name.startswith("EXTRACT_")},
        "EXTRACT_RECORD": str(path),
        "EXTRACT_STATUS": str(record.status),
        "EXTRACT_SOURCE": record.source,
        "EXTRACT_SHA256": record.sha256,
        "EXTRACT_RECORD_KEY": key,
    }
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
    except OSError as exc:  # removed or made unexecutable since the start
        return f"cannot be started ({exc.strerror or exc})"
    try:
        _, stderr = process.communicate(record.to_json(indent=None).encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
        return f"timed out after {timeout:g} s{_last_line(stderr)}"
    if process.returncode != 0:
        return f"exit code {process.returncode}{_last_line(stderr)}"
    return None


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return f"; stderr: {lines[-1][:STDERR_LINE_CHARS]}" if lines else ""


class Feeds:
    """A job's feeds (``FeedSettings``): the log and the hook; a context manager that opens and closes the log.

    Attributes:
        hook_failed: hook runs that failed so far.
    """

    def __init__(self, settings: FeedSettings, *, log: logging.Logger) -> None:
        """Args: settings: where records go; log: the job's logger (a failed hook is a warning in it)."""
        self.settings = settings
        self.log = log
        self.hook_failed = 0
        self.jsonl: JsonlWriter | None = None

    def __enter__(self) -> Feeds:
        if self.settings.jsonl is not None:
            self.jsonl = JsonlWriter(self.settings.jsonl)
            if self.jsonl.repaired:
                self.log.warning("%s: cut a torn last line (%d bytes)", self.jsonl.path, self.jsonl.repaired)
        return self

    def __exit__(self, *exc) -> None:
        if self.jsonl is not None:
            self.jsonl.close()
            self.jsonl = None

    def send(self, path: Path, record: Record) -> None:
        """Feed one record just written to ``path``: append its line, then run the hook (call it before the ledger
        commits the document: see the module docstring).

        Raises:
            ExtractorError: the line could not be appended (code ``jsonl_write``).
        """
        key = record_key(record.to_dict())
        if self.jsonl is not None and not self.jsonl.append(record, key=key):
            self.log.info("%s: already in %s (done again after a stop); not appended again", path, self.jsonl.path)
        if not self.settings.hook:
            return
        failure = run_hook(self.settings.hook, record, path=path, key=key, timeout=self.settings.hook_timeout)
        if failure is not None:
            self.hook_failed += 1
            self.log.warning("hook %s failed on %s (%s): %s", self.settings.hook[0], path, record.source, failure)


__all__ = [
    "FeedSettings",
    "Feeds",
    "check_hook",
    "run_hook",
    "split_hook",
]
