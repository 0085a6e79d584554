"""The EN 16931 terms ``invoice-en16931`` holds beyond what ``read_en16931`` reads by hand, read through the binding
table (``bindings``) from CII D16B and UBL 2.1: payee, tax representative, deliver-to party and address, the
references BT-11 to BT-19, further preceding invoices, tax point, remittance information, direct debit, notes,
supporting documents, address lines, trading names, and the line terms (ids, notes, object, order line, accounting
reference, period, price base quantity and gross price, allowance / charge reasons, buyer and standard ids,
classifications, origin, attributes).

Whatever the source gives that the schema does not hold is named in the notes (``unheld_notes``): a term the schema
has no place for, a second account or identifier where it holds one, several line allowances summed into one.
ZUGFeRD 1's ``CrossIndustryDocument`` has no EN 16931 binding: its further terms are left null, and said.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from extractor.einvoice.bindings import BINDINGS, BY_TERM, NAMESPACES
from extractor.einvoice.codes import payment_means_of
from extractor.einvoice.term_values import first, scope_nodes, syntax_of, term_values
from extractor.einvoice.xmltext import xml_parser

_TAX_POINT = {"3": "issue_date", "35": "delivery_date", "432": "payment_date"}
_ADDRESS = ("street", "additional_street", "address_line_3", "city", "postal_code", "subdivision", "country")
_ADDRESSES = {
    "seller": ("BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"),
    "buyer": ("BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"),
    "tax_representative": ("BT-64", "BT-65", "BT-164", "BT-66", "BT-67", "BT-68", "BT-69"),
    "delivery": ("BT-75", "BT-76", "BT-165", "BT-77", "BT-78", "BT-79", "BT-80"),
}
_HELD_IDS = ("0088", "0199")  # the party identifiers the schema holds: GLN, LEI


def _number(text: str | None) -> int | float | None:
    if text is None:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def _object(**values) -> dict | None:
    """The values as an object, None when none is given."""
    return values if any(v is not None for v in values.values()) else None


def address(values: dict, who: str) -> dict | None:
    """One party's postal address in the schema's shape, None when the XML gives no part of it."""
    return _object(**{key: first(values, term) for key, term in zip(_ADDRESS, _ADDRESSES[who], strict=True)})


class TermReader:
    """The further terms of one CII D16B or UBL document (``syntax`` None: a syntax with no binding)."""

    def __init__(self, root):
        self.root = root
        self.syntax = syntax_of(root)
        self.values = term_values(root, self.syntax) if self.syntax else {}

    def v(self, term: str, index: int | None = None) -> str | None:
        """A term's first value (in line / group ``index``)."""
        return first(self.values, term, index)

    def all(self, term: str, index: int) -> list[str]:
        """All of a term's values in one line / group."""
        return next((found for i, found in self.values.get(term, []) if i == index), [])

    def document(self) -> dict:
        """The document-level further terms, keyed as the schema's fields."""
        v = self.v
        code = v("BT-8")
        return {
            "tax_point_date": v("BT-7"),
            "tax_point_code": _TAX_POINT.get(code) if code else None,
            "references": _object(
                project=v("BT-11"),
                contract=v("BT-12"),
                sales_order=v("BT-14"),
                receiving_advice=v("BT-15"),
                despatch_advice=v("BT-16"),
                tender_or_lot=v("BT-17"),
                invoiced_object=v("BT-18"),
                buyer_accounting=v("BT-19"),
            ),
            "more_preceding_invoices": [
                {"number": self.v("BT-25", i), "issue_date": self.v("BT-26", i)}
                for i, _ in self.values.get("BT-25", [])[1:]
            ]
            or None,
            "payee": None
            if v("BT-59") is None
            else {"name": v("BT-59"), "identifier": v("BT-60"), "legal_id": v("BT-61")},
            "tax_representative": None
            if v("BT-62") is None
            else {"name": v("BT-62"), "vat_id": v("BT-63"), "address": address(self.values, "tax_representative")},
            "delivery": _object(name=v("BT-70"), location_id=v("BT-71"), address=address(self.values, "delivery")),
            "tax_currency": v("BT-6"),
            "tax_total_in_tax_currency": _number(v("BT-111")),
            "payment_means_code": means if (means := v("BT-81")) and payment_means_of(means) is None else None,
            "payment_means_text": v("BT-82"),
            "payment_card": None if v("BT-87") is None else {"number": v("BT-87"), "holder": v("BT-88")},
            "payment_terms": self._payment_terms(),
            "remittance_information": v("BT-83"),
            "direct_debit": _object(mandate=v("BT-89"), creditor_id=v("BT-90"), debited_account=v("BT-91")),
            "invoice_notes": self._notes(),
            "supporting_documents": self._documents(),
        }

    def _payment_terms(self) -> str | None:
        """BT-20 with its line breaks (XRechnung's Skonto lines are one a line, each ending in one: BR-DE-18);
        spaces within a line collapsed, blank lines dropped."""
        texts = []
        for node in self.root.xpath(BY_TERM["BT-20"].path(self.syntax or ""), namespaces=NAMESPACES):
            raw = node.text or ""
            lines = [" ".join(line.split()) for line in raw.split("\n")]
            text = "\n".join(line for line in lines if line)
            if text and raw.rstrip(" \t\r").endswith("\n"):
                text += "\n"
            if text:
                texts.append(text)
        return "\n".join(texts) or None

    def party(self, who: str) -> dict:
        """A seller's or buyer's further terms: trading name, address in parts, legal information (seller)."""
        trading, info, ids = ("BT-28", "BT-33", "BT-29") if who == "seller" else ("BT-45", None, "BT-46")
        other = [x for x in self.values.get(ids, []) if x.partition(":")[0] not in _HELD_IDS]
        return {
            "other_ids": other[:5] or None,
            "trading_name": self.v(trading),
            "address": address(self.values, who),
            "legal_info": self.v(info) if info else None,
        }

    def _notes(self) -> list[dict] | None:
        if self.syntax is None:
            return None
        notes = [
            {"subject_code": self.v("BT-21", i), "text": text}
            for i, node in enumerate(scope_nodes(self.root, "note", self.syntax))
            if (text := self.v("BT-22", i)) is not None
        ]
        return notes or None

    def _documents(self) -> list[dict] | None:
        if self.syntax is None:
            return None
        out = []
        for i, node in enumerate(scope_nodes(self.root, "document", self.syntax)):
            reference = self.v("BT-122", i)
            if reference is None:
                continue
            attachment = None
            binary = node.xpath(
                "ram:AttachmentBinaryObject|cac:Attachment/cbc:EmbeddedDocumentBinaryObject", namespaces=NAMESPACES
            )
            if binary:
                attachment = {
                    "filename": self.v("BT-125-2", i),
                    "mime_type": self.v("BT-125-1", i),
                    "size": _base64_size(binary[0].text or ""),
                }
            out.append(
                {
                    "reference": reference,
                    "description": self.v("BT-123", i),
                    "uri": self.v("BT-124", i),
                    "attachment": attachment,
                }
            )
        return out or None

    def line(self, i: int) -> dict:
        """Line ``i``'s further terms, keyed as the schema's line fields."""
        v = self.v
        base = v("BT-149", i)
        start, end = v("BT-134", i), v("BT-135", i)
        classes = [_split(c) for c in self.all("BT-158", i)]
        names, values = self.all("BT-160", i), self.all("BT-161", i)
        return {
            "line_id": v("BT-126", i),
            "buyer_item_id": v("BT-156", i),
            "standard_id": v("BT-157", i),
            "item_description": v("BT-154", i),
            "net_price": _number(v("BT-146", i)),
            "price_base_quantity": _number(base),
            "price_base_unit": v("BT-150", i),
            "gross_price": _number(v("BT-148", i)),
            "price_discount": _number(v("BT-147", i)),
            "allowance_reason": v("BT-139", i),
            "allowance_reason_code": v("BT-140", i),
            "charge_reason": v("BT-144", i),
            "charge_reason_code": v("BT-145", i),
            "note": v("BT-127", i),
            "object_id": v("BT-128", i),
            "order_line_reference": v("BT-132", i),
            "accounting_reference": v("BT-133", i),
            "period": {"start": start, "end": end} if start or end else None,
            "classifications": [{"code": code, "scheme": scheme} for scheme, code in classes] or None,
            "origin_country": v("BT-159", i),
            "attributes": [{"name": n, "value": x} for n, x in zip(names, values, strict=False)] or None,
        }

    def unheld_notes(self, lines: int) -> list[str]:
        """What the source gives that the schema does not hold, one note per term (``lines``: the lines read)."""
        if self.syntax is None:
            return ["ZUGFeRD 1.0 has no EN 16931 binding: the terms beyond the invoice reading are left null"]
        out = [
            f"{b.term} {b.name}: in the XML, not held by invoice-en16931; left out"
            for b in BINDINGS
            if b.held is None and b.term in self.values
        ]
        other = [x for x in self.values.get("BT-29", []) if x.partition(":")[0] not in _HELD_IDS]
        if len(other) > 5:
            out.append(f"BT-29 seller identifiers: {len(other)} besides GLN and LEI, the first 5 are held")
        if len(self.values.get("BT-84", [])) > 1:
            count = len(self.values["BT-84"])
            out.append(f"BT-84, BT-85, BT-86 payment account: {count} in the XML, the first is held; the rest left out")
        for terms, what in (("BT-136, BT-139, BT-140", "allowances"), ("BT-141, BT-144, BT-145", "charges")):
            several = [i + 1 for i, found in self.values.get(terms[:6], []) if len(found) > 1]
            if several:
                out.append(f"{terms} line {what} on line(s) {several}: summed into one, with the first's reason")
        if len(scope_nodes(self.root, "line", self.syntax)) != lines:
            out.append("BG-25 lines: the XML's lines do not pair up with those read; their further terms left null")
        return out


