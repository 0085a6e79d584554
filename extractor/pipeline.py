"""The one core: extract one document (pages → prompt → generation → parse → validate → record).

The CLI, the Python API (``Extractor``) and the folder watcher all call ``extract_document`` through ``Extractor``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Sequence, Union

from .constrain import plan_constraint
from .einvoice import EmbeddedInvoice, read_embedded_invoice
from .errors import ExtractorError, InputError, ModelError
from .guards import GuardSettings
from .parse import parse_answer
from .prompt import build_messages
from .isolate import DEFAULT_TIMEOUT, Rendered, RenderPool, render_here
from .rasterize import (DEFAULT_MAX_BYTES, DEFAULT_MAX_PAGES, DEFAULT_VISION_TOKENS, Document, RasterSettings,
                        display_name, parse_pages)
from .record import Record, Usage, error_record, issue
from .retry import Attempt, run_with_retries
from .review import apply_review, disagreements
from .runner import GenerationRequest, LogitsProcessor, Runner
from .validate import Schema, load_schema, validate_data
from .verdict import decide

DEFAULT_MODEL = "mlx-community/lift-oQ3"

Source = Union[str, Path, bytes, "PIL.Image.Image"]  # noqa: F821 - PIL imported lazily


@dataclass(frozen=True)
class Settings:
    """Everything that shapes one extraction (all have documented defaults).

    Attributes:
        model: local model directory or cached hub id.
        schema: ``invoice``, ``receipt`` or a schema file path.
        max_tokens: cap on generated tokens per document.
        vision_tokens: vision-token budget per page (converted to pixels with the model's patch and merge sizes).
        max_pixels: explicit pixel budget per page; overrides ``vision_tokens``.
        pages: page selection such as ``1-3,5`` (None: all pages).
        passwords: passwords to try, in order, for encrypted PDFs.
        temperature: sampling temperature (0: greedy).
        seed: sampling seed.
        drop_stop_ids: ids removed from the resolved stop set; for diagnosis only (reproduces a broken config).
        guards: runaway guards (end marker as text, JSON closed, loops) and their thresholds; all on by default.
        constrained: JSON-Schema-constrained decoding (llguidance grammar; see ``constrain``). On by default: the
            answer always parses and ends on a stop token, for ~1 ms of masking per token and ~2-3 s once.
        isolate: open and render in worker processes (``isolate.RenderPool``), so a crash, hang or memory blow-up
            in pdfium/Pillow costs one record; used by ``Extractor`` (the CLI turns it on; off by default here,
            so the library starts no processes unless asked).
        timeout: seconds one document may take to open and render (default 60); enforced only when isolated.
        workers: render worker processes (None: the usable cores, at most 4).
        max_pages: pages rendered per document at most (default 50); the rest are skipped with a warning.
        max_bytes: larger input files fail with ``too_large`` (default 200 MiB).
        retries: how many times a failed answer may be asked again in total (``retry``: ``invalid`` once with
            the errors as feedback, ``truncated`` with max_tokens doubled up to 4x, ``runaway`` once with tighter
            guards). 0 here, so a library call is one generation unless asked; the CLI's ``--retries`` defaults to 1.
        embedded: use the XML of a ZUGFeRD / Factur-X / XRechnung PDF as the answer when it is schema-valid
            (invoice schema only; zero tokens); False always asks the model.
        cross_check: with valid embedded XML, also run the model and list every field where the two disagree
            (``extra["cross_check"]``); the answer stays the XML's.
        extra_processors: called with the attempt number (1 = first) before each generation; the logits
            processors it returns run after the schema constraint's (logit biases, forced answers in tests).
    """

    model: str = DEFAULT_MODEL
    schema: str = "invoice"
    max_tokens: int = 2048
    vision_tokens: int = DEFAULT_VISION_TOKENS
    max_pixels: Optional[int] = None
    pages: Optional[str] = None
    passwords: tuple[str, ...] = ()
    temperature: float = 0.0
    seed: Optional[int] = None
    drop_stop_ids: tuple[int, ...] = ()
    guards: GuardSettings = GuardSettings()
    constrained: bool = True
    isolate: bool = False
    timeout: float = DEFAULT_TIMEOUT
    workers: Optional[int] = None
    max_pages: int = DEFAULT_MAX_PAGES
    max_bytes: int = DEFAULT_MAX_BYTES
    retries: int = 0
    embedded: bool = True
    cross_check: bool = False
    extra_processors: Optional[Callable[[int], Sequence[LogitsProcessor]]] = None

    def raster(self, pixels_per_token: int) -> RasterSettings:
        """Return the rasterizer settings for a model with the given pixels per vision token."""
        max_pixels = self.max_pixels or self.vision_tokens * pixels_per_token
        pages = parse_pages(self.pages) if self.pages else None
        return RasterSettings(max_pixels=max_pixels, pages=pages, passwords=self.passwords,
                              max_pages=self.max_pages, max_bytes=self.max_bytes)


def source_name(source: Source) -> str:
    """Return how a source is named in records: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, Path)):
        return display_name(source)  # the path as given; bytes of a non-UTF-8 file name as \xNN
    return "<bytes>" if isinstance(source, (bytes, bytearray)) else "<image>"


