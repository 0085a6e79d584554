"""Records stay what they were: the records of fixed inputs and settings, compared as whole dicts with the records
kept in ``tests/golden/`` (written at 2cbdbfb, before the package was laid out in stage subpackages).

Only what cannot repeat is left out: ``timings``, ``peak_memory_gb``, and the paths of this run's model and
temporary files (replaced by ``<model>`` / ``<tmp>``); the fingerprint includes the model's path, so it is compared
as recomputed for a fixed path. The per-field confidence keys added after the goldens were written (``fields``,
``confidence``: issue 32, ``tests/test_confidence.py`` checks them) are left out too, except each field's
``citations`` (issue 42), kept as ``citations: {pointer: [...]}``: every other key must stay exactly what it was.
A deliberate change of the record regenerates the files with
``EXTRACTOR_WRITE_GOLDEN=1 python -m pytest tests/test_records_unchanged.py`` in a commit that says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, einvoice_pdf

GOLDEN = Path(__file__).parent / "golden"
WRITE = os.environ.get("EXTRACTOR_WRITE_GOLDEN") == "1"
SAMPLES = ROOT / "samples"
DEMO_ANSWER = SAMPLES / "expected" / "invoice-de-einfach.json"


@pytest.fixture(scope="module")
def demo(model_factory):
    """README's demo model: the scripted answer of ``invoice-de-einfach``, under the invoice schema."""
    answer = json.dumps(json.loads(DEMO_ANSWER.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
    return model_factory.scripted(answer=answer, schema="invoice")


def _normal(record: dict, *, model: Path, tmp: Path, batched: bool = False) -> dict:
    """The record without what cannot repeat between runs: times, memory, this run's paths, the hashes of the files
    this run wrote (checked against the file instead) and, ``batched``, which documents decoded together, for how many
    steps, and which found the prefix cache filled (their arrival decides)."""
    import hashlib

    source = Path(record["source"])
    if source.is_relative_to(tmp) and source.is_file():
        assert record["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
        record = {**record, "sha256": "<sha256 of the file>"}
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    text = text.replace(str(model), "<model>").replace(str(tmp), "<tmp>").replace(str(ROOT), "<root>")
    out = json.loads(text)
    out.pop("timings", None)
    out.pop("peak_memory_gb", None)
    citations = {pointer: entry.get("citations") for pointer, entry in (out.get("fields") or {}).items()}
    out.pop("fields", None)  # added later, checked by test_confidence (see the module docstring)
    if citations:  # but where each value is on its page stays what it was (issue 42)
        out["citations"] = citations
    out.pop("confidence", None)
    out.pop("fingerprint", None)
    for page in out.get("ocr") or []:
        if page is not None:
            page.pop("seconds", None)
    decoding = (out.get("usage") or {}).get("decoding")
    if batched and decoding is not None:  # and which of them found the prefix cache filled
        decoding.update(batch="<arrival>", merged_steps="<arrival>")
        out["usage"]["cached_prompt_tokens"] = "<arrival>"
    return out


def _valid_records(records: list[dict]) -> None:
    """Every record, as written, satisfies the record JSON Schema the package publishes."""
    import jsonschema

    from extractor.record import record_schema

    validator = jsonschema.Draft202012Validator(record_schema())
    assert [[e.message for e in validator.iter_errors(r)] for r in records] == [[] for _ in records]


def _check(name: str, records: list[dict]) -> None:
    path = GOLDEN / f"{name}.json"
    if WRITE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(records, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert records == json.loads(path.read_text(encoding="utf-8"))


def test_the_batch_command_on_the_samples(demo, tmp_path):
    out = tmp_path / "out"
    extract = Path(sys.executable).parent / "extract"
    done = subprocess.run(
        [str(extract), str(SAMPLES), "--model", str(demo.path), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr  # the demo's by-design exit code: some records are review
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.json"))]
    assert len(records) == 8
    _valid_records(records)
    _check("batch-samples", [_normal(r, model=demo.path, tmp=tmp_path, batched=True) for r in records])


def test_the_python_api_on_long_split_bad_embedded_and_runaway_inputs(demo, tmp_path):
    import pypdfium2 as pdfium

    from extractor import Extractor

    two = pdfium.PdfDocument.new()
    for name in ("invoice-de-einfach.pdf", "invoice-fr-services.pdf"):
        two.import_pages(pdfium.PdfDocument(str(SAMPLES / name)))
    two.save(str(tmp_path / "two-invoices.pdf"))
    two.close()
    (tmp_path / "garbage.pdf").write_bytes(b"%PDF-1.4\n this is not a PDF body")
    einvoice = einvoice_pdf(tmp_path / "einvoice.pdf")
    records = []
    with Extractor(model=str(demo.path), window_pages=2) as ex:
        records.append(ex.extract(str(SAMPLES / "invoice-en-multipage.pdf")).to_dict())
    with Extractor(model=str(demo.path), split="auto") as ex:
        records += [r.to_dict() for r in ex.extract_parts(str(tmp_path / "two-invoices.pdf"))]
    with Extractor(model=str(demo.path)) as ex:
        for source in (tmp_path / "missing.pdf", tmp_path / "garbage.pdf", b"not a pdf at all", einvoice):
            records.append(ex.extract(str(source) if isinstance(source, Path) else source).to_dict())
    with Extractor(model=str(demo.path), cross_check=True) as ex:
        records.append(ex.extract(str(einvoice)).to_dict())
    with Extractor(model=str(demo.path), constrained=False, drop_stop_ids=(248046,), retries=1, max_tokens=700) as ex:
        records.append(ex.extract(str(SAMPLES / "invoice-de-einfach.pdf")).to_dict())
    _valid_records(records)
    _check("api-cases", [_normal(r, model=demo.path, tmp=tmp_path) for r in records])


def test_the_record_schema_rejects_what_is_not_a_record():
    """The published schema can fail: a status outside the six, a missing core key and a bad issue are caught."""
    import jsonschema

    from extractor import Record, Status
    from extractor.record import record_schema

    good = Record(source="a.pdf", status=Status.OK).to_dict()
    validator = jsonschema.Draft202012Validator(record_schema())
    assert list(validator.iter_errors(good)) == []
    assert good["status"] == "ok" and json.loads(json.dumps(good))["status"] == "ok" and f"{Status.REVIEW}" == "review"
    for bad in (
        {**good, "status": "fine"},
        {k: v for k, v in good.items() if k != "usage"},
        {**good, "errors": [{"message": "no code"}]},
    ):
        assert list(validator.iter_errors(bad)), bad


def test_fingerprints_of_fixed_settings():
    from extractor import Settings

    schema = json.dumps(
        json.loads((ROOT / "schemas" / "invoice.schema.json").read_text(encoding="utf-8")),
        sort_keys=True,
        ensure_ascii=False,
    )
    cases = {
        "defaults": Settings(model="models/demo"),
        "command line": Settings(model="models/demo", retries=1, isolate=True, batch=4),
        "windows and split": Settings(model="models/demo", window_pages=2, split="auto"),
        "endpoints": Settings(model="models/demo", endpoint=("http://gpu1:8000/v1",), server_kind="vllm"),
    }
    _check("fingerprints", [{name: s.fingerprint(schema_text=schema)} for name, s in cases.items()])
