"""OCR for grounding: when a page is read, which text grounding uses, sizes, tiles, the result's shape (pure tables);
then the engine on small images, and the issue's acceptance cases through the pipeline with a kit model writing
forced answers.

Engine tests cost ~1-5 s of CPU each (rapidocr on 2 cores): small pages where the case allows."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import FORCED_FAMILY, forced_settings, garbled_pdf, photo_like
from PIL import Image, ImageDraw, ImageFont

from extractor.errors import UsageError
from extractor.inputs import ocr, ocrdecide
from extractor.inputs.ocr import OcrBudget, OcrSettings
from extractor.inputs.ocrresult import OcrLine, OcrPage, OcrWord
from extractor.trust.grounding import PageText, ground

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
AUTO = OcrSettings(mode="auto")
needs_engine = pytest.mark.skipif(not ocr.engine_available(), reason="rapidocr / onnxruntime not installed")


def expected(stem: str) -> dict:
    return json.loads((SAMPLES / "expected" / f"{stem}.json").read_text(encoding="utf-8"))


def text_image(lines, *, size=(970, 1372), font_size=16, origin=(60, 60)) -> Image.Image:
    """A white page with ``lines`` printed in Pillow's built-in font, one every 1.6 font sizes."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=font_size)
    for i, line in enumerate(lines):
        draw.text((origin[0], origin[1] + i * font_size * 1.6), line, fill="black", font=font)
    return image


# ------------------------------------------------------------------------------------------------- when to read

PAGE_LINES = [f"Position {i}: Bürostuhl ErgoFlex, 4 x 289,00 EUR = 1.156,00 EUR" for i in range(40)]
PAGE_TEXT = "\n".join(PAGE_LINES)


@pytest.mark.parametrize(
    "text,garbage",
    [
        ("Invoice 42", False),
        ("\x01\x04\x05\x06 \x05\x07 \x01\x08", True),  # glyph ids: a font without ToUnicode
        ("\ufffd\ufffd ab", True),
        ("\ue000\ue001\ue002 abcd", True),  # 3 of 7 private-use
        ("Rechnung\x01 Nr. 42", False),  # one stray control character
        ("", False),
        ("   \n ", False),
    ],
)
def test_garbled(text, garbage):
    assert ocrdecide.garbled(text) is garbage


@pytest.mark.parametrize(
    "mode,text,page,reason",
    [
        ("auto", None, "text", "no_text_layer"),
        ("auto", "", "text", "no_text_layer"),
        ("auto", "  \n", "text", "no_text_layer"),
        ("auto", "\x01\x02\x03 " * 50, "text", "garbled_text_layer"),
        ("auto", "Seite 1", "text", "sparse_text_layer"),  # a scan whose only text is a stamp
        ("auto", PAGE_TEXT, "invisible", "invisible_text_layer"),  # a scanner's OCR layer under the picture
        ("auto", PAGE_TEXT, "text", None),  # the text layer has what the ink suggests
        ("always", PAGE_TEXT, "text", "always"),
        ("never", None, "text", None),
        ("auto", None, "blank", None),  # a blank page is never read
        ("always", None, "blank", None),
        ("auto", None, "grey", None),  # evenly grey paper with faint noise: no strokes
    ],
)
def test_reason_to_read(mode, text, page, reason, blank_pages):
    image = text_image(PAGE_LINES) if page in ("text", "invisible") else blank_pages[page]
    assert ocrdecide.reason_to_read(text, image, OcrSettings(mode=mode), invisible=page == "invisible") == reason


@pytest.fixture(scope="module")
def blank_pages():
    import numpy as np

    noise = np.random.default_rng(0).normal(200, 4, (1372, 970)).clip(0, 255).astype("uint8")
    return {"blank": Image.new("RGB", (970, 1372), "white"), "grey": Image.fromarray(noise).convert("RGB")}


@pytest.mark.parametrize(
    "read,layer,share",
    [
        ("Rechnung Nr 4711 Summe EUR", "Rechnung Nr. 4711, Summe: EUR", 1.0),
        ("Rechnung Nr 4711 Summe EUR", "Rcchnunq Nr 4711 Sunme EUR", 0.5),  # words of 3+ characters: 4711, EUR
        ("Bürostuhl", "Burostuhl", 1.0),  # folded as grounding folds
        ("a b", "", 1.0),  # no words to disagree on
    ],
)
def test_agreement(read, layer, share):
    assert ocrdecide.agreement(read, layer) == share


