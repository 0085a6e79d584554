"""Checks on schema-valid data: invoice arithmetic, dates, currency and identifier check digits.

Each failed check is a warning ``{"code", "message", "path"[, "rule"]}`` (``extractor.record.issue``) with a stable
code. The invoice arithmetic is EN 16931's own business rules wherever the data can hold their terms, computed as
the official CEN 1.3.16 XSLT computes them in both CII and UBL (``einvoice.arithmetic``), so an invoice that passes them
passes the official check of the CII / UBL written from it (``--einvoice``); such a warning names its rule in
``rule`` and starts its message with it:

  line_amount       a line's amount is not quantity x unit price (ours: CEN has no line rule; see below)
  lines_subtotal    BR-CO-10: the line amounts do not add up to the subtotal (BT-106), rounded to 2 decimals
  tax_basis_total   BR-CO-13: the subtotal - allowances + charges is not the total without VAT (BT-109); only for
                    data read from e-invoice XML, whose totals print BT-107 / 108 / 109 (``totals``)
  tax_line          BR-S-09: a tax line's amount is not base x rate / 100 within 1 (rate above 0: standard
                    rated); BR-CO-17: at rate 0 the amount does not round to 0
  tax_base          BR-S-08: a standard-rated tax line's base is not its rate's line amounts (+ charges -
                    allowances at that rate, where invoice-en16931 lists them), rounded (every line states rate
                    and amount); else, or unless a row failed,
                    ours: the tax bases do not add up to the total without VAT (n half minor units)
  tax_total         BR-CO-14: the tax amounts do not add up to the total VAT (BT-110); e-invoice XML only
  total             BR-CO-15: total without VAT (BT-109: the subtotal - allowances + charges) + taxes is not the
                    total, rounded
  amount_due        BR-CO-16: total - prepaid + rounding (invoice-en16931's BT-114) is not the amount due, exactly
  date_invalid      a date is not a real calendar date (YYYY-MM-DD)
  due_before_issue  the due date is before the issue date
  currency_unknown  not an ISO 4217 code (pycountry)
  iban_invalid      IBAN length / checksum wrong (python-stdnum)
  bic_invalid       BIC malformed (python-stdnum)
  vat_id_invalid    VAT id format / check digits wrong for its country (python-stdnum; countries stdnum does not
                    know are not checked)
  item_amount       receipt: an item's amount is not quantity x unit price
  items_sum         receipt: the items add up to neither the subtotal nor the total

Where ours differ from the rules (docs/trust.md): ``line_amount`` has no CEN rule (Peppol's PEPPOL-EN16931-R120
allows 0.02; ours allows half a minor unit plus the rounding of a printed unit price, so a rounded price times a
large quantity passes ours and fires R120 in a ``peppol`` e-invoice); the bases' sum has none either (it catches a
missing rate). A check whose operand is missing is skipped: an invoice without lines is not held to BR-CO-10 /
BR-S-08 (that is BR-16, the e-invoice's own rule), lines without rates skip BR-S-08 (BR-CO-04 in the e-invoice), a
rate of 0 is held to BR-CO-17 only (its category, and so BR-Z/E/AE/K/G/O-08/09, is unknown to the ``invoice``
schema; invoice-en16931's printed categories hold the BR-S rules to its S rows only).
Receipts (not EN 16931) keep tolerances of half the currency's minor unit (ISO 4217 exponent from the ``iso4217``
package: EUR 0.01, JPY 1, BHD 0.001) per rounded term, and read a tax base as net or gross.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice import arithmetic as rules
from extractor.einvoice.codes import STANDARD_RATE, vat_category
from extractor.record import issue
from extractor.schema import INVOICE_SCHEMAS
from extractor.trust.identifiers import currency_warnings, identifier_warnings, vat_id_warnings

DEFAULT_EXPONENT = 2  # currencies without a defined minor unit (XAU, XXX) or unknown codes


def minor_unit(currency: str | None) -> Decimal:
    """Return the currency's minor unit (``Decimal("0.01")`` for EUR, ``Decimal("1")`` for JPY).

    Args:
        currency: an ISO 4217 alphabetic code; unknown codes or None give 0.01.

    Returns:
        10 ** -exponent, the exponent taken from the ``iso4217`` package.
    """
    exponent = DEFAULT_EXPONENT
    if isinstance(currency, str) and len(currency) == 3:
        import iso4217

        try:
            found = iso4217.Currency(currency.upper()).exponent
        except ValueError:
            found = None
        if found is not None:
            exponent = found
    return Decimal(1).scaleb(-exponent)


def check_invoice(data: dict, *, totals: Mapping | None = None) -> list[dict]:
    """Run every invoice check on schema-valid invoice data.

    Args:
        data: data valid against ``schemas/invoice.schema.json`` or ``invoice-en16931.schema.json`` (whose line
            discounts and surcharges, document allowances and charges, VAT categories and rounding amount are
            checked too).
        totals: the document totals of the e-invoice XML the data was read from (``EmbeddedInvoice.totals``:
            ``tax_basis_total`` BT-109, ``tax_total`` BT-110, ``allowance_total`` BT-107, ``charge_total`` BT-108);
            None: the data's own (BT-109 = the subtotal, BT-110 = the sum of the tax lines, as ``einvoice.terms``
            writes them).

    Returns:
        Warnings ``{"code", "message", "path"[, "rule"]}``, in a stable order; empty when every check passes.
    """
    if not isinstance(data, dict):
        return []
    printed = totals or {}
    lines = [x for x in _list(data.get("line_items")) if isinstance(x, dict)]
    taxes = [x for x in _list(data.get("tax_lines")) if isinstance(x, dict)]
    entries = [x for x in _list(data.get("allowances_charges")) if isinstance(x, dict)]  # invoice-en16931
    unit = minor_unit(data.get("currency"))
    subtotal = _num(data.get("subtotal"))
    out = _line_sums(lines, subtotal, unit)
    tax_exclusive, allowances, charges = _tax_exclusive(printed, subtotal, entries, out)
    out.extend(_tax_line_amounts(taxes))
    out.extend(
        _tax_bases(lines, taxes, entries, subtotal=tax_exclusive, allowances=allowances, charges=charges, half=unit / 2)
    )
    tax_total = _tax_total(printed, taxes, out)
    out.extend(_totals(data, tax_exclusive, tax_total))
    out.extend(_dates(data))
    out.extend(identifier_warnings(data))
    return out


def _line_sums(lines: list[dict], subtotal: Decimal | None, unit: Decimal) -> list[dict]:
    """Each line's amount (quantity x price), then BR-CO-10: the line amounts add up to the subtotal."""
    out = _line_amounts(lines, unit, code="line_amount", word="line", path="/line_items")
    amounts = _every([_num(x.get("amount")) for x in lines])
    if lines and subtotal is not None and amounts is not None and not rules.br_co_10(subtotal, amounts):
        s = sum(amounts, Decimal(0))
        out.append(
            _rule(
                "lines_subtotal",
                "BR-CO-10",
                f"the {len(lines)} line amounts add up to {_fmt(s)}, but the subtotal is {_fmt(subtotal)}",
                "/subtotal",
            )
        )
    return out


