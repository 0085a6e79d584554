"""EN 16931 Business Terms and where each sits in CII D16B and in UBL 2.1: the CEN syntax bindings (EN 16931-3-2
for UBL, 3-3 for CII) as one table (``BINDINGS``; one concept: most of this module is the table's data).

The table serves two readers: ``read_en16931`` reads the terms the ``invoice`` reading does not with it, and names
in the record's notes each term a source gives that ``invoice-en16931`` does not hold (``held`` None); the
term-by-term test (tests/test_einvoice_lossless.py) and ``bench/einvoice_corpus.py`` compare every term a source
gives with the same term in our CII and UBL. The values a document gives for each term, read through the table and
normalised, are ``term_values``'s.

Each binding is an XPath 1.0 relative to its scope's node (``SCOPES``: the document, a line, a VAT breakdown, a
document allowance or charge, a note, a preceding invoice, a supporting document).
"""

from __future__ import annotations

from dataclasses import dataclass

NAMESPACES = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
    "qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
}
_TX = "rsm:SupplyChainTradeTransaction"
_AG = f"{_TX}/ram:ApplicableHeaderTradeAgreement"
_DL = f"{_TX}/ram:ApplicableHeaderTradeDelivery"
_ST = f"{_TX}/ram:ApplicableHeaderTradeSettlement"
_SUM = f"{_ST}/ram:SpecifiedTradeSettlementHeaderMonetarySummation"
_PM = f"{_ST}/ram:SpecifiedTradeSettlementPaymentMeans"
_SELLER, _BUYER = "cac:AccountingSupplierParty/cac:Party", "cac:AccountingCustomerParty/cac:Party"

# scope -> (its nodes in CII, in UBL), relative to the root; "doc" is the root itself
SCOPES = {
    "doc": (".", "."),
    "note": ("rsm:ExchangedDocument/ram:IncludedNote", "cbc:Note"),
    "preceding": (f"{_ST}/ram:InvoiceReferencedDocument", "cac:BillingReference/cac:InvoiceDocumentReference"),
    "document": (
        f"{_AG}/ram:AdditionalReferencedDocument[ram:TypeCode='916']",
        "cac:AdditionalDocumentReference[not(cbc:DocumentTypeCode='130') and not(cbc:DocumentTypeCode='50')]",
    ),
    "allowance": (
        f"{_ST}/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='false']",
        "cac:AllowanceCharge[cbc:ChargeIndicator='false']",
    ),
    "charge": (
        f"{_ST}/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='true']",
        "cac:AllowanceCharge[cbc:ChargeIndicator='true']",
    ),
    "tax": (f"{_ST}/ram:ApplicableTradeTax", "cac:TaxTotal/cac:TaxSubtotal"),
    "line": (f"{_TX}/ram:IncludedSupplyChainTradeLineItem", "cac:InvoiceLine|cac:CreditNoteLine"),
}


@dataclass(frozen=True)
class Binding:
    """One Business Term: its id and name, its scope, its CII and UBL XPaths (None: the syntax has none), how its
    values are compared (``kind``), and where ``invoice-en16931`` holds it (a JSON path in the scope's object,
    None: not held, so a source that gives it is told so in the record's notes)."""

    term: str
    name: str
    scope: str
    cii: str | None
    ubl: str | None
    kind: str = "text"  # text | decimal | date | account | schemed | listed | tax_point | note_subject | note_text
    held: str | None = None


# a postal address's seven terms: (name, CII XPath, UBL XPath, invoice-en16931 key), each XPath relative to the
# address; the readers (``read``) and the citations (``xpaths``) take their element names from here
ADDRESS_PARTS = (
    ("street", "ram:LineOne", "cbc:StreetName", "street"),
    ("additional line", "ram:LineTwo", "cbc:AdditionalStreetName", "additional_street"),
    ("address line 3", "ram:LineThree", "cac:AddressLine/cbc:Line", "address_line_3"),
    ("city", "ram:CityName", "cbc:CityName", "city"),
    ("post code", "ram:PostcodeCode", "cbc:PostalZone", "postal_code"),
    ("country subdivision", "ram:CountrySubDivisionName", "cbc:CountrySubentity", "subdivision"),
    ("country code", "ram:CountryID", "cac:Country/cbc:IdentificationCode", "country"),
)
_ADDRESS = {key: {"CII": cii, "UBL": ubl} for _, cii, ubl, key in ADDRESS_PARTS}


def address_steps(key: str, syntax: str) -> tuple[str, ...]:
    """An address part's element steps by local name in a syntax: ``address_steps("country", "UBL")`` is
    ``("Country", "IdentificationCode")`` (``key``: an ``ADDRESS_PARTS`` key; ``syntax``: ``CII`` or ``UBL``)."""
    return tuple(step.split(":", 1)[1] for step in _ADDRESS[key][syntax].split("/"))


