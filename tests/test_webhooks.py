"""Webhook delivery without a network: the resolver and the socket are this test's, the delivery code is real."""

from __future__ import annotations

import pytest


def test_a_delivery_connects_to_the_address_it_checked(monkeypatch):
    """The host is resolved and checked before each delivery, and the connection goes to that checked address (a
    name that resolves inward a moment later is not followed: DNS rebinding); a private answer is refused."""
    from extractor.service import outbound, webhooks
    from extractor.service.stored_job import StoredJob

    answers = iter([[(2, 1, 6, "", ("1.1.1.1", 80))], [(2, 1, 6, "", ("10.0.0.7", 80))]])
    monkeypatch.setattr(outbound.socket, "getaddrinfo", lambda *args, **kwargs: next(answers))
    dialled = []

    def create_connection(address, timeout=None):
        dialled.append(address)
        raise OSError("no network in the test")

    monkeypatch.setattr(outbound.socket, "create_connection", create_connection)
    settings = webhooks.WebhookSettings(secret="s", tries=1)
    job = StoredJob(seq=1, id="j", tenant="t", status="done", created=0.0, callback_url="http://hooks.example/x?t=1")
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
        named = [headers[f"x-extractor-{n}"] for n in ("timestamp", "tenant", "delivery")]
        signed = ".".join(named).encode() + b"." + body
        expected = [f"v2={hmac.new(k, signed, hashlib.sha256).hexdigest()}" for k in (b"new-secret", b"old-secret")]
        assert headers["x-extractor-signature"] == ",".join(expected) and headers["x-request-id"] == "req-42"


