"""A party's address line read by its place in its block of aligned lines (``layouts.blocks``), where the words
around it were the teacher's party's own. Pure: words made here, no PDF."""

from __future__ import annotations

import pytest

from extractor.layouts import Layout, Teacher, learn, read
from extractor.layouts.words import PageWords, from_lines

TEACHER = Teacher(source="review", document="a.pdf", sha256="0" * 64, by="tester", at="2026-01-01T00:00:00Z")
ADDRESS = ("/buyer/address/street", "/buyer/address/postal_code", "/buyer/address/city")
INDENT = 0.3  # the address block's left edge: a column of its own


def page(lines: list[tuple[float, float, str]]) -> PageWords:
    """A page of lines, each ``(left edge, top, text)``, in that reading order; words 0.01 wide a character."""
    rows = []
    for left, top, text in lines:
        words, at = [], 0
        for word in text.split(" "):
            words.append((word, (left + at * 0.01, top, left + (at + len(word)) * 0.01, top + 0.01), None))
            at += len(word) + 1
        rows.append(words)
    return from_lines(0, rows, source="text_layer")


def invoice(*address: str, between: tuple[str, ...] = (), step: float = 0.02) -> PageWords:
    """The seller's head, a ship-to label, the address block (its lines ``step`` apart), then, when given, a line
    at the page's edge and the ``between`` lines as a second block right under it."""
    head = [(0.05, 0.05, "Au bon moulin SARL - 84340 Malaucène"), (0.05, 0.07, "TVA : FR11999999998")]
    head += [(0.05, 0.09, "Facture FA-2017-0010"), (0.05, 0.11, "Adresse de livraison")]
    block = [(INDENT, 0.13 + step * n, text) for n, text in enumerate(address)]
    low = 0.13 + step * len(address)
    second = [(0.05, low, "Réf. client 7"), *((INDENT, low + step * (n + 1), t) for n, t in enumerate(between))]
    return page([*head, *block, *(second if between else ()), (0.05, 0.4, "Total TTC 671,15 €")])


TRUTH = {
    "invoice_number": "FA-2017-0010",
    "currency": "EUR",
    "seller": {"name": "Au bon moulin", "vat_id": "FR11999999998"},
    "buyer": {
        "name": "Ma jolie boutique",
        "address": {"street": "35 rue de la République", "postal_code": "69001", "city": "Lyon"},
    },
    "total": 671.15,
}


@pytest.fixture(scope="module")
def layout() -> Layout:
    learned = learn(
        [invoice("Ma jolie boutique", "35 rue de la République", "69001 Lyon")],
        TRUTH,
        schema="invoice",
        teacher=TEACHER,
    ).layout
    assert learned is not None
    return learned


def test_another_buyers_address_is_read_at_its_lines_in_the_block(layout):
    """The street's anchors were the teacher's buyer's name: another buyer's block of as many lines reads, a street
    of four words where the teacher's had five, the city after the postal code whatever its words."""
    reading = read(layout, [invoice("Hôtel Saint Denis", "42 rue du stade", "97400 Saint Denis")])
    assert {p: reading.values.get(p) for p in ADDRESS} == {
        "/buyer/address/street": "42 rue du stade",
        "/buyer/address/postal_code": "97400",
        "/buyer/address/city": "Saint Denis",
    }


@pytest.mark.parametrize(
    ("address", "between"),
    [
        # another address with a line more: the block's lines are not the teacher's, no line is sure
        (("Hôtel Saint Denis", "Bâtiment B", "42 rue du stade", "97400 Saint Denis"), ()),
        # two blocks of the teacher's size at its edge and near its top: either may be the address
        (("Hôtel Saint Denis", "42 rue du stade", "97400 Saint Denis"), ("Hôtel du Port", "1 quai Est", "97420 Port")),
    ],
)
def test_a_block_not_the_teachers_alone_reads_nothing(layout, address, between):
    reading = read(layout, [invoice(*address, between=between, step=0.01)])
    assert not set(ADDRESS) & set(reading.values)
    assert set(ADDRESS) <= set(reading.abstained)


def test_a_postal_code_followed_by_digits_is_not_cut(layout):
    """The teacher's postal code was one word before a city of no digit: ``75 001 Paris`` does not say where the
    code ends, nor where the city starts."""
    reading = read(layout, [invoice("Hôtel Saint Denis", "42 rue du stade", "75 001 Paris")])
    assert reading.values.get("/buyer/address/street") == "42 rue du stade"
    assert not {"/buyer/address/postal_code", "/buyer/address/city"} & set(reading.values)


@pytest.mark.parametrize(("last", "expected"), [("France", "FR"), ("Lyon Cedex", None), ("Georgia", "GE")])
def test_a_country_printed_as_its_lines_whole_text_is_read_there(last, expected):
    """The teacher printed its country among other words (``Ile de la Réunion`` for RE): a document's line there
    that names one country in full is read as it; a line naming none reads nothing."""
    truth = {**TRUTH, "buyer": {"name": "Hôtel Saint Denis", "address": {"street": "42 rue du stade", "country": "RE"}}}
    taught = learn(
        [invoice("Hôtel Saint Denis", "42 rue du stade", "Ile de la Réunion")], truth, schema="invoice", teacher=TEACHER
    ).layout
    assert taught is not None
    reading = read(taught, [invoice("Ma jolie boutique", "35 rue de la République", last)])
    assert reading.values.get("/buyer/address/country") == expected
    assert reading.values["/buyer/address/street"] == "35 rue de la République"


def test_a_layout_stored_before_blocks_reads_at_its_anchors_only(layout):
    """A layout's JSON from before ``block`` was kept: its address lines are read at their anchors only."""
    body = layout.to_json()
    for rule in body["fields"]:
        for place in rule["places"]:
            del place["block"]
    older = Layout.from_json(body)
    assert all(not p.block for rule in older.fields for p in rule.places)
    reading = read(older, [invoice("Hôtel Saint Denis", "42 rue du stade", "97400 Saint Denis")])
    assert not set(ADDRESS) & set(reading.values)
    same = read(older, [invoice("Ma jolie boutique", "35 rue de la République", "69001 Lyon")])
    assert same.values["/buyer/address/street"] == "35 rue de la République"