def _tax_exclusive(
    printed: Mapping, subtotal: Decimal | None, entries: list[dict], out: list[dict]
) -> tuple[Decimal | None, Decimal | None, Decimal | None]:
    """BT-109 (the total without VAT) with BT-107 and BT-108, as printed or derived; BR-CO-13 warned into ``out``."""
    allowances, charges = _num(printed.get("allowance_total")), _num(printed.get("charge_total"))
    tax_exclusive = _num(printed.get("tax_basis_total"))  # BT-109 as the source XML printed it
    if (
        tax_exclusive is not None
        and subtotal is not None
        and not rules.br_co_13(tax_exclusive, subtotal, allowances, charges)
    ):
        out.append(
            _rule(
                "tax_basis_total",
                "BR-CO-13",
                f"the subtotal {_fmt(subtotal)} - allowances {_fmt(allowances or Decimal(0))} + charges "
                f"{_fmt(charges or Decimal(0))} is not the total without VAT {_fmt(tax_exclusive)}",
                "/subtotal",
            )
        )
    if tax_exclusive is None and entries:
        allowances = _total([x for x in entries if x.get("kind") != "charge"])
        charges = _total([x for x in entries if x.get("kind") == "charge"])
        if subtotal is not None and allowances is not None and charges is not None:
            tax_exclusive = subtotal - allowances + charges  # BT-109 = BT-106 - BT-107 + BT-108, as written
    elif tax_exclusive is None:
        tax_exclusive = subtotal  # BT-109 = BT-106: no document allowances or charges
    return tax_exclusive, allowances, charges


