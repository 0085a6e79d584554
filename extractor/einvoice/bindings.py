"""EN 16931 Business Terms and where each sits in CII D16B and in UBL 2.1: the CEN syntax bindings (EN 16931-3-2
for UBL, 3-3 for CII) as one table of data (``TABLE``, one line per term, parsed into ``BINDINGS``).

Every XPath of an e-invoice term is written once, here. The table serves: ``read_en16931`` reads the terms the
``invoice`` reading does not with it, and names in the record's notes each term a source gives that
``invoice-en16931`` does not hold (``held`` None); the readers (``read``) and the citations (``xpaths``) take a postal
address's element names from it (``address_steps``); the term-by-term test (tests/test_einvoice_lossless.py) and
``bench/einvoice_corpus.py`` compare every term a source gives with the same term in our CII and UBL. The values a
document gives for each term, read through the table and normalised, are ``term_values``'s.

Each binding is an XPath 1.0 relative to its scope's node (``SCOPES``: the document, a line, a VAT breakdown, a
document allowance or charge, a note, a preceding invoice, a supporting document).
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template

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
_ST = f"{_TX}/ram:ApplicableHeaderTradeSettlement"
_LINE_ADJUSTMENT = (
    "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator="
)
# the paths the table names by ``$NAME`` (a header part, a party, a line's part), so that its lines stay readable
PREFIXES = {
    "AG": _AG,
    "DL": f"{_TX}/ram:ApplicableHeaderTradeDelivery",
    "ST": _ST,
    "SUM": f"{_ST}/ram:SpecifiedTradeSettlementHeaderMonetarySummation",
    "PM": f"{_ST}/ram:SpecifiedTradeSettlementPaymentMeans",
    "SELLER": f"{_AG}/ram:SellerTradeParty",
    "BUYER": f"{_AG}/ram:BuyerTradeParty",
    "PAYEE": f"{_ST}/ram:PayeeTradeParty",
    "TAXREP": f"{_AG}/ram:SellerTaxRepresentativeTradeParty",
    "SHIPTO": f"{_TX}/ram:ApplicableHeaderTradeDelivery/ram:ShipToTradeParty",
    "LS": "ram:SpecifiedLineTradeSettlement",
    "LA": "ram:SpecifiedLineTradeAgreement",
    "LALLOW": f"{_LINE_ADJUSTMENT}'false']",
    "LCHARGE": f"{_LINE_ADJUSTMENT}'true']",
    "PRODUCT": "ram:SpecifiedTradeProduct",
    "SUPPLIER": "cac:AccountingSupplierParty/cac:Party",
    "CUSTOMER": "cac:AccountingCustomerParty/cac:Party",
    "ALLOW": "cac:AllowanceCharge[cbc:ChargeIndicator='false']",
    "CHARGE": "cac:AllowanceCharge[cbc:ChargeIndicator='true']",
}

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
        PREFIXES["ALLOW"],
    ),
    "charge": (
        f"{_ST}/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='true']",
        PREFIXES["CHARGE"],
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

    def path(self, syntax: str) -> str | None:
        """Its XPath in a syntax's column of the table (``syntax``: ``CII`` or ``UBL``)."""
        return self.cii if syntax == "CII" else self.ubl


def scope_path(scope: str, syntax: str) -> str:
    """A scope's XPath from the root in a syntax's column (``SCOPES``; ``.``: the root itself)."""
    return SCOPES[scope][0 if syntax == "CII" else 1]


