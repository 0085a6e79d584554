"""The one core: one document's way from its rendered pages to its record.

render (``inputs.renderer``: in worker processes or here) → a received e-invoice XML, read exactly with no pages
and no model (``einvoice.receive``), or a PDF's embedded e-invoice XML (``einvoice.read``), or the model: prompt
(``prompt``), one generation per attempt (``generate``: constraint, stop set and guards, parse, validate, verdict),
retries (``retry``), a long document window by window (``windows`` plans, ``merge`` merges, ``answer`` runs each
window) → review (``trust.review``: checks and grounding) → the status, decided once from every signal
(``trust.verdict.record_status``) → record. The CLI, the Python API (``api.Extractor``) and the folder watcher all
come through here. What every step reads is one ``job.DocumentJob``.

This module holds the document path (render, route, error records), the status decision (``_decided``: review,
e-invoice rules, confidence) and the settings fingerprint; each route's answer, before its status is decided, is
``pipeline.answer``'s.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

from extractor.einvoice import INVOICE_SCHEMA_MISSES
from extractor.einvoice.read_terms import attachments
from extractor.einvoice.receive import receive_xml
from extractor.einvoice.xpaths import value_paths
from extractor.errors import InputError, ModelError
from extractor.inputs.document import Document
from extractor.inputs.ocrdecide import page_texts
from extractor.inputs.renderer import LocalRenderer, Rendered, Renderer
from extractor.pipeline import passes, windows
from extractor.pipeline.answer import (
    WindowRenderError,
    cross_check_route,
    embedded_invoice,
    embedded_record,
    embedded_route,
    model_route,
    source_bytes,
)
from extractor.pipeline.job import DocumentJob, Source, document_raster
from extractor.pipeline.learned import layout_record, reads_alone, teach_embedded, try_layout, with_evidence
from extractor.record import Record, issue
from extractor.runners.base import Runner
from extractor.schema import INVOICE_SCHEMAS, Schema, field_thresholds
from extractor.settings import Settings
from extractor.trust.calibration import read_calibration
from extractor.trust.confidence import assess
from extractor.trust.review import apply_review, review_answer
from extractor.trust.verdict import Signals, embedded_status, error_record, is_ok, record_status

# Input errors found after the file's bytes were read: their records carry the bytes' hash, so a resumed batch
# (whose rule is sha256 + fingerprint + final status) does not redo them. A missing or unreadable file has no bytes.
READ_ERROR_CODES = frozenset(
    {"empty", "not_a_pdf", "unsupported_type", "corrupt", "encrypted", "wrong_password", "too_large"}
    | {"malformed_xml", "xml_doctype", "not_an_einvoice"}  # a received e-invoice XML's (``einvoice.receive``)
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
    layouts: object | None = None,
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
        layouts: the tenant's learned layouts (``layouts.store.LayoutStore``), None: none (``pipeline.learned``).

    Returns:
        The Record.
    """
    renderer = renderer if renderer is not None else LocalRenderer()
    rendered = renderer.render(source, raster=document_raster(settings, runner, first_window=True))
    return document_record(
        rendered,
        runner=runner,
        schema=schema,
        settings=settings,
        renderer=renderer,
        fingerprint=fingerprint,
        layouts=layouts,
    )