def _tax_line_amounts(taxes: list[dict]) -> list[dict]:
    """BR-S-09 (standard rate) or BR-CO-17: each tax line's amount is its base times its rate."""
    out = []
    for i, rate, base, amount in _rated(taxes):
        standard = vat_category(taxes[i].get("category"), rate) == STANDARD_RATE
        rule = "BR-S-09" if standard and not rules.br_s_09(amount, base, rate) else None
        if rule is None and not rules.br_co_17(amount, base, rate):
            rule = "BR-CO-17"
        if rule is not None:
            out.append(
                _rule(
                    "tax_line",
                    rule,
                    f"tax at {_fmt(rate)} %: base {_fmt(base)} x {_fmt(rate)} % = "
                    f"{_fmt(rules.round2(abs(base) * rate / 100))}, but the tax amount is {_fmt(amount)} "
                    "(the rule allows less than 1 either way)",
                    f"/tax_lines/{i}/amount",
                )
            )
    return out


def _tax_total(printed: Mapping, taxes: list[dict], out: list[dict]) -> Decimal | None:
    """BT-110 as printed (BR-CO-14 against the tax lines, warned into ``out``) or the sum of the tax lines."""
    tax_amounts = _every([_num(x.get("amount")) for x in taxes])
    tax_total = _num(printed.get("tax_total"))  # BT-110 as the source XML printed it
    if tax_total is not None and taxes and tax_amounts is not None and not rules.br_co_14(tax_total, tax_amounts):
        out.append(
            _rule(
                "tax_total",
                "BR-CO-14",
                f"the tax amounts add up to {_fmt(sum(tax_amounts, Decimal(0)))}, but the total VAT is "
                f"{_fmt(tax_total)}",
                "/tax_lines",
            )
        )
    if tax_total is None and tax_amounts is not None:
        tax_total = sum(tax_amounts, Decimal(0))  # BT-110 = the sum of BT-117 (no tax lines: 0)
    return tax_total


def _totals(data: dict, tax_exclusive: Decimal | None, tax_total: Decimal | None) -> list[dict]:
    """BR-CO-15 (total = net + taxes) and BR-CO-16 (amount due = total - prepaid + rounding)."""
    out = []
    total = _num(data.get("total"))
    if (
        total is not None
        and tax_exclusive is not None
        and tax_total is not None
        and not rules.br_co_15(total, tax_exclusive, tax_total)
    ):
        out.append(
            _rule(
                "total",
                "BR-CO-15",
                f"net {_fmt(tax_exclusive)} + taxes {_fmt(tax_total)} = "
                f"{_fmt(rules.round2(tax_exclusive + tax_total))}, but the total is {_fmt(total)}",
                "/total",
            )
        )
    due = _num(data.get("amount_due"))
    prepaid = _num(data.get("prepaid_amount"))
    rounding = _num(data.get("rounding_amount"))  # invoice-en16931: BT-114 as printed
    if total is not None and due is not None and not rules.br_co_16(due, total, prepaid, rounding):
        expected = total - (prepaid or Decimal(0)) + (rounding or Decimal(0))
        what = f"total {_fmt(total)} - prepaid {_fmt(prepaid)}" if prepaid is not None else f"total {_fmt(total)}"
        what += f" + rounding {_fmt(rounding)}" if rounding is not None else ""
        out.append(
            _rule(
                "amount_due",
                "BR-CO-16",
                f"{what} = {_fmt(expected)}, but the amount due is {_fmt(due)}",
                "/amount_due",
            )
        )
    return out


def _dates(data: dict) -> list[dict]:
    """Each date parses, and the due date is not before the issue date."""
    out: list[dict] = []
    issued = _date(data, "issue_date", out)
    due_date = _date(data, "due_date", out)
    if issued is not None and due_date is not None and due_date < issued:
        out.append(
            issue(
                "due_before_issue",
                f"the due date {due_date.isoformat()} is before the issue date {issued.isoformat()}",
                "/due_date",
            )
        )
    return out


def _signed(entry: dict, amount: Decimal) -> Decimal:
    """A document allowance lowers its rate's base, a charge raises it."""
    return amount if entry.get("kind") == "charge" else -amount


def _total(entries: list[dict]) -> Decimal | None:
    """The sum of the entries' amounts (0 for none), None when one has none."""
    amounts = [_num(x.get("amount")) for x in entries]
    return None if None in amounts else sum((a for a in amounts if a is not None), Decimal(0))


def _rule(code: str, rule: str, message: str, path: str) -> dict:
    """A failed check that is an EN 16931 business rule: its warning names the rule (``rule``, and the message)."""
    return issue(code, f"{rule}: {message}", path, rule=rule)


