"""Review: decide whether a schema-valid answer can be trusted (status ``ok``) or needs a person (``review``).

Every record whose answer is ``ok`` (a model answer that stopped cleanly and is schema-valid, or data read from
an embedded e-invoice) is reviewed (:func:`review_answer`, its findings added by :func:`apply_review`):

* the schema's checks (:func:`extractor.trust.checks.run_checks`: arithmetic, dates, currency, IBAN / BIC / VAT id; none
  for custom schemas), and
* grounding in the page text (:func:`extractor.trust.grounding.ground`): each page's text layer, or its OCR text where
  it has no usable text layer (scans, photos, image inputs, garbled text layers; ``ocrdecide.page_text``); values as
  whole tokens of their type, a line item's on its printed row. A key field (invoice: number, total, IBAN, seller and
  buyer VAT id; receipt: total, merchant VAT id; a custom schema: its own, :func:`key_fields_of`) whose value is not
  found on any page gives an ``ungrounded`` warning. Only pages with text can tell: a page with neither (OCR off or
  failed) never makes a record ``review`` for grounding alone.

Each failure is a warning ``{"code", "message", "path"}`` with a stable code (the checks' codes, listed in
``extractor.trust.checks``, and ``ungrounded``) and a JSON pointer into ``data``. Review only finds: one or more
findings turn ``ok`` into ``review`` where the status is decided (``trust.verdict.record_status``).
The record also carries ``checks`` (the failed checks, ``[]`` when all passed) and ``grounding``
(``GroundingReport.to_dict()``: per-field verdicts true / false / null, null where a value is too short or common
to prove anything; the ungrounded and unchecked paths; the ratio over checkable fields).

:func:`disagreements` compares embedded e-invoice data with a model's answer for ``--cross-check``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from extractor.leaves import field_path, leaves, normalize_value
from extractor.record import Record
from extractor.schema import Schema, key_fields
from extractor.trust.checks import run_checks
from extractor.trust.citations import cite
from extractor.trust.grounding import GroundingReport, PageText, ground, key_fields_for
from extractor.trust.verdict import is_ok


@dataclass(frozen=True)
class Review:
    """The checks and the grounding of one answer.

    Attributes:
        checks: the failed checks' warnings (empty when every check passed).
        grounding: where each value was found in the page text (text layer or OCR).
        citations: each value's citations (``trust.citations``): the boxes where grounding found it.
    """

    checks: tuple[dict, ...]
    grounding: GroundingReport
    citations: Mapping[str, list[dict]] = dataclasses.field(default_factory=dict)

    @property
    def warnings(self) -> tuple[dict, ...]:
        """Every failure: the failed checks, then the ungrounded key fields."""
        return self.checks + self.grounding.warnings

    @property
    def passed(self) -> bool:
        """True when no check failed and every key field is grounded (or cannot be told)."""
        return not self.warnings

    def to_extra(self) -> dict:
        """Return the record's ``checks`` and ``grounding`` entries."""
        return {"checks": list(self.checks), "grounding": self.grounding.to_dict()}


PageTexts = Sequence[PageText | str | None]


def key_fields_of(schema_name: str, data: Any, schema: Schema | None = None) -> tuple[str, ...]:
    """The key fields of one answer, as JSON pointers: a built-in schema's own (``grounding.key_fields_for``), or a
    custom schema's (``schema.key_fields``: by default its required strings, numbers and dates; ``x-extractor-key``
    on a field says otherwise), each list item's included.

    Args:
        schema_name: the record's schema name.
        data: the answer.
        schema: the schema (None: by name only, and a custom schema has none).
    """
    if schema is None or schema.builtin:
        return key_fields_for(schema_name)
    paths = set(key_fields(schema.schema, source=schema.source))
    return tuple(leaf.pointer for leaf in leaves(data, booleans=False) if field_path(leaf.parts) in paths)


