"""Generate the sample invoices and receipt in ``samples/`` and their true JSON in ``samples/expected/``.

Run from the repository root::

    python samples/generate.py

Each document is drawn from one data dict, and the same dict is written as the expected JSON, so the page
and the JSON cannot disagree. All money arithmetic is done with ``Decimal`` (ROUND_HALF_UP to the currency's
minor unit). Only the PDF core fonts (Helvetica, Times, Courier; cp1252) are used, so regenerating needs no
system font; the image samples are rendered from such PDFs with pypdfium2. Output is deterministic: fixed
PDF metadata and creation dates, seeded noise.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from datetime import date, datetime, timezone
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import pypdfium2 as pdfium
from fpdf import FPDF
from PIL import Image, ImageFilter

SAMPLES_DIR = Path(__file__).resolve().parent
EXPECTED_DIR = SAMPLES_DIR / "expected"
EN16931_DIR = EXPECTED_DIR / "en16931"
CREATION_DATE = datetime(2026, 3, 1, 12, 0, 0, tzinfo=timezone.utc)
MINOR_UNITS = {"EUR": 2, "GBP": 2, "USD": 2, "CHF": 2, "JPY": 0}
D = Decimal

# --------------------------------------------------------------------------------------------------------------
# Arithmetic and formatting
# --------------------------------------------------------------------------------------------------------------


def money(value: Decimal, *, currency: str) -> Decimal:
    """Round a value to the currency's minor unit (commercial rounding, half up).

    Args:
        value: the exact amount.
        currency: ISO 4217 code; its minor unit comes from ``MINOR_UNITS``.

    Returns:
        The rounded amount.
    """
    return value.quantize(D(1).scaleb(-MINOR_UNITS[currency]), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class NumberStyle:
    """How a locale writes numbers: thousands separator and decimal mark."""

    thousands: str
    decimal: str


STYLES = {
    "de": NumberStyle(thousands=".", decimal=","),
    "nl": NumberStyle(thousands=".", decimal=","),
    "fr": NumberStyle(thousands=" ", decimal=","),
    "en": NumberStyle(thousands=",", decimal="."),
    "ch": NumberStyle(thousands="'", decimal="."),
}


def fmt_number(value: Decimal, *, style: str, places: Optional[int] = None) -> str:
    """Format a number the way the locale prints it (``1.234,56``, ``1 234,56``, ``1,234.56``, ``1'234.56``).

    Args:
        value: the number.
        style: a key of ``STYLES``.
        places: fixed decimal places; None prints as many as the value has (quantities, rates).

    Returns:
        The formatted number.
    """
    if places is None:
        exponent = value.normalize().as_tuple().exponent
        places = max(0, -int(exponent))
    text = f"{abs(value):,.{places}f}"
    st = STYLES[style]
    text = text.replace(",", "\0").replace(".", st.decimal).replace("\0", st.thousands)
    return ("-" if value < 0 else "") + text


def fmt_date(iso: str, pattern: str) -> str:
    """Format an ISO date for the page.

    Args:
        iso: ``YYYY-MM-DD``.
        pattern: a ``strftime`` pattern, or ``"en-long"`` / ``"us-long"`` for ``12 February 2026`` /
            ``February 12, 2026`` (without locale-dependent ``%B`` padding quirks).

    Returns:
        The formatted date.
    """
    d = date.fromisoformat(iso)
    months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
    if pattern == "en-long":
        return f"{d.day} {months[d.month - 1]} {d.year}"
    if pattern == "us-long":
        return f"{months[d.month - 1]} {d.day}, {d.year}"
    return d.strftime(pattern)


def group4(text: str) -> str:
    """Print an IBAN (or similar) in groups of four characters, as on paper."""
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


# --------------------------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------------------------


def contact(name: Optional[str], phone: Optional[str], email: Optional[str]) -> dict:
    """A party's contact as printed (person or department, phone, e-mail; None where one is not printed)."""
    return {"name": name, "phone": phone, "email": email}


def party(
    *,
    name: str,
    street: Optional[str],
    postal_code: Optional[str],
    city: Optional[str],
    country: Optional[str],
    vat_id: Optional[str] = None,
    tax_number: Optional[str] = None,
    legal_id: Optional[str] = None,
    gln: Optional[str] = None,
    contact: Optional[dict] = None,
) -> dict:
    """Build a seller/buyer object in invoice-en16931 shape (``as_invoice`` makes the invoice schema's).

    Args:
        name: legal name as printed.
        street: street line, or None.
        postal_code: postal code, or None.
        city: city, or None.
        country: ISO 3166-1 alpha-2 code when the country is printed, else None.
        vat_id: VAT id in compact form (no spaces/dots), or None.
        tax_number: a tax number that is not the VAT id (Steuernummer, EIN, Japanese T-number), compact, or None.
        legal_id: a company / legal registration number (company number, SIRET, KvK, corporate number), compact,
            or None.
        gln: GS1 Global Location Number as printed, or None.
        contact: from ``contact``, or None when no contact is printed.

    Returns:
        The party dict.
    """
    return {
        "name": name,
        "trading_name": None,
        "address": {
            "street": street,
            "additional_street": None,
            "address_line_3": None,
            "postal_code": postal_code,
            "city": city,
            "subdivision": None,
            "country": country,
        },
        "vat_id": vat_id,
        "tax_number": tax_number,
        "legal_id": legal_id,
        "gln": gln,
        "lei": None,
        "other_ids": None,
        "contact": contact,
        "electronic_address": None,
        "legal_info": None,
    }


def item(
    description: str,
    quantity: str,
    unit: Optional[str],
    unit_price: str,
    tax_rate: Optional[str],
    *,
    item_id: Optional[str] = None,
) -> dict:
    """Build a line item (amount filled in by ``complete_invoice``).

    The VAT category is what the page states for the rate: a positive rate is standard rated (S), a rate of 0 is
    printed as zero-rated on these pages (Z); no rate printed, no category.

    Args:
        description: text as printed.
        quantity: decimal string.
        unit: unit as printed, or None.
        unit_price: net unit price, decimal string.
        tax_rate: rate in percent, decimal string, or None.
        item_id: the seller's article number / SKU as printed, or None.

    Returns:
        The line item dict (Decimals).
    """
    rate = None if tax_rate is None else D(tax_rate)
    return {
        "line_id": None,
        "item_id": item_id,
        "description": description,
        "quantity": D(quantity),
        "unit": unit,
        "unit_price": D(unit_price),
        "price_base_quantity": None,
        "allowance": None,
        "charge": None,
        "tax_rate": rate,
        "vat_category": None if rate is None else ("S" if rate > 0 else "Z"),
    }


# the invoice-en16931 line terms after the amount: no further line terms printed on these samples
LINE_TAIL = {"details": None}


def complete_invoice(
    *,
    invoice_number: str,
    issue_date: str,
    due_date: Optional[str],
    currency: str,
    seller: dict,
    buyer: dict,
    items: list[dict],
    prepaid_amount: Optional[str],
    payment_terms: Optional[str],
    bank_account: Optional[dict],
    delivery_date: Optional[str] = None,
    buyer_reference: Optional[str] = None,
    order_reference: Optional[str] = None,
    payment_means: Optional[str] = None,
) -> dict:
    """Compute every derived amount and return the invoice in invoice-en16931 shape (Decimals, key order of that
    schema); ``as_invoice`` gives the same invoice in the invoice schema's shape.

    Args:
        invoice_number: as printed.
        issue_date: ISO date.
        due_date: ISO date, or None when not printed.
        currency: ISO 4217 code.
        seller: from ``party``.
        buyer: from ``party``.
        items: from ``item``.
        prepaid_amount: decimal string, or None when not printed.
        payment_terms: the exact printed sentence, or None.
        bank_account: ``{"iban", "account_number", "bic", "account_holder"}`` or None.
        delivery_date: ISO date of the printed delivery date, or None.
        buyer_reference: the printed buyer's reference (your reference, Leitweg-ID), or None.
        order_reference: the printed purchase order number, or None.
        payment_means: how the page says to pay (a value of the schema's ``payment_means``), or None.

    Returns:
        The invoice dict. Every document here is an invoice (no credit note, no preceding invoice), with no
        document-level allowance or charge and no rounding amount printed.
    """
    lines = []
    for it in items:
        lines.append({**it, "amount": money(it["quantity"] * it["unit_price"], currency=currency), **LINE_TAIL})
    subtotal = sum((ln["amount"] for ln in lines), D(0))
    rates: list[Decimal] = []
    for ln in lines:
        if ln["tax_rate"] is not None and ln["tax_rate"] not in rates:
            rates.append(ln["tax_rate"])
    tax_lines = []
    for rate in sorted(rates, reverse=True):
        at_rate = [ln for ln in lines if ln["tax_rate"] == rate]
        categories = {ln["vat_category"] for ln in at_rate}
        assert len(categories) == 1, f"one VAT category per rate here, got {categories} at {rate} %"
        base = sum((ln["amount"] for ln in at_rate), D(0))
        tax_lines.append(
            {
                "rate": rate,
                "category": categories.pop(),
                "base": base,
                "amount": money(base * rate / 100, currency=currency),
                "exemption_reason": None,
                "exemption_code": None,
            }
        )
    total = subtotal + sum((t["amount"] for t in tax_lines), D(0))
    prepaid = None if prepaid_amount is None else D(prepaid_amount)
    return {
        "document_type": "invoice",
        "invoice_number": invoice_number,
        "issue_date": issue_date,
        "due_date": due_date,
        "delivery_date": delivery_date,
        "invoicing_period": None,
        "currency": currency,
        "buyer_reference": buyer_reference,
        "order_reference": order_reference,
        "preceding_invoice": None,
        "seller": seller,
        "buyer": buyer,
        "line_items": lines,
        "subtotal": subtotal,
        "allowances_charges": [],
        "tax_lines": tax_lines,
        "total": total,
        "prepaid_amount": prepaid,
        "rounding_amount": None,
        "amount_due": total - (prepaid or D(0)),
        "payment_means": payment_means,
        "payment_terms": payment_terms,
        "bank_account": bank_account,
        "further_terms": None,
    }


def as_invoice(inv: dict) -> dict:
    """The invoice schema's answer for an invoice-en16931 one: the fields that schema has, in its key order; a
    party's one ``tax_id`` is its tax number, else its legal registration number (the invoice schema does not tell
    them apart)."""

    def party_v1(p: dict) -> dict:
        a = p["address"]
        address = {k: a[k] for k in ("street", "postal_code", "city", "country")}
        return {
            "name": p["name"],
            "address": address,
            "vat_id": p["vat_id"],
            "tax_id": p["tax_number"] or p["legal_id"],
        }

    bank = inv["bank_account"]
    return {
        "invoice_number": inv["invoice_number"],
        "issue_date": inv["issue_date"],
        "due_date": inv["due_date"],
        "currency": inv["currency"],
        "seller": party_v1(inv["seller"]),
        "buyer": party_v1(inv["buyer"]),
        "line_items": [
            {k: ln[k] for k in ("description", "quantity", "unit", "unit_price", "tax_rate", "amount")}
            for ln in inv["line_items"]
        ],
        "subtotal": inv["subtotal"],
        "tax_lines": [{k: t[k] for k in ("rate", "base", "amount")} for t in inv["tax_lines"]],
        "total": inv["total"],
        "prepaid_amount": inv["prepaid_amount"],
        "amount_due": inv["amount_due"],
        "payment_terms": inv["payment_terms"],
        "bank_account": None if bank is None else {k: bank[k] for k in ("iban", "bic", "account_holder")},
    }


def bank_account(
    *, iban: Optional[str], bic: Optional[str], account_holder: Optional[str], account_number: Optional[str] = None
) -> dict:
    """A bank account in invoice-en16931 shape (``account_number`` only where no IBAN is printed)."""
    return {"iban": iban, "account_number": account_number, "bic": bic, "account_holder": account_holder}


def to_json(value: object) -> object:
    """Turn Decimals into JSON numbers: ints when integral (JPY, quantities, rates), floats otherwise."""
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def write_expected(stem: str, data: dict, *, folder: Path = EXPECTED_DIR) -> None:
    """Write ``<folder>/<stem>.json`` (``samples/expected/`` by default) from the data dict."""
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_json(data), indent=2, ensure_ascii=False) + "\n"
    (folder / f"{stem}.json").write_text(text, encoding="utf-8")


