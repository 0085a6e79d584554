"""Write Business Terms (``terms.Terms``) as EN 16931 XML: UN/CEFACT CII D16B here, OASIS UBL 2.1 Invoice /
CreditNote in ``write_ubl`` (the element helpers both share are ``xmlwrite``'s).

Our own lxml writer rather than factur-x or drafthorse: factur-x builds from a dict keyed by Business Term through
its own templates and checks schematron through a separate server whose absence it reports as valid; drafthorse has
no UBL. Both syntaxes from one ``Terms`` here are a few hundred lines of element building, in the element order of
the CII D16B XSD (checked against it in the tests) and of the UBL 2.1 schema, and every term the record lacks is
simply not written, so the official rule that needs it fires (``terms`` lists what is derived or left out).
"""

from __future__ import annotations

from decimal import Decimal

from lxml import etree

from extractor.einvoice import xmlwrite
from extractor.einvoice.bindings import NAMESPACES
from extractor.einvoice.terms import AllowanceCharge, Line, Party, Tax, Terms
from extractor.einvoice.xmlwrite import line_adjustments, number, rate_to_write, serialize, sub_element

RSM, RAM, UDT, QDT = (NAMESPACES[prefix] for prefix in ("rsm", "ram", "udt", "qdt"))
TAX_POINT_CII = {"3": "5", "35": "29", "432": "72"}  # BT-8: UNTDID 2005 (UBL, the record) -> 2475 (CII)
SUPPORTING, TENDER, OBJECT = "916", "50", "130"  # UNTDID 1001 codes of BG-24, BT-17, BT-18


# ------------------------------------------------------------------------------------------------------------ CII


