"""E-invoices out, XRechnung 3.0 and Peppol BIS Billing 3.0 (issue 31): the ``xrechnung-cii``, ``xrechnung-ubl`` and
``peppol`` formats written with their BT-24 / BT-23, checked by the CEN rules and their own (KoSIT's and
OpenPEPPOL's schematron, compiled with SchXslt, run by saxonche), the fired rules exact per sample; ``extract
einvoice validate`` picking the rule sets by BT-24 or ``--rules`` on official example files; a missing artefact
is an error, never valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT
from lxml import etree
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.einvoice import validate as validate_module
from extractor.einvoice.check_files import validate_file
from extractor.einvoice.formats import PEPPOL, PEPPOL_PROCESS, XRECHNUNG, check_formats
from extractor.einvoice.record_xml import einvoice_bytes
from extractor.einvoice.report import einvoice_report
from extractor.einvoice.validate import (
    PEPPOL_RULES,
    RULES,
    XRECHNUNG_RULES,
    EinvoiceCheckError,
    check_rule_sets,
    compile_rules,
    rule_sets_for,
    validate_xml,
)
from extractor.record import record_schema
from extractor.settings import Settings

SAMPLES = ROOT / "samples"
DATA = Path(__file__).parent / "data" / "einvoice"
DEMO_ANSWER = SAMPLES / "expected" / "invoice-de-einfach.json"

# What a converted paper invoice cannot give a CIUS (the invoice schema has no field for it; never invented):
XR_MISSING = {
    "BR-DE-15",  # BT-10 buyer reference (Leitweg-ID)
    "BR-DE-2",  # BG-6 seller contact
    "PEPPOL-EN16931-R020",  # BT-34 seller electronic address (a Peppol rule XRechnung adopts)
    "PEPPOL-EN16931-R010",  # BT-49 buyer electronic address
}
PEPPOL_MISSING = {"PEPPOL-EN16931-R003", "PEPPOL-EN16931-R020", "PEPPOL-EN16931-R010"}  # BT-10 / BT-13; BT-34; BT-49
# The fatal rules each sample's true answer fires per format (the CEN ones: tests/test_einvoice_out.py's table).
FORMAT_FATAL = {
    "invoice-de-einfach": {
        "cii": set(),
        "ubl": set(),
        "xrechnung-cii": XR_MISSING,
        "xrechnung-ubl": XR_MISSING,
        # Peppol's German national rules for a German seller: BT-10 (DE-R-015) and BG-6 (DE-R-002) again
        "peppol": PEPPOL_MISSING | {"DE-R-015", "DE-R-002"},
    },
    "invoice-fr-services": {
        "cii": set(),
        "ubl": set(),
        "xrechnung-cii": XR_MISSING,
        "xrechnung-ubl": XR_MISSING,
        "peppol": PEPPOL_MISSING,
    },
}
FORMAT_RULE_SETS = {
    "cii": [RULES],
    "ubl": [RULES],
    "xrechnung-cii": [RULES, XRECHNUNG_RULES],
    "xrechnung-ubl": [RULES, XRECHNUNG_RULES],
    "peppol": [RULES, PEPPOL_RULES],
}


@pytest.fixture(scope="module")
def rules() -> float:
    """The CEN, XRechnung and Peppol rule sets compiled once for the module (each process keeps them)."""
    return compile_rules(rule_sets=("cen", "xrechnung", "peppol"))


def _sample(name: str) -> dict:
    return json.loads((SAMPLES / "expected" / f"{name}.json").read_text(encoding="utf-8"))


def _invoke(*args) -> object:
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]))


@pytest.mark.parametrize("name", sorted(FORMAT_FATAL))
def test_each_format_fires_exactly_its_table_rules(rules, name):
    report = einvoice_report(_sample(name), list(FORMAT_RULE_SETS))
    for fmt, want in FORMAT_FATAL[name].items():
        entry = report.entries[fmt]
        assert set(entry["fatal"]) == want, (fmt, entry["fatal"])
        assert entry["rules"] == FORMAT_RULE_SETS[fmt] and entry["valid"] is (not want) and "error" not in entry
    # BR-DE-15 is XRechnung's: it fires there for want of a buyer reference, never in plain CII / UBL
    assert "BR-DE-15" in report.entries["xrechnung-cii"]["fatal"]
    assert "BR-DE-15" not in report.entries["cii"]["fatal"] + report.entries["ubl"]["fatal"]
    # the record says why: the entry's notes name the terms the schema cannot hold, and each fatal id is a warning
    assert any("BT-10 buyer reference" in n for n in report.entries["xrechnung-ubl"]["notes"])
    assert any("BT-34 seller electronic address" in n for n in report.entries["peppol"]["notes"])
    assert not any("BT-10 buyer reference" in n for n in report.entries["cii"]["notes"])
    named = {f["message"].split()[3] for f in report.findings if f["code"] == "einvoice_rule"}
    assert named == set().union(*FORMAT_FATAL[name].values())


def test_the_writer_puts_each_formats_specification_and_process(rules):
    record = {"data": _sample("invoice-de-einfach")}
    cii = etree.fromstring(einvoice_bytes(record, "xrechnung-cii"))
    ram = "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}"
    context = cii[0]
    assert [el.tag.split("}")[1] for el in context] == [
        "BusinessProcessSpecifiedDocumentContextParameter",
        "GuidelineSpecifiedDocumentContextParameter",
    ]
    assert context[1].findtext(f"{ram}ID") == XRECHNUNG and context[0].findtext(f"{ram}ID") == PEPPOL_PROCESS
    cbc = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}"
    peppol = etree.fromstring(einvoice_bytes(record, "peppol"))
    assert [el.tag for el in peppol[:2]] == [f"{cbc}CustomizationID", f"{cbc}ProfileID"]
    assert peppol[0].text == PEPPOL and peppol[1].text == PEPPOL_PROCESS
    plain = etree.fromstring(einvoice_bytes(record, "ubl"))
    assert plain[0].text == "urn:cen.eu:en16931:2017" and plain[1].tag != f"{cbc}ProfileID"
    # what the document says is what picks its rule sets
    assert validate_xml(einvoice_bytes(record, "xrechnung-ubl")).rules == (RULES, XRECHNUNG_RULES)
    assert validate_xml(einvoice_bytes(record, "peppol")).rules == (RULES, PEPPOL_RULES)
    assert validate_xml(einvoice_bytes(record, "cii")).rules == (RULES,)


def test_rule_sets_by_specification_and_by_name():
    assert rule_sets_for(XRECHNUNG) == ("cen", "xrechnung")
    assert rule_sets_for(XRECHNUNG + "#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0") == (
        "cen",
        "xrechnung",
    )
    assert rule_sets_for(PEPPOL) == ("cen", "peppol") and rule_sets_for("urn:cen.eu:en16931:2017") == ("cen",)
    assert check_rule_sets(["XRechnung"]) == ("cen", "xrechnung") and check_rule_sets(["cen"]) == ("cen",)
    with pytest.raises(ValueError, match="expected one of cen, xrechnung, peppol"):
        check_rule_sets(["kosit"])
    assert check_formats(["xrechnung-cii", "PEPPOL"]) == ("xrechnung-cii", "peppol")
    assert Settings(einvoice="cii,xrechnung-ubl,peppol").einvoice == ("cii", "xrechnung-ubl", "peppol")
    from extractor.service.request_options import request_options  # extract serve: the XML formats per request too

    options = {"einvoice": ["xrechnung-cii", "peppol"]}
    kept = request_options(schema=None, options=options, server_schema="invoice")
    assert kept["einvoice"] == ["xrechnung-cii", "peppol"]


def test_official_examples_validate_with_zero_fatal_and_rules_by_bt24(rules):
    """KoSIT's test suite example 01.01a (UBL and CII) and OpenPEPPOL's base example: 0 fatal by the rule sets their
    BT-24 names; checked as the other CIUS they fire that CIUS's specification rule."""
    xr_ubl, xr_cii = DATA / "xrechnung-01.01a-INVOICE_ubl.xml", DATA / "xrechnung-01.01a-INVOICE_uncefact.xml"
    peppol = DATA / "peppol-base-example.xml"
    result = _invoke("einvoice", "validate", "--json", xr_ubl, xr_cii, peppol)
    assert result.exit_code == 0, result.output
    checks = json.loads(result.output)
    assert [c["rules"] for c in checks] == [[RULES, XRECHNUNG_RULES]] * 2 + [[RULES, PEPPOL_RULES]]
    assert [c["fatal"] for c in checks] == [[], [], []] and all(c["valid"] for c in checks)
    assert checks[0]["specification"] == XRECHNUNG and checks[1]["syntax"] == "CII"
    assert all(f["rules"] == XRECHNUNG_RULES for f in checks[0]["findings"])  # only XRechnung's warnings fire
    as_peppol = validate_file(xr_ubl, rules=("peppol",)).validation
    assert as_peppol is not None and "PEPPOL-EN16931-R004" in as_peppol.fatal  # BT-24 is not Peppol's
    as_xr = _invoke("einvoice", "validate", "--rules", "xrechnung", peppol)
    assert as_xr.exit_code == 1 and "BR-DE-2" in as_xr.output
    cen_only = validate_file(xr_ubl, rules=("cen",)).validation
    assert cen_only is not None and cen_only.rules == (RULES,) and cen_only.valid
    bad = _invoke("einvoice", "validate", "--rules", "kosit", peppol)
    assert bad.exit_code != 0 and "expected one of cen, xrechnung, peppol" in bad.output


