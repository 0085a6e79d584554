"""Learned layouts through the pipeline (issue 51, docs/learning.md): ``extract learn`` teaches a supplier from one
archived document and its true data; its next document is then read by layout with no model work (``data_source:
"layout"``, zero tokens, the record's ``layout`` key) and still checked as every record is; ``--learn check`` and a
layout that cannot read alone make its values evidence (agreement raises confidence, a disagreement flags the field
with both values); identity first (another seller in the same layout is never read by it); a review correcting a
layout's value demotes it; bad teachers are refused with the reason (exit 2); without a register or with ``--learn
off`` records are as before.

Documents are made here (a one-page German invoice whose every required field is printed by a label); the model is
a random tiny one where it must not run, a kit model writing a given answer where it reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers import FORCED_FAMILY, forced_settings, lines_pdf, settings_for
from typer.testing import CliRunner

from extractor import Extractor
from extractor.cli.commands import app, dispatch_args
from extractor.inputs.ocr import engine_available
from extractor.layouts.store import LayoutStore
from extractor.pipeline.teach import learn_review
from extractor.record import record_schema
from extractor.register import Register
from extractor.trust.confidence import features

VAT = "DE136695976"  # its check digit holds (trust.checks)


def invoice(
    number: str, date: str, total: float, *, prepaid: float, seller: str = "Lieferant GmbH", vat: str = VAT, due=None
) -> dict:
    """The invoice schema's data of a document ``printed`` prints (``due``: its amount due, if not total less
    prepaid)."""

    def party(name: str, vat_id: str | None) -> dict:  # in the schema's key order (a forced answer follows it)
        return {"name": name, "address": None, "vat_id": vat_id, "tax_id": None}

    return {
        "invoice_number": number,
        "issue_date": date,
        "due_date": None,
        "currency": "EUR",
        "seller": party(seller, vat),
        "buyer": party("Kunde AG", None),
        "line_items": [],
        "subtotal": total,
        "tax_lines": [],
        "total": total,
        "prepaid_amount": prepaid,
        "amount_due": round(total - prepaid, 2) if due is None else due,
        "payment_terms": None,
        "bank_account": None,
    }


def _german(value: float) -> str:
    return f"{value:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def printed(path: Path, data: dict) -> Path:
    """One supplier's layout: every required value after a fixed label."""
    day = ".".join(reversed(data["issue_date"].split("-")))
    return lines_pdf(
        path,
        [
            "Rechnung von:",
            data["seller"]["name"],
            f"USt-IdNr.: {data['seller']['vat_id']}",
            "",
            "Rechnung an:",
            data["buyer"]["name"],
            "",
            f"Rechnung Nr.: {data['invoice_number']}",
            f"Datum: {day}",
            f"Währung: {data['currency']}",
            "",
            f"Zwischensumme: {_german(data['subtotal'])}",
            f"Gesamtbetrag: {_german(data['total'])}",
            f"Anzahlung: {_german(data['prepaid_amount'])}",
            f"Zahlbetrag: {_german(data['amount_due'])}",
        ],
    )


FIRST = invoice("RE-1001", "2026-03-05", 1234.56, prepaid=234.56)
SECOND = invoice("RE-1002", "2026-04-17", 99.0, prepaid=9.0)


@pytest.fixture(scope="module")
def runner(model_factory):
    from extractor.runners.mlx.runner import MlxRunner

    return MlxRunner(model=str(model_factory.random().path))


def cli(*args: str):
    return CliRunner().invoke(app, dispatch_args(list(args)))


@pytest.fixture
def taught(tmp_path) -> dict:
    """A register taught the first document (``extract learn PDF --data``), the second document beside it."""
    register = str(tmp_path / "register.sqlite")
    (tmp_path / "first.json").write_text(json.dumps(FIRST), encoding="utf-8")
    first = printed(tmp_path / "first.pdf", FIRST)
    result = cli("learn", str(first), "--data", str(tmp_path / "first.json"), "--register", register, "--json")
    assert result.exit_code == 0, result.output
    [said] = json.loads(result.stdout)
    assert said["supplier"] == f"vat:{VAT}" and said["refused"] is None and said["layout"]
    return {"register": register, "layout": said["layout"], "second": printed(tmp_path / "second.pdf", SECOND)}


def _valid(record) -> None:
    jsonschema.validate(record.to_dict(), record_schema())


def test_a_taught_supplier_is_read_by_layout_with_no_model(taught, runner):
    record = Extractor(settings_for(runner.model_dir, register=taught["register"]), runner=runner).extract(
        str(taught["second"])
    )
    _valid(record)
    assert record.status == "ok", record.warnings
    assert record.data == SECOND
    assert record.extra["data_source"] == "layout"
    assert record.usage.generated_tokens == 0 and record.extra["attempts"] == []
    entry = record.extra["layout"]
    assert {k: entry[k] for k in ("mode", "id", "supplier", "abstained", "used", "demoted")} == {
        "mode": "read",
        "id": taught["layout"],
        "supplier": {"key": f"vat:{VAT}", "name": "Lieferant GmbH"},
        "abstained": {},
        "used": True,
        "demoted": [],
    }
    assert {"/invoice_number", "/issue_date", "/total", "/seller/vat_id"} <= set(entry["read"])
    assert entry["learned_from"]["source"] == "archive" and entry["learned_from"]["document"].endswith("first.pdf")
    # checked, grounded, registered as every record is; each field's confidence from the layout's reading
    assert record.extra["register"]["supplier"]["key"] == f"vat:{VAT}"
    assert record.extra["grounding"]["fields"]["/total"] is True
    assert record.extra["fields"]["/total"]["confidence"] > 0.95


