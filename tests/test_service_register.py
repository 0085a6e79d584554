"""The service's invoice register, one per tenant in the job store (``extract serve --register`` / ``extract worker
--register``), at the worker's level: the real store (submit, claim, finish) and the ``Engine`` a worker runs, no
HTTP; on SQLite and on PostgreSQL (``EXTRACTOR_TEST_POSTGRES``), each the same database as the jobs.

The invoice is an e-invoice read from its embedded XML (exact keys, zero tokens: a random tiny model suffices).
"""

from __future__ import annotations

import hashlib
import json
import os
import time

import pytest
from helpers import einvoice_pdf, settings_for

from extractor.register import Register
from extractor.service.config import open_store
from extractor.service.store import Store
from extractor.service.stored_job import ENDED, StoredJob
from extractor.service.worker import Engine, Worker

TENANTS = ("alice", "bob")


@pytest.fixture(scope="module")
def invoice(tmp_path_factory) -> bytes:
    return einvoice_pdf(tmp_path_factory.mktemp("einvoice") / "invoice.pdf").read_bytes()


@pytest.fixture(scope="module")
def random_model(model_factory):
    return model_factory.random()


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'jobs.sqlite'}"
    from test_store import fresh_database, postgres_admin_url

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return fresh_database(postgres_admin_url(), f"extractor_tenants_{worker}")


def _run(store: Store, engine: Engine, *, tenant: str, name: str, data: bytes) -> dict:
    """Submit an upload as ``tenant``, claim it, run it as a worker does, end it; its one record."""
    job, _ = store.submit(
        tenant=tenant,
        filename=name,
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        fingerprint=engine.fingerprint({}),
        options={},
    )
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == job.id
    (record,) = engine.run(claimed, data)
    assert store.finish(claimed, records=[record])
    return {**record, "job": job.id}


def _warnings(record: dict) -> list[str]:
    return [f["code"] for f in record["register"]["findings"] if f["severity"] == "warning"]


def test_each_tenant_has_a_register_of_its_own(store_url, invoice, random_model):
    store = open_store(store_url)  # the jobs' tables first: the register goes beside them
    engine = Engine(settings_for(random_model, max_tokens=4, embedded_rules=False, register=store_url))
    engine.load()
    try:
        alice = _run(store, engine, tenant="alice", name="invoice.pdf", data=invoice)
        bob = _run(store, engine, tenant="bob", name="invoice.pdf", data=invoice)
        # the same bytes again, for alice under another name: her register knows it (the check can fail)
        again = _run(store, engine, tenant="alice", name="invoice copy.pdf", data=invoice)
        # a job claimed again (its lease passed) is the same document: answered as registered, not a duplicate
        (rerun,) = engine.run(store.get(bob["job"]), invoice)
    finally:
        engine.close()

    assert alice["data_source"] == "embedded_xml" and alice["register"]["verified"] is True
    assert (_warnings(alice), _warnings(bob), _warnings(again)) == ([], [], ["duplicate_file"])
    assert (alice["status"], bob["status"], again["status"]) == ("ok", "ok", "review")
    assert rerun["register"] == bob["register"] and rerun["status"] == "ok"
    (finding,) = [f for f in again["register"]["findings"] if f["code"] == "duplicate_file"]
    assert finding["original"] == {
        "source": "invoice.pdf",
        "seen_at": finding["original"]["seen_at"],
        "job": alice["job"],
        "sha256": alice["sha256"],
    }

    with Register.open(store_url, tenant="alice", alongside=True) as theirs:
        listed = {tenant: theirs.for_tenant(tenant).invoices() for tenant in TENANTS}
        suppliers = {tenant: theirs.for_tenant(tenant).suppliers() for tenant in TENANTS}
    assert [(i["source"], i["job"]) for i in listed["alice"]] == [
        ("invoice.pdf", alice["job"]),
        ("invoice copy.pdf", again["job"]),
    ]
    assert [(i["source"], i["job"]) for i in listed["bob"]] == [("invoice.pdf", bob["job"])]
    assert [(s["key"], s["invoices"]) for s in suppliers["bob"]] == [(bob["register"]["supplier"]["key"], 1)]
    assert [(s["key"], s["invoices"]) for s in suppliers["alice"]] == [(alice["register"]["supplier"]["key"], 2)]


