"""Invoice and receipt checks: arithmetic with currency tolerances, dates, currency, IBAN / BIC / VAT ids."""

import copy
import json
from pathlib import Path

import pytest

from extractor.trust.checks import check_invoice, check_receipt, minor_unit, run_checks
from extractor.trust.identifiers import vat_id_known

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "expected"


def invoice(**changes):
    """A small consistent EUR invoice (19 % and 7 %), with top-level fields replaced by ``changes``."""
    data = {
        "invoice_number": "RE-1",
        "issue_date": "2026-01-31",
        "due_date": "2026-02-14",
        "currency": "EUR",
        "seller": {
            "name": "S GmbH",
            "address": {"street": "A 1", "postal_code": "20457", "city": "Hamburg", "country": "DE"},
            "vat_id": "DE136695976",
            "tax_id": None,
        },
        "buyer": {"name": "B AG", "address": None, "vat_id": None, "tax_id": None},
        "line_items": [
            {"description": "Chair", "quantity": 4, "unit": "pc", "unit_price": 289, "tax_rate": 19, "amount": 1156},
            {"description": "Lamp", "quantity": 6, "unit": "pc", "unit_price": 54.9, "tax_rate": 19, "amount": 329.4},
            {"description": "Book", "quantity": 5, "unit": "pc", "unit_price": 39.8, "tax_rate": 7, "amount": 199},
        ],
        "subtotal": 1684.4,
        "tax_lines": [{"rate": 19, "base": 1485.4, "amount": 282.23}, {"rate": 7, "base": 199, "amount": 13.93}],
        "total": 1980.56,
        "prepaid_amount": None,
        "amount_due": 1980.56,
        "payment_terms": None,
        "bank_account": {"iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "account_holder": None},
    }
    data.update(changes)
    return data


def with_line(i, **changes):
    data = invoice()
    data["line_items"][i].update(changes)
    return data


def with_tax(i, **changes):
    data = invoice()
    data["tax_lines"][i].update(changes)
    return data


def with_party(party, **changes):
    data = invoice()
    data[party].update(changes)
    return data


def jpy(**changes):
    data = invoice(
        currency="JPY",
        line_items=[
            {
                "description": "Design",
                "quantity": 1,
                "unit": "set",
                "unit_price": 480000,
                "tax_rate": 10,
                "amount": 480000,
            },
            {
                "description": "Hours",
                "quantity": 12.5,
                "unit": "h",
                "unit_price": 8800,
                "tax_rate": 10,
                "amount": 110000,
            },
        ],
        subtotal=590000,
        tax_lines=[{"rate": 10, "base": 590000, "amount": 59000}],
        total=649000,
        amount_due=649000,
    )
    data.update(changes)
    return data


def cents_lines(n, tax):
    """n lines of 0.13 at 19 %: per-line tax rounding gives 0.02 each, per-total 0.65 x 19 % = 0.1235."""
    lines = [
        {"description": f"x{i}", "quantity": 1, "unit": None, "unit_price": 0.13, "tax_rate": 19, "amount": 0.13}
        for i in range(n)
    ]
    base = round(0.13 * n, 2)
    return invoice(
        line_items=lines,
        subtotal=base,
        tax_lines=[{"rate": 19, "base": base, "amount": tax}],
        total=round(base + tax, 2),
        amount_due=round(base + tax, 2),
    )


CO10 = ("lines_subtotal", "/subtotal", "BR-CO-10")
CO15 = ("total", "/total", "BR-CO-15")
CO16 = ("amount_due", "/amount_due", "BR-CO-16")

# (name, data, the expected (code, path, rule) of each warning[, the e-invoice totals the data was read with])
INVOICE_CASES = [
    ("consistent", invoice(), []),
    ("quantity misread", with_line(0, quantity=5), [("line_amount", "/line_items/0/amount")]),
    ("unit price misread", with_line(1, unit_price=45.9), [("line_amount", "/line_items/1/amount")]),
    (
        "rounded unit price 1/3",
        invoice(
            line_items=[
                {"description": "x", "quantity": 3, "unit": None, "unit_price": 0.33, "tax_rate": None, "amount": 1}
            ],
            subtotal=1,
            tax_lines=[],
            total=1,
            amount_due=1,
        ),
        [],
    ),
    (
        "rounded unit price, amount off",
        invoice(
            line_items=[
                {"description": "x", "quantity": 3, "unit": None, "unit_price": 0.33, "tax_rate": None, "amount": 1.02}
            ],
            subtotal=1.02,
            tax_lines=[],
            total=1.02,
            amount_due=1.02,
        ),
        [("line_amount", "/line_items/0/amount")],
    ),
    (
        "3-decimal unit price",
        invoice(
            line_items=[
                {"description": "x", "quantity": 250, "unit": None, "unit_price": 0.084, "tax_rate": None, "amount": 21}
            ],
            subtotal=21,
            tax_lines=[],
            total=21,
            amount_due=21,
        ),
        [],
    ),
    # BR-CO-10 is exact after rounding: the bases' own sum check (ours) and BR-CO-15 (BT-109 = the subtotal) follow
    ("line dropped", invoice(subtotal=1883.4), [CO10, ("tax_base", "/tax_lines", None), CO15]),
    ("subtotal a cent off", invoice(subtotal=1684.41), [CO10, CO15]),
    ("tax misread: BR-S-09 allows 1, BR-CO-15 none", with_tax(0, amount=282.32), [CO15]),
    ("tax rounded half up", with_tax(1, amount=13.93), []),
    ("tax a unit off", with_tax(1, amount=14.93), [("tax_line", "/tax_lines/1/amount", "BR-S-09"), CO15]),
    ("tax base wrong", with_tax(1, base=190), [("tax_base", "/tax_lines/1/base", "BR-S-08")]),
    (
        "tax base wrong, lines without rates: the sum (ours)",
        invoice(
            line_items=[dict(x, tax_rate=None) for x in invoice()["line_items"]],
            tax_lines=[{"rate": 19, "base": 1485.4, "amount": 282.23}, {"rate": 7, "base": 190, "amount": 13.93}],
        ),
        [("tax_base", "/tax_lines", None)],
    ),
    ("a rate without lines", with_tax(1, rate=5, amount=9.95), [("tax_base", "/tax_lines/1/base", "BR-S-08"), CO15]),
    ("per-line tax rounding, 5 lines", cents_lines(5, 0.10), []),
    ("per-line tax rounding, within 1", cents_lines(5, 0.15), []),
    ("rate 0: the amount rounds to 0", invoice(tax_lines=[{"rate": 0, "base": 1684.4, "amount": 0.49}]), [CO15]),
    (
        "rate 0: an amount of 0.50",
        invoice(line_items=[], tax_lines=[{"rate": 0, "base": 1684.4, "amount": 0.5}], total=1684.9, amount_due=1684.9),
        [("tax_line", "/tax_lines/0/amount", "BR-CO-17")],
    ),
    ("total read as tax rate", invoice(total=19, amount_due=19), [CO15]),
    ("total one cent off", invoice(total=1980.57, amount_due=1980.57), [CO15]),
    ("prepaid", invoice(prepaid_amount=500, amount_due=1480.56), []),
    ("prepaid ignored", invoice(prepaid_amount=500), [CO16]),
    ("amount due wrong", invoice(amount_due=1908.56), [CO16]),
    ("amount due a cent off", invoice(amount_due=1980.55), [CO16]),
    ("no tax lines, total with tax", invoice(tax_lines=[]), [CO15]),
    (
        "credit note (negative)",
        invoice(
            line_items=[
                {"description": "x", "quantity": -2, "unit": None, "unit_price": 10, "tax_rate": 19, "amount": -20}
            ],
            subtotal=-20,
            tax_lines=[{"rate": 19, "base": -20, "amount": -3.8}],
            total=-23.8,
            amount_due=-23.8,
        ),
        [],
    ),
    ("JPY consistent", jpy(), []),
    (
        "JPY one yen off: the rules round to 2 decimals, whatever the currency",
        jpy(total=649001, amount_due=649001),
        [CO15],
    ),
    (
        "JPY tax one yen off: BR-S-09 allows less than 1",
        jpy(tax_lines=[{"rate": 10, "base": 590000, "amount": 59001}], total=649001, amount_due=649001),
        [("tax_line", "/tax_lines/0/amount", "BR-S-09")],
    ),
    (
        "e-invoice totals: a document allowance in BT-109",
        invoice(
            tax_lines=[{"rate": 19, "base": 1385.4, "amount": 263.23}, {"rate": 7, "base": 199, "amount": 13.93}],
            total=1861.56,
            amount_due=1861.56,
        ),
        [],
        {"allowance_total": 100, "charge_total": None, "tax_basis_total": 1584.4, "tax_total": 277.16},
    ),
    (
        "e-invoice totals: BT-109 and BT-110 misprinted",
        invoice(),
        [("tax_basis_total", "/subtotal", "BR-CO-13"), ("tax_total", "/tax_lines", "BR-CO-14"), CO15],
        {"allowance_total": None, "charge_total": None, "tax_basis_total": 1684.41, "tax_total": 295.17},
    ),
    ("due before issue", invoice(due_date="2026-01-30"), [("due_before_issue", "/due_date")]),
    ("due same day", invoice(due_date="2026-01-31"), []),
    ("no due date", invoice(due_date=None), []),
    ("impossible date", invoice(issue_date="2026-02-30"), [("date_invalid", "/issue_date")]),
    ("unknown currency", invoice(currency="EUX"), [("currency_unknown", "/currency")]),
    (
        "IBAN one digit off",
        invoice(bank_account={"iban": "DE89370400440532013001", "bic": None, "account_holder": None}),
        [("iban_invalid", "/bank_account/iban")],
    ),
    (
        "BIC malformed",
        invoice(bank_account={"iban": None, "bic": "COBA1EFF", "account_holder": None}),
        [("bic_invalid", "/bank_account/bic")],
    ),
    ("no bank account", invoice(bank_account=None), []),
    ("VAT id one digit off", with_party("seller", vat_id="DE136695977"), [("vat_id_invalid", "/seller/vat_id")]),
    ("VAT id with spaces", with_party("seller", vat_id="DE 136 695 976"), []),
    ("VAT id without prefix, country from address", with_party("seller", vat_id="136695976"), []),
    ("VAT id without prefix, wrong", with_party("seller", vat_id="136695977"), [("vat_id_invalid", "/seller/vat_id")]),
    ("Swiss UID", with_party("buyer", vat_id="CHE-271.828.189 MWST"), []),
    (
        "Swiss UID one digit off",
        with_party("buyer", vat_id="CHE-271.828.188 MWST"),
        [("vat_id_invalid", "/buyer/vat_id")],
    ),
    ("country stdnum does not know", with_party("buyer", vat_id="ZZ123"), []),
]


@pytest.mark.parametrize("case", INVOICE_CASES, ids=[c[0] for c in INVOICE_CASES])
def test_check_invoice(case):
    name, data, expected, *totals = case
    warnings = check_invoice(data, totals=totals[0] if totals else None)
    want = [w if len(w) == 3 else (*w, None) for w in expected]
    assert [(w["code"], w["path"], w.get("rule")) for w in warnings] == want
    assert all(w["message"] and ("rule" not in w or w["message"].startswith(f"{w['rule']}: ")) for w in warnings)


def test_warning_shape():
    assert check_invoice(invoice(amount_due=1908.56)) == [
        {
            "code": "amount_due",
            "message": "BR-CO-16: total 1980.56 = 1980.56, but the amount due is 1908.56",
            "path": "/amount_due",
            "rule": "BR-CO-16",
        }
    ]


@pytest.mark.parametrize(
    "currency,unit",
    [
        ("EUR", "0.01"),
        ("JPY", "1"),
        ("KRW", "1"),
        ("BHD", "0.001"),
        ("CHF", "0.01"),
        ("XAU", "0.01"),
        ("ZZZ", "0.01"),
        (None, "0.01"),
    ],
)
def test_minor_unit(currency, unit):
    assert str(minor_unit(currency)) == unit


def test_missing_numbers_skip_checks():
    data = invoice(subtotal=None, total=None, amount_due=None, tax_lines=[{"rate": 19, "base": None, "amount": 1}])
    assert check_invoice(data) == []


def sample(name):
    path = SAMPLES / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"{path} not present")
    return json.loads(path.read_text(encoding="utf-8"))


