"""The layouts engine on synthetic documents (pure: words made here, no PDF): formats, identities, learning from
one document and reading the next, abstaining, identity first, demotion, choosing among layouts, JSON."""

from __future__ import annotations

import copy
import json

import pytest

from extractor.layouts import Layout, LayoutError, Teacher, candidates, choose, demote, identities, index, learn, read
from extractor.layouts.formats import Format, formats_for, parse
from extractor.layouts.identity import iban_valid, vat_valid
from extractor.layouts.words import PageWords, from_lines

TEACHER = Teacher(source="review", document="a.pdf", sha256="0" * 64, by="tester", at="2026-01-01T00:00:00Z")


def page(lines: list[str], index_: int = 0, *, ocr: bool = False) -> PageWords:
    """A page of words: one line per text, 0.02 apart, each word placed by its characters (0.01 each)."""
    rows = []
    for n, text in enumerate(lines):
        words, at = [], 0
        for word in text.split(" "):
            if word:
                box = (0.05 + at * 0.01, 0.05 + n * 0.02, 0.05 + (at + len(word)) * 0.01, 0.06 + n * 0.02)
                words.append((word, box, 0.9 if ocr else None))
            at += len(word) + 1
        rows.append(words)
    return from_lines(index_, rows, source="ocr" if ocr else "text_layer")


def invoice_lines(number: str, date: str, total: str, *, seller: str = "Nordlicht GmbH", vat: str = "DE 123 456 789"):
    """A German invoice of one layout."""
    return [
        f"{seller} Hafenstraße 1 20457 Hamburg",
        f"USt-IdNr.: {vat}",
        "Kunde:",
        "Muster AG",
        f"Rechnungsnummer: {number}",
        f"Rechnungsdatum: {date}",
        "Pos Beschreibung Menge Preis Betrag",
        "1 Beratung 2 100,00 200,00",
        "2 Reisekosten 1 50,00 50,00",
        "Zwischensumme AB",
        f"Gesamtbetrag {total} €",
        "Zahlbar ohne Abzug",
    ]


def invoice_data(number: str, date: str, total: float, *, seller: str = "Nordlicht GmbH") -> dict:
    return {
        "invoice_number": number,
        "issue_date": date,
        "currency": "EUR",
        "seller": {"name": seller, "vat_id": "DE123456789"},
        "buyer": {"name": "Muster AG"},
        "total": total,
        "due_date": None,
    }


SCHEMA_LESS = "invoice"


def learned(lines=None, data=None) -> Layout:
    result = learn(
        [page(lines or invoice_lines("RE-2026-001", "03.02.2026", "1.297,50"))],
        data or invoice_data("RE-2026-001", "2026-02-03", 1297.5),
        schema=SCHEMA_LESS,
        teacher=TEACHER,
    )
    assert result.layout is not None, result.notes
    return result.layout


@pytest.mark.parametrize(
    ("text", "value", "decimal", "expected"),
    [
        ("05.06.2018", "2018-06-05", ",", Format("date", dates=("D.M.Y",))),
        ("13 novembre 2017", "2017-11-13", ",", Format("date", dates=("D Month Y",))),
        ("12/12/2017", "2017-12-12", ",", Format("date", dates=("D/M/Y", "M/D/Y"))),
        ("-50,00", 50, ",", Format("integer", negated=True, signed=True)),
        ("671,15 €", 671.15, ",", Format("number")),
        ("$1,297.50", 1297.5, ".", Format("number")),
        ("120 000,00", 120000, ",", Format("integer")),
        ("FR20 1242 1242", "FR2012421242", ",", Format("compact")),
        ("RE-2026-001", "RE-2026-001", ",", Format("text", words=1)),
        ("Nordlicht GmbH", "Nordlicht GmbH", ",", Format("text")),
        ("1.297,50", 1297.5, ".", None),
        ("05.06.2018", "2018-05-06", ",", None),
    ],
)
def test_formats_for(text, value, decimal, expected):
    assert formats_for(text, value, decimal=decimal) == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("text", "fmt", "expected"),
    [
        ("1.234,50", Format("number"), 1234.5),
        ("-8,07", Format("number"), None),  # taught without a sign: a minus is not read
        ("-8,07", Format("number", signed=True), -8.07),
        ("-50,00", Format("number", negated=True, signed=True), 50),
        ("05/06/2018", Format("date", dates=("D/M/Y", "M/D/Y")), None),  # two readings: neither
        ("13/11/2017", Format("date", dates=("D/M/Y", "M/D/Y")), "2017-11-13"),
        ("kg", Format("code", codes=(("kg", "KGM"),)), "KGM"),
        ("Stk", Format("code", codes=(("kg", "KGM"),)), None),
        ("liée FA-1", Format("text", words=1), None),
    ],
)
def test_parse(text, fmt, expected):
    assert parse(text, fmt, decimal=",") == expected


