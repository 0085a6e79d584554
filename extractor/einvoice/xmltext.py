"""Reading e-invoice XML by local element names, so ZUGFeRD 1 and 2, CII D16B and UBL namespaces all work: the
element steps, text, decimals, numbers and dates the e-invoice readers (``einvoice.read``,
``einvoice.read_en16931``) take their values with: lxml elements in, plain values out (lxml itself is only
imported by ``_local``, on first use).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation


def _local(el) -> str:
    from lxml import etree

    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _kids(el, names: str) -> list:
    wanted = names.split("|")
    return [c for c in el if isinstance(c.tag, str) and _local(c) in wanted] if el is not None else []


def _all(el, *steps: str) -> list:
    nodes = [el] if el is not None else []
    for step in steps:
        nodes = [k for n in nodes for k in _kids(n, step)]
    return nodes


def _one(el, *steps: str):
    nodes = _all(el, *steps)
    return nodes[0] if nodes else None


def _text(el, *steps: str) -> str | None:
    for node in _all(el, *steps):
        text = " ".join((node.text or "").split())
        if text:
            return text
    return None


def _dec(el, *steps: str, currency: str | None = None) -> Decimal | None:
    nodes = _all(el, *steps)
    if currency and len(nodes) > 1:
        # e.g. TaxTotalAmount given twice: in the invoice currency and in the tax currency
        nodes = [n for n in nodes if n.get("currencyID") in (None, currency)] or nodes
    for node in nodes:
        try:
            value = Decimal((node.text or "").strip())
        except InvalidOperation:
            continue
        if value.is_finite():
            return value
    return None


def _num(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def _date(text: str | None) -> str | None:
    """CII format 102 (``YYYYMMDD``) or an ISO date / date-time, as ``YYYY-MM-DD``; other formats give None."""
    import datetime as dt

    if not text:
        return None
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", text) or re.match(r"(\d{4})-(\d{2})-(\d{2})", text)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None
