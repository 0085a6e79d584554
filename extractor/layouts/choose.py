"""Which of a supplier's layouts reads a document: identity first (every key the layout requires printed), then
the fingerprint (the share of the layout's fixed words the document prints); and the index the store keys its rows
by (identity key -> layout ids), so the candidates among many suppliers are found by lookups, not a scan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from extractor.layouts.identity import identities
from extractor.layouts.model import Layout
from extractor.layouts.words import PageWords, fold
from extractor.register.keys import name_key

# the least share of a layout's fixed words a document must print for the layout to read it
MIN_FINGERPRINT = 0.6


def fixed_words(pages: Sequence[PageWords]) -> frozenset[str]:
    """A document's folded words that hold no digit (the words a layout's fingerprint is made of)."""
    folded = (fold(w.text) for page in pages for w in page.words)
    return frozenset(word for word in folded if not any(c.isdigit() for c in word))


def fingerprint_score(layout: Layout, pages: Sequence[PageWords]) -> float:
    """The share (0..1) of the layout's fingerprint words that the document prints."""
    if not layout.fingerprint:
        return 0.0
    return len(layout.fingerprint & fixed_words(pages)) / len(layout.fingerprint)


def name_printed(name: str, pages: Sequence[PageWords]) -> bool:
    """True when a run of words on a line is ``name`` (normalised as ``register.keys.name_key``)."""
    words = len(name.split())
    for page in pages:
        for line in page.lines:
            texts = [page.words[i].text for i in line]
            for start in range(len(texts) - words + 1):
                if name_key(" ".join(texts[start : start + words])) == name:
                    return True
    return False


def identity_printed(layout: Layout, pages: Sequence[PageWords]) -> bool:
    """True when the layout's seller is the document's: its name and VAT id printed, and, when the document prints an
    IBAN and the layout knows the seller's, one of them (a seller printing a known seller's VAT id under its own name
    or bank account is not that seller)."""
    printed = set(identities(pages))
    for key in layout.identity:
        kind, _, value = key.partition(":")
        if kind == "vat" and key not in printed:
            return False
        if kind == "name" and not name_printed(value, pages):
            return False
    known = {key for key in layout.identity if key.startswith("iban:")}
    shown = {key for key in printed if key.startswith("iban:")}
    return not (known and shown) or bool(known & shown)


def choose(candidates: Iterable[Layout], pages: Sequence[PageWords]) -> Layout | None:
    """The layout (among one supplier's candidates) whose identity is printed on the document and whose fingerprint
    it fits best (at least ``MIN_FINGERPRINT``); None when none fits. Ties go to the layout taught by more documents,
    then the lower id (so the choice never depends on the store's order)."""
    fitting = []
    for layout in candidates:
        score = fingerprint_score(layout, pages)
        if score >= MIN_FINGERPRINT and identity_printed(layout, pages):
            fitting.append((-score, -layout.documents, layout.id, layout))
    return min(fitting, key=lambda t: t[:3])[3] if fitting else None


def index(layouts: Iterable[Layout]) -> dict[str, tuple[str, ...]]:
    """Identity key -> the ids of the layouts requiring it (VAT ids and IBANs only: names are not unique)."""
    out: dict[str, list[str]] = {}
    for layout in layouts:
        for key in layout.identity:
            if not key.startswith("name:"):
                out.setdefault(key, []).append(layout.id)
    return {key: tuple(ids) for key, ids in out.items()}


def candidates(by_key: Mapping[str, Sequence[str]], keys: Iterable[str]) -> tuple[str, ...]:
    """The ids of the layouts any of a document's identity keys (``identities``) points at, each once, in order."""
    seen: dict[str, None] = {}
    for key in keys:
        for layout_id in by_key.get(key, ()):
            seen.setdefault(layout_id)
    return tuple(seen)
