"""The built-in schemas as Pydantic v2 models: ``Invoice`` and ``Receipt``, with their parts (``InvoiceEN16931`` is
in ``extractor.schema_models_en16931``).

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

This module and ``extractor.schema_models_en16931`` (the ``invoice-en16931`` model, ``InvoiceEN16931``, and its
EN 16931 parts, built on this module's base and types) are the only ones of the package to import pydantic at their
top: ``extractor`` exports ``Invoice``, ``Receipt`` and ``InvoiceEN16931`` lazily, and ``load_schema("invoice")``
never imports them.
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
