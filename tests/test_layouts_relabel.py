"""A field read where the teacher's page put it when the document labels it otherwise (``layouts.relabel``): the
same generator's page in another language, cross-checked by the arithmetic. Pure: words made here, no PDF."""

from __future__ import annotations

import pytest

from extractor.layouts import Layout, Teacher, learn, read
from extractor.layouts.relabel import UNCHECKED
from extractor.layouts.words import PageWords
from extractor.testing.suppliers import page as synthetic_page

TEACHER = Teacher(source="review", document="a.pdf", sha256="0" * 64, by="tester", at="2026-01-01T00:00:00Z")
AMOUNTS = ("/subtotal", "/total", "/prepaid_amount", "/amount_due")


def page(lines: list[str]) -> PageWords:
    return synthetic_page(0, lines, char=0.01, height=0.01, confidence=None, source="text_layer")


def printed(title: str, rows: list[tuple[str, str]], *, vat: str = "FR11999999998") -> list[str]:
    """A page of one generator: its head, then a column of labelled values aligned on their left edge (each label
    padded to 16 characters)."""
    head = ["Au bon moulin SARL - 84340 Malaucène", f"TVA : {vat}", "Ma jolie boutique", title]
    return head + [f"{label:<16}{value}" for label, value in rows]


FRENCH = printed(
    "Facture FA-2017-0010",
    [
        ("Date de facture", "13/11/2017"),
        ("Date d'échéance", "13/12/2017"),
        ("Total HT", "624,90 €"),
        ("Total TTC", "671,15 €"),
        ("Acompte versé", "201,00 €"),
        ("Solde à payer", "470,15 €"),
    ],
)
TRUTH = {
    "invoice_number": "FA-2017-0010",
    "issue_date": "2017-11-13",
    "due_date": "2017-12-13",
    "currency": "EUR",
    "seller": {"name": "Au bon moulin", "vat_id": "FR11999999998"},
    "buyer": {"name": "Ma jolie boutique"},
    "subtotal": 624.9,
    "total": 671.15,
    "prepaid_amount": 201,
    "amount_due": 470.15,
}


def english(residual: str = "1,453.76 €", *, rows: list[tuple[str, str]] | None = None) -> list[str]:
    """The English page (a date of its footer, 11/17/2017, shows it prints the month first)."""
    return printed(
        "Invoice FA-2017-0008",
        rows
        or [
            ("Invoice Date", "11/03/2017"),
            ("Due Date", "12/03/2017"),
            ("Net total", "2,076.76 €"),
            ("Total", "2,076.76 €"),
            ("Advance paid", "623.00 €"),
            ("Residual", residual),
        ],
    ) + ["Printed 11/17/2017"]


@pytest.fixture(scope="module")
def layout():
    learned = learn([page(FRENCH)], TRUTH, schema="invoice", teacher=TEACHER).layout
    assert learned is not None
    return learned


def test_the_same_generators_english_page_is_read_at_the_french_places(layout):
    """Other labels, the same places: each value at its label's rank among the aligned lines, in the page's own
    decimal separator and date order (its due date shows month first: 12/03 is the 3rd of December)."""
    reading = read(layout, [page(english())])
    assert {p: reading.values.get(p) for p in (*AMOUNTS, "/issue_date", "/due_date", "/invoice_number")} == {
        "/subtotal": 2076.76,
        "/total": 2076.76,
        "/prepaid_amount": 623,
        "/amount_due": 1453.76,
        "/issue_date": "2017-11-03",
        "/due_date": "2017-12-03",
        "/invoice_number": "FA-2017-0008",
    }


def test_amounts_the_arithmetic_does_not_hold_are_not_read(layout):
    """The residual is not the total less the prepayment: the amounts it ties abstain; the subtotal, tied by no
    check this page can make, is read (as many lines align as on the teacher's)."""
    reading = read(layout, [page(english("1,400.00 €"))])
    assert {p: reading.abstained.get(p) for p in ("/total", "/prepaid_amount", "/amount_due")} == dict.fromkeys(
        ("/total", "/prepaid_amount", "/amount_due"), UNCHECKED
    )
    assert reading.values["/subtotal"] == 2076.76


def test_a_line_the_layout_knows_by_its_label_is_never_read_as_another_field(layout):
    """The totals printed in another order, one under a label the layout reads by ("Total TTC" first): what stands
    at the subtotal's rank is the total, so the subtotal is not read there."""
    rows = [
        ("Invoice Date", "11/03/2017"),
        ("Due Date", "12/03/2017"),
        ("Total TTC", "2,076.76 €"),
        ("Net total", "2,076.76 €"),
        ("Advance paid", "623.00 €"),
        ("Residual", "1,453.76 €"),
    ]
    reading = read(layout, [page(english(rows=rows))])
    assert reading.values["/total"] == 2076.76
    assert "/subtotal" not in reading.values


def test_fewer_lines_than_the_teacher_and_nothing_to_check_read_nothing_there(layout):
    """Three aligned lines where the teacher printed six: no rank is sure, and no check ties the amounts."""
    rows = [("Invoice Date", "11/03/2017"), ("Net total", "2,076.76 €"), ("Total", "2,076.76 €")]
    reading = read(layout, [page(english(rows=rows))])
    assert not set(AMOUNTS) & set(reading.values)
    assert "/issue_date" not in reading.values


