"""The same file gives the same record (issue 42): one at a time on one render worker, or two in flight on two
workers, or rendered in this process, or in the watcher; compared as whole records, timings and peak memory apart.
(The service's record is compared with extract run's in test_serve.py, Ray's with the local batch's in test_ray.py.)

The documents meet every way a record is made while staying cheap enough for CI: a subset of the hostile corpus
(``../shared``: files that fail (corrupt, a wrong password), an encrypted one opened with its password, rotated
pages), a small scan read by OCR (a picture of a short invoice, no text layer: two OCR'd pages per run, each
cheaper than a real receipt's) and a byte-different copy of it. The copy is what the Ray bench caught
(docs/benchmarks.md, "ray"): OCR results are cached per page by pixels, so a worker that read the scan first reads
the copy from its cache, while two workers given both at once each read their own (two show what four did: the pair
is first in line); the record's ``ocr`` entries used to say so (``cached``, ``seconds``).
Now the record holds only what the page decides (reason, confidence, lines) and the cost is in ``timings``. The
other cause, under load: the OCR time budget cut pages by the clock (a page left unread in one run and read in
the other); it is now a plan by the work (``inputs.ocr.OcrBudget``, unit-tested in ``test_ocr.py``), the clock only a
safety net in render workers, which the generous ``timeout`` here keeps out of the comparison.

The model is test_decode.py's scripted one (a short invoice: 151 tokens, where the demo's answer takes 376; the
session builds it once), whose values the scan prints: the scan's record is grounded and cited from OCR text, and
reviewed for what it does not print. The prefix cache is off: which document fills it first is arrival, by design
(``usage.cached_prompt_tokens``; ``tests/test_records_unchanged.py`` says the same of batched decoding).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import shared_path, text_pdf
from test_decode import SHORT_ANSWER, SHORT_INVOICE

HOSTILE = (
    "pdfium__bug_355.pdf",  # corrupt
    "pdfium__encrypted_hello_world_r3_bad_okey.pdf",  # wrong password
    "pdfium__encrypted.pdf",  # opened with its password
    "pdfjs__rotation.pdf",  # pages with /Rotate
)
SCAN = "scan.pdf"
# the scan prints most of the answer's values (a wrong character from OCR changes nothing here: every run reads the
# same pixels); the buyer is not printed, so the record is reviewed
PRINTED = (
    SHORT_INVOICE["seller"]["name"],
    f"Rechnung {SHORT_INVOICE['invoice_number']}",
    f"Datum {SHORT_INVOICE['issue_date']}",
    "Toner HP 305A schwarz 2 x 64,90 129,80",
    "MwSt 19 % 24,66",
    "Gesamt EUR 154,46",
)


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> list[str]:
    """The subset, copied into one folder, the scan and a byte-different copy of it (the same pixels)."""
    hostile = shared_path("corpus", "hostile")
    folder = tmp_path_factory.mktemp("same")
    for name in HOSTILE:
        shutil.copy(hostile / name, folder / name)
    scan = text_pdf(PRINTED, size=(320, 180), image_only=True)
    (folder / SCAN).write_bytes(scan)
    (folder / f"copy-of-{SCAN}").write_bytes(scan + b"\n% another file, the same pages\n")
    # the copy right after the scan: two workers read the two at once, each its own; one worker reads the copy
    # from its cache (the old records differed there)
    order = [SCAN, f"copy-of-{SCAN}", *HOSTILE]
    return [str(folder / name) for name in order]


def _same(record) -> dict:
    """The record as compared: everything but its timings and peak memory."""
    out = record.to_dict()
    out.pop("timings")
    out.pop("peak_memory_gb", None)
    return out


def _watched(documents: list[str], extractor, tmp_path: Path) -> list[dict]:
    """The records ``extract watch`` writes for the documents (their folder its inbox, kept in place), in the
    documents' order, compared as ``_same`` compares."""
    from extractor.jobs.watch import WatchSettings, watch
    from extractor.record import record_from_dict

    out = tmp_path / "watched"
    watch(
        Path(documents[0]).parent,
        out,
        extractor=extractor,
        settings=WatchSettings(once=True, keep_inputs=True, settle=0, error_retries=0),
    )
    by_source = {}
    for path in out.glob("*.json"):
        record = record_from_dict(json.loads(path.read_text(encoding="utf-8")))
        by_source[record.source] = _same(record)
    return [by_source.get(path, {"source": path, "missing": "no record from the watcher"}) for path in documents]


def test_the_same_file_gives_the_same_record_alone_in_a_batch_in_process_or_in_the_watcher(
    documents, model_factory, tmp_path
):
    from extractor import Extractor

    manifest = json.loads((shared_path("corpus", "hostile") / "MANIFEST.json").read_text(encoding="utf-8"))
    passwords = tuple(dict.fromkeys(m["password"] for m in manifest.values() if m.get("password")))
    model = model_factory.scripted(answer=SHORT_ANSWER, schema="invoice")  # test_decode.py's
    base = {
        "model": str(model.path),
        "schema": "invoice",
        "passwords": passwords,
        "ocr": "auto",
        "retries": 1,
        "prefix_cache": False,
        "constrained": False,  # the scripted model writes its answer anyway; the grammar's set-up is not the point
        "max_tokens": 1024,
        "timeout": 600,  # the OCR plan reads every page (the clock, a slow machine's safety net, never cuts here)
    }
    with Extractor(**base, isolate=True, workers=1) as one:
        alone = [_same(one.extract(path)) for path in documents]  # one at a time, one render worker
        watched = _watched(documents, one, tmp_path)  # the same extractor in the watcher, the folder as its inbox
    with Extractor(**base, isolate=True, workers=2) as two:
        batch = [_same(r) for r in two.extract_many(documents)]  # a batch, rendered ahead on two workers
    with Extractor(**base, isolate=False) as here:
        local = [_same(r) for r in here.extract_many(documents)]  # rendered in this process

    assert [r["source"] for r in alone] == documents
    statuses = {Path(r["source"]).name: r["status"] for r in alone}
    assert sum(s == "error" for s in statuses.values()) == 2 and statuses[SCAN] == "review"
    read = [r for r in alone if any(r.get("ocr") or [])]
    assert [Path(r["source"]).name for r in read] == [SCAN, f"copy-of-{SCAN}"]
    assert all(set(p) == {"reason", "confidence", "lines"} for r in read for p in r["ocr"] if p)  # no cache hit
    scan = alone[0]  # its values found in OCR text, where the page says, so the comparisons cover those parts too
    assert scan["grounding"]["source"] == ["ocr"] and scan["grounding"]["fields"]["/invoice_number"] is True
    assert [c["source"] for c in scan["fields"]["/total"]["citations"]] == ["ocr"]
    for name, runs in (("batch on 2 workers", batch), ("in process", local), ("in the watcher", watched)):
        differing = [Path(a["source"]).name for a, b in zip(alone, runs, strict=True) if a != b]
        assert differing == [], f"{name}: records differ from the one-at-a-time run"
        assert runs == alone
