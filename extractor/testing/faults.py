"""One fault schedule over every channel at once (issue 48.6), for ``tests/test_faults.py`` and ``bench/faults.py``.

:class:`Stack` starts, on loopback only: a private PostgreSQL (``testing.postgres``) holding the service's job
store and ONE invoice register; ``extract serve --no-worker`` with two ``extract worker`` processes; an
``extract watch`` and an ``extract mail`` (a private Dovecot, ``testing.dovecot``) whose records go to a
size-limited tmpfs and whose register is that same PostgreSQL; a webhook receiver. :func:`run_schedule` feeds it
documents (bare e-invoice XML made from one template, each with its own number: read exactly, no model tokens;
some sent through two channels: duplicates) for a bounded time while the faults happen at their times: a worker
killed with SIGKILL (a new one started), ``pg_ctl restart -m immediate``, Dovecot restarted, the output filled
then freed. It then waits until every document has its record and returns what arrived and what came out, for
:func:`violations` (what must hold) and :func:`fault_table` (what each fault cost).

Mounting the tmpfs needs root: :class:`CannotMount` says why where it cannot (the caller skips or fails).
"""

from __future__ import annotations

import email.message
import imaplib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from extractor.testing.dovecot import PASSWORD as MAIL_PASSWORD
from extractor.testing.dovecot import Dovecot
from extractor.testing.postgres import PrivatePostgres

TENANT, KEY = "alice", "alice-faults-key"
WEBHOOK_SECRET = "whsec-faults-0123456789"
FAULTS = ("kill_worker", "restart_postgres", "restart_dovecot", "fill_output", "free_output")
DUPLICATE_CODES = ("duplicate_file", "duplicate_number")
STOP_TIMEOUT = 60.0  # seconds a process has to exit after SIGTERM before it counts as hung (a busy machine)
START_TIMEOUT = 600.0  # seconds for every process to be ready: only a guard (a busy machine is slow)
READY = {  # what each process logs once it is at work
    "serve": "serve: http://",
    "worker0": "worker: claiming",
    "worker1": "worker: claiming",
    "watch": "watching ",
    "mail": "reading imap://",
}
NUMBER = b"123456XX"  # the template's invoice number, replaced by each document's own


class CannotMount(RuntimeError):
    """The size-limited tmpfs cannot be mounted here (not root, or no mount)."""


@dataclass(frozen=True)
class Schedule:
    """What is fed and when each fault happens (seconds after feeding starts).

    Attributes:
        documents: how many are fed (round-robin over service, watch, mail), besides the duplicates' copies.
        gap: seconds between two of them (when the machine keeps up).
        duplicate_every: every Nth document is also sent through a second channel (0: none).
        faults: ``(at, fault)`` pairs, each fault one of ``FAULTS``; empty: the undisturbed run.
        drain_seconds: after feeding, how long every record may take before the run gives up.
    """

    documents: int = 40
    gap: float = 0.5
    duplicate_every: int = 5
    faults: tuple[tuple[float, str], ...] = (
        (3.0, "kill_worker"),
        (6.0, "restart_postgres"),
        (9.0, "restart_dovecot"),
        (12.0, "fill_output"),
        (16.0, "free_output"),
    )
    drain_seconds: float = 180.0


@dataclass
class Arrival:
    """One document handed to a channel: its number, channel, sha256, and when (wall clock)."""

    number: int
    channel: str
    sha256: str
    at: float
    job: str | None = None  # the service's job id


@dataclass
class Outcome:
    """What a run produced: arrivals, each channel's records, faults' times, the register, the processes."""

    arrivals: list[Arrival] = field(default_factory=list)
    jobs: dict[str, dict] = field(default_factory=dict)  # job id -> the job as the API shows it
    files: dict[str, list[dict]] = field(default_factory=dict)  # "watch" / "mail" -> records with "_written"
    faults: list[tuple[str, float, float]] = field(default_factory=list)  # (fault, began, ended)
    register: dict[str, list[dict]] = field(default_factory=dict)  # tenant -> its invoices
    deliveries: list[dict] = field(default_factory=list)
    hung: list[str] = field(default_factory=list)
    died: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what went wrong feeding or making a fault
    fed_for: float = 0.0


