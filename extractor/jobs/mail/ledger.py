"""The mail ledger: two tables beside the watcher's in the same SQLite file (``OUT/.extractor/ledger.sqlite``).

Tables:
  mails       key (a short hash of mailbox, folder, UIDVALIDITY and UID), mailbox, folder, uidvalidity, uid,
              message_id, sender, subject, state (running / done / failed / skipped / duplicate), reason, notes,
              attempts, filed (0/1: the mail was flagged or moved on the server), created_at, updated_at
  mail_parts  (key, idx, member): every MIME leaf and ZIP member of a mail: name, content_type, size, sha256,
              outcome (document / duplicate / skipped / error), code, reason, result_path
  mail_outages mailbox (key): its server's last outage (``extract status`` shows it, :mod:`.outage` keeps it):
              since, error (the last one), attempts (reconnects tried), back_at (NULL while it goes on)

Opened through the database layer (``extractor.db``: ``SCHEMA`` its versions, ``mail_meta`` where it keeps them).
The documents themselves (each attachment's content, by sha256) are the watcher's ``documents`` rows
(:mod:`extractor.jobs.ledger`), with ``mail/<key>/<index>/<name>`` as their source names: a PDF that came by mail
and again through ``extract watch`` into the same OUT is extracted once. Every change is one transaction, so a
kill -9 leaves each row before or after a step.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from extractor.db import Migration, Naming, Schema, Tuning, before_the_layer, open_database, version_at
from extractor.db.database import DatabaseOwner, outlasting
from extractor.errors import UsageError
from extractor.jobs.ledger import BUSY_TIMEOUT, RUNNING, renamed_state, timestamp

MAIL_STATES = (RUNNING, "done", "failed", "skipped", "duplicate")
MAIL_TERMINAL = ("done", "failed", "skipped", "duplicate")
# version 1's tables, as release e61cea9 made them (a mail being read was processing: version 4 calls it running)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS mails (
    key TEXT PRIMARY KEY,
    mailbox TEXT NOT NULL,
    folder TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    uid INTEGER NOT NULL,
    message_id TEXT,
    sender TEXT,
    subject TEXT,
    state TEXT NOT NULL CHECK (state IN ('processing', 'done', 'failed', 'skipped', 'duplicate')),
    reason TEXT,
    notes TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    filed INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (mailbox, folder, uidvalidity, uid)
);
CREATE INDEX IF NOT EXISTS mails_message_id ON mails (message_id);
CREATE INDEX IF NOT EXISTS mails_state ON mails (state, updated_at);
CREATE TABLE IF NOT EXISTS mail_parts (
    key TEXT NOT NULL REFERENCES mails (key),
    idx INTEGER NOT NULL,
    member TEXT NOT NULL DEFAULT '',
    name TEXT,
    content_type TEXT,
    size INTEGER,
    sha256 TEXT,
    outcome TEXT NOT NULL,
    code TEXT,
    reason TEXT,
    result_path TEXT,
    PRIMARY KEY (key, idx, member)
);
"""
_OUTAGES = """
CREATE TABLE IF NOT EXISTS mail_outages (
    mailbox TEXT PRIMARY KEY,
    since TEXT NOT NULL,
    error TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    back_at TEXT
);
"""
SCHEMA = Schema(
    name="mail",
    meta="mail_meta",
    migrations=(
        *before_the_layer("mail ledger", (_SCHEMA,)),
        Migration(3, (_OUTAGES,), "a mail server's outages, for extract status"),
        Migration(4, (renamed_state("mails", "processing", RUNNING),), "processing is called running"),
    ),
    found=lambda db, tx, tables: 1 if "mails" in tables else None,  # before its version was kept
)
_NAMING = Naming("ledger", UsageError)
# NORMAL (WAL): a commit survives a kill -9, as every step needs; after a power cut the last mail rows may be
# missing, and that mail is read again: its documents (the watcher's table, FULL) are not extracted twice
_TUNING = Tuning(busy_timeout=BUSY_TIMEOUT, synchronous="NORMAL")
_COLUMNS = (
    "key, mailbox, folder, uidvalidity, uid, message_id, sender, subject, state, reason, notes, attempts, filed, "
    "created_at, updated_at"
)


