"""Grounding extracted values in the PDF text layer: locale number and date formats, identifiers, samples."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from extractor.trust.grounding import KEY_FIELDS, PageText, fold, ground, key_fields_for, numbers_in

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


@pytest.mark.parametrize(
    "text,value",
    [
        ("Summe 1.234,56 €", "1234.56"),
        ("Total $1,234.56", "1234.56"),
        ("Total HT 1 234,56 €", "1234.56"),
        ("Total TTC 1\u202f234,56\u00a0€", "1234.56"),
        ("Total CHF 1'234.56", "1234.56"),
        ("Total CHF 1’234.56", "1234.56"),
        ("¥1,561,450", "1561450"),
        ("1 561 450 ¥", "1561450"),
        ("12.345.678,90", "12345678.90"),
        ("USt. 19 %", "19"),
        ("19,00 %", "19"),
        ("8.1%", "8.1"),
        ("3,5 Std.", "3.5"),
        ("Anzahlung -3'000.00", "3000"),
        ("(1,234.50)", "1234.5"),
        ("EUR1.156,00", "1156"),
        ("Qty 250 @ 0.084", "0.084"),
    ],
)
def test_numbers_in_finds(text, value):
    assert Decimal(value) in numbers_in(fold(text))


@pytest.mark.parametrize(
    "text,value",
    [
        ("1.234", "1234"),  # ambiguous: both readings
        ("1.234", "1.234"),
        ("1,234", "1.234"),
    ],
)
def test_numbers_in_ambiguous(text, value):
    assert Decimal(value) in numbers_in(fold(text))


@pytest.mark.parametrize(
    "text,value",
    [
        ("1.234,56", "1.23456"),
        ("1.234,56", "123456"),
        ("31.01.2026", "31.01"),
        ("Tel. 040 555 0192", "40555"),
        # whole tokens only: no part of a date, identifier, phone number or IBAN is a number
        ("31.01.2026", "2026"),
        ("Vervaldatum 19-03-2026", "19"),
        ("Tel. 040 555 0192", "555"),
        ("(512) 555-0147", "512"),
        ("IBAN DE89 3704 0044 0532 0130 00", "3704"),
        ("IBAN DE89 3704 0044 0532 0130 00", "89"),
        ("VAT Reg. No. GB 314 1500 17", "314"),
        ("Kundennummer: K-10482", "10482"),
        ("Kopierpapier 80gsm", "80"),
    ],
)
def test_numbers_in_rejects(text, value):
    assert Decimal(value) not in numbers_in(fold(text))


FIELD_CASES = [
    # value, page text, grounded
    (2377.78, "Rechnungsbetrag 2.377,78 €", True),
    (2377.78, "Amount due: €2,377.78", True),
    (2377.78, "Total 2 377,78 EUR", True),
    (2377.78, "Total 2377.87", False),
    (19, "zzgl. 19,00 % USt.", True),
    (1156, "1.156,00", True),
    (1561450, "ご請求金額 ¥1,561,450", True),
    (-3000, "abzüglich Anzahlung -3'000.00", True),
    ("2026-01-31", "Rechnungsdatum: 31.01.2026", True),
    ("2026-01-31", "Date : 31/01/2026", True),
    ("2026-01-31", "Invoice date 01/31/2026", True),
    ("2026-01-31", "Date 31-01-26", True),
    ("2026-01-31", "issued 2026/01/31", True),
    ("2026-01-31", "31 January 2026", True),
    ("2026-01-31", "Jan 31, 2026", True),
    ("2026-01-31", "January 31st, 2026", True),
    ("2026-01-31", "Wien, am 31. Jänner 2026", True),
    ("2026-01-31", "31. Januar 2026", True),
    ("2026-01-31", "le 31 janvier 2026", True),
    ("2026-03-01", "le 1er mars 2026", True),
    ("2026-02-01", "1 février 2026", True),
    ("2026-03-05", "5 maart 2026", True),
    ("2026-01-31", "2026-01-31", True),
    ("2026-01-31", "30.01.2026", False),
    ("2026-01-31", "31.01.2025", False),
    ("DE89370400440532013000", "IBAN DE89 3704 0044 0532 0130 00", True),
    ("DE89370400440532013000", "IBAN DE89 3704 0044 0532 0130 01", False),
    ("CHE271828189MWST", "UID / MWST-Nr. CHE-271.828.189 MWST", True),
    ("RE-2026-0117", "Rechnung Nr. RE-2026-0117", True),
    ("RE-2026-0117", "Rechnung Nr. RE 2026/0117", True),
    ("Kanzlei Weber & Söhne", "KANZLEI WEBER &\nSÖHNE", True),
    ("Muenchen", "München", False),
    ("Stk.", "4 Stk. 289,00", True),
    ("Stk.", "Stück", False),
    ("DE", "80539 München\nDeutschland", True),
    ("FR", "69002 Lyon\nFrance", True),
    ("CH", "3818 Grindelwald, Schweiz", True),
    ("DE", "80539 München", False),
    ("EUR", "Summe 44,40 €", True),
    ("EUR", "SUMME EUR 44,40", True),
    ("GBP", "Total £12.00", True),
    ("EUR", "Total 44,40", False),
]


@pytest.mark.parametrize("value,text,grounded", FIELD_CASES)
def test_ground_one_field(value, text, grounded):
    key = "currency" if value in ("EUR", "GBP") else "country" if value in ("DE", "FR", "CH") else "v"
    report = ground({key: value}, [text])
    assert [(f.path, f.grounded) for f in report.fields] == [(f"/{key}", grounded)]


# Reach from CLDR (Babel): number conventions, month names and the words between date parts, country and currency
# names of every locale. (key, value, page text, grounded)
CLDR_CASES = [
    ("v", 123456.78, "Total ₹1,23,456.78", True),  # Indian grouping
    ("v", 1234567, "Rs. 12,34,567", True),
    ("v", 1234.56, "Total 1\u202f234,56\u00a0€", True),  # narrow no-break space
    ("v", 1234.56, "Montant 1\u00a0234,56", True),
    ("v", 1234.56, "Total CHF 1'234.56", True),
    ("v", 1234.56, "المجموع ١٬٢٣٤٫٥٦", True),  # Arabic-Indic digits and separators
    ("v", 1234.5, "Razem 1.234,50 zł", True),
    ("v", 40555, "Tel. 040 555 0192", False),
    ("v", "2026-01-31", "Fecha: 31 de enero de 2026", True),  # Spanish
    ("v", "2026-01-31", "31-ene-2026", True),
    ("v", "2026-09-05", "5 sept. 2026", True),
    ("v", "2026-01-31", "31 de febrero de 2026", False),
    ("v", "2026-01-31", "Milano, 31 gennaio 2026", True),  # Italian
    ("v", "2026-02-03", "3 febbraio 2026", True),
    ("v", "2026-01-31", "30 gennaio 2026", False),
    ("v", "2026-01-31", "Kraków, 31 stycznia 2026 r.", True),  # Polish, genitive (format) and nominative (stand-alone)
    ("v", "2026-01-31", "31 styczeń 2026", True),
    ("v", "2026-10-31", "31 października 2026", True),
    ("v", "2026-01-31", "31 marca 2026", False),
    ("v", "2026-01-31", "31 de janeiro de 2026", True),  # Portuguese
    ("v", "2026-04-01", "1 d’abril de 2026", True),  # Catalan
    ("v", "2026-01-31", "2026 m. sausio 31 d.", True),  # Lithuanian
    ("v", "2026-01-31", "2026. január 31.", True),  # Hungarian
    ("v", "2026-01-31", "31. tammikuuta 2026", True),  # Finnish
    ("v", "2026-01-31", "31 Ocak 2026", True),  # Turkish
    ("v", "2026-01-31", "31 января 2026 г.", True),  # Russian
    ("v", "2026-01-31", "31 Ιανουαρίου 2026", True),  # Greek
    ("v", "2026-01-31", "31 जनवरी 2026", True),  # Hindi: vowel signs inside the month name
    ("v", "2026-01-31", "2026年1月31日", True),
    ("v", "2026-01-31", "2026년 1월 31일", True),  # Korean
    ("v", "2026-01-31", "Datum:31.01.2026", True),
    ("v", "2026-03-31", "31 Mrz 2026", True),  # not in CLDR, kept from the old table
    ("country", "ES", "28001 Madrid, España", True),
    ("country", "IT", "20121 Milano, Italia", True),
    ("country", "PL", "31-000 Kraków, Polska", True),
    ("country", "JP", "東京都 日本", True),
    ("country", "DE", "Bundesrepublik Deutschland", True),  # pycountry's official name, in German
    ("country", "PL", "31-000 Kraków", False),
    ("currency", "PLN", "Razem 100,00 zł", True),
    ("currency", "BRL", "Total R$ 10,00", True),
    ("currency", "INR", "Total Rs. 500", True),
    ("currency", "CHF", "Total Fr. 12.50", True),
    ("currency", "USD", "Total 10 dólares estadounidenses", True),
    ("currency", "SEK", "Summa 100 kr", True),
    ("currency", "PLN", "Razem 100,00", False),
]


@pytest.mark.parametrize("key,value,text,grounded", CLDR_CASES)
def test_ground_with_cldr(key, value, text, grounded):
    assert [(f.path, f.grounded) for f in ground({key: value}, [text]).fields] == [(f"/{key}", grounded)]


@pytest.mark.parametrize(
    "text,values,absent",
    [
        ("₹1,23,456.78", {"123456.78"}, {"1.23", "23", "456.78"}),
        ("12,34,567", {"1234567"}, {"12.34", "34"}),  # one whole reading: no digit groups
        ("1\u202f234\u202f567,89", {"1234567.89", "1234"}, {"1234567", "123456789"}),
        ("١٬٢٣٤٫٥٦", {"1234.56"}, {"1.234"}),
    ],
)
def test_numbers_in_cldr_conventions(text, values, absent):
    found = numbers_in(fold(text))
    assert {Decimal(v) for v in values} <= found
    assert not {Decimal(v) for v in absent} & found


def test_no_text_layer_is_unknown():
    report = ground({"invoice_number": "X-1", "total": 10}, [None, "  \n"])
    assert (report.text_layer, report.ratio, report.warnings) == (False, None, ())
    assert [f.grounded for f in report.fields] == [None, None]


def test_value_on_a_page_without_text_is_unknown():
    report = ground({"invoice_number": "X-100", "total": 10}, ["Invoice X-100", None])
    assert [(f.path, f.grounded, f.page) for f in report.fields] == [
        ("/invoice_number", True, 0),
        ("/total", None, None),
    ]
    assert report.warnings == ()


def test_nulls_booleans_and_empty_strings_are_skipped():
    report = ground({"a": None, "b": True, "c": "", "d": [None], "e": {"f": "x12"}}, ["x12"])
    assert [(f.path, f.grounded) for f in report.fields] == [("/e/f", True)]


def test_short_values_are_not_checkable():
    """0 and 1, one digit outside a row and one-letter texts prove nothing: null, left out of the ratio."""
    data = {
        "quantity": 1,
        "discount": 0,
        "days": 7,
        "unit_price": 289,
        "description": "Chair",
        "mark": "x",
        "missing": "Table",
    }
    report = ground(data, ["Office chair 289,00 7 1 0 x"])
    assert [(f.path, f.grounded) for f in report.fields] == [
        ("/quantity", None),
        ("/discount", None),
        ("/days", None),
        ("/unit_price", True),
        ("/description", True),
        ("/mark", None),
        ("/missing", False),
    ]
    result = report.to_dict()
    assert (result["ratio"], result["grounded"], result["checked"]) == (0.6667, 2, 3)
    assert result["unchecked"] == ["/quantity", "/discount", "/days", "/mark"]
    assert result["ungrounded"] == ["/missing"]


def test_ungrounded_key_fields_warn():
    data = {
        "invoice_number": "RE-9",
        "total": 100.5,
        "currency": "EUR",
        "seller": {"vat_id": "DE136695976"},
        "bank_account": {"iban": "DE89370400440532013000"},
    }
    report = ground(data, ["Rechnung RE-9\nSumme 100,50 €\nUSt-IdNr. DE 136 695 976"])
    assert report.warnings == (
        {
            "code": "ungrounded",
            "path": "/bank_account/iban",
            "message": "/bank_account/iban = 'DE89370400440532013000' is not found in the "
            "document's text (its text layer, or OCR text where a page has none)",
        },
    )
    text_layer = {"source": "text_layer", "box": None, "confidence": None, "page": 1}
    assert report.to_dict() == {
        "text_layer": True,
        "source": ["text_layer"],
        "ocr_confidence": [None],
        "ratio": 0.8,
        "grounded": 4,
        "checked": 5,
        "fields": {
            "/invoice_number": True,
            "/total": True,
            "/currency": True,
            "/seller/vat_id": True,
            "/bank_account/iban": False,
        },
        "ungrounded": ["/bank_account/iban"],
        "unchecked": [],
        "where": {
            "/invoice_number": text_layer,
            "/total": text_layer,
            "/currency": text_layer,
            "/seller/vat_id": text_layer,
        },
    }


def test_key_fields_by_schema():
    assert key_fields_for("invoice") == KEY_FIELDS
    assert key_fields_for("receipt") == ("/total", "/merchant/vat_id")
    assert key_fields_for("custom") == ()
    report = ground({"total": 5, "invoice_number": "A-7"}, ["nothing here"], key_fields=key_fields_for("custom"))
    assert report.warnings == ()


def test_fpdf_text_layer(tmp_path):
    """A PDF made here, read back through the project's own rasterizer (``Page.text``)."""
    fpdf = pytest.importorskip("fpdf")
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document

    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in (
        "Facture N° FA-2026-042",
        "Date : 27/02/2026",
        "Total TTC 7 089,60 EUR",
        "IBAN FR76 3000 6000 0112 3456 7890 189",
    ):
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.cell(0, 8, "Page 2: TVA FR20817263544")
    path = tmp_path / "f.pdf"
    pdf.output(str(path))
    doc = load_document(path, raster=RasterSettings(max_pixels=64 * 64, min_side=32))
    data = {
        "invoice_number": "FA-2026-042",
        "issue_date": "2026-02-27",
        "total": 7089.6,
        "bank_account": {"iban": "FR7630006000011234567890189"},
        "buyer": {"vat_id": "FR20817263544"},
        "seller": {"vat_id": "FR65908172638"},
    }
    report = ground(data, [p.text for p in doc.pages])
    assert report.to_dict()["fields"] == {
        "/invoice_number": True,
        "/issue_date": True,
        "/total": True,
        "/bank_account/iban": True,
        "/buyer/vat_id": True,
        "/seller/vat_id": False,
    }
    assert [f.page for f in report.fields if f.path == "/buyer/vat_id"] == [1]
    assert [w["path"] for w in report.warnings] == ["/seller/vat_id"]


