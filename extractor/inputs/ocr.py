"""OCR: reading a page image with the engine into text lines with boxes (``OcrPage``), within the time left.

Whether a page is read at all, and which text grounding then uses (text layer or OCR), is decided in
``inputs.ocrdecide``; the results are ``inputs.ocrresult``'s; this module is the engine. Decisions, in one place
(measured on our corpus: 27 digital invoices rendered to images, receipt scans, the image-only sample, rotated JPEG
photos; rapidocr 3 found every key value the text layer has, Tesseract 96-99 %):

* **Engine.** rapidocr 3 on onnxruntime (PP-OCRv6 small detection and recognition, the mobile angle classifier):
  its three ONNX files ship in the wheel and are pinned by path, so its download code can never run. Imported
  lazily; one instance per process, built on first use, never called with per-call options (rapidocr 3 writes
  them onto the instance, where they stick and race). onnxruntime runs with ``threads`` intra-op threads (1 by
  default: on a busy 2-core machine one thread was faster and ~35 % cheaper than two) and one inter-op thread.
* **Modes** (``OcrSettings.mode``): ``auto`` (the default), ``always`` or ``never``; ``auto`` falls back to
  ``never`` when the engine is not installed (``resolve_mode``), ``always`` refuses to run without it.
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
* **Time.** A document's OCR is planned by its work, the same everywhere (``OcrBudget``): pages are read in order
  while their estimated cost at a fixed rate fits ``PLAN_SHARE`` of ``--timeout``; the pages left unread get a
  warning instead of the whole document timing out. In a render worker the clock is a safety net on top: a page is
  not started when, at this machine's measured speed, it would end past the worker's deadline (its warning says
  the machine was slower than planned).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import logging
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from extractor.errors import UsageError
from extractor.inputs.ocrresult import Box, OcrLine, OcrPage, OcrWord

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

# Seconds per megapixel of OCR image before a worker has timed one (measured: ~5 CPU-s per 2.8-MP A4 page), and the
# safety factor on every estimate.
SECONDS_PER_MP = 2.0
ESTIMATE_MARGIN = 1.5
PLAN_SHARE = 0.8  # of the time limit, the OCR a document may plan (as a render worker's deadline: worker.OCR_SHARE)
MAX_ASPECT = 4.0  # longer pages are read in tiles ...
TILE_ASPECT = 3.0  # ... of at most this aspect ratio
TILE_OVERLAP = 0.15  # share of a tile's length shared with the next one
MAX_OCR_ASPECT = 32.0  # longer pages (an 80-mm till roll of 2.5 m) are not read: 12 tiles at most
DETECTOR_SIDE = 736  # rapidocr's detector scales a shorter short side up to this
TOO_ELONGATED = f"not read by OCR: the page is more than {MAX_OCR_ASPECT:g} times longer than wide"

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OcrSettings:
    """How pages are read by OCR.

    Attributes:
        mode: ``auto`` (pages without a usable text layer), ``always`` (every page that is not blank) or ``never``.
        threads: onnxruntime intra-op threads.
        max_side: the OCR image's longest side in pixels.
        plan_s: the seconds of OCR a document may plan (``OcrBudget``: ``PLAN_SHARE`` of ``--timeout``); None: no
            plan (every page that needs it is read).
    """

    mode: str = "never"
    threads: int = DEFAULT_THREADS
    max_side: int = DEFAULT_MAX_SIDE
    plan_s: float | None = None

    def __post_init__(self) -> None:
        check_mode(self.mode)
        if self.threads < 1 or self.max_side < 64:
            raise UsageError(
                f"ocr threads must be at least 1 and max_side at least 64, got {self.threads}, {self.max_side}"
            )

    def to_dict(self) -> dict:
        """The settings as JSON (for the render workers)."""
        return {"mode": self.mode, "threads": self.threads, "max_side": self.max_side, "plan_s": self.plan_s}

    @classmethod
    def from_dict(cls, data: dict) -> OcrSettings:
        """The settings from ``to_dict``'s JSON."""
        plan = data.get("plan_s")
        return cls(
            mode=str(data["mode"]),
            threads=int(data["threads"]),
            max_side=int(data["max_side"]),
            plan_s=None if plan is None else float(plan),
        )


# --------------------------------------------------------------------------------------------------------- modes


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
    """The OCR one document may do, so that it fits its time limit: cut by the work (pages), not the clock, where it
    can be.

    * **The plan** (``plan_s``, from ``OcrSettings.plan_s``: a share of ``--timeout``): pages are read in order
      while their estimated cost (OCR pixels at the fixed ``SECONDS_PER_MP`` x ``ESTIMATE_MARGIN``, whatever the
      machine or its cache) fits in it; once a page does not, it and every later page are not read. The same
      document is cut at the same page everywhere: in process or in a render worker, alone or in a batch, on an
      idle or a loaded machine.
    * **The clock** (``deadline``, render workers only): a safety net for a machine far slower than planned; a page
      is not started when its estimate at this machine's measured speed would end past the deadline. Only then does
      the record depend on the machine, and its warning says so.

    Each page not read gets a warning saying which of the two cut it.
    """

    def __init__(self, deadline: float | None, *, plan_s: float | None = None) -> None:
        """Args: deadline: ``time.monotonic()`` by which OCR must be done (None: no limit); plan_s: the seconds of
        OCR the document may plan (None: no plan)."""
        self.deadline = deadline
        self.plan_s = plan_s
        self.planned = 0.0
        self.seconds_per_mp = SECONDS_PER_MP
        self.cut: str | None = None  # why OCR stopped: every later page gets the same warning

    def allows(self, pixels: int) -> bool:
        """Whether a page of ``pixels`` OCR pixels is read (its planned cost is then counted; ``cut`` says why not)."""
        if self.cut is not None:
            return False
        planned = pixels / 1e6 * SECONDS_PER_MP * ESTIMATE_MARGIN
        if self.plan_s is not None and self.planned + planned > self.plan_s:
            self.cut = (
                f"not read by OCR: the document's OCR plan is used up (pages are read in order; this one would take "
                f"it to an estimated {self.planned + planned:.0f} s of the {self.plan_s:.0f} s its time limit "
                "allows); raise --timeout to read every page"
            )
            return False
        clock = pixels / 1e6 * self.seconds_per_mp * ESTIMATE_MARGIN
        if self.deadline is not None and time.monotonic() + clock > self.deadline:
            self.cut = (
                "not read by OCR: this machine read pages slower than planned and the time limit to open and "
                "render this document was nearly used up (raise --timeout, or run fewer documents at once, to read "
                "every page)"
            )
            return False
        self.planned += planned
        return True

    def spent(self, pixels: int, seconds: float) -> None:
        """Note what a page really cost, for the clock's estimates (cached pages cost nothing and teach nothing)."""
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
        return None, [budget.cut or "not read by OCR: its time budget is used up"]
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
    "OcrSettings",
    "PLAN_SHARE",
    "TOO_ELONGATED",
    "check_mode",
    "clear_cache",
    "engine_available",
    "image_size",
    "pdf_scale",
    "read",
    "read_page",
    "resolve_mode",
    "tile_boxes",
    "work_pixels",
]
