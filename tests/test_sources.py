"""URL sources (``POST /v1/jobs`` with ``{"url": ...}``): the fetch against a real HTTP server on loopback (allowed as
``--source-allow 127.0.0.1`` allows it), and the SSRF refusals: at submission (422 problem+json, in-process) and at
the fetch (a redirect inward), an oversized body (declared, and streamed without a length) and a slow body."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from helpers import ROOT
from servekit import in_process_app

from extractor.service.sources import FetchError, SourceSettings, fetch

app_client = in_process_app  # the fixture: the app in-process
PDF = (ROOT / "samples" / "invoice-de-einfach.pdf").read_bytes()
ALLOWED = SourceSettings(allow=("127.0.0.1",), timeout=5.0)


class Origin(BaseHTTPRequestHandler):
    """Where documents come from: ``/doc.pdf``, ``/big`` (its length declared), ``/stream`` (chunked, no length),
    ``/slow`` (a byte every 0.2 s), ``/inward`` (a redirect to the metadata address), ``/hop`` (to ``/doc.pdf``)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        path = self.path.split("?")[0]
        if path in ("/inward", "/hop"):
            target = "http://169.254.169.254/latest/meta-data" if path == "/inward" else "/doc.pdf?t=2"
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/trickle":  # a header line every 0.3 s, for ever: only a whole-request deadline ends it
            self.send_response(200)
            for n in range(100):
                self.send_header(f"X-Trickle-{n}", "x")
                self.flush_headers()
                time.sleep(0.3)
        elif path == "/doc.pdf":
            self._answer(PDF)
        elif path == "/big":
            self._answer(b"%PDF-1.4\n" + b"0" * 200_000)
        elif path == "/stream":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(30):
                self.wfile.write(b"2710\r\n" + b"0" * 10_000 + b"\r\n")  # 10,000-byte chunks
            self.wfile.write(b"0\r\n\r\n")
        elif path == "/slow":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(1000):
                self.wfile.write(b"0")
                self.wfile.flush()
                time.sleep(0.2)
        else:
            self._answer(b"no such document", status=404)

    def _answer(self, body: bytes, *, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def origin():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Origin)
    server.daemon_threads = True
    server.handle_error = lambda *args: None  # type: ignore[method-assign] # the slow body's client hangs up: expected
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_an_allowed_url_is_fetched_and_redirects_are_followed(origin):
    assert fetch(f"{origin}/doc.pdf?token=abc", settings=ALLOWED, max_bytes=100_000) == PDF
    assert fetch(f"{origin}/hop", settings=ALLOWED, max_bytes=100_000) == PDF


@pytest.mark.parametrize(
    ("path", "settings", "code", "said"),
    [
        ("/doc.pdf?token=abc", SourceSettings(timeout=5.0), "unreachable", "--source-allow 127.0.0.1"),
        ("/inward", ALLOWED, "unreachable", "169.254.169.254"),  # a redirect inward is refused at its hop
        ("/big", ALLOWED, "too_large", "200009 bytes, over --max-bytes (100000)"),
        ("/stream", ALLOWED, "too_large", "as it streamed"),
        ("/slow", SourceSettings(allow=("127.0.0.1",), timeout=1.0), "timeout", "not fetched within 1 s"),
        ("/missing?token=abc", ALLOWED, "unreachable", "HTTP 404"),
        ("/trickle", SourceSettings(allow=("127.0.0.1",), timeout=1.0), "timeout", "not fetched within 1 s"),
    ],
)
def test_a_fetch_refused_or_failed_says_why_without_the_query(origin, path, settings, code, said):
    start = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetch(origin + path, settings=settings, max_bytes=100_000)
    assert caught.value.code == code and said in str(caught.value), str(caught.value)
    assert "token" not in str(caught.value) and time.monotonic() - start < 30


def test_a_trickling_source_ends_at_its_deadline(origin):
    """Headers that keep coming (one line every 0.3 s, 30 s of them) end at ``--source-timeout``: the deadline holds
    for the whole request, not between body reads."""
    start = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetch(f"{origin}/trickle", settings=SourceSettings(allow=("127.0.0.1",), timeout=1.0), max_bytes=100_000)
    assert caught.value.code == "timeout" and time.monotonic() - start < 5.0


@pytest.mark.parametrize(
    ("address", "rule"),
    [
        ("93.184.216.34", ""),
        ("2606:2800:220:1:248:1893:25c8:1946", ""),
        ("64:ff9b::5db8:d822", ""),  # NAT64 of a public address: reachable
        ("2002:5db8:d822::1", ""),  # 6to4 of a public address
        ("127.0.0.1", "a loopback address"),
        ("10.1.2.3", "a private address"),
        ("169.254.169.254", "a link-local address"),
        ("::1", "a loopback address"),
        ("64:ff9b::7f00:1", "a NAT64 (64:ff9b::/96) address carrying a loopback IPv4 address"),
        ("64:ff9b::a9fe:a9fe", "a NAT64 (64:ff9b::/96) address carrying a link-local IPv4 address"),
        ("64:ff9b:1::7f00:1", "a local-use NAT64 address (64:ff9b:1::/48)"),
        ("2002:7f00:1::", "a 6to4 (2002::/16) address carrying a loopback IPv4 address"),
        ("2002:a01:203::1", "a 6to4 (2002::/16) address carrying a private IPv4 address"),
        ("2001::1", "a Teredo address (2001::/32)"),
        ("::127.0.0.1", "an IPv4-compatible (::/96) address carrying a loopback IPv4 address"),
        ("::a9fe:a9fe", "an IPv4-compatible (::/96) address carrying a link-local IPv4 address"),
        ("::ffff:169.254.169.254", "an IPv4-mapped (::ffff:0:0/96) address carrying a link-local IPv4 address"),
        ("::ffff:10.0.0.1", "an IPv4-mapped (::ffff:0:0/96) address carrying a private IPv4 address"),
    ],
)
def test_ipv6_forms_are_judged_by_the_ipv4_address_they_carry(address, rule):
    from extractor.service.outbound import refused_by

    assert refused_by(address) == rule


def test_a_url_aimed_inside_is_refused_at_submission(app_client):
    before = len(app_client.get("/v1/jobs", params={"limit": 200}).json()["jobs"])
    for url in (
        "http://10.1.2.3/invoice.pdf",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:8000/x.pdf",
        "http://localhost/x.pdf",
        "ftp://example.com/x.pdf",
        "http://user:pw@example.com/x.pdf",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[::127.0.0.1]/",
        "http://[::ffff:169.254.169.254]/",
    ):
        refused = app_client.post("/v1/jobs", json={"url": url})
        assert refused.status_code == 422 and refused.json()["code"] == "source_refused", (url, refused.text)
    named = app_client.post("/v1/jobs", json={"url": "http://localhost/x.pdf"}).json()["detail"]
    assert "a loopback address" in named and "127.0.0.1" not in named and "::1" not in named, named
    unknown = app_client.post("/v1/jobs", json={"url": "http://example.com/a.pdf", "options": {"model": "x"}})
    assert unknown.json()["code"] == "invalid_options" and unknown.json()["errors"][0]["loc"] == [
        "body",
        "options",
        "model",
    ]
    assert app_client.post("/v1/jobs", json={"file": "x"}).json()["code"] == "invalid_request"
    assert len(app_client.get("/v1/jobs", params={"limit": 200}).json()["jobs"]) == before