def review_data(
    schema_name: str,
    data: Any,
    page_texts: PageTexts,
    *,
    totals: Mapping | None = None,
    xpaths: Mapping[str, str] | None = None,
    schema: Schema | None = None,
) -> Review:
    """Run the checks and the grounding on one answer.

    Args:
        schema_name: ``invoice``, ``receipt`` or a custom schema's name (no checks).
        data: the schema-valid data.
        page_texts: each page's text: a ``PageText`` (``ocrdecide.page_text``: text layer or OCR text), or the text
            layer itself (``Page.text``; None or blank when the page has none).
        totals: data read from e-invoice XML: the document totals it printed (``checks.check_invoice``).
        xpaths: data read from e-invoice XML: where each value was read (its citations say so).
        schema: the schema, whose key fields a custom one says (``key_fields_of``); None: by name only.

    Returns:
        The Review.
    """
    checks = tuple(run_checks(schema_name, data, totals=totals))
    grounding = ground(data, page_texts, key_fields=key_fields_of(schema_name, data, schema))
    return Review(checks=checks, grounding=grounding, citations=cite(grounding, page_texts, xpaths=xpaths))


def review_answer(
    record: Record,
    page_texts: PageTexts,
    *,
    schema: Schema | None = None,
    xpaths: Mapping[str, str] | None = None,
) -> Review | None:
    """Review a record's answer: its checks and its grounding in the page text.

    Args:
        record: the record with the answer's status (from the generation, the windows or embedded data).
        page_texts: each page's text (as for ``review_data``).
        schema: the record's schema (a custom schema's key fields are its own; None: by name only).
        xpaths: data read from e-invoice XML: where each value was read (``einvoice.xpaths``), for its citations.

    Returns:
        The Review, or None when the answer is not reviewed (any status but ``ok``: its data is not trusted in the
        first place).
    """
    if not is_ok(record.status):
        return None
    embedded = record.extra.get("embedded")
    totals = None
    if record.extra.get("data_source") == "embedded_xml" and isinstance(embedded, Mapping):
        totals = embedded.get("totals") if isinstance(embedded.get("totals"), Mapping) else None
    return review_data(record.schema, record.data, page_texts, totals=totals, schema=schema, xpaths=xpaths)


def apply_review(record: Record, review: Review | None) -> Record:
    """Add a review's findings to its record; the status is left as it is (``trust.verdict.record_status`` decides
    it from the findings).

    Args:
        record: the reviewed record.
        review: its review (``review_answer``); None: not reviewed, the record is returned unchanged.

    Returns:
        The record with ``checks`` and ``grounding`` in ``extra`` and the failures appended to ``warnings``.
    """
    if review is None:
        return record
    return dataclasses.replace(
        record, warnings=tuple(record.warnings) + review.warnings, extra={**record.extra, **review.to_extra()}
    )


def disagreements(embedded: Any, model: Any) -> list[dict]:
    """List every field where embedded e-invoice data and a model's answer differ (for ``--cross-check``).

    Values are compared normalised as ``extract eval`` does (strings casefolded with whitespace collapsed, numbers
    as decimals: ``19`` = ``19.0``); null and a missing field are the same. List items are compared by index.

    Args:
        embedded: the data read from the XML.
        model: the model's data (None when it gave none: then every embedded value disagrees).

    Returns:
        ``{"path": JSON pointer, "embedded": value or None, "model": value or None}`` per differing leaf, in the
        embedded data's order, then the fields only the model has.
    """
    ours = {leaf.pointer: leaf.value for leaf in leaves(embedded)}
    theirs = {leaf.pointer: leaf.value for leaf in leaves(model)}
    out = []
    for pointer in list(ours) + [p for p in theirs if p not in ours]:
        a, b = ours.get(pointer), theirs.get(pointer)
        if normalize_value(a) != normalize_value(b):
            out.append({"path": pointer, "embedded": a, "model": b})
    return out