def test_the_layout_never_makes_ok_what_the_checks_would_not(tmp_path, taught, runner):
    wrong = invoice("RE-1003", "2026-04-18", 99.0, prepaid=9.0, due=80.0)  # the amount due is not total - prepaid
    record = Extractor(settings_for(runner.model_dir, register=taught["register"]), runner=runner).extract(
        str(printed(tmp_path / "wrong.pdf", wrong))
    )
    assert record.extra["data_source"] == "layout" and record.data == wrong
    assert record.status == "review"
    assert [c["path"] for c in record.extra["checks"]] == ["/amount_due"]


def test_another_seller_in_the_same_layout_is_never_read_by_it(tmp_path, taught, runner):
    other = invoice("A-7", "2026-04-18", 50.0, prepaid=0.0, seller="Verkehrsbetriebe GmbH", vat="DE811907980")
    settings = settings_for(runner.model_dir, register=taught["register"], max_tokens=4)
    record = Extractor(settings, runner=runner).extract(str(printed(tmp_path / "other.pdf", other)))
    assert record.extra["data_source"] == "model" and "layout" not in record.extra
    # a seller printing the known seller's VAT id under its own name: not that seller's layout either
    forged = invoice("A-8", "2026-04-18", 50.0, prepaid=0.0, seller="Verkehrsbetriebe GmbH")
    record = Extractor(settings, runner=runner).extract(str(printed(tmp_path / "forged.pdf", forged)))
    assert record.extra["data_source"] == "model" and "layout" not in record.extra


def test_check_mode_makes_the_layout_evidence_agreement_and_disagreement(taught, model_factory):
    family = model_factory.family(FORCED_FAMILY)
    answer = {**SECOND, "total": 98.0}  # the model misreads the total
    settings = forced_settings(family, answer, register=taught["register"], learn="check", max_tokens=1000)
    record = Extractor(settings).extract(str(taught["second"]))
    _valid(record)
    assert record.extra["data_source"] == "model" and record.data["total"] == 98.0
    entry = record.extra["layout"]
    assert entry["used"] is False and entry["mode"] == "check"
    assert entry["disagreements"] == [{"pointer": "/total", "layout": 99.0, "model": 98.0}]
    fields = record.extra["fields"]
    assert fields["/total"]["layout"] == {"value": 99.0, "agrees": False}
    assert fields["/invoice_number"]["layout"] == {"value": "RE-1002", "agrees": True}
    assert record.status == "review"
    assert "layout_disagrees" in [w["code"] for w in record.warnings]
    plain = Extractor(forced_settings(family, answer, max_tokens=1000)).extract(str(taught["second"]))
    assert "layout" not in plain.extra and "layout" not in plain.extra["fields"]["/invoice_number"]
    assert fields["/invoice_number"]["confidence"] > plain.extra["fields"]["/invoice_number"]["confidence"]


def test_learn_off_and_no_register_leave_records_as_before(taught, runner):
    settings = settings_for(runner.model_dir, max_tokens=4)
    before = Extractor(settings, runner=runner).extract(str(taught["second"])).to_dict()
    off = Extractor(settings.replace(register=taught["register"], learn="off"), runner=runner).extract(
        str(taught["second"])
    )
    after = off.to_dict()
    after.pop("register", None)  # the register's key: the one addition (a record with data)
    for record in (before, after):
        for key in ("timings", "peak_memory_gb"):
            record.pop(key, None)
    assert after == before
    assert before["data_source"] == "model" and "layout" not in before


def test_a_review_correcting_a_layout_value_demotes_it(taught, runner):
    extractor = Extractor(settings_for(runner.model_dir, register=taught["register"], max_tokens=4), runner=runner)
    record = extractor.extract(str(taught["second"])).to_dict()
    assert record["data_source"] == "layout"
    store = LayoutStore.of(extractor.register)
    reviewed = {"data": {**SECOND, "invoice_number": "RE-1002-A"}, "approved": True, "reviewer": "ana"}
    said = learn_review(store, record, reviewed, None)
    assert said.layout == taught["layout"] and said.notes == (f"layout {taught['layout']} demoted for /invoice_number",)
    assert store.get(taught["layout"]).demoted == frozenset({"/invoice_number"})
    again = extractor.extract(str(taught["second"]))  # the layout no longer reads it: the model does
    assert again.extra["data_source"] == "model"
    assert again.extra["layout"]["demoted"] == ["/invoice_number"]
    assert again.extra["layout"]["abstained"]["/invoice_number"] == "demoted"
    # an unapproved review of a model's record never teaches
    assert learn_review(store, again.to_dict(), {"data": SECOND, "approved": False}, None).refused


