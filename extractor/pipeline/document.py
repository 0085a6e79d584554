"""The one core: one document's way from its rendered pages to its record.

render (``inputs.renderer``: in worker processes or here) → embedded e-invoice XML (``einvoice.read``) or the
model: prompt (``prompt``), one generation per attempt (``generate``: constraint, stop set and guards, parse,
validate, verdict), retries (``retry``), a long document window by window (``windows`` plans, ``merge`` merges, this
module runs each window) → review (``trust.review``: checks and grounding) → the status, decided once from every signal
(``trust.verdict.record_status``) → record. The CLI, the Python API (``api.Extractor``) and the folder watcher all
come through here. What every step reads is one ``job.DocumentJob``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from extractor.einvoice.read import EmbeddedInvoice, read_embedded_invoice
from extractor.einvoice.read_en16931 import as_en16931
from extractor.einvoice.xpaths import value_paths
from extractor.errors import InputError, ModelError
from extractor.inputs.document import Document, Page, RasterSettings
from extractor.inputs.ocrdecide import page_texts
from extractor.inputs.renderer import LocalRenderer, Rendered, Renderer
from extractor.pipeline import merge, passes, windows
from extractor.pipeline.generate import document_warnings, generate_record, ocr_extra
from extractor.pipeline.job import DocumentJob, Source, document_raster, source_name
from extractor.pipeline.retry import run_with_retries
from extractor.record import Record, issue
from extractor.runners.base import Runner
from extractor.schema import INVOICE_SCHEMAS, Schema, field_thresholds
from extractor.settings import Settings
from extractor.trust.calibration import read_calibration
from extractor.trust.confidence import assess
from extractor.trust.review import apply_review, disagreements, review_answer
from extractor.trust.verdict import Signals, embedded_status, error_record, record_status, reviewed

# Input errors found after the file's bytes were read: their records carry the bytes' hash, so a resumed batch
# (whose rule is sha256 + fingerprint + final status) does not redo them. A missing or unreadable file has no bytes.
READ_ERROR_CODES = frozenset(
    {"empty", "not_a_pdf", "unsupported_type", "corrupt", "encrypted", "wrong_password", "too_large"}
)


def content_sha256(path: str | Path, *, max_bytes: int | None = None) -> str | None:
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


def extract_document(
    source: Source,
    *,
    runner: Runner,
    schema: Schema,
    settings: Settings,
    renderer: Renderer | None = None,
    fingerprint: str | None = None,
) -> Record:
    """Extract one document. Never raises for a bad input or a model failure: those become ``error`` records.

    Args:
        source: a path, the file's bytes, or a PIL image.
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.
        renderer: what renders its pages: a ``RenderPool`` (worker processes, isolated, with ``settings.timeout``);
            None: this process (``LocalRenderer``).
        fingerprint: the fingerprint the record carries, when not these settings' (a split file's parts carry the
            whole file's, so a resumed job recognizes them).

    Returns:
        The Record.
    """
    renderer = renderer if renderer is not None else LocalRenderer()
    rendered = renderer.render(source, settings=first_raster(settings, runner))
    return document_record(
        rendered, runner=runner, schema=schema, settings=settings, renderer=renderer, fingerprint=fingerprint
    )


def first_raster(settings: Settings, runner: Runner) -> RasterSettings:
    """The rasterizer settings of a document's first render: all its pages, or its first window's when it is long
    (``windows``: the later windows are rendered one by one as their turn comes)."""
    return windows.first_raster(document_raster(settings, runner), settings, pixels_per_token=runner.pixels_per_token)


def document_record(
    rendered: Rendered,
    *,
    runner: Runner,
    schema: Schema,
    settings: Settings,
    renderer: Renderer | None = None,
    fingerprint: str | None = None,
) -> Record:
    """Turn a rendered source into its record: embedded e-invoice XML or generate (with retries), parse,
    validate, review (or an ``error`` record).

    Args:
        rendered: the source after opening and rendering (a ``Renderer``: ``LocalRenderer`` or ``RenderPool``).
        runner: the loaded model.
        schema: the schema the answer must follow.
        settings: limits and options.
        renderer: what renders a long document's later windows (None: this process, ``LocalRenderer``).
        fingerprint: the record's fingerprint; None: ``settings_fingerprint(settings, schema)``.

    Returns:
        The Record; ``timings.render_s`` is the rendering time (in the worker when isolated) and, when isolated,
        ``timings.render_wait_s`` how long generation waited for it (0 when it was rendered ahead); ``fingerprint``
        the settings fingerprint (a resumed batch reuses records that carry the same one).
    """
    job = DocumentJob(
        source=rendered.source,
        runner=runner,
        schema=schema,
        settings=settings,
        renderer=renderer if renderer is not None else LocalRenderer(),
        start=time.perf_counter() - rendered.render_s,
    )  # the document's own work: render, generate
    record = _document_record(job, rendered)
    if fingerprint is None:
        fingerprint = settings_fingerprint(settings, schema)
    return dataclasses.replace(record, extra={**record.extra, "fingerprint": fingerprint})


def _document_record(job: DocumentJob, rendered: Rendered) -> Record:
    """The record of a rendered source: an ``error`` record when it could not be rendered, a model failure or a
    later window that could not be rendered; else its answer's."""
    base, stop_ids = job.base, job.stop_ids
    if rendered.error is not None:
        return error_record(
            **base,
            code=rendered.error.code,
            message=str(rendered.error),
            stop_token_ids=stop_ids,
            sha256=_error_sha256(rendered.source, rendered.error.code, max_bytes=job.settings.max_bytes),
            timings={"total_s": round(rendered.render_s, 4)},
        )
    document = rendered.document
    assert document is not None  # a render without an error holds its document
    timings = {"render_s": rendered.render_s}
    if rendered.wait_s is not None:
        timings["render_wait_s"] = rendered.wait_s
    if any(p.ocr is not None for p in document.pages):
        timings["ocr_s"] = sum(p.ocr.seconds for p in document.pages if p.ocr is not None)  # part of render_s
        timings["ocr_cached"] = sum(1 for p in document.pages if p.ocr is not None and p.ocr.cached)  # seen before
    try:
        return _answer_record(job, document, timings=timings)
    except WindowRenderError as exc:
        return error_record(
            **base,
            code=exc.code,
            message=f"{base['source']}: {exc}",
            sha256=document.sha256,
            stop_token_ids=stop_ids,
            timings={"total_s": round(time.perf_counter() - job.start, 4)},
        )
    except ModelError as exc:
        return error_record(
            **base,
            code=exc.code,
            message=str(exc),
            sha256=document.sha256,
            stop_token_ids=stop_ids,
            pages=len(document.pages),
            timings={"total_s": round(time.perf_counter() - job.start, 4)},
        )