def _sample_pdfs():
    return sorted(p for p in SAMPLES.glob("*.pdf") if (SAMPLES / "expected" / f"{p.stem}.json").is_file())


@pytest.fixture(scope="module")
def sample_texts():
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document

    raster = RasterSettings(max_pixels=64 * 64, min_side=32)
    return {p.stem: [page.text for page in load_document(p, raster=raster).pages] for p in _sample_pdfs()}


@pytest.mark.parametrize("stem", [p.stem for p in _sample_pdfs()] or ["(none)"])
def test_samples_ground(stem, sample_texts):
    if stem not in sample_texts:
        pytest.skip("samples/*.pdf with samples/expected/*.json not present")
    data = json.loads((SAMPLES / "expected" / f"{stem}.json").read_text(encoding="utf-8"))
    schema = "receipt" if stem.startswith("receipt") else "invoice"
    report = ground(data, sample_texts[stem], key_fields=key_fields_for(schema))
    if not report.text_layer:  # the scan: nothing can be told
        assert report.ratio is None and report.warnings == ()
        return
    assert report.ratio >= 0.9, report.ungrounded
    assert report.warnings == ()


@pytest.mark.parametrize("stem", [p.stem for p in _sample_pdfs() if p.stem.startswith("invoice-")] or ["(none)"])
def test_en16931_samples_ground(stem, sample_texts):
    """The invoice-en16931 answers ground like the invoice ones: every value but the two enums the page words its
    own way (document type, payment means; the one-letter VAT categories are not looked for) is on the text layer."""
    path = SAMPLES / "expected" / "en16931" / f"{stem}.json"
    if stem not in sample_texts or not path.is_file():
        pytest.skip("samples/*.pdf with samples/expected/en16931/*.json not present")
    data = json.loads(path.read_text(encoding="utf-8"))
    report = ground(data, sample_texts[stem], key_fields=key_fields_for("invoice-en16931"))
    if not report.text_layer:  # the scan
        assert report.ratio is None and report.warnings == ()
        return
    assert set(report.ungrounded) <= {"/document_type", "/payment_means"}, report.ungrounded
    assert report.warnings == ()


