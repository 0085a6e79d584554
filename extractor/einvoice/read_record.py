"""Our invoice record read as EN 16931 Business Terms (BT-n, ``terms.Terms``), the neutral form both writers
(``write``, ``write_ubl``) start from.

Values are copied from the record, never guessed; the ``invoice-en16931`` schema holds most terms as printed and
the ``invoice`` schema fewer. Where the record has no value for a mandatory term, the term is left out, so the
official rule that needs it fires and the record says so; the few terms that follow from what is printed are
derived, and each derivation is listed in ``Terms.notes``:

* BT-3 type code: ``invoice-en16931``'s ``document_type`` (``codes.DOCUMENT_TYPES``); ``380`` (commercial
  invoice) for the ``invoice`` schema, which describes commercial invoices; embedded XML keeps its own code.
* BT-118 / BT-151 / BT-95 / BT-102 VAT category: as printed (``vat_category`` / ``category``), else ``S`` (standard
  rate) for a rate above 0, EN 16931's only category with a positive rate outside the Canary Islands (L) and
  Ceuta / Melilla (M). A rate of 0 may be Z, E, AE, K, G or O: without a printed category it is left out
  (BR-CO-18 / BR-47 / BR-48 fire).
* BT-130 unit code: the printed unit through ``codes.UNIT_CODES``; a unit not in it is left out (BR-23 fires) and
  named in the notes; no printed unit gives ``C62`` ("one", Rec 20's unit of a count).
* BT-109 (total without VAT) = BT-106 − BT-107 + BT-108 (the document allowances and charges); BT-110 (total VAT)
  = the sum of the tax lines' amounts (BT-117). Both keep BR-CO-10 / 15 / 16 real checks of the printed subtotal,
  total and amount due.
* BT-81 payment means: as printed (``payment_means``); else ``30`` (credit transfer) when an account is printed
  for payment: an account printed for payment is paid into by transfer.
* BT-34 / BT-49 electronic address: as printed (an e-mail address, or ``scheme:id``), else the party's printed
  contact e-mail (scheme ``EM``).
* BT-40 / BT-55 country, where the address prints none: the VAT id's country prefix, or ``US`` for a US ZIP code
  on a USD invoice (``codes.country_from``); otherwise left out (BR-09 / BR-11 fire).
* Identifiers: ``vat_id`` is BT-31 / BT-48; the seller's ``tax_number`` (``tax_id`` in the ``invoice`` schema) is
  BT-32 (the buyer's has no EN 16931 term and is left out); ``legal_id`` BT-30 / BT-47; ``gln`` / ``lei`` BT-29 /
  BT-46 with ISO 6523 schemes 0088 / 0199.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice import codes
from extractor.einvoice.codes import COUNT, CREDIT_NOTES, CREDIT_TRANSFER, unit_code, vat_category
from extractor.einvoice.terms import INVOICE, AllowanceCharge, Contact, Document, Line, Party, Tax, Terms


def decimal(value: Any) -> Decimal | None:
    """A JSON number (or numeric string) as a Decimal, exactly as written (``54.9`` stays ``54.9``); None else."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _mapping(value: Any) -> Mapping:
    return value if isinstance(value, Mapping) else {}