# a party's, a document allowance's or charge's and a postal address's terms, each relative to its node: name |
# kind | held key | CII | UBL; a line of ``TABLE`` whose kind is ``party``, ``adjustment`` or ``address`` names
# one term for each
PARTY = """
name | text | name | ram:Name | cac:PartyLegalEntity/cbc:RegistrationName
trading name | text | trading_name | ram:SpecifiedLegalOrganization/ram:TradingBusinessName | cac:PartyName/cbc:Name
identifier | schemed | gln|lei | ram:ID|ram:GlobalID | cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]
legal registration identifier | text | legal_id | ram:SpecifiedLegalOrganization/ram:ID | cac:PartyLegalEntity/cbc:CompanyID
VAT identifier | text | vat_id | ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA'] | cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID
electronic address | schemed | electronic_address | ram:URIUniversalCommunication/ram:URIID | cbc:EndpointID
contact point | text | contact.name | ram:DefinedTradeContact/ram:PersonName|ram:DefinedTradeContact/ram:DepartmentName | cac:Contact/cbc:Name
contact telephone | text | contact.phone | ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber | cac:Contact/cbc:Telephone
contact e-mail | text | contact.email | ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID | cac:Contact/cbc:ElectronicMail
"""
ADJUSTMENT = """
amount | decimal | amount | ram:ActualAmount | cbc:Amount
base amount | decimal | base_amount | ram:BasisAmount | cbc:BaseAmount
percentage | decimal | percentage | ram:CalculationPercent | cbc:MultiplierFactorNumeric
reason | text | reason | ram:Reason | cbc:AllowanceChargeReason
reason code | text | reason_code | ram:ReasonCode | cbc:AllowanceChargeReasonCode
VAT category code | text | vat_category | ram:CategoryTradeTax/ram:CategoryCode | cac:TaxCategory/cbc:ID
VAT rate | decimal | tax_rate | ram:CategoryTradeTax/ram:RateApplicablePercent | cac:TaxCategory/cbc:Percent
"""
ADDRESS = """
street | text | street | ram:LineOne | cbc:StreetName
additional line | text | additional_street | ram:LineTwo | cbc:AdditionalStreetName
address line 3 | text | address_line_3 | ram:LineThree | cac:AddressLine/cbc:Line
city | text | city | ram:CityName | cbc:CityName
post code | text | postal_code | ram:PostcodeCode | cbc:PostalZone
country subdivision | text | subdivision | ram:CountrySubDivisionName | cbc:CountrySubentity
country code | text | country | ram:CountryID | cac:Country/cbc:IdentificationCode
"""

