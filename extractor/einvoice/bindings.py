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


# term | name | scope | kind (how values compare) | held (where invoice-en16931 holds it; - none) | CII | UBL
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
BT-27 | Seller name | doc | text | seller.name | $SELLER/ram:Name | $SUPPLIER/cac:PartyLegalEntity/cbc:RegistrationName
BT-28 | Seller trading name | doc | text | seller.trading_name | $SELLER/ram:SpecifiedLegalOrganization/ram:TradingBusinessName | $SUPPLIER/cac:PartyName/cbc:Name
BT-29 | Seller identifier | doc | schemed | seller.gln|seller.lei | $SELLER/ram:ID|$SELLER/ram:GlobalID | $SUPPLIER/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]
BT-30 | Seller legal registration identifier | doc | text | seller.legal_id | $SELLER/ram:SpecifiedLegalOrganization/ram:ID | $SUPPLIER/cac:PartyLegalEntity/cbc:CompanyID
BT-31 | Seller VAT identifier | doc | text | seller.vat_id | $SELLER/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA'] | $SUPPLIER/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID
BT-34 | Seller electronic address | doc | schemed | seller.electronic_address | $SELLER/ram:URIUniversalCommunication/ram:URIID | $SUPPLIER/cbc:EndpointID
BT-41 | Seller contact point | doc | text | seller.contact.name | $SELLER/ram:DefinedTradeContact/ram:PersonName|$SELLER/ram:DefinedTradeContact/ram:DepartmentName | $SUPPLIER/cac:Contact/cbc:Name
BT-42 | Seller contact telephone | doc | text | seller.contact.phone | $SELLER/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber | $SUPPLIER/cac:Contact/cbc:Telephone
BT-43 | Seller contact e-mail | doc | text | seller.contact.email | $SELLER/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID | $SUPPLIER/cac:Contact/cbc:ElectronicMail
BT-32 | Seller tax registration identifier | doc | text | seller.tax_number | $SELLER/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='FC'] | $SUPPLIER/cac:PartyTaxScheme[not(cac:TaxScheme/cbc:ID='VAT')]/cbc:CompanyID
BT-33 | Seller additional legal information | doc | text | seller.legal_info | $SELLER/ram:Description | $SUPPLIER/cac:PartyLegalEntity/cbc:CompanyLegalForm
BT-35 | Seller street | doc | text | seller.address.street | $SELLER/ram:PostalTradeAddress/ram:LineOne | $SUPPLIER/cac:PostalAddress/cbc:StreetName
BT-36 | Seller additional line | doc | text | seller.address.additional_street | $SELLER/ram:PostalTradeAddress/ram:LineTwo | $SUPPLIER/cac:PostalAddress/cbc:AdditionalStreetName
BT-162 | Seller address line 3 | doc | text | seller.address.address_line_3 | $SELLER/ram:PostalTradeAddress/ram:LineThree | $SUPPLIER/cac:PostalAddress/cac:AddressLine/cbc:Line
BT-37 | Seller city | doc | text | seller.address.city | $SELLER/ram:PostalTradeAddress/ram:CityName | $SUPPLIER/cac:PostalAddress/cbc:CityName
BT-38 | Seller post code | doc | text | seller.address.postal_code | $SELLER/ram:PostalTradeAddress/ram:PostcodeCode | $SUPPLIER/cac:PostalAddress/cbc:PostalZone
BT-39 | Seller country subdivision | doc | text | seller.address.subdivision | $SELLER/ram:PostalTradeAddress/ram:CountrySubDivisionName | $SUPPLIER/cac:PostalAddress/cbc:CountrySubentity
BT-40 | Seller country code | doc | text | seller.address.country | $SELLER/ram:PostalTradeAddress/ram:CountryID | $SUPPLIER/cac:PostalAddress/cac:Country/cbc:IdentificationCode
BT-44 | Buyer name | doc | text | buyer.name | $BUYER/ram:Name | $CUSTOMER/cac:PartyLegalEntity/cbc:RegistrationName
BT-45 | Buyer trading name | doc | text | buyer.trading_name | $BUYER/ram:SpecifiedLegalOrganization/ram:TradingBusinessName | $CUSTOMER/cac:PartyName/cbc:Name
BT-46 | Buyer identifier | doc | schemed | buyer.gln|buyer.lei | $BUYER/ram:ID|$BUYER/ram:GlobalID | $CUSTOMER/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]
BT-47 | Buyer legal registration identifier | doc | text | buyer.legal_id | $BUYER/ram:SpecifiedLegalOrganization/ram:ID | $CUSTOMER/cac:PartyLegalEntity/cbc:CompanyID
BT-48 | Buyer VAT identifier | doc | text | buyer.vat_id | $BUYER/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA'] | $CUSTOMER/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID
BT-49 | Buyer electronic address | doc | schemed | buyer.electronic_address | $BUYER/ram:URIUniversalCommunication/ram:URIID | $CUSTOMER/cbc:EndpointID
BT-56 | Buyer contact point | doc | text | buyer.contact.name | $BUYER/ram:DefinedTradeContact/ram:PersonName|$BUYER/ram:DefinedTradeContact/ram:DepartmentName | $CUSTOMER/cac:Contact/cbc:Name
BT-57 | Buyer contact telephone | doc | text | buyer.contact.phone | $BUYER/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber | $CUSTOMER/cac:Contact/cbc:Telephone
BT-58 | Buyer contact e-mail | doc | text | buyer.contact.email | $BUYER/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID | $CUSTOMER/cac:Contact/cbc:ElectronicMail
BT-50 | Buyer street | doc | text | buyer.address.street | $BUYER/ram:PostalTradeAddress/ram:LineOne | $CUSTOMER/cac:PostalAddress/cbc:StreetName
BT-51 | Buyer additional line | doc | text | buyer.address.additional_street | $BUYER/ram:PostalTradeAddress/ram:LineTwo | $CUSTOMER/cac:PostalAddress/cbc:AdditionalStreetName
BT-163 | Buyer address line 3 | doc | text | buyer.address.address_line_3 | $BUYER/ram:PostalTradeAddress/ram:LineThree | $CUSTOMER/cac:PostalAddress/cac:AddressLine/cbc:Line
BT-52 | Buyer city | doc | text | buyer.address.city | $BUYER/ram:PostalTradeAddress/ram:CityName | $CUSTOMER/cac:PostalAddress/cbc:CityName
BT-53 | Buyer post code | doc | text | buyer.address.postal_code | $BUYER/ram:PostalTradeAddress/ram:PostcodeCode | $CUSTOMER/cac:PostalAddress/cbc:PostalZone
BT-54 | Buyer country subdivision | doc | text | buyer.address.subdivision | $BUYER/ram:PostalTradeAddress/ram:CountrySubDivisionName | $CUSTOMER/cac:PostalAddress/cbc:CountrySubentity
BT-55 | Buyer country code | doc | text | buyer.address.country | $BUYER/ram:PostalTradeAddress/ram:CountryID | $CUSTOMER/cac:PostalAddress/cac:Country/cbc:IdentificationCode
BT-59 | Payee name | doc | text | further_terms.payee.name | $PAYEE/ram:Name | cac:PayeeParty/cac:PartyName/cbc:Name
BT-60 | Payee identifier | doc | schemed | further_terms.payee.identifier | $PAYEE/ram:ID|$PAYEE/ram:GlobalID | cac:PayeeParty/cac:PartyIdentification/cbc:ID[not(@schemeID='SEPA')]
BT-61 | Payee legal registration identifier | doc | text | further_terms.payee.legal_id | $PAYEE/ram:SpecifiedLegalOrganization/ram:ID | cac:PayeeParty/cac:PartyLegalEntity/cbc:CompanyID
BT-62 | Seller tax representative name | doc | text | further_terms.tax_representative.name | $TAXREP/ram:Name | cac:TaxRepresentativeParty/cac:PartyName/cbc:Name
BT-63 | Seller tax representative VAT identifier | doc | text | further_terms.tax_representative.vat_id | $TAXREP/ram:SpecifiedTaxRegistration/ram:ID | cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID
BT-64 | Tax representative street | doc | text | further_terms.tax_representative.address.street | $TAXREP/ram:PostalTradeAddress/ram:LineOne | cac:TaxRepresentativeParty/cac:PostalAddress/cbc:StreetName
BT-65 | Tax representative additional line | doc | text | further_terms.tax_representative.address.additional_street | $TAXREP/ram:PostalTradeAddress/ram:LineTwo | cac:TaxRepresentativeParty/cac:PostalAddress/cbc:AdditionalStreetName
BT-164 | Tax representative address line 3 | doc | text | further_terms.tax_representative.address.address_line_3 | $TAXREP/ram:PostalTradeAddress/ram:LineThree | cac:TaxRepresentativeParty/cac:PostalAddress/cac:AddressLine/cbc:Line
BT-66 | Tax representative city | doc | text | further_terms.tax_representative.address.city | $TAXREP/ram:PostalTradeAddress/ram:CityName | cac:TaxRepresentativeParty/cac:PostalAddress/cbc:CityName
BT-67 | Tax representative post code | doc | text | further_terms.tax_representative.address.postal_code | $TAXREP/ram:PostalTradeAddress/ram:PostcodeCode | cac:TaxRepresentativeParty/cac:PostalAddress/cbc:PostalZone
BT-68 | Tax representative country subdivision | doc | text | further_terms.tax_representative.address.subdivision | $TAXREP/ram:PostalTradeAddress/ram:CountrySubDivisionName | cac:TaxRepresentativeParty/cac:PostalAddress/cbc:CountrySubentity
BT-69 | Tax representative country code | doc | text | further_terms.tax_representative.address.country | $TAXREP/ram:PostalTradeAddress/ram:CountryID | cac:TaxRepresentativeParty/cac:PostalAddress/cac:Country/cbc:IdentificationCode
BT-70 | Deliver to party name | doc | text | further_terms.delivery.name | $SHIPTO/ram:Name | cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name
BT-71 | Deliver to location identifier | doc | schemed | further_terms.delivery.location_id | $SHIPTO/ram:ID|$SHIPTO/ram:GlobalID | cac:Delivery/cac:DeliveryLocation/cbc:ID
BT-72 | Actual delivery date | doc | date | delivery_date | $DL/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString | cac:Delivery/cbc:ActualDeliveryDate
BT-73 | Invoicing period start date | doc | date | invoicing_period.start | $ST/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:StartDate
BT-74 | Invoicing period end date | doc | date | invoicing_period.end | $ST/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString | cac:InvoicePeriod/cbc:EndDate
BT-75 | Deliver to street | doc | text | further_terms.delivery.address.street | $SHIPTO/ram:PostalTradeAddress/ram:LineOne | cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:StreetName
BT-76 | Deliver to additional line | doc | text | further_terms.delivery.address.additional_street | $SHIPTO/ram:PostalTradeAddress/ram:LineTwo | cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:AdditionalStreetName
BT-165 | Deliver to address line 3 | doc | text | further_terms.delivery.address.address_line_3 | $SHIPTO/ram:PostalTradeAddress/ram:LineThree | cac:Delivery/cac:DeliveryLocation/cac:Address/cac:AddressLine/cbc:Line
BT-77 | Deliver to city | doc | text | further_terms.delivery.address.city | $SHIPTO/ram:PostalTradeAddress/ram:CityName | cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CityName
BT-78 | Deliver to post code | doc | text | further_terms.delivery.address.postal_code | $SHIPTO/ram:PostalTradeAddress/ram:PostcodeCode | cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:PostalZone
BT-79 | Deliver to country subdivision | doc | text | further_terms.delivery.address.subdivision | $SHIPTO/ram:PostalTradeAddress/ram:CountrySubDivisionName | cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CountrySubentity
BT-80 | Deliver to country code | doc | text | further_terms.delivery.address.country | $SHIPTO/ram:PostalTradeAddress/ram:CountryID | cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode
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
BT-92 | Document level allowance amount | allowance | decimal | allowances_charges.amount | ram:ActualAmount | cbc:Amount
BT-93 | Document level allowance base amount | allowance | decimal | allowances_charges.base_amount | ram:BasisAmount | cbc:BaseAmount
BT-94 | Document level allowance percentage | allowance | decimal | allowances_charges.percentage | ram:CalculationPercent | cbc:MultiplierFactorNumeric
BT-97 | Document level allowance reason | allowance | text | allowances_charges.reason | ram:Reason | cbc:AllowanceChargeReason
BT-98 | Document level allowance reason code | allowance | text | allowances_charges.reason_code | ram:ReasonCode | cbc:AllowanceChargeReasonCode
BT-95 | Document level allowance VAT category code | allowance | text | allowances_charges.vat_category | ram:CategoryTradeTax/ram:CategoryCode | cac:TaxCategory/cbc:ID
BT-96 | Document level allowance VAT rate | allowance | decimal | allowances_charges.tax_rate | ram:CategoryTradeTax/ram:RateApplicablePercent | cac:TaxCategory/cbc:Percent
BT-99 | Document level charge amount | charge | decimal | allowances_charges.amount | ram:ActualAmount | cbc:Amount
BT-100 | Document level charge base amount | charge | decimal | allowances_charges.base_amount | ram:BasisAmount | cbc:BaseAmount
BT-101 | Document level charge percentage | charge | decimal | allowances_charges.percentage | ram:CalculationPercent | cbc:MultiplierFactorNumeric
BT-104 | Document level charge reason | charge | text | allowances_charges.reason | ram:Reason | cbc:AllowanceChargeReason
BT-105 | Document level charge reason code | charge | text | allowances_charges.reason_code | ram:ReasonCode | cbc:AllowanceChargeReasonCode
BT-102 | Document level charge VAT category code | charge | text | allowances_charges.vat_category | ram:CategoryTradeTax/ram:CategoryCode | cac:TaxCategory/cbc:ID
BT-103 | Document level charge VAT rate | charge | decimal | allowances_charges.tax_rate | ram:CategoryTradeTax/ram:RateApplicablePercent | cac:TaxCategory/cbc:Percent
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


