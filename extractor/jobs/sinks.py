"""Where records go, written once here: one atomic writer (:func:`write_atomic`) for every file a job writes (records,
part files, e-invoices, their attachments, review files), one JSON Lines writer (:class:`JsonlWriter`: appended
exactly once across a kill -9; the batch's ``--jsonl`` is the same writer truncating its file at the start), one CSV
table (:class:`CsvSink`, cells safe to open in a spreadsheet: :func:`safe_cell`) and the record files' names
(:func:`part_path`: a file of several invoices, one ``.part-NN-of-M.json`` per part).
"""

from __future__ import annotations

import collections
import csv
import dataclasses
import errno
import hashlib
import io
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from extractor.errors import ExtractorError, UsageError
from extractor.record import Record

TAIL_LINES = 256  # a JSON Lines log's last lines whose keys are remembered on opening (JsonlWriter)
TAIL_BYTES = 16 * 1024 * 1024  # ... read from at most this many bytes at its end
# OWASP "CSV injection": a text cell starting with one of these is a formula to a spreadsheet; it is written with a
# leading single quote (https://owasp.org/www-community/attacks/CSV_Injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS)  # a write that fails for its file system, not its data


class OutputFull(ExtractorError, OSError):
    """A file could not be written: its file system is full or read-only (code ``disk_full``). Nothing torn is left
    (see each writer); a batch stops (exit 2, naming the file), ``extract watch`` and ``extract mail`` wait and
    try again (:mod:`extractor.jobs.intake`)."""

    code = "disk_full"
    disk_full = True  # errors.is_full: the same wait as a full store's


def _full(path: Path, exc: OSError) -> OSError:
    """The error to raise for a failed write of ``path``: an :class:`OutputFull` when the file system refused it."""
    if exc.errno not in FULL_ERRNOS:
        return exc
    why = "full" if exc.errno != errno.EROFS else "read-only"
    return OutputFull(
        f"{path}: cannot write it: {exc.strerror} (the file system of {path.parent} is {why})", source=path
    )


def append_whole(fd: int, data: bytes, *, path: Path) -> None:
    """Append ``data`` to an ``O_APPEND`` file with one write, fsync'd; on failure cut the file back to its size
    before, so no torn line stays behind (best effort: a file system that refuses even that is left as it is).

    Raises:
        OutputFull: the file system is full or read-only.
        OSError: any other failure.
    """
    size = os.fstat(fd).st_size
    try:
        os.write(fd, data)
        os.fsync(fd)
    except OSError as exc:
        try:
            os.ftruncate(fd, size)
        except OSError:
            pass
        raise _full(path, exc) from exc


def fsync_folder(folder: Path) -> None:
    """Make a rename (or a new file) in ``folder`` durable (best effort: some file systems refuse a folder's fsync)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Write a file so readers see the old content or the new one, never a half-written file: a temporary file beside
    it, fsync'd, renamed over it, then the folder fsync'd (the rename survives a power cut).

    Args:
        path: target file (its directory must exist).
        data: the bytes.
        sync: fsync the file and its folder (the default). ``False`` keeps the all-or-nothing rename without the
            fsyncs, for a copy that is not the record's data (a mail's saved attachment: see ``mail.steps``).

    Raises:
        OutputFull: the file system is full or read-only (naming the file; the target is untouched).
        OSError: the write failed otherwise (the target is untouched, no temporary file is left).
    """
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _full(path, exc) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _full(path, exc) from exc
        raise
    if sync:
        fsync_folder(path.parent)


def part_path(path: Path, part: Mapping) -> Path:
    """The file of one invoice of a file of several (the record's ``part``): ``<stem>.part-<i>-of-<n>.json`` beside
    ``path``, the index zero-padded to the width of n (the names sort in page order)."""
    return path.with_name(f"{path.stem}{part_suffix(part)}.json")


def part_suffix(part: Mapping | None) -> str:
    """``.part-<i>-of-<n>`` for a record's ``part`` (empty for a file of one invoice)."""
    return "" if not part else f".part-{part['index']:0{len(str(part['of']))}d}-of-{part['of']}"


def write_record(path: Path, record: Record) -> None:
    """Write one record file atomically (the ``--out`` format: indented JSON and a newline)."""
    write_atomic(path, (record.to_json() + "\n").encode("utf-8"))