# term | name | scope | kind (how values compare) | held (where invoice-en16931 holds it; - none) | CII | UBL; a
# ``party``, ``adjustment`` or ``address`` line: its terms | who | scope | that kind | held prefix | CII node | UBL node
TABLE = """
BT-1 | Invoice number | doc | text | invoice_number | rsm:ExchangedDocument/ram:ID | cbc:ID
BT-2 | Invoice issue date | doc | date | issue_date | rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString | cbc:IssueDate
BT-3 | Invoice type code | doc | text | document_type | rsm:ExchangedDocument/ram:TypeCode | cbc:InvoiceTypeCode|cbc:CreditNoteTypeCode
BT-23 | Business process type | doc | text | - | rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID | cbc:ProfileID
BT-5 | Invoice currency code | doc | text | currency | $ST/ram:InvoiceCurrencyCode | cbc:DocumentCurrencyCode
BT-6 | VAT accounting currency code | doc | text | further_terms.tax_currency | $ST/ram:TaxCurrencyCode | cbc:TaxCurrencyCode
BT-7 | Value added tax point date | doc | date | further_terms.tax_point_date | $ST/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString | cbc:TaxPointDate
BT-8 | Value added tax point date code | doc | tax_point | further_terms.tax_point_code | $ST/ram:ApplicableTradeTax/ram:DueDateTypeCode | cac:InvoicePeriod/cbc:DescriptionCode
BT-9 | Payment due date | doc | date | due_date | $ST/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString | cbc:DueDate|cac:PaymentMeans/cbc:PaymentDueDate
BT-10 | Buyer reference | doc | text | buyer_reference | $AG/ram:BuyerReference | cbc:BuyerReference
BT-11 | Project reference | doc | text | further_terms.references.project | $AG/ram:SpecifiedProcuringProject/ram:ID | cac:ProjectReference/cbc:ID|cac:AdditionalDocumentReference[cbc:DocumentTypeCode='50']/cbc:ID
BT-12 | Contract reference | doc | text | further_terms.references.contract | $AG/ram:ContractReferencedDocument/ram:IssuerAssignedID | cac:ContractDocumentReference/cbc:ID
BT-13 | Purchase order reference | doc | text | order_reference | $AG/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID | cac:OrderReference/cbc:ID
BT-14 | Sales order reference | doc | text | further_terms.references.sales_order | $AG/ram:SellerOrderReferencedDocument/ram:IssuerAssignedID | cac:OrderReference/cbc:SalesOrderID
BT-15 | Receiving advice reference | doc | text | further_terms.references.receiving_advice | $DL/ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID | cac:ReceiptDocumentReference/cbc:ID
BT-16 | Despatch advice reference | doc | text | further_terms.references.despatch_advice | $DL/ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID | cac:DespatchDocumentReference/cbc:ID
BT-17 | Tender or lot reference | doc | text | further_terms.references.tender_or_lot | $AG/ram:AdditionalReferencedDocument[ram:TypeCode='50']/ram:IssuerAssignedID | cac:OriginatorDocumentReference/cbc:ID
BT-18 | Invoiced object identifier | doc | schemed | further_terms.references.invoiced_object | $AG/ram:AdditionalReferencedDocument[ram:TypeCode='130'] | cac:AdditionalDocumentReference[cbc:DocumentTypeCode='130']/cbc:ID
BT-19 | Buyer accounting reference | doc | text | further_terms.references.buyer_accounting | $ST/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID | cbc:AccountingCost
BT-20 | Payment terms | doc | text | payment_terms | $ST/ram:SpecifiedTradePaymentTerms/ram:Description | cac:PaymentTerms/cbc:Note
BT-27 BT-28 BT-29 BT-30 BT-31 BT-34 BT-41 BT-42 BT-43 | Seller | doc | party | seller | $SELLER | $SUPPLIER
BT-32 | Seller tax registration identifier | doc | text | seller.tax_number | $SELLER/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='FC'] | $SUPPLIER/cac:PartyTaxScheme[not(cac:TaxScheme/cbc:ID='VAT')]/cbc:CompanyID
BT-33 | Seller additional legal information | doc | text | seller.legal_info | $SELLER/ram:Description | $SUPPLIER/cac:PartyLegalEntity/cbc:CompanyLegalForm
BT-35 BT-36 BT-162 BT-37 BT-38 BT-39 BT-40 | Seller | doc | address | seller.address | $SELLER/ram:PostalTradeAddress | $SUPPLIER/cac:PostalAddress
BT-44 BT-45 BT-46 BT-47 BT-48 BT-49 BT-56 BT-57 BT-58 | Buyer | doc | party | buyer | $BUYER | $CUSTOMER
BT-50 BT-51 BT-163 BT-52 BT-53 BT-54 BT-55 | Buyer | doc | address | buyer.address | $BUYER/ram:PostalTradeAddress | $CUSTOMER/cac:PostalAddress
BT-59 | Payee name | doc | text | further_terms.payee.name | $PAYEE/ram:Name | cac:PayeeParty/cac:PartyName/cbc:Name
BT-60 | Payee identifier | doc | schemed | further_terms.payee.identifier | $PAYEE/ram:ID|$PAYEE/ram:GlobalID | cac:PayeeParty/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]
BT-61 | Payee legal registration identifier | doc | text | further_terms.payee.legal_id | $PAYEE/ram:SpecifiedLegalOrganization/ram:ID | cac:PayeeParty/cac:PartyLegalEntity/cbc:CompanyID
BT-62 | Seller tax representative name | doc | text | further_terms.tax_representative.name | $TAXREP/ram:Name | cac:TaxRepresentativeParty/cac:PartyName/cbc:Name
BT-63 | Seller tax representative VAT identifier | doc | text | further_terms.tax_representative.vat_id | $TAXREP/ram:SpecifiedTaxRegistration/ram:ID | cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID
BT-64 BT-65 BT-164 BT-66 BT-67 BT-68 BT-69 | Tax representative | doc | address | further_terms.tax_representative.address | $TAXREP/ram:PostalTradeAddress | cac:TaxRepresentativeParty/cac:PostalAddress
BT-70 | Deliver to party name | doc | text | further_terms.delivery.name | $SHIPTO/ram:Name | cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name
BT-71 | Deliver to location identifier | doc | schemed | further_terms.delivery.location_id | $SHIPTO/ram:ID|$SHIPTO/ram:GlobalID | cac:Delivery/cac:DeliveryLocation/cbc:ID
BT-72 | Actual delivery date | doc | date | delivery_date | $DL/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString | cac:Delivery/cbc:ActualDeliveryDate
BT-73 | Invoicing period start date | doc | date | invoicing_period.start | $ST/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:StartDate
BT-74 | Invoicing period end date | doc | date | invoicing_period.end | $ST/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:EndDate
BT-75 BT-76 BT-165 BT-77 BT-78 BT-79 BT-80 | Deliver to | doc | address | further_terms.delivery.address | $SHIPTO/ram:PostalTradeAddress | cac:Delivery/cac:DeliveryLocation/cac:Address
BT-81 | Payment means type code | doc | text | payment_means|further_terms.payment_means_code | $PM/ram:TypeCode | cac:PaymentMeans/cbc:PaymentMeansCode
BT-82 | Payment means text | doc | text | further_terms.payment_means_text | $PM/ram:Information | cac:PaymentMeans/cbc:PaymentMeansCode/@name
BT-83 | Remittance information | doc | text | further_terms.remittance_information | $ST/ram:PaymentReference | cac:PaymentMeans/cbc:PaymentID
BT-84 | Payment account identifier | doc | account | bank_account.iban|bank_account.account_number | $PM/ram:PayeePartyCreditorFinancialAccount/ram:IBANID|$PM/ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID | cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID
BT-85 | Payment account name | doc | text | bank_account.account_holder | $PM/ram:PayeePartyCreditorFinancialAccount/ram:AccountName | cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:Name
BT-86 | Payment service provider identifier | doc | text | bank_account.bic | $PM/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID | cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID
BT-87 | Payment card primary account number | doc | text | further_terms.payment_card.number | $PM/ram:ApplicableTradeSettlementFinancialCard/ram:ID | cac:PaymentMeans/cac:CardAccount/cbc:PrimaryAccountNumberID
BT-88 | Payment card holder name | doc | text | further_terms.payment_card.holder | $PM/ram:ApplicableTradeSettlementFinancialCard/ram:CardholderName | cac:PaymentMeans/cac:CardAccount/cbc:HolderName
BT-89 | Mandate reference identifier | doc | text | further_terms.direct_debit.mandate | $ST/ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID | cac:PaymentMeans/cac:PaymentMandate/cbc:ID
BT-90 | Bank assigned creditor identifier | doc | text | further_terms.direct_debit.creditor_id | $ST/ram:CreditorReferenceID | $SUPPLIER/cac:PartyIdentification/cbc:ID[@schemeID='SEPA']|cac:PayeeParty/cac:PartyIdentification/cbc:ID[@schemeID='SEPA']
BT-91 | Debited account identifier | doc | account | further_terms.direct_debit.debited_account | $PM/ram:PayerPartyDebtorFinancialAccount/ram:IBANID | cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID
BT-106 | Sum of invoice line net amount | doc | decimal | subtotal | $SUM/ram:LineTotalAmount | cac:LegalMonetaryTotal/cbc:LineExtensionAmount
BT-107 | Sum of allowances on document level | doc | decimal | allowances_charges | $SUM/ram:AllowanceTotalAmount | cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount
BT-108 | Sum of charges on document level | doc | decimal | allowances_charges | $SUM/ram:ChargeTotalAmount | cac:LegalMonetaryTotal/cbc:ChargeTotalAmount
BT-109 | Invoice total amount without VAT | doc | decimal | subtotal | $SUM/ram:TaxBasisTotalAmount | cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount
BT-110 | Invoice total VAT amount | doc | decimal | tax_lines | $SUM/ram:TaxTotalAmount[not(@currencyID) or @currencyID=../../ram:InvoiceCurrencyCode] | cac:TaxTotal/cbc:TaxAmount[not(@currencyID) or @currencyID=/*/cbc:DocumentCurrencyCode]
BT-111 | Invoice total VAT amount in accounting currency | doc | decimal | further_terms.tax_total_in_tax_currency | $SUM/ram:TaxTotalAmount[@currencyID=../../ram:TaxCurrencyCode and not(../../ram:TaxCurrencyCode=../../ram:InvoiceCurrencyCode)] | cac:TaxTotal/cbc:TaxAmount[@currencyID=/*/cbc:TaxCurrencyCode and not(/*/cbc:TaxCurrencyCode=/*/cbc:DocumentCurrencyCode)]
BT-112 | Invoice total amount with VAT | doc | decimal | total | $SUM/ram:GrandTotalAmount | cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount
BT-113 | Paid amount | doc | decimal | prepaid_amount | $SUM/ram:TotalPrepaidAmount | cac:LegalMonetaryTotal/cbc:PrepaidAmount
BT-114 | Rounding amount | doc | decimal | rounding_amount | $SUM/ram:RoundingAmount | cac:LegalMonetaryTotal/cbc:PayableRoundingAmount
BT-115 | Amount due for payment | doc | decimal | amount_due | $SUM/ram:DuePayableAmount | cac:LegalMonetaryTotal/cbc:PayableAmount
BT-21 | Invoice note subject code | note | note_subject | further_terms.invoice_notes.subject_code | ram:SubjectCode | .
BT-22 | Invoice note | note | note_text | further_terms.invoice_notes.text | ram:Content | .
BT-25 | Preceding invoice reference | preceding | text | preceding_invoice.number | ram:IssuerAssignedID | cbc:ID
BT-26 | Preceding invoice issue date | preceding | date | preceding_invoice.issue_date | ram:FormattedIssueDateTime/qdt:DateTimeString | cbc:IssueDate
BT-92 BT-93 BT-94 BT-97 BT-98 BT-95 BT-96 | Document level allowance | allowance | adjustment | allowances_charges | . | .
BT-99 BT-100 BT-101 BT-104 BT-105 BT-102 BT-103 | Document level charge | charge | adjustment | allowances_charges | . | .
BT-116 | VAT category taxable amount | tax | decimal | tax_lines.base | ram:BasisAmount | cbc:TaxableAmount
BT-117 | VAT category tax amount | tax | decimal | tax_lines.amount | ram:CalculatedAmount | cbc:TaxAmount
BT-118 | VAT category code | tax | text | tax_lines.category | ram:CategoryCode | cac:TaxCategory/cbc:ID
BT-119 | VAT category rate | tax | decimal | tax_lines.rate | ram:RateApplicablePercent | cac:TaxCategory/cbc:Percent
BT-120 | VAT exemption reason text | tax | text | tax_lines.exemption_reason | ram:ExemptionReason | cac:TaxCategory/cbc:TaxExemptionReason
BT-121 | VAT exemption reason code | tax | text | tax_lines.exemption_code | ram:ExemptionReasonCode | cac:TaxCategory/cbc:TaxExemptionReasonCode
BT-122 | Supporting document reference | document | text | further_terms.supporting_documents.reference | ram:IssuerAssignedID | cbc:ID
BT-123 | Supporting document description | document | text | further_terms.supporting_documents.description | ram:Name | cbc:DocumentDescription
BT-124 | External document location | document | text | further_terms.supporting_documents.uri | ram:URIID | cac:Attachment/cac:ExternalReference/cbc:URI
BT-125-1 | Attached document MIME code | document | text | further_terms.supporting_documents.attachment.mime_type | ram:AttachmentBinaryObject/@mimeCode | cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@mimeCode
BT-125-2 | Attached document filename | document | text | further_terms.supporting_documents.attachment.filename | ram:AttachmentBinaryObject/@filename | cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename
BT-126 | Invoice line identifier | line | text | line_items.line_id | ram:AssociatedDocumentLineDocument/ram:LineID | cbc:ID
BT-127 | Invoice line note | line | text | line_items.details.note | ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content | cbc:Note
BT-128 | Invoice line object identifier | line | schemed | line_items.details.object_id | $LS/ram:AdditionalReferencedDocument[ram:TypeCode='130'] | cac:DocumentReference[cbc:DocumentTypeCode='130']/cbc:ID
BT-129 | Invoiced quantity | line | decimal | line_items.quantity | ram:SpecifiedLineTradeDelivery/ram:BilledQuantity | cbc:InvoicedQuantity|cbc:CreditedQuantity
BT-130 | Invoiced quantity unit of measure code | line | text | line_items.unit | ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode | cbc:InvoicedQuantity/@unitCode|cbc:CreditedQuantity/@unitCode
BT-131 | Invoice line net amount | line | decimal | line_items.amount | $LS/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount | cbc:LineExtensionAmount
BT-132 | Referenced purchase order line reference | line | text | line_items.details.order_line_reference | $LA/ram:BuyerOrderReferencedDocument/ram:LineID | cac:OrderLineReference/cbc:LineID
BT-133 | Invoice line buyer accounting reference | line | text | line_items.details.accounting_reference | $LS/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID | cbc:AccountingCost
BT-134 | Invoice line period start date | line | date | line_items.details.period.start | $LS/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:StartDate
BT-135 | Invoice line period end date | line | date | line_items.details.period.end | $LS/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:EndDate
BT-136 | Invoice line allowance amount | line | decimal | line_items.allowance | $LALLOW/ram:ActualAmount | $ALLOW/cbc:Amount
BT-137 | Invoice line allowance base amount | line | decimal | - | $LALLOW/ram:BasisAmount | $ALLOW/cbc:BaseAmount
BT-138 | Invoice line allowance percentage | line | decimal | - | $LALLOW/ram:CalculationPercent | $ALLOW/cbc:MultiplierFactorNumeric
BT-139 | Invoice line allowance reason | line | text | line_items.details.allowance_reason | $LALLOW/ram:Reason | $ALLOW/cbc:AllowanceChargeReason
BT-140 | Invoice line allowance reason code | line | text | line_items.details.allowance_reason_code | $LALLOW/ram:ReasonCode | $ALLOW/cbc:AllowanceChargeReasonCode
BT-141 | Invoice line charge amount | line | decimal | line_items.charge | $LCHARGE/ram:ActualAmount | $CHARGE/cbc:Amount
BT-142 | Invoice line charge base amount | line | decimal | - | $LCHARGE/ram:BasisAmount | $CHARGE/cbc:BaseAmount
BT-143 | Invoice line charge percentage | line | decimal | - | $LCHARGE/ram:CalculationPercent | $CHARGE/cbc:MultiplierFactorNumeric
BT-144 | Invoice line charge reason | line | text | line_items.details.charge_reason | $LCHARGE/ram:Reason | $CHARGE/cbc:AllowanceChargeReason
BT-145 | Invoice line charge reason code | line | text | line_items.details.charge_reason_code | $LCHARGE/ram:ReasonCode | $CHARGE/cbc:AllowanceChargeReasonCode
BT-146 | Item net price | line | decimal | line_items.unit_price | $LA/ram:NetPriceProductTradePrice/ram:ChargeAmount | cac:Price/cbc:PriceAmount
BT-147 | Item price discount | line | decimal | line_items.details.price_discount | $LA/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount | cac:Price/cac:AllowanceCharge/cbc:Amount
BT-148 | Item gross price | line | decimal | line_items.details.gross_price | $LA/ram:GrossPriceProductTradePrice/ram:ChargeAmount | cac:Price/cac:AllowanceCharge/cbc:BaseAmount
BT-149 | Item price base quantity | line | decimal | line_items.price_base_quantity | $LA/ram:NetPriceProductTradePrice/ram:BasisQuantity | cac:Price/cbc:BaseQuantity
BT-150 | Item price base quantity unit of measure code | line | text | line_items.details.price_base_unit | $LA/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode | cac:Price/cbc:BaseQuantity/@unitCode
BT-151 | Invoiced item VAT category code | line | text | line_items.vat_category | $LS/ram:ApplicableTradeTax/ram:CategoryCode | cac:Item/cac:ClassifiedTaxCategory/cbc:ID
BT-152 | Invoiced item VAT rate | line | decimal | line_items.tax_rate | $LS/ram:ApplicableTradeTax/ram:RateApplicablePercent | cac:Item/cac:ClassifiedTaxCategory/cbc:Percent
BT-153 | Item name | line | text | line_items.description | $PRODUCT/ram:Name | cac:Item/cbc:Name
BT-154 | Item description | line | text | line_items.details.item_description | $PRODUCT/ram:Description | cac:Item/cbc:Description
BT-155 | Item Seller's identifier | line | text | line_items.item_id | $PRODUCT/ram:SellerAssignedID | cac:Item/cac:SellersItemIdentification/cbc:ID
BT-156 | Item Buyer's identifier | line | text | line_items.details.buyer_item_id | $PRODUCT/ram:BuyerAssignedID | cac:Item/cac:BuyersItemIdentification/cbc:ID
BT-157 | Item standard identifier | line | schemed | line_items.details.standard_id | $PRODUCT/ram:GlobalID | cac:Item/cac:StandardItemIdentification/cbc:ID
BT-158 | Item classification identifier | line | listed | line_items.details.classifications | $PRODUCT/ram:DesignatedProductClassification/ram:ClassCode | cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode
BT-159 | Item country of origin | line | text | line_items.details.origin_country | $PRODUCT/ram:OriginTradeCountry/ram:ID | cac:Item/cac:OriginCountry/cbc:IdentificationCode
BT-160 | Item attribute name | line | text | line_items.details.attributes.name | $PRODUCT/ram:ApplicableProductCharacteristic/ram:Description | cac:Item/cac:AdditionalItemProperty/cbc:Name
BT-161 | Item attribute value | line | text | line_items.details.attributes.value | $PRODUCT/ram:ApplicableProductCharacteristic/ram:Value | cac:Item/cac:AdditionalItemProperty/cbc:Value
"""


