"""Our invoice record read as EN 16931 Business Terms (BT-n), the neutral form both writers (``write``) start from.

Values are copied from the record, never guessed. Where the invoice schema has no field for a mandatory term, the
term is left out, so the official rule that needs it fires and the record says so; the few terms that follow from
the schema's own definition are derived, and each derivation is listed in ``Terms.notes``:

* BT-3 type code ``380`` (commercial invoice): the invoice schema describes a commercial invoice; a record read
  from embedded e-invoice XML keeps the XML's own type code.
* BT-118 / BT-151 VAT category ``S`` (standard rate) for a rate above 0: EN 16931's only category with a positive
  rate outside the Canary Islands (L) and Ceuta / Melilla (M). A rate of 0 may be Z, E, AE, K, G or O: which one
  the schema cannot say, so the category is left out (BR-CO-18 / BR-47 / BR-48 fire).
* BT-130 unit code: a table of common printed units (:data:`UNIT_CODES`, UN/ECE Rec 20 / Rec 21); a unit not in
  it is left out (BR-23 fires) and named in the notes; no printed unit gives ``C62`` ("one", Rec 20's code for a
  plain count).
* BT-109 (total without VAT) = BT-106 (the line total), the schema holding no document allowances or charges
  (BT-107 / BT-108); BT-110 (total VAT) = the sum of the tax lines' amounts (BT-117). Both keep BR-CO-10 / 15 / 16
  real checks of the printed subtotal, total and amount due.
* BT-81 payment means ``30`` (credit transfer) when a bank account is printed: an account printed for payment is
  paid into by transfer.
* The seller's and buyer's ``vat_id`` is BT-31 / BT-48 (VAT identifier); the seller's ``tax_id`` is BT-32 (tax
  registration identifier); the buyer's ``tax_id`` has no EN 16931 term and is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

SPECIFICATION = "urn:cen.eu:en16931:2017"  # BT-24: the core EN 16931 specification
INVOICE = "380"
CREDIT_NOTES = frozenset({"81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"})
STANDARD_RATE = "S"
CREDIT_TRANSFER = "30"  # UNTDID 4461
COUNT = "C62"  # Rec 20 "one": a quantity printed without a unit

# Printed units -> UN/ECE Rec 20 (or Rec 21 with its ``X`` prefix), matched case-insensitively without a trailing
# dot. Only units whose code is not in doubt; every code is in the CEN 1.3.16 code list (BR-CL-23).
UNIT_CODES = {
    **dict.fromkeys(("stk", "stck", "stück", "st", "stuk", "stuks", "pc", "pcs", "pce", "piece", "pieces"), "H87"),
    **dict.fromkeys(("ea", "each"), "EA"),
    **dict.fromkeys(("x",), COUNT),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "heure", "heures", "uur"), "HUR"),
    **dict.fromkeys(("min", "minute", "minutes", "minuten"), "MIN"),
    **dict.fromkeys(("day", "days", "tag", "tage", "jour", "jours", "dag", "dagen"), "DAY"),
    **dict.fromkeys(("week", "weeks", "woche", "wochen", "semaine", "semaines"), "WEE"),
    **dict.fromkeys(("month", "months", "monat", "monate", "mt", "mon", "mois", "maand"), "MON"),
    **dict.fromkeys(("kg",), "KGM"),
    **dict.fromkeys(("g",), "GRM"),
    **dict.fromkeys(("m",), "MTR"),
    **dict.fromkeys(("km",), "KMT"),
    **dict.fromkeys(("m2", "m²", "qm"), "MTK"),
    **dict.fromkeys(("l", "liter", "litre", "litres", "liters"), "LTR"),
    **dict.fromkeys(("pauschal", "pausch", "pauschale", "forfait", "lump sum", "flat"), "LS"),
    **dict.fromkeys(("set", "sets"), "SET"),
    **dict.fromkeys(("page", "pages", "seite", "seiten"), "ZP"),
    **dict.fromkeys(("pack", "packs", "packung", "pk"), "XPK"),
    **dict.fromkeys(("box", "boxes", "karton"), "XBX"),
    **dict.fromkeys(("bag", "bags", "beutel"), "XBG"),
    **dict.fromkeys(("bottle", "bottles", "flasche", "flaschen"), "XBO"),
    **dict.fromkeys(("roll", "rolls", "rolle", "rollen"), "XRO"),
}


@dataclass(frozen=True)
class Party:
    """A seller (BG-4) or buyer (BG-7): name BT-27/44, address BG-5/8, VAT id BT-31/48, tax registration BT-32."""

    name: str | None
    street: str | None = None
    postal_code: str | None = None
    city: str | None = None
    country: str | None = None
    vat_id: str | None = None
    tax_registration: str | None = None


@dataclass(frozen=True)
class Line:
    """An invoice line (BG-25): id BT-126, quantity BT-129, unit BT-130, net amount BT-131, net price BT-146,
    item name BT-153, VAT category BT-151 and rate BT-152."""

    id: str
    name: str | None
    quantity: Decimal | None
    unit_code: str | None
    net_price: Decimal | None
    net_amount: Decimal | None
    rate: Decimal | None
    category: str | None


@dataclass(frozen=True)
class Tax:
    """A VAT breakdown (BG-23): basis BT-116, amount BT-117, category BT-118, rate BT-119."""

    basis: Decimal | None
    amount: Decimal | None
    rate: Decimal | None
    category: str | None


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
    iban: str | None = None  # BT-84
    bic: str | None = None  # BT-86
    account_name: str | None = None  # BT-85
    allowance_total: Decimal | None = None  # BT-107 (embedded XML only: the schema holds no allowances)
    charge_total: Decimal | None = None  # BT-108 (likewise)
    notes: tuple[str, ...] = ()

    @property
    def credit_note(self) -> bool:
        """Whether the type code is a credit note's (UBL writes a ``CreditNote`` then)."""
        return self.type_code in CREDIT_NOTES


