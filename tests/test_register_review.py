"""The review page's invoice-register panel (``extract review OUT --register R``): a flagged duplicate beside the
earlier invoice (linked when its record is in OUT), a changed account beside the trusted ones, and "not a
duplicate" / "confirm account" saved in the register with the reviewer and the time (starlette's test client; the
browser test of the page is ``tests/test_review_app.py``)."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from extractor.record import Record
from extractor.register import Register
from extractor.tools.review_page.app import create_app

VAT, IBAN, OTHER_IBAN = "DE136695976", "DE89370400440532013000", "GB82WEST12345698765432"


def _record(number: str, *, sha: str, source: str, iban: str = IBAN, total: float = 100.0) -> Record:
    data = {
        "invoice_number": number,
        "issue_date": "2026-01-10",
        "currency": "EUR",
        "seller": {"name": "Bei Spiel GmbH", "vat_id": VAT, "tax_id": None},
        "total": total,
        "bank_account": {"iban": iban, "bic": None, "account_holder": None},
    }
    extra = {"data_source": "embedded_xml", "fingerprint": "fp"}
    return Record(source=source, status="ok", sha256=sha * 64, schema="invoice", data=data, extra=extra)


def _folder(tmp_path):
    """Three records checked against one register, written to OUT as extract run --out writes them."""
    out, register_path = tmp_path / "out", tmp_path / "register.sqlite"
    out.mkdir()
    with Register.open(register_path) as register:
        for name, record in (
            ("original", _record("RE-1", sha="1", source="in/original.pdf")),
            ("again", _record("RE-1", sha="2", source="in/again.pdf")),
            ("changed", _record("RE-2", sha="3", source="in/changed.pdf", iban=OTHER_IBAN, total=7)),
        ):
            result = register.check_and_add(record)
            assert result is not None
            (out / f"{name}.json").write_text(json.dumps(result.apply(record).to_dict()), encoding="utf-8")
    return out, register_path


def test_the_panel_shows_the_earlier_invoice_and_saves_not_a_duplicate(tmp_path):
    out, register_path = _folder(tmp_path)
    with TestClient(create_app(out, reviewer="anna", register=str(register_path))) as client:
        view = client.get("/api/records/again").json()["register"]
        (finding,) = view["findings"]
        assert (finding["code"], finding["original"]["name"], finding["actions"]) == (
            "duplicate_invoice",
            "original",
            ["not_a_duplicate"],
        )
        page = client.get("/r/again").text
        assert 'href="/r/original"' in page and 'data-action="not_a_duplicate"' in page
        done = client.post("/api/records/again/register", json={"action": "not_a_duplicate"})
        assert done.status_code == 200 and "by anna" in done.json()["done"]
        assert client.post("/api/records/again/register", json={"action": "not_a_duplicate"}).status_code == 409
    with Register.open(register_path) as register:
        result = register.check_and_add(_record("RE-1", sha="2", source="in/again.pdf"))
        assert result is not None and result.warnings == ()
        assert result.findings[0]["resolved"]["by"] == "anna"


def test_the_panel_shows_a_changed_account_beside_the_trusted_ones_and_confirms_it(tmp_path):
    out, register_path = _folder(tmp_path)
    with TestClient(create_app(out, reviewer="bob", register=str(register_path))) as client:
        view = client.get("/api/records/changed").json()["register"]
        bank = next(f for f in view["findings"] if f["code"] == "bank_details_changed")
        assert [a["iban"] for a in bank["trusted"]] == ["****3000"] and bank["actions"] == ["confirm_account"]
        assert "****3000 (ok_record)" in client.get("/r/changed").text
        done = client.post("/api/records/changed/register", json={"action": "confirm_account"})
        assert done.status_code == 200 and done.json()["done"].startswith("****5432 trusted by bob")
    with Register.open(register_path) as register:
        accounts = register.suppliers()[0]["trusted_accounts"]
        assert {(a["iban"], a["source"], a["by"]) for a in accounts} == {
            (IBAN, "ok_record", None),
            (OTHER_IBAN, "review", "bob"),
        }


def test_without_a_register_the_panel_only_shows(tmp_path):
    out, _ = _folder(tmp_path)
    with TestClient(create_app(out, reviewer="anna")) as client:
        view = client.get("/api/records/again").json()["register"]
        assert view["can_act"] is False and view["findings"][0]["actions"] == []
        refused = client.post("/api/records/again/register", json={"action": "not_a_duplicate"})
        assert refused.status_code == 409 and "--register" in refused.json()["error"]
        assert client.get("/api/records/original").json()["register"] is not None  # its notes (a new supplier)
