"""The one core: one document's way from its rendered pages to its record.

render (``inputs.renderer``: in worker processes or here) → embedded e-invoice XML (``einvoice``) or the model: prompt
(``prompt``), constraint (``constrain``), generation with the stop set and guards (``runners``), parse, validate,
verdict, retries (``retry``) → review (``review``: checks and grounding) → record. The CLI, the Python API
(``api.Extractor``) and the folder watcher all come through here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Optional, Union

from extractor.runners.constrain.plan import plan_constraint
from extractor.inputs.embedded import EmbeddedInvoice, read_embedded_invoice
from extractor.errors import InputError, ModelError
from extractor.inputs.pool import RenderPool
from extractor.inputs.renderer import Rendered, render_here
from extractor.inputs.ocr import page_text
from extractor.trust.parse import parse_answer
from extractor.pipeline.prompt import build_messages
from extractor.inputs.discover import display_name
from extractor.inputs.document import Document
from extractor.record import Record, Usage, issue
from extractor.pipeline.retry import Attempt, run_with_retries
from extractor.trust.review import apply_review, disagreements
from extractor.runners.base import GenerationRequest, Runner
from extractor.settings import Settings
from extractor.schema import Schema, validate_data
from extractor.trust.verdict import decide, embedded_status, error_record
from extractor.pipeline import windows

Source = Union[str, Path, bytes, "PIL.Image.Image"]  # noqa: F821 - PIL imported lazily


def source_name(source: Source) -> str:
    """Return how a source is named in records: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, Path)):
        return display_name(source)  # the path as given; bytes of a non-UTF-8 file name as \xNN
    return "<bytes>" if isinstance(source, (bytes, bytearray)) else "<image>"


# Input errors found after the file's bytes were read: their records carry the bytes' hash, so a resumed batch
# (whose rule is sha256 + fingerprint + final status) does not redo them. A missing or unreadable file has no bytes.
READ_ERROR_CODES = frozenset({"empty", "not_a_pdf", "unsupported_type", "corrupt", "encrypted", "wrong_password",
                              "too_large"})


def content_sha256(path: Union[str, Path], *, max_bytes: Optional[int] = None) -> Optional[str]:
    """The sha256 of a file's bytes, read in chunks; None when it cannot be read (or is over ``max_bytes``)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            if max_bytes is not None and os.fstat(handle.fileno()).st_size > max_bytes:
                return None  # too large to read: not hashed either
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _error_sha256(source: Source, code: str, *, max_bytes: int) -> str:
    """The hash an ``error`` record carries: its bytes' when the error was found after reading them, else ""."""
    if code not in READ_ERROR_CODES:
        return ""
    if isinstance(source, (bytes, bytearray)):
        return hashlib.sha256(source).hexdigest()
    if isinstance(source, (str, Path)):
        return content_sha256(source, max_bytes=max_bytes) or ""
    return ""


def settings_fingerprint(settings: Settings, schema: Schema) -> str:
    """The fingerprint every record carries (``Settings.fingerprint`` of these settings and this schema's content)."""
    return settings.fingerprint(schema_text=json.dumps(schema.schema, sort_keys=True, ensure_ascii=False))


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
    raster = first_raster(settings, runner)
    rendered = pool.render(source, settings=raster) if pool is not None else render_here(source, settings=raster)
    return document_record(rendered, runner=runner, schema=schema, settings=settings, pool=pool)


def first_raster(settings: Settings, runner: Runner):
    """The rasterizer settings of a document's first render: all its pages, or its first window's when it is long
    (``windows``: the later windows are rendered one by one as their turn comes)."""
    return windows.first_raster(document_raster(settings, runner), settings,
                                pixels_per_token=runner.pixels_per_token)


def document_raster(settings: Settings, runner: Runner):
    """The rasterizer settings of a document for this runner (its pixel budget, capped by the model's own)."""
    return settings.raster(runner.pixels_per_token, page_pixels=runner.max_page_pixels)


