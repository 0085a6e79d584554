"""The watcher's SQLite ledger: states, attempts, names seen, the report, crash recovery."""

from __future__ import annotations

import sqlite3

import pytest

from extractor.errors import UsageError
from extractor.jobs.ledger import Ledger, parse_timestamp, timestamp

A = "a" * 64
B = "b" * 64


@pytest.fixture
def book(tmp_path):
    with Ledger(tmp_path / "sub" / "ledger.sqlite") as ledger:
        yield ledger


def _state(book, sha):
    entry = book.get(sha)
    return {
        "state": entry.state,
        "attempts": entry.attempts,
        "result_path": entry.result_path,
        "status": entry.status,
        "error_code": entry.error_code,
        "error": entry.error,
        "sources": list(entry.sources),
    }


def test_new_ledger_is_wal_and_empty(book):
    mode = sqlite3.connect(book.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert book.counts() == {"queued": 0, "running": 0, "done": 0, "failed": 0}
    assert book.get(A) is None


def test_see_records_names_once_in_first_seen_order(book):
    book.see(A, name="b.pdf")
    book.see(A, name="a copy.pdf")
    book.see(A, name="b.pdf")
    assert _state(book, A) == {
        "state": "queued",
        "attempts": 0,
        "result_path": None,
        "status": None,
        "error_code": None,
        "error": None,
        "sources": ["b.pdf", "a copy.pdf"],
    }


def test_claim_counts_attempts_and_keeps_the_first_result_path(book):
    book.see(A, name="x.pdf")
    book.claim(A, result_path="/out/x-1.json")
    book.release(A)  # an abandoned attempt is not counted
    assert _state(book, A)["attempts"] == 0
    book.claim(A, result_path="/out/x-1.json")
    book.retry_later(A, error_code="model_error", error="boom", at=0)
    book.claim(A, result_path="/out/other-name.json")
    book.finish(A, state="done", status="ok")
    assert _state(book, A) == {
        "state": "done",
        "attempts": 2,
        "result_path": "/out/x-1.json",
        "status": "ok",
        "error_code": None,
        "error": None,
        "sources": ["x.pdf"],
    }


def test_recover_requeues_running_rows_only(book):
    for sha in (A, B):
        book.see(sha, name=f"{sha[0]}.pdf")
        book.claim(sha, result_path=f"/out/{sha[0]}.json")
    book.finish(B, state="failed", status="error", error_code="corrupt", error="b.pdf: damaged")
    assert book.recover() == 1
    assert book.counts() == {"queued": 1, "running": 0, "done": 0, "failed": 1}
    assert book.recover() == 0


def test_report_lists_counts_and_recent_failures(book):
    book.see(A, name="bad.pdf")
    book.claim(A, result_path="/out/bad.json")
    book.finish(A, state="failed", status="error", error_code="encrypted", error="bad.pdf: encrypted")
    book.see(B, name="good.pdf")
    entry = book.get(A)
    assert book.report() == {
        "ledger": str(book.path),
        "counts": {"queued": 1, "running": 0, "done": 0, "failed": 1},
        "documents": 2,
        "sources": 2,
        "failures": [
            {
                "sha256": A,
                "state": "failed",
                "attempts": 1,
                "result_path": "/out/bad.json",
                "status": "error",
                "error_code": "encrypted",
                "error": "bad.pdf: encrypted",
                "next_attempt_at": None,
                "created_at": entry.created_at,
                "updated_at": entry.updated_at,
                "sources": ["bad.pdf"],
            }
        ],
    }
    assert book.report(recent=0)["failures"] == []


@pytest.mark.parametrize("state", ["queued", "running", "bogus"])
def test_finish_refuses_non_terminal_states(book, state):
    book.see(A, name="a.pdf")
    with pytest.raises(ValueError):
        book.finish(A, state=state, status="ok")


def test_rows_survive_reopening(tmp_path):
    path = tmp_path / "ledger.sqlite"
    with Ledger(path) as first:
        first.see(A, name="a.pdf")
        first.claim(A, result_path="/out/a.json")
    with Ledger(path, create=False) as second:
        assert second.get(A).state == "running"


@pytest.mark.parametrize("content", [None, b"not a database at all, just text" * 100])
def test_opening_a_missing_or_foreign_file_is_a_usage_error(tmp_path, content):
    path = tmp_path / "ledger.sqlite"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UsageError):
        Ledger(path, create=False)


@pytest.mark.parametrize(
    "seconds, text", [(0.0, "1970-01-01T00:00:00.000Z"), (1700000000.5, "2023-11-14T22:13:20.500Z")]
)
def test_timestamps_round_trip(seconds, text):
    assert timestamp(seconds) == text
    assert parse_timestamp(text) == seconds
