"""What the service's tests share: the keys, the webhook secret and the app in-process (``app_client``: no model,
no worker, so its jobs stay queued) for the contract, error and client tests."""

from __future__ import annotations

import pytest

KEYS = {"alice": "alice-secret-key", "bob": "bob-secret-key"}
WEBHOOK_SECRET = "whsec-test-0123456789"


@pytest.fixture(scope="module", name="app_client")
def in_process_app(tmp_path_factory):
    """The app in-process (no model, no worker: jobs stay queued) over a fresh SQLite store, alice's key and a webhook
    secret: the contract and error tests need no server."""
    from fastapi.testclient import TestClient

    from extractor.service.app import create_app
    from extractor.service.config import ApiKeys, ServeSettings, open_store
    from extractor.service.webhooks import WebhookSettings
    from extractor.service.worker import Engine
    from extractor.settings import Settings

    settings = Settings(schema="invoice", max_bytes=100_000)
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('app') / 'jobs.sqlite'}")
    serve = ServeSettings(webhooks=WebhookSettings(secret=WEBHOOK_SECRET, allow=("127.0.0.1",)))
    keys = ApiKeys.load(text=f"alice:{KEYS['alice']}")
    app = create_app(store=store, worker=None, engine=Engine(settings), keys=keys, serve=serve, settings=settings)
    with TestClient(app, headers={"Authorization": f"Bearer {KEYS['alice']}"}) as client:
        client.store = store
        yield client
