"""The register's database: one SQLite file (embedded, the default) or PostgreSQL (shared past one machine), named
by the same URLs as ``extract serve --store``: ``sqlite:///relative/path``, ``sqlite:////absolute/path``, a plain
path (SQLite), or ``postgresql://user:password@host/db``; opened through the database layer (``extractor.db``):
WAL, background checkpoints and a lazy commit for a document's registration.

``SCHEMA`` is the register's tables through the versions (``register_meta`` holds its version): a register written
by a newer release is refused (``RegisterError``, exit 2), as is a file that is not a SQLite database, a SQLite
database that is not a register, a locked file and one that cannot be written. A new table is one ``Migration``
more at the end of ``SCHEMA`` (``extractor.db``'s docstring shows one).
"""

from __future__ import annotations

from extractor.db import Database, Migration, Naming, Schema, Tuning, before_the_layer
from extractor.db import open_database as open_store_database
from extractor.errors import UsageError

LOCK_TIMEOUT = 10.0  # seconds a SQLite register waits for another process's write lock before it says "locked"
MMAP_BYTES = 1 << 30  # SQLite: the register's file mapped up to this size (address space, not memory)
CACHE_KIB = 65536  # SQLite: page cache per connection
OUTLAST = 600.0  # seconds an operation waits out an unreachable (or locked) register, retrying, before it fails

_TABLES = """
CREATE TABLE IF NOT EXISTS register_suppliers (
    tenant TEXT NOT NULL,           -- whose register: "" for one owner, else an extract serve tenant
    key TEXT NOT NULL,              -- vat:..., tax:... or name:...|IBAN (register.keys)
    name TEXT,
    name_norm TEXT,
    vat_id TEXT,
    tax_number TEXT,
    bic TEXT,
    country TEXT,
    known INTEGER NOT NULL,         -- 1: imported, trusted, or an ok record of it was registered
    source TEXT NOT NULL,           -- master_data, record, review
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, key)
);
CREATE INDEX IF NOT EXISTS register_suppliers_name ON register_suppliers (tenant, name_norm);
CREATE TABLE IF NOT EXISTS register_accounts (
    tenant TEXT NOT NULL,
    supplier_key TEXT NOT NULL,
    iban TEXT NOT NULL,
    source TEXT NOT NULL,           -- master_data, ok_record, review
    by_whom TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (tenant, supplier_key, iban)
);
CREATE INDEX IF NOT EXISTS register_accounts_iban ON register_accounts (tenant, iban);
CREATE TABLE IF NOT EXISTS register_entries (
    seq {serial},
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,           -- with fingerprint: the record's register.entry (sha256:fingerprint)
    fingerprint TEXT NOT NULL,
    place TEXT NOT NULL,            -- the input's path, or the job's id
    part INTEGER NOT NULL,          -- which invoice of a file of several (record.part.index), else 0
    kind TEXT NOT NULL,             -- record or job
    source TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    supplier_key TEXT,
    supplier_name TEXT,
    document_type TEXT NOT NULL,
    number TEXT,
    printed TEXT,
    issue_date TEXT,
    total TEXT,
    currency TEXT,
    iban TEXT,
    verified INTEGER NOT NULL,
    total_claimed INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT NOT NULL,           -- the record's register key as registered (JSON): a repeat answers it again
    UNIQUE (tenant, sha256, fingerprint, place, part)
);
CREATE INDEX IF NOT EXISTS register_entries_amount
    ON register_entries (tenant, supplier_key, currency, total, issue_date);
CREATE INDEX IF NOT EXISTS register_entries_place ON register_entries (tenant, place);
CREATE TABLE IF NOT EXISTS register_invoice_keys (  -- the one original of each invoice: a unique key decides it
    tenant TEXT NOT NULL,
    supplier_key TEXT NOT NULL,
    document_type TEXT NOT NULL,
    number TEXT NOT NULL,
    entry_seq BIGINT NOT NULL,
    PRIMARY KEY (tenant, supplier_key, document_type, number)
){without_rowid};
CREATE INDEX IF NOT EXISTS register_invoice_keys_entry ON register_invoice_keys (entry_seq);
CREATE TABLE IF NOT EXISTS register_file_keys (      -- the first document of each file's bytes
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    entry_seq BIGINT NOT NULL,
    PRIMARY KEY (tenant, sha256)
){without_rowid};
CREATE INDEX IF NOT EXISTS register_file_keys_entry ON register_file_keys (entry_seq);
CREATE TABLE IF NOT EXISTS register_decisions (      -- a person's "not a duplicate" (register.decisions)
    tenant TEXT NOT NULL,
    sha256 TEXT NOT NULL,           -- the flagged document: its bytes and place
    place TEXT NOT NULL,
    original_sha256 TEXT NOT NULL,  -- the earlier document it was flagged against
    original_place TEXT NOT NULL,
    decision TEXT NOT NULL,         -- not_duplicate
    by_whom TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (tenant, sha256, place, original_sha256, original_place)
);
"""