@pytest.mark.parametrize(
    ("vat", "valid"),
    [
        ("DE123456789", True),
        ("FR11999999998", True),
        ("FR12999999998", False),
        ("DE12345", False),
        ("XX123456789", False),
    ],
)
def test_vat_shape(vat, valid):
    assert vat_valid(vat) is valid


@pytest.mark.parametrize(
    ("iban", "valid"),
    [("DE89370400440532013000", True), ("DE89370400440532013001", False), ("FR2012421242124212421242124", True)],
)
def test_iban(iban, valid):
    assert iban_valid(iban) is valid


def test_identities_joins_pieces_and_cuts_labels():
    words = [
        page(["USt-IdNr.: DE 123 456 789", "IBAN DE89 3704 0044 0532 0130 00", "TVA:FR11999999998", "Nr. DE 80333"])
    ]
    assert identities(words) == ("iban:DE89370400440532013000", "vat:DE123456789", "vat:FR11999999998")


def test_learn_one_read_the_next():
    layout = learned()
    reading = read(layout, [page(invoice_lines("RE-2026-002", "17.03.2026", "88,20"))])
    assert reading.values == {
        "/invoice_number": "RE-2026-002",
        "/issue_date": "2026-03-17",
        "/currency": "EUR",
        "/seller/name": "Nordlicht GmbH",
        "/seller/vat_id": "DE123456789",
        "/buyer/name": "Muster AG",
        "/total": 88.2,
        "/due_date": None,
    }
    assert reading.abstained == {}
    assert reading.citations["/total"] == [
        {"page": 1, "box": [0.18, 0.25, 0.25, 0.26], "text": "88,20 €", "source": "text_layer", "confidence": None}
    ]


def test_learn_notes_what_is_not_printed():
    data = invoice_data("RE-2026-001", "2026-02-03", 1297.5)
    data["buyer"]["vat_id"] = "DE999999999"
    result = learn(
        [page(invoice_lines("RE-2026-001", "03.02.2026", "1.297,50"))], data, schema="invoice", teacher=TEACHER
    )
    assert "/buyer/vat_id: 'DE999999999' is not printed on the document as read; not learned" in result.notes
    assert "/due_date: no value in the teacher's data; read as null" in result.notes


def test_ocr_words_are_read_and_cited_with_their_confidence():
    layout = learned()
    reading = read(layout, [page(invoice_lines("RE-2026-002", "17.03.2026", "88,20"), ocr=True)])
    assert reading.values["/total"] == 88.2
    assert reading.citations["/total"][0]["source"] == "ocr"
    assert reading.citations["/total"][0]["confidence"] == 0.9


@pytest.mark.parametrize(
    ("change", "pointer", "reason"),
    [
        # the total printed twice at its label: two candidates
        (lambda ls: ls + ["Gesamtbetrag 12,00 €"], "/total", "several_candidates"),
        # its label gone
        (lambda ls: [line.replace("Gesamtbetrag", "Summe") for line in ls], "/total", "no_candidate"),
        # not a number where it was printed
        (lambda ls: [line.replace("Gesamtbetrag 88,20", "Gesamtbetrag siehe") for line in ls], "/total", "unparsable"),
        # a date in another order than taught
        (lambda ls: [line.replace("17.03.2026", "2026-03-17") for line in ls], "/issue_date", "unparsable"),
    ],
)
def test_abstains_with_the_reason(change, pointer, reason):
    layout = learned()
    reading = read(layout, [page(change(invoice_lines("RE-2026-002", "17.03.2026", "88,20")))])
    assert reading.abstained.get(pointer) == reason
    assert pointer not in reading.values
    assert reading.data is None


