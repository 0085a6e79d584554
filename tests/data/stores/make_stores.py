"""Write the stores of ``tests/data/stores/`` with the release that came before the database layer (e61cea9).

    git worktree add /tmp/prev-e61 e61cea9
    PYTHONPATH=/tmp/prev-e61 python tests/data/stores/make_stores.py tests/data/stores \
        [postgresql://extractor:extractor@127.0.0.1:5432/extractor]

Each store holds a few real rows: the register the golden batch's records (``tests/golden/batch-samples.json``),
the watch and mail ledgers one document and one mail, the job store three jobs (one done, one failed, one queued).
With a PostgreSQL admin URL it writes the register and the job store into a fresh database and dumps it
(``pg_dump --inserts``) as ``postgres-e61cea9.sql``. Run only with that release's code: it is the point.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def register(url: str, *, alongside: bool = False) -> None:
    from extractor.record import record_from_dict
    from extractor.register import Register

    records = json.loads((ROOT / "tests" / "golden" / "batch-samples.json").read_text(encoding="utf-8"))
    with Register.open(url, alongside=alongside) as book:
        for n, data in enumerate(records):
            book.check_and_add(record_from_dict(data), place=f"/inbox/{n}.pdf")


def jobs(url: str) -> None:
    from extractor.service.config import open_store

    store = open_store(url)
    ids = []
    for n in range(3):
        data = f"document {n}".encode()
        job, _ = store.submit(
            tenant="acme",
            filename=f"doc{n}.pdf",
            data=data,
            sha256=hashlib.sha256(data).hexdigest(),
            fingerprint="settings-1",
            options={"n": n},
            idempotency_key=f"key-{n}",
            callback_url="https://hooks.example/done" if n == 0 else None,
        )
        ids.append(job.id)
    first = store.claim(lease=60.0)
    assert first is not None and store.finish(first, records=[{"source": "doc0.pdf", "status": "ok"}])
    second = store.claim(lease=60.0)
    assert second is not None and store.finish(second, error="the core raised")


def ledgers(path: Path) -> None:
    from extractor.jobs.ledger import Ledger
    from extractor.jobs.mail.ledger import MailLedger, mail_key

    with Ledger(path) as book:
        sha = hashlib.sha256(b"invoice one").hexdigest()
        book.see(sha, name="a.pdf")
        book.see(sha, name="copy-of-a.pdf")
        book.claim(sha, result_path="out/a.json")
        book.finish(sha, state="done", status="ok")
        other = hashlib.sha256(b"invoice two").hexdigest()
        book.see(other, name=f"mail/{mail_key('inbox', 'INBOX', 7, 42)}/0/b.pdf")
    with MailLedger(path) as mails:
        key = mail_key("inbox", "INBOX", 7, 42)
        mails.begin(
            key,
            mailbox="inbox",
            folder="INBOX",
            uidvalidity=7,
            uid=42,
            message_id="<m1@example>",
            sender="billing@example",
            subject="Invoice 42",
        )
        part = {"idx": 0, "name": "b.pdf", "content_type": "application/pdf", "size": 11, "outcome": "document"}
        mails.finish(key, state="done", parts=(part,))
        mails.mark_filed([key])


def postgres(admin_url: str, out: Path) -> None:
    import psycopg

    name = "extractor_stores_e61cea9"
    with psycopg.connect(admin_url, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    url = f"{admin_url.rpartition('/')[0]}/{name}"
    jobs(url)
    register(url, alongside=True)
    dump = subprocess.run(
        [str(PG_BIN / "pg_dump"), "--inserts", "--no-owner", "--no-privileges", "--dbname", url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # plain SQL: pg_dump 15.14+ wraps the dump in psql's \restrict meta-commands, which no driver runs
    plain = "".join(line for line in dump.splitlines(keepends=True) if not line.startswith("\\"))
    (out / "postgres-e61cea9.sql").write_text(plain, encoding="utf-8")


def main() -> None:
    out = Path(sys.argv[1])
    for name in ("register-e61cea9.sqlite", "ledger-e61cea9.sqlite", "jobs-e61cea9.sqlite"):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{out / name}{suffix}").unlink(missing_ok=True)
    register(str(out / "register-e61cea9.sqlite"))
    ledgers(out / "ledger-e61cea9.sqlite")
    jobs(str(out / "jobs-e61cea9.sqlite"))
    if len(sys.argv) > 2:
        postgres(sys.argv[2], out)


if __name__ == "__main__":
    main()
