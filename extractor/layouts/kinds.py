"""A document's kind as its title prints it: an invoice ("Rechnung", "Facture", "Invoice") or a credit note
("Gutschrift", "Avoir", "Credit note"), the word one generator prints at the same place before the number.

- A place labelled by a title word (the invoice number after "Facture") also reads the number after another title
  word printed at the same place, on the same page and at the same height (``retitled``): a supplier's credit note
  prints "Avoir AV-2017-0005" where its invoices print "Facture FA-2017-0010", its English invoice "Invoice".
- ``printed_kinds``: the kind the teacher's title named and the kind the document's title names, so a layout taught
  by an invoice reads a credit note's negative print as the positive amounts EN 16931 keeps (``printing``), and
  only when the document's title says it is a credit note.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from extractor.layouts import places
from extractor.layouts.model import Layout, Place
from extractor.layouts.titles import KIND_OF, title_kind
from extractor.layouts.words import PageWords, merge

# how far (page heights) a retitled value may sit from where the teacher printed its title's value
TITLE_DRIFT = 0.02
NUMBER = "/invoice_number"


def _at_title(place: Place, span: places.Span, pages: Sequence[PageWords]) -> bool:
    """True when a run of words is printed where the place's title's value was: its page, its height."""
    words = places.span_words(pages, span)
    return span.page == place.page[0] and bool(words) and abs(words[0].box[1] - place.box[1]) <= TITLE_DRIFT


def _titled(place: Place, pages: Sequence[PageWords]) -> Iterator[tuple[str, places.Span]]:
    """(title word, run of words after it) for every title word printed at the place's title's place."""
    for word in KIND_OF:
        other = dataclasses.replace(place, before=(word,))
        for span in places.matches(other, pages):
            if _at_title(place, span, pages):
                yield word, span


def retitled(place: Place, pages: Sequence[PageWords]) -> list[places.Span]:
    """The runs of words printed after another title word than the place's, at the place's height on its page
    (module docstring); none when the place is not labelled by a title word."""
    if title_kind(place.before) is None:
        return []
    own = merge(place.before)[0]
    return [span for word, span in _titled(place, pages) if word != own]


def printed_kinds(layout: Layout, pages: Sequence[PageWords]) -> tuple[str | None, str | None]:
    """(the kind the teacher's title named, the kind the document's title names) at the invoice number's places;
    None where a title does not tell (no title word there, or the document's titles name both kinds)."""
    rule = layout.field(NUMBER)
    taught: set[str] = set()
    shown: set[str] = set()
    for place in rule.places if rule is not None else ():
        kind = title_kind(place.before)
        if kind is None:
            continue
        taught.add(kind)
        shown |= {KIND_OF[word] for word, _ in _titled(place, pages)}
    return (taught.pop() if len(taught) == 1 else None), (shown.pop() if len(shown) == 1 else None)
