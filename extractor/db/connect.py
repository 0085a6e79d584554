"""Opening a store's database: its URL parsed, the database of its kind, its schema brought up to date."""

from __future__ import annotations

from extractor.db.database import Database, Naming, Tuning
from extractor.db.postgres import PostgresDatabase
from extractor.db.schema import Schema, migrate, stored_version
from extractor.db.sqlite import SqliteDatabase
from extractor.db.url import Target, parse_url

DEFAULT_TUNING = Tuning()


def open_database(
    url: str,
    *,
    schema: Schema,
    naming: Naming,
    tuning: Tuning = DEFAULT_TUNING,
    create: bool = True,
    alongside: bool = False,
) -> Database:
    """Open the database of ``url`` (a path, ``sqlite:///PATH`` or ``postgresql://...``) for the store ``schema``
    describes, and bring it up to date (``extractor.db.schema.migrate``).

    Args:
        schema: the store's ``Schema``.
        naming: how its errors name it.
        tuning: how its connections behave.
        create: make the store when it is not there (False: its absence is an error).
        alongside: its tables may share the database with others' (else a SQLite file holding other tables and
            not this store is refused).

    Raises:
        naming.error: another scheme, or a database that cannot be opened, is not this store, or holds it from a
            newer release (each named, never with a secret).
    """
    target = parse_url(url)
    if target is None:
        label = f"{naming.label} " if naming.label else ""
        raise naming.error(f"{label}{url.split('://')[0]}://...: expected a path, sqlite:///PATH or postgresql://...")
    db = _connect(target, naming=naming, tuning=tuning)
    try:
        migrate(db, schema, create=create, alongside=alongside)
    except BaseException:
        db.close()
        raise
    return db


def _connect(target: Target, *, naming: Naming, tuning: Tuning) -> Database:
    if target.kind == "postgresql":
        return PostgresDatabase(target, naming=naming, tuning=tuning)
    return SqliteDatabase(target, naming=naming, tuning=tuning)


def version_at(url: str, *, schema: Schema, naming: Naming, tuning: Tuning = DEFAULT_TUNING) -> int | None:
    """The version of ``schema``'s store in the database at ``url``, read without changing it (None: the store is
    not there; ``extract status`` asks before it opens a store that may never have been made).

    Raises:
        naming.error: another scheme, or a database that cannot be read.
    """
    target = parse_url(url)
    if target is None:
        raise naming.error(f"{url.split('://')[0]}://...: expected a path, sqlite:///PATH or postgresql://...")
    db = _connect(target, naming=naming, tuning=tuning)
    try:
        with db.transaction(write=False) as tx:
            return stored_version(db, tx, schema)
    finally:
        db.close()


__all__ = ["open_database", "version_at"]
