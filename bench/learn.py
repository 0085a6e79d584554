"""Learning a supplier's layout from 1, 2 and 3 documents and reading the others with no model (issue 51).

On the real same-layout groups in ``../shared/corpus/invoices`` (``learn-symtrax/``: five invoices of Lieferant
GmbH and two other sellers of the same generator, one printing Lieferant's VAT id; the four FNFE Factur-X
examples of one French supplier): the truth is each PDF's embedded XML read by ``einvoice.read``; the words are the
text layer's only. And synthetic suppliers (``extractor.testing.suppliers``: words and true data, no PDF) in
German, English and French layouts and formats, their line items running onto a second page when many; per
layout, one supplier's five invoices and two of another supplier printing the same layout; and the German ones
scanned (``synthetic-de-scan``: ``suppliers.scan_pdf`` draws their words on page images, a PDF with no text layer,
read through OCR as ``extract learn`` reads a scan). For every supplier and
every run of 1, 2, 3 consecutive teaching documents (in turn), the layout reads every other document of the group
(the other sellers too; whether ``choose`` takes the layout for the supplier's documents is counted apart): per
field, exact, abstained, wrong and flagged (the record's checks, ``trust.checks``, warn), wrong and accepted (must
be 0). Also: documents read fully (every field the schema requires: no model), key fields exact among all the
other documents and among those ``choose`` takes the layout for (a document of another layout of the supplier,
another language, goes to the model and teaches a layout of its own), ms per page read by layout (text layer words
given) against the model path (the demo page through ``Extractor.extract`` with the small scripted tiny model: this
machine's model path, not a real model's), and the lookup of the candidate layouts among 20,000 synthetic
suppliers' (``identities`` + ``candidates``).
``--why`` prints, per document and field one teacher's layout did not read, why, each learned place's anchor and
what it found there.

    python bench/learn.py [--shared ../shared] [--groups symtrax,...] [--no-scans] [--why]
    (or EXTRACTOR_SHARED=DIR: the shared data folder)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import tempfile
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from smoke import parse, prebuilt, smoke_option

from extractor.einvoice.read import read_embedded_invoice
from extractor.inputs.document import RasterSettings
from extractor.inputs.load import load_document
from extractor.layouts import Teacher, candidates, choose, identities, index, learn, page_words, read, refine
from extractor.layouts.model import Layout
from extractor.layouts.read import place_values
from extractor.layouts.words import PageWords, from_lines
from extractor.testing.suppliers import STYLES, scan_pdf, supplier_documents
from extractor.trust.checks import run_checks

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
DEMO_ANSWER = ROOT / "samples" / "expected" / "invoice-de-einfach.json"
KEY = ("/invoice_number", "/issue_date", "/currency", "/seller/name", "/seller/vat_id", "/buyer/name", "/subtotal")
KEY += ("/total", "/amount_due", "/tax_lines/*/amount", "/line_items/*/amount")


def leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of ``data`` by JSON pointer (list items by index); an empty list is a leaf."""
    if isinstance(data, dict):
        return {k: v for key, value in data.items() for k, v in leaves(value, f"{prefix}/{key}").items()}
    if isinstance(data, list) and data:
        return {k: v for i, value in enumerate(data) for k, v in leaves(value, f"{prefix}/{i}").items()}
    return {prefix: data}


def same(a: Any, b: Any, shown: int | None = None) -> bool:
    """Equal as JSON values, numbers compared as decimals; a value the layout read as printed rounded to ``shown``
    decimals (``LayoutRead.precision``, said in the record) against the truth rounded so."""
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool | str):
        if shown is not None:
            return Decimal(str(a)) == Decimal(str(b)).quantize(Decimal(1).scaleb(-shown), rounding=ROUND_HALF_UP)
        return Decimal(str(a)) == Decimal(str(b))
    return a == b


def generic(pointer: str) -> str:
    """``/line_items/3/amount`` -> ``/line_items/*/amount``."""
    return "/".join("*" if part.isdigit() else part for part in pointer.split("/"))


