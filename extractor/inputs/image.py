"""Read images with Pillow (PNG, JPEG, TIFF, WebP, and PIL images handed to the API) into page images sized to the
pixel budget, and OCR them when asked.

Decisions, in one place:

* **Frames.** TIFF: every frame is a page. PNG/JPEG/WebP: the first frame only (animation is not pagination).
* **Pixels.** EXIF orientation is applied; alpha is composited on white; 16-bit and float images are scaled to
  8 bits. Source images above ``MAX_IMAGE_PIXELS`` are refused before their pixels are decoded (``too_large``).
* **Size.** Images are only shrunk to the budget, never enlarged (except up to ``min_side``); an absurd aspect
  ratio keeps its top or left part (``document.elongated``), with a page warning. JPEGs are decoded at a reduced
  scale when that still covers the page image (and the OCR image).
* **OCR** reads the part of the source the page image shows, at OCR resolution, turned as the page image is.
"""

from __future__ import annotations

import hashlib
import io
import struct
from typing import cast

from PIL import Image

from extractor.errors import InputError
from extractor.inputs import ocr, ocrdecide, ocrresult
from extractor.inputs.document import Document, Page, RasterSettings, elongated, select_pages, target_size

MAX_IMAGE_PIXELS = 100_000_000  # source images above this are refused before their pixels are decoded

_PIL_FORMAT = {"png": "PNG", "jpeg": "JPEG", "tiff": "TIFF", "webp": "WEBP"}
_EXIF_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
# What Pillow raises on hostile input (besides our own InputError).
_PILLOW_FAILURES = (
    OSError,
    SyntaxError,
    ValueError,
    TypeError,
    EOFError,
    struct.error,
    IndexError,
    KeyError,
    ZeroDivisionError,
    OverflowError,
)


def load_image(
    data: bytes, *, kind: str, name: str, raster: RasterSettings, budget: ocr.OcrBudget
) -> tuple[int, tuple[Page, ...], list[str]]:
    """Decode an image file and make its selected frames pages.

    Args:
        data: the file's bytes.
        kind: ``png``, ``jpeg``, ``tiff`` or ``webp`` (sniffed from the content).
        name: the source's name, for messages.
        raster: budget, page selection, page cap and OCR.
        budget: OCR starts on a page only while its estimated cost fits before this budget's deadline.

    Returns:
        The frame count (1 but for TIFF), the pages, and the document warnings.

    Raises:
        InputError: ``too_large`` (pixel dimensions), ``corrupt`` (cannot be decoded) or ``empty`` (no selected
            frame exists).
    """
    try:
        with Image.open(io.BytesIO(data), formats=[_PIL_FORMAT[kind]]) as img:
            page_count = getattr(img, "n_frames", 1) if kind == "tiff" else 1
            indices, warnings = select_pages(page_count, name=name, raster=raster)
            pages = tuple(_image_page(img, index, name, raster, budget) for index in indices)
    except Image.DecompressionBombError:
        raise InputError(
            f"{name}: the image's pixel dimensions are too large to decode safely", source=name, code="too_large"
        ) from None
    except _PILLOW_FAILURES as exc:
        raise InputError(
            f"{name}: the {kind.upper()} image is damaged and cannot be decoded ({exc})", source=name, code="corrupt"
        ) from None
    return page_count, pages, warnings


def _image_page(img: Image.Image, index: int, name: str, raster: RasterSettings, budget: ocr.OcrBudget) -> Page:
    if index:
        img.seek(index)
    _check_pixels(name, *img.size)
    box = target_size(*img.size, max_pixels=raster.max_pixels, min_side=raster.min_side)
    if img.format in ("JPEG", "MPO"):
        # decode at 1/2, 1/4 or 1/8 scale when that still covers the box (and the OCR image, when OCR may read it)
        ocr_box = ocr.image_size(*img.size, raster.ocr) if raster.ocr.mode != "never" else None
        img.draft("RGB", (max(box[0], ocr_box[0]), max(box[1], ocr_box[1])) if ocr_box else box)
    try:
        orientation = int(img.getexif().get(0x0112, 1))
    except _PILLOW_FAILURES:
        orientation = 1  # a broken EXIF block only costs the orientation
    return _rgb_page(_to_rgb(img), index=index, orientation=orientation, raster=raster, budget=budget)


def _rgb_page(rgb: Image.Image, *, index: int, orientation: int, raster: RasterSettings, budget: ocr.OcrBudget) -> Page:
    """An RGB image as a page: fitted to the budget, read by OCR as ``raster`` asks, turned upright by its EXIF
    ``orientation`` (1: upright)."""
    image, warnings = _fit(rgb, raster)
    read, ocr_warnings = _read_image(rgb, image, orientation, raster, budget)
    if orientation in _EXIF_TRANSPOSE:
        image = image.transpose(_EXIF_TRANSPOSE[orientation])
    return Page(
        index=index,
        image=image,
        width_pt=None,
        height_pt=None,
        text=None,
        warnings=tuple(warnings + ocr_warnings),
        ocr=read,
    )


