"""How ``extract serve`` is set up: where it listens, its store and limits (``ServeSettings``) and who may call it
(``ApiKeys``: each key a tenant and its scopes, kept only as its SHA-256)."""

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
# what a key may do (a key names its own with `` scopes=submit+read``; without: all of them)
SCOPES = ("submit", "read", "review", "admin")
SCOPES_PREFIX = "scopes="
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
class Grant:
    """What a presented key may do: its tenant and its scopes (a subset of ``SCOPES``)."""

    tenant: str
    scopes: frozenset[str]


@dataclass(frozen=True)
class ApiKeys:
    """The API keys, each naming a tenant: ``{sha256 hex of the key: tenant}``, and its scopes where it names
    them (``{sha256 hex: scopes}``; a key not there has every scope); the keys themselves are not kept.

    Empty: no keys (a loopback server, one tenant ``local``).
    """

    tenants: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, *, text: str | None = None, file: Path | None = None) -> ApiKeys:
        """Read the keys: ``text`` comma-separated (``EXTRACT_API_KEYS``) and ``file`` one per line (``#``
        comments and blank lines skipped). An entry is ``[TENANT:]KEY [scopes=SCOPE+SCOPE...]`` (``key_entry``);
        a key without a name is the tenant ``key-<first 12 hex of its SHA-256>``.

        Raises:
            UsageError: an unreadable file or an entry that is not one (where it is and why; no key is ever said).
        """
        tenants, scopes = {}, {}
        for where, entry in _key_entries(text, file):
            name, key, granted = key_entry(entry, where=where)
            digest = key_digest(key)
            tenants[digest] = name or f"key-{digest[:12]}"
            if granted is not None:
                scopes[digest] = granted
        return cls(tenants=tenants, scopes=scopes)

    @classmethod
    def from_environment(cls, *, file: Path | None = None) -> ApiKeys:
        """The keys of ``EXTRACT_API_KEYS`` and ``--api-keys-file``."""
        return cls.load(text=os.environ.get(KEYS_ENV), file=file)

    def tenant(self, key: str) -> str | None:
        """The tenant of a presented key (None: not a key of this server)."""
        return self.tenants.get(key_digest(key))

    def grant(self, key: str) -> Grant | None:
        """The tenant and scopes of a presented key (None: not a key of this server)."""
        digest = key_digest(key)
        tenant = self.tenants.get(digest)
        return None if tenant is None else Grant(tenant=tenant, scopes=self.scopes.get(digest, frozenset(SCOPES)))

    def __bool__(self) -> bool:
        return bool(self.tenants)


def _key_entries(text: str | None, file: Path | None) -> list[tuple[str, str]]:
    """``(where, entry)`` of every key entry: ``EXTRACT_API_KEYS`` entry N, ``--api-keys-file PATH`` line N."""
    entries = [(f"{KEYS_ENV} entry {n}", part.strip()) for n, part in enumerate((text or "").split(","), 1)]
    entries = [(where, entry) for where, entry in entries if entry]
    if file is not None:
        try:
            lines = file.read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--api-keys-file {file}: cannot read it ({type(exc).__name__})") from None
        entries += [
            (f"--api-keys-file {file} line {n}", line.strip())
            for n, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
    return entries


def key_entry(entry: str, *, where: str) -> tuple[str, str, frozenset[str] | None]:
    """One key entry, ``[TENANT:]KEY [scopes=SCOPE+SCOPE...]``, as ``(tenant or "", key, scopes or None: all)``.

    A key may hold neither ``:`` nor a space (nor, in ``EXTRACT_API_KEYS``, a ``,``): an entry ``a:b:c`` is refused
    rather than read as the key ``c`` of a tenant ``a:b`` (whose name, a part of the key meant, would be logged
    with every request).

    Raises:
        UsageError: ``where`` and why the entry is not one (never the key, nor a part of it).
    """
    credential, *rest = entry.split()
    if credential.count(":") > 1:
        raise UsageError(f"{where}: more than one ':' (an entry is TENANT:KEY, and a key may not contain ':')")
    name, _, key = credential.rpartition(":")
    if not key:
        raise UsageError(f"{where}: the key is empty")
    if not rest:
        return name.strip(), key, None
    if len(rest) > 1 or not rest[0].startswith(SCOPES_PREFIX):
        raise UsageError(f"{where}: expected [TENANT:]KEY [scopes=SCOPE+SCOPE...] (a key may not contain a space)")
    named = rest[0].removeprefix(SCOPES_PREFIX).split("+")
    unknown = [scope for scope in named if scope not in SCOPES]
    if unknown:
        raise UsageError(f"{where}: unknown scope {unknown[0]!r} (the scopes are {', '.join(SCOPES)})")
    return name.strip(), key, frozenset(named)


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
    "SCOPES",
    "ApiKeys",
    "Grant",
    "ServeSettings",
    "check_exposure",
    "is_loopback",
    "key_digest",
    "key_entry",
    "open_store",
    "parse_duration",
]
