"""Checks on the committed sample documents in samples/ and their expected JSON in samples/expected/.

The expectations here are written independently of samples/generate.py: the number formats, page counts and
arithmetic rules below are what the documents are meant to show, so a generator bug shows up as a failure.
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
EXPECTED = SAMPLES / "expected"
SCHEMAS = ROOT / "schemas"
DOCUMENT_SUFFIXES = {".pdf", ".png", ".jpg", ".jpeg"}
MINOR_UNITS = {"EUR": 2, "GBP": 2, "USD": 2, "CHF": 2, "JPY": 0}
EU_PREFIXES = {
    "AT",
    "BE",
    "BG",
    "CY",
    "CZ",
    "DE",
    "DK",
    "EE",
    "EL",
    "ES",
    "FI",
    "FR",
    "HR",
    "HU",
    "IE",
    "IT",
    "LT",
    "LU",
    "LV",
    "MT",
    "NL",
    "PL",
    "PT",
    "RO",
    "SE",
    "SI",
    "SK",
}

# stem -> (kind, pages, number style used on the page)
#   kind "text": PDF with a text layer; "scan": image-only PDF; "image": a raster file.
SAMPLE_TABLE = {
    "invoice-de-einfach": ("text", 1, "de"),
    "invoice-en-multipage": ("text", 3, "en"),
    "invoice-fr-services": ("text", 1, "fr"),
    "invoice-jp-yen": ("text", 1, "en"),
    "invoice-ch-chf": ("text", 1, "ch"),
    "invoice-scan": ("scan", 1, None),
    "invoice-us": ("image", 1, None),
    "receipt-cafe": ("text", 1, "de"),
}
SEPARATORS = {"de": (".", ","), "fr": (" ", ","), "en": (",", "."), "ch": ("'", ".")}
# Seller tax_id validators where python-stdnum has a checksum for that kind of number (GB company numbers and
# Dutch KvK numbers have none).
TAX_ID_MODULES = {
    "invoice-de-einfach": "stdnum.de.stnr",
    "invoice-fr-services": "stdnum.fr.siret",
    "invoice-jp-yen": "stdnum.jp.cn",
    "invoice-us": "stdnum.us.ein",
}


def load(stem: str) -> dict:
    """Expected JSON with every number as Decimal, so arithmetic checks are exact."""
    text = (EXPECTED / f"{stem}.json").read_text(encoding="utf-8")
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)


def document_path(stem: str) -> Path:
    """The sample document for an expected file."""
    matches = [p for p in SAMPLES.glob(f"{stem}.*") if p.suffix.lower() in DOCUMENT_SUFFIXES]
    assert len(matches) == 1, f"{stem}: expected exactly one document, found {matches}"
    return matches[0]


def printed(value: Decimal, *, style: str, places: int) -> str:
    """How a number looks on the page in a given locale (1.234,56 / 1 234,56 / 1,234.56 / 1'234.56)."""
    thousands, decimal = SEPARATORS[style]
    text = f"{abs(value):,.{places}f}".replace(",", "\0").replace(".", decimal).replace("\0", thousands)
    return ("-" if value < 0 else "") + text


def rounded(value: Decimal, places: int) -> Decimal:
    """Commercial rounding (half up) to the currency's minor unit."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def page_texts(path: Path) -> list[str]:
    """Text of every page of a PDF via pypdfium2's text page."""
    doc = pdfium.PdfDocument(str(path))
    try:
        texts = []
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return texts
    finally:
        doc.close()


EXPECTED_STEMS = sorted(p.stem for p in EXPECTED.glob("*.json"))
INVOICE_STEMS = [s for s in EXPECTED_STEMS if s.startswith("invoice-")]
RECEIPT_STEMS = [s for s in EXPECTED_STEMS if s.startswith("receipt-")]
TEXT_STEMS = [s for s, (kind, _, _) in SAMPLE_TABLE.items() if kind == "text"]


def test_samples_and_expected_pair_up() -> None:
    documents = {p.stem for p in SAMPLES.iterdir() if p.suffix.lower() in DOCUMENT_SUFFIXES}
    assert documents == set(EXPECTED_STEMS)
    assert set(SAMPLE_TABLE) == documents
    assert len(INVOICE_STEMS) >= 7 and len(RECEIPT_STEMS) >= 1
    assert set(INVOICE_STEMS) | set(RECEIPT_STEMS) == set(EXPECTED_STEMS)


@pytest.mark.parametrize("stem", EXPECTED_STEMS)
def test_expected_validates_against_schema(stem: str) -> None:
    kind = "invoice" if stem.startswith("invoice-") else "receipt"
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    # Parse plainly here: the validator must see the JSON as any consumer would.
    instance = json.loads((EXPECTED / f"{stem}.json").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]
    assert errors == []


def test_format_checker_checks_dates() -> None:
    # Guards the test above: without a working "date" checker a bad date would pass silently.
    checker = Draft202012Validator.FORMAT_CHECKER
    assert not checker.conforms("2026-02-30", "date")
    assert checker.conforms("2026-02-28", "date")


@pytest.mark.parametrize("stem", INVOICE_STEMS)
def test_invoice_arithmetic_is_exact(stem: str) -> None:
    inv = load(stem)
    places = MINOR_UNITS[inv["currency"]]
    for line in inv["line_items"]:
        assert line["amount"] == rounded(line["quantity"] * line["unit_price"], places), line
    assert inv["subtotal"] == sum((ln["amount"] for ln in inv["line_items"]), Decimal(0))
    line_rates = {ln["tax_rate"] for ln in inv["line_items"] if ln["tax_rate"] is not None}
    assert {t["rate"] for t in inv["tax_lines"]} == line_rates
    for t in inv["tax_lines"]:
        base = sum((ln["amount"] for ln in inv["line_items"] if ln["tax_rate"] == t["rate"]), Decimal(0))
        assert t["base"] == base, t
        assert t["amount"] == rounded(t["base"] * t["rate"] / 100, places), t
    assert inv["total"] == inv["subtotal"] + sum((t["amount"] for t in inv["tax_lines"]), Decimal(0))
    prepaid = inv["prepaid_amount"] if inv["prepaid_amount"] is not None else Decimal(0)
    assert inv["amount_due"] == inv["total"] - prepaid
    money = [inv["subtotal"], inv["total"], inv["amount_due"], prepaid]
    money += [ln["amount"] for ln in inv["line_items"]] + [t["amount"] for t in inv["tax_lines"]]
    assert all(rounded(m, places) == m for m in money), "amounts finer than the currency's minor unit"


@pytest.mark.parametrize("stem", RECEIPT_STEMS)
def test_receipt_arithmetic_is_exact(stem: str) -> None:
    rc = load(stem)
    places = MINOR_UNITS[rc["currency"]]
    for it in rc["items"]:
        if it["unit_price"] is not None:
            assert it["amount"] == rounded(it["quantity"] * it["unit_price"], places), it
    assert rc["total"] == sum((it["amount"] for it in rc["items"]), Decimal(0))
    # Receipt prices are gross: each tax line splits its gross share into net base + contained tax.
    assert sum((t["base"] + t["amount"] for t in rc["taxes"]), Decimal(0)) == rc["total"]
    for t in rc["taxes"]:
        gross = t["base"] + t["amount"]
        assert t["amount"] == rounded(gross * t["rate"] / (100 + t["rate"]), places), t


def _ids(data: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """(IBANs, [(vat id, owner)]) of an expected document."""
    if "merchant" in data:
        vat = data["merchant"]["vat_id"]
        return [], ([(vat, "merchant")] if vat else [])
    ibans = [data["bank_account"]["iban"]] if data["bank_account"] and data["bank_account"]["iban"] else []
    vats = [(data[k]["vat_id"], k) for k in ("seller", "buyer") if data[k]["vat_id"]]
    return ibans, vats


@pytest.mark.parametrize("stem", EXPECTED_STEMS)
def test_ibans_and_vat_ids_are_valid(stem: str) -> None:
    # python-stdnum is a dev dependency; skip only these checks, not the whole module, when it is missing.
    stdnum_iban = pytest.importorskip("stdnum.iban")
    stdnum_eu_vat = pytest.importorskip("stdnum.eu.vat")
    get_cc_module = pytest.importorskip("stdnum.util").get_cc_module
    data = json.loads((EXPECTED / f"{stem}.json").read_text(encoding="utf-8"))
    ibans, vats = _ids(data)
    for iban in ibans:
        assert stdnum_iban.validate(iban) == iban  # valid and already compact (no spaces)
    for vat, owner in vats:
        module = get_cc_module(vat[:2].lower(), "vat")
        assert module is not None, f"{owner}: no stdnum VAT module for {vat}"
        assert module.is_valid(vat), f"{owner}: {vat}"
        assert re.fullmatch(r"[A-Z]{2}[A-Z0-9]+", vat), f"{owner}: {vat} not in compact form"
        if vat[:2] in EU_PREFIXES:
            assert stdnum_eu_vat.is_valid(vat), f"{owner}: {vat}"
        address = data[owner]["address"]
        if isinstance(address, dict) and address["country"]:  # receipts hold the address as one string
            assert vat[:2] == address["country"], f"{owner}: VAT prefix vs country"


@pytest.mark.parametrize("stem", sorted(TAX_ID_MODULES))
def test_seller_tax_ids_are_valid(stem: str) -> None:
    tax_id = load(stem)["seller"]["tax_id"]
    module = pytest.importorskip(TAX_ID_MODULES[stem])
    # A Japanese qualified-invoice registration number is "T" + the 13-digit corporate number.
    number = tax_id[1:] if stem == "invoice-jp-yen" else tax_id
    assert module.is_valid(number), f"{stem}: {tax_id}"


@pytest.mark.parametrize("stem", TEXT_STEMS)
def test_text_layer_shows_number_and_total(stem: str) -> None:
    kind, pages, style = SAMPLE_TABLE[stem]
    data = load(stem)
    texts = page_texts(document_path(stem))
    assert len(texts) == pages
    places = MINOR_UNITS[data["currency"]]
    total = printed(data["total"], style=style, places=places)
    assert total in texts[-1], f"{stem}: printed total {total!r} not on the last page"
    if stem.startswith("invoice-"):
        assert data["invoice_number"] in texts[0]
        for t in data["tax_lines"]:
            assert printed(t["amount"], style=style, places=places) in "".join(texts)
    else:
        day = data["date"]
        assert f"{day[8:10]}.{day[5:7]}.{day[0:4]}" in texts[0]
        assert data["time"] in texts[0]


def test_scan_is_image_only() -> None:
    path = document_path("invoice-scan")
    assert path.suffix == ".pdf"
    doc = pdfium.PdfDocument(str(path))
    try:
        assert len(doc) == SAMPLE_TABLE["invoice-scan"][1]
        page = doc[0]
        textpage = page.get_textpage()
        assert textpage.count_chars() == 0
        textpage.close()
        kinds = [obj.type for obj in page.get_objects()]
        assert kinds and all(k == pdfium.raw.FPDF_PAGEOBJ_IMAGE for k in kinds)
        page.close()
    finally:
        doc.close()


def test_png_sample_is_a_page_sized_image() -> None:
    from PIL import Image

    path = document_path("invoice-us")
    with Image.open(path) as img:
        assert img.format == "PNG"
        width, height = img.size
    assert 1000 <= width <= 2600 and height > width  # portrait page at roughly 150 DPI


@pytest.mark.parametrize("stem", EXPECTED_STEMS)
def test_sample_files_stay_small(stem: str) -> None:
    # They are committed; the scan is the largest by far.
    assert document_path(stem).stat().st_size < 300 * 1024