def mail_key(mailbox: str, folder: str, uidvalidity: int, uid: int) -> str:
    """The short key of one mail on one server (12 hex digits; it prefixes the mail's record and file names)."""
    return hashlib.sha256(f"{mailbox}/{folder};UIDVALIDITY={uidvalidity}/;UID={uid}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class MailRow:
    """One ``mails`` row (see the module docstring)."""

    key: str
    mailbox: str
    folder: str
    uidvalidity: int
    uid: int
    message_id: str | None
    sender: str | None
    subject: str | None
    state: str
    reason: str | None
    notes: str | None
    attempts: int
    filed: int
    created_at: str
    updated_at: str

    def to_dict(self) -> dict:
        """The row as a JSON-ready dict."""
        return {name.strip(): getattr(self, name.strip()) for name in _COLUMNS.split(",")}


class MailLedger(DatabaseOwner):
    """The mail tables (one thread owns it, like the document ledger, ``jobs.ledger``)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        """Open the ledger file's mail tables (created when missing, unless ``create`` is False).

        Raises:
            UsageError: the file is not a usable ledger.
        """
        self.path = Path(path)
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = open_database(
            str(self.path), schema=SCHEMA, naming=_NAMING, tuning=_TUNING, create=create, alongside=True
        )

    @outlasting
    def _write(self, sql: str, params: tuple) -> None:
        with self.db.transaction() as tx:
            self.db.execute(tx, sql, params)

    @outlasting
    def _read(self, sql: str, params: tuple = ()) -> list:
        return self.db.read(sql, params)

    def _row(self, where: str, params: tuple) -> MailRow | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM mails WHERE {where}", params)
        return MailRow(*rows[0]) if rows else None

    # ---------------------------------------------------------------------------------------------------- reads

    def get(self, key: str) -> MailRow | None:
        """The row of a mail key, or None."""
        return self._row("key = ?", (key,))

    def original(self, message_id: str, *, key: str) -> MailRow | None:
        """An earlier mail (not ``key``, not itself a duplicate) with this Message-ID, or None."""
        return self._row(
            "message_id = ? AND key != ? AND state != 'duplicate' ORDER BY created_at LIMIT 1", (message_id, key)
        )

    def unfiled(self, *, mailbox: str, folder: str, uidvalidity: int) -> list[MailRow]:
        """Finished mails of this folder whose flag or move did not happen yet (a stop between the two)."""
        rows = self._read(
            f"SELECT {_COLUMNS} FROM mails WHERE mailbox = ? AND folder = ? AND uidvalidity = ? AND filed = 0 "
            "AND state != ? ORDER BY uid",
            (mailbox, folder, uidvalidity, RUNNING),
        )
        return [MailRow(*r) for r in rows]

    def parts(self, key: str) -> list[dict]:
        """A mail's parts, in order."""
        names = ("idx", "member", "name", "content_type", "size", "sha256", "outcome", "code", "reason", "result_path")
        rows = self._read(f"SELECT {', '.join(names)} FROM mail_parts WHERE key = ? ORDER BY idx, member", (key,))
        return [dict(zip(names, row, strict=True)) for row in rows]

    def report(self, *, recent: int = 10) -> dict:
        """Mails per state, and the most recent ones failed or skipped with their reasons (``extract status``)."""
        counts = dict.fromkeys(MAIL_STATES, 0)
        for state, n in self._read("SELECT state, count(*) FROM mails GROUP BY state"):
            counts[state] = n
        rows = self._read(
            f"SELECT {_COLUMNS} FROM mails WHERE state IN ('failed', 'skipped') ORDER BY updated_at DESC, key LIMIT ?",
            (recent,),
        )
        return {
            "counts": counts,
            "mails": sum(counts.values()),
            "recent": [MailRow(*r).to_dict() for r in rows],
            "outages": self.outages(),
        }

    def outages(self) -> list[dict]:
        """Each mailbox's last outage: ``{mailbox, since, error, attempts, back_at}`` (``back_at`` None: it goes
        on), by mailbox."""
        names = ("mailbox", "since", "error", "attempts", "back_at")
        rows = self._read(f"SELECT {', '.join(names)} FROM mail_outages ORDER BY mailbox")
        return [dict(zip(names, row, strict=True)) for row in rows]

    # --------------------------------------------------------------------------------------------------- writes

    def begin(
        self,
        key: str,
        *,
        mailbox: str,
        folder: str,
        uidvalidity: int,
        uid: int,
        message_id: str | None,
        sender: str | None,
        subject: str | None,
    ) -> MailRow:
        """Start (or, after a stop, start again) a mail: state ``running``, attempts + 1."""
        now = timestamp()
        self._write(
            "INSERT INTO mails (key, mailbox, folder, uidvalidity, uid, message_id, sender, subject, state, "
            "attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET attempts = attempts + 1, updated_at = excluded.updated_at",
            (key, mailbox, folder, uidvalidity, uid, message_id, sender, subject, RUNNING, now, now),
        )
        row = self.get(key)
        if row is None:
            raise LookupError(f"no mail row for {key}")
        return row

    def finish(
        self, key: str, *, state: str, reason: str | None = None, notes: str | None = None, parts: tuple[dict, ...] = ()
    ) -> None:
        """Mark a mail finished (its records are written), with what became of each of its parts, in one
        transaction.

        Args:
            key: the mail key.
            state: ``done``, ``failed``, ``skipped`` or ``duplicate``.
            reason: why (failed, skipped, duplicate).
            notes: defects said about the mail.
            parts: ``mail_parts`` rows (their columns but ``key``).
        """
        if state not in MAIL_TERMINAL:
            raise ValueError(f"finish: state must be one of {MAIL_TERMINAL}, got {state!r}")
        columns = (
            "idx",
            "member",
            "name",
            "content_type",
            "size",
            "sha256",
            "outcome",
            "code",
            "reason",
            "result_path",
        )
        insert = f"INSERT OR REPLACE INTO mail_parts (key, {', '.join(columns)}) VALUES (?{', ?' * len(columns)})"
        rows = [(key, *(part.get(c) or "" if c == "member" else part.get(c) for c in columns)) for part in parts]
        with self.db.transaction() as tx:
            self.db.executemany(tx, insert, rows)
            self.db.execute(
                tx,
                "UPDATE mails SET state = ?, reason = ?, notes = ?, updated_at = ? WHERE key = ?",
                (state, reason, notes, timestamp(), key),
            )

    def outage_failed(self, mailbox: str, *, error: str) -> None:
        """A connection to ``mailbox``'s server failed: its outage begins (since now), or goes on (the error and
        the attempts counted)."""
        now = timestamp()
        self._write(
            "INSERT INTO mail_outages (mailbox, since, error, attempts, back_at) VALUES (?, ?, ?, 1, NULL) "
            "ON CONFLICT (mailbox) DO UPDATE SET error = excluded.error, "
            "since = CASE WHEN mail_outages.back_at IS NULL THEN mail_outages.since ELSE excluded.since END, "
            "attempts = CASE WHEN mail_outages.back_at IS NULL THEN mail_outages.attempts + 1 ELSE 1 END, "
            "back_at = NULL",
            (mailbox, now, error),
        )

    def outage_ended(self, mailbox: str) -> None:
        """``mailbox``'s server answers again: its outage (if one goes on) ends now."""
        self._write("UPDATE mail_outages SET back_at = ? WHERE mailbox = ? AND back_at IS NULL", (timestamp(), mailbox))

    def mark_filed(self, keys: list[str]) -> None:
        """The mails were flagged or moved on the server (one transaction)."""
        now = timestamp()
        with self.db.transaction() as tx:
            self.db.executemany(
                tx, "UPDATE mails SET filed = 1, updated_at = ? WHERE key = ?", [(now, k) for k in keys]
            )


def mail_report(path: Path, *, recent: int = 10) -> dict | None:
    """The mail part of ``extract status`` for a ledger file, or None when no ``extract mail`` wrote to it."""
    if version_at(str(path), schema=SCHEMA, naming=_NAMING) is None:
        return None
    with MailLedger(path, create=False) as mails:
        return mails.report(recent=recent)


__all__ = ["MAIL_STATES", "MAIL_TERMINAL", "SCHEMA", "MailLedger", "MailRow", "mail_key", "mail_report"]
