"""Schemas: find them by name or path, and validate data against them (Draft 2020-12, dates checked)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from extractor.errors import SchemaError
from extractor.leaves import json_pointer

BUILTIN_SCHEMAS = ("invoice", "receipt")


@dataclass(frozen=True)
class Schema:
    """A JSON Schema in use.

    Attributes:
        name: ``invoice``, ``receipt`` or the custom file's stem.
        source: where it was read from.
        schema: the schema itself.
    """

    name: str
    source: str
    schema: Mapping[str, Any]

    def compact(self) -> str:
        """Return the schema as compact JSON for the prompt."""
        return json.dumps(self.schema, separators=(",", ":"), ensure_ascii=False)

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


def load_schema(name_or_path: str) -> Schema:
    """Load a schema by builtin name (``invoice``, ``receipt``) or from a JSON file.

    Args:
        name_or_path: a builtin name or a path.

    Returns:
        The Schema.

    Raises:
        SchemaError: the file is missing, not JSON, or not a valid JSON Schema.
    """
    if name_or_path in BUILTIN_SCHEMAS:
        path = builtin_schema_dir() / f"{name_or_path}.schema.json"
        name = name_or_path
    else:
        path = Path(name_or_path).expanduser()
        name = path.name.removesuffix(".json").removesuffix(".schema")
    return _load_schema_file(str(path), name)


@lru_cache(maxsize=32)
def _load_schema_file(path: str, name: str) -> Schema:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError as JsError

    try:
        schema = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SchemaError(f"schema file not found (use invoice, receipt or a path): {path}", source=path) from exc
    except (OSError, ValueError) as exc:
        raise SchemaError(f"cannot read schema: {exc}", source=path) from exc
    if not isinstance(schema, dict):
        raise SchemaError("a JSON Schema must be an object", source=path)
    try:
        Draft202012Validator.check_schema(schema)
    except JsError as exc:
        raise SchemaError(f"not a valid JSON Schema: {exc.message}", source=path) from exc
    return Schema(name=name, source=path, schema=schema)


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