def write_answers(stem: str, inv: dict) -> None:
    """Write an invoice's two true answers from its one data dict: ``samples/expected/<stem>.json`` (invoice
    schema) and ``samples/expected/en16931/<stem>.json`` (invoice-en16931 schema)."""
    write_expected(stem, as_invoice(inv))
    write_expected(stem, inv, folder=EN16931_DIR)


# --------------------------------------------------------------------------------------------------------------
# PDF helpers
# --------------------------------------------------------------------------------------------------------------


def new_pdf(*, title: str, author: str, fmt: str | tuple[float, float] = "A4") -> FPDF:
    """Create an FPDF with fixed metadata (deterministic bytes) and cp1252 core fonts (for €, accents).

    Args:
        title: document title metadata.
        author: author metadata (the seller).
        fmt: page format.

    Returns:
        The FPDF document, no page added yet.
    """
    pdf = FPDF(unit="mm", format=fmt)
    # cp1252 puts € into the core fonts (WinAnsiEncoding), so no TTF font has to be installed.
    pdf.core_fonts_encoding = "windows-1252"
    pdf.set_auto_page_break(False)
    pdf.set_creation_date(CREATION_DATE)
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.set_creator("extractor samples/generate.py")
    pdf.set_producer("extractor samples/generate.py")
    pdf.set_margins(15, 15, 15)
    return pdf


def text_at(pdf: FPDF, x: float, y: float, w: float, text: str, *, align: str = "L", h: float = 5) -> None:
    """Write one line of text in a box at an absolute position."""
    pdf.set_xy(x, y)
    pdf.cell(w, h, text, align=align)


def lines_at(pdf: FPDF, x: float, y: float, w: float, lines: list[str], *, h: float = 4.5, align: str = "L") -> float:
    """Write several lines starting at (x, y).

    Returns:
        The y below the last line.
    """
    for i, line in enumerate(lines):
        text_at(pdf, x, y + i * h, w, line, align=align, h=h)
    return y + len(lines) * h


def address_lines(p: dict, country_name: Optional[str]) -> list[str]:
    """The printed address lines of a party: name, street, postal code + city, country (when printed)."""
    a = p["address"]
    out = [p["name"], a["street"], f"{a['postal_code']} {a['city']}"]
    if country_name:
        out.append(country_name)
    return out


def save_pdf(pdf: FPDF, name: str) -> None:
    """Write the PDF into ``samples/``."""
    pdf.output(str(SAMPLES_DIR / name))


def render_png(pdf: FPDF, *, dpi: int) -> Image.Image:
    """Render the first page of an in-memory PDF to a Pillow image with pypdfium2."""
    doc = pdfium.PdfDocument(bytes(pdf.output()))
    try:
        page = doc[0]
        return page.render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


# --------------------------------------------------------------------------------------------------------------
# 1. German, simple, two VAT rates
# --------------------------------------------------------------------------------------------------------------


def invoice_de() -> dict:
    """German one-page invoice data: EUR, 19 % and 7 % VAT, a delivery date, a Leitweg-ID as the buyer's
    reference, the seller's contact person in the information block."""
    seller = party(
        name="Nordlicht Bürotechnik GmbH",
        street="Hafenstraße 12",
        postal_code="20457",
        city="Hamburg",
        country="DE",
        vat_id="DE271828180",
        tax_number="43/815/08156",
        contact=contact("Jonas Albers", "040 555 0192-14", "j.albers@nordlicht-buero.example"),
    )
    buyer = party(
        name="Kanzlei Weber & Söhne",
        street="Maximilianstraße 8",
        postal_code="80539",
        city="München",
        country="DE",
        contact=contact(None, None, "rechnung@weber-soehne.example"),
    )
    items = [
        item("Bürostuhl ErgoFlex Pro, schwarz", "4", "Stk.", "289.00", "19"),
        item("Schreibtischleuchte LED, dimmbar", "6", "Stk.", "54.90", "19"),
        item("Montage und Einrichtung vor Ort", "3.5", "Std.", "68.00", "19"),
        item('Fachbuch "Ergonomie im Büro", 3. Auflage', "5", "Stk.", "39.80", "7"),
        item("Kopierpapier A4, 80 g/m², 500 Blatt", "20", "Pack", "4.79", "19"),
    ]
    return complete_invoice(
        invoice_number="RE-2026-0117",
        issue_date="2026-01-31",
        due_date="2026-02-14",
        currency="EUR",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Zahlbar innerhalb von 14 Tagen ohne Abzug.",
        bank_account=bank_account(
            iban="DE89370400440532013000", bic="COBADEFFXXX", account_holder="Nordlicht Bürotechnik GmbH"
        ),
        delivery_date="2026-01-29",
        buyer_reference="04011000-1234512345-06",
        payment_means="credit_transfer",
    )


def render_de(inv: dict) -> FPDF:
    """DIN-5008-like layout: window address, info block on the right, table, tax summary, three-column footer."""
    num = lambda v: fmt_number(v, style="de", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    pdf = new_pdf(title=f"Rechnung {inv['invoice_number']}", author=s["name"])
    pdf.add_page()
    # Letterhead
    pdf.set_text_color(20, 60, 110)
    pdf.set_font("Helvetica", "B", 18)
    text_at(pdf, 15, 15, 180, s["name"], align="R", h=8)
    pdf.set_font("Helvetica", "", 9)
    pdf.set_text_color(90, 90, 90)
    text_at(pdf, 15, 24, 180, "Büromöbel · Beleuchtung · Verbrauchsmaterial", align="R")
    pdf.set_draw_color(20, 60, 110)
    pdf.set_line_width(0.6)
    pdf.line(15, 31, 195, 31)
    # Return line and window address
    pdf.set_font("Helvetica", "U", 7)
    a = s["address"]
    text_at(pdf, 20, 47, 85, f"{s['name']} · {a['street']} · {a['postal_code']} {a['city']}", h=4)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    y = lines_at(pdf, 20, 53, 85, address_lines(b, "Deutschland"), h=5)
    # The lines added for EN 16931 / XRechnung (buyer's e-mail, reference, contact) are set smaller and grey: in
    # black 9 pt they tip rapidocr's reading of a table row in tests/test_ocr.py's turned photo of this page.
    pdf.set_font("Helvetica", "", 8)
    pdf.set_text_color(80, 80, 80)
    text_at(pdf, 20, y, 85, f"E-Mail: {b['contact']['email']}")
    # Info block (DIN 5008: references, then the contact person, phone and e-mail)
    info = [
        ("Rechnungsnummer:", inv["invoice_number"]),
        ("Rechnungsdatum:", fmt_date(inv["issue_date"], "%d.%m.%Y")),
        ("Lieferdatum:", fmt_date(inv["delivery_date"], "%d.%m.%Y")),
        ("Kundennummer:", "K-10482"),
        ("Fällig am:", fmt_date(inv["due_date"], "%d.%m.%Y")),
    ]
    contact_rows = [
        ("Ihre Referenz:", inv["buyer_reference"]),
        ("Ansprechpartner:", s["contact"]["name"]),
        ("Telefon:", s["contact"]["phone"]),
        ("E-Mail:", s["contact"]["email"]),
    ]
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 9)
    for i, (label, value) in enumerate(info + contact_rows):
        if i == len(info):
            pdf.set_font("Helvetica", "", 8)
            pdf.set_text_color(80, 80, 80)
        text_at(pdf, 125, 50 + i * 5, 35, label)
        text_at(pdf, 160, 50 + i * 5, 35, value, align="R")
    pdf.set_text_color(0, 0, 0)
    # Title and intro
    pdf.set_font("Helvetica", "B", 14)
    text_at(pdf, 15, 95, 180, f"Rechnung {inv['invoice_number']}", h=7)
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 15, 105, 180, "Sehr geehrte Damen und Herren,")
    intro = "vielen Dank für Ihren Auftrag. Wir berechnen Ihnen folgende Lieferungen und Leistungen:"
    text_at(pdf, 15, 110, 180, intro)
    # Table
    cols = [
        ("Pos.", 11, "C"),
        ("Beschreibung", 72, "L"),
        ("Menge", 16, "R"),
        ("Einheit", 16, "L"),
        ("Einzelpreis", 24, "R"),
        ("USt.", 13, "R"),
        ("Betrag", 28, "R"),
    ]
    y = 120
    pdf.set_fill_color(20, 60, 110)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("Helvetica", "B", 9)
    x = 15
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 7, head, align=al, fill=True)
        x += w
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 9)
    y += 7
    pdf.set_draw_color(200, 200, 200)
    pdf.set_line_width(0.2)
    for pos, ln in enumerate(inv["line_items"], start=1):
        values = [
            str(pos),
            ln["description"],
            fmt_number(ln["quantity"], style="de"),
            ln["unit"],
            num(ln["unit_price"]),
            f"{fmt_number(ln['tax_rate'], style='de')} %",
            num(ln["amount"]),
        ]
        x = 15
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 7, v, align=al)
            x += w
        y += 7
        pdf.line(15, y, 195, y)
    # Totals
    y += 4
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 100, y, 62, "Nettobetrag")
    text_at(pdf, 162, y, 33, f"{num(inv['subtotal'])} €", align="R")
    for t in inv["tax_lines"]:
        y += 6
        text_at(pdf, 100, y, 62, f"zzgl. {fmt_number(t['rate'], style='de')} % USt. auf {num(t['base'])} €")
        text_at(pdf, 162, y, 33, f"{num(t['amount'])} €", align="R")
    y += 7
    pdf.set_draw_color(0, 0, 0)
    pdf.line(100, y, 195, y)
    pdf.set_font("Helvetica", "B", 11)
    text_at(pdf, 100, y + 1.5, 62, "Rechnungsbetrag", h=6)
    text_at(pdf, 162, y + 1.5, 33, f"{num(inv['total'])} €", align="R", h=6)
    pdf.line(100, y + 8.5, 195, y + 8.5)
    pdf.line(100, y + 9.2, 195, y + 9.2)
    # Terms
    y += 20
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 15, y, 180, inv["payment_terms"])
    text_at(pdf, 15, y + 5, 180, "Bitte geben Sie bei der Überweisung die Rechnungsnummer an.")
    text_at(pdf, 15, y + 15, 180, "Mit freundlichen Grüßen")
    text_at(pdf, 15, y + 20, 180, s["name"])
    # Footer
    pdf.set_draw_color(20, 60, 110)
    pdf.set_line_width(0.4)
    pdf.line(15, 268, 195, 268)
    pdf.set_font("Helvetica", "", 7.5)
    pdf.set_text_color(70, 70, 70)
    bank = inv["bank_account"]
    lines_at(
        pdf,
        15,
        270,
        60,
        [s["name"], a["street"], f"{a['postal_code']} {a['city']}", "Tel. 040 555 0192 · info@nordlicht-buero.example"],
        h=3.6,
    )
    lines_at(
        pdf,
        78,
        270,
        60,
        [
            "Hamburger Handelsbank",
            f"IBAN {group4(bank['iban'])}",
            f"BIC {bank['bic']}",
            f"Kontoinhaber: {bank['account_holder']}",
        ],
        h=3.6,
    )
    lines_at(
        pdf,
        141,
        270,
        54,
        [f"USt-IdNr.: {s['vat_id']}", f"Steuernummer: {s['tax_number']}", "Geschäftsführerin: Jana Petersen"],
        h=3.6,
    )
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 2. English, multi-page
# --------------------------------------------------------------------------------------------------------------