@pytest.mark.parametrize("missing", ["xrechnung", "peppol"])
def test_a_missing_cius_artefact_is_an_error_never_valid(rules, monkeypatch, tmp_path, missing):
    folder = validate_module.RULE_SETS[missing][0]
    fresh = validate_module._Engine()  # a process that has compiled nothing of this rule set yet
    old = validate_module._ENGINE
    fresh._processor, fresh._schema = old._processor, old._schema  # CEN's kept: compiling it again costs ~2 s
    fresh._compiled = {key: value for key, value in old._compiled.items() if key[0] != missing}
    monkeypatch.setattr(validate_module, "_ENGINE", fresh)
    real = validate_module.rules_dir
    monkeypatch.setattr(validate_module, "rules_dir", lambda rule_set=RULES: tmp_path if rule_set == folder else real())
    fmt = "peppol" if missing == "peppol" else "xrechnung-cii"
    report = einvoice_report(_sample("invoice-de-einfach"), ["cii", fmt])
    assert report.entries["cii"]["valid"] and "error" not in report.entries["cii"]  # CEN's rules still run
    entry = report.entries[fmt]
    assert entry["valid"] is False and "is missing" in entry["error"] and entry["fatal"] == []
    assert [f["code"] for f in report.findings] == ["einvoice_unchecked"]  # makes an ok record review
    sample = DATA / ("peppol-base-example.xml" if missing == "peppol" else "xrechnung-01.01a-INVOICE_ubl.xml")
    with pytest.raises(EinvoiceCheckError, match="is missing"):
        validate_xml(sample.read_bytes())
    check = validate_file(sample)
    assert check.validation is None and check.to_dict()["valid"] is False
    assert _invoke("einvoice", "validate", sample).exit_code == 1


