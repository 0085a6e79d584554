"""The words a document's title names its kind by: an invoice ("Rechnung", "Facture", "Invoice") or a credit note
("Gutschrift", "Avoir", "Credit note"), the word one generator prints at one place whatever the document is
(``kinds`` reads a document's kind by them; ``places`` takes any of them where a teacher printed one above a
value: a ship-to name under "Adresse de livraison" under "Avoir AV-2017-0005" as under "Facture FA-2017-0010").
"""

from __future__ import annotations

from collections.abc import Sequence

from extractor.layouts.words import ANY, merge

INVOICE, CREDIT = "invoice", "credit"
# the title words, folded, spaces dropped (a place's fixed words are compared ``merge``d: "Credit note" is
# "creditnote"); each kind's words in the languages the formats know
TITLES = {
    INVOICE: ("rechnung", "invoice", "facture", "factura", "fattura", "faktura", "factuur", "taxinvoice"),
    CREDIT: (
        "gutschrift",
        "rechnungskorrektur",
        "stornorechnung",
        "avoir",
        "factured'avoir",
        "creditnote",
        "creditmemo",
        "notadicredito",
        "notadecrédito",
        "facturarectificativa",
        "creditnota",
    ),
}
KIND_OF = {word: kind for kind, words in TITLES.items() for word in words}
TITLE = "#title"  # any title word, where a place's lines above are compared


def title_kind(before: Sequence[str]) -> str | None:
    """The kind a place's label names when the label is a title word alone (``("facture",)``), else None."""
    merged = merge(before)
    if len(merged) != 1 or merged[0] == ANY:
        return None
    return KIND_OF.get(merged[0])


def untitled(merged: Sequence[str]) -> tuple[str, ...]:
    """A line's merged tokens with a title word (the line's first) as ``TITLE``: any title word fits it."""
    return (TITLE, *merged[1:]) if merged and merged[0] in KIND_OF else tuple(merged)