def document_record(rendered: Rendered, *, runner: Runner, schema: Schema, settings: Settings,
                    pool: Optional[RenderPool] = None) -> Record:
    """Turn a rendered source into its record: embedded e-invoice XML or generate (with retries), parse,
    validate, review (or an ``error`` record).

    Args:
        rendered: the source after opening and rendering (``renderer.render_here`` or a ``RenderPool``).
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.
        pool: where a long document's later windows are rendered (None: in this process).

    Returns:
        The Record; ``timings.render_s`` is the rendering time (in the worker when isolated) and, when isolated,
        ``timings.render_wait_s`` how long generation waited for it (0 when it was rendered ahead); ``fingerprint``
        the settings fingerprint (a resumed batch reuses records that carry the same one).
    """
    record = _document_record(rendered, runner=runner, schema=schema, settings=settings, pool=pool)
    return dataclasses.replace(record, extra={**record.extra, "fingerprint": settings_fingerprint(settings, schema)})


def _document_record(rendered: Rendered, *, runner: Runner, schema: Schema, settings: Settings,
                     pool: Optional[RenderPool]) -> Record:
    start = time.perf_counter() - rendered.render_s  # the document's own work: rendering, then generation
    base = {"source": source_name(rendered.source), "model": runner.model_id, "schema": schema.name}
    stop_ids = runner.stop_set.without(settings.drop_stop_ids).ids
    if rendered.error is not None:
        return error_record(**base, code=rendered.error.code, message=str(rendered.error), stop_token_ids=stop_ids,
                            sha256=_error_sha256(rendered.source, rendered.error.code, max_bytes=settings.max_bytes),
                            timings={"total_s": round(rendered.render_s, 4)})
    document = rendered.document
    timings = {"render_s": rendered.render_s}
    if rendered.wait_s is not None:
        timings["render_wait_s"] = rendered.wait_s
    if any(p.ocr is not None for p in document.pages):
        timings["ocr_s"] = sum(p.ocr.seconds for p in document.pages if p.ocr is not None)  # part of render_s
    def render(raster):
        return pool.render(rendered.source, settings=raster) if pool is not None else render_here(
            rendered.source, settings=raster)

    try:
        return _answer_record(rendered.source, document, base=base, runner=runner, schema=schema,
                              settings=settings, timings=timings, start=start, render=render)
    except windows.WindowRenderError as exc:
        return error_record(**base, code=exc.code, message=f"{base['source']}: {exc}", sha256=document.sha256,
                            stop_token_ids=stop_ids, timings={"total_s": round(time.perf_counter() - start, 4)})
    except ModelError as exc:
        return error_record(**base, code=exc.code, message=str(exc), sha256=document.sha256, stop_token_ids=stop_ids,
                            pages=len(document.pages), timings={"total_s": round(time.perf_counter() - start, 4)})