def _check_pixels(name: str, width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS:
        raise InputError(
            f"{name}: the image is {width:,} x {height:,} pixels, over the {MAX_IMAGE_PIXELS // 1_000_000} MP limit",
            source=name,
            code="too_large",
        )
    if width < 1 or height < 1:
        raise InputError(f"{name}: the image has no pixels ({width} x {height})", source=name, code="corrupt")


def _to_rgb(img: Image.Image) -> Image.Image:
    """Convert any Pillow mode to 8-bit RGB: alpha on white, 16-bit and float scaled, palette and CMYK converted."""
    if img.mode.startswith("I;16"):
        img = img.convert("I").point(lambda v: v * (1 / 256)).convert("L")
    elif img.mode in ("I", "F"):
        low, high = cast(tuple[float, float], img.getextrema())  # one band (I or F): a (min, max) pair
        if low < 0 or high > 255:
            span = (high - low) or 1
            img = img.point(lambda v: (v - low) * (255 / span))
        img = img.convert("L")
    if img.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in img.info:
        rgba = img.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return img.convert("RGB")


def _kept(width: int, height: int, raster: RasterSettings) -> tuple[int, int]:
    """The top/left part of an image that is used: all of it, unless its aspect ratio is absurd."""
    if not elongated(width, height, raster=raster):
        return width, height
    box_w, box_h = target_size(width, height, max_pixels=raster.max_pixels, min_side=raster.min_side)
    keep = (width, round(width * box_h / box_w)) if height > width else (round(height * box_w / box_h), height)
    return max(1, keep[0]), max(1, keep[1])


def _fit(image: Image.Image, raster: RasterSettings) -> tuple[Image.Image, list[str]]:
    """Shrink to the budget (never enlarge, except up to min_side); crop absurd aspect ratios to their top/left."""
    width, height = image.size
    box_w, box_h = target_size(width, height, max_pixels=raster.max_pixels, min_side=raster.min_side)
    warnings = []
    if elongated(width, height, raster=raster):
        image = image.crop((0, 0, *_kept(width, height, raster)))
        warnings.append(
            f"the image is {width:,} x {height:,} px, too elongated to use whole; "
            f"only its {'top' if height > width else 'left'} part was kept"
        )
        width, height = image.size
    if width * height > box_w * box_h:
        return image.resize((box_w, box_h), Image.Resampling.LANCZOS), warnings
    if min(width, height) < raster.min_side:
        grow = raster.min_side / min(width, height)
        size = (
            min(box_w, max(raster.min_side, round(width * grow))),
            min(box_h, max(raster.min_side, round(height * grow))),
        )
        return image.resize(size, Image.Resampling.BICUBIC), warnings
    return image, warnings


def _read_image(
    rgb: Image.Image, image: Image.Image, orientation: int, raster: RasterSettings, budget: ocr.OcrBudget
) -> tuple[ocrresult.OcrPage | None, list[str]]:
    """OCR for an image page: the part of the source the page image shows, shrunk to OCR size and turned by its
    EXIF orientation (as the page image is), then read."""
    reason = ocrdecide.reason_to_read(None, image, raster.ocr)
    if reason is None:
        return None, []
    kept = _kept(*rgb.size, raster)
    size = ocr.image_size(*kept, raster.ocr)
    if size is None:
        return None, [ocr.TOO_ELONGATED]
    region = rgb.crop((0, 0, *kept)) if kept != rgb.size else rgb
    ocr_image = region.resize(size, Image.Resampling.LANCZOS) if size != kept else region
    if orientation in _EXIF_TRANSPOSE:
        ocr_image = ocr_image.transpose(_EXIF_TRANSPOSE[orientation])
    return ocr.read_page(ocr_image, reason=reason, settings=raster.ocr, budget=budget)


def load_pil(img: Image.Image, *, raster: RasterSettings, budget: ocr.OcrBudget) -> Document:
    """Make a PIL image (already decoded, handed to the API) a one-page ``<image>`` document.

    Args:
        img: the image, any mode.
        raster: budget, page selection and OCR.
        budget: OCR starts only while its estimated cost fits before this budget's deadline.

    Returns:
        The Document; its ``sha256`` is of the image's raw RGB bytes.

    Raises:
        InputError: ``too_large`` or ``corrupt`` (pixel dimensions), ``empty`` (the selection skips page 1).
    """
    name = "<image>"
    _check_pixels(name, *img.size)
    select_pages(1, name=name, raster=raster)
    rgb = _to_rgb(img)
    digest = hashlib.sha256(rgb.tobytes()).hexdigest()
    page = _rgb_page(rgb, index=0, orientation=1, raster=raster, budget=budget)
    return Document(source=name, sha256=digest, kind="image", page_count=1, pages=(page,))