def _receiver(handler_post) -> tuple[object, str]:
    """A receiver on loopback whose POST is ``handler_post(handler)``; returns the server and its base URL."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            handler_post(self)

        def log_message(self, *args) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    http.handle_error = lambda *args: None  # type: ignore[method-assign] # the trickle's client hangs up: expected
    threading.Thread(target=http.serve_forever, daemon=True).start()
    return http, f"http://127.0.0.1:{http.server_address[1]}"


def _ended(store, *, tenant: str, url: str, data: bytes):
    job, _ = store.submit(
        tenant=tenant, filename="a.pdf", data=data, sha256=data.hex(), fingerprint="f", options={}, callback_url=url
    )
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == job.id and store.finish(claimed, records=[{"n": 1}])
    return job


def test_a_delivery_for_one_tenant_does_not_verify_as_another_tenants(tmp_path):
    """Each tenant signs with its own secret, and the tenant and the delivery id are inside what is signed: the
    delivery made for tenant A fails B's check (B's secret), and fails A's own once its tenant or delivery id is
    changed (a forged cross-tenant delivery, a replay under a fresh id)."""
    import hashlib
    import hmac

    from extractor.service.config import open_store
    from extractor.service.webhooks import Deliverer, WebhookSettings

    seen: list[dict] = []

    def post(handler) -> None:
        body = handler.rfile.read(int(handler.headers["Content-Length"]))
        seen.append({"headers": {k.lower(): v for k, v in handler.headers.items()}, "body": body})
        handler.send_response(204)
        handler.end_headers()

    http, url = _receiver(post)
    secrets = {"tenant-a": "secret-a", "tenant-b": "secret-b-new,secret-b-old"}
    settings = WebhookSettings(secret="shared", tenant_secrets=secrets, allow=("127.0.0.1",), tries=1)
    try:
        store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
        _ended(store, tenant="tenant-a", url=f"{url}/a", data=b"%PDF a")
        assert Deliverer(store=store, settings=settings).run_once()
    finally:
        http.shutdown()
    ((headers, body),) = [(d["headers"], d["body"]) for d in seen]

    def verifies(secret: str, *, tenant: str, delivery: str) -> bool:
        signed = f"{headers['x-extractor-timestamp']}.{tenant}.{delivery}.".encode() + body
        expected = "v2=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        return any(hmac.compare_digest(expected, given) for given in headers["x-extractor-signature"].split(","))

    tenant, delivery = headers["x-extractor-tenant"], headers["x-extractor-delivery"]
    assert (tenant, delivery.endswith(".1")) == ("tenant-a", True)
    assert verifies("secret-a", tenant=tenant, delivery=delivery)
    assert not any(verifies(s, tenant=tenant, delivery=delivery) for s in ("secret-b-new", "secret-b-old", "shared"))
    assert not verifies("secret-a", tenant="tenant-b", delivery=delivery)
    assert not verifies("secret-a", tenant=tenant, delivery=delivery.replace(".1", ".2"))


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("", {}),
        ("a=one", {"a": "one"}),
        ("a=new,old; b=two  c:d=three", {"a": "new,old", "b": "two", "c:d": "three"}),
        ("a=", None),
        ("=s3cr3t", None),
        ("a", None),
    ],
)
def test_tenant_secrets_are_read_and_a_bad_entry_is_refused_without_its_secret(text, secrets):
    from extractor.errors import UsageError
    from extractor.service.webhooks import tenant_secrets

    if secrets is not None:
        assert tenant_secrets(text) == secrets
        return
    with pytest.raises(UsageError) as refused:
        tenant_secrets(text)
    assert "EXTRACT_WEBHOOK_TENANT_SECRETS: entry 1" in str(refused.value) and "s3cr3t" not in str(refused.value)


def test_a_trickling_receiver_delays_no_other_tenants_webhook(tmp_path):
    """Tenant A's receiver answers one header line every 0.3 s for 30 s; tenant B's answers at once. B's delivery
    arrives while A's is still trickling, and A's attempt ends at its deadline (``timeout``), not after 30 s."""
    import threading
    import time

    from extractor.service.config import open_store
    from extractor.service.webhooks import Deliverer, WebhookSettings

    arrived: dict[str, float] = {}
    trickling = threading.Event()

    def trickle(handler) -> None:
        handler.rfile.read(int(handler.headers["Content-Length"]))
        trickling.set()
        handler.send_response(200)
        for n in range(100):
            handler.send_header(f"X-Trickle-{n}", "x")
            handler.flush_headers()
            time.sleep(0.3)

    def prompt(handler) -> None:
        handler.rfile.read(int(handler.headers["Content-Length"]))
        arrived["b"] = time.monotonic()
        handler.send_response(204)
        handler.end_headers()

    slow, slow_url = _receiver(trickle)
    fast, fast_url = _receiver(prompt)
    settings = WebhookSettings(secret="s", allow=("127.0.0.1",), tries=1, timeout=2.0)
    store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    a = _ended(store, tenant="a", url=f"{slow_url}/hook", data=b"%PDF a")
    b = _ended(store, tenant="b", url=f"{fast_url}/hook", data=b"%PDF b")
    deliverer = Deliverer(store=store, settings=settings, idle=0.05)
    start = time.monotonic()
    deliverer.start()
    try:
        assert trickling.wait(10)
        while store.get(a.id).callback_state == "pending" and time.monotonic() - start < 20:  # type: ignore[union-attr]
            time.sleep(0.05)
        ended = time.monotonic() - start
    finally:
        deliverer.stop()
        slow.shutdown()
        fast.shutdown()
    assert arrived["b"] - start < 1.5 and store.get(b.id).callback_state == "delivered"  # type: ignore[union-attr]
    first = store.get(a.id).deliveries[0]  # type: ignore[union-attr]
    assert first["error"] == "no answer within 2 s" and ended < 5.0, (first, ended)


def test_a_callback_of_a_tenant_without_a_secret_is_refused_at_submission():
    """Tenants' own secrets and no shared one: a tenant without its own cannot name a callback (its deliveries
    could never be signed), one with its own can; with a shared secret every tenant can."""
    from extractor.errors import UsageError
    from extractor.service.webhooks import WebhookSettings, check_callback

    url = "http://127.0.0.1:9/hook"
    own_only = WebhookSettings(tenant_secrets={"tenant-a": "secret-a"}, allow=("127.0.0.1",))
    assert check_callback(url, settings=own_only, tenant="tenant-a") == url
    with pytest.raises(UsageError, match="no webhook secret for this tenant"):
        check_callback(url, settings=own_only, tenant="tenant-b")
    shared = WebhookSettings(secret="shared", tenant_secrets={"tenant-a": "secret-a"}, allow=("127.0.0.1",))
    assert check_callback(url, settings=shared, tenant="tenant-b") == url
