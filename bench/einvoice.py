"""E-invoice bench: per format, how fast the sample invoices' true answers are written as EN 16931 XML and checked
by the official rules (saxonche: CEN's, and XRechnung's or Peppol's for those formats), the rules' compile time,
and the fatal rules that fire.

Every sample invoice with its expected JSON (``samples/expected/invoice-*.json``, or with ``--schema invoice-en16931``
``samples/expected/en16931/invoice-*.json``) is written in every format
(CII, UBL, Factur-X, XRechnung CII / UBL, Peppol) and validated (``einvoice.report.einvoice_report``: writer,
CII XSD, the format's schematron) ``--repeat`` times after one warm call; for Factur-X the sample's own PDF then
gets the CII embedded (``einvoice_bytes``; the PNG sample cannot be a Factur-X and counts as not valid).
documents/s is over those calls. No model is needed.

Usage::

    python bench/einvoice.py [--repeat N] [--json] [--schema invoice|invoice-en16931]

Prints one Markdown table row per format (JSON with ``--json``); exit 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

SAMPLES = ROOT / "samples" / "expected"


def measure(*, repeat: int, schema: str = "invoice") -> list[dict]:
    """The rows: per format, compile seconds (its rule sets, both syntaxes each, once per process), documents/s,
    fatal rules; the samples' answers under ``schema`` (``invoice``, or ``invoice-en16931``: its own folder)."""
    from extractor.einvoice.facturx import EinvoiceWriteError
    from extractor.einvoice.formats import BY_NAME, FORMATS
    from extractor.einvoice.record_xml import einvoice_bytes
    from extractor.einvoice.report import einvoice_report
    from extractor.einvoice.validate import RULE_SETS, compile_rules

    folder = SAMPLES / "en16931" if schema == "invoice-en16931" else SAMPLES
    answers = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("invoice-*.json"))}
    sources = {stem: str(next((ROOT / "samples").glob(f"{stem}.*"))) for stem in answers}

    def one(fmt: str, stem: str) -> dict:
        entry = einvoice_report(answers[stem], [fmt], source=sources[stem]).entries[fmt]
        if fmt == "facturx" and not entry.get("error"):
            try:
                einvoice_bytes({"data": answers[stem], "source": sources[stem]}, fmt)  # the PDF carrying the CII
            except EinvoiceWriteError as exc:  # the Factur-X profile XSD refuses it (what --out records too)
                entry = {**entry, "valid": False, "error": str(exc).split(" (")[0].rsplit(": ", 1)[-1]}
        return entry

    compile_s = {key: compile_rules(rule_sets=(key,)) for key in RULE_SETS}  # CEN's first: it loads the CII XSD
    rows = []
    for fmt in FORMATS:
        for stem in answers:  # the first call per document type warms the engine
            one(fmt, stem)
        start = time.perf_counter()
        for _ in range(repeat):
            entries = {stem: one(fmt, stem) for stem in answers}
        seconds = time.perf_counter() - start
        rows.append(
            {
                "format": fmt,
                "documents": len(answers) * repeat,
                "docs_per_s": round(len(answers) * repeat / seconds, 1),
                "ms_per_doc": round(1000 * seconds / (len(answers) * repeat), 1),
                "rules": "+".join(BY_NAME[fmt].rule_sets),
                "compile_s": round(sum(compile_s[key] for key in BY_NAME[fmt].rule_sets), 2),
                "valid": sum(e["valid"] for e in entries.values()),
                "fatal": {
                    stem: e["fatal"] or [e["error"]] for stem, e in entries.items() if e["fatal"] or e.get("error")
                },
            }
        )
    return rows


def main() -> int:
    """Run the bench and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="Times each sample is written and checked per format.")
    parser.add_argument("--json", action="store_true", help="Print JSON instead of a Markdown table.")
    parser.add_argument(
        "--schema",
        choices=("invoice", "invoice-en16931"),
        default="invoice",
        help="Whose true answers: the invoice schema's (samples/expected) or invoice-en16931's (its en16931 folder).",
    )
    smoke_option(parser, repeat=1)
    args = parse(parser)
    rows = measure(repeat=args.repeat, schema=args.schema)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(
        "| format | rules | documents | docs/s (write + validate) | ms/doc | compile s (its rules) | valid / samples "
        "| fatal rules |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        fatal = "; ".join(f"{stem}: {', '.join(ids)}" for stem, ids in r["fatal"].items()) or "none"
        samples = r["documents"] // args.repeat
        print(
            f"| {r['format']} | {r['rules']} | {r['documents']} | {r['docs_per_s']} | {r['ms_per_doc']} "
            f"| {r['compile_s']} | {r['valid']} / {samples} | {fatal} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
