"""Citations: where each value grounding found sits on its page, as a box a reader can draw (``fields[ptr].citations``).

Grounding (``trust.grounding``) finds every value on its page as tokens of a line; this module turns those tokens into
the record's citations, one list per scalar, the best first:

* **OCR text**: the words' boxes come with OCR's lines (0..1 of the page image), and its confidence;
* **a text layer**: grounding reads the page's text line by line (the batch's way, its verdicts unchanged), so the
  tokens it found are placed on the text layer's word boxes (``PageText.boxes``, pdfium's character boxes joined
  into words: ``inputs.textlayer``): the two token streams are the same text cut the same way
  (``grounding.page.pieces``), aligned once per page (equal as a rule; where pdfium's boxed characters leave some
  out, by a longest-match alignment). A value whose every token is placed gets their joint box;
* **embedded e-invoice XML**: the XPath of the element the value was read from (``einvoice.xpaths``; null for a
  value the reader derived), and the box where grounding found it on a page (``page`` and ``box`` null when it is
  printed nowhere).

A line item's value (and a tax line's) also gets its row: the box of the lines of its description and of the line
it was found on. A value grounding did not find (or could not check) has ``[]``, consistent with its grounding. Boxes
are ``[x0, y0, x1, y1]`` fractions of the displayed page (top left 0, 0), rounded to 5 decimals; ``page_size`` is the
page's width and height in points (null for an image).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

from extractor.text import PageText
from extractor.trust.grounding import FieldGrounding, GroundingReport
from extractor.trust.grounding.page import Box, Hit, joint_box, key_of, key_spans, pieces

SOURCES = ("text_layer", "ocr", "embedded_xml")
_DIGITS = 5

Printed = list[list[tuple[str, Box | None]]]  # per line as grounding read it: its tokens as printed, with boxes


def cite(
    report: GroundingReport, texts: Sequence[PageText | str | None], *, xpaths: Mapping[str, str] | None = None
) -> dict[str, list[dict]]:
    """Every grounded value's citations.

    Args:
        report: the grounding of the record's data on ``texts``.
        texts: each page's text, as grounding searched it (``inputs.ocrdecide.page_texts``: with the text layer's
            word boxes; a bare string is a text layer without boxes).
        xpaths: data read from embedded XML (``einvoice.xpaths.value_paths``): each value's XPath by JSON pointer;
            every entry's ``source`` is then ``embedded_xml``, its ``xpath`` null for a value the reader derived.

    Returns:
        JSON pointer -> its citations (``[]`` for a value found nowhere; read from XML, one entry, page and box null
        where it is printed nowhere), for every field of the report, and every pointer of ``xpaths``.
    """
    pages: dict[int, Printed] = {}
    out: dict[str, list[dict]] = {}
    for found in report.fields:
        entry = None
        if found.grounded and found.page is not None and found.page < len(texts):
            text = _page_text(texts[found.page])
            if found.page not in pages:
                pages[found.page] = printed(text)
            entry = _citation(found, text, pages[found.page])
        out[found.path] = [entry] if entry is not None else []
    return out if xpaths is None else read_from_xml(out, report, xpaths)


def read_from_xml(
    cited: Mapping[str, list[dict]],
    report: GroundingReport,
    xpaths: Mapping[str, str],
    *,
    keep: Collection[str] = (),
) -> dict[str, list[dict]]:
    """The citations of values read from embedded XML: every value says so (``source: embedded_xml``), with its
    XPath where it can be told (``xpaths``) and where it is printed (its page citation, ``cited``).

    Args:
        cited: each value's citations on the pages (``cite`` without ``xpaths``).
        report: the grounding they were made from.
        xpaths: each value's XPath by JSON pointer (``einvoice.xpaths.value_paths``).
        keep: pointers whose values were not read from the XML (a reviewer's edits): left as cited on the pages.
    """
    out = dict(cited)
    for pointer in [*cited, *(p for p in xpaths if p not in cited)]:
        if pointer not in keep:
            out[pointer] = [_embedded(pointer, xpaths.get(pointer), list(cited.get(pointer) or []), report)]
    return out


def printed(text: PageText) -> Printed:
    """A page's lines as grounding read them (``lines``, else the text's non-blank lines), each a list of its tokens
    as printed with their boxes: the words' own, or placed on the text layer's word boxes (``PageText.boxes``)."""
    if text.lines:  # OCR's lines (or a text layer's given with boxes): a line without words lends its own box
        return [
            [(piece, box if box is not None else _box(getattr(line, "box", None))) for piece, _, box in cut]
            for line in text.lines
            for cut in [pieces(line.text, tuple(getattr(line, "words", ()) or ()))]
        ]
    lines = [pieces(line) for line in (text.text or "").splitlines() if line.strip()]
    boxed = [(folded, box) for line in text.boxes for _, folded, box in pieces(line.text, line.words)]
    flat = [folded for line in lines for _, folded, _ in line]
    placed = _align(flat, [folded for folded, _ in boxed])
    out: Printed = []
    index = 0
    for line in lines:
        row = []
        for piece, _, _ in line:
            at = placed.get(index)
            row.append((piece, None if at is None else boxed[at][1]))
            index += 1
        out.append(row)
    return out


def coverage(fields: Mapping[str, Mapping]) -> dict[str, dict[str, int]]:
    """Citation coverage of a record's ``fields``: per source of the text a value was grounded in (``text_layer``,
    ``ocr``), how many grounded values there are and how many of them have a box."""
    out: dict[str, dict[str, int]] = {}
    for entry in fields.values():
        grounding = entry.get("grounding") or {}
        if grounding.get("grounded") is not True:
            continue
        counts = out.setdefault(str(grounding.get("source")), {"grounded": 0, "boxed": 0})
        counts["grounded"] += 1
        counts["boxed"] += any(c.get("box") is not None for c in entry.get("citations") or ())
    return out


# -- internals -------------------------------------------------------------------------------------------------------


def _citation(found: FieldGrounding, text: PageText, page: Printed) -> dict | None:
    """One value's citation from grounding's tokens; None when they are not on the page as printed."""
    hits = found.hits or _spelled(str(found.value), page)
    tokens = [page[h.line][t] for h in hits if h.line < len(page) for t in range(h.start, h.end)]
    box = _joint([b for _, b in tokens]) if tokens and all(b is not None for _, b in tokens) else None
    entry: dict[str, Any] = {
        "page": found.page + 1 if found.page is not None else None,
        "box": box,
        "page_size": _size(text),
        "text": _text(hits, page) or str(found.value),
        "source": found.source,
    }
    if found.source == "ocr":
        entry["confidence"] = None if found.confidence is None else round(found.confidence, 4)
    if found.row:
        row = _joint([b for line in found.row if line < len(page) for _, b in page[line] if b is not None])
        entry["row"] = None if row is None else {"page": entry["page"], "box": row}
    return entry


def _embedded(pointer: str, xpath: str | None, cited: list[dict], report: GroundingReport) -> dict:
    """A value read from embedded XML: its XPath, and where it is printed (page and box null when nowhere)."""
    on_page = cited[0] if cited else None
    value = next((f.value for f in report.fields if f.path == pointer), None)
    entry: dict[str, Any] = {
        "page": on_page["page"] if on_page else None,
        "box": on_page["box"] if on_page else None,
        "page_size": on_page["page_size"] if on_page else None,
        "text": on_page["text"] if on_page else ("" if value is None else str(value)),
        "source": "embedded_xml",
        "xpath": xpath,
    }
    if on_page and "row" in on_page:
        entry["row"] = on_page["row"]
    return entry


def _spelled(value: str, page: Printed) -> tuple[Hit, ...]:
    """Where grounding found a value in the page's text but not within two lines (a text wrapped over more): the
    first run of tokens, over any lines, whose letters and digits spell it."""
    places = [(line, t) for line, tokens in enumerate(page) for t in range(len(tokens))]
    spans = key_spans([key_of(page[line][t][0]) for line, t in places], key_of(value))
    if not spans:
        return ()
    hits: list[Hit] = []
    for line, t in places[spans[0][0] : spans[0][1]]:
        if hits and hits[-1].line == line:
            hits[-1] = Hit(line, hits[-1].start, t + 1)
        else:
            hits.append(Hit(line, t, t + 1))
    return tuple(hits)


def _text(hits: Sequence[Hit], page: Printed) -> str:
    """The tokens of the hits as printed, one space between them."""
    return " ".join(page[h.line][t][0] for h in hits if h.line < len(page) for t in range(h.start, h.end))


def _align(ours: list[str], theirs: list[str]) -> dict[int, int]:
    """Which token of ``theirs`` each token of ``ours`` is: the same text, in the same order (longest matches)."""
    if ours == theirs:
        return {i: i for i in range(len(ours))}
    out: dict[int, int] = {}
    for block in SequenceMatcher(None, ours, theirs, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            out[block.a + k] = block.b + k
    return out


def _joint(boxes: Sequence[Box | None]) -> list[float] | None:
    real = [b for b in boxes if b is not None]
    if not real:
        return None
    return [round(min(max(v, 0.0), 1.0), _DIGITS) for v in joint_box(real)]


def _page_text(text: PageText | str | None) -> PageText:
    return text if isinstance(text, PageText) else PageText(text=text or None)


def _box(box) -> Box | None:
    return None if box is None else tuple(box)


def _size(text: PageText) -> list[float] | None:
    return None if text.size is None else [round(float(v), 2) for v in text.size]


__all__ = ["SOURCES", "cite", "coverage", "printed", "read_from_xml"]
