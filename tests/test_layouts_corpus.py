"""The layouts engine on the real same-layout groups of ../shared (issue 51): learn a supplier's layout from one
document (its embedded XML, read by ``einvoice.read``, the truth; its text layer the words) and read the others.
No value read may be wrong; other sellers of the same generator, one printing the supplier's VAT id, are not read.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

import pytest
from helpers import shared_path

from extractor.einvoice.read import read_embedded_invoice
from extractor.inputs.document import RasterSettings
from extractor.inputs.load import load_document
from extractor.layouts import Teacher, choose, identities, learn, page_words, read, refine

LIEFERANT = "Lieferant GmbH"


@functools.cache
def group(name: str) -> tuple[tuple[str, tuple, dict], ...]:
    """(file, words, truth) of each PDF of a group."""
    base = shared_path("corpus", "invoices")
    files = {
        "symtrax": sorted((base / "learn-symtrax").glob("*.pdf")),
        "fnfe": sorted((base / "zugferd-corpus").glob("v2_FNFE-factur-x-examples_*.pdf")),
    }[name]
    out = []
    for path in files:
        embedded = read_embedded_invoice(path)
        assert embedded is not None, path
        out.append(
            (path.name, tuple(page_words(load_document(path, raster=RasterSettings(text_boxes=True)))), embedded.data)
        )
    return tuple(out)


def teacher(name: str) -> Teacher:
    return Teacher(source="embedded_xml", document=name, sha256="-", by="test", at="2026-01-01T00:00:00Z")


def leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        return {k: v for key, value in data.items() for k, v in leaves(value, f"{prefix}/{key}").items()}
    if isinstance(data, list) and data:
        return {k: v for i, value in enumerate(data) for k, v in leaves(value, f"{prefix}/{i}").items()}
    return {prefix: data}


def same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return Decimal(str(a)) == Decimal(str(b))
    return a == b


def wrong(reading, truth: dict) -> dict:
    """Values read that the truth has otherwise (a value the XML leaves empty is not judged: a MINIMUM profile's
    XML carries no seller address the page prints)."""
    want = leaves(truth)
    return {p: (v, want.get(p)) for p, v in reading.values.items() if want.get(p) is not None and not same(v, want[p])}


@pytest.mark.parametrize("name", ["symtrax", "fnfe"])
def test_learn_from_each_document_read_the_others_never_wrong(name):
    docs = group(name)
    sellers = [d[2]["seller"]["name"] for d in docs]
    own = [d for d in docs if d[2]["seller"]["name"] == max(set(sellers), key=sellers.count)]
    exact = total = 0
    for source, words, truth in own:
        layout = learn(list(words), truth, schema="invoice", teacher=teacher(source)).layout
        assert layout is not None
        for other, other_words, other_truth in docs:
            if other == source:
                continue
            reading = read(layout, list(other_words))
            assert wrong(reading, other_truth) == {}, (source, other)
            if other_truth["seller"]["name"] != truth["seller"]["name"]:
                assert reading.values == {}, (source, other)
                continue
            key = ("/invoice_number", "/issue_date", "/seller/name", "/seller/vat_id", "/total", "/amount_due")
            exact += sum(1 for k in key if k in reading.values)
            total += len(key)
            if reading.data is not None:
                assert all(same(leaves(reading.data)[p], v) for p, v in leaves(other_truth).items() if v is not None)
    # measured when written (bench/learn.py has the whole table): symtrax 84 %, fnfe 46 %
    assert exact / total >= {"symtrax": 0.8, "fnfe": 0.44}[name]


def test_the_seller_printing_a_known_vat_id_is_not_read_as_that_seller():
    docs = {d[0]: d for d in group("symtrax")}
    impostor = next(d for d in docs.values() if d[2]["seller"]["name"] == "Verkehrsbetriebe GmbH")
    assert "vat:DE123456789" in identities(list(impostor[1]))  # it prints Lieferant's VAT id
    lieferant = next(d for d in docs.values() if d[2]["seller"]["name"] == LIEFERANT)
    layout = learn(list(lieferant[1]), lieferant[2], schema="invoice", teacher=teacher(lieferant[0])).layout
    assert layout is not None and "vat:DE123456789" in layout.identity
    assert choose([layout], list(impostor[1])) is None
    reading = read(layout, list(impostor[1]))
    assert reading.values == {} and set(reading.abstained.values()) == {"identity_not_printed"}


def test_two_teachers_read_a_document_fully():
    own = [d for d in group("symtrax") if d[2]["seller"]["name"] == LIEFERANT]
    first, second, *rest = own
    layout = learn(list(first[1]), first[2], schema="invoice", teacher=teacher(first[0])).layout
    assert layout is not None
    refined = refine(layout, list(second[1]), second[2], teacher=teacher(second[0])).layout
    assert refined is not None and refined.documents == 2
    full = [d for d in rest if read(refined, list(d[1])).data is not None]
    assert full, "no document read fully"
    for name, words, truth in full:
        data = read(refined, list(words)).data
        assert {p: v for p, v in leaves(data).items() if not same(v, leaves(truth).get(p))} == {}, name