def write_einvoices(record_path: Path, record: Record) -> Record:
    """Write a record's e-invoices (its ``einvoice`` key, ``--einvoice``) beside its file, atomically, as
    ``<name>.<format>.xml`` (``.pdf`` for ``facturx``), and return the record with each entry's ``path`` filled.

    The XML is written again from the record's data (the writer is deterministic) and must hash to the ``sha256``
    its check recorded: the file written is the file that was checked. A format whose entry holds an ``error`` (not
    checked, or no file it could go into) is not written.

    Raises:
        OSError: a write failed.
        RuntimeError: the XML differs from the checked one (never written then).
    """
    entries = record.extra.get("einvoice")
    if not isinstance(entries, dict) or not entries:
        return record
    from extractor.einvoice.facturx import EinvoiceWriteError  # lxml / factur-x only when asked for
    from extractor.einvoice.formats import BY_NAME
    from extractor.einvoice.record_xml import einvoice_bytes, einvoice_xml

    written = {}
    for fmt, entry in entries.items():
        if entry.get("error"):
            written[fmt] = entry
            continue
        if hashlib.sha256(einvoice_xml(record, fmt)).hexdigest() != entry.get("sha256"):
            raise RuntimeError(f"{record.source}: the {fmt} e-invoice differs from the one checked; not written")
        try:
            data = einvoice_bytes(record, fmt)
        except EinvoiceWriteError as exc:  # e.g. the source PDF changed since: the record says so, nothing written
            written[fmt] = {**entry, "valid": False, "error": str(exc)}
            continue
        target = record_path.with_name(f"{record_path.stem}.{fmt}.{BY_NAME[fmt].suffix}")
        write_atomic(target, data)
        written[fmt] = {**entry, "path": str(target)}
    return dataclasses.replace(record, extra={**record.extra, "einvoice": written})


# an embedded file's name as written: the XML's name reduced to its last part, these characters kept, this long
_UNSAFE_NAME = re.compile(r"[^\w.\- ]")
MAX_ATTACHMENT_NAME = 100