_EN_PRODUCTS = [
    ("Ballpoint pens, blue, box of 50", "box", "7.45", "20"),
    ("Gel pens, assorted colours, pack of 12", "pack", "5.99", "20"),
    ("A4 copier paper 80gsm, ream", "ream", "3.89", "20"),
    ("A3 copier paper 100gsm, ream", "ream", "9.75", "20"),
    ("Lever arch files, A4, black", "each", "2.35", "20"),
    ("Ring binders, 2-ring, A4, blue", "each", "1.60", "20"),
    ("Suspension files, foolscap, box of 50", "box", "18.90", "20"),
    ("Sticky notes 76 x 76 mm, pack of 12", "pack", "6.25", "20"),
    ("Highlighters, 4 colours, wallet", "wallet", "3.40", "20"),
    ("Whiteboard markers, assorted, pack of 4", "pack", "4.15", "20"),
    ("Whiteboard eraser, magnetic", "each", "2.99", "20"),
    ("Stapler, full strip, metal", "each", "11.50", "20"),
    ("Staples 26/6, box of 5000", "box", "1.85", "20"),
    ("Hole punch, 2-hole, 30 sheets", "each", "8.70", "20"),
    ("Desk organiser, mesh, black", "each", "12.95", "20"),
    ("Letter trays, stackable, set of 3", "set", "14.40", "20"),
    ("Printer toner HP 26A compatible", "each", "46.80", "20"),
    ("Inkjet cartridge, tri-colour", "each", "22.35", "20"),
    ("Laminating pouches A4, 100 pack", "pack", "9.60", "20"),
    ("Envelopes DL, self-seal, box of 500", "box", "16.20", "20"),
    ("Envelopes C4, board-backed, box of 125", "box", "27.50", "20"),
    ("Padded envelopes, size D, box of 100", "box", "19.80", "20"),
    ("Parcel tape, brown, 6 rolls", "pack", "8.45", "20"),
    ("Cardboard boxes, double wall, pack of 10", "pack", "21.00", "20"),
    ("Bubble wrap roll, 500 mm x 50 m", "roll", "17.25", "20"),
    ("Desk pad calendar 2026", "each", "7.99", "20"),
    ("Notebooks A5, hardback, pack of 5", "pack", "13.75", "20"),
    ("Spiral notebooks A4, pack of 10", "pack", "15.50", "20"),
    ("USB-C hub, 7-port", "each", "34.99", "20"),
    ("Wireless mouse, ergonomic", "each", "24.50", "20"),
    ("Keyboard, wired, UK layout", "each", "19.95", "20"),
    ("Monitor stand, adjustable", "each", "39.00", "20"),
    ("Cable ties, assorted, pack of 200", "pack", "4.80", "20"),
    ("Extension lead, 4-way, 3 m", "each", "12.60", "20"),
    ("Hand sanitiser 500 ml", "bottle", "3.25", "20"),
    ("Coffee, ground, 1 kg", "bag", "14.90", "0"),
    ("Tea bags, box of 240", "box", "5.70", "0"),
    ("Book: The Practical Office Manager", "each", "18.99", "0"),
    ("Book: UK Payroll Handbook 2026", "each", "32.50", "0"),
    ("Printed wall planner 2026 (book format)", "each", "9.99", "0"),
    ("Paper cups, 8 oz, pack of 1000", "pack", "38.40", "20"),
    ("Kitchen roll, pack of 12", "pack", "11.20", "20"),
]
_EN_QTYS = [
    3,
    5,
    40,
    10,
    24,
    30,
    2,
    8,
    6,
    6,
    4,
    3,
    10,
    2,
    5,
    4,
    6,
    8,
    3,
    2,
    2,
    1,
    4,
    5,
    2,
    12,
    6,
    3,
    4,
    10,
    10,
    6,
    5,
    8,
    12,
    6,
    4,
    2,
    3,
    7,
    1,
    6,
]


def invoice_en() -> dict:
    """English multi-page invoice data: GBP, 42 lines at 20 % and zero-rated, each with its SKU; a purchase order
    and a buyer's reference."""
    seller = party(
        name="Kestrel Office Supplies Ltd",
        street="Unit 4, Riverside Trading Estate",
        postal_code="SE16 4DG",
        city="London",
        country="GB",
        vat_id="GB314150017",
        legal_id="09876543",
        contact=contact("Priya Shah", "020 7946 0321", "priya.shah@kestrel-office.example"),
    )
    buyer = party(
        name="Harbour & Finch LLP",
        street="27 Queen Square",
        postal_code="BS1 4ND",
        city="Bristol",
        country="GB",
        contact=contact(None, None, "accounts@harbourfinch.example"),
    )
    items = [
        item(d, str(q), u, p, r, item_id=f"KOS-{4100 + pos * 7}")
        for pos, ((d, u, p, r), q) in enumerate(zip(_EN_PRODUCTS, _EN_QTYS, strict=True), start=1)
    ]
    return complete_invoice(
        invoice_number="INV-24-00871",
        issue_date="2026-02-12",
        due_date="2026-03-14",
        currency="GBP",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Payment due within 30 days of the invoice date.",
        bank_account=bank_account(
            iban="GB29NWBK60161331926819", bic="NWBKGB2L", account_holder="Kestrel Office Supplies Ltd"
        ),
        buyer_reference="HF-FIN-0226",
        order_reference="PO 55-1902",
        payment_means="credit_transfer",
    )