def document_record(
    rendered: Rendered,
    *,
    runner: Runner,
    schema: Schema,
    settings: Settings,
    renderer: Renderer | None = None,
    fingerprint: str | None = None,
    layouts: object | None = None,
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
        layouts: the tenant's learned layouts (``layouts.store.LayoutStore``), None: none (``pipeline.learned``).

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
        layouts=layouts,
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
    if document.kind == "xml":
        return _received_record(job, document, timings=timings)
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
    """The answer for a rendered document by its route, its status decided here, once (``_decided``): valid embedded
    e-invoice XML (``embedded_route``; with ``cross_check``, ``cross_check_route``), else the model
    (``model_route``: one prompt with retries, or window by window for a long document)."""
    settings, pixels_per_token = job.settings, job.runner.pixels_per_token
    plan = windows.plan_for(document, raster=job.raster, settings=settings, pixels_per_token=pixels_per_token)
    if plan is not None:
        document = dataclasses.replace(
            document,
            warnings=windows.first_warnings(
                document, raster=job.raster, settings=settings, pixels_per_token=pixels_per_token
            )
            + plan.warnings,
        )
    embedded, notes = embedded_invoice(job, document)
    layout_fields = None
    if embedded is None or not embedded.valid:
        tried = try_layout(job, document, job.layouts) if plan is None else None  # a long one: the model's
        if reads_alone(tried, job):
            assert tried is not None
            record = layout_record(job, document, tried, timings=timings)
            return _decided(job, record, page_texts(document.pages), read_by_layout=True)
        answer = model_route(job, document, plan, embedded, notes, timings=timings)
        if tried is not None:
            evidenced, layout_fields = with_evidence(answer.record, tried)
            answer = dataclasses.replace(answer, record=evidenced)
    elif settings.cross_check:
        answer = cross_check_route(job, document, plan, embedded, timings=timings)
    else:
        answer = embedded_route(job, document, plan, embedded, timings=timings)
    record = _decided(
        job,
        answer.record,
        answer.texts,
        merge=answer.merge,
        source_xml=answer.source_xml,
        agreed=answer.agreed,
        layout=layout_fields,
    )
    if plan is None and embedded is not None and embedded.valid:
        teach_embedded(job, document, record)
    return record


def _decided(
    job: DocumentJob,
    record: Record,
    texts,
    *,
    merge: tuple[dict, ...] = (),
    source_xml: bytes = b"",
    source_findings: tuple[dict, ...] = (),
    agreed: dict[str, bool] | None = None,
    layout: dict[str, dict] | None = None,
    read_by_layout: bool = False,
) -> Record:
    """The record with its status decided, once, from every signal (``verdict.record_status``): the answer's status
    (the record's so far: its generation's verdict, the windows' or the embedded XML's), the review's findings
    (checks and grounding, only for an ``ok`` answer), a long document's merge findings, the official EN 16931
    rules' findings on ``source_xml`` (the embedded XML the answer was read from, ``settings.embedded_rules``) and,
    with ``settings.einvoice``, on the e-invoices written from an ``ok`` answer, and the fields below their
    confidence threshold (``trust.confidence``; ``agreed``: each field's agreement with a second answer,
    ``passes``); ``source_findings``: what reading a received e-invoice XML found suspect (``einvoice.receive``;
    already in the record's warnings); ``layout``: each field's learned-layout evidence (``pipeline.learned``:
    a disagreement is a review finding), ``read_by_layout``: the data is a layout's."""
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
    review = review_answer(record, texts, schema=job.schema, xpaths=xpaths)
    record = apply_review(record, review)
    einvoice: tuple[dict, ...] = source_findings
    checked_source = bool(source_xml) and job.settings.embedded_rules
    invoice = job.schema.name in INVOICE_SCHEMAS
    if invoice and is_ok(record.status) and (job.settings.einvoice or checked_source):
        record, checked = _einvoiced(job, record, source_xml if checked_source else b"")
        einvoice += checked
    assessment = assess_record(
        record,
        job,
        agreed=agreed,
        citations=review.citations if review is not None else None,
        layout=layout,
        read_by_layout=read_by_layout,
    )
    findings = assessment.findings if review is not None else ()  # only a reviewed answer is held to thresholds
    flagged = tuple(w for w in record.warnings if w.get("code") == "layout_disagrees")  # pipeline.learned
    signals = Signals(
        answer=record.status,
        review=(review.warnings if review is not None else ()) + flagged,
        merge=merge,
        einvoice=einvoice,
        confidence=findings,
    )
    record = dataclasses.replace(
        record,
        status=record_status(signals),
        warnings=tuple(record.warnings) + findings,
        extra={**record.extra, **assessment.to_extra()},
    )
    return _with_attachments(job, record, source_xml)


def _with_attachments(job: DocumentJob, record: Record, source_xml: bytes) -> Record:
    """With ``settings.einvoice_attachments``, a record read from e-invoice XML names the files embedded in its
    supporting documents (``embedded.attachments``: ``path`` null until a sink writes them) and holds their bytes
    (``Record.attachments``, never serialized). They are decoded here, where the XML's bytes are at hand: at the
    sink the source may be gone (a watcher's moved file, a mail's attachment) or a PDF to open again."""
    embedded = record.extra.get("embedded")
    if not (job.settings.einvoice_attachments and source_xml and isinstance(embedded, dict)):
        return record
    if record.extra.get("data_source") != "embedded_xml":
        return record
    files = attachments(source_xml)
    entries = [
        {
            "document": f.index,
            "name": f.filename,
            "mime": f.mime_type,
            "size": len(f.data),
            "sha256": hashlib.sha256(f.data).hexdigest(),
            "path": None,
        }
        for f in files
    ]
    extra = {**record.extra, "embedded": {**embedded, "attachments": entries}}
    return dataclasses.replace(record, extra=extra, attachments=tuple(f.data for f in files))


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
        if job.schema.name == "invoice":  # asked for explicitly: said, not a finding (the rules' findings are)
            record = dataclasses.replace(
                record, warnings=record.warnings + (issue("einvoice_schema", INVOICE_SCHEMA_MISSES),)
            )
    if source_xml and isinstance(extra.get("embedded"), dict):
        source = source_report(source_xml, guideline=str(extra["embedded"].get("guideline") or ""))
        extra["embedded"] = {**extra["embedded"], "rules": source.entries}
        findings = source.findings + findings
    return dataclasses.replace(record, warnings=record.warnings + findings, extra=extra), findings


def assess_record(
    record: Record,
    job: DocumentJob,
    *,
    agreed: dict[str, bool] | None = None,
    citations: Mapping[str, list[dict]] | None = None,
    layout: Mapping[str, dict] | None = None,
    read_by_layout: bool = False,
):
    """Every field's evidence and confidence (``trust.confidence.assess``): the generation's token evidence
    (``fields`` so far; a long document's from its windows, ``merge.merged_tokens``; none for embedded XML), the
    review's grounding and checks, ``agreed`` (a second answer's agreement, ``passes``), the settings' calibration
    and threshold, the schema's per-field thresholds; ``layout``: each field's learned-layout evidence
    (``pipeline.learned.with_evidence``), ``read_by_layout``: the data is a layout's (``pipeline.learned``)."""
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
        layout=layout,
        read_by_layout=read_by_layout,
    )


