"""Render a PDF's selected pages with pdfium: open it (passwords), set up its forms, render each page to fill the
pixel budget, read its text layer, and OCR the pages that need it.

Decisions, in one place:

* **Page size.** PDF pages are vector, so each is rendered to fill the pixel budget (keeping its aspect ratio);
  the scale is computed from the page box *before* rendering, so no bitmap above the budget is ever allocated.
  A page too elongated for the budget is rendered as its top (tall) or left (wide) part, with a page warning.
* **Failing pages.** A page that cannot be loaded or has an empty page box is skipped with a warning; if no page
  renders, the input fails (``corrupt``, or ``too_large`` for absurd page boxes).
* **Passwords.** No password is tried first, then each given password as typed and in its SASLprep form (RFC 4013;
  AES-256 PDFs need it and pdfium does not normalise).
* **Forms.** Form fields are set up before rendering (fields without appearance streams would render blank); XFA
  forms are not rendered (pypdfium2's wheels have no XFA): only the static page content, with a document warning.
* **OCR** (``ocr``; off unless ``RasterSettings.ocr`` asks): a page that needs it (no usable text layer, or a
  scanner's invisible one) is rendered a second time at OCR resolution, covering the same region as its page image,
  and read while the document is rendered.

pdfium is not thread-safe: every in-process use takes ``PDFIUM_LOCK``.
"""

from __future__ import annotations

import math
import stringprep
import threading
import unicodedata
from collections.abc import Sequence

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from extractor.errors import InputError
from extractor.inputs import ocr, ocrdecide, ocrresult
from extractor.inputs.document import Page, RasterSettings, elongated, select_pages, target_size
from extractor.inputs.textlayer import read_lines, read_text

# pdfium is not thread-safe (concurrent renders from Extractor.extract in threads segfaulted): every in-process use
# takes this lock. Render workers are separate processes with their own.
PDFIUM_LOCK = threading.RLock()

# What pdfium / pypdfium2 raise on hostile input (besides our own InputError).
_PDFIUM_FAILURES = (pdfium.PdfiumError, OSError, ValueError, OverflowError, AssertionError, KeyError, IndexError)
_INT_MAX = 2**31 - 1  # pdfium takes bitmap geometry as C ints


class _PageFailed(Exception):
    """A PDF page that cannot be rendered; the document goes on without it."""

    def __init__(self, message: str, code: str = "corrupt"):
        super().__init__(message)
        self.message, self.code = message, code


def load_pdf(
    data: bytes, *, name: str, raster: RasterSettings, budget: ocr.OcrBudget
) -> tuple[int, tuple[Page, ...], list[str]]:
    """Open a PDF and render its selected pages (the caller holds ``PDFIUM_LOCK``).

    Args:
        data: the file's bytes.
        name: the source's name, for messages.
        raster: budget, page selection, passwords, page cap and OCR.
        budget: OCR starts on a page only while its estimated cost fits before this budget's deadline.

    Returns:
        The page count, the rendered pages, and the document warnings (skipped pages among them).

    Raises:
        InputError: the PDF cannot be opened (``encrypted``, ``wrong_password``, ``unreadable``, ``corrupt``), none
            of the selected pages exist (``empty``), or no page renders (``corrupt`` or ``too_large``).
    """
    pdf = _open_pdf(data, name, raster.passwords)
    try:
        form_warnings = _init_forms(pdf)
        page_count = len(pdf)
        if page_count < 1:  # pdfium's answer when the page tree cannot be read
            raise InputError(f"{name}: the PDF has no readable pages", source=name, code="corrupt")
        indices, warnings = select_pages(page_count, name=name, raster=raster)
        warnings = form_warnings + warnings
        pages, failures = [], []
        for index in indices:
            try:
                pages.append(_render_pdf_page(pdf, index, raster, budget))
            except _PageFailed as failure:
                failures.append(failure)
    finally:
        pdf.close()
    if not pages:
        reasons = "; ".join(f.message for f in failures[:3])
        raise InputError(f"{name}: no page could be rendered ({reasons})", source=name, code=failures[0].code)
    return page_count, tuple(pages), warnings + [f.message for f in failures]


