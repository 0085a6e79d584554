"""A layout adapted to one document's printing (``layouts.printing``): a credit note's mirrored signs, the order
of slashed dates told by the page. Pure: words made here, no PDF, no model."""

from __future__ import annotations

import pytest

from extractor.layouts import Teacher, learn, read
from extractor.layouts.printing import date_order
from extractor.layouts.words import PageWords
from extractor.testing.suppliers import page as synthetic_page

TEACHER = Teacher(source="review", document="a.pdf", sha256="0" * 64, by="tester", at="2026-01-01T00:00:00Z")


def page(lines: list[str]) -> PageWords:
    return synthetic_page(0, lines, char=0.01, height=0.01, confidence=None, source="text_layer")


def lines(title: str, number: str, date: str, net: str, total: str, *, due: str = "", other: str = "") -> list[str]:
    """A French document of one layout: an invoice (``Facture``) or a credit note (``Avoir``)."""
    return [
        "Au bon moulin SARL - 84340 Malaucène",
        "TVA : FR11999999998",
        "Ma jolie boutique",
        f"{title} {number}",
        f"Date de facture {date}",
        *([f"Virement {other} 10,00 €"] if other else []),
        f"Total HT {net} €",
        f"Total TTC {total} €",
        *([f"Solde à payer {due} €"] if due else []),
    ]


def data(number: str, date: str, net: float, total: float, due: float) -> dict:
    return {
        "invoice_number": number,
        "issue_date": date,
        "currency": "EUR",
        "seller": {"name": "Au bon moulin", "vat_id": "FR11999999998"},
        "buyer": {"name": "Ma jolie boutique"},
        "subtotal": net,
        "total": total,
        "amount_due": due,
    }


def taught(printed: list[str], truth: dict):
    layout = learn([page(printed)], truth, schema="invoice", teacher=TEACHER).layout
    assert layout is not None
    return layout


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["16/11/2017"], "D/M/Y"),
        (["11/17/2017"], "M/D/Y"),
        (["05/11/2017", "Date: 11/03/2017"], None),
        (["13/11/2017", "11/17/2017"], ""),
        (["16.11.2017", "total 12,00"], None),
        (["le 31/01/2026,", "05/11/2017"], "D/M/Y"),
    ],
)
def test_date_order(texts, expected):
    assert date_order(texts) == expected


CREDIT_NOTE = lines("Avoir", "AV-2017-0005", "16/11/2017", "-218,48", "-233,47")
CREDIT_DATA = data("AV-2017-0005", "2017-11-16", 218.48, 233.47, 233.47)


def test_a_credit_notes_layout_reads_an_invoice_with_its_signs_mirrored():
    """The credit note prints its amounts negative, its data holds them positive; an invoice of the same layout
    prints them positive: read positive. Its amount due, printed by the credit note only at its total, is not read
    (an invoice may have been partly paid)."""
    layout = taught(CREDIT_NOTE, CREDIT_DATA)
    invoice = lines("Facture", "FA-2017-0010", "13/11/2017", "624,90", "671,15", due="470,15", other="05/11/2017")
    reading = read(layout, [page(invoice)])
    assert {p: reading.values.get(p) for p in ("/subtotal", "/total", "/amount_due", "/issue_date")} == {
        "/subtotal": 624.9,
        "/total": 671.15,
        "/amount_due": None,
        "/issue_date": "2017-11-13",
    }
    assert "/amount_due" in reading.abstained
    # another credit note is read as taught
    other = read(layout, [page(lines("Avoir", "AV-2017-0006", "17/11/2017", "-10,00", "-12,00"))])
    assert (other.values["/subtotal"], other.values["/total"], other.values["/amount_due"]) == (10, 12, 12)


INVOICE = lines("Facture", "FA-2017-0010", "13/11/2017", "624,90", "671,15", due="671,15")
INVOICE_DATA = data("FA-2017-0010", "2017-11-13", 624.9, 671.15, 671.15)


def test_an_invoices_layout_never_reads_a_negative_print_its_title_does_not_call_a_credit_note():
    """Nothing on an invoice titled as one says a negative print is a credit note (or a negative invoice):
    abstain."""
    layout = taught(INVOICE, INVOICE_DATA)
    negative = lines("Facture", "FA-2017-0011", "16/11/2017", "-218,48", "-233,47", due="-233,47")
    reading = read(layout, [page(negative)])
    assert {"/subtotal", "/total", "/amount_due"} <= set(reading.abstained)
    assert not {"/subtotal", "/total", "/amount_due"} & set(reading.values)
    assert reading.values["/invoice_number"] == "FA-2017-0011"


def test_an_invoices_layout_reads_a_credit_note_by_its_title_its_negative_amounts_positive():
    """The same generator's credit note prints "Avoir" where the invoice printed "Facture": its number is read
    there, and its amounts printed negative are the positive amounts EN 16931 keeps; its amount due, printed only
    at the invoice's "Solde à payer", is not read."""
    layout = taught(INVOICE, INVOICE_DATA)
    reading = read(layout, [page(CREDIT_NOTE)])
    assert {p: reading.values.get(p) for p in ("/invoice_number", "/subtotal", "/total", "/amount_due")} == {
        "/invoice_number": "AV-2017-0005",
        "/subtotal": 218.48,
        "/total": 233.47,
        "/amount_due": None,
    }
    # a credit note printing its amounts positive holds them as printed (EN 16931's are positive)
    positive = read(layout, [page(lines("Avoir", "AV-2017-0006", "17/11/2017", "10,00", "12,00"))])
    assert (positive.values["/subtotal"], positive.values["/total"]) == (10, 12)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Avoir", "AV-2017-0005"),
        ("Credit note", "AV-2017-0005"),
        ("Gutschrift", "AV-2017-0005"),
        ("Commande", None),  # no title word: another label at that place
        ("Facture liée", None),  # an invoice's title word with another word: a reference to an invoice
    ],
)
def test_the_number_is_read_after_another_title_word_at_the_same_place(title, expected):
    layout = taught(INVOICE, INVOICE_DATA)
    printed = lines(title, "AV-2017-0005", "16/11/2017", "624,90", "671,15", due="671,15")
    assert read(layout, [page(printed)]).values.get("/invoice_number") == expected


