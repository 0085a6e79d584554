"""A record's source pages for the review page: rendered at screen resolution, with the text layer's word boxes.

The source is read in a child process (``python -m extractor.reviewing.pages``), as the batch reads it in a render
worker: a hostile PDF that crashes pdfium, hangs or eats memory costs that child (an error shown on the record's
page), never the server. The child renders with ``rasterize.load_document`` (OCR as ``--ocr auto`` where the
engine is installed), writes one PNG per page into the server's cache folder and answers with JSON on stdout:
each page's size, text layer, OCR lines and text-layer lines with word boxes (``rasterize.text_lines``).
(``isolate.RenderPool`` would serve as well once its frames carry the text-layer words.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .. import ocr
from ..grounding import PageText
from ..rasterize import TextLine, TextWord

SCREEN_PIXELS = 1100 * 1560  # an A4 page about 1,100 px wide: sharp on a laptop screen, ~0.3 s to render
TIMEOUT_S = 60.0
MEMORY_LIMIT = 2 * 1024**3  # as a batch render worker


@dataclass(frozen=True)
class PageView:
    """One rendered page of a source.

    Attributes:
        number: 1-based page number in the source.
        image: the PNG file in the cache folder.
        size: the image's (width, height) in pixels.
        text: the grounding text of the page (text layer with word boxes, or OCR text with its boxes).
        warnings: the rasterizer's notes about the page.
    """

    number: int
    image: Path
    size: tuple[int, int]
    text: PageText
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The page for the JSON API (without its text)."""
        return {"number": self.number, "size": list(self.size), "source": self.text.source,
                "warnings": list(self.warnings)}


@dataclass(frozen=True)
class SourcePages:
    """A source's pages, or why there are none.

    Attributes:
        pages: the rendered pages.
        error: ``{"code", "message"}`` when the source could not be read (the record's page shows it).
        warnings: the rasterizer's notes about the whole document.
    """

    pages: tuple[PageView, ...] = ()
    error: Optional[dict] = None
    warnings: tuple[str, ...] = ()


def read_pages(path: Path, *, cache: Path, timeout: float = TIMEOUT_S) -> SourcePages:
    """Render a source's pages in a child process.

    Args:
        path: the source file (PDF or image).
        cache: an existing folder for this source's page images.
        timeout: seconds the child may take.

    Returns:
        The pages, or the error (``timeout``, ``crashed``, or the rasterizer's code: ``encrypted``, ``corrupt``...).
    """
    request = {"path": str(path), "cache": str(cache), "max_pixels": SCREEN_PIXELS,
               "ocr": "auto" if ocr.engine_available() else "never"}
    try:
        done = subprocess.run([sys.executable, "-m", "extractor.reviewing.pages"], input=json.dumps(request),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return SourcePages(error={"code": "timeout", "message": f"{path.name}: rendering took over {timeout:g} s"})
    try:
        reply = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        why = f"signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
        return SourcePages(error={"code": "crashed", "message": f"{path.name}: the renderer died ({why})"})
    if reply.get("error"):
        return SourcePages(error=reply["error"])
    return SourcePages(pages=tuple(_page_from_json(item, cache) for item in reply["pages"]),
                       warnings=tuple(reply.get("warnings", ())))


def _page_from_json(item: dict, cache: Path) -> PageView:
    layer = tuple(TextLine(text=line["text"], box=tuple(line["box"]),
                           words=tuple(TextWord(w["text"], tuple(w["box"])) for w in line["words"]))
                  for line in item["lines"])
    read = None if item["ocr"] is None else ocr.OcrPage.from_dict(item["ocr"])
    text = ocr.page_text(item["text"], read)
    if text.source == "text_layer":
        text = PageText(text=text.text, source="text_layer", lines=layer)
    return PageView(number=int(item["number"]), image=cache / f"page-{int(item['number'])}.png",
                    size=(int(item["size"][0]), int(item["size"][1])), text=text, warnings=tuple(item["warnings"]))


# ---------------------------------------------------------------------------------------------------------- child


def _child() -> dict:
    """Render the requested source (in the child process) and describe its pages."""
    import resource

    from ..errors import ExtractorError
    from ..rasterize import RasterSettings, load_document

    request = json.loads(sys.stdin.read())
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):  # not enforceable here (macOS): render without the limit
        pass
    path, cache = Path(request["path"]), Path(request["cache"])
    settings = RasterSettings(max_pixels=int(request["max_pixels"]), ocr=ocr.OcrSettings(mode=request["ocr"]))
    try:
        document = load_document(path, settings=settings)
        layers = _text_layers(path, document) if document.kind == "pdf" else {}
    except ExtractorError as exc:
        return {"error": {"code": exc.code, "message": str(exc)}}
    except MemoryError:
        return {"error": {"code": "too_large", "message": f"{path.name}: rendering needs more than 2 GiB"}}
    pages = []
    for page in document.pages:
        page.image.save(cache / f"page-{page.index + 1}.png")
        pages.append({"number": page.index + 1, "size": list(page.image.size), "text": page.text,
                      "warnings": list(page.warnings), "ocr": None if page.ocr is None else page.ocr.to_dict(),
                      "lines": [{"text": line.text, "box": line.box,
                                 "words": [{"text": w.text, "box": w.box} for w in line.words]}
                                for line in layers.get(page.index, ())]})
    return {"pages": pages, "warnings": list(document.warnings)}


def _text_layers(path: Path, document) -> dict[int, tuple]:
    """The text-layer lines of the rendered pages (a page whose layer cannot be read has none)."""
    import pypdfium2 as pdfium

    from ..rasterize import text_lines

    out = {}
    pdf = pdfium.PdfDocument(path)
    try:
        for page in document.pages:
            handle = pdf[page.index]
            try:
                out[page.index] = text_lines(handle)
            except Exception:  # noqa: BLE001 - boxes are optional: the page still shows, without them
                out[page.index] = ()
            finally:
                handle.close()
    finally:
        pdf.close()
    return out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(_child()) + "\n")
