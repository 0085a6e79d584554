"""OCR: text with boxes for a page image, so grounding can check scans, photos and pages whose text layer is garbage.

Decisions, in one place (measured on our corpus: 27 digital invoices rendered to images, receipt scans, the image-only
sample, rotated JPEG photos; rapidocr 3 found every key value the text layer has, Tesseract 96-99 %):

* **Engine.** rapidocr 3 on onnxruntime (PP-OCRv6 small detection and recognition, the mobile angle classifier):
  its three ONNX files ship in the wheel and are pinned by path, so its download code can never run. Imported
  lazily; one instance per process, built on first use, never called with per-call options (rapidocr 3 writes
  them onto the instance, where they stick and race). onnxruntime runs with ``threads`` intra-op threads (1 by
  default: on a busy 2-core machine one thread was faster and ~35 % cheaper than two) and one inter-op thread.
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
* **Resolution.** OCR gets its own render of the page: the longest side at most ``max_side`` px (2,000, ~170 DPI on
  A4) and at most 200 DPI, not the model's pixel budget (small print needs the pixels; more than 2,000 px gained
  nothing and cost 1.7x). Image inputs use the source image shrunk the same way.
* **Elongated pages** (till rolls): rapidocr's detector scales the *short* side up to 736 px, so a 1:20 strip
  would become a huge tensor. Pages longer than 4:1 keep a short side of ``max_side / 4`` (500 px) and are read
  in overlapping tiles of at most 3:1; each tile keeps the lines whose centre lies in its own part. Pages longer
  than 32:1 are not read (a page warning says so).
* **Boxes** are axis-aligned ``[x0, y0, x1, y1]`` normalised to 0..1 of the page image (the OCR render covers
  exactly the region of the model's page image), so they can be drawn on either. Lines keep their words with boxes
  and the recognizer's confidence (0..1).
* **Cache.** Results are kept per page content (a hash of the OCR image's pixels) for the life of the process
  (``CACHE_SIZE`` pages): a page seen again in a run is not read again.
* **Time.** OCR runs where pages are rendered (the isolated workers, under the same per-document time limit); a
  worker starts OCR on a page only while its estimated cost still fits (``OcrBudget``); the pages left unread get
  a warning instead of the whole document timing out.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import logging
import re
import sys
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageFilter

from extractor.errors import UsageError
from extractor.text import PageText, fold

MODES = ("auto", "always", "never")
DEFAULT_MODE = "auto"
DEFAULT_THREADS = 1
DEFAULT_MAX_SIDE = 2000  # px, the OCR image's longest side
MAX_DPI = 200  # small pages are not rendered finer than this for OCR
CACHE_SIZE = 64  # pages
# Model files of rapidocr 3.10's default onnxruntime configuration, inside the wheel.
MODEL_FILES = {
    "Det": "PP-OCRv6_det_small.onnx",
    "Rec": "PP-OCRv6_rec_small.onnx",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}

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
# Seconds per megapixel of OCR image before a worker has timed one (measured: ~5 CPU-s per 2.8-MP A4 page), and the
# safety factor on every estimate.
SECONDS_PER_MP = 2.0
ESTIMATE_MARGIN = 1.5
MAX_ASPECT = 4.0  # longer pages are read in tiles ...
TILE_ASPECT = 3.0  # ... of at most this aspect ratio
TILE_OVERLAP = 0.15  # share of a tile's length shared with the next one
MAX_OCR_ASPECT = 32.0  # longer pages (an 80-mm till roll of 2.5 m) are not read: 12 tiles at most
DETECTOR_SIDE = 736  # rapidocr's detector scales a shorter short side up to this
TOO_ELONGATED = f"not read by OCR: the page is more than {MAX_OCR_ASPECT:g} times longer than wide"

NO_TEXT_LAYER = "no_text_layer"
GARBLED = "garbled_text_layer"
INVISIBLE = "invisible_text_layer"
SPARSE = "sparse_text_layer"
ALWAYS = "always"

_WORDS = re.compile(r"\w{3,}")
_UNREADABLE = {"Cc", "Co", "Cn", "Cs"}  # control, private use, unassigned, surrogate (and U+FFFD, below)
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OcrSettings:
    """How pages are read by OCR.

    Attributes:
        mode: ``auto`` (pages without a usable text layer), ``always`` (every page that is not blank) or ``never``.
        threads: onnxruntime intra-op threads.
        max_side: the OCR image's longest side in pixels.
    """

    mode: str = "never"
    threads: int = DEFAULT_THREADS
    max_side: int = DEFAULT_MAX_SIDE

    def __post_init__(self) -> None:
        check_mode(self.mode)
        if self.threads < 1 or self.max_side < 64:
            raise UsageError(
                f"ocr threads must be at least 1 and max_side at least 64, got {self.threads}, {self.max_side}"
            )

    def to_dict(self) -> dict:
        """The settings as JSON (for the render workers)."""
        return {"mode": self.mode, "threads": self.threads, "max_side": self.max_side}

    @classmethod
    def from_dict(cls, data: dict) -> OcrSettings:
        """The settings from ``to_dict``'s JSON."""
        return cls(mode=str(data["mode"]), threads=int(data["threads"]), max_side=int(data["max_side"]))


