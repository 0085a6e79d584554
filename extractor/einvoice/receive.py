"""A received e-invoice XML file, with no PDF around it (Peppol, XRechnung, a Factur-X / ZUGFeRD XML): recognised by
its root element, refused when hostile or no e-invoice, read exactly (``read``; ``read_en16931`` for that schema),
and what the reading found suspect named (``inputs.load`` only told the bytes were XML and handed them over).

Refusals (``InputError``; the message names the file and the reason):

* ``xml_doctype``: a DOCTYPE (the only place an entity can be declared): refused before the XML is parsed, never
  expanded; an e-invoice has no DTD.
* ``malformed_xml``: not well-formed, or past lxml's safety limits (nesting over 256 deep, a text node over 10 MB:
  an XML bomb without entities).
* ``not_an_einvoice``: the root element is no CII ``CrossIndustryInvoice`` (D16B; ZUGFeRD 1's
  ``CrossIndustryDocument``) and no UBL 2.1 ``Invoice`` / ``CreditNote`` in its own namespace; the message names
  the root element and its namespace (an order, an SVG, UBL with a wrong namespace).

Findings (the record is then ``review``, each naming the reason): a specification identifier (BT-24) of no profile
we know (read as EN 16931, checked by the CEN rules only: ``einvoice_profile``), and amounts, quantities or
percentages that are not numbers (``einvoice_amount``: the reader leaves them out, so the record never shows them as
read).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractor.einvoice.read import EmbeddedInvoice, read_invoice_root
from extractor.einvoice.read_en16931 import as_en16931
from extractor.einvoice.xmltext import xml_parser
from extractor.errors import InputError
from extractor.inputs.xmlhead import xml_head
from extractor.record import issue

# root element (local name) -> the namespace an e-invoice of that root has
ROOTS = {
    "CrossIndustryInvoice": ("urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",),
    "CrossIndustryDocument": ("urn:ferd:CrossIndustryDocument:invoice:1p0",),
    "Invoice": ("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",),
    "CreditNote": ("urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",),
}
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")  # xs:decimal: no exponent, no NaN / INF
_NUMERIC = ("Amount", "Quantity", "Percent")  # the local-name endings of CII / UBL amount, quantity and rate elements
MAX_NAMED = 5  # the bad values a finding names, the rest counted


@dataclass(frozen=True)
class Received:
    """A received e-invoice XML, read.

    Attributes:
        invoice: what was read (``EmbeddedInvoice``: its data in the schema's shape, and how it was read).
        findings: what makes the record ``review``: an unknown profile, amounts that are not numbers.
    """

    invoice: EmbeddedInvoice
    findings: tuple[dict, ...] = ()


def receive_xml(xml: bytes, *, name: str, schema: str = "invoice") -> Received:
    """Read a received e-invoice XML exactly.

    Args:
        xml: the file's bytes.
        name: the file as named in records and messages.
        schema: ``invoice`` or ``invoice-en16931`` (the terms that schema adds are read too).

    Returns:
        The Received invoice.

    Raises:
        InputError: ``xml_doctype``, ``malformed_xml`` or ``not_an_einvoice`` (see the module docstring).
    """
    root = _parsed(xml, name)
    _check_root(root, name)
    invoice = read_invoice_root(root, xml=xml)
    if invoice is None:  # the root was checked: only a reader's refusal leads here
        raise InputError(f"{name}: the XML could not be read as an e-invoice", source=name, code="not_an_einvoice")
    if schema == "invoice-en16931":
        invoice = as_en16931(invoice, root=root)
    findings = tuple(f for f in (_profile_finding(invoice.guideline, name), _amount_finding(root, name)) if f)
    return Received(invoice=invoice, findings=findings)


def _parsed(xml: bytes, name: str):
    """The root element, parsed with entities, DTDs and the network off; a DOCTYPE refused before parsing."""
    from lxml import etree

    if xml_head(xml).doctype:  # read from the bytes, item by item: nothing is parsed
        raise InputError(
            f"{name}: the XML has a DOCTYPE (entity declarations); refused, nothing expanded: an e-invoice has none",
            source=name,
            code="xml_doctype",
        )
    try:
        root = etree.fromstring(xml, parser=xml_parser())
    except etree.XMLSyntaxError as exc:
        raise InputError(
            f"{name}: not well-formed XML, or past the parser's safety limits ({exc})",
            source=name,
            code="malformed_xml",
        ) from None
    except ValueError as exc:  # e.g. an encoding declaration lxml cannot honour
        raise InputError(f"{name}: not readable as XML ({exc})", source=name, code="malformed_xml") from None
    if root.getroottree().docinfo.doctype:  # a DOCTYPE in an encoding the byte scan cannot see (UTF-16)
        raise InputError(
            f"{name}: the XML has a DOCTYPE; refused: an e-invoice has none", source=name, code="xml_doctype"
        )
    return root


def _check_root(root, name: str) -> None:
    from lxml import etree

    qname = etree.QName(root)
    expected = ROOTS.get(qname.localname)
    if expected is not None and qname.namespace in expected:
        return
    where = f" in namespace {qname.namespace!r}" if qname.namespace else " (no namespace)"
    why = (
        f"its root element {qname.localname}{where} is not the e-invoice namespace {expected[0]!r}"
        if expected
        else f"its root element is {qname.localname}{where}, not a CII CrossIndustryInvoice or a UBL Invoice / "
        "CreditNote"
    )
    raise InputError(f"{name}: not an e-invoice: {why}", source=name, code="not_an_einvoice")


def _profile_finding(guideline: str, name: str) -> dict | None:
    """An ``einvoice_profile`` finding when BT-24 names no profile we know."""
    from extractor.einvoice.report import profile_of

    if profile_of(guideline):
        return None
    said = f"its specification identifier (BT-24) {guideline!r}" if guideline else "no specification identifier (BT-24)"
    return issue(
        "einvoice_profile",
        f"{name}: {said} names no profile we know (EN 16931, its Factur-X / ZUGFeRD, XRechnung and Peppol "
        "profiles); read as EN 16931 and checked by the CEN rules only",
    )


def _amount_finding(root, name: str) -> dict | None:
    """An ``einvoice_amount`` finding naming the amounts, quantities and percentages that are not numbers."""
    from lxml import etree

    bad = []
    for el in root.iter("{*}*"):
        local = etree.QName(el).localname
        if len(el) or not local.endswith(_NUMERIC):
            continue
        text = (el.text or "").strip()
        if not _NUMBER.fullmatch(text):
            bad.append(f"{local} {text[:40]!r} (line {el.sourceline})")
    if not bad:
        return None
    more = f" and {len(bad) - MAX_NAMED} more" if len(bad) > MAX_NAMED else ""
    return issue(
        "einvoice_amount",
        f"{name}: values that are not numbers: {', '.join(bad[:MAX_NAMED])}{more}; they are not read (left null)",
    )


__all__ = ["ROOTS", "Received", "receive_xml"]
