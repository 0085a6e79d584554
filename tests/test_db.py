"""The database layer (``extractor.db``): URLs and how messages show them, migrations forward in one transaction with
a backup first, refusal of a newer store, connections per thread and the checkpoint thread; on SQLite in temp dirs
and on PostgreSQL from ``EXTRACTOR_TEST_POSTGRES`` (a database of its own per test)."""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import closing
from typing import Any

import pytest
from test_store import fresh_database, postgres_admin_url

from extractor.db import Database, Migration, Naming, Schema, Tuning, open_database, parse_url, shown_url, version_at
from extractor.db.url import first_line
from extractor.errors import UsageError


class ToyError(UsageError):
    """The toy store's error."""


NAMING = Naming("toy", ToyError)
V1 = Migration(1, ("CREATE TABLE toy_items (seq {serial}, name TEXT NOT NULL)",), "items")
V2 = Migration(
    2,
    (
        "ALTER TABLE toy_items ADD COLUMN size INTEGER NOT NULL DEFAULT 0; -- sizes; a comment with a ; in it\n"
        "CREATE INDEX IF NOT EXISTS toy_items_name ON toy_items (name)",
    ),
    "sizes",
)


def _sizes(db: Database, tx: Any) -> None:
    db.execute(tx, "UPDATE toy_items SET size = length(name)")


V3 = Migration(3, (_sizes,), "sizes measured")
ONE, TWO, THREE = (Schema(name="toy", meta="toy_meta", migrations=(V1, V2, V3)[:n]) for n in (1, 2, 3))


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ann:s3cret@db.example:5432/inv", "postgresql://ann:***@db.example:5432/inv"),
        ("postgres://ann@db/inv", "postgres://ann@db/inv"),
        ("postgresql://db/inv?password=s3cret&sslmode=require", "postgresql://db/inv?password=***&sslmode=require"),
        ("postgresql://db/inv?PASSWORD=s3cret", "postgresql://db/inv?PASSWORD=***"),
        ("postgresql://u:p@db/inv?sslpassword=k3y&passfile=/home/u/.pgpass", None),
        ("postgresql://db/inv?application_name=x&token=abc123", "postgresql://db/inv?application_name=x&token=***"),
        ("postgresql://ann:p%40ss@db/inv", "postgresql://ann:***@db/inv"),
        ("/var/lib/register.sqlite", "/var/lib/register.sqlite"),
    ],
)
def test_shown_url_masks_every_secret(url, shown):
    got = shown_url(url)
    for secret in ("s3cret", "k3y", "abc123", "p%40ss", ".pgpass"):
        assert secret not in got
    if shown is not None:
        assert got == shown
    else:
        assert got == "postgresql://u:***@db/inv?sslpassword=***&passfile=***"


@pytest.mark.parametrize(
    ("url", "kind", "location"),
    [
        ("register.sqlite", "sqlite", "register.sqlite"),
        ("sqlite:///rel/r.sqlite", "sqlite", "rel/r.sqlite"),
        ("sqlite:////abs/r.sqlite", "sqlite", "/abs/r.sqlite"),
        (":memory:", "sqlite", ":memory:"),
        ("postgresql://u:p@h/d", "postgresql", "postgresql://u:p@h/d"),
        ("postgres://h/d", "postgresql", "postgres://h/d"),
    ],
)
def test_urls_name_their_database(url, kind, location):
    target = parse_url(url)
    assert target is not None and (target.kind, target.location) == (kind, location)
    assert "p@" not in target.shown


def test_other_schemes_and_secrets_in_driver_messages():
    assert parse_url("mysql://h/d") is None
    with pytest.raises(ToyError, match=r"toy mysql://\.\.\.: expected a path"):
        open_database("mysql://u:pw@h/d", schema=ONE, naming=NAMING)
    said = first_line(ValueError('bad "pw=hunter2" in conninfo\ndetail'), url="postgresql://u:hunter2@h/d")
    assert said == 'bad "pw=***" in conninfo'


def _names(db: Database) -> list[tuple]:
    with db.transaction(write=False) as tx:
        return [tuple(r) for r in db.execute(tx, "SELECT name, size FROM toy_items ORDER BY seq").fetchall()]


