"""A private Dovecot IMAP server on loopback, for the tests and ``bench/mail.py`` (Debian's ``dovecot-imapd``).

:class:`Dovecot` writes its own configuration under a new temporary folder (its own ``base_dir``, a passwd-file
test user with a plain password, a static userdb, a Maildir, ``ssl = no`` with plaintext authentication allowed,
IDLE as Dovecot always offers it) and starts ``/usr/sbin/dovecot -c`` on a free port of 127.0.0.1. Nothing of the
system's Dovecot (``/etc/dovecot``, port 143) is used or touched. As root, Dovecot's login and mail processes run
as its own ``dovenull`` / ``dovecot`` users (it refuses root); otherwise as the calling user.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DOVECOT = Path("/usr/sbin/dovecot")
USER = "ap"
PASSWORD = "test-password"


def dovecot_available() -> bool:
    """Whether Debian's Dovecot is installed."""
    return DOVECOT.is_file() and os.access(DOVECOT, os.X_OK)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Introspection:
    """A minimal OAuth2 token introspection endpoint (RFC 7662) on 127.0.0.1, in a thread: what Dovecot's
    ``oauth2`` passdb asks whether an access token is good, and whose it is."""

    def __init__(self, tokens: dict[str, str]) -> None:
        import http.server
        import json
        import threading
        import urllib.parse

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
                token = (urllib.parse.parse_qs(body).get("token") or [""])[0]
                user = tokens.get(token)
                answer = json.dumps({"active": True, "username": user} if user else {"active": False}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/introspect"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Dovecot:
    """One private Dovecot: ``start()``, ``restart()``, ``stop()``; ``url(folder)`` names its test mailbox.

    Attributes:
        root: its folder (configuration, sockets, log, Maildir).
        port: its IMAP port on 127.0.0.1.
    """

    def __init__(self, *, oauth_tokens: dict[str, str] | None = None) -> None:
        """Make the folder and write the configuration (nothing runs yet).

        Args:
            oauth_tokens: also accept XOAUTH2 / OAUTHBEARER logins with these access tokens (token -> user name):
                Dovecot's ``oauth2`` passdb checks each by POSTing it to an OAuth2 introspection endpoint that this
                object serves on 127.0.0.1 (RFC 7662: ``{"active": true, "username": ...}``).
        """
        # a short path under /tmp: Dovecot's unix sockets live in base_dir (108-byte limit), and its own users
        # must be able to reach the folders
        self.root = Path(tempfile.mkdtemp(prefix="dovecot-", dir="/tmp"))  # /tmp itself, not a TMPDIR closed to others
        self.root.chmod(0o755)
        self.port = _free_port()
        self.config = self.root / "dovecot.conf"
        self.log = self.root / "dovecot.log"
        mail = self.root / "mail"
        for folder in ("run", "state", "mail"):
            (self.root / folder).mkdir()
        (self.root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n", encoding="utf-8")
        if os.geteuid() == 0:
            internal, login, mail_user = "dovecot", "dovenull", "dovecot"
            shutil.chown(mail, mail_user, mail_user)
        else:
            import pwd

            internal = login = mail_user = pwd.getpwuid(os.getuid()).pw_name
        self.introspection = _Introspection(oauth_tokens) if oauth_tokens is not None else None
        self.config.write_text(self._configuration(mail, internal, login, mail_user), encoding="utf-8")

    def _oauth(self) -> tuple[str, str]:
        """The passdb block and the mechanisms that the OAuth2 introspection adds (none without it)."""
        if self.introspection is None:
            return "", "plain login"
        (self.root / "oauth2.conf.ext").write_text(
            f"introspection_mode = post\nintrospection_url = {self.introspection.url}\nforce_introspection = yes\n"
            "username_attribute = username\nactive_attribute = active\nactive_value = true\n",
            encoding="utf-8",
        )
        oauth = (
            "passdb {\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n"
            f"  args = {self.root}/oauth2.conf.ext\n}}\n"
        )
        return oauth, "plain login xoauth2 oauthbearer"

    def _configuration(self, mail: Path, internal: str, login: str, mail_user: str) -> str:
        """dovecot.conf: IMAP on 127.0.0.1:port, plain logins from the passwd file, Maildirs under ``mail``."""
        oauth, mechanisms = self._oauth()
        return f"""
base_dir = {self.root}/run
state_dir = {self.root}/state
log_path = {self.log}
instance_name = extractor-test-{self.port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = {mechanisms}
mail_location = maildir:{mail}/%u
first_valid_uid = 0
mail_uid = {mail_user}
mail_gid = {mail_user}
default_internal_user = {internal}
default_internal_group = {internal}
default_login_user = {login}
{oauth}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.root}/passwd
}}
userdb {{
  driver = static
  args = home={mail}/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
protocol imap {{
  mail_max_userip_connections = 100
}}
"""

    # ----------------------------------------------------------------------------------------------- process

    @property
    def pid(self) -> int | None:
        """The master process's pid, or None when it is not running."""
        try:
            pid = int((self.root / "run" / "master.pid").read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        return pid

    def start(self, *, timeout: float = 20.0) -> Dovecot:
        """Start it and wait until it answers on its port."""
        # the daemon keeps its standard streams: a file, not a pipe this call would wait on
        with open(self.root / "start.err", "ab") as errors:
            started = subprocess.run(
                [str(DOVECOT), "-c", str(self.config)],
                stdin=subprocess.DEVNULL,
                stdout=errors,
                stderr=errors,
                timeout=timeout,
            )
        if started.returncode != 0:
            raise RuntimeError(f"dovecot did not start: {(self.root / 'start.err').read_text(errors='replace')}")
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    if conn.recv(64).startswith(b"* OK"):
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"dovecot did not start on port {self.port}: {self.log_text()}")
            time.sleep(0.05)

    def stop(self, *, timeout: float = 20.0) -> None:
        """Stop it (SIGTERM to the master), wait until it is gone, and end the mail processes it leaves serving
        open connections: every connection drops, as when a server goes down."""
        pid = self.pid
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.pid is not None and time.monotonic() < deadline:
                time.sleep(0.05)
        for child in self._processes():
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass

    def _processes(self) -> list[int]:
        """This instance's processes (their titles start with ``dovecot-<instance_name>/``)."""
        title = f"dovecot-extractor-test-{self.port}/".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if (entry / "cmdline").read_bytes().startswith(title):
                    found.append(int(entry.name))
            except OSError:
                continue
        return found

    def restart(self) -> None:
        """Stop and start again on the same port (the mail stays)."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop it (and its introspection endpoint) and delete its folder."""
        self.stop()
        if self.introspection is not None:
            self.introspection.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        """Its log so far."""
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> Dovecot:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------------ mail

    def url(self, folder: str = "INBOX") -> str:
        """The ``extract mail`` URL of the test user's folder."""
        return f"imap://{USER}@127.0.0.1:{self.port}/{folder}"

    def client(self):
        """A logged-in IMAPClient (the caller logs out)."""
        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=30)
        client.login(USER, PASSWORD)
        return client

    def append(self, message: bytes, *, folder: str = "INBOX") -> int:
        """APPEND one mail; return its UID."""
        client = self.client()
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            answer = client.append(folder, message)
        finally:
            client.logout()
        # "[APPENDUID <uidvalidity> <uid>] ..." (UIDPLUS)
        return int(answer.split(b"]")[0].split()[-1])


__all__ = ["DOVECOT", "PASSWORD", "USER", "Dovecot", "dovecot_available"]