def _cells(table: str, count: int) -> list[list[str]]:
    """A table's lines split into their cells (a malformed line names itself)."""
    lines = table.strip().splitlines()
    for line in lines:
        if len(line.split(" | ")) != count:
            raise ValueError(f"bindings.py: a table line has not {count} cells: {line!r}")
    return [line.split(" | ") for line in lines]


def _under(prefix: str, path: str, separator: str = "/") -> str:
    """A relative path (or ``|``-separated paths) under a prefix (``.``: the scope's node itself, no prefix)."""
    return "|".join(part if prefix == "." else f"{prefix}{separator}{part}" for part in path.split("|"))


def _expand(path: str, line: str) -> str:
    """A path with its ``$NAME`` prefixes (``PREFIXES``) expanded; an unknown one names the line."""
    try:
        return Template(path).substitute(PREFIXES)
    except (KeyError, ValueError) as exc:
        raise ValueError(f"bindings.py: a table line names an unknown prefix ${exc}: {line!r}") from None


def parse_table(table: str) -> tuple[Binding, ...]:
    """A binding table's lines (``TABLE``'s shape) as bindings: ``$NAME`` prefixes expanded, each party, address or
    allowance line as its terms.

    Raises:
        ValueError: a malformed line (its cells, an unknown prefix, its count of terms), naming it.
    """
    parts = {"party": _cells(PARTY, 5), "address": _cells(ADDRESS, 5), "adjustment": _cells(ADJUSTMENT, 5)}
    out = []
    for cells in _cells(table, 7):
        term, name, scope, kind, held, cii, ubl = cells
        cii, ubl = (_expand(path, " | ".join(cells)) for path in (cii, ubl))
        if kind not in parts:
            out.append(Binding(term, name, scope, cii, ubl, kind, None if held == "-" else held))
            continue
        if len(term.split()) != len(parts[kind]):
            raise ValueError(
                f"bindings.py: the {name} {kind} line names {len(term.split())} terms, not {len(parts[kind])}"
            )
        out += [
            Binding(one, f"{name} {what}", scope, _under(cii, c), _under(ubl, u), how, _under(held, key, "."))
            for one, (what, how, key, c, u) in zip(term.split(), parts[kind], strict=True)
        ]
    return tuple(out)