def test_sample_with_a_value_not_printed(sample_texts):
    stem = "invoice-de-einfach"
    if stem not in sample_texts:
        pytest.skip(f"samples/{stem}.pdf not present")
    data = json.loads((SAMPLES / "expected" / f"{stem}.json").read_text(encoding="utf-8"))
    data["total"] = 2377.87  # two digits swapped
    data["seller"]["vat_id"] = "DE271828181"
    report = ground(data, sample_texts[stem])
    assert [(w["code"], w["path"]) for w in report.warnings] == [
        ("ungrounded", "/seller/vat_id"),
        ("ungrounded", "/total"),
    ]


# ------------------------------------------------------------------------------------------- boxes on a text layer


@pytest.mark.parametrize(
    "data, printed",
    [
        ({"invoice_number": "FA-2026-042"}, "FA-2026-042"),
        ({"total": 7089.6}, "7 089,60"),  # the first line printing it: "Total TTC 7 089,60 €"
        ({"iban": "FR7630006000011234567890189"}, "FR76 3000 6000 0112 3456 7890 189"),
        ({"issue_date": "2026-02-27"}, "27/02/2026"),
    ],
)
def test_text_layer_boxes_narrowed_to_the_words_printing_the_value(data, printed):
    """Where a value is on a text layer: the box of the words holding it, checked against pdfium's own search."""
    import pypdfium2 as pdfium

    from extractor.inputs.textlayer import text_lines

    pdf = pdfium.PdfDocument(SAMPLES / "invoice-fr-services.pdf")
    page = pdf[0]
    width, height = page.get_size()
    textpage = page.get_textpage()
    start, count = textpage.search(printed).get_next()
    chars = [textpage.get_charbox(i) for i in range(start, start + count)]
    expected = (
        min(c[0] for c in chars) / width,
        1 - max(c[3] for c in chars) / height,
        max(c[2] for c in chars) / width,
        1 - min(c[1] for c in chars) / height,
    )
    layer = PageText(textpage.get_text_range(), source="text_layer", lines=text_lines(page))
    where = ground(data, [layer]).to_dict()["where"]
    pdf.close()
    ((pointer, found),) = where.items()
    assert (found["page"], found["source"], found["confidence"]) == (1, "text_layer", None)
    assert found["box"] == pytest.approx(list(expected), abs=2e-4)


