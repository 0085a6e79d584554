"""The invoice register through the pipeline: the ZUGFeRD / Factur-X corpus read into a register (exactly, from
its embedded XML: zero tokens, so a random tiny model suffices), then copies under new names, re-saved files and
one with its IBAN changed flagged exactly where expected; a batch without a register flags only its own duplicates
(the earlier input is the original) and leaves every other record as it was; the samples' records give no
warning; ``extract run --register`` and ``extract register ...`` end to end, bad registers exit 2.
"""

from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
from helpers import ROOT, einvoice_pdf, lines_pdf, settings_for
from typer.testing import CliRunner

from extractor import Extractor
from extractor.cli.commands import app, dispatch_args
from extractor.jobs.batch import run_batch
from extractor.record import record_from_dict, record_schema
from extractor.register import Register

# Two corpus files carry the same invoice as another one (the same seller, number and total in their XML): the later
# in name order is a duplicate from the first reading on, named by its original.
CHANGED = "v2_FNFE-factur-x-examples_Facture_FR_BASICWL.pdf"  # ok on its own: its account is trusted from it
CORPUS_DUPLICATES = {
    "v1_Intarsys_ZUGFeRD_1p0_EXTENDED_Warenrechnung.pdf": "v1_4s4u_additional-data-sample-1.pdf",
    "v2_PHP_gpFacturX_sample_inofficial_20190125_atgp_factur-x_v_1_0.pdf": CHANGED,
    # invoice 471102 of Lieferant GmbH again (2018's MINIMUM copy of 2013's BASIC, read from its XML since the
    # ZUGFeRD 1.0 line without a unit price is mended: einvoice.read.derive_unit_prices)
    "v2_intarsys_MINIMUM_zugferd_2p0_MINIMUM.pdf": "v1_Intarsys_ZUGFeRD_1p0_BASIC_Einfach.pdf",
}
OLD_IBAN, NEW_IBAN = "FR2012421242124212421242124", "FR7630006000011234567890189"


@pytest.fixture(scope="module")
def runner(model_factory):
    from extractor.runners.mlx.runner import MlxRunner

    return MlxRunner(model=str(model_factory.random().path))


def _extractor(runner, **changes) -> Extractor:
    return Extractor(settings_for(runner.model_dir, max_tokens=4, embedded_rules=False, **changes), runner=runner)


def _warnings(record) -> list[str]:
    entry = record.extra.get("register") or {}
    return [f["code"] for f in entry.get("findings", []) if f["severity"] == "warning"]


def _resaved(source, target):
    """The same PDF written again by pypdf: other bytes, the same embedded XML."""
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=str(source))
    writer.add_metadata({"/Producer": "re-saved for the register test"})
    with open(target, "wb") as handle:
        writer.write(handle)
    return target


def _iban_changed(source, target):
    """A PDF carrying the source's embedded XML with another IBAN (a fraudster's copy of a known invoice)."""
    from pypdf import PdfReader

    (name, (xml,)) = next(iter(PdfReader(str(source)).attachments.items()))
    assert OLD_IBAN.encode() in xml
    return lines_pdf(
        target, ["Facture FA-2017-0010"], attachments=[(name, xml.replace(OLD_IBAN.encode(), NEW_IBAN.encode()))]
    )


