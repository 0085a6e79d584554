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

from extractor.einvoice.codes import EMAIL_SCHEME
from extractor.einvoice.terms import OUTSIDE_SCOPE, SPECIFICATION, AllowanceCharge, Line, Party, Tax, Terms

RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
QDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
# a line's printed discount and surcharge have amounts only: UNTDID 5189 "Discount" and 7161 "Mutually defined"
# (BT-140 / BT-145; BR-42 / BR-44 ask for a reason or its code)
DISCOUNT = "95"
SURCHARGE = "ZZZ"


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


def _cii_date(parent, name: str, iso: str, ns: str = UDT) -> None:
    holder = _ram(parent, name)
    _sub(holder, ns, "DateTimeString", iso.replace("-", ""), {"format": "102"})


def _cii_amount(parent, name: str, value: Decimal | None, currency: str | None = None) -> None:
    if value is not None:
        _ram(parent, name, number(value), {"currencyID": currency})


def _rate(category: str | None, rate: Decimal | None) -> Decimal | None:
    """The rate to write: none for a supply outside the scope of VAT (BR-O-05 / 10 / 11)."""
    return None if category == OUTSIDE_SCOPE else rate


def _cii_tax(parent, tax: Tax | Line, *, basis: bool) -> None:
    el = _ram(parent, "ApplicableTradeTax")
    breakdown = tax if basis and isinstance(tax, Tax) else None
    if breakdown is not None:
        _cii_amount(el, "CalculatedAmount", breakdown.amount)
    _ram(el, "TypeCode", "VAT")
    if breakdown is not None and breakdown.exemption_reason:
        _ram(el, "ExemptionReason", breakdown.exemption_reason)
    if breakdown is not None:
        _cii_amount(el, "BasisAmount", breakdown.basis)
    if tax.category is not None:
        _ram(el, "CategoryCode", tax.category)
    rate = _rate(tax.category, tax.rate)
    if rate is not None:
        _ram(el, "RateApplicablePercent", number(rate))


def _cii_party(parent, name: str, party: Party) -> None:
    el = _ram(parent, name)
    for scheme, identifier in party.identifiers:
        _ram(el, "GlobalID", identifier, {"schemeID": scheme})
    if party.name is not None:
        _ram(el, "Name", party.name)
    if party.legal_id:
        _ram(_ram(el, "SpecifiedLegalOrganization"), "ID", party.legal_id)
    contact = party.contact
    if contact is not None and any((contact.name, contact.phone, contact.email)):
        holder = _ram(el, "DefinedTradeContact")
        if contact.name:
            _ram(holder, "PersonName", contact.name)
        if contact.phone:
            _ram(_ram(holder, "TelephoneUniversalCommunication"), "CompleteNumber", contact.phone)
        if contact.email:
            _ram(_ram(holder, "EmailURIUniversalCommunication"), "URIID", contact.email)
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
    if party.electronic_address is not None:
        scheme, address_id = party.electronic_address
        _ram(_ram(el, "URIUniversalCommunication"), "URIID", address_id, {"schemeID": scheme})
    for scheme, value in (("VA", party.vat_id), ("FC", party.tax_registration)):
        if value:
            registration = _ram(el, "SpecifiedTaxRegistration")
            _ram(registration, "ID", value, {"schemeID": scheme})


def _cii_allowance(parent, entry: AllowanceCharge) -> None:
    """A document allowance or charge (BG-20 / 21)."""
    el = _ram(parent, "SpecifiedTradeAllowanceCharge")
    _sub(_ram(el, "ChargeIndicator"), UDT, "Indicator", "true" if entry.charge else "false")
    _cii_amount(el, "ActualAmount", entry.amount)
    if entry.reason:
        _ram(el, "Reason", entry.reason)
    tax = _ram(el, "CategoryTradeTax")
    _ram(tax, "TypeCode", "VAT")
    if entry.category is not None:
        _ram(tax, "CategoryCode", entry.category)
    rate = _rate(entry.category, entry.rate)
    if rate is not None:
        _ram(tax, "RateApplicablePercent", number(rate))