def test_ocr_boxes_narrowed_to_words_and_lines_without_words_keep_their_box():
    from extractor.inputs.ocrresult import OcrLine, OcrWord

    def line(words, top, bottom, confidence):  # words: (text, left, right)
        boxes = [OcrWord(text, (left, top, right, bottom), confidence) for text, left, right in words]
        return OcrLine(
            " ".join(w.text for w in boxes), (boxes[0].box[0], top, boxes[-1].box[2], bottom), confidence, tuple(boxes)
        )

    lines = (
        line([("Rechnung", 0.1, 0.2), ("Nr.", 0.25, 0.3), ("RE-2026-0117", 0.4, 0.5)], 0.1, 0.12, 0.97),
        line([("Gesamt", 0.1, 0.2), ("1.375,64", 0.5, 0.6), ("EUR", 0.65, 0.7)], 0.8, 0.82, 0.95),
        line([("IBAN", 0.1, 0.2), ("DE89", 0.25, 0.35), ("3704", 0.4, 0.5)], 0.9, 0.92, 0.93),  # 2 lines
        line([("0044", 0.1, 0.2), ("0532", 0.25, 0.35), ("0130", 0.4, 0.5), ("00", 0.55, 0.65)], 0.92, 0.94, 0.91),
        OcrLine("Zahlbar sofort", (0.1, 0.95, 0.4, 0.97), 0.99),
    )  # no words: the line's box
    page = PageText("\n".join(line.text for line in lines), source="ocr", lines=lines, confidence=0.95)
    data = {"invoice_number": "RE-2026-0117", "total": 1375.64, "iban": "DE89370400440532013000", "terms": "sofort"}
    assert ground(data, [page]).to_dict()["where"] == {
        "/invoice_number": {"page": 1, "source": "ocr", "box": [0.4, 0.1, 0.5, 0.12], "confidence": 0.97},
        "/total": {"page": 1, "source": "ocr", "box": [0.5, 0.8, 0.6, 0.82], "confidence": 0.95},
        "/iban": {"page": 1, "source": "ocr", "box": [0.1, 0.9, 0.65, 0.94], "confidence": 0.91},
        "/terms": {"page": 1, "source": "ocr", "box": [0.1, 0.95, 0.4, 0.97], "confidence": 0.99},
    }


