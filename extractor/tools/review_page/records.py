"""The records a review page may show: the record files in OUT, the sources they name, the reviewed files it writes.

Safe by construction: a record is addressed by its file's stem, looked up in a listing of OUT's own regular JSON
files (a name that is not in the listing, whatever its dots, slashes or encodings, is simply not found); a symlink
is listed only when it resolves inside OUT. A source file is used only when its content has the record's sha256.
"""

from __future__ import annotations

import datetime as dt
import getpass
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.jobs.sinks import write_atomic
from extractor.tools.evaluate import REVIEWED_SUFFIX
from extractor.trust.review import disagreements
from extractor.trust.verdict import INVALID, REVIEW, STATUSES

# what needs a person first: review and invalid, then the failures, ok last
STATUS_ORDER = (REVIEW, INVALID) + tuple(s for s in reversed(STATUSES) if s not in (REVIEW, INVALID))


@dataclass(frozen=True)
class Entry:
    """One record file in OUT.

    Attributes:
        name: the file's stem (the record's id in URLs).
        path: the record file.
        record: the record as read.
    """

    name: str
    path: Path
    record: dict

    def summary(self, reviewed: dict | None) -> dict:
        """The record's line in the list: status, source, supplier, invoice number, total, its review."""
        data = self.record.get("data")
        if not isinstance(data, dict):
            data = {}
        party = data.get("seller") or data.get("merchant") or {}
        return {
            "name": self.name,
            "status": self.record.get("status"),
            "source": self.record.get("source"),
            "file": (Path(str(self.record.get("source") or self.name)).name + _part_label(self.record.get("part"))),
            "supplier": party.get("name") if isinstance(party, dict) else None,
            "invoice_number": data.get("invoice_number"),
            "total": data.get("total"),
            "currency": data.get("currency"),
            "warnings": len(self.record.get("warnings") or ()),
            "confidence": lowest_confidence(self.record),
            "below": list((self.record.get("confidence") or {}).get("below") or ()),
            "errors": [e.get("message") for e in self.record.get("errors") or () if isinstance(e, dict)],
            "reviewed": None
            if reviewed is None
            else {
                "approved": reviewed.get("approved"),
                "reviewer": reviewed.get("reviewer"),
                "reviewed_at": reviewed.get("reviewed_at"),
            },
        }


def field_evidence(record: dict) -> list[dict]:
    """Each field's confidence and evidence (the record's ``fields``, ``trust.confidence``) for the record page,
    the least confident first (fields without a confidence last): ``{"pointer", "confidence", "below", "p_min",
    "p_mean", "margin_first", "tokens", "forced_tokens", "grounded", "source", "page", "checks", "agreement"}``;
    ``below``: under its threshold (the record's ``confidence.below``). Empty for a record without ``fields``."""
    below = set((record.get("confidence") or {}).get("below") or ())
    rows = []
    for pointer, entry in (record.get("fields") or {}).items():
        if not isinstance(entry, dict):
            continue
        grounding = entry.get("grounding") or {}
        confidence = entry.get("confidence")
        rows.append(
            {
                "pointer": pointer,
                "confidence": confidence if isinstance(confidence, (int, float)) else None,
                "below": pointer in below,
                **{k: entry.get(k) for k in ("p_min", "p_mean", "margin_first", "tokens", "forced_tokens")},
                "grounded": grounding.get("grounded"),
                "source": grounding.get("source"),
                "page": grounding.get("page"),
                "checks": [c for c in entry.get("checks") or () if isinstance(c, dict)],
                "agreement": entry.get("agreement"),
            }
        )
    return sorted(rows, key=lambda r: (r["confidence"] is None, r["confidence"] or 0.0))


def lowest_confidence(record: dict) -> float | None:
    """The lowest per-field confidence of a record (``fields``, ``trust.confidence``), or None without any."""
    values = [
        e["confidence"]
        for e in (record.get("fields") or {}).values()
        if isinstance(e, dict) and isinstance(e.get("confidence"), (int, float))
    ]
    return min(values) if values else None


def _least(record: dict) -> float:
    found = lowest_confidence(record)
    return 2.0 if found is None else found


def _part_label(part: Any) -> str:
    """`` (invoice 2 of 5, pages 3-4)`` for a record of a split file (``part``), else ""."""
    if not isinstance(part, dict) or not isinstance(part.get("pages"), list) or len(part["pages"]) != 2:
        return ""
    return f" (invoice {part.get('index')} of {part.get('of')}, pages {part['pages'][0]}-{part['pages'][1]})"


