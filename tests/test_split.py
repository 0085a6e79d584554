"""Files holding several invoices (``split``): the signals and boundaries (tables on real sample text), then a PDF
of five sample invoices through the batch (--out, --jsonl, --csv, resume) and the Python API, and hostile sizes.

Generation is real and short: a tiny random model, constrained to a one-field schema (a code of at most four
characters), so each part costs a few tokens; the split itself never depends on the answer.
"""

from __future__ import annotations

import csv
import json
import time

import pytest
from helpers import ROOT, following, make_pdf, settings_for, text_pdf

from extractor.api import Extractor
from extractor.jobs.batch import run_batch
from extractor.pipeline.split import boundaries, find_parts, model_question, page_spec, signals, unsure_pages

SAMPLES = ("invoice-de-einfach", "invoice-en-multipage", "invoice-fr-services", "invoice-jp-yen", "invoice-ch-chf")
PARTS = [[1, 1], [2, 4], [5, 5], [6, 6], [7, 7]]  # the multi-page English invoice is pages 2-4
CODE = {
    "title": "code",
    "type": "object",
    "required": ["code"],
    "additionalProperties": False,
    "properties": {"code": {"type": "string", "maxLength": 4}},
}


def bundle(path):
    """The five sample invoices in one PDF (7 pages)."""
    import pypdfium2 as pdfium

    out = pdfium.PdfDocument.new()
    for stem in SAMPLES:
        src = pdfium.PdfDocument(str(ROOT / "samples" / f"{stem}.pdf"))
        out.import_pages(src)
        src.close()
    out.save(str(path))
    out.close()
    return path


def texts(path):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize(
    "text,number,marker",
    [
        ("Rechnungsnummer: RE-2026-0117\nRechnungsdatum: 31.01.2026", "RE-2026-0117", None),
        ("Kestrel Ltd INVOICE\nINV-24-00871 | Page 2 of 3", "INV-24-00871", (2, 3)),
        ("FACTURE N° de facture : FA-2026-042\nDate : 27/02/2026", "FA-2026-042", None),
        ("Invoice No.: SDK-2603-019\nIssue date: 2026/03/10", "SDK-2603-019", None),
        ("Rechnung Nr. 2026-0315\nSeite 1/2", "2026-0315", (1, 2)),
        ("Seite 2 von 5", None, (2, 5)),
        ("Total\n  - 3/3 -  ", None, (3, 3)),
        ("Invoice date 12 February 2026\nDue 31/01/2026", None, None),  # no number after the label; dates are no marker
        ("", None, None),
    ],
)
def test_signals(text, number, marker):
    got = signals(text)
    assert (got.number, got.marker) == (number, marker)


def test_vat_ids_are_read_with_their_spaces_and_dots():
    assert signals("VAT Reg. No. GB 314 1500 17 · UID CHE-271.828.189 MWST").vat_ids == {"GB314150017", "CHE271828189"}


@pytest.mark.parametrize(
    "pages,expected",
    [
        (["Invoice 1 Page 1 of 2", "Invoice 1 Page 2 of 2"], [(1, 2)]),
        (["Rechnung Nr. A-1\n1/2", "Rechnung Nr. A-1\n2/2"], [(1, 2)]),  # a single invoice stays one
        (["Rechnung Nr. A-1\n1/2", "Rechnung Nr. B-2\n2/2"], [(1, 2)]),  # the markers continue: one
        (["Invoice No. A-1", "Invoice No. B-2", "Invoice No. B-2"], [(1, 1), (2, 3)]),  # a new number
        (["Seite 1/1", "Seite 1/2", "Seite 2/2"], [(1, 1), (2, 3)]),  # markers restart
        (["Invoice No. A-1", "", "continued"], [(1, 3)]),  # no signal: same invoice
        (["Seller DE271828180", "Seller DE271828180", "Seller FR65908172638"], [(1, 2), (3, 3)]),  # another seller
    ],
)
def test_boundaries(pages, expected):
    assert boundaries(pages) == expected


@pytest.mark.parametrize(
    "pages,expected",
    [
        (["Invoice No. A-1", "Invoice No. B-2", "continued"], [(3, "no_signal")]),  # nothing says, in a bundle
        (["Invoice No. A-1", "", "continued"], []),  # one invoice by its text: sure
        (["Rechnung Nr. A-1\n1/2", "Rechnung Nr. B-2\n2/2"], [(2, "conflict")]),  # marker continues, number differs
        (["Invoice No. A-1 Page 1 of 1", "Invoice No. A-1 Page 1 of 1"], [(2, "conflict")]),  # restart, same number
        (["Invoice No. A-1 Page 1 of 2", "Invoice No. A-1 Page 2 of 2", "Invoice No. B-2"], []),
    ],
)
def test_unsure_pages(pages, expected):
    assert unsure_pages(pages) == expected


