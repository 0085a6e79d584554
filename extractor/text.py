"""Page text, neutral ground between the stages: what a page says (from its text layer or OCR) and the folding
both sides of a text comparison go through. Inputs produce it (``inputs.ocrdecide.page_text``); review searches it
(``trust.grounding``); neither needs the other.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class PageText:
    """The text grounding searches on one page, and where it came from.

    Attributes:
        text: the page's text (None when it has none usable).
        source: ``text_layer``, ``ocr`` or ``none``.
        lines: its lines with boxes, to say where a value is: OCR's (``inputs.ocrresult.OcrLine``) or the text layer's
            (``inputs.textlayer.TextLine``, confidence None); each has ``text``, ``box``, ``confidence`` and ``words``.
        confidence: for OCR text, the recognizer's mean confidence.
        boxes: a text layer's lines with word boxes (``inputs.textlayer.TextLine``) that grounding does not search
            (it reads ``text``, line by line) but its values are cited on (``trust.citations``).
        size: the page's width and height in points (None for an image).
    """

    text: str | None
    source: str = "text_layer"
    lines: tuple = ()
    confidence: float | None = None
    boxes: tuple = ()
    size: tuple[float, float] | None = None

    @property
    def usable(self) -> bool:
        """Whether there is text to search."""
        return self.source != "none" and bool(self.text and self.text.strip())


def fold(text: str) -> str:
    """Normalise text for matching: NFKD without accents, casefolded, typographic quotes and dashes made plain,
    whitespace collapsed to single spaces.

    Args:
        text: any text.

    Returns:
        The folded text.
    """
    return plain(text).casefold()


def plain(text: str) -> str:
    """``fold`` without casefolding: for codes whose case carries meaning (``DE`` is not ``De``).

    Args:
        text: any text.

    Returns:
        The text as ``fold`` gives it, its letters' case kept.
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.translate(_PLAIN).split())


_PLAIN = str.maketrans(
    {
        "’": "'",
        "‘": "'",
        "´": "'",
        "`": "'",
        "–": "-",
        "—": "-",
        "‑": "-",
        "−": "-",
        "“": '"',
        "”": '"',
        "„": '"',
        "«": '"',
        "»": '"',
    }
)


__all__ = ["PageText", "fold", "plain"]