def _tax_bases(
    lines: list[dict],
    taxes: list[dict],
    entries: list[dict],
    *,
    subtotal: Decimal | None,
    allowances: Decimal | None,
    charges: Decimal | None,
    half: Decimal,
) -> list[dict]:
    """The tax bases: each standard-rated row against its lines (BR-S-08) where every line states its rate and
    amount and document allowances and charges, if any, are listed with theirs (``entries``, invoice-en16931: an
    allowance counts negative); then, unless a row failed, the bases' sum against the total without VAT (ours, no
    rule: it also covers rows of rate 0, whose category the schema cannot tell, lines without a rate, and a rate with
    no row)."""
    out = []
    rated = [(_num(x.get("tax_rate")), _num(x.get("amount")), x.get("vat_category")) for x in lines]
    for x in entries:
        amount = _num(x.get("amount"))
        rated.append((_num(x.get("tax_rate")), None if amount is None else _signed(x, amount), x.get("vat_category")))
    printed_only = (allowances or charges) and not entries  # totals from XML whose entries the data lacks
    if lines and all(r is not None and a is not None for r, a, _ in rated) and not printed_only:
        standard = [
            (r, a) for r, a, c in rated if r is not None and a is not None and vat_category(c, r) == STANDARD_RATE
        ]
        for i, tax in enumerate(taxes):
            rate, base = _num(tax.get("rate")), _num(tax.get("base"))
            if rate is None or base is None or vat_category(tax.get("category"), rate) != STANDARD_RATE:
                continue
            if rules.br_s_08(base, rate, standard):
                continue
            s = sum((a for r, a in standard if r == rate), Decimal(0))
            out.append(
                _rule(
                    "tax_base",
                    "BR-S-08",
                    f"the lines at {_fmt(rate)} % add up to {_fmt(s)}, but the tax base at {_fmt(rate)} % is "
                    f"{_fmt(base)} (a document-level discount or charge, or a misread)",
                    f"/tax_lines/{i}/base",
                )
            )
    bases = _every([_num(x.get("base")) for x in taxes])
    if not out and taxes and subtotal is not None and bases is not None:
        s = sum(bases, Decimal(0))
        if abs(s - subtotal) > len(taxes) * half:
            out.append(
                issue(
                    "tax_base",
                    f"the tax bases add up to {_fmt(s)}, but the subtotal is {_fmt(subtotal)} "
                    "(a document-level discount or charge, or a misread)",
                    "/tax_lines",
                )
            )
    return out


def check_receipt(data: dict) -> list[dict]:
    """Run the receipt checks: item amounts, items sum, tax lines, total, date, currency, VAT id.

    Receipts usually print gross prices, so a tax line's base may be net (tax = base x rate / 100) or gross
    (tax = base x rate / (100 + rate)); either passes. The items must add up to the subtotal or the total.

    Args:
        data: data valid against ``schemas/receipt.schema.json``.

    Returns:
        Warnings ``{"code", "message", "path"}``; empty when every check passes.
    """
    if not isinstance(data, dict):
        return []
    unit = minor_unit(data.get("currency"))
    half = unit / 2
    out: list[dict] = []
    items = [x for x in _list(data.get("items")) if isinstance(x, dict)]
    out.extend(_line_amounts(items, unit, code="item_amount", word="item", path="/items"))

    subtotal, total = _num(data.get("subtotal")), _num(data.get("total"))
    amounts = _every([_num(x.get("amount")) for x in items])
    if items and amounts is not None and total is not None:
        s = sum(amounts, Decimal(0))
        tol = len(items) * half
        if abs(s - total) > tol and (subtotal is None or abs(s - subtotal) > tol):
            against = f"the subtotal {_fmt(subtotal)} or the total" if subtotal is not None else "the total"
            out.append(
                issue(
                    "items_sum",
                    f"the {len(items)} item amounts add up to {_fmt(s)}, not {against} {_fmt(total)}",
                    "/total",
                )
            )

    taxes = [x for x in _list(data.get("taxes")) if isinstance(x, dict)]
    for i, rate, base, amount in _rated(taxes):
        n = len(items) or 1
        net_ok = abs(base * rate / 100 - amount) <= n * half
        gross_ok = abs(base * rate / (100 + rate) - amount) <= n * half
        if not (net_ok or gross_ok):
            out.append(
                issue(
                    "tax_line",
                    f"tax at {_fmt(rate)} %: base {_fmt(base)} gives "
                    f"{_fmt(_round(base * rate / 100, unit))} (net base) or "
                    f"{_fmt(_round(base * rate / (100 + rate), unit))} (gross base), but the tax amount is "
                    f"{_fmt(amount)}",
                    f"/taxes/{i}/amount",
                )
            )

    bases = _every([_num(x.get("base")) for x in taxes])
    tax_amounts = _every([_num(x.get("amount")) for x in taxes])
    if total is not None and tax_amounts is not None and (subtotal is not None or (taxes and bases is not None)):
        tax_sum = sum(tax_amounts, Decimal(0))
        tol = (len(taxes) + 1) * half
        candidates: list[Decimal] = []  # every reading of the printed figures that is consistent passes
        if subtotal is not None:
            candidates += [subtotal + tax_sum, subtotal]
        if taxes and bases is not None:
            base_sum = sum(bases, Decimal(0))
            candidates += [base_sum + tax_sum, base_sum]
        if all(abs(c - total) > tol for c in candidates):
            # without a subtotal, the tax bases are all there (the condition above)
            net = (
                f"subtotal {_fmt(subtotal)}"
                if subtotal is not None
                else f"tax bases {_fmt(sum(bases or [], Decimal(0)))}"
            )
            out.append(
                issue("total", f"{net} and taxes {_fmt(tax_sum)} do not add up to the total {_fmt(total)}", "/total")
            )

    _date(data, "date", out)
    out.extend(currency_warnings(data.get("currency")))
    merchant = data.get("merchant")
    if isinstance(merchant, dict):
        out.extend(vat_id_warnings(merchant.get("vat_id"), "/merchant/vat_id", None))
    return out


