"""Learning a layout from a document and its true data (skeleton: filled in next)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from extractor.layouts.model import Layout, LearnResult, Teacher
from extractor.layouts.words import PageWords


def learn(
    pages: Sequence[PageWords],
    data: Mapping,
    *,
    schema: str,
    teacher: Teacher,
    citations: Mapping[str, list[dict]] | None = None,
) -> LearnResult:
    """Learn a layout from a document's words and its TRUE data (a review, embedded XML, an archive: never a
    model's answer).

    Args:
        pages: the document's words (``page_words``).
        data: its true data, schema-shaped.
        schema: the schema's name (``invoice``).
        teacher: where the truth came from.
        citations: where the truth's values are printed, when the caller knows (a review's citations): pointer ->
            ``[{"page": 1-based, "box": [...]}]``; used to pick among several printings of one value.

    Returns:
        The layout (None when the seller cannot be identified on the page) and notes: fields not printed, values
        not found.
    """
    raise NotImplementedError


def refine(layout: Layout, pages: Sequence[PageWords], data: Mapping, *, teacher: Teacher) -> LearnResult:
    """Teach ``layout`` another document of the same layout: places and formats both documents agree on are kept,
    the rest dropped (a field that varies where the first showed it fixed), demotions of re-taught fields lifted."""
    raise NotImplementedError


def demote(layout: Layout, pointers: Iterable[str]) -> Layout:
    """The layout no longer reading ``pointers`` (a review corrected them) until taught again."""
    raise NotImplementedError