def test_bad_teachers_are_refused_with_the_reason(tmp_path, taught):
    register = taught["register"]
    (tmp_path / "bad.json").write_text(json.dumps({**FIRST, "total": "a lot"}), encoding="utf-8")
    result = cli("learn", str(tmp_path / "first.pdf"), "--data", str(tmp_path / "bad.json"), "--register", register)
    assert result.exit_code == 2
    assert "does not fit the invoice schema" in result.output and "/total" in result.output
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    result = cli("learn", str(tmp_path / "first.pdf"), "--data", str(tmp_path / "broken.json"), "--register", register)
    assert result.exit_code == 2 and "broken.json: cannot read its data" in result.output
    result = cli("learn", str(tmp_path / "first.pdf"), "--register", register)
    assert result.exit_code == 2 and "--data DATA.json" in result.output
    # a value not on its page: nothing learned for that field, and said
    (tmp_path / "unprinted.json").write_text(json.dumps({**FIRST, "payment_terms": "30 Tage netto"}), encoding="utf-8")
    result = cli(
        "learn", str(tmp_path / "first.pdf"), "--data", str(tmp_path / "unprinted.json"), "--register", register
    )
    assert result.exit_code == 0 and "/payment_terms" in result.output and "not learned" in result.output


def test_layouts_list_show_forget(taught):
    register, layout = taught["register"], taught["layout"]
    listed = json.loads(cli("layouts", "list", "--register", register, "--json").stdout)
    assert [(row["id"], row["supplier_key"], row["source"]) for row in listed] == [(layout, f"vat:{VAT}", "archive")]
    shown = json.loads(cli("layouts", "show", layout, "--register", register).stdout)
    assert shown["id"] == layout and shown["supplier_key"] == f"vat:{VAT}"
    assert cli("layouts", "forget", layout, "--register", register).exit_code == 0
    result = cli("layouts", "forget", layout, "--register", register)
    assert result.exit_code == 2 and f"no layout {layout}" in result.output
    with Register.open(register) as opened:
        assert LayoutStore.of(opened).list() == []


def scanned(pdf: Path) -> Path:
    """The PDF's page as a scanner gives it: a PNG with no text layer (OCR reads it)."""
    import pypdfium2

    path = pdf.with_suffix(".png")
    pypdfium2.PdfDocument(str(pdf))[0].render(scale=2).to_pil().save(path)
    return path


@pytest.mark.skipif(not engine_available(), reason="rapidocr / onnxruntime not installed")
def test_a_scan_is_learned_and_read_from_its_ocr_words(tmp_path, runner):
    """Scans too: a scanned document teaches from OCR's words and boxes, the next scan of that supplier is read by
    its layout with no model; the record says the words came from OCR, and each field's confidence is scaled by
    OCR's confidence in the words it was read from."""
    register = str(tmp_path / "register.sqlite")
    (tmp_path / "first.json").write_text(json.dumps(FIRST), encoding="utf-8")
    first = scanned(printed(tmp_path / "first.pdf", FIRST))
    result = cli("learn", str(first), "--data", str(tmp_path / "first.json"), "--register", register, "--json")
    assert result.exit_code == 0, result.output
    [said] = json.loads(result.stdout)
    assert said["supplier"] == f"vat:{VAT}" and said["refused"] is None and said["layout"]
    record = Extractor(settings_for(runner.model_dir, register=register), runner=runner).extract(
        str(scanned(printed(tmp_path / "second.pdf", SECOND)))
    )
    _valid(record)
    assert (record.extra["data_source"], record.data, record.usage.generated_tokens) == ("layout", SECOND, 0)
    assert (record.extra["layout"]["id"], record.extra["layout"]["words"]) == (said["layout"], "ocr")
    total = record.extra["fields"]["/total"]
    read = [c["confidence"] for c in total["citations"] if c["source"] == "ocr"]
    assert read and features({**total, "read_by": "layout"})["layout_read"] == min(read) < 1.0


@pytest.mark.parametrize(
    "citations, read_by, agrees, layout_read, layout_agreed",
    [
        ([], "layout", None, 1.0, 0.0),  # a text layer's words: what the PDF says
        ([{"source": "text_layer", "confidence": None}], "layout", None, 1.0, 0.0),
        ([{"source": "ocr", "confidence": 0.8}, {"source": "ocr", "confidence": 0.95}], "layout", None, 0.8, 0.0),
        ([{"source": "ocr", "confidence": 0.7}], None, True, 0.0, 0.7),  # the model read it, the layout agreed
        ([{"source": "ocr", "confidence": 0.7}], None, False, 0.0, 0.0),
    ],
)
def test_ocr_confidence_scales_the_layouts_evidence(citations, read_by, agrees, layout_read, layout_agreed):
    entry = {"citations": citations, "read_by": read_by, "layout": {"value": 1, "agrees": agrees}}
    got = features(entry)
    assert (got["layout_read"], got["layout_agreed"]) == (layout_read, layout_agreed)
