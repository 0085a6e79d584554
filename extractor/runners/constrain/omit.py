"""An answer of what is there: which members the model may leave out, and the answer completed afterwards.

A member that is *required* and whose schema admits ``null`` (every optional term of the built-in schemas) may be
left out while generating: the bounded schema (:func:`~extractor.runners.constrain.bounds.bounded_schema`) drops
it from ``required`` (:func:`allow_omission`), so the grammar, or a server's structured output, lets the model skip
it, still in the schema's order (llguidance keeps the order of ``properties``). :func:`complete` puts it back as
``null`` once the answer is parsed, so the record is what it was: the same keys, the same order, the same ``null``
values; members that are not required stay missing when missing, as before. A required member that cannot be
``null`` is never left out, and where it is unsure whether ``null`` is allowed (``not``, ``if``, a ``$ref`` that does
not resolve) the member stays required.

:func:`omit_absent` is the inverse (an answer as a model that leaves out what is absent writes it: the testing kit's
scripts), and :func:`every_member_listed` undoes the omission for a server that insists on every member being
``required`` (OpenAI's strict structured outputs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_ONE = ("items", "additionalItems", "additionalProperties", "contains", "not", "if", "then", "else")


def _resolve(node: Any, root: Mapping[str, Any]) -> Any:
    """Follow a local ``$ref`` (``#/...``); None where it does not resolve (a remote or broken reference)."""
    seen: set[str] = set()
    while isinstance(node, Mapping) and isinstance(node.get("$ref"), str) and len(node) == 1:
        ref = node["$ref"]
        if not ref.startswith("#") or ref in seen:
            return None
        seen.add(ref)
        node = root
        for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/") if p]:
            node = node.get(part) if isinstance(node, Mapping) else None
    return node


def admits_null(node: Any, root: Mapping[str, Any], *, depth: int = 0) -> bool:
    """Whether ``null`` is certainly valid under a subschema (False where unsure: ``not``, ``if``, remote refs).

    Args:
        node: the subschema.
        root: the whole schema (local ``$ref`` targets).
        depth: reference depth so far (a recursive schema stops being sure at 32).

    Returns:
        True when ``null`` validates against it.
    """
    if depth > 32:
        return False
    if isinstance(node, bool):
        return node
    if not isinstance(node, Mapping) or any(k in node for k in ("not", "if", "$dynamicRef")):
        return False
    checks = [True]
    if "type" in node:
        types = node["type"]
        checks.append(types == "null" or (isinstance(types, list) and "null" in types))
    if "enum" in node:
        checks.append(isinstance(node["enum"], list) and None in node["enum"])
    if "const" in node:
        checks.append(node["const"] is None)
    if "$ref" in node:
        target = _resolve({"$ref": node["$ref"]}, root)
        checks.append(target is not None and admits_null(target, root, depth=depth + 1))
    for sub in node.get("allOf") or ():
        checks.append(admits_null(sub, root, depth=depth + 1))
    if node.get("anyOf"):
        checks.append(any(admits_null(sub, root, depth=depth + 1) for sub in node["anyOf"]))
    if node.get("oneOf"):
        checks.append(sum(admits_null(sub, root, depth=depth + 1) for sub in node["oneOf"]) == 1)
    return all(checks)


def omittable(node: Mapping[str, Any], root: Mapping[str, Any]) -> list[str]:
    """The required members of an object subschema that may be left out (their schema admits ``null``)."""
    properties = node.get("properties")
    required = node.get("required")
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return []
    return [name for name in required if name in properties and admits_null(properties[name], root)]


def _subschemas(node: Mapping[str, Any]):
    for key in _MAPS:
        if isinstance(node.get(key), Mapping):
            yield from node[key].values()
    for key in _LISTS + _ONE:
        sub = node.get(key)
        yield from sub if isinstance(sub, list) else [sub]


def allow_omission(schema: dict) -> None:
    """Drop, in place, every required member that admits ``null`` from its object's ``required`` (see above).

    Args:
        schema: a copy of the schema to generate with (modified in place; never the validation schema).
    """

    def visit(node: Any) -> None:
        if not isinstance(node, dict):
            return
        for sub in list(_subschemas(node)):
            visit(sub)
        left_out = set(omittable(node, schema))  # admits_null never reads ``required``: editing is safe
        if left_out:
            node["required"] = [name for name in node["required"] if name not in left_out]

    visit(schema)


def every_member_listed(schema: Mapping[str, Any]) -> dict:
    """A copy of a generation schema whose objects list every member that admits ``null`` as ``required`` again
    (a server that must see every member required: the model writes ``null`` for each, as before the omission).

    Args:
        schema: the bounded generation schema.

    Returns:
        The new schema.
    """
    import copy

    out = copy.deepcopy(dict(schema))

    def visit(node: Any) -> None:
        if not isinstance(node, dict):
            return
        for sub in list(_subschemas(node)):
            visit(sub)
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            required = list(node.get("required") or [])
            for name, sub in properties.items():
                if name not in required and admits_null(sub, out):
                    required.append(name)
            node["required"] = [name for name in properties if name in required] + [
                name for name in required if name not in properties
            ]

    visit(out)
    return out


def _object_branch(node: Any, value: Mapping, root: Mapping[str, Any]) -> Mapping | None:
    """The subschema that describes an object value: the node, or the one ``anyOf`` / ``oneOf`` branch with
    ``properties`` that holds every key of the value (None: no such branch, or more than one)."""
    node = _resolve(node, root)
    if not isinstance(node, Mapping):
        return None
    if isinstance(node.get("properties"), Mapping):
        return node
    if len(node.get("allOf") or ()) == 1:  # Pydantic's ``allOf: [{$ref}]`` beside a description
        return _object_branch(node["allOf"][0], value, root)
    branches = [_resolve(b, root) for key in ("anyOf", "oneOf") for b in node.get(key) or ()]
    fitting = [
        b
        for b in branches
        if isinstance(b, Mapping) and isinstance(b.get("properties"), Mapping) and set(value) <= set(b["properties"])
    ]
    return fitting[0] if len(fitting) == 1 else None


def _items(node: Any, root: Mapping[str, Any]) -> tuple[list, Any]:
    """(prefixItems, items) of an array subschema (through a ``$ref`` or a nullable ``anyOf``)."""
    node = _resolve(node, root)
    if not isinstance(node, Mapping):
        return [], None
    if "items" in node or "prefixItems" in node:
        return list(node.get("prefixItems") or []), node.get("items")
    for key in ("anyOf", "oneOf"):
        arrays = [
            b for b in (_resolve(b, root) for b in node.get(key) or ()) if isinstance(b, Mapping) and "items" in b
        ]
        if len(arrays) == 1:
            return list(arrays[0].get("prefixItems") or []), arrays[0].get("items")
    return [], None


def _walk(value: Any, node: Any, root: Mapping[str, Any], *, fill: bool) -> Any:
    if isinstance(value, list):
        prefix, items = _items(node, root)
        return [_walk(v, prefix[i] if i < len(prefix) else items, root, fill=fill) for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    schema = _object_branch(node, value, root)
    if schema is None:
        return value
    properties = schema["properties"]
    left_out = set(omittable(schema, root))
    extra = schema.get("additionalProperties")
    walked = {
        k: _walk(v, properties.get(k, extra if isinstance(extra, Mapping) else None), root, fill=fill)
        for k, v in value.items()
    }
    if not fill:
        return {k: v for k, v in walked.items() if not (v is None and k in left_out)}
    if not (left_out - set(walked)):
        return walked
    out = {name: walked.get(name) for name in properties if name in walked or name in left_out}
    out.update((k, v) for k, v in walked.items() if k not in out)
    return out


def complete(value: Any, schema: Mapping[str, Any]) -> Any:
    """Put back, as ``null``, every member the model left out that :func:`allow_omission` let it leave out.

    Keys come in the schema's order (as a model that writes every member writes them); members the schema does not
    require stay missing; anything the schema does not describe is returned as it is.

    Args:
        value: the parsed answer.
        schema: the JSON Schema as the user wrote it.

    Returns:
        The completed answer (a new value where something was put back; the same otherwise).
    """
    return _walk(value, schema, schema, fill=True)


def omit_absent(value: Any, schema: Mapping[str, Any]) -> Any:
    """An answer as a model that leaves out what is absent writes it: every ``null`` that :func:`complete` would
    put back is left out (``complete(omit_absent(v)) == v`` for an answer that follows the schema).

    Args:
        value: a full answer.
        schema: the JSON Schema as the user wrote it.

    Returns:
        The answer without those members.
    """
    return _walk(value, schema, schema, fill=False)


__all__ = ["admits_null", "allow_omission", "complete", "every_member_listed", "omit_absent", "omittable"]