def extract_document(source: Source, *, runner: Runner, schema: Schema, settings: Settings,
                     pool: Optional[RenderPool] = None) -> Record:
    """Extract one document. Never raises for a bad input or a model failure: those become ``error`` records.

    Args:
        source: a path, the file's bytes, or a PIL image.
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.
        pool: render in these worker processes (isolated, with ``settings.timeout``); None: in this process.

    Returns:
        The Record.
    """
    raster = settings.raster(runner.pixels_per_token)
    if pool is not None:
        rendered = pool.render(source, settings=raster)
    else:
        rendered = render_here(source, settings=raster)
    return document_record(rendered, runner=runner, schema=schema, settings=settings)


def document_record(rendered: Rendered, *, runner: Runner, schema: Schema, settings: Settings) -> Record:
    """Turn a rendered source into its record: embedded e-invoice XML or generate (with retries), parse,
    validate, review (or an ``error`` record).

    Args:
        rendered: the source after opening and rendering (``isolate.render_here`` or a ``RenderPool``).
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.

    Returns:
        The Record; ``timings.render_s`` is the rendering time (in the worker when isolated) and, when isolated,
        ``timings.render_wait_s`` how long generation waited for it (0 when it was rendered ahead).
    """
    start = time.perf_counter() - rendered.render_s  # the document's own work: rendering, then generation
    base = {"source": source_name(rendered.source), "model": runner.model_id, "schema": schema.name}
    stop_ids = runner.stop_set.without(settings.drop_stop_ids).ids
    if rendered.error is not None:
        return error_record(**base, code=rendered.error.code, message=str(rendered.error), stop_token_ids=stop_ids,
                            timings={"total_s": round(rendered.render_s, 4)})
    document = rendered.document
    timings = {"render_s": rendered.render_s}
    if rendered.wait_s is not None:
        timings["render_wait_s"] = rendered.wait_s
    try:
        return _answer_record(rendered.source, document, base=base, runner=runner, schema=schema,
                              settings=settings, timings=timings, start=start)
    except ModelError as exc:
        return error_record(**base, code=exc.code, message=str(exc), sha256=document.sha256, stop_token_ids=stop_ids,
                            pages=len(document.pages), timings={"total_s": round(time.perf_counter() - start, 4)})


