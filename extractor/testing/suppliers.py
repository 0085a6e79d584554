"""Synthetic suppliers for the layouts engine (issue 51): each prints its invoices in one of several layouts, in
German, English or French formats, its line items running onto a second page when there are many; a document is
its words (``layouts.PageWords``, no PDF: text-layer words placed by their characters) and its true data.

``supplier_documents(seed=, suppliers=, documents=)`` -> per supplier, its documents ``(name, pages, data)``;
``scan_pdf(pages, path)`` draws a document's words on page images, a scan's PDF that only OCR reads.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from extractor.layouts.words import PageWords, from_lines

ROWS_PER_PAGE = 8  # line items beyond this many run onto the next page (the header on the first page only)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")
ITEMS = ("Beratung", "Wartung", "Lizenz", "Schulung", "Papier A4", "Toner schwarz", "Kabel", "Monitor", "Support")


@dataclass(frozen=True)
class Style:
    """One layout's words and formats."""

    language: str
    invoice: str  # the invoice number's label
    date: str  # the issue date's label
    buyer: str  # the line above the buyer's name
    header: str  # the line items' header
    subtotal: str
    tax: str
    total: str
    decimal: str
    thousands: str


STYLES = (
    Style("de", "Rechnungsnummer:", "Rechnungsdatum:", "Rechnungsempfänger:", "Pos Beschreibung Menge Preis Betrag",
          "Nettobetrag", "zzgl. USt. 19 %", "Gesamtbetrag", ",", "."),
    Style("en", "Invoice No:", "Date:", "Bill to:", "Pos Item Qty Price Amount", "Subtotal", "VAT 19 %", "Total",
          ".", ","),
    # French groups thousands with a narrow no-break space (U+202F, as CLDR's fr locale prints them): one word
    Style("fr", "Facture N°", "Date :", "Client :", "Pos Désignation Qté Prix Montant", "Total HT", "TVA 19 %",
          "Total TTC", ",", "\u202f"),
)  # fmt: skip


def money(value: Decimal, style: Style) -> str:
    """An amount as the style prints it (``1.297,50``, ``1,297.50``, ``1\u202f297,50``)."""
    whole, cents = f"{value:.2f}".split(".")
    groups: list[str] = []
    while len(whole) > 3:
        whole, groups = whole[:-3], [whole[-3:], *groups]
    return style.thousands.join([whole, *groups]) + style.decimal + cents


def date_text(year: int, month: int, day: int, style: Style) -> str:
    """A date as the style prints it."""
    if style.language == "de":
        return f"{day:02d}.{month:02d}.{year}"
    if style.language == "en":
        return f"{MONTHS[month - 1]} {day}, {year}"
    return f"{day:02d}/{month:02d}/{year}"


def page(
    index: int,
    lines: list[str],
    *,
    char: float = 0.008,
    height: float = 0.012,
    confidence: float | None = None,
    source: str = "text_layer",
) -> PageWords:
    """A page of words: one line per text, 0.02 apart, each word placed by its characters (``char`` wide each);
    ``confidence`` and ``source`` as OCR would give them, when a test needs OCR's words."""
    rows = []
    for n, text in enumerate(lines):
        words, at = [], 0
        for word in text.split(" "):
            if word:
                top = 0.05 + n * 0.02
                words.append((word, (0.05 + at * char, top, 0.05 + (at + len(word)) * char, top + height), confidence))
            at += len(word) + 1
        rows.append(words)
    return from_lines(index, rows, source=source)