def render_en(inv: dict) -> FPDF:
    """Banded header repeated on each page, two-line table rows, totals and bank details on the last page."""
    num = lambda v: fmt_number(v, style="en", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    pdf = new_pdf(title=f"Invoice {inv['invoice_number']}", author=s["name"])
    pdf.alias_nb_pages()
    cols = [
        ("#", 9, "C"),
        ("Description", 89, "L"),
        ("Qty", 14, "R"),
        ("Unit price", 25, "R"),
        ("VAT", 15, "R"),
        ("Amount", 28, "R"),
    ]
    row_h = 10.0
    bottom = 270.0

    def start_page() -> float:
        pdf.add_page()
        pdf.set_fill_color(30, 45, 60)
        pdf.rect(0, 0, 210, 24, style="F")
        pdf.set_text_color(255, 255, 255)
        pdf.set_font("Times", "B", 17)
        text_at(pdf, 15, 7, 120, s["name"], h=8)
        pdf.set_font("Times", "", 11)
        text_at(pdf, 115, 6, 80, "INVOICE", align="R", h=6)
        text_at(pdf, 115, 12, 80, f"{inv['invoice_number']}  |  Page {pdf.page_no()} of {{nb}}", align="R", h=6)
        # footer
        pdf.set_text_color(110, 110, 110)
        pdf.set_font("Times", "", 8)
        text_at(
            pdf,
            15,
            282,
            180,
            f"{s['name']} · Registered in England and Wales, Company No. {s['legal_id']} · VAT Reg. No. GB 314 1500 17",
            align="C",
            h=4,
        )
        pdf.set_text_color(0, 0, 0)
        return 30.0

    def table_header(y: float) -> float:
        pdf.set_font("Times", "B", 10)
        pdf.set_fill_color(225, 230, 236)
        x = 15
        for head, w, al in cols:
            pdf.set_xy(x, y)
            pdf.cell(w, 7, head, align=al, fill=True)
            x += w
        return y + 8

    y = start_page()
    pdf.set_font("Times", "B", 10)
    text_at(pdf, 15, y + 2, 80, "From")
    text_at(pdf, 80, y + 2, 60, "Bill to")
    pdf.set_font("Times", "", 10)
    sc = s["contact"]
    lines_at(
        pdf,
        15,
        y + 7,
        62,
        address_lines(s, "United Kingdom") + [f"Contact: {sc['name']}, tel. {sc['phone']}", sc["email"]],
    )
    lines_at(pdf, 80, y + 7, 60, address_lines(b, "United Kingdom") + [b["contact"]["email"]])
    info = [
        ("Invoice number", inv["invoice_number"]),
        ("Invoice date", fmt_date(inv["issue_date"], "en-long")),
        ("Due date", fmt_date(inv["due_date"], "en-long")),
        ("Your order", inv["order_reference"]),
        ("Account", "HF-0031"),
        ("Your reference", inv["buyer_reference"]),
    ]
    for i, (label, value) in enumerate(info):
        pdf.set_font("Times", "B", 10)
        text_at(pdf, 143, y + 2 + i * 5, 27, label)
        pdf.set_font("Times", "", 10)
        text_at(pdf, 168, y + 2 + i * 5, 27, value, align="R")
    y = table_header(y + 36)
    pdf.set_draw_color(210, 210, 210)
    pdf.set_line_width(0.2)
    for pos, ln in enumerate(inv["line_items"], start=1):
        if y + row_h > bottom:
            pdf.set_font("Times", "I", 9)
            text_at(pdf, 15, y + 1, 180, "Continued on next page", align="R")
            y = table_header(start_page() + 4)
        rate = "zero" if ln["tax_rate"] == 0 else f"{fmt_number(ln['tax_rate'], style='en')}%"
        values = [
            str(pos),
            ln["description"],
            fmt_number(ln["quantity"], style="en"),
            num(ln["unit_price"]),
            rate,
            num(ln["amount"]),
        ]
        x = 15
        pdf.set_font("Times", "", 10)
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 5.5, v, align=al)
            x += w
        pdf.set_font("Times", "I", 8)
        pdf.set_text_color(110, 110, 110)
        text_at(pdf, 24, y + 5, 89, f"SKU {ln['item_id']}  ·  unit: {ln['unit']}", h=4)
        pdf.set_text_color(0, 0, 0)
        y += row_h
        pdf.line(15, y - 0.5, 195, y - 0.5)
    # Totals block (and bank details) must fit together on the last page.
    if y + 75 > bottom:
        y = start_page() + 4
    y += 4
    rows = [("Subtotal (net)", f"£{num(inv['subtotal'])}")]
    for t in inv["tax_lines"]:
        label = "VAT zero-rated" if t["rate"] == 0 else f"VAT {fmt_number(t['rate'], style='en')}%"
        rows.append((f"{label} on £{num(t['base'])}", f"£{num(t['amount'])}"))
    pdf.set_font("Times", "", 10.5)
    for label, value in rows:
        text_at(pdf, 110, y, 55, label)
        text_at(pdf, 165, y, 30, value, align="R")
        y += 6
    pdf.set_fill_color(30, 45, 60)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("Times", "B", 12)
    pdf.rect(110, y, 85, 9, style="F")
    text_at(pdf, 112, y + 1.5, 50, "Total due (GBP)", h=6)
    text_at(pdf, 160, y + 1.5, 33, f"£{num(inv['amount_due'])}", align="R", h=6)
    pdf.set_text_color(0, 0, 0)
    y += 18
    bank = inv["bank_account"]
    pdf.set_font("Times", "B", 10.5)
    text_at(pdf, 15, y, 180, "Payment")
    pdf.set_font("Times", "", 10)
    lines_at(
        pdf,
        15,
        y + 6,
        180,
        [
            inv["payment_terms"],
            "Please pay by bank transfer quoting the invoice number as reference.",
            f"Account name: {bank['account_holder']}   Sort code: 60-16-13   Account no.: 31926819",
            f"IBAN: {group4(bank['iban'])}   BIC: {bank['bic']}",
        ],
        h=5,
    )
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 3. French services, sidebar layout
# --------------------------------------------------------------------------------------------------------------


def invoice_fr() -> dict:
    """French services invoice data: EUR, 20 % TVA, client VAT id printed, SIRET, a contact in the sidebar."""
    seller = party(
        name="Atelier Lumen SARL",
        street="18 rue des Tanneurs",
        postal_code="69002",
        city="Lyon",
        country="FR",
        vat_id="FR65908172638",
        legal_id="90817263800011",
        contact=contact("Claire Dubois", "04 72 00 18 21", "c.dubois@atelier-lumen.example"),
    )
    buyer = party(
        name="Boulangeries Martin SAS",
        street="4 place de la Comédie",
        postal_code="34000",
        city="Montpellier",
        country="FR",
        vat_id="FR20817263544",
        contact=contact(None, None, "compta@boulangeries-martin.example"),
    )
    items = [
        item("Audit des processus de production", "3", "jour", "850.00", "20"),
        item("Atelier de formation « Qualité et hygiène »", "2", "jour", "1200.00", "20"),
        item("Rédaction du rapport et recommandations", "6.5", "heure", "95.00", "20"),
        item("Frais de déplacement Lyon–Montpellier (forfait)", "1", "forfait", "340.50", "20"),
    ]
    return complete_invoice(
        invoice_number="FA-2026-042",
        issue_date="2026-02-27",
        due_date="2026-03-29",
        currency="EUR",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Paiement à 30 jours par virement bancaire.",
        bank_account=bank_account(
            iban="FR7630006000011234567890189", bic="AGRIFRPP", account_holder="Atelier Lumen SARL"
        ),
        buyer_reference="BM-ACH-2026-031",
        payment_means="credit_transfer",
    )


def render_fr(inv: dict) -> FPDF:
    """Coloured left sidebar with the seller and bank, boxed client block, boxed totals."""
    num = lambda v: fmt_number(v, style="fr", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    bank = inv["bank_account"]
    pdf = new_pdf(title=f"Facture {inv['invoice_number']}", author=s["name"])
    pdf.set_margins(0, 0, 0)
    pdf.add_page()
    # Sidebar
    pdf.set_fill_color(46, 64, 87)
    pdf.rect(0, 0, 64, 297, style="F")
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("Helvetica", "B", 15)
    text_at(pdf, 8, 18, 52, "Atelier Lumen", h=7)
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_text_color(205, 215, 228)
    text_at(pdf, 8, 25, 52, "Conseil & formation qualité")
    pdf.set_text_color(255, 255, 255)
    y = lines_at(pdf, 8, 45, 52, address_lines(s, "France"), h=4.5)
    y = lines_at(pdf, 8, y + 3, 52, ["Tél. 04 72 00 18 18", "contact@atelier-lumen.example"], h=4.5)
    pdf.set_font("Helvetica", "B", 8.5)
    text_at(pdf, 8, y + 6, 52, "Identification")
    pdf.set_font("Helvetica", "", 8.5)
    t = s["legal_id"]
    y = lines_at(
        pdf,
        8,
        y + 11,
        52,
        [f"SIRET {t[:3]} {t[3:6]} {t[6:9]} {t[9:]}", "RCS Lyon", f"N° TVA {s['vat_id']}", "Capital 10 000 €"],
        h=4.5,
    )
    pdf.set_font("Helvetica", "B", 8.5)
    text_at(pdf, 8, y + 6, 52, "Coordonnées bancaires")
    pdf.set_font("Helvetica", "", 8)
    y = lines_at(pdf, 8, y + 11, 52, ["Banque Rhône-Alpes", f"Titulaire : {bank['account_holder']}", "IBAN :"], h=4.5)
    pdf.set_font("Helvetica", "", 7.5)
    # One line, so the IBAN stays contiguous in the text layer.
    y = lines_at(pdf, 8, y, 54, [group4(bank["iban"]), f"BIC : {bank['bic']}"], h=4.5)
    sc = s["contact"]
    pdf.set_font("Helvetica", "B", 8.5)
    text_at(pdf, 8, y + 6, 52, "Votre contact")
    pdf.set_font("Helvetica", "", 8)
    lines_at(pdf, 8, y + 11, 52, [sc["name"], f"Tél. {sc['phone']}", sc["email"]], h=4.5)
    # Main column
    pdf.set_text_color(46, 64, 87)
    pdf.set_font("Helvetica", "B", 26)
    text_at(pdf, 74, 16, 60, "FACTURE", h=12)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    info = [
        ("N° de facture", inv["invoice_number"]),
        ("Date", fmt_date(inv["issue_date"], "%d/%m/%Y")),
        ("Échéance", fmt_date(inv["due_date"], "%d/%m/%Y")),
    ]
    for i, (label, value) in enumerate(info):
        text_at(pdf, 148, 16 + i * 5.5, 25, f"{label} :")
        text_at(pdf, 172, 16 + i * 5.5, 28, value, align="R")
    text_at(pdf, 74, 34, 44, f"Votre référence : {inv['buyer_reference']}")
    # Client box
    pdf.set_draw_color(46, 64, 87)
    pdf.set_line_width(0.4)
    pdf.rect(120, 44, 80, 38)
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.set_text_color(46, 64, 87)
    text_at(pdf, 124, 46, 70, "FACTURÉ À")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    y = lines_at(pdf, 124, 52, 74, address_lines(b, "France") + [f"N° TVA {b['vat_id']}"], h=5)
    pdf.set_font("Helvetica", "", 9)
    text_at(pdf, 124, y - 0.5, 74, f"E-mail : {b['contact']['email']}", h=4.5)
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 74, 90, 126, "Objet : accompagnement qualité, février 2026")
    # Table
    cols = [("Désignation", 62, "L"), ("Qté", 12, "R"), ("Unité", 15, "L"), ("P.U. HT", 19, "R"), ("Total HT", 18, "R")]
    y = 100
    pdf.set_font("Helvetica", "B", 9)
    pdf.set_fill_color(228, 233, 240)
    x = 74
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 7, head, align=al, fill=True)
        x += w
    y += 7
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_draw_color(200, 200, 200)
    pdf.set_line_width(0.2)
    for ln in inv["line_items"]:
        values = [
            ln["description"],
            fmt_number(ln["quantity"], style="fr"),
            ln["unit"],
            num(ln["unit_price"]),
            num(ln["amount"]),
        ]
        x = 74
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 8, v, align=al)
            x += w
        y += 8
        pdf.line(74, y, 200, y)
    pdf.set_font("Helvetica", "I", 8)
    text_at(pdf, 74, y + 2, 126, "Toutes les prestations sont soumises à la TVA au taux normal de 20 %.")
    # Boxed totals
    y += 12
    tax = inv["tax_lines"][0]
    rows = [
        ("Total HT", num(inv["subtotal"])),
        (f"TVA {fmt_number(tax['rate'], style='fr')} %", num(tax["amount"])),
        ("Total TTC", num(inv["total"])),
    ]
    pdf.set_draw_color(46, 64, 87)
    pdf.set_line_width(0.3)
    pdf.set_font("Helvetica", "", 10)
    for label, value in rows:
        pdf.rect(130, y, 70, 8)
        text_at(pdf, 133, y + 1.5, 35, label)
        text_at(pdf, 160, y + 1.5, 37, f"{value} €", align="R")
        y += 8
    pdf.set_fill_color(46, 64, 87)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("Helvetica", "B", 11)
    pdf.rect(130, y, 70, 10, style="F")
    text_at(pdf, 133, y + 2.5, 35, "Net à payer")
    text_at(pdf, 160, y + 2.5, 37, f"{num(inv['amount_due'])} €", align="R")
    pdf.set_text_color(0, 0, 0)
    # Terms
    y += 22
    pdf.set_font("Helvetica", "B", 9)
    text_at(pdf, 74, y, 126, "Conditions de règlement")
    pdf.set_font("Helvetica", "", 8.5)
    lines_at(
        pdf,
        74,
        y + 5,
        126,
        [
            inv["payment_terms"],
            "Pas d'escompte pour paiement anticipé.",
            "En cas de retard : pénalités au taux de 3 fois le taux d'intérêt légal et",
            "indemnité forfaitaire pour frais de recouvrement de 40 €.",
        ],
        h=4.5,
    )
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 4. Japanese (romanised), JPY, 10 % consumption tax
# --------------------------------------------------------------------------------------------------------------


