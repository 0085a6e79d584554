"""The record's typed extras: each ``to_dict()`` is the JSON entry the record has always carried (same keys, same
order, same omissions), ``from_dict()`` reads it back, and a record read from its JSON reads like a fresh one."""

import dataclasses
import json

from extractor.pipeline.retry import Attempt, attempt_report, combine
from extractor.pipeline.split import Parts
from extractor.record import AttemptReport, ModelPage, Part, Record, Usage, WindowReport, record_from_dict
from extractor.runners.guards import GuardSettings


def test_attempt_report_is_the_entry_it_was():
    record = Record(
        source="x",
        status="invalid",
        finish_reason="stop",
        usage=Usage(generated_tokens=7),
        errors=({"code": "schema", "message": "m"},),
    )
    report = attempt_report(Attempt(number=1, max_tokens=64, guards=GuardSettings()), record)
    entry = report.to_dict()
    assert list(entry) == ["number", "reason", "status", "finish_reason", "generated_tokens", "max_tokens", "errors"]
    assert entry == {
        "number": 1,
        "reason": None,
        "status": "invalid",
        "finish_reason": "stop",
        "generated_tokens": 7,
        "max_tokens": 64,
        "errors": ["schema"],
    }
    assert AttemptReport.from_dict(entry) == report
    windowed = AttemptReport.from_dict({**entry, "pages": [4, 7]})
    assert windowed.pages == (4, 7) and list(windowed.to_dict())[-1] == "pages"


def test_window_report_lists_kept_only_once_merged():
    report = WindowReport(
        pages=(1, 4),
        status="ok",
        finish_reason="stop",
        usage=Usage(prompt_tokens=3),
        attempts=2,
        retried=("truncated",),
        lines=5,
    )
    entry = report.to_dict()
    assert list(entry) == ["pages", "status", "finish_reason", "usage", "attempts", "retried", "lines", "errors"]
    assert entry["usage"]["prompt_tokens"] == 3 and entry["pages"] == [1, 4]
    merged = WindowReport.from_dict({**entry, "kept": 4})
    assert merged.kept == 4 and list(merged.to_dict())[-1] == "kept"
    assert WindowReport.from_dict(entry) == report


def test_part_omits_what_it_does_not_have():
    parts = Parts(
        pages=((1, 2), (3, 4, 5)),
        ocr_pages=(4,),
        model_pages=(ModelPage(page=3, new_invoice=True, reason="no_signal"),),
    )
    assert parts.entry(1).to_dict() == {"index": 1, "of": 2, "pages": [1, 2]}
    second = parts.entry(2).to_dict()
    assert second == {
        "index": 2,
        "of": 2,
        "pages": [3, 5],
        "ocr_pages": [4],
        "model_pages": [{"page": 3, "new_invoice": True, "reason": "no_signal"}],
    }
    assert Part.from_dict(second) == parts.entry(2)


def test_a_record_read_back_reads_like_a_fresh_one():
    history = [
        Attempt(number=1, max_tokens=8, guards=GuardSettings()),
        Attempt(number=2, max_tokens=16, guards=GuardSettings(), reason="truncated"),
    ]
    fresh = combine(
        history,
        [
            Record(source="x", status="truncated", finish_reason="length"),
            Record(source="x", status="ok", finish_reason="stop"),
        ],
    )
    fresh = dataclasses.replace(
        fresh, extra={**fresh.extra, "fingerprint": "f", "part": Part(index=1, of=2, pages=(1, 3)).to_dict()}
    )
    back = record_from_dict(json.loads(fresh.to_json()))
    assert back.to_dict() == fresh.to_dict() and back.to_json() == fresh.to_json()
    for record in (fresh, back):
        assert [(a.number, a.reason, a.status) for a in record.attempts] == [
            (1, None, "truncated"),
            (2, "truncated", "ok"),
        ]
        assert record.part == Part(index=1, of=2, pages=(1, 3))
        assert (record.fingerprint, record.windows) == ("f", ())
    assert Record(source="y", status="error").part is None
