"""``extract calibrate OUT...``: fit the per-field confidence on the records people reviewed.

Every record in the folders that has a ``<name>.reviewed.json`` beside it (``extract review``'s corrections) gives
one example per field of its ``fields``: its evidence's features (``trust.confidence.features``) and whether the
value was right: the reviewed data holds the same value at that pointer, normalised as ``extract eval`` compares
(``leaves.normalize_value``: a changed field was wrong, an approved one right; null and missing are the same).
``trust.calibration.fit`` fits the fusion over every field and per field type (``/line_items/*/amount``), the file is
written atomically, and the report gives the reliability before (the confidence the records hold) and after (the
fitted fusion on the same fields), over every field and per field type.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.leaves import field_path, normalize_value
from extractor.tools.evaluate import REVIEWED_SUFFIX
from extractor.trust.calibration import fit, reliability, write_calibration
from extractor.trust.confidence import ANY_FIELD, Calibration, features, scalars


@dataclass(frozen=True)
class Example:
    """One reviewed field: where, its type, its features, the confidence its record holds, and whether it was right."""

    record: str
    pointer: str
    kind: str
    x: dict
    stored: float
    right: bool


@dataclass(frozen=True)
class CalibrationReport:
    """What ``extract calibrate`` did: the records read, the file written, reliability before / after per type."""

    path: Path
    name: str
    records: int
    skipped: tuple[str, ...]
    rows: dict = field(default_factory=dict)  # field type -> {"before": reliability, "after": reliability}

    def to_dict(self) -> dict:
        """The report as JSON."""
        return {
            "calibration": str(self.path),
            "name": self.name,
            "records": self.records,
            "skipped": list(self.skipped),
            "reliability": self.rows,
        }

    def to_text(self) -> str:
        """A table: per field type, fields, wrong, ECE / AUROC / accuracy at 50-80-95 % coverage, before -> after."""
        lines = [
            f"calibration {self.name!r} written to {self.path} ({self.records} reviewed records)",
            f"{'field type':<34} {'fields':>6} {'wrong':>5}  {'ECE':>13}  {'AUROC':>13}  "
            f"{'acc@50':>13}  {'acc@80':>13}  {'acc@95':>13}",
        ]
        for kind, row in self.rows.items():
            before, after = row["before"], row["after"]
            wrong = round(before["fields"] * (1 - (before["accuracy"] or 0)))
            cells = [
                _pair(before["ece"], after["ece"]),
                _pair(before["auroc"], after["auroc"]),
                *(_pair(before["coverage"].get(c), after["coverage"].get(c)) for c in ("50", "80", "95")),
            ]
            lines.append(f"{kind:<34} {before['fields']:>6} {wrong:>5}  " + "  ".join(f"{c:>13}" for c in cells))
        for name in self.skipped:
            lines.append(f"skipped: {name}")
        return "\n".join(lines)


def _pair(before: float | None, after: float | None) -> str:
    def one(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    return f"{one(before)}->{one(after)}"


def collect(folders: Sequence[Path]) -> tuple[list[Example], int, list[str]]:
    """Every reviewed field of the records in ``folders``: (examples, reviewed records, skipped files with why).

    Raises:
        UsageError: a folder that does not exist.
    """
    examples: list[Example] = []
    skipped: list[str] = []
    records = 0
    for folder in folders:
        if not Path(folder).is_dir():
            raise UsageError(f"not a folder of records: {folder}", source=folder)
        for path in sorted(Path(folder).glob("*.json")):
            if path.name.endswith(REVIEWED_SUFFIX):
                continue
            reviewed_path = path.with_name(path.stem + REVIEWED_SUFFIX)
            if not reviewed_path.is_file():
                continue
            record, reviewed = _read(path), _read(reviewed_path)
            if not isinstance(record, dict) or not isinstance(record.get("fields"), dict):
                skipped.append(f"{path}: not a record with per-field evidence (made before `fields` existed?)")
                continue
            if not isinstance(reviewed, dict) or "data" not in reviewed:
                skipped.append(f"{reviewed_path}: not a reviewed file (no data)")
                continue
            records += 1
            examples += _examples(path.name, record, reviewed["data"])
    return examples, records, skipped


def _examples(name: str, record: dict, gold: Any) -> list[Example]:
    out = []
    fields = record["fields"]
    for pointer, parts in scalars(record.get("data")):
        entry = fields.get(pointer)
        if not isinstance(entry, dict) or not isinstance(entry.get("confidence"), (int, float)):
            continue
        value = _at(record.get("data"), parts)
        right = normalize_value(value) == normalize_value(_at(gold, parts))
        out.append(Example(name, pointer, field_path(parts), features(entry), float(entry["confidence"]), right))
    return out


def _at(data: Any, parts: tuple) -> Any:
    for part in parts:
        if isinstance(part, int) and isinstance(data, list) and part < len(data):
            data = data[part]
        elif isinstance(part, str) and isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return data


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def calibrate(folders: Sequence[Path], *, output: Path, name: str | None = None) -> CalibrationReport:
    """Fit the confidence on the reviewed records in ``folders`` and write the calibration file ``output``.

    Args:
        folders: folders of records (a batch's ``--out``, a watcher's OUT) with reviewed files beside them.
        output: the calibration file to write.
        name: its name in records (default: the file's stem).

    Raises:
        UsageError: no reviewed record, or no wrong (or no right) field to calibrate against.
    """
    examples, records, skipped = collect(folders)
    if not examples:
        raise UsageError(
            f"no reviewed records with per-field evidence in {', '.join(map(str, folders))}: "
            "review some with `extract review` first"
        )
    name = name or Path(output).stem
    fitted = fit([(e.kind, e.x, e.right) for e in examples], name=name)
    rows = {ANY_FIELD: _row(examples, fitted)}
    for kind in sorted({e.kind for e in examples}):
        rows[kind] = _row([e for e in examples if e.kind == kind], fitted)
    calibration = Calibration(
        name=name, models=fitted.models, report={"records": records, "fields": len(examples), "reliability": rows}
    )
    write_calibration(Path(output), calibration)
    return CalibrationReport(path=Path(output), name=name, records=records, skipped=tuple(skipped), rows=rows)


def _row(examples: Sequence[Example], fitted: Calibration) -> dict:
    right = [e.right for e in examples]
    after = [fitted.model_for(e.kind).score(e.x) for e in examples]
    return {"before": reliability([e.stored for e in examples], right), "after": reliability(after, right)}


__all__ = ["CalibrationReport", "Example", "calibrate", "collect"]
