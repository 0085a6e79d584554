"""Citations bench (issue 42): what citing every value costs a document, and how many values get a box.

Every sample PDF (and, with ``--zugferd``, the ZUGFeRD invoices of ``../shared``) is extracted in process with the
kit's scripted model (``bench/throughput.py``'s, the invoice-de-einfach answer), each document twice per round, side
by side in one process: **with** citations (as shipped: the text layer's word boxes read while rendering,
``trust.citations.cite`` in review) and **without** (this bench swaps ``textlayer.read_lines`` and ``cite`` for
functions that do nothing, for its baseline only). The order of the two alternates by round; the table gives each
document's median wall time both ways, the ratio, and the two parts measured on their own (reading the word boxes,
citing), whose sum over the wall time is the cost without timer noise.

Coverage counts, per source of the text a value was grounded in, the grounded values and those whose citation has a
box, over the samples' true answers (``samples/expected``) and the ZUGFeRD invoices' embedded data, read as the
pipeline reads them.

Usage::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/citations.py [--rounds 3]
        [--size small|mid] [--json]

Exit 0 when the cost is at most 2 % of every document's wall time and coverage holds (>= 95 % in all, 100 % of the
text layer's), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from smoke import exit_code, parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

SAMPLES = ROOT / "samples"
ZUGFERD = ROOT.parent / "shared" / "corpus" / "invoices" / "zugferd-corpus"
MAX_COST, MIN_COVERAGE = 0.02, 0.95


class Switch:
    """Citations on or off for the baseline: the word boxes' reading and the citing swapped for no-ops."""

    def __init__(self) -> None:
        from extractor.inputs import pdf
        from extractor.trust import review

        self.modules = (pdf, review)
        self.real = (pdf.read_lines, review.cite)

    def set(self, on: bool) -> None:
        pdf, review = self.modules
        pdf.read_lines = self.real[0] if on else (lambda page: ())  # type: ignore[assignment]
        review.cite = self.real[1] if on else (lambda report, texts, xpaths=None: {})  # type: ignore[assignment]


def parts(path: Path) -> tuple[float, float]:
    """Seconds reading a document's word boxes and citing its true answer's values, measured alone."""
    import pypdfium2 as pdfium

    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document
    from extractor.inputs.ocrdecide import page_texts
    from extractor.inputs.textlayer import read_lines
    from extractor.trust.citations import cite
    from extractor.trust.grounding import ground

    pdf = pdfium.PdfDocument(str(path))
    start = time.perf_counter()
    for index in range(len(pdf)):
        read_lines(pdf[index])
    boxes = time.perf_counter() - start
    pdf.close()
    texts = page_texts(load_document(path, raster=RasterSettings(text_boxes=True)).pages)
    report = ground(truth(path), texts)
    start = time.perf_counter()
    cite(report, texts)
    return boxes, time.perf_counter() - start


def truth(path: Path) -> dict:
    """A document's true data: the sample's expected answer, or the ZUGFeRD invoice's embedded data."""
    expected = SAMPLES / "expected" / f"{path.stem}.json"
    if expected.is_file():
        return json.loads(expected.read_text(encoding="utf-8"))
    from extractor.einvoice.read import read_embedded_invoice

    invoice = read_embedded_invoice(path)
    return invoice.data if invoice is not None else {}


