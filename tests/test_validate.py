"""Schema loading by name or file, and validation errors as JSON pointers."""

import json

import pytest

from extractor.errors import SchemaError
from extractor.schema import load_schema, validate_data


def test_builtin_schemas_load():
    assert [load_schema(n).name for n in ("invoice", "receipt")] == ["invoice", "receipt"]
    assert "invoice_number" in load_schema("invoice").top_level_scalars()
    assert "line_items" not in load_schema("invoice").top_level_scalars()


def test_custom_schema_file(tmp_path):
    path = tmp_path / "po.schema.json"
    path.write_text(json.dumps({"type": "object", "properties": {"po": {"type": "string"}}, "required": ["po"]}))
    schema = load_schema(str(path))
    assert schema.name == "po"
    assert validate_data({"po": 5}, schema) == [
        {"code": "schema", "path": "/po", "message": "5 is not of type 'string'"}
    ]


@pytest.mark.parametrize(
    "content,needle",
    [(None, "not found"), ("{nope", "cannot read"), ("[1]", "must be an object"), ('{"type": 5}', "not a valid")],
)
def test_bad_schema_files(tmp_path, content, needle):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SchemaError, match=needle) as info:
        load_schema(str(path))
    assert str(path) in str(info.value)


def test_invoice_errors_are_pointers():
    schema = load_schema("invoice")
    errors = validate_data(
        {"invoice_number": "A1", "issue_date": "2026-13-45", "line_items": [{"amount": "x"}]}, schema
    )
    paths = {e["path"] for e in errors}
    assert "/issue_date" in paths  # format checking for dates is on
    assert "/line_items/0/amount" in paths
    assert "" in paths  # missing required keys are reported at the root


@pytest.mark.parametrize(
    "value, divisor, valid",
    [
        (4.35, 0.01, True),  # jsonschema's float division says 434.99999999999994
        (1234.56, 0.01, True),
        (0.3, 0.1, True),
        (4.355, 0.01, False),
        (7, 2, False),
        (8, 2, True),
    ],
)
def test_multiple_of_is_decimal_exact(tmp_path, value, divisor, valid):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"type": "object", "properties": {"x": {"type": "number", "multipleOf": divisor}}}))
    errors = validate_data({"x": value}, load_schema(str(path)))
    assert (errors == []) == valid, errors
