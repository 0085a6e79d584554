"""A rendered document's answer by its route, before its status is decided (``pipeline.extract._decided``).

The routes: valid embedded e-invoice XML is the answer (``embedded_route``; with ``cross_check``, compared with the
model's reading, ``cross_check_route``), else the model (``model_route``: one prompt with retries, or a long
document window by window, merged); the source's bytes read again for its embedded XML (``source_bytes``,
``embedded_invoice``) and the record an XML answer starts from (``embedded_record``). Nothing here decides a
status or reviews: ``pipeline.extract`` does, once, for every route.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from extractor.einvoice.read import EmbeddedInvoice, read_embedded_invoice
from extractor.einvoice.read_en16931 import as_en16931
from extractor.errors import InputError, ModelError
from extractor.inputs.document import Document, Page
from extractor.inputs.ocrdecide import page_texts
from extractor.pipeline import merge, passes, windows
from extractor.pipeline.generate import document_warnings, generate_record, ocr_extra
from extractor.pipeline.job import DocumentJob, source_name
from extractor.pipeline.retry import run_with_retries
from extractor.record import Record, issue
from extractor.schema import INVOICE_SCHEMAS
from extractor.text import PageText
from extractor.trust.review import disagreements
from extractor.trust.verdict import embedded_status


@dataclass(frozen=True)
class Answer:
    """One route's answer, before its status is decided (``_decided``).

    Attributes:
        record: the record so far (its status: the answer's own).
        texts: every page's text, for review (a long document's: all its windows').
        merge: a long document's merge findings.
        source_xml: the embedded XML the answer was read from (the EN 16931 rules check it).
        agreed: each field's agreement with a second answer (``passes``).
    """

    record: Record
    texts: list[PageText]
    merge: tuple[dict, ...] = ()
    source_xml: bytes = b""
    agreed: dict[str, bool] | None = None


def _page_texts(document: Document) -> list[PageText]:
    """Each page's text layer or OCR text (what review grounds values on)."""
    return page_texts(document.pages)  # each page's text layer or OCR text (with the text layer's word boxes)


def embedded_route(
    job: DocumentJob, document: Document, plan: windows.Plan | None, xml: EmbeddedInvoice, *, timings: dict
) -> Answer:
    """Valid embedded XML is the answer; nothing is generated (a long document's later pages are rendered for their
    text only, window by window, for review)."""
    record, texts = embedded_record(job, document, xml, timings=timings), _page_texts(document)
    if plan is not None:
        left = _every_page(job, plan, document)
        texts, record = list(left.texts), _with_pages(record, left, document, timings=dict(record.timings))
    return Answer(record, texts, source_xml=xml.xml)


def cross_check_route(
    job: DocumentJob, document: Document, plan: windows.Plan | None, xml: EmbeddedInvoice, *, timings: dict
) -> Answer:
    """Valid embedded XML with ``cross_check``: the XML is the answer and the model's reading of the pages is compared
    with it (``cross_check``); a failed model costs the comparison, not the record."""
    try:
        model = _model_answer(job, document, plan, timings=timings, second_pass=False)
    except ModelError as exc:
        record = embedded_record(job, document, xml, timings=timings)
        extra = {**record.extra, "cross_check": None, "cross_check_error": issue(exc.code, str(exc))}
        return Answer(dataclasses.replace(record, extra=extra), _page_texts(document), source_xml=xml.xml)
    record = dataclasses.replace(
        model.record,
        status=embedded_status(),
        data=xml.data,
        errors=(),
        extra={
            **model.record.extra,
            "data_source": "embedded_xml",
            "embedded": xml.to_dict(),
            "cross_check": disagreements(xml.data, model.record.data),
            "model_status": model.record.status,
        },
    )
    return dataclasses.replace(model, record=record, source_xml=xml.xml)


def model_route(
    job: DocumentJob,
    document: Document,
    plan: windows.Plan | None,
    embedded: EmbeddedInvoice | None,
    notes: tuple[dict, ...],
    *,
    timings: dict,
) -> Answer:
    """No valid embedded XML: the model's answer; an invalid embedded XML is kept in ``embedded`` and named in a
    warning, beside ``notes`` (why embedded XML was not read). Raises ``ModelError`` (an ``error`` record)."""
    answer = _model_answer(job, document, plan, timings=timings, second_pass=True)
    model = answer.record
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
    return dataclasses.replace(answer, record=dataclasses.replace(model, warnings=model.warnings + notes, extra=extra))


def _model_answer(
    job: DocumentJob, document: Document, plan: windows.Plan | None, *, timings: dict, second_pass: bool
) -> Answer:
    """The model's reading of the pages: one prompt with retries (``second_pass``: and a second sampled answer, with
    ``passes`` 2), or a long document window by window, merged. Raises ``ModelError``."""
    if plan is not None:
        merged = _windowed(job, plan, document)
        record = _with_pages(merged.record, merged.pages, document, timings=timings, start=job.start)
        return Answer(record, list(merged.pages.texts), merge=merged.findings)
    tried: list = []  # the attempts made: the last one's prompt is the second answer's

    def attempt_once(attempt) -> Record:
        tried.append(attempt)
        return generate_record(job, document, attempt, timings=timings)

    settings = job.settings
    model = run_with_retries(
        attempt_once, max_tokens=settings.max_tokens, guards=settings.guards, retries=settings.retries
    )
    agreed = None
    if second_pass and settings.passes > 1:
        model, agreed = passes.with_second_pass(job, document, tried[-1], model)
    return Answer(model, _page_texts(document), agreed=agreed)


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


def source_bytes(job: DocumentJob, document: Document, *, what: str) -> tuple[bytes | None, tuple[dict, ...]]:
    """The source's bytes again, after rendering succeeded (checked by hash: a file replaced in between is not mixed
    with another file's pages), or None and a warning saying why not (``what``: what they were read for)."""
    source = job.source
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    elif isinstance(source, (str, Path)):
        try:
            with open(source, "rb") as handle:
                data = handle.read(job.settings.max_bytes + 1)  # bounded: the file may have grown since
        except OSError as exc:
            return None, (
                issue("embedded_unreadable", f"{source}: cannot read the file again {what} ({exc.strerror or exc})"),
            )
    else:
        return None, ()
    if hashlib.sha256(data).hexdigest() != document.sha256:
        return None, (
            issue(
                "embedded_unreadable", f"{source_name(source)}: the file changed after it was opened; {what}: not done"
            ),
        )
    return data, ()


def embedded_invoice(job: DocumentJob, document: Document) -> tuple[EmbeddedInvoice | None, tuple[dict, ...]]:
    """The e-invoice XML a rendered PDF carries, if it is looked for (invoice schema, ``settings.embedded``).

    Read only after rendering succeeded, from the same bytes (checked by hash: ``source_bytes``). Returns the
    invoice (or None) and warnings on why it could not be read.
    """
    source = job.source
    if not job.settings.embedded or job.schema.name not in INVOICE_SCHEMAS or document.kind != "pdf":
        return None, ()
    data, notes = source_bytes(job, document, what="to look for embedded e-invoice XML")
    if data is None:
        return None, notes
    try:
        found = read_embedded_invoice(data)
        if found is not None and job.schema.name == "invoice-en16931":
            found = as_en16931(found)  # the same XML, read for the terms that schema adds
        return found, ()
    except InputError as exc:
        return None, (
            issue("embedded_unreadable", f"{source_name(source)}: embedded e-invoice XML could not be read ({exc})"),
        )


def embedded_record(job: DocumentJob, document: Document, embedded: EmbeddedInvoice, *, timings: dict) -> Record:
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
    "Answer",
    "WindowRenderError",
    "cross_check_route",
    "embedded_invoice",
    "embedded_record",
    "embedded_route",
    "model_route",
    "source_bytes",
]