def sample_names():
    return sorted(p.stem for p in SAMPLES.glob("*.json")) or ["(none)"]


@pytest.mark.parametrize("name", sample_names())
def test_samples_pass(name):
    data = sample(name)
    assert run_checks("receipt" if name.startswith("receipt") else "invoice", data) == []


def _identifiers():
    out = []
    for name in sample_names():
        path = SAMPLES / f"{name}.json"
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for party in ("seller", "buyer", "merchant"):
            vat = (data.get(party) or {}).get("vat_id")
            if vat:
                out.append(("vat", vat, f"{name}/{party}"))
        iban = (data.get("bank_account") or {}).get("iban")
        if iban:
            out.append(("iban", iban, name))
    return out or [("none", "", "")]


def _corrupt(value):
    """Change the last digit of the longest digit run: a one-digit error in the checked number (NL's ``B01``
    suffix, for one, is not covered by the check digit)."""
    import re

    run = max(re.finditer(r"\d+", value), key=lambda m: len(m.group()))
    i = run.end() - 1
    return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]


@pytest.mark.parametrize("kind,value,where", _identifiers())
def test_real_identifiers_pass_and_corruptions_fail(kind, value, where):
    if kind == "none":
        pytest.skip("samples/expected not present")
    if kind == "vat":
        assert vat_id_known(value) is True, where
        assert vat_id_known(_corrupt(value)) is False, where
    else:
        from stdnum import iban

        data = invoice(bank_account={"iban": value, "bic": None, "account_holder": None})
        assert check_invoice(data) == []
        bad = invoice(bank_account={"iban": _corrupt(value), "bic": None, "account_holder": None})
        assert [w["code"] for w in check_invoice(bad)] == ["iban_invalid"]
        assert iban.is_valid(value)


