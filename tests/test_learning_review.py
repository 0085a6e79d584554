"""Learning on the review page, in real Chromium (issue 51): approving a review teaches the supplier's layout; the
next document of that supplier is read by layout (the page says which layout and from what it was learned); a review
correcting a value it read demotes it (said on the page and in the reviewed file); the page can forget it.

``EXTRACTOR_LEARNING_SCREENSHOT=docs/learning-review.png`` saves the page of the record read by layout (the docs
show it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers import FORCED_FAMILY, forced_settings, settings_for
from test_learning import FIRST, SECOND, VAT, invoice, printed
from test_review_app import browser, page_token, send, serving, serving_app  # noqa: F401 - the module's Chromium

from extractor import Extractor
from extractor.layouts.store import LayoutStore
from extractor.register import Register

SCREENSHOT_ENV = "EXTRACTOR_LEARNING_SCREENSHOT"
NAMES = ("first", "second", "third")
THIRD = invoice("RE-1003", "2026-05-02", 250.0, prepaid=50.0)


def _write(out: Path, name: str, record) -> None:
    (out / f"{name}.json").write_text(json.dumps(record.to_dict(), ensure_ascii=False), encoding="utf-8")


def _approve(driver, host: str, out: Path, name: str, *, number: str | None = None) -> dict:
    """Open a record, correct its invoice number when given, approve; the reviewed file."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, 60)
    driver.get(f"http://{host}/r/{name}")
    field = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-ptr="/invoice_number"]'))
    if number is not None:
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(number)
        field.send_keys(Keys.ESCAPE)
    driver.find_element(By.ID, "approve").click()
    wait.until(lambda d: "Approved" in d.find_element(By.ID, "message").text)
    return json.loads((out / f"{name}.reviewed.json").read_text(encoding="utf-8"))


