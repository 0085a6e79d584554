"""The built-in schemas as Pydantic models (extractor/schema_models.py): each model's JSON Schema is its published
file's (schemas/*.schema.json, the contract: a change to either side that the other does not follow fails here),
the models accept every expected sample answer and refuse what the schema refuses, and ``schema=Invoice`` is
``schema="invoice"`` (the same Schema, the same fingerprint, so the same records)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError, create_model

import extractor
from extractor.pipeline.extract import settings_fingerprint
from extractor.schema import (
    BUILTIN_CLASSES,
    BUILTIN_SCHEMAS,
    builtin_schema_dir,
    load_schema,
    schema_model,
    validate_data,
)
from extractor.schema_models import BuiltinJsonSchema, Invoice, Receipt
from extractor.schema_models_en16931 import BUILTIN_MODELS, InvoiceEN16931
from extractor.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
# the sample answers: invoice and receipt beside each other, the invoice-en16931 ones in their own folder
EXPECTED = sorted((ROOT / "samples" / "expected").glob("*.json")) + sorted(
    (ROOT / "samples" / "expected" / "en16931").glob("*.json")
)


def differences(got: Any, want: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as ``pointer: got != want`` lines (types too: 0 is not 0.0, 1 not True);
    empty when they are the same JSON."""
    if type(got) is not type(want):
        return [f"{path or '/'}: {got!r} != {want!r}"]
    if isinstance(got, dict):
        out = [f"{path}/{key}: missing" for key in want if key not in got]
        out += [f"{path}/{key}: not in the file" for key in got if key not in want]
        for key in got.keys() & want.keys():
            out += differences(got[key], want[key], f"{path}/{key}")
        return sorted(out)
    if isinstance(got, list):
        if len(got) != len(want):
            return [f"{path}: {got!r} != {want!r}"]
        return [
            line for i, (a, b) in enumerate(zip(got, want, strict=True)) for line in differences(a, b, f"{path}/{i}")
        ]
    return [] if got == want else [f"{path or '/'}: {got!r} != {want!r}"]


