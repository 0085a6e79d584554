"""Long documents (``windows``, ``merge``): the plan and the merge (pure tables), then long invoices end to end.

The pipeline tests generate for real: a tiny random model loaded by the real MlxRunner, schema-constrained with
jump-forward, and each window's answer forced by a logits processor that ``Settings.request_processors`` builds
from the request itself (which pages its prompt names, which ``max_tokens`` the attempt has): it writes the lines
printed on those pages (``helpers.following``). The invoices come from samples/generate.py (``invoice_long``).
"""

from __future__ import annotations

import json
import re
import time

import pytest
from helpers import following, sample_generator

from extractor.api import Extractor
from extractor.pipeline.merge import merge_answers, merge_warnings, repeated_prefix
from extractor.pipeline.windows import plan_spans, window_size
from extractor.schema import load_schema
from extractor.settings import Settings
from extractor.trust.confidence import scalars

INVOICE = load_schema("invoice")


GENERATOR = sample_generator()


def long_invoice(tmp_path, pages: int, per_page: int):
    """A long invoice PDF in tmp_path and its true data."""
    inv = GENERATOR.invoice_long(pages, per_page=per_page)
    path = tmp_path / f"long-{pages}.pdf"
    GENERATOR.render_long(inv, per_page=per_page).output(str(path))
    return path, GENERATOR.to_json(inv)


# ------------------------------------------------------------------------------------------------------ the plan


@pytest.mark.parametrize(
    "count,size,expected",
    [
        (1, 4, [(0, 0)]),
        (4, 4, [(0, 3)]),
        (5, 4, [(0, 3), (3, 4)]),
        (7, 4, [(0, 3), (3, 6)]),
        (8, 4, [(0, 3), (3, 6), (6, 7)]),
        (30, 8, [(0, 7), (7, 14), (14, 21), (21, 28), (28, 29)]),
        (3, 2, [(0, 1), (1, 2)]),
    ],
)
def test_plan_spans(count, size, expected):
    spans = plan_spans(count, size)
    assert list(spans) == expected
    covered = sorted({p for a, b in spans for p in range(a, b + 1)})
    assert covered == list(range(count))  # every page, each window brings a new one
    assert all(b - a + 1 <= size for a, b in spans)


@pytest.mark.parametrize(
    "changes,expected",
    [
        ({}, 4),
        ({"window_pages": 8}, 8),
        ({"window_pages": 8, "vision_tokens": 2600}, 4),  # the window's vision budget makes it smaller
        ({"window_pages": 2, "vision_tokens": 100}, 2),  # ... never larger
        ({"window_pages": 8, "vision_tokens": 20000}, 2),  # at least two pages (one overlap, one new)
    ],
)
def test_window_size(changes, expected):
    assert window_size(Settings(**changes), pixels_per_token=1024) == expected


@pytest.mark.parametrize(
    "bad", [{"window_pages": 1}, {"window_pages": 9}, {"split": "sometimes"}, {"window_vision_tokens": 0}]
)
def test_bad_window_settings(bad):
    from extractor.errors import UsageError

    with pytest.raises(UsageError):
        Settings(**bad)


def _line(n, amount=None):
    amount = float(10 + n) if amount is None else amount
    return {"description": f"L{n}", "quantity": 1, "unit": None, "unit_price": amount, "tax_rate": 19, "amount": amount}


@pytest.mark.parametrize(
    "before,after,expected",
    [
        ([], [_line(1)], 0),
        ([_line(1), _line(2)], [_line(2), _line(3)], 1),
        ([_line(1), _line(2)], [_line(1), _line(2), _line(3)], 2),
        ([_line(1), _line(2)], [_line(3)], 0),
        ([_line(1), _line(2)], [{**_line(2), "description": " l2 "}, _line(3)], 1),  # compared normalised
    ],
)
def test_repeated_prefix(before, after, expected):
    assert repeated_prefix(before, after) == expected


def _answer(number, lines, subtotal):
    return {
        "invoice_number": number,
        "currency": "EUR",
        "seller": {"name": "S"},
        "line_items": lines,
        "subtotal": subtotal,
        "tax_lines": [{"rate": 19, "base": subtotal, "amount": 0}],
        "total": subtotal,
    }


def test_merge_takes_header_first_totals_last_lines_from_all():
    first = _answer("A-1", [_line(1), _line(2)], 0)
    second = _answer("garbled", [_line(2), _line(3)], None)
    last = _answer("A-1?", [_line(3), _line(4)], 46.0)
    merged, kept = merge_answers(INVOICE, [first, second, last])
    assert merged == {
        "invoice_number": "A-1",
        "currency": "EUR",
        "seller": {"name": "S"},
        "line_items": [_line(1), _line(2), _line(3), _line(4)],
        "subtotal": 46.0,
        "tax_lines": [{"rate": 19, "base": 46.0, "amount": 0}],
        "total": 46.0,
    }
    assert kept == [2, 1, 1]


