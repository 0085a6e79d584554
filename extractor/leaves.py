"""Leaves of JSON data: every scalar with its RFC 6901 JSON pointer, and values normalised for comparison.

One walk serves scoring (``extract eval``), cross-checking (``--cross-check``), grounding and schema errors, so
they all name a field the same way: ``/line_items/0/amount`` (``~`` written ``~0`` and ``/`` written ``~1`` inside
a key). The per-field score table drops list indexes: ``/line_items/*/amount``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

Part = str | int  # an object key, or a list index


class Leaf(NamedTuple):
    """One scalar of a JSON document.

    Attributes:
        pointer: its RFC 6901 JSON pointer (``""`` for a scalar document).
        value: the scalar as it is in the data.
        parts: the keys (str) and list indexes (int) leading to it.
    """

    pointer: str
    value: Any
    parts: tuple[Part, ...]


def leaves(data: Any, *, booleans: bool = True) -> Iterator[Leaf]:
    """Yield every scalar of a JSON document in document order, with its pointer.

    Nulls and strings that are empty or only whitespace are no value and are skipped, as are empty objects and
    lists (they hold no scalar).

    Args:
        data: any JSON value.
        booleans: False to skip ``true`` / ``false`` too (grounding cannot look them up in a text).

    Returns:
        An iterator of Leaf.
    """
    stack: list[tuple[tuple[Part, ...], Any]] = [((), data)]
    while stack:
        parts, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(((*parts, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(((*parts, i), item) for i, item in reversed(list(enumerate(value))))
        elif _is_value(value) and (booleans or not isinstance(value, bool)):
            yield Leaf(json_pointer(parts), value, parts)


def json_pointer(parts: Iterable[Part]) -> str:
    """Return the RFC 6901 JSON pointer for a path of keys / indexes (``""`` for the root).

    Args:
        parts: keys and list indexes, e.g. ``["line_items", 0, "amount"]`` (``/line_items/0/amount``).

    Returns:
        The pointer, with ``~`` and ``/`` inside a key escaped as ``~0`` and ``~1``.
    """
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def field_path(parts: Iterable[Part]) -> str:
    """Return the pointer of a field with its list indexes written ``*``: ``/line_items/*/amount``.

    Args:
        parts: the leaf's keys (str) and list indexes (int); an object key made of digits stays as it is.

    Returns:
        The field path, for tables that count a field over every list item.
    """
    return json_pointer("*" if isinstance(p, int) else p for p in parts)


def normalize_value(value: Any) -> str | None:
    """Normalise a scalar for comparison.

    Args:
        value: a JSON scalar.

    Returns:
        Strings casefolded with whitespace collapsed; numbers as plain normalised decimals (``19.0`` → ``19``);
        booleans ``true`` / ``false``; None for null and empty strings.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        try:
            d = Decimal(str(value))
        except InvalidOperation:
            return str(value)
        if not d.is_finite():
            return str(value)
        text = format(d.normalize(), "f")
        return "0" if text in ("-0", "0") else text
    text = " ".join(str(value).split()).casefold()
    return text or None


def _is_value(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())
