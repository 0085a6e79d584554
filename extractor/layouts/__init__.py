"""Layouts: a supplier's way of printing its invoices, learned from one document and its true data, then read from
the next document with no model (issue 51; docs/learning.md).

The engine is pure: it takes a document's words (``page_words``) and data, and gives layouts and readings; the store
(``store.py``, in the register's database), the pipeline's route, the CLI and the service call it.

* ``identities(pages)``: the supplier keys printed on a document (``vat:``, ``iban:``), the store's index keys.
* ``learn(pages, data, schema=, teacher=)`` -> ``LearnResult``; ``refine`` adds a document; ``demote`` unlearns.
* ``choose(candidates, pages)``: the layout whose fingerprint fits; ``read(layout, pages)`` -> ``LayoutRead``.
"""

from extractor.layouts.choose import candidates, choose, fingerprint_score, index
from extractor.layouts.identity import identities
from extractor.layouts.learn import demote, learn, refine
from extractor.layouts.model import (
    Column,
    FieldRule,
    Format,
    Layout,
    LayoutError,
    LayoutRead,
    LearnResult,
    Place,
    Table,
    Teacher,
)
from extractor.layouts.read import read
from extractor.layouts.words import PageWords, Word, page_words

__all__ = [
    "Column",
    "FieldRule",
    "Format",
    "Layout",
    "LayoutError",
    "LayoutRead",
    "LearnResult",
    "PageWords",
    "Place",
    "Table",
    "Teacher",
    "Word",
    "candidates",
    "choose",
    "demote",
    "fingerprint_score",
    "identities",
    "index",
    "learn",
    "page_words",
    "read",
    "refine",
]