def _answer_record(job: DocumentJob, document: Document, *, timings: dict) -> Record:
    """The answer for a rendered document: valid embedded e-invoice XML, else the model with retries (window by
    window for a long document); reviewed, its status decided."""
    settings, pixels_per_token = job.settings, job.runner.pixels_per_token
    texts = page_texts(document.pages)  # each page's text layer or OCR text (with the text layer's word boxes)
    plan = windows.plan_for(document, settings=settings, pixels_per_token=pixels_per_token)
    if plan is not None:
        document = dataclasses.replace(
            document,
            warnings=windows.first_warnings(document, settings, pixels_per_token=pixels_per_token) + plan.warnings,
        )
    embedded, notes = _embedded_invoice(job, document)
    xml = embedded if embedded is not None and embedded.valid else None  # the answer, when valid
    if xml is not None and not settings.cross_check:
        record = _embedded_record(job, document, xml, timings=timings)
        if plan is not None:  # every page's text, for review (rendered window by window, nothing generated)
            left = _every_page(job, plan, document)
            texts, record = list(left.texts), _with_pages(record, left, document, timings=dict(record.timings))
        return _decided(job, record, texts, source_xml=xml.xml)
    findings: tuple[dict, ...] = ()  # a long document's merge findings
    agreed = None  # each field's agreement with a second answer (``passes``)
    try:
        if plan is None:
            tried: list = []  # the attempts made: the last one's prompt is the second answer's

            def attempt_once(attempt) -> Record:
                tried.append(attempt)
                return generate_record(job, document, attempt, timings=timings)

            model = run_with_retries(
                attempt_once, max_tokens=settings.max_tokens, guards=settings.guards, retries=settings.retries
            )
            if settings.passes > 1 and xml is None:
                model, agreed = passes.with_second_pass(job, document, tried[-1], model)
        else:
            merged = _windowed(job, plan, document)
            texts, findings = list(merged.pages.texts), merged.findings
            model = _with_pages(merged.record, merged.pages, document, timings=timings, start=job.start)
    except ModelError as exc:
        if xml is None:
            raise
        # the XML is the answer; a failed cross-check costs the comparison, not the record
        record = _embedded_record(job, document, xml, timings=timings)
        return _decided(
            job,
            dataclasses.replace(
                record, extra={**record.extra, "cross_check": None, "cross_check_error": issue(exc.code, str(exc))}
            ),
            texts,
            source_xml=xml.xml,
        )
    if xml is not None:
        record = dataclasses.replace(
            model,
            status=embedded_status(),
            data=xml.data,
            errors=(),
            extra={
                **model.extra,
                "data_source": "embedded_xml",
                "embedded": xml.to_dict(),
                "cross_check": disagreements(xml.data, model.data),
                "model_status": model.status,
            },
        )
        return _decided(job, record, texts, merge=findings, source_xml=xml.xml)
    extra = {**model.extra, "data_source": "model"}
    if embedded is not None:
        extra["embedded"] = embedded.to_dict()
        notes += (
            issue(
                "embedded_invalid",
                f"the embedded e-invoice XML ({embedded.attachment or 'attachment'}) "
                f"does not fit the invoice schema ({len(embedded.schema_errors)} errors, see "
                "embedded.schema_errors); the model read the pages instead",
            ),
        )
    return _decided(
        job,
        dataclasses.replace(model, warnings=model.warnings + notes, extra=extra),
        texts,
        merge=findings,
        agreed=agreed,
    )


