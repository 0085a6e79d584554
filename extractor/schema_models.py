"""The built-in schemas as Pydantic v2 models: ``Invoice`` and ``Receipt``, with their parts.

``schemas/invoice.schema.json`` and ``schemas/receipt.schema.json`` stay the published contract (prompts, records
and validation read them); these classes are the same contract as Python types, for ``Extractor(schema=Invoice)``
and a typed ``record.parsed``. ``Invoice.model_json_schema()`` is, as a dict, the file's JSON Schema: the models
write it with ``BuiltinJsonSchema``, and tests/test_schema_models.py compares the two, so a change to either side
that the other does not follow fails there.

Reading the models as JSON Schema (what ``BuiltinJsonSchema`` does to pydantic's own output):

- ``X | None`` (required, no default: the schemas have no optional keys, only nullable ones) is written as the
  files write it, ``"type": [X, "null"]`` with X's constraints beside it; a nullable enum lists ``null`` too.
- Nested models are written in place (no ``$defs`` / ``$ref``). A nested model's class name and docstring are
  Python's, not the schema's: what the schema says of a nested object is the field's ``description``.
- No titles are made up from class or field names; the top model's title, description, ``$schema`` and ``$id``
  come from its ``model_config``.
- ``extra="forbid"`` on every model: ``additionalProperties: false``, as the files say.

This module is the only one of the package to import pydantic at its top: ``extractor`` exports ``Invoice`` and
``Receipt`` lazily, and ``load_schema("invoice")`` never imports it.
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import DEFAULT_REF_TEMPLATE, GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_DEFS_PREFIX = "#/$defs/"
# the keywords whose values are schemas (one, a list, or a name -> schema map): where the rewrite walks; every
# other keyword is a value (a property *named* "title" is not a title)
_ONE_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs")


class BuiltinJsonSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema generator, writing the built-in schemas' dialect (the module docstring lists the
    rules): nullable as a type list, nested models inlined, no made-up titles.

    Raises (from ``generate``):
        ValueError: a model refers to itself (cannot be inlined), or a ``$ref`` names no definition.
    """

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never: the files' properties carry no titles (pydantic would write ``"title": "Invoice Number"``)."""
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        """The model's JSON Schema in the files' dialect."""
        out = super().generate(schema, mode=mode)
        definitions = out.pop("$defs", {})
        return _rewrite(out, definitions, ())


def _rewrite(node: Any, definitions: dict[str, Any], inlining: tuple[str, ...]) -> Any:
    """``node`` (a schema) with every ``$ref`` written in place and every ``anyOf [X, null]`` as a type list."""
    if not isinstance(node, dict):
        return node
    node = dict(node)
    reference = node.pop("$ref", None)
    if reference is not None:
        name = reference.removeprefix(_DEFS_PREFIX)
        if name in inlining:
            raise ValueError(f"{name} refers to itself: a recursive model cannot be inlined")
        if not reference.startswith(_DEFS_PREFIX) or name not in definitions:
            raise ValueError(f"$ref {reference!r} names no definition")
        target = copy.deepcopy(definitions[name])
        # the class's own name and docstring: Python's (the field's description, beside the $ref, is the schema's)
        target.pop("title", None)
        target.pop("description", None)
        inlined = _rewrite(target, definitions, (*inlining, name))
        clash = sorted(set(inlined) & set(node))
        if clash:
            raise ValueError(f"$ref {reference!r}: the field and the model both set {clash}")
        node = {**inlined, **node}
    for key in _ONE_SCHEMA:
        if isinstance(node.get(key), dict):
            node[key] = _rewrite(node[key], definitions, inlining)
    for key in _SCHEMA_LISTS:
        if key in node:
            node[key] = [_rewrite(item, definitions, inlining) for item in node[key]]
    for key in _SCHEMA_MAPS:
        if key in node:
            node[key] = {name: _rewrite(value, definitions, inlining) for name, value in node[key].items()}
    return _nullable_as_type_list(node)


def _nullable_as_type_list(node: dict[str, Any]) -> dict[str, Any]:
    """``{"anyOf": [X, {"type": "null"}], ...}`` as ``{**X, "type": [X's type, "null"], ...}``; left as it is
    when X has no single type or the two levels would set the same keyword differently (never merged wrongly)."""
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or {"type": "null"} not in branches:
        return node
    (inner,) = [branch for branch in branches if branch != {"type": "null"}]
    outer = {key: value for key, value in node.items() if key != "anyOf"}
    if not isinstance(inner.get("type"), str) or set(inner) & set(outer):
        return node
    merged = {**inner, **outer, "type": [inner["type"], "null"]}
    if "enum" in merged and None not in merged["enum"]:
        merged["enum"] = [*merged["enum"], None]
    return merged


class _Contract(BaseModel):
    """The base of the built-in models: no keys beyond the schema's, and ``model_json_schema()`` written by
    ``BuiltinJsonSchema`` (so it equals the file)."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def model_json_schema(
        cls,
        by_alias: bool | None = None,
        ref_template: str = DEFAULT_REF_TEMPLATE,
        schema_generator: type[GenerateJsonSchema] = BuiltinJsonSchema,
        mode: JsonSchemaMode = "validation",
        *,
        union_format: Literal["any_of", "primitive_type_array"] = "any_of",
    ) -> dict[str, Any]:
        """The JSON Schema of the model, by default in the built-in files' dialect (``BuiltinJsonSchema``)."""
        return super().model_json_schema(
            by_alias=by_alias,
            ref_template=ref_template,
            schema_generator=schema_generator,
            mode=mode,
            union_format=union_format,
        )