BINDINGS: tuple[Binding, ...] = parse_table(TABLE)
BY_TERM = {binding.term: binding for binding in BINDINGS}
# a postal address's parts by their invoice-en16931 key: (CII, UBL) XPaths relative to the address
_ADDRESS = {key: {"CII": cii, "UBL": ubl} for _, _, key, cii, ubl in _cells(ADDRESS, 5)}
# a contact's parts (name, phone, email): (CII, UBL) XPaths relative to the party, the first of two (CII's contact
# point is a person's or a department's name: the person's is written)
_CONTACT_ALL = {
    held.removeprefix("contact."): {"CII": cii.split("|"), "UBL": ubl.split("|")}
    for _, _, held, cii, ubl in _cells(PARTY, 5)
    if held.startswith("contact.")
}
_CONTACT = {key: {syntax: paths[0] for syntax, paths in both.items()} for key, both in _CONTACT_ALL.items()}


def contact_path(key: str, syntax: str) -> str:
    """A contact part's XPath relative to the party in a syntax, its first where the table gives two:
    ``contact_path("phone", "UBL")`` is ``cac:Contact/cbc:Telephone`` (``key``: ``name``, ``phone`` or ``email``)."""
    return _CONTACT[key][syntax]


def contact_steps(key: str, syntax: str) -> tuple[tuple[str, ...], ...]:
    """A contact part's element steps by local name relative to the party, every alternative the table gives, in
    its order: ``contact_steps("name", "CII")`` is ``(("DefinedTradeContact", "PersonName"), ("DefinedTradeContact",
    "DepartmentName"))`` (arguments as ``contact_path``'s)."""
    return tuple(_steps(path) for path in _CONTACT_ALL[key][syntax])