def document(
    rng: random.Random, *, seller: str, vat: str, style: Style, number: int, footer: tuple[str, ...] = ()
) -> tuple[list[PageWords], dict]:
    """One invoice of a supplier: its pages and its true data; ``footer``: lines printed after the totals (a
    supplier's fixed words that each of its layouts prints alike)."""
    count = rng.choice((1, 2, 3, 5, 9, 12))
    items = []
    for _ in range(count):
        quantity = rng.randint(1, 20)
        price = Decimal(rng.randint(50, 250000)) / 100
        items.append((rng.choice(ITEMS), quantity, price, price * quantity))
    subtotal = sum((amount for *_, amount in items), Decimal(0))
    tax = (subtotal * Decimal("0.19")).quantize(Decimal("0.01"))
    total = subtotal + tax
    year, month, day = 2026, rng.randint(1, 10), rng.randint(1, 28)
    invoice_number = f"{seller[:2].upper()}-{year}-{number:04d}"
    buyer = rng.choice(("Muster AG", "Beispiel GmbH", "Acme Ltd", "Société Exemple SARL"))
    head = [f"{seller} Hauptstraße 1 20457 Hamburg", f"VAT {vat}", style.buyer, buyer]
    head += [f"{style.invoice} {invoice_number}", f"{style.date} {date_text(year, month, day, style)}", style.header]
    rows = [f"{i} {desc} {q} {money(p, style)} {money(a, style)}" for i, (desc, q, p, a) in enumerate(items, start=1)]
    tail = [f"{style.subtotal} {money(subtotal, style)}", f"{style.tax} {money(tax, style)}"]
    tail += [f"{style.total} {money(total, style)} EUR", "Thank you / Danke / Merci", *footer]
    first, rest = rows[:ROWS_PER_PAGE], rows[ROWS_PER_PAGE:]
    pages = [page(0, head + first + ([] if rest else tail))]
    if rest:
        pages.append(page(1, rest + tail))
    data = {
        "invoice_number": invoice_number,
        "issue_date": f"{year}-{month:02d}-{day:02d}",
        "due_date": None,
        "currency": "EUR",
        "seller": {"name": seller, "address": None, "vat_id": vat, "tax_id": None},
        "buyer": {"name": buyer, "address": None, "vat_id": None, "tax_id": None},
        "line_items": [
            {"description": d, "quantity": q, "unit": None, "unit_price": float(p), "tax_rate": None}
            | {"amount": float(a)}
            for d, q, p, a in items
        ],
        "subtotal": float(subtotal),
        "tax_lines": [],
        "total": float(total),
        "prepaid_amount": None,
        "amount_due": float(total),
        "payment_terms": None,
        "bank_account": None,
    }
    return pages, data


SCAN_WIDTH = 1240  # px: an A4 page at 150 DPI, as a scanner gives it
SCAN_HEIGHT = 1754
SCAN_FONT = 0.75  # a word's font size, in its box's heights, at the most
SCAN_FILL = 0.9  # and its width, in its box's width, at the most
SCAN_FONT_FILE = "DejaVuSans.ttf"


@functools.cache
def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype(SCAN_FONT_FILE, size)
    except OSError:
        return ImageFont.load_default(size=size)


def scan_pdf(pages: list[PageWords], path: Path) -> Path:
    """``pages`` as a scanner gives them: each page's words drawn where their boxes are (DejaVu Sans where the
    system has it: umlauts, accents, €; else Pillow's built-in font) on a page image, the images written as a PDF
    with no text layer, so reading it takes OCR (``extract learn`` and the pipeline read it so)."""
    from PIL import Image, ImageDraw

    images = []
    for page_words in pages:
        image = Image.new("L", (SCAN_WIDTH, SCAN_HEIGHT), 255)
        draw = ImageDraw.Draw(image)
        for word in page_words.words:
            x0, y0, x1, y1 = word.box
            size = round((y1 - y0) * SCAN_HEIGHT * SCAN_FONT)
            # no wider than its box: the space after it stays a space OCR sees
            while size > 6 and _font(size).getlength(word.text) > (x1 - x0) * SCAN_WIDTH * SCAN_FILL:
                size -= 1
            draw.text((x0 * SCAN_WIDTH, y0 * SCAN_HEIGHT), word.text, fill=0, font=_font(size))
        images.append(image.convert("RGB"))
    images[0].save(path, format="PDF", save_all=True, append_images=images[1:], resolution=150.0)
    return path


def supplier_documents(*, seed: int, suppliers: int, documents: int) -> list[list[tuple[str, list[PageWords], dict]]]:
    """``suppliers`` synthetic suppliers (their styles in turn), ``documents`` invoices each."""
    rng = random.Random(seed)
    out = []
    for n in range(suppliers):
        style = STYLES[n % len(STYLES)]
        seller = f"{rng.choice(('Nordlicht', 'Sonnen', 'Alpen', 'Rhein', 'Atlas'))} {n} GmbH"
        vat = f"DE{100000000 + n * 7919}"
        docs = []
        for i in range(documents):
            pages, data = document(rng, seller=seller, vat=vat, style=style, number=i + 1)
            docs.append((f"{style.language}-{n}-{i}", pages, data))
        out.append(docs)
    return out
