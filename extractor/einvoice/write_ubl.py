"""Write Business Terms (``terms.Terms``) as an OASIS UBL 2.1 ``Invoice`` / ``CreditNote`` (EN 16931's UBL syntax),
in the UBL 2.1 schema's element order, with ``write``'s element helpers (``write`` writes the CII)."""

from __future__ import annotations

from decimal import Decimal

from lxml import etree

from extractor.einvoice import xmlwrite
from extractor.einvoice.bindings import NAMESPACES
from extractor.einvoice.codes import EMAIL_SCHEME
from extractor.einvoice.terms import AllowanceCharge, Document, Line, Party, Terms
from extractor.einvoice.xmlwrite import line_adjustments, number, rate_to_write, serialize, sub_element

UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CAC, CBC = NAMESPACES["cac"], NAMESPACES["cbc"]


def _cbc(parent, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    return sub_element(parent, CBC, name, text, attrs)


def _cac(parent, name: str):
    return sub_element(parent, CAC, name)


def _ubl_amount(parent, name: str, value: Decimal | None, currency: str | None) -> None:
    if value is not None:
        _cbc(parent, name, number(value), {"currencyID": currency})


def _ubl_category(
    parent,
    name: str,
    category: str | None,
    rate: Decimal | None,
    reason: str | None = None,
    code: str | None = None,
    *,
    breakdown: bool = False,
) -> None:
    el = _cac(parent, name)
    if category is not None:
        _cbc(el, "ID", category)
    rate = rate_to_write(category, rate, breakdown=breakdown)
    if rate is not None:
        _cbc(el, "Percent", number(rate))
    xmlwrite.sub_texts(el, ("cbc:TaxExemptionReasonCode", "cbc:TaxExemptionReason"), (code, reason))
    _cbc(_cac(el, "TaxScheme"), "ID", "VAT")


def _ubl_party(parent, name: str, party: Party, *, email_endpoints: bool, creditor_id: str | None = None) -> None:
    el = _cac(_cac(parent, name), "Party")
    if party.electronic_address is not None and (email_endpoints or party.electronic_address[0] != EMAIL_SCHEME):
        scheme, address_id = party.electronic_address
        _cbc(el, "EndpointID", address_id, {"schemeID": scheme})
    for scheme, identifier in (*party.identifiers, *((("SEPA", creditor_id),) if creditor_id else ())):
        _cbc(_cac(el, "PartyIdentification"), "ID", identifier, {"schemeID": scheme or None})
    if party.trading_name:
        _cbc(_cac(el, "PartyName"), "Name", party.trading_name)
    xmlwrite.write_address(el, "cac:PostalAddress", party, "UBL")
    for value, scheme in ((party.vat_id, "VAT"), (party.tax_registration, "FC")):
        if value:
            tax_scheme = _cac(el, "PartyTaxScheme")
            _cbc(tax_scheme, "CompanyID", value)
            _cbc(_cac(tax_scheme, "TaxScheme"), "ID", scheme)
    legal = _cac(el, "PartyLegalEntity")
    if party.name is not None:
        _cbc(legal, "RegistrationName", party.name)
    xmlwrite.sub_texts(legal, ("cbc:CompanyID", "cbc:CompanyLegalForm"), (party.legal_id, party.legal_info))
    xmlwrite.write_contact(el, party.contact, "UBL")


def _ubl_allowance(parent, entry: AllowanceCharge, currency: str | None) -> None:
    el = _cac(parent, "AllowanceCharge")
    _cbc(el, "ChargeIndicator", "true" if entry.charge else "false")
    xmlwrite.sub_texts(el, ("cbc:AllowanceChargeReasonCode", "cbc:AllowanceChargeReason"), (entry.code, entry.reason))
    if entry.percentage is not None:
        _cbc(el, "MultiplierFactorNumeric", number(entry.percentage))
    _ubl_amount(el, "Amount", entry.amount, currency)
    _ubl_amount(el, "BaseAmount", entry.base, currency)
    _ubl_category(el, "TaxCategory", entry.category, entry.rate)


def _ubl_line_adjustment(
    parent, charge: bool, amount: Decimal, code: str | None, reason: str | None, currency: str | None
) -> None:
    el = _cac(parent, "AllowanceCharge")
    _cbc(el, "ChargeIndicator", "true" if charge else "false")
    xmlwrite.sub_texts(el, ("cbc:AllowanceChargeReasonCode", "cbc:AllowanceChargeReason"), (code, reason))
    _ubl_amount(el, "Amount", amount, currency)


def _ubl_period(parent, start: str | None, end: str | None, code: str | None = None) -> None:
    if start or end or code:
        period = _cac(parent, "InvoicePeriod")
        xmlwrite.sub_texts(period, ("cbc:StartDate", "cbc:EndDate", "cbc:DescriptionCode"), (start, end, code))


def _ubl_document(root, reference: str, *, type_code: str | None = None, scheme: str | None = None,
                  document: Document | None = None) -> None:  # fmt: skip
    el = _cac(root, "AdditionalDocumentReference")
    _cbc(el, "ID", reference, {"schemeID": scheme})
    if type_code:
        _cbc(el, "DocumentTypeCode", type_code)
    if document is not None and document.description:
        _cbc(el, "DocumentDescription", document.description)
    if document is not None and document.uri:
        _cbc(_cac(_cac(el, "Attachment"), "ExternalReference"), "URI", document.uri)


def _ubl_references(root, terms: Terms, *, credit: bool) -> None:
    """BT-19, BT-10, BG-14 (and BT-8), BT-13 / 14, BG-3, BT-16, 15, 17, 12, BG-24, BT-18 and BT-11, in the UBL
    schema's order."""
    xmlwrite.sub_texts(
        root, ("cbc:AccountingCost", "cbc:BuyerReference"), (terms.buyer_accounting, terms.buyer_reference)
    )
    _ubl_period(root, terms.period_start, terms.period_end, terms.tax_point_code)
    if terms.order_reference or terms.sales_order:
        order = _cac(root, "OrderReference")
        _cbc(order, "ID", terms.order_reference or "NA")  # UBL needs an order id beside a sales order (Peppol: NA)
        if terms.sales_order:
            _cbc(order, "SalesOrderID", terms.sales_order)
    preceding = [(terms.preceding_number, terms.preceding_date)] if terms.preceding_number else []
    for number_, date in preceding + list(terms.more_preceding):
        reference = _cac(_cac(root, "BillingReference"), "InvoiceDocumentReference")
        _cbc(reference, "ID", number_)
        if date:
            _cbc(reference, "IssueDate", date)
    for tag, value in (
        ("DespatchDocumentReference", terms.despatch_advice),
        ("ReceiptDocumentReference", terms.receiving_advice),
        ("OriginatorDocumentReference", terms.tender),
        ("ContractDocumentReference", terms.contract),
    ):
        if value and not (credit and tag == "OriginatorDocumentReference"):
            _cbc(_cac(root, tag), "ID", value)
    for document in terms.documents:
        _ubl_document(root, document.reference, document=document)
    if terms.invoiced_object is not None:
        _ubl_document(root, terms.invoiced_object[1], type_code="130", scheme=terms.invoiced_object[0])
    if terms.project and credit:  # a CreditNote has no ProjectReference: EN 16931's UBL binding says so
        _ubl_document(root, terms.project, type_code="50")
    elif terms.project:
        _cbc(_cac(root, "ProjectReference"), "ID", terms.project)


def _ubl_parties(root, terms: Terms, *, email_endpoints: bool) -> None:
    """BG-4, BG-7, BG-10, BG-11 and BG-13, in the UBL schema's order (BT-90 as the payee's or the seller's SEPA id)."""
    payee = terms.payee
    _ubl_party(root, "AccountingSupplierParty", terms.seller, email_endpoints=email_endpoints,
               creditor_id=terms.creditor_id if payee is None else None)  # fmt: skip
    _ubl_party(root, "AccountingCustomerParty", terms.buyer, email_endpoints=email_endpoints)
    if payee is not None:
        el = _cac(root, "PayeeParty")
        for scheme, identifier in (*payee.identifiers, *((("SEPA", terms.creditor_id),) if terms.creditor_id else ())):
            _cbc(_cac(el, "PartyIdentification"), "ID", identifier, {"schemeID": scheme or None})
        xmlwrite.sub_texts(
            el, ("cac:PartyName/cbc:Name", "cac:PartyLegalEntity/cbc:CompanyID"), (payee.name, payee.legal_id)
        )
    representative = terms.tax_representative
    if representative is not None:
        el = _cac(root, "TaxRepresentativeParty")
        if representative.name:
            _cbc(_cac(el, "PartyName"), "Name", representative.name)
        xmlwrite.write_address(el, "cac:PostalAddress", representative, "UBL")
        if representative.vat_id:
            scheme = _cac(el, "PartyTaxScheme")
            _cbc(scheme, "CompanyID", representative.vat_id)
            _cbc(_cac(scheme, "TaxScheme"), "ID", "VAT")
    if terms.delivery_date or terms.delivery is not None:
        delivery = _cac(root, "Delivery")
        if terms.delivery_date:
            _cbc(delivery, "ActualDeliveryDate", terms.delivery_date)
        ship_to = terms.delivery
        if ship_to is not None and (ship_to.identifiers or ship_to.country or ship_to.city or ship_to.street):
            location = _cac(delivery, "DeliveryLocation")
            for scheme, identifier in ship_to.identifiers[:1]:
                _cbc(location, "ID", identifier, {"schemeID": scheme or None})
            xmlwrite.write_address(location, "cac:Address", ship_to, "UBL")
        if ship_to is not None and ship_to.name:
            _cbc(_cac(_cac(delivery, "DeliveryParty"), "PartyName"), "Name", ship_to.name)


def _ubl_payment(root, terms: Terms, *, credit: bool) -> None:
    if terms.payment_means is None:
        return
    means = _cac(root, "PaymentMeans")
    _cbc(means, "PaymentMeansCode", terms.payment_means, {"name": terms.payment_means_text})
    if terms.due_date and credit:
        _cbc(means, "PaymentDueDate", terms.due_date)
    if terms.remittance:
        _cbc(means, "PaymentID", terms.remittance)
    if terms.card_number:  # UBL asks for the card network, EN 16931 has none (Peppol writes NA)
        card = _cac(means, "CardAccount")
        paths = ("cbc:PrimaryAccountNumberID", "cbc:NetworkID", "cbc:HolderName")
        xmlwrite.sub_texts(card, paths, (terms.card_number, "NA", terms.card_holder))
    if terms.iban or terms.account_number:
        account = _cac(means, "PayeeFinancialAccount")
        _cbc(account, "ID", terms.iban or terms.account_number)
        xmlwrite.sub_texts(
            account, ("cbc:Name", "cac:FinancialInstitutionBranch/cbc:ID"), (terms.account_name, terms.bic)
        )
    if terms.mandate or terms.debited_account:
        mandate = _cac(means, "PaymentMandate")
        xmlwrite.sub_texts(
            mandate, ("cbc:ID", "cac:PayerFinancialAccount/cbc:ID"), (terms.mandate, terms.debited_account)
        )


def _ubl_line(root, line: Line, *, credit: bool, currency: str | None) -> None:
    el = _cac(root, "CreditNoteLine" if credit else "InvoiceLine")
    _cbc(el, "ID", line.id)
    if line.note:
        _cbc(el, "Note", line.note)
    if line.quantity is not None:
        tag = "CreditedQuantity" if credit else "InvoicedQuantity"
        _cbc(el, tag, number(line.quantity), {"unitCode": line.unit_code})
    _ubl_amount(el, "LineExtensionAmount", line.net_amount, currency)
    if line.accounting:
        _cbc(el, "AccountingCost", line.accounting)
    _ubl_period(el, line.period_start, line.period_end)
    if line.order_line:
        _cbc(_cac(el, "OrderLineReference"), "LineID", line.order_line)
    if line.object_id is not None:
        reference = _cac(el, "DocumentReference")
        _cbc(reference, "ID", line.object_id[1], {"schemeID": line.object_id[0]})
        _cbc(reference, "DocumentTypeCode", "130")
    for charge, amount, code, reason in line_adjustments(line):
        _ubl_line_adjustment(el, charge, amount, code, reason, currency)
    _ubl_item(_cac(el, "Item"), line)
    if line.net_price is not None:
        price = _cac(el, "Price")
        _ubl_amount(price, "PriceAmount", line.net_price, currency)
        if line.base_quantity is not None:
            _cbc(price, "BaseQuantity", number(line.base_quantity), {"unitCode": line.base_unit})
        if line.gross_price is not None:
            discount = _cac(price, "AllowanceCharge")
            _cbc(discount, "ChargeIndicator", "false")
            _ubl_amount(discount, "Amount", line.price_discount or Decimal(0), currency)
            _ubl_amount(discount, "BaseAmount", line.gross_price, currency)


def _ubl_item(item, line: Line) -> None:
    """BT-153 to BT-159, the line's VAT category and BG-32, in the UBL schema's order."""
    if line.description:
        _cbc(item, "Description", line.description)
    if line.name is not None:
        _cbc(item, "Name", line.name)
    xmlwrite.sub_texts(
        item,
        ("cac:BuyersItemIdentification/cbc:ID", "cac:SellersItemIdentification/cbc:ID"),
        (line.buyer_item_id, line.item_id),
    )
    if line.standard_id is not None:
        _cbc(_cac(item, "StandardItemIdentification"), "ID", line.standard_id[1], {"schemeID": line.standard_id[0]})
    if line.origin_country:
        _cbc(_cac(item, "OriginCountry"), "IdentificationCode", line.origin_country)
    for scheme, code in line.classifications:
        _cbc(_cac(item, "CommodityClassification"), "ItemClassificationCode", code, {"listID": scheme})
    _ubl_category(item, "ClassifiedTaxCategory", line.category, line.rate)
    for name, value in line.attributes:
        attribute = _cac(item, "AdditionalItemProperty")
        _cbc(attribute, "Name", name)
        _cbc(attribute, "Value", value)


def write_ubl(terms: Terms, *, specification: str, process: str | None = None, email_endpoints: bool = True) -> bytes:
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
    if credit and terms.tax_point_date:  # a CreditNote's TaxPointDate comes before its type code
        _cbc(root, "TaxPointDate", terms.tax_point_date)
    _cbc(root, "CreditNoteTypeCode" if credit else "InvoiceTypeCode", terms.type_code)
    for subject, text in terms.invoice_notes:  # the subject code as XRechnung / Peppol write it: #AAI#text
        _cbc(root, "Note", f"#{subject}#{text}" if subject else text)
    if not credit and terms.tax_point_date:
        _cbc(root, "TaxPointDate", terms.tax_point_date)
    if currency is not None:
        _cbc(root, "DocumentCurrencyCode", currency)
    if terms.tax_currency:
        _cbc(root, "TaxCurrencyCode", terms.tax_currency)
    _ubl_references(root, terms, credit=credit)
    _ubl_parties(root, terms, email_endpoints=email_endpoints)
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
        _ubl_category(subtotal, "TaxCategory", tax.category, tax.rate, tax.exemption_reason, tax.exemption_code,
                      breakdown=True)  # fmt: skip
    if terms.tax_currency and terms.tax_currency != currency and terms.tax_total_accounting is not None:
        _ubl_amount(_cac(root, "TaxTotal"), "TaxAmount", terms.tax_total_accounting, terms.tax_currency)  # BT-111
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
    return serialize(root)
