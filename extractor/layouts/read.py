"""Reading a document by a learned layout (skeleton: filled in next)."""

from __future__ import annotations

from collections.abc import Sequence

from extractor.layouts.model import Layout, LayoutRead
from extractor.layouts.words import PageWords


def read(layout: Layout, pages: Sequence[PageWords]) -> LayoutRead:
    """Read a document by ``layout``: every field must match exactly one candidate parsed by its learned format,
    else it abstains with the reason; nothing is read when the layout's identity is not printed on the document.

    Returns:
        ``LayoutRead``: values, abstentions with reasons, citations, and ``data`` when every required field was read.
    """
    raise NotImplementedError
