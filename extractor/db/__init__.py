"""The database layer under every store (the register, the service's job store, the watch and mail ledgers, the
learned layouts): database URLs and how messages show them (``url``), connections per thread and transactions
(``database``, ``sqlite``, ``postgres``, ``connect``), schema versions and migrations (``schema``), outages waited
out (``outage``: a store's method decorated ``@outlasting`` runs again while its database is unreachable, and
``outage.current()`` says which are, since when, for ``/healthz``). No other
module of the package opens a database connection; each store's SQL lives in its own module and runs through a
``Database``.

Opening a store::

    db = open_database(url, schema=SCHEMA, naming=Naming("register", RegisterError), tuning=Tuning(...))
    with db.transaction() as tx:                       # write=False: a read; durable=False: a lazy commit
        db.execute(tx, "INSERT INTO t (a) VALUES (?)", (1,))   # ``?`` placeholders on both databases

**Adding a table (or a column, an index) to a store** is one ``Migration`` appended to its schema, say the
register's (``extractor/register/db.py``)::

    SCHEMA = Schema(name="register", meta="register_meta", migrations=(
        Migration(1, (TABLES,), "the first tables"),
        Migration(2, (...,), "..."),
        Migration(3, ('''
            CREATE TABLE IF NOT EXISTS register_layouts (
                tenant TEXT NOT NULL, supplier_key TEXT NOT NULL, layout TEXT NOT NULL,
                seq {serial}, body {blob}, at {real} NOT NULL
            );
            CREATE INDEX IF NOT EXISTS register_layouts_supplier ON register_layouts (tenant, supplier_key);
        ''',), "learned layouts"),
    ))

The next open of any register (SQLite or PostgreSQL) backs a SQLite file up (``register.sqlite.register-v2.bak``),
runs version 3 in one transaction with the version's update, and from then on the release that wrote version 2
refuses it. Never edit a released migration: a database that ran it will not run it again; add the next one. A step
that SQL cannot write (moving rows, a column only where missing) is a callable ``step(db, tx)``. The
``{serial}``, ``{blob}``, ``{real}`` and ``{without_rowid}`` words become each database's own (``DIALECTS``).
"""

from extractor.db.connect import open_database, version_at
from extractor.db.database import BUSY_TIMEOUT, CONNECT_TIMEOUT, Database, Naming, Tuning, is_lost, outlasting
from extractor.db.schema import Migration, Schema, Step, before_the_layer, migrate
from extractor.db.url import Target, first_line, parse_url, shown_url

__all__ = [
    "BUSY_TIMEOUT",
    "CONNECT_TIMEOUT",
    "Database",
    "Migration",
    "Naming",
    "Schema",
    "Step",
    "Target",
    "Tuning",
    "before_the_layer",
    "first_line",
    "is_lost",
    "migrate",
    "open_database",
    "outlasting",
    "parse_url",
    "shown_url",
    "version_at",
]
