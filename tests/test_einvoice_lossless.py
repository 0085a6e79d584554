"""Lossless, proved term by term (issue 41 item 3): every EN 16931 term an official test file or a real invoice of
../shared/corpus gives is the same term in the CII and the UBL we write from the record read under
``invoice-en16931`` (``einvoice.lossless.round_trip``, the binding table ``einvoice.bindings``), unless the record's
notes say why not; our CII and UBL of every complete source fire no fatal CEN rule. The official files: KoSIT's
XRechnung test suite (every standard business case, UBL and CII: tests/data/einvoice/kosit), OpenPEPPOL's example
and CEN's own examples (tests/data/einvoice/cen)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from lxml import etree

from extractor.einvoice.bindings import BINDINGS, NAMESPACES, PREFIXES, SCOPES, Binding, parse_table
from extractor.einvoice.lossless import EXEMPT, round_trip
from extractor.einvoice.term_values import normalise, syntax_of, term_values
from extractor.einvoice.validate import compile_rules, validate_xml
from extractor.schema import load_schema

DATA = Path(__file__).parent / "data" / "einvoice"
OFFICIAL = sorted(DATA.rglob("*.xml"))
# the corpus' XML whose source breaks CEN rules by design (MINIMUM / BASIC WL profiles: no lines) or by a code
# list: our XML keeps what the source gives, so the same rules fire in it (and CII-DT-031, a ZUGFeRD 2.0 leftover
# we do not write, no longer does)
CORPUS_FATAL = {
    "v2_FNFE-factur-x-examples_Facture_DOM_BASICWL.factur-x.xml": (
        {"BR-16", "BR-G-01", "BR-G-08", "BR-CO-10"},
        {"BR-16", "BR-G-08", "BR-CO-10"},
    ),
    "v2_FNFE-factur-x-examples_Facture_FR_BASICWL.factur-x.xml": (
        {"BR-16", "BR-S-08", "BR-CO-10"},
        {"BR-16", "BR-S-01", "BR-S-08", "BR-CO-10"},
    ),
    "v2_FNFE-factur-x-examples_Facture_UE_MINIMUM.factur-x.xml": (
        {"BR-16", "BR-12", "BR-CO-10", "BR-CO-13", "BR-CO-16"},
        {"BR-16", "BR-CO-18", "BR-12", "BR-CO-10", "BR-CO-13", "BR-CO-16"},
    ),
    "v2_intarsys_MINIMUM_zugferd_2p0_MINIMUM.zugferd-invoice.xml": (
        {"BR-16", "BR-CO-10", "BR-CO-14"},
        {"BR-16", "BR-CO-18", "BR-CO-10"},
    ),
}


@pytest.fixture(scope="module")
def rules() -> float:
    """CEN's rules compiled once for the module."""
    return compile_rules(rule_sets=("cen",))


def _fatal(xml: bytes) -> set[str]:
    return set(validate_xml(xml, rules=("cen",)).fatal)


@pytest.mark.parametrize("path", OFFICIAL, ids=[p.name for p in OFFICIAL])
def test_every_term_of_an_official_file_is_in_our_cii_and_ubl(rules, path):
    found = round_trip(path.read_bytes())
    assert found is not None and found.valid, path.name
    assert found.lost == {"cii": {}, "ubl": {}}
    assert (_fatal(found.xml["cii"]), _fatal(found.xml["ubl"])) == (set(), set())
    # every term the source gives is compared (none slips through a path only one syntax has)
    assert len(found.source) >= 40


def test_every_term_of_the_corpus_xml_is_in_our_cii_and_ubl(rules):
    from helpers import shared_path

    corpus = shared_path("corpus", "invoices", "zugferd-corpus")
    fatal, unbound = {}, []
    for path in sorted(corpus.glob("*.xml")):
        found = round_trip(path.read_bytes())
        if found is None:  # ZUGFeRD 1.0 (no EN 16931 binding) or no invoice at all
            unbound.append(path.name)
            continue
        assert found.lost == {"cii": {}, "ubl": {}}, path.name
        cii, ubl = _fatal(found.xml["cii"]), _fatal(found.xml["ubl"])
        if cii or ubl:
            fatal[path.name] = (cii, ubl)
    assert fatal == CORPUS_FATAL
    assert unbound and all(name.startswith("v1_") for name in unbound)