def test_sqlite_migrates_forward_in_one_transaction_after_a_backup(tmp_path):
    path = tmp_path / "toy.sqlite"
    db = open_database(str(path), schema=ONE, naming=NAMING)
    with db.transaction() as tx:
        db.executemany(tx, "INSERT INTO toy_items (name) VALUES (?)", [("ab",), ("abcd",)])
    db.close()
    assert version_at(str(path), schema=THREE, naming=NAMING) == 1
    db = open_database(str(path), schema=THREE, naming=NAMING)
    assert _names(db) == [("ab", 2), ("abcd", 4)]
    db.close()
    backup = tmp_path / "toy.sqlite.toy-v1.bak"
    with closing(sqlite3.connect(backup)) as old:  # the store as it was before the migration
        assert old.execute("SELECT value FROM toy_meta").fetchall() == [("1",)]
        assert old.execute("SELECT name FROM toy_items ORDER BY seq").fetchall() == [("ab",), ("abcd",)]
    assert version_at(str(path), schema=THREE, naming=NAMING) == 3
    open_database(str(path), schema=THREE, naming=NAMING).close()  # up to date: no second backup
    assert sorted(p.name for p in tmp_path.glob("*.bak")) == [backup.name]


def test_a_failed_migration_leaves_the_store_as_it_was(tmp_path):
    path = tmp_path / "toy.sqlite"
    db = open_database(str(path), schema=ONE, naming=NAMING)
    with db.transaction() as tx:
        db.execute(tx, "INSERT INTO toy_items (name) VALUES ('ab')")
    db.close()

    def broken(db: Database, tx: Any) -> None:
        db.execute(tx, "INSERT INTO no_such_table VALUES (1)")

    bad = Schema(name="toy", meta="toy_meta", migrations=(V1, V2, Migration(3, (broken,))))
    with pytest.raises(ToyError, match=f"toy {path}: OperationalError: no such table: no_such_table"):
        open_database(str(path), schema=bad, naming=NAMING)
    assert version_at(str(path), schema=THREE, naming=NAMING) == 1  # version 2's DDL rolled back with it
    with closing(sqlite3.connect(path)) as raw:
        assert [r[1] for r in raw.execute("PRAGMA table_info(toy_items)")] == ["seq", "name"]


def test_a_newer_store_is_refused_naming_it(tmp_path):
    path = tmp_path / "toy.sqlite"
    open_database(str(path), schema=THREE, naming=NAMING).close()
    with pytest.raises(ToyError, match=rf"toy {path}: written by a newer release of extractor \(toy schema version 3"):
        open_database(str(path), schema=TWO, naming=NAMING)
    assert issubclass(ToyError, UsageError)  # exit code 2


def test_foreign_and_missing_stores(tmp_path):
    foreign = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(foreign)) as raw:
        raw.execute("CREATE TABLE elsewhere (a)")
    with pytest.raises(ToyError, match="a SQLite database, but not a toy \\(tables: elsewhere\\)"):
        open_database(str(foreign), schema=ONE, naming=NAMING)
    open_database(str(foreign), schema=ONE, naming=NAMING, alongside=True).close()
    with pytest.raises(ToyError, match="no toy there"):
        open_database(str(tmp_path / "new.sqlite"), schema=ONE, naming=NAMING, create=False)
    with pytest.raises(ToyError, match="its folder .* does not exist"):
        open_database(str(tmp_path / "no" / "toy.sqlite"), schema=ONE, naming=NAMING)


def test_connections_per_thread_and_close_joins_the_checkpoints(tmp_path):
    path = tmp_path / "toy.sqlite"
    db = open_database(str(path), schema=ONE, naming=NAMING, tuning=Tuning(checkpoints=True))
    seen: list[Any] = []  # the connections themselves: kept, so no two share an id

    def write(n: int) -> None:
        with db.transaction() as tx:
            db.execute(tx, "INSERT INTO toy_items (name) VALUES (?)", (f"t{n}",))
            seen.append(tx)
        db.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(tx) for tx in seen}) == 4  # each thread its own connection
    with db.transaction(write=False) as tx:
        assert db.execute(tx, "PRAGMA journal_mode").fetchone()[0] == "wal"
    assert any(t.name == "db-checkpoint" for t in threading.enumerate())
    db.close()
    assert not any(t.name == "db-checkpoint" for t in threading.enumerate())


def test_postgres_migrates_forward_once_and_refuses_newer():
    url = fresh_database(postgres_admin_url(), f"extractor_db_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
    secret_free = shown_url(url)
    db = open_database(url, schema=ONE, naming=NAMING)
    with db.transaction() as tx:
        db.execute(tx, "INSERT INTO toy_items (name) VALUES (?)", ("abc",))
    db.close()
    results: list[Any] = []

    def open_it() -> None:  # two processes' worth of opens at once: one migrates, the other finds it done
        try:
            results.append(open_database(url, schema=THREE, naming=NAMING))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            results.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(isinstance(r, Database) for r in results), results
    assert _names(results[0]) == [("abc", 3)]
    for db in results:
        db.close()
    with pytest.raises(ToyError, match="written by a newer release") as refused:
        open_database(url, schema=TWO, naming=NAMING)
    assert str(refused.value).startswith(f"toy {secret_free}:")
    assert "extractor@" not in secret_free or ":***@" in secret_free
