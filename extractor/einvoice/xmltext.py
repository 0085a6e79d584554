"""Reading e-invoice XML by local element names, so ZUGFeRD 1 and 2, CII D16B and UBL namespaces all work: the
element steps, text, decimals, numbers and dates the e-invoice readers (``einvoice.read``,
``einvoice.read_en16931``) take their values with: lxml elements in, plain values out; and the one parser setting
for XML from outside (``xml_parser``, ``parse_or_none``). lxml itself is imported on first use.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation


def local_name(el) -> str:
    """An element's local name (no namespace); "" for a comment or processing instruction."""
    from lxml import etree

    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def xml_parser():
    """lxml's parser for XML from outside (a PDF's attachment, an upload): no DTDs, entities or network, lxml's size
    limits kept (one parser setting for every e-invoice reader and check)."""
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parse_or_none(xml: bytes):
    """The root element of XML from outside (``xml_parser``), or None when it is not well-formed."""
    from lxml import etree

    try:
        return etree.fromstring(xml, parser=xml_parser())
    except (etree.XMLSyntaxError, ValueError):
        return None


def _kids(el, names: str) -> list:
    wanted = names.split("|")
    return [c for c in el if isinstance(c.tag, str) and local_name(c) in wanted] if el is not None else []


def find_all(el, *steps: str) -> list:
    """The elements reached from ``el`` by child steps of local names (``"A|B"``: either), in document order."""
    nodes = [el] if el is not None else []
    for step in steps:
        nodes = [k for n in nodes for k in _kids(n, step)]
    return nodes


def find_one(el, *steps: str):
    """The first element ``find_all`` reaches, None for none."""
    nodes = find_all(el, *steps)
    return nodes[0] if nodes else None


def text_at(el, *steps: str) -> str | None:
    """The first non-empty text those steps reach, its whitespace collapsed; None for none."""
    for node in find_all(el, *steps):
        text = " ".join((node.text or "").split())
        if text:
            return text
    return None


def decimal_at(el, *steps: str, currency: str | None = None) -> Decimal | None:
    """The first finite decimal those steps reach (with ``currency``: of that ``currencyID`` where several)."""
    nodes = find_all(el, *steps)
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


def plain_number(value: Decimal | None) -> int | float | None:
    """A decimal as JSON takes it: an int when whole, else a float; None stays None."""
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def iso_date(text: str | None) -> str | None:
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


__all__ = ["decimal_at", "find_all", "find_one", "iso_date", "local_name", "plain_number", "text_at"]
