"""An answer of what is there (issue 47): the members a model may leave out, the grammar that lets it, and the
answer completed afterwards exactly as a model that wrote every ``null`` would have made it."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT

from extractor.runners.constrain.bounds import bounded_schema
from extractor.runners.constrain.omit import admits_null, complete, every_member_listed, omit_absent
from extractor.schema import load_schema

EXPECTED = ROOT / "samples" / "expected"
NULLABLE_OBJECT = {
    "type": "object",
    "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "integer"}, "c": {"type": "string"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"type": ["string", "null"]}, True),
        ({"type": "null"}, True),
        ({"type": "string"}, False),
        ({}, True),
        (True, True),
        (False, False),
        ({"enum": ["a", None]}, True),
        ({"enum": ["a"]}, False),
        ({"type": ["string", "null"], "enum": ["a"]}, False),
        ({"const": None}, True),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, True),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, False),
        ({"oneOf": [{"type": "null"}, {"type": ["null", "string"]}]}, False),  # null matches both: invalid
        ({"allOf": [{"type": ["string", "null"]}, {"type": ["null", "integer"]}]}, True),
        ({"$ref": "#/$defs/n"}, True),
        ({"$ref": "#/$defs/s"}, False),
        ({"$ref": "#/$defs/missing"}, False),
        ({"$ref": "https://example.com/s.json"}, False),
        ({"not": {"type": "string"}}, False),  # unsure: stays required
        ({"type": ["string", "null"], "if": {"type": "null"}, "then": False}, False),
    ],
)
def test_admits_null(node, expected):
    root = {"$defs": {"n": {"type": ["object", "null"]}, "s": {"type": "object"}}}
    assert admits_null(node, root) is expected


def test_bounded_schema_lets_only_nullable_required_members_be_left_out():
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"], "maxLength": 5},
            "b": {"type": "integer", "minimum": 0, "maximum": 9},
            "items": {
                "type": "array",
                "maxItems": 2,
                "items": {"$ref": "#/$defs/item"},
            },
        },
        "required": ["a", "b", "items"],
        "additionalProperties": False,
        "$defs": {
            "item": {
                "type": "object",
                "properties": {"x": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 9}, {"type": "null"}]}},
                "required": ["x"],
                "additionalProperties": False,
            }
        },
    }
    bounded = bounded_schema(schema)
    assert bounded["required"] == ["b", "items"]
    assert bounded["$defs"]["item"]["required"] == []
    assert schema["required"] == ["a", "b", "items"]  # the validation schema is untouched
    assert every_member_listed(bounded) == {
        **bounded,
        "required": ["a", "b", "items"],
        "$defs": {"item": {**bounded["$defs"]["item"], "required": ["x"]}},
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"b": 1}, {"a": None, "b": 1}),  # the required, nullable member comes back null
        ({"a": "x", "b": 1}, {"a": "x", "b": 1}),
        ({"b": 1, "c": "z"}, {"a": None, "b": 1, "c": "z"}),  # in the schema's order; c optional, kept
        ({"a": None}, {"a": None}),  # a required member that cannot be null is never invented
        ({"b": 1, "extra": 2}, {"a": None, "b": 1, "extra": 2}),
        ([{"b": 1}], [{"b": 1}]),  # not what the schema describes: as it is
        ("text", "text"),
    ],
)
def test_complete(value, expected):
    completed = complete(value, NULLABLE_OBJECT)
    assert completed == expected
    assert list(completed) == list(expected) if isinstance(expected, dict) else True


def test_complete_follows_refs_arrays_and_nullable_objects():
    schema = {
        "type": "object",
        "properties": {
            "party": {"anyOf": [{"$ref": "#/$defs/party"}, {"type": "null"}]},
            "lines": {"type": "array", "items": {"$ref": "#/$defs/party"}},
        },
        "required": ["party", "lines"],
        "$defs": {
            "party": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "vat": {"type": ["string", "null"]}},
                "required": ["name", "vat"],
            }
        },
    }
    lean = {"party": {"name": "A"}, "lines": [{"name": "B"}, {"name": "C", "vat": "DE1"}]}
    full = {"party": {"name": "A", "vat": None}, "lines": [{"name": "B", "vat": None}, {"name": "C", "vat": "DE1"}]}
    assert complete(lean, schema) == full
    assert complete({"lines": []}, schema) == {"party": None, "lines": []}
    assert omit_absent(full, schema) == lean


@pytest.mark.parametrize("name", ["invoice", "invoice-en16931", "receipt"])
def test_every_sample_answer_comes_back_whole(name):
    schema = load_schema(name).schema
    folder = EXPECTED / "en16931" if name == "invoice-en16931" else EXPECTED
    prefix = "receipt" if name == "receipt" else "invoice"
    answers = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob(f"{prefix}-*.json"))]
    assert answers
    for answer in answers:
        lean = omit_absent(answer, schema)
        assert json.dumps(complete(lean, schema)) == json.dumps(answer)  # equal, keys in the same order
    left_out = sum(len(json.dumps(a)) - len(json.dumps(omit_absent(a, schema))) for a in answers)
    assert left_out > 0


@pytest.fixture(scope="module")
def tokenizer():
    import llguidance

    from extractor.testing.tokenizer import _base_tokenizer

    return llguidance.LLTokenizer(json.dumps(_base_tokenizer()), eos_token=[248046])


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ('{"a":null,"b":1}', True),
        ('{"b":1}', True),  # a required member that may be null may be left out
        ('{"a":"x"}', False),  # a required member that cannot be null is never left out
        ('{"b":1,"a":null}', False),  # in the schema's order
        ('{"a":null,"b":1,"c":"z"}', True),
        ('{"b":1,"c":"z"}', True),
        ("{}", False),
    ],
)
def test_grammar_lets_out_only_what_may_be_null(tokenizer, text, accepted):
    from extractor.runners.constrain.grammar import compile_schema

    compiled = compile_schema(NULLABLE_OBJECT, tokenizer=tokenizer)
    matcher = compiled.new_matcher()
    ids = tokenizer.tokenize_bytes(text.encode("utf-8"))
    ok = matcher.validate_tokens(ids) == len(ids) and matcher.consume_tokens(ids) and matcher.is_accepting()
    assert ok is accepted


def test_jump_forward_still_forces_a_required_member_that_cannot_be_null(tokenizer):
    from extractor.runners.constrain.grammar import compile_schema

    schema = {
        "type": "object",
        "properties": {"a": {"type": ["string", "null"]}, "total": {"type": "integer"}},
        "required": ["a", "total"],
        "additionalProperties": False,
    }
    matcher = compile_schema(schema, tokenizer=tokenizer).new_matcher()
    ids = tokenizer.tokenize_bytes(b'{"a":null')
    assert matcher.consume_tokens(ids)
    assert matcher.compute_ff_bytes() == b',"total":'  # forced, as before the omission


def test_a_scripted_model_that_leaves_out_what_is_absent_makes_the_same_record(model_factory, tmp_path):
    from extractor import Extractor
    from extractor.testing import lean_answer

    answer = json.loads((EXPECTED / "en16931" / "invoice-de-einfach.json").read_text(encoding="utf-8"))
    full = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    tiny = model_factory.scripted(answer=full, schema="invoice-en16931", omit_absent=True)
    assert tiny.answer == lean_answer(answer, "invoice-en16931") and len(tiny.answer) < len(full) * 0.7
    with Extractor(model=str(tiny.path), schema="invoice-en16931", isolate=False) as ex:
        record = ex.extract(str(ROOT / "samples" / "invoice-de-einfach.pdf"))
    assert record.data == answer
    assert json.dumps(record.data, ensure_ascii=False) == json.dumps(answer, ensure_ascii=False)
    fields = record.to_dict()["fields"]
    assert fields["/seller/trading_name"]["tokens"] is None  # left out: no token of its own
    assert fields["/invoice_number"]["tokens"]