def attachment_file_name(name: str | None) -> str:
    """A file name for an embedded attachment that cannot leave its folder: the XML's name (never trusted) cut to
    its last path part, every character outside letters, digits, ``. - _`` and space replaced by ``_``, no leading
    dot, at most MAX_ATTACHMENT_NAME characters (its suffix kept); ``attachment`` when nothing is left."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = _UNSAFE_NAME.sub("_", base).strip(" .")
    if len(base) > MAX_ATTACHMENT_NAME:
        stem, dot, suffix = base.rpartition(".")
        suffix = suffix[:16] if dot and stem else ""
        base = base[: MAX_ATTACHMENT_NAME - len(suffix) - 1].rstrip(" .") + ("." + suffix if suffix else "")
    return base or "attachment"


def write_attachments(record_path: Path, record: Record) -> Record:
    """Write the files a record read from e-invoice XML names (``embedded.attachments``,
    ``--einvoice-attachments``) into ``<name>.attachments/`` beside its file, atomically, as ``<n>-<file name>``
    (``attachment_file_name``; n counts from 1, so two files never collide), and return the record with each
    entry's ``path`` filled. A record without their bytes (``Record.attachments``: e.g. read back from a file)
    is returned as it is.

    Raises:
        OSError: a write failed.
    """
    embedded = record.extra.get("embedded")
    if not isinstance(embedded, dict):
        return record
    entries = embedded.get("attachments")
    if not entries or len(entries) != len(record.attachments):
        return record
    folder = record_path.with_name(f"{record_path.stem}.attachments")
    folder.mkdir(exist_ok=True)
    written = []
    for n, (entry, data) in enumerate(zip(entries, record.attachments, strict=True), start=1):
        target = folder / f"{n}-{attachment_file_name(entry.get('name'))}"
        write_atomic(target, data)
        written.append({**entry, "path": str(target)})
    return dataclasses.replace(record, extra={**record.extra, "embedded": {**embedded, "attachments": written}})


def write_beside(record_path: Path, record: Record) -> Record:
    """Write what goes beside a record's file (its e-invoices, its e-invoice's attachments) and return the record
    that names their paths."""
    return write_attachments(record_path, write_einvoices(record_path, record))


def write_record_beside(path: Path, record: Record) -> Record:
    """Write what goes beside a record (``write_beside``), then the record file itself, atomically; return the
    record as written (with those files' paths): a crash between the two leaves files a retry rewrites."""
    record = write_beside(path, record)
    write_record(path, record)
    return record


class JsonDirSink:
    """One ``<stem>.json`` per input in a directory; same stems from different folders never collide."""

    def __init__(self, out_dir: Path) -> None:
        """Args: out_dir: the output directory (created if missing)."""
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._taken: dict[str, str] = {}  # file name -> source that owns it in this run

    def path_for(self, source: str, part: dict | None = None) -> Path:
        """Return the output path for a source, disambiguating clashing stems with a hash of the source path.

        Args:
            source: the input as given.
            part: the record's ``part`` for a file split into invoices: ``<stem>.part-<i>-of-<n>.json``, the index
                zero-padded to the width of n (the names sort in page order).

        Returns:
            The JSON path in the output directory.
        """
        stem = Path(source).name
        stem = Path(stem).stem if Path(stem).suffix else stem
        stem = stem or "document"
        suffix = part_suffix(part)
        name = f"{stem}{suffix}.json"
        owner = self._taken.get(name) or _existing_source(self.out_dir / name)
        if owner is not None and owner != source:
            digest = hashlib.sha256(os.path.abspath(source).encode()).hexdigest()[:8]
            name = f"{stem}-{digest}{suffix}.json"
        self._taken[name] = source
        return self.out_dir / name

    def part_paths(self, source: str) -> list[Path]:
        """The part files (``<stem>[-<hash>].part-*.json``) an earlier run may have written for a source."""
        stem = Path(Path(source).name).stem or "document"
        return sorted(
            set(self.out_dir.glob(f"{glob_escape(stem)}.part-*-of-*.json"))
            | set(self.out_dir.glob(f"{glob_escape(stem)}-????????.part-*-of-*.json"))
        )

    def write(self, record: Record) -> Path:
        """Write a record atomically and return its path; what goes beside it first (``write_beside``)."""
        path = self.path_for(record.source, record.extra.get("part"))
        write_record_beside(path, record)
        return path

    def close(self) -> None:
        """Nothing to flush; present for a uniform sink interface."""


def glob_escape(text: str) -> str:
    """A file name part with glob's special characters matched literally."""
    import glob

    return glob.escape(text)


def _existing_source(path: Path) -> str | None:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("source")
    except (OSError, ValueError, AttributeError):
        return None


def record_key(data: Mapping) -> str:
    """The key of the record file a record (as its JSON dict) is written to, the same when a document is done again.

    Its content's sha256 (``-`` for a record without one: a mail part too large to read), for a mail record the
    mail (mailbox, folder, UIDVALIDITY, UID) and attachment (index, ZIP member), and for a file of several invoices
    the part: ``<sha256>[/mail/<mailbox>/<folder>/<uidvalidity>/<uid>/<index>[/<member>]][/part-<i>-of-<n>]``. The
    ledger extracts a content once, so no two record files share one. Timings and the like are not in it.
    """
    parts = [str(data.get("sha256") or "-")]
    mail = data.get("mail")
    if isinstance(mail, Mapping):
        found = mail.get("attachment")
        attachment: Mapping = found if isinstance(found, Mapping) else {}
        parts += ["mail", *(str(mail.get(k)) for k in ("mailbox", "folder", "uidvalidity", "uid"))]
        parts.append(str(attachment.get("index")))
        if attachment.get("member"):
            parts.append(str(attachment["member"]))
    part = data.get("part")
    if isinstance(part, Mapping):
        parts.append(f"part-{part.get('index')}-of-{part.get('of')}")
    return "/".join(parts)


def repair_torn_line(fd: int) -> int:
    """Cut a torn last line (the file does not end in a newline) back to just after the last newline.

    Returns:
        The bytes cut (0 when the file was whole).
    """
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return 0
    end = size
    while end > 0:
        start = max(0, end - 64 * 1024)
        newline = os.pread(fd, end - start, start).rfind(b"\n")
        end = start + newline + 1 if newline >= 0 else start
        if newline >= 0:
            break
    os.ftruncate(fd, end)
    os.fsync(fd)
    return size - end


def tail_keys(fd: int, *, lines: int = TAIL_LINES, max_bytes: int = TAIL_BYTES) -> list[str]:
    """The keys of the last ``lines`` whole lines within the last ``max_bytes`` bytes, oldest first (a line
    that is not a JSON object is skipped: it stands for no record)."""
    size = os.fstat(fd).st_size
    start = max(0, size - max_bytes)
    tail = os.pread(fd, size - start, start)
    if start > 0:
        tail = tail[tail.find(b"\n") + 1 :] if b"\n" in tail else b""  # the first line may be cut: drop it
    keys = []
    for line in tail.splitlines()[-lines:]:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            keys.append(record_key(data))
    return keys


class JsonlWriter:
    """A JSON Lines file of records, each line appended with one ``os.write`` and fsync'd, exactly once across runs
    and kills: on opening, a torn last line (a file not ending in a newline) is cut back to the last newline, and
    the keys (:func:`record_key`) of its last ``TAIL_LINES`` lines are remembered; a record appended with a key
    among them is not appended again (the *earlier* line is kept, what a consumer may already have read).

    ``truncate`` (the batch's ``extract --jsonl``, which owns its file): the file is emptied on opening and every
    record is appended (a batch writes each input's line once itself; two inputs with the same content are two
    lines). Otherwise (``--jsonl`` of ``extract watch`` / ``extract mail``) it is never truncated: a long-running log.

    Attributes:
        path: the file.
        repaired: bytes of a torn last line cut on opening.
    """

    def __init__(self, path: Path, *, truncate: bool = False) -> None:
        """Open (create) the file with its folder, repair a torn last line and remember the keys of its last lines.

        Raises:
            UsageError: it cannot be opened or read (naming the file and why).
        """
        self.path = Path(path)
        self.truncate = truncate
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if truncate else 0)
            self._fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            raise UsageError(f"--jsonl {self.path}: cannot open it ({exc.strerror or exc})") from None
        try:
            self.repaired = repair_torn_line(self._fd)
            self.recent = collections.deque(() if truncate else tail_keys(self._fd), maxlen=TAIL_LINES)
        except OSError as exc:
            os.close(self._fd)
            raise UsageError(f"--jsonl {self.path}: cannot read it ({exc.strerror or exc})") from None

    def append(self, record: Record, *, key: str | None = None) -> bool:
        """Append the record's line (``record.to_json(indent=None)``) with one write, fsync'd; False (nothing
        written) when ``key`` is among the last lines (the same document done again after a kill). Without a key
        the line is always appended.

        Raises:
            OutputFull: the file system is full or read-only (nothing torn is left: ``append_whole``).
            ExtractorError: the write failed otherwise (code ``jsonl_write``, naming the file): a job stops before
                its ledger commit, so a restart writes the line again.
        """
        if key is not None and key in self.recent:
            return False
        try:
            append_whole(self._fd, (record.to_json(indent=None) + "\n").encode("utf-8"), path=self.path)
        except OutputFull:
            raise
        except OSError as exc:
            raise ExtractorError(
                f"--jsonl {self.path}: cannot append ({exc.strerror or exc})", code="jsonl_write"
            ) from None
        if key is not None:
            self.recent.append(key)
        return True

    def write(self, record: Record) -> Path:
        """The batch's sink interface: append the record's line (always) and return the file."""
        self.append(record)
        return self.path

    def close(self) -> None:
        """Close the file."""
        os.close(self._fd)


