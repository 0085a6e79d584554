"""Retries: the plan (pure tables), then truncated / invalid / runaway paths through the pipeline on tiny models.

Each pipeline test runs a real scripted model (real mlx-vlm generation) on a small custom schema with a short answer.
What an attempt emits is decided by the model's weights, or by a logits processor handed to that attempt through
``Settings.extra_processors`` that forces a chosen token sequence: the runner itself is never replaced.
"""

import json

import pytest
from helpers import forcing, settings_for, token_ids

from extractor.pipeline.retry import (
    CAP_FACTOR,
    Attempt,
    combine,
    first_attempt,
    invalid_feedback,
    next_attempt,
    runaway_feedback,
    tighten,
)
from extractor.record import Record, Usage
from extractor.runners.guards import GuardSettings
from extractor.testing import IM_END

G = GuardSettings()
NO_GUARDS = GuardSettings.without(["all"])
SCHEMA_ERRORS = (
    {"code": "schema", "path": "/total", "message": "'12' is not of type 'number'"},
    {"code": "schema", "path": "", "message": "'number' is a required property"},
)


def _history(*steps):
    """Attempts with the given (reason, max_tokens) after a first one at 100 tokens."""
    out = [first_attempt(max_tokens=100, guards=G)]
    for reason, max_tokens in steps:
        out.append(Attempt(number=len(out) + 1, max_tokens=max_tokens, guards=G, reason=reason))
    return out


@pytest.mark.parametrize(
    "history,status,retries,expected",
    [
        # (reason, max_tokens, feedback given) of the next attempt, or None
        (_history(), "ok", 3, None),
        (_history(), "review", 3, None),
        (_history(), "error", 3, None),
        (_history(), "invalid", 0, None),  # --retries 0: one attempt
        (_history(), "invalid", 1, ("invalid", 100, True)),
        (_history(("invalid", 100)), "invalid", 3, None),  # re-asked once only
        (_history(), "truncated", 1, ("truncated", 200, False)),
        (_history(("truncated", 200)), "truncated", 1, None),  # retries used up
        (_history(("truncated", 200)), "truncated", 5, ("truncated", 400, False)),
        (_history(("truncated", 200), ("truncated", 400)), "truncated", 5, None),  # 4x cap reached
        (_history(("truncated", 200)), "invalid", 5, ("invalid", 200, True)),  # the larger budget is kept
        (_history(("invalid", 100)), "truncated", 5, ("truncated", 200, False)),
        (_history(), "runaway", 1, ("runaway", 100, True)),
        (_history(("runaway", 100)), "runaway", 5, None),
    ],
)
def test_next_attempt(history, status, retries, expected):
    got = next_attempt(history, status=status, errors=SCHEMA_ERRORS, retries=retries, guard="loop")
    if expected is None:
        assert got is None
        return
    reason, max_tokens, feedback = expected
    assert (got.number, got.reason, got.max_tokens, bool(got.feedback)) == (
        len(history) + 1,
        reason,
        max_tokens,
        feedback,
    )
    assert got.guards == (tighten(G) if reason == "runaway" else G)


def test_cap_is_four_times_the_first_budget():
    history = [first_attempt(max_tokens=300, guards=G)]
    while (nxt := next_attempt(history, status="truncated", errors=(), retries=10)) is not None:
        history.append(nxt)
    assert [a.max_tokens for a in history] == [300, 600, 1200]
    assert CAP_FACTOR == 4
    history = [first_attempt(max_tokens=3, guards=G)]
    while (nxt := next_attempt(history, status="truncated", errors=(), retries=10)) is not None:
        history.append(nxt)
    assert [a.max_tokens for a in history] == [3, 6, 12]


def test_runaway_without_guards_is_not_retried():
    """A diagnosis run with every guard off would repeat itself exactly: no retry."""
    history = [first_attempt(max_tokens=100, guards=NO_GUARDS)]
    assert next_attempt(history, status="runaway", errors=(), retries=3) is None


def test_feedback_carries_over():
    history = [first_attempt(max_tokens=100, guards=G)]
    history.append(next_attempt(history, status="invalid", errors=SCHEMA_ERRORS, retries=3))
    third = next_attempt(history, status="truncated", errors=(), retries=3)
    assert third.feedback == history[1].feedback == invalid_feedback(SCHEMA_ERRORS)