def _ram(parent, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    return sub_element(parent, RAM, name, text, attrs)


def _cii_date(parent, name: str, iso: str, ns: str = UDT) -> None:
    holder = _ram(parent, name)
    sub_element(holder, ns, "DateTimeString", iso.replace("-", ""), {"format": "102"})


def _cii_amount(parent, name: str, value: Decimal | None, currency: str | None = None) -> None:
    if value is not None:
        _ram(parent, name, number(value), {"currencyID": currency})


def _cii_tax(parent, tax: Tax | Line, *, basis: bool, tax_point: tuple[str | None, str | None] | None = None) -> None:
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
    if breakdown is not None and breakdown.exemption_code:
        _ram(el, "ExemptionReasonCode", breakdown.exemption_code)
    if tax_point is not None and tax_point[0]:
        sub_element(_ram(el, "TaxPointDate"), UDT, "DateString", tax_point[0].replace("-", ""), {"format": "102"})
    if tax_point is not None and tax_point[1] in TAX_POINT_CII:
        _ram(el, "DueDateTypeCode", TAX_POINT_CII[tax_point[1]])
    rate = rate_to_write(tax.category, tax.rate, breakdown=breakdown is not None)
    if rate is not None:
        _ram(el, "RateApplicablePercent", number(rate))


def _cii_id(parent, identifier: tuple[str | None, str]) -> None:
    """An identifier: ``GlobalID`` with its scheme, ``ID`` without one."""
    scheme, value = identifier
    if scheme:
        _ram(parent, "GlobalID", value, {"schemeID": scheme})
    else:
        _ram(parent, "ID", value)


def _cii_party(parent, name: str, party: Party) -> None:
    el = _ram(parent, name)
    for scheme, identifier in sorted(party.identifiers, key=lambda x: bool(x[0])):  # the XSD: IDs, then GlobalIDs
        _cii_id(el, (scheme, identifier))
    if party.name is not None:
        _ram(el, "Name", party.name)
    if party.legal_info:
        _ram(el, "Description", party.legal_info)
    if party.legal_id or party.trading_name:
        legal = _ram(el, "SpecifiedLegalOrganization")
        xmlwrite.sub_texts(legal, ("ram:ID", "ram:TradingBusinessName"), (party.legal_id, party.trading_name))
    xmlwrite.write_contact(el, party.contact, "CII")
    xmlwrite.write_address(el, "ram:PostalTradeAddress", party, "CII")
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
    sub_element(_ram(el, "ChargeIndicator"), UDT, "Indicator", "true" if entry.charge else "false")
    if entry.percentage is not None:
        _ram(el, "CalculationPercent", number(entry.percentage))
    _cii_amount(el, "BasisAmount", entry.base)
    _cii_amount(el, "ActualAmount", entry.amount)
    xmlwrite.sub_texts(el, ("ram:ReasonCode", "ram:Reason"), (entry.code, entry.reason))
    tax = _ram(el, "CategoryTradeTax")
    _ram(tax, "TypeCode", "VAT")
    if entry.category is not None:
        _ram(tax, "CategoryCode", entry.category)
    rate = rate_to_write(entry.category, entry.rate)
    if rate is not None:
        _ram(tax, "RateApplicablePercent", number(rate))


def _cii_line_adjustment(parent, charge: bool, amount: Decimal, code: str | None, reason: str | None) -> None:
    el = _ram(parent, "SpecifiedTradeAllowanceCharge")
    sub_element(_ram(el, "ChargeIndicator"), UDT, "Indicator", "true" if charge else "false")
    _cii_amount(el, "ActualAmount", amount)
    xmlwrite.sub_texts(el, ("ram:ReasonCode", "ram:Reason"), (code, reason))


def _cii_line(parent, line: Line) -> None:
    item = _ram(parent, "IncludedSupplyChainTradeLineItem")
    document = _ram(item, "AssociatedDocumentLineDocument")
    _ram(document, "LineID", line.id)
    if line.note:
        _ram(_ram(document, "IncludedNote"), "Content", line.note)
    _cii_product(_ram(item, "SpecifiedTradeProduct"), line)
    agreement = _ram(item, "SpecifiedLineTradeAgreement")
    if line.order_line:
        _ram(_ram(agreement, "BuyerOrderReferencedDocument"), "LineID", line.order_line)
    if line.gross_price is not None:
        gross = _ram(agreement, "GrossPriceProductTradePrice")
        _cii_amount(gross, "ChargeAmount", line.gross_price)
        if line.price_discount is not None:
            discount = _ram(gross, "AppliedTradeAllowanceCharge")
            sub_element(_ram(discount, "ChargeIndicator"), UDT, "Indicator", "false")
            _cii_amount(discount, "ActualAmount", line.price_discount)
    if line.net_price is not None:
        price = _ram(agreement, "NetPriceProductTradePrice")
        _cii_amount(price, "ChargeAmount", line.net_price)
        if line.base_quantity is not None:
            _ram(price, "BasisQuantity", number(line.base_quantity), {"unitCode": line.base_unit})
    delivery = _ram(item, "SpecifiedLineTradeDelivery")
    if line.quantity is not None:
        _ram(delivery, "BilledQuantity", number(line.quantity), {"unitCode": line.unit_code})
    settlement = _ram(item, "SpecifiedLineTradeSettlement")
    _cii_tax(settlement, line, basis=False)
    _cii_period(settlement, line.period_start, line.period_end)
    for charge, amount, code, reason in line_adjustments(line):
        _cii_line_adjustment(settlement, charge, amount, code, reason)
    summation = _ram(settlement, "SpecifiedTradeSettlementLineMonetarySummation")
    _cii_amount(summation, "LineTotalAmount", line.net_amount)
    if line.object_id is not None:
        _cii_reference(settlement, line.object_id[1], OBJECT, scheme=line.object_id[0])
    if line.accounting:
        _ram(_ram(settlement, "ReceivableSpecifiedTradeAccountingAccount"), "ID", line.accounting)


def _cii_product(product, line: Line) -> None:
    """BT-153 to BT-159 and BG-32, in the XSD's order."""
    if line.standard_id is not None:
        _ram(product, "GlobalID", line.standard_id[1], {"schemeID": line.standard_id[0]})
    xmlwrite.sub_texts(product, ("ram:SellerAssignedID", "ram:BuyerAssignedID"), (line.item_id, line.buyer_item_id))
    if line.name is not None:
        _ram(product, "Name", line.name)
    if line.description:
        _ram(product, "Description", line.description)
    for name, value in line.attributes:
        characteristic = _ram(product, "ApplicableProductCharacteristic")
        _ram(characteristic, "Description", name)
        _ram(characteristic, "Value", value)
    for scheme, code in line.classifications:
        _ram(_ram(product, "DesignatedProductClassification"), "ClassCode", code, {"listID": scheme})
    if line.origin_country:
        _ram(_ram(product, "OriginTradeCountry"), "ID", line.origin_country)


def _cii_period(parent, start: str | None, end: str | None) -> None:
    if start or end:
        period = _ram(parent, "BillingSpecifiedPeriod")
        if start:
            _cii_date(period, "StartDateTime", start)
        if end:
            _cii_date(period, "EndDateTime", end)


def _cii_reference(parent, reference: str, type_code: str | None, *, scheme: str | None = None, name: str | None = None,
                   uri: str | None = None) -> None:  # fmt: skip
    """A referenced document (BG-24, BT-17, BT-18, BT-128) in the XSD's order."""
    el = _ram(parent, "AdditionalReferencedDocument")
    _ram(el, "IssuerAssignedID", reference)
    xmlwrite.sub_texts(
        el, ("ram:URIID", "ram:TypeCode", "ram:Name", "ram:ReferenceTypeCode"), (uri, type_code, name, scheme)
    )


def _cii_payment(settlement, terms: Terms) -> None:
    if terms.payment_means is None:
        return
    means = _ram(settlement, "SpecifiedTradeSettlementPaymentMeans")
    _ram(means, "TypeCode", terms.payment_means)
    if terms.payment_means_text:
        _ram(means, "Information", terms.payment_means_text)
    if terms.card_number:
        card = _ram(means, "ApplicableTradeSettlementFinancialCard")
        xmlwrite.sub_texts(card, ("ram:ID", "ram:CardholderName"), (terms.card_number, terms.card_holder))
    if terms.debited_account:
        _ram(_ram(means, "PayerPartyDebtorFinancialAccount"), "IBANID", terms.debited_account)
    if terms.iban or terms.account_number:
        account = _ram(means, "PayeePartyCreditorFinancialAccount")
        xmlwrite.sub_texts(
            account,
            ("ram:IBANID", "ram:AccountName", "ram:ProprietaryID"),
            (terms.iban, terms.account_name, terms.account_number),
        )
        if terms.bic:
            _ram(_ram(means, "PayeeSpecifiedCreditorFinancialInstitution"), "BICID", terms.bic)


def _cii_agreement(transaction, terms: Terms) -> None:
    agreement = _ram(transaction, "ApplicableHeaderTradeAgreement")
    if terms.buyer_reference:
        _ram(agreement, "BuyerReference", terms.buyer_reference)
    _cii_party(agreement, "SellerTradeParty", terms.seller)
    _cii_party(agreement, "BuyerTradeParty", terms.buyer)
    if terms.tax_representative is not None:
        _cii_party(agreement, "SellerTaxRepresentativeTradeParty", terms.tax_representative)
    for tag, value in (
        ("SellerOrderReferencedDocument", terms.sales_order),
        ("BuyerOrderReferencedDocument", terms.order_reference),
        ("ContractReferencedDocument", terms.contract),
    ):
        if value:
            _ram(_ram(agreement, tag), "IssuerAssignedID", value)
    for document in terms.documents:
        _cii_reference(agreement, document.reference, SUPPORTING, name=document.description, uri=document.uri)
    if terms.tender:
        _cii_reference(agreement, terms.tender, TENDER)
    if terms.invoiced_object is not None:
        _cii_reference(agreement, terms.invoiced_object[1], OBJECT, scheme=terms.invoiced_object[0])
    if terms.project:
        project = _ram(agreement, "SpecifiedProcuringProject")
        _ram(project, "ID", terms.project)
        _ram(project, "Name", "Project reference")  # the XSD asks for a name, EN 16931 has none (BT-11 is the id)
    delivery = _ram(transaction, "ApplicableHeaderTradeDelivery")  # required by the XSD even when it holds nothing
    if terms.delivery is not None:
        ship_to = _ram(delivery, "ShipToTradeParty")
        for scheme, identifier in terms.delivery.identifiers:
            _cii_id(ship_to, (scheme, identifier))
        if terms.delivery.name:
            _ram(ship_to, "Name", terms.delivery.name)
        xmlwrite.write_address(ship_to, "ram:PostalTradeAddress", terms.delivery, "CII")
    if terms.delivery_date:
        _cii_date(_ram(delivery, "ActualDeliverySupplyChainEvent"), "OccurrenceDateTime", terms.delivery_date)
    for tag, value in (
        ("DespatchAdviceReferencedDocument", terms.despatch_advice),
        ("ReceivingAdviceReferencedDocument", terms.receiving_advice),
    ):
        if value:
            _ram(_ram(delivery, tag), "IssuerAssignedID", value)


def _cii_settlement(transaction, terms: Terms) -> None:
    settlement = _ram(transaction, "ApplicableHeaderTradeSettlement")
    xmlwrite.sub_texts(
        settlement,
        ("ram:CreditorReferenceID", "ram:PaymentReference", "ram:TaxCurrencyCode"),
        (terms.creditor_id, terms.remittance, terms.tax_currency),
    )
    if terms.currency is not None:
        _ram(settlement, "InvoiceCurrencyCode", terms.currency)
    if terms.payee is not None:
        _cii_party(settlement, "PayeeTradeParty", terms.payee)
    _cii_payment(settlement, terms)
    for i, tax in enumerate(terms.taxes):  # BT-7 / BT-8 once, in the first breakdown (CII-SR-461)
        _cii_tax(
            settlement, tax, basis=True, tax_point=(terms.tax_point_date, terms.tax_point_code) if i == 0 else None
        )
    _cii_period(settlement, terms.period_start, terms.period_end)
    for entry in terms.allowances:
        _cii_allowance(settlement, entry)
    if terms.payment_terms or terms.due_date or terms.mandate:
        payment = _ram(settlement, "SpecifiedTradePaymentTerms")
        if terms.payment_terms:
            _ram(payment, "Description", terms.payment_terms)
        if terms.due_date:
            _cii_date(payment, "DueDateDateTime", terms.due_date)
        if terms.mandate:
            _ram(payment, "DirectDebitMandateID", terms.mandate)
    summation = _ram(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation")
    _cii_amount(summation, "LineTotalAmount", terms.line_total)
    _cii_amount(summation, "ChargeTotalAmount", terms.charge_total)
    _cii_amount(summation, "AllowanceTotalAmount", terms.allowance_total)
    _cii_amount(summation, "TaxBasisTotalAmount", terms.tax_exclusive)
    _cii_amount(summation, "TaxTotalAmount", terms.tax_total, terms.currency)
    if terms.tax_currency and terms.tax_currency != terms.currency:  # BT-111, in the VAT accounting currency
        _cii_amount(summation, "TaxTotalAmount", terms.tax_total_accounting, terms.tax_currency)
    _cii_amount(summation, "RoundingAmount", terms.rounding)
    _cii_amount(summation, "GrandTotalAmount", terms.grand_total)
    _cii_amount(summation, "TotalPrepaidAmount", terms.prepaid)
    _cii_amount(summation, "DuePayableAmount", terms.due_payable)
    preceding = [(terms.preceding_number, terms.preceding_date)] if terms.preceding_number else []
    for number_, date in preceding + list(terms.more_preceding):
        reference = _ram(settlement, "InvoiceReferencedDocument")
        _ram(reference, "IssuerAssignedID", number_)
        if date:
            _cii_date(reference, "FormattedIssueDateTime", date, ns=QDT)
    if terms.buyer_accounting:
        _ram(_ram(settlement, "ReceivableSpecifiedTradeAccountingAccount"), "ID", terms.buyer_accounting)


def write_cii(terms: Terms, *, specification: str, process: str | None = None) -> bytes:
    """The Terms as a UN/CEFACT Cross Industry Invoice D16B (EN 16931 CII syntax), UTF-8 bytes.

    Args:
        terms: the Business Terms.
        specification: BT-24 (a CIUS's, e.g. XRechnung's ``...#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0``).
        process: BT-23 business process, None for none.
    """
    root = etree.Element(f"{{{RSM}}}CrossIndustryInvoice", nsmap={"rsm": RSM, "ram": RAM, "udt": UDT, "qdt": QDT})
    context = sub_element(root, RSM, "ExchangedDocumentContext")
    if process is not None:  # the XSD orders BT-23 before BT-24
        _ram(_ram(context, "BusinessProcessSpecifiedDocumentContextParameter"), "ID", process)
    _ram(_ram(context, "GuidelineSpecifiedDocumentContextParameter"), "ID", specification)
    document = sub_element(root, RSM, "ExchangedDocument")
    if terms.number is not None:
        _ram(document, "ID", terms.number)
    _ram(document, "TypeCode", terms.type_code)
    if terms.issue_date:
        _cii_date(document, "IssueDateTime", terms.issue_date)
    for subject, text in terms.invoice_notes:
        note = _ram(document, "IncludedNote")
        _ram(note, "Content", text)
        if subject:
            _ram(note, "SubjectCode", subject)
    transaction = sub_element(root, RSM, "SupplyChainTradeTransaction")
    for line in terms.lines:
        _cii_line(transaction, line)
    _cii_agreement(transaction, terms)
    _cii_settlement(transaction, terms)
    return serialize(root)
