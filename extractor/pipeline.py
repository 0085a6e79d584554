"""The one core: extract one document (pages → prompt → generation → parse → validate → record).

The CLI, the Python API (``Extractor``) and the folder watcher all call ``extract_document`` through ``Extractor``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from .errors import ExtractorError, InputError, ModelError
from .parse import parse_answer
from .prompt import build_messages
from .rasterize import DEFAULT_VISION_TOKENS, Document, RasterSettings, load_document, parse_pages
from .record import Record, Usage, error_record
from .runner import GenerationRequest, Runner
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

    def raster(self, pixels_per_token: int) -> RasterSettings:
        """Return the rasterizer settings for a model with the given pixels per vision token."""
        max_pixels = self.max_pixels or self.vision_tokens * pixels_per_token
        pages = parse_pages(self.pages) if self.pages else None
        return RasterSettings(max_pixels=max_pixels, pages=pages, passwords=self.passwords)


def source_name(source: Source) -> str:
    """Return how a source is named in records: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, Path)):
        return str(source)
    return "<bytes>" if isinstance(source, (bytes, bytearray)) else "<image>"


def extract_document(source: Source, *, runner: Runner, schema: Schema, settings: Settings) -> Record:
    """Extract one document. Never raises for a bad input or a model failure: those become ``error`` records.

    Args:
        source: a path, the file's bytes, or a PIL image.
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.

    Returns:
        The Record.
    """
    start = time.perf_counter()
    base = {"source": source_name(source), "model": runner.model_id, "schema": schema.name}
    try:
        document = load_document(source if not isinstance(source, str) else Path(source),
                                 settings=settings.raster(runner.pixels_per_token))
    except InputError as exc:
        return error_record(**base, code=exc.code, message=str(exc),
                            timings={"total_s": round(time.perf_counter() - start, 4)})
    rendered = time.perf_counter()
    try:
        return _generate_record(document, base=base, runner=runner, schema=schema, settings=settings,
                                timings={"render_s": rendered - start}, start=start)
    except ModelError as exc:
        return error_record(**base, code=exc.code, message=str(exc), sha256=document.sha256,
                            pages=len(document.pages), timings={"total_s": round(time.perf_counter() - start, 4)})


def _generate_record(document: Document, *, base: dict, runner: Runner, schema: Schema, settings: Settings,
                     timings: dict, start: float) -> Record:
    stop = runner.stop_set.without(settings.drop_stop_ids)
    request = GenerationRequest(
        messages=build_messages(schema, pages=len(document.pages)),
        images=tuple(p.image for p in document.pages),
        max_tokens=settings.max_tokens,
        stop=stop,
        temperature=settings.temperature,
        seed=settings.seed,
    )
    gen = runner.generate(request)
    parsed = parse_answer(gen.text)
    schema_errors = validate_data(parsed.value, schema) if parsed.found else []
    verdict = decide(finish_reason=gen.finish_reason, parsed=parsed, schema_errors=schema_errors, guard=gen.guard)
    warnings = tuple({"code": "input", "message": w} for w in document.warnings)
    warnings += tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in document.pages
                      for w in p.warnings)
    timings.update(prefill_s=gen.prefill_s, decode_s=gen.decode_s, total_s=time.perf_counter() - start)
    return Record(
        **base,
        status=verdict.status,
        sha256=document.sha256,
        pages=len(document.pages),
        data=verdict.data,
        errors=verdict.errors,
        warnings=warnings + verdict.warnings,
        finish_reason=gen.finish_reason,
        stop_token_id=gen.stop_token_id,
        stop_token_ids=stop.ids,
        guard=gen.guard,
        usage=Usage(prompt_tokens=gen.prompt_tokens, image_tokens=gen.image_tokens,
                    generated_tokens=gen.generated_tokens),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"stop_sources": stop.to_dict()["sources"], "peak_memory_gb": round(gen.peak_memory_gb, 3)},
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

    def extract(self, source: Source) -> Record:
        """Extract one document.

        Args:
            source: a path, the file's bytes, or a PIL image.

        Returns:
            The Record (``error`` records for unreadable inputs; never raises for a bad document).
        """
        return extract_document(source, runner=self.runner, schema=self.schema, settings=self.settings)

    def extract_many(self, sources: Iterable[Source]) -> Iterator[Record]:
        """Extract documents one after another; one bad file never stops the rest.

        Args:
            sources: paths, bytes or images.

        Yields:
            One Record per source, in order.
        """
        for source in sources:
            yield self.extract(source)


__all__ = ["DEFAULT_MODEL", "Extractor", "ExtractorError", "Settings", "extract_document"]