@pytest.mark.parametrize(
    "errors,lines",
    [
        (SCHEMA_ERRORS, ("/total: '12' is not of type 'number'", "(the whole value): 'number' is a required property")),
        (
            ({"code": "no_json", "message": "no JSON value in the answer"},),
            ("no JSON value was found in it (no JSON value in the answer)",),
        ),
        (
            tuple({"code": "schema", "path": f"/l/{i}", "message": "bad"} for i in range(14)),
            tuple(f"/l/{i}: bad" for i in range(12)) + ("... and 2 more schema errors",),
        ),
    ],
)
def test_invalid_feedback(errors, lines):
    assert invalid_feedback(errors) == lines


@pytest.mark.parametrize(
    "guard,start",
    [("loop", "it repeated itself"), ("end_marker", "it wrote an end-of-turn"), (None, "it did not stop")],
)
def test_runaway_feedback(guard, start):
    (line,) = runaway_feedback(guard)
    assert line.startswith(start) and "stop right after" in line


@pytest.mark.parametrize(
    "guards,expected",
    [
        (
            GuardSettings(),
            dict(
                json_grace_tokens=2,
                loop_repeats=3,
                loop_min_tokens=6,
                string_loop_min_tokens=32,
                whitespace_run_tokens=8,
            ),
        ),
        (
            GuardSettings(
                json_grace_tokens=1,
                loop_repeats=3,
                loop_min_tokens=8,
                string_loop_min_tokens=30,
                whitespace_run_tokens=5,
            ),
            dict(
                json_grace_tokens=1,
                loop_repeats=3,
                loop_min_tokens=6,
                string_loop_min_tokens=24,
                whitespace_run_tokens=4,
            ),
        ),
    ],
)
def test_tighten(guards, expected):
    tight = tighten(guards)
    assert {k: getattr(tight, k) for k in expected} == expected
    assert (tight.active, tight.loop_max_period, tight.number_max_chars) == (
        guards.active,
        guards.loop_max_period,
        guards.number_max_chars,
    )


def test_combine_sums_costs_and_lists_attempts():
    def rec(status, gen, prefill, decode):
        errors = () if status == "ok" else ({"code": status, "message": "m"},)
        return Record(
            source="s",
            status=status,
            finish_reason="length",
            errors=errors,
            usage=Usage(prompt_tokens=10, image_tokens=4, generated_tokens=gen),
            timings={"render_s": 0.5, "prefill_s": prefill, "decode_s": decode, "total_s": 9.0},
            extra={"guards": {}},
        )

    history = [first_attempt(max_tokens=5, guards=G)]
    history.append(next_attempt(history, status="truncated", errors=(), retries=1))
    final = combine(history, [rec("truncated", 5, 0.25, 1.0), rec("ok", 7, 0.5, 2.0)])
    assert final.status == "ok"
    assert final.usage == Usage(prompt_tokens=20, image_tokens=8, generated_tokens=12)
    assert final.timings == {"render_s": 0.5, "prefill_s": 0.75, "decode_s": 3.0, "total_s": 9.0}
    assert final.extra == {
        "guards": {},
        "attempts": [
            {
                "number": 1,
                "reason": None,
                "status": "truncated",
                "finish_reason": "length",
                "generated_tokens": 5,
                "max_tokens": 5,
                "errors": ["truncated"],
            },
            {
                "number": 2,
                "reason": "truncated",
                "status": "ok",
                "finish_reason": "length",
                "generated_tokens": 7,
                "max_tokens": 10,
                "errors": [],
            },
        ],
    }


# -- through the pipeline --------------------------------------------------------------------------------------------

SAMPLE = "samples/invoice-de-einfach.pdf"
# "not" is a keyword the grammar cannot express (constraint_partial): a constrained answer can still break it, so
# the invalid -> retry path runs with constraints on, the default.
SMALL_SCHEMA = {
    "title": "voucher",
    "type": "object",
    "additionalProperties": False,
    "required": ["number", "total"],
    "properties": {
        # not printed on the sample page: these tests are about retries, so the values decide no review by grounding
        "number": {"type": "string", "not": {"const": "17"}, "x-extractor-key": False},
        "total": {"type": "number", "x-extractor-key": False},
    },
}
ANSWER = {"number": "V-2026-00042", "total": 12.5}
INVALID = '{"number":"17","total":1}'  # grammatical, but "not" forbids this number


