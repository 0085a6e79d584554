"""Schemas: find them by name, path or Pydantic model class, and validate data against them (Draft 2020-12, dates
checked)."""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from extractor.errors import SchemaError, UsageError
from extractor.leaves import json_pointer

# the built-in schemas -> their Pydantic model's class name (extractor/schema_models.py; ``InvoiceEN16931`` in
# extractor/schema_models_en16931.py); ``invoice-en16931`` is
# the invoice schema's EN 16931 version (more fields; ``invoice`` stays as it was, so its records do too)
BUILTIN_CLASSES = {"invoice": "Invoice", "invoice-en16931": "InvoiceEN16931", "receipt": "Receipt"}
BUILTIN_SCHEMAS = tuple(BUILTIN_CLASSES)
# the model classes not in extractor/schema_models.py -> the module that holds them
_MODEL_MODULES = {"InvoiceEN16931": "schema_models_en16931"}
# the schemas whose data is an invoice: checked, grounded, merged and written as e-invoices as one
INVOICE_SCHEMAS = ("invoice", "invoice-en16931")
# the built-in schemas' Pydantic models, by the ``module:Class`` that names them: such a class is its schema's name
# (so ``schema=Invoice`` fingerprints, prompts and records as ``schema="invoice"``) without importing pydantic to tell
BUILTIN_MODELS = {
    **{f"extractor.{_MODEL_MODULES.get(cls, 'schema_models')}:{cls}": name for name, cls in BUILTIN_CLASSES.items()},
    **{f"extractor:{cls}": name for name, cls in BUILTIN_CLASSES.items()},  # the package's lazy export
}
# ``package.module:Class`` (or ``module:Outer.Inner``): a Pydantic model named on the command line, imported
_MODEL_REFERENCE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@dataclass(frozen=True)
class Schema:
    """A JSON Schema in use.

    Attributes:
        name: ``invoice``, ``receipt``, the custom file's stem or the Pydantic model's class name.
        source: where it was read from (a path, or ``module:Class`` for a Pydantic model).
        schema: the schema itself.
    """

    name: str
    source: str
    schema: Mapping[str, Any]

    def compact(self) -> str:
        """Return the schema as compact JSON for the prompt."""
        return json.dumps(self.schema, separators=(",", ":"), ensure_ascii=False)

    @property
    def builtin(self) -> bool:
        """Whether this is a shipped schema (``invoice``, ``invoice-en16931``, ``receipt``) read from its own file:
        its checks and key fields are ours; any other schema's key fields are its own (``key_fields``)."""
        shipped = builtin_schema_dir() / f"{self.name}.schema.json"
        return self.name in BUILTIN_SCHEMAS and Path(self.source).resolve() == shipped.resolve()

    def top_level_scalars(self) -> list[str]:
        """Return the top-level properties whose type is a scalar (for CSV columns)."""
        out = []
        for key, prop in (self.schema.get("properties") or {}).items():
            types = prop.get("type", [])
            types = [types] if isinstance(types, str) else list(types)
            if types and all(t in ("string", "number", "integer", "boolean", "null") for t in types):
                out.append(key)
            elif "enum" in prop and not types:
                out.append(key)
        return out


def builtin_schema_dir() -> Path:
    """Return the directory of the shipped schemas (inside the wheel, or the repository's ``schemas/``)."""
    try:
        from importlib.resources import files

        candidate = Path(str(files("extractor.schemas")))
        if (candidate / "invoice.schema.json").is_file():
            return candidate
    except (ModuleNotFoundError, TypeError):
        pass  # editable installs map the package without the data folder
    return Path(__file__).resolve().parents[1] / "schemas"


def is_model_class(value: object) -> TypeGuard[type]:
    """Whether ``value`` is a Pydantic v2 model class (a class with ``model_json_schema``; pydantic is not
    imported to tell)."""
    return isinstance(value, type) and hasattr(value, "model_json_schema")


def is_model_reference(value: object) -> TypeGuard[str]:
    """Whether ``value`` reads as ``module:Class`` (a Pydantic model to import) rather than a name or a path."""
    return isinstance(value, str) and _MODEL_REFERENCE.match(value) is not None and not Path(value).exists()


def schema_reference(value: str | type) -> str:
    """The text a schema setting stands for: the name or path as given, ``module:Class`` for a model class (so
    ``schema=MyInvoice`` and ``--schema module:MyInvoice`` fingerprint alike); a built-in schema's model, as a
    class or as ``module:Class``, is that schema's name (``schema=Invoice`` fingerprints as ``schema="invoice"``)."""
    text = f"{value.__module__}:{value.__qualname__}" if isinstance(value, type) else str(value)
    return BUILTIN_MODELS.get(text, text)


