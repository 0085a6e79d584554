"""The built-in ``invoice-en16931`` schema as a Pydantic v2 model: ``InvoiceEN16931``, with its parts (EN 16931's
business terms and groups: typed party identifiers, contacts, VAT categories, allowances and charges, references,
delivery, the further line and document terms).

``schemas/invoice-en16931.schema.json`` stays the published contract; ``InvoiceEN16931.model_json_schema()`` is it as
a dict (tests/test_schema_models.py compares the two). The base, the JSON Schema writer and the shared number and
date types are ``extractor.schema_models``'s (whose docstring says how the models read as JSON Schema); this module
holds the EN 16931 version only, so ``invoice`` and ``receipt`` read without it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from extractor.schema_models import (
    INVOICE_DESCRIPTION,
    Currency,
    Invoice,
    IsoDate,
    Money,
    Percent,
    Quantity,
    Receipt,
    _Contract,
    _top,
)

EN16931_DESCRIPTION = (
    INVOICE_DESCRIPTION + " The invoice schema with what EN 16931 e-invoices need (document type, VAT categories, "
    "allowances and charges, typed party identifiers, contacts, references, delivery): every field as printed."
)
VatCategory = Literal["S", "Z", "E", "AE", "K", "G", "O", "L", "M"]
_CATEGORY = (
    "VAT category as printed or stated: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-EU "
    "supply, G export outside the EU, O outside the scope of VAT, L Canary Islands, M Ceuta and Melilla"
)
DocumentType = Literal[
    "invoice", "credit_note", "corrected_invoice", "partial_invoice", "prepayment_invoice", "self_billed_invoice"
]
TaxPoint = Literal["issue_date", "delivery_date", "payment_date"]
PaymentMeans = Literal[
    "credit_transfer", "sepa_credit_transfer", "direct_debit", "sepa_direct_debit", "card", "cash", "cheque"
]


class Contact(_Contract):
    """A party's contact point as printed (BG-6 / BG-9)."""

    name: str | None = Field(max_length=120, description="Contact person or department")
    phone: str | None = Field(max_length=40)
    email: str | None = Field(max_length=120)