def test_a_title_word_elsewhere_on_the_page_reads_no_number():
    """ "Avoir" printed lower on the page (a note: "Avoir AV-2017-0005 suite à ...") is not the title."""
    layout = taught(INVOICE, INVOICE_DATA)
    printed = lines("Référence", "AV-2017-0005", "16/11/2017", "624,90", "671,15", due="671,15")
    printed.insert(5, "Avoir AV-2017-0004")
    reading = read(layout, [page(printed)])
    assert "/invoice_number" not in reading.values


@pytest.mark.parametrize(
    ("date", "other", "expected"),
    [
        ("05/11/2017", "", "2017-11-05"),  # nothing on the page tells: the order the teacher printed
        ("05/11/2017", "17/11/2017", "2017-11-05"),
        ("11/05/2017", "11/17/2017", "2017-11-05"),  # the page prints month first
        ("05/11/2017", "13/11/2017 11/17/2017", None),  # both orders on one page: abstain
    ],
)
def test_slashed_dates_are_read_in_the_order_the_page_shows(date, other, expected):
    layout = taught(
        lines("Facture", "FA-2017-0010", "13/11/2017", "624,90", "671,15", due="671,15"),
        data("FA-2017-0010", "2017-11-13", 624.9, 671.15, 671.15),
    )
    printed = lines("Facture", "FA-2017-0011", date, "1,00", "1,20", due="1,20")
    printed += [f"Livraison {other}"] if other else []
    assert read(layout, [page(printed)]).values.get("/issue_date") == expected


def with_tax(printed: list[str], rows: list[tuple[str, str, str]]) -> list[str]:
    """The document with its tax rows (rate, base, amount as printed) after its header, before its totals."""
    at = next(i for i, line in enumerate(printed) if line.startswith("Total HT"))
    table = ["Taxe Base Montant", *(f"TVA collectée (vente) {r} {b} € {a} €" for r, b, a in rows)]
    return printed[:at] + table + printed[at:]


def test_a_credit_notes_tax_rows_read_an_invoices_rates_as_printed_amounts_mirrored():
    printed = with_tax(CREDIT_NOTE, [("20,0%", "-20,48", "-4,10"), ("5,5%", "-198,00", "-10,89")])
    truth = {**CREDIT_DATA, "tax_lines": [{"rate": 20, "base": 20.48, "amount": 4.1}]}
    truth["tax_lines"].append({"rate": 5.5, "base": 198, "amount": 10.89})
    layout = taught(printed, truth)
    invoice = lines("Facture", "FA-2017-0010", "13/11/2017", "624,90", "671,15", due="470,15")
    invoice = with_tax(invoice, [("20,0%", "81,90", "16,38"), ("5,5%", "543,00", "29,87")])
    values = read(layout, [page(invoice)]).values
    assert {p: v for p, v in values.items() if p.startswith("/tax_lines")} == {
        "/tax_lines/0/rate": 20,
        "/tax_lines/0/base": 81.9,
        "/tax_lines/0/amount": 16.38,
        "/tax_lines/1/rate": 5.5,
        "/tax_lines/1/base": 543,
        "/tax_lines/1/amount": 29.87,
    }
    own = read(layout, [page(printed)]).values
    assert (own["/tax_lines/0/amount"], own["/tax_lines/1/base"]) == (4.1, 198)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        # each row's base and amount add up to the total, as the taught row's did (the table's sum check)
        ("TVA collectée (vente) 20,0% 442,29 € 88,46 €", {"rate": 20, "base": 442.29, "amount": 88.46}),
        ("TVA 5,5% réduite 503,08 € 27,67 €", {"rate": 5.5, "base": 503.08, "amount": 27.67}),
        ("TVA 0% export (vente) 530,75 € 0,00 €", {"rate": 0, "base": 530.75, "amount": 0}),
        ("Taxe collectée 20,0% 442,29 € 88,46 €", None),  # another label
        ("TVA collectée 20,0% 10% 442,29 € 88,46 €", None),  # two rates
        ("TVA collectée 2017 20,0% 442,29 € 88,46 €", None),  # a number that is no rate
    ],
)
def test_a_tax_row_is_read_by_its_label_and_rate_whatever_words_stand_between(row, expected):
    """Taught "TVA 0% export (vente)": a row of the same label, one rate printed with its percent sign and the
    amounts as taught is read; another label, two rates, or another number between them is not."""
    net = {"rate": 0, "base": 530.75, "amount": 0}
    printed = with_tax(CREDIT_NOTE[:4] + ["Total HT 530,75 €", "Total TTC 530,75 €"], [])
    printed.insert(printed.index("Taxe Base Montant") + 1, "TVA 0% export (vente) 530,75 € 0,00 €")
    truth = {**CREDIT_DATA, "subtotal": 530.75, "total": 530.75, "amount_due": 530.75, "tax_lines": [net]}
    truth["invoice_number"], truth["issue_date"] = "AV-2017-0005", None
    layout = taught(printed, truth)
    other = list(printed)
    other[other.index("TVA 0% export (vente) 530,75 € 0,00 €")] = row
    values = read(layout, [page(other)]).values
    got = {k.rsplit("/", 1)[1]: v for k, v in values.items() if k.startswith("/tax_lines/0/")}
    assert (got or None) == expected
