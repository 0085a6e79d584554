"""OCR results: what OCR read on a page (``OcrPage``), as lines (``OcrLine``) and words (``OcrWord``) with boxes.

The engine (``inputs.ocr``) makes them; they travel from the render workers to the pipeline as JSON (``OcrPage.to_dict``
/ ``from_dict``, in ``inputs.render_wire``'s frames), sit on ``Page.ocr``, and become grounding's lines
(``inputs.ocrdecide.page_text``). Boxes are axis-aligned ``(x0, y0, x1, y1)`` normalised to 0..1 of the page image;
confidences are the recognizer's (0..1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class OcrWord:
    """One recognised word (Latin) or character (CJK): its text, box (0..1 of the page image) and confidence."""

    text: str
    box: Box
    confidence: float


@dataclass(frozen=True)
class OcrLine:
    """One detected text line (a table cell or a label may be a line of its own), with its words."""

    text: str
    box: Box
    confidence: float
    words: tuple[OcrWord, ...] = ()


@dataclass(frozen=True)
class OcrPage:
    """What OCR read on one page.

    Attributes:
        lines: the text lines, top to bottom, left to right.
        reason: why the page was read (``ocrdecide.reason_to_read``: ``no_text_layer``, ``garbled_text_layer``,
            ``sparse_text_layer``, ``always``).
        size: the OCR image's (width, height) in pixels.
        seconds: time spent reading (0 for a cached page).
        cached: whether the result came from the cache.
    """

    lines: tuple[OcrLine, ...]
    reason: str
    size: tuple[int, int]
    seconds: float = 0.0
    cached: bool = False

    @property
    def text(self) -> str:
        """The lines' text, one per line."""
        return "\n".join(line.text for line in self.lines)

    @property
    def confidence(self) -> float | None:
        """The recognizer's mean confidence, weighted by each line's length (None when nothing was read)."""
        weights = [(len(line.text), line.confidence) for line in self.lines if line.text]
        total = sum(n for n, _ in weights)
        return sum(n * c for n, c in weights) / total if total else None

    def summary(self) -> dict:
        """The record's per-page OCR entry: why it ran, mean confidence, lines. Only what the page decides: the
        seconds it took and whether this process had read the same pixels before (``cached``) depend on the machine
        and on which documents the process saw first, so they are the record's ``timings`` (``ocr_s``,
        ``ocr_cached``), never its ``ocr`` (issue 42: the same file gives the same record)."""
        confidence = self.confidence
        return {
            "reason": self.reason,
            "confidence": None if confidence is None else round(confidence, 4),
            "lines": len(self.lines),
        }

    def to_dict(self) -> dict:
        """The whole result as JSON (lines, words, boxes), e.g. for the render workers' frames."""
        return {
            "reason": self.reason,
            "size": list(self.size),
            "seconds": self.seconds,
            "cached": self.cached,
            "lines": [
                {
                    "text": line.text,
                    "box": list(line.box),
                    "confidence": line.confidence,
                    "words": [[w.text, list(w.box), w.confidence] for w in line.words],
                }
                for line in self.lines
            ],
        }

    @classmethod
    def from_dict(cls, data: dict) -> OcrPage:
        """Rebuild a result from ``to_dict``'s JSON.

        Raises:
            ValueError, KeyError, TypeError: the JSON is not such a result.
        """
        lines = tuple(
            OcrLine(
                text=str(item["text"]),
                box=_box(item["box"]),
                confidence=float(item["confidence"]),
                words=tuple(OcrWord(str(t), _box(b), float(c)) for t, b, c in item["words"]),
            )
            for item in data["lines"]
        )
        width, height = (int(v) for v in data["size"])
        return cls(
            lines=lines,
            reason=str(data["reason"]),
            size=(width, height),
            seconds=float(data["seconds"]),
            cached=bool(data["cached"]),
        )


def _box(values: Sequence[Any]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    if not all(0.0 <= v <= 1.0 for v in (x0, y0, x1, y1)) or x0 > x1 or y0 > y1:
        raise ValueError(f"not a normalised box: {values!r}")
    return x0, y0, x1, y1


__all__ = ["Box", "OcrLine", "OcrPage", "OcrWord"]