def test_ink_suggests_about_the_characters_printed():
    chars = sum(1 for c in PAGE_TEXT if not c.isspace())
    assert chars / 3 < ocrdecide.ink_chars(text_image(PAGE_LINES)) < chars * 3
    assert ocrdecide.ink_chars(Image.new("RGB", (970, 1372), "white")) == 0


def _ocr_page(text: str, confidence: float = 0.9) -> OcrPage:
    lines = tuple(
        OcrLine(text=line, box=(0.1, 0.1 * i, 0.5, 0.1 * i + 0.05), confidence=confidence)
        for i, line in enumerate(text.split("\n"))
    )
    return OcrPage(lines=lines, reason="no_text_layer", size=(100, 100))


@pytest.mark.parametrize(
    "layer,read,source",
    [
        ("Total 5 EUR", None, "text_layer"),
        (None, None, "none"),
        ("", None, "none"),
        ("\x01\x02\x03\x04", None, "none"),  # a garbled layer is not searched, even without OCR
        ("\x01\x02\x03\x04", "Total 5 EUR", "ocr"),
        (None, "Total 5 EUR", "ocr"),
        ("Total 5 EUR", "Total 5 EUR", "text_layer"),  # OCR ran anyway (always): the layer is as good
        ("Seite 1", "Seite 1\nRechnung RE-7 Total 5 EUR", "ocr"),  # the layer is far less than OCR finds
        ("Seite 1 Rechnung", "Seite 1\nRechnung RE-7", "text_layer"),  # not twice as much, and the words agree
        ("Rcchnunq Nr 47l1 Sunme 5 EUR", "Rechnung Nr 4711 Summe 5 EUR", "ocr"),  # a poor scanner layer: 1 of 5 words
        (None, " ", "none"),  # OCR found nothing
    ],
)
def test_page_text_chooses_the_source(layer, read, source):
    chosen = ocrdecide.page_text(layer, None if read is None else _ocr_page(read))
    assert chosen.source == source
    assert chosen.text == {"text_layer": layer, "ocr": read, "none": None}[source]
    assert chosen.confidence == (pytest.approx(0.9) if source == "ocr" else None)


def test_page_text_keeps_the_text_layers_boxes_and_grounding_uses_them():
    """The text layer's word boxes (``Page.lines``) come with it, so grounding boxes the words on a text layer as on
    OCR text; the OCR text brings its own lines."""
    from extractor.inputs.textlayer import TextLine, TextWord

    words = (TextWord("Total", (0.1, 0.5, 0.2, 0.52)), TextWord("1.156,00", (0.6, 0.5, 0.7, 0.52)))
    lines = (TextLine("Total 1.156,00", (0.1, 0.5, 0.7, 0.52), words),)
    chosen = ocrdecide.page_text("Total 1.156,00", None, lines=lines)
    assert (chosen.source, chosen.lines) == ("text_layer", lines)
    assert ground({"total": 1156}, [chosen]).to_dict()["where"]["/total"]["box"] == [0.6, 0.5, 0.7, 0.52]
    read = ocrdecide.page_text(None, _ocr_page("Total 1.156,00"), lines=lines)
    assert read.source == "ocr" and read.lines == _ocr_page("Total 1.156,00").lines


# ------------------------------------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    "size,scale",
    [
        ((595.28, 841.89), 2000 / 841.89),  # A4: 2,000 px long, ~171 DPI
        ((841.89, 595.28), 2000 / 841.89),
        ((300, 200), 200 / 72),  # small pages stop at 200 DPI
        ((227, 1816), 500 / 227),  # an 8:1 till roll: a 500-px short side, read in tiles (~159 DPI)
        ((227, 227 * 32), 500 / 227),
        ((227, 227 * 33), None),  # over 32:1: not read
    ],
)
def test_pdf_scale(size, scale):
    got = ocr.pdf_scale(*size, AUTO)
    assert got == (None if scale is None else pytest.approx(scale))


@pytest.mark.parametrize(
    "size,out",
    [
        ((4000, 3000), (2000, 1500)),
        ((800, 600), (800, 600)),  # never enlarged
        ((500, 4000), (500, 4000)),  # 8:1 with a 500-px short side already
        ((1000, 8000), (500, 4000)),
        ((3000, 1000), (2000, 667)),
        ((100, 4000), None),  # 40:1
    ],
)
def test_image_size(size, out):
    assert ocr.image_size(*size, AUTO) == out


