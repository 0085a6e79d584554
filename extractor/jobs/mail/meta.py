"""What a record says of its mail, and what its files are called: the record's ``mail`` key (read from the mail's
header) and the name every file of a part starts with, which depends only on the mail's key and the part's place,
so that two attachments called ``invoice.pdf`` never collide.
"""

from __future__ import annotations

import dataclasses
import email.utils
import hashlib
from pathlib import PurePosixPath

from extractor.jobs.mail.parts import Part, parse_mail
from extractor.record import Record

MAX_STEM_BYTES = 120


def safe_stem(name: str | None) -> str:
    """A file-name stem from an attachment's name: no folders, no control or path characters, bounded."""
    stem = PurePosixPath((name or "").replace("\\", "/")).stem or "attachment"
    text = "".join("_" if ord(c) < 32 or c in '/\\:*?"<>|\x7f' else c for c in stem).strip(" .") or "attachment"
    return text.encode("utf-8")[:MAX_STEM_BYTES].decode("utf-8", "ignore")


def part_stem(key: str, part: Part) -> str:
    """The name every file of a part starts with: ``<mail key>-<index>[.<member>]-<name>``."""
    member = f".{hashlib.sha256(part.member.encode()).hexdigest()[:6]}" if part.member else ""
    return f"{key}-{part.index}{member}-{safe_stem(part.member or part.name)}"


def mail_meta(header: bytes, *, mailbox: str, folder: str, uidvalidity: int, uid: int) -> dict:
    """The record's ``mail`` key (without ``attachment``) from a mail's header."""
    message = parse_mail(header)

    def text(name: str) -> str | None:
        try:
            value = message.get(name)
            return " ".join(str(value).split()) if value is not None else None
        except (LookupError, ValueError, TypeError, IndexError):
            return None

    recipients = []
    for name in ("To", "Cc"):
        try:
            values = [str(v) for v in message.get_all(name) or ()]
        except (LookupError, ValueError, TypeError, IndexError):
            values = []
        recipients += [address for _, address in email.utils.getaddresses(values) if address]
    try:
        date = email.utils.parsedate_to_datetime(text("Date") or "").isoformat()
    except (TypeError, ValueError, IndexError):
        date = None
    return {
        "mailbox": mailbox,
        "folder": folder,
        "uidvalidity": uidvalidity,
        "uid": uid,
        "message_id": (text("Message-ID") or "").strip() or None,
        "from": text("From"),
        "to": recipients,
        "subject": text("Subject"),
        "date": date,
    }


def with_mail(record: Record, meta: dict, warnings: tuple, *, sha: str = "") -> Record:
    """The record with its ``mail`` key, the mail's warnings (once) and, where it has none, the part's sha256."""
    extra = {**record.extra, "mail": meta}
    changes: dict = {"extra": extra}
    if warnings and not any(w.get("code") == "mail" for w in record.warnings):
        changes["warnings"] = tuple(record.warnings) + warnings
    if sha and not record.sha256:
        changes["sha256"] = sha
    return dataclasses.replace(record, **changes)


__all__ = ["mail_meta", "part_stem", "safe_stem", "with_mail"]