def test_corpus_into_a_register(shared_dir, runner, tmp_path):
    corpus = shared_dir / "corpus" / "invoices" / "zugferd-corpus"
    pdfs = sorted(p for p in corpus.glob("*.pdf") if p.with_name(p.stem + ".gt.json").is_file())
    if not pdfs:
        pytest.skip(f"{corpus} holds no e-invoice PDFs")
    extractor = _extractor(runner, register=str(tmp_path / "register.sqlite"))
    first = {p.name: extractor.extract(str(p)) for p in pdfs}
    registered = {n for n, r in first.items() if "register" in r.extra}
    assert len(registered) >= 10, sorted(first)  # every one read from XML (the rest: no data, not registered)
    assert {n: _warnings(r) for n, r in first.items() if _warnings(r)} == {
        n: ["duplicate_invoice"] for n in CORPUS_DUPLICATES
    }
    for name, original in CORPUS_DUPLICATES.items():
        finding = first[name].extra["register"]["findings"][0]
        assert finding["original"]["source"] == str(corpus / original)
        assert first[name].status == "review"

    copies, resaved = tmp_path / "copies", tmp_path / "resaved"
    copies.mkdir()
    resaved.mkdir()
    for name in sorted(registered):
        copy = extractor.extract(str(shutil.copy(corpus / name, copies / f"copy of {name}")))
        assert _warnings(copy) == ["duplicate_file"], name
        assert copy.extra["register"]["findings"][0]["original"]["source"] == str(corpus / name)
        again = extractor.extract(str(_resaved(corpus / name, resaved / name)))
        assert again.extra.get("data_source") == "embedded_xml", name
        assert _warnings(again) == ["duplicate_invoice"], name
        original = CORPUS_DUPLICATES.get(name, name)
        assert again.extra["register"]["findings"][0]["original"]["source"] == str(corpus / original)

    changed = extractor.extract(str(_iban_changed(corpus / CHANGED, tmp_path / "changed.pdf")))
    assert _warnings(changed) == ["duplicate_invoice", "bank_details_changed"]
    bank = changed.extra["register"]["findings"][1]
    assert bank["trusted"] == [{"iban": "****2124", "source": "ok_record", "by": None, "at": bank["trusted"][0]["at"]}]
    assert "****0189" in bank["message"] and changed.status == "review"
    jsonschema.validate(changed.to_dict(), record_schema())

    # the first reading again (a resumed or --force'd run of the same paths): itself, not a duplicate
    again = {p.name: _warnings(extractor.extract(str(p))) for p in pdfs}
    assert {n: w for n, w in again.items() if w} == {n: ["duplicate_invoice"] for n in CORPUS_DUPLICATES}
    extractor.close()


def test_the_samples_records_give_no_warning(tmp_path):
    records = json.loads((ROOT / "tests" / "golden" / "batch-samples.json").read_text(encoding="utf-8"))
    with Register.open(tmp_path / "r.sqlite") as register:
        for data in records:
            result = register.check_and_add(record_from_dict(data))
            assert result is None or not result.warnings, data["source"]


def test_a_batch_flags_its_own_duplicates_in_input_order(runner, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    original = einvoice_pdf(inputs / "b-original.pdf")
    copy = shutil.copy(original, inputs / "a-copy.pdf")
    other = einvoice_pdf(inputs / "c-other.pdf", lines=["another page"])  # other bytes, the same XML: same invoice
    alone = lines_pdf(inputs / "d-alone.pdf", ["no invoice here"])
    out = tmp_path / "out"
    extractor = _extractor(runner)
    plain = {s: extractor.extract(s) for s in map(str, (original, other, alone))}
    result = run_batch(extractor, [str(original), str(copy), str(other), str(alone)], out=out)
    by_name = {r.source: r for r in result.records}
    # the first in input order is the original, however the names sort
    assert "register" not in by_name[str(original)].extra
    assert by_name[str(original)].to_dict() == {
        **plain[str(original)].to_dict(),
        "timings": by_name[str(original)].timings,
    }
    assert by_name[str(alone)].to_dict() == {**plain[str(alone)].to_dict(), "timings": by_name[str(alone)].timings}
    flagged = by_name[str(copy)]
    assert flagged.status == "review" and flagged.extra["register"]["scope"] == "batch"
    assert [f["code"] for f in flagged.extra["register"]["findings"]] == ["duplicate_file"]
    assert flagged.extra["register"]["findings"][0]["original"]["source"] == str(original)
    assert [w["code"] for w in flagged.warnings][-1] == "duplicate_file"
    assert [f["code"] for f in by_name[str(other)].extra["register"]["findings"]] == ["duplicate_invoice"]
    # the --out file holds the flagged record
    written = json.loads((out / "a-copy.json").read_text(encoding="utf-8"))
    jsonschema.validate(written, record_schema())
    assert written["register"]["findings"][0]["code"] == "duplicate_file"
    extractor.close()


def _cli(*args):
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]))