def run_checks(schema_name: str, data: Any, *, totals: Mapping | None = None) -> list[dict]:
    """Run the checks for a schema by name.

    Args:
        schema_name: ``invoice``, ``receipt``, or a custom schema's name (no checks).
        data: the schema-valid data.
        totals: an invoice read from e-invoice XML: the totals it printed (``check_invoice``).

    Returns:
        The warnings (empty for custom schemas and non-object data).
    """
    if not isinstance(data, dict):
        return []
    if schema_name in INVOICE_SCHEMAS:
        return check_invoice(data, totals=totals)
    if schema_name == "receipt":
        return check_receipt(data)
    return []


def _line_amounts(lines: list[dict], unit: Decimal, *, code: str, word: str, path: str) -> list[dict]:
    """Each line's amount against quantity x unit price."""
    out = []
    for i, line in enumerate(lines):
        q, p, a = _num(line.get("quantity")), _num(line.get("unit_price")), _num(line.get("amount"))
        if q is None or p is None or a is None:
            continue
        base = _num(line.get("price_base_quantity"))  # invoice-en16931: a price per base quantity (BT-149)
        if base:
            p = p / base
        # invoice-en16931: a line's discount and surcharge, already in its amount
        discount, surcharge = _num(line.get("allowance")) or Decimal(0), _num(line.get("charge")) or Decimal(0)
        expected = q * p - discount + surcharge
        # the amount is rounded (half a unit); the unit price may itself be rounded to its shown decimals
        price_half = Decimal(1).scaleb(-max(_decimals(p), _decimals(unit))) / 2
        if abs(expected - a) > unit / 2 + abs(q) * price_half:
            less = f" - discount {_fmt(discount)}" if discount else ""
            less += f" + surcharge {_fmt(surcharge)}" if surcharge else ""
            out.append(
                issue(
                    code,
                    f"{word} {i + 1}: quantity {_fmt(q)} x unit price {_fmt(p)}{less} = {_fmt(expected)}, "
                    f"but the amount is {_fmt(a)}",
                    f"{path}/{i}/amount",
                )
            )
    return out


def _date(data: dict, key: str, out: list[dict]) -> dt.date | None:
    value = data.get(key)
    if not isinstance(value, str):
        return None
    try:
        if len(value) != 10:
            raise ValueError(value)
        return dt.date.fromisoformat(value)
    except ValueError:
        out.append(issue("date_invalid", f"{key} {value!r} is not a valid date (YYYY-MM-DD)", f"/{key}"))
        return None


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _rated(taxes: list) -> Iterator[tuple[int, Decimal, Decimal, Decimal]]:
    """(index, rate, base, amount) of each tax row that states all three as numbers."""
    for i, tax in enumerate(taxes):
        rate, base, amount = _num(tax.get("rate")), _num(tax.get("base")), _num(tax.get("amount"))
        if rate is not None and base is not None and amount is not None:
            yield i, rate, base, amount


def _every(values: list[Decimal | None]) -> list[Decimal] | None:
    """``values`` when every one is there (a number), else None."""
    present = [v for v in values if v is not None]
    return present if len(present) == len(values) else None


def _num(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _round(value: Decimal, unit: Decimal) -> Decimal:
    from decimal import ROUND_HALF_UP

    return value.quantize(unit, rounding=ROUND_HALF_UP)


def _fmt(value: Decimal | None) -> str:
    if value is None:
        return "none"
    text = format(value.normalize(), "f")
    return text