def test_tiles_of_a_page_are_the_page():
    assert ocr.tile_boxes(1414, 2000) == [((0, 0, 1414, 2000), (0.0, 2000.0))]
    assert ocr.work_pixels(1414, 2000) == 1414 * 2000


@pytest.mark.parametrize(
    "size,boxes,keeps",
    [
        (
            (500, 4000),
            [(0, 0, 500, 1500), (0, 1275, 500, 2775), (0, 2500, 500, 4000)],
            [(0.0, 1387.5), (1387.5, 2637.5), (2637.5, 4000.0)],
        ),
        (
            (4000, 500),
            [(0, 0, 1500, 500), (1275, 0, 2775, 500), (2500, 0, 4000, 500)],
            [(0.0, 1387.5), (1387.5, 2637.5), (2637.5, 4000.0)],
        ),
    ],
)
def test_tiles_of_a_strip_overlap_and_split_the_overlaps(size, boxes, keeps):
    tiles = ocr.tile_boxes(*size)
    assert [box for box, _ in tiles] == boxes
    assert [keep for _, keep in tiles] == keeps
    # every tile holds the part it keeps, and the parts cover the strip once
    axis = 1 if size[1] > size[0] else 0
    assert all(box[axis] <= keep[0] and keep[1] <= box[axis + 2] for box, keep in tiles)
    # the detector sees each 500 x 1500 tile with its short side scaled to 736 px
    assert ocr.work_pixels(*size) == 3 * round(500 * 1500 * (736 / 500) ** 2)


# ----------------------------------------------------------------------------------------------- result shape


def test_ocr_page_round_trips_through_json():
    words = (OcrWord("Total", (0.1, 0.2, 0.2, 0.25), 0.99), OcrWord("5,00", (0.22, 0.2, 0.3, 0.25), 0.95))
    page = OcrPage(
        lines=(
            OcrLine("Total 5,00 €", (0.1, 0.2, 0.4, 0.25), 0.97, words),
            OcrLine("唐炖小馆", (0.5, 0.5, 0.6, 0.52), 0.8),
        ),
        reason="no_text_layer",
        size=(1414, 2000),
        seconds=4.2,
    )
    data = json.loads(json.dumps(page.to_dict()))
    assert OcrPage.from_dict(data) == page
    assert page.text == "Total 5,00 €\n唐炖小馆"
    assert page.summary() == {  # what the page decides; its seconds and cache hit are timings
        "reason": "no_text_layer",
        "confidence": round((12 * 0.97 + 4 * 0.8) / 16, 4),
        "lines": 2,
    }


@pytest.mark.parametrize("box", [[0.1, 0.2, 1.5, 0.3], [0.5, 0.2, 0.4, 0.3], [0.1, 0.2, 0.3]])
def test_ocr_page_refuses_bad_boxes(box):
    data = {
        "reason": "always",
        "size": [10, 10],
        "seconds": 0,
        "cached": False,
        "lines": [{"text": "x", "box": box, "confidence": 1.0, "words": []}],
    }
    with pytest.raises(ValueError):
        OcrPage.from_dict(data)


def test_budget_the_clock():
    import time

    assert OcrBudget(None).allows(10**9)
    assert not OcrBudget(time.monotonic() - 1).allows(1)
    budget = OcrBudget(time.monotonic() + 10)
    assert budget.allows(2_000_000)  # 2 MP at 2 s/MP, x1.5: 6 s
    budget.spent(2_000_000, 6.0)  # this machine is slower: 3 s/MP
    assert not budget.allows(2_500_000)  # 11.25 s
    assert "slower than planned" in (budget.cut or "")
    assert not budget.allows(1_000_000)  # once cut, every later page too: the pages read are the first ones


def test_budget_the_plan_follows_the_work_not_the_clock():
    """The plan counts estimated seconds at a fixed rate: the same pages are read however fast the machine is."""
    import time

    for spent in (0.1, 60.0):  # a fast and a very slow machine
        budget = OcrBudget(None, plan_s=20.0)
        read = []
        for pixels in (2_000_000, 2_000_000, 3_000_000, 500_000):  # 6 s, 6 s, 9 s (over 20), 1.5 s
            read.append(budget.allows(pixels))
            budget.spent(pixels, spent)
        assert read == [True, True, False, False]
        assert budget.cut == (
            "not read by OCR: the document's OCR plan is used up (pages are read in order; this one would take it "
            "to an estimated 21 s of the 20 s its time limit allows); raise --timeout to read every page"
        )
    assert OcrBudget(time.monotonic() + 3600, plan_s=10**9).allows(10**6)


