"""One document's job: what every step of its way reads (the model, the schema, the settings, the renderer its pages
are rendered by), held once and passed down whole (``DocumentJob``), instead of the same nine arguments at every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from extractor.inputs.discover import display_name
from extractor.inputs.document import RasterSettings
from extractor.inputs.renderer import Rendered, Renderer
from extractor.pipeline import windows
from extractor.runners.base import Runner
from extractor.schema import Schema
from extractor.settings import Settings

if TYPE_CHECKING:  # PIL is imported lazily, where an image is made
    import PIL.Image

Source = Union[str, Path, bytes, "PIL.Image.Image"]


def source_name(source: Source) -> str:
    """Return how a source is named in records: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, Path)):
        return display_name(source)  # the path as given; bytes of a non-UTF-8 file name as \xNN
    return "<bytes>" if isinstance(source, (bytes, bytearray)) else "<image>"


def document_raster(settings: Settings, runner: Runner, *, first_window: bool = False) -> RasterSettings:
    """A document's rasterizer settings for this runner: the one way the pipeline gets them.

    Args:
        settings: the options (pixel budget, pages, passwords, limits, OCR).
        runner: the loaded model (its pixels per vision token, and the most pixels a page can use).
        first_window: the settings of a document's first render: its first window's pages at most, when it is long
            (``windows``: the later windows are rendered one by one as their turn comes).
    """
    raster = settings.raster(runner.pixels_per_token, page_pixels=runner.max_page_pixels)
    if first_window:
        return windows.cap_to_first_window(raster, settings, pixels_per_token=runner.pixels_per_token)
    return raster


@dataclass(frozen=True)
class DocumentJob:
    """One document on its way to its record: everything its steps read, fixed once its first render is done.

    Attributes:
        source: the document as given (a path, the file's bytes, or a PIL image).
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.
        renderer: what renders its pages again (a long document's windows): the worker pool (``inputs.pool``) or
            this process (``inputs.renderer.LocalRenderer``), as its first render.
        start: ``time.perf_counter()`` when the document's own work began (its first render included).
        layouts: the tenant's learned layouts (``layouts.store.LayoutStore``, with a register and ``--learn`` not
            ``off``), None: none (``pipeline.learned``).
    """

    source: Source
    runner: Runner
    schema: Schema
    settings: Settings
    renderer: Renderer
    start: float
    layouts: Any = None

    @property
    def base(self) -> dict:
        """The fields every record of this document starts with: ``source``, ``model``, ``schema``."""
        return {"source": source_name(self.source), "model": self.runner.model_id, "schema": self.schema.name}

    @property
    def stop_ids(self) -> tuple[int, ...]:
        """The resolved stop set's ids, less ``drop_stop_ids`` (every record reports them, even when no model ran)."""
        return self.runner.stop_set.without(self.settings.drop_stop_ids).ids

    @property
    def raster(self) -> RasterSettings:
        """The document's rasterizer settings (``document_raster``)."""
        return document_raster(self.settings, self.runner)

    def render(self, raster: RasterSettings) -> Rendered:
        """Render this document again with other rasterizer settings (a window's pages), by its renderer."""
        return self.renderer.render(self.source, raster=raster)


__all__ = ["DocumentJob", "Source", "document_raster", "source_name"]
