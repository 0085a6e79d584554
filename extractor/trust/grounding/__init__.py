"""Grounding: is each extracted value printed on the document's pages, as that value and where it belongs?

Each page is searched in one text (``PageText``): its text layer, or its OCR text where the page has no usable
text layer (``ocrdecide.page_text`` decides; ``source`` says which, ``none`` when a page has neither), read as lines of
tokens (``page``) grouped into bands, the printed rows. Every scalar in the data (``leaves.leaves``: JSON pointers;
nulls, booleans and empty strings skipped) gets one of three answers: found (True), not found (False) or **not
checkable** (None).

What counts as found, by type:

* numbers: only whole number tokens (``page.number_values``), never a part of a date, identifier, phone number or
  IBAN, read under the decimal / grouping conventions of the CLDR locales (``1.234,56``, ``1,234.56``,
  ``1 234,56``, ``1'234.56``, Indian ``1,23,456.78``; currency signs, ``%`` and minus signs around them allowed)
  and compared as ``Decimal``; where the document's amounts show its decimal mark (``page.decimal_marks``), the
  other reading is not tried (``2,500`` is 2500 on a page writing ``1,489.00``);
* dates (``YYYY-MM-DD`` values): only as dates: ISO, ``31.01.2026``, ``31/01/2026``, ``01/31/2026``, two-digit
  years, month names of every CLDR locale (``31 January 2026``, ``31. Jänner 2026``, ``1er mars``, ``2026年1月31日``);
* codes: a country code (``country``) as the whole word in its case (``DE``, not ``De`` in "De Vries") or the
  country's name in any CLDR locale; a currency code (``currency``) as the whole word in its case, or its signs and
  names;
* other text: the whole word sequence (NFKD, accents dropped, casefolded), or for 5+ letters / digits with
  punctuation and spaces ignored, from the start of a word to the end of one (``DE89 3704 ...`` grounds
  ``DE89370400...``; ``20457`` is not found inside ``204571``); on OCR text also with OCR's confusions for
  identifiers (``O``/``0``, ``I``/``l``/``1``, ``S``/``5``, ``B``/``8``).

Rows (``rows``): a line item's values other than its description are found only on the printed row of its
description (wrapped descriptions included), a tax line's rate only on a band printing its amount or base.

Not checkable: a value too short or common to prove anything: 0 and 1, a one-digit number outside a row that
anchors it (a quantity of 4 whose row is not printed), a text of one letter or digit (two, outside a row); and every
value when no page has text, or a value not found while some page has none (it may be printed there). The ratio
counts checkable fields only.

Where a page has lines with boxes (OCR's, or a text layer's character boxes: ``textlayer.text_lines``), the box of
the words holding a value and OCR's recognizer confidence come with it (``FieldGrounding.box`` / ``confidence``);
pages without lines give the page only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from extractor.einvoice import codes
from extractor.leaves import leaves
from extractor.record import issue
from extractor.text import PageText, fold
from extractor.trust.grounding.cldr import country_names, currency_words, date_text, dates_in
from extractor.trust.grounding.page import (
    OCR_CONFUSIONS,
    Hit,
    Page,
    Token,
    compact,
    compact_in,
    decimal_marks,
    key_of,
    key_spans,
    number_values,
    word_in,
)
from extractor.trust.grounding.rows import (
    ITEM_AMOUNTS,
    ITEM_TAX_RATES,
    TAX_ANCHORS,
    Block,
    Context,
    anchor_key,
    context_of,
    item_blocks,
    number_blocks,
    page_at,
    runs,
)

KEY_FIELDS = ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/buyer/vat_id")
RECEIPT_KEY_FIELDS = ("/total", "/merchant/vat_id")
# invoice-en16931's own words for what a page says in its own ("credit_note" for "Gutschrift"; its enums, from
# ``einvoice.codes``): never printed as such, so finding them proves nothing either way
CODED_VALUES = {
    "document_type": frozenset(codes.DOCUMENT_TYPES),
    "payment_means": frozenset(codes.PAYMENT_MEANS),
    "kind": frozenset(codes.ALLOWANCE_KINDS),
    "vat_category": frozenset(codes.VAT_CATEGORIES),
    "category": frozenset(codes.VAT_CATEGORIES),
}
MIN_COMPACT = 5  # strings this long (letters + digits) may also match with punctuation and spaces ignored
MIN_TEXT = 3  # letters / digits a text needs to be checkable outside a row (2 on its row)
MIN_DIGITS = 2  # significant digits a number needs to be checkable outside a row (1 on its row)
UNINFORMATIVE = (Decimal(0), Decimal(1))  # printed on almost every page and row: never checkable
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
SOURCES = ("text_layer", "ocr", "none")

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class FieldGrounding:
    """Where one extracted value was found.

    Attributes:
        path: JSON pointer of the value.
        value: the value as extracted.
        grounded: True (found), False (not found), or None: not checkable (too short or common to prove anything,
            or no page has text where it could be).
        page: 0-based index into the page texts where it was first found.
        source: the text it was found in (``text_layer`` or ``ocr``).
        box: where the page text has lines with boxes, the box of the words it was found in (0..1 of the page
            image); a line item's values on its row.
        confidence: on OCR text, the lowest recognizer confidence of those lines.
        hits: the tokens it was found in (line and token indexes of the page as grounding read it: its ``lines``,
            else its text's non-blank lines), for ``trust.citations``; not in the record.
        row: a line item's or tax line's value: the lines of its row (its description's, and the one it was found
            on).
    """

    path: str
    value: Any
    grounded: bool | None
    page: int | None
    source: str | None = None
    box: Box | None = None
    confidence: float | None = None
    hits: tuple[Hit, ...] = field(default=(), compare=False, repr=False)
    row: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def where(self) -> dict:
        """Where it was found, for the record: page (1-based), source, box and confidence."""
        return {
            "page": None if self.page is None else self.page + 1,
            "source": self.source,
            "box": None if self.box is None else list(self.box),
            "confidence": self.confidence,
        }


@dataclass(frozen=True)
class GroundingReport:
    """Grounding of every scalar of one record.

    Attributes:
        fields: one entry per non-null scalar, in document order.
        text_layer: whether any page was searched in its text layer.
        warnings: ``ungrounded`` warnings for key fields not found in the text.
        sources: per page, the text searched: ``text_layer``, ``ocr`` or ``none``.
        confidences: per page, the OCR confidence of the text searched (None unless it is OCR text).
    """

    fields: tuple[FieldGrounding, ...]
    text_layer: bool
    warnings: tuple[dict, ...] = ()
    sources: tuple[str, ...] = ()
    confidences: tuple[float | None, ...] = ()

    @property
    def ratio(self) -> float | None:
        """Share of the checkable fields found in the text (None when nothing could be checked)."""
        checked = [f for f in self.fields if f.grounded is not None]
        return sum(1 for f in checked if f.grounded) / len(checked) if checked else None

    @property
    def ungrounded(self) -> tuple[str, ...]:
        """Paths of the fields not found in the text."""
        return tuple(f.path for f in self.fields if f.grounded is False)

    @property
    def unchecked(self) -> tuple[str, ...]:
        """Paths of the fields that could not be checked (``grounded`` None)."""
        return tuple(f.path for f in self.fields if f.grounded is None)

    def to_dict(self) -> dict:
        """Return the report for the record: the text searched per page, ratio, counts, per-field verdicts
        (true / false / null: not checkable), the ungrounded and unchecked paths and where each grounded value was
        found."""
        ratio = self.ratio
        return {
            "text_layer": self.text_layer,
            "source": list(self.sources),
            "ocr_confidence": [None if c is None else round(c, 4) for c in self.confidences],
            "ratio": None if ratio is None else round(ratio, 4),
            "grounded": sum(1 for f in self.fields if f.grounded is True),
            "checked": sum(1 for f in self.fields if f.grounded is not None),
            "fields": {f.path: f.grounded for f in self.fields},
            "ungrounded": list(self.ungrounded),
            "unchecked": list(self.unchecked),
            "where": {f.path: f.where() for f in self.fields if f.grounded},
        }


def key_fields_for(schema_name: str) -> tuple[str, ...]:
    """Return the key fields whose grounding decides ``review`` for a schema.

    Args:
        schema_name: ``invoice``, ``receipt`` or a custom schema's name.

    Returns:
        The JSON pointers (none for any other name: a custom schema says its own, ``trust.review.key_fields_of``).
    """
    return {"invoice": KEY_FIELDS, "invoice-en16931": KEY_FIELDS, "receipt": RECEIPT_KEY_FIELDS}.get(schema_name, ())


def ground(
    data: Any, page_texts: Sequence[PageText | str | None], *, key_fields: Sequence[str] = KEY_FIELDS
) -> GroundingReport:
    """Look for every extracted scalar in the page texts, line items on their rows.

    Args:
        data: the extracted data (any JSON value).
        page_texts: per page, a ``PageText`` (text layer or OCR text, with its lines' boxes where known), or the
            text layer itself (``Page.text``: a string, or None / blank when the page has none).
        key_fields: JSON pointers whose absence from the text is a warning (``KEY_FIELDS`` for invoices).

    Returns:
        The GroundingReport; its ``warnings`` hold one ``ungrounded`` warning per key field not found.
    """
    pages = [_page(t) for t in page_texts]
    search = _Search(data, pages)
    fields = tuple(search.field(pointer, value, parts) for pointer, value, parts in leaves(data, booleans=False))
    keys = set(key_fields)
    warnings = tuple(
        issue(
            "ungrounded",
            f"{f.path} = {f.value!r} is not found in the document's text (its text "
            "layer, or OCR text where a page has none)",
            f.path,
        )
        for f in fields
        if f.grounded is False and f.path in keys
    )
    return GroundingReport(
        fields=fields,
        text_layer=any(p.usable and p.source == "text_layer" for p in pages),
        warnings=warnings,
        sources=tuple(p.source if p.usable else "none" for p in pages),
        confidences=tuple(p.confidence if p.usable and p.source == "ocr" else None for p in pages),
    )


def checkable(value: Any, key: str = "", *, anchored: bool = False) -> bool:
    """Whether finding a value would prove anything: not 0 or 1; a number of two significant digits or more, one
    digit only on the row that anchors it; a text of three letters / digits or more, two only on its row; a date;
    a country or currency code; never a schema's own code word (:data:`CODED_VALUES`).

    Args:
        value: the extracted scalar.
        key: its last key (``country`` and ``currency`` codes are checkable).
        anchored: whether it is looked up on a row of its own (a line item's row, a tax line's band).

    Returns:
        True when it is checkable.
    """
    if value in CODED_VALUES.get(key, ()):
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = _decimal(value)
        if number is None or abs(number) in UNINFORMATIVE:
            return False
        digits = format(abs(number), "f")
        digits = (digits.rstrip("0").rstrip(".") if "." in digits else digits).replace(".", "").lstrip("0")
        return len(digits) >= MIN_DIGITS or anchored
    text = str(value).strip()
    if _ISO_DATE.match(text) or _code(text, key):
        return True
    size = len(key_of(text))
    return size >= MIN_TEXT or (anchored and size >= MIN_TEXT - 1)


def numbers_in(text: str) -> set[Decimal]:
    """Return the absolute values of every whole number in a text, under every plausible reading of its separators.

    ``1.234`` gives both 1234 and 1.234; ``1.234,56``, ``1,234.56``, ``1 234,56``, ``1'234.56`` and
    ``1,23,456.78`` give what they say; ``31.01.2026`` (a date), ``DE89 3704`` and ``040 555 0192`` give none.

    Args:
        text: any text (lines apart).

    Returns:
        The set of Decimals.
    """
    return {
        value
        for line in text.splitlines()
        for number in number_values([t.text for t in Page(line).lines[0].tokens] if line.strip() else [])
        for value in number.values
    }


# -- internals -------------------------------------------------------------------------------------------------------


def _page(text: PageText | str | None) -> PageText:
    """A page's text as a PageText (a bare string is a text layer)."""
    if isinstance(text, PageText):
        return text
    return PageText(text=text, source="text_layer" if isinstance(text, str) and text.strip() else "none")


class _Search:
    """One record's lookups over its pages: the pages prepared once, line items' rows found once."""

    def __init__(self, data: Any, pages: Sequence[PageText]):
        self.data = data
        self.sources = [p.source for p in pages]
        usable = [p if p.usable else None for p in pages]
        lines = [
            line.text if hasattr(line, "text") else line
            for p in usable
            if p is not None
            for line in (p.lines or (p.text or "").splitlines())
        ]
        excluded = decimal_marks([fold(t) for t in lines])
        self.pages = [
            None if p is None else Page(p.text or "", lines=p.lines, ocr=p.source == "ocr", excluded=excluded)
            for p in usable
        ]
        self.searchable = any(p is not None for p in self.pages)
        self.some_missing = any(p is None for p in self.pages)
        self._items: dict[tuple, list[Block]] | None = None
        self._taxes: dict[tuple, list[Block]] = {}  # rows anchored by numbers: tax lines, undescribed items
        self._tax_bands: list[Block] | None = None

    def field(self, pointer: str, value: Any, parts: tuple) -> FieldGrounding:
        """Ground one scalar."""
        if not self.searchable:
            return FieldGrounding(pointer, value, None, None)
        key = str(parts[-1]) if parts else ""
        context = context_of(self.data, parts)
        if context is not None and context.kind == "item" and key == anchor_key(context.node):
            blocks = self.item_blocks().get(context.parts, [])
            if blocks:  # the description, where its row is
                return self._found(pointer, value, blocks[0].page, list(blocks[0].anchor), row=blocks[0])
            context = None
        elif context is not None and (context.kind == "tax" and key != "rate"):
            context = None
        if context is None:
            if not checkable(value, key):
                return FieldGrounding(pointer, value, None, None)
            for index, page in enumerate(self.pages):
                hits = None if page is None else _on_page(value, key, page)
                if hits is not None:
                    return self._found(pointer, value, index, hits)
            return self._missing(pointer, value)
        blocks = self.blocks(context)
        if context.kind == "item" and key in ITEM_TAX_RATES:
            blocks = blocks + self.tax_bands()
        if not checkable(value, key, anchored=bool(blocks)):
            return FieldGrounding(pointer, value, None, None)
        for block in blocks:
            hits = _in_block(value, key, page_at(self.pages, block.page), block)
            if hits is not None:
                return self._found(pointer, value, block.page, hits, row=block)
        return self._missing(pointer, value)

    def item_blocks(self) -> dict[tuple, list[Block]]:
        """Every line item's blocks (found on first use)."""
        if self._items is None:
            descriptions = {}
            for _, _, parts in leaves(self.data, booleans=False):
                context = context_of(self.data, parts)
                if context is not None and context.kind == "item" and parts[-1] == anchor_key(context.node):
                    descriptions[context.parts] = context.node[parts[-1]]
            self._items = item_blocks(descriptions, self.pages)
        return self._items

    def blocks(self, context: Context) -> list[Block]:
        """Where the row of a line item or tax line is printed."""
        if context.kind == "item" and anchor_key(context.node) is not None:
            return self.item_blocks().get(context.parts, [])
        if context.parts not in self._taxes:
            anchors = []
            for key in TAX_ANCHORS if context.kind == "tax" else ITEM_AMOUNTS:
                value = context.node.get(key)
                number = _decimal(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
                if number is not None and checkable(value, key):
                    anchors.append(
                        [
                            (i, hit)
                            for i, page in enumerate(self.pages)
                            if page is not None
                            for hit in page.numbers.get(abs(number), [])
                        ]
                    )
            self._taxes[context.parts] = number_blocks(anchors, self.pages)
        return self._taxes[context.parts]

    def tax_bands(self) -> list[Block]:
        """The bands of every tax line of the record (where its amount or base is printed; found on first use)."""
        if self._tax_bands is None:
            contexts = {
                c.parts: c
                for c in (context_of(self.data, parts) for _, _, parts in leaves(self.data))
                if c is not None and c.kind == "tax"
            }
            self._tax_bands = [block for context in contexts.values() for block in self.blocks(context)]
        return self._tax_bands

    def _found(
        self, pointer: str, value: Any, index: int, hits: list[Hit], *, row: Block | None = None
    ) -> FieldGrounding:
        page = page_at(self.pages, index)
        lines = () if row is None else tuple(sorted({h.line for h in (*row.anchor, *hits)}))
        return FieldGrounding(
            pointer,
            value,
            True,
            index,
            self.sources[index],
            page.box_of(hits),
            page.confidence_of(hits),
            hits=tuple(hits),
            row=lines,
        )

    def _missing(self, pointer: str, value: Any) -> FieldGrounding:
        """Not found: False, or None when some page has no text (it may be printed there)."""
        return FieldGrounding(pointer, value, None if self.some_missing else False, None)


def _on_page(value: Any, key: str, page: Page) -> list[Hit] | None:
    """Where a value is on a page (``[]``: found, but not within two lines), None when it is not."""
    if isinstance(value, (int, float)):
        number = _decimal(value)
        hits = None if number is None else page.numbers.get(abs(number))
        return hits[:1] if hits else None
    text = str(value).strip()
    code = _code(text, key)
    if code is not None:
        found = _code_found(code, key, page.plain, page.folded)
        return page.locate(lambda tokens: _code_found(code, key, _plain(tokens), _folded(tokens))) if found else None
    folded, needle = fold(text), key_of(text)
    if _text_found(folded, needle, page.folded, (page.compact, page.starts, page.ends), page):
        return page.locate(lambda tokens: _text_found(folded, needle, _folded(tokens), compact(_folded(tokens)), page))
    day = _iso_date(text)
    if day is not None and any(day & line.dates for line in page.lines):
        return page.locate(lambda tokens: bool(day & dates_in(date_text(_folded(tokens)))))
    return None


def _in_block(value: Any, key: str, page: Page, block: Block) -> list[Hit] | None:
    """Where a value is in a row's block (its description's tokens left out), None when it is not."""
    if isinstance(value, (int, float)):
        number = _decimal(value)
        hits = [] if number is None else page.numbers.get(abs(number), [])
        inside = [
            h for h in hits if h.line in block.scope and all(t in block.scope[h.line] for t in range(h.start, h.end))
        ]
        return inside[:1] or None
    text = str(value).strip()
    code = _code(text, key)
    for line, indexes in runs(page, block):
        tokens = [page.lines[line].tokens[t] for t in indexes]
        if code is not None:
            spans = [(i, i + 1) for i, t in enumerate(tokens) if t.plain.strip(".,:;()") == code]
        else:
            spans = key_spans(page.keys(line, indexes), page.needle(text))
        if spans:
            return [Hit(line, indexes[spans[0][0]], indexes[spans[0][1] - 1] + 1)]
    day = _iso_date(text)
    if day is not None:
        lines = [line for line in block.scope if day & page.lines[line].dates]
        if lines:
            return [Hit(lines[0], 0, len(page.lines[lines[0]].tokens))]
    return None


def _text_found(folded: str, needle: str, hay: str, compacted: tuple[str, set, set], page: Page) -> bool:
    """A text as a whole word sequence, or (5+ letters / digits) compact from word start to word end; on OCR text
    an identifier also with OCR's confusions on both sides."""
    if word_in(folded, hay):
        return True
    if len(needle) < MIN_COMPACT:
        return False
    if compact_in(needle, *compacted):
        return True
    return (
        page.ocr
        and any(c.isdigit() for c in needle)
        and compact_in(needle.translate(OCR_CONFUSIONS), compacted[0].translate(OCR_CONFUSIONS), *compacted[1:])
    )


def _code(text: str, key: str) -> str | None:
    """The code a country (2 letters) or currency (3 letters) value is, upper case; None for other values."""
    size = {"country": 2, "currency": 3}.get(key)
    return text.upper() if size is not None and len(text) == size and text.isalpha() else None


def _code_found(code: str, key: str, plain_text: str, folded_text: str) -> bool:
    """A code as a whole word in its case (``DE``, not ``De``), or the country's names / the currency's signs and
    names."""
    if re.search(r"(?<!\w)" + code + r"(?!\w)", plain_text):
        return True
    names = country_names(code) if key == "country" else currency_words(code)
    return any(word_in(name, folded_text) for name in names)


def _iso_date(text: str) -> set[tuple[int, int, int, bool]] | None:
    """A ``YYYY-MM-DD`` value's keys in ``cldr.dates_in``'s terms (four- and two-digit year), None for other text."""
    if not _ISO_DATE.match(text):
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return {(day.year, day.month, day.day, False), (day.year % 100, day.month, day.day, True)}


def _folded(tokens: Sequence[Token]) -> str:
    return " ".join(t.text for t in tokens)


def _plain(tokens: Sequence[Token]) -> str:
    return " ".join(t.plain for t in tokens)


def _decimal(value: Any) -> Decimal | None:
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    return d.normalize() if d.is_finite() else None


__all__ = [
    "FieldGrounding",
    "GroundingReport",
    "KEY_FIELDS",
    "PageText",
    "RECEIPT_KEY_FIELDS",
    "checkable",
    "fold",
    "ground",
    "key_fields_for",
    "numbers_in",
]
