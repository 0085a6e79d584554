"""Re-check (edited) data as the review page shows it: schema errors, failed checks, grounding and citations.

One function, ``field_states``, called for the record as the model gave it and again on every edit (the page posts
its data as the reviewer types): the same validation (``validate.validate_data``), checks (``checks.run_checks``) and
grounding (``grounding.ground``, on the pages' texts) that made the record's status, and each value's citations
(``trust.citations``: the boxes the page draws).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from extractor.schema import Schema, validate_data
from extractor.tools.review_page.records import changed_fields
from extractor.trust.grounding import PageText
from extractor.trust.review import review_data


def field_states(
    data: Any, *, schema: Schema | None, schema_name: str, original: Any, page_texts: Sequence[PageText]
) -> dict:
    """Check data and say, per field, what the review page shows.

    Args:
        data: the data to check.
        schema: the record's schema (None when it cannot be loaded: no validation then).
        schema_name: ``invoice``, ``receipt`` or a custom schema's name (which checks and key fields apply).
        original: the model's data (to list the changed fields).
        page_texts: per page, its grounding text (with boxes where known); empty when the pages are unavailable.

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
    return {
        "valid": not errors,
        "errors": errors,
        "checks": list(result.checks),
        "grounded": [path for path, ok in grounding["fields"].items() if ok],
        "ungrounded": grounding["ungrounded"],
        "unchecked": grounding["unchecked"],
        "key_ungrounded": [w["path"] for w in result.grounding.warnings],
        "where": grounding["where"],
        "citations": {f.path: list(result.citations.get(f.path) or ()) for f in result.grounding.fields},
        "changed": changed_fields(original, data),
    }