# ------------------------------------------------------------------------- typed tokens and rows (issue 21)
#
# A page is given as printed rows of cells ``(text, left)``; each test runs on the three forms grounding meets:
# a text layer's text (the batch: one text line per row), a text layer with word boxes (``textlayer.TextLine``,
# the review page) and OCR lines (``ocrresult.OcrLine``: one per cell, as OCR reads a table).

READINGS = ("text", "boxes", "ocr")
ROW_HEIGHT = 0.02


def _words(text: str, left: float, top: float, cls, *confidence):
    out, x = [], left
    for word in text.split():
        width = 0.008 * len(word)
        out.append(cls(word, (x, top, x + width, top + ROW_HEIGHT), *confidence))
        x += width + 0.005
    return tuple(out)


def printed(rows: list, reading: str) -> PageText:
    """A page printing ``rows`` (each a list of ``(text, left)`` cells, or a ``(text, left, top)`` cell placed
    off its row's band), read as ``reading``."""
    from extractor.inputs.ocrresult import OcrLine, OcrWord
    from extractor.inputs.textlayer import TextLine, TextWord

    cells = [[(c[0], c[1], c[2] if len(c) > 2 else 0.1 + 0.05 * r) for c in row] for r, row in enumerate(rows)]
    text = "\n".join(" ".join(c[0] for c in row) for row in cells)
    if reading == "text":
        return PageText(text, source="text_layer")
    if reading == "boxes":
        lines = []
        for row in cells:
            words = tuple(w for t, left, top in row for w in _words(t, left, top, TextWord))
            lines.append(TextLine(" ".join(w.text for w in words), _box(words), words))
        return PageText(text, source="text_layer", lines=tuple(lines))
    lines = []
    for row in cells:
        for t, left, top in row:
            words = _words(t, left, top, OcrWord, 0.99)
            lines.append(OcrLine(t, _box(words), 0.99, words))
    return PageText("\n".join(line.text for line in lines), source="ocr", lines=tuple(lines), confidence=0.99)


