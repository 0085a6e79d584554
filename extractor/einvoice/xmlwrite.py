"""What the CII writer (``write``) and the UBL writer (``write_ubl``) share: element building, serialization, decimal
text, the rate written for a category, and a line's allowance and charge with their reason codes."""

from __future__ import annotations

from decimal import Decimal

from lxml import etree

from extractor.einvoice.terms import OUTSIDE_SCOPE, Line

# a line's printed discount and surcharge have amounts only: UNTDID 5189 "Discount" and 7161 "Mutually defined"
# (BT-140 / BT-145; BR-42 / BR-44 ask for a reason or its code)
DISCOUNT = "95"
SURCHARGE = "ZZZ"


def number(value: Decimal) -> str:
    """A decimal as XSD decimal text (plain notation, never ``1E+3``)."""
    return format(value, "f")


def sub_element(parent, ns: str, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    """A child element ``{ns}name`` of ``parent`` with its text and the attributes that are not None."""
    el = etree.SubElement(parent, f"{{{ns}}}{name}", {k: v for k, v in (attrs or {}).items() if v is not None})
    if text is not None:
        el.text = text
    return el


def serialize(root) -> bytes:
    """The document as written: UTF-8 with an XML declaration, indented (deterministic for the same tree)."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def rate_to_write(category: str | None, rate: Decimal | None, *, breakdown: bool = False) -> Decimal | None:
    """The rate to write: none on a line, allowance or charge outside the scope of VAT (BR-O-05 / 06 / 07); a VAT
    breakdown's as the record gives it (XRechnung asks for one: BR-DE-14)."""
    return None if category == OUTSIDE_SCOPE and not breakdown else rate


def line_adjustments(line: Line) -> list[tuple[bool, Decimal, str | None, str | None]]:
    """A line's allowance (BG-27) and charge (BG-28) as ``(charge, amount, reason code, reason)``: BR-42 / BR-44 ask
    for a reason or its code; where the record holds neither, the codes say discount / mutually defined."""
    out: list[tuple[bool, Decimal, str | None, str | None]] = []
    if line.allowance:
        code = line.allowance_code or (None if line.allowance_reason else DISCOUNT)
        out.append((False, line.allowance, code, line.allowance_reason))
    if line.charge:
        out.append(
            (True, line.charge, line.charge_code or (None if line.charge_reason else SURCHARGE), line.charge_reason)
        )
    return out


__all__ = ["DISCOUNT", "SURCHARGE", "line_adjustments", "number", "rate_to_write", "serialize", "sub_element"]
