"""Embedded e-invoices: CII (ZUGFeRD 1 / 2, Factur-X) and UBL mapped to the invoice schema."""

import json
import re
from decimal import Decimal

import pytest
from helpers import CII, CII_DATA, SHARED_DIR, lines_pdf, shared_path

from extractor.einvoice.read import derive_unit_prices, parse_invoice_xml, read_embedded_invoice, read_invoice_root
from extractor.errors import InputError

ZUGFERD = SHARED_DIR / "corpus" / "invoices" / "zugferd-corpus"

UBL = """<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
 <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
 <cbc:ID>INV-24-00871</cbc:ID><cbc:IssueDate>2026-02-02</cbc:IssueDate><cbc:DueDate>2026-03-04</cbc:DueDate>
 <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode><cbc:DocumentCurrencyCode>GBP</cbc:DocumentCurrencyCode>
 <cac:AccountingSupplierParty><cac:Party>
  <cac:PostalAddress><cbc:StreetName>4 Mill Lane</cbc:StreetName><cbc:CityName>Leeds</cbc:CityName>
   <cbc:PostalZone>LS1 4AB</cbc:PostalZone>
   <cac:Country><cbc:IdentificationCode>GB</cbc:IdentificationCode></cac:Country>
  </cac:PostalAddress>
  <cac:PartyTaxScheme><cbc:CompanyID>GB314150017</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>
  </cac:PartyTaxScheme>
  <cac:PartyLegalEntity><cbc:RegistrationName>Kestrel Office Supplies Ltd</cbc:RegistrationName></cac:PartyLegalEntity>
 </cac:Party></cac:AccountingSupplierParty>
 <cac:AccountingCustomerParty><cac:Party><cac:PartyName><cbc:Name>Harbour Studio</cbc:Name></cac:PartyName>
 </cac:Party></cac:AccountingCustomerParty>
 <cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>
  <cac:PayeeFinancialAccount><cbc:ID>GB29NWBK60161331926819</cbc:ID><cbc:Name>Kestrel Office Supplies Ltd</cbc:Name>
   <cac:FinancialInstitutionBranch><cbc:ID>NWBKGB2L</cbc:ID></cac:FinancialInstitutionBranch>
  </cac:PayeeFinancialAccount></cac:PaymentMeans>
 <cac:PaymentTerms><cbc:Note>30 days net</cbc:Note></cac:PaymentTerms>
 <cac:TaxTotal><cbc:TaxAmount currencyID="GBP">20.00</cbc:TaxAmount>
  <cac:TaxSubtotal><cbc:TaxableAmount currencyID="GBP">100.00</cbc:TaxableAmount>
   <cbc:TaxAmount currencyID="GBP">20.00</cbc:TaxAmount>
   <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal>
  <cac:TaxSubtotal><cbc:TaxableAmount currencyID="GBP">12.50</cbc:TaxableAmount>
   <cbc:TaxAmount currencyID="GBP">0.00</cbc:TaxAmount>
   <cac:TaxCategory><cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal>
 </cac:TaxTotal>
 <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="GBP">112.50</cbc:LineExtensionAmount>
  <cbc:TaxExclusiveAmount currencyID="GBP">112.50</cbc:TaxExclusiveAmount>
  <cbc:TaxInclusiveAmount currencyID="GBP">132.50</cbc:TaxInclusiveAmount>
  <cbc:PayableAmount currencyID="GBP">132.50</cbc:PayableAmount></cac:LegalMonetaryTotal>
 <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">40</cbc:InvoicedQuantity>
  <cbc:LineExtensionAmount currencyID="GBP">100.00</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>Ballpoint pens, blue</cbc:Name>
   <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="GBP">2.50</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
 <cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>
  <cbc:LineExtensionAmount currencyID="GBP">12.50</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>Notebook</cbc:Name>
   <cac:ClassifiedTaxCategory><cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="GBP">12.50</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>
"""

