"""The Python API: ``Extractor`` loads a model once (or connects to the servers that run it) and extracts many
documents through the one core (``pipeline``)."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TypeVar

from extractor.errors import UsageError
from extractor.inputs.pool import RenderPool, default_workers
from extractor.inputs.renderer import LocalRenderer, Rendered, Renderer
from extractor.pipeline.extract import document_record, extract_document, settings_fingerprint
from extractor.pipeline.job import Source, document_raster
from extractor.pipeline.split import find_parts, model_question, page_spec
from extractor.record import Record, Status, issue
from extractor.runners.base import Runner
from extractor.schema import load_schema, schema_model
from extractor.settings import Settings

PER_ENDPOINT = 2  # default documents in flight per endpoint: one generating, one being sent / prefilled


def load_runner(settings: Settings) -> Runner:
    """The runner the settings ask for: the model's servers (``settings.endpoint``) or mlx-vlm in this process.

    Args:
        settings: the settings (``model``, ``endpoint`` and the server options).

    Returns:
        The runner.

    Raises:
        UsageError: ``api_key_env`` names a variable that is not set.
        ModelError: the model cannot be loaded (or a server does not serve it).
        ExtractorError: (code ``auth``) a server refused the API key.
    """
    if not settings.endpoint:
        from extractor.runners.mlx.runner import MlxRunner

        return MlxRunner(model=settings.model, batch=settings.batch)
    from extractor.runners.openai.runner import OpenAIRunner

    return OpenAIRunner(
        endpoints=settings.endpoint,
        model=settings.model,
        server_kind=settings.server_kind,
        api_key=api_key(settings.api_key_env),
        stop_ids=settings.stop_ids,
        image_format=settings.image_format,
        read_timeout=settings.read_timeout,
    )


def api_key(variable: str | None) -> str | None:
    """The API key from the environment variable named ``variable`` (None: no key).

    Raises:
        UsageError: the variable is not set or empty (its name is said, never a value).
    """
    if variable is None:
        return None
    key = os.environ.get(variable, "")
    if not key:
        raise UsageError(f"--api-key-env {variable}: the environment variable {variable} is not set")
    return key


def open_register(settings: Settings, *, alongside: bool = False):
    """The invoice register of ``settings.register`` (``register.Register``), None without one; ``alongside``:
    beside other tables in one database (the service's store).

    Raises:
        RegisterError: it cannot be opened (exit 2: never a run without the checks asked for).
    """
    if not settings.register:
        return None
    from extractor.register import CheckSettings, Register

    checks = CheckSettings(
        window_days=settings.duplicate_window, require_known_supplier=settings.require_known_supplier
    )
    return Register.open(settings.register, settings=checks, alongside=alongside)


def open_layouts(register, settings: Settings):
    """The learned layouts of ``register``'s tenant (``layouts.store.LayoutStore``); None without a register or
    with ``settings.learn`` ``off``.

    Raises:
        RegisterError: (``LayoutStoreError``) the layout store is from a newer release or corrupt (exit 2).
    """
    if register is None or settings.learn == "off":
        return None
    from extractor.layouts.store import LayoutStore

    return LayoutStore.of(register)


def concurrency_for(settings: Settings, runner: Runner) -> int:
    """Documents in flight at once: ``settings.concurrency`` (default 2 per endpoint) for a remote runner, what a
    batching in-process runner asks for (``in_flight``: its batch, and as many rendered ahead), 1 for one that
    serializes its generations."""
    if not runner.concurrent:
        return 1
    if not settings.endpoint and runner.in_flight:
        return runner.in_flight
    return settings.concurrency or PER_ENDPOINT * max(1, len(settings.endpoint))


class Extractor:
    """Load a model once (or connect to the servers that run it), extract many documents.

    Thread-safe: ``extract`` may be called from several threads; the in-process model serializes its calls, a
    remote runner (or a batching in-process one, ``Settings.batch``) runs them at once. ``extract_many`` keeps
    ``concurrency`` documents in flight with such a runner.

    Example:
        >>> ex = Extractor(model="path/to/model", schema="invoice")       # doctest: +SKIP
        >>> record = ex.extract("samples/invoice-de-einfach.pdf")          # doctest: +SKIP
        >>> record.status, record.data["total"]                            # doctest: +SKIP
    """

    def __init__(self, settings: Settings | None = None, *, runner: Runner | None = None, **overrides) -> None:
        """Load the schema and the model.

        Args:
            settings: every option (``settings.Settings``); None: the defaults.
            runner: an already loaded runner to reuse (default: ``load_runner(settings)``: the endpoints' servers,
                or ``settings.model`` with mlx-vlm here).
            overrides: single settings changed from ``settings``, by name (``Extractor(model=DIR, retries=1)``).

        Raises:
            UsageError: an unknown setting or a bad value (e.g. the page selection).
            SchemaError: the schema cannot be loaded.
            ModelError: the model cannot be loaded.
            ExtractorError: (code ``auth``) a server refused the API key.
        """
        self.settings = (settings or Settings()).replace(**overrides)
        # a Pydantic model as the schema (the class, or ``module:Class`` to import): its JSON Schema is the schema,
        # and each ok / review record's ``parsed`` is an instance of it
        self.model_class = schema_model(self.settings.schema)
        self.schema = load_schema(self.model_class or self.settings.schema)
        self.fingerprint = settings_fingerprint(self.settings, self.schema)
        # the invoice register (``settings.register``), or None: opened before the model, so a bad one fails fast
        self.register = open_register(self.settings)
        # its tenant's learned layouts (``--learn``, docs/learning.md): none without a register or with ``off``
        self.layouts = open_layouts(self.register, self.settings)
        self.runner = runner if runner is not None else load_runner(self.settings)
        self.concurrency = concurrency_for(self.settings, self.runner)
        self._pool: RenderPool | None = None
        self._pool_lock = threading.Lock()

    def _renderer(self) -> Renderer:
        """What renders the documents: the worker pool when ``settings.isolate`` (started on first use, again after
        ``close``), else this process (``LocalRenderer``)."""
        if not self.settings.isolate:
            return LocalRenderer()
        with self._pool_lock:  # extract may be called from several threads
            if self._pool is None:
                self._pool = RenderPool(workers=self.settings.workers, timeout=self.settings.timeout)
            return self._pool

    def extract(self, source: Source) -> Record:
        """Extract one document.

        Args:
            source: a path, the file's bytes, or a PIL image.

        Returns:
            The Record (``error`` records for unreadable inputs; never raises for a bad document). With
            ``settings.split == "auto"`` and a file of several invoices: the first invoice's record, with a
            ``split`` warning naming every part (``extract_parts`` returns them all).
        """
        if self.settings.split == "auto":
            records = self.extract_parts(source)
            if len(records) > 1:  # one record was asked for: the first invoice's, saying there are more
                first = records[0]
                note = issue(
                    "split",
                    f"{first.source} holds {len(records)} invoices (pages "
                    f"{', '.join(_pages(r) for r in records)}); this record is the first; "
                    "Extractor.extract_parts returns one record for each",
                )
                return dataclasses.replace(first, warnings=first.warnings + (note,))
            return records[0]
        return self._typed(self._record(source, renderer=self._renderer()))

    def _record(
        self,
        document: Source | Rendered,
        *,
        renderer: Renderer,
        settings: Settings | None = None,
        layouts: object | None = None,
        fingerprint: str | None = None,
    ) -> Record:
        """One document's record with this extractor's model and schema: a source (rendered by ``renderer``) or one
        already ``Rendered``; ``settings`` and ``layouts`` default to the extractor's, ``fingerprint`` to the
        settings' (``pipeline.extract``)."""
        # one already rendered is made a record; a source is rendered first (extract_document)
        make: Callable[..., Record] = document_record if isinstance(document, Rendered) else extract_document
        return make(
            document,
            runner=self.runner,
            schema=self.schema,
            settings=settings if settings is not None else self.settings,
            renderer=renderer,
            fingerprint=fingerprint,
            layouts=layouts if layouts is not None else self.layouts,
        )

    def _typed(self, record: Record) -> Record:
        """The record with ``parsed``: its data read into the Pydantic model given as the schema (ok and review
        records only). Pydantic can be stricter than the JSON Schema it wrote: then ``parsed`` stays None and a
        ``pydantic_validation`` warning names the first error (the status is the JSON Schema's verdict).
        With a register, checked against it and added first (``register``)."""
        if self.register is not None:
            result = self.register.check_and_add(record)
            record = result.apply(record) if result is not None else record
        if self.model_class is None or record.status not in (Status.OK, Status.REVIEW):
            return record
        from pydantic import ValidationError

        try:
            parsed = self.model_class.model_validate(record.data)  # type: ignore[attr-defined]
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or "data"
            note = issue(
                "pydantic_validation",
                f"{self.model_class.__name__} does not accept the data ({exc.error_count()} error(s)); "
                f"first: {where}: {first.get('msg', '')}",
            )
            return dataclasses.replace(record, warnings=record.warnings + (note,))
        return dataclasses.replace(record, parsed=parsed)

    def extract_parts(self, source: Source, *, layouts: object | None = None) -> tuple[Record, ...]:
        """Extract one file as the invoices it holds (``settings.split == "auto"``, ``split``).

        Args:
            source: a path or the file's bytes (a PIL image is one document).
            layouts: the learned layouts to read it by (a service tenant's, ``layouts.store.LayoutStore``); None:
                this Extractor's own (its register's, ``open_layouts``).

        Returns:
            One record per invoice, in page order, each with ``part`` (``{"index", "of", "pages": [first,
            last]}``); a file that holds one invoice (or ``split == "never"``) gives one record without ``part``,
            the record ``extract`` would give.
        """
        renderer = self._renderer()
        parts = None
        if self.settings.split == "auto" and isinstance(source, (str, Path, bytes, bytearray)):
            parts = find_parts(
                source,
                render=lambda raster: renderer.render(source, raster=raster),
                raster=document_raster(self.settings, self.runner),
                questions=self.settings.split_questions,
                **self._split_question(),
            )
        if parts is None:
            return (self._typed(self._record(source, renderer=renderer, layouts=layouts)),)
        records = []
        for index, numbers in enumerate(parts.pages, 1):
            settings = self.settings.replace(pages=page_spec(numbers))
            record = self._record(
                source,
                renderer=renderer,
                settings=settings,
                layouts=layouts,
                fingerprint=self.fingerprint,  # the file's settings, not the part's pages
            )
            part = parts.entry(index)
            records.append(
                self._typed(
                    dataclasses.replace(
                        record,
                        warnings=record.warnings + parts.warnings,
                        extra={**record.extra, "part": part.to_dict()},
                    )
                )
            )
        return tuple(records)

    def _split_question(self) -> dict:
        """``find_parts``' model question: the in-process runner's (it can constrain the answer to one boolean),
        or why there is none (endpoints)."""
        if self.runner.tokenizer is None:
            return {"no_question": f"no in-process model to ask (runner {type(self.runner).__name__})"}
        return {"question": model_question(self.runner, self.settings)}

    def extract_parts_as_done(self, sources: Iterable[Source]) -> Generator[tuple[int, tuple[Record, ...]], None, None]:
        """Like ``extract_as_done``, with each file's records together (``extract_parts``; one record per file
        unless ``settings.split == "auto"``, then the files are extracted one at a time).

        Yields:
            ``(index of the source, its records)``.
        """
        if self.settings.split != "auto":
            for index, record in self.extract_as_done(sources):
                yield index, (record,)
            return
        for index, source in enumerate(sources):
            yield index, self.extract_parts(source)

    def extract_many(self, sources: Iterable[Source]) -> Iterator[Record]:
        """Extract documents; one bad file never stops the rest.

        When isolated, the next documents render in the workers while the model generates for the current one;
        with a remote or batching runner ``concurrency`` documents are in flight at once (not isolated, they render
        on ``settings.workers`` threads, started in input order, ahead of the model).

        Args:
            sources: paths, bytes or images.

        Yields:
            One Record per source, in order.
        """
        return in_input_order(self.extract_as_done(sources))

    def extract_as_done(self, sources: Iterable[Source]) -> Generator[tuple[int, Record], None, None]:
        """Extract documents, ``concurrency`` at a time, and yield each record as soon as it is done.

        Args:
            sources: paths, bytes or images.

        Yields:
            ``(index of the source, record)``, in the order the documents finish (input order when one at a time).
        """
        if self.concurrency == 1:
            yield from enumerate(work() for work in self._work(sources))
            return
        executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="extract")
        running: dict[Future, int] = {}
        try:
            for index, work in enumerate(self._work(sources)):
                running[executor.submit(work)] = index
                if len(running) >= self.concurrency:
                    yield from _finished(running)
            while running:
                yield from _finished(running)
        finally:
            # an error or an early stop: documents not started are dropped (running ones end on their own)
            executor.shutdown(wait=not running, cancel_futures=True)

    def _work(self, sources: Iterable[Source]):
        """One callable per source, which extracts it: rendered ahead in the pool when isolated (in input order,
        while earlier documents generate), on render threads when several are in flight, else rendered by the
        callable itself."""
        if self.settings.split == "auto" or (not self.settings.isolate and self.concurrency == 1):
            for source in sources:  # split: the text pass comes first; one at a time here: nothing to render ahead
                yield lambda source=source: self.extract(source)
            return
        raster = document_raster(self.settings, self.runner, first_window=True)  # a long document: its first window
        renderer = self._renderer()
        if not self.settings.isolate:
            yield from self._rendered_in_order(sources, raster, renderer)
            return
        for rendered in renderer.render_many(sources, raster=raster):
            yield lambda rendered=rendered: self._typed(self._record(rendered, renderer=renderer))

    def _rendered_in_order(self, sources: Iterable[Source], raster, renderer: Renderer):
        """Not isolated, several documents in flight: they are rendered in this process, started in input order on
        ``settings.workers`` render threads (default: the usable cores, at most 4), so the first ones reach the
        model first (every in-flight document rendering at once, the batch's first documents waited ~15 s for
        theirs on 2 cores); each callable waits for its render."""
        threads = ThreadPoolExecutor(
            max_workers=self.settings.workers or default_workers(), thread_name_prefix="render"
        )
        try:
            for source in sources:
                future = threads.submit(renderer.render, source, raster=raster)
                yield lambda future=future: self._typed(self._record(future.result(), renderer=renderer))
        finally:
            threads.shutdown(wait=False)  # renders already queued finish: their documents may be running

    @staticmethod
    def einvoice(record: Record, fmt: str) -> bytes:
        """A record's invoice as an e-invoice file: ``cii`` / ``ubl`` XML, or for ``facturx`` its source PDF
        carrying the CII. Made with ``einvoice=(fmt,)`` in the settings, it is exactly the file the record's
        ``einvoice`` entry was checked on (the same sha256); ``extract run --einvoice FMT --out`` writes the same.

        Raises:
            ValueError: an unknown format, or a record without data.
            EinvoiceWriteError: no Factur-X PDF for this record (not a PDF, or already an e-invoice PDF).
        """
        from extractor.einvoice.record_xml import einvoice_bytes  # lxml / factur-x only when asked for

        return einvoice_bytes(record, fmt)

    def close(self) -> None:
        """Stop the render workers, if any (the model stays loaded, the servers' connections stay open; a later
        call starts new workers)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
        if self.register is not None:
            self.register.close()

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pages(record: Record) -> str:
    part = record.part
    assert part is not None  # every record of a split file names its part
    first, last = part.pages
    return str(first) if first == last else f"{first}-{last}"


Done = TypeVar("Done")  # what a document gave: its record, or a split file's records


def in_input_order(
    results: Generator[tuple[int, Done], None, None], *, on_arrival: Callable[[Done], None] | None = None
) -> Generator[Done, None, None]:
    """The records of ``Extractor.extract_as_done`` (or ``extract_parts_as_done``) in input order (one that
    finishes early waits for the ones before it); ``on_arrival`` sees each the moment it is done. Closing this
    closes ``results``."""
    waiting: dict[int, Done] = {}
    position = 0
    try:
        for index, record in results:
            if on_arrival is not None:
                on_arrival(record)
            waiting[index] = record
            while position in waiting:
                yield waiting.pop(position)
                position += 1
    finally:
        results.close()  # an error or an early stop: documents not started are dropped


def _finished(running: dict[Future, int]) -> Iterator[tuple[int, Record]]:
    """Wait for at least one running document; take the finished ones out of ``running`` and yield them (in input
    order among themselves). A document's unexpected exception is raised here."""
    done, _ = wait(running, return_when=FIRST_COMPLETED)
    for future in sorted(done, key=lambda f: running[f]):
        yield running.pop(future), future.result()


__all__ = [
    "Extractor",
    "Source",
    "api_key",
    "concurrency_for",
    "in_input_order",
    "load_runner",
    "open_layouts",
    "open_register",
]