def _answer_record(source: Source, document: Document, *, base: dict, runner: Runner, schema: Schema,
                   settings: Settings, timings: dict, start: float, render: windows.Render) -> Record:
    """The answer for a rendered document: valid embedded e-invoice XML, else the model with retries (window by
    window for a long document); reviewed."""
    texts = [page_text(p.text, p.ocr, lines=p.lines) for p in document.pages]  # each page's text layer or OCR text
    stop_ids = runner.stop_set.without(settings.drop_stop_ids).ids  # every record reports it, XML answers too
    plan = windows.plan_for(document, settings=settings, pixels_per_token=runner.pixels_per_token)
    long = None
    if plan is not None:
        document = dataclasses.replace(document, warnings=windows.first_warnings(
            document, settings, pixels_per_token=runner.pixels_per_token) + plan.warnings)
        long = _Long(plan, document, render=render, raster=document_raster(settings, runner))
    embedded, notes = _embedded_invoice(source, document, schema=schema, settings=settings)
    use_xml = embedded is not None and embedded.valid
    if use_xml and not settings.cross_check:
        record = _embedded_record(document, embedded, base=base, timings=timings, start=start, stop_ids=stop_ids)
        if long is not None:
            texts, record = long.texts_only(record)
        return windows.reviewed_merge(apply_review(record, texts))

    def generate(attempt: Attempt) -> Record:
        return _generate_record(document, base=base, runner=runner, schema=schema, settings=settings,
                                timings=timings, start=start, attempt=attempt)

    def generate_window(pages: Document, attempt: Attempt, messages) -> Record:
        return _generate_record(pages, base=base, runner=runner, schema=schema, settings=settings,
                                timings={}, start=start, attempt=attempt, messages=messages)

    try:
        if long is None:
            model = run_with_retries(generate, max_tokens=settings.max_tokens, guards=settings.guards,
                                     retries=settings.retries)
        else:
            texts, model = long.generate(generate_window, schema=schema, settings=settings, base=base,
                                         timings=timings, start=start)
    except ModelError as exc:
        if not use_xml:
            raise
        # the XML is the answer; a failed cross-check costs the comparison, not the record
        record = _embedded_record(document, embedded, base=base, timings=timings, start=start, stop_ids=stop_ids)
        return apply_review(dataclasses.replace(record, extra={
            **record.extra, "cross_check": None, "cross_check_error": issue(exc.code, str(exc))}), texts)
    if use_xml:
        record = dataclasses.replace(model, status=embedded_status(), data=embedded.data, errors=(), extra={
            **model.extra, "data_source": "embedded_xml", "embedded": embedded.to_dict(),
            "cross_check": disagreements(embedded.data, model.data), "model_status": model.status})
        return windows.reviewed_merge(apply_review(record, texts))
    extra = {**model.extra, "data_source": "model"}
    if embedded is not None:
        extra["embedded"] = embedded.to_dict()
        notes += (issue("embedded_invalid", f"the embedded e-invoice XML ({embedded.attachment or 'attachment'}) "
                        f"does not fit the invoice schema ({len(embedded.schema_errors)} errors, see "
                        "embedded.schema_errors); the model read the pages instead"),)
    return windows.reviewed_merge(apply_review(dataclasses.replace(model, warnings=model.warnings + notes,
                                                                   extra=extra), texts))


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
        status=embedded_status(),
        sha256=document.sha256,
        pages=len(document.pages),
        data=embedded.data,
        stop_token_ids=stop_ids,
        warnings=_document_warnings(document),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"data_source": "embedded_xml", "embedded": embedded.to_dict(), "attempts": [], **_ocr_extra(document)},
    )


def _ocr_extra(document: Document) -> dict:
    """The record's ``ocr`` entry: per page, why OCR read it, its mean confidence, lines and seconds (null for
    pages it did not read); absent when it read none."""
    if all(p.ocr is None for p in document.pages):
        return {}
    return {"ocr": [None if p.ocr is None else p.ocr.summary() for p in document.pages]}


def _document_warnings(document: Document) -> tuple[dict, ...]:
    """The rasterizer's notes on the document and its pages, as warnings."""
    warnings = tuple({"code": "input", "message": w} for w in document.warnings)
    return warnings + tuple({"code": "page", "message": f"page {p.index + 1}: {w}"} for p in document.pages
                            for w in p.warnings)


def generation_request(runner: Runner, settings: Settings, *, schema: dict, messages, images: tuple,
                       max_tokens: int, attempt: int = 1, guards=None, prefix_cache: bool = True):
    """A model call as the pipeline makes it: the stop set less ``drop_stop_ids``, the schema's constraint, the
    settings' sampling and logits processors (``extra_processors`` for this attempt, then ``request_processors``,
    which see the request).

    Args:
        schema: the JSON Schema the answer must follow (constrained where the settings and runner allow).
        attempt: the attempt's number (1-based), for ``extra_processors``.
        guards: the attempt's ``GuardSettings``, or None for no guards.

    Returns:
        (the GenerationRequest, its stop set, the planned constraint).
    """
    stop = runner.stop_set.without(settings.drop_stop_ids)
    constraint = plan_constraint(runner, schema=schema, stop=stop, enabled=settings.constrained)
    request = GenerationRequest(
        messages=messages,
        images=images,
        max_tokens=max_tokens,
        stop=stop,
        temperature=settings.temperature,
        seed=settings.seed,
        monitor_factory=None if guards is None else guards.factory(stop_texts=stop.texts),
        logits_processors=tuple(settings.extra_processors(attempt) if settings.extra_processors else ()),
        constraint=constraint.factory(jump_forward=settings.jump_forward),
        prefix_cache=prefix_cache,
        json_schema=constraint.server_schema,
    )
    if settings.request_processors is not None:  # they see the request (its pages, its budget) before it runs
        request = dataclasses.replace(request, logits_processors=request.logits_processors + tuple(
            settings.request_processors(request)))
    return request, stop, constraint


