"""Honest on every schema: a custom schema's key fields (``schema.key_fields``: by default its required strings,
numbers and dates; ``x-extractor-key`` says otherwise) decide ``review`` when their value is not on the page, so a
model's invention under a Pydantic model, a ``--schema`` file or a service request's own JSON Schema is never ``ok``.

End to end on a real tiny scripted model over ``samples/invoice-de-einfach.pdf`` (its text layer prints
RE-2026-0117, 31.01.2026, EUR and 2.377,78): the wrong answer is what the kit model once gave a ``MyInvoice``.
"""

import json
from datetime import date

import pytest
from helpers import ROOT
from pydantic import BaseModel, Field
from typer.testing import CliRunner

from extractor import Extractor, Status
from extractor.cli.commands import app, dispatch_args
from extractor.errors import SchemaError
from extractor.schema import key_fields, load_schema

SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"


# fields in alphabetical order: the service keeps a request's schema with its keys sorted, and the scripted answer
# follows the schema's order (constrained decoding writes the properties in that order)
class MyInvoice(BaseModel):
    currency: str
    invoice_number: str
    issue_date: date
    note: str | None = None  # optional: not a key field
    reference: str = Field(json_schema_extra={"x-extractor-key": False})  # required, but not a key field
    supplier: str | None = Field(default=None, json_schema_extra={"x-extractor-key": True})  # optional, a key field
    total: float


RIGHT = {"invoice_number": "RE-2026-0117", "issue_date": "2026-01-31", "currency": "EUR", "total": 2377.78}
WRONG = {"invoice_number": "RE-2026-0117", "issue_date": "0200-01-01", "currency": ":amount13.93}],", "total": -2018.2}
INVENTED = {"reference": "ZZ-invented-999", "supplier": None, "note": "Invented note text"}  # never key fields here
# what the wrong answer invented, among the key fields: not /total, whose -2018.2 grounding finds as the printed net
# amount 2.018,20 (numbers are compared unsigned: a credit note prints its amounts without a minus)
WRONG_KEYS = ["/currency", "/issue_date"]


