"""Bench: finding a document's candidate layouts in the register's database among 20,000 suppliers (issue 51's
target: <= 1 ms per document), through ``LayoutStore.candidates`` (one indexed join per document).

    python bench/layout_store.py [--suppliers 20000] [--lookups 2000] [--postgres postgresql://...]

For each database (SQLite in a temp folder; PostgreSQL when ``--postgres`` names a server, or
``EXTRACTOR_TEST_POSTGRES`` is set: a database of its own is made there): ``--suppliers`` layouts saved (each keyed
on a VAT id and an IBAN), then ``--lookups`` documents' identities looked up (a known supplier's VAT id and IBAN,
70 %; an unknown one's, 30 %): p50 / p99 wall time of one lookup. Prints one table.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from smoke import parse, smoke_option

from extractor.layouts import FieldRule, Format, Layout, Place, Teacher
from extractor.layouts.store import LayoutStore
from extractor.register import Register


def _layout(number: int) -> Layout:
    place = Place(before=("rechnung", "nr"), after=(), above=(), page=(0, -1), box=(0.1, 0.2, 0.3, 0.22))
    return Layout(
        id=f"L{number:06d}",
        supplier_key=f"vat:DE{number:09d}",
        supplier_name=f"Supplier {number}",
        identity=(f"vat:DE{number:09d}", f"iban:DE{number:020d}", f"name:supplier {number}"),
        schema="invoice",
        fields=(FieldRule(pointer="/invoice_number", places=(place,), format=Format(kind="text")),),
        tables=(),
        fingerprint=frozenset({"rechnung", "nr", "summe"}),
        teacher=Teacher(source="archive", document=f"{number}.pdf", sha256="0" * 64, by="bench", at="2026-12-07"),
    )


def measure(url: str, *, suppliers: int, lookups: int) -> dict:
    """Fill one database and time the lookups; the row of the table."""
    register = Register.open(url)
    store = LayoutStore.of(register)
    base = _layout(0)
    start = time.perf_counter()
    for number in range(suppliers):
        keys = (f"vat:DE{number:09d}", f"iban:DE{number:020d}", f"name:supplier {number}")
        store.save(dataclasses.replace(base, id=f"L{number:06d}", supplier_key=keys[0], identity=keys))
    fill = time.perf_counter() - start
    rng, times, found = random.Random(7), [], 0
    for _ in range(lookups):
        number = rng.randrange(suppliers) if rng.random() < 0.7 else suppliers + rng.randrange(10**6)
        keys = (f"vat:DE{number:09d}", f"iban:DE{number:020d}")
        began = time.perf_counter()
        found += len(store.candidates(keys, schema="invoice"))
        times.append((time.perf_counter() - began) * 1000)
    register.close()
    times.sort()
    return {
        "database": url.split("://")[0] if "://" in url else "sqlite",
        "layouts": suppliers,
        "fill_s": round(fill, 1),
        "lookups": lookups,
        "found": found,
        "p50_ms": round(statistics.median(times), 3),
        "p99_ms": round(times[int(len(times) * 0.99) - 1], 3),
    }


def main() -> None:
    """Run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suppliers", type=int, default=20000)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--postgres", default=os.environ.get("EXTRACTOR_TEST_POSTGRES"))
    smoke_option(parser, suppliers=200, lookups=50)
    args = parse(parser)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        rows.append(measure(str(Path(folder) / "register.sqlite"), suppliers=args.suppliers, lookups=args.lookups))
    if args.postgres:
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from test_store import fresh_database

        url = fresh_database(args.postgres, "extractor_bench_layouts")
        rows.append(measure(url, suppliers=args.suppliers, lookups=args.lookups))
    columns = list(rows[0])
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row[c]) for c in columns))


if __name__ == "__main__":
    main()
