"""Stores written by the previous release (``tests/data/stores/``, made by release e61cea9: see its README) open
with today's code: every row survives, the schema version moves forward in place (a SQLite file backed up beside
itself first), and a store claiming a version newer than this release knows is refused, naming it."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from test_store import fresh_database, postgres_admin_url

from extractor.db import Naming, version_at
from extractor.errors import UsageError
from extractor.jobs import ledger as watch_ledger
from extractor.jobs.ledger import Ledger
from extractor.jobs.mail import ledger as mail_ledger
from extractor.jobs.mail.ledger import MailLedger, mail_key, mail_report
from extractor.register import Register, RegisterError
from extractor.register.db import SCHEMA as REGISTER_SCHEMA
from extractor.service import postgres as job_postgres
from extractor.service import sqlite as job_sqlite
from extractor.service.config import open_store

STORES = Path(__file__).resolve().parent / "data" / "stores"
NAMING = Naming("", UsageError)


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copy(STORES / name, target)
    return target


def _rows(path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


def test_a_register_of_the_previous_release_migrates_in_place(tmp_path):
    path = _copy("register-e61cea9.sqlite", tmp_path)
    before = _rows(path, "SELECT seq, source, number, total, status, result FROM register_entries ORDER BY seq")
    suppliers = _rows(path, "SELECT key, name, known FROM register_suppliers ORDER BY key")
    assert version_at(str(path), schema=REGISTER_SCHEMA, naming=NAMING) == 1 and len(before) >= 5
    with Register.open(path) as register:
        listed = register.invoices()
        assert [(i["source"], i["number"], i["status"]) for i in listed] == [(r[1], r[2], r[4]) for r in before]
        assert [(s["key"], s["name"]) for s in register.suppliers()] == [(k, n) for k, n, _ in suppliers]
        assert register.entry_place(sha256="0" * 64, fingerprint="", source=None) is None
    assert _rows(path, "SELECT seq, source, number, total, status, result FROM register_entries ORDER BY seq") == before
    assert (
        version_at(str(path), schema=REGISTER_SCHEMA, naming=NAMING) == REGISTER_SCHEMA.version == 3
    )  # 3: the learned layouts
    backup = tmp_path / "register-e61cea9.sqlite.register-v1.bak"
    assert _rows(backup, "SELECT value FROM register_meta") == [("1",)]
    assert _rows(backup, "SELECT count(*) FROM register_entries") == [(len(before),)]


def test_the_ledgers_of_the_previous_release_migrate_in_place(tmp_path):
    path = _copy("ledger-e61cea9.sqlite", tmp_path)
    crashed, stopped = "c" * 64, mail_key("inbox", "INBOX", 7, 43)
    with closing(sqlite3.connect(path)) as db, db:  # what a kill -9 of that release leaves: its word, processing
        db.execute(
            "INSERT INTO documents (sha256, state, attempts, created_at, updated_at) "
            "VALUES (?, 'processing', 1, '2025-01-31T09:00:00.000Z', '2025-01-31T09:00:00.000Z')",
            (crashed,),
        )
        db.execute(
            "INSERT INTO sources VALUES (?, 'c.pdf', '2025-01-31T09:00:00.000Z', '2025-01-31T09:00:00.000Z')",
            (crashed,),
        )
        db.execute(
            "INSERT INTO mails (key, mailbox, folder, uidvalidity, uid, state, attempts, created_at, updated_at) "
            "VALUES (?, 'inbox', 'INBOX', 7, 43, 'processing', 1, ?, ?)",
            (stopped, "2025-01-31T09:00:00.000Z", "2025-01-31T09:00:00.000Z"),
        )
    documents = _rows(path, "SELECT sha256, state, result_path FROM documents ORDER BY created_at, sha256")
    running = [(sha, "running" if state == "processing" else state, result) for sha, state, result in documents]
    key = mail_key("inbox", "INBOX", 7, 42)
    with Ledger(path, create=False) as book:
        assert [(e.sha256, e.state, e.result_path) for e in book.entries()] == running
        assert book.counts() == {"queued": 1, "running": 1, "done": 1, "failed": 0}
        assert book.entries(state="done")[0].sources == ("a.pdf", "copy-of-a.pdf")
        assert book.get(crashed).sources == ("c.pdf",)  # the names kept: their foreign key holds again
    with MailLedger(path) as mails:
        row = mails.get(key)
        assert row is not None and (row.state, row.message_id, row.filed) == ("done", "<m1@example>", 1)
        assert [(p["idx"], p["name"], p["outcome"]) for p in mails.parts(key)] == [(0, "b.pdf", "document")]
        assert mails.get(stopped).state == "running"
    report = mail_report(path)
    assert report is not None and report["counts"]["done"] == 1 and report["counts"]["running"] == 1
    with closing(sqlite3.connect(path)) as db, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute("UPDATE documents SET state = 'processing'")  # the old word is no state any more
    for schema, version in ((watch_ledger.SCHEMA, 3), (mail_ledger.SCHEMA, 4)):  # 3 / 4: processing is running
        assert version_at(str(path), schema=schema, naming=NAMING) == schema.version == version
        assert (tmp_path / f"ledger-e61cea9.sqlite.{schema.name}-v1.bak").is_file()
    # the previous release reads PRAGMA user_version and refuses a ledger above 1: it cannot misread this one
    assert _rows(path, "PRAGMA user_version") == [(2,)]


def test_a_job_store_of_the_previous_release_migrates_in_place(tmp_path):
    path = _copy("jobs-e61cea9.sqlite", tmp_path)
    before = _rows(path, "SELECT id, status, filename, records, error FROM jobs ORDER BY seq")
    assert [r[1] for r in before] == ["done", "failed", "queued"]
    store = open_store(f"sqlite:///{path}")
    jobs = store.jobs(tenant="acme", limit=10)
    assert [(j.id, j.status, j.filename, j.error) for j in reversed(jobs)] == [(r[0], r[1], r[2], r[4]) for r in before]
    assert jobs[-1].records == [{"source": "doc0.pdf", "status": "ok"}]
    claimed = store.claim(lease=60.0)
    assert claimed is not None and claimed.id == before[2][0] and store.upload(claimed.id) == b"document 2"
    store.close()
    assert version_at(str(path), schema=job_sqlite.SCHEMA, naming=NAMING) == 2
    assert (tmp_path / "jobs-e61cea9.sqlite.jobs-v1.bak").is_file()


@pytest.mark.parametrize(
    ("name", "newer"),
    [
        ("register-e61cea9.sqlite", "UPDATE register_meta SET value = '9' WHERE name = 'schema_version'"),
        ("ledger-e61cea9.sqlite", "PRAGMA user_version = 9"),
        ("jobs-e61cea9.sqlite", "CREATE TABLE jobs_meta (name TEXT PRIMARY KEY, value TEXT); "
         "INSERT INTO jobs_meta VALUES ('schema_version', '9')"),
    ],
)  # fmt: skip
def test_a_store_of_a_newer_release_is_refused_naming_it(tmp_path, name, newer):
    path = _copy(name, tmp_path)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(newer)
    opens = {
        "register-e61cea9.sqlite": lambda: Register.open(path),
        "ledger-e61cea9.sqlite": lambda: Ledger(path),
        "jobs-e61cea9.sqlite": lambda: open_store(str(path)),
    }
    with pytest.raises(UsageError, match=f"{path}: written by a newer release of extractor .*version 9"):
        opens[name]()
    assert not list(tmp_path.glob("*.bak"))  # refused before anything was copied or changed


def test_postgres_stores_of_the_previous_release_migrate_in_place():
    url = fresh_database(postgres_admin_url(), "extractor_stores_earlier")
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute((STORES / "postgres-e61cea9.sql").read_text(encoding="utf-8"))
        entries = db.execute("SELECT source, number, status FROM public.register_entries ORDER BY seq").fetchall()
        statuses = db.execute("SELECT id, status FROM public.extractor_jobs ORDER BY seq").fetchall()
    assert version_at(url, schema=job_postgres.SCHEMA, naming=NAMING) == 1
    store = open_store(url)
    assert [(j.id, j.status) for j in reversed(store.jobs(tenant="acme", limit=10))] == statuses
    store.close()
    with Register.open(url, alongside=True) as register:
        assert [(i["source"], i["number"], i["status"]) for i in register.invoices()] == entries
    assert version_at(url, schema=job_postgres.SCHEMA, naming=NAMING) == 2
    assert version_at(url, schema=REGISTER_SCHEMA, naming=NAMING) == 3  # 3: the learned layouts
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE register_meta SET value = '9' WHERE name = 'schema_version'")
    with pytest.raises(RegisterError, match="written by a newer release of extractor"):
        Register.open(url, alongside=True)