def invoice_jp() -> dict:
    """Japanese invoice data (romanised, no CJK font needed): JPY without minor unit, 10 % consumption tax; the
    qualified-invoice registration number (a tax number) and the corporate number it is built on (the legal
    registration); a domestic bank account without IBAN/BIC."""
    seller = party(
        name="Sakura Design Kobo K.K.",
        street="3-12-5 Jingumae, Shibuya-ku",
        postal_code="150-0001",
        city="Tokyo",
        country="JP",
        tax_number="T4271828182845",
        legal_id="4271828182845",
        contact=contact("Haruka Mori", "03-5555-0127", "h.mori@sakura-kobo.example"),
    )
    buyer = party(
        name="Kitahama Trading Co., Ltd.",
        street="2-1-8 Kitahama, Chuo-ku",
        postal_code="541-0041",
        city="Osaka",
        country="JP",
        contact=contact(None, None, "keiri@kitahama-trading.example"),
    )
    items = [
        item("Brand identity design (logo, colours, guide)", "1", "set", "480000", "10"),
        item("Website design, top page", "1", "page", "220000", "10"),
        item("Website design, sub pages", "8", "page", "45000", "10"),
        item("Product photography", "24", "cut", "6500", "10"),
        item("Printed brochure A4, 8 pages", "500", "copy", "187", "10"),
        item("Project management", "12.5", "hour", "8800", "10"),
    ]
    return complete_invoice(
        invoice_number="SDK-2603-019",
        issue_date="2026-03-10",
        due_date="2026-04-30",
        currency="JPY",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Please transfer by the end of next month. Bank charges are borne by the customer.",
        bank_account=bank_account(
            iban=None, bic=None, account_holder="Sakura Design Kobo K.K.", account_number="1234567"
        ),
        buyer_reference="KT-2603-77",
        payment_means="credit_transfer",
    )


def render_jp(inv: dict) -> FPDF:
    """Japanese-style invoice: 'billed amount' box at the top, grid table, per-rate tax summary."""
    yen = lambda v: f"¥{fmt_number(v, style='en', places=0)}"  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    pdf = new_pdf(title=f"Seikyusho {inv['invoice_number']}", author=s["name"])
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    text_at(pdf, 15, 15, 180, "SEIKYUSHO  /  INVOICE", align="C", h=10)
    pdf.set_font("Helvetica", "", 9.5)
    text_at(pdf, 130, 30, 65, f"Invoice No.: {inv['invoice_number']}", align="R")
    text_at(pdf, 130, 35, 65, f"Issue date: {fmt_date(inv['issue_date'], '%Y/%m/%d')}", align="R")
    text_at(pdf, 130, 40, 65, f"Your reference: {inv['buyer_reference']}", align="R")
    # Buyer with honorific
    pdf.set_font("Helvetica", "B", 13)
    text_at(pdf, 15, 44, 110, f"{b['name']}  Onchu", h=7)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.4)
    pdf.line(15, 51.5, 110, 51.5)
    pdf.set_font("Helvetica", "", 9.5)
    ba = b["address"]
    lines_at(
        pdf,
        15,
        54,
        100,
        [f"{ba['postal_code']} {ba['street']}", f"{ba['city']}, Japan", f"Email: {b['contact']['email']}"],
    )
    # Seller block
    sa = s["address"]
    pdf.set_font("Helvetica", "B", 11)
    text_at(pdf, 125, 46, 70, s["name"], align="R", h=6)
    pdf.set_font("Helvetica", "", 9)
    lines_at(
        pdf,
        115,
        53,
        80,
        [
            f"{sa['postal_code']} {sa['street']}",
            f"{sa['city']}, Japan",
            "TEL 03-5555-0123",
            f"Registration No. {s['tax_number']}",
        ],
        align="R",
    )
    # beside the seal: the corporate number and the contact person
    sc = s["contact"]
    lines_at(
        pdf,
        115,
        74,
        60,
        [f"Corporate No. {s['legal_id']}", f"Contact: {sc['name']}", f"TEL {sc['phone']}", sc["email"]],
        align="R",
    )
    # Seal placeholder (hanko)
    pdf.set_draw_color(200, 40, 40)
    pdf.set_text_color(200, 40, 40)
    pdf.set_line_width(0.6)
    pdf.ellipse(178, 73, 15, 15)
    pdf.set_font("Helvetica", "B", 8)
    text_at(pdf, 178, 78, 15, "SDK", align="C")
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 9.5)
    text_at(pdf, 15, 70, 120, "We hereby invoice you as follows.")
    # Billed amount box
    pdf.set_fill_color(235, 240, 248)
    pdf.rect(15, 78, 110, 14, style="DF")
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 18, 82, 55, "Amount billed (tax incl.)", h=6)
    pdf.set_font("Helvetica", "B", 16)
    text_at(pdf, 70, 81, 52, yen(inv["total"]), align="R", h=8)
    pdf.set_font("Helvetica", "", 9.5)
    text_at(pdf, 15, 95, 120, f"Payment due: {fmt_date(inv['due_date'], '%Y/%m/%d')}")
    # Grid table
    cols = [
        ("No.", 10, "C"),
        ("Description", 78, "L"),
        ("Qty", 18, "R"),
        ("Unit", 14, "C"),
        ("Unit price", 27, "R"),
        ("Amount", 33, "R"),
    ]
    y = 104
    pdf.set_line_width(0.2)
    pdf.set_font("Helvetica", "B", 9)
    pdf.set_fill_color(60, 70, 90)
    pdf.set_text_color(255, 255, 255)
    x = 15
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 7, head, border=1, align="C", fill=True)
        x += w
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 9)
    y += 7
    for pos, ln in enumerate(inv["line_items"], start=1):
        values = [
            str(pos),
            ln["description"],
            fmt_number(ln["quantity"], style="en"),
            ln["unit"],
            yen(ln["unit_price"]),
            yen(ln["amount"]),
        ]
        x = 15
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 7, v, border=1, align=al)
            x += w
        y += 7
    for _ in range(3):  # empty ruled rows, as on a printed form
        x = 15
        for head, w, al in cols:
            pdf.set_xy(x, y)
            pdf.cell(w, 7, "", border=1)
            x += w
        y += 7
    # Summary
    t = inv["tax_lines"][0]
    rows = [
        ("Subtotal (excl. tax)", yen(inv["subtotal"])),
        (f"Consumption tax ({fmt_number(t['rate'], style='en')}%)", yen(t["amount"])),
        ("Total (tax incl.)", yen(inv["total"])),
    ]
    for i, (label, value) in enumerate(rows):
        pdf.set_font("Helvetica", "B" if i == 2 else "", 9.5)
        pdf.set_xy(122, y + 3 + i * 7)
        pdf.cell(40, 7, label, border=1, fill=(i == 2))
        pdf.cell(33, 7, value, border=1, align="R")
    # Per-rate breakdown required on a qualified invoice
    pdf.set_font("Helvetica", "", 9)
    yb = y + 3
    text_at(pdf, 15, yb, 100, "Breakdown by tax rate")
    pdf.set_xy(15, yb + 6)
    pdf.cell(30, 6, f"{fmt_number(t['rate'], style='en')}% taxable", border=1)
    pdf.cell(32, 6, yen(t["base"]), border=1, align="R")
    pdf.cell(18, 6, "Tax", border=1, align="C")
    pdf.cell(25, 6, yen(t["amount"]), border=1, align="R")
    # Bank
    y += 34
    bank = inv["bank_account"]
    pdf.rect(15, y, 180, 28)
    pdf.set_font("Helvetica", "B", 9.5)
    text_at(pdf, 18, y + 2, 170, "Bank transfer (furikomi)")
    pdf.set_font("Helvetica", "", 9)
    lines_at(
        pdf,
        18,
        y + 8,
        175,
        [
            f"Hikari Bank, Shibuya Branch (No. 245)   Ordinary account (futsu) {bank['account_number']}",
            f"Account holder: {bank['account_holder']}",
            inv["payment_terms"],
        ],
    )
    pdf.set_font("Helvetica", "I", 8.5)
    text_at(pdf, 15, y + 34, 180, "Remarks: Thank you for your continued business. Arigato gozaimasu.")
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 5. Swiss, CHF, three rates, deposit
# --------------------------------------------------------------------------------------------------------------


def invoice_ch() -> dict:
    """Swiss invoice data: CHF, 8.1 % / 3.8 % / 2.6 % VAT, a deposit already paid."""
    seller = party(
        name="Bergwerk Digital AG",
        street="Seefeldstrasse 45",
        postal_code="8008",
        city="Zürich",
        country="CH",
        vat_id="CHE271828189MWST",
        contact=contact("Lukas Meier", "+41 44 555 01 47", "lukas.meier@bergwerk.example"),
    )
    buyer = party(
        name="Hotel Alpenblick GmbH",
        street="Dorfstrasse 7",
        postal_code="3818",
        city="Grindelwald",
        country="CH",
        contact=contact(None, None, "buchhaltung@hotel-alpenblick.example"),
    )
    items = [
        item("Neugestaltung Website, Pauschale", "1", "Pausch.", "6800.00", "8.1"),
        item("Buchungsmodul Integration", "14", "Std.", "145.00", "8.1"),
        item("Hosting & Wartung 2026", "12", "Mt.", "89.50", "8.1"),
        item("Übernachtung Projektteam (Workshop vor Ort)", "3", "Nacht", "165.00", "3.8"),
        item('Fachbuch "Digitales Gastgewerbe"', "6", "Stk.", "42.90", "2.6"),
    ]
    return complete_invoice(
        invoice_number="2026-0315",
        issue_date="2026-03-15",
        due_date="2026-04-14",
        currency="CHF",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount="3000.00",
        payment_terms="Zahlbar innert 30 Tagen netto.",
        bank_account=bank_account(iban="CH9300762011623852957", bic=None, account_holder="Bergwerk Digital AG"),
        buyer_reference="HA-2026-117",
        payment_means="credit_transfer",
    )


