"""The sample invoice shared by the kit's tokenizer corpus, tests and benchmarks."""

from __future__ import annotations

import json

# A realistic German office-supplies invoice, valid against schemas/invoice.schema.json, arithmetic consistent
# (line amounts, subtotal, per-rate tax, total, amount due). Treat it as read-only (copy.deepcopy to change it).
SAMPLE_INVOICE: dict = {
    "invoice_number": "RE-2024-00817",
    "issue_date": "2024-03-14",
    "due_date": "2024-04-13",
    "currency": "EUR",
    "seller": {
        "name": "Müller Bürobedarf GmbH",
        "address": {"street": "Hauptstraße 12", "postal_code": "80331", "city": "München", "country": "DE"},
        "vat_id": "DE123456788",
        "tax_id": "143/123/45678",
    },
    "buyer": {
        "name": "Schmidt & Partner Steuerberatung",
        "address": {"street": "Lindenallee 5", "postal_code": "50667", "city": "Köln", "country": "DE"},
        "vat_id": "DE987654328",
        "tax_id": None,
    },
    "line_items": [
        {
            "description": "Kopierpapier A4, 80 g/m², 500 Blatt",
            "quantity": 10,
            "unit": "Pck",
            "unit_price": 4.99,
            "tax_rate": 19,
            "amount": 49.9,
        },
        {
            "description": "Kugelschreiber blau, 10er Pack",
            "quantity": 5,
            "unit": "Pck",
            "unit_price": 3.49,
            "tax_rate": 19,
            "amount": 17.45,
        },
        {
            "description": "Ordner A4, 8 cm, schwarz",
            "quantity": 12,
            "unit": "Stk",
            "unit_price": 2.79,
            "tax_rate": 19,
            "amount": 33.48,
        },
        {
            "description": "Toner HP 305A schwarz",
            "quantity": 2,
            "unit": "Stk",
            "unit_price": 64.9,
            "tax_rate": 19,
            "amount": 129.8,
        },
        {
            "description": "Haftnotizen 76 x 76 mm, gelb, 12 Blöcke",
            "quantity": 3,
            "unit": "Pck",
            "unit_price": 6.5,
            "tax_rate": 19,
            "amount": 19.5,
        },
        {
            "description": "Fachbuch Umsatzsteuer 2024",
            "quantity": 1,
            "unit": "Stk",
            "unit_price": 39.0,
            "tax_rate": 7,
            "amount": 39.0,
        },
        {
            "description": "Lieferung und Versand",
            "quantity": 1,
            "unit": None,
            "unit_price": 5.9,
            "tax_rate": 19,
            "amount": 5.9,
        },
    ],
    "subtotal": 295.03,
    "tax_lines": [{"rate": 19, "base": 256.03, "amount": 48.65}, {"rate": 7, "base": 39.0, "amount": 2.73}],
    "total": 346.41,
    "prepaid_amount": 50.0,
    "amount_due": 296.41,
    "payment_terms": "Zahlbar innerhalb von 30 Tagen ohne Abzug. Bei Zahlung bis 2024-03-24 2 % Skonto.",
    "bank_account": {
        "iban": "DE89370400440532013000",
        "bic": "COBADEFFXXX",
        "account_holder": "Müller Bürobedarf GmbH",
    },
}

SAMPLE_INVOICE_ANSWER: str = json.dumps(SAMPLE_INVOICE, ensure_ascii=False, separators=(",", ":"))
""":data:`SAMPLE_INVOICE` as compact JSON text (about 1,700 characters, ~280 scripted tokens)."""
