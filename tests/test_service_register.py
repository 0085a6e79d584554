"""The service's invoice register, one per tenant in the job store (``extract serve --register`` / ``extract worker
--register``), at the worker's level: the real store (submit, claim, finish) and the ``Engine`` a worker runs, no
HTTP; on SQLite and on PostgreSQL (``EXTRACTOR_TEST_POSTGRES``), each the same database as the jobs.

The invoice is an e-invoice read from its embedded XML (exact keys, zero tokens: a random tiny model suffices).
"""

from __future__ import annotations

import hashlib
import os

import pytest
from helpers import einvoice_pdf, settings_for

from extractor.register import Register
from extractor.service.config import open_store
from extractor.service.store import Store
from extractor.service.worker import Engine

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