# ------------------------------------------------------------------------------------------------------- results


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
        reason: why the page was read (``no_text_layer``, ``garbled_text_layer``, ``sparse_text_layer``, ``always``).
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
        """The record's per-page OCR entry: why it ran, mean confidence, lines, seconds, cached."""
        confidence = self.confidence
        return {
            "reason": self.reason,
            "confidence": None if confidence is None else round(confidence, 4),
            "lines": len(self.lines),
            "seconds": round(self.seconds, 3),
            "cached": self.cached,
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


# ----------------------------------------------------------------------------------------------------- when to read


def engine_available() -> bool:
    """Whether rapidocr and onnxruntime are installed (found without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("rapidocr", "onnxruntime"))


_warned = threading.Event()


def check_mode(mode: str) -> None:
    """Refuse a mode that does not exist, and ``always`` when the engine is not installed.

    Raises:
        UsageError: saying why.
    """
    if mode not in MODES:
        raise UsageError(f"ocr must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "always" and not engine_available():
        raise UsageError("ocr 'always' needs rapidocr and onnxruntime: pip install 'rapidocr==3.10.0' onnxruntime")


def resolve_mode(mode: str) -> str:
    """The mode to render with: ``auto`` becomes ``never`` (with a one-line warning, once per process) when the
    engine is not installed."""
    if mode != "auto" or engine_available():
        return mode
    if not _warned.is_set():
        _warned.set()
        print(
            "extract: warning: OCR is off (rapidocr / onnxruntime are not installed): scans and images are not "
            "checked against their text",
            file=sys.stderr,
        )
    return "never"


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


# -------------------------------------------------------------------------------------------------------- sizing


def _factor(long: float, short: float, max_side: int) -> float | None:
    """Pixels per unit (point or source pixel) for OCR: the long side to ``max_side``; a strip longer than
    ``MAX_ASPECT``:1 keeps a short side of ``max_side / MAX_ASPECT`` instead (it is read in tiles); None beyond
    ``MAX_OCR_ASPECT``:1."""
    if long > MAX_OCR_ASPECT * short:
        return None
    if long > MAX_ASPECT * short:
        return max_side / MAX_ASPECT / short
    return max_side / long


def pdf_scale(width_pt: float, height_pt: float, settings: OcrSettings) -> float | None:
    """The render scale (pixels per point) of a PDF page region for OCR, at most ``MAX_DPI``; None when the region
    is too elongated to read (over ``MAX_OCR_ASPECT``:1)."""
    factor = _factor(max(width_pt, height_pt), min(width_pt, height_pt), settings.max_side)
    return None if factor is None else min(factor, MAX_DPI / 72)


def image_size(width: int, height: int, settings: OcrSettings) -> tuple[int, int] | None:
    """The OCR size of a source image (shrunk as ``pdf_scale`` sizes pages, never enlarged); None when it is too
    elongated to read."""
    factor = _factor(max(width, height), min(width, height), settings.max_side)
    if factor is None:
        return None
    factor = min(1.0, factor)
    return max(1, round(width * factor)), max(1, round(height * factor))


def work_pixels(width: int, height: int) -> int:
    """The pixels the detector really processes for an OCR image: per tile, the short side scaled up to
    ``DETECTOR_SIDE`` when smaller (rapidocr's detector does that)."""
    total = 0
    for box, _ in tile_boxes(width, height):
        w, h = box[2] - box[0], box[3] - box[1]
        grow = max(1.0, DETECTOR_SIDE / max(1, min(w, h)))
        total += round(w * h * grow * grow)
    return total


class OcrBudget:
    """The time left for OCR in one document: a page is read only while its estimated cost still fits."""

    def __init__(self, deadline: float | None) -> None:
        """Args: deadline: ``time.monotonic()`` by which OCR must be done; None: no limit."""
        self.deadline = deadline
        self.seconds_per_mp = SECONDS_PER_MP

    def allows(self, pixels: int) -> bool:
        """Whether a page of ``pixels`` OCR pixels can still be read in time."""
        if self.deadline is None:
            return True
        estimate = pixels / 1e6 * self.seconds_per_mp * ESTIMATE_MARGIN
        return time.monotonic() + estimate <= self.deadline

    def spent(self, pixels: int, seconds: float) -> None:
        """Note what a page really cost (cached pages cost nothing and teach nothing)."""
        if pixels and seconds > 0:
            self.seconds_per_mp = max(self.seconds_per_mp * 0.5, seconds / (pixels / 1e6))


# ------------------------------------------------------------------------------------------------------- reading


_engines: dict[int, Any] = {}
_engine_lock = threading.Lock()
_cache: OrderedDict[str, OcrPage] = OrderedDict()
_cache_lock = threading.Lock()


def read(image: Image.Image, *, reason: str, settings: OcrSettings) -> OcrPage:
    """Read a page image (already at OCR size) with the engine, or from the cache.

    Args:
        image: the OCR image (RGB).
        reason: why it is read (kept in the result).
        settings: the OCR settings (``threads``).

    Returns:
        The OcrPage.

    Raises:
        Exception: whatever the engine raises (the caller turns it into a page warning).
    """
    key = _content_key(image)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
    if hit is not None:
        return OcrPage(lines=hit.lines, reason=reason, size=hit.size, seconds=0.0, cached=True)
    start = time.perf_counter()
    engine = _engine(settings.threads)
    lines = tuple(
        line
        for box, keep in tile_boxes(*image.size)
        for line in _tile_lines(
            engine, image.crop(box) if box != (0, 0, *image.size) else image, box[:2], keep, image.size
        )
    )
    result = OcrPage(lines=lines, reason=reason, size=image.size, seconds=time.perf_counter() - start)
    _give_back_memory()
    with _cache_lock:
        _cache[key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def _give_back_memory() -> None:
    """Return the detector's freed activations to the system: glibc keeps them in its heap (~200 MB after an A4
    page), which a long-lived process (the library, a render worker) would otherwise hold for good."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to do
        pass


def _content_key(image: Image.Image) -> str:
    digest = hashlib.sha256(f"{image.mode}{image.size}".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def _engine(threads: int):
    """The process's rapidocr instance for this thread count, built on first use with the packaged models."""
    with _engine_lock:
        if threads not in _engines:
            _engines[threads] = _build_engine(threads)
        return _engines[threads]


def _build_engine(threads: int):
    import rapidocr
    from rapidocr import RapidOCR

    models = Path(rapidocr.__file__).parent / "models"
    params: dict[str, Any] = {f"{part}.model_path": str(models / name) for part, name in MODEL_FILES.items()}
    missing = [name for name in MODEL_FILES.values() if not (models / name).is_file()]
    if missing:  # a different rapidocr version: never let it download
        raise RuntimeError(f"rapidocr's packaged models are missing ({', '.join(missing)}); install rapidocr==3.10.0")
    params.update(
        {
            "Global.log_level": "warning",
            "Global.use_cls": True,
            "Global.return_word_box": True,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
    )
    engine = RapidOCR(params=params)
    logging.getLogger("RapidOCR").addFilter(_NoEmptyPageWarning())
    return engine


class _NoEmptyPageWarning(logging.Filter):
    """rapidocr warns on every page where it detects no text; a page without text is not news here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "detection result is empty" not in record.getMessage()


def tile_boxes(width: int, height: int) -> list[tuple[tuple[int, int, int, int], tuple[float, float]]]:
    """How an OCR image is read: whole, or, when longer than ``MAX_ASPECT``:1, in overlapping tiles.

    Args:
        width: the image width in pixels.
        height: the image height.

    Returns:
        ``(crop box, (keep_from, keep_to))`` per tile: the crop in image pixels and the range along the long side
        whose lines the tile owns (each overlap is split in its middle).
    """
    long, short = max(width, height), min(width, height)
    if long <= MAX_ASPECT * short:
        return [((0, 0, width, height), (0.0, float(long)))]
    length = round(TILE_ASPECT * short)
    step = max(1, round(length * (1 - TILE_OVERLAP)))
    starts = list(range(0, long - length, step)) + [long - length]
    tiles = []
    for i, start in enumerate(starts):
        keep_from = 0.0 if i == 0 else (start + starts[i - 1] + length) / 2
        keep_to = float(long) if i == len(starts) - 1 else (starts[i + 1] + start + length) / 2
        box = (0, start, width, start + length) if height > width else (start, 0, start + length, height)
        tiles.append((box, (keep_from, keep_to)))
    return tiles


def _tile_lines(
    engine, tile: Image.Image, offset: tuple[int, int], keep: tuple[float, float], size: tuple[int, int]
) -> list[OcrLine]:
    """Run the engine on one tile; its lines (centre inside the keep range) with boxes normalised to the page."""
    out = engine(tile)
    if out is None or getattr(out, "boxes", None) is None or getattr(out, "txts", None) is None:
        return []
    words = getattr(out, "word_results", None) or ()
    tall = size[1] > size[0]
    lines = []
    for i, (quad, text, score) in enumerate(zip(out.boxes, out.txts, out.scores, strict=False)):
        box = _normalise(quad, offset, size)
        centre = (box[1] + box[3]) / 2 * size[1] if tall else (box[0] + box[2]) / 2 * size[0]
        if not keep[0] <= centre <= keep[1] or not str(text).strip():
            continue
        line_words = tuple(
            OcrWord(str(w), _normalise(b, offset, size), round(float(c), 4))
            for w, c, b in (words[i] if i < len(words) else ())
            if str(w).strip()
        )
        lines.append(OcrLine(text=str(text), box=box, confidence=round(float(score), 4), words=line_words))
    return lines


def _normalise(quad: Any, offset: tuple[int, int], size: tuple[int, int]) -> Box:
    """A quadrilateral in tile pixels as an axis-aligned box normalised to the whole image."""
    xs = [float(point[0]) + offset[0] for point in quad]
    ys = [float(point[1]) + offset[1] for point in quad]

    def clamp(v: float, side: int) -> float:
        return round(min(1.0, max(0.0, v / side)), 4) if side else 0.0

    return clamp(min(xs), size[0]), clamp(min(ys), size[1]), clamp(max(xs), size[0]), clamp(max(ys), size[1])


def read_page(
    image: Image.Image, *, reason: str, settings: OcrSettings, budget: OcrBudget
) -> tuple[OcrPage | None, list[str]]:
    """Read one page's OCR image within the time budget; a failure costs the page's OCR, never the document.

    Returns:
        The OcrPage (None when not read) and page warnings saying why not.
    """
    pixels = work_pixels(*image.size)
    if not budget.allows(pixels):
        return None, [
            "not read by OCR: the time limit to open and render this document was nearly used up "
            "(raise --timeout to read every page)"
        ]
    try:
        result = read(image, reason=reason, settings=settings)
    except Exception as exc:  # noqa: BLE001 - the engine's failures (memory too) are its own; the page stays usable
        _log.debug("OCR failed", exc_info=True)
        return None, [f"OCR failed ({type(exc).__name__}: {exc}); the page is not checked against its text"]
    if not result.cached:
        budget.spent(pixels, result.seconds)
    return result, []


def clear_cache() -> None:
    """Forget every cached result (tests and benchmarks that time OCR)."""
    with _cache_lock:
        _cache.clear()


__all__ = [
    "DEFAULT_MODE",
    "DEFAULT_THREADS",
    "MODES",
    "OcrBudget",
    "OcrLine",
    "OcrPage",
    "OcrSettings",
    "OcrWord",
    "agreement",
    "check_mode",
    "clear_cache",
    "engine_available",
    "garbled",
    "image_size",
    "ink_chars",
    "page_text",
    "pdf_scale",
    "read",
    "read_page",
    "reason_to_read",
    "resolve_mode",
    "tile_boxes",
    "work_pixels",
]