def test_xrechnung_skonto_lines_and_card_payments_are_kept(rules):
    """Payment terms keep their lines (XRechnung's Skonto lines: BR-DE-18), a card payment its card (BG-18:
    BR-DE-24-a), a code without a word its code: our XRechnung of KoSIT's cases fires none of KoSIT's rules."""
    from extractor.einvoice.read import parse_invoice_xml
    from extractor.einvoice.read_en16931 import as_en16931
    from extractor.einvoice.record_xml import einvoice_xml

    compile_rules(rule_sets=("cen", "xrechnung"))
    for case in ("01.10a", "03.02a", "01.19a"):
        for syntax in ("ubl", "uncefact"):
            read = as_en16931(parse_invoice_xml((DATA / "kosit" / f"{case}-INVOICE_{syntax}.xml").read_bytes()))
            record = {"data": read.data, "data_source": "embedded_xml", "embedded": read.to_dict()}
            for fmt in ("xrechnung-cii", "xrechnung-ubl"):
                assert validate_xml(einvoice_xml(record, fmt)).fatal == (), (case, syntax, fmt)
    terms = as_en16931(parse_invoice_xml((DATA / "kosit" / "01.10a-INVOICE_ubl.xml").read_bytes())).data
    assert terms["payment_terms"].endswith("#SKONTO#TAGE=30#PROZENT=0.00#\n")
    assert terms["payment_terms"].count("\n") == 3


def test_payee_tax_representative_and_deliver_to_are_held_and_written():
    """The losses the issue names: BG-10 payee, BG-11 tax representative and BG-13 / BG-15 deliver-to with its
    country (BT-80, which BR-IC-12 asks for on an intra-community supply) are in the record and in our XML."""
    from extractor.einvoice.read import parse_invoice_xml
    from extractor.einvoice.read_en16931 import as_en16931

    source = (DATA / "cen" / "CII_example5.xml").read_bytes()
    data = as_en16931(parse_invoice_xml(source)).data["further_terms"]
    assert data["payee"] == {"name": "Dagobert Duck", "identifier": "DK16356608", "legal_id": "DK16356608"}
    assert data["tax_representative"]["name"] == "Dick Panama"
    assert data["tax_representative"]["address"]["country"] == "DK"
    assert data["delivery"]["location_id"] == "0088:5790000436068"
    assert data["delivery"]["address"]["country"] == "DK"
    found = round_trip(source)
    for fmt in ("cii", "ubl"):
        assert {term: found.ours[fmt].get(term) for term in ("BT-59", "BT-62", "BT-80")} == {
            "BT-59": ["Dagobert Duck"],
            "BT-62": ["Dick Panama"],
            "BT-80": ["DK"],
        }


def test_what_the_schema_does_not_hold_is_named_in_the_notes():
    found = round_trip((DATA / "cen" / "CII_example5.xml").read_bytes())
    notes = "\n".join(found.notes)
    for term in ("BT-137", "BT-138", "BT-142", "BT-143"):  # a line allowance's / charge's base and percentage
        assert f"{term} " in notes and term in found.noted
    assert "BT-84, BT-85, BT-86 payment account: 2 in the XML, the first is held" in notes


def test_a_changed_value_is_a_loss():
    """The comparison is real: a source value our XML does not repeat is reported, term by term."""
    source = (DATA / "cen" / "ubl-tc434-example5.xml").read_bytes()
    changed = source.replace(b"<cbc:Name>Dagobert Duck</cbc:Name>", b"<cbc:Name>Dagobert  Duck</cbc:Name>")
    assert round_trip(changed).lost == {"cii": {}, "ubl": {}}  # whitespace: a documented normalisation
    root = etree.fromstring(source)
    ours = round_trip(source)
    assert ours.source["BT-59"] == ["Dagobert Duck"]
    from extractor.einvoice.term_values import differences

    tampered = dict(ours.ours["ubl"], **{"BT-59": ["Dagobert"], "BT-131": [(0, ["1"])]})
    before = set(differences(ours.source, ours.ours["ubl"]))  # the noted ones
    assert set(differences(ours.source, tampered)) - before == {"BT-59", "BT-131"}
    assert syntax_of(root) == "UBL"


@pytest.mark.parametrize(
    "value,kind,syntax,want",
    [
        ("  two\n words ", "text", "CII", "two words"),
        ("100.00", "decimal", "UBL", "100"),
        ("0.50", "decimal", "CII", "0.5"),
        ("20240131", "date", "CII", "2024-01-31"),
        ("2024-01-31", "date", "UBL", "2024-01-31"),
        ("DE12 3456", "account", "UBL", "DE123456"),
        ("29", "tax_point", "CII", "35"),
        ("35", "tax_point", "UBL", "35"),
        ("#AAI#Ordered online", "note_subject", "UBL", "AAI"),
        ("#AAI#Ordered online", "note_text", "UBL", "Ordered online"),
        ("Plain note", "note_subject", "UBL", None),
        ("Plain note", "note_text", "UBL", "Plain note"),
        ("   ", "text", "UBL", None),
    ],
)
def test_normalisations(value, kind, syntax, want):
    assert normalise(value, kind, syntax) == want