def decimal(value: Any) -> Decimal | None:
    """A JSON number (or numeric string) as a Decimal, exactly as written (``54.9`` stays ``54.9``); None else."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def unit_code(printed: str | None) -> str | None:
    """The Rec 20 / Rec 21 code of a printed unit (``Stk.`` -> ``H87``), ``C62`` for none, None when unknown."""
    if printed is None or not printed.strip():
        return COUNT
    return UNIT_CODES.get(printed.strip().rstrip(".").strip().lower())


def iban_of(data: Mapping) -> str | None:
    """The record's IBAN (its bank account's), or None."""
    bank = data.get("bank_account")
    return (bank.get("iban") or None) if isinstance(bank, Mapping) else None


def _category(rate: Decimal | None) -> str | None:
    return STANDARD_RATE if rate is not None and rate > 0 else None


def _party(data: Any, *, buyer: bool) -> Party:
    if not isinstance(data, Mapping):
        return Party(name=None)
    address: Mapping = data["address"] if isinstance(data.get("address"), Mapping) else {}
    return Party(
        name=data.get("name"),
        street=address.get("street"),
        postal_code=address.get("postal_code"),
        city=address.get("city"),
        country=address.get("country"),
        vat_id=data.get("vat_id"),
        tax_registration=None if buyer else data.get("tax_id"),
    )


def terms_from(
    data: Mapping, *, type_code: str | None = None, unit_codes: bool = False, totals: Mapping | None = None
) -> Terms:
    """Read an invoice record's ``data`` (``schemas/invoice.schema.json``) as Business Terms.

    Args:
        data: the record's data.
        type_code: BT-3 when known from the source (embedded XML); None: ``380``, derived (module docstring).
        unit_codes: the units are Rec 20 codes already (data read from embedded XML), written as they are.
        totals: the document totals the source XML printed (``EmbeddedInvoice.totals``): BT-107 / 108 / 109 / 110
            are copied from it where it has them, instead of derived (its allowances and charges themselves,
            BG-20 / 21, the schema cannot hold: BR-CO-11 / 12 fire where there are any).

    Returns:
        The Terms, with ``notes`` listing each derived value and each term left out.
    """
    notes: list[str] = []
    if not type_code:
        type_code = INVOICE
        notes.append("BT-3 type code 380 (commercial invoice): derived, the invoice schema holds commercial invoices")
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
                id=str(number),
                name=item.get("description"),
                quantity=decimal(item.get("quantity")),
                unit_code=code,
                net_price=decimal(item.get("unit_price")),
                net_amount=decimal(item.get("amount")),
                rate=rate,
                category=_category(rate),
            )
        )
    for unit in sorted(unknown_units):
        notes.append(f"BT-130 unit code: printed unit {unit!r} has no UN/ECE Rec 20 code in our table; left out")
    taxes = tuple(
        Tax(
            basis=decimal(t.get("base")),
            amount=decimal(t.get("amount")),
            rate=decimal(t.get("rate")),
            category=_category(decimal(t.get("rate"))),
        )
        for t in data.get("tax_lines") or ()
        if isinstance(t, Mapping)
    )
    if type_code in CREDIT_NOTES and data.get("due_date") and not iban_of(data):
        notes.append("BT-9 due date: a UBL CreditNote holds it in its payment means, written only with a bank account")
    if any(t.category is None for t in taxes) or any(line.category is None for line in lines):
        notes.append("BT-118 / BT-151 VAT category: a rate of 0 (or none) may be Z, E, AE, K, G or O; left out")
    amounts = [t.amount for t in taxes if t.amount is not None]
    tax_total = sum(amounts, Decimal(0)) if amounts and len(amounts) == len(taxes) else None
    printed: Mapping = totals or {}
    if printed.get("allowance_total") or printed.get("charge_total"):
        notes.append("BG-20 / BG-21 document allowances and charges: the schema cannot hold them; left out")
    bank: Mapping = data["bank_account"] if isinstance(data.get("bank_account"), Mapping) else {}
    iban = bank.get("iban") or None
    return Terms(
        number=data.get("invoice_number"),
        issue_date=data.get("issue_date"),
        type_code=type_code,
        currency=data.get("currency"),
        seller=_party(data.get("seller"), buyer=False),
        buyer=_party(data.get("buyer"), buyer=True),
        lines=tuple(lines),
        taxes=taxes,
        line_total=decimal(data.get("subtotal")),
        tax_exclusive=decimal(printed["tax_basis_total"])
        if printed.get("tax_basis_total") is not None
        else decimal(data.get("subtotal")),
        tax_total=decimal(printed["tax_total"]) if printed.get("tax_total") is not None else tax_total,
        grand_total=decimal(data.get("total")),
        prepaid=decimal(data.get("prepaid_amount")),
        due_payable=decimal(data.get("amount_due")),
        due_date=data.get("due_date"),
        payment_terms=data.get("payment_terms"),
        iban=iban,
        bic=bank.get("bic") if iban else None,
        account_name=bank.get("account_holder") if iban else None,
        allowance_total=decimal(printed.get("allowance_total")),
        charge_total=decimal(printed.get("charge_total")),
        notes=tuple(notes),
    )
