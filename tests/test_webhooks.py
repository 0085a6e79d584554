"""Webhook delivery without a network: the resolver and the socket are this test's, the delivery code is real."""

from __future__ import annotations


def test_a_delivery_connects_to_the_address_it_checked(monkeypatch):
    """The host is resolved and checked before each delivery, and the connection goes to that checked address (a
    name that resolves inward a moment later is not followed: DNS rebinding); a private answer is refused."""
    from extractor.service import webhooks
    from extractor.service.store import Job

    answers = iter([[(2, 1, 6, "", ("1.1.1.1", 80))], [(2, 1, 6, "", ("10.0.0.7", 80))]])
    monkeypatch.setattr(webhooks.socket, "getaddrinfo", lambda *args, **kwargs: next(answers))
    dialled = []

    def create_connection(address, timeout=None):
        dialled.append(address)
        raise OSError("no network in the test")

    monkeypatch.setattr(webhooks.socket, "create_connection", create_connection)
    settings = webhooks.WebhookSettings(secret="s", tries=1)
    job = Job(seq=1, id="j", tenant="t", status="done", created=0.0, callback_url="http://hooks.example/x?t=1")
    first = webhooks.deliver(job, settings=settings)
    assert dialled == [("1.1.1.1", 80)] and not first["ok"] and "no network" in first["error"]
    second = webhooks.deliver(job, settings=settings)  # the name now points inward: refused, nothing dialled
    assert dialled == [("1.1.1.1", 80)] and "10.0.0.7" in second["error"]
