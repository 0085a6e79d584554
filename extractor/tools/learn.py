"""Where teachers come from (``extract learn``, the review page): approved reviews in an output folder, a PDF and
its ``--data`` file, a folder of ``name.pdf`` + ``name.json`` pairs (an archive of booked invoices). Each is
taught through ``pipeline.teach`` into a tenant's layouts (``layouts.store.LayoutStore``).

    >>> from extractor.tools.learn import learn_target
    >>> learn_target(store, Path("out"), data=None, schema=None, by="ana")   # doctest: +SKIP
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from extractor.pipeline.teach import Taught, TeachError, learn_review, now, open_document, teach
from extractor.schema import Schema, load_schema
from extractor.settings import DEFAULT_SCHEMA
from extractor.tools.evaluate import REVIEWED_SUFFIX

PDF_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")


def _teacher(source: str, *, document: str, sha256: str, by: str, at: str | None = None):
    from extractor.layouts import Teacher

    return Teacher(source=source, document=document, sha256=sha256, by=by, at=at or now())


def _read_json(path: Path, *, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise TeachError(f"{path}: cannot read {what} ({exc})") from None


def learn_pair(store: Any, document: Path, data_file: Path, *, schema: Schema, by: str) -> Taught:
    """Teach one archived document from its true data (``extract learn PDF --data DATA.json``; teacher ``archive``).

    Raises:
        TeachError: the data file cannot be read or does not fit the schema, or the document cannot be read.
    """
    data = _read_json(data_file, what="its data")
    if isinstance(data, dict) and isinstance(data.get("data"), dict) and "status" in data:
        data = data["data"]  # a record file: its data
    opened = open_document(document, name=str(document))
    teacher = _teacher("archive", document=str(document), sha256=opened.sha256, by=by)
    return teach(store, opened, data, schema=schema, teacher=teacher)


def learn_pairs(store: Any, folder: Path, *, schema: Schema, by: str) -> list[Taught]:
    """Teach every ``name.pdf`` of ``folder`` that has a ``name.json`` beside it (``extract learn DIR``); a pair that
    cannot teach is listed with its reason (``refused``), the others still teach."""
    taught = []
    for document in sorted(p for p in folder.iterdir() if p.suffix.lower() in PDF_SUFFIXES and p.is_file()):
        data_file = document.with_suffix(".json")
        if not data_file.is_file():
            taught.append(Taught(str(document), refused=f"no {data_file.name} beside it: nothing learned"))
            continue
        try:
            taught.append(learn_pair(store, document, data_file, schema=schema, by=by))
        except TeachError as exc:
            taught.append(Taught(str(document), refused=str(exc)))
    return taught


def learn_reviews(store: Any, out: Path) -> list[Taught]:
    """Every saved review in an output folder (``extract learn OUT``): approved ones teach, corrections of a
    layout's values demote it (``learn_review``)."""
    from extractor.tools.review_page.records import RecordStore

    records = RecordStore(out)
    taught = []
    for entry in records.entries():
        reviewed = records.reviewed(entry)
        if reviewed is not None:
            taught.append(learn_review(store, entry.record, reviewed, records.source(entry)))
    return taught


def learn_target(store: Any, target: Path, *, data: Path | None, schema: str | None, by: str) -> list[Taught]:
    """``extract learn TARGET``: a PDF with ``data`` (its true data), an output folder holding saved reviews
    (``*.reviewed.json``), or a folder of ``name.pdf`` + ``name.json`` pairs.

    Raises:
        TeachError: a bad target (missing, ``--data`` without a document), a data file that does not fit.
    """
    if not target.exists():
        raise TeachError(f"{target}: not found")
    if data is not None:
        if not target.is_file():
            raise TeachError(f"{target}: --data teaches one document: give its file")
        return [learn_pair(store, target, data, schema=load_schema(schema or DEFAULT_SCHEMA), by=by)]
    if not target.is_dir():
        raise TeachError(f"{target}: a document teaches with its true data: --data DATA.json")
    if any(p.name.endswith(REVIEWED_SUFFIX) for p in target.iterdir()):
        return learn_reviews(store, target)
    return learn_pairs(store, target, schema=load_schema(schema or DEFAULT_SCHEMA), by=by)


__all__ = ["learn_pair", "learn_pairs", "learn_reviews", "learn_target"]