def saslprep(text: str) -> str | None:
    """Prepare a password with SASLprep (RFC 4013), as PDF 2.0 asks for AES-256 (R6) passwords.

    Args:
        text: the password as typed.

    Returns:
        The normalised password, or None when it contains characters SASLprep prohibits (or fails the bidi rule).
    """
    mapped = "".join(" " if stringprep.in_table_c12(ch) else ch for ch in text if not stringprep.in_table_b1(ch))
    norm = unicodedata.normalize("NFKC", mapped)
    prohibited = (
        stringprep.in_table_c12,
        stringprep.in_table_c21_c22,
        stringprep.in_table_c3,
        stringprep.in_table_c4,
        stringprep.in_table_c5,
        stringprep.in_table_c6,
        stringprep.in_table_c7,
        stringprep.in_table_c8,
        stringprep.in_table_c9,
    )
    if any(check(ch) for ch in norm for check in prohibited):
        return None
    if any(stringprep.in_table_d1(ch) for ch in norm):
        if any(stringprep.in_table_d2(ch) for ch in norm) or not (
            stringprep.in_table_d1(norm[0]) and stringprep.in_table_d1(norm[-1])
        ):
            return None
    return norm


def _password_attempts(passwords: Sequence[str]) -> list[str | None]:
    attempts: list[str | None] = [None]
    for password in passwords:
        for candidate in (password, saslprep(password)):
            if candidate is not None and candidate not in attempts:
                attempts.append(candidate)
    return attempts


def _open_pdf(data: bytes, name: str, passwords: Sequence[str]) -> pdfium.PdfDocument:
    """Open with no password, then each password (as typed and SASLprep'd); map pdfium's error codes."""
    error = pdfium_c.FPDF_ERR_UNKNOWN
    for password in _password_attempts(passwords):
        secret = None if password is None else (password + "\x00").encode("utf-8")
        # Raw load (not PdfDocument(bytes)): pypdfium2 leaks the handle when it rejects a 0-page document.
        # ``data`` outlives the document: the caller closes it before returning.
        raw = pdfium_c.FPDF_LoadMemDocument64(data, len(data), secret)
        if raw:
            return pdfium.PdfDocument(raw)
        error = pdfium_c.FPDF_GetLastError()
        if error != pdfium_c.FPDF_ERR_PASSWORD:
            break
    raise _open_error(name, error, passwords)


def _open_error(name: str, error: int, passwords: Sequence[str]) -> InputError:
    if error == pdfium_c.FPDF_ERR_PASSWORD and passwords:
        return InputError(
            f"{name}: the file is encrypted and none of the {len(passwords)} password(s) given opens it",
            source=name,
            code="wrong_password",
        )
    if error == pdfium_c.FPDF_ERR_PASSWORD:
        return InputError(f"{name}: the file is encrypted; pass --password", source=name, code="encrypted")
    if error == pdfium_c.FPDF_ERR_SECURITY:
        return InputError(
            f"{name}: the file uses an encryption scheme pdfium does not support", source=name, code="encrypted"
        )
    if error == pdfium_c.FPDF_ERR_FILE:
        return InputError(f"{name}: the PDF cannot be read", source=name, code="unreadable")
    return InputError(f"{name}: the PDF is damaged and cannot be opened", source=name, code="corrupt")


def _init_forms(pdf: pdfium.PdfDocument) -> list[str]:
    """Set up form rendering (fields without appearance streams render blank otherwise); returns warnings."""
    if pdf.get_formtype() in (pdfium_c.FORMTYPE_XFA_FULL, pdfium_c.FORMTYPE_XFA_FOREGROUND):
        # pypdfium2's wheels have no XFA; init_forms would only log a warning to stderr.
        return ["the PDF has XFA forms, which are not rendered; only the static page content is shown"]
    try:
        pdf.init_forms()
    except _PDFIUM_FAILURES:
        return ["the PDF's form fields could not be set up; filled-in values may be missing"]
    return []


