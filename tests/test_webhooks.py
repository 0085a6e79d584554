"""Webhook delivery without a network: the resolver and the socket are this test's, the delivery code is real."""

from __future__ import annotations


def test_a_delivery_connects_to_the_address_it_checked(monkeypatch):
    """The host is resolved and checked before each delivery, and the connection goes to that checked address (a
    name that resolves inward a moment later is not followed: DNS rebinding); a private answer is refused."""
    from extractor.service import outbound, webhooks
    from extractor.service.job import Job

    answers = iter([[(2, 1, 6, "", ("1.1.1.1", 80))], [(2, 1, 6, "", ("10.0.0.7", 80))]])
    monkeypatch.setattr(outbound.socket, "getaddrinfo", lambda *args, **kwargs: next(answers))
    dialled = []

    def create_connection(address, timeout=None):
        dialled.append(address)
        raise OSError("no network in the test")

    monkeypatch.setattr(outbound.socket, "create_connection", create_connection)
    settings = webhooks.WebhookSettings(secret="s", tries=1)
    job = Job(seq=1, id="j", tenant="t", status="done", created=0.0, callback_url="http://hooks.example/x?t=1")
    first = webhooks.deliver(job, settings=settings)
    assert dialled == [("1.1.1.1", 80)] and not first["ok"] and "no network" in first["error"]
    second = webhooks.deliver(job, settings=settings)  # the name now points inward: refused, nothing dialled
    assert dialled == [("1.1.1.1", 80)] and "a private address" in second["error"]
    assert "10.0.0.7" not in second["error"]  # the rule is named, not the inside address the name resolved to


def test_a_rotated_secret_signs_twice_and_a_failed_webhook_is_sent_again_with_fresh_tries(tmp_path):
    """``EXTRACT_WEBHOOK_SECRET=NEW,OLD``: every delivery carries a ``v1=`` signature under each (a receiver of
    either verifies it) and the submitting request's id; tries spent, ``retry_callback`` sends it again with a
    fresh set of tries, on a real receiver on loopback."""
    import hashlib
    import hmac
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from extractor.service.config import open_store
    from extractor.service.webhooks import Deliverer, WebhookSettings

    seen: list[dict] = []
    answers = iter([500, 500, 204])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers["Content-Length"]))
            seen.append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
            self.send_response(next(answers))
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
        job, _ = store.submit(
            tenant="t",
            filename="a.pdf",
            data=b"%PDF",
            sha256="s",
            fingerprint="f",
            options={},
            callback_url=f"http://127.0.0.1:{http.server_address[1]}/hook",
            request_id="req-42",
        )
        claimed = store.claim(lease=60)
        assert claimed is not None and store.finish(claimed, records=[{"n": 1}])
        settings = WebhookSettings(secret="new-secret, old-secret", allow=("127.0.0.1",), tries=2, backoff=0.0)
        deliverer = Deliverer(store=store, settings=settings)
        assert deliverer.run_once() and deliverer.run_once() and not deliverer.run_once()
        assert store.get(job.id).callback_state == "failed"  # type: ignore[union-attr]
        assert store.retry_callback(job.id, tenant="t")[1]
        assert deliverer.run_once()
        final = store.get(job.id)
    finally:
        http.shutdown()
    assert final is not None and final.callback_state == "delivered"
    assert [(a["attempt"], a.get("status_code")) for a in final.deliveries] == [(1, 500), (2, 500), (3, 204)]
    for delivery in seen:
        headers, body = delivery["headers"], delivery["body"]
        signed = headers["x-extractor-timestamp"].encode() + b"." + body
        expected = [f"v1={hmac.new(k, signed, hashlib.sha256).hexdigest()}" for k in (b"new-secret", b"old-secret")]
        assert headers["x-extractor-signature"] == ",".join(expected) and headers["x-request-id"] == "req-42"