def _box(words):
    return (
        min(w.box[0] for w in words),
        min(w.box[1] for w in words),
        max(w.box[2] for w in words),
        max(w.box[3] for w in words),
    )


TABLE = [
    [("Pos.", 0.05), ("Beschreibung", 0.1), ("Menge", 0.5), ("Einzelpreis", 0.65), ("USt.", 0.75), ("Betrag", 0.85)],
    [
        ("1", 0.05),
        ("Bürostuhl ErgoFlex Pro, schwarz", 0.1),
        ("4 Stk.", 0.5),
        ("289,00", 0.65),
        ("19 %", 0.75),
        ("1.156,00", 0.85),
    ],
    [
        ("2", 0.05),
        ("Schreibtischleuchte LED, dimmbar", 0.1),
        ("6 Stk.", 0.5),
        ("54,90", 0.65),
        ("19 %", 0.75),
        ("329,40", 0.85),
    ],
    [("zzgl. 19 % USt. auf 1.485,40 €", 0.5), ("282,23 €", 0.85)],
    [("Fällig am 19-03-2026", 0.05)],
]
CHAIR = {
    "description": "Bürostuhl ErgoFlex Pro, schwarz",
    "quantity": 4,
    "unit": "Stk.",
    "unit_price": 289,
    "tax_rate": 19,
    "amount": 1156,
}
LAMP = {
    "description": "Schreibtischleuchte LED, dimmbar",
    "quantity": 6,
    "unit": "Stk.",
    "unit_price": 54.9,
    "tax_rate": 19,
    "amount": 329.4,
}


def _fields(data, rows, reading):
    return ground(data, [printed(rows, reading)]).to_dict()["fields"]


@pytest.mark.parametrize("reading", READINGS)
def test_line_items_grounded_on_their_rows(reading):
    fields = _fields({"line_items": [CHAIR, LAMP]}, TABLE, reading)
    assert fields == {f"/line_items/{i}/{k}": True for i in (0, 1) for k in CHAIR}


@pytest.mark.parametrize("reading", READINGS)
def test_a_quantity_printed_only_on_another_row_is_not_grounded(reading):
    """The chair's row prints 4, the lamp's 6: a chair with quantity 6 is not grounded (nor a price from the lamp's
    row), whether or not the lamp is in the answer."""
    wrong = {**CHAIR, "quantity": 6, "unit_price": 54.9}
    for items in ([wrong, LAMP], [wrong]):
        fields = _fields({"line_items": items}, TABLE, reading)
        assert (fields["/line_items/0/quantity"], fields["/line_items/0/unit_price"]) == (False, False)
        assert fields["/line_items/0/amount"] is True


