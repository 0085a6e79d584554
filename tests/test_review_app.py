"""``extract review``: the app over real records (the README demo's answer, forced on a kit model), over HTTP and in
Chromium.

One record folder per module: the demo model (it answers invoice-de-einfach's data for every document) on
invoice-fr-services.pdf gives a ``review`` record; an encrypted, a corrupt and a page-less PDF give ``error``
records. One server and one headless Chromium session for the browser test.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import FORCED_FAMILY, ROOT, forced_settings, in_ci, make_pdf, raw_pdf

from extractor.cli.commands import app
from extractor.schema import load_schema, validate_data
from extractor.tools.evaluate import evaluate_reviewed
from extractor.tools.review_page.app import create_app, needs_token
from extractor.tools.review_page.records import changed_fields

SAMPLE = "invoice-fr-services"
DEMO_ANSWER = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8"))
TRUE_DATA = json.loads((ROOT / "samples" / "expected" / f"{SAMPLE}.json").read_text(encoding="utf-8"))
TRUE_NUMBER, TRUE_ITEM = TRUE_DATA["invoice_number"], TRUE_DATA["line_items"][0]
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SCREENSHOT_ENV = "EXTRACTOR_REVIEW_SCREENSHOT"  # where to keep the record view's screenshot (README's docs/review.png)


@pytest.fixture(scope="module")
def out(tmp_path_factory, model_factory) -> Path:
    """A folder of records: the demo's ``review`` record and three ``error`` records, with their sources."""
    from extractor import Extractor

    base = tmp_path_factory.mktemp("review")
    sources, folder = base / "inbox", base / "out"
    sources.mkdir()
    folder.mkdir()
    shutil.copy(ROOT / "samples" / f"{SAMPLE}.pdf", sources)
    (sources / "locked.pdf").write_bytes(make_pdf(["Rechnung 7"], user_password="secret"))
    (sources / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nendobj\ntrailer\n")
    (sources / "nopages.pdf").write_bytes(raw_pdf())
    # the demo's answer to every document, forced on a kit model (not a scripted model built for it)
    extractor = Extractor(
        forced_settings(model_factory.family(FORCED_FAMILY), DEMO_ANSWER, schema="invoice", max_tokens=2000)
    )
    for name in (f"{SAMPLE}.pdf", "locked.pdf", "broken.pdf", "nopages.pdf"):
        record = extractor.extract(str(sources / name))
        text = json.dumps(record.to_dict(), ensure_ascii=False)
        (folder / f"{Path(name).stem}.json").write_text(text, encoding="utf-8")
    # an answer that breaks the schema every way the form can meet: wrong types where objects, lists and numbers go
    wrong = dict(json.loads((folder / f"{SAMPLE}.json").read_text(encoding="utf-8")), status="invalid")
    wrong["data"] = {
        "invoice_number": 5,
        "seller": ["x"],
        "line_items": [None, 3, {"amount": {"x": 1}}],
        "total": "abc",
        "tax_lines": "none",
    }
    (folder / "wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    return folder


@contextmanager
def serving(folder: Path, *, token=None, register: str | None = None):
    """The app on a free loopback port in a thread (``register``: the invoice register it opens); yields its base
    URL."""
    with serving_app(create_app(folder, reviewer="tester", token=token, register=register)) as host:
        yield host


@contextmanager
def serving_app(app):
    """An app (``create_app``'s, ``create_service_app``'s) on a free loopback port in a thread; yields its host."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def get(host: str, path: str, headers=None) -> tuple[int, str, dict]:
    """A raw GET (the path is sent exactly as written, no normalisation)."""
    return send(host, "GET", path, headers=headers)


def send(host: str, method: str, path: str, *, body: bytes | None = None, headers=None) -> tuple[int, str, dict]:
    """A raw request, its headers exactly as given (``Host`` too, when given)."""
    conn = http.client.HTTPConnection(host, timeout=120)
    given = {k.lower() for k in headers or {}}
    conn.putrequest(method, path, skip_host="host" in given, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        conn.putheader(name, value)
    conn.putheader("Content-Length", str(len(body or b"")))
    conn.endheaders(body or b"")
    response = conn.getresponse()
    answer = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, answer, dict(response.getheaders())


def page_token(host: str, path: str = "/") -> str:
    """The per-start token a page of the app embeds (``<meta name="review-csrf">``)."""
    status, page, _ = get(host, path)
    assert status == 200
    return page.split('<meta name="review-csrf" content="')[1].split('"')[0]


# ------------------------------------------------------------------------------------------------------ pure parts


@pytest.mark.parametrize(
    "host, needed",
    [
        ("127.0.0.1", False),
        ("localhost", False),
        ("::1", False),
        ("127.0.0.2", False),
        ("0.0.0.0", True),
        ("192.168.1.5", True),
        ("::", True),
        ("review.example", True),
    ],
)
def test_only_loopback_binds_go_without_a_token(host, needed):
    assert needs_token(host) is needed


@pytest.mark.parametrize(
    "bound, header, allowed",
    [
        ("127.0.0.1", "127.0.0.1:8000", True),
        ("127.0.0.1", "localhost:8000", True),
        ("127.0.0.1", "LOCALHOST", True),
        ("127.0.0.1", "[::1]:8000", True),
        ("127.0.0.1", "rebind.attacker.example:8000", False),
        ("127.0.0.1", "127.0.0.1.attacker.example", False),
        ("127.0.0.1", "localhost.", False),
        ("127.0.0.1", "", False),
        ("127.0.0.1", None, False),
        ("::1", "[::1]:8000", True),
        ("localhost", "localhost:8000", True),
        ("192.168.1.5", "192.168.1.5:8000", True),
        ("192.168.1.5", "localhost:8000", False),  # not loopback: only its own address
        ("review.example", "review.example:443", True),
        ("review.example", "rebind.attacker.example", False),
        ("0.0.0.0", "10.1.2.3:8000", True),  # every address of the machine
        ("0.0.0.0", "[fe80::1]:8000", True),
        ("0.0.0.0", "rebind.attacker.example:8000", False),
        ("::", "localhost:8000", True),
    ],
)
def test_only_the_bound_name_and_address_pass_the_host_check(bound, header, allowed):
    from extractor.service.origin import Hosts

    assert Hosts.bound(bound).allows(header) is allowed


@pytest.mark.parametrize(
    "headers, other_site",
    [
        ({}, False),  # no browser's: curl, a client library
        ({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}, False),
        ({"host": "127.0.0.1:8000", "origin": "http://evil.example"}, True),
        ({"host": "127.0.0.1:8000", "origin": "null"}, True),  # a sandboxed frame, a redirect
        ({"host": "127.0.0.1:8000", "origin": "https://127.0.0.1:8000"}, True),  # another scheme: another origin
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "cross-site"}, True),
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "same-site"}, True),
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "same-origin"}, False),
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "none"}, False),  # typed in the address bar
    ],
)
def test_a_request_from_another_sites_page_is_told_apart(headers, other_site):
    from extractor.service.origin import from_other_site

    assert from_other_site(headers, scheme="http") is other_site


@pytest.mark.parametrize(
    "original, corrected, changed",
    [
        ({"a": 1, "b": "x"}, {"a": 1, "b": "x"}, []),
        ({"a": 1, "b": "x"}, {"a": 1.0, "b": " X "}, []),  # compared as extract eval does
        ({"a": 1, "b": "x"}, {"a": 2, "b": "x"}, ["/a"]),
        ({"items": [{"q": 1}, {"q": 2}]}, {"items": [{"q": 1}]}, ["/items/1/q"]),
        ({"items": [{"q": 1}]}, {"items": [{"q": 1}, {"q": 3}]}, ["/items/1/q"]),
        ({"a": None}, {"a": "new"}, ["/a"]),
    ],
)
def test_changed_fields(original, corrected, changed):
    assert changed_fields(original, corrected) == changed


# ------------------------------------------------------------------------------------------------------------ HTTP


def test_list_and_error_records_over_http(out):
    with serving(out) as host:
        status, body, _ = get(host, "/api/records")
        listing = json.loads(body)
        assert status == 200
        assert [(r["name"], r["status"]) for r in listing["records"]] == [
            (SAMPLE, "review"),
            ("wrong", "invalid"),
            ("broken", "error"),
            ("locked", "error"),
            ("nopages", "error"),
        ]
        assert {k: v for k, v in listing["counts"].items() if v} == {"review": 1, "invalid": 1, "error": 3}
        status, body, _ = get(host, "/api/records/wrong")
        state = json.loads(body)["state"]
        assert status == 200 and not state["valid"]
        assert {e["path"] for e in state["errors"]} == {  # "": the required fields it lacks
            "",
            "/invoice_number",
            "/seller",
            "/line_items/0",
            "/line_items/1",
            "/line_items/2",
            "/line_items/2/amount",
            "/total",
            "/tax_lines",
        }
        status, page, _ = get(host, "/")
        assert status == 200 and f'href="/r/{SAMPLE}"' in page
        # the demo's answer on the French page: three states, each field in one of them
        state = json.loads(get(host, f"/api/records/{SAMPLE}")[1])["state"]
        assert "/line_items/0/quantity" in state["unchecked"] and "/line_items/0/unit_price" in state["ungrounded"]
        assert state["grounded"] == ["/currency"]  # EUR, printed as €: the one value the demo has right
        kinds = [set(state[k]) for k in ("grounded", "ungrounded", "unchecked")]
        assert not (kinds[0] & kinds[1] or kinds[0] & kinds[2] or kinds[1] & kinds[2])
        for name, code in (("locked", "encrypted"), ("broken", "corrupt"), ("nopages", "corrupt")):
            record = json.loads((out / f"{name}.json").read_text(encoding="utf-8"))
            assert record["errors"][0]["code"] == code
            status, body, _ = get(host, f"/api/records/{name}")
            view = json.loads(body)
            assert status == 200 and (view["data"], view["pages"]) == (None, [])
            assert view["pages_error"]["code"] == code  # the page renderer met the same problem, and said so
            status, page, _ = get(host, f"/r/{name}")
            assert status == 200 and 'id="record-errors"' in page and f"<strong>{code}</strong>" in page


def test_the_record_view_shows_each_fields_confidence_and_evidence(out, tmp_path):
    import html

    from extractor.tools.review_page.records import field_evidence

    record = json.loads((out / f"{SAMPLE}.json").read_text(encoding="utf-8"))
    fields = record["fields"]
    low = min(fields, key=lambda p: fields[p]["confidence"])
    record["confidence"] = {**record["confidence"], "threshold": 0.99, "below": [low]}
    record["fields"][low] = {**fields[low], "agreement": False}
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / f"{SAMPLE}.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    rows = field_evidence(record)
    assert [r["pointer"] for r in rows] == sorted(fields, key=lambda p: fields[p]["confidence"])  # least first
    entry, grounding = fields[low], fields[low]["grounding"] or {}
    assert rows[0] == {
        "pointer": low,
        "confidence": entry["confidence"],
        "below": True,
        **{k: entry[k] for k in ("p_min", "p_mean", "margin_first", "tokens", "forced_tokens")},
        "grounded": grounding.get("grounded"),
        "source": grounding.get("source"),
        "page": grounding.get("page"),
        "checks": entry["checks"],
        "agreement": False,
    }
    assert not any(r["below"] for r in rows[1:])
    with serving(folder) as host:
        status, body, _ = get(host, f"/api/records/{SAMPLE}")
        assert status == 200 and json.loads(body)["evidence"] == rows
        status, page, _ = get(host, f"/r/{SAMPLE}")
    assert status == 200 and 'id="evidence"' in page
    shown = [html.unescape(p.split('"')[0]) for p in page.split('<tr data-pointer="')[1:]]
    assert shown == [r["pointer"] for r in rows]
    assert page.count('class="below"') == 1 and f'<tr data-pointer="{html.escape(low)}" class="below">' in page
    assert "differs" in page.split('<tr data-pointer="')[1]
    assert f"{entry['confidence']:.3f}" in page.split('<tr data-pointer="')[1]


def test_traversal_and_anything_outside_out_is_404(out, tmp_path):
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps({"version": 1, "source": "x.pdf", "status": "ok", "data": {"secret": 1}}))
    (out / "leak.json").symlink_to(outside)
    try:
        with serving(out) as host:
            for path in (
                "/api/records/..%2F..%2Fetc%2Fpasswd",
                "/api/records/../../etc/passwd",
                "/r/%2Fetc%2Fpasswd",
                "/api/records/%2e%2e",
                "/api/records/..%252Fsecret",
                f"/api/records/{outside}",
                "/api/records/leak",
                "/r/leak",
                f"/api/records/{SAMPLE}%2F..%2Fleak",
                f"/api/records/{SAMPLE}/pages/9",
                "/static/..%2F..%2Fapp.py",
                "/static/../app.py",
                "/api/records/locked/pages/1",
            ):
                status, _, _ = get(host, path)
                assert status == 404, path
            names = [r["name"] for r in json.loads(get(host, "/api/records")[1])["records"]]
            assert "leak" not in names
    finally:
        (out / "leak.json").unlink()


def test_a_non_loopback_bind_prints_a_token_and_refuses_requests_without_it(out):
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "extractor.cli", "review", str(out), "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert line.startswith("review: http://0.0.0.0:") and "?token=" in line, line
        url = line.split()[1]
        port, token = url.split(":")[2].split("/")[0], url.split("?token=")[1]
        host = f"127.0.0.1:{port}"
        assert get(host, "/")[0] == 403 and get(host, f"/r/{SAMPLE}")[0] == 403
        assert get(host, "/api/records")[0] == 403 and get(host, "/?token=not-it")[0] == 403
        assert get(host, f"/?token={token}")[0] == 200
        assert get(host, "/api/records", headers={"X-Review-Token": token})[0] == 200
    finally:
        server.terminate()
        server.wait(20)


def test_a_token_is_required_when_one_is_set(out):
    with serving(out, token="s3cret-token") as host:
        assert get(host, "/api/records")[0] == 403
        assert get(host, "/api/records?token=wrong")[0] == 403
        assert get(host, f"/r/{SAMPLE}", headers={"X-Review-Token": "wrong"})[0] == 403
        assert get(host, "/api/records", headers={"X-Review-Token": "s3cret-token"})[0] == 200
        status, _, headers = get(host, "/?token=s3cret-token")
        assert status == 200 and "review_token=s3cret-token" in headers["set-cookie"]
        assert get(host, "/api/records", headers={"Cookie": "review_token=s3cret-token"})[0] == 200


EVIL = "http://evil.example"
REBIND = "rebind.attacker.example"


def test_another_sites_page_cannot_save_and_a_rebinding_host_reads_nothing(out):
    """Issue 50's attacks, as a browser sends them: a cross-site ``text/plain`` POST (no preflight) and a DNS
    rebinding name. Each is refused with 403 and nothing is written; the page's own requests still pass."""
    reviewed = out / f"{SAMPLE}.reviewed.json"
    kept = reviewed.read_bytes() if reviewed.exists() else None
    forged = json.dumps({"data": {**DEMO_ANSWER, "bank_account": {"iban": "DE02120300000000202051"}}, "approved": True})
    save = f"/api/records/{SAMPLE}/save"
    with serving(out) as host:
        token = page_token(host)
        for headers in (
            {"Content-Type": "text/plain", "Origin": EVIL},  # the attack: a simple request, sent without asking
            {"Content-Type": "application/x-www-form-urlencoded", "Origin": EVIL},
            {"Content-Type": "multipart/form-data; boundary=x", "Origin": EVIL},
            {"Content-Type": "application/json", "Origin": EVIL},
            {"Content-Type": "application/json", "Origin": "null"},
            {"Content-Type": "application/json"},  # neither the token nor an Origin
            {"Content-Type": "application/json", "X-Review-Csrf": "not-the-token"},
            {"Content-Type": "text/plain", "X-Review-Csrf": token},  # the token, but not JSON
            {"Content-Type": "application/json", "X-Review-Csrf": token, "Host": f"{REBIND}:80"},
        ):
            status, body, _ = send(host, "POST", save, body=forged.encode(), headers=headers)
            assert status == 403, (headers, body)
        assert (reviewed.read_bytes() if reviewed.exists() else None) == kept  # nothing written
        for path in ("/api/records", f"/api/records/{SAMPLE}", "/", f"/r/{SAMPLE}", "/static/review.js"):
            status, body, _ = get(host, path, headers={"Host": f"{REBIND}:{host.split(':')[1]}"})
            assert status == 403 and SAMPLE not in body, path
        # the page's own: its token, or its Origin (a browser sends it with every POST)
        check = f"/api/records/{SAMPLE}/check"
        posted = json.dumps({"data": DEMO_ANSWER}).encode()
        own = {"Content-Type": "application/json", "X-Review-Csrf": token}
        assert send(host, "POST", check, body=posted, headers=own)[0] == 200
        same = {"Content-Type": "application/json; charset=utf-8", "Origin": f"http://{host}"}
        assert send(host, "POST", check, body=posted, headers=same)[0] == 200
        assert get(host, "/api/records", headers={"Host": f"localhost:{host.split(':')[1]}"})[0] == 200


# --------------------------------------------------------------------------------------------------------- browser


def printed_boxes(pdf: Path, text: str) -> list[tuple[float, float, float, float]]:
    """Where pdfium's own search finds ``text`` on page 1, as fractions of the page (top left 0, 0)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    page = document[0]
    width, height = page.get_size()
    textpage = page.get_textpage()
    found, searcher = [], textpage.search(text)
    while (hit := searcher.get_next()) is not None:
        start, count = hit
        boxes = [textpage.get_charbox(i) for i in range(start, start + count)]
        left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, top = max(b[2] for b in boxes), max(b[3] for b in boxes)
        found.append((left / width, 1 - top / height, right / width, 1 - bottom / height))
    document.close()
    return found


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (skipped without it, failed under CI)."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        message = f"Chromium is not installed ({CHROMIUM}, {CHROMEDRIVER}; apt-get install chromium chromium-driver)"
        if in_ci():
            pytest.fail(message + ": CI must install it")
        pytest.skip(message)
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="review-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,800",
    ):
        options.add_argument(flag)
    # CI preloads OpenBLAS for mlx (LD_PRELOAD); Chromium crashes with it, so its processes start without it
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER), env=env), options=options)
    driver.set_window_size(1280, 800)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def box_centre(driver, ptr: str) -> tuple[float, float]:
    """The centre of the selected box of ``ptr`` as a fraction of its page image."""
    return tuple(
        driver.execute_script(
            """
        const box = document.querySelector('.box.selected[data-ptr="' + arguments[0] + '"]');
        const img = box.closest('.page').querySelector('img').getBoundingClientRect();
        const b = box.getBoundingClientRect();
        return [(b.left + b.width / 2 - img.left) / img.width, (b.top + b.height / 2 - img.top) / img.height];
    """,
            ptr,
        )
    )


def style_of(node) -> list:
    """A form field's left border (colour, style): how the page marks its state."""
    return node.parent.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.borderLeftColor, s.borderLeftStyle]", node
    )