def test_answers_override_the_text_rule_on_their_pages_only():
    pages = ["Invoice No. A-1", "Invoice No. B-2", "continued", "Invoice No. B-2"]
    assert boundaries(pages) == [(1, 1), (2, 4)]
    assert boundaries(pages, answers={3: True}) == [(1, 1), (2, 2), (3, 4)]
    assert boundaries(pages, answers={3: False}) == [(1, 1), (2, 4)]


def test_the_samples_bundle_splits_into_its_five_invoices(tmp_path):
    assert [list(p) for p in boundaries(texts(bundle(tmp_path / "bundle.pdf")))] == PARTS
    for stem in SAMPLES:  # each sample alone is one invoice
        assert len(boundaries(texts(ROOT / "samples" / f"{stem}.pdf"))) == 1, stem


@pytest.mark.parametrize("numbers,spec", [([1], "1"), ([2, 3, 4], "2-4"), ([1, 3, 4, 7], "1,3-4,7")])
def test_page_spec(numbers, spec):
    assert page_spec(numbers) == spec


# ------------------------------------------------------------------------------------------------ extraction


@pytest.fixture(scope="module")
def code_extractor(model_factory, tmp_path_factory):
    schema = tmp_path_factory.mktemp("schema") / "code.schema.json"
    schema.write_text(json.dumps(CODE))
    tiny = model_factory.random()
    extractor = Extractor(
        settings_for(tiny, schema=str(schema), split="auto", vision_tokens=16, max_tokens=32, isolate=True, workers=1)
    )
    yield extractor
    extractor.close()


def _parts(records):
    return [(r.extra.get("part") or {}).get("pages") for r in records]


def test_batch_gives_one_record_per_invoice_and_resumes(code_extractor, tmp_path):
    path = bundle(tmp_path / "bundle.pdf")
    single = tmp_path / "one.pdf"
    single.write_bytes(make_pdf(["Rechnung Nr. A-1 Seite 1/2", "Rechnung Nr. A-1 Seite 2/2"]))
    out, jsonl, table = tmp_path / "out", tmp_path / "all.jsonl", tmp_path / "all.csv"
    result = run_batch(code_extractor, [str(path), str(single)], out=out, jsonl=jsonl, csv_path=table)
    assert _parts(result.records) == PARTS + [None]
    assert [r.extra["part"]["index"] for r in result.records[:5]] == [1, 2, 3, 4, 5]
    assert {r.extra["part"]["of"] for r in result.records[:5]} == {5}
    assert all(r.status != "error" for r in result.records), [r.errors for r in result.records]
    assert [r.pages for r in result.records] == [1, 3, 1, 1, 1, 2]
    names = sorted(p.name for p in out.glob("*.json"))
    assert names == [f"bundle.part-{i}-of-5.json" for i in range(1, 6)] + ["one.json"]
    assert [json.loads(line)["part"]["pages"] for line in jsonl.read_text().splitlines()[:5]] == PARTS
    rows = list(csv.DictReader(table.open()))
    assert [(r["source"], r["part"]) for r in rows] == [(str(path), f"{i}/5") for i in range(1, 6)] + [
        (str(single), "")
    ]
    # the review page lists the parts, each with its pages
    from extractor.tools.review_page.records import RecordStore

    files = sorted(e.summary(None)["file"] for e in RecordStore(out).entries())
    assert files[:2] == ["bundle.pdf (invoice 1 of 5, pages 1-1)", "bundle.pdf (invoice 2 of 5, pages 2-4)"]
    assert files[-1] == "one.pdf"
    # resumed: nothing extracted again, the same five (and one) records
    again = run_batch(code_extractor, [str(path), str(single)], out=out, jsonl=jsonl)
    assert again.skipped == 2
    assert [r.to_dict() for r in again.records] == [r.to_dict() for r in result.records]
    assert len(jsonl.read_text().splitlines()) == 6


