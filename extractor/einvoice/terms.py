"""EN 16931 Business Terms (BT-n) as frozen dataclasses: the neutral form both writers (``write``, ``write_ubl``)
start from. ``read_record.terms_from`` reads a record into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from extractor.einvoice.codes import CREDIT_NOTES

INVOICE = "380"
OUTSIDE_SCOPE = "O"  # BR-O-05 / 06 / 07: no VAT rate is written for its lines, allowances and charges


@dataclass(frozen=True)
class Contact:
    """A party's contact (BG-6 / BG-9): name BT-41/56, phone BT-42/57, e-mail BT-43/58."""

    name: str | None = None
    phone: str | None = None
    email: str | None = None


@dataclass(frozen=True)
class Party:
    """A seller (BG-4) or buyer (BG-7): name BT-27/44, address BG-5/8, VAT id BT-31/48, tax registration BT-32,
    legal registration BT-30/47, identifiers BT-29/46 (``(scheme, id)``), contact BG-6/9, electronic address
    BT-34/49 (``(scheme, id)``)."""

    name: str | None
    street: str | None = None
    postal_code: str | None = None
    city: str | None = None
    country: str | None = None
    vat_id: str | None = None
    tax_registration: str | None = None
    legal_id: str | None = None
    identifiers: tuple[tuple[str, str], ...] = ()
    contact: Contact | None = None
    electronic_address: tuple[str, str] | None = None
    trading_name: str | None = None  # BT-28 / BT-45
    additional_street: str | None = None  # BT-36 / 51 / 65 / 76
    line_three: str | None = None  # BT-162 / 163 / 164 / 165
    subdivision: str | None = None  # BT-39 / 54 / 68 / 79
    legal_info: str | None = None  # BT-33


@dataclass(frozen=True)
class Line:
    """An invoice line (BG-25): id BT-126, quantity BT-129, unit BT-130, net amount BT-131, net price BT-146,
    item name BT-153, seller's item id BT-155, line allowance BT-136 and charge BT-141, VAT category BT-151 and
    rate BT-152."""

    id: str
    name: str | None
    quantity: Decimal | None
    unit_code: str | None
    net_price: Decimal | None
    net_amount: Decimal | None
    rate: Decimal | None
    category: str | None
    item_id: str | None = None
    allowance: Decimal | None = None
    charge: Decimal | None = None
    allowance_reason: str | None = None  # BT-139
    allowance_code: str | None = None  # BT-140
    charge_reason: str | None = None  # BT-144
    charge_code: str | None = None  # BT-145
    note: str | None = None  # BT-127
    object_id: tuple[str | None, str] | None = None  # BT-128 (scheme, id)
    order_line: str | None = None  # BT-132
    accounting: str | None = None  # BT-133
    period_start: str | None = None  # BT-134
    period_end: str | None = None  # BT-135
    base_quantity: Decimal | None = None  # BT-149
    base_unit: str | None = None  # BT-150
    gross_price: Decimal | None = None  # BT-148
    price_discount: Decimal | None = None  # BT-147
    description: str | None = None  # BT-154
    buyer_item_id: str | None = None  # BT-156
    standard_id: tuple[str | None, str] | None = None  # BT-157 (scheme, id)
    classifications: tuple[tuple[str | None, str], ...] = ()  # BT-158 (scheme, code)
    origin_country: str | None = None  # BT-159
    attributes: tuple[tuple[str, str], ...] = ()  # BG-32 (name, value)


@dataclass(frozen=True)
class Tax:
    """A VAT breakdown (BG-23): basis BT-116, amount BT-117, category BT-118, rate BT-119, exemption reason BT-120."""

    basis: Decimal | None
    amount: Decimal | None
    rate: Decimal | None
    category: str | None
    exemption_reason: str | None = None
    exemption_code: str | None = None  # BT-121