def _line_adjustments(line: Line) -> list[tuple[bool, Decimal, str]]:
    """A line's allowance (BG-27) and charge (BG-28) as ``(charge, amount, reason code)``: BR-42 / BR-44 ask for a
    reason or its code, and the schema holds the amounts only, so their codes say discount / mutually defined."""
    out = [(False, line.allowance, DISCOUNT)] if line.allowance else []
    return out + ([(True, line.charge, SURCHARGE)] if line.charge else [])


def _cii_line_adjustment(parent, charge: bool, amount: Decimal, code: str) -> None:
    el = _ram(parent, "SpecifiedTradeAllowanceCharge")
    _sub(_ram(el, "ChargeIndicator"), UDT, "Indicator", "true" if charge else "false")
    _cii_amount(el, "ActualAmount", amount)
    _ram(el, "ReasonCode", code)


def _cii_line(parent, line: Line) -> None:
    item = _ram(parent, "IncludedSupplyChainTradeLineItem")
    _ram(_ram(item, "AssociatedDocumentLineDocument"), "LineID", line.id)
    product = _ram(item, "SpecifiedTradeProduct")
    if line.item_id:
        _ram(product, "SellerAssignedID", line.item_id)
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
    for charge, amount, code in _line_adjustments(line):
        _cii_line_adjustment(settlement, charge, amount, code)
    summation = _ram(settlement, "SpecifiedTradeSettlementLineMonetarySummation")
    _cii_amount(summation, "LineTotalAmount", line.net_amount)


def _cii_payment(settlement, terms: Terms) -> None:
    if terms.payment_means is None:
        return
    means = _ram(settlement, "SpecifiedTradeSettlementPaymentMeans")
    _ram(means, "TypeCode", terms.payment_means)
    if terms.iban or terms.account_number:
        account = _ram(means, "PayeePartyCreditorFinancialAccount")
        if terms.iban:
            _ram(account, "IBANID", terms.iban)
        if terms.account_name:
            _ram(account, "AccountName", terms.account_name)
        if terms.account_number:
            _ram(account, "ProprietaryID", terms.account_number)
        if terms.bic:
            _ram(_ram(means, "PayeeSpecifiedCreditorFinancialInstitution"), "BICID", terms.bic)


def _cii_agreement(transaction, terms: Terms) -> None:
    agreement = _ram(transaction, "ApplicableHeaderTradeAgreement")
    if terms.buyer_reference:
        _ram(agreement, "BuyerReference", terms.buyer_reference)
    _cii_party(agreement, "SellerTradeParty", terms.seller)
    _cii_party(agreement, "BuyerTradeParty", terms.buyer)
    if terms.order_reference:
        _ram(_ram(agreement, "BuyerOrderReferencedDocument"), "IssuerAssignedID", terms.order_reference)
    delivery = _ram(transaction, "ApplicableHeaderTradeDelivery")  # required by the XSD even when it holds nothing
    if terms.delivery_date:
        _cii_date(_ram(delivery, "ActualDeliverySupplyChainEvent"), "OccurrenceDateTime", terms.delivery_date)


def _cii_settlement(transaction, terms: Terms) -> None:
    settlement = _ram(transaction, "ApplicableHeaderTradeSettlement")
    if terms.currency is not None:
        _ram(settlement, "InvoiceCurrencyCode", terms.currency)
    _cii_payment(settlement, terms)
    for tax in terms.taxes:
        _cii_tax(settlement, tax, basis=True)
    if terms.period_start or terms.period_end:
        period = _ram(settlement, "BillingSpecifiedPeriod")
        if terms.period_start:
            _cii_date(period, "StartDateTime", terms.period_start)
        if terms.period_end:
            _cii_date(period, "EndDateTime", terms.period_end)
    for entry in terms.allowances:
        _cii_allowance(settlement, entry)
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
    _cii_amount(summation, "RoundingAmount", terms.rounding)
    _cii_amount(summation, "GrandTotalAmount", terms.grand_total)
    _cii_amount(summation, "TotalPrepaidAmount", terms.prepaid)
    _cii_amount(summation, "DuePayableAmount", terms.due_payable)
    if terms.preceding_number:
        reference = _ram(settlement, "InvoiceReferencedDocument")
        _ram(reference, "IssuerAssignedID", terms.preceding_number)
        if terms.preceding_date:
            _cii_date(reference, "FormattedIssueDateTime", terms.preceding_date, ns=QDT)


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
    _cii_agreement(transaction, terms)
    _cii_settlement(transaction, terms)
    return _serialize(root)