def load(shared: Path, *, scans: bool) -> dict[str, list[tuple[str, list, dict]]]:
    """The groups: name -> [(file, words, truth)]; with ``scans``, the German synthetic group scanned too."""
    base = shared / "corpus" / "invoices"
    groups = {
        "symtrax": sorted((base / "learn-symtrax").glob("*.pdf")),
        "fnfe": sorted((base / "zugferd-corpus").glob("v2_FNFE-factur-x-examples_*.pdf")),
    }
    out = {}
    for name, files in groups.items():
        out[name] = []
        for path in files:
            embedded = read_embedded_invoice(path)
            assert embedded is not None, path
            words = page_words(load_document(path, raster=RasterSettings(text_boxes=True)))
            out[name].append((path.name, words, embedded.data))
    # synthetic suppliers (extractor.testing.suppliers): per style, one supplier's five invoices and two of another
    # supplier printing the same layout (whose documents its layout must not read)
    made = supplier_documents(seed=51, suppliers=2 * len(STYLES), documents=5)
    for n, style in enumerate(STYLES):
        out[f"synthetic-{style.language}"] = made[n] + made[n + len(STYLES)][:2]
    if scans:
        # the German group scanned: its pages drawn on images (a PDF with no text layer), read through OCR as
        # ``extract learn`` reads a scan (pipeline.teach.open_document)
        out["synthetic-de-scan"] = [(f"{name}.scan", scanned(pages), data) for name, pages, data in out["synthetic-de"]]
    return out


def scanned(pages: list[PageWords]) -> list[PageWords]:
    """A synthetic document's scan (``suppliers.scan_pdf``) as OCR reads it; OCR's words are kept under the temp
    folder by the scan's digest, so a second run does not read them again."""
    from extractor.pipeline.teach import open_document

    folder = Path(tempfile.gettempdir()) / "extractor-bench-scans"
    folder.mkdir(exist_ok=True)
    pdf = scan_pdf(pages, folder / "scan.pdf")
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()[:20]
    cached = folder / f"{digest}.json"
    if cached.exists():
        return [
            from_lines(n, [[(w[0], tuple(w[1]), w[2]) for w in line] for line in page], source="ocr")
            for n, page in enumerate(json.loads(cached.read_text(encoding="utf-8")))
        ]
    words = page_words(open_document(pdf, name=pdf.name))
    lines = [
        [[(w.text, list(w.box), w.confidence) for w in p.line_words(n)] for n in range(len(p.lines))] for p in words
    ]
    cached.write_text(json.dumps(lines), encoding="utf-8")
    return words


def teach(docs: list[tuple[str, list, dict]]) -> Layout | None:
    """A layout learned from the first document and refined by the others."""
    layout = None
    for name, words, data in docs:
        teacher = Teacher(source="embedded_xml", document=name, sha256="-", by="bench", at="2026-01-01T00:00:00Z")
        result = learn(words, data, schema="invoice", teacher=teacher) if layout is None else None
        if result is None:
            assert layout is not None
            result = refine(layout, words, data, teacher=teacher)
        layout = result.layout or layout
    return layout


def score(layout: Layout, doc: tuple[str, list, dict], tally: dict, times: list[float]) -> bool:
    """Read one document by ``layout`` and count its fields; True when it was read fully."""
    _, words, truth = doc
    start = time.perf_counter()
    reading = read(layout, words)
    times.append((time.perf_counter() - start) * 1000 / max(len(words), 1))
    flagged = bool(run_checks("invoice", reading.data)) if reading.data is not None else True
    want = leaves(truth)
    for pointer, value in leaves(reading.data if reading.data is not None else {}).items() or ():
        want.setdefault(pointer, value)
    for pointer, expected in want.items():
        row = tally.setdefault(generic(pointer), [0, 0, 0, 0, 0])
        got = reading.data is not None and pointer in leaves(reading.data)
        value = leaves(reading.data)[pointer] if got else reading.values.get(pointer, None)
        read_it = got or pointer in reading.values
        if not read_it:
            row[1] += 1
        elif same(value, expected, reading.precision.get(pointer)):
            row[0] += 1
        elif expected is None:
            # the XML leaves out what the page prints (a MINIMUM profile carries no seller address)
            row[4] += 1
        else:
            row[2 if flagged and reading.data is not None else 3] += 1
    read_data = leaves(reading.data or {})
    return reading.data is not None and all(
        same(read_data.get(p), v, reading.precision.get(p)) for p, v in leaves(truth).items()
    )