# --------------------------------------------------------------------------------------------------- settings


def test_modes_and_settings(monkeypatch, capsys):
    from extractor.settings import Settings

    with pytest.raises(UsageError, match="ocr must be one of auto, always, never, got 'sometimes'"):
        Settings(ocr="sometimes")
    with pytest.raises(UsageError):
        Settings(ocr_threads=0)
    assert Settings().ocr == "auto"
    base = Settings().fingerprint(schema_text="{}")
    assert Settings(ocr="never").fingerprint(schema_text="{}") != base  # the review can change
    assert Settings(ocr_threads=2).fingerprint(schema_text="{}") == base  # how, not what
    if ocr.engine_available():
        assert Settings().raster(1024).ocr == OcrSettings(mode="auto", threads=1, plan_s=0.8 * 60)  # of --timeout
    # without the engine: auto reads nothing and says so once; always is refused before anything loads
    monkeypatch.setattr(ocr, "engine_available", lambda: False)
    monkeypatch.setattr(ocr, "_warned", type(ocr._warned)())
    assert Settings().raster(1024).ocr.mode == "never"
    assert Settings(ocr_threads=2).raster(1024).ocr == OcrSettings(mode="never", threads=2, plan_s=48.0)
    assert Settings(timeout=120).fingerprint(schema_text="{}") != base  # it sets the OCR plan: which pages are read
    assert Settings(timeout=120, ocr="never").fingerprint(schema_text="{}") == Settings(ocr="never").fingerprint(
        schema_text="{}"
    )
    assert capsys.readouterr().err == (
        "extract: warning: OCR is off (rapidocr / onnxruntime are not installed): "
        "scans and images are not checked against their text\n"
    )
    with pytest.raises(UsageError, match="needs rapidocr and onnxruntime"):
        Settings(ocr="always")


# ------------------------------------------------------------------------------------------ grounding on OCR text


def _ocr_text(text: str) -> PageText:
    return ocrdecide.page_text(None, _ocr_page(text))


@pytest.mark.parametrize(
    "value,printed,on_ocr,on_layer",
    [
        ("DE89370400440532013000", "IBAN DEB9 37O4 0044 O532 0130 00", True, False),  # B/8, O/0, spaces
        ("RE-2026-0117", "Rechnung RE-2026-O1I7", True, False),  # O/0, I/1
        ("RE-2026-0117", "Rechnung RE2026-0ll7", True, False),  # lost dash, l/1
        ("NL50INGB0001234567", "NLSOINGB0001234567", True, False),  # S/5 (and B in INGB stays a letter: both sides)
        ("RE-2026-0118", "Rechnung RE-2026-0117", False, False),  # a different digit is never tolerated
        ("BOSS GmbH", "8055 GmbH", False, False),  # only identifiers (values with a digit)
        ("2014-08-03", "Date: August3,2014", True, False),  # glued date parts
        ("RE-2026-0117", "Rechnung RE-2026-0117", True, True),
    ],
)
def test_ocr_confusions_for_identifiers(value, printed, on_ocr, on_layer):
    assert ground({"v": value}, [_ocr_text(printed)]).fields[0].grounded is on_ocr
    assert ground({"v": value}, [printed]).fields[0].grounded is on_layer


@pytest.mark.parametrize(
    "value,printed,found",
    [
        (1375.64, "Gesamt 1.375,64 €", True),
        (1375.64, "Gesamt 1.375,84 €", False),  # an amount with another digit
        (1375.64, "Gesamt 1.375,6A €", False),  # no letters for digits in amounts
        (1375.64, "Gesamt 1.375,64€", True),
    ],
)
def test_amounts_on_ocr_text_are_exact(value, printed, found):
    assert ground({"total": value}, [_ocr_text(printed)]).fields[0].grounded is found