def _answer_record(source: Source, document: Document, *, base: dict, runner: Runner, schema: Schema,
                   settings: Settings, timings: dict, start: float) -> Record:
    """The answer for a rendered document: valid embedded e-invoice XML, else the model with retries; reviewed."""
    texts = [p.text for p in document.pages]
    stop_ids = runner.stop_set.without(settings.drop_stop_ids).ids  # every record reports it, XML answers too
    embedded, notes = _embedded_invoice(source, document, schema=schema, settings=settings)
    use_xml = embedded is not None and embedded.valid
    if use_xml and not settings.cross_check:
        record = _embedded_record(document, embedded, base=base, timings=timings, start=start, stop_ids=stop_ids)
        return apply_review(record, texts)

    def generate(attempt: Attempt) -> Record:
        return _generate_record(document, base=base, runner=runner, schema=schema, settings=settings,
                                timings=timings, start=start, attempt=attempt)

    try:
        model = run_with_retries(generate, max_tokens=settings.max_tokens, guards=settings.guards,
                                 retries=settings.retries)
    except ModelError as exc:
        if not use_xml:
            raise
        # the XML is the answer; a failed cross-check costs the comparison, not the record
        record = _embedded_record(document, embedded, base=base, timings=timings, start=start, stop_ids=stop_ids)
        return apply_review(dataclasses.replace(record, extra={
            **record.extra, "cross_check": None, "cross_check_error": issue(exc.code, str(exc))}), texts)
    if use_xml:
        record = dataclasses.replace(model, status="ok", data=embedded.data, errors=(), extra={
            **model.extra, "data_source": "embedded_xml", "embedded": embedded.to_dict(),
            "cross_check": disagreements(embedded.data, model.data), "model_status": model.status})
        return apply_review(record, texts)
    extra = {**model.extra, "data_source": "model"}
    if embedded is not None:
        extra["embedded"] = embedded.to_dict()
        notes += (issue("embedded_invalid", f"the embedded e-invoice XML ({embedded.attachment or 'attachment'}) "
                        f"does not fit the invoice schema ({len(embedded.schema_errors)} errors, see "
                        "embedded.schema_errors); the model read the pages instead"),)
    return apply_review(dataclasses.replace(model, warnings=model.warnings + notes, extra=extra), texts)


def _embedded_invoice(source: Source, document: Document, *, schema: Schema,
                      settings: Settings) -> tuple[Optional[EmbeddedInvoice], tuple[dict, ...]]:
    """The e-invoice XML a rendered PDF carries, if it is looked for (invoice schema, ``settings.embedded``).

    Read only after rendering succeeded, from the same bytes (checked by hash): a file replaced in between is
    not mixed with another file's pages. Returns the invoice (or None) and warnings on why it could not be read.
    """
    if not settings.embedded or schema.name != "invoice" or document.kind != "pdf":
        return None, ()
    if isinstance(source, (str, Path)):
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            return None, (issue("embedded_unreadable", f"{source}: cannot read the file again to look for "
                                                       f"embedded e-invoice XML ({exc.strerror or exc})"),)
    elif isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        return None, ()
    if hashlib.sha256(data).hexdigest() != document.sha256:
        return None, (issue("embedded_unreadable", f"{source_name(source)}: the file changed after it was "
                                                   "rendered; embedded e-invoice XML not looked for"),)
    try:
        return read_embedded_invoice(data), ()
    except InputError as exc:
        return None, (issue("embedded_unreadable", f"{source_name(source)}: embedded e-invoice XML could not be "
                                                   f"read ({exc})"),)


def _embedded_record(document: Document, embedded: EmbeddedInvoice, *, base: dict, timings: dict, start: float,
                     stop_ids: tuple[int, ...]) -> Record:
    """A record whose answer is the embedded XML's data: no generation, zero tokens, status ok before review."""
    timings = {**timings, "total_s": time.perf_counter() - start}
    return Record(
        **base,
        status="ok",
        sha256=document.sha256,
        pages=len(document.pages),
        data=embedded.data,
        stop_token_ids=stop_ids,
        warnings=_document_warnings(document),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"data_source": "embedded_xml", "embedded": embedded.to_dict(), "attempts": []},
    )


def _document_warnings(document: Document) -> tuple[dict, ...]:
    """The rasterizer's notes on the document and its pages, as warnings."""
    warnings = tuple({"code": "input", "message": w} for w in document.warnings)
    return warnings + tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in document.pages
                            for w in p.warnings)