@pytest.mark.parametrize("reading", READINGS)
def test_a_line_item_whose_row_is_not_printed(reading):
    """A line item whose description is printed nowhere: its values are not found (a one-digit quantity: no row to
    anchor it, not checkable), even where they are printed on other rows."""
    ghost = {"description": "Konferenztisch Eiche", "quantity": 4, "unit_price": 289, "amount": 1156}
    fields = _fields({"line_items": [ghost]}, TABLE, reading)
    assert fields == {
        "/line_items/0/description": False,
        "/line_items/0/quantity": None,
        "/line_items/0/unit_price": False,
        "/line_items/0/amount": False,
    }


@pytest.mark.parametrize("reading", READINGS)
def test_a_tax_rate_inside_a_date_is_not_grounded(reading):
    """19 is printed in the date 19-03-2026 only: not a tax rate, nor as a number anywhere."""
    rows = [[("Fällig am 19-03-2026", 0.05)], [("zzgl. 21 % USt. auf 1.485,40 €", 0.5), ("311,93 €", 0.85)]]
    data = {"tax_lines": [{"rate": 19, "base": 1485.4, "amount": 311.93}], "tax_rate": 19}
    assert _fields(data, rows, reading) == {
        "/tax_lines/0/rate": False,
        "/tax_lines/0/base": True,
        "/tax_lines/0/amount": True,
        "/tax_rate": False,
    }
    rows[1][0] = ("zzgl. 19 % USt. auf 1.485,40 €", 0.5)
    assert _fields(data, rows, reading) == {
        "/tax_lines/0/rate": True,
        "/tax_lines/0/base": True,
        "/tax_lines/0/amount": True,
        "/tax_rate": True,
    }


@pytest.mark.parametrize("reading", READINGS)
def test_a_tax_rate_only_on_another_tax_line_is_not_grounded(reading):
    data = {"tax_lines": [{"rate": 7, "base": 1485.4, "amount": 282.23}]}
    assert _fields(data, TABLE, reading)["/tax_lines/0/rate"] is False
    data = {"tax_lines": [{"rate": 19, "base": 1485.4, "amount": 282.23}]}
    assert _fields(data, TABLE, reading)["/tax_lines/0/rate"] is True


@pytest.mark.parametrize("reading", READINGS)
def test_country_code_is_a_word_in_its_case(reading):
    rows = [[("De Vries Installatietechniek B.V.", 0.05)], [("Kanaalweg 31, 3526 KL Utrecht", 0.05)]]
    data = {"seller": {"name": "De Vries Installatietechniek B.V.", "address": {"country": "DE"}}}
    assert _fields(data, rows, reading)["/seller/address/country"] is False
    rows.append([("USt-IdNr. DE 271 828 180", 0.05)])
    assert _fields(data, rows, reading)["/seller/address/country"] is True
    assert _fields({"country": "NL"}, rows[:2] + [[("Nederland", 0.05)]], reading) == {"/country": True}


@pytest.mark.parametrize("reading", READINGS)
def test_a_wrapped_description_grounds_its_row(reading):
    """The description wraps to a second line, the numbers are on the first: the item is grounded, the second
    line's number (3. Auflage) is the description's own and grounds no quantity 3."""
    rows = [
        [
            ("4", 0.05),
            ('Fachbuch "Ergonomie im', 0.1),
            ("5 Stk.", 0.5),
            ("39,80", 0.65),
            ("7 %", 0.75),
            ("199,00", 0.85),
        ],
        [('Büro", 3. Auflage', 0.1)],
        [
            ("5", 0.05),
            ("Kopierpapier A4, 500 Blatt", 0.1),
            ("20 Pack", 0.5),
            ("4,79", 0.65),
            ("19 %", 0.75),
            ("95,80", 0.85),
        ],
    ]
    book = {
        "description": 'Fachbuch "Ergonomie im Büro", 3. Auflage',
        "quantity": 5,
        "unit": "Stk.",
        "unit_price": 39.8,
        "tax_rate": 7,
        "amount": 199,
    }
    report = ground({"line_items": [book]}, [printed(rows, reading)]).to_dict()
    assert report["fields"] == {f"/line_items/0/{k}": True for k in book}
    if reading != "text":  # boxes: the quantity on the first line, the description over both
        assert report["where"]["/line_items/0/quantity"]["box"][1] == pytest.approx(0.1)
        assert report["where"]["/line_items/0/description"]["box"][1:4:2] == pytest.approx([0.1, 0.15 + ROW_HEIGHT])
    fields = _fields({"line_items": [{**book, "quantity": 3}]}, rows, reading)
    assert fields["/line_items/0/quantity"] is False


