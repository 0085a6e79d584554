"""The layouts engine on the real same-layout groups of ../shared (issue 51): learn a supplier's layout from one
document (its embedded XML, read by ``einvoice.read``, the truth; its text layer the words) and read the others:
the key fields (bench/learn.py's table has every field) read exactly, documents read fully. No value read may be
wrong; other sellers of the same generator, one printing the supplier's VAT id, are not read.
"""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from helpers import shared_path

from extractor.einvoice.read import read_embedded_invoice
from extractor.inputs.document import RasterSettings
from extractor.inputs.load import load_document
from extractor.layouts import Teacher, choose, identities, learn, page_words, read, refine

LIEFERANT = "Lieferant GmbH"


@functools.cache
def group(name: str) -> tuple[tuple[str, tuple, dict], ...]:
    """(file, words, truth) of each PDF of a group."""
    base = shared_path("corpus", "invoices")
    files = {
        "symtrax": sorted((base / "learn-symtrax").glob("*.pdf")),
        "fnfe": sorted((base / "zugferd-corpus").glob("v2_FNFE-factur-x-examples_*.pdf")),
    }[name]
    out = []
    for path in files:
        embedded = read_embedded_invoice(path)
        assert embedded is not None, path
        out.append(
            (path.name, tuple(page_words(load_document(path, raster=RasterSettings(text_boxes=True)))), embedded.data)
        )
    return tuple(out)


def teacher(name: str) -> Teacher:
    return Teacher(source="embedded_xml", document=name, sha256="-", by="test", at="2026-01-01T00:00:00Z")


def leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        return {k: v for key, value in data.items() for k, v in leaves(value, f"{prefix}/{key}").items()}
    if isinstance(data, list) and data:
        return {k: v for i, value in enumerate(data) for k, v in leaves(value, f"{prefix}/{i}").items()}
    return {prefix: data}


def same(a: Any, b: Any, shown: int | None = None) -> bool:
    """Equal, numbers as decimals; a number read as printed rounded to ``shown`` decimals (the reading says so)
    against the truth rounded so."""
    if isinstance(a, int | float) and isinstance(b, int | float):
        if shown is not None:
            return Decimal(str(a)) == Decimal(str(b)).quantize(Decimal(1).scaleb(-shown), rounding=ROUND_HALF_UP)
        return Decimal(str(a)) == Decimal(str(b))
    return a == b


def wrong(reading, truth: dict) -> dict:
    """Values read that the truth has otherwise (a value the XML leaves empty is not judged: a MINIMUM profile's
    XML carries no seller address the page prints)."""
    want = leaves(truth)
    return {
        p: (v, want.get(p))
        for p, v in reading.values.items()
        if want.get(p) is not None and not same(v, want[p], reading.precision.get(p))
    }


# the key fields (bench/learn.py's KEY): a table's cells by their column
KEY = ("/invoice_number", "/issue_date", "/currency", "/seller/name", "/seller/vat_id", "/buyer/name", "/subtotal")
KEY += ("/total", "/amount_due", "/tax_lines/*/amount", "/line_items/*/amount")


def generic(pointer: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in pointer.split("/"))


def one_teacher(name: str) -> tuple[int, int, int, dict[tuple[str, str], float]]:
    """Every own document of a group teaching alone, every other document read: (key fields read exactly, key
    fields, documents read fully, key share per (teacher, document)); asserting on the way that no value read is
    wrong, that nothing of another seller's document is read, and that a document read fully is read exactly."""
    docs = group(name)
    sellers = [d[2]["seller"]["name"] for d in docs]
    own = [d for d in docs if d[2]["seller"]["name"] == max(set(sellers), key=sellers.count)]
    exact = total = full = 0
    shares = {}
    for source, words, truth in own:
        layout = learn(list(words), truth, schema="invoice", teacher=teacher(source)).layout
        assert layout is not None
        for other, other_words, other_truth in docs:
            if other == source:
                continue
            reading = read(layout, list(other_words))
            assert wrong(reading, other_truth) == {}, (source, other)
            if other_truth["seller"]["name"] != truth["seller"]["name"]:
                assert reading.values == {}, (source, other)
                continue
            key = [p for p, v in leaves(other_truth).items() if generic(p) in KEY and v is not None]
            read_right = sum(1 for p in key if p in reading.values)
            exact, total = exact + read_right, total + len(key)
            shares[(source, other)] = read_right / len(key)
            if reading.data is not None:
                want, shown = leaves(other_truth), reading.precision
                assert {p: v for p, v in leaves(reading.data).items() if not same(v, want[p], shown.get(p))} == {}
                full += 1
    return exact, total, full, shares


def test_symtrax_one_teacher_reads_the_key_fields_never_wrong():
    exact, total, full, _ = one_teacher("symtrax")
    assert exact / total >= 0.9  # measured when written: 276/276
    # read fully (no model): 16 of 20 measured (6 before unit prices printed rounded were read as printed, units by
    # their SI symbol, a prepayment the arithmetic shows absent as not printed); 2_Teilrechnung teaching reads none
    # whole: a count's word it never printed ("Stk" after its "kg") is not guessed, nor a prepayment it never printed
    assert full >= 16