def test_another_seller_of_the_same_generator_is_not_read(layout):
    other = printed("Invoice FA-2017-0008", [("Invoice Date", "11/03/2017"), ("Total", "1.00 €")], vat="FR19787878784")
    reading = read(layout, [page(other)])
    assert reading.values == {}


def addressed(title: str, ship_to: tuple[str, str], bill_to: tuple[str, str] | None, total: str) -> list[str]:
    """A page naming its buyer under a ship-to label (and, when given, under a bill-to label too)."""
    head = ["Au bon moulin SARL - 84340 Malaucène", "TVA : FR11999999998", title, *ship_to]
    return head + [*(bill_to or ()), f"Total TTC {total}"]


BUYER_TRUTH = {
    "invoice_number": "FA-2017-0010",
    "currency": "EUR",
    "seller": {"name": "Au bon moulin", "vat_id": "FR11999999998"},
    "buyer": {"name": "Ma jolie boutique"},
    "total": 671.15,
}


@pytest.mark.parametrize(
    ("ship_to", "bill_to", "expected"),
    [
        (("Delivery Address", "Me gusta olive"), ("Customer", "Me gusta olive"), "Me gusta olive"),
        (("Delivery Address", "Hotel Sol"), ("Customer", "Me gusta olive"), None),  # the two places disagree
    ],
)
def test_a_name_printed_at_two_places_is_read_there_under_other_labels(ship_to, bill_to, expected):
    """The buyer's name alone on its line under "Adresse de livraison" and under "Client": under other labels
    (another language) it is read where both places start, when both print the same."""
    teacher = addressed("Facture FA-2017-0010", ("Adresse de livraison", "Ma jolie boutique"), None, "671,15 €")
    teacher[-1:-1] = ["Client", "Ma jolie boutique"]
    layout = learn([page(teacher)], BUYER_TRUTH, schema="invoice", teacher=TEACHER).layout
    assert layout is not None
    other = addressed("Invoice FA-2017-0008", ship_to, bill_to, "2,076.76 €")
    assert read(layout, [page(other)]).values.get("/buyer/name") == expected


def test_a_name_printed_at_one_place_is_not_read_under_another_label():
    teacher = addressed("Facture FA-2017-0010", ("Adresse de livraison", "Ma jolie boutique"), None, "671,15 €")
    layout = learn([page(teacher)], BUYER_TRUTH, schema="invoice", teacher=TEACHER).layout
    assert layout is not None
    other = addressed("Invoice FA-2017-0008", ("Delivery Address", "Me gusta olive"), None, "2,076.76 €")
    assert "/buyer/name" not in read(layout, [page(other)]).values


@pytest.mark.parametrize(
    ("title", "expected"),
    [("Avoir AV-2017-0005", "Ma jolie boutique"), ("Commande CO-2017-0005", None)],
)
def test_a_title_word_above_a_value_is_any_title_word(title, expected):
    """Taught under "Adresse de livraison" under "Facture FA-2017-0010": a credit note's "Avoir AV-2017-0005" there
    is a title too; another word ("Commande") is not."""
    teacher = addressed("Facture FA-2017-0010", ("Adresse de livraison", "Ma jolie boutique"), None, "671,15 €")
    layout = learn([page(teacher)], BUYER_TRUTH, schema="invoice", teacher=TEACHER).layout
    assert layout is not None
    other = addressed(title, ("Adresse de livraison", "Ma jolie boutique"), None, "671,15 €")
    assert read(layout, [page(other)]).values.get("/buyer/name") == expected


def test_an_amount_due_is_not_checked_by_a_prepayment_not_read(layout):
    """The prepayment's line prints a date, no amount: an amount due equal to the total is no check (nothing says
    nothing was paid), and more lines align than on the teacher's: neither is read."""
    rows = [
        ("Invoice Date", "11/03/2017"),
        ("Due Date", "12/03/2017"),
        ("Net total", "2,076.76 €"),
        ("Total", "2,076.76 €"),
        ("Advance paid", "11/17/2017"),
        ("Residual", "2,076.76 €"),
        ("Shipped", "11/18/2017"),
    ]
    reading = read(layout, [page(english(rows=rows))])
    assert not {"/prepaid_amount", "/amount_due", "/total"} & set(reading.values)
    assert (reading.abstained["/total"], reading.abstained["/amount_due"]) == (UNCHECKED, UNCHECKED)
    assert reading.values["/issue_date"] == "2017-11-03"  # the dates are in order


def test_a_layout_stored_before_ranks_reads_by_its_labels_only(layout):
    """A layout's JSON from before ``stack`` was kept: its places have no rank, so other labels read nothing."""
    body = layout.to_json()
    for rule in body["fields"]:
        for place in rule["places"]:
            assert "stack" in place
            del place["stack"]
    older = Layout.from_json(body)
    assert all(not p.stack for rule in older.fields for p in rule.places)
    reading = read(older, [page(english())])
    assert not set(AMOUNTS) & set(reading.values)
    assert read(older, [page(FRENCH)]).values["/total"] == 671.15
