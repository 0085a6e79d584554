"""Review: checks + grounding turn an ``ok`` answer into ``review``; pure tables, then two scripted-model runs."""

import copy
import dataclasses
import json
from pathlib import Path

import pytest
from helpers import FORCED_FAMILY, forced_settings

from extractor.inputs.document import RasterSettings
from extractor.inputs.load import load_document
from extractor.record import Record
from extractor.trust.review import apply_review, disagreements, review_answer, review_data
from extractor.trust.verdict import Signals, record_status

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
TEXTS: dict = {}


def expected(name):
    return json.loads((SAMPLES / "expected" / f"{name}.json").read_text(encoding="utf-8"))


def page_texts(name):
    """The sample's text layer per page (None for images), rendered tiny: only the text matters here."""
    if name not in TEXTS:
        source = next(p for p in SAMPLES.glob(f"{name}.*") if p.suffix in (".pdf", ".png"))
        TEXTS[name] = [p.text for p in load_document(source, raster=RasterSettings(max_pixels=20_000)).pages]
    return TEXTS[name]


def schema_of(name):
    return "receipt" if name.startswith("receipt") else "invoice"


def planted(data, pointer, value):
    data = copy.deepcopy(data)
    *parents, last = [int(p) if p.isdigit() else p for p in pointer.strip("/").split("/")]
    node = data
    for part in parents:
        node = node[part]
    node[last] = value
    return data


@pytest.mark.parametrize(
    "name,text_layer",
    [
        ("invoice-de-einfach", True),  # 1.234,56 and DD.MM.YYYY
        ("invoice-ch-chf", True),  # 11'484.12, CHE-... MWST
        ("invoice-fr-services", True),  # 7 089,60 and DD/MM/YYYY
        ("invoice-jp-yen", True),  # JPY without minor unit
        ("invoice-en-multipage", True),  # 1,234.56 over three pages
        ("receipt-cafe", True),
        ("invoice-scan", False),  # no text layer: grounding cannot tell, never review for it
        ("invoice-us", False),
    ],
)
def test_samples_pass_review(name, text_layer):
    result = review_data(schema_of(name), expected(name), page_texts(name))
    assert result.warnings == ()
    assert result.passed
    extra = result.to_extra()
    assert extra["checks"] == []
    assert extra["grounding"]["text_layer"] is text_layer
    if name.startswith("invoice"):  # the receipt's payment method is a label ("card"), not printed as such
        assert extra["grounding"]["ungrounded"] == []
        assert extra["grounding"]["ratio"] == (1.0 if text_layer else None)


@pytest.mark.parametrize(
    "name,pointer,value,failures",
    [
        ("invoice-fr-services", "/invoice_number", "FA-2026-024", [("ungrounded", "/invoice_number")]),
        ("invoice-en-multipage", "/seller/vat_id", "GB999999973", [("ungrounded", "/seller/vat_id")]),
        (
            "invoice-de-einfach",
            "/bank_account/iban",
            "DE89370400440532013001",
            [("iban_invalid", "/bank_account/iban"), ("ungrounded", "/bank_account/iban")],
        ),
        (
            "invoice-ch-chf",
            "/total",
            11484.21,
            [("total", "/total"), ("amount_due", "/amount_due"), ("ungrounded", "/total")],
        ),
        (
            "invoice-jp-yen",
            "/total",
            100,
            [("total", "/total"), ("amount_due", "/amount_due"), ("ungrounded", "/total")],
        ),
        (
            "invoice-fr-services",
            "/line_items/2/amount",
            671.5,
            # BR-CO-10 (the subtotal) and BR-S-08 (the 20 % base): both no longer the lines' sum
            [
                ("line_amount", "/line_items/2/amount"),
                ("lines_subtotal", "/subtotal"),
                ("tax_base", "/tax_lines/0/base"),
            ],
        ),
        ("receipt-cafe", "/total", 1.0, [("items_sum", "/total"), ("total", "/total")]),
        # no text layer: a wrong invoice number cannot be told, the arithmetic still can
        ("invoice-scan", "/invoice_number", "XX-0000", []),
    ],
)
def test_planted_errors_are_named(name, pointer, value, failures):
    result = review_data(schema_of(name), planted(expected(name), pointer, value), page_texts(name))
    assert [(w["code"], w["path"]) for w in result.warnings] == failures
    assert all(w["message"] for w in result.warnings)


def _record(status, data, schema="invoice"):
    return Record(
        source="x.pdf",
        status=status,
        schema=schema,
        data=data,
        warnings=({"code": "page", "message": "m"},),
        extra={"data_source": "model"},
    )


def _reviewed(record, texts):
    """The record reviewed as the pipeline does: the findings added, then the status decided from them."""
    review = review_answer(record, texts)
    status = record_status(Signals(answer=record.status, review=review.warnings if review is not None else ()))
    return dataclasses.replace(apply_review(record, review), status=status)