# ------------------------------------------------------------------------------------------------------------ UBL


def _cbc(parent, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    return _sub(parent, CBC, name, text, attrs)


def _cac(parent, name: str):
    return _sub(parent, CAC, name)


def _ubl_amount(parent, name: str, value: Decimal | None, currency: str | None) -> None:
    if value is not None:
        _cbc(parent, name, number(value), {"currencyID": currency})


def _ubl_category(parent, name: str, category: str | None, rate: Decimal | None, reason: str | None = None) -> None:
    el = _cac(parent, name)
    if category is not None:
        _cbc(el, "ID", category)
    rate = _rate(category, rate)
    if rate is not None:
        _cbc(el, "Percent", number(rate))
    if reason:
        _cbc(el, "TaxExemptionReason", reason)
    _cbc(_cac(el, "TaxScheme"), "ID", "VAT")


def _ubl_party(parent, name: str, party: Party, *, email_endpoints: bool) -> None:
    el = _cac(_cac(parent, name), "Party")
    if party.electronic_address is not None and (email_endpoints or party.electronic_address[0] != EMAIL_SCHEME):
        scheme, address_id = party.electronic_address
        _cbc(el, "EndpointID", address_id, {"schemeID": scheme})
    for scheme, identifier in party.identifiers:
        _cbc(_cac(el, "PartyIdentification"), "ID", identifier, {"schemeID": scheme})
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
    if party.legal_id:
        _cbc(legal, "CompanyID", party.legal_id)
    contact = party.contact
    if contact is not None and any((contact.name, contact.phone, contact.email)):
        holder = _cac(el, "Contact")
        for tag, value in (("Name", contact.name), ("Telephone", contact.phone), ("ElectronicMail", contact.email)):
            if value:
                _cbc(holder, tag, value)


def _ubl_allowance(parent, entry: AllowanceCharge, currency: str | None) -> None:
    el = _cac(parent, "AllowanceCharge")
    _cbc(el, "ChargeIndicator", "true" if entry.charge else "false")
    if entry.reason:
        _cbc(el, "AllowanceChargeReason", entry.reason)
    _ubl_amount(el, "Amount", entry.amount, currency)
    _ubl_category(el, "TaxCategory", entry.category, entry.rate)


def _ubl_line_adjustment(parent, charge: bool, amount: Decimal, code: str, currency: str | None) -> None:
    el = _cac(parent, "AllowanceCharge")
    _cbc(el, "ChargeIndicator", "true" if charge else "false")
    _cbc(el, "AllowanceChargeReasonCode", code)
    _ubl_amount(el, "Amount", amount, currency)


def _ubl_references(root, terms: Terms) -> None:
    """BT-10, BG-14, BT-13 and BG-3, in the UBL schema's order."""
    if terms.buyer_reference:
        _cbc(root, "BuyerReference", terms.buyer_reference)
    if terms.period_start or terms.period_end:
        period = _cac(root, "InvoicePeriod")
        if terms.period_start:
            _cbc(period, "StartDate", terms.period_start)
        if terms.period_end:
            _cbc(period, "EndDate", terms.period_end)
    if terms.order_reference:
        _cbc(_cac(root, "OrderReference"), "ID", terms.order_reference)
    if terms.preceding_number:
        reference = _cac(_cac(root, "BillingReference"), "InvoiceDocumentReference")
        _cbc(reference, "ID", terms.preceding_number)
        if terms.preceding_date:
            _cbc(reference, "IssueDate", terms.preceding_date)


def _ubl_payment(root, terms: Terms, *, credit: bool) -> None:
    if terms.payment_means is None:
        return
    means = _cac(root, "PaymentMeans")
    _cbc(means, "PaymentMeansCode", terms.payment_means)
    if terms.due_date and credit:
        _cbc(means, "PaymentDueDate", terms.due_date)
    if terms.iban or terms.account_number:
        account = _cac(means, "PayeeFinancialAccount")
        _cbc(account, "ID", terms.iban or terms.account_number)
        if terms.account_name:
            _cbc(account, "Name", terms.account_name)
        if terms.bic:
            _cbc(_cac(account, "FinancialInstitutionBranch"), "ID", terms.bic)


def _ubl_line(root, line: Line, *, credit: bool, currency: str | None) -> None:
    el = _cac(root, "CreditNoteLine" if credit else "InvoiceLine")
    _cbc(el, "ID", line.id)
    if line.quantity is not None:
        tag = "CreditedQuantity" if credit else "InvoicedQuantity"
        _cbc(el, tag, number(line.quantity), {"unitCode": line.unit_code})
    _ubl_amount(el, "LineExtensionAmount", line.net_amount, currency)
    for charge, amount, code in _line_adjustments(line):
        _ubl_line_adjustment(el, charge, amount, code, currency)
    item = _cac(el, "Item")
    if line.name is not None:
        _cbc(item, "Name", line.name)
    if line.item_id:
        _cbc(_cac(item, "SellersItemIdentification"), "ID", line.item_id)
    _ubl_category(item, "ClassifiedTaxCategory", line.category, line.rate)
    if line.net_price is not None:
        _ubl_amount(_cac(el, "Price"), "PriceAmount", line.net_price, currency)


def write_ubl(
    terms: Terms, *, specification: str = SPECIFICATION, process: str | None = None, email_endpoints: bool = True
) -> bytes:
    """The Terms as an OASIS UBL 2.1 ``Invoice`` (``CreditNote`` for a credit note's type code), UTF-8 bytes.

    Args:
        terms: the Business Terms.
        specification: BT-24 ``CustomizationID`` (a CIUS's, e.g. Peppol BIS Billing 3.0's).
        process: BT-23 ``ProfileID`` (Peppol's ``urn:fdc:peppol.eu:2017:poacc:billing:01:1.0``), None for none.
        email_endpoints: write an e-mail electronic address (scheme ``EM``) as ``EndpointID``; False for Peppol,
            whose endpoints are network participant ids (its EAS list has no ``EM``: PEPPOL-EN16931-CL008).
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
    _ubl_references(root, terms)
    _ubl_party(root, "AccountingSupplierParty", terms.seller, email_endpoints=email_endpoints)
    _ubl_party(root, "AccountingCustomerParty", terms.buyer, email_endpoints=email_endpoints)
    if terms.delivery_date:
        _cbc(_cac(root, "Delivery"), "ActualDeliveryDate", terms.delivery_date)
    _ubl_payment(root, terms, credit=credit)
    if terms.payment_terms:
        _cbc(_cac(root, "PaymentTerms"), "Note", terms.payment_terms)
    for entry in terms.allowances:
        _ubl_allowance(root, entry, currency)
    tax_total = _cac(root, "TaxTotal")
    _ubl_amount(tax_total, "TaxAmount", terms.tax_total, currency)
    for tax in terms.taxes:
        subtotal = _cac(tax_total, "TaxSubtotal")
        _ubl_amount(subtotal, "TaxableAmount", tax.basis, currency)
        _ubl_amount(subtotal, "TaxAmount", tax.amount, currency)
        _ubl_category(subtotal, "TaxCategory", tax.category, tax.rate, tax.exemption_reason)
    totals = _cac(root, "LegalMonetaryTotal")
    _ubl_amount(totals, "LineExtensionAmount", terms.line_total, currency)
    _ubl_amount(totals, "TaxExclusiveAmount", terms.tax_exclusive, currency)
    _ubl_amount(totals, "TaxInclusiveAmount", terms.grand_total, currency)
    _ubl_amount(totals, "AllowanceTotalAmount", terms.allowance_total, currency)
    _ubl_amount(totals, "ChargeTotalAmount", terms.charge_total, currency)
    _ubl_amount(totals, "PrepaidAmount", terms.prepaid, currency)
    _ubl_amount(totals, "PayableRoundingAmount", terms.rounding, currency)
    _ubl_amount(totals, "PayableAmount", terms.due_payable, currency)
    for line in terms.lines:
        _ubl_line(root, line, credit=credit, currency=currency)
    return _serialize(root)
