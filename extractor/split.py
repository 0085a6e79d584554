"""Files that hold several invoices: where one invoice ends and the next begins, from the page text.

Decisions, in one place:

* **Text pass.** Before a file is extracted with ``Settings.split == "auto"``, its pages' text layers are read
  without rendering images worth the name (``text_raster``: 1,024-pixel pages, no OCR, at most ``max_pages``),
  in the render pool when isolated: cheap even for thousands of pages, and a hostile file still costs one record.
  Pages without a text layer (scans) give no signal: they stay with the page before (OCR text is not used for
  splitting yet).
* **Signals, strongest first** (``boundaries``), for each page after the first:
  1. a page marker ("Page 2 of 3", "Seite 2 von 3", "Seite 2/3", "Página 2 de 3", a line holding only "2/3") that
     continues the previous page's (same count, next number): the same invoice, whatever else differs;
  2. a marker saying page 1: a new invoice;
  3. another invoice number (after a label such as "Invoice No.", "Rechnung Nr.", "N° de facture") than the
     pages before it: a new invoice;
  4. VAT ids on the page, none of which the previous page printed (another seller): a new invoice.
  Otherwise the page continues the invoice before it.
* **Parts** are 1-based page ranges; a file with one part is extracted as before (no ``part`` key).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from .rasterize import RasterSettings

TEXT_PIXELS = 1024  # the smallest page image the rasterizer makes: the text pass only wants the text layer

_ID = r"(?P<id>[A-Z0-9][A-Z0-9\-/._]*\d[A-Z0-9\-/._]*)"
_LABELS = (r"invoice(?:\s*(?:number|no\.?|nr\.?|#))?", r"rechnung(?:snummer|s-nr\.?|\s+nr\.?)?",
           r"n°\s*de\s*facture", r"facture(?:\s*(?:n°|no\.?))?", r"factura(?:\s*(?:n[°º.]|no\.?))?",
           r"fattura(?:\s*(?:n\.?|n°))?", r"factuur(?:nummer|\s*nr\.?)?")
_NUMBER = re.compile(r"(?<![A-Za-z])(?:" + "|".join(_LABELS) + r")\s*[:#.]?\s*" + _ID, re.IGNORECASE)
_MARKER = re.compile(r"(?:page|seite|página|pagina|pagina|blatt|p\.)\s*(\d{1,4})\s*(?:of|von|de|di|van|/)\s*"
                     r"(\d{1,4})(?!\d)", re.IGNORECASE)
_BARE_MARKER = re.compile(r"^[\s\-–—(\[]*(\d{1,4})\s*/\s*(\d{1,4})[\s\-–—)\]]*$", re.MULTILINE)
_VAT = re.compile(r"\b(ATU\d{8}|BE0?\d{9}|DE\d{9}|FR[0-9A-Z]{2}\d{9}|GB\d{9}(?:\d{3})?|NL\d{9}B\d{2}|IT\d{11}|"
                  r"ES[0-9A-Z]\d{7}[0-9A-Z]|CHE\d{9}|ATU\d{8}|PL\d{10}|SE\d{12}|DK\d{8}|FI\d{8})\b")


@dataclass(frozen=True)
class PageSignals:
    """What one page's text says about where it belongs.

    Attributes:
        number: the invoice number printed after a label, or None.
        marker: ``(page, of)`` from a page marker, or None.
        vat_ids: the VAT ids printed on the page (spaces, dots and dashes removed).
    """

    number: Optional[str] = None
    marker: Optional[tuple[int, int]] = None
    vat_ids: frozenset = frozenset()


def signals(text: Optional[str]) -> PageSignals:
    """Read a page's text for the split signals (empty signals for a page without text).

    Args:
        text: the page's text layer (None or "" when it has none).

    Returns:
        The PageSignals.
    """
    if not text or not text.strip():
        return PageSignals()
    found = _NUMBER.search(text)
    number = found["id"].rstrip("./").upper() if found else None
    marker = None
    for pattern in (_MARKER, _BARE_MARKER):
        for m in pattern.finditer(text):
            page, of = int(m[1]), int(m[2])
            if 1 <= page <= of:
                marker = (page, of)
                break
        if marker:
            break
    compact = re.sub(r"(?<=[A-Z0-9])[ .\-](?=\d)", "", text.upper())  # GB 314 1500 17, CHE-271.828.189
    return PageSignals(number=number, marker=marker, vat_ids=frozenset(_VAT.findall(compact)))


def starts_new(before: PageSignals, page: PageSignals, *, current_number: Optional[str]) -> bool:
    """Whether ``page`` starts a new invoice after the page ``before`` (signals in the module's order).

    Args:
        before: the previous page's signals.
        page: this page's signals.
        current_number: the invoice number of the part so far (None: none printed yet).
    """
    if page.marker and before.marker and page.marker == (before.marker[0] + 1, before.marker[1]):
        return False
    if page.marker and page.marker[0] == 1:
        return True
    if page.number and current_number and page.number != current_number:
        return True
    return bool(page.vat_ids and before.vat_ids and not page.vat_ids & before.vat_ids)


def boundaries(texts: Sequence[Optional[str]]) -> list[tuple[int, int]]:
    """Cut a file's pages into invoices.

    Args:
        texts: each page's text layer, in order.

    Returns:
        ``(first, last)`` 1-based page numbers of each part, in order (one part covering every page when the
        text finds no boundary).
    """
    if not texts:
        return []
    pages = [signals(t) for t in texts]
    parts, start, number = [], 0, pages[0].number
    for i in range(1, len(pages)):
        if starts_new(pages[i - 1], pages[i], current_number=number):
            parts.append((start + 1, i))
            start, number = i, pages[i].number
        elif number is None:
            number = pages[i].number
    parts.append((start + 1, len(pages)))
    return parts


def text_raster(raster: RasterSettings) -> RasterSettings:
    """The rasterizer settings of the text pass: the same pages and passwords, tiny images, no OCR."""
    from .ocr import OcrSettings

    return dataclasses.replace(raster, max_pixels=max(TEXT_PIXELS, raster.min_side ** 2), ocr=OcrSettings(),
                               text_boxes=False)


def part_entry(index: int, of: int, pages: tuple[int, int]) -> dict:
    """The record's ``part``: ``{"index": i, "of": n, "pages": [first, last]}`` (1-based)."""
    return {"index": index, "of": of, "pages": [pages[0], pages[1]]}


def page_spec(numbers: Sequence[int]) -> str:
    """A page selection (``--pages`` syntax) holding exactly these 1-based page numbers: ``1-3,5``."""
    ranges: list[list[int]] = []
    for n in numbers:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


@dataclass(frozen=True)
class Parts:
    """The invoices a file holds, from its text pass.

    Attributes:
        pages: per part, its 1-based page numbers (the file's selected pages, in order).
        warnings: notes for every part's record (pages the text pass did not read).
    """

    pages: tuple[tuple[int, ...], ...]
    warnings: tuple[dict, ...] = ()


def find_parts(source, *, render, raster: RasterSettings) -> Optional[Parts]:
    """Read a file's page texts (the text pass) and cut it into invoices.

    Args:
        source: the file (path or bytes).
        render: renders with given rasterizer settings (in the pool when isolated).
        raster: the extraction's rasterizer settings (page selection, passwords, ``max_pages``).

    Returns:
        The Parts, or None when the file is not a PDF, cannot be read (the extraction then says why) or holds one
        invoice.
    """
    rendered = render(text_raster(raster))
    document = rendered.document
    if rendered.error is not None or document is None or document.kind != "pdf" or len(document.pages) < 2:
        return None
    found = boundaries([p.text for p in document.pages])
    if len(found) < 2:
        return None
    numbers = [p.index + 1 for p in document.pages]
    by_position = tuple(tuple(numbers[first - 1:last]) for first, last in found)
    warnings = tuple({"code": "split", "message": f"{document.source}: {w} (the file was split by these pages' "
                      "text only)"} for w in document.warnings)
    return Parts(pages=by_position, warnings=warnings)


__all__ = ["PageSignals", "Parts", "TEXT_PIXELS", "boundaries", "find_parts", "page_spec", "part_entry", "signals",
           "starts_new", "text_raster"]