def _top(name: str, description: str) -> ConfigDict:
    """The top model's config: the file's title, description, ``$schema`` and ``$id``."""
    return ConfigDict(
        extra="forbid",
        title=name,
        json_schema_extra={
            "$schema": DIALECT,
            "$id": f"https://extractor.local/schemas/{name}.schema.json",
            "description": description,  # replaces the docstring, which is written for Python readers
        },
    )


# the schemas' numeric ranges (a bound on what a model may write, not a business rule)
Money = Annotated[float, Field(ge=-1e9, le=1e9)]
Quantity = Annotated[float, Field(ge=-1e6, le=1e6)]
Percent = Annotated[float, Field(ge=0, le=100)]
# an ISO 8601 date (YYYY-MM-DD): the schema's format "date", read as a ``datetime.date``
IsoDate = Annotated[date, Field(json_schema_extra={"maxLength": 10})]
Currency = Annotated[str, Field(max_length=3, pattern=r"^[A-Z]{3}$", description="ISO 4217 currency code")]

INVOICE_DESCRIPTION = (
    "A commercial invoice. Numbers are JSON numbers (no currency signs or thousands separators); dates are "
    "ISO 8601 (YYYY-MM-DD); null where a field is not printed on the document."
)
RECEIPT_DESCRIPTION = (
    "A till / shop receipt. Numbers are JSON numbers; date ISO 8601 (YYYY-MM-DD), time HH:MM (24 h); "
    "null where not printed."
)


class Address(_Contract):
    """A postal address in parts (an invoice party's); each part None where it is not printed."""

    street: str | None = Field(max_length=120)
    postal_code: str | None = Field(max_length=16)
    city: str | None = Field(max_length=60)
    country: str | None = Field(max_length=2, pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2 country code")


class Party(_Contract):
    """An invoice's seller or buyer."""

    name: str = Field(max_length=120)
    address: Address | None = Field(description="Postal address, split into parts; null where a part is not printed.")
    vat_id: str | None = Field(
        max_length=20, description="VAT identification number with country prefix, e.g. DE123456789"
    )
    tax_id: str | None = Field(max_length=30, description="Other tax / company registration number, if printed")


class LineItem(_Contract):
    """One invoice line."""

    description: str = Field(max_length=200)
    quantity: Quantity
    unit: str | None = Field(max_length=20)
    unit_price: Money
    tax_rate: Percent | None = Field(description="Tax rate in percent, e.g. 19 for 19 %")
    amount: Money = Field(description="Line net amount (quantity x unit price, after line discounts)")


class TaxLine(_Contract):
    """One row of an invoice's tax summary: the tax at one rate."""

    rate: Percent = Field(description="Tax rate in percent")
    base: Money = Field(description="Taxable amount at this rate")
    amount: Money = Field(description="Tax amount at this rate")


class BankAccount(_Contract):
    """The account an invoice asks to be paid to."""

    iban: str | None = Field(
        max_length=34, pattern=r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", description="IBAN without spaces"
    )
    bic: str | None = Field(max_length=11)
    account_holder: str | None = Field(max_length=120)


class Invoice(_Contract):
    """A commercial invoice: the built-in ``invoice`` schema (schemas/invoice.schema.json) as a Pydantic model.

    ``Extractor(schema=Invoice)`` makes the records ``schema="invoice"`` makes (the same fingerprint, prompt and
    validation), with ``record.parsed`` an ``Invoice``.
    """

    model_config = _top("invoice", INVOICE_DESCRIPTION)

    invoice_number: str = Field(max_length=40)
    issue_date: IsoDate
    due_date: IsoDate | None
    currency: Currency
    seller: Party
    buyer: Party
    line_items: list[LineItem] = Field(min_length=0, max_length=5000)
    subtotal: Money = Field(description="Sum of line net amounts")
    tax_lines: list[TaxLine] = Field(max_length=10)
    total: Money = Field(description="Gross total including tax")
    prepaid_amount: Money | None = Field(description="Amount already paid, if printed")
    amount_due: Money = Field(description="Amount still to pay")
    payment_terms: str | None = Field(max_length=200)
    bank_account: BankAccount | None = Field(description="Bank account for payment")


class Merchant(_Contract):
    """The shop a receipt is from (its address as one printed line)."""

    name: str = Field(max_length=120)
    address: str | None = Field(max_length=200)
    vat_id: str | None = Field(max_length=20)


class ReceiptItem(_Contract):
    """One item on a receipt."""

    description: str = Field(max_length=120)
    quantity: Quantity
    unit_price: Money | None
    amount: Money


class ReceiptTax(_Contract):
    """One tax row of a receipt."""

    rate: Percent = Field(description="Tax rate in percent")
    base: Money | None
    amount: Money


PaymentMethod = Literal["cash", "card", "mobile", "voucher", "other"]


class Receipt(_Contract):
    """A till / shop receipt: the built-in ``receipt`` schema (schemas/receipt.schema.json) as a Pydantic model.

    ``Extractor(schema=Receipt)`` makes the records ``schema="receipt"`` makes, with ``record.parsed`` a
    ``Receipt``.
    """

    model_config = _top("receipt", RECEIPT_DESCRIPTION)

    merchant: Merchant
    date: IsoDate
    time: str | None = Field(max_length=5, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    currency: Currency
    items: list[ReceiptItem] = Field(max_length=200)
    taxes: list[ReceiptTax] = Field(max_length=10)
    subtotal: Money | None
    total: Money
    payment_method: PaymentMethod | None


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


BUILTIN_MODELS: dict[str, type[BaseModel]] = {
    "invoice": Invoice,
    "invoice-en16931": InvoiceEN16931,
    "receipt": Receipt,
}