UBL_DATA = {
    "invoice_number": "INV-24-00871",
    "issue_date": "2026-02-02",
    "due_date": "2026-03-04",
    "currency": "GBP",
    "seller": {
        "name": "Kestrel Office Supplies Ltd",
        "address": {"street": "4 Mill Lane", "postal_code": "LS1 4AB", "city": "Leeds", "country": "GB"},
        "vat_id": "GB314150017",
        "tax_id": None,
    },
    "buyer": {"name": "Harbour Studio", "address": None, "vat_id": None, "tax_id": None},
    "line_items": [
        {
            "description": "Ballpoint pens, blue",
            "quantity": 40,
            "unit": "C62",
            "unit_price": 2.5,
            "tax_rate": 20,
            "amount": 100,
        },
        {"description": "Notebook", "quantity": 1, "unit": "C62", "unit_price": 12.5, "tax_rate": 0, "amount": 12.5},
    ],
    "subtotal": 112.5,
    "tax_lines": [{"rate": 20, "base": 100, "amount": 20}, {"rate": 0, "base": 12.5, "amount": 0}],
    "total": 132.5,
    "prepaid_amount": None,
    "amount_due": 132.5,
    "payment_terms": "30 days net",
    "bank_account": {
        "iban": "GB29NWBK60161331926819",
        "bic": "NWBKGB2L",
        "account_holder": "Kestrel Office Supplies Ltd",
    },
}


def test_cii_mapping():
    e = parse_invoice_xml(CII.encode(), attachment="factur-x.xml")
    assert e.data == CII_DATA
    assert e.to_dict() == {
        "syntax": "CII",
        "guideline": "urn:cen.eu:en16931:2017",
        "type_code": "380",
        "attachment": "factur-x.xml",
        "totals": {
            "line_total": 1156,
            "charge_total": None,
            "allowance_total": None,
            "tax_basis_total": 1156,
            "tax_total": 219.64,
            "grand_total": 1375.64,
            "prepaid": 375.64,
            "due_payable": 1000,
        },
        "skipped_lines": 0,
        "notes": [],
        "schema_errors": [],
    }
    assert e.valid


def test_ubl_mapping():
    e = parse_invoice_xml(UBL.encode())
    assert e.data == UBL_DATA
    assert (e.syntax, e.type_code, e.valid, e.notes) == ("UBL", "380", True, ())


def test_missing_values_stay_null():
    xml = CII.replace("<ram:DuePayableAmount>1000.00</ram:DuePayableAmount>", "").replace(
        "<ram:LineTotalAmount>1156.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>", "<ram:TaxBasisTotalAmount>"
    )
    xml = xml.replace("<ram:IBANID>DE89 3704 0044 0532 0130 00</ram:IBANID>", "<ram:IBANID>DE01234..</ram:IBANID>")
    xml = xml.replace("<ram:Name>Bürostuhl  ErgoFlex</ram:Name>", "<ram:Name>" + "x" * 250 + "</ram:Name>")
    e = parse_invoice_xml(xml.encode())
    assert (e.data["subtotal"], e.data["amount_due"], e.data["bank_account"]["iban"]) == (None, 1000, None)
    assert e.data["line_items"][0]["description"] == "x" * 200
    assert e.notes == (
        "IBAN 'DE01234..' in the XML is not an IBAN; left out",
        "amount_due derived as total - prepaid (the XML has no due payable amount)",
        "/line_items/0/description cut from 250 to 200 characters (the schema's maxLength)",
    )
    assert e.schema_errors == ({"code": "schema", "path": "/subtotal", "message": "None is not of type 'number'"},)


@pytest.mark.parametrize(
    ("amount", "quantity", "price", "note"),
    [
        (198, 20, 9.9, "line 1 unit_price 9.9 derived as amount / quantity (198 / 20): the XML gives no net price"),
        (-7.5, 3, -2.5, "line 1 unit_price -2.5 derived as amount / quantity (-7.5 / 3): the XML gives no net price"),
        (1, 1024, 0.0009765625, "line 1 unit_price 0.0009765625 derived as amount / quantity (1 / 1024): the XML "
         "gives no net price"),
        (10, 3, None, "line 1 unit_price: the XML gives no net price, amount / quantity (10 / 3) gives none exactly; "
         "left null"),
        (5, 0, None, "line 1 unit_price: the XML gives no net price, nor the amount and a quantity to derive one "
         "from; left null"),
        (None, 2, None, "line 1 unit_price: the XML gives no net price, nor the amount and a quantity to derive one "
         "from; left null"),
    ],
)  # fmt: skip
def test_a_missing_unit_price_is_derived_only_when_exact(amount, quantity, price, note):
    given = {"unit_price": 4, "amount": 8, "quantity": 3}  # the issuer's price, however it adds up: kept
    lines, notes = [dict(given), {"unit_price": None, "amount": amount, "quantity": quantity}], []
    derive_unit_prices(lines, notes)
    assert lines == [given, {"unit_price": price, "amount": amount, "quantity": quantity}]
    assert notes == [note.replace("line 1", "line 2")]