class EInvoiceAddress(_Contract):
    """An ``invoice-en16931`` postal address (BG-5 / BG-8 / BG-12 / BG-15): the ``invoice`` address with the
    further lines and the subdivision EN 16931 has."""

    street: str | None = Field(max_length=120)
    additional_street: str | None = Field(max_length=120, description="Second address line, if printed")
    address_line_3: str | None = Field(max_length=120, description="Third address line, if printed")
    postal_code: str | None = Field(max_length=16)
    city: str | None = Field(max_length=60)
    subdivision: str | None = Field(max_length=60, description="Region, state or province, if printed")
    country: str | None = Field(max_length=2, pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2 country code")


_SCHEMED = "as printed; scheme:id where a scheme is given (e.g. 0088:4000001123452)"


class EInvoiceParty(_Contract):
    """An ``invoice-en16931`` seller or buyer: the ``invoice`` party with its identifiers typed."""

    name: str = Field(max_length=120)
    trading_name: str | None = Field(max_length=120, description="Trading name, if printed beside the legal name")
    address: EInvoiceAddress | None = Field(
        description="Postal address, split into parts; null where a part is not printed."
    )
    vat_id: str | None = Field(
        max_length=20, description="VAT identification number with country prefix, e.g. DE123456789"
    )
    tax_number: str | None = Field(
        max_length=30, description="Tax number that is not the VAT id (Steuernummer, EIN, tax registration number)"
    )
    legal_id: str | None = Field(
        max_length=40,
        description="Company / legal registration number (commercial register, SIRET, KvK, corporate number)",
    )
    gln: str | None = Field(max_length=13, pattern=r"^[0-9]{13}$", description="GS1 Global Location Number")
    lei: str | None = Field(
        max_length=20, pattern=r"^[A-Z0-9]{18}[0-9]{2}$", description="Legal Entity Identifier (ISO 17442)"
    )
    other_ids: list[Annotated[str, Field(max_length=60)]] | None = Field(
        max_length=5, description=f"Other party identifiers (supplier or customer number, DUNS), {_SCHEMED}"
    )
    contact: Contact | None = Field(description="Contact person, phone, e-mail as printed")
    electronic_address: str | None = Field(
        max_length=120, description="E-invoicing address if printed: an e-mail address, or a Peppol id as scheme:id"
    )
    legal_info: str | None = Field(
        max_length=300, description="Seller's additional legal information (share capital, register court)"
    )


class Classification(_Contract):
    """An item classification code (BT-158) and its scheme (UNTDID 7143: STI, CV, HS...)."""

    code: str = Field(max_length=40)
    scheme: str | None = Field(max_length=10)


class Attribute(_Contract):
    """An item attribute (BG-32): its name and value as printed."""

    name: str = Field(max_length=60)
    value: str = Field(max_length=120)


class LineDetails(_Contract):
    """What an ``invoice-en16931`` line may carry beyond its amounts (EN 16931 BG-25 to BG-32), each null where not
    given: one ``null`` for the whole where a line carries none of it."""

    buyer_item_id: str | None = Field(max_length=40, description="Buyer's article number, if printed")
    standard_id: str | None = Field(max_length=60, description=f"Standard item id (GTIN), {_SCHEMED}")
    item_description: str | None = Field(max_length=500, description="Longer item description, if printed")
    price_base_unit: str | None = Field(max_length=20, description="Unit of the price base quantity")
    gross_price: Money | None = Field(description="Unit price before the price discount, if printed")
    price_discount: Money | None = Field(description="Discount on the unit price, if printed")
    allowance_reason: str | None = Field(max_length=120)
    allowance_reason_code: str | None = Field(max_length=3, description="UNTDID 5189 code")
    charge_reason: str | None = Field(max_length=120)
    charge_reason_code: str | None = Field(max_length=3, description="UNTDID 7161 code")
    note: str | None = Field(max_length=300)
    object_id: str | None = Field(max_length=60, description=f"Object the line is for, {_SCHEMED}")
    order_line_reference: str | None = Field(max_length=40, description="Purchase order line number")
    accounting_reference: str | None = Field(max_length=60, description="Buyer's cost centre / account")
    period: Period | None = Field(description="Service or billing period of the line")
    classifications: list[Classification] | None = Field(max_length=10)
    origin_country: str | None = Field(max_length=2, pattern=r"^[A-Z]{2}$", description="Country of origin")
    attributes: list[Attribute] | None = Field(max_length=20, description="Item attributes (colour, size...)")


class EInvoiceLineItem(_Contract):
    """One ``invoice-en16931`` invoice line."""

    line_id: str | None = Field(max_length=40, description="Line number or id as printed")
    item_id: str | None = Field(max_length=40, description="Seller's article number / SKU")
    description: str = Field(max_length=200)
    quantity: Quantity
    unit: str | None = Field(max_length=20, description="Unit as printed (Stk., h, kg, pcs)")
    unit_price: Money = Field(description="Net price per unit (per price_base_quantity units where one is printed)")
    price_base_quantity: Quantity | None = Field(description="Quantity the printed price is for (per 100), if any")
    allowance: Money | None = Field(description="Line discount amount, already deducted in amount")
    charge: Money | None = Field(description="Line surcharge amount, already added in amount")
    tax_rate: Percent | None = Field(description="Tax rate in percent, e.g. 19 for 19 %")
    vat_category: VatCategory | None = Field(description=_CATEGORY)
    amount: Money = Field(description="Line net amount (quantity x unit price - line discount + line surcharge)")
    details: LineDetails | None = Field(description="Further line terms (references, period, item ids), if any")


class EInvoiceTaxLine(_Contract):
    """One row of an ``invoice-en16931`` tax summary."""

    rate: Percent | None = Field(description="Tax rate in percent; null where none applies (outside the scope of VAT)")
    category: VatCategory | None = Field(description=_CATEGORY)
    base: Money = Field(description="Taxable amount at this rate and category")
    amount: Money = Field(description="Tax amount at this rate")
    exemption_reason: str | None = Field(
        max_length=200, description="Why no VAT is charged, as printed (e.g. reverse charge, intra-EU supply)"
    )
    exemption_code: str | None = Field(max_length=30, description="VATEX exemption reason code, e.g. VATEX-EU-IC")


class AllowanceCharge(_Contract):
    """A document-level allowance (discount) or charge (freight, packing, surcharge)."""

    kind: Literal["allowance", "charge"]
    reason: str | None = Field(max_length=120)
    reason_code: str | None = Field(max_length=3, description="UNTDID 5189 (allowance) or 7161 (charge) code")
    amount: Money = Field(description="Net amount of the allowance or charge")
    base_amount: Money | None = Field(description="Amount the percentage applies to, if printed")
    percentage: Percent | None = Field(description="Percentage, if printed")
    tax_rate: Percent | None = Field(description="Tax rate in percent that applies to it")
    vat_category: VatCategory | None = Field(description=_CATEGORY)


class Period(_Contract):
    """An invoicing or delivery period."""

    start: IsoDate | None
    end: IsoDate | None


class PrecedingInvoice(_Contract):
    """The invoice a credit note or corrected invoice refers to."""

    number: str = Field(max_length=40)
    issue_date: IsoDate | None


class References(_Contract):
    """The references an invoice prints beside the order (BT-11, BT-12, BT-14 to BT-19)."""

    project: str | None = Field(max_length=60)
    contract: str | None = Field(max_length=60)
    sales_order: str | None = Field(max_length=60, description="Seller's order number")
    receiving_advice: str | None = Field(max_length=60)
    despatch_advice: str | None = Field(max_length=60, description="Delivery note number")
    tender_or_lot: str | None = Field(max_length=60)
    invoiced_object: str | None = Field(max_length=60, description=f"Object invoiced (meter, subscription), {_SCHEMED}")
    buyer_accounting: str | None = Field(max_length=60, description="Buyer's accounting reference / cost centre")


class Payee(_Contract):
    """The party paid when it is not the seller (BG-10: a factoring company)."""

    name: str = Field(max_length=120)
    identifier: str | None = Field(max_length=60, description=_SCHEMED)
    legal_id: str | None = Field(max_length=40)


class TaxRepresentative(_Contract):
    """The seller's tax representative (BG-11)."""

    name: str = Field(max_length=120)
    vat_id: str | None = Field(max_length=20)
    address: EInvoiceAddress | None


class Delivery(_Contract):
    """Where the goods or services go (BG-13 / BG-15)."""

    name: str | None = Field(max_length=120, description="Deliver-to party name")
    location_id: str | None = Field(max_length=60, description=f"Deliver-to location id, {_SCHEMED}")
    address: EInvoiceAddress | None


class DirectDebit(_Contract):
    """A direct debit's mandate (BG-19)."""

    mandate: str | None = Field(max_length=60, description="Mandate reference")
    creditor_id: str | None = Field(max_length=60, description="SEPA creditor identifier")
    debited_account: str | None = Field(max_length=34, description="Account debited (IBAN)")


class Note(_Contract):
    """A note on the invoice (BG-1) with its UNTDID 4451 subject code."""

    subject_code: str | None = Field(max_length=3)
    text: str = Field(max_length=1000)


class EmbeddedAttachment(_Contract):
    """A file embedded in the invoice (BT-125): named, never inlined (its bytes are kept beside the record)."""

    filename: str | None = Field(max_length=200)
    mime_type: str | None = Field(max_length=100)
    size: int | None = Field(ge=0, le=100_000_000, description="Size in bytes")


class SupportingDocument(_Contract):
    """A document supporting the invoice (BG-24): a timesheet, a delivery note."""

    reference: str = Field(max_length=100)
    description: str | None = Field(max_length=200)
    uri: str | None = Field(max_length=300)
    attachment: EmbeddedAttachment | None


class PaymentCard(_Contract):
    """A payment card (BG-18): its number as printed (the last digits only) and its holder."""

    number: str = Field(max_length=20, description="Card number as printed, usually its last 4 to 6 digits")
    holder: str | None = Field(max_length=120)


class EInvoiceBankAccount(_Contract):
    """The account an ``invoice-en16931`` invoice asks to be paid to."""

    iban: str | None = Field(
        max_length=34, pattern=r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", description="IBAN without spaces"
    )
    account_number: str | None = Field(max_length=34, description="Account number where no IBAN is printed")
    bic: str | None = Field(max_length=11)
    account_holder: str | None = Field(max_length=120)


class FurtherTerms(_Contract):
    """The EN 16931 terms an invoice may carry beyond what a paper invoice usually prints (EN 16931's BG-1, BG-3,
    BG-10, BG-11, BG-13, BG-18, BG-19, BG-24, BT-6 to BT-8, BT-11 to BT-19, BT-81 to BT-83, BT-111), each null where
    not given: one ``null`` for the whole where an invoice gives none of them."""

    tax_point_date: IsoDate | None = Field(description="Date the VAT becomes due, if printed apart")
    tax_point_code: TaxPoint | None = Field(description="Which date the VAT becomes due at, if stated")
    tax_currency: str | None = Field(
        max_length=3, pattern=r"^[A-Z]{3}$", description="Currency the VAT is accounted in, if another is printed"
    )
    tax_total_in_tax_currency: Money | None = Field(description="Total VAT in that accounting currency, if printed")
    references: References | None = Field(description="Further references, if printed")
    more_preceding_invoices: list[PrecedingInvoice] | None = Field(
        max_length=20, description="Further invoices credited or corrected"
    )
    payee: Payee | None = Field(description="Party to be paid when not the seller (factoring)")
    tax_representative: TaxRepresentative | None
    delivery: Delivery | None = Field(description="Deliver-to party and address, if printed")
    payment_means_code: str | None = Field(
        max_length=3, description="UNTDID 4461 payment means code, where payment_means has no word for it"
    )
    payment_means_text: str | None = Field(max_length=120, description="How to pay, in the document's words")
    payment_card: PaymentCard | None = Field(description="The card paid with, if printed")
    remittance_information: str | None = Field(max_length=140, description="Payment reference to quote")
    direct_debit: DirectDebit | None
    invoice_notes: list[Note] | None = Field(max_length=20)
    supporting_documents: list[SupportingDocument] | None = Field(max_length=20)


class InvoiceEN16931(_Contract):
    """The built-in ``invoice-en16931`` schema (schemas/invoice-en16931.schema.json): ``Invoice`` with what
    EN 16931 e-invoices need, every new field nullable (null where not printed, never invented)."""

    model_config = _top("invoice-en16931", EN16931_DESCRIPTION)

    document_type: DocumentType = Field(
        description="What the document calls itself: invoice, credit note (Gutschrift, avoir), corrected invoice, "
        "partial or instalment invoice, prepayment invoice, self-billed invoice"
    )
    invoice_number: str = Field(max_length=40)
    issue_date: IsoDate
    due_date: IsoDate | None
    delivery_date: IsoDate | None = Field(description="Delivery or service date, if printed")
    invoicing_period: Period | None = Field(description="Service or billing period, if printed")
    currency: Currency
    buyer_reference: str | None = Field(
        max_length=60, description="Buyer's reference as printed (your reference, Ihre Referenz, Leitweg-ID)"
    )
    order_reference: str | None = Field(max_length=60, description="Buyer's purchase order number")
    preceding_invoice: PrecedingInvoice | None = Field(description="Invoice that is credited or corrected")
    seller: EInvoiceParty
    buyer: EInvoiceParty
    line_items: list[EInvoiceLineItem] = Field(min_length=0, max_length=5000)
    subtotal: Money = Field(description="Sum of line net amounts")
    allowances_charges: list[AllowanceCharge] = Field(
        max_length=20, description="Document-level allowances and charges (not line discounts)"
    )
    tax_lines: list[EInvoiceTaxLine] = Field(max_length=10)
    total: Money = Field(description="Gross total including tax")
    prepaid_amount: Money | None = Field(description="Amount already paid, if printed")
    rounding_amount: Money | None = Field(description="Rounding amount added to the total, if printed")
    amount_due: Money = Field(description="Amount still to pay")
    payment_means: PaymentMeans | None = Field(description="How to pay, as printed")
    payment_terms: str | None = Field(max_length=200)
    bank_account: EInvoiceBankAccount | None = Field(description="Bank account for payment")
    further_terms: FurtherTerms | None = Field(
        description="EN 16931 terms beyond the above (payee, delivery, references, notes, documents), if any"
    )


# every built-in schema's model by the schema's name (here, the one module that sees all three)
BUILTIN_MODELS: dict[str, type[BaseModel]] = {
    "invoice": Invoice,
    "invoice-en16931": InvoiceEN16931,
    "receipt": Receipt,
}
