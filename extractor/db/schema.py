"""Schema versions and migrations, for every store in one place.

A store declares a ``Schema``: its name, the table holding its version (``<meta> (name, value)``, row
``schema_version``) and its migrations in order, version 1 first. Opening the store (``open_database``) reads the
version the database holds and runs every missing migration forward in ONE transaction (the version row written in
it too), after a backup of a SQLite file (``<file>.<name>-v<old>.bak``); a fresh database runs them all. A database
holding the store at a newer version than this release knows is refused, naming the file. Processes opening one
store together migrate it once (SQLite: the write lock; PostgreSQL: an advisory lock on the store's name).

A migration's steps are DDL text (``;``-separated statements, ``--`` comments allowed, written once for both
databases with the placeholders of ``DIALECTS``) or a callable ``step(db, tx)`` for what SQL alone cannot say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from extractor.db.database import Database

Step = str | Callable[[Database, Any], None]

# the few words where SQLite's DDL and PostgreSQL's differ
DIALECTS = {
    "sqlite": {
        "{serial}": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "{without_rowid}": " WITHOUT ROWID",  # a key table IS its primary key: half the size of rowid + index
        "{blob}": "BLOB",
        "{real}": "REAL",
    },
    "postgresql": {
        "{serial}": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "{without_rowid}": "",
        "{blob}": "BYTEA",
        "{real}": "DOUBLE PRECISION",
    },
}


@dataclass(frozen=True)
class Migration:
    """What brings a store from ``version - 1`` to ``version``.

    Attributes:
        version: the version it makes (1: the store's first tables).
        steps: DDL texts and callables, run in order in the migrating transaction.
        note: what changed, in a few words (the docs' list of versions).
    """

    version: int
    steps: tuple[Step, ...]
    note: str = ""


@dataclass(frozen=True)
class Schema:
    """A store's tables through the versions.

    Attributes:
        name: the store's name (messages, backups' names, the migrating lock).
        meta: the table holding its version (created by the layer when missing).
        migrations: every version's migration, 1, 2, ... in order.
        found: the version of a database written before ``meta`` held it (an earlier release), or None when the
            store is not in the database at all; ``found(db, tx, tables)``.
    """

    name: str
    meta: str
    migrations: tuple[Migration, ...]
    found: Callable[[Database, Any, set[str]], int | None] = field(default=lambda db, tx, tables: None)

    def __post_init__(self) -> None:
        versions = [m.version for m in self.migrations]
        if versions != list(range(1, len(versions) + 1)):
            raise ValueError(f"schema {self.name}: migrations must be versions 1..N in order, not {versions}")

    @property
    def version(self) -> int:
        """The version this release writes."""
        return len(self.migrations)


LAYER_RELEASE = "e61cea9"  # the last release whose stores this layer did not version


def before_the_layer(store: str, tables: tuple[Step, ...], *, kept: tuple[Step, ...] = ()) -> tuple[Migration, ...]:
    """Every store's first two versions: 1, ``tables`` as release ``LAYER_RELEASE`` (and those before it) made them;
    2, the version kept by this layer (``kept``: what else that takes, such as making that release refuse it)."""
    return (
        Migration(1, tables, f"the {store} of release {LAYER_RELEASE} and before"),
        Migration(2, kept, "versions and migrations kept by extractor.db"),
    )


def ddl(db: Database, text: str) -> list[str]:
    """``text``'s statements in ``db``'s dialect, comments dropped."""
    for word, said in DIALECTS[db.kind].items():
        text = text.replace(word, said)
    text = re.sub(r"--[^\n]*", "", text)
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def stored_version(db: Database, tx: Any, schema: Schema) -> int | None:
    """The version of ``schema``'s store in the database (None: it is not there)."""
    tables = db.tables(tx)
    if schema.meta in tables:
        row = db.execute(tx, f"SELECT value FROM {schema.meta} WHERE name = 'schema_version'").fetchone()
        if row is not None:
            return int(row[0])
    return schema.found(db, tx, tables)


def migrate(db: Database, schema: Schema, *, create: bool = True, alongside: bool = False) -> int | None:
    """Bring the store up to ``schema.version`` (module docstring).

    Args:
        create: make the store when it is not there (False: an error).
        alongside: the database may hold others' tables (False: a SQLite database holding tables and not this
            store is refused as not one).

    Returns:
        The version the database held before (None: it was made now).

    Raises:
        the store's error: not this store, from a newer release, or it cannot be read, backed up or written.
    """
    with db.transaction(write=False) as tx:
        before = stored_version(db, tx, schema)
        tables = db.tables(tx)
    _check(db, schema, before, tables, create=create, alongside=alongside)
    if before is not None and before < schema.version:
        db.backup(f"{schema.name}-v{before}")
    with db.transaction() as tx:
        db.lock(tx, f"extractor.db.migrate {schema.meta}")
        before = stored_version(db, tx, schema)  # another process may have migrated it meanwhile
        _check(db, schema, before, tables, create=create, alongside=alongside)
        for migration in schema.migrations[before or 0 :]:
            for step in migration.steps:
                if callable(step):
                    step(db, tx)
                else:
                    for statement in ddl(db, step):
                        db.execute(tx, statement)
        # a write even when nothing was missing: a store that cannot be written fails here, not at its first use
        db.execute(tx, f"CREATE TABLE IF NOT EXISTS {schema.meta} (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        version = (str(schema.version),)
        if db.execute(tx, f"UPDATE {schema.meta} SET value = ? WHERE name = 'schema_version'", version).rowcount < 1:
            db.execute(tx, f"INSERT INTO {schema.meta} (name, value) VALUES ('schema_version', ?)", version)
    return before


def _check(
    db: Database, schema: Schema, version: int | None, tables: set[str], *, create: bool, alongside: bool
) -> None:
    if version is None and not create:
        raise db.error(f"no {schema.name} there")
    if version is None and tables and not alongside and db.kind == "sqlite":
        shown = ", ".join(sorted(tables)[:5])
        raise db.error(f"a SQLite database, but not a {schema.name} (tables: {shown})")
    if version is not None and version > schema.version:
        raise db.error(
            f"written by a newer release of extractor ({schema.name} schema version {version}, this one reads up "
            f"to {schema.version}): upgrade extractor"
        )


__all__ = [
    "DIALECTS",
    "LAYER_RELEASE",
    "Migration",
    "Schema",
    "Step",
    "before_the_layer",
    "ddl",
    "migrate",
    "stored_version",
]
