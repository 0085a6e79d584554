"""One walk over JSON leaves: RFC 6901 pointers, field paths without list indexes, normalised values."""

import pytest

from extractor.leaves import Leaf, field_path, json_pointer, leaves, normalize_value


@pytest.mark.parametrize(
    "data,expected",
    [
        ({"a": 1, "b": {"c": "x"}}, [("/a", 1), ("/b/c", "x")]),
        (
            {"l": [{"q": 2}, {"q": 3.5}], "t": ["x", "y"]},
            [("/l/0/q", 2), ("/l/1/q", 3.5), ("/t/0", "x"), ("/t/1", "y")],
        ),
        ({"a/b": 1, "m~n": 2, "": 3}, [("/a~1b", 1), ("/m~0n", 2), ("/", 3)]),
        ({"n": None, "e": "", "w": " \n", "d": {}, "l": [], "ln": [None, ""], "z": 0}, [("/z", 0)]),
        ({"t": True, "f": False}, [("/t", True), ("/f", False)]),
        ("scalar", [("", "scalar")]),
        ([1, [2, [3]]], [("/0", 1), ("/1/0", 2), ("/1/1/0", 3)]),
        (None, []),
        ({}, []),
    ],
)
def test_leaves(data, expected):
    assert [(leaf.pointer, leaf.value) for leaf in leaves(data)] == expected


def test_leaves_without_booleans_and_their_parts():
    data = {"ok": True, "items": [{"n": "A", "paid": False}], "7": 7.0}
    assert list(leaves(data, booleans=False)) == [Leaf("/items/0/n", "A", ("items", 0, "n")), Leaf("/7", 7.0, ("7",))]


def test_leaves_of_deep_data():
    data = value = {}
    for _ in range(5000):  # deeper than Python's recursion limit
        value["k"] = {}
        value = value["k"]
    value["v"] = 1
    (leaf,) = leaves(data)
    assert (leaf.pointer, leaf.value, len(leaf.parts)) == ("/k" * 5000 + "/v", 1, 5001)


@pytest.mark.parametrize(
    "parts,pointer",
    [([], ""), (["a", 0, "b"], "/a/0/b"), (["x/y", "m~n"], "/x~1y/m~0n"), (["~1"], "/~01"), ([""], "/")],
)
def test_json_pointer(parts, pointer):
    assert json_pointer(parts) == pointer


@pytest.mark.parametrize(
    "parts,path",
    [
        (("line_items", 3, "amount"), "/line_items/*/amount"),
        (("a", 0, 1, "b"), "/a/*/*/b"),
        (("vat", "19"), "/vat/19"),  # an object key of digits is no list index
        (("a/b", 0), "/a~1b/*"),
        ((), ""),
    ],
)
def test_field_path(parts, path):
    assert field_path(parts) == path


@pytest.mark.parametrize(
    "value,norm",
    [
        ("  Kanzlei  Weber\n& SÖHNE ", "kanzlei weber & söhne"),
        (19, "19"),
        (19.0, "19"),
        (19.5, "19.5"),
        (1e-7, "0.0000001"),
        (-0.0, "0"),
        (1156.00, "1156"),
        (1e20, "100000000000000000000"),
        (float("inf"), "inf"),
        (True, "true"),
        (False, "false"),
        (None, None),
        ("", None),
        ("   ", None),
    ],
)
def test_normalize_value(value, norm):
    assert normalize_value(value) == norm
