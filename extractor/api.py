"""The Python API: ``Extractor`` loads a model once and extracts many documents through the one core
(``pipeline``)."""

from __future__ import annotations

import threading
from typing import Iterable, Iterator, Optional

from .isolate import RenderPool
from .pipeline import Source, document_record, extract_document, settings_fingerprint
from .record import Record
from .runner import Runner
from .settings import Settings
from .validate import load_schema


class Extractor:
    """Load a model once, extract many documents.

    Thread-safe: ``extract`` may be called from several threads; model calls are serialized inside the runner.

    Example:
        >>> ex = Extractor(model="path/to/model", schema="invoice")       # doctest: +SKIP
        >>> record = ex.extract("samples/invoice-de-einfach.pdf")          # doctest: +SKIP
        >>> record.status, record.data["total"]                            # doctest: +SKIP
    """

    def __init__(self, settings: Optional[Settings] = None, *, runner: Optional[Runner] = None,
                 **overrides) -> None:
        """Load the schema and the model.

        Args:
            settings: every option (``settings.Settings``); None: the defaults.
            runner: an already loaded runner to reuse (default: load ``settings.model`` with mlx-vlm).
            overrides: single settings changed from ``settings``, by name (``Extractor(model=DIR, retries=1)``).

        Raises:
            UsageError: an unknown setting or a bad value (e.g. the page selection).
            SchemaError: the schema cannot be loaded.
            ModelError: the model cannot be loaded.
        """
        self.settings = (settings or Settings()).replace(**overrides)
        self.schema = load_schema(self.settings.schema)
        self.fingerprint = settings_fingerprint(self.settings, self.schema)
        if runner is None:
            from .runners.mlx import MlxRunner

            runner = MlxRunner(model=self.settings.model)
        self.runner = runner
        self._pool: Optional[RenderPool] = None
        self._pool_lock = threading.Lock()

    def _render_pool(self) -> Optional[RenderPool]:
        """The worker pool when ``settings.isolate`` (started on first use), else None."""
        with self._pool_lock:  # extract may be called from several threads
            if self.settings.isolate and self._pool is None:
                self._pool = RenderPool(workers=self.settings.workers, timeout=self.settings.timeout)
            return self._pool

    def extract(self, source: Source) -> Record:
        """Extract one document.

        Args:
            source: a path, the file's bytes, or a PIL image.

        Returns:
            The Record (``error`` records for unreadable inputs; never raises for a bad document).
        """
        return extract_document(source, runner=self.runner, schema=self.schema, settings=self.settings,
                                pool=self._render_pool())

    def extract_many(self, sources: Iterable[Source]) -> Iterator[Record]:
        """Extract documents one after another; one bad file never stops the rest.

        When isolated, the next documents render in the workers while the model generates for the current one.

        Args:
            sources: paths, bytes or images.

        Yields:
            One Record per source, in order.
        """
        pool = self._render_pool()
        if pool is None:
            for source in sources:
                yield self.extract(source)
            return
        for rendered in pool.render_many(sources, settings=self.settings.raster(self.runner.pixels_per_token)):
            yield document_record(rendered, runner=self.runner, schema=self.schema, settings=self.settings)

    def close(self) -> None:
        """Stop the render workers, if any (the model stays loaded; a later call starts new workers)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def __enter__(self) -> "Extractor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["Extractor", "Source"]
