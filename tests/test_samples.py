"""Checks on the committed sample documents in samples/ and their expected JSON in samples/expected/ (invoice and
receipt schemas) and samples/expected/en16931/ (the invoices under the invoice-en16931 schema).

The expectations here are written independently of samples/generate.py: the number formats, date formats, page
counts, arithmetic rules and what each page says about payment below are what the documents are meant to show, so a
generator bug shows up as a failure. Only the pages of the two raster samples (scan, PNG) are read from the
generator, as the text layer of the PDF they were rasterised from, after checking that the generator's data is the
committed answer.
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
EN16931 = EXPECTED / "en16931"
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


def load(stem: str, *, folder: Path = EXPECTED) -> dict:
    """Expected JSON with every number as Decimal, so arithmetic checks are exact."""
    text = (folder / f"{stem}.json").read_text(encoding="utf-8")
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


# ------------------------------------------------------------------------------- the invoice-en16931 answers

EN16931_STEMS = sorted(p.stem for p in EN16931.glob("*.json"))
# how each page prints a date (issue date and, where printed, the delivery date)
DATE_FORMATS = {
    "invoice-de-einfach": "%d.%m.%Y",
    "invoice-en-multipage": "en-long",
    "invoice-fr-services": "%d/%m/%Y",
    "invoice-jp-yen": "%Y/%m/%d",
    "invoice-ch-chf": "%d.%m.%Y",
    "invoice-scan": "%d-%m-%Y",
    "invoice-us": "us-long",
}
# how each page says to pay: an account to transfer to (none says SEPA), or a cheque
PAYMENT_MEANS = {
    "invoice-de-einfach": "credit_transfer",
    "invoice-en-multipage": "credit_transfer",
    "invoice-fr-services": "credit_transfer",
    "invoice-jp-yen": "credit_transfer",
    "invoice-ch-chf": "credit_transfer",
    "invoice-scan": "credit_transfer",
    "invoice-us": "cheque",
}
# (stem, party field) -> the python-stdnum module that checks it, where there is one
EN16931_ID_MODULES = {
    ("invoice-de-einfach", "tax_number"): "stdnum.de.stnr",
    ("invoice-fr-services", "legal_id"): "stdnum.fr.siret",
    ("invoice-jp-yen", "legal_id"): "stdnum.jp.cn",
    ("invoice-us", "tax_number"): "stdnum.us.ein",
    ("invoice-us", "gln"): "stdnum.ean",  # a GLN has the GTIN-13 check digit
}
# the fields invoice-en16931 adds to the invoice schema, per object (the invoice schema's party tax_id is split
# into tax_number and legal_id)
NEW_TOP = {
    "document_type",
    "delivery_date",
    "invoicing_period",
    "buyer_reference",
    "order_reference",
    "preceding_invoice",
    "allowances_charges",
    "rounding_amount",
    "payment_means",
    # issue 41: every term a received invoice can carry
    "further_terms",
}
NEW_PARTY = {"tax_number", "legal_id", "gln", "lei", "contact", "electronic_address"} | {
    "trading_name", "legal_info", "other_ids",
}  # fmt: skip
NEW_ADDRESS = {"additional_street", "address_line_3", "subdivision"}
NEW_LINE = {"item_id", "allowance", "charge", "vat_category", "line_id", "price_base_quantity", "details"}
NEW_TAX = {"category", "exemption_reason", "exemption_code"}
NEW_BANK = {"account_number"}
# raster samples: (data builder, page renderer) in samples/generate.py
RASTER_SOURCES = {"invoice-scan": ("invoice_nl", "render_nl"), "invoice-us": ("invoice_us", "render_us")}


def fmt_date(iso: str, pattern: str) -> str:
    """A date as the page prints it."""
    from datetime import date

    d = date.fromisoformat(iso)
    month = ("January February March April May June July August September October November December").split()[
        d.month - 1
    ]
    if pattern == "en-long":
        return f"{d.day} {month} {d.year}"
    if pattern == "us-long":
        return f"{month} {d.day}, {d.year}"
    return d.strftime(pattern)


def source_text(stem: str) -> str:
    """All text of a sample's pages: its text layer, or for a raster sample the text layer of the PDF page it was
    rasterised from (after checking that the generator's data for it is the committed answer)."""
    if stem not in RASTER_SOURCES:
        return "\n".join(page_texts(document_path(stem)))
    from helpers import sample_generator

    gen = sample_generator()
    build, render = (getattr(gen, name) for name in RASTER_SOURCES[stem])
    data = build()
    assert json.loads(json.dumps(gen.to_json(data))) == json.loads((EN16931 / f"{stem}.json").read_text("utf-8"))
    assert json.loads(json.dumps(gen.to_json(gen.as_invoice(data)))) == json.loads(
        (EXPECTED / f"{stem}.json").read_text("utf-8")
    )
    doc = pdfium.PdfDocument(bytes(render(data).output()))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def _squeezed(text: str) -> str:
    """Text without spaces, line breaks and dots: ids are kept compact in the JSON (``908 172 638 00011``)."""
    return re.sub(r"[\s.]", "", text)


def new_string_values(inv: dict) -> list[tuple[str, str]]:
    """(path, value) of every string the invoice-en16931 answer has that the invoice one does not hold (enums and
    dates left out: they are not printed as they are written)."""
    out = [(f"/{k}", inv[k]) for k in ("buyer_reference", "order_reference")]
    if inv["preceding_invoice"]:
        out.append(("/preceding_invoice/number", inv["preceding_invoice"]["number"]))
    for role in ("seller", "buyer"):
        p = inv[role]
        out += [(f"/{role}/{k}", p[k]) for k in ("tax_number", "legal_id", "gln", "lei", "electronic_address")]
        out += [(f"/{role}/contact/{k}", v) for k, v in (p["contact"] or {}).items()]
    out += [(f"/line_items/{i}/item_id", ln["item_id"]) for i, ln in enumerate(inv["line_items"])]
    out += [(f"/tax_lines/{i}/exemption_reason", t["exemption_reason"]) for i, t in enumerate(inv["tax_lines"])]
    out += [(f"/allowances_charges/{i}/reason", a["reason"]) for i, a in enumerate(inv["allowances_charges"])]
    if inv["bank_account"]:
        out.append(("/bank_account/account_number", inv["bank_account"]["account_number"]))
    return [(path, value) for path, value in out if value is not None]


def test_every_invoice_has_an_en16931_answer() -> None:
    assert EN16931_STEMS == INVOICE_STEMS
    assert set(DATE_FORMATS) == set(PAYMENT_MEANS) == set(INVOICE_STEMS)


@pytest.mark.parametrize("stem", EN16931_STEMS)
def test_en16931_answer_validates_against_schema(stem: str) -> None:
    schema = json.loads((SCHEMAS / "invoice-en16931.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    instance = json.loads((EN16931 / f"{stem}.json").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]
    assert errors == []


def _agree(v2: dict, v1: dict, path: str, new: dict[str, set[str]]) -> list[str]:
    """Where the invoice-en16931 answer ``v2`` differs from the invoice answer ``v1`` on a field both schemas have;
    ``new`` names the keys only v2 has at each kind of object."""
    if isinstance(v1, dict) and isinstance(v2, dict):
        kind = re.sub(r"/\d+", "/*", path)
        extra = new.get(kind, set())
        out = [f"{path}: keys {sorted(set(v2) - set(v1))} are not the new ones"] if set(v2) - set(v1) != extra else []
        for key in v1:
            if key == "tax_id":  # split by meaning: the tax number, else the legal registration
                want = v2["tax_number"] or v2["legal_id"]
                out += [] if v1[key] == want else [f"{path}/tax_id: {v1[key]!r} != {want!r}"]
            elif key not in v2:
                out.append(f"{path}/{key}: missing")
            else:
                out += _agree(v2[key], v1[key], f"{path}/{key}", new)
        return out
    if isinstance(v1, list) and isinstance(v2, list) and len(v1) == len(v2):
        return [line for i, (a, b) in enumerate(zip(v2, v1, strict=True)) for line in _agree(a, b, f"{path}/{i}", new)]
    return [] if (type(v1), v1) == (type(v2), v2) else [f"{path or '/'}: {v2!r} != {v1!r}"]


@pytest.mark.parametrize("stem", EN16931_STEMS)
def test_en16931_and_invoice_answers_agree(stem: str) -> None:
    v1 = json.loads((EXPECTED / f"{stem}.json").read_text(encoding="utf-8"))
    v2 = json.loads((EN16931 / f"{stem}.json").read_text(encoding="utf-8"))
    replaced = {"seller": {"tax_id"}, "buyer": {"tax_id"}}
    new = {"": NEW_TOP, "/line_items/*": NEW_LINE, "/tax_lines/*": NEW_TAX, "/bank_account": NEW_BANK}
    new |= {f"/{role}": NEW_PARTY for role in replaced} | {f"/{role}/address": NEW_ADDRESS for role in replaced}
    assert _agree(v2, v1, "", new) == []


@pytest.mark.parametrize("stem", EN16931_STEMS)
def test_en16931_values_are_printed(stem: str) -> None:
    inv = load(stem, folder=EN16931)
    text = source_text(stem)
    missing = [
        (path, value)
        for path, value in new_string_values(inv)
        if value not in text and _squeezed(value) not in _squeezed(text)
    ]
    assert missing == []
    pattern = DATE_FORMATS[stem]
    assert fmt_date(inv["issue_date"], pattern) in text  # the table is the page's
    dates = [inv["delivery_date"]] + list((inv["invoicing_period"] or {}).values())
    dates += [(inv["preceding_invoice"] or {}).get("issue_date")]
    assert [d for d in dates if d is not None and fmt_date(d, pattern) not in text] == []
    assert ("Lieferdatum" in text) == (inv["delivery_date"] is not None)  # printed where the page has one


@pytest.mark.parametrize("stem", EN16931_STEMS)
def test_en16931_categories_means_and_references(stem: str) -> None:
    inv = load(stem, folder=EN16931)
    text = source_text(stem)
    assert inv["document_type"] == "invoice"
    # standard rated at a positive rate; the zero-rated rows say so on the page
    rows = [(ln["tax_rate"], ln["vat_category"]) for ln in inv["line_items"]]
    rows += [(t["rate"], t["category"]) for t in inv["tax_lines"]]
    assert all(category == ("S" if rate > 0 else "Z") for rate, category in rows), rows
    assert any(category == "Z" for _, category in rows) == ("zero-rated" in text)
    assert all(t["exemption_reason"] is None for t in inv["tax_lines"])  # S and Z need none
    # payment: the table above; a transfer has an account to pay to, SEPA only where the page says SEPA
    means, bank = inv["payment_means"], inv["bank_account"]
    assert means == PAYMENT_MEANS[stem]
    assert means.startswith("sepa_") == ("SEPA" in text)
    if means.endswith("credit_transfer"):
        assert bank["iban"] or bank["account_number"]
        assert bank["account_number"] is None or bank["iban"] is None  # the number only where no IBAN is printed
    else:
        assert bank is None
    # what XRechnung asks of every sample: a buyer reference, the seller's contact in full, the buyer's e-mail
    assert inv["buyer_reference"]
    assert all(inv["seller"]["contact"].values()), inv["seller"]["contact"]
    assert "@" in inv["buyer"]["contact"]["email"]
    # BR-CO-26: the seller named by an identifier, a legal registration or a VAT id
    seller = inv["seller"]
    assert seller["gln"] or seller["legal_id"] or seller["vat_id"]


@pytest.mark.parametrize("stem,field", sorted(EN16931_ID_MODULES))
def test_en16931_ids_are_valid(stem: str, field: str) -> None:
    module = pytest.importorskip(EN16931_ID_MODULES[(stem, field)])
    value = load(stem, folder=EN16931)["seller"][field]
    assert module.is_valid(value), f"{stem}: {field} {value}"


def test_jp_registration_number_is_the_corporate_number() -> None:
    seller = load("invoice-jp-yen", folder=EN16931)["seller"]
    assert seller["tax_number"] == "T" + seller["legal_id"]
