"""A supplier's learned layout on a document's way (``--learn read|check``, with a register; docs/learning.md).

Before the model: the identities printed on the document (``layouts.identities``) → the tenant's layouts keyed on
them (``LayoutStore.candidates``) → the one that fits the page (``layouts.choose``) → its reading
(``layouts.read``). Identity first: a layout is never tried on a document that does not print its supplier's
identity.

When it read every field the schema requires (``--learn read``) its data is the record's (``layout_record``:
``data_source: "layout"``, no tokens), reviewed, checked and registered as every record is: a layout never makes
``ok`` what the checks would not. Otherwise (or with ``--learn check``) the model reads, and the layout's values join
as evidence (``with_evidence``): per field ``fields[pointer].layout``, agreement raising its confidence, a
disagreement flagged with both values (``layout_disagrees``: the record is ``review``).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any, Protocol

from extractor.inputs.document import Document
from extractor.leaves import leaves
from extractor.pipeline.generate import document_warnings, ocr_extra
from extractor.pipeline.job import DocumentJob
from extractor.record import Record, issue
from extractor.schema import validate_data
from extractor.trust.verdict import embedded_status, is_ok

READ, CHECK, OFF = "read", "check", "off"  # settings.LEARN_MODES
TEXT_LAYER, MIXED = "text_layer", "mixed"  # a layout's words: layouts.words' TEXT_LAYER, OCR, or both


class Layouts(Protocol):
    """Where a tenant's layouts are found (``layouts.store.LayoutStore``)."""

    def candidates(self, keys, *, schema: str) -> list: ...


@dataclass(frozen=True)
class LayoutTry:
    """A layout tried on a document: which, on what identity, and what it read.

    Attributes:
        layout: the layout (``layouts.Layout``).
        key: the identity printed on the document it was found by.
        reading: what it read (``layouts.LayoutRead``).
        mode: ``read`` or ``check``.
        words: where the words it read came from: ``text_layer``, ``ocr`` (a scan), or ``mixed``.
    """

    layout: Any
    key: str
    reading: Any
    mode: str
    words: str = TEXT_LAYER

    @property
    def complete(self) -> bool:
        """Whether it read every field the schema requires (its data is whole)."""
        return self.reading.data is not None

    def entry(self, *, used: bool, disagreements: list[dict] | None = None) -> dict:
        """The record's ``layout`` key (schemas/record.schema.json)."""
        layout, teacher = self.layout, self.layout.teacher
        entry = {
            "mode": self.mode,
            "id": layout.id,
            "supplier": {"key": self.key, "name": layout.supplier_name},
            "learned_from": {
                "source": teacher.source,
                "document": teacher.document,
                "sha256": teacher.sha256,
                "by": teacher.by,
                "at": teacher.at,
                "documents": max(1, int(getattr(layout, "documents", 1) or 1)),
            },
            "read": sorted(self.reading.values),
            "abstained": dict(sorted(self.reading.abstained.items())),
            "used": used,
            "demoted": sorted(layout.demoted),
            "words": self.words,
        }
        if self.reading.notes:
            entry["notes"] = dict(sorted(self.reading.notes.items()))
        if disagreements is not None:
            entry["disagreements"] = disagreements
        return entry


def try_layout(job: DocumentJob, document: Document, layouts: Layouts | None) -> LayoutTry | None:
    """The layout of a supplier whose identity is printed on the document, and its reading; None with ``--learn
    off``, without layouts, or when no layout of the identities printed fits (``layouts.choose``)."""
    mode = job.settings.learn
    if layouts is None or mode == OFF or document.kind == "xml":
        return None
    from extractor.layouts import choose, identities, page_words, read

    pages = page_words(document)
    keys = identities(pages)
    if not keys:
        return None
    layout = choose(layouts.candidates(keys, schema=job.schema.name), pages)
    if layout is None:
        return None
    key = next((k for k in keys if k == layout.supplier_key or k in layout.identity), keys[0])
    return LayoutTry(layout=layout, key=key, reading=read(layout, pages), mode=mode, words=words_source(pages))


