"""Which of a supplier's layouts reads a document: identity first (every key the layout requires printed), then
its labels (the share of its fields whose learned anchor words the document prints where learned) and the
fingerprint (the share of the layout's fixed words the document prints); and the index the store keys its rows
by (identity key -> layout ids), so the candidates among many suppliers are found by lookups, not a scan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from extractor.layouts.identity import identities
from extractor.layouts.model import Layout
from extractor.layouts.places import matches
from extractor.layouts.words import PageWords, fold
from extractor.register.keys import name_key

# the least share of a layout's fixed words a document must print for the layout to read it (a teacher's own notes
# are in its fingerprint too: documents of one layout measured 0.55 to 0.99 on the real groups, bench/learn.py)
MIN_FINGERPRINT = 0.5
# the least share of a layout's printed fields whose anchor words a document must print where learned: a supplier's
# second layout (other labels, another language) shares its letterhead and footer with the first, so the fingerprint
# alone may take the first for it; the labels tell them apart
MIN_ANCHORED = 0.5


def fixed_words(pages: Sequence[PageWords]) -> frozenset[str]:
    """A document's folded words that hold no digit (the words a layout's fingerprint is made of)."""
    folded = (fold(w.text) for page in pages for w in page.words)
    return frozenset(word for word in folded if not any(c.isdigit() for c in word))


def fingerprint_score(layout: Layout, pages: Sequence[PageWords]) -> float:
    """The share (0..1) of the layout's fingerprint words that the document prints."""
    if not layout.fingerprint:
        return 0.0
    return len(layout.fingerprint & fixed_words(pages)) / len(layout.fingerprint)


def anchored_share(layout: Layout, pages: Sequence[PageWords]) -> float:
    """The share (0..1) of the layout's printed fields (not ``absent``) with a place whose anchor words the document
    prints as learned (``places.matches``: a value may be there, or nothing after its label); 1.0 with none."""
    rules = [rule for rule in layout.fields if rule.places and not rule.absent]
    if not rules:
        return 1.0
    found = sum(1 for rule in rules if any(next(matches(place, pages), None) is not None for place in rule.places))
    return found / len(rules)


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


def identity_printed(layout: Layout, pages: Sequence[PageWords], *, printed: Iterable[str] | None = None) -> bool:
    """True when the layout's seller is the document's: its name and VAT id printed, and, when the document prints an
    IBAN and the layout knows the seller's, one of them (a seller printing a known seller's VAT id under its own name
    or bank account is not that seller). ``printed``: the document's ``identities``, when the caller has them."""
    printed = set(identities(pages) if printed is None else printed)
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
    """The layout (among one supplier's candidates) whose identity is printed on the document and whose labels and
    fingerprint it fits best (at least ``MIN_ANCHORED`` and ``MIN_FINGERPRINT``): a supplier's documents of two
    layouts are each read by their own, and a teacher of the second layout teaches a layout of its own rather than
    refining the first. None when none fits. Ties go to the layout taught by more documents, then the lower id (so
    the choice never depends on the store's order)."""
    fitting = []
    for layout in candidates:
        score = fingerprint_score(layout, pages)
        if score < MIN_FINGERPRINT or not identity_printed(layout, pages):
            continue
        anchored = anchored_share(layout, pages)
        if anchored >= MIN_ANCHORED:
            fitting.append((-anchored, -score, -layout.documents, layout.id, layout))
    return min(fitting, key=lambda t: t[:4])[4] if fitting else None


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