def _decided(
    job: DocumentJob,
    record: Record,
    texts,
    *,
    merge: tuple[dict, ...] = (),
    source_xml: bytes = b"",
    agreed: dict[str, bool] | None = None,
) -> Record:
    """The record with its status decided, once, from every signal (``verdict.record_status``): the answer's status
    (the record's so far: its generation's verdict, the windows' or the embedded XML's), the review's findings
    (checks and grounding, only for an ``ok`` answer), a long document's merge findings, the official EN 16931
    rules' findings on ``source_xml`` (the embedded XML the answer was read from, ``settings.embedded_rules``) and,
    with ``settings.einvoice``, on the e-invoices written from an ``ok`` answer, and the fields below their
    confidence threshold (``trust.confidence``; ``agreed``: each field's agreement with a second answer,
    ``passes``)."""
    if job.settings.passes > 1 and "passes" not in record.extra:  # no second answer was decoded: say why
        embedded = record.extra.get("data_source") == "embedded_xml"
        reason = "the data was read from embedded XML" if embedded else "a long document's windows are decoded once"
        record = dataclasses.replace(
            record, extra={**record.extra, "passes": passes.no_second_pass(job.settings, reason)}
        )
    xpaths = (
        value_paths(source_xml, record.data)
        if source_xml and record.extra.get("data_source") == "embedded_xml"
        else None
    )
    review = review_answer(record, texts, xpaths=xpaths)
    record = apply_review(record, review)
    einvoice: tuple[dict, ...] = ()
    checked_source = bool(source_xml) and job.settings.embedded_rules
    invoice = job.schema.name in INVOICE_SCHEMAS
    if invoice and reviewed(record.status) and (job.settings.einvoice or checked_source):
        record, einvoice = _einvoiced(job, record, source_xml if checked_source else b"")
    assessment = assess_record(record, job, agreed=agreed, citations=review.citations if review is not None else None)
    findings = assessment.findings if review is not None else ()  # only a reviewed answer is held to thresholds
    signals = Signals(
        answer=record.status,
        review=review.warnings if review is not None else (),
        merge=merge,
        einvoice=einvoice,
        confidence=findings,
    )
    return dataclasses.replace(
        record,
        status=record_status(signals),
        warnings=tuple(record.warnings) + findings,
        extra={**record.extra, **assessment.to_extra()},
    )


