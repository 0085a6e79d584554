"""Supplier master data for the register (``extract register import FILE``): read and checked whole before one
row is written, so a file is imported entirely or not at all.

Formats:

* **CSV** (UTF-8, a BOM allowed): a header with ``name``, ``vat_id`` and ``iban``, and optionally ``tax_number``,
  ``bic``, ``country`` (other columns are ignored); one supplier per row.
* **JSON**: a list of ``{name, vat_id, iban, tax_number?, bic?, country?}`` objects, or ``extract register
  export``'s ``{"suppliers": [...]}`` (each supplier's ``trusted_accounts`` imported as its IBANs).

Every bad row is named with its line (CSV) or index (JSON) and the reason, all at once: a row without a name, a
VAT id or IBAN whose format or check digits are wrong (python-stdnum, as ``trust.checks`` checks a record's), the
same supplier twice (by its register key: VAT id, else tax number, else name and IBAN), a file that is not UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from extractor.register.db import RegisterError
from extractor.register.keys import id_key, name_key, supplier_key
from extractor.trust.identifiers import vat_id_known

REQUIRED = ("name", "vat_id", "iban")
OPTIONAL = ("tax_number", "bic", "country")


class MasterDataError(RegisterError):
    """An import file refused whole: ``problems`` lists every bad line."""

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.problems = problems
        shown = "\n  ".join(problems[:50]) + (f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else "")
        super().__init__(f"{path}: refused, nothing imported ({len(problems)} problem(s)):\n  {shown}", source=path)


def read_master_data(path: Path | str) -> list[dict]:
    """Read and check an import file (module docstring).

    Returns:
        One ``{name, vat_id, tax_number, ibans: [...], bic, country}`` per supplier, values stripped (None when
        blank).

    Raises:
        MasterDataError: every bad line, or an unreadable file.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MasterDataError(path, [f"cannot read it ({exc.strerror or exc})"]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        why = f"line {line}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        raise MasterDataError(path, [why]) from None
    if path.suffix.lower() == ".json" or text.lstrip()[:1] in ("[", "{"):
        rows, problems = _json_rows(text)
    else:
        rows, problems = _csv_rows(text)
    problems += _check(rows)
    if problems:
        raise MasterDataError(path, problems)
    return [row for _, row in rows]


def _csv_rows(text: str) -> tuple[list[tuple[str, dict]], list[str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        expected = "name,vat_id,iban[,tax_number,bic,country]"
        return [], [f"line 1: the header lacks {', '.join(missing)} (expected {expected})"]
    reader.fieldnames = header
    rows = []
    for row in reader:
        values = {c: _blank(row.get(c)) for c in REQUIRED + OPTIONAL}
        iban = values.pop("iban")
        rows.append((f"line {reader.line_num}", {**values, "ibans": [iban] if iban else []}))
    return rows, []


def _json_rows(text: str) -> tuple[list[tuple[str, dict]], list[str]]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        return [], [f"not JSON ({exc})"]
    items = data.get("suppliers") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return [], ['expected a list of suppliers, or {"suppliers": [...]}']
    rows, problems = [], []
    for index, item in enumerate(items):
        where = f"supplier {index + 1}"
        if not isinstance(item, dict):
            problems.append(f"{where}: not an object")
            continue
        values = {c: _blank(item.get(c)) for c in ("name", "vat_id") + OPTIONAL}
        ibans = [_blank(a.get("iban")) for a in item.get("trusted_accounts") or [] if isinstance(a, dict)]
        ibans += [_blank(item.get("iban"))]
        rows.append((where, {**values, "ibans": [i for i in ibans if i]}))
    return rows, problems


def _check(rows: list[tuple[str, dict]]) -> list[str]:
    from stdnum import iban as iban_check

    problems: list[str] = []
    seen: dict[str, str] = {}
    for where, row in rows:
        if not row["name"]:
            problems.append(f"{where}: no name")
        if row["vat_id"] and vat_id_known(row["vat_id"], row["country"]) is False:
            problems.append(f"{where}: VAT id {row['vat_id']!r} has a wrong format or check digits")
        for iban in row["ibans"]:
            if not iban_check.is_valid(id_key(iban) or ""):
                problems.append(f"{where}: IBAN {iban!r} has a wrong length or check digits")
        first = (row["ibans"] or [None])[0]
        key = supplier_key(
            vat_id=id_key(row["vat_id"]),
            tax_number=id_key(row["tax_number"]),
            name=name_key(row["name"]),
            iban=id_key(first),
        )
        if key is not None and key in seen:
            problems.append(f"{where}: the same supplier ({key}) as {seen[key]}")
        elif key is not None:
            seen[key] = where
    return problems


def _blank(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


__all__ = ["OPTIONAL", "REQUIRED", "MasterDataError", "read_master_data"]