def _parse(table: str) -> tuple[Binding, ...]:
    """The table's lines as bindings, its ``$NAME`` prefixes expanded (a malformed line names itself)."""
    out = []
    for number, line in enumerate(table.strip().splitlines(), 1):
        cells = line.split(" | ")
        if len(cells) != 7:
            raise ValueError(f"bindings.py: TABLE line {number} has {len(cells)} cells, not 7: {line!r}")
        term, name, scope, kind, held, cii, ubl = cells
        cii, ubl = (Template(path).substitute(PREFIXES) for path in (cii, ubl))
        out.append(Binding(term, name, scope, cii, ubl, kind, None if held == "-" else held))
    return tuple(out)


BINDINGS: tuple[Binding, ...] = _parse(TABLE)
BY_TERM = {binding.term: binding for binding in BINDINGS}

# a postal address's parts by their invoice-en16931 key: (CII, UBL) XPaths relative to the address, the seller's
# rows of the table less the seller's address
_ADDRESS = {
    binding.held.rsplit(".", 1)[1]: {
        "CII": binding.cii.removeprefix(f"{PREFIXES['SELLER']}/ram:PostalTradeAddress/"),
        "UBL": binding.ubl.removeprefix(f"{PREFIXES['SUPPLIER']}/cac:PostalAddress/"),
    }
    for binding in BINDINGS
    if binding.held and binding.held.startswith("seller.address.") and binding.cii and binding.ubl
}


def address_steps(key: str, syntax: str) -> tuple[str, ...]:
    """An address part's element steps by local name in a syntax: ``address_steps("country", "UBL")`` is
    ``("Country", "IdentificationCode")`` (``key``: an invoice-en16931 address key such as ``street``; ``syntax``:
    ``CII`` or ``UBL``)."""
    return tuple(step.split(":", 1)[1] for step in _ADDRESS[key][syntax].split("/"))
