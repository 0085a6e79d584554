"""Write Business Terms (``terms.Terms``) as EN 16931 XML: UN/CEFACT CII D16B and OASIS UBL 2.1 Invoice / CreditNote.

Our own lxml writer rather than factur-x or drafthorse: factur-x builds from a dict keyed by Business Term through
its own templates and checks schematron through a separate server whose absence it reports as valid; drafthorse has
no UBL. Both syntaxes from one ``Terms`` here are a few hundred lines of element building, in the element order of
the CII D16B XSD (checked against it in the tests) and of the UBL 2.1 schema, and every term the record lacks is
simply not written, so the official rule that needs it fires (``terms`` lists what is derived or left out).
"""

from __future__ import annotations

from decimal import Decimal

from lxml import etree

from extractor.einvoice.terms import SPECIFICATION, Line, Party, Tax, Terms

RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
QDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"


def number(value: Decimal) -> str:
    """A decimal as XSD decimal text (plain notation, never ``1E+3``)."""
    return format(value, "f")


def _sub(parent, ns: str, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    el = etree.SubElement(parent, f"{{{ns}}}{name}", {k: v for k, v in (attrs or {}).items() if v is not None})
    if text is not None:
        el.text = text
    return el


def _serialize(root) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


# ------------------------------------------------------------------------------------------------------------ CII


def _ram(parent, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    return _sub(parent, RAM, name, text, attrs)


def _cii_date(parent, name: str, iso: str) -> None:
    holder = _ram(parent, name)
    _sub(holder, UDT, "DateTimeString", iso.replace("-", ""), {"format": "102"})


def _cii_amount(parent, name: str, value: Decimal | None, currency: str | None = None) -> None:
    if value is not None:
        _ram(parent, name, number(value), {"currencyID": currency})


def _cii_tax(parent, tax: Tax | Line, *, basis: bool) -> None:
    el = _ram(parent, "ApplicableTradeTax")
    if basis and isinstance(tax, Tax):
        _cii_amount(el, "CalculatedAmount", tax.amount)
    _ram(el, "TypeCode", "VAT")
    if basis and isinstance(tax, Tax):
        _cii_amount(el, "BasisAmount", tax.basis)
    if tax.category is not None:
        _ram(el, "CategoryCode", tax.category)
    if tax.rate is not None:
        _ram(el, "RateApplicablePercent", number(tax.rate))


def _cii_party(parent, name: str, party: Party) -> None:
    el = _ram(parent, name)
    if party.name is not None:
        _ram(el, "Name", party.name)
    if any((party.street, party.postal_code, party.city, party.country)):
        address = _ram(el, "PostalTradeAddress")
        for tag, value in (
            ("PostcodeCode", party.postal_code),
            ("LineOne", party.street),
            ("CityName", party.city),
            ("CountryID", party.country),
        ):
            if value:
                _ram(address, tag, value)
    for scheme, value in (("VA", party.vat_id), ("FC", party.tax_registration)):
        if value:
            registration = _ram(el, "SpecifiedTaxRegistration")
            _ram(registration, "ID", value, {"schemeID": scheme})


def _cii_line(parent, line: Line) -> None:
    item = _ram(parent, "IncludedSupplyChainTradeLineItem")
    _ram(_ram(item, "AssociatedDocumentLineDocument"), "LineID", line.id)
    product = _ram(item, "SpecifiedTradeProduct")
    if line.name is not None:
        _ram(product, "Name", line.name)
    agreement = _ram(item, "SpecifiedLineTradeAgreement")
    if line.net_price is not None:
        _cii_amount(_ram(agreement, "NetPriceProductTradePrice"), "ChargeAmount", line.net_price)
    delivery = _ram(item, "SpecifiedLineTradeDelivery")
    if line.quantity is not None:
        _ram(delivery, "BilledQuantity", number(line.quantity), {"unitCode": line.unit_code})
    settlement = _ram(item, "SpecifiedLineTradeSettlement")
    _cii_tax(settlement, line, basis=False)
    summation = _ram(settlement, "SpecifiedTradeSettlementLineMonetarySummation")
    _cii_amount(summation, "LineTotalAmount", line.net_amount)


def write_cii(terms: Terms, *, specification: str = SPECIFICATION, process: str | None = None) -> bytes:
    """The Terms as a UN/CEFACT Cross Industry Invoice D16B (EN 16931 CII syntax), UTF-8 bytes.

    Args:
        terms: the Business Terms.
        specification: BT-24 (a CIUS's, e.g. XRechnung's ``...#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0``).
        process: BT-23 business process, None for none.
    """
    root = etree.Element(f"{{{RSM}}}CrossIndustryInvoice", nsmap={"rsm": RSM, "ram": RAM, "udt": UDT, "qdt": QDT})
    context = _sub(root, RSM, "ExchangedDocumentContext")
    if process is not None:  # the XSD orders BT-23 before BT-24
        _ram(_ram(context, "BusinessProcessSpecifiedDocumentContextParameter"), "ID", process)
    _ram(_ram(context, "GuidelineSpecifiedDocumentContextParameter"), "ID", specification)
    document = _sub(root, RSM, "ExchangedDocument")
    if terms.number is not None:
        _ram(document, "ID", terms.number)
    _ram(document, "TypeCode", terms.type_code)
    if terms.issue_date:
        _cii_date(document, "IssueDateTime", terms.issue_date)
    transaction = _sub(root, RSM, "SupplyChainTradeTransaction")
    for line in terms.lines:
        _cii_line(transaction, line)
    agreement = _ram(transaction, "ApplicableHeaderTradeAgreement")
    _cii_party(agreement, "SellerTradeParty", terms.seller)
    _cii_party(agreement, "BuyerTradeParty", terms.buyer)
    _ram(transaction, "ApplicableHeaderTradeDelivery")  # required by the XSD even when it holds nothing
    settlement = _ram(transaction, "ApplicableHeaderTradeSettlement")
    if terms.currency is not None:
        _ram(settlement, "InvoiceCurrencyCode", terms.currency)
    if terms.iban:
        means = _ram(settlement, "SpecifiedTradeSettlementPaymentMeans")
        _ram(means, "TypeCode", "30")
        account = _ram(means, "PayeePartyCreditorFinancialAccount")
        _ram(account, "IBANID", terms.iban)
        if terms.account_name:
            _ram(account, "AccountName", terms.account_name)
        if terms.bic:
            _ram(_ram(means, "PayeeSpecifiedCreditorFinancialInstitution"), "BICID", terms.bic)
    for tax in terms.taxes:
        _cii_tax(settlement, tax, basis=True)
    if terms.payment_terms or terms.due_date:
        payment = _ram(settlement, "SpecifiedTradePaymentTerms")
        if terms.payment_terms:
            _ram(payment, "Description", terms.payment_terms)
        if terms.due_date:
            _cii_date(payment, "DueDateDateTime", terms.due_date)
    summation = _ram(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation")
    _cii_amount(summation, "LineTotalAmount", terms.line_total)
    _cii_amount(summation, "ChargeTotalAmount", terms.charge_total)
    _cii_amount(summation, "AllowanceTotalAmount", terms.allowance_total)
    _cii_amount(summation, "TaxBasisTotalAmount", terms.tax_exclusive)
    _cii_amount(summation, "TaxTotalAmount", terms.tax_total, terms.currency)
    _cii_amount(summation, "GrandTotalAmount", terms.grand_total)
    _cii_amount(summation, "TotalPrepaidAmount", terms.prepaid)
    _cii_amount(summation, "DuePayableAmount", terms.due_payable)
    return _serialize(root)


# ------------------------------------------------------------------------------------------------------------ UBL


def _cbc(parent, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    return _sub(parent, CBC, name, text, attrs)


def _cac(parent, name: str):
    return _sub(parent, CAC, name)


def _ubl_amount(parent, name: str, value: Decimal | None, currency: str | None) -> None:
    if value is not None:
        _cbc(parent, name, number(value), {"currencyID": currency})


def _ubl_category(parent, name: str, category: str | None, rate: Decimal | None) -> None:
    el = _cac(parent, name)
    if category is not None:
        _cbc(el, "ID", category)
    if rate is not None:
        _cbc(el, "Percent", number(rate))
    _cbc(_cac(el, "TaxScheme"), "ID", "VAT")


def _ubl_party(parent, name: str, party: Party) -> None:
    el = _cac(_cac(parent, name), "Party")
    if any((party.street, party.postal_code, party.city, party.country)):
        address = _cac(el, "PostalAddress")
        for tag, value in (("StreetName", party.street), ("CityName", party.city), ("PostalZone", party.postal_code)):
            if value:
                _cbc(address, tag, value)
        if party.country:
            _cbc(_cac(address, "Country"), "IdentificationCode", party.country)
    for value, scheme in ((party.vat_id, "VAT"), (party.tax_registration, "FC")):
        if value:
            tax_scheme = _cac(el, "PartyTaxScheme")
            _cbc(tax_scheme, "CompanyID", value)
            _cbc(_cac(tax_scheme, "TaxScheme"), "ID", scheme)
    legal = _cac(el, "PartyLegalEntity")
    if party.name is not None:
        _cbc(legal, "RegistrationName", party.name)


def write_ubl(terms: Terms, *, specification: str = SPECIFICATION, process: str | None = None) -> bytes:
    """The Terms as an OASIS UBL 2.1 ``Invoice`` (``CreditNote`` for a credit note's type code), UTF-8 bytes.

    Args:
        terms: the Business Terms.
        specification: BT-24 ``CustomizationID`` (a CIUS's, e.g. Peppol BIS Billing 3.0's).
        process: BT-23 ``ProfileID`` (Peppol's ``urn:fdc:peppol.eu:2017:poacc:billing:01:1.0``), None for none.
    """
    credit = terms.credit_note
    root_ns = UBL_CREDIT_NOTE if credit else UBL_INVOICE
    currency = terms.currency
    root = etree.Element(
        f"{{{root_ns}}}{'CreditNote' if credit else 'Invoice'}", nsmap={None: root_ns, "cac": CAC, "cbc": CBC}
    )
    _cbc(root, "CustomizationID", specification)
    if process is not None:
        _cbc(root, "ProfileID", process)
    if terms.number is not None:
        _cbc(root, "ID", terms.number)
    if terms.issue_date:
        _cbc(root, "IssueDate", terms.issue_date)
    if terms.due_date and not credit:  # a CreditNote has no DueDate; BT-9 goes to its PaymentMeans instead
        _cbc(root, "DueDate", terms.due_date)
    _cbc(root, "CreditNoteTypeCode" if credit else "InvoiceTypeCode", terms.type_code)
    if currency is not None:
        _cbc(root, "DocumentCurrencyCode", currency)
    _ubl_party(root, "AccountingSupplierParty", terms.seller)
    _ubl_party(root, "AccountingCustomerParty", terms.buyer)
    if terms.iban:
        means = _cac(root, "PaymentMeans")
        _cbc(means, "PaymentMeansCode", "30")
        if terms.due_date and credit:
            _cbc(means, "PaymentDueDate", terms.due_date)
        account = _cac(means, "PayeeFinancialAccount")
        _cbc(account, "ID", terms.iban)
        if terms.account_name:
            _cbc(account, "Name", terms.account_name)
        if terms.bic:
            _cbc(_cac(account, "FinancialInstitutionBranch"), "ID", terms.bic)
    if terms.payment_terms:
        _cbc(_cac(root, "PaymentTerms"), "Note", terms.payment_terms)
    tax_total = _cac(root, "TaxTotal")
    _ubl_amount(tax_total, "TaxAmount", terms.tax_total, currency)
    for tax in terms.taxes:
        subtotal = _cac(tax_total, "TaxSubtotal")
        _ubl_amount(subtotal, "TaxableAmount", tax.basis, currency)
        _ubl_amount(subtotal, "TaxAmount", tax.amount, currency)
        _ubl_category(subtotal, "TaxCategory", tax.category, tax.rate)
    totals = _cac(root, "LegalMonetaryTotal")
    _ubl_amount(totals, "LineExtensionAmount", terms.line_total, currency)
    _ubl_amount(totals, "TaxExclusiveAmount", terms.tax_exclusive, currency)
    _ubl_amount(totals, "TaxInclusiveAmount", terms.grand_total, currency)
    _ubl_amount(totals, "AllowanceTotalAmount", terms.allowance_total, currency)
    _ubl_amount(totals, "ChargeTotalAmount", terms.charge_total, currency)
    _ubl_amount(totals, "PrepaidAmount", terms.prepaid, currency)
    _ubl_amount(totals, "PayableAmount", terms.due_payable, currency)
    for line in terms.lines:
        el = _cac(root, "CreditNoteLine" if credit else "InvoiceLine")
        _cbc(el, "ID", line.id)
        if line.quantity is not None:
            _cbc(
                el,
                "CreditedQuantity" if credit else "InvoicedQuantity",
                number(line.quantity),
                {"unitCode": line.unit_code},
            )
        _ubl_amount(el, "LineExtensionAmount", line.net_amount, currency)
        item = _cac(el, "Item")
        if line.name is not None:
            _cbc(item, "Name", line.name)
        _ubl_category(item, "ClassifiedTaxCategory", line.category, line.rate)
        if line.net_price is not None:
            _ubl_amount(_cac(el, "Price"), "PriceAmount", line.net_price, currency)
    return _serialize(root)