class RecordStore:
    """The record files of one output folder (a batch's ``--out`` or a watcher's ``OUT``)."""

    def __init__(self, out: Path, *, reviewer: str | None = None) -> None:
        """Open an output folder.

        Args:
            out: the folder.
            reviewer: who reviews (default: the OS user).

        Raises:
            UsageError: the folder does not exist.
        """
        if not Path(out).is_dir():
            raise UsageError(f"not a folder of records: {out}", source=out)
        self.out = Path(out).resolve()
        self.reviewer = reviewer or _os_user()
        self._read: dict[Path, tuple[tuple[int, int], Any]] = {}  # file -> ((mtime_ns, size), its JSON)

    def entries(self) -> list[Entry]:
        """Every record in the folder, ``review`` and ``invalid`` first, the least confident first within a status
        (``lowest_confidence``), then by name (files are parsed again only
        when they change, so a folder of thousands of records lists quickly)."""
        found, seen = [], {}
        for path in self.out.iterdir():
            if path.name.endswith(REVIEWED_SUFFIX) or path.suffix != ".json" or not self._inside(path):
                continue
            try:
                info = path.stat()
            except OSError:
                continue
            stamp = (info.st_mtime_ns, info.st_size)
            cached = self._read.get(path)
            record = cached[1] if cached is not None and cached[0] == stamp else _read_json(path)
            seen[path] = (stamp, record)
            if isinstance(record, dict) and {"status", "source"} <= set(record):
                found.append(Entry(name=path.stem, path=path, record=record))
        self._read = seen
        return self.ordered(found)

    @staticmethod
    def ordered(found: list[Entry]) -> list[Entry]:
        """``review`` and ``invalid`` first, the least confident first within a status, then by name."""
        rank: dict[object, int] = {status: i for i, status in enumerate(STATUS_ORDER)}  # a record may say anything
        # within a status, the least confident first (records without per-field confidence after them)
        return sorted(found, key=lambda e: (rank.get(e.record.get("status"), len(rank)), _least(e.record), e.name))

    @property
    def where(self) -> str:
        """Where the records are, as the list page names it: the folder."""
        return str(self.out)

    def entry(self, name: str) -> Entry | None:
        """The record named ``name`` (a file stem in the listing), or None."""
        return next((e for e in self.entries() if e.name == name), None)

    def reviewed(self, entry: Entry) -> dict | None:
        """The reviewed file of a record, or None."""
        found = _read_json(self.out / (entry.name + REVIEWED_SUFFIX))
        return found if isinstance(found, dict) else None

    def source(self, entry: Entry) -> Path | None:
        """The source file the record names, when it still has the record's content (also after a watcher moved
        it to ``processed/`` or ``failed/`` beside it; any content for an error record, which has no sha256);
        None otherwise."""
        named = Path(str(entry.record.get("source") or ""))
        if not named.name:
            return None
        sha = entry.record.get("sha256")
        bases = [named] if named.is_absolute() else [Path.cwd() / named, self.out.parent / named]
        for base in bases:
            for candidate in (base, base.parent / "processed" / base.name, base.parent / "failed" / base.name):
                if candidate.is_file() and (not sha or _sha256(candidate) == sha):
                    return candidate
        return None

    def save(self, entry: Entry, data: Any, *, approved: bool, learned: dict | None = None) -> dict:
        """Write ``OUT/<name>.reviewed.json`` atomically: the corrected data, who, when, the original status and
        which fields changed (JSON pointers); the model's record is never touched.

        Args:
            entry: the record reviewed.
            data: the corrected data (already valid against the schema).
            approved: whether the reviewer approved it.
            learned: what the review taught or demoted (``tools.learn.learn_review``), kept as ``learned``.

        Returns:
            What was written.
        """
        reviewed = {
            "version": 1,
            "record": entry.path.name,
            "source": entry.record.get("source"),
            "sha256": entry.record.get("sha256"),
            "schema": entry.record.get("schema"),
            "data": data,
            "reviewer": self.reviewer,
            "reviewed_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "original_status": entry.record.get("status"),
            "approved": approved,
            "changed": changed_fields(entry.record.get("data"), data),
        }
        if learned is not None:
            reviewed["learned"] = learned
        text = json.dumps(reviewed, ensure_ascii=False, indent=2) + "\n"
        write_atomic(self.out / (entry.name + REVIEWED_SUFFIX), text.encode("utf-8"))
        return reviewed

    def _inside(self, path: Path) -> bool:
        try:
            return path.is_file() and path.resolve().parent == self.out
        except OSError:
            return False


def changed_fields(original: Any, corrected: Any) -> list[str]:
    """The JSON pointers of the values a reviewer changed, added or removed (compared as ``extract eval`` does)."""
    return [d["path"] for d in disagreements(original, corrected)]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (containers)
        return "unknown"