def _party(data: Any, *, role: str, currency: str | None, notes: list[str]) -> Party:
    if not isinstance(data, Mapping):
        return Party(name=None)
    buyer = role == "buyer"
    address = _mapping(data.get("address"))
    country = address.get("country")
    if not country and address:
        found = codes.country_from(vat_id=data.get("vat_id"), postal_code=address.get("postal_code"), currency=currency)
        if found:
            country = found[0]
            notes.append(f"{'BT-55' if buyer else 'BT-40'} {role} country {country}: read from {found[1]}")
    contact = _mapping(data.get("contact"))
    electronic = codes.electronic_address(data.get("electronic_address"))
    if electronic is None and data.get("electronic_address"):
        notes.append(f"{'BT-49' if buyer else 'BT-34'} {role} electronic address: neither an e-mail nor scheme:id")
    if electronic is None and codes.electronic_address(contact.get("email")):
        electronic = (codes.EMAIL_SCHEME, str(contact["email"]).strip())
        notes.append(f"{'BT-49' if buyer else 'BT-34'} {role} electronic address: the contact e-mail (scheme EM)")
    identifiers = tuple(
        (scheme, data[key]) for key, scheme in (("gln", codes.GLN_SCHEME), ("lei", codes.LEI_SCHEME)) if data.get(key)
    )
    identifiers += tuple(
        (scheme or "", value) for scheme, value in filter(None, map(schemed, data.get("other_ids") or ()))
    )
    return Party(
        trading_name=data.get("trading_name"),
        **_address_terms(address, country=country),
        legal_info=None if buyer else data.get("legal_info"),
        name=data.get("name"),
        vat_id=data.get("vat_id"),
        tax_registration=None if buyer else (data.get("tax_number") or data.get("tax_id")),
        legal_id=data.get("legal_id"),
        identifiers=identifiers[:1] if buyer else identifiers,  # BT-46 is one identifier
        contact=Contact(contact.get("name"), contact.get("phone"), contact.get("email")) if contact else None,
        electronic_address=electronic,
    )


def _lines(data: Mapping, *, unit_codes: bool, notes: list[str]) -> tuple[Line, ...]:
    lines = []
    unknown_units: set[str] = set()
    for number, item in enumerate(data.get("line_items") or (), start=1):
        if not isinstance(item, Mapping):
            continue
        rate = decimal(item.get("tax_rate"))
        code = (item.get("unit") or COUNT) if unit_codes else unit_code(item.get("unit"))
        if code is None:
            unknown_units.add(str(item.get("unit")))
        lines.append(
            Line(
                name=item.get("description"),
                quantity=decimal(item.get("quantity")),
                unit_code=code,
                net_price=decimal(item.get("unit_price")),
                net_amount=decimal(item.get("amount")),
                rate=rate,
                category=vat_category(item.get("vat_category"), rate),
                item_id=item.get("item_id"),
                allowance=decimal(item.get("allowance")),
                charge=decimal(item.get("charge")),
                **_line_terms(item, number),
            )
        )
    for unit in sorted(unknown_units):
        notes.append(f"BT-130 unit code: printed unit {unit!r} has no UN/ECE Rec 20 code in our table; left out")
    return tuple(lines)


def _allowances(data: Mapping) -> tuple[AllowanceCharge, ...]:
    out = []
    for entry in data.get("allowances_charges") or ():
        if isinstance(entry, Mapping):
            rate = decimal(entry.get("tax_rate"))
            out.append(
                AllowanceCharge(
                    charge=entry.get("kind") == "charge",
                    amount=decimal(entry.get("amount")),
                    reason=entry.get("reason"),
                    rate=rate,
                    category=vat_category(entry.get("vat_category"), rate),
                    code=entry.get("reason_code"),
                    base=decimal(entry.get("base_amount")),
                    percentage=decimal(entry.get("percentage")),
                )
            )
    return tuple(out)


def _sum(values: list[Decimal | None]) -> Decimal | None:
    """The sum, None when any is missing or there are none."""
    known = [v for v in values if v is not None]
    return sum(known, Decimal(0)) if known and len(known) == len(values) else None


def _payment(data: Mapping, notes: list[str]) -> tuple[str | None, Mapping]:
    """BT-81 and the bank account mapping (empty when none)."""
    bank = _mapping(data.get("bank_account"))
    account = bank.get("iban") or bank.get("account_number")
    code = _mapping(data.get("further_terms")).get("payment_means_code")  # a code without a word (invoice-en16931)
    means = codes.PAYMENT_MEANS.get(str(data.get("payment_means"))) or code or None
    if means is None and account:
        means = CREDIT_TRANSFER
        notes.append("BT-81 payment means 30 (credit transfer): derived, an account is printed for payment")
    return means, bank


