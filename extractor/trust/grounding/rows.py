"""Rows: where a line item or a tax line is printed, so that its values are looked up there and not anywhere.

* A **line item** (an object in a list with a ``description`` or ``name``) is anchored by its description: the
  band (printed row) holding it, or two / three bands in a row when the description wraps, each band holding one
  consecutive part of it (``Fachbuch "Ergonomie im Büro",`` / ``3. Auflage``). The item's other values (quantity,
  unit, prices, tax rate) are found only in that **block**: the description's bands without the description's own
  tokens (``box of 50`` does not ground a quantity 50), plus the band just above and just below when it is no
  other item's description and does not look like a row of its own (a word and two numbers): a receipt prints
  ``2 x 4,20`` above ``Wiener Melange 8,40``, a table its ``SKU ... unit: box`` below the row. An item without a
  description to anchor it (none, or under three letters) is anchored by its amount: the bands printing it.
* A **tax line** (an object in a list with a ``rate``) is anchored by its amount and base: its rate is found only
  on a band where one of them is printed (``zzgl. 19 % USt. auf 1.819,20 € 345,65 €``). A line item's tax rate
  not printed on its row may be printed there (``TVA 20 % 1 181,60 €`` under a table without a rate column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from extractor.trust.grounding.cldr import fold
from extractor.trust.grounding.page import Hit, Page, Token, key_of, key_spans

ITEM_ANCHORS = ("description", "name")
ITEM_KEYS = (*ITEM_ANCHORS, "quantity", "unit_price")  # an object in a list with one of these is a line item
ITEM_AMOUNTS = ("amount", "total")  # anchor a line item without a description: the bands printing its amount
ITEM_TAX_RATES = ("tax_rate", "vat_rate")  # also found on a tax line's band: one rate printed for the whole table
TAX_ANCHORS = ("amount", "base")
MAX_WRAP = 3  # bands a description may wrap over


@dataclass(frozen=True)
class Context:
    """The row a field belongs to.

    Attributes:
        kind: ``item`` or ``tax``.
        parts: the JSON path of the item / tax line object.
        node: that object.
    """

    kind: str
    parts: tuple
    node: dict


@dataclass(frozen=True)
class Block:
    """Where one row is printed on one page.

    Attributes:
        page: index into the page texts.
        scope: line index -> the token indexes of that line in the row.
        anchor: the anchor's tokens (an item's description), for its box.
    """

    page: int
    scope: dict[int, frozenset[int]]
    anchor: tuple[Hit, ...] = ()


def context_of(data: Any, parts: Sequence) -> Context | None:
    """The innermost line item or tax line holding a leaf, or None when it is in neither.

    Args:
        data: the extracted data.
        parts: the leaf's path (``leaves.Leaf.parts``).

    Returns:
        The Context.
    """
    node, found = data, None
    for depth, part in enumerate(parts[:-1]):
        node = node[part]
        if isinstance(part, int) and isinstance(node, dict):
            if anchor_key(node) is not None or any(k in node for k in ITEM_KEYS):
                found = Context("item", tuple(parts[: depth + 1]), node)
            elif "rate" in node:
                found = Context("tax", tuple(parts[: depth + 1]), node)
    return found


def anchor_key(node: dict) -> str | None:
    """The key of a line item's description (``description`` or ``name``), None when it has none to anchor it."""
    return next((k for k in ITEM_ANCHORS if isinstance(node.get(k), str) and len(key_of(node[k])) >= 3), None)


def item_blocks(descriptions: dict[tuple, str], pages: Sequence[Page | None]) -> dict[tuple, list[Block]]:
    """Where each line item is printed.

    Args:
        descriptions: item path -> its description.
        pages: the prepared pages (None where a page has no text).

    Returns:
        item path -> its blocks (empty when its description is printed nowhere as a row).
    """
    found = {path: _description_bands(text, pages) for path, text in descriptions.items()}
    claimed: dict[tuple[int, int], set[tuple]] = {}
    for path, matches in found.items():
        for page_index, bands, _ in matches:
            for band in bands:
                claimed.setdefault((page_index, band), set()).add(path)
    out = {}
    for path, matches in found.items():
        blocks = []
        for page_index, bands, hits in matches:
            page = page_at(pages, page_index)
            extra = [
                b
                for b in (bands[0] - 1, bands[-1] + 1)
                if 0 <= b < len(page.bands)
                and not claimed.get((page_index, b), set()) - {path}
                and not _row_like(page, b)
            ]
            own = {(h.line, t) for h in hits for t in range(h.start, h.end)}
            scope: dict[int, set[int]] = {}
            for band in sorted(set(bands) | set(extra)):
                for line in page.bands[band]:
                    scope[line] = {t for t in range(len(page.lines[line].tokens)) if (line, t) not in own}
            blocks.append(Block(page_index, {k: frozenset(v) for k, v in scope.items()}, tuple(hits)))
        out[path] = blocks
    return out