def _address(term_ids: tuple[str, ...], scope: str, cii: str, ubl: str, held: str, who: str) -> list[Binding]:
    """A postal address's seven terms (street, line 2, line 3, city, postcode, subdivision, country)."""
    return [
        Binding(term, f"{who} {name}", scope, f"{cii}/{c}", f"{ubl}/{u}", held=f"{held}.address.{key}")
        for term, (name, c, u, key) in zip(term_ids, ADDRESS_PARTS, strict=True)
    ]


def _party(ids: dict[str, str], who: str, cii: str, ubl: str, held: str) -> list[Binding]:
    """A seller's or buyer's terms (ids: role -> term id)."""
    return [
        Binding(
            ids["name"],
            f"{who} name",
            "doc",
            f"{cii}/ram:Name",
            f"{ubl}/cac:PartyLegalEntity/cbc:RegistrationName",
            held=f"{held}.name",
        ),
        Binding(
            ids["trading"],
            f"{who} trading name",
            "doc",
            f"{cii}/ram:SpecifiedLegalOrganization/ram:TradingBusinessName",
            f"{ubl}/cac:PartyName/cbc:Name",
            held=f"{held}.trading_name",
        ),
        Binding(
            ids["id"],
            f"{who} identifier",
            "doc",
            f"{cii}/ram:ID|{cii}/ram:GlobalID",
            f"{ubl}/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]",
            "schemed",
            held=f"{held}.gln|{held}.lei",
        ),
        Binding(
            ids["legal"],
            f"{who} legal registration identifier",
            "doc",
            f"{cii}/ram:SpecifiedLegalOrganization/ram:ID",
            f"{ubl}/cac:PartyLegalEntity/cbc:CompanyID",
            held=f"{held}.legal_id",
        ),
        Binding(
            ids["vat"],
            f"{who} VAT identifier",
            "doc",
            f"{cii}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']",
            f"{ubl}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID",
            held=f"{held}.vat_id",
        ),
        Binding(
            ids["endpoint"],
            f"{who} electronic address",
            "doc",
            f"{cii}/ram:URIUniversalCommunication/ram:URIID",
            f"{ubl}/cbc:EndpointID",
            "schemed",
            held=f"{held}.electronic_address",
        ),
        Binding(
            ids["contact"],
            f"{who} contact point",
            "doc",
            f"{cii}/ram:DefinedTradeContact/ram:PersonName|{cii}/ram:DefinedTradeContact/ram:DepartmentName",
            f"{ubl}/cac:Contact/cbc:Name",
            held=f"{held}.contact.name",
        ),
        Binding(
            ids["phone"],
            f"{who} contact telephone",
            "doc",
            f"{cii}/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber",
            f"{ubl}/cac:Contact/cbc:Telephone",
            held=f"{held}.contact.phone",
        ),
        Binding(
            ids["email"],
            f"{who} contact e-mail",
            "doc",
            f"{cii}/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID",
            f"{ubl}/cac:Contact/cbc:ElectronicMail",
            held=f"{held}.contact.email",
        ),
    ]


def _adjustment(terms: tuple[str, ...], who: str, scope: str, cii: str, ubl: str, held: str) -> list[Binding]:
    """An allowance's or charge's amount, base, percentage, VAT category and rate (document level only), reason and
    reason code. ``held``: the object key prefix (``allowances_charges.``), or a line's field (``line_items.allowance``
    / ``.charge``), whose reason and code are fields of the line and whose base and percentage the schema lacks."""
    amount, base, percent, *rest = terms
    line = held.startswith("line_items.")
    reason, code = rest[-2:]
    at = (lambda key: None) if line else (lambda key: f"{held}{key}")  # noqa: E731
    out = [
        Binding(
            amount,
            f"{who} amount",
            scope,
            f"{cii}ram:ActualAmount",
            f"{ubl}cbc:Amount",
            "decimal",
            held=held if line else f"{held}amount",
        ),
        Binding(
            base,
            f"{who} base amount",
            scope,
            f"{cii}ram:BasisAmount",
            f"{ubl}cbc:BaseAmount",
            "decimal",
            held=at("base_amount"),
        ),
        Binding(
            percent,
            f"{who} percentage",
            scope,
            f"{cii}ram:CalculationPercent",
            f"{ubl}cbc:MultiplierFactorNumeric",
            "decimal",
            held=at("percentage"),
        ),
        Binding(
            reason,
            f"{who} reason",
            scope,
            f"{cii}ram:Reason",
            f"{ubl}cbc:AllowanceChargeReason",
            held=f"line_items.details.{held[11:]}_reason" if line else f"{held}reason",
        ),
        Binding(
            code,
            f"{who} reason code",
            scope,
            f"{cii}ram:ReasonCode",
            f"{ubl}cbc:AllowanceChargeReasonCode",
            held=f"line_items.details.{held[11:]}_reason_code" if line else f"{held}reason_code",
        ),
    ]
    if not line:  # a document allowance / charge: its VAT category and rate
        category, rate = rest[:2]
        out += [
            Binding(
                category,
                f"{who} VAT category code",
                scope,
                f"{cii}ram:CategoryTradeTax/ram:CategoryCode",
                f"{ubl}cac:TaxCategory/cbc:ID",
                held=f"{held}vat_category",
            ),
            Binding(
                rate,
                f"{who} VAT rate",
                scope,
                f"{cii}ram:CategoryTradeTax/ram:RateApplicablePercent",
                f"{ubl}cac:TaxCategory/cbc:Percent",
                "decimal",
                held=f"{held}tax_rate",
            ),
        ]
    return out