def _type_code(data: Mapping, type_code: str | None, notes: list[str]) -> str:
    """BT-3: the source's, else the record's ``document_type``, else 380 (said in ``notes``)."""
    if not type_code:
        type_code = codes.DOCUMENT_TYPES.get(str(data.get("document_type")))
    if not type_code:
        type_code = INVOICE
        notes.append("BT-3 type code 380 (commercial invoice): derived, the invoice schema holds commercial invoices")
    return type_code


def _taxes(data: Mapping) -> tuple[Tax, ...]:
    """The VAT breakdowns (BG-23) of the record's ``tax_lines``."""
    return tuple(
        Tax(
            basis=decimal(t.get("base")),
            amount=decimal(t.get("amount")),
            rate=decimal(t.get("rate")),
            category=vat_category(t.get("category"), decimal(t.get("rate"))),
            exemption_reason=t.get("exemption_reason"),
            exemption_code=t.get("exemption_code"),
        )
        for t in data.get("tax_lines") or ()
        if isinstance(t, Mapping)
    )


def _note_left_out(data: Mapping, *, type_code: str, means: str | None, printed: Mapping, notes: list[str]) -> None:
    """Say in ``notes`` what a payment means must carry but has none for, and each gross price derived."""
    if type_code in CREDIT_NOTES and data.get("due_date") and not means:
        notes.append("BT-9 due date: a UBL CreditNote holds it in its payment means, written only with one")
    if _mapping(data.get("further_terms")).get("remittance_information") and not means:
        notes.append("BT-83 remittance information: UBL holds it in a payment means, written only with one")
    for number, item in enumerate(data.get("line_items") or (), start=1):
        details = _mapping(item.get("details")) if isinstance(item, Mapping) else {}
        if details.get("gross_price") is None and details.get("price_discount") is not None:
            notes.append(
                f"BT-148 line {number} gross price: derived as net price + price discount (CII holds the "
                "discount in the gross price)"
            )


def _document_totals(
    data: Mapping, allowances: tuple[AllowanceCharge, ...], printed: Mapping
) -> tuple[Decimal | None, Decimal | None, Decimal | None, Decimal | None]:
    """BT-106 line total, BT-107 allowances, BT-108 charges and BT-109 without VAT: the printed where the source
    printed them, else summed (a kind the record lists none of: the printed total, 0 or none)."""
    line_total = decimal(data.get("subtotal"))
    kinds = {a.charge for a in allowances}
    allowance_total = (
        _sum([a.amount for a in allowances if not a.charge])
        if False in kinds
        else decimal(printed.get("allowance_total"))
    )
    charge_total = (
        _sum([a.amount for a in allowances if a.charge]) if True in kinds else decimal(printed.get("charge_total"))
    )
    if printed.get("tax_basis_total") is not None:
        tax_exclusive = decimal(printed["tax_basis_total"])
    elif line_total is not None:
        tax_exclusive = line_total - (allowance_total or 0) + (charge_total or 0)
    else:
        tax_exclusive = None
    return line_total, allowance_total, charge_total, tax_exclusive