def _einvoiced(job: DocumentJob, record: Record, source_xml: bytes) -> tuple[Record, tuple[dict, ...]]:
    """The record with its e-invoices checked (``einvoice``, with ``settings.einvoice``) and ``source_xml``, the
    embedded XML its answer was read from, checked too (``embedded.rules``), their findings added to its warnings;
    and those findings. (lxml and saxonche load here, on first use: the rules compile once per process.)"""
    from extractor.einvoice.report import einvoice_report, source_report

    extra = dict(record.extra)
    findings: tuple[dict, ...] = ()
    if job.settings.einvoice:
        report = einvoice_report(record.data, job.settings.einvoice, extra=record.extra, source=record.source)
        extra["einvoice"], findings = report.entries, report.findings
    if source_xml and isinstance(extra.get("embedded"), dict):
        source = source_report(source_xml, guideline=str(extra["embedded"].get("guideline") or ""))
        extra["embedded"] = {**extra["embedded"], "rules": source.entries}
        findings = source.findings + findings
    return dataclasses.replace(record, warnings=record.warnings + findings, extra=extra), findings


def assess_record(
    record: Record, job: DocumentJob, *, agreed: dict[str, bool] | None = None, citations: Mapping | None = None
):
    """Every field's evidence and confidence (``trust.confidence.assess``): the generation's token evidence
    (``fields`` so far; a long document's from its windows, ``merge.merged_tokens``; none for embedded XML), the
    review's grounding and checks, ``agreed`` (a second answer's agreement, ``passes``), the settings' calibration
    and threshold, the schema's per-field thresholds."""
    settings, source = job.settings, record.extra.get("data_source", "model")
    return assess(
        record.data,
        tokens=record.extra.get("fields") if source == "model" else None,
        grounding=record.extra.get("grounding"),
        checks=record.extra.get("checks") or (),
        calibration=read_calibration(settings.calibration) if settings.calibration else None,
        threshold=settings.auto_accept,
        field_thresholds=field_thresholds(job.schema.schema, source=job.schema.source),
        exact=source == "embedded_xml" and not _rejected(record),  # read from XML the rules did not reject
        agreed=agreed if source == "model" else None,
        citations=citations,
    )


def _rejected(record: Record) -> bool:
    """Whether the embedded XML the record was read from fired a fatal EN 16931 rule (``embedded.rules``)."""
    embedded = record.extra.get("embedded")
    rules = embedded.get("rules") if isinstance(embedded, dict) else None
    return isinstance(rules, dict) and bool(rules.get("fatal"))


# ------------------------------------------------------------------------------------------------- long documents


class WindowRenderError(Exception):
    """A later window's pages could not be rendered (the record becomes an ``error`` naming them)."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


def _window_documents(
    job: DocumentJob, plan: windows.Plan, first: Document
) -> Iterator[tuple[windows.Window, Document, float]]:
    """Each window's rendered pages, lazily: the first from the document's first render, each later one rendered
    by the job's renderer when its turn comes, so memory holds one window's page images.

    Yields:
        ``(window, document holding its pages, render seconds)``.

    Raises:
        WindowRenderError: a window's pages could not be rendered.
    """
    for window in plan.windows():
        if window.number == 1:
            yield window, windows.first_pages(plan, first), 0.0
            continue
        rendered = job.render(windows.window_raster(plan, window.span, job.raster))
        if rendered.error is not None or rendered.document is None:
            raise WindowRenderError(
                f"pages {window.first_page}-{window.last_page}: {rendered.error}",
                code=getattr(rendered.error, "code", "corrupt"),
            )
        yield window, rendered.document, rendered.render_s


def _windowed(job: DocumentJob, plan: windows.Plan, first: Document) -> merge.Merged:
    """Run a long document window by window, each with its own retries, and merge them (``merge.merge``).

    Raises:
        ModelError: the model failed.
        WindowRenderError: a window's pages could not be rendered.
    """
    settings, results = job.settings, []
    for window, document, seconds in _window_documents(job, plan, first):
        pages = windows.bare(document)

        def attempt_once(attempt, pages=pages, window=window) -> Record:
            messages = windows.window_messages(
                job.schema, plan, window, pages=len(pages.pages), feedback=attempt.feedback
            )
            return generate_record(job, pages, attempt, timings={}, messages=messages)

        record = run_with_retries(
            attempt_once, max_tokens=settings.max_tokens, guards=settings.guards, retries=settings.retries
        )
        results.append(
            merge.WindowResult(window=window, record=record, pages=windows.released(document.pages), render_s=seconds)
        )
        del document, pages  # the window's images go here: only the texts stay
    return merge.merge(plan, results, schema=job.schema, base=job.base)


def _every_page(job: DocumentJob, plan: windows.Plan, first: Document) -> windows.WindowedPages:
    """Every page's text of a long document, rendered one window at a time and nothing generated (an embedded
    XML answer's review reads every page)."""
    pages: list[Page] = []
    render_s = 0.0
    for _, document, seconds in _window_documents(job, plan, first):
        render_s += seconds
        pages += windows.released(document.pages)  # the images are released here
    return windows.left_behind(pages, render_s=render_s)


