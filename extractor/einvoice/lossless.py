"""Source -> record -> our CII and UBL, compared term by term (issue 41 item 3): every EN 16931 term a source XML
gives (``term_values.term_values``) against the same term in the CII and the UBL we write from the record read under
``invoice-en16931``, after the syntaxes' normalisations (``term_values.normalise``).

A difference is a loss unless it is documented:

* ``noted``: the record says so (a note of the reading or the writing naming the term: a term the schema does not
  hold, a second account, several line allowances summed, a code without a word);
* ``EXEMPT``: the attached documents' bytes (BT-125) are kept beside the record, never in it, so our XML names the
  supporting document without them;
* a rate of 0 on a category O (outside the scope of VAT) line, allowance or charge: we write no rate there
  (BR-O-05 / 06 / 07 forbid one), where a source breaking those rules writes 0.

Everything else is ``lost``: tests/test_einvoice_lossless.py fails on it, ``bench/einvoice_corpus.py`` prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extractor.einvoice.term_values import differences, syntax_of, term_values
from extractor.einvoice.xmltext import parse_or_none, xml_parser

EXEMPT = {
    "BT-125-1": "the attachment's bytes are not in the record; our XML names the document without them",
    "BT-125-2": "the attachment's bytes are not in the record; our XML names the document without them",
}
FORMATS = ("cii", "ubl")
# a rate term -> the category term beside it (BT-152 / BT-151, BT-96 / 95, BT-103 / 102)
RATE_CATEGORY = {"BT-152": "BT-151", "BT-96": "BT-95", "BT-103": "BT-102"}


def _outside_scope_rate(term: str, want: list, got: list | None, source: dict) -> bool:
    """Whether the only difference is a rate of 0 the source writes on category O, where we write none."""
    category = RATE_CATEGORY.get(term)
    if category is None:
        return False
    kept = {i: v for i, v in (got or [])}
    categories = dict(source.get(category, []))
    return all(
        kept.get(i) == values or (values == ["0"] and categories.get(i) == ["O"] and i not in kept)
        for i, values in want
    )


@dataclass(frozen=True)
class RoundTrip:
    """One source's terms and ours.

    Attributes:
        syntax: the source's (``CII``, ``UBL``).
        source: term -> values in the source (``term_values.term_values``).
        ours: format -> term -> values in our XML of that format.
        lost: format -> term -> ``(source's values, ours)``: differences neither noted nor exempt.
        noted: the terms that differ and that the record's notes name.
        notes: the notes (reading and writing).
        valid: whether the record read is valid against ``invoice-en16931``.
        xml: format -> our XML.
    """

    syntax: str
    source: dict
    ours: dict
    lost: dict
    noted: tuple[str, ...]
    notes: tuple[str, ...]
    valid: bool
    xml: dict = field(default_factory=dict, repr=False)


def _named(term: str, notes: tuple[str, ...]) -> bool:
    pattern = re.compile(rf"(^|[\s/(]){re.escape(term)}([\s:,)]|$)")
    return any(pattern.search(note) for note in notes)


def round_trip(xml: bytes) -> RoundTrip | None:
    """Read a CII D16B or UBL invoice under ``invoice-en16931``, write our CII and UBL from the record, and compare
    them term by term with the source; None for XML that is no bound invoice (ZUGFeRD 1, not an invoice)."""
    from lxml import etree

    from extractor.einvoice.read import read_invoice_root
    from extractor.einvoice.read_en16931 import as_en16931
    from extractor.einvoice.record_xml import einvoice_xml, record_terms

    root = parse_or_none(xml)
    read = None if root is None else read_invoice_root(root, xml=xml)
    syntax = None if root is None else syntax_of(root)
    if read is None or syntax is None:
        return None
    record = as_en16931(read, root=root)
    extra = {"data": record.data, "data_source": "embedded_xml", "embedded": record.to_dict()}
    notes = (*record.notes, *record_terms(record.data, extra).notes)
    source = term_values(root, syntax)
    ours: dict[str, dict] = {}
    written: dict[str, bytes] = {}
    lost: dict[str, dict] = {}
    noted: set[str] = set()
    for fmt in FORMATS:
        written[fmt] = einvoice_xml(extra, fmt)
        out = etree.fromstring(written[fmt], parser=xml_parser())
        ours[fmt] = term_values(out, syntax_of(out) or "")
        lost[fmt] = {}
        for term, diff in differences(source, ours[fmt]).items():
            want, got = diff
            if term in EXEMPT or _outside_scope_rate(term, want, got, source):
                continue
            if _named(term, notes):
                noted.add(term)
            else:
                lost[fmt][term] = diff
    return RoundTrip(
        syntax=syntax,
        source=source,
        ours=ours,
        lost=lost,
        noted=tuple(sorted(noted, key=_order)),
        notes=notes,
        valid=record.valid,
        xml=written,
    )


def _order(term: str) -> tuple[int, str]:
    digits = re.search(r"\d+", term)
    return (int(digits.group()) if digits else 0, term)