def terms_from(
    data: Mapping, *, type_code: str | None = None, unit_codes: bool = False, totals: Mapping | None = None
) -> Terms:
    """Read an invoice record's ``data`` (``invoice`` or ``invoice-en16931`` schema) as Business Terms.

    Args:
        data: the record's data.
        type_code: BT-3 when known from the source (embedded XML); None: ``document_type``, else ``380``.
        unit_codes: the units are Rec 20 codes already (data read from embedded XML), written as they are.
        totals: the document totals the source XML printed (``EmbeddedInvoice.totals``): BT-107 / 108 / 109 / 110
            are copied from it where it has them, instead of derived (its allowances and charges themselves,
            BG-20 / 21, the ``invoice`` schema cannot hold: BR-CO-11 / 12 fire where there are any).

    Returns:
        The Terms, with ``notes`` listing each derived value and each term left out.
    """
    notes: list[str] = []
    type_code = _type_code(data, type_code, notes)
    currency = data.get("currency")
    seller = _party(data.get("seller"), role="seller", currency=currency, notes=notes)
    buyer = _party(data.get("buyer"), role="buyer", currency=currency, notes=notes)
    lines = _lines(data, unit_codes=unit_codes, notes=notes)
    taxes = _taxes(data)
    allowances = _allowances(data)
    means, bank = _payment(data, notes)
    printed = _mapping(totals)
    _note_left_out(data, type_code=type_code, means=means, printed=printed, notes=notes)
    categories = [t.category for t in taxes] + [x.category for x in lines] + [a.category for a in allowances]
    if None in categories:
        notes.append("BT-118 / BT-151 VAT category: a rate of 0 (or none) may be Z, E, AE, K, G or O; left out")
    if (printed.get("allowance_total") or printed.get("charge_total")) and "allowances_charges" not in data:
        notes.append("BG-20 / BG-21 document allowances and charges: the invoice schema cannot hold them; left out")
    line_total, allowance_total, charge_total, tax_exclusive = _document_totals(data, allowances, printed)
    preceding = _mapping(data.get("preceding_invoice"))
    period = _mapping(data.get("invoicing_period"))
    iban = bank.get("iban") or None
    account = iban or bank.get("account_number") or None
    return Terms(
        number=data.get("invoice_number"),
        issue_date=data.get("issue_date"),
        type_code=type_code,
        currency=currency,
        seller=seller,
        buyer=buyer,
        lines=lines,
        taxes=taxes,
        line_total=line_total,
        tax_exclusive=tax_exclusive,
        tax_total=decimal(printed["tax_total"])
        if printed.get("tax_total") is not None
        else _sum([t.amount for t in taxes]),
        grand_total=decimal(data.get("total")),
        prepaid=decimal(data.get("prepaid_amount")),
        due_payable=decimal(data.get("amount_due")),
        due_date=data.get("due_date"),
        payment_terms=data.get("payment_terms"),
        payment_means=means,
        iban=iban,
        account_number=None if iban else (bank.get("account_number") or None),
        bic=bank.get("bic") if account else None,
        account_name=bank.get("account_holder") if account else None,
        allowances=allowances,
        allowance_total=allowance_total,
        charge_total=charge_total,
        rounding=decimal(data.get("rounding_amount")),
        buyer_reference=data.get("buyer_reference"),
        order_reference=data.get("order_reference"),
        preceding_number=preceding.get("number"),
        preceding_date=preceding.get("issue_date"),
        delivery_date=data.get("delivery_date"),
        period_start=period.get("start"),
        period_end=period.get("end"),
        **_document_terms(data),
        notes=tuple(notes),
    )


_SCHEMED = re.compile(r"^(?P<scheme>[0-9]{4}|[A-Z]{2,4}):(?P<id>.+)$")
TAX_POINT_CODES = {"issue_date": "3", "delivery_date": "35", "payment_date": "432"}  # BT-8, UNTDID 2005


def schemed(value: Any) -> tuple[str | None, str] | None:
    """``(scheme, id)`` of a ``scheme:id`` value (a four-digit ISO 6523 ICD or a code of 2-4 capitals), else
    ``(None, value)``; None for none."""
    if not value or not str(value).strip():
        return None
    text = str(value).strip()
    found = _SCHEMED.match(text)
    return (found["scheme"], found["id"]) if found else (None, text)


# a record address's keys by ``Party``'s fields (its country aside: a seller's or buyer's may be derived)
_ADDRESS_KEYS = {
    "street": "street",
    "additional_street": "additional_street",
    "line_three": "address_line_3",
    "postal_code": "postal_code",
    "city": "city",
    "subdivision": "subdivision",
}


def _address_terms(address: Mapping, *, country: str | None) -> dict:
    """A record's address as ``Party``'s address fields, with ``country``."""
    return {field: address.get(key) for field, key in _ADDRESS_KEYS.items()} | {"country": country}


def _address_party(data: Any, *, name_key: str = "name") -> Party | None:
    """A payee, tax representative or deliver-to party (BG-10 / 11 / 13) from its record object."""
    if not isinstance(data, Mapping):
        return None
    address = _mapping(data.get("address"))
    ids = tuple(x for x in (schemed(data.get("identifier")), schemed(data.get("location_id"))) if x)
    return Party(
        name=data.get(name_key),
        **_address_terms(address, country=address.get("country")),
        vat_id=data.get("vat_id"),
        legal_id=data.get("legal_id"),
        identifiers=tuple((scheme or "", value) for scheme, value in ids),
    )


