"""The EN 16931 business rules on amounts, computed as the official CEN 1.3.16 XSLT computes them (the vendored
``extractor/einvoice/rules/cen-1.3.16/EN16931-{CII,UBL}-validation.xslt``), in both syntaxes.

Each rule is a pure predicate on Business Term values (``Decimal``; None where the term is absent). It holds only
when the rule holds in the CII **and** in the UBL stylesheet, so data that passes it passes the official check of
either e-invoice written from it. The arithmetic is the stylesheets' own, read from their ``test`` expressions:

* ``round(x * 100) div 100``: XPath ``fn:round`` rounds half toward positive infinity (``round(-0.5) = 0``), not
  half away from zero; :func:`round2`.
* Where an expression reads an element without ``xs:decimal(...)`` (``sum(ram:LineTotalAmount)``,
  ``../ram:RateApplicablePercent``), XPath takes it as ``xs:double``: those parts are computed in IEEE doubles here
  too (Python floats, as Saxon's Java doubles), the rest in exact decimals.
* Tolerances are the rules' own: exact after rounding to 2 decimals (BR-CO-10/13/14/15/16, BR-S-08 in CII), within
  1 currency unit (BR-S-09 and BR-CO-17 in UBL: strictly, ``-1 <`` and ``< +1``; BR-CO-17 in CII: ``<= 1``; BR-S-08
  in UBL: strictly within 1, and only where a line of that rate exists). The rules round to 2 decimals whatever the
  currency (JPY included).

Each ``BR-*`` function's docstring quotes what it reproduces. The checks (``trust.checks``) name the rule in each
warning (``rule``); ``tests/test_rules.py`` holds each rule at its tolerance's boundary against the XSLT itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_FLOOR, Decimal

HUNDRED = Decimal(100)
HALF = Decimal("0.5")


def round_half_ceiling(value: Decimal) -> Decimal:
    """XPath ``fn:round``: the nearest integer, a half rounded toward positive infinity (``-2.5`` -> ``-2``)."""
    return (value + HALF).to_integral_value(rounding=ROUND_FLOOR)


def round2(value: Decimal) -> Decimal:
    """``round(value * 10 * 10) div 100`` on xs:decimal: to 2 decimals, a half toward positive infinity."""
    return round_half_ceiling(value * HUNDRED) / HUNDRED


def _double_round(value: float) -> float:
    """``fn:round`` on an xs:double (exactly, on the double's own binary value)."""
    return float(round_half_ceiling(Decimal(value)))


def _double_sum(values: Sequence[Decimal]) -> float:
    """``sum()`` over untyped elements: each read as xs:double, added in document order."""
    total = 0.0
    for value in values:
        total += float(value)
    return total


def _decimal_of_double(value: float) -> Decimal:
    """``xs:decimal(double)``: the decimal the double prints as (Saxon casts through its canonical string)."""
    return Decimal(repr(value))


def br_co_10(line_total: Decimal, line_amounts: Sequence[Decimal]) -> bool:
    """BR-CO-10: BT-106 = Σ BT-131.

    CII: ``xs:decimal(LineTotalAmount) = round(xs:decimal(sum(..LineTotalAmount)) * 100) div 100`` (a double sum);
    UBL: ``xs:decimal(LineExtensionAmount) = xs:decimal(round(sum(..xs:decimal(LineExtensionAmount)) * 10 * 10) div
    100)``.
    """
    cii = line_total == round2(_decimal_of_double(_double_sum(line_amounts)))
    ubl = line_total == round2(sum(line_amounts, Decimal(0)))
    return cii and ubl


def br_co_13(
    tax_exclusive: Decimal, line_total: Decimal, allowances: Decimal | None = None, charges: Decimal | None = None
) -> bool:
    """BR-CO-13: BT-109 = BT-106 - BT-107 + BT-108 (an absent BT-107 / BT-108 is left out of the sum).

    CII: ``TaxBasisTotalAmount = round((LineTotalAmount - AllowanceTotalAmount + ChargeTotalAmount) * 10 * 10) div
    100`` (and its variants without either); UBL: the same rounded, but without either term ``TaxExclusiveAmount =
    LineExtensionAmount`` exactly.
    """
    expected = line_total - (allowances or Decimal(0)) + (charges or Decimal(0))
    cii = tax_exclusive == round2(expected)
    ubl = tax_exclusive == (round2(expected) if allowances is not None or charges is not None else line_total)
    return cii and ubl


def br_co_14(tax_total: Decimal, tax_amounts: Sequence[Decimal]) -> bool:
    """BR-CO-14: BT-110 = Σ BT-117.

    CII: ``TaxTotalAmount = (round(sum(..CalculatedAmount) * 10 * 10) div 100)`` (doubles throughout); UBL:
    ``xs:decimal(TaxAmount) = round((sum(TaxSubtotal/xs:decimal(TaxAmount)) * 10 * 10)) div 100``.
    """
    cii = float(tax_total) == _double_round(_double_sum(tax_amounts) * 10 * 10) / 100
    ubl = tax_total == round2(sum(tax_amounts, Decimal(0)))
    return cii and ubl


def br_co_15(grand_total: Decimal, tax_exclusive: Decimal, tax_total: Decimal) -> bool:
    """BR-CO-15: BT-112 = BT-109 + BT-110.

    UBL: ``TaxInclusiveAmount = round((TaxExclusiveAmount + TaxAmount) * 10 * 10) div 100``; CII the same, or
    ``GrandTotalAmount = TaxBasisTotalAmount`` (which UBL does not allow: the stricter one is kept).
    """
    return grand_total == round2(tax_exclusive + tax_total)


def br_co_16(
    due: Decimal, grand_total: Decimal, prepaid: Decimal | None = None, rounding: Decimal | None = None
) -> bool:
    """BR-CO-16: BT-115 = BT-112 - BT-113 + BT-114 (an absent BT-113 / BT-114 is left out).

    CII: ``DuePayableAmount = GrandTotalAmount - TotalPrepaidAmount + RoundingAmount`` exactly; UBL:
    ``PayableAmount = round((TaxInclusiveAmount - PrepaidAmount) * 10 * 10) div 100``, with a rounding amount
    ``round((PayableAmount - PayableRoundingAmount) * 100) div 100 = round((TaxInclusiveAmount - PrepaidAmount) *
    100) div 100``, without a prepaid amount ``PayableAmount = TaxInclusiveAmount`` (minus the rounding, rounded).
    """
    paid = prepaid or Decimal(0)
    cii = due == grand_total - paid + (rounding or Decimal(0))
    if rounding is None:
        ubl = due == (round2(grand_total - paid) if prepaid is not None else grand_total)
    else:
        ubl = round2(due - rounding) == (round2(grand_total - paid) if prepaid is not None else grand_total)
    return cii and ubl


def br_s_08(basis: Decimal, rate: Decimal, lines: Sequence[tuple[Decimal, Decimal]]) -> bool:
    """BR-S-08: a standard-rated VAT breakdown's BT-116 = Σ BT-131 of the standard-rated lines at its rate (+ the
    document charges, - the allowances at that rate: the invoice schema holds none).

    CII: ``BasisAmount = round(sum(lines[S, rate]/xs:decimal(LineTotalAmount)) * 10 * 10) div 100 + ...``;
    UBL: a line of that rate exists and ``TaxableAmount - 1 < sum(...) < TaxableAmount + 1``.

    Args:
        basis: the row's taxable amount BT-116.
        rate: its rate BT-119.
        lines: ``(rate, net amount)`` of every standard-rated line.
    """
    amounts = [amount for line_rate, amount in lines if line_rate == rate]
    total = sum(amounts, Decimal(0))
    cii = float(basis) == float(round2(total))
    ubl = bool(amounts) and basis - 1 < total < basis + 1
    return cii and ubl


def br_s_09(amount: Decimal, basis: Decimal, rate: Decimal) -> bool:
    """BR-S-09: a standard-rated row's BT-117 = BT-116 x BT-119 / 100, within 1 (strictly).

    CII: ``abs(CalculatedAmount) - 1 < round(abs(BasisAmount) * RateApplicablePercent) div 100`` and ``+ 1 >`` (the
    rate untyped: a double product); UBL: ``abs(TaxAmount) - 1 < round((abs(TaxableAmount) * (Percent div 100)) *
    10 * 10) div 100`` and ``+ 1 >``, in decimals.
    """
    cii_expected = _double_round(float(abs(basis)) * float(rate)) / 100
    cii = float(abs(amount) - 1) < cii_expected < float(abs(amount) + 1)
    ubl_expected = round2(abs(basis) * (rate / HUNDRED))
    ubl = abs(amount) - 1 < ubl_expected < abs(amount) + 1
    return cii and ubl


def br_co_17(amount: Decimal, basis: Decimal, rate: Decimal) -> bool:
    """BR-CO-17: BT-117 = BT-116 x BT-119 / 100, rounded to two decimals, within 1; at a rate that rounds to 0 the
    amount must round to 0 (``round(CalculatedAmount) = 0``: -0.5 <= amount < 0.5).

    CII: ``abs(CalculatedAmount) - 1 <= round(abs(BasisAmount) * (xs:decimal(RateApplicablePercent) div 100) * 10 *
    10) div 100`` and ``+ 1 >=``; UBL the same with ``<`` / ``>``: the strict one is kept.
    """
    if round_half_ceiling(rate) == 0:
        return round_half_ceiling(amount) == 0
    expected = round2(abs(basis) * (rate / HUNDRED))
    return abs(amount) - 1 < expected < abs(amount) + 1


__all__ = [
    "br_co_10",
    "br_co_13",
    "br_co_14",
    "br_co_15",
    "br_co_16",
    "br_co_17",
    "br_s_08",
    "br_s_09",
    "round2",
    "round_half_ceiling",
]