def published(name: str) -> dict:
    return json.loads((builtin_schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", BUILTIN_SCHEMAS)
def test_model_json_schema_is_the_published_file(name):
    model = BUILTIN_MODELS[name]
    generated = model.model_json_schema()
    assert differences(generated, published(name)) == []
    assert generated == published(name)
    # the generator given by name writes the same (model_json_schema's default is only a convenience)
    assert model.model_json_schema(schema_generator=BuiltinJsonSchema) == generated


# each a change to the published file that the comparison must notice
FILE_CHANGES = [
    ("a maxLength", lambda s: s["properties"]["invoice_number"].update(maxLength=41), "/properties/invoice_number"),
    ("a required list", lambda s: s["required"].pop(), "/required"),
    ("a nullable made plain", lambda s: s["properties"]["due_date"].update(type="string"), "/properties/due_date"),
    ("a title added", lambda s: s["properties"]["seller"].update(title="Party"), "/properties/seller/title"),
    (
        "0 written as 0.0",
        lambda s: s["properties"]["tax_lines"]["items"]["properties"]["rate"].update(minimum=0.0),
        "rate",
    ),
    ("a description", lambda s: s.update(description="An invoice."), "/description"),
]


@pytest.mark.parametrize("what,change,where", FILE_CHANGES, ids=[row[0] for row in FILE_CHANGES])
def test_a_changed_file_is_reported(what, change, where):
    changed = copy.deepcopy(published("invoice"))
    change(changed)
    found = differences(Invoice.model_json_schema(), changed)
    assert found and any(where in line for line in found), found


# each a model that differs from the published one by one field: its schema must not pass for the file's
MODEL_CHANGES = [
    ("a longer number", dict(invoice_number=(str, Field(max_length=41))), "/properties/invoice_number/maxLength"),
    ("a nullable number", dict(invoice_number=(str | None, Field(max_length=40))), "/properties/invoice_number/type"),
    ("no description", dict(total=(float, Field(ge=-1e9, le=1e9))), "/properties/total/description: missing"),
    ("a default (not required)", dict(payment_terms=(str | None, Field(None, max_length=200))), "/required"),
]


@pytest.mark.parametrize("what,fields,where", MODEL_CHANGES, ids=[row[0] for row in MODEL_CHANGES])
def test_a_changed_model_is_reported(what, fields, where):
    variant = create_model("Variant", __base__=Invoice, **fields)
    found = differences(variant.model_json_schema(), published("invoice"))
    assert any(where in line for line in found), found


@pytest.mark.parametrize("path", EXPECTED, ids=[p.stem for p in EXPECTED])
def test_every_expected_answer_reads_into_its_model(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    (name,) = [name for name in BUILTIN_SCHEMAS if not validate_data(data, load_schema(name))]
    parsed = BUILTIN_MODELS[name].model_validate(data)
    assert parsed.model_dump(mode="json") == data  # read and written back: the same answer (dates as text again)


def test_the_expected_answers_cover_every_model():
    names = {name for path in EXPECTED for name in BUILTIN_SCHEMAS if not validate_data(_read(path), load_schema(name))}
    assert names == set(BUILTIN_SCHEMAS)


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _receipt() -> dict:
    return json.loads((ROOT / "samples" / "expected" / "receipt-cafe.json").read_text(encoding="utf-8"))


def _invoice() -> dict:
    return json.loads((ROOT / "samples" / "expected" / "invoice-us.json").read_text(encoding="utf-8"))


# each a change the JSON Schema refuses: the model refuses it too (the same constraints, not only the same text)
REFUSED = [
    ("lower-case currency", "invoice", lambda d: d.update(currency="usd")),
    ("an unknown key", "invoice", lambda d: d.update(note="x")),
    ("an unknown nested key", "invoice", lambda d: d["seller"].update(email="a@b.c")),
    ("a missing nullable key", "invoice", lambda d: d.pop("due_date")),
    ("a too long number", "invoice", lambda d: d.update(invoice_number="9" * 41)),
    ("a tax rate over 100", "invoice", lambda d: d["line_items"][0].update(tax_rate=101)),
    ("a total out of range", "invoice", lambda d: d.update(total=2e9)),
    ("a bad IBAN", "invoice", lambda d: d.update(bank_account={"iban": "x", "bic": None, "account_holder": None})),
    ("a lower-case country", "invoice", lambda d: d["buyer"]["address"].update(country="de")),
    ("not a date", "invoice", lambda d: d.update(issue_date="20.02.2026")),
    ("an unknown payment method", "receipt", lambda d: d.update(payment_method="bitcoin")),
    ("hour 25", "receipt", lambda d: d.update(time="25:00")),
    ("11 tax rows", "receipt", lambda d: d.update(taxes=d["taxes"] * 6)),
]


@pytest.mark.parametrize("what,name,change", REFUSED, ids=[row[0] for row in REFUSED])
def test_what_the_schema_refuses_the_model_refuses(what, name, change):
    data = _invoice() if name == "invoice" else _receipt()
    change(data)
    assert validate_data(data, load_schema(name)) != []
    with pytest.raises(ValidationError):
        BUILTIN_MODELS[name].model_validate(data)


def test_nullable_enum_accepts_null_and_dates_read_as_dates():
    data = _receipt()
    data["payment_method"] = None
    parsed = Receipt.model_validate(data)
    assert parsed.payment_method is None and parsed.date.isoformat() == "2026-03-14"
    assert Invoice.model_validate(_invoice()).seller.address.city == "Austin"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "setting",
    [
        Invoice,
        "extractor:Invoice",
        "extractor.schema_models:Invoice",
        Receipt,
        "extractor:Receipt",
        InvoiceEN16931,
        "extractor:InvoiceEN16931",
        "extractor.schema_models_en16931:InvoiceEN16931",
    ],
    ids=str,
)
def test_a_builtin_model_is_its_schema_by_name(setting):
    """What ``Extractor(schema=...)`` reads (api.py: ``schema_model``, ``load_schema``, ``settings_fingerprint``):
    the class gives the name's Schema and fingerprint, so the records are the name's; only ``parsed`` is added."""
    class_name = setting.__name__ if isinstance(setting, type) else setting.rpartition(":")[2]
    name = {cls: schema for schema, cls in BUILTIN_CLASSES.items()}[class_name]
    model = schema_model(setting)
    assert model is BUILTIN_MODELS[name]
    by_class, by_name = load_schema(model), load_schema(name)
    assert by_class == by_name and by_class.compact() == by_name.compact()  # the same prompt, byte for byte
    assert (by_class.name, by_class.source) == (name, str(builtin_schema_dir() / f"{name}.schema.json"))
    assert settings_fingerprint(Settings(schema=setting), by_class) == settings_fingerprint(
        Settings(schema=name), by_name
    )


def test_a_subclass_is_a_schema_of_its_own():
    class MyInvoice(Invoice):
        pass

    schema = load_schema(MyInvoice)
    assert (schema.name, schema.source) == ("MyInvoice", f"{__name__}:{MyInvoice.__qualname__}")
    assert schema.schema == published("invoice")  # it inherits the model and so the generator
    assert settings_fingerprint(Settings(schema=MyInvoice), schema) != settings_fingerprint(
        Settings(schema="invoice"), load_schema("invoice")
    )


def test_the_package_exports_the_models():
    assert (extractor.Invoice, extractor.Receipt) == (Invoice, Receipt)
    assert {"Invoice", "Receipt"} <= set(extractor.__all__)


class Node(BaseModel):
    """A model that refers to itself: it has no inlined form."""

    child: Node | None


def test_a_recursive_model_is_refused_with_its_name():
    with pytest.raises(ValueError, match="Node refers to itself"):
        Node.model_json_schema(schema_generator=BuiltinJsonSchema)


@pytest.mark.parametrize("name", BUILTIN_SCHEMAS)
def test_extractor_with_the_class_is_the_extractor_with_the_name(name):
    """``Extractor`` itself (a server runner that is never called, nothing is extracted): the same Schema and
    fingerprint, so the same prompts and records; the class adds ``parsed``. (End to end, a tiny model costs ~20 s
    here for what these equalities already say.)"""
    from extractor import Extractor
    from extractor.runners.openai.runner import OpenAIRunner

    endpoint = "http://127.0.0.1:9/v1"
    runner = OpenAIRunner(endpoints=[endpoint], model="tiny", probe=False)  # never asked
    by_class = Extractor(endpoint=endpoint, model="tiny", schema=BUILTIN_MODELS[name], runner=runner)
    by_name = Extractor(endpoint=endpoint, model="tiny", schema=name, runner=runner)
    assert by_class.schema == by_name.schema and by_class.schema.name == name
    assert by_class.fingerprint == by_name.fingerprint
    assert (by_class.model_class, by_name.model_class) == (BUILTIN_MODELS[name], None)