def test_the_api_keeps_extract_for_one_record(code_extractor, tmp_path):
    path = bundle(tmp_path / "bundle.pdf")
    records = code_extractor.extract_parts(path)
    assert _parts(records) == PARTS
    first = code_extractor.extract(path)  # one record asked for: the first invoice's, saying there are five
    assert first.extra["part"] == {"index": 1, "of": 5, "pages": [1, 1]}
    assert [w for w in first.warnings if w["code"] == "split"][0]["message"].endswith(
        "holds 5 invoices (pages 1, 2-4, 5, 6, 7); this record is the first; Extractor.extract_parts returns one "
        "record for each"
    )
    never = Extractor(code_extractor.settings.replace(split="never"), runner=code_extractor.runner)
    assert [r.pages for r in never.extract_parts(path)] == [7]


def test_the_watcher_writes_every_part_before_it_moves_the_file(code_extractor, tmp_path):
    from extractor.jobs.watch import WatchSettings, watch

    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    bundle(inbox / "bundle.pdf")
    summary = watch(inbox, out, extractor=code_extractor, settings=WatchSettings(once=True, settle=0.1))
    assert (summary.extracted, summary.failed) == (1, 0)
    written = sorted(out.glob("bundle-*.part-*-of-5.json"))
    assert [p.name.split(".", 1)[1] for p in written] == [f"part-{i}-of-5.json" for i in range(1, 6)]
    assert [json.loads(p.read_text())["part"]["pages"] for p in written] == PARTS
    assert not (inbox / "bundle.pdf").exists() and (inbox / "processed" / "bundle.pdf").exists()


# --------------------------------------------------------------------------------------------------- hostile


