"""Where records go: one JSON file per input (atomic), a JSONL log, a CSV table."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from extractor.record import Record


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so readers see the old content or the new one, never a half-written file.

    Args:
        path: target file (its directory must exist).
        data: the bytes.

    Raises:
        OSError: the write failed (the target is untouched).
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
        suffix = "" if not part else f".part-{part['index']:0{len(str(part['of']))}d}-of-{part['of']}"
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


class JsonlSink:
    """One record per line, appended and flushed as each document finishes (a crash keeps every finished line)."""

    def __init__(self, path: Path) -> None:
        """Args: path: the JSONL file (truncated: the batch owns it)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)

    def write(self, record: Record) -> Path:
        """Append one line with a single write call."""
        os.write(self._fd, (record.to_json(indent=None) + "\n").encode("utf-8"))
        os.fsync(self._fd)
        return self.path

    def close(self) -> None:
        """Close the file."""
        os.close(self._fd)


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
        os.write(self._fd, self._line(self.header))

    @staticmethod
    def _line(values: Sequence) -> bytes:
        buf = io.StringIO()
        csv.writer(buf).writerow(values)
        return buf.getvalue().encode("utf-8")

    def write(self, record: Record) -> Path:
        """Append the record's row."""
        data = record.data if isinstance(record.data, dict) else {}
        part = record.extra.get("part")
        cells: list[Any] = [
            record.source,
            *([f"{part['index']}/{part['of']}" if part else ""] if self.parts else []),
            record.status,
        ]
        cells += ["" if data.get(c) is None else data.get(c) for c in self.header[len(cells) : -1]]
        cells.append("; ".join(e.get("message", "") for e in record.errors))
        os.write(self._fd, self._line(cells))
        return self.path

    def close(self) -> None:
        """Close the file."""
        os.fsync(self._fd)
        os.close(self._fd)