def model_class(reference: str) -> type:
    """Import the Pydantic model class that ``module:Class`` names.

    Raises:
        UsageError: the module cannot be imported, has no such class, or the class is not a Pydantic model.
    """
    module_name, _, qualname = reference.partition(":")
    here = os.getcwd()
    added = here not in sys.path
    if added:  # ``extract run --schema my_models:Invoice`` from the folder holding my_models.py, as python -m would
        sys.path.insert(0, here)
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"--schema {reference}: cannot import module {module_name!r} ({exc})") from exc
    finally:
        if added:
            sys.path.remove(here)
    for part in qualname.split("."):
        if not hasattr(value, part):
            raise UsageError(f"--schema {reference}: module {module_name!r} has no {qualname!r}")
        value = getattr(value, part)
    if not is_model_class(value):
        raise UsageError(f"--schema {reference}: {qualname!r} is not a Pydantic model class (no model_json_schema)")
    return value


def schema_model(value: str | type) -> type | None:
    """The class a schema setting names: the class itself, or ``module:Class`` imported; None for a builtin name
    or a path.

    Raises:
        UsageError: ``module:Class`` names nothing importable, or no Pydantic model.
    """
    if isinstance(value, type):
        return value
    return model_class(value) if is_model_reference(value) else None


def load_schema(name_or_path: str | type) -> Schema:
    """Load a schema by builtin name (``invoice``, ``receipt``), from a JSON file, or from a Pydantic v2 model
    (the class itself, or ``module:Class`` to import).

    Args:
        name_or_path: a builtin name, a path, a Pydantic model class or ``module:Class``.

    Returns:
        The Schema (for a model: named by the class, its source ``module:Class``, its ``model_json_schema()``;
        for ``Invoice`` / ``Receipt``, the built-in schema's own Schema, as by name).

    Raises:
        SchemaError: the file is missing, not JSON, or not a valid JSON Schema (a model's schema too).
        UsageError: ``module:Class`` names nothing importable, or no Pydantic model.
    """
    model = schema_model(name_or_path)
    if model is not None and schema_reference(model) not in BUILTIN_SCHEMAS:
        return _model_schema(model)
    # a builtin name or a path (schema_model took every other class); a built-in schema's model reads its file,
    # which its model_json_schema() equals (tests/test_schema_models.py), so prompts stay byte for byte the same
    text = schema_reference(model) if model is not None else str(name_or_path)
    if text in BUILTIN_SCHEMAS:
        path = builtin_schema_dir() / f"{text}.schema.json"
        name = text
    else:
        path = Path(text).expanduser()
        name = path.name.removesuffix(".json").removesuffix(".schema")
    return _load_schema_file(str(path), name)


def _model_schema(model: type) -> Schema:
    """The Schema of a Pydantic model class: its ``model_json_schema()``, checked like a file's."""
    source = schema_reference(model)
    if not is_model_class(model):
        raise UsageError(f"schema {source}: a class given as the schema must be a Pydantic v2 model")
    try:
        schema = model.model_json_schema()  # type: ignore[attr-defined]
    except Exception as exc:  # pydantic's own errors (a type it cannot express), without importing pydantic
        raise SchemaError(f"cannot build the JSON Schema of {source}: {exc}", source=source) from exc
    _check_schema(schema, source)
    return Schema(name=model.__name__, source=source, schema=schema)


@lru_cache(maxsize=32)
def _load_schema_file(path: str, name: str) -> Schema:
    try:
        schema = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SchemaError(f"schema file not found (use invoice, receipt or a path): {path}", source=path) from exc
    except (OSError, ValueError) as exc:
        raise SchemaError(f"cannot read schema: {exc}", source=path) from exc
    _check_schema(schema, path)
    return Schema(name=name, source=path, schema=schema)