def test_cli_run_with_a_register_and_the_register_commands(runner, tmp_path):
    pdf = einvoice_pdf(tmp_path / "invoice.pdf")
    register = tmp_path / "register.sqlite"
    model = ["--model", runner.model_dir, "--max-tokens", "4", "--no-embedded-rules"]
    first = _cli(pdf, *model, "--register", register, "--json")
    assert first.exit_code in (0, 1), first.output
    copy = shutil.copy(pdf, tmp_path / "copy.pdf")
    second = _cli(copy, *model, "--register", register, "--json")
    assert second.exit_code == 1, second.output
    (record,) = json.loads(second.stdout)
    assert [f["code"] for f in record["register"]["findings"]][0] == "duplicate_file"

    listed = _cli("register", "invoices", "--register", register, "--json", "--flagged")
    assert listed.exit_code == 0, listed.output
    assert [(i["source"], i["findings"][0]) for i in json.loads(listed.stdout)] == [(str(copy), "duplicate_file")]
    suppliers = json.loads(_cli("register", "suppliers", "--register", register, "--json").stdout)
    key = suppliers[0]["key"]
    trusted = _cli("register", "trust", key, "DE89 3704 0044 0532 0130 00", "--register", register, "--by", "anna")
    assert trusted.exit_code == 0 and "trusted" in trusted.stdout, trusted.output
    suppliers = json.loads(_cli("register", "suppliers", "--register", register, "--json").stdout)
    assert {(a["iban"], a["source"], a["by"]) for a in suppliers[0]["trusted_accounts"]} >= {
        ("DE89370400440532013000", "review", "anna")
    }
    exported = tmp_path / "export.json"
    assert _cli("register", "export", "--register", register, "--out", exported).exit_code == 0
    assert len(json.loads(exported.read_text())["invoices"]) == 2
    bad = tmp_path / "bad.csv"
    bad.write_text("name,vat_id,iban\nX GmbH,,DE00370400440532013000\n", encoding="utf-8")
    refused = _cli("register", "import", bad, "--register", register)
    assert refused.exit_code == 2 and "line 2: IBAN" in refused.output, refused.output
    forgot = _cli("register", "forget", "--source", copy, "--register", register)
    assert forgot.exit_code == 0, forgot.output


@pytest.mark.parametrize("content", [b"not a database at all " * 64, None])
def test_cli_run_refuses_a_bad_register(tmp_path, content):
    """A corrupt register, or one whose folder is missing: exit 2 naming it, before any model loads."""
    register = tmp_path / "bad.sqlite" if content else tmp_path / "missing" / "r.sqlite"
    if content:
        register.write_bytes(content)
    pdf = einvoice_pdf(tmp_path / "invoice.pdf")
    result = _cli(pdf, "--model", tmp_path / "no-model-here", "--register", register)
    assert result.exit_code == 2, result.output
    assert f"register{register}" in "".join(result.output.split())  # rich wraps the line


def test_the_service_keeps_one_register_per_tenant(runner, tmp_path):
    """``extract serve --register`` / ``extract worker --register``: each job's records are checked against its
    tenant's register in the job store (beside the jobs' table); a tenant never sees another's invoices."""
    from extractor.service.config import open_store
    from extractor.service.stored_job import StoredJob
    from extractor.service.worker import Engine

    store = tmp_path / "jobs.sqlite"
    open_store(f"sqlite:///{store}")  # the service's own tables first: the register goes beside them
    engine = Engine(settings_for(runner.model_dir, max_tokens=4, embedded_rules=False, register=f"sqlite:///{store}"))
    engine.load()
    data = einvoice_pdf(tmp_path / "invoice.pdf").read_bytes()

    def run(job_id: str, tenant: str, name: str) -> dict:
        job = StoredJob(seq=1, id=job_id, tenant=tenant, status="running", created=0.0, filename=name)
        (record,) = engine.run(job, data)
        return record

    first = run("job-1", "acme", "invoice.pdf")
    assert [f["code"] for f in first["register"]["findings"] if f["severity"] == "warning"] == []
    assert first["source"] == "invoice.pdf" and first["register"]["scope"] == "register"
    other_tenant = run("job-2", "globex", "invoice.pdf")
    assert [f["code"] for f in other_tenant["register"]["findings"] if f["severity"] == "warning"] == []
    again = run("job-3", "acme", "the same invoice.pdf")
    assert [f["code"] for f in again["register"]["findings"] if f["severity"] == "warning"] == ["duplicate_file"]
    assert again["register"]["findings"][0]["original"] == {
        "source": "invoice.pdf",
        "seen_at": again["register"]["findings"][0]["original"]["seen_at"],
        "job": "job-1",
        "sha256": first["sha256"],
    }
    assert again["status"] == "review"
    rerun = run("job-1", "acme", "invoice.pdf")  # a job run again after a crash: itself, as before
    assert (rerun["register"], rerun["status"]) == (first["register"], first["status"])
    acme = Register.open(store, tenant="acme", alongside=True)
    assert [i["job"] for i in acme.invoices()] == ["job-1", "job-3"]
    assert [i["job"] for i in acme.for_tenant("globex").invoices()] == ["job-2"]
    engine.close()