@dataclass(frozen=True)
class AllowanceCharge:
    """A document allowance (BG-20) or charge (BG-21): amount BT-92/99, reason BT-97/104, VAT category BT-95/102,
    rate BT-96/103."""

    charge: bool
    amount: Decimal | None
    reason: str | None
    rate: Decimal | None
    category: str | None
    code: str | None = None  # BT-98 / 105
    base: Decimal | None = None  # BT-93 / 100
    percentage: Decimal | None = None  # BT-94 / 101


@dataclass(frozen=True)
class Document:
    """A supporting document (BG-24): reference BT-122, description BT-123, location BT-124 (its attachment,
    BT-125, is not in the record: written only as the reference)."""

    reference: str
    description: str | None = None
    uri: str | None = None


@dataclass(frozen=True)
class Terms:
    """The Business Terms one record gives, None where it gives none; ``notes`` says what was derived or left out."""

    number: str | None
    issue_date: str | None
    type_code: str
    currency: str | None
    seller: Party
    buyer: Party
    lines: tuple[Line, ...]
    taxes: tuple[Tax, ...]
    line_total: Decimal | None  # BT-106
    tax_exclusive: Decimal | None  # BT-109
    tax_total: Decimal | None  # BT-110
    grand_total: Decimal | None  # BT-112
    prepaid: Decimal | None  # BT-113
    due_payable: Decimal | None  # BT-115
    due_date: str | None = None  # BT-9
    payment_terms: str | None = None  # BT-20
    payment_means: str | None = None  # BT-81
    iban: str | None = None  # BT-84 as an IBAN
    account_number: str | None = None  # BT-84 where no IBAN is printed
    bic: str | None = None  # BT-86
    account_name: str | None = None  # BT-85
    allowances: tuple[AllowanceCharge, ...] = ()  # BG-20 / BG-21
    allowance_total: Decimal | None = None  # BT-107
    charge_total: Decimal | None = None  # BT-108
    rounding: Decimal | None = None  # BT-114
    buyer_reference: str | None = None  # BT-10
    order_reference: str | None = None  # BT-13
    preceding_number: str | None = None  # BT-25
    preceding_date: str | None = None  # BT-26
    delivery_date: str | None = None  # BT-72
    period_start: str | None = None  # BT-73
    period_end: str | None = None  # BT-74
    tax_point_date: str | None = None  # BT-7
    tax_point_code: str | None = None  # BT-8 (UNTDID 2005: 3, 35, 432)
    project: str | None = None  # BT-11
    contract: str | None = None  # BT-12
    sales_order: str | None = None  # BT-14
    receiving_advice: str | None = None  # BT-15
    despatch_advice: str | None = None  # BT-16
    tender: str | None = None  # BT-17
    invoiced_object: tuple[str | None, str] | None = None  # BT-18 (scheme, id)
    buyer_accounting: str | None = None  # BT-19
    more_preceding: tuple[tuple[str, str | None], ...] = ()  # BG-3 beyond the first (number, date)
    payee: Party | None = None  # BG-10: name, identifiers (BT-60), legal_id (BT-61)
    tax_representative: Party | None = None  # BG-11: name, VAT id, address (BG-12)
    delivery: Party | None = None  # BG-13: name (BT-70), identifiers (BT-71), address (BG-15)
    remittance: str | None = None  # BT-83
    mandate: str | None = None  # BT-89
    creditor_id: str | None = None  # BT-90
    debited_account: str | None = None  # BT-91
    invoice_notes: tuple[tuple[str | None, str], ...] = ()  # BG-1 (subject code BT-21, text BT-22)
    documents: tuple[Document, ...] = ()  # BG-24
    tax_currency: str | None = None  # BT-6
    tax_total_accounting: Decimal | None = None  # BT-111
    payment_means_text: str | None = None  # BT-82
    card_number: str | None = None  # BT-87
    card_holder: str | None = None  # BT-88
    notes: tuple[str, ...] = ()

    @property
    def credit_note(self) -> bool:
        """Whether the type code is a credit note's (UBL writes a ``CreditNote`` then)."""
        return self.type_code in CREDIT_NOTES