def test_where_a_value_was_found():
    lines = (
        OcrLine("Rechnung Nr.", (0.1, 0.10, 0.3, 0.12), 0.99),
        OcrLine("RE-2026-0117", (0.6, 0.10, 0.8, 0.12), 0.91),
        OcrLine("Gesamt 1.375,64 EUR", (0.1, 0.80, 0.5, 0.82), 0.98),
        OcrLine("IBAN DE89 3704 0044", (0.1, 0.90, 0.4, 0.92), 0.95),  # an IBAN broken over two lines
        OcrLine("0532 0130 00", (0.1, 0.92, 0.3, 0.94), 0.88),
    )
    page = OcrPage(lines=lines, reason="no_text_layer", size=(1000, 1400))
    data = {
        "invoice_number": "RE-2026-0117",
        "total": 1375.64,
        "iban": "DE89370400440532013000",
        "note": "Skonto",
        "terms": "sofort",
    }
    report = ground(data, [PageText("Zahlbar sofort"), ocrdecide.page_text(None, page)])
    assert report.to_dict()["where"] == {
        "/invoice_number": {"page": 2, "source": "ocr", "box": [0.6, 0.1, 0.8, 0.12], "confidence": 0.91},
        "/total": {"page": 2, "source": "ocr", "box": [0.1, 0.8, 0.5, 0.82], "confidence": 0.98},
        "/iban": {"page": 2, "source": "ocr", "box": [0.1, 0.9, 0.4, 0.94], "confidence": 0.88},
        "/terms": {"page": 1, "source": "text_layer", "box": None, "confidence": None},
    }
    assert report.to_dict()["source"] == ["text_layer", "ocr"]
    assert report.to_dict()["ocr_confidence"] == [None, round(page.confidence, 4)]
    assert report.to_dict()["fields"]["/note"] is False


# ------------------------------------------------------------------------------------------------------- engine


@needs_engine
def test_engine_reads_lines_with_boxes_and_caches_them():
    ocr.clear_cache()
    image = text_image(
        ["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"], size=(900, 600), font_size=28, origin=(450, 100)
    )
    first = ocr.read(image, reason="always", settings=AUTO)
    assert [line.text for line in first.lines] == ["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"]
    top = first.lines[0]
    assert 0.45 < top.box[0] < 0.55 and 0.14 < top.box[1] < 0.2 and top.box[2] < 0.95 and top.confidence > 0.9
    assert [w.text for w in top.words] == ["Rechnung", "RE-2026-0117"]
    assert top.words[0].box[0] >= top.box[0] - 0.01 and top.words[1].box[2] <= top.box[2] + 0.01
    again = ocr.read(image.copy(), reason="no_text_layer", settings=AUTO)  # the same pixels
    assert (again.cached, again.seconds, again.lines, again.reason) == (True, 0.0, first.lines, "no_text_layer")


@needs_engine
def test_engine_reads_a_strip_in_tiles_without_losing_or_doubling_lines():
    ocr.clear_cache()
    lines = [f"Artikel {i:02d} Preis {i},50" for i in range(24)]
    strip = text_image(lines, size=(360, 2600), font_size=22, origin=(20, 30))  # 7:1, three tiles
    assert len(ocr.tile_boxes(*strip.size)) == 3
    read = ocr.read(strip, reason="no_text_layer", settings=AUTO)
    assert [line.text for line in read.lines] == lines
    tops = [line.box[1] for line in read.lines]
    assert tops == sorted(tops) and all(0 <= t <= 1 for t in tops)


# ----------------------------------------------------------------------------------------- the acceptance


@pytest.fixture(scope="module")
def family(model_factory):
    """A kit checkpoint (``FORCED_FAMILY``): each test forces its answer, and no scripted model is built per
    answer."""
    return model_factory.family(FORCED_FAMILY)


def _extract(family, answer: dict, source, **changes):
    """``source`` through the pipeline (invoice schema, constrained), the model writing ``answer``."""
    from extractor import Extractor

    return Extractor(forced_settings(family, answer, max_tokens=2000, **changes)).extract(str(source))


@needs_engine
def test_scan_with_the_right_answer_is_ok_on_its_ocr_text(family):
    record = _extract(family, expected("invoice-scan"), SAMPLES / "invoice-scan.pdf")
    assert record.status == "ok", (record.warnings, record.extra.get("grounding"))
    grounding = record.extra["grounding"]
    assert (grounding["text_layer"], grounding["source"], grounding["ungrounded"]) == (False, ["ocr"], [])
    assert grounding["ratio"] >= 0.9
    assert grounding["ocr_confidence"][0] > 0.9
    assert grounding["where"]["/total"]["source"] == "ocr" and grounding["where"]["/total"]["box"] is not None
    assert record.to_dict()["ocr"][0]["reason"] == "no_text_layer"
    assert record.timings["ocr_s"] <= record.timings["render_s"]


