"""Finding the first complete JSON value in model text; and the incremental close tracker."""

import pytest

from extractor.runners.guards import JsonCloseTracker
from extractor.trust.parse import parse_answer

CASES = [
    # text, found, value, trailing, closed
    ('{"a": 1}', True, {"a": 1}, "", True),
    ('```json\n{"a": 1}\n```', True, {"a": 1}, "", True),
    ('<think>maybe {x}</think>\n{"a": [1, 2]}', True, {"a": [1, 2]}, "", True),
    ('Here is the data: {"a": "}"} thanks', True, {"a": "}"}, "thanks", True),
    ('{"a": 1}<|im_end|><|im_end|>', True, {"a": 1}, "<|im_end|><|im_end|>", True),
    ('{note} then {"a": 1}', True, {"a": 1}, "", True),
    ("[1, 2, 3]", True, [1, 2, 3], "", True),
    ('{"a": "x\\"}", "b": ', False, None, "", False),
    ('{"a": 1,}', False, None, "", True),
    ('{"a": {"b": 1}, "c": [1, 2', False, None, "", False),  # truncated: the inner object is not the answer
    ('{"a": {"b": 1},} {"c": 2}', True, {"c": 2}, "", True),
    ("no json here", False, None, "", False),
    ('<think>still thinking {"a": 1}', False, None, "", False),
]


@pytest.mark.parametrize("text,found,value,trailing,closed", CASES)
def test_parse_answer(text, found, value, trailing, closed):
    r = parse_answer(text)
    assert (r.found, r.value, r.trailing, r.closed) == (found, value, trailing, closed)
    assert (r.error is None) == found


@pytest.mark.parametrize(
    "chunks,closed_at",
    [
        (['{"a"', ': "}{"', "}"], 11),
        (["[", "1", "]", "   "], 3),
        (['{"a": "\\\\"}', "x"], 11),
        (['{"a": [', "1]"], None),
        (["prose } ", '{"b": 2}'], 16),
    ],
)
def test_close_tracker(chunks, closed_at):
    t = JsonCloseTracker()
    for c in chunks:
        t.feed(c)
    assert t.closed_at == closed_at