def test_a_cii_line_without_a_net_price_reads_exactly_with_its_price_derived():
    xml = re.sub(r"<ram:NetPriceProductTradePrice>.*?</ram:NetPriceProductTradePrice>", "", CII, flags=re.S)
    assert "ChargeAmount" in CII and "ChargeAmount" not in xml
    e = parse_invoice_xml(xml.encode())
    assert e.valid and e.data == CII_DATA
    assert e.notes == ("line 1 unit_price 289 derived as amount / quantity (1156 / 4): the XML gives no net price",)


@pytest.mark.parametrize(
    "xml",
    [
        b"not xml at all",
        b"<?xml version='1.0'?><order><id>1</id></order>",
        b"<Invoice xmlns='urn:example:not-ubl'><ID>1</ID></Invoice>",
        b"<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]><r>&b;</r>",
    ],
)
def test_not_an_invoice(xml):
    assert parse_invoice_xml(xml) is None


def _pdf_with(tmp_path, attachments):
    return lines_pdf(tmp_path / "e.pdf", ["Invoice RE-2026-0117"], attachments=attachments)


def test_read_from_pdf_attachment(tmp_path):
    path = _pdf_with(tmp_path, [("notes.txt", b"hello"), ("invoice-data.xml", CII.encode())])
    e = read_embedded_invoice(path)
    assert (e.attachment, e.data) == ("invoice-data.xml", CII_DATA)
    assert read_embedded_invoice(path.read_bytes()).data == CII_DATA


def test_pdf_without_invoice_xml(tmp_path):
    assert read_embedded_invoice(_pdf_with(tmp_path, [("other.xml", b"<a/>")])) is None
    assert read_embedded_invoice(_pdf_with(tmp_path, [])) is None


@pytest.mark.parametrize(
    "make,code",
    [
        (lambda tmp: tmp / "missing.pdf", "not_found"),
        (lambda tmp: (tmp / "x.pdf").write_bytes(b"%PDF-1.4 garbage") and tmp / "x.pdf", "corrupt"),
    ],
)
def test_unreadable_inputs(tmp_path, make, code):
    with pytest.raises(InputError) as err:
        read_embedded_invoice(make(tmp_path))
    assert err.value.code == code


# -- the shared ZUGFeRD / Factur-X corpus --------------------------------------------------------------------------


def _gt_files():
    return sorted(ZUGFERD.glob("*.gt.json")) if ZUGFERD.is_dir() else []


def _compare(e, gt):
    """Our reading of each field the ground truth has, in the ground truth's terms."""
    d, taxes = e.data, e.data["tax_lines"]

    def tax_sum(key):
        if taxes and all(t[key] is not None for t in taxes):
            return sum(Decimal(str(t[key])) for t in taxes)
        return None

    untaxed = tax_sum("base")
    tax_total = tax_sum("amount")
    got = {
        "invoice_number": d["invoice_number"],
        "date": (d["issue_date"] or "").replace("-", ""),
        "seller": (d["seller"] or {}).get("name"),
        "buyer": (d["buyer"] or {}).get("name"),
        "currency": d["currency"],
        # gt's amount_untaxed is the tax basis total, which the schema holds as the sum of the tax bases
        "amount_untaxed": untaxed if untaxed is not None else e.totals["tax_basis_total"],
        "tax_total": tax_total if tax_total is not None else e.totals["tax_total"],
        "amount": d["total"],
        "due_payable": d["amount_due"],
        "line_count": len(d["line_items"]) + e.skipped_lines,
    }
    out = {}
    for key, value in got.items():
        want = gt.get(key)
        if want is None:
            continue
        if isinstance(want, (int, float)) and value is not None:
            out[key] = Decimal(str(value)) == Decimal(str(want))
        else:
            out[key] = value == want
    return out


