"""OCR decisions: whether a page is read by OCR, and which text grounding uses for it (text layer or OCR text).

Measured on our corpus (27 digital invoices rendered to images, receipt scans, the image-only sample, rotated JPEG
photos); the engine that reads a page, its results and its costs are ``inputs.ocr``.

* **When** (``reason_to_read``): ``never``; ``always`` (every page that is not blank); ``auto``, the default, reads
  a page that has no text layer, whose text layer is garbled (mostly replacement, private-use or control
  characters: a font without a ToUnicode map), invisible (a scanner's own OCR under the page image: on our
  receipt scans it held 28 of 50 values) or sparse (far fewer characters than the page's ink suggests: a scan
  with a stamp or a page number as its only text). A blank page (almost no ink) is never read: rapidocr spends
  ~3 CPU-s finding nothing on it.
* **Which text grounding uses** (``page_text``): the text layer when it is readable, unless OCR ran and found more
  than twice as many letters and digits, or the two disagree (under 90 % of OCR's words are in the text layer:
  97-100 % on digital pages, 0-76 % on the scanners' layers); otherwise the OCR text; ``none`` when neither is
  usable.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageFilter

from extractor.inputs.ocr import OcrSettings
from extractor.inputs.ocrresult import OcrPage
from extractor.text import PageText, fold

if TYPE_CHECKING:
    from extractor.inputs.document import Page

# Ink: pixels darker than their neighbourhood by STROKE levels, counted on the model's page image and turned into
# page area. On our 27 digital invoices and 7 receipt scans a character of the text layer comes with ~15 pt² of such
# pixels (0.4-1.7x that at the default budget); images, whose size in points is unknown, count as A4 pages.
STROKE = 48
INK_PT2_PER_CHAR = 15.0
A4_PT2 = 595.28 * 841.89
BLANK_CHARS = 3  # less ink than ~3 characters: a blank page
SPARSE_FACTOR = 8  # a text layer with under 1/8 of the characters the ink suggests is sparse
SPARSE_MIN_CHARS = 100  # ... when the ink suggests at least this many
GARBLED_SHARE = 0.3  # more than this share of unreadable characters: a garbled text layer
OCR_FINDS_MORE = 2.0  # OCR text with over 2x the letters and digits of the text layer replaces it
AGREEMENT = 0.9  # ... and so does OCR text whose words are less often in the text layer than this

NO_TEXT_LAYER = "no_text_layer"
GARBLED = "garbled_text_layer"
INVISIBLE = "invisible_text_layer"
SPARSE = "sparse_text_layer"
ALWAYS = "always"

_WORDS = re.compile(r"\w{3,}")
_UNREADABLE = {"Cc", "Co", "Cn", "Cs"}  # control, private use, unassigned, surrogate (and U+FFFD, below)


def ink_chars(image: Image.Image, *, area_pt2: float | None = None) -> float:
    """How many characters the ink on a page image suggests (strokes darker than their surroundings, so uneven
    lighting and grey paper do not count).

    Args:
        image: the page image.
        area_pt2: the area the image shows, in square points (None: an image of unknown size, taken as A4).
    """
    gray = image.convert("L")
    while gray.width * gray.height > 2_000_000:  # the measure is calibrated at ~1.3 MP
        gray = gray.reduce(2)
    background = gray.filter(ImageFilter.BoxBlur(6))
    strokes = sum(ImageChops.subtract(background, gray).histogram()[STROKE:])
    return strokes / (gray.width * gray.height) * (area_pt2 or A4_PT2) / INK_PT2_PER_CHAR


def garbled(text: str) -> bool:
    """Whether a text layer is mostly unreadable: replacement, private-use, unassigned or control characters (what
    a font without a ToUnicode map gives)."""
    chars = [c for c in text if not c.isspace()]
    bad = sum(1 for c in chars if c == "\ufffd" or unicodedata.category(c) in _UNREADABLE)
    return bool(chars) and bad > GARBLED_SHARE * len(chars)


def _letters(text: str | None) -> int:
    return sum(1 for c in text or "" if c.isalnum())


def reason_to_read(
    text: str | None,
    image: Image.Image,
    settings: OcrSettings,
    *,
    area_pt2: float | None = None,
    invisible: bool = False,
) -> str | None:
    """Why a page should be read by OCR, or None when it should not.

    Args:
        text: the page's text layer (None or "" when it has none).
        image: the page as rendered for the model (its ink is measured).
        settings: the OCR settings (``mode`` resolved).
        area_pt2: the area the page image shows, in square points (None for images).
        invisible: whether the text layer is invisible text (a scanner's OCR under the page image).

    Returns:
        ``always``, ``no_text_layer``, ``garbled_text_layer``, ``invisible_text_layer``, ``sparse_text_layer``,
        or None.
    """
    if settings.mode == "never":
        return None
    ink = ink_chars(image, area_pt2=area_pt2)
    if ink < BLANK_CHARS:
        return None
    if settings.mode == "always":
        return ALWAYS
    if not text or not text.strip():
        return NO_TEXT_LAYER
    if garbled(text):
        return GARBLED
    if invisible:
        return INVISIBLE
    layer = sum(1 for c in text if not c.isspace())
    if ink >= SPARSE_MIN_CHARS and layer * SPARSE_FACTOR < ink:
        return SPARSE
    return None


def agreement(ocr_text: str, layer: str) -> float:
    """The share of OCR's words (3+ letters or digits, folded as grounding folds) that are in the text layer."""
    words = _WORDS.findall(fold(ocr_text))
    present = set(_WORDS.findall(fold(layer)))
    return sum(1 for word in words if word in present) / len(words) if words else 1.0


def page_text(text: str | None, ocr: OcrPage | None, *, lines: tuple = ()) -> PageText:
    """The text grounding uses for a page: its text layer or its OCR text, and which, with its lines' boxes.

    Args:
        text: the page's text layer (None / "" when none).
        ocr: what OCR read on the page (None when it was not read).
        lines: the text layer's lines with word boxes (``Page.lines``; empty when not read): grounding then finds
            rows by position, and gives boxes.

    Returns:
        A ``PageText`` with source ``text_layer``, ``ocr`` or ``none``.
    """
    layer = text if text is not None and text.strip() and not garbled(text) else None  # None: no usable layer
    if (
        ocr is not None
        and _letters(ocr.text) > 0
        and (
            layer is None
            or _letters(ocr.text) > OCR_FINDS_MORE * _letters(layer)
            or agreement(ocr.text, layer) < AGREEMENT
        )
    ):
        return PageText(text=ocr.text, source="ocr", lines=ocr.lines, confidence=ocr.confidence)
    if layer is not None:
        return PageText(text=layer, source="text_layer", lines=tuple(lines))
    return PageText(text=None, source="none")


def page_texts(pages: Sequence[Page]) -> list[PageText]:
    """The text grounding searches on each page (``page_text``, the text layer read line by line as in the batch
    ever since), each with its size in points and, on a text layer, its lines with word boxes (``Page.lines``) as
    ``PageText.boxes``: where citations place the values grounding found (``trust.citations``)."""
    out = []
    for p in pages:
        text = page_text(p.text, p.ocr)
        size = (p.width_pt, p.height_pt) if p.width_pt is not None and p.height_pt is not None else None
        boxes = tuple(p.lines) if text.source == "text_layer" else ()
        out.append(dataclasses.replace(text, boxes=boxes, size=size))
    return out


__all__ = [
    "ALWAYS",
    "GARBLED",
    "INVISIBLE",
    "NO_TEXT_LAYER",
    "SPARSE",
    "agreement",
    "garbled",
    "ink_chars",
    "page_text",
    "page_texts",
    "reason_to_read",
]