def _generate_record(document: Document, *, base: dict, runner: Runner, schema: Schema, settings: Settings,
                     timings: dict, start: float, attempt: Attempt) -> Record:
    stop = runner.stop_set.without(settings.drop_stop_ids)
    constraint = plan_constraint(runner, schema=schema.schema, stop=stop, enabled=settings.constrained)
    request = GenerationRequest(
        messages=build_messages(schema, pages=len(document.pages), feedback=attempt.feedback),
        images=tuple(p.image for p in document.pages),
        max_tokens=attempt.max_tokens,
        stop=stop,
        temperature=settings.temperature,
        seed=settings.seed,
        monitor_factory=attempt.guards.factory(stop_texts=stop.texts),
        logits_processors=constraint.processors + tuple(
            settings.extra_processors(attempt.number) if settings.extra_processors else ()),
    )
    gen = runner.generate(request)
    parsed = parse_answer(gen.text)
    schema_errors = validate_data(parsed.value, schema) if parsed.found else []
    verdict = decide(finish_reason=gen.finish_reason, parsed=parsed, schema_errors=schema_errors, guard=gen.guard)
    warnings = _document_warnings(document)
    timings.update(prefill_s=gen.prefill_s, decode_s=gen.decode_s, total_s=time.perf_counter() - start)
    return Record(
        **base,
        status=verdict.status,
        sha256=document.sha256,
        pages=len(document.pages),
        data=verdict.data,
        errors=verdict.errors,
        warnings=warnings + constraint.warnings + verdict.warnings,
        finish_reason=gen.finish_reason,
        stop_token_id=gen.stop_token_id,
        stop_token_ids=stop.ids,
        guard=gen.guard,
        usage=Usage(prompt_tokens=gen.prompt_tokens, image_tokens=gen.image_tokens,
                    generated_tokens=gen.generated_tokens),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"stop_sources": stop.to_dict()["sources"], "peak_memory_gb": round(gen.peak_memory_gb, 3),
               "guards": attempt.guards.report(fired=gen.guard), **constraint.extra},
    )


class Extractor:
    """The Python API: load a model once, extract many documents.

    Thread-safe: ``extract`` may be called from several threads; model calls are serialized inside the runner.

    Example:
        >>> ex = Extractor(model="path/to/model", schema="invoice")       # doctest: +SKIP
        >>> record = ex.extract("samples/invoice-de-einfach.pdf")          # doctest: +SKIP
        >>> record.status, record.data["total"]                            # doctest: +SKIP
    """

    def __init__(self, *, model: str = DEFAULT_MODEL, schema: str = "invoice", max_tokens: int = 2048,
                 vision_tokens: int = DEFAULT_VISION_TOKENS, max_pixels: Optional[int] = None,
                 pages: Optional[str] = None, passwords: Iterable[str] = (), temperature: float = 0.0,
                 seed: Optional[int] = None, drop_stop_ids: Iterable[int] = (), runner: Optional[Runner] = None,
                 settings: Optional[Settings] = None) -> None:
        """Load the schema and the model.

        Args:
            model: local model directory or cached hub id.
            schema: ``invoice``, ``receipt`` or a JSON Schema file.
            max_tokens: cap on generated tokens per document.
            vision_tokens: per-page vision-token budget.
            max_pixels: per-page pixel budget (overrides vision_tokens).
            pages: page selection (``1-3,5``).
            passwords: passwords to try for encrypted PDFs.
            temperature: sampling temperature.
            seed: sampling seed.
            drop_stop_ids: diagnosis only: ids removed from the stop set.
            runner: an already loaded runner to reuse (default: load ``model`` with mlx-vlm).
            settings: a complete Settings (overrides the individual options above).

        Raises:
            SchemaError: the schema cannot be loaded.
            ModelError: the model cannot be loaded.
            UsageError: a bad option (e.g. the page selection).
        """
        self.settings = settings or Settings(
            model=model, schema=schema, max_tokens=max_tokens, vision_tokens=vision_tokens, max_pixels=max_pixels,
            pages=pages, passwords=tuple(passwords), temperature=temperature, seed=seed,
            drop_stop_ids=tuple(drop_stop_ids))
        if self.settings.pages:
            parse_pages(self.settings.pages)  # fail fast on a bad selection
        self.schema = load_schema(self.settings.schema)
        if runner is None:
            from .mlx_runner import MlxRunner

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


__all__ = ["DEFAULT_MODEL", "Extractor", "ExtractorError", "Settings", "document_record", "extract_document"]