@pytest.mark.parametrize("gt_path", _gt_files() or [None], ids=lambda p: p.name[:-8] if p else "absent")
def test_zugferd_corpus_matches_ground_truth(gt_path):
    if gt_path is None:
        shared_path("corpus", "invoices", "zugferd-corpus")  # absent: skips, or fails under CI=true
    gt = json.loads(gt_path.read_text(encoding="utf-8"))
    pdf = gt_path.with_name(gt_path.name[: -len(".gt.json")] + ".pdf")
    e = read_embedded_invoice(pdf)
    assert e is not None
    result = _compare(e, gt)
    assert {k for k, ok in result.items() if not ok} == set()
    # where the XML has the data the result is schema-valid; errors are only values the XML lacks
    assert all(err["message"].startswith("None is not of type") for err in e.schema_errors), e.schema_errors


def test_zugferd_pdf_without_xml():
    pdf = shared_path(
        "corpus", "invoices", "zugferd-corpus", "unstructured_RE-E-974-Hetzner_2016-01-19_R0005532486.pdf"
    )
    assert read_embedded_invoice(pdf) is None


def test_a_parsed_root_is_read_as_its_bytes_are():
    from extractor.einvoice.read_en16931 import as_en16931
    from extractor.einvoice.xmltext import parse_or_none

    xml = CII.encode()
    root = parse_or_none(xml)
    once, twice = read_invoice_root(root, xml=xml), parse_invoice_xml(xml)
    assert once is not None and twice is not None
    assert (once.data, once.to_dict()) == (twice.data, twice.to_dict())
    assert as_en16931(once, root=root).data == as_en16931(twice).data


def test_an_en16931_reading_of_xml_that_does_not_parse_says_so():
    from extractor.einvoice.read import EmbeddedInvoice
    from extractor.einvoice.read_en16931 import as_en16931

    with pytest.raises(ValueError, match="XML is not well-formed"):
        as_en16931(EmbeddedInvoice(data={}, syntax="CII", xml=b"<Invoice"))


RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"


@pytest.mark.parametrize(
    ("party", "syntax", "contact"),
    [
        (  # no person: the department is the contact point; a second contact is never mixed in
            f"<ram:P xmlns:ram='{RAM}'><ram:DefinedTradeContact><ram:DepartmentName>Sales</ram:DepartmentName>"
            "<ram:EmailURIUniversalCommunication><ram:URIID>a@b.de</ram:URIID></ram:EmailURIUniversalCommunication>"
            "</ram:DefinedTradeContact><ram:DefinedTradeContact><ram:TelephoneUniversalCommunication>"
            "<ram:CompleteNumber>1</ram:CompleteNumber></ram:TelephoneUniversalCommunication>"
            "</ram:DefinedTradeContact></ram:P>",
            "CII",
            ("Sales", None, "a@b.de"),
        ),
        (
            f"<ram:P xmlns:ram='{RAM}'><ram:DefinedTradeContact><ram:PersonName>Ann</ram:PersonName>"
            "<ram:DepartmentName>Sales</ram:DepartmentName></ram:DefinedTradeContact></ram:P>",
            "CII",
            ("Ann", None, None),
        ),
        (
            f"<cac:P xmlns:cac='{CAC}' xmlns:cbc='{CBC}'><cac:Contact><cbc:Name>Bo</cbc:Name>"
            "<cbc:Telephone>2</cbc:Telephone><cbc:ElectronicMail>c@d.eu</cbc:ElectronicMail></cac:Contact></cac:P>",
            "UBL",
            ("Bo", "2", "c@d.eu"),
        ),
        ("<P/>", "UBL", (None, None, None)),
    ],
)
def test_a_contact_is_read_by_the_binding_tables_names(party, syntax, contact):
    from extractor.einvoice.read_fields import contact_of
    from extractor.einvoice.xmltext import parse_or_none

    assert contact_of(parse_or_none(party.encode()), syntax) == contact