@pytest.mark.parametrize("case,culprit", [("ok", None), ("dropped", "pages 4-7"), ("doubled", "pages 1-4")])
def test_merge_warnings_name_the_window(case, culprit):
    lines = [_line(n) for n in range(1, 7)]
    windows = [lines[:2], lines[2:4], lines[4:]]
    texts = [["L1 11.00\nL2 12.00"], ["L3 13.00\nL4 14.00"], ["L5 15.00\nL6 16.00"]]
    if case == "dropped":
        windows[1] = windows[1][:1]
    if case == "doubled":
        windows[0] = windows[0] + [_line(7, amount=12.0)]
    answers = [_answer("A", w, 81.0) for w in windows]
    merged, _ = merge_answers(INVOICE, answers)
    got = merge_warnings(INVOICE, merged, answers, [[1, 4], [4, 7], [7, 9]], texts)
    if culprit is None:
        assert got == []
        return
    assert [w["code"] for w in got] == ["window_lines", "window_tax"]
    assert all(f"window {culprit} do not add up" in w["message"] for w in got), got


def test_a_failed_merge_makes_an_ok_record_review():
    from extractor.trust.verdict import Signals, record_status

    assert record_status(Signals(answer="ok", merge=({"code": "window_lines", "message": "m"},))) == "review"
    assert record_status(Signals(answer="ok")) == "ok"


# ------------------------------------------------------------------------------------------- through the pipeline


def _answers(tiny, data, per_page, *, end, drop=None, long_first=None):
    """``request_processors``: each window's answer, from the pages its prompt names.

    drop: a line's description left out of its window's answer; long_first: (first page of a window,
    max_tokens): that window's first attempt writes 20 extra lines (more than its max_tokens), the retry the
    right answer.
    """

    def factory(request):
        found = re.search(r"pages (\d+)-(\d+) of a", request.messages[-1].text)
        first, last = (int(found[1]), int(found[2])) if found else (1, 10**6)
        lines = [x for x in data["line_items"][(first - 1) * per_page : last * per_page] if x["description"] != drop]
        if long_first is not None and (first, request.max_tokens) == long_first:
            lines = lines + data["line_items"] * 4  # 20 more lines than the window prints
        text = json.dumps({**data, "line_items": lines}, ensure_ascii=False, separators=(",", ":"))
        return (following(tiny, text, end=end),)

    return factory


def test_merged_values_keep_their_windows_token_evidence():
    from extractor.pipeline.merge import _merge, merged_tokens

    answers = [
        _answer("A-1", [_line(1), _line(2)], 0),
        _answer("garbled", [_line(2), _line(3)], None),
        _answer("A-1?", [_line(3), _line(4)], 46.0),
    ]

    def tokens(window: int, data: dict) -> dict:  # each value's evidence names its window and its own pointer
        return {p: {"p_min": window / 10, "p_mean": None, "margin_first": p, "tokens": 1} for p, _ in scalars(data)}

    merged, _, sources = _merge(INVOICE, answers)
    got = merged_tokens(merged, sources, [tokens(0, answers[0]), None, tokens(2, answers[2])])
    assert list(got) == [p for p, _ in scalars(merged)]
    expect = {
        "/invoice_number": (0.0, "/invoice_number"),  # header: the first window's
        "/line_items/1/description": (0.0, "/line_items/1/description"),
        "/line_items/3/amount": (0.2, "/line_items/1/amount"),  # the last window's second line
        "/total": (0.2, "/total"),  # totals: the last window's
    }
    assert {p: (got[p]["p_min"], got[p]["margin_first"]) for p in expect} == expect
    # the middle window's line 3 (no evidence there): null, as a value without evidence
    assert got["/line_items/2/amount"] == {
        "p_min": None,
        "p_mean": None,
        "margin_first": None,
        "tokens": None,
        "forced_tokens": None,
    }


@pytest.fixture(scope="module")
def family(model_factory):
    """The kit's mistral3 checkpoint: a small vocabulary and a plain decoder, so a decode step costs 3.3 ms
    (gemma3's 4.3, qwen3_5's 17.9: bench/decode_step.py)."""
    return model_factory.family("mistral3")


@pytest.fixture(scope="module")
def runner(family):
    """Loaded once for the module (each test's Extractor reuses it)."""
    from extractor.runners.mlx.runner import MlxRunner

    return MlxRunner(model=str(family.path))


def _extractor(runner, **changes):
    return Extractor(Settings(model=runner.model_id, **changes), runner=runner)


def _windows(record):
    return [(w["pages"], w["status"], w["retried"]) for w in record.extra["windows"]]


