"""The values every syntax's reader takes the same way: an IBAN checked, the amount due derived, a postal address
by the binding table's element names, a CII document's line positions, a UBL document's tax total in its currency,
and the shapes of the ``invoice-en16931`` extras (a party's further terms, a payment means word, a period, a line's
summed allowances or charges, a document allowance or charge). ``read_cii`` and ``read_ubl`` build on them.
"""

from __future__ import annotations

import re
from decimal import Decimal

from extractor.einvoice.bindings import address_steps, bank_steps, contact_steps
from extractor.einvoice.codes import payment_means_of
from extractor.einvoice.xmltext import decimal_at, find_all, find_one, plain_number, text_at

IBAN = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$")
GLN, LEI = "0088", "0199"  # ISO 6523 ICD schemes of a party's global identifiers


def checked_iban(value: str | None, notes: list[str]) -> str | None:
    if value is None:
        return None
    compact = "".join(value.split()).upper()
    if not IBAN.match(compact):
        notes.append(f"IBAN {value!r} in the XML is not an IBAN; left out")
        return None
    return compact


def derive_amount_due(data: dict, totals: dict, notes: list[str]) -> None:
    """Fill ``amount_due`` from total - prepaid when the XML has no due amount (BT-115 = BT-112 - BT-113)."""
    if data["amount_due"] is None and totals.get("grand_total") is not None:
        due = Decimal(str(totals["grand_total"])) - Decimal(str(totals.get("prepaid") or 0))
        data["amount_due"] = plain_number(due)
        notes.append("amount_due derived as total - prepaid (the XML has no due payable amount)")


def _street(address, syntax: str) -> str | None:
    """The invoice schema's street: the address's street and additional line (BT-35 / BT-36 ...), joined."""
    parts = (text_at(address, *address_steps(key, syntax)) for key in ("street", "additional_street"))
    return ", ".join(x for x in parts if x) or None


def address_of(address, syntax: str) -> dict | None:
    """The invoice schema's address of a CII ``PostalTradeAddress`` / UBL ``PostalAddress`` (None: none), its
    element names the binding table's."""
    if address is None:
        return None
    return {
        "street": _street(address, syntax),
        **{key: text_at(address, *address_steps(key, syntax)) for key in ("postal_code", "city", "country")},
    }


def bank_account(settlement, syntax: str, notes: list[str]) -> dict | None:
    """The payee's account (the invoice schema's ``bank_account``) of the first payment means under ``settlement``
    (CII's trade settlement, UBL's root) that has one, by the binding table's element names; its IBAN checked
    (``checked_iban``). None: no means names an account."""
    means_name, steps = bank_steps(syntax)
    for means in find_all(settlement, means_name):
        if find_one(means, steps["iban"][0]) is None:
            continue
        values = {key: text_at(means, *path) for key, path in steps.items()}
        return values | {"iban": checked_iban(values["iban"], notes)}
    return None


def cii_positions(tx) -> tuple[list[tuple], int]:
    """A CII transaction's line positions as ``(item, delivery, settlement, product, line total)``, and how many
    text-only positions (no product, quantity or amount) were left out: the invoice's lines, for every reader."""
    out, skipped = [], 0
    for item in find_all(tx, "IncludedSupplyChainTradeLineItem"):
        delivery = find_one(item, "SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery")
        settlement = find_one(item, "SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement")
        product = find_one(item, "SpecifiedTradeProduct")
        amount = decimal_at(
            settlement,
            "SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation",
            "LineTotalAmount",
        )
        if product is None and decimal_at(delivery, "BilledQuantity") is None and amount is None:
            skipped += 1
            continue
        out.append((item, delivery, settlement, product, amount))
    return out, skipped


def ubl_tax_total(root, currency: str | None):
    """A UBL document's ``TaxTotal`` in its document currency (a second one may be in the tax currency, BT-111),
    else its first; None for none."""
    tax_totals = find_all(root, "TaxTotal")
    amounts = [(t, find_one(t, "TaxAmount")) for t in tax_totals]
    in_currency = (t for t, a in amounts if a is not None and a.get("currencyID") in (None, currency))
    return next(in_currency, tax_totals[0] if tax_totals else None)


def _electronic(node) -> str | None:
    """``EM`` addresses as the e-mail itself, others as ``scheme:id`` (the schema's form)."""
    if node is None or not " ".join((node.text or "").split()):
        return None
    value = " ".join(node.text.split())
    scheme = node.get("schemeID") or ""
    return value if scheme.upper() == "EM" or not scheme else f"{scheme}:{value}"


def party_terms(*, legal_id: str | None, identifiers: list, contact: tuple, endpoint) -> dict:
    """A seller's or buyer's further terms, either syntax: its legal id, GLN and LEI among its scheme-marked
    identifiers, its contact (name, phone, e-mail) and its electronic address."""
    ids = {(node.get("schemeID") or ""): text_at(node) for node in identifiers}
    return {
        "legal_id": legal_id,
        "gln": ids.get(GLN),
        "lei": ids.get(LEI),
        "contact": _contact(*contact),
        "electronic_address": _electronic(endpoint),
    }


def contact_of(party, syntax: str) -> tuple[str | None, str | None, str | None]:
    """A party's contact ``(name, phone, e-mail)`` by the binding table's element names, all read from its first
    contact element (``DefinedTradeContact`` / ``Contact``); a part the table gives two paths for, the first found."""
    contact = find_one(party, contact_steps("name", syntax)[0][0])
    name, phone, email = (
        next((text for steps in contact_steps(key, syntax) if (text := text_at(contact, *steps[1:]))), None)
        for key in ("name", "phone", "email")
    )
    return name, phone, email


def _contact(name, phone, email) -> dict | None:
    return {"name": name, "phone": phone, "email": email} if any((name, phone, email)) else None


def payment_means(code: str | None, notes: list[str]) -> str | None:
    if code is None:
        return None
    word = payment_means_of(code)
    if word is None:
        notes.append(f"payment_means: the XML's code {code} has no word in the schema; null, payment_means_code {code}")
    return word


def period_of(start: str | None, end: str | None) -> dict | None:
    return {"start": start, "end": end} if start or end else None


def summed(amounts: list, flags: list[bool], *, charge: bool) -> int | float | None:
    """The sum of a line's allowances (``charge`` False) or charges, None when it has none."""
    known = [a for a, is_charge in zip(amounts, flags, strict=True) if is_charge == charge and a is not None]
    return plain_number(sum(known, Decimal(0))) if known else None


def adjustment(amount, reason, rate, category, *, charge: bool, code=None, base=None, percent=None) -> dict:
    return {
        "kind": "charge" if charge else "allowance",
        "reason": reason,
        "reason_code": code,
        "amount": plain_number(amount),
        "base_amount": plain_number(base),
        "percentage": plain_number(percent),
        "tax_rate": plain_number(rate),
        "vat_category": category,
    }
