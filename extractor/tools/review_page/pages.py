"""A record's source pages for the review page: rendered at screen resolution, with the text layer's word boxes.

The source is read by the batch's own render workers (``pool.RenderPool``): a hostile PDF that crashes pdfium,
hangs or eats memory costs a worker (an error shown on the record's page), never the server. The worker renders
with ``load.load_document`` (OCR as ``--ocr auto`` where the engine is installed, and the text layer's lines
with word boxes: ``RasterSettings.text_boxes``); the server writes one PNG per page into its cache folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from extractor.inputs import ocr, ocrdecide
from extractor.inputs.document import RasterSettings, parse_pages
from extractor.inputs.pool import RenderPool
from extractor.trust.grounding import PageText

SCREEN_PIXELS = 1100 * 1560  # an A4 page about 1,100 px wide: sharp on a laptop screen, ~0.3 s to render
TIMEOUT_S = 60.0
# Pages shown per source: at ~0.3 s and ~5 MB a page, 50 render within TIMEOUT_S and a worker's memory limit
# (RasterSettings' own default, DEFAULT_MAX_PAGES, is the batch's: it reads long documents in windows of a few pages).
MAX_PAGES = 50


@dataclass(frozen=True)
class PageView:
    """One rendered page of a source.

    Attributes:
        number: 1-based page number in the source.
        image: the PNG file in the cache folder.
        size: the image's (width, height) in pixels.
        text: the grounding text of the page, as the batch reads it (``ocrdecide.page_texts``: the text layer with
            its word boxes for citations, or OCR text with its boxes).
        warnings: the rasterizer's notes about the page.
    """

    number: int
    image: Path
    size: tuple[int, int]
    text: PageText
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The page for the JSON API (without its text)."""
        return {
            "number": self.number,
            "size": list(self.size),
            "source": self.text.source,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class SourcePages:
    """A source's pages, or why there are none.

    Attributes:
        pages: the rendered pages.
        error: ``{"code", "message"}`` when the source could not be read (the record's page shows it).
        warnings: the rasterizer's notes about the whole document.
    """

    pages: tuple[PageView, ...] = ()
    error: dict | None = None
    warnings: tuple[str, ...] = ()


def render_pool() -> RenderPool:
    """The workers that render sources for the review page (one at a time; started on first use)."""
    return RenderPool(workers=1, timeout=TIMEOUT_S)


def read_pages(path: Path, *, cache: Path, pool: RenderPool, part: dict | None = None) -> SourcePages:
    """Render a source's pages in a render worker and write them as PNGs.

    Args:
        path: the source file (PDF or image).
        cache: an existing folder for this source's page images.
        pool: the render workers (``render_pool()``).
        part: the record's ``part`` (a file split into invoices): only its pages are shown.

    Returns:
        The pages, or the error (``timeout``, ``crashed``, or the rasterizer's code: ``encrypted``, ``corrupt``...).
    """
    selection = parse_pages("{}-{}".format(*part["pages"])) if part else None
    raster = RasterSettings(
        max_pixels=SCREEN_PIXELS,
        text_boxes=True,
        pages=selection,
        max_pages=MAX_PAGES,
        ocr=ocr.OcrSettings(mode="auto" if ocr.engine_available() else "never"),
    )
    rendered = pool.render(path, raster=raster)
    if rendered.error is not None:
        return SourcePages(error={"code": rendered.error.code, "message": str(rendered.error)})
    document = rendered.document
    if document is None:
        raise RuntimeError("a render with neither its document nor an error")
    pages = []
    for page, text in zip(document.pages, ocrdecide.page_texts(document.pages), strict=True):  # as the batch reads
        image = cache / f"page-{page.index + 1}.png"
        page.image.save(image)
        pages.append(
            PageView(number=page.index + 1, image=image, size=page.image.size, text=text, warnings=page.warnings)
        )
    return SourcePages(pages=tuple(pages), warnings=document.warnings)
