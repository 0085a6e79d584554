"""E-invoice corpus table: every file of the shared ZUGFeRD / Factur-X corpus, its embedded XML checked by the
official rules as the pipeline checks it (``einvoice.report.source_report``: CEN 1.3.16, and XRechnung's or
Peppol's where its BT-24 names them), and the record read from it written as our CII and UBL and checked
(``einvoice_report``), with the business rules our own checks fire on that record (``trust.checks``).

For each PDF: the profile (from BT-24 or the ZUGFeRD 1.0 guideline), the source syntax (``CII`` D16B,
``ZUGFeRD 1.0`` CrossIndustryDocument, ``UBL``), the fatal rules the source XML fires (those its MINIMUM / BASIC WL
profile cannot meet by design marked ``*``), those our CII and our UBL written from its record fire, and whether
the pipeline takes the XML as the answer (``schema-invalid``: a value the invoice schema needs is missing, the
model reads the pages instead; the table still writes the XML's data); then the same under ``invoice-en16931``
(``einvoice.read_en16931``: the XML read with that schema's terms, allowances and charges included) and our CII
and UBL written from that record. No model is needed.

A second table compares term by term (``einvoice.lossless.round_trip``, the binding table ``einvoice.bindings``):
for each PDF's XML and each official test file (tests/data/einvoice: KoSIT's, Peppol's, CEN's), the EN 16931 terms
the source gives, how many of them our CII and our UBL (written from the ``invoice-en16931`` record) give with the
same values, the terms that differ and that the record's notes name (not held by the schema, or held in part), the
terms lost (none may be: tests/test_einvoice_lossless.py fails on one), and the fatal CEN rules on our CII and UBL.

Usage::

    python bench/einvoice_corpus.py [--corpus DIR] [--json]

Prints two Markdown tables (JSON with ``--json``); exit 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import parse, smoke_option  # noqa: E402  (bench/ is the script's folder)

CORPUS = ROOT.parent / "shared" / "corpus" / "invoices" / "zugferd-corpus"
OFFICIAL = ROOT / "tests" / "data" / "einvoice"


def rows(corpus: Path, limit: int = 0) -> list[dict]:
    """One row per PDF of the corpus (see the module docstring)."""
    from extractor.einvoice.read import parse_invoice_xml, read_embedded_xml
    from extractor.einvoice.read_en16931 import as_en16931
    from extractor.einvoice.report import einvoice_report, source_report
    from extractor.trust.checks import check_invoice

    out = []
    for pdf in sorted(corpus.glob("*.pdf"))[: limit or None]:
        row: dict = {"file": pdf.name}
        found = read_embedded_xml(pdf)
        if found is None:
            out.append({**row, "profile": "", "syntax": "no e-invoice XML"})
            continue
        _, xml = found
        source = parse_invoice_xml(xml)
        if source is None:
            out.append({**row, "profile": "", "syntax": "not an invoice XML"})
            continue
        checked = source_report(xml, guideline=source.guideline).entries
        zugferd1 = checked["valid"] is None
        record = {"data": source.data, "data_source": "embedded_xml", "embedded": source.to_dict()}
        ours = einvoice_report(source.data, ["cii", "ubl"], extra=record).entries
        row.update(
            profile=checked["profile"],
            syntax="ZUGFeRD 1.0" if zugferd1 else source.syntax,
            answer="schema-invalid" if source.schema_errors else "xml",
            source_fatal=None if zugferd1 else [f"{r}*" if r in checked["unmet"] else r for r in checked["fatal"]],
            checks=[w["rule"] for w in check_invoice(source.data, totals=source.totals) if w.get("rule")],
            cii=ours["cii"]["fatal"],
            ubl=ours["ubl"]["fatal"],
        )
        full = as_en16931(source)
        record = {"data": full.data, "data_source": "embedded_xml", "embedded": full.to_dict()}
        ours = einvoice_report(full.data, ["cii", "ubl"], extra=record).entries
        row.update(
            en16931_answer="schema-invalid" if full.schema_errors else "xml",
            en16931_cii=ours["cii"]["fatal"],
            en16931_ubl=ours["ubl"]["fatal"],
        )
        out.append(row)
    return out


def sources(corpus: Path, limit: int = 0) -> list[tuple[str, bytes]]:
    """``(name, XML)`` of every corpus PDF's e-invoice and every official test file."""
    from extractor.einvoice.read import read_embedded_xml

    out = []
    for pdf in sorted(corpus.glob("*.pdf"))[: limit or None]:
        found = read_embedded_xml(pdf)
        if found is not None:
            out.append((pdf.name, found[1]))
    official = sorted(OFFICIAL.rglob("*.xml"))[: limit or None]
    return out + [(str(path.relative_to(OFFICIAL)), path.read_bytes()) for path in official]


def term_rows(items: list[tuple[str, bytes]]) -> list[dict]:
    """One row per source XML: terms in, terms out (CII, UBL), noted, lost, fatal CEN rules on ours."""
    from extractor.einvoice.lossless import round_trip
    from extractor.einvoice.term_values import differences
    from extractor.einvoice.validate import validate_xml

    out = []
    for name, xml in items:
        found = round_trip(xml)
        if found is None:
            out.append({"file": name, "syntax": "ZUGFeRD 1.0 (no EN 16931 binding)"})
            continue
        same = {fmt: len(found.source) - len(differences(found.source, found.ours[fmt])) for fmt in ("cii", "ubl")}
        out.append(
            {
                "file": name,
                "syntax": found.syntax,
                "terms_in": len(found.source),
                "cii_out": same["cii"],
                "ubl_out": same["ubl"],
                "noted": list(found.noted),
                "lost": sorted(set(found.lost["cii"]) | set(found.lost["ubl"])),
                "cii_fatal": list(validate_xml(found.xml["cii"], rules=("cen",)).fatal),
                "ubl_fatal": list(validate_xml(found.xml["ubl"], rules=("cen",)).fatal),
            }
        )
    return out


def _cell(value) -> str:
    if value is None:
        return "n/a (no EN 16931 rules for this syntax)"
    if isinstance(value, list):
        return ", ".join(value) if value else "0"
    return str(value)


def main() -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the zugferd-corpus folder")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--files", type=int, default=0, help="only the first N files of each kind (0: all)")
    smoke_option(parser, files=1)
    args = parse(parser)
    if not args.corpus.is_dir():
        print(f"{args.corpus}: no such folder (../shared/corpus/invoices/zugferd-corpus)", file=sys.stderr)
        return 2
    table = rows(args.corpus, args.files)
    terms = term_rows(sources(args.corpus, args.files))
    if args.json:
        print(json.dumps({"corpus": table, "terms": terms}, indent=1))
        return 0
    keys = ("file", "profile", "syntax", "answer", "source_fatal", "checks", "cii", "ubl")
    keys += ("en16931_answer", "en16931_cii", "en16931_ubl")
    print(
        "| file | profile | source syntax | answer | fatal on the source XML | our checks | our CII | our UBL "
        "| invoice-en16931 answer | its CII | its UBL |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(_cell(row.get(k, "")) for k in keys) + " |")
    print("\n`*`: a rule the source's profile cannot meet by design (no invoice lines; MINIMUM: no VAT breakdown)")
    print("\n| file | syntax | terms in | same in our CII | same in our UBL | differ, named in the notes | lost "
          "| fatal on our CII | fatal on our UBL |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    keys = ("file", "syntax", "terms_in", "cii_out", "ubl_out", "noted", "lost", "cii_fatal", "ubl_fatal")
    for row in terms:
        print("| " + " | ".join(_cell(row.get(k, "")) for k in keys) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