def _answer(data: dict) -> str:
    answer = {**data, **INVENTED}
    return json.dumps({name: answer[name] for name in MyInvoice.model_fields}, separators=(",", ":"))


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "my-invoice.schema.json"
    path.write_text(json.dumps(MyInvoice.model_json_schema()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def wrong(model_factory, schema_file):
    return model_factory.scripted(answer=_answer(WRONG), then="im_end", schema=schema_file)


@pytest.fixture(scope="module")
def right(model_factory, schema_file):
    return model_factory.scripted(answer=_answer(RIGHT), then="im_end", schema=schema_file)


def _ungrounded(record: dict) -> list[str]:
    return sorted(w["path"] for w in record["warnings"] if w["code"] == "ungrounded")


# ------------------------------------------------------------------------------------------------- which fields


@pytest.mark.parametrize(
    "schema,expected",
    [
        ({"type": "string"}, ("",)),  # the root value itself
        ({"type": "boolean"}, ()),
        (  # required strings, numbers, integers and dates; optional, enum and const fields are not
            {
                "type": "object",
                "required": ["s", "n", "i", "d", "e", "c", "b"],
                "properties": {
                    "s": {"type": "string"},
                    "n": {"type": ["number", "null"]},
                    "i": {"type": "integer"},
                    "d": {"type": "string", "format": "date"},
                    "e": {"type": "string", "enum": ["a", "b"]},
                    "c": {"const": "x"},
                    "b": {"type": "boolean"},
                    "o": {"type": "string"},
                },
            },
            ("/s", "/n", "/i", "/d"),
        ),
        (  # list items' required leaves; nothing below an optional object
            {
                "type": "object",
                "required": ["items"],
                "properties": {
                    "items": {
                        "type": "array",
                        "items": {"type": "object", "required": ["q"], "properties": {"q": {"type": "number"}}},
                    },
                    "extra": {"type": "object", "required": ["z"], "properties": {"z": {"type": "string"}}},
                },
            },
            ("/items/*/q",),
        ),
        (  # marks: true on an optional field, false on a required one, false on an object for all below it
            {
                "type": "object",
                "required": ["a", "b", "party"],
                "properties": {
                    "a": {"type": "string", "x-extractor-key": False},
                    "b": {"type": "string"},
                    "opt": {"type": "string", "x-extractor-key": True},
                    "party": {
                        "type": "object",
                        "x-extractor-key": False,
                        "required": ["name", "vat"],
                        "properties": {"name": {"type": "string"}, "vat": {"type": "string", "x-extractor-key": True}},
                    },
                },
            },
            ("/b", "/opt", "/party/vat"),
        ),
        (  # through local $ref and anyOf (Pydantic's X | None and nested models)
            {
                "type": "object",
                "required": ["p"],
                "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
                "$defs": {"P": {"type": "object", "required": ["v"], "properties": {"v": {"type": "number"}}}},
            },
            ("/p/v",),
        ),
    ],
)
def test_key_fields_of_a_schema(schema, expected):
    assert key_fields(schema) == expected


def test_a_pydantic_models_key_fields_and_a_bad_mark():
    assert key_fields(MyInvoice.model_json_schema()) == (
        "/currency",
        "/invoice_number",
        "/issue_date",
        "/supplier",
        "/total",
    )
    bad = {"type": "object", "properties": {"n": {"type": "string", "x-extractor-key": "yes"}}}
    with pytest.raises(SchemaError, match=r"x-extractor-key of /n: expected true or false, got 'yes'"):
        key_fields(bad, source="mine.json")


def test_a_bad_mark_fails_at_load(tmp_path):
    path = tmp_path / "bad.schema.json"
    path.write_text(json.dumps({"type": "object", "properties": {"n": {"type": "string", "x-extractor-key": 1}}}))
    with pytest.raises(SchemaError, match="x-extractor-key of /n") as caught:
        load_schema(str(path))
    assert str(caught.value).startswith(f"{path}: ")


def test_the_built_in_schemas_keep_their_own_key_fields(tmp_path):
    """A shipped schema's key fields are ours (invoice: number, total, IBAN, VAT ids); the same schema copied to a
    file of the user's is a custom schema, with the default key fields."""
    from extractor.trust.grounding import KEY_FIELDS
    from extractor.trust.review import key_fields_of

    data = {"invoice_number": "A-1", "issue_date": "2026-01-31", "total": 10.5}
    assert key_fields_of("invoice", data, load_schema("invoice")) == KEY_FIELDS
    copy = tmp_path / "invoice.schema.json"
    copy.write_text(json.dumps(load_schema("invoice").schema))
    assert key_fields_of("invoice", data, load_schema(str(copy))) == ("/invoice_number", "/issue_date", "/total")
    assert key_fields_of("custom", data) == ()  # no schema given: by name only, as the review page without one


# ------------------------------------------------------------------------------------------------- end to end


def test_a_pydantic_model_with_a_wrong_answer_is_never_ok(wrong, right):
    with Extractor(model=str(wrong.path), schema=MyInvoice, ocr="never") as ex:
        record = ex.extract(SAMPLE)
    assert record.data == {**WRONG, **INVENTED}, record.to_json()
    assert record.status == Status.REVIEW and _ungrounded(record.to_dict()) == WRONG_KEYS
    grounding = record.extra["grounding"]["fields"]
    assert grounding["/invoice_number"] is True and grounding["/reference"] is False  # found; not found, not a key

    with Extractor(model=str(right.path), schema=MyInvoice, ocr="never") as ex:
        record = ex.extract(SAMPLE)
    assert record.status == Status.OK and _ungrounded(record.to_dict()) == [], record.to_json()
    assert record.parsed == MyInvoice(**RIGHT, **INVENTED)


def test_a_schema_file_on_the_command_line_with_a_wrong_answer_is_never_ok(wrong, right, schema_file):
    def run(model) -> tuple[int, dict]:
        args = [SAMPLE, "--model", model.path, "--schema", schema_file, "--json", "--ocr", "never", "--no-isolate"]
        result = CliRunner().invoke(app, dispatch_args([str(a) for a in args]))
        (record,) = json.loads(result.stdout)
        return result.exit_code, record

    code, record = run(wrong)
    assert (code, record["status"], _ungrounded(record)) == (1, "review", WRONG_KEYS), record
    code, record = run(right)
    assert (code, record["status"], _ungrounded(record)) == (0, "ok", []), record


def test_a_service_requests_own_schema_with_a_wrong_answer_is_never_ok(wrong, schema_file, tmp_path):
    """``extract serve`` (a subprocess, through its HTTP API): a request bringing its own JSON Schema."""
    from test_serve import Server, post

    server = Server((wrong, schema_file), tmp_path / "jobs.sqlite")
    try:
        with server.client() as client:
            own = MyInvoice.model_json_schema()  # the request sends it (the server was started with its copy)
            response = post(client, SAMPLE.read_bytes(), path="/v1/extract", data={"schema": json.dumps(own)})
            assert response.status_code == 200, response.text
            record = response.json()["record"]
    finally:
        server.stop()
    assert (record["status"], _ungrounded(record)) == ("review", WRONG_KEYS), record
