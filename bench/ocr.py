"""OCR bench: does grounding on OCR text find what grounding on the text layer finds, and what does it cost?

Two parts, one command:

1. **Digital invoices rendered to images.** Every shared invoice with a truth file (``invoice2data/*.json``,
   ``zugferd-corpus/*.gt.json``) and the text-layer samples (``samples/expected/*.json``): each page is rendered at
   200 DPI to a PNG (a clean scan) and read back through ``load_document`` with OCR on, so the OCR text is exactly
   what ``extract`` would search. The key values (invoice number, dates, totals, tax amounts, IBAN, VAT id; no
   names) are grounded once in the PDF's own text layer and once in the OCR text. The share that counts is OCR's
   finds among the values the text layer has; seconds are the engine's per page (``OcrPage.seconds``).
2. **Scans and photos.** The receipt scans of ``my-receipts`` (values read off the images by hand, below: there is
   no truth file in shared/), the image-only ``samples/invoice-scan.pdf``, ``samples/invoice-us.png`` and a
   phone-photo imitation of ``samples/invoice-de-einfach.pdf`` (turned 90°, JPEG q60): values grounded before
   (text layer only: ``--ocr never``), now (``--ocr auto``) and with ``--ocr always``; a value is "grounded" when
   found, "cannot tell" when no page had text to search.

Usage::

    HF_HUB_OFFLINE=1 python bench/ocr.py [--shared DIR] [--threads N] [--json]

Exit 0 when OCR finds at least 90 % of the key values the text layers have (part 1), 1 otherwise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # helpers.photo_like: the photo imitation the tests use
from smoke import exit_code, parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

DEFAULT_SHARED = ROOT.parent / "shared"
TARGET = 0.9
DPI = 200  # the "scan" of a digital page

# truth field -> kind, per truth format (names are left out: the issue's key values are ids, dates and amounts)
INVOICE2DATA = {
    "invoice_number": "id",
    "vat": "id",
    "iban": "id",
    "date": "date",
    "date_due": "date",
    "amount": "amount",
    "amount_untaxed": "amount",
    "amount_tax": "amount",
}
ZUGFERD = {
    "invoice_number": "id",
    "date": "date",
    "amount": "amount",
    "amount_untaxed": "amount",
    "tax_total": "amount",
    "due_payable": "amount",
}

# Read off the receipt images by hand for the OCR research of issue 12 (shared/ has no truth for them).
RECEIPTS = {
    "2018_ca_restaurant_cafecrepe_20180908_008": {
        "order": "2428569",
        "phone": "604-488-0045",
        "gst": "86601 2420 RT0001",
        "date": "2018-08-31",
        "subtotal": 12.50,
        "tax": 0.63,
        "total": 13.13,
        "usd": 11.82,
        "name": "Cafe Crepe",
    },
    "2018_cn_restaurant_20181024_017": {
        "order": "0020001",
        "date": "2018-10-06",
        "item1": 15.00,
        "item2": 32.00,
        "item3": 49.00,
        "item4": 20.00,
        "total": 116.00,
        "name": "唐炖小馆朝外店",
    },
    "2018_de_hotel_madison_484265": {
        "invoice_number": "484265",
        "vat_id": "DE118 696 407",
        "iban": "DE48 2003 0000 0003 6027 11",
        "tax_number": "48/741/01228",
        "date": "2018-12-14",
        "total": 550.00,
        "net": 514.02,
        "tax": 35.98,
        "name": "APImeister Consulting GmbH",
    },
    "2018_us_restaurant_applebees_8267120140431": {
        "check": "8267-1364643",
        "survey": "8267120146431",
        "date": "2018-12-01",
        "subtotal": 115.67,
        "tax": 9.56,
        "total": 125.23,
        "tip15": 18.78,
        "name": "NEIGHBORHOOD GRILL & BAR",
    },
    "2020_de_retail_dm_20201014": {
        "tax_number": "34092/30007",
        "terminal": "65254135",
        "date": "2020-10-14",
        "subtotal": 6.95,
        "total": 6.77,
        "net": 5.84,
        "tax": 0.93,
        "name": "dm-drogerie markt",
    },
    "2024_de_20240718_cyberport": {
        "invoice_number": "6004049992",
        "vat_id": "DE360955897",
        "iban": "DE73 6808 0030 0723 3036 00",
        "date": "2024-07-18",
        "total": 23.90,
        "net": 20.08,
        "tax": 3.82,
        "name": "Cyberport Store Leipzig Kassenkunde",
    },
}


# --------------------------------------------------------------------------------------------------- truth


def _kept(value: Any) -> bool:
    # zero amounts are printed everywhere and prove nothing
    return value not in (None, "") and not (isinstance(value, (int, float)) and value == 0)


def _iso(value: Any) -> Any:
    text = str(value)
    if len(text) == 8 and text.isdigit():  # ZUGFeRD date format 102: YYYYMMDD
        return dt.date(int(text[:4]), int(text[4:6]), int(text[6:])).isoformat()
    return value


def sample_values(data: dict) -> dict[str, Any]:
    """The key values of a document in our own schema (``samples/expected``), as ``{pointer: value}``."""
    out = {
        "/invoice_number": data.get("invoice_number"),
        "/issue_date": data.get("issue_date"),
        "/due_date": data.get("due_date"),
        "/subtotal": data.get("subtotal"),
        "/total": data.get("total"),
        "/amount_due": data.get("amount_due"),
        "/bank_account/iban": (data.get("bank_account") or {}).get("iban"),
    }
    for party in ("seller", "buyer"):
        out[f"/{party}/vat_id"] = (data.get(party) or {}).get("vat_id")
    for i, line in enumerate(data.get("tax_lines") or []):
        out[f"/tax_lines/{i}/amount"] = line.get("amount")
    return {key: value for key, value in out.items() if _kept(value)}


def digital_documents(shared: Path) -> list[tuple[str, Path, dict]]:
    """(set, pdf, key values) for every digital invoice with truth."""
    corpus = shared / "corpus" / "invoices"
    docs = []
    for pdf in sorted((corpus / "invoice2data").glob("*.pdf")):
        truth = pdf.with_suffix(".json")
        if truth.is_file():
            data = json.loads(truth.read_text(encoding="utf-8"))
            data = data[0] if isinstance(data, list) else data
            docs.append(("invoice2data", pdf, {f"/{k}": data[k] for k in INVOICE2DATA if _kept(data.get(k))}))
    for pdf in sorted((corpus / "zugferd-corpus").glob("*.pdf")):
        truth = pdf.with_name(pdf.stem + ".gt.json")
        if truth.is_file():
            data = json.loads(truth.read_text(encoding="utf-8"))
            docs.append(("zugferd", pdf, {f"/{k}": _iso(data[k]) for k in ZUGFERD if _kept(data.get(k))}))
    for truth in sorted((ROOT / "samples" / "expected").glob("invoice-*.json")):
        pdf = ROOT / "samples" / f"{truth.stem}.pdf"
        if pdf.is_file() and _has_text_layer(pdf):
            docs.append(("samples", pdf, sample_values(json.loads(truth.read_text(encoding="utf-8")))))
    return docs


def _kind(pointer: str) -> str:
    name = pointer.rsplit("/", 1)[-1]
    if "date" in name:
        return "date"
    if name in ("invoice_number", "vat", "vat_id", "iban"):
        return "id"
    return "amount"


def _nested(values: dict[str, Any]) -> dict:
    """``{"/a/b": v}`` as nested data, so grounding reports the same pointers."""
    out: dict = {}
    for pointer, value in values.items():
        *parents, last = pointer.strip("/").split("/")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def _found(values: dict[str, Any], pages: list) -> dict[str, bool | None]:
    from extractor.trust.grounding import ground

    report = ground(_nested(values), pages, key_fields=())
    return {f.path: f.grounded for f in report.fields}


# ----------------------------------------------------------------------------------------------- part 1


def _has_text_layer(pdf: Path) -> bool:
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document

    return any((p.text or "").strip() for p in load_document(pdf, raster=RasterSettings(max_pixels=4096)).pages)


def _page_pngs(pdf: Path) -> list[bytes]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        pngs = []
        for i in range(len(document)):
            buf = io.BytesIO()
            document[i].render(scale=DPI / 72).to_pil().convert("RGB").save(buf, "PNG")
            pngs.append(buf.getvalue())
        return pngs
    finally:
        document.close()


def digital_run(shared: Path, threads: int, limit: int = 0) -> dict:
    """Part 1: per document, the key values found on the text layer and on the OCR text of its page images."""
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document
    from extractor.inputs.ocr import OcrSettings
    from extractor.inputs.ocrdecide import page_text

    raster = RasterSettings(ocr=OcrSettings(mode="auto", threads=threads))
    rows = []
    for set_name, pdf, values in digital_documents(shared)[: limit or None]:
        layer = [p.text for p in load_document(pdf, raster=RasterSettings()).pages]
        ocr_pages, seconds, cpu = [], [], []
        for png in _page_pngs(pdf):
            start = time.process_time()
            page = load_document(png, raster=raster).pages[0]
            cpu.append(time.process_time() - start)
            ocr_pages.append(page_text(page.text, page.ocr))
            seconds.append(page.ocr.seconds if page.ocr is not None else 0.0)
        on_layer, on_ocr = _found(values, layer), _found(values, ocr_pages)
        rows.append(
            {
                "set": set_name,
                "document": pdf.stem,
                "pages": len(layer),
                "seconds": seconds,
                "cpu": cpu,
                "values": {p: {"kind": _kind(p), "layer": on_layer[p], "ocr": on_ocr[p]} for p in values},
            }
        )
        print(
            f"  {pdf.name}: {sum(v['ocr'] is True for v in rows[-1]['values'].values())}/"
            f"{sum(v['layer'] is True for v in rows[-1]['values'].values())}",
            file=sys.stderr,
        )
    return {"rows": rows}


def digital_table(result: dict) -> list[dict]:
    """Rows of the part-1 table: per set and in all, by kind, with seconds per page."""
    groups: dict[str, list] = {}
    for row in result["rows"]:
        groups.setdefault(row["set"], []).append(row)
    groups["all"] = result["rows"]
    out = []
    for name, rows in groups.items():
        values = [v for row in rows for v in row["values"].values()]
        in_layer = [v for v in values if v["layer"] is True]
        seconds = [s for row in rows for s in row["seconds"]]
        cpu = [s for row in rows for s in row["cpu"]]
        kinds = {
            kind: (
                sum(1 for v in in_layer if v["kind"] == kind and v["ocr"] is True),
                sum(1 for v in in_layer if v["kind"] == kind),
            )
            for kind in ("id", "date", "amount")
        }
        out.append(
            {
                "set": name,
                "documents": len(rows),
                "pages": sum(row["pages"] for row in rows),
                "values": len(values),
                "in_layer": len(in_layer),
                "ocr_found": sum(1 for v in in_layer if v["ocr"] is True),
                "ocr_only": sum(1 for v in values if v["ocr"] is True and v["layer"] is not True),
                "kinds": kinds,
                "seconds_median": round(statistics.median(seconds), 2),
                "seconds_max": round(max(seconds), 2),
                "cpu_median": round(statistics.median(cpu), 2),
                "cpu_max": round(max(cpu), 2),
            }
        )
    return out


# ----------------------------------------------------------------------------------------------- part 2


def scanned_documents(shared: Path) -> list[tuple[str, Any, dict]]:
    """(name, source, values) for the scans and photos."""
    from helpers import photo_like

    receipts = shared / "corpus" / "invoices" / "my-receipts"
    docs = [
        (name, receipts / f"{name}.pdf", {f"/{k}": v for k, v in values.items()})
        for name, values in RECEIPTS.items()
        if (receipts / f"{name}.pdf").is_file()
    ]
    expected = ROOT / "samples" / "expected"
    for name in ("invoice-scan.pdf", "invoice-us.png"):
        docs.append(
            (
                name,
                ROOT / "samples" / name,
                sample_values(json.loads((expected / f"{Path(name).stem}.json").read_text(encoding="utf-8"))),
            )
        )
    photo = photo_like(ROOT / "samples" / "invoice-de-einfach.pdf", turn=90)
    docs.append(
        (
            "photo of invoice-de-einfach, turned 90°",
            photo,
            sample_values(json.loads((expected / "invoice-de-einfach.json").read_text(encoding="utf-8"))),
        )
    )
    return docs


def scanned_run(shared: Path, threads: int, limit: int = 0) -> list[dict]:
    """Part 2: values grounded per document with OCR never / auto / always."""
    from extractor.inputs.document import RasterSettings
    from extractor.inputs.load import load_document
    from extractor.inputs.ocr import OcrSettings, clear_cache
    from extractor.inputs.ocrdecide import page_text

    rows = []
    for name, source, values in scanned_documents(shared)[: limit or None]:
        row: dict[str, Any] = {"document": name, "values": len(values)}
        for mode in ("never", "auto", "always"):
            clear_cache()  # each mode pays for its own reading
            start = time.perf_counter()
            pages = load_document(source, raster=RasterSettings(ocr=OcrSettings(mode=mode, threads=threads))).pages
            found = _found(values, [page_text(p.text, p.ocr) for p in pages])
            row[mode] = {
                "grounded": sum(1 for v in found.values() if v is True),
                "cannot_tell": sum(1 for v in found.values() if v is None),
                "sources": sorted({page_text(p.text, p.ocr).source for p in pages}),
                "seconds": round(time.perf_counter() - start, 2),
            }
        rows.append(row)
        print(f"  {name}: {row['never']['grounded']} -> {row['auto']['grounded']} / {len(values)}", file=sys.stderr)
    return rows


# ------------------------------------------------------------------------------------------------- output


def show(table: list[dict], scanned: list[dict], threads: int) -> None:
    """Print both parts as Markdown tables."""
    print(f"Part 1: digital invoices rendered at {DPI} DPI, OCR (rapidocr 3, {threads} thread(s)) vs text layer\n")
    print(
        "| set | docs | pages | key values | in text layer | found on OCR text | share | id | date | amount "
        "| OCR s/page median (max) | CPU s/page median (max) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---|---|---|---|")
    for row in table:
        share = row["ocr_found"] / row["in_layer"] if row["in_layer"] else 0.0
        kinds = " | ".join(f"{found}/{total}" for found, total in row["kinds"].values())
        print(
            f"| {row['set']} | {row['documents']} | {row['pages']} | {row['values']} | {row['in_layer']} | "
            f"{row['ocr_found']} | {share:.1%} | {kinds} | {row['seconds_median']} ({row['seconds_max']}) | "
            f"{row['cpu_median']} ({row['cpu_max']}) |"
        )
    print("\nPart 2: scans and photos, values grounded (cannot tell) with --ocr never / auto / always\n")
    print("| document | values | never (text layer) | auto | always | auto: text used | auto s |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for row in scanned:
        cells = " | ".join(f"{row[m]['grounded']} ({row[m]['cannot_tell']})" for m in ("never", "auto", "always"))
        print(
            f"| {row['document']} | {row['values']} | {cells} | {', '.join(row['auto']['sources'])} | "
            f"{row['auto']['seconds']} |"
        )
    totals = {m: sum(row[m]["grounded"] for row in scanned) for m in ("never", "auto", "always")}
    print(
        f"| all | {sum(row['values'] for row in scanned)} | {totals['never']} | {totals['auto']} | "
        f"{totals['always']} | | |"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the bench; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared data folder")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (Settings.ocr_threads)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--docs", type=int, default=0, help="only the first N documents of each part (0: all)")
    smoke_option(parser, docs=1)
    args = parse(parser, argv)
    from extractor.inputs.ocr import clear_cache, engine_available

    if not engine_available():
        parser.error("rapidocr / onnxruntime are not installed")
    if not (args.shared / "corpus" / "invoices").is_dir():
        parser.error(f"{args.shared} has no corpus/invoices (is ../shared there?)")
    clear_cache()
    digital = digital_run(args.shared, args.threads, args.docs)
    table = digital_table(digital)
    scanned = scanned_run(args.shared, args.threads, args.docs)
    if args.json:
        print(json.dumps({"digital": digital, "table": table, "scanned": scanned}, indent=2, ensure_ascii=False))
    else:
        show(table, scanned, args.threads)
    overall = table[-1]
    return exit_code(args, bool(overall["in_layer"]) and overall["ocr_found"] >= TARGET * overall["in_layer"])


if __name__ == "__main__":
    sys.exit(main())