def _submit(store: Store, engine: Engine, *, tenant: str, data: bytes) -> StoredJob:
    """Submit an upload as the service does (``--reuse``, and a register when the engine keeps one)."""
    job, _ = store.submit(
        tenant=tenant,
        filename="invoice.pdf",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        fingerprint=engine.fingerprint({}),
        options={},
        reuse=True,
        register=engine.register is not None,
    )
    return job


def _ended(store: Store, job: StoredJob) -> StoredJob:
    """The job once a worker ended it."""
    deadline = time.monotonic() + 120
    while (found := store.get(job.id)) is not None and found.status not in ENDED:
        assert time.monotonic() < deadline, found
        time.sleep(0.05)
    assert found is not None
    return found


def _worker(store: Store, engine: Engine) -> Worker:
    return Worker(store=store, engine=engine, retention=3600, idle=0.1)


def test_a_repeat_is_registered_under_its_own_id_done_or_joined(store_url, invoice, random_model):
    """With a register, a repeat (answered from a done job, or joining one still queued) ends through a worker with
    the earlier job's records registered under its own id: a ``duplicate_file`` of the first job, ``review``."""
    store = open_store(store_url)
    engine = Engine(settings_for(random_model, max_tokens=4, embedded_rules=False, register=store_url))
    worker = _worker(store, engine)
    bob_first = _submit(store, engine, tenant="bob", data=invoice)
    bob_joined = _submit(store, engine, tenant="bob", data=invoice)  # bob's first is queued: this one joins it
    assert (bob_joined.status, bob_joined.answered_from) == ("queued", bob_first.id)
    worker.start()
    try:
        alice_first = _ended(store, _submit(store, engine, tenant="alice", data=invoice))
        alice_repeat = _submit(store, engine, tenant="alice", data=invoice)
        # not done at once: queued, holding the first job's records for a worker to register (no upload kept)
        assert (alice_repeat.status, alice_repeat.answered_from) == ("queued", alice_first.id)
        assert store.upload(alice_repeat.id) is None
        alice_repeat, bob_first, bob_joined = (_ended(store, j) for j in (alice_repeat, bob_first, bob_joined))
        # a repeat claimed again (its worker killed before it ended) is registered again as itself: the same answer
        (again,) = [engine.registered(alice_repeat, record) for record in alice_first.records or []]
    finally:
        worker.stop()

    assert store.get(alice_first.id) == alice_first  # the first job's record unchanged
    for first, repeat in ((alice_first, alice_repeat), (bob_first, bob_joined)):
        assert (first.status, repeat.status, repeat.answered_from) == ("done", "done", first.id)
        (original,), (record,) = first.records or [], repeat.records or []
        assert (_warnings(original), original["status"]) == ([], "ok")
        assert (_warnings(record), record["status"]) == (["duplicate_file"], "review")
        (finding,) = [f for f in record["register"]["findings"] if f["code"] == "duplicate_file"]
        assert finding["original"]["job"] == first.id
        assert [w["code"] for w in record["warnings"]] == ["duplicate_file"]  # the first's check not carried over
        assert {k: v for k, v in record.items() if k not in ("register", "warnings", "status")} == {
            k: v for k, v in original.items() if k not in ("register", "warnings", "status")
        }
    assert again["register"] == alice_repeat.records[0]["register"] and again["status"] == "review"
    with Register.open(store_url, tenant="alice", alongside=True) as theirs:
        listed = {tenant: theirs.for_tenant(tenant).invoices() for tenant in TENANTS}
    assert [i["job"] for i in listed["alice"]] == [alice_first.id, alice_repeat.id]
    assert [i["job"] for i in listed["bob"]] == [bob_first.id, bob_joined.id]