def test_apply_review_ok_to_review():
    data = planted(expected("invoice-fr-services"), "/invoice_number", "FA-2026-024")
    record = _reviewed(_record("ok", data), page_texts("invoice-fr-services"))
    assert record.status == "review"
    assert [w["code"] for w in record.warnings] == ["page", "ungrounded"]
    assert record.extra["checks"] == []
    assert record.extra["grounding"]["ungrounded"] == ["/invoice_number"]
    assert record.extra["grounding"]["fields"]["/invoice_number"] is False
    assert record.extra["data_source"] == "model"
    assert record.data == data


def test_apply_review_keeps_ok_and_leaves_other_statuses_alone():
    data = expected("invoice-fr-services")
    ok = _reviewed(_record("ok", data), page_texts("invoice-fr-services"))
    assert (ok.status, ok.extra["checks"], ok.extra["grounding"]["ratio"]) == ("ok", [], 1.0)
    for status in ("invalid", "runaway", "truncated", "error"):
        record = _record(status, data)
        assert review_answer(record, page_texts("invoice-fr-services")) is None
        assert apply_review(record, None) is record
        assert record_status(Signals(answer=record.status)) == status


def test_custom_schema_has_no_checks_or_key_fields():
    record = _reviewed(_record("ok", {"total": 999999.99}, schema="mine"), page_texts("invoice-fr-services"))
    assert record.status == "ok"
    assert record.extra["grounding"]["fields"] == {"/total": False}  # reported, but not a key field


@pytest.mark.parametrize(
    "embedded,model,diff",
    [
        ({"a": 1, "b": "X  Y"}, {"a": 1.0, "b": "x y"}, []),
        ({"a": 1, "b": None}, {"a": 2}, [{"path": "/a", "embedded": 1, "model": 2}]),
        ({"a": None}, {"a": "", "c": 3}, [{"path": "/c", "embedded": None, "model": 3}]),
        ({"l": [{"x": 1}, {"x": 2}]}, {"l": [{"x": 1}]}, [{"path": "/l/1/x", "embedded": 2, "model": None}]),
        ({"a": 1}, None, [{"path": "/a", "embedded": 1, "model": None}]),
        ({"a/b": "v"}, {"a/b": "w"}, [{"path": "/a~1b", "embedded": "v", "model": "w"}]),
    ],
)
def test_disagreements(embedded, model, diff):
    assert disagreements(embedded, model) == diff


# -- through the pipeline: a kit model writes a sample's expected JSON, once right, once planted -------------------

SAMPLE = "invoice-fr-services"  # 7 089,60 €, 27/02/2026: French number and date formats


MAX_TOKENS = 1500  # the answers are ~800 tokens of a small kit vocabulary


def _extract(model_factory, data):
    from extractor import Extractor

    family = model_factory.family(FORCED_FAMILY)
    record = Extractor(forced_settings(family, data, max_tokens=MAX_TOKENS)).extract(str(SAMPLES / f"{SAMPLE}.pdf"))
    assert record.to_dict()["constrained"] is True  # reviewed under the default, constrained decoding
    assert (record.finish_reason, record.stop_token_id) == ("stop", family.end_of_turn_id)  # the answer, then its end
    return record


def test_pipeline_reviews_a_correct_answer_as_ok(model_factory):
    data = expected(SAMPLE)
    record = _extract(model_factory, data)
    assert record.status == "ok", (record.errors, record.warnings)
    assert record.data == data
    assert record.extra["data_source"] == "model"
    assert record.extra["checks"] == []
    grounding = record.extra["grounding"]
    assert (grounding["text_layer"], grounding["ratio"], grounding["ungrounded"]) == (True, 1.0, [])
    assert grounding["fields"]["/total"] is True and grounding["fields"]["/issue_date"] is True
    out = json.loads(record.to_json())  # the documented JSON shape carries the review
    assert (out["status"], out["checks"], out["grounding"], out["data_source"]) == ("ok", [], grounding, "model")


def test_pipeline_flags_an_ungrounded_value_for_review(model_factory):
    data = planted(expected(SAMPLE), "/invoice_number", "FA-2026-024")
    record = _extract(model_factory, data)
    assert record.status == "review"
    assert record.data == data  # the answer is kept, flagged
    failures = [w for w in record.warnings if w["code"] == "ungrounded"]
    assert [w["path"] for w in failures] == ["/invoice_number"]
    assert "FA-2026-024" in failures[0]["message"]
    assert record.extra["grounding"]["ungrounded"] == ["/invoice_number"]
    assert record.extra["grounding"]["fields"]["/total"] is True  # 7 089,60 found
    # the generation's own status was ok: review alone made the record "review"
    assert record.extra["attempts"] == [
        {
            "number": 1,
            "reason": None,
            "status": "ok",
            "finish_reason": "stop",
            "generated_tokens": record.usage.generated_tokens,
            "max_tokens": MAX_TOKENS,
            "errors": [],
        }
    ]