def _line_terms(item: Mapping, number: int) -> dict:
    """A record line's further terms (``invoice-en16931``: its ``details``), keyed as ``Line``'s fields."""
    details = _mapping(item.get("details"))
    period = _mapping(details.get("period"))
    return {
        "id": item.get("line_id") or str(number),
        "allowance_reason": details.get("allowance_reason"),
        "allowance_code": details.get("allowance_reason_code"),
        "charge_reason": details.get("charge_reason"),
        "charge_code": details.get("charge_reason_code"),
        "note": details.get("note"),
        "object_id": schemed(details.get("object_id")),
        "order_line": details.get("order_line_reference"),
        "accounting": details.get("accounting_reference"),
        "period_start": period.get("start"),
        "period_end": period.get("end"),
        "base_quantity": decimal(item.get("price_base_quantity")),
        "base_unit": details.get("price_base_unit"),
        "gross_price": _gross(item, details),
        "price_discount": decimal(details.get("price_discount")),
        "description": details.get("item_description"),
        "buyer_item_id": details.get("buyer_item_id"),
        "standard_id": schemed(details.get("standard_id")),
        "classifications": tuple(
            (c.get("scheme"), c["code"]) for c in details.get("classifications") or () if isinstance(c, Mapping)
        ),
        "origin_country": details.get("origin_country"),
        "attributes": tuple((a["name"], a["value"]) for a in details.get("attributes") or () if isinstance(a, Mapping)),
    }


def _gross(item: Mapping, details: Mapping) -> Decimal | None:
    """BT-148 as printed, else net price + price discount where a discount is printed (BT-146 = BT-148 - BT-147)."""
    gross, discount = decimal(details.get("gross_price")), decimal(details.get("price_discount"))
    net = decimal(item.get("unit_price"))
    if gross is None and discount is not None and net is not None:
        return net + discount
    return gross


def _document_terms(data: Mapping) -> dict:
    """A record's further document terms (``invoice-en16931``'s ``further_terms``), keyed as ``Terms``' fields."""
    data = _mapping(data.get("further_terms"))
    refs, card = _mapping(data.get("references")), _mapping(data.get("payment_card"))
    debit = _mapping(data.get("direct_debit"))
    return {
        "tax_point_date": data.get("tax_point_date"),
        "tax_point_code": TAX_POINT_CODES.get(str(data.get("tax_point_code"))),
        **{key: refs.get(key) for key in ("project", "contract", "sales_order", "receiving_advice", "despatch_advice")},
        "tender": refs.get("tender_or_lot"),
        "invoiced_object": schemed(refs.get("invoiced_object")),
        "buyer_accounting": refs.get("buyer_accounting"),
        "more_preceding": tuple(
            (p["number"], p.get("issue_date"))
            for p in data.get("more_preceding_invoices") or ()
            if isinstance(p, Mapping)
        ),
        "payee": _address_party(data.get("payee")),
        "tax_representative": _address_party(data.get("tax_representative")),
        "delivery": _address_party(data.get("delivery")),
        "remittance": data.get("remittance_information"),
        "tax_currency": data.get("tax_currency"),
        "tax_total_accounting": decimal(data.get("tax_total_in_tax_currency")),
        "payment_means_text": data.get("payment_means_text"),
        "card_number": card.get("number"),
        "card_holder": card.get("holder"),
        "mandate": debit.get("mandate"),
        "creditor_id": debit.get("creditor_id"),
        "debited_account": debit.get("debited_account"),
        "invoice_notes": tuple(
            (n.get("subject_code"), n["text"]) for n in data.get("invoice_notes") or () if isinstance(n, Mapping)
        ),
        "documents": tuple(
            Document(d["reference"], d.get("description"), d.get("uri"))
            for d in data.get("supporting_documents") or ()
            if isinstance(d, Mapping)
        ),
    }