def test_a_review_teaches_the_next_document_is_read_by_layout_and_a_correction_demotes_it(
    tmp_path,
    browser,  # noqa: F811 - the fixture imported above
    model_factory,
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    out.mkdir()
    register = str(tmp_path / "register.sqlite")
    first, second, third = (
        printed(inbox / f"{n}.pdf", d) for n, d in (("first", FIRST), ("second", SECOND), ("third", THIRD))
    )
    family = model_factory.family(FORCED_FAMILY)  # the model reads the first document (no layout yet)
    with Extractor(forced_settings(family, FIRST, register=register, max_tokens=1000)) as extractor:
        record = extractor.extract(str(first))
    assert record.extra["data_source"] == "model" and "layout" not in record.extra
    _write(out, "first", record)
    with serving(out, register=register) as host:
        reviewed = _approve(browser, host, out, "first")
        taught = reviewed["learned"]
        assert taught["refused"] is None and taught["supplier"] == f"vat:{VAT}"

        # the next document of that supplier: read by the layout the review taught, with no model
        random = model_factory.random()
        with Extractor(settings_for(random, register=register, max_tokens=4)) as extractor:
            record = extractor.extract(str(second))
            assert record.extra["data_source"] == "layout" and record.usage.generated_tokens == 0
            assert record.data == SECOND and record.extra["layout"]["id"] == taught["layout"]
            _write(out, "second", record)
            _write(out, "third", extractor.extract(str(third)))
        # the forget button reloads the page: an element read as it goes is stale, and read again
        wait = WebDriverWait(browser, 60, ignored_exceptions=(StaleElementReferenceException,))
        browser.get(f"http://{host}/r/second")
        section = wait.until(lambda d: d.find_element(By.ID, "layout"))
        assert taught["layout"] in section.text and "read this record with no model" in section.text
        assert "first.pdf" in browser.find_element(By.ID, "layout-learned-from").text
        assert "review, by tester" in browser.find_element(By.ID, "layout-learned-from").text
        wait.until(lambda d: d.execute_script("return document.querySelector('.page img').complete"))
        browser.save_screenshot(str(Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "learning-review.png")))

        # a review correcting a value the layout read demotes it, said in the reviewed file and on the page
        reviewed = _approve(browser, host, out, "second", number="RE-1002-X")
        assert reviewed["learned"]["notes"] == [f"layout {taught['layout']} demoted for /invoice_number"]
        browser.get(f"http://{host}/r/second")
        demoted = wait.until(lambda d: d.find_element(By.ID, "layout-demoted"))
        assert "/invoice_number" in demoted.text
        with Register.open(register) as opened:
            assert LayoutStore.of(opened).get(taught["layout"]).demoted == frozenset({"/invoice_number"})

        # and the page forgets it
        browser.get(f"http://{host}/r/third")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#layout .layout-forget")).click()
        wait.until(lambda d: "no longer kept" in d.find_element(By.ID, "layout").text)
        with Register.open(register) as opened:
            assert LayoutStore.of(opened).list() == []
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_page_over_a_service_tenant_teaches_that_tenant_only(
    tmp_path,
    browser,  # noqa: F811 - the fixture imported above
    model_factory,
):
    """``extract review URL --api-key KEY --files DIR`` over a real ``extract serve``: the page lists alice's jobs
    through the API; approving her first job (the tiny model read nothing: a person types the data) saves through
    ``POST /v1/jobs/{id}/review``, which teaches her layout on the server: her next document is read by it, Bob's
    is not; the page's own guards stay (a POST without its token is refused)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from servekit import KEYS
    from test_serve import Server, done, post
    from typer.testing import CliRunner

    from extractor.cli.commands import app, dispatch_args
    from extractor.tools.review_page.app import create_service_app

    files = tmp_path / "files"
    files.mkdir()
    first, second = printed(files / "first.pdf", FIRST), printed(tmp_path / "second.pdf", SECOND)
    server = Server((model_factory.random(), "invoice"), tmp_path / "jobs.sqlite", args=("--max-tokens", "4"))

    def ended(tenant: str, path: Path) -> dict:
        """The job of ``path`` submitted as ``tenant``, once ended: waited for on a connection of its own (a busy
        server's keep-alive timer may close the one the upload used just as the wait is sent on it)."""
        with server.client(tenant) as client:
            job_id = post(client, path.read_bytes(), name=path.name).json()["id"]
        with server.client(tenant) as client:
            return done(client, job_id)

    try:
        job = ended("alice", first)
        assert job["record"]["status"] == "truncated" and job["record"]["data"] is None
        page = create_service_app(server.url, api_key=KEYS["alice"], files=files, reviewer="tester")
        with serving_app(page) as host:
            status, listing, _ = send(host, "GET", "/api/records")
            assert status == 200
            assert [(r["name"], r["file"], r["status"]) for r in json.loads(listing)["records"]] == [
                (job["id"], "first.pdf", "truncated")
            ]
            body = json.dumps({"data": FIRST, "approved": True}).encode()
            path = f"/api/records/{job['id']}/save"
            refused = send(host, "POST", path, body=body, headers={"Content-Type": "application/json"})
            assert refused[0] == 403  # no page token, no Origin: not the page's own request
            token = page_token(host, f"/r/{job['id']}")
            headers = {"Content-Type": "application/json", "X-Review-Csrf": token}
            status, saved, _ = send(host, "POST", path, body=body, headers=headers)
            assert status == 200, saved
            taught = json.loads(saved)["learned"]
            assert (taught["refused"], taught["supplier"], taught["document"]) == (None, f"vat:{VAT}", job["id"])
            assert json.loads((files / f"{job['id']}.reviewed.json").read_text(encoding="utf-8"))["approved"]

            mine, theirs = ended("alice", second), ended("bob", second)
            assert mine["record"]["data_source"] == "layout" and mine["record"]["data"] == SECOND
            assert mine["record"]["layout"]["id"] == taught["layout"]
            assert theirs["record"]["data_source"] == "model" and "layout" not in theirs["record"]

            # the page shows the record the layout read, from the service (second.pdf is not in DIR: no pages)
            browser.get(f"http://{host}/r/{mine['id']}")
            section = WebDriverWait(browser, 60).until(lambda d: d.find_element(By.ID, "layout"))
            assert taught["layout"] in section.text and "read this record with no model" in section.text
    finally:
        server.stop()
    usage = CliRunner().invoke(app, dispatch_args(["review", server.url, "--files", str(files)]))
    assert usage.exit_code == 2 and "a service needs --api-key KEY and --files DIR" in usage.output