def test_the_out_sink_writes_each_cius_file_as_checked_and_the_record_stays_schema_valid(rules, tmp_path):
    """``--out``'s sink (``jobs.sinks.write_einvoices``, what ``extract run --einvoice ... --out`` calls): every
    format's file beside the record, equal to the XML that was checked; the record with those entries, its status
    from the pipeline's rule (a fatal rule makes an ``ok`` answer ``review``), validates against the record schema.
    (The end-to-end ``extract run --einvoice`` with a model: tests/test_einvoice_out.py, format-independent.)"""

    import jsonschema

    from extractor.jobs.sinks import write_einvoices
    from extractor.record import Record, Status
    from extractor.trust.verdict import Signals, record_status

    data = _sample("invoice-de-einfach")
    report = einvoice_report(data, ["cii", "xrechnung-cii", "xrechnung-ubl", "peppol"])
    status = record_status(Signals(answer=Status.OK, einvoice=report.findings))
    assert status == Status.REVIEW  # XRechnung's / Peppol's rules fire: never a silent "valid"
    record = Record(
        source=str(SAMPLES / "invoice-de-einfach.pdf"),
        status=status,
        schema="invoice",
        data=data,
        warnings=report.findings,
        extra={"einvoice": report.entries},
    )
    path = tmp_path / "invoice-de-einfach.json"
    written = write_einvoices(path, record)
    jsonschema.validate(written.to_dict(), record_schema())
    for fmt, entry in written.extra["einvoice"].items():
        target = Path(entry["path"])
        assert target == tmp_path / f"invoice-de-einfach.{fmt}.xml"
        assert target.read_bytes() == einvoice_bytes(written.to_dict(), fmt)
        assert entry["rules"] == FORMAT_RULE_SETS[fmt] and set(entry["fatal"]) == FORMAT_FATAL[DEMO_ANSWER.stem][fmt]
        assert validate_file(target).validation.fatal == tuple(entry["fatal"])  # type: ignore[union-attr]
    named = " ".join(w["message"] for w in written.warnings if w["code"] == "einvoice_rule")
    assert all(rule in named for rule in XR_MISSING | {"DE-R-015"})