def words_source(pages) -> str:
    """Where a document's words came from (``layouts.PageWords.source`` of its pages with words): ``text_layer``,
    ``ocr`` (a scan read by OCR), or ``mixed``."""
    sources = {page.source for page in pages if page.words}
    return sources.pop() if len(sources) == 1 else (MIXED if sources else TEXT_LAYER)


def reads_alone(tried: LayoutTry | None, job: DocumentJob) -> bool:
    """Whether the layout's data is the record's: ``--learn read``, every required field read, schema-valid."""
    return (
        tried is not None
        and tried.mode == READ
        and tried.complete
        and not validate_data(tried.reading.data, job.schema)
    )


def layout_record(job: DocumentJob, document: Document, tried: LayoutTry, *, timings: dict) -> Record:
    """A record whose data is the layout's: no model, zero tokens, status ok before review (which follows, as for
    every record)."""
    timings = {**timings, "total_s": time.perf_counter() - job.start}
    return Record(
        **job.base,
        status=embedded_status(),
        sha256=document.sha256,
        pages=len(document.pages),
        data=tried.reading.data,
        stop_token_ids=job.stop_ids,
        warnings=document_warnings(document),
        timings={k: round(v, 4) for k, v in timings.items()},
        extra={"data_source": "layout", "layout": tried.entry(used=True), "attempts": [], **ocr_extra(document)},
    )


def with_evidence(record: Record, tried: LayoutTry) -> tuple[Record, dict[str, dict]]:
    """The model's record with the layout's values as evidence: its ``layout`` key (with the disagreements), a
    ``layout_disagrees`` warning per field where the two read different values, and each field's
    ``{"value", "agrees"}`` for ``fields[pointer].layout`` (``trust.confidence.assess``)."""
    model = {leaf.pointer: leaf.value for leaf in leaves(record.data)}
    per_field: dict[str, dict] = {}
    disagreements, notes = [], []
    for pointer, value in tried.reading.values.items():
        if pointer not in model:
            continue
        agrees = _same(value, model[pointer])
        per_field[pointer] = {"value": value, "agrees": agrees}
        if not agrees:
            disagreements.append({"pointer": pointer, "layout": value, "model": model[pointer]})
            notes.append(
                issue(
                    "layout_disagrees",
                    f"{pointer}: the layout {tried.layout.id} read {value!r}, the model {model[pointer]!r}",
                    pointer,
                )
            )
    for pointer in tried.reading.abstained:
        if pointer in model:
            per_field.setdefault(pointer, {"value": None, "agrees": None})
    extra = {**record.extra, "layout": tried.entry(used=False, disagreements=disagreements)}
    return dataclasses.replace(record, warnings=tuple(record.warnings) + tuple(notes), extra=extra), per_field


def teach_embedded(job: DocumentJob, document: Document, record: Record) -> None:
    """An ``ok`` record read from a PDF's embedded e-invoice XML (the issuer's own values) teaches its supplier's
    layout, field by field from where each value is printed (its citations); with ``--learn off`` or without
    layouts, nothing. What could not be learned is the layout's business, not the record's: it is unchanged."""
    if job.layouts is None or job.settings.learn == OFF or not is_ok(record.status) or document.kind != "pdf":
        return
    from extractor.layouts import Teacher
    from extractor.pipeline.teach import now, teach

    citations = {
        pointer: list(entry.get("citations") or ())
        for pointer, entry in (record.extra.get("fields") or {}).items()
        if isinstance(entry, dict) and entry.get("citations")
    }
    teacher = Teacher(
        source="embedded_xml", document=record.source, sha256=document.sha256, by="embedded_xml", at=now()
    )
    teach(job.layouts, document, record.data, schema=job.schema, teacher=teacher, citations=citations)


def _same(a: Any, b: Any) -> bool:
    """Whether two values are the same as JSON compares them (12 and 12.0 agree, true and 1 do not)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


__all__ = [
    "CHECK",
    "OFF",
    "READ",
    "LayoutTry",
    "Layouts",
    "layout_record",
    "reads_alone",
    "try_layout",
    "with_evidence",
    "words_source",
]