def _render_pdf_page(pdf: pdfium.PdfDocument, index: int, raster: RasterSettings, budget: ocr.OcrBudget) -> Page:
    try:
        page = pdf[index]
    except _PDFIUM_FAILURES:
        raise _PageFailed(f"page {index + 1}: pdfium cannot load the page; skipped") from None
    try:
        width, height = page.get_size()  # displayed size: pdfium applies /Rotate
        if not all(math.isfinite(v) and v > 0 for v in (width, height)):
            raise _PageFailed(f"page {index + 1}: the page box is {width:g} x {height:g} pt; skipped")
        image, crop, warnings = _render_page_image(page, width, height, index, raster)
        text, text_warnings = read_text(page)
        read, ocr_warnings = _read_pdf_page(page, (width, height), crop, image, text, raster.ocr, budget)
        lines = read_lines(page) if raster.text_boxes and text else ()
        return Page(
            index=index,
            image=image,
            width_pt=width,
            height_pt=height,
            text=text,
            warnings=tuple(warnings + text_warnings + ocr_warnings),
            ocr=read,
            lines=lines,
        )
    finally:
        page.close()


def _render_page_image(
    page: pdfium.PdfPage, width: float, height: float, index: int, raster: RasterSettings
) -> tuple[Image.Image, tuple[float, float, float, float], list[str]]:
    """Render at the scale that fills the budget box; the part beyond the box (absurd aspect only) is cropped.
    Returns the image, the crop (left, bottom, right, top, in points) and warnings."""
    box_w, box_h = target_size(width, height, max_pixels=raster.max_pixels, min_side=raster.min_side)
    # The margin keeps pypdfium2's ceil() from adding a pixel past the box.
    scale = max(box_w / width, box_h / height) * (1 - 1e-9)
    full_w, full_h = math.ceil(width * scale), math.ceil(height * scale)
    if max(full_w, full_h) > _INT_MAX:
        raise _PageFailed(
            f"page {index + 1}: the page is {width:,.0f} x {height:,.0f} pt, too large to render; skipped",
            code="too_large",
        )
    crop = (0.0, max(0, full_h - box_h) / scale, max(0, full_w - box_w) / scale, 0.0)  # left, bottom, right, top
    image = _render_region(page, scale, crop, index)
    warnings = []
    if elongated(width, height, raster=raster):
        part = "top" if height > width else "left"
        warnings.append(
            f"the page is {width:,.0f} x {height:,.0f} pt, too elongated to render whole; "
            f"only its {part} part was rendered"
        )
    return image, crop, warnings


def _render_region(
    page: pdfium.PdfPage, scale: float, crop: tuple[float, float, float, float], index: int
) -> Image.Image:
    try:
        # 3-byte RGB forced: Pillow then copies the pixels (it shares only 4-byte and grey buffers), so the
        # bitmap can be freed right away.
        bitmap = page.render(scale=scale, crop=crop, force_bitmap_format=pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
        try:
            return bitmap.to_pil()
        finally:
            bitmap.close()
    except _PDFIUM_FAILURES:
        raise _PageFailed(f"page {index + 1}: pdfium cannot render the page; skipped") from None


def _read_pdf_page(
    page: pdfium.PdfPage,
    size: tuple[float, float],
    crop: tuple[float, float, float, float],
    image: Image.Image,
    text: str | None,
    settings: ocr.OcrSettings,
    budget: ocr.OcrBudget,
) -> tuple[ocrresult.OcrPage | None, list[str]]:
    """OCR for a PDF page that needs it: the page image's region rendered again at OCR resolution, then read."""
    if settings.mode == "never":
        return None, []
    region = (size[0] - crop[0] - crop[2], size[1] - crop[1] - crop[3])
    reason = ocrdecide.reason_to_read(
        text,
        image,
        settings,
        area_pt2=region[0] * region[1],
        invisible=bool(text and text.strip()) and _invisible_text(page),
    )
    if reason is None:
        return None, []
    scale = ocr.pdf_scale(*region, settings)
    if scale is None:
        return None, [ocr.TOO_ELONGATED]
    try:
        ocr_image = _render_region(page, scale, crop, -1)
    except _PageFailed:
        return None, ["not read by OCR: pdfium cannot render the page at OCR resolution"]
    return ocr.read_page(ocr_image, reason=reason, settings=settings, budget=budget)


def _invisible_text(page: pdfium.PdfPage) -> bool:
    """Whether the page's text is (nearly) all drawn invisibly: a scanner's OCR layer under the page image."""
    try:
        modes = [
            pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw)
            for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=3)
        ]
    except Exception:  # noqa: BLE001 - optional evidence on a page that rendered: never fail the page for it
        return False
    hidden = sum(1 for mode in modes if mode == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
    return bool(modes) and hidden >= 0.9 * len(modes)