def test_three_hundred_one_page_invoices_split_in_bounded_time(tmp_path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for n in range(300):
        pdf.add_page()
        pdf.text(20, 20, f"Invoice No. R-{n:05d}")
        pdf.text(20, 30, "Page 1 of 1")
    path = tmp_path / "many.pdf"
    pdf.output(str(path))
    from extractor.inputs.renderer import render_here
    from extractor.pipeline.split import find_parts
    from extractor.settings import Settings

    start = time.perf_counter()
    raster = Settings().raster(1024)
    parts = find_parts(path, render=lambda r: render_here(path, raster=r), raster=raster)
    assert len(parts.pages) == 300 and parts.pages[-1] == (300,)
    assert parts.warnings == ()
    assert time.perf_counter() - start < 30


def test_the_review_page_shows_only_the_parts_pages(tmp_path):
    from extractor.tools.review_page.pages import read_pages, render_pool

    path = bundle(tmp_path / "bundle.pdf")
    (tmp_path / "cache").mkdir()
    with render_pool() as pool:
        shown = read_pages(path, cache=tmp_path / "cache", pool=pool, part={"index": 2, "of": 5, "pages": [2, 4]})
    assert shown.error is None
    assert [p.number for p in shown.pages] == [2, 3, 4]


# ----------------------------------------------------------------------------------------------- OCR and model


def _here(path):
    from extractor.inputs.renderer import render_here

    return lambda raster: render_here(path, raster=raster)


def test_a_scanned_bundle_splits_by_its_ocr_text(tmp_path):
    """Three scanned pages (no text layer; small pages, so OCR costs ~1 s each): invoice A on pages 1-2, B on 3."""
    import pypdfium2 as pdfium

    from extractor.inputs import ocr
    from extractor.settings import Settings

    if not ocr.engine_available():
        pytest.skip("rapidocr / onnxruntime not installed")
    out = pdfium.PdfDocument.new()
    for lines in (
        ["ACME GmbH", "Invoice No. A-100", "Page 1 of 2"],
        ["Invoice No. A-100", "Page 2 of 2"],
        ["Invoice No. B-200", "Page 1 of 1"],
    ):
        out.import_pages(pdfium.PdfDocument(text_pdf(lines, image_only=True, size=(298, 210))))
    path = tmp_path / "scans.pdf"
    out.save(str(path))
    out.close()
    parts = find_parts(path, render=_here(path), raster=Settings(ocr="auto").raster(1024))
    assert parts.pages == ((1, 2), (3,))
    assert parts.ocr_pages == (1, 2, 3)
    assert [w["message"] for w in parts.warnings] == [
        f"{path}: pages 1, 2, 3 have no usable text layer: the split read their OCR text"
    ]
    assert parts.entry(2).to_dict() == {"index": 2, "of": 2, "pages": [3, 3], "ocr_pages": [3]}
    # --ocr never: today's behaviour, one record, nothing said
    assert find_parts(path, render=_here(path), raster=Settings(ocr="never").raster(1024)) is None


UNSURE_FILE = ["Invoice No. A-1", "Invoice No. B-2", "continued"]  # page 3: no signal in a file of two invoices


def _asking(code_extractor, answer=None, *, fail=False):
    """The code extractor's runner and settings, its question's answer forced (or a processor that raises)."""
    tiny = code_extractor.settings.model
    end = code_extractor.runner.stop_set.ids[0]

    def boom(tokens, logits):
        raise RuntimeError("processor failed")

    def processors(request):
        if "start another invoice" not in request.messages[-1].text:
            return ()  # the parts' own extraction
        if fail:
            return (boom,)
        return (following(tiny, json.dumps({"new_invoice": answer}, separators=(",", ":")), end=end),)

    return Extractor(
        code_extractor.settings.replace(request_processors=processors, isolate=False), runner=code_extractor.runner
    )


@pytest.mark.parametrize("answer,pages", [(True, ((1,), (2,), (3,))), (False, ((1,), (2, 3)))])
def test_an_unsure_page_is_decided_by_the_model(code_extractor, tmp_path, answer, pages):
    path = tmp_path / "unsure.pdf"
    path.write_bytes(make_pdf(UNSURE_FILE))
    asking = _asking(code_extractor, answer)
    parts = find_parts(
        path,
        render=_here(path),
        raster=asking.settings.raster(1024),
        question=model_question(asking.runner, asking.settings),
    )
    assert parts.pages == pages
    assert [m.to_dict() for m in parts.model_pages] == [{"page": 3, "new_invoice": answer, "reason": "no_signal"}]
    said = "starts a new invoice" if answer else "continues the invoice before"
    assert [w["message"] for w in parts.warnings] == [
        f"{path}: page 3 unsure by its text (no signal): the model says it {said}"
    ]
    if answer:
        return
    records = asking.extract_parts(path)  # through the API: the record says so
    assert [r.extra["part"]["pages"] for r in records] == [[1, 1], [2, 3]]
    assert records[1].extra["part"]["model_pages"] == [{"page": 3, "new_invoice": False, "reason": "no_signal"}]
    assert "model_pages" not in records[0].extra["part"]
    assert any(w["code"] == "split" and "the model says" in w["message"] for w in records[0].warnings)


def test_a_failed_question_falls_back_to_the_text_rule(code_extractor, tmp_path):
    path = tmp_path / "unsure.pdf"
    path.write_bytes(make_pdf(UNSURE_FILE))
    asking = _asking(code_extractor, fail=True)
    parts = find_parts(
        path,
        render=_here(path),
        raster=asking.settings.raster(1024),
        question=model_question(asking.runner, asking.settings),
    )
    assert parts.pages == ((1,), (2, 3)) and parts.model_pages == ()
    [note] = [w["message"] for w in parts.warnings]
    assert note.startswith(f"{path}: page 3 unsure by its text (no signal); asking the model failed (")
    assert note.endswith("): the text rule decided")
    # no model to ask (endpoints): the text rule, and the record says so; no questions asked: nothing said
    parts = find_parts(
        path,
        render=_here(path),
        raster=asking.settings.raster(1024),
        no_question="no in-process model to ask (runner OpenAIRunner)",
    )
    assert [w["message"] for w in parts.warnings] == [
        f"{path}: page(s) 3 unsure by their text (no signal); no in-process model to ask (runner OpenAIRunner): "
        "the text rule decided"
    ]
    assert (
        find_parts(
            path,
            render=_here(path),
            raster=asking.settings.raster(1024),
            questions=0,
            question=model_question(asking.runner, asking.settings),
        ).warnings
        == ()
    )


def test_questions_are_bounded_per_file(tmp_path):
    path = tmp_path / "many.pdf"
    path.write_bytes(make_pdf(["Invoice No. A-1", "Invoice No. B-2", "more", "more", "more"]))
    from extractor.settings import Settings

    asked = []

    def question(before_image, image, page, before):
        asked.append((before, page))
        return False

    parts = find_parts(path, render=_here(path), raster=Settings().raster(1024), question=question, questions=2)
    assert asked == [(2, 3), (3, 4)]
    assert parts.pages == ((1,), (2, 3, 4, 5))
    assert any(
        "page(s) 5 unsure by their text; the model is asked about 2 pages per file at most" in w["message"]
        for w in parts.warnings
    )
