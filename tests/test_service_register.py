"""The service's invoice registers, one per tenant (``service.registers``), at the worker's level (the store, the
``Engine`` a worker runs, the tenants' registers; no HTTP): on SQLite (a file per tenant beside the store) and on
PostgreSQL (a schema per tenant in the store's database, ``EXTRACTOR_TEST_POSTGRES``).

The invoice is an e-invoice read from its embedded XML (exact keys, zero tokens: a random tiny model suffices).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from helpers import einvoice_pdf, settings_for

from extractor.service.config import open_store
from extractor.service.registers import TenantRegisters, tenant_register_url, tenant_slug
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
    store = open_store(store_url)
    registers = TenantRegisters(store_url)
    engine = Engine(settings_for(random_model, max_tokens=4, embedded_rules=False), registers=registers)
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
    # the record names the tenant's register, never the server's path or database URL
    assert {alice["register"]["register"], bob["register"]["register"]} == {"tenant alice", "tenant bob"}

    listed = {tenant: registers.register(tenant).invoices() for tenant in TENANTS}
    assert [(i["source"], i["job"]) for i in listed["alice"]] == [
        ("invoice.pdf", alice["job"]),
        ("invoice copy.pdf", again["job"]),
    ]
    assert [(i["source"], i["job"]) for i in listed["bob"]] == [("invoice.pdf", bob["job"])]
    (supplier,) = registers.register("bob").suppliers()
    assert supplier["invoices"] == 1 and supplier["key"] == alice["register"]["supplier"]["key"]
    registers.close()

    url = tenant_register_url(store_url, "bob")
    if url.startswith("postgresql://"):  # a schema per tenant in the store's database; none of it in public
        import psycopg

        with psycopg.connect(store_url) as db:
            schemas = {r[0] for r in db.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'register_%'")}
            public = db.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'register_%'"
            ).fetchone()[0]
        assert schemas == {f"register_{tenant_slug('alice')}", f"register_{tenant_slug('bob')}"} and public == 0
    else:  # a file per tenant beside the store
        folder = Path(url).parent
        assert folder.name == "jobs-registers" and folder.parent == Path(store_url.removeprefix("sqlite:///")).parent
        assert sorted(p.name for p in folder.glob("*.sqlite")) == sorted(f"{tenant_slug(t)}.sqlite" for t in TENANTS)


@pytest.mark.parametrize(
    "tenant, slug",
    [
        ("alice", "alice_" + hashlib.sha256(b"alice").hexdigest()[:12]),
        ("Acme GmbH & Co. KG", "acme_gmbh_co_kg_" + hashlib.sha256(b"Acme GmbH & Co. KG").hexdigest()[:12]),
        ("../..", "tenant_" + hashlib.sha256(b"../..").hexdigest()[:12]),
        ("x" * 80, "x" * 24 + "_" + hashlib.sha256(b"x" * 80).hexdigest()[:12]),
    ],
)
def test_tenant_names_become_safe_distinct_names(tenant, slug):
    assert tenant_slug(tenant) == slug
    assert tenant_register_url("sqlite:///var/lib/jobs.sqlite", tenant) == f"var/lib/jobs-registers/{slug}.sqlite"
    assert tenant_register_url("postgresql://u:p@h/db", tenant) == (
        f"postgresql://u:p@h/db?options=-csearch_path%3Dregister_{slug}"
    )