def render_ch(inv: dict) -> FPDF:
    """Swiss layout with a Zahlteil-like payment section at the bottom (scissors line, no QR code)."""
    num = lambda v: fmt_number(v, style="ch", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    sa, sc = s["address"], s["contact"]
    pdf = new_pdf(title=f"Rechnung {inv['invoice_number']}", author=s["name"])
    pdf.add_page()
    # Letterhead on the left, address window on the right (Swiss convention)
    pdf.set_fill_color(200, 16, 46)
    pdf.rect(15, 15, 8, 8, style="F")
    pdf.set_font("Helvetica", "B", 14)
    text_at(pdf, 26, 15.5, 100, s["name"], h=7)
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_text_color(80, 80, 80)
    lines_at(
        pdf,
        15,
        27,
        90,
        [
            f"{sa['street']}, {sa['postal_code']} {sa['city']}, Schweiz",
            "Tel. +41 44 555 01 45 · hallo@bergwerk.example",
            "UID / MWST-Nr. CHE-271.828.189 MWST",
            f"Ihr Kontakt: {sc['name']} · Tel. {sc['phone']}",
            sc["email"],
        ],
        h=4.2,
    )
    # the buyer's e-mail in the notes line above the window address
    pdf.set_font("Helvetica", "", 8)
    text_at(pdf, 118, 32.5, 80, f"E-Mail: {b['contact']['email']}", h=4)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    lines_at(pdf, 118, 38, 80, address_lines(b, "Schweiz"), h=5)
    pdf.set_font("Helvetica", "", 10)
    text_at(pdf, 118, 60, 80, f"Zürich, {fmt_date(inv['issue_date'], '%d.%m.%Y')}")
    pdf.set_font("Helvetica", "B", 13)
    text_at(pdf, 15, 68, 150, f"Rechnung Nr. {inv['invoice_number']}", h=7)
    pdf.set_font("Helvetica", "", 9.5)
    lines_at(
        pdf,
        15,
        76,
        180,
        [
            "Projekt: Relaunch Website & Buchungssystem",
            f"Rechnungsdatum: {fmt_date(inv['issue_date'], '%d.%m.%Y')}    "
            f"Fällig: {fmt_date(inv['due_date'], '%d.%m.%Y')}",
        ],
    )
    text_at(pdf, 118, 76, 77, f"Ihre Referenz: {inv['buyer_reference']}", h=4.5)
    cols = [
        ("Leistung", 78, "L"),
        ("Menge", 16, "R"),
        ("Einheit", 18, "L"),
        ("Preis", 22, "R"),
        ("MWST", 14, "R"),
        ("Total CHF", 32, "R"),
    ]
    y = 88
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.4)
    pdf.set_font("Helvetica", "B", 9)
    x = 15
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 6, head, align=al)
        x += w
    y += 6.5
    pdf.line(15, y, 195, y)
    pdf.set_font("Helvetica", "", 9)
    for ln in inv["line_items"]:
        values = [
            ln["description"],
            fmt_number(ln["quantity"], style="ch"),
            ln["unit"],
            num(ln["unit_price"]),
            f"{fmt_number(ln['tax_rate'], style='ch')}%",
            num(ln["amount"]),
        ]
        x = 15
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y + 0.5)
            pdf.cell(w, 6.5, v, align=al)
            x += w
        y += 7
    pdf.line(15, y + 0.5, 195, y + 0.5)
    y += 3
    pdf.set_font("Helvetica", "", 9.5)
    rows = [("Zwischentotal exkl. MWST", num(inv["subtotal"]))]
    for t in inv["tax_lines"]:
        rows.append((f"MWST {fmt_number(t['rate'], style='ch')}% auf {num(t['base'])}", num(t["amount"])))
    for label, value in rows:
        text_at(pdf, 105, y, 60, label)
        text_at(pdf, 165, y, 30, value, align="R")
        y += 5.5
    pdf.line(105, y + 0.5, 195, y + 0.5)
    pdf.set_font("Helvetica", "B", 10)
    text_at(pdf, 105, y + 1.5, 60, "Rechnungstotal inkl. MWST")
    text_at(pdf, 165, y + 1.5, 30, num(inv["total"]), align="R")
    y += 7.5
    pdf.set_font("Helvetica", "", 9.5)
    text_at(pdf, 105, y, 60, "abzüglich Anzahlung vom 20.02.2026")
    text_at(pdf, 165, y, 30, f"-{num(inv['prepaid_amount'])}", align="R")
    y += 6
    pdf.line(105, y, 195, y)
    pdf.set_font("Helvetica", "B", 11)
    text_at(pdf, 105, y + 1.5, 60, "Zu bezahlen CHF", h=6)
    text_at(pdf, 165, y + 1.5, 30, num(inv["amount_due"]), align="R", h=6)
    pdf.set_font("Helvetica", "", 9.5)
    text_at(pdf, 15, y + 12, 180, f"{inv['payment_terms']} Besten Dank für Ihren Auftrag.")
    # Payment section
    bank = inv["bank_account"]
    top = 192
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    pdf.set_line_width(0.2)
    pdf.line(0, top, 210, top)
    pdf.line(62, top, 62, 297)
    pdf.set_dash_pattern()
    pdf.set_font("Helvetica", "B", 11)
    text_at(pdf, 5, top + 5, 55, "Empfangsschein", h=6)
    text_at(pdf, 67, top + 5, 80, "Zahlteil", h=6)
    for x0, w in ((5, 55), (120, 85)):
        pdf.set_font("Helvetica", "B", 6.5)
        text_at(pdf, x0, top + 13, w, "Konto / Zahlbar an", h=3.5)
        pdf.set_font("Helvetica", "", 8)
        lines_at(
            pdf,
            x0,
            top + 16.5,
            w,
            [group4(bank["iban"]), bank["account_holder"], sa["street"], f"{sa['postal_code']} {sa['city']}"],
            h=3.8,
        )
        pdf.set_font("Helvetica", "B", 6.5)
        text_at(pdf, x0, top + 34, w, "Zahlbar durch", h=3.5)
        pdf.set_font("Helvetica", "", 8)
        lines_at(
            pdf,
            x0,
            top + 37.5,
            w,
            [b["name"], b["address"]["street"], f"{b['address']['postal_code']} {b['address']['city']}"],
            h=3.8,
        )
    pdf.set_font("Helvetica", "B", 6.5)
    text_at(pdf, 120, top + 53, 60, "Zusätzliche Informationen", h=3.5)
    pdf.set_font("Helvetica", "", 8)
    text_at(pdf, 120, top + 56.5, 80, f"Rechnung {inv['invoice_number']}", h=3.8)
    # Placeholder where the Swiss QR code would be (no QR library is used here)
    pdf.set_draw_color(120, 120, 120)
    pdf.rect(67, top + 17, 46, 46)
    pdf.set_font("Helvetica", "I", 7)
    text_at(pdf, 67, top + 38, 46, "(QR-Code)", align="C", h=4)
    pdf.set_draw_color(0, 0, 0)
    for x0 in (5, 67):
        pdf.set_font("Helvetica", "B", 6.5)
        text_at(pdf, x0, top + 70, 20, "Währung", h=3.5)
        text_at(pdf, x0 + 20, top + 70, 30, "Betrag", h=3.5)
        pdf.set_font("Helvetica", "", 8)
        text_at(pdf, x0, top + 74, 20, "CHF", h=3.8)
        text_at(pdf, x0 + 20, top + 74, 30, num(inv["amount_due"]), h=3.8)
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 6. Scanned-looking (image only), Dutch
# --------------------------------------------------------------------------------------------------------------


def invoice_nl() -> dict:
    """Dutch invoice data for the scan: EUR, 21 % and 9 % btw."""
    seller = party(
        name="De Vries Installatietechniek B.V.",
        street="Kanaalweg 31",
        postal_code="3526 KL",
        city="Utrecht",
        country="NL",
        vat_id="NL853647124B01",
        legal_id="71828182",
        contact=contact("Sanne de Vries", "030-555 1237", "sanne@devries-installatie.example"),
    )
    buyer = party(
        name="Bakkerij Jansen",
        street="Langestraat 52",
        postal_code="3811 AH",
        city="Amersfoort",
        country="NL",
        contact=contact(None, None, "administratie@bakkerijjansen.example"),
    )
    items = [
        item("Arbeidsloon schilderwerk woning", "16", "uur", "52.50", "9"),
        item("Verf en materialen", "1", "post", "286.40", "21"),
        item("Vervangen cv-ketel Remeha Calenta", "1", "st", "2150.00", "21"),
        item("Arbeidsloon installatie cv-ketel", "6", "uur", "64.00", "21"),
        item("Voorrijkosten", "2", "x", "35.00", "21"),
    ]
    return complete_invoice(
        invoice_number="2026-0088",
        issue_date="2026-03-05",
        due_date="2026-03-19",
        currency="EUR",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Betaling binnen 14 dagen na factuurdatum.",
        bank_account=bank_account(
            iban="NL91ABNA0417164300", bic="ABNANL2A", account_holder="De Vries Installatietechniek B.V."
        ),
        buyer_reference="BJ-2026-014",
        payment_means="credit_transfer",
    )


