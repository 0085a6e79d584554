"""What the CII writer (``write``) and the UBL writer (``write_ubl``) share: element building, serialization, decimal
text, the rate written for a category, and a line's allowance and charge with their reason codes."""

from __future__ import annotations

from decimal import Decimal

from lxml import etree

from extractor.einvoice.bindings import NAMESPACES, address_path, contact_path
from extractor.einvoice.terms import OUTSIDE_SCOPE, Contact, Line, Party

# a line's printed discount and surcharge have amounts only: UNTDID 5189 "Discount" and 7161 "Mutually defined"
# (BT-140 / BT-145; BR-42 / BR-44 ask for a reason or its code)
DISCOUNT = "95"
SURCHARGE = "ZZZ"
# a postal address's parts (invoice-en16931 keys) in each syntax's element order (the CII D16B XSD's, UBL 2.1's);
# their element paths are the binding table's
ADDRESS_ORDER = {
    "CII": ("postal_code", "street", "additional_street", "address_line_3", "city", "country", "subdivision"),
    "UBL": ("street", "additional_street", "city", "postal_code", "subdivision", "address_line_3", "country"),
}


def number(value: Decimal) -> str:
    """A decimal as XSD decimal text (plain notation, never ``1E+3``)."""
    return format(value, "f")


def sub_element(parent, ns: str, name: str, text: str | None = None, attrs: dict[str, str | None] | None = None):
    """A child element ``{ns}name`` of ``parent`` with its text and the attributes that are not None."""
    el = etree.SubElement(parent, f"{{{ns}}}{name}", {k: v for k, v in (attrs or {}).items() if v is not None})
    if text is not None:
        el.text = text
    return el


def sub_path(parent, path: str, text: str):
    """The elements along a relative path of prefixed names (``cac:Country/cbc:IdentificationCode``, the binding
    table's), the last holding the text; returns the last."""
    for step in path.split("/"):
        prefix, name = step.split(":", 1)
        parent = sub_element(parent, NAMESPACES[prefix], name)
    parent.text = text
    return parent


def sub_texts(parent, paths: tuple[str, ...], texts: tuple[str | None, ...]) -> None:
    """Each text given (neither None nor empty) at its relative path of prefixed names under ``parent``, in order:
    ``sub_texts(el, ("ram:ReasonCode", "ram:Reason"), (code, reason))``."""
    for path, text in zip(paths, texts, strict=True):
        if text:
            sub_path(parent, path, text)


def write_contact(parent, contact: Contact | None, syntax: str) -> None:
    """A party's contact (BG-6, BG-9): its name, telephone and e-mail at the binding table's paths, under one contact
    element (``DefinedTradeContact``, ``Contact``); nothing when it gives none."""
    holder = None
    values = {"name": contact.name, "phone": contact.phone, "email": contact.email} if contact is not None else {}
    for key, value in values.items():
        if value:
            head, _, rest = contact_path(key, syntax).partition("/")
            if holder is None:
                prefix, name = head.split(":", 1)
                holder = sub_element(parent, NAMESPACES[prefix], name)
            sub_path(holder, rest, value)


def write_address(parent, element: str, party: Party, syntax: str) -> None:
    """A party's postal address (BG-5, BG-8, BG-12, BG-15) as ``element`` (a prefixed name) of ``parent``, its parts
    in the syntax's element order at the binding table's paths; nothing when it has no part but a subdivision
    (which locates no address)."""
    values = {
        "street": party.street,
        "additional_street": party.additional_street,
        "address_line_3": party.line_three,
        "postal_code": party.postal_code,
        "city": party.city,
        "country": party.country,
        "subdivision": party.subdivision,
    }
    if not any(value for key, value in values.items() if key != "subdivision"):
        return
    prefix, name = element.split(":", 1)
    address = sub_element(parent, NAMESPACES[prefix], name)
    for key in ADDRESS_ORDER[syntax]:
        value = values[key]
        if value:
            sub_path(address, address_path(key, syntax), value)


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


__all__ = [
    "ADDRESS_ORDER",
    "DISCOUNT",
    "SURCHARGE",
    "line_adjustments",
    "number",
    "rate_to_write",
    "serialize",
    "sub_element",
    "sub_path",
    "sub_texts",
    "write_address",
    "write_contact",
]
