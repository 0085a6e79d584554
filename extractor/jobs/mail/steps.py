"""One mail's exactly-once steps: note it, decide, extract each document, write its record, commit, file the mail.

Per mail (UID), in this order, each step atomic:

1. its key (mailbox, folder, UIDVALIDITY, UID; :func:`ledger.mail_key`): a mail already finished is only filed
   (step 6) when a stop came between 5 and 6, else left alone: it is never fetched again;
2. its header, size and structure are fetched; ``begin``: the ``mails`` row is ``running`` (attempts + 1);
   a Message-ID already read (the same mail delivered twice) makes it a ``duplicate``; a sender outside
   ``--allow-from`` makes it ``skipped``; so does a mail with nothing to extract (encrypted, HTML-only, no
   attachment, only logos): steps 5-6;
3. its content: the whole mail when it is within ``max_bytes``, else only its parts within the limit (the others
   are ``too_large`` unread), split into documents by :mod:`~extractor.jobs.mail.parts`;
4. each document through the intake core's exactly-once steps (:mod:`extractor.jobs.intake.document`, as the
   folder watcher's files): its sha256 in the ``documents`` ledger (content already finished: a duplicate, not
   extracted again), the attachment saved to ``OUT/attachments/``, claimed, extracted (a transient failure retried
   after the core's back-off, waited here), its record (with ``mail``) written atomically, fed
   (:mod:`extractor.jobs.feeds`: ``--jsonl``, ``--hook``), finished; each part's outcome goes to ``mail_parts``;
5. ``finish``: the mail is ``done``, ``failed`` (a document failed: its reason in the ledger), ``skipped`` or
   ``duplicate``;
6. it is filed on the server: flagged ``\\Seen`` + ``$Extracted`` (and moved to ``--done-folder``), or
   ``$ExtractFailed`` (moved to ``--failed-folder``), or ``$ExtractSkipped``; then ``filed`` in the ledger.

Crash safety (kill -9 anywhere): a mail leaves the folder (or gets its keyword) only in step 6, after the ledger
knows its outcome; a restart re-reads a ``running`` mail, and its documents already finished are not extracted
again (their sha256), the one in hand is extracted again into the same record path (its ``--jsonl`` line is not
appended twice; its ``--hook`` runs again: at least once). A record file's name depends
only on the mail key and the part's place (:mod:`~extractor.jobs.mail.meta`), so two attachments called
``invoice.pdf`` never collide.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from extractor.jobs.intake.document import STEPS as DOCUMENT_STEPS
from extractor.jobs.intake.document import Documents
from extractor.jobs.mail.client import DONE_KEYWORD, FAILED_KEYWORD, SKIPPED_KEYWORD, Head, Mailbox
from extractor.jobs.mail.ledger import MAIL_TERMINAL, MailLedger, mail_key
from extractor.jobs.mail.meta import mail_meta, part_stem, with_mail
from extractor.jobs.mail.parts import (
    MailBudget,
    MailContent,
    Part,
    charset_notes,
    encrypted,
    leaves_of_structure,
    mime_defects,
    parse_mail,
    parse_parts,
    read_leaf,
    read_mail,
    too_large,
)
from extractor.jobs.mail.settings import MailSettings
from extractor.jobs.pause import pause_at
from extractor.jobs.sinks import write_atomic, write_record_beside
from extractor.record import Record
from extractor.trust.verdict import error_record

log = logging.getLogger("extractor.jobs.mail")

# Test pause: EXTRACTOR_MAIL_TEST_PAUSE=STEP:FILE makes extract mail touch FILE and hang at STEP (one of STEPS).
TEST_PAUSE_ENV = "EXTRACTOR_MAIL_TEST_PAUSE"
STEPS = ("begun", *DOCUMENT_STEPS, "finished")  # a mail's own, and each of its documents' (the core's)
COUNTS = ("mails", "extracted", "failed", "duplicates", "skipped", "reconnects")
BATCH = 50  # mails whose headers are fetched in one command, and filed in one (per outcome)
PREFETCH_BYTES = 16 * 1024 * 1024  # mails fetched in one command, at most this many bytes together
PREFETCH_MAILS = 8  # mails fetched in one command, at most; the reader keeps two such groups ahead


class MailSteps:
    """Steps 1-6 for the folder's mails, one at a time, on the calling thread.

    Attributes:
        counts: what was done so far, by ``COUNTS`` name.
        stop: set to stop after the document in hand.
    """

    def __init__(
        self,
        *,
        box: Mailbox,
        out: Path,
        settings: MailSettings,
        documents: Documents,
        mails: MailLedger,
        on_record: Callable[[Record], None] | None,
    ) -> None:
        """Args: as ``mail``'s, with the connection, the core's steps (on the documents ledger and the opened
        feeds) and the mails ledger."""
        self.box = box
        self.out = out
        self.attachments = out / "attachments"
        self.settings = settings
        self.documents = documents
        self.mails = mails
        self.on_record = on_record
        self.stop: threading.Event = documents.stopping.event
        self.feeds = documents.feeds
        self.counts = dict.fromkeys(COUNTS, 0)
        self.filing: list[tuple[int, str, str]] = []  # (uid, key, state): finished, to be filed (step 6)
        self.parts: list[dict] = []  # the mail in hand's mail_parts rows, written with its outcome (step 5)
        # mails fetched and read ahead in the reader thread (``_prefetch``): (``mail`` key, content), None if gone
        self.ahead: dict[int, Future] = {}
        self.reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail-read")
        self.max_bytes = int(documents.extractor.settings.max_bytes)

    @property
    def folder(self) -> str:
        """The folder being read."""
        return self.box.url.folder

    def recover(self) -> None:
        """On start: delete what a kill during a record's write left, and re-queue the ``running`` documents."""
        recovered = self.documents.recover()
        if self.attachments.is_dir():
            for temporary in self.attachments.glob(".*.tmp"):  # an attachment being saved when a kill came
                temporary.unlink(missing_ok=True)
        if recovered:
            log.info("re-queued %d document(s) left running by an earlier stop", recovered)

    def file_unfiled(self) -> None:
        """File the mails finished before a stop came between steps 5 and 6."""
        for row in self.mails.unfiled(
            mailbox=self.box.url.mailbox, folder=self.folder, uidvalidity=self.box.uidvalidity
        ):
            self.filing.append((row.uid, row.key, row.state))
        self.flush()

    # ------------------------------------------------------------------------------------------------ one mail

    def take_all(self, uids: list[int]) -> None:
        """Steps 1-6 for the folder's pending mails, oldest first; their headers fetched ``BATCH`` at a time, and
        filed (step 6) a batch at a time too (a stop between steps 5 and 6 is caught up by ``file_unfiled``)."""
        url, uidvalidity = self.box.url, self.box.uidvalidity
        todo = []
        for uid in uids:
            row = self.mails.get(mail_key(url.mailbox, self.folder, uidvalidity, uid))
            if row is None or row.state not in MAIL_TERMINAL:
                todo.append(uid)
            elif not row.filed:
                self.filing.append((uid, row.key, row.state))
        try:
            for start in range(0, len(todo), BATCH):
                chunk = todo[start : start + BATCH]
                heads = self.box.heads(chunk)
                for index, uid in enumerate(chunk):
                    if self.stop.is_set():
                        break
                    if uid in heads:  # else moved or deleted meanwhile
                        self._prefetch(chunk[index:], heads)
                        self.take(uid, heads[uid])
                self.ahead.clear()
                self.flush()
                if self.stop.is_set():
                    return
            self.flush()
        finally:
            self.ahead.clear()  # a lost connection's reads are not used after the reconnect

    def _prefetch(self, uids: list[int], heads: dict[int, Head]) -> None:
        """Keep the reader thread two groups of mails ahead of the mail in hand (``uids[0]``): each group one FETCH
        of up to ``PREFETCH_MAILS`` mails within the size limit and ``PREFETCH_BYTES`` together, then each mail
        read. The fetch and the parse run beside the extraction of the mails before (a socket's wait holds no
        lock of Python's); a mail over the size limit is left to ``_content``, part by part."""
        waiting = [uid for uid in uids if uid in heads and heads[uid].size <= self.max_bytes]
        queued = sum(1 for uid in waiting if uid in self.ahead)
        rest = [uid for uid in waiting if uid not in self.ahead]
        while rest and queued < 2 * PREFETCH_MAILS:
            group = [rest.pop(0)]
            total = heads[group[0]].size
            while rest and len(group) < PREFETCH_MAILS and total + heads[rest[0]].size <= PREFETCH_BYTES:
                total += heads[rest[0]].size
                group.append(rest.pop(0))
            futures: dict[int, Future] = {uid: Future() for uid in group}
            self.ahead.update(futures)
            self.reader.submit(self._fetch_and_read, {uid: heads[uid] for uid in group}, futures)
            queued += len(group)

    def _fetch_and_read(self, heads: dict[int, Head], futures: dict[int, Future]) -> None:
        """In the reader thread: fetch a group's mails in one command (the Mailbox's lock keeps it apart from the
        commands of the watcher's thread), then read each in turn, resolving its future as soon as it is read."""
        try:
            raws = self.box.wholes(list(heads))
        except BaseException as exc:  # noqa: BLE001 - the mail in hand's thread raises it (a lost connection)
            for future in futures.values():
                future.set_exception(exc)
            return
        for uid, future in futures.items():
            try:
                raw = raws.get(uid)
                future.set_result(None if raw is None else (self._meta(heads[uid]), self._read(raw)))
            except BaseException as exc:  # noqa: BLE001 - raised where the mail is taken, as a read there would
                future.set_exception(exc)

    def _meta(self, head: Head) -> dict:
        """A mail's ``mail`` key from its header (in the reader thread when fetched ahead: pure)."""
        url, uidvalidity = self.box.url, self.box.uidvalidity
        return mail_meta(head.header, mailbox=url.mailbox, folder=self.folder, uidvalidity=uidvalidity, uid=head.uid)

    def _read(self, raw: bytes) -> MailContent:
        """A whole mail's parts (in the reader thread: pure, nothing shared)."""
        return read_mail(parse_parts(raw), max_bytes=self.max_bytes, zips=self.settings.zips)

    def flush(self) -> None:
        """Step 6 for the mails finished so far: flag (and move) them by outcome, then ``filed`` in the ledger."""
        settings = self.settings
        actions = {
            "done": (DONE_KEYWORD, True, settings.done_folder),
            "duplicate": (DONE_KEYWORD, True, settings.done_folder),
            "failed": (FAILED_KEYWORD, False, settings.failed_folder),
            "skipped": (SKIPPED_KEYWORD, False, None),
        }
        while self.filing:
            batch, self.filing = self.filing, []
            groups: dict[tuple, list[tuple[int, str]]] = {}
            for uid, key, state in batch:
                groups.setdefault(actions[state], []).append((uid, key))
            for (keyword, seen, folder), mails in groups.items():
                self.box.file([uid for uid, _ in mails], keyword=keyword, seen=seen, folder=folder)
                self.mails.mark_filed([key for _, key in mails])

    def take(self, uid: int, head: Head) -> None:
        """Steps 2-5 for one mail (a stop between its documents leaves it ``running`` for the next start)."""
        url, uidvalidity = self.box.url, self.box.uidvalidity
        key = mail_key(url.mailbox, self.folder, uidvalidity, uid)
        self.parts = []
        ahead = self.ahead.pop(uid, None)
        read = ahead.result() if ahead is not None else None  # None: not fetched ahead, or gone meanwhile
        meta = read[0] if read is not None else self._meta(head)
        row = self.mails.begin(
            key,
            mailbox=url.mailbox,
            folder=self.folder,
            uidvalidity=uidvalidity,
            uid=uid,
            message_id=meta["message_id"],
            sender=meta["from"],
            subject=meta["subject"],
        )
        pause_at(TEST_PAUSE_ENV, "begun")
        self.counts["mails"] += 1
        label = f"mail {meta['message_id'] or f'UID {uid}'} from {meta['from']!r} ({meta['subject']!r})"
        if self.settings.policy.given_up(row.attempts):
            self._end(uid, key, "failed", f"{label}: extract mail stopped {row.attempts - 1} times on it; given up")
            return
        original = self.mails.original(meta["message_id"], key=key) if meta["message_id"] else None
        if original is not None:
            self.counts["duplicates"] += 1
            self._end(uid, key, "duplicate", f"same Message-ID as mail {original.key} (UID {original.uid})")
            return
        if not self.settings.allowed(meta["from"]):
            self._end(uid, key, "skipped", f"sender {meta['from']!r} is not in --allow-from")
            return
        content = read[1] if read is not None else self._content(head)
        self.parts = [_part_row(part, outcome="skipped") for part in content.parts if part.outcome == "skipped"]
        if not content.documents and not content.errors:
            self._end(uid, key, "skipped", f"{label}: {content.skip_reason()}", notes=content.notes)
            return
        failures = []
        for part in content.parts:
            if part.outcome == "skipped":
                continue
            if self.stop.is_set():
                log.info("%s: stopping; the mail stays in the ledger and is read on, at the next start", label)
                return
            failed = self._document(key, meta, part, notes=content.notes, label=label)
            if failed is None:  # abandoned by a stop
                return
            if failed:
                failures.append(failed)
        if failures:
            self._end(uid, key, "failed", "; ".join(failures), notes=content.notes)
        else:
            self._end(uid, key, "done", None, notes=content.notes)

    def _end(self, uid: int, key: str, state: str, reason: str | None, *, notes: tuple[str, ...] = ()) -> None:
        """Step 5: the mail's outcome and its parts in the ledger; then it waits to be filed (step 6)."""
        self.mails.finish(key, state=state, reason=reason, notes="; ".join(notes) or None, parts=tuple(self.parts))
        if state == "skipped":
            self.counts["skipped"] += 1
            log.info("UID %d: skipped: %s", uid, reason)
        elif state == "failed":
            log.warning("UID %d: failed: %s", uid, reason)
        elif state == "duplicate":
            log.info("UID %d: %s: not read again", uid, reason)
        pause_at(TEST_PAUSE_ENV, "finished")
        self.filing.append((uid, key, state))

    def _content(self, head: Head) -> MailContent:
        """Step 3: the mail's parts; a mail over the size limit is read part by part, big parts not at all."""
        if head.size <= self.max_bytes:
            raw = self.box.wholes([head.uid]).get(head.uid)
            if raw is not None:
                return self._read(raw)
        header = parse_mail(head.header)
        notes = tuple(dict.fromkeys([*mime_defects(header), *charset_notes(header)]))
        unread = encrypted(header)
        if unread:
            return MailContent(parts=(), unread=unread, notes=notes)
        leaves = leaves_of_structure(head.structure)
        small = [leaf for leaf in leaves if leaf.decoded_size() <= self.max_bytes]
        fetched = self.box.sections(head.uid, small)
        parts: list[Part] = []
        budget = MailBudget(self.settings.zips)  # one for the whole mail, read whole or part by part (issue 50)
        for leaf in leaves:
            if leaf.section in fetched:
                message = parse_parts(fetched[leaf.section])
                parts += read_leaf(
                    message, index=leaf.index, max_bytes=self.max_bytes, zips=self.settings.zips, budget=budget
                )
            else:
                big = Part(
                    index=leaf.index,
                    name=leaf.name,
                    content_type=leaf.content_type,
                    size=leaf.decoded_size(),
                    outcome="error",
                )
                parts.append(too_large(big, self.max_bytes))
        return MailContent(parts=tuple(parts), notes=notes)

    # -------------------------------------------------------------------------------------------- one document

    def _document(self, key: str, meta: dict, part: Part, *, notes: tuple[str, ...], label: str) -> str | None:
        """Step 4 for one part: its record; returns "" (fine), the failure's reason, or None (a stop abandoned it)."""
        stem = part_stem(key, part)
        attachment = {
            "name": part.name,
            "index": part.index,
            "content_type": part.content_type,
            "size": part.size,
            "member": part.member,
        }
        record_meta = {**meta, "attachment": attachment}
        warnings = tuple({"code": "mail", "message": n} for n in notes)
        if part.outcome == "error":
            record = error_record(
                source=f"{meta['mailbox']}/{meta['folder']};UIDVALIDITY={meta['uidvalidity']}/;UID={meta['uid']}",
                code=part.code,
                message=f"{label}: {part.describe()}: {part.reason}",
            )
            path = self.out / f"{stem}.json"
            self.feeds.send(path, self._write(path, record, record_meta, warnings))
            self.parts.append({**_part_row(part, outcome="error"), "result_path": str(path)})
            self.counts["failed"] += 1
            log.warning("%s: %s: %s", label, part.describe(), part.reason)
            self._notify(record, record_meta, warnings)
            return f"{part.describe()}: {part.code}: {part.reason}"
        data = part.data or b""
        sha = hashlib.sha256(data).hexdigest()
        source_name = f"mail/{key}/{part.index}{f'/{part.member}' if part.member else ''}/{part.name or stem}"

        def saved() -> Path:  # the attachment, saved once the core knows its content is new
            self.attachments.mkdir(parents=True, exist_ok=True)
            target = self.attachments / f"{stem}{part.suffix}"
            if not target.exists():
                save_attachment(target, data)
            return target

        taken = self.documents.take(
            sha,
            name=source_name,
            result=self.out / f"{stem}.json",
            source=saved,
            prepare=lambda record: with_mail(record, record_meta, warnings, sha=sha),
        )
        if taken is None:
            log.info("%s: %s abandoned (stopping); it is read again at the next start", label, part.describe())
            return None
        entry = taken.entry
        if taken.record is None:  # the content was finished before: not extracted again
            mine = entry.sources[:1] == (source_name,)
            reason = None if mine else f"same content as {entry.sources[0]}"
            row = {
                **_part_row(part, outcome="document" if mine else "duplicate"),
                "sha256": sha,
                "reason": reason,
                "result_path": entry.result_path,
            }
            self.parts.append(row)
            if not mine:
                self.counts["duplicates"] += 1
                log.info("%s: %s: %s: not extracted again", label, part.describe(), reason)
            failed = mine and entry.state == "failed"
            return f"{part.describe()}: {entry.error_code}: {entry.error}" if failed else ""
        record, result = taken.record, entry.result_path
        error = record.errors[0] if taken.failed and record.errors else {}
        self.parts.append({**_part_row(part, outcome="document"), "sha256": sha, "result_path": result})
        self.counts["failed" if taken.failed else "extracted"] += 1
        if taken.failed:
            log.warning(
                "%s: %s: failed (%s): %s -> %s", label, part.describe(), error.get("code"), error.get("message"), result
            )
        else:
            log.info("%s: %s: %s -> %s", label, part.describe(), record.status, result)
        for _, one in taken.written:
            self._notify(one, record_meta, warnings)
        return f"{part.describe()}: {error.get('code')}: {error.get('message')}" if taken.failed else ""

    def _write(self, path: Path, record: Record, meta: dict, warnings: tuple, *, sha: str = "") -> Record:
        """Write one record with its ``mail`` key (and its e-invoices beside it), atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_record_beside(path, with_mail(record, meta, warnings, sha=sha))

    def _notify(self, record: Record, meta: dict, warnings: tuple) -> None:
        if self.on_record is None:
            return
        try:
            self.on_record(with_mail(record, meta, warnings))
        except Exception:  # noqa: BLE001 - a broken callback must not stop the loop
            log.exception("on_record failed")


def save_attachment(path: Path, data: bytes) -> None:
    """Save an attachment whole or not at all (``write_atomic`` without its fsyncs): like an input the watcher moves,
    it is the record's source, not its data; a kill -9 never leaves it half-written, and each fsync here cost ~10 %
    of the throughput (bench/mail.py)."""
    write_atomic(path, data, sync=False)


def _part_row(part: Part, *, outcome: str) -> dict:
    return {
        "idx": part.index,
        "member": part.member,
        "name": part.name,
        "content_type": part.content_type,
        "size": part.size,
        "outcome": outcome,
        "code": part.code or None,
        "reason": part.reason or None,
    }


__all__ = ["COUNTS", "STEPS", "TEST_PAUSE_ENV", "MailSteps", "save_attachment"]