@dataclass(frozen=True)
class Attachment:
    """A supporting document's embedded file (BT-125): what ``supporting_documents[i].attachment`` names, with its
    bytes, which the record never holds (for writing beside it)."""

    index: int  # its supporting document's position in ``supporting_documents``
    filename: str | None
    mime_type: str | None
    data: bytes


def attachments(xml: bytes) -> tuple[Attachment, ...]:
    """The embedded files of a CII D16B or UBL invoice's supporting documents (BG-24), decoded; a file whose
    base64 does not decode is left out (the record still names it). Parsed as the readers parse: no DTD, no
    entities, no network."""
    import base64
    import binascii

    from lxml import etree

    reader = TermReader(etree.fromstring(xml, parser=xml_parser()))
    out: list[Attachment] = []
    if reader.syntax is None:
        return ()
    held = [i for i, _ in reader.values.get("BT-122", [])]  # the documents the record lists, in its order
    for position, i in enumerate(held):
        node = scope_nodes(reader.root, "document", reader.syntax)[i]
        binary = node.xpath(
            "ram:AttachmentBinaryObject|cac:Attachment/cbc:EmbeddedDocumentBinaryObject", namespaces=NAMESPACES
        )
        if not binary:
            continue
        try:
            data = base64.b64decode("".join((binary[0].text or "").split()), validate=True)
        except (binascii.Error, ValueError):
            continue
        out.append(Attachment(position, binary[0].get("filename"), binary[0].get("mimeCode"), data))
    return tuple(out)


def _split(value: str) -> tuple[str | None, str]:
    scheme, sep, code = value.partition(":")
    return (scheme, code) if sep else (None, value)


def _base64_size(text: str) -> int | None:
    """The decoded size of base64 text, without decoding it."""
    compact = "".join(text.split())
    if not compact:
        return None
    return len(compact) * 3 // 4 - compact[-2:].count("=")
