"""fields_json: a frozen dataclass as its JSON dict (the shared ``to_dict``)."""

from dataclasses import dataclass, field

import pytest

from extractor.einvoice.convert import Conversion
from extractor.fields_json import fields_json
from extractor.runners.mlx.plan import DecodingPlan


@dataclass(frozen=True)
class _Item:
    name: str
    fmt: str = "cii"
    notes: tuple[str, ...] = ()
    totals: dict = field(default_factory=dict)
    blob: bytes = b""


CASES = [
    ("every field", _Item("a"), {}, {"name": "a", "fmt": "cii", "notes": [], "totals": {}, "blob": b""}),
    (
        "tuples as lists, left out, renamed",
        _Item("a", notes=("x", "y"), totals={"t": 1}, blob=b"<xml/>"),
        {"leave_out": ("blob",), "keys": {"fmt": "format"}},
        {"name": "a", "format": "cii", "notes": ["x", "y"], "totals": {"t": 1}},
    ),
]


@pytest.mark.parametrize(("label", "item", "options", "expected"), CASES, ids=[c[0] for c in CASES])
def test_fields_json(label, item, options, expected):
    out = fields_json(item, **options)
    assert out == expected
    assert list(out) == list(expected)  # the fields' order is the JSON's key order


def test_fields_json_copies_containers():
    item = _Item("a", totals={"t": 1})
    out = fields_json(item)
    out["totals"]["t"] = 2
    assert item.totals == {"t": 1}


def test_to_dicts_keep_their_keys_and_order():
    conversion = Conversion(source="a.xml", fmt="xrechnung-cii", xml=b"<x/>", check={"valid": True}, findings=({},))
    assert list(conversion.to_dict().items()) == [
        ("source", "a.xml"),
        ("format", "xrechnung-cii"),
        ("valid", True),
        ("check", {"valid": True}),
        ("findings", [{}]),
        ("source_notes", []),
    ]
    plan = DecodingPlan(path="fast", prefix_cache=True, jump_forward=False, reasons=("r",), probe={"p": 1.0})
    assert plan.to_dict() == {
        "path": "fast",
        "prefix_cache": True,
        "jump_forward": False,
        "forced_feed": "one_pass",
        "reasons": ["r"],
    }