def test_fnfe_one_teacher_reads_its_layouts_key_fields_never_wrong():
    """The FNFE group is of one supplier in three layouts: two French invoices, a French credit note (its amounts
    printed negative, the XML's positive; "Avoir" where the invoices print "Facture") and an English invoice (other
    labels, US dates, "." decimals). The two invoices read each other's key fields, their tax rows too (read by
    their label and rate); the credit note's layout reads the invoices' amounts with their signs mirrored (not
    their amount due, which it printed only as its total) and their number after "Facture"; the invoices' layouts
    read the credit note's number after "Avoir" and, its title saying credit note, its negative amounts positive;
    the English invoice and the French ones read each other where the teacher's page put a value (its rank among
    the aligned lines, cross-checked by the arithmetic) and the buyer where both its places start; nothing is ever
    read wrong."""
    exact, total, full, shares = one_teacher("fnfe")
    # read fully (no model): 1 of 12 measured (0 before address lines were read by their block): the DOM invoice
    # teaching reads the French one whole (its buyer's street, postal code, city and "France" at their lines of the
    # address blocks); the French one teaching cannot read the DOM one whole: its ship-to city is not its buyer's
    # ("Saint Denis de la réunion" and "Saint Denis": the places disagree) and "Ile de la Réunion" names no country
    assert full >= 1
    # measured when written: 103/126 (64/126 before titles, ranks and places); what no teacher can give: the credit
    # note's line items to the invoices' layouts (their XML has none), its amount due (the invoices print it only
    # at "Solde à payer"), the English invoice's MINIMUM XML's missing subtotal and tax rows
    assert exact / total >= 0.8
    credit = "v2_FNFE-factur-x-examples_Avoir_FR_type381_BASIC.pdf"
    english = "v2_FNFE-factur-x-examples_Facture_UE_MINIMUM.pdf"
    invoices = ("v2_FNFE-factur-x-examples_Facture_DOM_BASICWL.pdf", "v2_FNFE-factur-x-examples_Facture_FR_BASICWL.pdf")
    # measured when written: DOM teaching, FR read 11/11, the English 8/8; FR teaching, DOM read 10/10, the
    # English 8/8
    for teacher_, reader in (invoices, invoices[::-1], (invoices[0], english), (invoices[1], english)):
        assert shares[(teacher_, reader)] == 1, (teacher_, reader)
    # the credit note teaching: FR read 10/11, DOM 9/10 (not their amount due), the English 6/8; the invoices
    # teaching, the credit note 10/13 each (not its amount due, nor its two line items)
    assert shares[(credit, invoices[1])] >= 0.9 and shares[(credit, invoices[0])] >= 0.9
    assert shares[(credit, english)] >= 0.75
    assert shares[(invoices[0], credit)] >= 0.75 and shares[(invoices[1], credit)] >= 0.75
    # the English invoice teaching (no subtotal, no tax rows in its XML): DOM 8/10, FR 8/11
    assert shares[(english, invoices[0])] >= 0.8 and shares[(english, invoices[1])] >= 0.7


def test_the_seller_printing_a_known_vat_id_is_not_read_as_that_seller():
    docs = {d[0]: d for d in group("symtrax")}
    impostor = next(d for d in docs.values() if d[2]["seller"]["name"] == "Verkehrsbetriebe GmbH")
    assert "vat:DE123456789" in identities(list(impostor[1]))  # it prints Lieferant's VAT id
    lieferant = next(d for d in docs.values() if d[2]["seller"]["name"] == LIEFERANT)
    layout = learn(list(lieferant[1]), lieferant[2], schema="invoice", teacher=teacher(lieferant[0])).layout
    assert layout is not None and "vat:DE123456789" in layout.identity
    assert choose([layout], list(impostor[1])) is None
    reading = read(layout, list(impostor[1]))
    assert reading.values == {} and set(reading.abstained.values()) == {"identity_not_printed"}


def test_two_teachers_read_a_document_fully():
    own = [d for d in group("symtrax") if d[2]["seller"]["name"] == LIEFERANT]
    first, second, *rest = own
    layout = learn(list(first[1]), first[2], schema="invoice", teacher=teacher(first[0])).layout
    assert layout is not None
    refined = refine(layout, list(second[1]), second[2], teacher=teacher(second[0])).layout
    assert refined is not None and refined.documents == 2
    full = [d for d in rest if read(refined, list(d[1])).data is not None]
    assert full, "no document read fully"
    for name, words, truth in full:
        reading = read(refined, list(words))
        want = leaves(truth)
        assert {
            p: v for p, v in leaves(reading.data).items() if not same(v, want.get(p), reading.precision.get(p))
        } == {}, name
