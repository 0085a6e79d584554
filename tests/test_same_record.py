"""The same file gives the same record (issue 42): one at a time on one render worker, or four in flight on four
workers, or rendered in this process, or in the watcher; compared as whole records, timings and peak memory apart.
(The service's record is compared with extract run's in test_serve.py, Ray's with the local batch's in test_ray.py.)

The documents are a representative subset of the hostile corpus and the real receipt scans (``../shared``), chosen
to meet every way a record is made while staying cheap enough for CI (two OCR'd pages per run, where the whole
hostile corpus reads 61 image-only pages, the six receipts ~30 CPU-s per run): files that fail (corrupt, a wrong
password), an encrypted one opened with its password, rotated pages, a receipt scan read by OCR and a byte-different
copy of it. The copy is what the Ray bench caught (docs/benchmarks.md, "ray"):
OCR results are cached per page by pixels, so a worker that read the receipt first reads the copy from its cache,
while four workers each read their own; the record's ``ocr`` entries used to say so (``cached``, ``seconds``).
Now the record holds only what the page decides (reason, confidence, lines) and the cost is in ``timings``. The
other cause, under load: the OCR time budget cut pages by the clock (a receipt left unread in one run and read in
the other); it is now a plan by the work (``inputs.ocr.OcrBudget``, unit-tested in ``test_ocr.py``), the clock only a
safety net in render workers, which the generous ``timeout`` here keeps out of the comparison.

The model is the kit's scripted one (every document gets invoice-de-einfach's answer, so the receipts' records are
reviewed, grounded and cited), with the prefix cache off: which document fills it first is arrival, by design
(``usage.cached_prompt_tokens``; ``tests/test_records_unchanged.py`` says the same of batched decoding).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, shared_path

HOSTILE = (
    "pdfium__bug_355.pdf",  # corrupt
    "pdfium__encrypted_hello_world_r3_bad_okey.pdf",  # wrong password
    "pdfium__encrypted.pdf",  # opened with its password
    "pdfjs__rotation.pdf",  # pages with /Rotate
)
RECEIPTS = ("2018_cn_restaurant_20181024_017.pdf",)  # a small page: the cheapest of the six to read


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> list[str]:
    """The subset, copied into one folder, and a byte-different copy of the first receipt (the same pixels)."""
    hostile, receipts = shared_path("corpus", "hostile"), shared_path("corpus", "invoices", "my-receipts")
    folder = tmp_path_factory.mktemp("same")
    for name in HOSTILE:
        shutil.copy(hostile / name, folder / name)
    for name in RECEIPTS:
        shutil.copy(receipts / name, folder / name)
    scan = (receipts / RECEIPTS[0]).read_bytes()
    (folder / f"copy-of-{RECEIPTS[0]}").write_bytes(scan + b"\n% another file, the same pages\n")
    # the copy right after the receipt: four workers read the two at once, each its own; one worker reads the copy
    # from its cache (the old records differed there)
    order = [RECEIPTS[0], f"copy-of-{RECEIPTS[0]}", *HOSTILE]
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
    answer = (ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8")
    answer = json.dumps(json.loads(answer), ensure_ascii=False, separators=(",", ":"))
    model = model_factory.scripted(answer=answer, schema="invoice")
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
    with Extractor(**base, isolate=True, workers=4) as four:
        batch = [_same(r) for r in four.extract_many(documents)]  # a batch, rendered ahead on four workers
    with Extractor(**base, isolate=False) as here:
        local = [_same(r) for r in here.extract_many(documents)]  # rendered in this process

    assert [r["source"] for r in alone] == documents
    statuses = {Path(r["source"]).name: r["status"] for r in alone}
    assert sum(s == "error" for s in statuses.values()) == 2 and statuses[RECEIPTS[0]] in ("ok", "review")
    read = [r for r in alone if any(r.get("ocr") or [])]
    assert [Path(r["source"]).name for r in read] == [RECEIPTS[0], f"copy-of-{RECEIPTS[0]}"]
    assert all(set(p) == {"reason", "confidence", "lines"} for r in read for p in r["ocr"] if p)  # no cache hit
    for name, runs in (("batch of 4 on 4 workers", batch), ("in process", local), ("in the watcher", watched)):
        differing = [Path(a["source"]).name for a, b in zip(alone, runs, strict=True) if a != b]
        assert differing == [], f"{name}: records differ from the one-at-a-time run"
        assert runs == alone
