"""Status rules: exactly one status per record, and `length` never yields `ok`."""

import pytest

from extractor.trust.parse import parse_answer
from extractor.trust.verdict import decide

GOOD = '{"a": 1}'
SCHEMA_ERR = [{"code": "schema", "path": "/a", "message": "1 is not of type 'string'"}]

CASES = [
    # finish, text, schema errors, guard -> status, data kept, error codes, warning codes
    ("stop", GOOD, [], None, "ok", {"a": 1}, [], []),
    ("stop", GOOD + " and more", [], None, "ok", {"a": 1}, [], ["trailing_text"]),
    ("stop", GOOD, SCHEMA_ERR, None, "invalid", {"a": 1}, ["schema"], []),
    ("stop", "sorry, no idea", [], None, "invalid", None, ["no_json"], []),
    ("stop", '{"a": 1', [], None, "invalid", None, ["no_json"], []),
    ("length", '{"a": [1, 2', [], None, "truncated", None, ["truncated"], []),
    ("length", GOOD + "<|im_end|>" * 5, [], None, "runaway", {"a": 1}, ["runaway"], []),
    ("length", GOOD + "\n" * 50, SCHEMA_ERR, None, "runaway", {"a": 1}, ["runaway", "schema"], []),
    ("guard", GOOD, [], "end_marker", "ok", {"a": 1}, [], ["guard_end_marker"]),
    ("guard", GOOD, SCHEMA_ERR, "loop", "invalid", {"a": 1}, ["schema"], ["guard_loop"]),
    ("guard", '{"a": [1, 1, 1, 1', [], "loop", "runaway", None, ["runaway"], []),
]


@pytest.mark.parametrize("finish,text,schema_errors,guard,status,data,errors,warnings", CASES)
def test_decide(finish, text, schema_errors, guard, status, data, errors, warnings):
    v = decide(finish_reason=finish, parsed=parse_answer(text), schema_errors=schema_errors, guard=guard)
    assert (v.status, v.data) == (status, data)
    assert [e["code"] for e in v.errors] == errors
    assert [w["code"] for w in v.warnings] == warnings


@pytest.mark.parametrize("text", [GOOD, '{"a": [1', "", "nothing"])
def test_length_never_ok(text):
    assert decide(finish_reason="length", parsed=parse_answer(text), schema_errors=[]).status != "ok"