def test_thirty_pages_a_hundred_and_twenty_lines(family, runner, tmp_path):
    """Five windows of up to 8 pages, four lines a page: ~5,000 generated tokens (~4,000 decode steps) on the
    mistral3 kit model, where ten lines a page cost 2.5 times as many for the same windows, overlaps and merge."""
    path, data = long_invoice(tmp_path, 30, 4)
    extractor = _extractor(
        runner,
        window_pages=8,
        max_tokens=4096,
        request_processors=_answers(family.path, data, 4, end=family.end_of_turn_id),
    )
    record = extractor.extract(path)
    assert record.status == "ok", (record.errors, record.warnings)
    assert record.data == data  # all 120 lines once, in order; header and totals
    assert record.pages == 30
    assert _windows(record) == [
        ([1, 8], "ok", []),
        ([8, 15], "ok", []),
        ([15, 22], "ok", []),
        ([22, 29], "ok", []),
        ([29, 30], "ok", []),
    ]
    assert [w["lines"] for w in record.extra["windows"]] == [32, 32, 32, 32, 8]
    assert [w["kept"] for w in record.extra["windows"]] == [32, 28, 28, 28, 4]
    per_page = record.extra["windows"][0]["usage"]["image_tokens"] // 8
    for w in record.extra["windows"]:  # no generation saw more than its window's pages
        pages = w["pages"][1] - w["pages"][0] + 1
        assert w["usage"]["image_tokens"] == pages * per_page
        assert w["usage"]["prompt_tokens"] <= record.extra["windows"][0]["usage"]["prompt_tokens"]
    assert record.usage.generated_tokens == sum(w["usage"]["generated_tokens"] for w in record.extra["windows"])
    assert record.usage.image_tokens == 34 * per_page  # 30 pages, 4 of them shown twice
    grounding = record.extra["grounding"]
    # every line is found on its printed row; the generator prints no dates or addresses (those stay ungrounded)
    assert record.extra["checks"] == [] and not [p for p in grounding["ungrounded"] if p.startswith("/line_items")]
    assert grounding["fields"]["/total"] is True and grounding["fields"]["/line_items/119/amount"] is True


def test_a_window_that_drops_a_line_is_named(family, runner, tmp_path):
    path, data = long_invoice(tmp_path, 5, 1)  # windows 1-4, 4-5
    extractor = _extractor(
        runner,
        max_tokens=800,
        request_processors=_answers(family.path, data, 1, drop="L00002", end=family.end_of_turn_id),
    )
    record = extractor.extract(path)  # L00002 is printed on page 2
    assert record.status == "review"
    assert _windows(record) == [([1, 4], "ok", []), ([4, 5], "ok", [])]
    assert [x["description"] for x in record.data["line_items"]] == ["L00001", "L00003", "L00004", "L00005"]
    merge = [w for w in record.warnings if w["code"] in ("window_lines", "window_tax")]
    assert merge and all("window pages 1-4 do not add up" in w["message"] for w in merge), merge
    assert "lines_subtotal" in [w["code"] for w in record.extra["checks"]]
    fields = record.extra["fields"]  # each merged value has its window's token evidence and a confidence
    assert list(fields) == [p for p, _ in scalars(record.data)]
    assert all(e["tokens"] and 0 <= e["confidence"] <= 1 for e in fields.values())


def test_only_the_truncated_window_is_asked_again(family, runner, tmp_path):
    path, data = long_invoice(tmp_path, 5, 1)
    extractor = _extractor(
        runner,
        max_tokens=500,
        retries=1,
        request_processors=_answers(family.path, data, 1, long_first=(4, 500), end=family.end_of_turn_id),
    )
    record = extractor.extract(path)
    assert record.status == "ok", (record.errors, record.warnings)
    assert record.data == data
    assert _windows(record) == [([1, 4], "ok", []), ([4, 5], "ok", ["truncated"])]
    attempts = [(a["pages"], a["number"], a["status"], a["max_tokens"]) for a in record.extra["attempts"]]
    assert attempts == [([1, 4], 1, "ok", 500), ([4, 5], 1, "truncated", 500), ([4, 5], 2, "ok", 1000)]
    assert record.usage.generated_tokens == sum(a["generated_tokens"] for a in record.extra["attempts"])


def test_a_five_thousand_page_pdf_is_read_one_window_at_a_time(tmp_path):
    """Hostile size, at the rendering level (no generation): the first render holds one window's pages, the plan
    covers max_pages of them in windows, and the cut is named with its limit."""
    from helpers import raw_pdf

    from extractor.inputs.renderer import render_here
    from extractor.pipeline.windows import cap_to_first_window, plan_for, window_raster

    path = tmp_path / "huge.pdf"
    path.write_bytes(raw_pdf(*["/MediaBox [0 0 200 300]"] * 5000))
    settings = Settings(vision_tokens=64)
    raster = settings.raster(1024)
    start = time.perf_counter()
    rendered = render_here(path, raster=cap_to_first_window(raster, settings, pixels_per_token=1024))
    assert rendered.error is None and len(rendered.document.pages) == 4 and rendered.document.page_count == 5000
    plan = plan_for(rendered.document, raster=raster, settings=settings, pixels_per_token=1024)
    assert len(plan.indices) == 500 and plan.spans[0] == (0, 3) and plan.spans[-1][1] == 499
    assert len(plan.spans) == 167 and all(b - a + 1 <= 4 for a, b in plan.spans)
    assert plan.warnings == (
        "only the first 500 of 5000 selected pages were extracted (max_pages 500; --max-pages raises it)",
    )
    last = render_here(path, raster=window_raster(plan, plan.spans[-1], raster))
    assert [p.index for p in last.document.pages] == [498, 499]
    assert time.perf_counter() - start < 30
