"""The schema as the prompt describes it (issue 47): a compact field list from any JSON Schema, the compact JSON Schema
where a part cannot be said shorter, and the record's note about it."""

from __future__ import annotations

import json

import pytest

from extractor.pipeline.describe import Description, describe, prompt_rules, prompt_warnings
from extractor.pipeline.prompt import DENSE_FIELDS_LINE, FIELDS_LINE, build_messages
from extractor.schema import BUILTIN_SCHEMAS, Schema, load_schema

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
        ({"type": NULLABLE, "description": "The due's (Leitweg-ID)"}, "due:date (Leitweg-ID)"),
        ({"type": NULLABLE, "description": "Due, if printed beside it"}, "due:date, if printed beside it"),
        (
            {"type": NULLABLE, "description": "Address, split; null where a part is not printed."},
            "due:date, Address, split",
        ),
        ({"type": NULLABLE, "description": "as printed; scheme:id if given"}, "due:date; scheme:id if given"),
        # codes that are plain words unquoted; named by the description in words: not listed
        ({"enum": ["a_b", "c", None]}, "due:a_b|c"),
        ({"enum": ["a b", "c"]}, 'due*:"a b"|"c"'),
        ({"enum": ["credit_note", "x-y"], "description": "A credit note, x y"}, "due*:code, A credit note, x y"),
        (
            {"enum": ["partial_invoice", "invoice"], "description": "invoice, partial or instalment invoice"},
            "due*:code, invoice, partial or instalment invoice",
        ),
        (
            {"enum": ["partial_invoice", "x"], "description": "x, partial, a credit or an invoice"},
            "due*:partial_invoice|x, x, partial, a credit or an invoice",
        ),
        # the anchors a whole value implies
        ({"type": "string", "pattern": "^[A-Z]{3}$"}, "due*:string [A-Z]{3}"),
        # a described member's pattern or range: the description says what it is, the grammar enforces the form
        ({"type": "string", "pattern": "^[A-Z]{3}$", "description": "ISO 4217 code"}, "due*, ISO 4217 code"),
        ({"type": "number", "minimum": 0, "maximum": 100}, "due*:number 0..100"),
        ({"type": "number", "minimum": 0, "maximum": 100, "description": "In percent"}, "due*:number, In percent"),
        # an object or a list of objects whose fields follow is not typed again
        ({"type": "object", "properties": {"x": {"type": "string"}}, "description": "When"}, "due*, When\n x"),
        ({"type": "array", "items": {"type": "object", "properties": {"x": {"type": "number"}}}}, "due*:[]\n x:number"),
        # a parenthesis that lists the member's own fields (at any depth) is left out; others stay
        ({**ADDRESS, "description": "Where (streets, city)"}, "due, Where\n street\n city*"),
        ({**ADDRESS, "description": "Where (streets, town)"}, "due, Where (streets, town)\n street\n city*"),
    ],
)
def test_dense_rendering(member, line):
    if member.get("type") == NULLABLE:
        member = {**member, "format": "date"}
    schema = {"type": "object", "properties": {"due": member}, "required": ["due"]}
    assert describe(schema, dense=True) == Description(text=line, dense=True)


LONG = {"enum": ["S", "Z", None], "description": "VAT category: S standard rate, Z zero rated (long enough)"}


@pytest.mark.parametrize(
    ("first", "dense", "line"),
    [
        ({"code": LONG}, True, "b\n code:like code"),  # dense: by its name, the only one of that name so far
        ({"code": LONG}, False, "b:{}\n code:like a.code"),
        (
            {"code": LONG, "x": {"type": "object", "properties": {"code": {"enum": ["Q", "R"]}}}},
            True,
            "b\n code:like a.code",
        ),
    ],
)
def test_a_member_described_before_is_named(first, dense, line):
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": first},
            "b": {"type": "object", "properties": {"code": LONG, "n": {"type": "string"}}},
        },
    }
    assert describe(schema, dense=dense).text.endswith(f"{line}\n n")


def test_rules_beside_a_dense_list_do_not_list_its_fields():
    fields = {f"field_{i}": {"type": "string", "description": "x" * 40} for i in range(80)}
    listing = "Invoices (field 1, fields 2 and field 3): as printed (on paper)."
    large = {"type": "object", "description": listing, "properties": fields}
    small = {**large, "properties": dict(list(fields.items())[:2])}
    assert prompt_rules(large) == "Invoices: as printed (on paper)." and prompt_rules(small) == listing
    assert DENSE_FIELDS_LINE in build_messages(Schema(name="large", source="t", schema=large), pages=1)[0].text
    assert FIELDS_LINE in build_messages(Schema(name="small", source="t", schema=small), pages=1)[0].text


def test_large_schemas_are_dense_small_ones_plain():
    en16931, invoice = load_schema("invoice-en16931").schema, load_schema("invoice").schema
    assert describe(invoice) == describe(invoice, dense=False)  # the records' prompt token counts stay
    assert describe(en16931) == describe(en16931, dense=True) != describe(en16931, dense=False)
    assert len(describe(en16931).text) < 0.95 * len(describe(en16931, dense=False).text)