def lookup_ms(docs: list[tuple[str, list, dict]], layouts: list[Layout]) -> tuple[float, float]:
    """(identities ms, candidates ms) per document with 20,000 synthetic suppliers' keys indexed beside ours."""
    rng = random.Random(51)
    by_key = {f"vat:DE{rng.randrange(10**8, 10**9)}": (f"synthetic-{i}",) for i in range(20000)}
    by_key.update(index(layouts))
    ident, cand = [], []
    for _, words, _ in docs:
        start = time.perf_counter()
        keys = identities(words)
        ident.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        candidates(by_key, keys)
        cand.append((time.perf_counter() - start) * 1000)
    return statistics.median(ident), statistics.median(cand)


def model_ms_per_page(runs: int) -> float | None:
    """The model path's ms per page: the demo page (``samples/invoice-de-einfach.pdf``, one page) through
    ``Extractor.extract`` with the small scripted tiny model (the demo answer), median of ``runs`` after one warm
    run; None with ``runs`` 0."""
    if runs <= 0:
        return None
    from extractor import Extractor
    from extractor.settings import Settings
    from extractor.testing import build_scripted_model, read_tiny_model

    folder = prebuilt("demo") or Path(tempfile.gettempdir()) / "extractor-bench-models" / "demo-small"
    if (folder / "program.json").exists():
        tiny = read_tiny_model(folder)
    else:
        answer = json.dumps(
            json.loads(DEMO_ANSWER.read_text(encoding="utf-8")), separators=(",", ":"), ensure_ascii=False
        )
        tiny = build_scripted_model(folder, answer=answer, schema="invoice", size="small")
    extractor = Extractor(Settings(model=str(tiny.path)))
    extractor.extract(str(SAMPLE))  # warm: grammar compiled, prefix cached
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        record = extractor.extract(str(SAMPLE))
        walls.append((time.perf_counter() - started) * 1000)
        assert record.status in ("ok", "review"), record.errors
    return statistics.median(walls)


