"""The invoice register's promises (``extractor.register``): keys normalised, only claims count, every check fires
exactly where it should, the original of an invoice decided once under concurrency (two processes, SQLite and
PostgreSQL), a repeat registration answered as the first, trusted accounts only from ok records, imports and people,
bad registers and bad import files refused with every reason named.

PostgreSQL from ``EXTRACTOR_TEST_POSTGRES`` (each test in a database of its own; skipped without it, failing under
``CI=true``), as ``tests/test_store.py`` does.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import subprocess
from dataclasses import replace

import pytest
from test_store import fresh_database, postgres_admin_url

from extractor.errors import UsageError
from extractor.record import Record, issue
from extractor.register import CheckSettings, Register, RegisterError
from extractor.register import db as register_db
from extractor.register.checks import Account, Earlier, Known, decide
from extractor.register.claims import claims
from extractor.register.keys import (
    amount_key,
    document_type,
    id_key,
    name_key,
    number_key,
    read_keys,
    supplier_key,
)
from extractor.register.masterdata import MasterDataError, read_master_data
from extractor.register.result import unregistered

IBAN = "DE89370400440532013000"
OTHER_IBAN = "GB82WEST12345698765432"
VAT = "DE136695976"


# ----------------------------------------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    ("printed", "key"),
    [
        ("RE-2026-0117", "RE2026117"),
        ("re 2026 117", "RE2026117"),
        ("RE/2026/0117", "RE2026117"),
        ("003411", "3411"),
        ("3411", "3411"),
        ("A3411", "A3411"),
        ("A-0003411", "A3411"),
        ("0000", "0"),
        ("INV.00042b", "INV42B"),
        ("Ｒｅ－１２", "RE12"),  # full-width forms fold (NFKC)
        ("--", None),
        (None, None),
    ],
)
def test_number_key(printed, key):
    assert number_key(printed) == key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Nordlicht Bürotechnik GmbH", "nordlicht burotechnik gmbh"),
        ("NORDLICHT  BÜROTECHNIK, GmbH.", "nordlicht burotechnik gmbh"),
        ("Au bon moulin", "au bon moulin"),
        ("Nordlicht AG", "nordlicht ag"),  # legal forms kept: another company
        ("  ", None),
    ],
)
def test_name_key(name, key):
    assert name_key(name) == key


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ("DE 136 695 976", VAT),
        ("de136695976", VAT),
        ("DE89 3704 0044 0532 0130 00", IBAN),
        ("22/815/0815/4", "2281508154"),
    ],
)
def test_id_key(value, key):
    assert id_key(value) == key


@pytest.mark.parametrize(
    ("vat", "tax", "name", "iban", "key"),
    [
        (VAT, "2281508154", "bei spiel gmbh", IBAN, f"vat:{VAT}"),
        (None, "2281508154", "bei spiel gmbh", IBAN, "tax:2281508154"),
        (None, None, "bei spiel gmbh", IBAN, f"name:bei spiel gmbh|{IBAN}"),
        (None, None, "bei spiel gmbh", None, "name:bei spiel gmbh|"),
        (None, None, None, IBAN, None),  # an IBAN alone never names a supplier
    ],
)
def test_supplier_key(vat, tax, name, iban, key):
    assert supplier_key(vat_id=vat, tax_number=tax, name=name, iban=iban) == key


@pytest.mark.parametrize(
    ("data", "type_code", "kind"),
    [
        ({"total": 10}, None, "invoice"),
        ({"total": -10}, None, "credit_note"),  # under invoice: a negative total
        ({"total": -10}, "380", "invoice"),  # the XML's own type code decides
        ({"total": 10}, "381", "credit_note"),
        ({"total": 10}, "396", "credit_note"),
        ({"total": 10}, "751", "invoice"),
        ({"total": 10, "document_type": "credit_note"}, None, "credit_note"),
        ({"total": -10, "document_type": "corrected_invoice"}, None, "invoice"),
    ],
)
def test_document_type(data, type_code, kind):
    assert document_type(data, type_code=type_code) == kind


@pytest.mark.parametrize(("value", "key"), [(2377.78, "2377.78"), ("2377.780", "2377.78"), (100, "100"), (0.0, "0")])
def test_amount_key(value, key):
    assert amount_key(value) == key


# ------------------------------------------------------------------------------------------------------ claims


def _data(number="RE-1", *, vat=VAT, name="Bei Spiel GmbH", iban=IBAN, total=100.0, day="2026-01-10", **more):
    return {
        "invoice_number": number,
        "issue_date": day,
        "currency": "EUR",
        "seller": {"name": name, "vat_id": vat, "tax_id": None},
        "total": total,
        "bank_account": {"iban": iban, "bic": None, "account_holder": None},
        **more,
    }


@pytest.mark.parametrize(
    ("source", "grounded", "shown", "verified"),
    [
        ("embedded_xml", {}, {"vat_id": True, "number": True, "iban": True, "total": True}, True),
        ("model", {}, {"vat_id": False, "number": False, "iban": False, "total": False}, False),
        (
            "model",
            {"/seller/vat_id": True, "/invoice_number": True, "/bank_account/iban": False, "/total": None},
            {"vat_id": True, "number": True, "iban": False, "total": False},
            True,
        ),
        ("model", {"/seller/vat_id": True}, {"vat_id": True, "number": False, "iban": False, "total": False}, False),
    ],
)
def test_claims(source, grounded, shown, verified):
    said = claims(read_keys(_data()), data_source=source, grounding={"fields": grounded})
    assert (said.shown(), said.verified) == (shown, verified)


def test_a_supplier_named_only_by_name_claims_by_its_name():
    keys = read_keys(_data(vat=None))
    said = claims(keys, data_source="model", grounding={"fields": {"/seller/name": True, "/invoice_number": True}})
    assert (keys.supplier, said.identifier, said.verified) == (f"name:bei spiel gmbh|{IBAN}", "name", True)


# ------------------------------------------------------------------------------------------- the pure decision

TRUSTED = (Account(IBAN, "ok_record"),)
FIRST = Earlier(source="a.pdf", place="/in/a.pdf", kind="record", seen_at="2026-01-10T10:00:00Z", sha256="aa" * 32)


@pytest.mark.parametrize(
    ("known", "settings", "codes"),
    [
        (Known(supplier_known=True, trusted=(Account(IBAN, "master_data"),)), CheckSettings(), []),
        (Known(supplier_known=True, same_file=FIRST), CheckSettings(), ["duplicate_file", "bank_account_not_trusted"]),
        (
            Known(supplier_known=True, same_number=FIRST, trusted=(Account(IBAN, "ok_record"),)),
            CheckSettings(),
            ["duplicate_invoice"],
        ),
        (
            Known(supplier_known=True, candidate=FIRST, trusted=(Account(IBAN, "review"),)),
            CheckSettings(),
            ["possible_duplicate"],
        ),
        (
            Known(supplier_known=True, trusted=(Account(OTHER_IBAN, "master_data", by="anna"),)),
            CheckSettings(),
            ["bank_details_changed"],
        ),
        (
            Known(supplier_known=True, trusted=(Account(IBAN, "ok_record"),), holders=("Other GmbH",)),
            CheckSettings(),
            ["bank_account_of_other_supplier"],
        ),
        (
            Known(supplier_known=True, trusted=(Account(IBAN, "ok_record"),), other_vat_ids=("DE999999999",)),
            CheckSettings(),
            ["supplier_vat_id_changed"],
        ),
        (Known(), CheckSettings(), ["bank_account_not_trusted", "new_supplier"]),
        (Known(), CheckSettings(require_known_supplier=True), ["new_supplier", "bank_account_not_trusted"]),
    ],
)
def test_decide(known, settings, codes):
    keys = read_keys(_data())
    said = claims(keys, data_source="embedded_xml", grounding=None)
    assert [f.code for f in decide(keys, said, known, settings=settings)] == codes


def test_decide_a_changed_account_shows_the_trusted_ones_masked():
    keys = read_keys(_data())
    said = claims(keys, data_source="embedded_xml", grounding=None)
    known = Known(supplier_known=True, trusted=(Account(OTHER_IBAN, "master_data", by="anna", at="2026-01-01"),))
    (finding,) = decide(keys, said, known, settings=CheckSettings())
    assert finding.to_dict() == {
        "code": "bank_details_changed",
        "message": "pays to ****3000, which is not one of Bei Spiel GmbH's trusted accounts: ****5432 (master_data "
        "by anna). Confirm it with the supplier by a known channel before paying",
        "severity": "warning",
        "original": None,
        "trusted": [{"iban": "****5432", "source": "master_data", "by": "anna", "at": "2026-01-01"}],
    }


def test_decide_unverified_and_unknown_are_notes():
    keys = read_keys(_data(vat=None, name=None))
    said = claims(keys, data_source="model", grounding=None)
    found = decide(keys, said, Known(), settings=CheckSettings())
    assert [(f.code, f.severity) for f in found] == [("unknown_supplier", "note"), ("unverified", "note")]


# ------------------------------------------------------------------------------------------------- the store


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "register.sqlite")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return fresh_database(postgres_admin_url(), f"extractor_register_{worker}")


def record(
    number="RE-1",
    *,
    sha="1",
    source="a.pdf",
    status="ok",
    exact=True,
    grounded=None,
    fingerprint="fp",
    type_code=None,
    **data,
) -> Record:
    extra = {"data_source": "embedded_xml" if exact else "model", "grounding": {"fields": grounded or {}}}
    extra["fingerprint"] = fingerprint
    if type_code:
        extra["embedded"] = {"type_code": type_code}
    return Record(source=source, status=status, sha256=sha * 64, data=_data(number, **data), extra=extra)


def codes(register: Register, rec: Record, *, warnings=True, place=None) -> list[str]:
    result = register.check_and_add(rec, place=place or rec.source)
    assert result is not None
    return [f["code"] for f in result.findings if not warnings or f["severity"] == "warning"]


def test_register_duplicates(url):
    with Register.open(url) as register:
        assert codes(register, record("RE-1", sha="1", source="a.pdf")) == []
        assert codes(register, record("RE-1", sha="1", source="copy of a.pdf")) == ["duplicate_file"]
        assert codes(register, record("re 1", sha="2", source="a-resaved.pdf")) == ["duplicate_invoice"]
        # a credit note of the same number never duplicates the invoice
        assert codes(register, record("RE-1", sha="3", source="credit.pdf", type_code="381")) == []
        # the same supplier, total and currency within 7 days: possible; 8 days later: not
        assert codes(register, record("RE-2", sha="4", source="b.pdf", day="2026-01-15")) == ["possible_duplicate"]
        assert codes(register, record("RE-3", sha="5", source="c.pdf", day="2026-01-25")) == []
        # a re-run of the same path (resumed, --force'd, other settings) is not a duplicate of itself
        assert codes(register, record("RE-1", sha="1", source="a.pdf", fingerprint="other")) == []


def test_register_the_window_is_a_setting(url):
    with Register.open(url, settings=CheckSettings(window_days=30)) as register:
        assert codes(register, record("RE-1", sha="1")) == []
        assert codes(register, record("RE-3", sha="5", source="c.pdf", day="2026-01-25")) == ["possible_duplicate"]


def test_register_repeat_answers_the_first_registration(url):
    """A document registered again (a restart after a kill -9 between register and record) gets the same entry."""
    with Register.open(url) as register:
        register.check_and_add(record("RE-1", sha="1", source="a.pdf"))
        first = register.check_and_add(record("RE-1", sha="1", source="b.pdf"))
        again = register.check_and_add(record("RE-1", sha="1", source="b.pdf"))
        assert first is not None and again is not None
        assert (again.repeated, again.entry) == (True, first.entry)
        assert [i["source"] for i in register.invoices()] == ["a.pdf", "b.pdf"]


def test_a_record_taken_back_from_its_check_is_checked_again_as_another_place(url):
    """``unregistered``: a record already checked (the service's repeat, answered from another job's record) loses
    that check's key and warnings, not its own; checked again under another place it is that place's answer."""
    with Register.open(url) as register:
        register.check_and_add(record("RE-1", sha="1", source="a.pdf"), place="job-1")
        own = issue("low_confidence", "the total is unsure")
        copy = replace(record("RE-1", sha="1", source="a.pdf"), warnings=(own,))
        second = register.check_and_add(copy, place="job-2")
        assert second is not None
        checked = second.apply(copy)
        assert [w["code"] for w in checked.warnings] == ["low_confidence", "duplicate_file"]
        back = unregistered(checked)
        assert (back.warnings, "register" in back.extra, back.status) == ((own,), False, checked.status)
        assert unregistered(back) == back and unregistered(copy) == copy  # nothing to take back: as it was
        third = register.check_and_add(back, place="job-3")
        assert third is not None and not third.repeated
        (finding,) = [f for f in third.findings if f["code"] == "duplicate_file"]
        assert [w["code"] for w in third.apply(back).warnings] == ["low_confidence", "duplicate_file"]
        assert finding["original"]["source"] == "a.pdf"


def test_register_unverified_never_makes_a_duplicate(url):
    """A model's number nowhere on the page is no one's original, and is never flagged itself."""
    with Register.open(url) as register:
        assert codes(register, record("RE-9", sha="1", exact=False)) == []
        assert codes(register, record("RE-9", sha="2", source="b.pdf")) == []  # the first exact one: original
        assert codes(register, record("RE-9", sha="3", source="c.pdf", exact=False)) == []
        assert codes(register, record("RE-9", sha="4", source="d.pdf")) == ["duplicate_invoice"]
        grounded = {"/seller/vat_id": True, "/invoice_number": True}
        assert codes(register, record("RE-9", sha="5", source="e.pdf", exact=False, grounded=grounded)) == [
            "duplicate_invoice"
        ]
        result = register.check_and_add(record("RE-8", sha="6", source="f.pdf", exact=False))
        assert result is not None and result.entry["verified"] is False
        assert "unverified" in [f["code"] for f in result.findings]


def test_register_trusts_accounts_only_from_ok_records(url):
    with Register.open(url) as register:
        # a record in review (here: for its own reasons) never teaches its account
        assert codes(register, record("RE-1", sha="1", status="review", iban=OTHER_IBAN)) == []
        assert register.suppliers()[0]["trusted_accounts"] == []
        assert codes(register, record("RE-2", sha="2", source="b.pdf", total=5)) == []  # ok: trusts IBAN
        assert [a["iban"] for a in register.suppliers()[0]["trusted_accounts"]] == [IBAN]
        result = register.check_and_add(record("RE-3", sha="3", source="c.pdf", total=7, iban=OTHER_IBAN), place="c")
        assert result is not None
        assert [f["code"] for f in result.warnings] == ["bank_details_changed"]
        assert result.apply(record("RE-3", sha="3")).status == "review"
        # the changed account was not learnt: it is still not trusted
        assert codes(register, record("RE-4", sha="4", source="d.pdf", total=9, iban=OTHER_IBAN)) == [
            "bank_details_changed"
        ]
        # a person confirms it ("I called the supplier"): trusted, with who and when
        account = register.trust(VAT, "GB82 WEST 1234 5698 7654 32", by="anna")
        assert (account.iban, account.source, account.by) == (OTHER_IBAN, "review", "anna")
        assert codes(register, record("RE-5", sha="5", source="e.pdf", total=11, iban=OTHER_IBAN)) == []


def test_register_other_supplier_and_changed_vat_id(url):
    with Register.open(url) as register:
        assert codes(register, record("RE-1", sha="1")) == []
        # another supplier paying to the first one's trusted account
        other = record("X-1", sha="2", source="b.pdf", vat="FR40303265045", name="Autre SARL", total=3)
        assert codes(register, other) == ["bank_account_of_other_supplier"]
        # the first supplier's name with another VAT id
        changed = record("RE-2", sha="3", source="c.pdf", vat="DE999999999", iban=OTHER_IBAN, total=4)
        assert codes(register, changed) == ["supplier_vat_id_changed"]


def test_register_unknown_supplier_and_require_known(url):
    with Register.open(url, settings=CheckSettings(require_known_supplier=True)) as register:
        result = register.check_and_add(record("RE-1", sha="1", vat=None, name=None))
        assert result is not None and result.entry["supplier"]["key"] is None
        assert [f["code"] for f in result.warnings] == ["unknown_supplier"]
        assert codes(register, record("RE-2", sha="2", source="b.pdf")) == ["new_supplier"]
        assert codes(register, record("RE-3", sha="3", source="c.pdf", total=1)) == ["new_supplier"]  # still review
        register.import_suppliers([{"name": "Bei Spiel GmbH", "vat_id": VAT, "ibans": [IBAN]}], by="import")
        assert codes(register, record("RE-4", sha="4", source="d.pdf", total=2)) == []


def test_register_records_without_data_are_not_registered(url):
    with Register.open(url) as register:
        assert register.check_and_add(Record(source="x.pdf", status="truncated", sha256="9" * 64)) is None
        assert register.invoices() == []


def test_register_entry_shape(tmp_path):
    with Register.open(tmp_path / "r.sqlite") as register:
        result = register.check_and_add(record("RE-1"))
    assert result is not None
    assert result.entry == {
        "scope": "register",
        "register": str(tmp_path / "r.sqlite"),
        "entry": "1" * 64 + ":fp",
        "supplier": {"key": f"vat:{VAT}", "name": "Bei Spiel GmbH", "known": False, "trusted_accounts": []},
        "document_type": "invoice",
        "number": "RE1",
        "verified": True,
        "claims": {"vat_id": True, "number": True, "iban": True, "total": True},
        "findings": [
            {
                "code": "bank_account_not_trusted",
                "message": "Bei Spiel GmbH has no trusted account yet: ****3000 is not trusted either (an ok record, "
                "an import or a person's review trusts it)",
                "severity": "note",
                "original": None,
            },
            {
                "code": "new_supplier",
                "message": "Bei Spiel GmbH is not a known supplier yet",
                "severity": "note",
                "original": None,
            },
        ],
    }


def test_register_forget_and_listings(url):
    with Register.open(url) as register:
        codes(register, record("RE-1", sha="1"))
        assert codes(register, record("RE-1", sha="2", source="b.pdf")) == ["duplicate_invoice"]
        assert [i["source"] for i in register.invoices(flagged=True)] == ["b.pdf"]
        assert [i["source"] for i in register.invoices(number="re-0001")] == ["a.pdf", "b.pdf"]
        assert register.forget(source="a.pdf") == 1
        assert codes(register, record("RE-1", sha="3", source="c.pdf")) == ["duplicate_invoice"]  # b.pdf's now
        assert register.forget(supplier=VAT) == 1
        assert register.suppliers() == []
        with pytest.raises(RegisterError, match="no supplier"):
            register.forget(supplier="nobody")


# ------------------------------------------------------------------------------------------ two processes at once


def _register_rounds(url: str, who: int, rounds: int, barrier, out) -> None:
    register = Register.open(url)
    results = []
    for n in range(rounds):
        barrier.wait()
        # even rounds: two copies of one file; odd rounds: the same invoice from other bytes
        content = f"round {n}" if n % 2 == 0 else f"round {n}, re-saved by {who}"
        sha = hashlib.sha256(content.encode()).hexdigest()
        rec = record(f"R-{n}", source=f"p{who}-{n}.pdf", total=n + 1, day="2026-02-01")
        rec = Record(source=rec.source, status="ok", sha256=sha, data=rec.data, extra=rec.extra)
        result = register.check_and_add(rec, place=rec.source)
        results.append([f["code"] for f in result.warnings] if result else None)
    out.put((who, results))


def test_two_processes_register_the_same_invoice_one_original(url):
    """Two processes register the same invoice at the same moment, 20 times: always exactly one original."""
    Register.open(url).close()  # tables made once before the race
    context = multiprocessing.get_context("spawn")
    barrier, out, rounds = context.Barrier(2), context.Queue(), 20
    workers = [context.Process(target=_register_rounds, args=(url, w, rounds, barrier, out)) for w in (0, 1)]
    for worker in workers:
        worker.start()
    results = dict(out.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=30)
    for n in range(rounds):
        pair = sorted(map(tuple, (results[0][n], results[1][n])))
        expected = "duplicate_file" if n % 2 == 0 else "duplicate_invoice"
        assert pair == [(), (expected,)], (n, pair)


# ---------------------------------------------------------------------------------------------- bad registers


def test_bad_registers_are_refused_naming_them(tmp_path, monkeypatch):
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"this is not a database, just text " * 100)
    with pytest.raises(RegisterError, match=f"register {corrupt}: not a SQLite database"):
        Register.open(corrupt)
    foreign = tmp_path / "jobs.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE jobs (id TEXT)")
    with pytest.raises(RegisterError, match="not a register"):
        Register.open(foreign)
    newer = tmp_path / "newer.sqlite"
    Register.open(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE register_meta SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(RegisterError, match="newer release of extractor"):
        Register.open(newer)
    with pytest.raises(RegisterError, match="does not exist"):
        Register.open(tmp_path / "no" / "such" / "r.sqlite")
    assert issubclass(RegisterError, UsageError)  # exit code 2


def test_locked_and_read_only_registers(tmp_path, monkeypatch):
    path = tmp_path / "r.sqlite"
    Register.open(path).close()
    monkeypatch.setattr(register_db, "LOCK_TIMEOUT", 0.2)
    monkeypatch.setattr(register_db, "OUTLAST", 0.0)  # no waiting the lock out (tests/test_db_outage.py does)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(RegisterError, match=f"register {path}: locked by another process"):
            Register.open(path).check_and_add(record())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only = folder / "r.sqlite"
    Register.open(read_only).close()
    if os.geteuid() == 0:  # root writes read-only files: an immutable one (ext4's chattr +i) it cannot
        if subprocess.run(["chattr", "+i", str(read_only)], capture_output=True).returncode != 0:
            pytest.skip("root writes read-only files, and chattr +i is not available here")
        undo = ["chattr", "-i", str(read_only)]
    else:
        read_only.chmod(0o444)
        folder.chmod(0o555)
        undo = ["chmod", "755", str(folder)]
    try:
        with pytest.raises(RegisterError, match=f"register {read_only}: cannot be written"):
            Register.open(read_only)
    finally:
        subprocess.run(undo, check=True)


# ------------------------------------------------------------------------------------------------- master data


def test_import_csv_and_json(tmp_path):
    csv_file = tmp_path / "suppliers.csv"
    csv_file.write_text(
        "name,vat_id,iban,tax_number,bic,country,notes\n"
        f"Bei Spiel GmbH,{VAT},DE89 3704 0044 0532 0130 00,,COBADEFFXXX,DE,ours\n"
        "Kleinbetrieb Muster,,GB82WEST12345698765432,12/345/67890,,DE,\n",
        encoding="utf-8",
    )
    rows = read_master_data(csv_file)
    with Register.open(tmp_path / "r.sqlite") as register:
        assert register.import_suppliers(rows, by="import") == 2
        suppliers = register.suppliers()
        assert [(s["key"], s["known"], [a["iban"] for a in s["trusted_accounts"]]) for s in suppliers] == [
            ("tax:1234567890", True, [OTHER_IBAN]),
            (f"vat:{VAT}", True, [IBAN]),
        ]
        assert codes(register, record("RE-1")) == []  # known, trusted: nothing to say
        exported = tmp_path / "export.json"
        import json

        exported.write_text(json.dumps(register.export()), encoding="utf-8")
    with Register.open(tmp_path / "again.sqlite") as again:
        again.import_suppliers(read_master_data(exported))
        assert [s["key"] for s in again.suppliers()] == [s["key"] for s in suppliers]


def test_import_refused_whole_every_bad_line_named(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "name,vat_id,iban\n"
        f"Bei Spiel GmbH,{VAT},{IBAN}\n"
        "Bad Iban GmbH,,DE00370400440532013000\n"
        "Bad Vat GmbH,DE136695975,\n"
        f"Bei Spiel Zwei,{VAT},\n"
        ",,\n",
        encoding="utf-8",
    )
    with pytest.raises(MasterDataError) as caught:
        read_master_data(bad)
    assert caught.value.problems == [
        "line 3: IBAN 'DE00370400440532013000' has a wrong length or check digits",
        "line 4: VAT id 'DE136695975' has a wrong format or check digits",
        f"line 5: the same supplier (vat:{VAT}) as line 2",
        "line 6: no name",
    ]
    assert str(bad) in str(caught.value) and "nothing imported" in str(caught.value)
    latin = tmp_path / "latin.csv"
    latin.write_bytes("name,vat_id,iban\nMüller,,\n".encode("latin-1"))
    with pytest.raises(MasterDataError, match=r"line 2: not UTF-8 text \(byte 0xfc\)"):
        read_master_data(latin)
    header = tmp_path / "header.csv"
    header.write_text("name,iban\nX,\n", encoding="utf-8")
    with pytest.raises(MasterDataError, match="the header lacks vat_id"):
        read_master_data(header)


# ----------------------------------------------------------------------------------- the status, and the settings


@pytest.mark.parametrize(
    ("status", "warnings", "after"),
    [
        ("ok", (), "ok"),
        ("ok", ({"code": "duplicate_invoice", "message": "m"},), "review"),
        ("review", (), "review"),
        ("review", ({"code": "duplicate_invoice", "message": "m"},), "review"),
        ("invalid", ({"code": "duplicate_invoice", "message": "m"},), "invalid"),
    ],
)
def test_registered_status(status, warnings, after):
    from extractor.trust.verdict import registered_status

    assert registered_status(status, warnings) == after


def test_register_settings_leave_the_fingerprint():
    """A record's answer does not depend on the register: adding one keeps a resumed batch's records."""
    from extractor.settings import Settings

    base = Settings().fingerprint(schema_text="{}")
    changed = Settings(register="r.sqlite", require_known_supplier=True, duplicate_window=30)
    assert changed.fingerprint(schema_text="{}") == base
    with pytest.raises(UsageError, match="duplicate_window"):
        Settings(duplicate_window=-1)


def test_tenants_are_isolated(url):
    """Two tenants in one database: neither sees the other's suppliers, invoices or accounts, and the same invoice
    registered by both is an original for each."""
    with Register.open(url, tenant="acme") as acme:
        globex = acme.for_tenant("globex")
        assert codes(acme, record("RE-1", sha="1")) == []
        assert codes(globex, record("RE-1", sha="1")) == []  # the same file: not globex's duplicate
        assert codes(globex, record("RE-1", sha="2", source="b.pdf")) == ["duplicate_invoice"]
        assert codes(acme, record("RE-2", sha="3", source="c.pdf", total=3)) == []  # acme trusts IBAN (its ok)
        acme.trust(VAT, OTHER_IBAN, by="anna")
        assert [a["iban"] for a in globex.suppliers()[0]["trusted_accounts"]] == [IBAN]
        assert {a["iban"] for a in acme.suppliers()[0]["trusted_accounts"]} == {IBAN, OTHER_IBAN}
        assert [i["source"] for i in acme.invoices()] == ["a.pdf", "c.pdf"]
        assert [i["source"] for i in globex.invoices()] == ["a.pdf", "b.pdf"]
        assert acme.forget(source="a.pdf") == 1 and len(globex.invoices()) == 2
        assert Register.open(url).suppliers() == []  # the owner-less register is a tenant of its own


def test_people_close_the_loop(url):
    """ "Not a duplicate" and "confirm account", saved with who and when: the document registered again (its record
    written again) is no longer held."""
    with Register.open(url) as register:
        assert codes(register, record("RE-1", sha="1")) == []
        assert codes(register, record("RE-1", sha="2", source="b.pdf")) == ["duplicate_invoice"]
        assert register.not_a_duplicate("b.pdf", by="anna") == 1
        again = register.check_and_add(record("RE-1", sha="2", source="b.pdf"))
        assert again is not None and again.repeated and again.warnings == ()
        (finding,) = [f for f in again.findings if f["code"] == "duplicate_invoice"]
        assert (finding["severity"], finding["resolved"]["decision"], finding["resolved"]["by"]) == (
            "note",
            "not_a_duplicate",
            "anna",
        )
        assert register.invoices(flagged=True) == []
        with pytest.raises(RegisterError, match="no duplicate finding"):
            register.not_a_duplicate("a.pdf", by="anna")
        changed = record("RE-2", sha="3", source="c.pdf", total=5, iban=OTHER_IBAN)
        assert codes(register, changed) == ["bank_details_changed"]
        register.trust(VAT, OTHER_IBAN, by="bob")
        again = register.check_and_add(changed)
        assert again is not None and again.warnings == ()
        assert again.findings[0]["resolved"]["decision"] == "account_confirmed"