@needs_engine
def test_scan_with_a_changed_total_is_review(family):
    data = copy.deepcopy(expected("invoice-scan"))
    data["total"] = round(data["total"] + 9, 2)  # printed nowhere; the arithmetic check catches it too
    data["amount_due"] = data["total"]
    record = _extract(family, data, SAMPLES / "invoice-scan.pdf")
    assert record.status == "review"
    assert ("ungrounded", "/total") in [(w["code"], w.get("path")) for w in record.warnings]
    assert record.extra["grounding"]["fields"]["/total"] is False
    assert record.extra["grounding"]["source"] == ["ocr"]


@needs_engine
def test_photo_turned_90_degrees_grounds_its_values(tmp_path):
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document

    photo = tmp_path / "photo.png"
    photo.write_bytes(photo_like(SAMPLES / "invoice-de-einfach.pdf", turn=90))
    page = load_document(photo, raster=RasterSettings(ocr=AUTO)).pages[0]
    assert page.image.width > page.image.height  # lying on its side
    report = ground(expected("invoice-de-einfach"), [ocrdecide.page_text(page.text, page.ocr)])
    fields = report.to_dict()["fields"]
    assert report.sources == ("ocr",)
    assert {
        key: fields[key]
        for key in ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/issue_date", "/due_date")
    } == dict.fromkeys(
        ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/issue_date", "/due_date"), True
    )
    assert report.ratio >= 0.9 and report.warnings == ()


@needs_engine
def test_garbled_text_layer_is_read_by_ocr(family, tmp_path):
    from extractor.testing import SAMPLE_INVOICE

    pdf = garbled_pdf(
        tmp_path / "garbled.pdf",
        [
            f"Rechnung {SAMPLE_INVOICE['invoice_number']} vom 14.03.2024",
            f"USt-IdNr. {SAMPLE_INVOICE['seller']['vat_id']}",
            f"Kunde USt-IdNr. {SAMPLE_INVOICE['buyer']['vat_id']}",
            f"Gesamt {SAMPLE_INVOICE['total']:.2f} EUR".replace(".", ","),
            "IBAN DE89 3704 0044 0532 0130 00",
        ],
    )
    record = _extract(family, SAMPLE_INVOICE, pdf)
    assert [page["reason"] for page in record.to_dict()["ocr"]] == ["garbled_text_layer"]
    grounding = record.extra["grounding"]
    assert (grounding["source"], grounding["text_layer"]) == (["ocr"], False)
    keys = ("/invoice_number", "/total", "/bank_account/iban", "/seller/vat_id", "/buyer/vat_id")
    assert {key: grounding["fields"][key] for key in keys} == dict.fromkeys(keys, True)
    assert record.status == "ok", record.warnings  # the page prints the key values only: nothing else is flagged
    # without OCR the garbage is not searched: nothing can be told, nothing is flagged
    never = _extract(family, SAMPLE_INVOICE, pdf, ocr="never")
    assert (never.extra["grounding"]["source"], never.extra["grounding"]["ratio"]) == (["none"], None)
    assert "ocr" not in never.to_dict()


@needs_engine
def test_receipt_image_gets_grounding_and_checks(tmp_path):
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document
    from extractor.trust.review import review_data

    photo = tmp_path / "receipt.png"
    photo.write_bytes(photo_like(SAMPLES / "receipt-cafe.pdf", turn=0, dpi=200))
    page = load_document(photo, raster=RasterSettings(ocr=AUTO)).pages[0]
    data = expected("receipt-cafe")
    result = review_data("receipt", data, [ocrdecide.page_text(page.text, page.ocr)])
    grounding = result.to_extra()["grounding"]
    assert (result.warnings, grounding["source"]) == ((), ["ocr"])
    assert grounding["fields"]["/total"] is True and grounding["fields"]["/merchant/vat_id"] is True
    wrong = review_data("receipt", {**data, "total": 45.4}, [ocrdecide.page_text(page.text, page.ocr)])
    assert [(w["code"], w["path"]) for w in wrong.warnings] == [
        ("items_sum", "/total"),
        ("total", "/total"),
        ("ungrounded", "/total"),
    ]
