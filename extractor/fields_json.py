"""A frozen dataclass as its JSON dict, where the JSON's keys really are the fields: one way to write ``to_dict``.

The fields come in their declared order (the JSON's key order); a tuple becomes a list and a dict a copy of it (one
level: the values are already JSON-ready), so the dict can be changed or compared with a JSON file read back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any


def fields_json(item: Any, *, leave_out: Collection[str] = (), keys: Mapping[str, str] | None = None) -> dict:
    """``item``'s fields as a JSON-ready dict.

    Args:
        item: a dataclass instance.
        leave_out: fields not in the JSON (bytes, a diagnostic, what another key says).
        keys: a field's key where the JSON names it otherwise (``{"fmt": "format"}``).

    Returns:
        ``{key: value}`` in the fields' order; tuples as lists, dicts copied.
    """
    renamed = keys or {}
    return {
        renamed.get(f.name, f.name): _json_value(getattr(item, f.name))
        for f in dataclasses.fields(item)
        if f.name not in leave_out
    }


def _json_value(value: Any) -> Any:
    """A tuple as a list and a dict as a copy (the JSON's containers); anything else as it is."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