def render_nl(inv: dict) -> FPDF:
    """A plain, typewriter-like Dutch invoice (Courier), later rasterised into the scan."""
    num = lambda v: fmt_number(v, style="nl", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    sa = s["address"]
    bank = inv["bank_account"]
    pdf = new_pdf(title=f"Factuur {inv['invoice_number']}", author=s["name"])
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    text_at(pdf, 15, 18, 180, s["name"], h=8)
    pdf.set_font("Helvetica", "", 9)
    text_at(pdf, 15, 26, 180, f"{sa['street']} · {sa['postal_code']} {sa['city']} · Nederland · tel. 030-555 1234")
    pdf.line(15, 33, 195, 33)
    pdf.set_font("Courier", "", 10)
    lines_at(pdf, 15, 45, 90, address_lines(b, "Nederland") + [b["contact"]["email"]])
    info = [
        ("Factuurnummer", inv["invoice_number"]),
        ("Factuurdatum", fmt_date(inv["issue_date"], "%d-%m-%Y")),
        ("Vervaldatum", fmt_date(inv["due_date"], "%d-%m-%Y")),
        ("Klantnummer", "4471"),
        ("Uw referentie", inv["buyer_reference"]),
    ]
    for i, (label, value) in enumerate(info):
        text_at(pdf, 115, 45 + i * 5, 40, label)
        text_at(pdf, 155, 45 + i * 5, 40, value, align="R")
    pdf.set_font("Courier", "B", 14)
    text_at(pdf, 15, 78, 100, "FACTUUR", h=7)
    pdf.set_font("Courier", "B", 9.5)
    cols = [
        ("Omschrijving", 78, "L"),
        ("Aantal", 17, "R"),
        ("Eenh.", 13, "L"),
        ("Prijs", 25, "R"),
        ("Btw", 14, "R"),
        ("Bedrag", 33, "R"),
    ]
    y = 90
    x = 15
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 6, head, align=al)
        x += w
    y += 7
    pdf.line(15, y, 195, y)
    pdf.set_font("Courier", "", 9.5)
    y += 1
    for ln in inv["line_items"]:
        values = [
            ln["description"],
            fmt_number(ln["quantity"], style="nl"),
            ln["unit"],
            num(ln["unit_price"]),
            f"{fmt_number(ln['tax_rate'], style='nl')}%",
            num(ln["amount"]),
        ]
        x = 15
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 6.5, v, align=al)
            x += w
        y += 6.5
    pdf.line(15, y + 1, 195, y + 1)
    y += 5
    rows = [("Subtotaal excl. btw", num(inv["subtotal"]))]
    for t in inv["tax_lines"]:
        rows.append((f"Btw {fmt_number(t['rate'], style='nl')}% over {num(t['base'])}", num(t["amount"])))
    for label, value in rows:
        text_at(pdf, 95, y, 65, label)
        text_at(pdf, 160, y, 35, f"EUR {value}", align="R")
        y += 5.5
    pdf.set_font("Courier", "B", 11)
    text_at(pdf, 95, y + 2, 65, "Totaal incl. btw", h=6)
    text_at(pdf, 150, y + 2, 45, f"EUR {num(inv['total'])}", align="R", h=6)
    pdf.set_font("Courier", "", 9.5)
    lines_at(
        pdf,
        15,
        y + 20,
        180,
        [
            inv["payment_terms"],
            f"Graag overmaken op {group4(bank['iban'])} (BIC {bank['bic']})",
            f"t.n.v. {bank['account_holder']} o.v.v. het factuurnummer.",
        ],
        h=5,
    )
    sc = s["contact"]
    lines_at(
        pdf,
        15,
        y + 40,
        180,
        [f"Vragen? Contactpersoon: {sc['name']}, tel. {sc['phone']}", f"e-mail: {sc['email']}"],
        h=5,
    )
    pdf.set_font("Helvetica", "", 8)
    text_at(pdf, 15, 280, 180, f"KvK {s['legal_id']} · Btw-nr. {s['vat_id']}", align="C")
    return pdf


def make_scan(pdf: FPDF) -> bytes:
    """Rasterise a PDF page and make it look scanned: grey paper, skew, blur, noise; JPEG in an image-only PDF.

    Args:
        pdf: the clean invoice.

    Returns:
        The bytes of a one-page PDF that holds only the JPEG (no text layer).
    """
    dpi = 150
    img = render_png(pdf, dpi=dpi).convert("L")
    rng = np.random.default_rng(20260305)
    img = img.rotate(-0.9, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    img = img.filter(ImageFilter.GaussianBlur(0.6))
    arr = np.asarray(img, dtype=np.float32)
    # Paper tone: white becomes light grey, darker towards one edge (uneven scanner lighting).
    h, w = arr.shape
    shade = 228 - 14 * (np.linspace(0, 1, w)[None, :] ** 2)
    arr = arr / 255.0 * shade
    arr += rng.normal(0.0, 5.0, size=arr.shape)
    specks = rng.random(arr.shape) < 0.0004
    arr[specks] = rng.uniform(40, 140, size=int(specks.sum()))
    arr = np.clip(arr, 0, 255).astype(np.uint8)
    jpeg = io.BytesIO()
    Image.fromarray(arr, mode="L").save(jpeg, format="JPEG", quality=55, optimize=True, dpi=(dpi, dpi))
    out = new_pdf(title="Scan", author="Scanner")
    out.set_margins(0, 0, 0)
    out.add_page()
    out.image(io.BytesIO(jpeg.getvalue()), x=0, y=0, w=210, h=297)
    return bytes(out.output())


# --------------------------------------------------------------------------------------------------------------
# 7. US, PNG, sales tax
# --------------------------------------------------------------------------------------------------------------


def invoice_us() -> dict:
    """US invoice data for the PNG: USD, 8.25 % sales tax, EIN and GLN, no bank account (paid by check), no
    countries printed."""
    seller = party(
        name="Lone Star Print Co.",
        street="1400 E 6th Street, Suite 200",
        postal_code="78702",
        city="Austin",
        country=None,
        tax_number="84-2718281",
        gln="0860027182819",
        contact=contact("Dana Whitfield", "(512) 555-0149", "dana@lonestarprint.example"),
    )
    buyer = party(
        name="Bluebonnet Events LLC",
        street="512 W Mary Street",
        postal_code="78704",
        city="Austin",
        country=None,
        contact=contact("Maria Delgado", None, "maria@bluebonnetevents.example"),
    )
    items = [
        item("Event banners 3 x 8 ft, vinyl, full color", "4", "ea", "89.00", "8.25"),
        item("Postcards 4 x 6, 16pt gloss", "2500", "ea", "0.084", "8.25"),
        item("Programs, saddle-stitched, 12 pages", "350", "ea", "1.45", "8.25"),
        item("Name badges with lanyards", "220", "ea", "1.15", "8.25"),
        item("Design proof revisions", "2.5", "hr", "65.00", "8.25"),
    ]
    return complete_invoice(
        invoice_number="LSP-10452",
        issue_date="2026-02-20",
        due_date="2026-03-22",
        currency="USD",
        seller=seller,
        buyer=buyer,
        items=items,
        prepaid_amount=None,
        payment_terms="Net 30",
        bank_account=None,
        buyer_reference="BE-2026-031",
        payment_means="cheque",
    )


def render_us(inv: dict) -> FPDF:
    """US Letter invoice with a coloured accent, rendered to PNG afterwards."""
    num = lambda v: fmt_number(v, style="en", places=2)  # noqa: E731
    s, b = inv["seller"], inv["buyer"]
    sa, ba = s["address"], b["address"]
    pdf = new_pdf(title=f"Invoice {inv['invoice_number']}", author=s["name"], fmt="Letter")
    pdf.add_page()
    pdf.set_fill_color(214, 90, 30)
    pdf.rect(0, 0, 216, 6, style="F")
    pdf.set_font("Helvetica", "B", 20)
    pdf.set_text_color(214, 90, 30)
    text_at(pdf, 15, 14, 120, s["name"], h=9)
    pdf.set_text_color(60, 60, 60)
    pdf.set_font("Helvetica", "", 9)
    lines_at(
        pdf,
        15,
        24,
        100,
        [
            sa["street"],
            f"{sa['city']}, TX {sa['postal_code']}",
            "(512) 555-0147",
            f"EIN {s['tax_number']}",
            f"GLN {s['gln']}",
        ],
        h=4.3,
    )
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "B", 24)
    text_at(pdf, 120, 14, 81, "INVOICE", align="R", h=10)
    pdf.set_font("Helvetica", "", 9.5)
    info = [
        ("Invoice #", inv["invoice_number"]),
        ("Date", fmt_date(inv["issue_date"], "us-long")),
        ("Terms", inv["payment_terms"]),
        ("Due date", fmt_date(inv["due_date"], "us-long")),
        ("Your reference", inv["buyer_reference"]),
    ]
    for i, (label, value) in enumerate(info):
        pdf.set_font("Helvetica", "B", 9.5)
        text_at(pdf, 130, 27 + i * 5, 30, label)
        pdf.set_font("Helvetica", "", 9.5)
        text_at(pdf, 155, 27 + i * 5, 46, value, align="R")
    pdf.set_font("Helvetica", "B", 9.5)
    pdf.set_text_color(214, 90, 30)
    text_at(pdf, 15, 55, 80, "BILL TO")
    text_at(pdf, 110, 55, 80, "SHIP TO")
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 10)
    bill = [
        b["name"],
        f"Attn: {b['contact']['name']}",
        ba["street"],
        f"{ba['city']}, TX {ba['postal_code']}",
        b["contact"]["email"],
    ]
    lines_at(pdf, 15, 61, 90, bill, h=5)
    lines_at(
        pdf, 110, 61, 90, [b["name"], "Palmer Events Center, Dock B", "900 Barton Springs Rd", "Austin, TX 78704"], h=5
    )
    cols = [("DESCRIPTION", 86, "L"), ("QTY", 20, "R"), ("UNIT", 12, "C"), ("RATE", 26, "R"), ("AMOUNT", 42, "R")]
    y = 90
    pdf.set_fill_color(245, 228, 215)
    pdf.set_font("Helvetica", "B", 9)
    x = 15
    for head, w, al in cols:
        pdf.set_xy(x, y)
        pdf.cell(w, 8, head, align=al, fill=True)
        x += w
    y += 8
    pdf.set_font("Helvetica", "", 9.5)
    pdf.set_draw_color(225, 225, 225)
    for ln in inv["line_items"]:
        places = 3 if ln["unit_price"] != ln["unit_price"].quantize(D("0.01")) else 2
        values = [
            ln["description"],
            fmt_number(ln["quantity"], style="en"),
            ln["unit"],
            fmt_number(ln["unit_price"], style="en", places=places),
            num(ln["amount"]),
        ]
        x = 15
        for (head, w, al), v in zip(cols, values):
            pdf.set_xy(x, y)
            pdf.cell(w, 8, v, align=al)
            x += w
        y += 8
        pdf.line(15, y, 201, y)
    t = inv["tax_lines"][0]
    y += 5
    rows = [("Subtotal", num(inv["subtotal"])), (f"Sales tax ({fmt_number(t['rate'], style='en')}%)", num(t["amount"]))]
    pdf.set_font("Helvetica", "", 10)
    for label, value in rows:
        text_at(pdf, 125, y, 40, label)
        text_at(pdf, 165, y, 36, f"${value}", align="R")
        y += 6
    pdf.set_fill_color(214, 90, 30)
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("Helvetica", "B", 12)
    pdf.rect(125, y, 76, 10, style="F")
    text_at(pdf, 128, y + 2, 40, "BALANCE DUE", h=6)
    text_at(pdf, 160, y + 2, 38, f"${num(inv['amount_due'])}", align="R", h=6)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "", 9.5)
    sc = s["contact"]
    lines_at(
        pdf,
        15,
        y + 22,
        180,
        [
            f"Please make checks payable to: {s['name']}",
            "Thank you for your business!",
            f"Questions? Contact {sc['name']}, {sc['phone']}, {sc['email']}",
        ],
        h=5,
    )
    pdf.set_font("Helvetica", "I", 8)
    pdf.set_text_color(120, 120, 120)
    text_at(pdf, 15, 262, 186, "Sales tax: Texas 6.25% state + 2.00% City of Austin / Capital Metro.", align="C")
    return pdf


