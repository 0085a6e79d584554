"""The invoice register on the review page (``tools.review_page.register_panel``, ``register.decisions``): a
reminder of a known invoice that pays to another account is shown beside the earlier invoice and beside the
supplier's trusted account; "not a duplicate" and "confirm this account" are saved with who and when, and the
register learns from them. Over HTTP (Starlette's test client) and in headless Chromium (the screenshot in
docs/register-review.png).

The two invoices are e-invoices read from their embedded XML (exact keys, zero tokens: a random tiny model), into
the register a watcher keeps in its OUT (``OUT/.extractor/register.sqlite``), which the page finds by itself.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from helpers import CII, CII_PRINTED, einvoice_pdf, settings_for
from test_register import codes, record, url  # noqa: F401 - a register on SQLite and on PostgreSQL
from test_review_app import EVIL, REBIND, browser, page_token, send, serving  # noqa: F401 - Chromium, the server

from extractor import Extractor
from extractor.record import record_from_dict
from extractor.register import Register
from extractor.tools.review_page.app import create_app
from extractor.tools.review_page.register_panel import WATCH_REGISTER, key_values

OLD_IBAN, NEW_IBAN = "DE89 3704 0044 0532 0130 00", "DE02 1203 0000 0000 2020 51"
SCREENSHOT_ENV = "EXTRACTOR_REGISTER_SCREENSHOT"  # where to keep the screenshot (docs/register-review.png)


@pytest.fixture(scope="module")
def made(tmp_path_factory, model_factory) -> tuple[Path, Path]:
    """(inbox, OUT): the invoice and its reminder (the same number, another account), read into OUT's register."""
    base = tmp_path_factory.mktemp("register-review")
    inbox, out = base / "inbox", base / "out"
    inbox.mkdir()
    (out / WATCH_REGISTER).parent.mkdir(parents=True)
    einvoice_pdf(inbox / "RE-2026-0117.pdf")
    reminder = [line.replace(OLD_IBAN, NEW_IBAN) for line in CII_PRINTED] + ["Zahlungserinnerung"]
    einvoice_pdf(inbox / "RE-2026-0117 reminder.pdf", lines=reminder, xml=CII.replace(OLD_IBAN, NEW_IBAN))
    settings = settings_for(
        model_factory.random(), max_tokens=4, embedded_rules=False, register=str(out / WATCH_REGISTER)
    )
    with Extractor(settings) as extractor:
        for stem, name in (("original", "RE-2026-0117.pdf"), ("reminder", "RE-2026-0117 reminder.pdf")):
            record = extractor.extract(str(inbox / name)).to_dict()
            (out / f"{stem}.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return inbox, out


def _copy_out(source: Path, target: Path) -> Path:
    """OUT's records, and its register through SQLite's backup API: a connection another thread still holds may
    remove the WAL's ``-shm`` file while a plain file copy reads the folder."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("register.sqlite*"))
    with closing(sqlite3.connect(source / WATCH_REGISTER)) as old:
        with closing(sqlite3.connect(target / WATCH_REGISTER)) as new:
            old.backup(new)
    return target


@pytest.fixture
def out(made, tmp_path) -> Path:
    """A fresh copy of OUT (records and register) for each test: the actions change the register."""
    return _copy_out(made[1], tmp_path / "out")


def own_client(app):
    """Starlette's test client as the page itself calls the app: at its bound address, from its own origin."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url="http://127.0.0.1", headers={"Origin": "http://127.0.0.1"})


def _record(out: Path, stem: str) -> dict:
    return json.loads((out / f"{stem}.json").read_text(encoding="utf-8"))


def test_a_pair_said_not_a_duplicate_is_never_flagged_again(url):  # noqa: F811 - the imported fixture
    """``register.decisions``, on both databases: the pair is remembered, a third copy is still a duplicate."""
    with Register.open(url) as register:
        assert codes(register, record("RE-1", sha="1")) == []
        assert codes(register, record("RE-1", sha="2", source="b.pdf")) == ["duplicate_invoice"]
        assert register.not_a_duplicate("b.pdf", by="anna") == 1
        # checked again as a new entry (other settings): not flagged for that original
        assert codes(register, record("RE-1", sha="2", source="b.pdf", fingerprint="other")) == []
        assert codes(register, record("RE-1", sha="3", source="c.pdf")) == ["duplicate_invoice"]


def test_the_reminder_is_flagged_and_the_original_is_not(made):
    inbox, out = made
    original, reminder = _record(out, "original"), _record(out, "reminder")
    codes = [[f["code"] for f in r["register"]["findings"] if f["severity"] == "warning"] for r in (original, reminder)]
    assert codes == [[], ["duplicate_invoice", "bank_details_changed"]]
    assert (original["status"], reminder["status"]) == ("ok", "review")


def test_the_page_shows_both_and_the_register_learns_the_decisions(made, out):
    inbox = made[0]
    original, reminder = _record(out, "original"), _record(out, "reminder")
    place = str((inbox / "RE-2026-0117.pdf").resolve())
    first = next(f for f in reminder["register"]["findings"] if f["code"] == "duplicate_invoice")
    changed = next(f for f in reminder["register"]["findings"] if f["code"] == "bank_details_changed")
    with own_client(create_app(out, reviewer="anna")) as client:
        shown = client.get("/api/records/reminder").json()["register"]
        assert shown["register"] == str(out / WATCH_REGISTER)
        assert shown["place"] == str((inbox / "RE-2026-0117 reminder.pdf").resolve())
        assert shown["this"] == key_values(reminder)
        assert shown["this"]["iban"] == "****2051" and shown["this"]["number"] == "RE-2026-0117"
        assert shown["duplicates"] == [
            {
                "code": "duplicate_invoice",
                "message": first["message"],
                "original": {
                    "source": original["source"],
                    "seen_at": first["original"]["seen_at"],
                    "record": place,
                    "sha256": original["sha256"],
                },
                "place": place,
                "name": "original",
                "original_values": key_values(original),
                "decision": None,
            }
        ]
        trusted_then = [{"iban": "****3000", "source": "ok_record", "by": None, "at": changed["trusted"][0]["at"]}]
        assert shown["account"] == {
            "findings": [{"code": "bank_details_changed", "message": changed["message"], "severity": "warning"}],
            "iban": "****2051",
            "trusted": trusted_then,
            "confirmed": None,
            "can_confirm": True,
        }
        assert client.get("/api/records/original").json()["register"]["duplicates"] == []

        # not a duplicate: only of an original the record's findings name
        wrong = client.post("/api/records/reminder/register/not-duplicate", json={"sha256": "0" * 64, "place": place})
        assert wrong.status_code == 404
        said = client.post(
            "/api/records/reminder/register/not-duplicate", json={"sha256": original["sha256"], "place": place}
        )
        assert said.status_code == 200, said.text
        (decision,) = said.json()["decisions"]
        assert said.json()["resolved"] == 1
        assert {k: decision[k] for k in ("original_sha256", "original_place", "decision", "by")} == {
            "original_sha256": original["sha256"],
            "original_place": place,
            "decision": "not_a_duplicate",
            "by": "anna",
        }
        again = client.post(
            "/api/records/reminder/register/not-duplicate", json={"sha256": original["sha256"], "place": place}
        )
        assert again.status_code == 409 and "no duplicate finding" in again.json()["error"]  # resolved already
        # confirm this account ("I called the supplier")
        trusted = client.post("/api/records/reminder/register/trust", json={})
        assert trusted.status_code == 200, trusted.text
        account = trusted.json()["trusted"]
        assert (account["iban"], account["source"], account["by"]) == ("****2051", "review", "anna")

        shown = client.get("/api/records/reminder").json()["register"]
        assert shown["duplicates"][0]["decision"] == decision
        assert shown["account"]["confirmed"] == {
            "iban": "****2051",
            "source": "review",
            "by": "anna",
            "at": account["at"],
        }
        # the trusted accounts, in the register's order (when trusted, then the IBAN: the same second here)
        assert sorted(shown["account"]["trusted"], key=repr) == sorted(
            [*trusted_then, shown["account"]["confirmed"]], key=repr
        )

    # the register learnt both: the reminder read again (other settings) is neither a duplicate nor a changed account
    again = dataclasses.replace(
        record_from_dict(reminder), extra={**record_from_dict(reminder).extra, "fingerprint": "x"}
    )
    with Register.open(out / WATCH_REGISTER) as register:
        result = register.check_and_add(again, place=shown["place"])
        assert result is not None and result.warnings == ()
        # the decision is about that pair: a third copy of the invoice is still its duplicate
        third = dataclasses.replace(again, sha256="f" * 64, source="third.pdf")
        assert [w["code"] for w in register.check_and_add(third, place="third.pdf").warnings] == ["duplicate_invoice"]
        # and the reminder registered again as it was read answers both findings resolved, with who and when
        repeated = register.check_and_add(record_from_dict(reminder), place=shown["place"])
        assert repeated is not None and repeated.repeated and repeated.warnings == ()
        resolved = {f["code"]: f["resolved"] for f in repeated.findings if "resolved" in f}
        assert resolved == {
            "duplicate_invoice": {"decision": "not_a_duplicate", "by": "anna", "at": decision["at"]},
            "bank_details_changed": {"decision": "account_confirmed", "by": "anna", "at": account["at"]},
        }


def test_without_a_register_the_page_shows_the_record_and_refuses_the_actions(made, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(made[1] / "reminder.json", folder)
    with own_client(create_app(folder, reviewer="anna")) as client:
        shown = client.get("/api/records/reminder").json()["register"]
        assert shown["register"] is None and shown["duplicates"][0]["name"] is None
        assert shown["account"]["trusted"][0]["iban"] == "****3000" and shown["account"]["can_confirm"] is False
        for path, body in (("trust", {}), ("not-duplicate", shown["duplicates"][0]["original"])):
            refused = client.post(f"/api/records/reminder/register/{path}", json=body)
            assert refused.status_code == 409 and "--register" in refused.json()["error"]
        assert "not open: the actions need extract review --register" in client.get("/r/reminder").text


def test_a_batch_s_own_check_shows_its_duplicate_and_offers_no_decision(made, tmp_path):
    """A batch without a register flags its own duplicates (scope ``batch``): nothing stored to decide on."""
    folder = _copy_out(made[1], tmp_path / "records")  # a register there, but not this record's
    for stored in folder.glob("*.json"):
        stored.unlink()
    batch = _record(made[1], "reminder")
    batch["register"] = {**batch["register"], "scope": "batch", "register": None}
    (folder / "reminder.json").write_text(json.dumps(batch), encoding="utf-8")
    with own_client(create_app(folder, reviewer="anna")) as client:
        shown = client.get("/api/records/reminder").json()["register"]
        assert (shown["scope"], shown["can_act"], shown["account"]["can_confirm"]) == ("batch", False, False)
        refused = client.post("/api/records/reminder/register/trust", json={})
        assert refused.status_code == 409 and "batch's own" in refused.json()["error"]


def test_another_sites_page_cannot_trust_an_account(out):
    """Issue 50: a page the reviewer visits posts ``{}`` to ``register/trust`` (``text/plain``: no preflight, or
    JSON): 403, and the register trusts nothing new; the page's own request (its token) still trusts."""

    def trusted() -> list:
        with Register.open(out / WATCH_REGISTER) as register:
            return [a["iban"] for s in register.suppliers() for a in s["trusted_accounts"]]

    before = trusted()
    trust = "/api/records/reminder/register/trust"
    with serving(out) as host:
        for headers in (
            {"Content-Type": "text/plain", "Origin": EVIL},
            {"Content-Type": "application/json", "Origin": EVIL},
            {"Content-Type": "application/json", "Host": REBIND, "Origin": f"http://{REBIND}"},
        ):
            status, body, _ = send(host, "POST", trust, body=b"{}", headers=headers)
            assert status == 403, (headers, body)
        assert trusted() == before
        own = {"Content-Type": "application/json", "X-Review-Csrf": page_token(host, "/r/reminder")}
        status, body, _ = send(host, "POST", trust, body=b"{}", headers=own)
        assert status == 200, body
    assert len(trusted()) == len(before) + 1


def test_the_actions_in_a_browser(out, browser, tmp_path):  # noqa: F811 - the imported fixture
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # an action reloads the page: an element read during the reload is stale, and read again
    wait = WebDriverWait(browser, 30, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
    with serving(out) as host:
        browser.get(f"http://{host}/r/reminder")
        section = wait.until(lambda d: d.find_element(By.ID, "register"))
        wait.until(lambda d: d.execute_script("return document.querySelector('.page img').complete"))
        assert "duplicate_invoice" in section.text and "bank_details_changed" in section.text
        assert "****2051" in section.text and "****3000" in section.text and "ok_record" in section.text
        shot = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "register-review.png")
        browser.set_window_size(1280, 1000)  # the whole section beside the page
        browser.save_screenshot(str(shot))
        browser.set_window_size(1280, 800)

        browser.find_element(By.CSS_SELECTOR, ".reg-not-duplicate").click()
        wait.until(lambda d: "not a duplicate: decided by tester" in d.find_element(By.ID, "register").text)
        browser.find_element(By.CSS_SELECTOR, ".reg-trust").click()
        wait.until(lambda d: "account confirmed by tester" in d.find_element(By.ID, "register").text)
    with Register.open(out / WATCH_REGISTER) as register:
        (supplier,) = register.suppliers()
        assert [(a["source"], a["by"]) for a in supplier["trusted_accounts"]] == [
            ("ok_record", None),
            ("review", "tester"),
        ]