def test_without_a_register_a_repeat_is_answered_as_before(store_url, invoice, random_model):
    """``--no-register``: a repeat of a done job is done at once, and a joining one ends with the job it joined,
    each with the earlier job's records as they are."""
    store = open_store(store_url)
    engine = Engine(settings_for(random_model, max_tokens=4, embedded_rules=False))
    assert engine.register is None
    worker = _worker(store, engine)
    first = _submit(store, engine, tenant="alice", data=invoice)
    joined = _submit(store, engine, tenant="alice", data=invoice)
    worker.start()
    try:
        first, joined = _ended(store, first), _ended(store, joined)
        repeat = _submit(store, engine, tenant="alice", data=invoice)
    finally:
        worker.stop()
    # answered from the latest done job of those bytes: the one that joined
    assert (repeat.status, repeat.answered_from, repeat.records) == ("done", joined.id, first.records)
    assert (joined.status, joined.answered_from, joined.records) == ("done", first.id, first.records)
    assert joined.runs == 0 and "register" not in (first.records or [{}])[0]


def test_a_service_review_teaches_its_tenant_only(store_url, random_model, tmp_path):
    """Alice's approved review of a job (``POST /v1/jobs/{id}/review``) teaches her layout: her next document of
    that supplier is read by it with no model; Bob's same document is not (tenants never share layouts); a review
    without approval teaches nothing, another file or another tenant's job is refused."""
    from fastapi.testclient import TestClient
    from servekit import KEYS
    from test_learning import FIRST, SECOND, VAT, printed

    from extractor.service.app import create_app
    from extractor.service.config import ApiKeys, ServeSettings

    first = printed(tmp_path / "first.pdf", FIRST).read_bytes()
    second = printed(tmp_path / "second.pdf", SECOND).read_bytes()
    store = open_store(store_url)
    settings = settings_for(random_model, max_tokens=4, register=store_url)
    engine = Engine(settings)
    engine.load()
    keys = ApiKeys.load(text=",".join(f"{name}:{key}" for name, key in KEYS.items()))
    app = create_app(store=store, worker=None, engine=engine, keys=keys, serve=ServeSettings(), settings=settings)

    def review(client, job_id: str, data: bytes, *, approved: bool):
        files = {"file": ("first.pdf", data, "application/pdf")}
        form = {"data": json.dumps(FIRST), "approved": "true" if approved else "false"}
        return client.post(f"/v1/jobs/{job_id}/review", files=files, data=form)

    try:
        job = _run(store, engine, tenant="alice", name="first.pdf", data=first)
        assert job["status"] == "truncated"  # the tiny model read nothing: a person types the data
        with (
            TestClient(app, headers={"Authorization": f"Bearer {KEYS['alice']}"}) as alice_client,
            TestClient(app, headers={"Authorization": f"Bearer {KEYS['bob']}"}) as bob_client,
        ):
            assert review(bob_client, job["job"], first, approved=True).json()["code"] == "job_not_found"
            assert review(alice_client, job["job"], second, approved=True).json()["code"] == "review_refused"
            refused = review(alice_client, job["job"], first, approved=False).json()
            assert refused["refused"] == "not approved: an unreviewed record never teaches"
            response = review(alice_client, job["job"], first, approved=True)
        assert response.status_code == 200, response.text
        taught = response.json()
        assert taught["refused"] is None and taught["supplier"] == f"vat:{VAT}" and taught["document"] == job["job"]
        alice = _run(store, engine, tenant="alice", name="second.pdf", data=second)
        bob = _run(store, engine, tenant="bob", name="second.pdf", data=second)
    finally:
        engine.close()
    assert alice["data_source"] == "layout" and alice["data"] == SECOND and alice["usage"]["generated_tokens"] == 0
    assert alice["layout"]["id"] == taught["layout"]
    learned_from = alice["layout"]["learned_from"]
    assert (learned_from["source"], learned_from["by"], learned_from["document"]) == (
        "service_review",
        "alice",
        job["job"],
    )
    assert bob["status"] == "truncated" and "layout" not in bob
