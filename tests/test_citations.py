"""Citations (issue 42): every value grounding finds has a box on its page, and the box holds the value.

The corpus tests read real PDFs (the samples and the ZUGFeRD invoices in ``../shared``) as the pipeline reads them
(``Settings.raster``: the text layer with its word boxes; ``ocrdecide.page_texts``), ground their true answers (the
samples' expected answers, the ZUGFeRD invoices' embedded XML) and cite them; then every cited box is read back with
pypdfium2 (``PdfTextPage.get_text_bounded``, independent of the word boxes the citations came from) and must hold the
value as printed.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from helpers import ROOT, shared_path

from extractor.inputs.ocrdecide import page_texts
from extractor.text import PageText, fold
from extractor.trust.citations import cite, coverage
from extractor.trust.grounding import ground, numbers_in
from extractor.trust.grounding.page import key_of

SAMPLES = ROOT / "samples"


def _readback(pdf, citation: dict) -> str:
    """The text pdfium finds inside a citation's box (the box turned back into the page's user space)."""
    page = pdf[citation["page"] - 1]
    left, bottom, right, top = page.get_bbox()
    a0, b0, a1, b1 = citation["box"]
    rotation = page.get_rotation() % 360
    u0, u1, v0, v1 = {  # the inverse of textlayer._page_placer
        0: (a0, a1, b0, b1),
        90: (b0, b1, 1 - a1, 1 - a0),
        180: (1 - a1, 1 - a0, 1 - b1, 1 - b0),
        270: (1 - b1, 1 - b0, a0, a1),
    }[rotation]
    width, height, pad = right - left, top - bottom, 0.5  # half a point: pdfium's test is on the character's box
    textpage = page.get_textpage()
    try:
        return textpage.get_text_bounded(
            left + u0 * width - pad, top - v1 * height - pad, left + u1 * width + pad, top - v0 * height + pad
        )
    finally:
        textpage.close()


def _spells(text: str, value, key: str) -> bool:
    """Whether a printed text is the value: grounding finds it there, or (a value too short to check alone, like a
    quantity of 4) the text is that number or those letters and digits."""
    verdict = ground({key: value}, [PageText(text)]).fields[0].grounded
    if verdict is not None:
        return verdict
    if isinstance(value, (int, float)):
        return abs(Decimal(str(value))) in numbers_in(text)
    return key_of(str(value)) == key_of(text)


def _cited(path: Path, data: dict, raster) -> tuple[list[tuple], dict]:
    """Ground and cite a document's answer as the pipeline does; every grounded field with its citations, and the
    coverage per source."""
    from extractor.inputs.load import load_document

    document = load_document(path, raster=raster)
    texts = page_texts(document.pages)
    report = ground(data, texts)
    citations = cite(report, texts)
    fields = {
        f.path: {"grounding": {"grounded": f.grounded, "source": f.source}, "citations": citations[f.path]}
        for f in report.fields
    }
    for f in report.fields:  # a value found nowhere has none; one found has one on the page grounding names
        assert bool(citations[f.path]) == bool(f.grounded), f.path
        if f.grounded:
            assert (citations[f.path][0]["page"], citations[f.path][0]["source"]) == (f.page + 1, f.source)
    return [(f, citations[f.path]) for f in report.fields if f.grounded], coverage(fields)


def _corpus() -> list[tuple[Path, dict]]:
    from extractor.einvoice.read import read_embedded_invoice

    out = [
        (p, json.loads((SAMPLES / "expected" / f"{p.stem}.json").read_text("utf-8")))
        for p in SAMPLES.glob("*.pdf")
        if p.stem != "invoice-scan"  # a scan: its OCR citations are the next test's (pdfium reads no text there)
    ]
    for path in sorted(shared_path("corpus", "invoices", "zugferd-corpus").glob("*.pdf")):
        invoice = read_embedded_invoice(path)
        if invoice is not None and invoice.data:
            out.append((path, invoice.data))
    return sorted(out)


def test_every_cited_box_on_the_samples_and_zugferd_invoices_holds_its_value():
    import pypdfium2 as pdfium

    from extractor.settings import Settings

    raster = Settings(model="m").raster(28 * 28)
    assert raster.text_boxes
    totals: dict[str, dict[str, int]] = {}
    wrong, documents = [], 0
    for path, data in _corpus():
        documents += 1
        found, counts = _cited(path, data, raster)
        for source, count in counts.items():
            for k, v in count.items():
                totals.setdefault(source, {"grounded": 0, "boxed": 0})[k] += v
        pdf = pdfium.PdfDocument(str(path))
        try:
            for field, citations in found:
                best = citations[0]
                if best["box"] is None:
                    continue
                x0, y0, x1, y1 = best["box"]
                assert (
                    0 <= x0 < x1 <= 1
                    and 0 <= y0 < y1 <= 1
                    and best["page_size"] == pytest.approx(pdf[best["page"] - 1].get_size(), abs=0.01)
                )
                inside = _readback(pdf, best)
                key = str(field.path.rsplit("/", 1)[-1])
                if fold(best["text"]).replace(" ", "") not in fold(inside).replace(" ", "") or not _spells(
                    best["text"], field.value, key
                ):
                    wrong.append((path.name, field.path, field.value, best["text"], inside))
        finally:
            pdf.close()
    assert documents >= 19 and wrong == []
    layer = totals["text_layer"]
    assert layer["grounded"] > 800 and layer["boxed"] == layer["grounded"]  # 100 % on the text layer
    grounded, boxed = sum(c["grounded"] for c in totals.values()), sum(c["boxed"] for c in totals.values())
    assert boxed >= 0.95 * grounded


def test_ocr_citations_on_a_scan_carry_the_words_box_and_confidence():
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.ocr import OcrSettings

    data = json.loads((SAMPLES / "expected" / "invoice-scan.json").read_text("utf-8"))
    found, counts = _cited(
        SAMPLES / "invoice-scan.pdf", data, RasterSettings(text_boxes=True, ocr=OcrSettings(mode="auto"))
    )
    assert counts["ocr"]["grounded"] >= 50 and counts["ocr"]["boxed"] == counts["ocr"]["grounded"]
    total = next(c for f, c in found if f.path == "/total")[0]
    assert (total["source"], total["page"], total["page_size"]) == ("ocr", 1, [595.28, 841.89])
    assert 0.5 < total["confidence"] <= 1 and _spells(total["text"], data["total"], "total")


def _layer(rows: list[str], *, drop: str = "") -> PageText:
    """A text layer printing ``rows`` (one word every 0.1 of the width, one row every 0.05 of the height), its word
    boxes as pdfium gives them; ``drop``: a word pdfium gives no box for (not in the boxed lines)."""
    from extractor.inputs.textlayer import TextLine, TextWord

    lines = []
    for r, row in enumerate(rows):
        words = tuple(
            TextWord(w, (0.1 * i, 0.05 * r, 0.1 * i + 0.08, 0.05 * r + 0.02))
            for i, w in enumerate(row.split())
            if w != drop
        )
        lines.append(TextLine(" ".join(w.text for w in words), (0, 0.05 * r, 1, 0.05 * r + 0.02), words))
    return PageText("\n".join(rows), source="text_layer", boxes=tuple(lines), size=(595.0, 842.0))


@pytest.mark.parametrize(
    ("data", "drop", "expected"),
    [
        (  # a total on the text layer: its word's box
            {"total": 1156},
            "",
            {"/total": [{"page": 1, "box": [0.2, 0.05, 0.28, 0.07], "page_size": [595.0, 842.0], "text": "1.156,00",
                         "source": "text_layer"}]},
        ),
        (  # a word pdfium gives no box for, before the value: the streams are aligned around it
            {"total": 1156},
            "Rechnung",
            {"/total": [{"page": 1, "box": [0.2, 0.05, 0.28, 0.07], "page_size": [595.0, 842.0], "text": "1.156,00",
                         "source": "text_layer"}]},
        ),
        (  # a value found nowhere, and one too short to check: no citations
            {"total": 99.5, "quantity": 1},
            "",
            {"/total": [], "/quantity": []},
        ),
        (  # a line item's value: its own box and its row's
            {"items": [{"description": "Bürostuhl ErgoFlex", "quantity": 4}]},
            "",
            {
                "/items/0/description": [{"page": 1, "box": [0.0, 0.1, 0.18, 0.12], "page_size": [595.0, 842.0],
                                          "text": "Bürostuhl ErgoFlex", "source": "text_layer",
                                          "row": {"page": 1, "box": [0.0, 0.1, 0.38, 0.12]}}],
                "/items/0/quantity": [{"page": 1, "box": [0.2, 0.1, 0.28, 0.12], "page_size": [595.0, 842.0],
                                       "text": "4", "source": "text_layer",
                                       "row": {"page": 1, "box": [0.0, 0.1, 0.38, 0.12]}}],
            },
        ),
    ],
)  # fmt: skip
def test_citations_from_grounding_on_a_text_layer(data, drop, expected):
    page = _layer(["Rechnung RE-1", "Gesamt EUR 1.156,00", "Bürostuhl ErgoFlex 4 Stk."], drop=drop)
    assert cite(ground(data, [page]), [page]) == expected


def test_embedded_values_name_their_xpath_and_where_they_are_printed():
    page = _layer(["Rechnung RE-2026-1", "Gesamt 1.156,00"])
    data = {"invoice_number": "RE-2026-1", "note": "not printed"}
    xpaths = {"/invoice_number": "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID", "/note": "/x/ram:Note"}
    assert cite(ground(data, [page]), [page], xpaths=xpaths) == {
        "/invoice_number": [
            {"page": 1, "box": [0.1, 0.0, 0.18, 0.02], "page_size": [595.0, 842.0], "text": "RE-2026-1",
             "source": "embedded_xml", "xpath": xpaths["/invoice_number"]}
        ],
        "/note": [{"page": None, "box": None, "page_size": None, "text": "not printed", "source": "embedded_xml",
                   "xpath": "/x/ram:Note"}],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("edited", "expected"),
    [
        (  # as read: the review page says where it was read (the XPath) and where it is printed
            {},
            {"/invoice_number": [{"page": 1, "box": [0.1, 0.0, 0.18, 0.02], "page_size": [595.0, 842.0],
                                  "text": "RE-2026-1", "source": "embedded_xml", "xpath": "/x/ram:ID"}],
             "/total": [{"page": 1, "box": [0.1, 0.05, 0.18, 0.07], "page_size": [595.0, 842.0], "text": "1.156,00",
                         "source": "embedded_xml", "xpath": "/x/ram:GrandTotalAmount"}]},
        ),
        (  # a value the reviewer typed, printed on the page: a value of the page now, not of the XML
            {"total": 971.43},
            {"/invoice_number": [{"page": 1, "box": [0.1, 0.0, 0.18, 0.02], "page_size": [595.0, 842.0],
                                  "text": "RE-2026-1", "source": "embedded_xml", "xpath": "/x/ram:ID"}],
             "/total": [{"page": 1, "box": [0.1, 0.1, 0.18, 0.12], "page_size": [595.0, 842.0], "text": "971,43",
                         "source": "text_layer"}]},
        ),
        (  # one printed nowhere: no citation
            {"total": 99.5},
            {"/invoice_number": [{"page": 1, "box": [0.1, 0.0, 0.18, 0.02], "page_size": [595.0, 842.0],
                                  "text": "RE-2026-1", "source": "embedded_xml", "xpath": "/x/ram:ID"}],
             "/total": []},
        ),
    ],
)  # fmt: skip
def test_the_review_page_cites_values_read_from_xml_as_read_until_edited(edited, expected):
    from extractor.tools.review_page.recheck import embedded_xpaths, field_states

    page = _layer(["Rechnung RE-2026-1", "Gesamt 1.156,00", "Netto 971,43"])
    original = {"invoice_number": "RE-2026-1", "total": 1156}
    xml = {"/invoice_number": "/x/ram:ID", "/total": "/x/ram:GrandTotalAmount"}
    cited = cite(ground(original, [page]), [page], xpaths=xml)
    record = {
        "data_source": "embedded_xml",
        "data": original,
        "fields": {p: {"citations": c} for p, c in cited.items()},
    }
    states = field_states(
        {**original, **edited},
        schema=None,
        schema_name="custom",
        original=original,
        page_texts=[page],
        xpaths=embedded_xpaths(record),
    )
    assert states["citations"] == expected
    assert embedded_xpaths({**record, "data_source": "model"}) is None


def test_ocr_lines_without_words_cite_their_line_box():
    from extractor.inputs.ocrresult import OcrLine

    page = PageText(
        "Gesamt 1.156,00", source="ocr", lines=(OcrLine("Gesamt 1.156,00", (0.1, 0.8, 0.5, 0.82), 0.93),), size=None
    )
    assert cite(ground({"total": 1156}, [page]), [page]) == {
        "/total": [
            {"page": 1, "box": [0.1, 0.8, 0.5, 0.82], "page_size": None, "text": "1.156,00", "source": "ocr",
             "confidence": 0.93}
        ]
    }  # fmt: skip


def test_a_record_gives_its_citations_by_pointer():
    from extractor.record import record_from_dict

    cited = {"page": 1, "box": [0.1, 0.2, 0.3, 0.4], "page_size": [595.0, 842.0], "text": "1.156,00", "source": "ocr"}
    record = record_from_dict(
        {
            "source": "a.pdf",
            "status": "ok",
            "data": {"total": 1156, "note": "x"},
            "fields": {"/total": {"citations": [cited]}, "/note": {"citations": []}},
        }
    )
    assert (record.citations("/total"), record.citations("/note"), record.citations("/missing")) == ([cited], [], [])
    assert record_from_dict({"source": "a.pdf", "status": "error"}).citations("/total") == []


def test_embedded_values_xpaths_point_at_the_element_they_were_read_from():
    """On the ZUGFeRD invoices, every value the reader copied has an XPath, and the XPath, evaluated on the XML,
    holds it; only derived values (amount_due as total - prepaid, a street of two lines) have none."""
    from lxml import etree

    from extractor.einvoice.read import read_embedded_invoice
    from extractor.einvoice.xpaths import value_paths
    from extractor.leaves import leaves

    values = placed = 0
    wrong = []
    for path in sorted(shared_path("corpus", "invoices", "zugferd-corpus").glob("*.pdf")):
        invoice = read_embedded_invoice(path)
        if invoice is None:
            continue
        root = etree.fromstring(invoice.xml)
        paths = value_paths(invoice.xml, invoice.data)
        for pointer, value, _ in leaves(invoice.data, booleans=False):
            values += 1
            if pointer not in paths:
                continue
            placed += 1
            (found,) = root.xpath(paths[pointer], namespaces=root.nsmap)
            text = found if isinstance(found, str) else found.text
            same = (
                Decimal(text.strip()) == Decimal(str(value))
                if isinstance(value, (int, float))
                else "".join(text.split()).replace("-", "")[:8] == str(value).replace("-", "")[:8]
                or key_of(text) == key_of(str(value))
            )
            if not same:
                wrong.append((path.name, pointer, value, paths[pointer], text))
    assert wrong == [] and values > 400 and placed >= 0.98 * values
