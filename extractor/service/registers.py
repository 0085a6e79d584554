"""One invoice register per tenant, kept in the service's store (issue 40): a tenant never sees another's
suppliers or invoices, and no tenant's invoice is ever a duplicate of another tenant's.

Where each tenant's register lives follows the store (``--store``):

* **SQLite** (``sqlite:///PATH``): a file per tenant in a folder beside the store, ``<store stem>-registers/
  <tenant>.sqlite`` (one file each: nothing shared, so no query can reach across tenants, and a tenant is forgotten
  by deleting its file).
* **PostgreSQL**: the same database, a **schema per tenant** (``register_<tenant>``), reached through the
  connection's ``search_path`` (the register's SQL names its tables unqualified, so every statement of a tenant's
  register stays inside its schema; the store's own ``jobs`` table stays in ``public``).

``<tenant>`` is the tenant's name folded to ``[a-z0-9_]`` (at most 24 characters) and the first 12 hex of its
SHA-256, so two names that fold alike (``Acme``, ``acme!``) still get registers of their own. ``tenant_register_url``
gives a tenant's register URL, for ``extract register ... --register URL``.

The worker registers each job's records under the job's id (``kind="job"``: a job claimed again after its lease
passed is the same document, answered as registered the first time) and names the register in the record as
``tenant <name>`` (never the server's paths or database URL).
"""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path
from urllib.parse import quote

from extractor.record import Record
from extractor.register import Register, RegisterResult
from extractor.register.db import RegisterError

SCHEMA_PREFIX = "register_"  # PostgreSQL: a tenant's schema
FOLDER_SUFFIX = "-registers"  # SQLite: the folder beside the store


def tenant_slug(tenant: str) -> str:
    """The tenant's name as a file or schema name: folded to ``[a-z0-9_]`` (24 characters at most), then ``_`` and
    the first 12 hex of the name's SHA-256 (different names never share one)."""
    folded = re.sub(r"[^a-z0-9]+", "_", tenant.lower()).strip("_")[:24] or "tenant"
    return f"{folded}_{hashlib.sha256(tenant.encode('utf-8')).hexdigest()[:12]}"


def tenant_register_url(store: str, tenant: str) -> str:
    """The register URL of ``tenant`` for a service store URL (module docstring).

    Raises:
        RegisterError: the store URL is neither SQLite nor PostgreSQL.
    """
    slug = tenant_slug(tenant)
    if store.startswith(("postgresql://", "postgres://")):
        joiner = "&" if "?" in store else "?"
        return f"{store}{joiner}options={quote(f'-csearch_path={SCHEMA_PREFIX}{slug}', safe='')}"
    if store.startswith("sqlite:///") or "://" not in store:
        path = Path(store.removeprefix("sqlite:///"))
        return str(path.parent / f"{path.stem}{FOLDER_SUFFIX}" / f"{slug}.sqlite")
    raise RegisterError(f"--store {store.split('://')[0]}://...: no register for this store")


class TenantRegisters:
    """The tenants' registers of one store, opened when first used and kept (thread-safe)."""

    def __init__(self, store: str) -> None:
        """Args: store: the service's ``--store`` URL."""
        self.store = store
        self._open: dict[str, Register] = {}
        self._lock = threading.Lock()

    def register(self, tenant: str) -> Register:
        """The tenant's register, created on first use (its SQLite folder or PostgreSQL schema included).

        Raises:
            RegisterError: it cannot be created or opened.
        """
        with self._lock:
            found = self._open.get(tenant)
            if found is None:
                url = tenant_register_url(self.store, tenant)
                _prepare(self.store, tenant, url)
                found = self._open[tenant] = Register.open(url)
            return found

    def check_and_add(self, record: Record, *, tenant: str, job_id: str) -> Record:
        """The record checked against the tenant's register and added under the job's id (``apply``'d: its
        ``register`` key, warnings and status); a record without data as it was.

        Raises:
            RegisterError: the register cannot be read or written (the job fails: never a record without checks).
        """
        result = self.register(tenant).check_and_add(record, place=job_id, kind="job")
        if result is None:
            return record
        shown = RegisterResult({**result.entry, "register": f"tenant {tenant}"}, repeated=result.repeated)
        return shown.apply(record)

    def close(self) -> None:
        """Close this thread's connections to every open register."""
        with self._lock:
            for register in self._open.values():
                register.close()


def _prepare(store: str, tenant: str, url: str) -> None:
    """Make the place a tenant's register goes: its SQLite folder, or its PostgreSQL schema."""
    if "://" not in url:
        try:
            Path(url).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RegisterError(f"register {url}: cannot make its folder ({exc.strerror})") from None
        return
    import psycopg

    schema = SCHEMA_PREFIX + tenant_slug(tenant)  # [a-z0-9_] only: safe to quote into the statement
    try:
        with psycopg.connect(store, autocommit=True, connect_timeout=10) as db:
            db.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    except psycopg.errors.UniqueViolation:
        pass  # another worker created it a moment ago
    except psycopg.Error as exc:
        raise RegisterError(f"register schema {schema}: {type(exc).__name__}: {str(exc).strip()[:200]}") from None


__all__ = ["TenantRegisters", "tenant_register_url", "tenant_slug"]
