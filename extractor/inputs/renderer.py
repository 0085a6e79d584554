"""One interface for "open and render a source": ``Renderer``, answered by ``LocalRenderer`` (here, in this process)
or by ``pool.RenderPool`` (in worker processes, isolated and under a time limit), each giving a ``Rendered`` per
source whether it opened or not.

Decisions, in one place:

* **Failures are results.** An input that cannot be read gives a ``Rendered`` with ``error`` set (an
  ``InputError``, or the pool's ``WorkerError``), never an exception, so a batch goes on with the next source.
* **Input order.** ``render_many`` yields one result per source, in order; the pool renders ahead of the caller,
  the local renderer renders each source when it is asked for.
* **Here means no isolation and no time limit**: a crash in pdfium or Pillow takes the process with it, and a hang
  hangs the caller. ``wait_s`` is None for what was rendered here.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from extractor.errors import ExtractorError, InputError
from extractor.inputs.document import Document, RasterSettings
from extractor.inputs.load import load_document


@dataclass(frozen=True)
class Rendered:
    """One source, opened and rendered (or not).

    Attributes:
        source: the source as given.
        document: the rendered document, or None when it failed.
        error: why it failed (``InputError`` or ``WorkerError`` with its code), or None.
        render_s: seconds spent opening and rendering (in the worker, when isolated).
        wait_s: seconds the caller waited for it (0 when it was rendered ahead); None when rendered in the caller.
    """

    source: Any
    document: Document | None = None
    error: ExtractorError | None = None
    render_s: float = 0.0
    wait_s: float | None = None


def render_here(source: Any, *, raster: RasterSettings) -> Rendered:
    """Open and render a source in this process (no isolation, no time limit).

    Args:
        source: a path, the file's bytes, or a PIL image.
        raster: the rasterizer settings.

    Returns:
        The Rendered (``error`` set for an unreadable input).
    """
    start = time.perf_counter()
    try:
        document = load_document(Path(source) if isinstance(source, str) else source, raster=raster)
    except InputError as exc:
        return Rendered(source=source, error=exc, render_s=time.perf_counter() - start)
    return Rendered(source=source, document=document, render_s=time.perf_counter() - start)


R = TypeVar("R", bound="Renderer")


class Renderer(ABC):
    """Opens and renders sources (paths, the files' bytes, or PIL images), one ``Rendered`` each.

    A context manager: leaving the ``with`` block closes it.

    Example:
        >>> with LocalRenderer() as renderer:                                           # doctest: +SKIP
        ...     for rendered in renderer.render_many(paths, raster=RasterSettings()):
        ...         print(rendered.source, rendered.error or len(rendered.document.pages))
    """

    @abstractmethod
    def render(self, source: Any, *, raster: RasterSettings) -> Rendered:
        """Open and render one source.

        Args:
            source: a path, the file's bytes, or a PIL image.
            raster: the rasterizer settings.

        Returns:
            The Rendered (``error`` set for an input that cannot be read).
        """

    def render_many(self, sources: Iterable[Any], *, raster: RasterSettings) -> Iterator[Rendered]:
        """Render sources in input order (this base: each one when the caller asks for it).

        Args:
            sources: paths, bytes or PIL images (consumed lazily).
            raster: the rasterizer settings.

        Yields:
            One Rendered per source, in order.
        """
        for source in sources:
            yield self.render(source, raster=raster)

    def close(self) -> None:  # noqa: B027 - not abstract: a renderer with nothing to release keeps this no-op
        """Release what the renderer holds (this base holds nothing)."""

    def __enter__(self: R) -> R:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalRenderer(Renderer):
    """Renders in this process (``render_here``): no isolation, no time limit, nothing to close."""

    def render(self, source: Any, *, raster: RasterSettings) -> Rendered:
        """Open and render one source here; see ``render_here``."""
        return render_here(source, raster=raster)