def number_blocks(anchors: Sequence[list[tuple[int, Hit]]], pages: Sequence[Page | None]) -> list[Block]:
    """The bands where a row's anchoring numbers are printed (a tax line's amount or base, an undescribed line
    item's amount).

    Args:
        anchors: per anchor value, where it was found: ``(page index, hit)``.
        pages: the prepared pages.

    Returns:
        One block per band holding an anchor.
    """
    out, seen = [], set()
    for hits in anchors:
        for page_index, hit in hits:
            page = page_at(pages, page_index)
            band = next(b for b, lines in enumerate(page.bands) if hit.line in lines)
            if (page_index, band) not in seen:
                seen.add((page_index, band))
                out.append(
                    Block(
                        page_index, {line: frozenset(range(len(page.lines[line].tokens))) for line in page.bands[band]}
                    )
                )
    return out


def page_at(pages: Sequence[Page | None], index: int) -> Page:
    """The page a block or hit is on: one with text (only those are searched)."""
    page = pages[index]
    if page is None:
        raise ValueError(f"page {index} has no text: nothing was found on it")
    return page


def runs(page: Page, block: Block) -> list[tuple[int, list[int]]]:
    """The block's tokens as runs of consecutive tokens of one line: ``(line, token indexes)``."""
    out = []
    for line, allowed in sorted(block.scope.items()):
        current: list[int] = []
        for t in range(len(page.lines[line].tokens)):
            if t in allowed:
                current.append(t)
            elif current:
                out.append((line, current))
                current = []
        if current:
            out.append((line, current))
    return out


# -- internals -------------------------------------------------------------------------------------------------------


def _description_bands(text: str, pages: Sequence[Page | None]) -> list[tuple[int, list[int], list[Hit]]]:
    """Where a description is printed as one band, or wrapped over two or three bands in a row (the fewest that
    hold it): ``(page index, band indexes, the description's tokens)`` per place."""
    folded = fold(text).split()
    needles: dict[bool, list[str]] = {}  # a page's needles depend only on whether it is OCR text
    for size in range(1, MAX_WRAP + 1):
        found = []
        for index, page in enumerate(pages):
            if page is None:
                continue
            if page.ocr not in needles:
                needles[page.ocr] = [k for k in (page.needle(w) for w in folded) if k]
            words = needles[page.ocr]
            if not words:
                return []
            # Not on this page at all (the common case on a long document): each band's match holds whole words,
            # so a page none of whose bands holds a word (or, in one band, the whole description) has no match.
            keys = page.all_band_keys()
            if ("".join(words) not in keys) if size == 1 else any(w not in keys for w in words):
                continue
            for first in range(len(page.bands) - size + 1):
                hits = _split_match(words, page, list(range(first, first + size)))
                if hits is not None:
                    found.append((index, list(range(first, first + size)), hits))
        if found:
            return found
    return []


def _split_match(words: list[str], page: Page, bands: list[int]) -> list[Hit] | None:
    """The tokens spelling the words, cut into one consecutive part per band (in order), or None."""
    if len(bands) == 1:
        return _band_spans(page, bands[0], "".join(words))
    for cut in range(1, len(words) - len(bands) + 2):
        head = _band_spans(page, bands[0], "".join(words[:cut]))
        if head is None:
            continue
        rest = _split_match(words[cut:], page, bands[1:])
        if rest is not None:
            return head + rest
    return None


def _band_spans(page: Page, band: int, needle: str) -> list[Hit] | None:
    """The first run of tokens of a band (its lines left to right) spelling ``needle``, as hits (one per line)."""
    places, keys, joined = page.band_keys(band)
    spans = key_spans(keys, needle) if needle in joined else []
    if not spans:
        return None
    start, end = spans[0]
    hits: list[Hit] = []
    for line, t in places[start:end]:
        if hits and hits[-1].line == line:
            hits[-1] = Hit(line, hits[-1].start, t + 1)
        else:
            hits.append(Hit(line, t, t + 1))
    return hits


def _row_like(page: Page, band: int) -> bool:
    """Whether a band looks like a row of its own: a word of three letters or more and two numbers."""
    tokens: list[Token] = [t for line in page.bands[band] for t in page.lines[line].tokens]
    numbers = sum(len({n.start for n in page.lines[line].numbers}) for line in page.bands[band])
    return numbers >= 2 and any(t.key.isalpha() and len(t.key) >= 3 for t in tokens)