def coverage(paths: list[Path]) -> dict[str, dict[str, int]]:
    """Grounded values and those with a box, per source, on the documents' true data (OCR on, as the batch)."""
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document
    from extractor.inputs.ocr import OcrSettings
    from extractor.inputs.ocrdecide import page_texts
    from extractor.trust.citations import cite
    from extractor.trust.grounding import ground

    totals: dict[str, dict[str, int]] = {}
    for path in paths:
        data = truth(path)
        if not data:
            continue
        document = load_document(path, raster=RasterSettings(text_boxes=True, ocr=OcrSettings(mode="auto")))
        texts = page_texts(document.pages)
        report = ground(data, texts)
        cited = cite(report, texts)
        for field in report.fields:
            if field.grounded:
                counts = totals.setdefault(str(field.source), {"grounded": 0, "boxed": 0})
                counts["grounded"] += 1
                counts["boxed"] += any(c["box"] is not None for c in cited[field.path])
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="small", choices=("small", "mid"))
    parser.add_argument("--zugferd", action="store_true", help="also the ZUGFeRD invoices of ../shared")
    parser.add_argument("--docs", type=int, default=0, help="only the first N documents (0: all)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-warm", dest="warm", action="store_false", help="no untimed first document")
    smoke_option(parser, rounds=1, docs=1, warm=False)
    args = parse(parser)
    from throughput import build_model

    from extractor import Extractor

    paths = sorted(SAMPLES.glob("*.pdf")) + sorted(SAMPLES.glob("*.png"))
    if args.zugferd and ZUGFERD.is_dir():
        paths += sorted(ZUGFERD.glob("*.pdf"))
    paths = paths[: args.docs or None]
    model = build_model(args.size)
    switch = Switch()
    walls: dict[str, dict[bool, list[float]]] = {p.name: {True: [], False: []} for p in paths}
    with Extractor(model=str(model), schema="invoice", embedded=False, max_tokens=1024) as ex:
        if args.warm:
            ex.extract(str(paths[0]))  # warm up: the model's first call compiles and caches
        for round_ in range(args.rounds):
            for path in paths:
                for on in (True, False) if round_ % 2 == 0 else (False, True):
                    switch.set(on)
                    start = time.perf_counter()
                    ex.extract(str(path))
                    walls[path.name][on].append(time.perf_counter() - start)
    switch.set(True)
    rows = []
    for path in paths:
        with_s, without_s = (statistics.median(walls[path.name][on]) for on in (True, False))
        boxes, citing = parts(path) if path.suffix == ".pdf" else (0.0, 0.0)
        rows.append(
            {
                "document": path.name,
                "with_s": round(with_s, 4),
                "without_s": round(without_s, 4),
                "ratio": round(with_s / without_s, 4),
                "boxes_ms": round(boxes * 1000, 2),
                "cite_ms": round(citing * 1000, 2),
                "cost": round((boxes + citing) / with_s, 4),
            }
        )
    cover = coverage(paths)
    total_with = sum(r["with_s"] for r in rows)
    total_without = sum(r["without_s"] for r in rows)
    result = {"model": args.size, "rounds": args.rounds, "rows": rows, "coverage": cover}
    result["ratio"] = round(total_with / total_without, 4)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"kit model {args.size}, {args.rounds} rounds, median wall s per document, in process")
        print("| document | with s | without s | ratio | word boxes ms | cite ms | parts / wall |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(
                f"| {r['document']} | {r['with_s']:.3f} | {r['without_s']:.3f} | {r['ratio']:.3f} | "
                f"{r['boxes_ms']:.1f} | {r['cite_ms']:.1f} | {r['cost']:.2%} |"
            )
        print(f"| all | {total_with:.3f} | {total_without:.3f} | {result['ratio']:.3f} | | | |")
        print("\n| grounded in | values grounded | with a box | coverage |\n|---|---:|---:|---:|")
        for source, c in sorted(cover.items()):
            print(f"| {source} | {c['grounded']} | {c['boxed']} | {c['boxed'] / c['grounded']:.1%} |")
    grounded = sum(c["grounded"] for c in cover.values())
    boxed = sum(c["boxed"] for c in cover.values())
    layer = cover.get("text_layer", {"grounded": 0, "boxed": 0})
    ok = (
        all(r["cost"] <= MAX_COST for r in rows)
        and boxed >= MIN_COVERAGE * grounded
        and layer["boxed"] == layer["grounded"]
    )
    return exit_code(args, ok)


if __name__ == "__main__":
    sys.exit(main())
