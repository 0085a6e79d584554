"""Bounding a JSON schema for generation: the copy a grammar (or a server's structured output) is built from.

Never used for validation: the record is validated against the schema as the user wrote it, so this copy only has
to be a subset of it. Bounds keep a weak model from generating forever:

* strings without ``maxLength`` get :data:`DEFAULT_MAX_LENGTH`;
* numbers and integers without bounds get ``±``:data:`NUMBER_LIMIT` (bounds the integer digits); numbers without
  ``multipleOf`` get ``multipleOf`` :data:`FRACTION_STEP` (at most 6 fraction digits, and no exponent);
* arrays without ``maxItems`` get :data:`DEFAULT_MAX_ITEMS`;
* objects that list ``properties`` and say nothing about other keys get ``additionalProperties: false``
  (otherwise a model may invent keys forever);
* ``format`` ``date``, ``date-time`` and ``time`` become exact patterns (llguidance's own accept 2023-02-30 and
  year 0000, which the validator rejects);
* required members that admit ``null`` are no longer required
  (:func:`~extractor.runners.constrain.omit.allow_omission`): the model may leave out what is absent, in the
  schema's order, and the answer is completed afterwards (:func:`~extractor.runners.constrain.omit.complete`).

``multipleOf`` stays out of the validation schema: jsonschema's float check rejects 4.35 / 0.01.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from extractor.runners.constrain.omit import allow_omission

DEFAULT_MAX_LENGTH = 512  # characters, for strings whose schema sets no maxLength
DEFAULT_MAX_ITEMS = 256  # for arrays whose schema sets no maxItems
NUMBER_LIMIT = 1e15  # |x| bound for numbers without minimum / maximum (15 integer digits; floats stay exact)
FRACTION_STEP = 1e-6  # multipleOf for numbers without one: at most 6 fraction digits

_YEAR = r"(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"  # 0001-9999
_LEAP_YEAR = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_MONTH_DAY = (
    r"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    r"|02-(?:0[1-9]|1[0-9]|2[0-8]))"
)
_DATE = rf"(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_YEAR}-02-29)"
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,6})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
# Exact patterns for formats whose llguidance grammar is looser than the validator (jsonschema + rfc3339).
FORMAT_PATTERNS = {"date": rf"^{_DATE}$", "date-time": rf"^{_DATE}T{_TIME}$", "time": rf"^{_TIME}$"}

_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_ONE = (
    "items",
    "additionalItems",
    "additionalProperties",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)


def bounded_schema(schema: Mapping[str, Any]) -> dict:
    """Return the copy of a schema that the grammar is compiled from: every value bounded (see module docstring).

    Args:
        schema: a JSON Schema (not modified).

    Returns:
        A new schema: missing maxLength / maxItems / number bounds / fraction steps filled in, date and time
        formats turned into exact patterns, objects with ``properties`` closed to other keys, required members
        that admit ``null`` made optional.
    """
    out = copy.deepcopy(dict(schema))
    _bound(out)
    allow_omission(out)
    return out


def _bound(node: Any) -> None:
    if not isinstance(node, dict):
        return  # boolean schemas
    for key in _SUBSCHEMA_MAPS:
        if isinstance(node.get(key), dict):
            for sub in node[key].values():
                _bound(sub)
    for key in _SUBSCHEMA_LISTS + _SUBSCHEMA_ONE:
        sub = node.get(key)
        for item in sub if isinstance(sub, list) else [sub]:
            _bound(item)
    _bound_node(node)


def _bound_node(node: dict) -> None:
    if "enum" in node or "const" in node:
        return  # the values are spelled out already
    types = node.get("type", [])
    types = {types} if isinstance(types, str) else set(types)
    if "string" in types:
        if node.get("format") in FORMAT_PATTERNS and "pattern" not in node:
            node["pattern"] = FORMAT_PATTERNS[node.pop("format")]
        node.setdefault("maxLength", DEFAULT_MAX_LENGTH)
    if types & {"number", "integer"}:
        if "minimum" not in node and "exclusiveMinimum" not in node:
            node["minimum"] = -NUMBER_LIMIT
        if "maximum" not in node and "exclusiveMaximum" not in node:
            node["maximum"] = NUMBER_LIMIT
    if "number" in types and "multipleOf" not in node:
        node["multipleOf"] = FRACTION_STEP
    if "array" in types:
        node.setdefault("maxItems", DEFAULT_MAX_ITEMS)
    open_keys = ("additionalProperties", "patternProperties", "unevaluatedProperties")
    if isinstance(node.get("properties"), dict) and not any(k in node for k in open_keys):
        node["additionalProperties"] = False


__all__ = [
    "DEFAULT_MAX_ITEMS",
    "DEFAULT_MAX_LENGTH",
    "FORMAT_PATTERNS",
    "FRACTION_STEP",
    "NUMBER_LIMIT",
    "bounded_schema",
]