def _check_schema(schema: Any, source: str) -> None:
    """Raise SchemaError unless ``schema`` is a valid Draft 2020-12 JSON Schema object."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError as JsError

    if not isinstance(schema, dict):
        raise SchemaError("a JSON Schema must be an object", source=source)
    try:
        Draft202012Validator.check_schema(schema)
    except JsError as exc:
        raise SchemaError(f"not a valid JSON Schema: {exc.message}", source=source) from exc
    field_thresholds(schema, source=source)  # a bad x-extractor-threshold fails here, at load
    key_fields(schema, source=source)  # a bad x-extractor-key too


THRESHOLD_KEY = "x-extractor-threshold"  # a field's auto-accept threshold, on its (sub)schema (``trust.confidence``)


def field_thresholds(schema: Mapping[str, Any], *, source: str = "schema") -> dict[str, float]:
    """The per-field auto-accept thresholds a schema sets (``x-extractor-threshold``, a number from 0 to 1 on a
    field's subschema), by field path (``/line_items/*/amount``: list indexes written ``*``, as
    ``leaves.field_path``). Followed through ``properties``, ``items``, local ``$ref`` and ``anyOf`` / ``oneOf`` /
    ``allOf``; a threshold on the root applies to every field without its own.

    Raises:
        SchemaError: a threshold that is not a number from 0 to 1 (naming the field and the schema).
    """
    out: dict[str, float] = {}
    _thresholds(schema, schema, (), out, source, depth=0)
    return out


def _thresholds(node: Any, root: Mapping, parts: tuple, out: dict, source: str, *, depth: int) -> None:
    if not isinstance(node, Mapping) or depth > 32:  # a recursive $ref stops here
        return
    path = json_pointer(parts)
    if THRESHOLD_KEY in node:
        value = node[THRESHOLD_KEY]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise SchemaError(
                f"{THRESHOLD_KEY} of {path or 'the root'}: expected a number from 0 to 1, got {value!r}",
                source=source,
            )
        out.setdefault(path, float(value))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for key in ref[2:].split("/"):
            target = target.get(key.replace("~1", "/").replace("~0", "~")) if isinstance(target, Mapping) else None
        _thresholds(target, root, parts, out, source, depth=depth + 1)
    for key, sub in (node.get("properties") or {}).items():
        _thresholds(sub, root, (*parts, key), out, source, depth=depth + 1)
    if isinstance(node.get("items"), Mapping):
        _thresholds(node["items"], root, (*parts, "*"), out, source, depth=depth + 1)
    for word in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(word) or ():
            _thresholds(sub, root, parts, out, source, depth=depth + 1)


KEY_MARK = "x-extractor-key"  # whether a field decides ``review`` when its value is not found on the page
_KEY_TYPES = frozenset({"string", "number", "integer"})  # a date is a string (format "date")


def key_fields(schema: Mapping[str, Any], *, source: str = "schema") -> tuple[str, ...]:
    """The key fields of a custom schema: those whose value, when it is not found on the document's pages, makes
    the record ``review`` (``trust.review``; the built-in schemas name theirs, ``grounding.key_fields_for``). By
    field path (``/line_items/*/amount``: list indexes written ``*``, as ``leaves.field_path``).

    By default every required string, number and integer leaf (a date is a string) reached through required
    properties and list items, except enums and constants (the schema's own words, which a page need not print as
    such). ``x-extractor-key: true`` or ``false`` on a field's subschema says otherwise; on an object or a list, for
    every field below it that does not say. Followed through ``properties``, ``items``, local ``$ref`` and
    ``anyOf`` / ``oneOf`` / ``allOf`` (``X | None`` is required, its null never looked for).

    Raises:
        SchemaError: a mark that is not true or false (naming the field and the schema).
    """
    out: dict[str, bool] = {}
    _keys(schema, schema, (), out, source, required=True, marked=None, depth=0)
    return tuple(path for path, key in out.items() if key)


def _keys(
    node: Any, root: Mapping, parts: tuple, out: dict, source: str, *, required: bool, marked: bool | None, depth: int
) -> None:
    if not isinstance(node, Mapping) or depth > 32:  # a recursive $ref stops here
        return
    path = json_pointer(parts)
    if KEY_MARK in node:
        if not isinstance(node[KEY_MARK], bool):
            raise SchemaError(
                f"{KEY_MARK} of {path or 'the root'}: expected true or false, got {node[KEY_MARK]!r}", source=source
            )
        marked = node[KEY_MARK]
    types = node.get("type")
    types = [t for t in ([types] if isinstance(types, str) else list(types or ())) if t != "null"]
    if types and set(types) <= _KEY_TYPES | {"boolean"}:  # a scalar leaf
        plain = "enum" not in node and "const" not in node and set(types) <= _KEY_TYPES
        out[path] = out.get(path, False) or (marked if marked is not None else required and plain)
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for key in ref[2:].split("/"):
            target = target.get(key.replace("~1", "/").replace("~0", "~")) if isinstance(target, Mapping) else None
        _keys(target, root, parts, out, source, required=required, marked=marked, depth=depth + 1)
    wanted = set(node.get("required") or ())
    for key, sub in (node.get("properties") or {}).items():
        below = required and key in wanted
        _keys(sub, root, (*parts, key), out, source, required=below, marked=marked, depth=depth + 1)
    if isinstance(node.get("items"), Mapping):
        _keys(node["items"], root, (*parts, "*"), out, source, required=required, marked=marked, depth=depth + 1)
    for word in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(word) or ():
            _keys(sub, root, parts, out, source, required=required, marked=marked, depth=depth + 1)


def validate_data(data: Any, schema: Schema) -> list[dict]:
    """Validate data against a schema, with format checking (dates, times).

    Args:
        data: the parsed JSON.
        schema: the Schema.

    Returns:
        A list of ``{"code": "schema", "path": pointer, "message": text}``, sorted by path; empty when valid.
    """
    from jsonschema import Draft202012Validator

    validator = _validator_class()(schema.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(data), key=lambda e: (json_pointer(e.absolute_path), e.message))
    return [{"code": "schema", "path": json_pointer(e.absolute_path), "message": e.message} for e in errors]


def _validator_class():
    """Draft 2020-12 with an exact ``multipleOf``: jsonschema divides floats, so 4.35 is "not a multiple of 0.01";
    here both numbers are read as the decimals they print as."""
    from jsonschema import Draft202012Validator, ValidationError, validators

    def multiple_of(validator, divisor, instance, schema):
        if not validator.is_type(instance, "number") or isinstance(instance, bool):
            return
        quotient = Decimal(repr(instance)) / Decimal(repr(divisor))
        if quotient != quotient.to_integral_value():
            yield ValidationError(f"{instance!r} is not a multiple of {divisor!r}")

    return validators.extend(Draft202012Validator, {"multipleOf": multiple_of})
