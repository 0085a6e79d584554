"""The schema as the prompt describes it (issue 47): a compact field list from any JSON Schema, the compact JSON Schema
where a part cannot be said shorter, and the record's note about it."""

from __future__ import annotations

import json

import pytest

from extractor.pipeline.describe import Description, describe, prompt_warnings
from extractor.pipeline.prompt import build_messages
from extractor.schema import BUILTIN_SCHEMAS, load_schema

ADDRESS = {
    "type": ["object", "null"],
    "properties": {"street": {"type": ["string", "null"]}, "city": {"type": "string"}},
    "required": ["street", "city"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("schema", "text", "as_json_schema"),
    [
        (
            {
                "type": "object",
                "properties": {
                    "number": {"type": "string", "description": "Invoice number"},
                    "date": {"type": ["string", "null"], "format": "date"},
                    "rate": {"type": "number", "minimum": 0, "maximum": 100},
                    "kind": {"enum": ["a", "b", None]},
                    "tags": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{2}$"}},
                    "seller": {
                        "type": "object",
                        "properties": {"address": ADDRESS},
                        "required": ["address"],
                    },
                    "buyer": {
                        "type": "object",
                        "properties": {"address": ADDRESS},
                        "required": ["address"],
                        "description": "Who pays",
                    },
                    "lines": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"qty": {"type": "integer"}}, "required": ["qty"]},
                    },
                },
                "required": ["number", "date", "rate", "seller"],
            },
            "number*, Invoice number\n"
            "date:date\n"
            "rate*:number 0..100\n"
            'kind:"a"|"b"\n'
            "tags:[string ^[A-Z]{2}$]\n"
            "seller*:{}\n"
            " address:{}\n"
            "  street\n"
            "  city*\n"
            "buyer:like seller, Who pays\n"
            "lines:[{}]\n"
            " qty*:integer",
            (),
        ),
        (  # a Pydantic model: $defs, $ref, Optional as anyOf with null, titles left out, a recursive reference
            {
                "$defs": {
                    "Node": {
                        "title": "Node",
                        "type": "object",
                        "properties": {
                            "name": {"title": "Name", "type": "string"},
                            "child": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}], "default": None},
                        },
                        "required": ["name"],
                        "additionalProperties": False,
                    }
                },
                "title": "Tree",
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node", "description": "The top"}},
                "required": ["root"],
                "additionalProperties": False,
            },
            "root*:{}, The top\n name*\n child:like root",
            (),
        ),
        (  # what a field list cannot say is shown as JSON Schema, that part only
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                },
                "required": ["id"],
                "additionalProperties": False,
            },
            'id*\neither:JSON Schema {"oneOf":[{"type":"string"},{"type":"integer"}]}',
            ("/either",),
        ),
        (  # a huge enum: its JSON Schema is the shorter way to say it
            {
                "type": "object",
                "properties": {"code": {"enum": [f"C{i:04d}" for i in range(100)]}},
                "additionalProperties": False,
            },
            "code:JSON Schema " + json.dumps({"enum": [f"C{i:04d}" for i in range(100)]}, separators=(",", ":")),
            ("/code",),
        ),
        (  # not an object at the top
            {"type": "array", "items": {"type": "string"}, "description": "Every name"},
            "answer*:[string], Every name",
            (),
        ),
    ],
)
def test_describe(schema, text, as_json_schema):
    description = describe(schema)
    assert (description.text, description.as_json_schema) == (text, as_json_schema)


def test_a_schema_a_list_cannot_say_is_shown_whole():
    schema = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert describe(schema).text == 'JSON Schema {"oneOf":[{"type":"string"},{"type":"integer"}]}'
    assert prompt_warnings(schema) == (
        {
            "code": "prompt_json_schema",
            "message": "the prompt shows the whole schema as compact JSON Schema: a field list would be longer or "
            "cannot say it",
        },
    )


def test_the_note_names_the_parts_once():
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The document's own number, as printed on it"},
            "x": {"not": {"type": "string"}},
            "y": {"if": {"type": "string"}, "then": {"maxLength": 3}},
        },
        "required": ["id"],
    }
    assert prompt_warnings(schema) == (
        {
            "code": "prompt_json_schema",
            "message": "the prompt shows /x, /y as compact JSON Schema: a field list would be longer or cannot say it",
        },
    )


@pytest.mark.parametrize("name", BUILTIN_SCHEMAS)
def test_builtin_schemas_are_described_without_json_schema_and_shorter(name):
    schema = load_schema(name)
    description = describe(schema.schema)
    assert description.as_json_schema == () and prompt_warnings(schema.schema) == ()
    assert len(description.text) < len(schema.compact()) / 2
    prefix = build_messages(schema, pages=1)[0].text
    assert description.text in prefix and schema.compact() not in prefix
    for name_ in schema.schema["properties"]:
        assert f"\n{name_}" in prefix  # every top-level field is named, at the start of its line


NULLABLE = ["string", "null"]


@pytest.mark.parametrize(
    ("member", "line"),
    [
        # what the rules say for every field is left out; words that only restate the name too
        ({"type": NULLABLE, "description": "Delivery date, if printed"}, "due:date, Delivery date"),
        ({"type": NULLABLE, "description": "Reference as printed (Leitweg-ID)"}, "due:date, Reference (Leitweg-ID)"),
        ({"type": NULLABLE, "description": "Category as printed or stated"}, "due:date, Category as printed or stated"),
        ({"type": NULLABLE, "description": "The due, if any"}, "due:date"),
        # codes that are plain words unquoted; named by the description in words: not listed
        ({"enum": ["a_b", "c", None]}, "due:a_b|c"),
        ({"enum": ["a b", "c"]}, 'due*:"a b"|"c"'),
        ({"enum": ["credit_note", "x-y"], "description": "A credit note, x y"}, "due*:code, A credit note, x y"),
        # the anchors a whole value implies
        ({"type": "string", "pattern": "^[A-Z]{3}$"}, "due*:string [A-Z]{3}"),
        # an object or a list of objects whose fields follow is not typed again
        ({"type": "object", "properties": {"x": {"type": "string"}}, "description": "When"}, "due*, When\n x"),
        ({"type": "array", "items": {"type": "object", "properties": {"x": {"type": "number"}}}}, "due*:[]\n x:number"),
    ],
)
def test_dense_rendering(member, line):
    if member.get("type") == NULLABLE:
        member = {**member, "format": "date"}
    schema = {"type": "object", "properties": {"due": member}, "required": ["due"]}
    assert describe(schema, dense=True) == Description(text=line)


def test_large_schemas_are_dense_small_ones_plain():
    en16931, invoice = load_schema("invoice-en16931").schema, load_schema("invoice").schema
    assert describe(invoice) == describe(invoice, dense=False)  # the records' prompt token counts stay
    assert describe(en16931) == describe(en16931, dense=True) != describe(en16931, dense=False)
    assert len(describe(en16931).text) < 0.95 * len(describe(en16931, dense=False).text)