# Learned layouts (``extractor.layouts.store`` writes and reads them): one row a layout, its JSON (``Layout.to_json``),
# and one row per identity key it is keyed on, so a document's candidates are one index look-up of what it prints.
_LAYOUT_TABLES = """
CREATE TABLE IF NOT EXISTS layouts (
    tenant TEXT NOT NULL,           -- "" for one owner, else an extract serve tenant
    id TEXT NOT NULL,
    supplier_key TEXT NOT NULL,     -- vat:..., iban:..., tax:... (layouts.identities)
    supplier_name TEXT,
    schema_name TEXT NOT NULL,
    source TEXT NOT NULL,           -- what taught it: review, embedded_xml, archive, service_review
    learned_at TEXT NOT NULL,
    body TEXT NOT NULL,             -- Layout.to_json()
    PRIMARY KEY (tenant, id)
);
CREATE INDEX IF NOT EXISTS layouts_supplier ON layouts (tenant, supplier_key);
CREATE TABLE IF NOT EXISTS layout_keys (
    tenant TEXT NOT NULL,
    key TEXT NOT NULL,
    layout_id TEXT NOT NULL,
    PRIMARY KEY (tenant, key, layout_id)
);
"""


class RegisterError(UsageError):
    """The register cannot be used: not found where asked, corrupt, locked, read-only, from a newer release, or a
    bad URL (exit code 2: never a silent run without checks)."""


SCHEMA = Schema(
    name="register",
    meta="register_meta",
    migrations=(
        # the tables are those of version 1; the layer keeps the version (in register_meta, where the earlier
        # release reads it: that release refuses a register this one opened, rather than misread it later)
        *before_the_layer("register", (_TABLES,)),
        Migration(3, (_LAYOUT_TABLES,), "learned layouts (extractor.layouts.store; docs/learning.md)"),
    ),
)


def open_database(url: str, *, alongside: bool = False) -> Database:
    """The database of a register URL (module docstring), brought up to date; ``alongside``: beside other tables
    (the service's job store), else a SQLite file holding other tables is refused.

    Raises:
        RegisterError: another scheme, or a register that cannot be opened (the reason named, never a password).
    """
    tuning = Tuning(
        busy_timeout=LOCK_TIMEOUT,
        # WAL with NORMAL survives a killed process (the register's promise: kill -9 between record and register
        # leaves both consistent); a power cut may lose the last transactions, never corrupt the file
        synchronous="NORMAL",
        checkpoints=True,
        mmap_bytes=MMAP_BYTES,
        cache_kib=CACHE_KIB,
        # a document's registration does not wait for the server's disk flush (``durable=False``)
        lazy_commit=True,
        outlast=OUTLAST,
    )
    return open_store_database(
        url, schema=SCHEMA, naming=Naming("register", RegisterError), tuning=tuning, alongside=alongside
    )


__all__ = ["LOCK_TIMEOUT", "SCHEMA", "Database", "RegisterError", "open_database"]
