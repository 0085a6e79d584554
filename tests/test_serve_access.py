"""Who gets into ``extract serve``, in-process (no model, no worker: jobs stay queued): without keys, no other site's
page (the Host check against DNS rebinding, the cross-site rule for changes; issue 50); with keys, API clients from
anywhere."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT
from servekit import KEYS, in_process_app  # noqa: F401 - the keyed app

SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
EVIL = "http://evil.example"
REBIND = "rebind.attacker.example:8000"
OWN = "http://127.0.0.1:8000"


@pytest.fixture(name="keyless")
def keyless_app(tmp_path):
    """The app of ``extract serve`` without keys, bound to 127.0.0.1:8000, called as a client on this machine."""
    from fastapi.testclient import TestClient

    from extractor.service.app import create_app
    from extractor.service.config import ApiKeys, ServeSettings, open_store
    from extractor.service.worker import Engine
    from extractor.settings import Settings

    settings = Settings(schema="invoice", max_bytes=100_000)
    store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    app = create_app(
        store=store, worker=None, engine=Engine(settings), keys=ApiKeys(), serve=ServeSettings(), settings=settings
    )
    with TestClient(app, base_url=OWN) as client:
        client.store = store
        yield client


def upload(client, *, headers: dict, data: bytes | None = None):
    """A multipart upload of the sample, as a form on a web page sends one."""
    files = {"file": ("x.pdf", data or SAMPLE.read_bytes(), "application/pdf")}
    return client.post("/v1/jobs", files=files, headers=headers)


def problem_code(response) -> str:
    assert response.headers["content-type"] == "application/problem+json", response.text
    return response.json()["code"]


def test_without_keys_another_sites_page_changes_nothing_and_a_rebinding_host_reads_nothing(keyless):
    client = keyless
    attacks = {
        "cross-site upload": upload(client, headers={"Origin": EVIL, "Sec-Fetch-Site": "cross-site"}),
        "upload, Origin only": upload(client, headers={"Origin": EVIL}),
        "upload, Origin null": upload(client, headers={"Origin": "null"}),
        "upload, Sec-Fetch-Site only": upload(client, headers={"Sec-Fetch-Site": "same-site"}),
        "URL as text/plain": client.post(
            "/v1/jobs",
            content=json.dumps({"url": "https://example.com/a.pdf"}),
            headers={"Content-Type": "text/plain", "Origin": EVIL},
        ),
        "extract": client.post("/v1/extract", files={"file": ("x.pdf", SAMPLE.read_bytes())}, headers={"Origin": EVIL}),
        "rebinding upload": upload(client, headers={"Host": REBIND, "Origin": f"http://{REBIND}"}),
    }
    for name, response in attacks.items():
        expected = "host_refused" if "rebinding" in name else "cross_site"
        assert (response.status_code, problem_code(response)) == (403, expected), name
    assert client.store.jobs(tenant="local", limit=10) == []  # nothing stored
    # what this machine's own clients send: no Origin (curl, a library), or the server's own (its /docs page)
    mine = upload(client, headers={})
    assert mine.status_code == 202, mine.text
    job = mine.json()["id"]
    assert upload(client, headers={"Origin": OWN}, data=SAMPLE.read_bytes() + b"%2").status_code == 202
    assert upload(client, headers={"Host": "localhost:8000", "Origin": "http://localhost:8000"}).status_code == 202
    for path in ("/v1/jobs", f"/v1/jobs/{job}", "/healthz", "/metrics", "/openapi.json", "/docs"):
        refused = client.get(path, headers={"Host": REBIND})
        assert (refused.status_code, problem_code(refused)) == (403, "host_refused"), path
        assert job not in refused.text
        assert client.get(path).status_code == 200, path
    for method in ("DELETE",):
        refused = client.request(method, f"/v1/jobs/{job}", headers={"Origin": EVIL})
        assert (refused.status_code, problem_code(refused)) == (403, "cross_site")
    assert client.get(f"/v1/jobs/{job}").json()["status"] == "queued"  # not cancelled


def test_with_keys_api_clients_are_not_browsers(app_client):
    """A key travels in the Authorization header, which no browser adds to another site's request: a keyed
    server answers its clients whatever their Host or Origin."""
    response = upload(app_client, headers={"Host": REBIND, "Origin": EVIL}, data=SAMPLE.read_bytes() + b"%keyed")
    assert response.status_code == 202, response.text
    assert app_client.get("/v1/jobs", headers={"Host": REBIND}).status_code == 200