class JsonlSink(JsonlWriter):
    """The batch's ``--jsonl`` (``extract --jsonl``): the :class:`JsonlWriter` truncating its file on opening."""

    def __init__(self, path: Path) -> None:
        """Args: path: the JSONL file (emptied: the batch owns it)."""
        super().__init__(path, truncate=True)


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text, never runs: a text starting with ``= + - @``, a tab or a carriage
    return gets a leading single quote (OWASP's rule for CSV injection). Numbers (``int``, ``float``: values the
    record holds as JSON numbers, a negative amount too) stay numbers; everything else is text."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        text = "" if value is None else str(value)
        return "'" + text if text.startswith(FORMULA_STARTS) else text
    return value


class CsvSink:
    """One row per document: source, status and the schema's top-level scalar fields."""

    def __init__(self, path: Path, *, columns: Sequence[str], parts: bool = False) -> None:
        """Args: path: the CSV file (truncated); columns: the data fields to include; parts: a ``part`` column
        after ``source`` (``2/5``: the second of five invoices in the file; empty for a file of one)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.parts = parts
        self.header = ["source", *(["part"] if parts else []), "status", *columns, "errors"]
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        append_whole(self._fd, self._line(self.header), path=self.path)

    @staticmethod
    def _line(values: Sequence) -> bytes:
        buf = io.StringIO()
        csv.writer(buf).writerow([safe_cell(v) for v in values])
        return buf.getvalue().encode("utf-8")

    def write(self, record: Record) -> Path:
        """Append the record's row (whole, or not at all: ``append_whole``)."""
        data = record.data if isinstance(record.data, dict) else {}
        part = record.extra.get("part")
        cells: list[Any] = [
            record.source,
            *([f"{part['index']}/{part['of']}" if part else ""] if self.parts else []),
            record.status,
        ]
        cells += ["" if data.get(c) is None else data.get(c) for c in self.header[len(cells) : -1]]
        cells.append("; ".join(e.get("message", "") for e in record.errors))
        append_whole(self._fd, self._line(cells), path=self.path)
        return self.path

    def close(self) -> None:
        """Close the file."""
        os.fsync(self._fd)
        os.close(self._fd)