def _rejected(record: Record) -> bool:
    """Whether the embedded XML the record was read from fired a fatal EN 16931 rule (``embedded.rules``)."""
    embedded = record.extra.get("embedded")
    rules = embedded.get("rules") if isinstance(embedded, dict) else None
    return isinstance(rules, dict) and bool(rules.get("fatal"))


def _received_record(job: DocumentJob, document: Document, *, timings: dict) -> Record:
    """A received e-invoice XML's record (``einvoice.receive``): read exactly, no pages, no model; checked by the
    official rules as an embedded XML is (``settings.embedded_rules``), what the reading found suspect making it
    ``review``; an ``error`` record naming the reason when it is refused or no e-invoice."""

    def refused(code: str, message: str) -> Record:
        total = {"total_s": round(time.perf_counter() - job.start, 4)}
        return error_record(
            **job.base, code=code, message=message, sha256=document.sha256, stop_token_ids=job.stop_ids, timings=total
        )

    if job.schema.name not in INVOICE_SCHEMAS:
        return refused(
            "unsupported_type",
            f"{document.source}: XML is read as a received e-invoice, into the invoice or invoice-en16931 schema "
            f"only (not {job.schema.name})",
        )
    data, notes = source_bytes(job, document, what="to read the e-invoice XML")
    if data is None:
        return refused("unreadable", notes[0]["message"] if notes else f"{document.source}: cannot read the XML")
    try:
        received = receive_xml(data, name=document.source, schema=job.schema.name)
    except InputError as exc:
        return refused(exc.code, str(exc))
    invoice = received.invoice
    record = embedded_record(job, document, invoice, timings=timings)
    record = dataclasses.replace(
        record,
        status=embedded_status(schema_errors=len(invoice.schema_errors)),
        errors=tuple(invoice.schema_errors),
        warnings=record.warnings + received.findings,
    )
    return _decided(job, record, [], source_xml=data, source_findings=received.findings)


__all__ = [
    "READ_ERROR_CODES",
    "content_sha256",
    "document_record",
    "extract_document",
    "settings_fingerprint",
]