# --------------------------------------------------------------------------------------------------------------
# 8. Café receipt
# --------------------------------------------------------------------------------------------------------------


def receipt_cafe() -> tuple[dict, list[str]]:
    """Austrian café till receipt: gross prices, 10 % food and 20 % drinks, paid by card.

    Returns:
        The receipt in schema shape (Decimals) and the tax letter (A/B) of each item, for printing.
    """
    lines = [  # description, quantity, gross unit price, rate
        ("Wiener Melange", "2", "4.20", "20"),
        ("Espresso", "1", "2.90", "20"),
        ("Mineralwasser 0,33l", "2", "3.50", "20"),
        ("Apfelstrudel", "1", "5.40", "10"),
        ("Kaiserschmarrn", "1", "12.90", "10"),
        ("Croissant", "3", "2.60", "10"),
    ]
    items, letters, gross = [], [], {}
    for desc, qty, price, rate in lines:
        amount = money(D(qty) * D(price), currency="EUR")
        items.append({"description": desc, "quantity": D(qty), "unit_price": D(price), "amount": amount})
        letters.append("A" if rate == "20" else "B")
        gross[D(rate)] = gross.get(D(rate), D(0)) + amount
    taxes = []
    for rate in sorted(gross, reverse=True):
        # Tax contained in a gross amount, as tills compute it.
        tax = money(gross[rate] * rate / (100 + rate), currency="EUR")
        taxes.append({"rate": rate, "base": gross[rate] - tax, "amount": tax})
    receipt = {
        "merchant": {"name": "Café Morgenrot", "address": "Neubaugasse 14, 1070 Wien", "vat_id": "ATU61803392"},
        "date": "2026-03-14",
        "time": "09:41",
        "currency": "EUR",
        "items": items,
        "taxes": taxes,
        "subtotal": None,
        "total": sum((i["amount"] for i in items), D(0)),
        "payment_method": "card",
    }
    return receipt, letters


def render_receipt(rc: dict, letters: list[str]) -> FPDF:
    """80 mm till-roll layout in Courier."""
    num = lambda v: fmt_number(v, style="de", places=2)  # noqa: E731
    height = 102 + 8 * len(rc["items"])
    pdf = new_pdf(title="Beleg", author=rc["merchant"]["name"], fmt=(80, height))
    pdf.set_margins(4, 4, 4)
    pdf.add_page()
    w = 72
    x = 4
    pdf.set_font("Courier", "B", 13)
    text_at(pdf, x, 6, w, rc["merchant"]["name"], align="C", h=6)
    pdf.set_font("Courier", "", 8.5)
    street, city = rc["merchant"]["address"].split(", ")
    y = lines_at(
        pdf, x, 13, w, [street, city, "Tel. 01 555 77 14", f"UID: {rc['merchant']['vat_id']}"], h=3.8, align="C"
    )
    y += 2
    text_at(pdf, x, y, w, "-" * 40, h=3.8)
    y += 4
    text_at(pdf, x, y, w, f"Beleg-Nr. 2026/031487    Tisch 7", h=3.8)
    y += 3.8
    text_at(pdf, x, y, w, f"{fmt_date(rc['date'], '%d.%m.%Y')}  {rc['time']}    Kassa 1  Bed.: Lena", h=3.8)
    y += 4
    text_at(pdf, x, y, w, "-" * 40, h=3.8)
    y += 4.5
    for it, letter in zip(rc["items"], letters, strict=True):
        if it["quantity"] != 1:
            text_at(pdf, x + 2, y, w, f"{fmt_number(it['quantity'], style='de')} x {num(it['unit_price'])}", h=3.8)
            y += 3.8
        text_at(pdf, x, y, w - 16, it["description"], h=3.8)
        text_at(pdf, x + w - 22, y, 18, num(it["amount"]), align="R", h=3.8)
        text_at(pdf, x + w - 4, y, 4, letter, h=3.8)
        y += 4.5
    text_at(pdf, x, y, w, "=" * 40, h=3.8)
    y += 4.5
    pdf.set_font("Courier", "B", 11)
    text_at(pdf, x, y, w, "SUMME EUR", h=5)
    text_at(pdf, x + w - 30, y, 26, num(rc["total"]), align="R", h=5)
    y += 7
    pdf.set_font("Courier", "", 8.5)
    text_at(pdf, x, y, w, "Bankomat/Karte  Visa **** 4417", h=3.8)
    text_at(pdf, x + w - 22, y, 18, num(rc["total"]), align="R", h=3.8)
    y += 6
    text_at(pdf, x, y, w, "     MwSt     Netto    Steuer    Brutto", h=3.8)
    y += 3.8
    for t in rc["taxes"]:
        letter = "A" if t["rate"] == 20 else "B"
        row = (
            f"{letter} {fmt_number(t['rate'], style='de'):>3}% {num(t['base']):>9} {num(t['amount']):>9}"
            f" {num(t['base'] + t['amount']):>9}"
        )
        text_at(pdf, x, y, w, row, h=3.8)
        y += 3.8
    y += 3
    text_at(pdf, x, y, w, "-" * 40, h=3.8)
    y += 5
    lines_at(pdf, x, y, w, ["Vielen Dank für Ihren Besuch!", "Wir freuen uns auf Sie."], h=3.8, align="C")
    return pdf


# --------------------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------------------
# Long invoices (tests and bench/long.py; not written by main)
# --------------------------------------------------------------------------------------------------------------


def invoice_long(pages: int, *, per_page: int = 10, number: str = "LNG-2026-0001") -> dict:
    """A long invoice's data: ``per_page`` lines on each of ``pages`` pages, at 19 % and 7 %, every line amount
    different (so a dropped or doubled line shows in the sums).

    Args:
        pages: pages of line items (the totals follow on the last page).
        per_page: line items per page.
        number: the invoice number.

    Returns:
        The invoice dict (Decimals; ``to_json`` for JSON).
    """
    seller = party(
        name="Longhaul Freight GmbH",
        street="Kaistrasse 5",
        postal_code="40221",
        city="Duesseldorf",
        country="DE",
        vat_id="DE271828180",
    )
    buyer = party(name="Weber Logistik AG", street="Ring 2", postal_code="50667", city="Koeln", country="DE")
    items = [
        item(f"L{n:05d}", str(1 + n % 3), None, f"{10 + n * 0.37:.2f}", "19" if n % 4 else "7")
        for n in range(1, pages * per_page + 1)
    ]
    return as_invoice(
        complete_invoice(
            invoice_number=number,
            issue_date="2026-02-27",
            due_date="2026-03-29",
            currency="EUR",
            seller=seller,
            buyer=buyer,
            items=items,
            prepaid_amount=None,
            payment_terms=None,
            bank_account=None,
        )
    )


def render_long(inv: dict, *, per_page: int = 10) -> FPDF:
    """One page per ``per_page`` lines, each headed with the invoice number and "Page k of N"; totals after the
    last line, on the last page."""
    num = lambda v: fmt_number(v, style="en", places=2)  # noqa: E731
    s = inv["seller"]
    lines = inv["line_items"]
    count = -(-len(lines) // per_page)
    pdf = new_pdf(title=f"Invoice {inv['invoice_number']}", author=s["name"])
    for k in range(count):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 10)
        text_at(
            pdf,
            15,
            12,
            180,
            f"{s['name']} (VAT ID {s['vat_id']}) - Invoice {inv['invoice_number']} - Page {k + 1} of {count}",
        )
        y = 24.0
        for ln in lines[k * per_page : (k + 1) * per_page]:
            text_at(
                pdf,
                15,
                y,
                180,
                f"{ln['description']}   {fmt_number(ln['quantity'], style='en')} x "
                f"{num(ln['unit_price'])}   VAT {fmt_number(ln['tax_rate'], style='en')}%   {num(ln['amount'])}",
            )
            y += 7
    y += 6
    text_at(pdf, 15, y, 180, f"Subtotal {num(inv['subtotal'])}")
    for t in inv["tax_lines"]:
        y += 6
        text_at(pdf, 15, y, 180, f"VAT {fmt_number(t['rate'], style='en')}% on {num(t['base'])}: {num(t['amount'])}")
    text_at(pdf, 15, y + 6, 180, f"Total EUR {num(inv['total'])}")
    return pdf


def main() -> int:
    """Write every sample document and its expected JSON.

    Returns:
        Process exit code (0).
    """
    EXPECTED_DIR.mkdir(parents=True, exist_ok=True)
    builders: list[tuple[str, Callable[[], dict], Callable[[dict], FPDF]]] = [
        ("invoice-de-einfach", invoice_de, render_de),
        ("invoice-en-multipage", invoice_en, render_en),
        ("invoice-fr-services", invoice_fr, render_fr),
        ("invoice-jp-yen", invoice_jp, render_jp),
        ("invoice-ch-chf", invoice_ch, render_ch),
    ]
    for stem, build, render in builders:
        data = build()
        save_pdf(render(data), f"{stem}.pdf")
        write_answers(stem, data)
    nl = invoice_nl()
    (SAMPLES_DIR / "invoice-scan.pdf").write_bytes(make_scan(render_nl(nl)))
    write_answers("invoice-scan", nl)
    us = invoice_us()
    render_png(render_us(us), dpi=150).quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(
        SAMPLES_DIR / "invoice-us.png", format="PNG", optimize=True
    )
    write_answers("invoice-us", us)
    rc, letters = receipt_cafe()
    save_pdf(render_receipt(rc, letters), "receipt-cafe.pdf")
    write_expected("receipt-cafe", rc)
    for path in sorted(SAMPLES_DIR.iterdir()):
        if path.suffix in {".pdf", ".png"}:
            print(f"{path.name:28s} {path.stat().st_size / 1024:7.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
