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


# ---------------------------------------------------------------------------------------------------- keys, scopes

ALL = frozenset({"submit", "read", "review", "admin"})


@pytest.mark.parametrize(
    "entry, parsed",
    [
        ("k1", ("", "k1", None)),
        ("acme:k1", ("acme", "k1", None)),
        (":k1", ("", "k1", None)),
        ("acme:k1 scopes=submit", ("acme", "k1", frozenset({"submit"}))),
        ("acme:k1 scopes=read+review", ("acme", "k1", frozenset({"read", "review"}))),
        ("k1 scopes=submit+read+review+admin", ("", "k1", ALL)),
    ],
)
def test_a_key_entry_names_its_tenant_and_scopes(entry, parsed):
    from extractor.service.config import key_entry

    assert key_entry(entry, where="here") == parsed


@pytest.mark.parametrize(
    "entry, reason",
    [
        ("acme:sk-live:9f3c", "more than one ':'"),  # not the key 9f3c of a tenant acme:sk-live
        ("acme:", "the key is empty"),
        ("acme:sk-live scopes=read+write", "unknown scope 'write'"),
        ("acme:sk-live scopes=", "unknown scope ''"),
        ("acme:sk-live read", "expected [TENANT:]KEY [scopes="),
        ("acme:sk-live 9f3c scopes=read", "expected [TENANT:]KEY [scopes="),
    ],
)
def test_a_key_entry_that_is_not_one_is_refused_without_saying_the_key(entry, reason):
    from extractor.errors import UsageError
    from extractor.service.config import key_entry

    with pytest.raises(UsageError) as refused:
        key_entry(entry, where="EXTRACT_API_KEYS entry 2")
    assert str(refused.value).startswith(f"EXTRACT_API_KEYS entry 2: {reason}"), refused.value
    assert "sk-live" not in str(refused.value) and "9f3c" not in str(refused.value)


def test_keys_from_the_environment_and_the_file_each_say_where(tmp_path):
    from extractor.errors import UsageError
    from extractor.service.config import ApiKeys, Grant

    file = tmp_path / "keys"
    file.write_text("# the integration: submits only\n\nacme:k-int scopes=submit\nglobex:k-g\n", encoding="utf-8")
    keys = ApiKeys.load(text="acme:k-admin, acme:k-read scopes=read", file=file)
    assert {key: keys.grant(key) for key in ("k-admin", "k-read", "k-int", "k-g", "nope")} == {
        "k-admin": Grant(tenant="acme", scopes=ALL),  # today's keys keep every scope
        "k-read": Grant(tenant="acme", scopes=frozenset({"read"})),
        "k-int": Grant(tenant="acme", scopes=frozenset({"submit"})),
        "k-g": Grant(tenant="globex", scopes=ALL),
        "nope": None,
    }
    file.write_text("acme:k-int\n# a comment\nacme:k:x\n", encoding="utf-8")
    with pytest.raises(UsageError, match=f"^--api-keys-file {file} line 3: more than one ':'"):
        ApiKeys.load(text=None, file=file)


def test_a_key_holding_the_separator_is_refused_at_start(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from extractor.cli.commands import app

    monkeypatch.setenv("EXTRACT_API_KEYS", "acme:k1,acme:sk-live:9f3c")
    result = CliRunner().invoke(app, ["serve", "--store", f"sqlite:///{tmp_path / 'jobs.sqlite'}"])
    assert result.exit_code == 2, result.output
    assert "EXTRACT_API_KEYS entry 2: more than one ':'" in " ".join(result.output.split())
    assert "sk-live" not in result.output and "9f3c" not in result.output


def operations(document: dict):
    """``(path, method, operation)`` of every operation in an OpenAPI document."""
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_a_key_without_a_routes_scope_gets_403_on_every_route(tmp_path):
    """Walks the OpenAPI document: every ``/v1`` operation names one scope, and a key holding every scope but that
    one gets 403 ``scope_missing`` (nothing done), while a key holding only that one passes the check."""
    from fastapi.testclient import TestClient

    from extractor.service.app import create_app
    from extractor.service.config import SCOPES, ApiKeys, ServeSettings, open_store
    from extractor.service.worker import Engine
    from extractor.settings import Settings

    assert set(SCOPES) == ALL
    entries = [f"acme:all-{s} scopes={'+'.join(o for o in SCOPES if o != s)}" for s in SCOPES]
    entries += [f"acme:only-{s} scopes={s}" for s in SCOPES]
    settings = Settings(schema="invoice", max_bytes=100_000)
    store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    app = create_app(
        store=store,
        worker=None,
        engine=Engine(settings),
        keys=ApiKeys.load(text=",".join(entries)),
        serve=ServeSettings(sync_timeout=0.1),  # no worker: POST /v1/extract answers 202 at once
        settings=settings,
    )
    with TestClient(app) as client:
        document = client.get("/openapi.json").json()
        job = upload(client, headers={"Authorization": "Bearer only-submit"}).json()["id"]
        walked = {}
        for path, method, operation in operations(document):
            needed = [scope for need in operation.get("security", ()) for scope in need.get("HTTPBearer", ())]
            if not path.startswith("/v1/"):
                assert needed == [], path  # /healthz, /metrics: no key
                continue
            assert len(needed) == 1 and needed[0] in SCOPES, (path, method, needed)
            (scope,) = needed
            assert "403" in operation["responses"], (path, method)
            url = path.replace("{job_id}", job).replace("{fmt}", "cii")
            body = {"files": {"file": ("x.pdf", SAMPLE.read_bytes() + path.encode(), "application/pdf")}}
            kwargs = body if operation.get("requestBody") else {}
            refused = client.request(method, url, headers={"Authorization": f"Bearer all-{scope}"}, **kwargs)
            assert (refused.status_code, problem_code(refused)) == (403, "scope_missing"), (path, method)
            assert repr(scope) in refused.json()["detail"]
            allowed = client.request(method, url, headers={"Authorization": f"Bearer only-{scope}"}, **kwargs)
            assert allowed.status_code not in (401, 403), (path, method, allowed.text)
            walked[f"{method.upper()} {path}"] = scope
        assert len(store.jobs(tenant="acme", limit=50)) == 3  # the allowed uploads' jobs: the refused stored none
    assert walked == {
        "POST /v1/jobs": "submit",
        "GET /v1/jobs": "read",
        "GET /v1/jobs/{job_id}": "read",
        "DELETE /v1/jobs/{job_id}": "submit",
        "POST /v1/jobs/{job_id}/callback/retry": "submit",
        "POST /v1/jobs/{job_id}/review": "review",
        "POST /v1/extract": "submit",
        "GET /v1/jobs/{job_id}/einvoice/{fmt}": "read",
    }
