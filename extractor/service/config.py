"""How ``extract serve`` is set up: where it listens, its store and limits (``ServeSettings``) and who may call it
(``ApiKeys``: each key a tenant, kept only as its SHA-256)."""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from extractor.errors import UsageError
from extractor.service.sources import SourceSettings
from extractor.service.store import DEFAULT_LEASE, DEFAULT_RETENTION, DEFAULT_STORE, DEFAULT_TENANT_SHARE, Store
from extractor.service.webhooks import WebhookSettings

KEYS_ENV = "EXTRACT_API_KEYS"
DEFAULT_SYNC_TIMEOUT = 60.0  # seconds POST /v1/extract waits for the record before answering 202 with the job
OPEN_TENANT = "local"  # the one tenant of a loopback server without keys


@dataclass(frozen=True)
class ServeSettings:
    """The service's own settings (the extraction's are one ``Settings``, parsed as ``extract run`` parses them).

    Attributes:
        host: the address to bind (loopback by default; any other requires API keys).
        port: the port (0: any free one, printed at start).
        store: the job store, ``sqlite:///PATH`` or ``postgresql://...``.
        retention: seconds an ended job (its record, its upload) is kept.
        sync_timeout: seconds ``POST /v1/extract`` waits for the record before answering 202 with the job.
        lease: seconds a worker's claim holds a job without renewal (a killed worker's job is claimed again after).
        tenant_share: jobs a tenant runs at once before another tenant's waiting job is taken first.
        worker: run a worker in the server (False: an API replica; ``extract worker`` processes run the jobs).
        reuse: answer a tenant's repeated request (same bytes, same settings) from its stored record.
        webhooks: the webhooks' secret, allowed hosts and tries.
        sources: how URL sources are fetched (allowed hosts, time limit).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    store: str = DEFAULT_STORE
    retention: float = DEFAULT_RETENTION
    sync_timeout: float = DEFAULT_SYNC_TIMEOUT
    lease: float = DEFAULT_LEASE
    tenant_share: int = DEFAULT_TENANT_SHARE
    worker: bool = True
    reuse: bool = True
    webhooks: WebhookSettings = field(default_factory=WebhookSettings)
    sources: SourceSettings = field(default_factory=SourceSettings)


@dataclass(frozen=True)
class ApiKeys:
    """The API keys, each naming a tenant: ``{sha256 hex of the key: tenant}``; the keys themselves are not kept.

    Empty: no keys (a loopback server, one tenant ``local``).
    """

    tenants: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, *, text: str | None = None, file: Path | None = None) -> ApiKeys:
        """Read the keys: ``text`` comma-separated (``EXTRACT_API_KEYS``) and ``file`` one per line (``#``
        comments and blank lines skipped). An entry is ``KEY`` or ``TENANT:KEY``; a key without a name is the
        tenant ``key-<first 12 hex of its SHA-256>``.

        Raises:
            UsageError: an unreadable file or an empty key (no key is ever said).
        """
        entries = [part.strip() for part in (text or "").split(",") if part.strip()]
        if file is not None:
            try:
                lines = file.read_text(encoding="utf-8-sig").splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"--api-keys-file {file}: cannot read it ({type(exc).__name__})") from None
            entries += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
        tenants = {}
        for number, entry in enumerate(entries, 1):
            name, _, key = entry.rpartition(":")
            if not key:
                raise UsageError(f"API key {number}: empty")
            digest = key_digest(key)
            tenants[digest] = name.strip() or f"key-{digest[:12]}"
        return cls(tenants=tenants)

    @classmethod
    def from_environment(cls, *, file: Path | None = None) -> ApiKeys:
        """The keys of ``EXTRACT_API_KEYS`` and ``--api-keys-file``."""
        return cls.load(text=os.environ.get(KEYS_ENV), file=file)

    def tenant(self, key: str) -> str | None:
        """The tenant of a presented key (None: not a key of this server)."""
        return self.tenants.get(key_digest(key))

    def __bool__(self) -> bool:
        return bool(self.tenants)


def key_digest(key: str) -> str:
    """The SHA-256 (hex) a key is kept and compared as."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` listens on this machine only (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def check_exposure(host: str, keys: ApiKeys) -> None:
    """Refuse to listen beyond loopback without API keys.

    Raises:
        UsageError: ``host`` is not loopback and there are no keys.
    """
    if not keys and not is_loopback(host):
        raise UsageError(f"--host {host}: listening beyond this machine needs API keys ({KEYS_ENV} or --api-keys-file)")


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str, *, option: str) -> float:
    """Parse a duration such as ``7d``, ``12h``, ``30m`` or ``90`` (seconds).

    Raises:
        UsageError: not a positive duration.
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text.lower())
    if match is None or float(match.group(1)) <= 0:
        raise UsageError(f"{option} {text!r}: expected a duration such as 7d, 12h, 30m or 3600 (seconds)")
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


def open_store(url: str) -> Store:
    """The store of a ``--store`` URL: ``sqlite:///relative/path``, ``sqlite:////absolute/path`` or a plain path
    (SQLite), ``postgresql://user:password@host:port/database`` (PostgreSQL).

    Raises:
        UsageError: another scheme, or a store that cannot be opened (the reason named, never a password).
    """
    if url.startswith(("postgresql://", "postgres://")):
        from extractor.service.postgres import PostgresStore

        return PostgresStore(url)
    if url.startswith("sqlite:///") or "://" not in url:
        from extractor.service.sqlite import SqliteStore

        return SqliteStore(Path(url.removeprefix("sqlite:///")))
    raise UsageError(f"--store {url.split('://')[0]}://...: expected sqlite:///PATH or postgresql://...")


__all__ = [
    "DEFAULT_SYNC_TIMEOUT",
    "KEYS_ENV",
    "OPEN_TENANT",
    "ApiKeys",
    "ServeSettings",
    "check_exposure",
    "is_loopback",
    "key_digest",
    "open_store",
    "parse_duration",
]