def _with_pages(
    record: Record, left: windows.WindowedPages, first: Document, *, timings: dict, start: float | None = None
) -> Record:
    """A long document's record with every page's warnings, OCR summaries, page count and the windows' render
    time (``first``: the first render, whose document warnings the record keeps); ``start``: total_s is measured
    again."""
    timings = {**timings, **record.timings}
    timings["render_s"] = timings.get("render_s", 0.0) + left.render_s
    if start is not None:
        timings["total_s"] = time.perf_counter() - start
    extra = dict(record.extra)
    if any(o is not None for o in left.ocr):
        extra["ocr"] = list(left.ocr)
    warnings = tuple({"code": "input", "message": w} for w in first.warnings) + left.warnings
    return dataclasses.replace(
        record,
        pages=len(left.texts),
        warnings=warnings + tuple(w for w in record.warnings if w.get("code") not in ("input", "page")),
        extra=extra,
        timings={k: round(v, 4) for k, v in timings.items()},
    )


def _embedded_invoice(job: DocumentJob, document: Document) -> tuple[EmbeddedInvoice | None, tuple[dict, ...]]:
    """The e-invoice XML a rendered PDF carries, if it is looked for (invoice schema, ``settings.embedded``).

    Read only after rendering succeeded, from the same bytes (checked by hash): a file replaced in between is
    not mixed with another file's pages. Returns the invoice (or None) and warnings on why it could not be read.
    """
    source = job.source
    if not job.settings.embedded or job.schema.name not in INVOICE_SCHEMAS or document.kind != "pdf":
        return None, ()
    if isinstance(source, (str, Path)):
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            return None, (
                issue(
                    "embedded_unreadable",
                    f"{source}: cannot read the file again to look for embedded e-invoice XML ({exc.strerror or exc})",
                ),
            )
    elif isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        return None, ()
    if hashlib.sha256(data).hexdigest() != document.sha256:
        return None, (
            issue(
                "embedded_unreadable",
                f"{source_name(source)}: the file changed after it was rendered; embedded e-invoice XML not looked for",
            ),
        )
    try:
        found = read_embedded_invoice(data)
        if found is not None and job.schema.name == "invoice-en16931":
            found = as_en16931(found)  # the same XML, read for the terms that schema adds
        return found, ()
    except InputError as exc:
        return None, (
            issue("embedded_unreadable", f"{source_name(source)}: embedded e-invoice XML could not be read ({exc})"),
        )


def _embedded_record(job: DocumentJob, document: Document, embedded: EmbeddedInvoice, *, timings: dict) -> Record:
    """A record whose answer is the embedded XML's data: no generation, zero tokens, status ok before review."""
    timings = {**timings, "total_s": time.perf_counter() - job.start}
    return Record(
        **job.base,
        status=embedded_status(),
        sha256=document.sha256,
        pages=len(document.pages),
        data=embedded.data,
        stop_token_ids=job.stop_ids,
        warnings=document_warnings(document),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"data_source": "embedded_xml", "embedded": embedded.to_dict(), "attempts": [], **ocr_extra(document)},
    )


__all__ = [
    "READ_ERROR_CODES",
    "content_sha256",
    "document_record",
    "extract_document",
    "first_raster",
    "settings_fingerprint",
]