def inside(point, boxes) -> bool:
    return any(x0 <= point[0] <= x1 and y0 <= point[1] <= y1 for x0, y0, x1, y1 in boxes)


def test_review_in_a_browser(out, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 30)
    source = json.loads((out / f"{SAMPLE}.json").read_text(encoding="utf-8"))
    pdf = Path(source["source"])
    with serving(out) as host:
        browser.get(f"http://{host}/r/{SAMPLE}")
        field = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-ptr="/invoice_number"]'))
        row = field.find_element(By.XPATH, "..")
        assert row.get_attribute("data-state") == "ungrounded" and "not found" in row.text  # the demo's wrong value
        wait.until(lambda d: d.execute_script("return document.querySelector('.page img').complete"))

        # a grounded value: its box over the place the page prints it (EUR, printed as €)
        browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/currency"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.box.selected[data-ptr="/currency"]'))
        assert inside(box_centre(browser, "/currency"), printed_boxes(pdf, "€"))
        shot = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "review.png")
        browser.save_screenshot(str(shot))

        # keyboard: leave the field, jump to the next flagged field
        browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        browser.find_element(By.TAG_NAME, "body").send_keys("n")
        assert browser.switch_to.active_element.get_attribute("data-ptr") == "/invoice_number"

        # correct it: re-checked as typed, grounded now, and boxed where the page prints it
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(TRUE_NUMBER)
        wait.until(lambda d: row.get_attribute("data-state") == "grounded")
        field.click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.box.selected[data-ptr="/invoice_number"]'))
        assert inside(box_centre(browser, "/invoice_number"), printed_boxes(pdf, TRUE_NUMBER))

        # approve with its key
        field.send_keys(Keys.ESCAPE)
        browser.find_element(By.TAG_NAME, "body").send_keys("a")
        wait.until(lambda d: "Approved" in d.find_element(By.ID, "message").text)

        # not checkable, in its own style: the demo's quantity 4, a digit on a row this page does not print
        quantity = browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/line_items/0/quantity"]')
        cell = quantity.find_element(By.XPATH, "..")
        assert cell.get_attribute("data-state") == "unchecked" and "not checkable" in cell.get_attribute("title")
        price = browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/line_items/0/unit_price"]')
        assert price.find_element(By.XPATH, "..").get_attribute("data-state") == "ungrounded"
        styles = [style_of(price.find_element(By.XPATH, "..")), style_of(cell)]
        assert styles[0] != styles[1] and styles[1][1] == "dotted"

        # a line item typed as the page prints it: grounded, its quantity's box on the description's row (the
        # page prints 3 elsewhere too: "3 fois le taux")
        description = browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/line_items/0/description"]')
        description.send_keys(Keys.CONTROL, "a")
        description.send_keys(TRUE_ITEM["description"])
        quantity.send_keys(Keys.CONTROL, "a")
        quantity.send_keys(str(TRUE_ITEM["quantity"]))
        wait.until(lambda d: cell.get_attribute("data-state") == "grounded")
        quantity.click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.box.selected[data-ptr="/line_items/0/quantity"]'))
        ((_, top, _, bottom),) = printed_boxes(pdf, TRUE_ITEM["description"])
        x, y = box_centre(browser, "/line_items/0/quantity")
        assert top <= y <= bottom and not inside((x, y), printed_boxes(pdf, TRUE_ITEM["description"]))
        quantity.send_keys(Keys.ESCAPE)  # not saved: the record approved above stays as it was

        # the next document (j): the answer that breaks the schema still shows as a form, its errors marked
        browser.find_element(By.TAG_NAME, "body").send_keys("j")
        wait.until(lambda d: d.current_url.endswith("/r/wrong"))
        total = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-ptr="/total"]'))
        assert total.find_element(By.XPATH, "..").get_attribute("data-state") == "failed"
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []

    reviewed = json.loads((out / f"{SAMPLE}.reviewed.json").read_text(encoding="utf-8"))
    assert validate_data(reviewed["data"], load_schema("invoice")) == []
    assert reviewed["data"] == {**DEMO_ANSWER, "invoice_number": TRUE_NUMBER}
    assert {k: reviewed[k] for k in ("record", "reviewer", "original_status", "approved", "changed")} == {
        "record": f"{SAMPLE}.json",
        "reviewer": "tester",
        "original_status": "review",
        "approved": True,
        "changed": ["/invoice_number"],
    }
    assert json.loads((out / f"{SAMPLE}.json").read_text(encoding="utf-8")) == source  # the model's record stays

    # extract eval OUT --gold reviewed: the model's record against the correction
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["eval", str(out), "--gold", "reviewed", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    number = next(f for f in report["fields"] if f["path"] == "/invoice_number")
    assert number == {"path": "/invoice_number", "tp": 0, "fp": 1, "fn": 1, "precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert report["per_document"][0]["stem"] == SAMPLE and report["per_document"][0]["fp"] == 1
    assert report == evaluate_reviewed(out).to_dict()


CITED = "invoice-de-einfach"
CITATIONS_SCREENSHOT_ENV = "EXTRACTOR_REVIEW_CITATIONS_SCREENSHOT"  # docs/review-citations.png


@pytest.fixture(scope="module")
def cited(tmp_path_factory, model_factory) -> Path:
    """A folder with one record whose every value is right: a model scripted with invoice-de-einfach's answer."""
    from extractor import Extractor

    base = tmp_path_factory.mktemp("cited")
    sources, folder = base / "inbox", base / "out"
    sources.mkdir()
    folder.mkdir()
    shutil.copy(ROOT / "samples" / f"{CITED}.pdf", sources)
    answer = json.dumps(DEMO_ANSWER, ensure_ascii=False, separators=(",", ":"))
    with Extractor(model=str(model_factory.scripted(answer=answer, schema="invoice").path)) as extractor:
        record = extractor.extract(str(sources / f"{CITED}.pdf"))
    (folder / f"{CITED}.json").write_text(json.dumps(record.to_dict(), ensure_ascii=False), encoding="utf-8")
    return folder


def test_the_page_draws_every_values_citation_and_lists_those_without(cited, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    record = json.loads((cited / f"{CITED}.json").read_text(encoding="utf-8"))
    pdf = Path(record["source"])
    values = list(record["grounding"]["fields"])  # every scalar with a value
    boxed = sorted(p for p in values if any(c["box"] for c in record["fields"][p]["citations"]))
    assert len(boxed) >= 55 and boxed == sorted(p for p, ok in record["grounding"]["fields"].items() if ok)
    wait = WebDriverWait(browser, 30)
    with serving(cited) as host:
        browser.get(f"http://{host}/r/{CITED}")
        wait.until(lambda d: d.execute_script("return document.querySelector('.page img').complete"))
        drawn = browser.execute_script("return Array.from(document.querySelectorAll('.box')).map((b) => b.dataset.ptr)")
        assert sorted(drawn) == boxed  # every value's box, as the record cites it
        listed = [li.get_attribute("data-ptr") for li in browser.find_elements(By.CSS_SELECTOR, "#unboxed li")]
        assert listed == [p for p in values if p not in boxed]  # the values with none, listed
        browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/total"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.box.selected[data-ptr="/total"]'))
        assert inside(box_centre(browser, "/total"), printed_boxes(pdf, "2.377,78"))
        browser.find_element(By.CSS_SELECTOR, 'input[data-ptr="/line_items/1/amount"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.row[data-ptr="/line_items/1/amount"]'))
        assert len(browser.find_elements(By.CSS_SELECTOR, ".box.selected")) == 1
        browser.save_screenshot(str(Path(os.environ.get(CITATIONS_SCREENSHOT_ENV) or tmp_path / "citations.png")))
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
