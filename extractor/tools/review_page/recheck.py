"""Re-check (edited) data as the review page shows it: schema errors, failed checks, grounding and citations.

One function, ``field_states``, called for the record as the model gave it and again on every edit (the page posts
its data as the reviewer types): the same validation (``validate.validate_data``), checks (``checks.run_checks``) and
grounding (``grounding.ground``, on the pages' texts) that made the record's status, and each value's citations
(``trust.citations``: the boxes the page draws). A record read from e-invoice XML keeps its values' source
(``embedded_xml``, with the XPath each was read from) while they are as read; a value the reviewer changed is cited
where it is found on the page, as a value of the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from extractor.schema import Schema, validate_data
from extractor.tools.review_page.records import changed_fields
from extractor.trust.citations import read_from_xml
from extractor.trust.grounding import PageText
from extractor.trust.review import review_data


def field_states(
    data: Any,
    *,
    schema: Schema | None,
    schema_name: str,
    original: Any,
    page_texts: Sequence[PageText],
    xpaths: Mapping[str, str] | None = None,
) -> dict:
    """Check data and say, per field, what the review page shows.

    Args:
        data: the data to check.
        schema: the record's schema (None when it cannot be loaded: no validation then).
        schema_name: ``invoice``, ``receipt`` or a custom schema's name (which checks and key fields apply).
        original: the model's data (to list the changed fields).
        page_texts: per page, its grounding text (with boxes where known); empty when the pages are unavailable.
        xpaths: for data read from e-invoice XML (``embedded_xpaths``), each value's XPath: the values not changed
            are cited as read from the XML; None for data a model read from the pages.

    Returns:
        ``{"valid", "errors", "checks", "grounded", "ungrounded", "unchecked", "key_ungrounded", "where",
        "citations", "changed"}``: schema errors and failed checks (``{"code", "path", "message"}``), the grounded,
        ungrounded and not checkable pointers (too short or common to prove anything, or no page text), the key
        fields not found, where each grounded value is (page, source, box), every value's citations (the record's
        ``fields[pointer].citations``; ``[]`` when on no page) and the changed pointers.
    """
    errors = validate_data(data, schema) if schema is not None else []
    result = review_data(schema_name, data, page_texts, schema=schema)
    grounding = result.grounding.to_dict()
    changed = changed_fields(original, data)
    citations = result.citations
    if xpaths is not None:  # as read from the XML, but a value the reviewer typed: where the page has it
        citations = read_from_xml(citations, result.grounding, xpaths, keep=set(changed))
    return {
        "valid": not errors,
        "errors": errors,
        "checks": list(result.checks),
        "grounded": [path for path, ok in grounding["fields"].items() if ok],
        "ungrounded": grounding["ungrounded"],
        "unchecked": grounding["unchecked"],
        "key_ungrounded": [w["path"] for w in result.grounding.warnings],
        "where": grounding["where"],
        "citations": {f.path: list(citations.get(f.path) or ()) for f in result.grounding.fields},
        "changed": changed,
    }


def embedded_xpaths(record: Mapping[str, Any]) -> dict[str, str] | None:
    """The XPath each value of a record read from e-invoice XML was read from (its citations' ``xpath``; a value the
    reader derived has none), or None for a record whose data a model read from the pages."""
    if record.get("data_source") != "embedded_xml":
        return None
    fields = record.get("fields") or {}
    return {
        pointer: cited[0]["xpath"]
        for pointer, entry in fields.items()
        for cited in [(entry or {}).get("citations") or []]
        if cited and cited[0].get("source") == "embedded_xml" and cited[0].get("xpath")
    }