@pytest.fixture(scope="module")
def schema_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "voucher.json"
    path.write_text(json.dumps(SMALL_SCHEMA), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def voucher_model(model_factory, schema_path):
    return model_factory.scripted(answer=json.dumps(ANSWER, separators=(",", ":")), then="im_end", schema=schema_path)


def _extract(tiny, schema_path, **changes):
    from extractor import Extractor

    return Extractor(settings_for(tiny, schema=str(schema_path), **changes)).extract(SAMPLE)


def _summary(record):
    return [(a["number"], a["reason"], a["status"], a["max_tokens"]) for a in record.extra["attempts"]]


def test_truncated_then_complete(voucher_model, schema_path):
    needed = len(voucher_model.answer_token_ids) + 1  # the answer and the stop token
    first = -(-needed // 4)  # two doublings fit the answer, one does not
    assert 2 * first < needed <= 4 * first
    record = _extract(voucher_model, schema_path, max_tokens=first, retries=2)
    assert record.status == "ok", record.errors
    assert record.data == ANSWER
    assert _summary(record) == [
        (1, None, "truncated", first),
        (2, "truncated", "truncated", 2 * first),
        (3, "truncated", "ok", 4 * first),
    ]
    assert [a["generated_tokens"] for a in record.extra["attempts"]] == [first, 2 * first, needed]
    assert record.usage.generated_tokens == first + 2 * first + needed  # every attempt's tokens are paid for
    assert record.finish_reason == "stop"


def test_retries_bound_the_attempts(voucher_model, schema_path):
    first = -(-(len(voucher_model.answer_token_ids) + 1) // 4)
    record = _extract(voucher_model, schema_path, max_tokens=first, retries=1)
    assert (record.status, record.data) == ("truncated", None)
    assert _summary(record) == [(1, None, "truncated", first), (2, "truncated", "truncated", 2 * first)]
    assert record.usage.generated_tokens == 3 * first


def test_invalid_then_valid(voucher_model, schema_path):
    """Attempt 1 is forced to a schema-breaking answer; attempt 2 (with the errors as feedback) is the model's own."""
    forced = token_ids(voucher_model, INVALID)

    def processors(attempt):
        return (forcing(forced, (IM_END,)),) if attempt == 1 else ()

    record = _extract(voucher_model, schema_path, max_tokens=64, retries=1, extra_processors=processors)
    assert record.status == "ok", record.errors
    assert record.data == ANSWER
    assert _summary(record) == [(1, None, "invalid", 64), (2, "invalid", "ok", 64)]
    assert record.extra["attempts"][0]["errors"] == ["schema"]
    assert record.extra["attempts"][0]["generated_tokens"] == len(forced) + 1
    assert record.usage.generated_tokens == len(forced) + 1 + len(voucher_model.answer_token_ids) + 1


def test_invalid_without_retries_stays_invalid(voucher_model, schema_path):
    forced = token_ids(voucher_model, INVALID)
    record = _extract(
        voucher_model, schema_path, max_tokens=64, extra_processors=lambda n: (forcing(forced, (IM_END,)),)
    )
    assert (record.status, record.data) == ("invalid", {"number": "17", "total": 1})
    assert [(e["code"], e["path"]) for e in record.errors] == [("schema", "/number")]
    assert [w["code"] for w in record.warnings if w["code"] == "constraint_partial"] == ["constraint_partial"]
    assert _summary(record) == [(1, None, "invalid", 64)]


def test_runaway_then_valid_with_tighter_guards(voucher_model, schema_path):
    """Attempt 1 is forced into a string that repeats forever: the loop guard stops it (runaway); attempt 2 runs
    with tighter guards and is the model's own answer."""
    prefix, unit = token_ids(voucher_model, '{"number":"'), token_ids(voucher_model, "ab")

    def processors(attempt):
        return (forcing(prefix, unit),) if attempt == 1 else ()

    record = _extract(voucher_model, schema_path, max_tokens=200, retries=1, extra_processors=processors)
    assert record.status == "ok", record.errors
    assert record.data == ANSWER
    assert _summary(record) == [(1, None, "runaway", 200), (2, "runaway", "ok", 200)]
    assert record.extra["attempts"][0]["finish_reason"] == "guard"
    assert 64 <= record.extra["attempts"][0]["generated_tokens"] < 200
    thresholds = record.extra["guards"]["thresholds"]  # the last attempt's guards
    assert (thresholds["json_grace_tokens"], thresholds["string_loop_min_tokens"]) == (2, 32)
