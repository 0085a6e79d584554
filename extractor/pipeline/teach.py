"""Teaching a supplier's layout from a document and its true data, and unlearning what a review corrected
(issue 51, docs/learning.md).

Only truth teaches: an approved review (the review page, ``extract learn OUT``), the issuer's own embedded e-invoice
XML (``teach_embedded``, field by field from its citations), an archive's booked invoices (``extract learn PDF
--data``, ``extract learn DIR``) and a service review. A model's answer never teaches, nor an unreviewed record.

A document of a supplier whose layout is known (its identity printed, its page's fixed words alike:
``layouts.choose``) refines that layout (``layouts.refine``); where the two teachers disagree the later wins and
the earlier is named, never a blend. A review that corrects a value a layout read demotes that layout for those
fields (``unlearn``): it stops reading them until it is taught again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.fields_json import fields_json
from extractor.inputs.document import Document, RasterSettings
from extractor.inputs.ocr import DEFAULT_MODE as DEFAULT_OCR
from extractor.inputs.ocr import OcrSettings, resolve_mode
from extractor.inputs.renderer import LocalRenderer
from extractor.schema import Schema, load_schema, validate_data
from extractor.settings import DEFAULT_SCHEMA

TEXT_PIXELS = 1024 * 1024  # a teaching document is read for its words: a small image is enough


class TeachError(UsageError):
    """A teacher that cannot teach: data that does not fit the schema or its document, a document that cannot be
    read (exit 2: nothing learned)."""


@dataclass(frozen=True)
class Taught:
    """What one teaching did.

    Attributes:
        document: the teaching document (its path, or a job's id).
        layout: the layout's id now (None: nothing learned).
        supplier: the identity it is keyed on.
        replaced: the layout it replaced, with who taught that one (a later teacher wins: never a blend).
        notes: what was not learned and why (a value not on its page, ...).
        refused: why nothing was learned (the data does not fit; not approved; ...), else None.
    """

    document: str
    layout: str | None = None
    supplier: str | None = None
    replaced: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    refused: str | None = None

    def to_dict(self) -> dict:
        """The JSON ``extract learn --json`` prints."""
        return fields_json(self)


def now() -> str:
    """The time now, ISO 8601 UTC (a teacher's ``at``)."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def open_document(source: str | Path | bytes, *, name: str) -> Document:
    """A teaching document, rendered here for its words (``layouts.page_words``): its text layer's, and OCR's on a
    page without a usable one (a scan: ``--ocr auto``, as the pipeline reads it; none without the OCR engine).

    Raises:
        TeachError: it cannot be opened (the reason named).
    """
    scans = OcrSettings(mode=resolve_mode(DEFAULT_OCR))
    raster = RasterSettings(max_pixels=TEXT_PIXELS, text_boxes=True, ocr=scans)
    rendered = LocalRenderer().render(source, raster=raster)
    if rendered.error is not None or rendered.document is None:
        raise TeachError(f"{name}: cannot be read to learn from ({rendered.error})")
    return rendered.document


def teach(
    store: Any,
    document: Document,
    data: Any,
    *,
    schema: Schema,
    teacher: Any,
    citations: Mapping[str, list[dict]] | None = None,
) -> Taught:
    """Learn (or refine) the layout of ``document``'s supplier from its true ``data`` and keep it in ``store``.

    Args:
        store: the tenant's layouts (``layouts.store.LayoutStore``).
        document: the rendered document (``open_document``, or the pipeline's).
        data: its true data.
        schema: the schema ``data`` follows.
        teacher: where the truth came from (``layouts.Teacher``).
        citations: where each value is printed (embedded XML's and a review's), pointer -> citations.

    Returns:
        What was taught: ``refused`` names why nothing was (the data does not fit its document).

    Raises:
        TeachError: ``data`` does not fit the schema.
    """
    from extractor.layouts import choose, identities, learn, page_words, refine

    errors = validate_data(data, schema)
    if errors:
        first = errors[0]
        raise TeachError(
            f"{teacher.document}: the data does not fit the {schema.name} schema ({len(errors)} error(s); first: "
            f"{first.get('path') or 'data'}: {first.get('message')}): nothing learned"
        )
    pages = page_words(document)
    if not any(p.words for p in pages):
        return Taught(teacher.document, refused="no words on its pages (a scan without OCR?): nothing learned")
    existing = choose(store.candidates(identities(pages), schema=schema.name), pages)
    if existing is not None:
        result = refine(existing, pages, data, teacher=teacher)
    else:
        result = learn(pages, data, schema=schema.name, teacher=teacher, citations=citations)
    notes = tuple(result.notes)
    if result.layout is None:
        why = "; ".join(notes) or "the data does not fit its document"
        return Taught(teacher.document, notes=notes, refused=f"{why}: nothing learned")
    layout = store.save(result.layout)
    replaced = None
    if existing is not None:
        earlier = existing.teacher
        replaced = f"{existing.id} (taught from {earlier.document} by {earlier.by} at {earlier.at})"
        if existing.id != layout.id:
            store.forget(existing.id)
    return Taught(teacher.document, layout=layout.id, supplier=layout.supplier_key, replaced=replaced, notes=notes)


def unlearn(store: Any, record: Mapping, corrected: Any) -> tuple[str, list[str]] | None:
    """Demote the layout that read ``record`` for each field a review corrected (its value differs in
    ``corrected``); returns ``(layout id, demoted pointers)``, or None when no layout read a corrected value."""
    from extractor.leaves import leaves, normalize_value

    entry = record.get("layout")
    if not isinstance(entry, Mapping) or not entry.get("id"):
        return None
    truth = {leaf.pointer: normalize_value(leaf.value) for leaf in leaves(corrected)}
    read = record.get("data") if entry.get("used") else None
    values = {leaf.pointer: normalize_value(leaf.value) for leaf in leaves(read)} if read is not None else {}
    for pointer, evidence in (record.get("fields") or {}).items():  # the layout's own values, where the model read
        if isinstance(evidence, Mapping) and isinstance(evidence.get("layout"), Mapping):
            values[pointer] = normalize_value(evidence["layout"].get("value"))
    wrong = sorted(p for p in entry.get("read") or () if p in values and values[p] != truth.get(p))
    if not wrong:
        return None
    if store.demote(str(entry["id"]), wrong) is None:
        return None  # forgotten meanwhile: nothing left to demote
    return str(entry["id"]), wrong


def learn_review(
    store: Any,
    record: Mapping,
    reviewed: Mapping,
    source: Path | None,
    *,
    teacher_source: str = "review",
    document: str | None = None,
) -> Taught:
    """What one review teaches (``OUT/<name>.reviewed.json``, a service review): a correction of a value a layout
    read demotes that layout for those fields (and teaches nothing else: the layout stops reading them until taught
    again); an approved review of a document teaches its layout; an unapproved one never teaches.

    Args:
        store: the tenant's layouts.
        record: the reviewed record (its ``layout`` key, its citations).
        reviewed: ``{"data", "approved", "reviewer", "reviewed_at", "schema"}``.
        source: the document's file (None: not found; nothing is taught).
        teacher_source: ``review`` or ``service_review``.
        document: how the teacher names the document (default: its path; a service job's id).
    """
    name = document or str(record.get("source") or reviewed.get("record") or "")
    demoted = unlearn(store, record, reviewed.get("data"))
    if demoted is not None:
        layout, pointers = demoted
        return Taught(name, layout=layout, notes=(f"layout {layout} demoted for {', '.join(pointers)}",))
    if reviewed.get("approved") is not True:
        return Taught(name, refused="not approved: an unreviewed record never teaches")
    if source is None:
        return Taught(name, refused="its document is not found with the record's sha256: nothing learned")
    from extractor.layouts import Teacher

    try:
        schema = load_schema(str(reviewed.get("schema") or record.get("schema") or DEFAULT_SCHEMA))
        opened = open_document(source, name=str(source))
        teacher = Teacher(
            source=teacher_source,
            document=document or str(source),
            sha256=opened.sha256,
            by=str(reviewed.get("reviewer") or "unknown"),
            at=str(reviewed.get("reviewed_at") or "") or now(),
        )
        cited = _cited(record)
        return teach(store, opened, reviewed.get("data"), schema=schema, teacher=teacher, citations=cited)
    except TeachError as exc:
        return Taught(name, refused=str(exc))


def _cited(record: Mapping) -> dict[str, list[dict]]:
    """The record's citations per field (where the page prints each value), for a review's teaching."""
    return {
        pointer: list(entry.get("citations") or ())
        for pointer, entry in (record.get("fields") or {}).items()
        if isinstance(entry, dict) and entry.get("citations")
    }


__all__ = ["TEXT_PIXELS", "TeachError", "Taught", "learn_review", "now", "open_document", "teach", "unlearn"]