@pytest.mark.parametrize("reading", ("boxes", "ocr"))
def test_a_line_items_box_lies_on_its_row(reading):
    where = ground({"line_items": [CHAIR, LAMP]}, [printed(TABLE, reading)]).to_dict()["where"]
    for i, top in ((0, 0.15), (1, 0.2)):
        for key in CHAIR:
            box = where[f"/line_items/{i}/{key}"]["box"]
            assert (box[1], box[3]) == pytest.approx((top, top + ROW_HEIGHT)), key


@pytest.mark.parametrize("reading", READINGS)
def test_receipt_quantity_line_above_its_item(reading):
    """A till receipt prints ``2 x 4,20`` above the item: part of its row (no word, one number), while the
    next item's line is not."""
    rows = [
        [("2 x 4,20", 0.05)],
        [("Wiener Melange", 0.05), ("8,40 A", 0.7)],
        [("Espresso", 0.05), ("2,90 A", 0.7)],
        [("3 x 2,60", 0.05)],
        [("Croissant", 0.05), ("7,80 B", 0.7)],
    ]
    items = [
        {"description": "Wiener Melange", "quantity": 2, "unit_price": 4.2, "amount": 8.4},
        {"description": "Espresso", "quantity": 1, "unit_price": 2.9, "amount": 2.9},
        {"description": "Croissant", "quantity": 3, "unit_price": 2.6, "amount": 7.8},
    ]
    fields = _fields({"items": items}, rows, reading)
    assert fields == {**{f"/items/{i}/{k}": True for i in range(3) for k in items[0]}, "/items/1/quantity": None}
    fields = _fields({"items": [{**items[1], "unit_price": 4.2}]}, rows, reading)
    assert fields["/items/0/unit_price"] is False  # 4,20 is above Wiener Melange, not Espresso


def test_document_decimal_mark():
    """On a page writing 1,489.00, 2,500 is 2500, not 2.5."""
    page = "Postcards 2,500 ea 0.084 210.00\nSubtotal $1,489.00\nTotal $1,611.84"
    assert _fields({"a": 2500, "b": 2.5}, [[(line, 0.05)] for line in page.splitlines()], "text") == {
        "/a": True,
        "/b": False,
    }


@pytest.mark.parametrize("reading", READINGS)
def test_a_line_item_without_description_is_anchored_by_its_amount(reading):
    item = {"quantity": 4, "unit_price": 289, "amount": 1156}
    assert _fields({"line_items": [item]}, TABLE, reading) == {f"/line_items/0/{k}": True for k in item}
    fields = _fields({"line_items": [{**item, "quantity": 6, "unit_price": 54.9}]}, TABLE, reading)
    assert (fields["/line_items/0/quantity"], fields["/line_items/0/unit_price"]) == (False, False)


def test_cldr_tables_come_from_the_cache_once_built(tmp_path, monkeypatch):
    """The first process builds the tables and keeps them; the next reads them back equal; a damaged or unwritable
    cache only means building them again."""
    from extractor.trust.grounding import cldr as module

    monkeypatch.setenv("EXTRACTOR_CACHE_DIR", str(tmp_path / "cache"))
    path = module._cache_path()
    assert path.parent == tmp_path / "cache" and not path.exists()
    built = module.cldr.__wrapped__()  # a new process's first call
    assert path.exists() and list(path.parent.iterdir()) == [path]  # no part file left behind
    path.write_bytes(b"not a pickle")
    assert module.cldr.__wrapped__() == built and path.read_bytes() != b"not a pickle"  # rebuilt and rewritten
    monkeypatch.setattr(module, "build_cldr", lambda: pytest.fail("built again, though the cache holds the tables"))
    assert module.cldr.__wrapped__() == built
    monkeypatch.undo()
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache directory would be")
    monkeypatch.setenv("EXTRACTOR_CACHE_DIR", str(blocked / "cache"))
    assert module.cldr.__wrapped__() == built
    monkeypatch.delenv("EXTRACTOR_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(module.Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError("no home"))))
    assert module.cldr.__wrapped__() == built  # nowhere to keep them: built