def _table() -> tuple[Binding, ...]:
    b = Binding
    seller_cii, buyer_cii = f"{_AG}/ram:SellerTradeParty", f"{_AG}/ram:BuyerTradeParty"
    payee_cii, rep_cii, ship_cii = (
        f"{_ST}/ram:PayeeTradeParty",
        f"{_AG}/ram:SellerTaxRepresentativeTradeParty",
        (f"{_DL}/ram:ShipToTradeParty"),
    )
    line_allowance_cii = "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge"
    doc = [
        b("BT-1", "Invoice number", "doc", "rsm:ExchangedDocument/ram:ID", "cbc:ID", held="invoice_number"),
        b(
            "BT-2",
            "Invoice issue date",
            "doc",
            "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString",
            "cbc:IssueDate",
            "date",
            held="issue_date",
        ),
        b(
            "BT-3",
            "Invoice type code",
            "doc",
            "rsm:ExchangedDocument/ram:TypeCode",
            "cbc:InvoiceTypeCode|cbc:CreditNoteTypeCode",
            held="document_type",
        ),
        b(
            "BT-23",
            "Business process type",
            "doc",
            "rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID",
            "cbc:ProfileID",
        ),
        b(
            "BT-5",
            "Invoice currency code",
            "doc",
            f"{_ST}/ram:InvoiceCurrencyCode",
            "cbc:DocumentCurrencyCode",
            held="currency",
        ),
        b(
            "BT-6",
            "VAT accounting currency code",
            "doc",
            f"{_ST}/ram:TaxCurrencyCode",
            "cbc:TaxCurrencyCode",
            held="further_terms.tax_currency",
        ),
        b(
            "BT-7",
            "Value added tax point date",
            "doc",
            f"{_ST}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString",
            "cbc:TaxPointDate",
            "date",
            held="further_terms.tax_point_date",
        ),
        b(
            "BT-8",
            "Value added tax point date code",
            "doc",
            f"{_ST}/ram:ApplicableTradeTax/ram:DueDateTypeCode",
            "cac:InvoicePeriod/cbc:DescriptionCode",
            "tax_point",
            held="further_terms.tax_point_code",
        ),
        b(
            "BT-9",
            "Payment due date",
            "doc",
            f"{_ST}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString",
            "cbc:DueDate|cac:PaymentMeans/cbc:PaymentDueDate",
            "date",
            held="due_date",
        ),
        b("BT-10", "Buyer reference", "doc", f"{_AG}/ram:BuyerReference", "cbc:BuyerReference", held="buyer_reference"),
        b(
            "BT-11",
            "Project reference",
            "doc",
            f"{_AG}/ram:SpecifiedProcuringProject/ram:ID",
            "cac:ProjectReference/cbc:ID|cac:AdditionalDocumentReference[cbc:DocumentTypeCode='50']/cbc:ID",
            held="further_terms.references.project",
        ),
        b(
            "BT-12",
            "Contract reference",
            "doc",
            f"{_AG}/ram:ContractReferencedDocument/ram:IssuerAssignedID",
            "cac:ContractDocumentReference/cbc:ID",
            held="further_terms.references.contract",
        ),
        b(
            "BT-13",
            "Purchase order reference",
            "doc",
            f"{_AG}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID",
            "cac:OrderReference/cbc:ID",
            held="order_reference",
        ),
        b(
            "BT-14",
            "Sales order reference",
            "doc",
            f"{_AG}/ram:SellerOrderReferencedDocument/ram:IssuerAssignedID",
            "cac:OrderReference/cbc:SalesOrderID",
            held="further_terms.references.sales_order",
        ),
        b(
            "BT-15",
            "Receiving advice reference",
            "doc",
            f"{_DL}/ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID",
            "cac:ReceiptDocumentReference/cbc:ID",
            held="further_terms.references.receiving_advice",
        ),
        b(
            "BT-16",
            "Despatch advice reference",
            "doc",
            f"{_DL}/ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID",
            "cac:DespatchDocumentReference/cbc:ID",
            held="further_terms.references.despatch_advice",
        ),
        b(
            "BT-17",
            "Tender or lot reference",
            "doc",
            f"{_AG}/ram:AdditionalReferencedDocument[ram:TypeCode='50']/ram:IssuerAssignedID",
            "cac:OriginatorDocumentReference/cbc:ID",
            held="further_terms.references.tender_or_lot",
        ),
        b(
            "BT-18",
            "Invoiced object identifier",
            "doc",
            f"{_AG}/ram:AdditionalReferencedDocument[ram:TypeCode='130']",
            "cac:AdditionalDocumentReference[cbc:DocumentTypeCode='130']/cbc:ID",
            "schemed",
            held="further_terms.references.invoiced_object",
        ),
        b(
            "BT-19",
            "Buyer accounting reference",
            "doc",
            f"{_ST}/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID",
            "cbc:AccountingCost",
            held="further_terms.references.buyer_accounting",
        ),
        b(
            "BT-20",
            "Payment terms",
            "doc",
            f"{_ST}/ram:SpecifiedTradePaymentTerms/ram:Description",
            "cac:PaymentTerms/cbc:Note",
            held="payment_terms",
        ),
        *_party(
            dict(
                name="BT-27",
                trading="BT-28",
                id="BT-29",
                legal="BT-30",
                vat="BT-31",
                endpoint="BT-34",
                contact="BT-41",
                phone="BT-42",
                email="BT-43",
            ),
            "Seller",
            seller_cii,
            _SELLER,
            "seller",
        ),
        b(
            "BT-32",
            "Seller tax registration identifier",
            "doc",
            f"{seller_cii}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='FC']",
            f"{_SELLER}/cac:PartyTaxScheme[not(cac:TaxScheme/cbc:ID='VAT')]/cbc:CompanyID",
            held="seller.tax_number",
        ),
        b(
            "BT-33",
            "Seller additional legal information",
            "doc",
            f"{seller_cii}/ram:Description",
            f"{_SELLER}/cac:PartyLegalEntity/cbc:CompanyLegalForm",
            held="seller.legal_info",
        ),
        *_address(
            ("BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"),
            "doc",
            f"{seller_cii}/ram:PostalTradeAddress",
            f"{_SELLER}/cac:PostalAddress",
            "seller",
            "Seller",
        ),
        *_party(
            dict(
                name="BT-44",
                trading="BT-45",
                id="BT-46",
                legal="BT-47",
                vat="BT-48",
                endpoint="BT-49",
                contact="BT-56",
                phone="BT-57",
                email="BT-58",
            ),
            "Buyer",
            buyer_cii,
            _BUYER,
            "buyer",
        ),
        *_address(
            ("BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"),
            "doc",
            f"{buyer_cii}/ram:PostalTradeAddress",
            f"{_BUYER}/cac:PostalAddress",
            "buyer",
            "Buyer",
        ),
        b(
            "BT-59",
            "Payee name",
            "doc",
            f"{payee_cii}/ram:Name",
            "cac:PayeeParty/cac:PartyName/cbc:Name",
            held="further_terms.payee.name",
        ),
        b(
            "BT-60",
            "Payee identifier",
            "doc",
            f"{payee_cii}/ram:ID|{payee_cii}/ram:GlobalID",
            "cac:PayeeParty/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]",
            "schemed",
            held="further_terms.payee.identifier",
        ),
        b(
            "BT-61",
            "Payee legal registration identifier",
            "doc",
            f"{payee_cii}/ram:SpecifiedLegalOrganization/ram:ID",
            "cac:PayeeParty/cac:PartyLegalEntity/cbc:CompanyID",
            held="further_terms.payee.legal_id",
        ),
        b(
            "BT-62",
            "Seller tax representative name",
            "doc",
            f"{rep_cii}/ram:Name",
            "cac:TaxRepresentativeParty/cac:PartyName/cbc:Name",
            held="further_terms.tax_representative.name",
        ),
        b(
            "BT-63",
            "Seller tax representative VAT identifier",
            "doc",
            f"{rep_cii}/ram:SpecifiedTaxRegistration/ram:ID",
            "cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID",
            held="further_terms.tax_representative.vat_id",
        ),
        *_address(
            ("BT-64", "BT-65", "BT-164", "BT-66", "BT-67", "BT-68", "BT-69"),
            "doc",
            f"{rep_cii}/ram:PostalTradeAddress",
            "cac:TaxRepresentativeParty/cac:PostalAddress",
            "further_terms.tax_representative",
            "Tax representative",
        ),
        b(
            "BT-70",
            "Deliver to party name",
            "doc",
            f"{ship_cii}/ram:Name",
            "cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name",
            held="further_terms.delivery.name",
        ),
        b(
            "BT-71",
            "Deliver to location identifier",
            "doc",
            f"{ship_cii}/ram:ID|{ship_cii}/ram:GlobalID",
            "cac:Delivery/cac:DeliveryLocation/cbc:ID",
            "schemed",
            held="further_terms.delivery.location_id",
        ),
        b(
            "BT-72",
            "Actual delivery date",
            "doc",
            f"{_DL}/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString",
            "cac:Delivery/cbc:ActualDeliveryDate",
            "date",
            held="delivery_date",
        ),
        b(
            "BT-73",
            "Invoicing period start date",
            "doc",
            f"{_ST}/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString",
            "cac:InvoicePeriod/cbc:StartDate",
            "date",
            held="invoicing_period.start",
        ),
        b(
            "BT-74",
            "Invoicing period end date",
            "doc",
            f"{_ST}/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString",
            "cac:InvoicePeriod/cbc:EndDate",
            "date",
            held="invoicing_period.end",
        ),
        *_address(
            ("BT-75", "BT-76", "BT-165", "BT-77", "BT-78", "BT-79", "BT-80"),
            "doc",
            f"{ship_cii}/ram:PostalTradeAddress",
            "cac:Delivery/cac:DeliveryLocation/cac:Address",
            "further_terms.delivery",
            "Deliver to",
        ),
        b(
            "BT-81",
            "Payment means type code",
            "doc",
            f"{_PM}/ram:TypeCode",
            "cac:PaymentMeans/cbc:PaymentMeansCode",
            held="payment_means|further_terms.payment_means_code",
        ),
        b(
            "BT-82",
            "Payment means text",
            "doc",
            f"{_PM}/ram:Information",
            "cac:PaymentMeans/cbc:PaymentMeansCode/@name",
            held="further_terms.payment_means_text",
        ),
        b(
            "BT-83",
            "Remittance information",
            "doc",
            f"{_ST}/ram:PaymentReference",
            "cac:PaymentMeans/cbc:PaymentID",
            held="further_terms.remittance_information",
        ),
        b(
            "BT-84",
            "Payment account identifier",
            "doc",
            f"{_PM}/ram:PayeePartyCreditorFinancialAccount/ram:IBANID|"
            f"{_PM}/ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID",
            "cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID",
            "account",
            held="bank_account.iban|bank_account.account_number",
        ),
        b(
            "BT-85",
            "Payment account name",
            "doc",
            f"{_PM}/ram:PayeePartyCreditorFinancialAccount/ram:AccountName",
            "cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:Name",
            held="bank_account.account_holder",
        ),
        b(
            "BT-86",
            "Payment service provider identifier",
            "doc",
            f"{_PM}/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID",
            "cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID",
            held="bank_account.bic",
        ),
        b(
            "BT-87",
            "Payment card primary account number",
            "doc",
            f"{_PM}/ram:ApplicableTradeSettlementFinancialCard/ram:ID",
            "cac:PaymentMeans/cac:CardAccount/cbc:PrimaryAccountNumberID",
            held="further_terms.payment_card.number",
        ),
        b(
            "BT-88",
            "Payment card holder name",
            "doc",
            f"{_PM}/ram:ApplicableTradeSettlementFinancialCard/ram:CardholderName",
            "cac:PaymentMeans/cac:CardAccount/cbc:HolderName",
            held="further_terms.payment_card.holder",
        ),
        b(
            "BT-89",
            "Mandate reference identifier",
            "doc",
            f"{_ST}/ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID",
            "cac:PaymentMeans/cac:PaymentMandate/cbc:ID",
            held="further_terms.direct_debit.mandate",
        ),
        b(
            "BT-90",
            "Bank assigned creditor identifier",
            "doc",
            f"{_ST}/ram:CreditorReferenceID",
            f"{_SELLER}/cac:PartyIdentification/cbc:ID[@schemeID='SEPA']|"
            "cac:PayeeParty/cac:PartyIdentification/cbc:ID[@schemeID='SEPA']",
            held="further_terms.direct_debit.creditor_id",
        ),
        b(
            "BT-91",
            "Debited account identifier",
            "doc",
            f"{_PM}/ram:PayerPartyDebtorFinancialAccount/ram:IBANID",
            "cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID",
            "account",
            held="further_terms.direct_debit.debited_account",
        ),
        b(
            "BT-106",
            "Sum of invoice line net amount",
            "doc",
            f"{_SUM}/ram:LineTotalAmount",
            "cac:LegalMonetaryTotal/cbc:LineExtensionAmount",
            "decimal",
            held="subtotal",
        ),
        b(
            "BT-107",
            "Sum of allowances on document level",
            "doc",
            f"{_SUM}/ram:AllowanceTotalAmount",
            "cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount",
            "decimal",
            held="allowances_charges",
        ),
        b(
            "BT-108",
            "Sum of charges on document level",
            "doc",
            f"{_SUM}/ram:ChargeTotalAmount",
            "cac:LegalMonetaryTotal/cbc:ChargeTotalAmount",
            "decimal",
            held="allowances_charges",
        ),
        b(
            "BT-109",
            "Invoice total amount without VAT",
            "doc",
            f"{_SUM}/ram:TaxBasisTotalAmount",
            "cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount",
            "decimal",
            held="subtotal",
        ),
        b(
            "BT-110",
            "Invoice total VAT amount",
            "doc",
            f"{_SUM}/ram:TaxTotalAmount[not(@currencyID) or @currencyID=../../ram:InvoiceCurrencyCode]",
            "cac:TaxTotal/cbc:TaxAmount[not(@currencyID) or @currencyID=/*/cbc:DocumentCurrencyCode]",
            "decimal",
            held="tax_lines",
        ),
        b(
            "BT-111",
            "Invoice total VAT amount in accounting currency",
            "doc",
            f"{_SUM}/ram:TaxTotalAmount[@currencyID=../../ram:TaxCurrencyCode and "
            "not(../../ram:TaxCurrencyCode=../../ram:InvoiceCurrencyCode)]",
            "cac:TaxTotal/cbc:TaxAmount[@currencyID=/*/cbc:TaxCurrencyCode and "
            "not(/*/cbc:TaxCurrencyCode=/*/cbc:DocumentCurrencyCode)]",
            "decimal",
            held="further_terms.tax_total_in_tax_currency",
        ),
        b(
            "BT-112",
            "Invoice total amount with VAT",
            "doc",
            f"{_SUM}/ram:GrandTotalAmount",
            "cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount",
            "decimal",
            held="total",
        ),
        b(
            "BT-113",
            "Paid amount",
            "doc",
            f"{_SUM}/ram:TotalPrepaidAmount",
            "cac:LegalMonetaryTotal/cbc:PrepaidAmount",
            "decimal",
            held="prepaid_amount",
        ),
        b(
            "BT-114",
            "Rounding amount",
            "doc",
            f"{_SUM}/ram:RoundingAmount",
            "cac:LegalMonetaryTotal/cbc:PayableRoundingAmount",
            "decimal",
            held="rounding_amount",
        ),
        b(
            "BT-115",
            "Amount due for payment",
            "doc",
            f"{_SUM}/ram:DuePayableAmount",
            "cac:LegalMonetaryTotal/cbc:PayableAmount",
            "decimal",
            held="amount_due",
        ),
    ]
    groups = [
        b(
            "BT-21",
            "Invoice note subject code",
            "note",
            "ram:SubjectCode",
            ".",
            "note_subject",
            held="further_terms.invoice_notes.subject_code",
        ),
        b("BT-22", "Invoice note", "note", "ram:Content", ".", "note_text", held="further_terms.invoice_notes.text"),
        b(
            "BT-25",
            "Preceding invoice reference",
            "preceding",
            "ram:IssuerAssignedID",
            "cbc:ID",
            held="preceding_invoice.number",
        ),
        b(
            "BT-26",
            "Preceding invoice issue date",
            "preceding",
            "ram:FormattedIssueDateTime/qdt:DateTimeString",
            "cbc:IssueDate",
            "date",
            held="preceding_invoice.issue_date",
        ),
        *_adjustment(
            ("BT-92", "BT-93", "BT-94", "BT-95", "BT-96", "BT-97", "BT-98"),
            "Document level allowance",
            "allowance",
            "",
            "",
            held="allowances_charges.",
        ),
        *_adjustment(
            ("BT-99", "BT-100", "BT-101", "BT-102", "BT-103", "BT-104", "BT-105"),
            "Document level charge",
            "charge",
            "",
            "",
            held="allowances_charges.",
        ),
        b(
            "BT-116",
            "VAT category taxable amount",
            "tax",
            "ram:BasisAmount",
            "cbc:TaxableAmount",
            "decimal",
            held="tax_lines.base",
        ),
        b(
            "BT-117",
            "VAT category tax amount",
            "tax",
            "ram:CalculatedAmount",
            "cbc:TaxAmount",
            "decimal",
            held="tax_lines.amount",
        ),
        b(
            "BT-118",
            "VAT category code",
            "tax",
            "ram:CategoryCode",
            "cac:TaxCategory/cbc:ID",
            held="tax_lines.category",
        ),
        b(
            "BT-119",
            "VAT category rate",
            "tax",
            "ram:RateApplicablePercent",
            "cac:TaxCategory/cbc:Percent",
            "decimal",
            held="tax_lines.rate",
        ),
        b(
            "BT-120",
            "VAT exemption reason text",
            "tax",
            "ram:ExemptionReason",
            "cac:TaxCategory/cbc:TaxExemptionReason",
            held="tax_lines.exemption_reason",
        ),
        b(
            "BT-121",
            "VAT exemption reason code",
            "tax",
            "ram:ExemptionReasonCode",
            "cac:TaxCategory/cbc:TaxExemptionReasonCode",
            held="tax_lines.exemption_code",
        ),
        b(
            "BT-122",
            "Supporting document reference",
            "document",
            "ram:IssuerAssignedID",
            "cbc:ID",
            held="further_terms.supporting_documents.reference",
        ),
        b(
            "BT-123",
            "Supporting document description",
            "document",
            "ram:Name",
            "cbc:DocumentDescription",
            held="further_terms.supporting_documents.description",
        ),
        b(
            "BT-124",
            "External document location",
            "document",
            "ram:URIID",
            "cac:Attachment/cac:ExternalReference/cbc:URI",
            held="further_terms.supporting_documents.uri",
        ),
        b(
            "BT-125-1",
            "Attached document MIME code",
            "document",
            "ram:AttachmentBinaryObject/@mimeCode",
            "cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@mimeCode",
            held="further_terms.supporting_documents.attachment.mime_type",
        ),
        b(
            "BT-125-2",
            "Attached document filename",
            "document",
            "ram:AttachmentBinaryObject/@filename",
            "cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename",
            held="further_terms.supporting_documents.attachment.filename",
        ),
    ]
    product, agreement = "ram:SpecifiedTradeProduct", "ram:SpecifiedLineTradeAgreement"
    settlement = "ram:SpecifiedLineTradeSettlement"
    lines = [
        b(
            "BT-126",
            "Invoice line identifier",
            "line",
            "ram:AssociatedDocumentLineDocument/ram:LineID",
            "cbc:ID",
            held="line_items.line_id",
        ),
        b(
            "BT-127",
            "Invoice line note",
            "line",
            "ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content",
            "cbc:Note",
            held="line_items.details.note",
        ),
        b(
            "BT-128",
            "Invoice line object identifier",
            "line",
            f"{settlement}/ram:AdditionalReferencedDocument[ram:TypeCode='130']",
            "cac:DocumentReference[cbc:DocumentTypeCode='130']/cbc:ID",
            "schemed",
            held="line_items.details.object_id",
        ),
        b(
            "BT-129",
            "Invoiced quantity",
            "line",
            "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity",
            "cbc:InvoicedQuantity|cbc:CreditedQuantity",
            "decimal",
            held="line_items.quantity",
        ),
        b(
            "BT-130",
            "Invoiced quantity unit of measure code",
            "line",
            "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode",
            "cbc:InvoicedQuantity/@unitCode|cbc:CreditedQuantity/@unitCode",
            held="line_items.unit",
        ),
        b(
            "BT-131",
            "Invoice line net amount",
            "line",
            f"{settlement}/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
            "cbc:LineExtensionAmount",
            "decimal",
            held="line_items.amount",
        ),
        b(
            "BT-132",
            "Referenced purchase order line reference",
            "line",
            f"{agreement}/ram:BuyerOrderReferencedDocument/ram:LineID",
            "cac:OrderLineReference/cbc:LineID",
            held="line_items.details.order_line_reference",
        ),
        b(
            "BT-133",
            "Invoice line buyer accounting reference",
            "line",
            f"{settlement}/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID",
            "cbc:AccountingCost",
            held="line_items.details.accounting_reference",
        ),
        b(
            "BT-134",
            "Invoice line period start date",
            "line",
            f"{settlement}/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString",
            "cac:InvoicePeriod/cbc:StartDate",
            "date",
            held="line_items.details.period.start",
        ),
        b(
            "BT-135",
            "Invoice line period end date",
            "line",
            f"{settlement}/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString",
            "cac:InvoicePeriod/cbc:EndDate",
            "date",
            held="line_items.details.period.end",
        ),
        *_adjustment(
            ("BT-136", "BT-137", "BT-138", "BT-139", "BT-140"),
            "Invoice line allowance",
            "line",
            f"{line_allowance_cii}[ram:ChargeIndicator/udt:Indicator='false']/",
            "cac:AllowanceCharge[cbc:ChargeIndicator='false']/",
            held="line_items.allowance",
        ),
        *_adjustment(
            ("BT-141", "BT-142", "BT-143", "BT-144", "BT-145"),
            "Invoice line charge",
            "line",
            f"{line_allowance_cii}[ram:ChargeIndicator/udt:Indicator='true']/",
            "cac:AllowanceCharge[cbc:ChargeIndicator='true']/",
            held="line_items.charge",
        ),
        b(
            "BT-146",
            "Item net price",
            "line",
            f"{agreement}/ram:NetPriceProductTradePrice/ram:ChargeAmount",
            "cac:Price/cbc:PriceAmount",
            "decimal",
            held="line_items.unit_price",
        ),
        b(
            "BT-147",
            "Item price discount",
            "line",
            f"{agreement}/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount",
            "cac:Price/cac:AllowanceCharge/cbc:Amount",
            "decimal",
            held="line_items.details.price_discount",
        ),
        b(
            "BT-148",
            "Item gross price",
            "line",
            f"{agreement}/ram:GrossPriceProductTradePrice/ram:ChargeAmount",
            "cac:Price/cac:AllowanceCharge/cbc:BaseAmount",
            "decimal",
            held="line_items.details.gross_price",
        ),
        b(
            "BT-149",
            "Item price base quantity",
            "line",
            f"{agreement}/ram:NetPriceProductTradePrice/ram:BasisQuantity",
            "cac:Price/cbc:BaseQuantity",
            "decimal",
            held="line_items.price_base_quantity",
        ),
        b(
            "BT-150",
            "Item price base quantity unit of measure code",
            "line",
            f"{agreement}/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode",
            "cac:Price/cbc:BaseQuantity/@unitCode",
            held="line_items.details.price_base_unit",
        ),
        b(
            "BT-151",
            "Invoiced item VAT category code",
            "line",
            f"{settlement}/ram:ApplicableTradeTax/ram:CategoryCode",
            "cac:Item/cac:ClassifiedTaxCategory/cbc:ID",
            held="line_items.vat_category",
        ),
        b(
            "BT-152",
            "Invoiced item VAT rate",
            "line",
            f"{settlement}/ram:ApplicableTradeTax/ram:RateApplicablePercent",
            "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent",
            "decimal",
            held="line_items.tax_rate",
        ),
        b("BT-153", "Item name", "line", f"{product}/ram:Name", "cac:Item/cbc:Name", held="line_items.description"),
        b(
            "BT-154",
            "Item description",
            "line",
            f"{product}/ram:Description",
            "cac:Item/cbc:Description",
            held="line_items.details.item_description",
        ),
        b(
            "BT-155",
            "Item Seller's identifier",
            "line",
            f"{product}/ram:SellerAssignedID",
            "cac:Item/cac:SellersItemIdentification/cbc:ID",
            held="line_items.item_id",
        ),
        b(
            "BT-156",
            "Item Buyer's identifier",
            "line",
            f"{product}/ram:BuyerAssignedID",
            "cac:Item/cac:BuyersItemIdentification/cbc:ID",
            held="line_items.details.buyer_item_id",
        ),
        b(
            "BT-157",
            "Item standard identifier",
            "line",
            f"{product}/ram:GlobalID",
            "cac:Item/cac:StandardItemIdentification/cbc:ID",
            "schemed",
            held="line_items.details.standard_id",
        ),
        b(
            "BT-158",
            "Item classification identifier",
            "line",
            f"{product}/ram:DesignatedProductClassification/ram:ClassCode",
            "cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode",
            "listed",
            held="line_items.details.classifications",
        ),
        b(
            "BT-159",
            "Item country of origin",
            "line",
            f"{product}/ram:OriginTradeCountry/ram:ID",
            "cac:Item/cac:OriginCountry/cbc:IdentificationCode",
            held="line_items.details.origin_country",
        ),
        b(
            "BT-160",
            "Item attribute name",
            "line",
            f"{product}/ram:ApplicableProductCharacteristic/ram:Description",
            "cac:Item/cac:AdditionalItemProperty/cbc:Name",
            held="line_items.details.attributes.name",
        ),
        b(
            "BT-161",
            "Item attribute value",
            "line",
            f"{product}/ram:ApplicableProductCharacteristic/ram:Value",
            "cac:Item/cac:AdditionalItemProperty/cbc:Value",
            held="line_items.details.attributes.value",
        ),
    ]
    return (*doc, *groups, *lines)


BINDINGS: tuple[Binding, ...] = _table()
BY_TERM = {binding.term: binding for binding in BINDINGS}