def why(layout: Layout, doc: tuple[str, list, dict]) -> None:
    """Per field a layout did not read on a document: why, each learned place (its anchor) and what it found."""
    name, words, truth = doc
    reading = read(layout, words)
    want = leaves(truth)
    for pointer, reason in sorted(reading.abstained.items()):
        print(f"  {name} {pointer} (truth {want.get(pointer)!r}): {reason}")
        rule = layout.field(pointer)
        for place in rule.places if rule is not None else ():
            found, missing = place_values(place, rule.format, words, decimal=layout.decimal)
            anchor = " ".join(place.before) + " [value] " + " ".join(place.after)
            above = " / ".join(" ".join(line) for line in place.above)
            candidates = [value for value, _ in found.values()]
            print(f"    at {anchor.strip()!r} under {above!r} page {place.page}: {candidates} {missing or ''}")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("EXTRACTOR_SHARED") or Path(__file__).resolve().parents[1].parent / "shared"
    parser.add_argument("--shared", type=Path, default=Path(default))
    parser.add_argument("--teachers", default="1,2,3", help="learn from this many documents, one row group each")
    parser.add_argument("--model-runs", type=int, default=3, help="runs of the demo page through the model path")
    parser.add_argument("--groups", default="", help="only these groups (comma-separated names of the table's rows)")
    parser.add_argument("--no-scans", action="store_true", help="leave out the scanned group (its OCR takes minutes)")
    parser.add_argument("--why", action="store_true", help="per document and field not read: why, places, candidates")
    smoke_option(parser, teachers="1", model_runs=1, no_scans=True)
    args = parse(parser)
    groups = load(args.shared, scans=not args.no_scans and (not args.groups or "synthetic-de-scan" in args.groups))
    if args.groups:
        groups = {name: docs for name, docs in groups.items() if name in args.groups.split(",")}
    print(
        "| teachers | group | key fields exact | key fields exact, documents `choose` took | all fields: exact / "
        "abstained / wrong flagged / wrong accepted | read, the XML empty | chosen (`choose`) | documents read fully "
        "(no model) | other sellers' documents read (values) | ms per page (median) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    totals_by_k: dict[int, dict[str, list[int]]] = {}
    layouts = []
    times: list[float] = []
    for k in (int(n) for n in args.teachers.split(",")):
        for group, docs in groups.items():
            seller = docs_seller(docs)
            own = [d for d in docs if d[2]["seller"]["name"] == seller]
            tally: dict[str, list[int]] = {}
            chosen_tally: dict[str, list[int]] = {}
            row_times: list[float] = []
            full = reads = others_read = others_wrong = chosen = 0
            for start in range(len(own)):
                teachers = [own[(start + i) % len(own)] for i in range(k)]
                layout = teach(teachers)
                if layout is None:
                    continue
                layouts.append(layout)
                for doc in docs:
                    if doc in teachers:
                        continue
                    if doc in own:
                        reads += 1
                        took = choose([layout], doc[1]) is not None
                        chosen += took
                        full += score(layout, doc, tally, row_times)
                        if took:
                            score(layout, doc, chosen_tally, [])
                        if args.why and k == 1:
                            why(layout, doc)
                    else:
                        other = read(layout, doc[1])
                        others_read += bool(other.values)
                        others_wrong += sum(1 for p, v in other.values.items() if not same(leaves(doc[2]).get(p), v))
            key = [sum(v[i] for g, v in tally.items() if g in KEY) for i in range(5)]
            key_chosen = [sum(v[i] for g, v in chosen_tally.items() if g in KEY) for i in range(5)]
            every = [sum(v[i] for v in tally.values()) for i in range(5)]
            merged = totals_by_k.setdefault(k, {})
            for field, row in tally.items():
                merged[field] = [a + b for a, b in zip(merged.get(field, [0] * 5), row, strict=True)]
            print(
                f"| {k} | {group} | {ratio(key[0], sum(key[:4]))} | {ratio(key_chosen[0], sum(key_chosen[:4]))} "
                f"| {every[0]} / {every[1]} / {every[2]} / {every[3]} | {every[4]} | {chosen}/{reads} "
                f"| {full}/{reads} | {others_read} ({others_wrong} values) | {statistics.median(row_times):.2f} |"
            )
            times += row_times
    ident, cand = lookup_ms([d for docs in groups.values() for d in docs], layouts)
    print(f"\nCandidate layouts among 20,000 suppliers: identities {ident:.2f} ms + lookup {cand:.4f} ms per document.")
    model = model_ms_per_page(args.model_runs)
    layout_ms = statistics.median(times)
    if model is not None:
        print(
            f"\nms per page: read by layout {layout_ms:.2f} (text layer words given), the model path {model:.0f} "
            f"(the demo page through Extractor.extract with the small scripted tiny model, median of "
            f"{args.model_runs}): {model / layout_ms:.0f}x"
        )
    print("\nPer field, both groups: exact / abstained / wrong flagged / wrong accepted (read, the XML empty)\n")
    ks = sorted(totals_by_k)
    print("| field | " + " | ".join(f"{k} teacher{'s' if k > 1 else ''}" for k in ks) + " |")
    print("|---|" + "---|" * len(ks))
    for field in sorted({f for tally in totals_by_k.values() for f in tally}):
        cells = []
        for k in ks:
            row = totals_by_k[k].get(field, [0] * 5)
            cells.append(f"{row[0]} / {row[1]} / {row[2]} / {row[3]} ({row[4]})")
        print(f"| `{field}` | " + " | ".join(cells) + " |")


def ratio(part: int, whole: int) -> str:
    """``part/whole (share)``."""
    return f"{part}/{whole} ({part / max(whole, 1):.0%})"


def docs_seller(docs: list[tuple[str, list, dict]]) -> str:
    """The seller most of a group's documents are of."""
    names = [d[2]["seller"]["name"] for d in docs]
    return max(set(names), key=names.count)


if __name__ == "__main__":
    main()