def receipt(**changes):
    data = {
        "merchant": {"name": "Café", "address": None, "vat_id": "ATU61803392"},
        "date": "2026-03-14",
        "time": "09:41",
        "currency": "EUR",
        "items": [
            {"description": "Melange", "quantity": 2, "unit_price": 4.2, "amount": 8.4},
            {"description": "Strudel", "quantity": 1, "unit_price": 5.4, "amount": 5.4},
        ],
        "taxes": [{"rate": 20, "base": 7, "amount": 1.4}, {"rate": 10, "base": 4.91, "amount": 0.49}],
        "subtotal": None,
        "total": 13.8,
        "payment_method": "card",
    }
    data.update(changes)
    return data


RECEIPT_CASES = [
    ("consistent, net bases", receipt(), []),
    (
        "gross bases",
        receipt(taxes=[{"rate": 20, "base": 8.4, "amount": 1.4}, {"rate": 10, "base": 5.4, "amount": 0.49}]),
        [],
    ),
    (
        "item amount wrong",
        receipt(
            items=[
                {"description": "M", "quantity": 2, "unit_price": 4.2, "amount": 8.2},
                {"description": "S", "quantity": 1, "unit_price": 5.4, "amount": 5.6},
            ]
        ),
        [("item_amount", "/items/0/amount"), ("item_amount", "/items/1/amount")],
    ),
    ("items do not add up", receipt(total=14.8, taxes=[]), [("items_sum", "/total")]),
    (
        "US style: items = subtotal, + tax = total",
        receipt(subtotal=13.8, total=14.94, taxes=[{"rate": 8.25, "base": 13.8, "amount": 1.14}]),
        [],
    ),
    (
        "tax wrong",
        receipt(taxes=[{"rate": 20, "base": 7, "amount": 2.4}, {"rate": 10, "base": 4.91, "amount": 0.49}]),
        [("tax_line", "/taxes/0/amount"), ("total", "/total")],
    ),
    (
        "unit price null",
        receipt(
            items=[
                {"description": "M", "quantity": 2, "unit_price": None, "amount": 8.4},
                {"description": "S", "quantity": 1, "unit_price": 5.4, "amount": 5.4},
            ]
        ),
        [],
    ),
    ("bad date", receipt(date="2026-13-01"), [("date_invalid", "/date")]),
    (
        "bad VAT id",
        receipt(merchant={"name": "C", "address": None, "vat_id": "ATU61803393"}),
        [("vat_id_invalid", "/merchant/vat_id")],
    ),
]


@pytest.mark.parametrize("name,data,expected", RECEIPT_CASES, ids=[c[0] for c in RECEIPT_CASES])
def test_check_receipt(name, data, expected):
    assert [(w["code"], w["path"]) for w in check_receipt(data)] == expected


@pytest.mark.parametrize(
    "schema,data,codes",
    [
        ("invoice", invoice(total=19, amount_due=19), ["total"]),
        ("receipt", receipt(total=99), ["items_sum", "total"]),
        ("my-custom", invoice(total=19), []),
        ("invoice", None, []),
        ("invoice", [1, 2], []),
    ],
)
def test_run_checks_dispatch(schema, data, codes):
    assert [w["code"] for w in run_checks(schema, copy.deepcopy(data))] == codes