def test_a_value_printed_in_two_places_must_agree():
    # (a label naming another value, "Zahlbetrag" for the total, is dropped where another place is left:
    # learn.OTHER_LABELS)
    lines = invoice_lines("RE-2026-001", "03.02.2026", "1.297,50") + ["Endsumme 1.297,50"]
    layout = learned(lines)
    assert len(layout.field("/total").places) == 2
    agree = invoice_lines("RE-2026-002", "17.03.2026", "88,20") + ["Endsumme 88,20"]
    assert read(layout, [page(agree)]).values["/total"] == 88.2
    disagree = invoice_lines("RE-2026-002", "17.03.2026", "88,20") + ["Endsumme 80,20"]
    assert read(layout, [page(disagree)]).abstained["/total"] == "places_disagree"


def test_identity_first_another_seller_of_the_same_generator_is_not_read():
    layout = learned()
    other = invoice_lines("X-1", "17.03.2026", "88,20", seller="Südwind AG", vat="DE 111 111 111")
    reading = read(layout, [page(other)])
    assert reading.values == {}
    assert set(reading.abstained.values()) == {"identity_not_printed"}


def test_a_seller_printing_a_known_vat_id_under_its_own_name_is_not_read():
    layout = learned()
    impostor = invoice_lines("X-1", "17.03.2026", "88,20", seller="Südwind AG")  # Nordlicht's VAT id
    assert read(layout, [page(impostor)]).values == {}
    # Nordlicht's name printed in a footnote does not make the seller's line Nordlicht's
    impostor = impostor + ["Vertrieb für Nordlicht GmbH"]
    assert read(layout, [page(impostor)]).values == {}


def test_demote_stops_reading_a_field():
    layout = demote(learned(), ["/total"])
    reading = read(layout, [page(invoice_lines("RE-2026-002", "17.03.2026", "88,20"))])
    assert reading.abstained == {"/total": "demoted"}
    assert "/total" not in reading.values


def test_choose_index_and_candidates():
    first = learned()
    other_lines = ["Nordlicht GmbH Lager Nord", "USt-IdNr.: DE 123 456 789", "Lieferschein-Rechnung RN-7", "Total 5,00"]
    other = learn(
        [page(other_lines)],
        {"invoice_number": "RN-7", "seller": {"name": "Nordlicht GmbH", "vat_id": "DE123456789"}, "total": 5.0},
        schema="invoice",
        teacher=TEACHER,
    ).layout
    assert other is not None and other.id != first.id
    doc = [page(invoice_lines("RE-2026-002", "17.03.2026", "88,20"))]
    assert choose([other, first], doc) == first
    assert choose([other, first], [page(["Südwind AG", "USt-IdNr.: DE 123 456 789"])]) is None
    by_key = index([first, other])
    assert by_key == {"vat:DE123456789": (first.id, other.id)}
    assert candidates(by_key, identities(doc)) == (first.id, other.id)
    assert candidates(by_key, ("vat:DE111111111",)) == ()


def test_json_round_trip_and_refusals():
    layout = demote(learned(), ["/total"])
    text = json.dumps(layout.to_json())
    assert Layout.from_json(json.loads(text)) == layout
    newer = copy.deepcopy(layout.to_json())
    newer["format"] = 99
    with pytest.raises(LayoutError, match="newer"):
        Layout.from_json(newer)
    broken = copy.deepcopy(layout.to_json())
    del broken["fields"]
    with pytest.raises(LayoutError, match="malformed layout: KeyError"):
        Layout.from_json(broken)


def test_teacher_source_is_checked():
    with pytest.raises(ValueError, match="teacher source 'model'"):
        Teacher(source="model", document="a", sha256="", by="", at="")
