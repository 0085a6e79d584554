"""The e-invoice formats are one table (``einvoice/formats.py``, issue 49): every surface that offers a format offers
exactly its rows (the XML-only ones where no source PDF is kept), each row is well formed, and the writer puts the
row's syntax, BT-24 and BT-23 in the document."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
import typer
from helpers import ROOT
from lxml import etree

from extractor.cli.app import app
from extractor.einvoice.convert import convert
from extractor.einvoice.formats import CIUS_MARKS, FORMATS, TABLE, XML_FORMATS, check_formats, format_of
from extractor.einvoice.read_record import terms_from
from extractor.einvoice.syntaxes import SYNTAXES, syntax_of_root
from extractor.einvoice.validate import RULE_SETS, rule_sets_for
from extractor.errors import InputError, UsageError
from extractor.service.request_options import request_options
from extractor.settings import Settings

NAMED = re.compile(r"(?<![\w'.])([a-z][a-z0-9-]*) \(")  # "cii (UN/CEFACT CII D16B)": a format named in help


def test_the_table_lists_the_formats_we_write():
    assert FORMATS == ("cii", "ubl", "facturx", "xrechnung-cii", "xrechnung-ubl", "peppol")
    assert XML_FORMATS == ("cii", "ubl", "xrechnung-cii", "xrechnung-ubl", "peppol")
    assert CIUS_MARKS == {
        "urn:xeinkauf.de:kosit:xrechnung": "xrechnung",
        "urn:fdc:peppol.eu:2017:poacc:billing:3.0": "peppol",
    }


@pytest.mark.parametrize("row", TABLE, ids=lambda row: row.name)
def test_each_row_is_whole(row):
    assert row.syntax in ("CII", "UBL")
    assert all(key in RULE_SETS for key in row.rule_sets) and row.rule_sets[0] == "cen"
    assert (row.cius == "") == (row.cius_mark == "") and row.cius_mark in row.specification
    assert rule_sets_for(row.specification) == row.rule_sets  # a received file of this format: the same rules
    assert row.suffix == ("pdf" if row.pdf else "xml") and row.xml_only is not row.pdf
    assert format_of(f" {row.name.upper()} ") is row


def _params(option: str) -> list:
    root = typer.main.get_command(app)
    found = []
    commands = [root]
    while commands:
        command = commands.pop()
        commands.extend(getattr(command, "commands", {}).values())
        found.extend(p for p in command.params if option in getattr(p, "opts", ()))
    return found


def test_the_command_line_offers_exactly_the_table():
    einvoice, to = _params("--einvoice"), _params("--to")
    assert einvoice and len(to) == 1
    for param in einvoice:
        listed = param.help.split(", comma-separated")[0]
        assert tuple(NAMED.findall(listed)) == FORMATS, param.help
    assert tuple(NAMED.findall(to[0].help)) == XML_FORMATS, to[0].help


@pytest.mark.parametrize("name", FORMATS)
def test_settings_and_convert_take_the_table(name):
    assert Settings(einvoice=(name,)).einvoice == (name,)
    if name in XML_FORMATS:  # offered: the bytes are then read (and are no e-invoice)
        with pytest.raises(InputError):
            convert(b"<x/>", name="x.xml", to=name)
    else:
        with pytest.raises(ValueError, match="--to facturx: expected one of cii, ubl, xrechnung-cii"):
            convert(b"<x/>", name="x.xml", to=name)


def test_unknown_formats_are_refused_naming_the_table():
    with pytest.raises(ValueError, match="e-invoice format zugferd: expected one of " + ", ".join(FORMATS)):
        check_formats(["cii", "zugferd"])
    with pytest.raises(ValueError, match="e-invoice format 'x'"):
        format_of("x")


def test_the_service_offers_the_xml_formats():
    for name in XML_FORMATS:
        assert request_options(schema=None, options={"einvoice": [name]}, server_schema="invoice") == {
            "einvoice": [name]
        }
    with pytest.raises(UsageError, match="facturx not offered per request"):
        request_options(schema=None, options={"einvoice": ["facturx"]}, server_schema="invoice")
    schemas = json.loads((ROOT / "docs" / "openapi.json").read_text())["components"]["schemas"]  # = the served one
    for model in ("Options", "JobOptions"):  # (test_serve.py)
        assert tuple(schemas[model]["properties"]["einvoice"]["anyOf"][0]["items"]["enum"]) == XML_FORMATS


def test_the_docs_table_is_the_table():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    page = (ROOT / "docs" / "einvoice.md").read_text()
    assert page.count(hooks.FORMATS_MARKER) == 1
    before, after = page.split(hooks.FORMATS_MARKER)
    shown = hooks.on_page_markdown(page, None, None, None)
    assert shown.startswith(before) and shown.endswith(after)
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", shown[len(before) : -len(after)], flags=re.M)
    assert tuple(name for name, _ in rows) == FORMATS
    for (_, cells), row in zip(rows, TABLE, strict=True):
        assert f"`{row.specification}`" in cells and " + ".join(row.rule_sets) in cells


SYNTAX = {  # root, BT-24 and BT-23 where each syntax writes them
    "CII": ("CrossIndustryInvoice", ".//{*}GuidelineSpecifiedDocumentContextParameter/{*}ID",
            ".//{*}BusinessProcessSpecifiedDocumentContextParameter/{*}ID"),
    "UBL": ("Invoice", "{*}CustomizationID", "{*}ProfileID"),
}  # fmt: skip


@pytest.mark.parametrize("row", TABLE, ids=lambda row: row.name)
def test_each_row_writes_its_syntax_and_marks(row):
    data = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text())
    root = etree.fromstring(row.write(terms_from(data)))
    tag, bt24, bt23 = SYNTAX[row.syntax]
    assert etree.QName(root).localname == tag
    assert root.findtext(bt24) == row.specification
    assert root.findtext(bt23) == row.process


UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"


@pytest.mark.parametrize(
    ("root", "syntax"),
    [
        ("<rsm:CrossIndustryInvoice xmlns:rsm='urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100'/>", "CII"),
        ("<rsm:CrossIndustryDocument xmlns:rsm='urn:ferd:CrossIndustryDocument:invoice:1p0'/>", "CII"),
        (f"<Invoice xmlns='{UBL_INVOICE}'/>", "UBL"),
        ("<CreditNote xmlns='urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'/>", "UBL"),
        ("<Invoice/>", None),  # a UBL root name outside UBL's namespace
        ("<Order xmlns='urn:oasis:names:specification:ubl:schema:xsd:Order-2'/>", None),
    ],
)
def test_a_root_names_its_syntax(root, syntax):
    found = syntax_of_root(etree.fromstring(root))
    assert (found.name if found else None) == syntax


@pytest.mark.parametrize("row", TABLE, ids=lambda row: row.name)
def test_each_row_is_read_back_by_its_syntax(row):
    data = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text())
    root = etree.fromstring(row.write(terms_from(data)))
    assert syntax_of_root(root) is SYNTAXES[row.syntax]
    assert SYNTAXES[row.syntax].read_invoice(root).data["invoice_number"] == data["invoice_number"]


def test_the_cii_writer_refuses_to_leave_e_mail_endpoints_out():
    data = json.loads((ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text())
    with pytest.raises(ValueError, match="CII writer always writes an e-mail electronic address"):
        SYNTAXES["CII"].write(terms_from(data), specification="x", process=None, email_endpoints=False)
