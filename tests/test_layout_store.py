"""The learned layouts' store (``extractor.layouts.store``): per tenant in the register's database (SQLite and
PostgreSQL), found by the identities printed on a document, replaced whole, forgotten, demoted; a store from a
newer release or a corrupt layout refused (exit 2).

PostgreSQL from ``EXTRACTOR_TEST_POSTGRES`` (each test in a database of its own; skipped without it, failing under
``CI=true``), as ``tests/test_store.py`` does.
"""

from __future__ import annotations

import dataclasses
import os

import pytest
from test_store import fresh_database, postgres_admin_url

from extractor.errors import UsageError
from extractor.layouts import FieldRule, Format, Layout, Place, Teacher
from extractor.layouts.store import LayoutStore, LayoutStoreError
from extractor.register import Register
from extractor.register.db import RegisterError


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "register.sqlite")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return fresh_database(postgres_admin_url(), f"extractor_layouts_{worker}")


def layout(id="L1", *, vat="vat:DE123456789", name="Lieferant GmbH", schema="invoice", source="review") -> Layout:
    place = Place(before=("rechnungsnr",), after=(), above=(), page=(0, -1), box=(0.1, 0.1, 0.2, 0.12))
    return Layout(
        id=id,
        supplier_key=vat,
        supplier_name=name,
        identity=(vat, f"name:{name.casefold()}"),
        schema=schema,
        fields=(FieldRule(pointer="/invoice_number", places=(place,), format=Format(kind="text")),),
        tables=(),
        fingerprint=frozenset({"rechnung", "summe"}),
        teacher=Teacher(source=source, document="a.pdf", sha256="a" * 64, by="ana", at="2026-12-07T10:00:00Z"),
    )


def test_saved_layouts_are_found_by_a_printed_identity_only_of_their_schema_and_tenant(url):
    register = Register.open(url)
    store = LayoutStore.of(register)
    store.save(layout("L1"))
    store.save(layout("L2", vat="vat:FR44732829320", name="Fournisseur SA"))
    store.save(layout("L3", schema="invoice-en16931"))
    other = LayoutStore.of(register.for_tenant("acme"))
    assert [x.id for x in store.candidates(("vat:DE123456789", "iban:DE89370400440532013000"), schema="invoice")] == [
        "L1"
    ]
    assert store.candidates(("name:lieferant gmbh",), schema="invoice") == []  # a name alone is no key
    assert store.candidates((), schema="invoice") == []
    assert other.candidates(("vat:DE123456789",), schema="invoice") == []  # tenants never share layouts
    assert other.list() == [] and other.get("L1") is None and other.forget("L1") is False
    assert [s.to_dict() for s in store.list(supplier="fournisseur")] == [
        {
            "id": "L2",
            "supplier_key": "vat:FR44732829320",
            "supplier_name": "Fournisseur SA",
            "schema": "invoice",
            "source": "review",
            "learned_at": "2026-12-07T10:00:00Z",
        }
    ]
    assert store.get("L1") == layout("L1")  # whole, through its JSON
    register.close()


def test_a_layout_saved_again_is_replaced_whole_and_forget_removes_it(url):
    register = Register.open(url)
    store = LayoutStore.of(register)
    store.save(layout("L1"))
    later = dataclasses.replace(layout("L1", vat="vat:DE811907980"), supplier_name="Lieferant AG")
    store.save(later)
    assert store.candidates(("vat:DE123456789",), schema="invoice") == []  # the old key went with the old layout
    assert store.candidates(("vat:DE811907980",), schema="invoice") == [later]
    assert store.forget("L1") is True and store.forget("L1") is False
    assert store.list() == [] and store.candidates(("vat:DE811907980",), schema="invoice") == []
    register.close()


def test_a_store_from_a_newer_release_or_a_corrupt_layout_is_refused_with_exit_2(tmp_path):
    path = tmp_path / "register.sqlite"
    register = Register.open(path)
    store = LayoutStore.of(register)
    store.save(layout("L1"))
    with register.db.transaction() as tx:
        register.db.execute(tx, "UPDATE layouts SET body = ? WHERE id = 'L1'", ('{"format": 1, "id": "L1"}',))
    with pytest.raises(LayoutStoreError, match=r"layout L1 cannot be read \(corrupt\?\)"):
        store.get("L1")
    with register.db.transaction() as tx:
        register.db.execute(tx, "UPDATE layouts SET body = ? WHERE id = 'L1'", ("not json",))
    with pytest.raises(LayoutStoreError, match="L1 cannot be read"):
        store.candidates(("vat:DE123456789",), schema="invoice")
    assert isinstance(LayoutStoreError("x"), UsageError)  # exit 2, as for the register
    with register.db.transaction() as tx:  # the layouts are the register's migration 3: its version guards them
        register.db.execute(tx, "UPDATE register_meta SET value = '99' WHERE name = 'schema_version'")
    register.close()
    with pytest.raises(RegisterError, match="newer release"):
        Register.open(path)
