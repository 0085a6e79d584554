"""A private PostgreSQL server on loopback, for tests that must stop or restart the server under a store (Debian's
``postgresql-15`` binaries), never the machine's shared cluster.

:class:`PrivatePostgres` runs ``initdb`` into a new temporary folder, starts ``postgres`` on a free port of
127.0.0.1 (no Unix socket in a shared folder: its own ``unix_socket_directories``), with a password user
``extractor`` owning a database ``extractor``, and offers ``restart`` (``pg_ctl restart -m immediate``: a crash as a
kill -9 of the server leaves it), ``stop`` and ``start``. As root, every binary runs as the ``postgres`` user
(``runuser -u postgres --``), which owns the folder; otherwise as the caller.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN = Path("/usr/lib/postgresql/15/bin")
USER = "extractor"
PASSWORD = "test-password"
START_TIMEOUT = 30  # seconds for the server to start or stop


def postgres_available() -> bool:
    """Whether Debian's PostgreSQL 15 binaries are installed."""
    return (BIN / "initdb").is_file() and (BIN / "pg_ctl").is_file()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivatePostgres:
    """One private server (module docstring); a context manager that removes it on exit."""

    def __init__(self) -> None:
        """Make and start the server.

        Raises:
            RuntimeError: the binaries are missing, or the server did not start.
        """
        if not postgres_available():
            raise RuntimeError(f"PostgreSQL 15 is not installed ({BIN} is missing)")
        # under /tmp itself, not TMPDIR: as root, initdb runs as postgres, who must reach the folder (a test's TMPDIR,
        # under /tmp/pytest-of-root, is closed to other users)
        self.root = Path(tempfile.mkdtemp(prefix="extractor-pg-", dir="/tmp" if os.geteuid() == 0 else None))
        self.data, self.port = self.root / "data", _free_port()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.root, "postgres", "postgres")
        self.root.chmod(0o755)
        secret = self.root / "password"
        secret.write_text(PASSWORD + "\n", encoding="utf-8")
        if self._as:
            shutil.chown(secret, "postgres", "postgres")
        # --no-sync: a throwaway cluster (fsync=off below too) need not wait for its ~1,000 files to reach the disk
        initdb = (BIN / "initdb", "--no-sync", "-D", self.data, "-U", USER, "-A", "scram-sha-256", "--pwfile", secret)
        self._run(*initdb)
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c full_page_writes=off"
        (self.data / "extractor.opts").write_text(options, encoding="utf-8")
        self.start()
        self._run(BIN / "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, USER, password=True)

    @property
    def url(self) -> str:
        """The ``extractor`` database's URL."""
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{USER}"

    def _run(self, *argv: object, password: bool = False) -> None:
        env = {**os.environ, "PGPASSWORD": PASSWORD} if password else None
        done = subprocess.run(
            [*self._as, *map(str, argv)], capture_output=True, text=True, timeout=START_TIMEOUT, env=env
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(str(argv[0])).name} failed: {done.stderr.strip() or done.stdout.strip()}")

    def _ctl(self, action: str, *extra: str) -> None:
        options = (self.data / "extractor.opts").read_text(encoding="utf-8")
        log = str(self.root / "server.log")
        self._run(BIN / "pg_ctl", action, "-D", str(self.data), "-w", "-l", log, "-o", options, *extra)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self._ctl("start")

    def stop(self) -> None:
        """Stop it at once (``-m immediate``: no shutdown checkpoint, as a crash)."""
        self._ctl("stop", "-m", "immediate")

    def restart(self) -> None:
        """``pg_ctl restart -m immediate``: every connection dropped, the server up again."""
        self._ctl("restart", "-m", "immediate")

    def close(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self.stop()
        except (RuntimeError, subprocess.TimeoutExpired):
            pass  # not running
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PrivatePostgres:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_until_up(url: str, *, timeout: float = START_TIMEOUT) -> None:
    """Wait until the server at ``url`` accepts a connection."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


__all__ = ["PASSWORD", "USER", "PrivatePostgres", "postgres_available", "wait_until_up"]
