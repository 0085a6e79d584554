"""A PDF page's text layer, as pdfium gives it: the page's text (``read_text``, what ``Page.text`` holds) and, when
``RasterSettings.text_boxes`` asks, its lines of words with their boxes (``text_lines``: the review page draws them
and grounding locates values on them).

Decisions, in one place:

* **Text.** ``Page.text`` is pdfium's text for the page ("" when the page has none, ``\\r\\n`` turned into ``\\n``),
  or None (with a page warning) when extraction fails; images have None.
* **Boxes** are fractions of the displayed page (its /Rotate and crop box applied, top left 0, 0), as the page image
  shows it; they are optional evidence, so a page whose boxes cannot be read still renders, without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only pages pdfium opened elsewhere are read here: the data types load without pdfium
    import pypdfium2 as pdfium


@dataclass(frozen=True)
class TextWord:
    """One word of a PDF page's text layer and its box (x0, y0, x1, y1; 0..1 of the displayed page, top left 0)."""

    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class TextLine:
    """One line of a PDF page's text layer (as pdfium breaks it), with its words; shaped like ``ocrresult.OcrLine`` so
    grounding locates values on either (a text layer has no recognizer ``confidence``)."""

    text: str
    box: tuple[float, float, float, float]
    words: tuple[TextWord, ...]
    confidence: float | None = None

    def to_dict(self) -> dict:
        """The line as JSON (a render worker's frame)."""
        return {"text": self.text, "box": list(self.box), "words": [[w.text, list(w.box)] for w in self.words]}

    @classmethod
    def from_dict(cls, data: dict) -> TextLine:
        """The line from ``to_dict``'s JSON."""
        return cls(
            text=data["text"],
            box=tuple(data["box"]),
            words=tuple(TextWord(text, tuple(box)) for text, box in data["words"]),
        )


def text_lines(page: pdfium.PdfPage) -> tuple[TextLine, ...]:
    """Return a PDF page's text layer as lines of words with their character boxes.

    Args:
        page: an open pdfium page.

    Returns:
        The lines in pdfium's text order (empty when the page has no text layer); boxes are fractions of the
        displayed page (its /Rotate and crop box applied), as the page image shows it.
    """
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count > 0 else ""
        if len(text) != count:  # characters outside the BMP: read one by one to keep indexes aligned
            text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(count))
        boxes = _char_boxes(textpage, count)
    finally:
        textpage.close()
    place = _page_placer(page)
    lines: list = []
    words: list = []
    chars: list[str] = []
    x0 = y0 = float("inf")
    x1 = y1 = float("-inf")
    for char, (left, bottom, right, top) in zip(text + "\n", boxes + [(0.0, 0.0, 0.0, 0.0)], strict=False):
        if char.isspace():
            if chars:  # a word's box: its characters' boxes joined, then placed (placing keeps boxes axis-aligned)
                words.append(TextWord("".join(chars), _rounded(place((x0, y0, x1, y1)))))
                chars, x0, y0, x1, y1 = [], float("inf"), float("inf"), float("-inf"), float("-inf")
            if char in "\r\n" and words:
                lines.append(TextLine(" ".join(w.text for w in words), _union(w.box for w in words), tuple(words)))
                words = []
        elif right > left or top > bottom:  # pdfium's generated characters have no box
            chars.append(char)
            x0, y0, x1, y1 = min(x0, left), min(y0, bottom), max(x1, right), max(y1, top)
    return tuple(lines)


def _char_boxes(textpage, count: int) -> list[tuple[float, float, float, float]]:
    """Every character's box ``(left, bottom, right, top)`` in PDF user space, through pdfium's C function (its
    Python wrapper costs ~20x more per character: a page's boxes in ~1 ms, not ~20 ms)."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    out = []
    for index in range(count):
        if pdfium_c.FPDFText_GetCharBox(textpage.raw, index, left, right, bottom, top):
            out.append((left.value, bottom.value, right.value, top.value))
        else:
            out.append((0.0, 0.0, 0.0, 0.0))
    return out


def _rounded(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return (round(box[0], 5), round(box[1], 5), round(box[2], 5), round(box[3], 5))


def _page_placer(page: pdfium.PdfPage):
    """A function mapping a box in PDF user space to fractions of the displayed page (top left 0, 0)."""
    left, bottom, right, top = page.get_bbox()
    width, height = max(right - left, 1e-9), max(top - bottom, 1e-9)
    rotation = page.get_rotation() % 360

    def place(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        u0, u1 = (box[0] - left) / width, (box[2] - left) / width  # unrotated, from the left
        v0, v1 = (top - box[3]) / height, (top - box[1]) / height  # unrotated, from the top
        if rotation == 90:  # shown turned clockwise
            return (1 - v1, u0, 1 - v0, u1)
        if rotation == 180:
            return (1 - u1, 1 - v1, 1 - u0, 1 - v0)
        if rotation == 270:
            return (v0, 1 - u1, v1, 1 - u0)
        return (u0, v0, u1, v1)

    return place


def _union(boxes) -> tuple[float, float, float, float]:
    boxes = list(boxes)
    return (
        round(min(b[0] for b in boxes), 5),
        round(min(b[1] for b in boxes), 5),
        round(max(b[2] for b in boxes), 5),
        round(max(b[3] for b in boxes), 5),
    )


def read_lines(page: pdfium.PdfPage) -> tuple[TextLine, ...]:
    """Return ``text_lines(page)``, or none when pdfium cannot give them (boxes are optional evidence)."""
    try:
        return text_lines(page)
    except Exception:  # noqa: BLE001 - the page still renders and is searched, only without boxes
        return ()


def read_text(page: pdfium.PdfPage) -> tuple[str | None, list[str]]:
    """Return a PDF page's text (``\\r\\n`` as ``\\n``; "" when it has none) and page warnings.

    Args:
        page: an open pdfium page.

    Returns:
        The text, or None with a warning when the text layer cannot be read (the page keeps its image).
    """
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
        finally:
            textpage.close()
    # The text layer is optional and pypdfium2 raises assorted types on broken pages: keep the image.
    except Exception as exc:  # noqa: BLE001
        return None, [f"the text layer could not be read ({type(exc).__name__}); image only"]
    return text.replace("\r\n", "\n"), []