# the payee's account by its ``bank_account`` key: BT-84 (its first path, the IBAN), BT-86 and BT-85
_BANK = {"iban": "BT-84", "bic": "BT-86", "account_holder": "BT-85"}


def bank_steps(syntax: str) -> tuple[str, dict[str, tuple[str, ...]]]:
    """A syntax's payment means element and each part of the payee's account as element steps below it, by local
    name: ``bank_steps("UBL")`` is ``("PaymentMeans", {"iban": ("PayeeFinancialAccount", "ID"), ...})``."""
    out = {}
    for key, term in _BANK.items():
        steps = _steps((BY_TERM[term].path(syntax) or "").split("|")[0])
        at = next(i for i, step in enumerate(steps) if step.endswith("PaymentMeans"))
        means, out[key] = steps[at], steps[at + 1 :]
    return means, out


def address_path(key: str, syntax: str) -> str:
    """An address part's XPath relative to the address in a syntax: ``address_path("country", "UBL")`` is
    ``cac:Country/cbc:IdentificationCode`` (``key``: an invoice-en16931 address key such as ``street``; ``syntax``:
    ``CII`` or ``UBL``)."""
    return _ADDRESS[key][syntax]


def address_steps(key: str, syntax: str) -> tuple[str, ...]:
    """An address part's element steps by local name in a syntax: ``address_steps("country", "UBL")`` is
    ``("Country", "IdentificationCode")`` (arguments as ``address_path``'s)."""
    return _steps(address_path(key, syntax))


def _steps(path: str) -> tuple[str, ...]:
    """An XPath of prefixed element names as their local names: ``cac:Country/cbc:ID`` is ``("Country", "ID")``."""
    return tuple(step.split(":", 1)[1] for step in path.split("/"))