def document(template: bytes, number: int) -> bytes:
    """The template e-invoice XML with its own invoice number (a new invoice, a new sha256)."""
    if NUMBER not in template:
        raise ValueError(f"the template has no invoice number {NUMBER.decode()} to replace")
    return template.replace(NUMBER, f"FAULT-{number:05d}".encode())


class Receiver:
    """Webhooks on loopback: every POST kept (path, headers, body), answered 204."""

    def __init__(self) -> None:
        """Listen on a free port of 127.0.0.1, in a thread."""
        self.deliveries: list[dict] = []
        self.lock = threading.Lock()
        kept, lock = self.deliveries, self.lock

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    kept.append({"path": self.path, "headers": dict(self.headers), "body": body})
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:  # quiet
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop listening."""
        self.http.shutdown()
        self.http.server_close()


class Stack:
    """Every channel on one register (module docstring); a context manager that stops everything on exit."""

    def __init__(self, *, work: Path, model: Path, output_size: str = "2m") -> None:
        """Start it all under ``work`` with the tiny model at ``model`` (a tmpfs of ``output_size`` for the output).

        Raises:
            CannotMount: the tmpfs cannot be mounted here.
            RuntimeError: a process did not start (its log in the message).
        """
        self.work, self.model = work, model
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}
        self.out, self.inbox = work / "out", work / "inbox"
        self.inbox.mkdir(parents=True)
        self.mounted = False
        try:
            self._start_all(output_size)
        except BaseException:
            self.close()
            raise

    def _start_all(self, output_size: str) -> None:
        self._mount(output_size)
        self.postgres = PrivatePostgres()
        self.dovecot = Dovecot().start()
        self.receiver = Receiver()
        self.env = {
            **os.environ,
            "EXTRACT_API_KEYS": f"{TENANT}:{KEY}",
            "EXTRACT_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "EXTRACT_MAIL_PASSWORD": MAIL_PASSWORD,
            "PYTHONFAULTHANDLER": "1",  # a hung process's stacks, when stop() aborts it
        }
        self._workers = 0
        for name in ("serve", "worker0", "worker1", "watch", "mail"):
            self._start(name)
        self._wait_ready()
        import httpx

        # made once, before the clock starts: a client's TLS context alone takes seconds on a busy machine
        self.api = httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {KEY}"}, timeout=60, trust_env=False
        )

    # ------------------------------------------------------------------------------------------------ start

    def _mount(self, size: str) -> None:
        self.out.mkdir(parents=True)
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(self.out)], capture_output=True, text=True
        )
        if mounted.returncode != 0:
            raise CannotMount(f"cannot mount a tmpfs at {self.out}: {mounted.stderr.strip() or mounted.returncode}")
        self.mounted = True
        for channel in ("watch", "mail"):
            (self.out / channel).mkdir()

    def _argv(self, name: str) -> list[str]:
        extraction = ["--model", str(self.model), "--max-tokens", "4", "--no-embedded-rules", "--no-isolate"]
        extraction += ["--ocr", "never"]
        store, state = self.postgres.url, self.work / "state"
        hooks = ["--callback-allow", "127.0.0.1", "--callback-backoff", "0.2", "--callback-tries", "20"]
        if name == "serve":
            return ["serve", "--port", "0", "--store", store, "--no-worker", "--register", *hooks, *extraction]
        if name.startswith("worker"):
            return ["worker", "--store", store, "--lease", "3s", "--register", *hooks, *extraction]
        ledger = ["--ledger", str(state / name / "ledger.sqlite"), "--register", store, "--backoff", "0.2"]
        if name == "watch":
            return ["watch", str(self.inbox), "--out", str(self.out / "watch"), "--settle", "0.2", *ledger, *extraction]
        return ["mail", self.dovecot.url(), "--out", str(self.out / "mail"), *ledger, *extraction]

    def _start(self, name: str) -> None:
        self.logs[name] = self.work / f"{name}.log"
        with open(self.logs[name], "ab") as log:
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "extractor.cli", *self._argv(name)], env=self.env, stdout=log, stderr=log
            )

    def _wait_ready(self) -> None:
        """Until every process says it is at work (``READY``): a busy machine may take minutes to start five."""
        deadline = time.monotonic() + START_TIMEOUT
        waiting = dict(READY)
        while waiting:
            for name in list(waiting):
                if self.procs[name].poll() is not None:
                    raise RuntimeError(f"{name} exited {self.procs[name].returncode}: {self.log(name)[-3000:]}")
                if waiting[name] in self.log(name):
                    del waiting[name]
            if waiting and time.monotonic() > deadline:
                raise RuntimeError(f"not started: {', '.join(waiting)}: {self.log(next(iter(waiting)))[-3000:]}")
            time.sleep(0.1)
        line = next(x for x in self.log("serve").splitlines() if x.startswith("serve: "))
        self.url = line.split()[1].rstrip("/")

    def log(self, name: str) -> str:
        """A process's log so far."""
        return self.logs[name].read_text(encoding="utf-8", errors="replace")

    # ----------------------------------------------------------------------------------------------- faults

    def fault(self, name: str) -> None:
        """Make one of ``FAULTS`` happen (returns once it is done: the server back, the worker replaced)."""
        if name == "kill_worker":
            victim = f"worker{self._workers % 2}"
            self.procs[victim].send_signal(signal.SIGKILL)
            self.procs[victim].wait()
            self._workers += 1
            self._start(victim)
        elif name == "restart_postgres":
            self.postgres.restart()
        elif name == "restart_dovecot":
            self.dovecot.restart()
        elif name == "fill_output":
            self._fill()
        elif name == "free_output":
            (self.out / "filler").unlink()
        else:
            raise ValueError(f"no fault {name!r}: one of {', '.join(FAULTS)}")

    def _fill(self) -> None:
        fd = os.open(self.out / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError:
            pass  # full
        finally:
            os.close(fd)

    # -------------------------------------------------------------------------------------------------- feed

    def submit(self, number: int, data: bytes) -> str:
        """POST one document as a client would: tried again while the service answers 503 or cannot be reached."""
        import httpx

        while True:
            try:
                response = self.api.post(
                    "/v1/jobs",
                    files={"file": (f"doc{number:05d}.xml", data, "application/xml")},
                    data={"callback_url": f"{self.receiver.url}/hook/{number}"},
                )
            except httpx.TransportError:
                time.sleep(0.2)
                continue
            if response.status_code == 202:
                return response.json()["id"]
            if response.status_code != 503:
                raise RuntimeError(f"doc{number:05d}.xml refused: {response.status_code} {response.text}")
            time.sleep(0.2)

    def drop(self, number: int, data: bytes) -> None:
        """Put one document in the watched inbox (written aside, then renamed in: it arrives whole)."""
        aside = self.work / f".doc{number:05d}.xml"
        aside.write_bytes(data)
        aside.rename(self.inbox / f"doc{number:05d}.xml")

    def mail(self, number: int, data: bytes) -> None:
        """Append a mail carrying one document, as a mail server's delivery would: again while it is down."""
        msg = email.message.EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "billing@supplier.example", "ap@example.com", f"doc {number}"
        msg["Message-ID"] = f"<doc{number}@supplier.example>"
        msg.set_content("Invoice attached.")
        msg.add_attachment(data, maintype="application", subtype="xml", filename=f"doc{number:05d}.xml")
        while True:
            try:
                self.dovecot.append(msg.as_bytes())
                return
            except (OSError, imaplib.IMAP4.error):
                time.sleep(0.2)

    # -------------------------------------------------------------------------------------------------- stop

    def alive(self) -> list[str]:
        """The processes still running."""
        return [name for name, proc in self.procs.items() if proc.poll() is None]

    def stop(self) -> list[str]:
        """SIGTERM every process; those that did not exit within ``STOP_TIMEOUT`` (killed then) are returned."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        hung = []
        deadline = time.monotonic() + STOP_TIMEOUT
        for name, proc in self.procs.items():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                hung.append(name)
                proc.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack to its log first
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        return hung

    def close(self) -> None:
        """Stop every process and server, unmount the output."""
        self.stop()
        for server in ("api", "receiver", "dovecot", "postgres"):  # those started, when a start failed
            if hasattr(self, server):
                getattr(self, server).close()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.out)], check=False)

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