def _generate_record(document: Document, *, base: dict, runner: Runner, schema: Schema, settings: Settings,
                     timings: dict, start: float, attempt: Attempt, messages=None) -> Record:
    request, stop, constraint = generation_request(
        runner, settings, schema=schema.schema,
        messages=messages or build_messages(schema, pages=len(document.pages), feedback=attempt.feedback),
        images=tuple(p.image for p in document.pages), max_tokens=attempt.max_tokens, attempt=attempt.number,
        guards=attempt.guards, prefix_cache=settings.prefix_cache)
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
        warnings=warnings + constraint.warnings + gen.warnings + verdict.warnings,
        finish_reason=gen.finish_reason,
        stop_token_id=gen.stop_token_id,
        stop_token_ids=stop.ids,
        guard=gen.guard,
        usage=Usage(prompt_tokens=gen.prompt_tokens, image_tokens=gen.image_tokens,
                    generated_tokens=gen.generated_tokens, cached_prompt_tokens=gen.cached_prompt_tokens,
                    decode_steps=gen.decode_steps, decoding=dict(gen.decoding) if gen.decoding else None),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"stop_sources": stop.to_dict()["sources"], **_runner_extra(gen),
               "guards": attempt.guards.report(fired=gen.guard),
               "constrained": constraint.active if gen.constrained is None else gen.constrained,
               **_ocr_extra(document)},
    )


class _Long:
    """A long document's windows (``windows``), as the pipeline runs them: generate, or read the texts only."""

    def __init__(self, plan: windows.Plan, document: Document, *, render: windows.Render, raster) -> None:
        self.plan, self.document, self.render, self.raster = plan, document, render, raster

    def generate(self, generate_window, *, schema: Schema, settings: Settings, base: dict, timings: dict,
                 start: float) -> tuple[list, Record]:
        """Run every window; returns every page's text and the merged record (before review)."""
        record, left = windows.run_windows(self.plan, self.document, render=self.render, raster=self.raster,
                                           schema=schema, settings=settings, generate=generate_window, base=base)
        return list(left.texts), self._finish(record, left, timings, start)

    def texts_only(self, record: Record) -> tuple[list, Record]:
        """Every page's text for reviewing an answer read from embedded XML (pages rendered, nothing generated)."""
        left = windows.page_texts(self.plan, self.document, render=self.render, raster=self.raster)
        return list(left.texts), self._finish(record, left, dict(record.timings), None)

    def _finish(self, record: Record, left: windows.WindowedPages, timings: dict, start: Optional[float]) -> Record:
        """The record with every page's warnings, OCR summaries, page count and the windows' render time."""
        timings = {**timings, **record.timings}
        timings["render_s"] = timings.get("render_s", 0.0) + left.render_s
        if start is not None:
            timings["total_s"] = time.perf_counter() - start
        extra = dict(record.extra)
        if any(o is not None for o in left.ocr):
            extra["ocr"] = list(left.ocr)
        warnings = tuple({"code": "input", "message": w} for w in self.document.warnings) + left.warnings
        return dataclasses.replace(record, pages=len(left.texts), warnings=warnings + tuple(
            w for w in record.warnings if w.get("code") not in ("input", "page")), extra=extra,
            timings={k: round(v, 4) for k, v in timings.items()})


def _runner_extra(gen) -> dict:
    """The record's facts about where the answer was generated: this process's peak memory, or the server that
    answered (its memory is not ours to report)."""
    if gen.server is None:
        return {"peak_memory_gb": round(gen.peak_memory_gb, 3)}
    return {"server": dict(gen.server)}


__all__ = ["READ_ERROR_CODES", "content_sha256", "document_record", "extract_document", "first_raster", "source_name"]