def _schema_has(path: str) -> bool:
    """Whether ``a.b.c`` names a property of invoice-en16931 (through objects and arrays)."""
    node = load_schema("invoice-en16931").schema
    for key in path.split("."):
        while "items" in node:
            node = node["items"]
        node = node.get("properties", {}).get(key)
        if node is None:
            return False
    return True


def test_the_binding_table_is_whole_and_points_into_the_schema():
    terms = [b.term for b in BINDINGS]
    assert len(terms) == len(set(terms))
    assert all(b.scope in SCOPES for b in BINDINGS)
    held = [path for b in BINDINGS if b.held for path in b.held.split("|")]
    assert [path for path in held if not _schema_has(path)] == []
    # every BT of EN 16931's semantic model (BT-1 to BT-165; there is no BT-4) but BT-24, the format's own;
    # BT-125 as its MIME code and file name (the bytes stay beside the record)
    numbers = {int(t.split("-")[1]) for t in terms}
    assert set(range(1, 166)) - numbers == {4, 24}
    assert set(EXEMPT) <= set(terms)


def test_every_xpath_of_the_binding_table_compiles():
    bad = []
    for binding in BINDINGS:
        for path in (binding.cii, binding.ubl):
            try:
                etree.XPath(path, namespaces=NAMESPACES)
            except etree.XPathSyntaxError:
                bad.append((binding.term, path))
    assert bad == []


ADDRESS_LINE = "BT-35 BT-36 | Seller | doc | address | seller.address | $SELLER/ram:PostalTradeAddress | cac:Address"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("BT-1 | Invoice number | doc | text | invoice_number | rsm:ExchangedDocument/ram:ID", "has not 7 cells"),
        ("BT-1 | Invoice number | doc | text | invoice_number | $NOWHERE/ram:ID | cbc:ID", "unknown prefix"),
        (ADDRESS_LINE, "the Seller address line names 2 terms, not 7"),
    ],
)
def test_a_malformed_line_of_the_binding_table_is_named(line, message):
    with pytest.raises(ValueError, match=message):
        parse_table(line)


def test_an_address_line_expands_to_its_seven_terms_under_its_nodes():
    line = "BT-35 BT-36 BT-162 BT-37 BT-38 BT-39 BT-40 | Seller | doc | address | s.a | $SELLER/ram:A | cac:B"
    bindings = parse_table(line)
    assert [b.term for b in bindings] == ["BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"]
    seller = PREFIXES["SELLER"]
    street = Binding("BT-35", "Seller street", "doc", f"{seller}/ram:A/ram:LineOne", "cac:B/cbc:StreetName")
    assert bindings[0] == dataclasses.replace(street, held="s.a.street")
    country = "cac:B/cac:Country/cbc:IdentificationCode"
    assert bindings[-1] == Binding("BT-40", "Seller country code", "doc", f"{seller}/ram:A/ram:CountryID", country,
                                   held="s.a.country")  # fmt: skip


def test_both_syntaxes_of_one_invoice_give_the_same_terms():
    """KoSIT's 01.01a in UBL and in CII: the table reads the same values from both."""
    ubl = etree.parse(str(DATA / "xrechnung-01.01a-INVOICE_ubl.xml")).getroot()
    cii = etree.parse(str(DATA / "xrechnung-01.01a-INVOICE_uncefact.xml")).getroot()
    assert term_values(ubl, "UBL") == term_values(cii, "CII")


def test_an_attachment_is_named_in_the_record_and_its_bytes_given_beside_it():
    """BT-125: the record names the file (name, MIME type, size), never holds its bytes; ``attachments`` gives them."""
    import base64
    import json

    from extractor.einvoice.read import parse_invoice_xml
    from extractor.einvoice.read_en16931 import as_en16931
    from extractor.einvoice.read_terms import attachments

    source = (DATA / "cen" / "CII_example5.xml").read_bytes()
    data = as_en16931(parse_invoice_xml(source)).data
    (document,) = data["further_terms"]["supporting_documents"]
    (found,) = attachments(source)
    assert document["attachment"] == {"filename": "EHF.pdf", "mime_type": "application/pdf", "size": len(found.data)}
    assert (found.index, found.filename, found.mime_type) == (0, "EHF.pdf", "application/pdf")
    encoded = base64.b64encode(found.data).decode()
    assert encoded not in json.dumps(data) and encoded in source.decode()
    broken = source.replace(b"SlZCRVJp", b"!!!!!!!!")
    assert attachments(broken) == ()
