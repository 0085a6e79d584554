"""The service's answers are the contract's models: a stored job as ``GET /v1/jobs/{id}`` shows it (times in ISO
8601 UTC with milliseconds, members that do not apply left out, passwords and URL queries never shown), and the
contract's statuses are the store's."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from extractor.service import contract
from extractor.service.config import open_store
from extractor.service.routes.answers import job_answer, respond
from extractor.service.stored_job import STATUSES, StoredJob

T0 = 1765000000.0  # 2025-12-06T05:46:40Z
DONE = StoredJob(
    seq=2,
    id="b",
    tenant="alice",
    status="done",
    created=T0,
    started=T0 + 1.5,
    finished=T0 + 2.9996,  # shown to the millisecond below it
    filename="x.pdf",
    sha256="s",
    fingerprint="f",
    options={"schema": {"type": "object"}, "split": "auto", "einvoice": ["cii"]},
    records=[{"a": 1.5, "b": None}, {"c": [1, "é"]}],
    runs=2,
    callback_url="https://receiver.example/hook?token=secret",
    callback_state="failed",
    deliveries=[
        {"attempt": 1, "at": T0 + 3.25, "status_code": 500, "ok": False},
        {"attempt": 2, "at": T0 + 4, "error": "refused", "ok": False},
    ],
    answered_from="a",
)
TIMES = {"created": "2025-12-06T05:46:40.000Z", "started": "2025-12-06T05:46:41.500Z"}
DONE_SHOWN = {
    "id": "b",
    "status": "done",
    **TIMES,
    "finished": "2025-12-06T05:46:42.999Z",
    "filename": "x.pdf",
    "sha256": "s",
    "fingerprint": "f",
    "options": {"schema": {"type": "object"}, "split": "auto", "einvoice": ["cii"]},
    "runs": 2,
    "answered_from": "a",
    "callback": {
        "url": "https://receiver.example/hook",
        "state": "failed",
        "deliveries": [
            {"attempt": 1, "at": "2025-12-06T05:46:43.250Z", "status_code": 500, "ok": False},
            {"attempt": 2, "at": "2025-12-06T05:46:44.000Z", "error": "refused", "ok": False},
        ],
    },
}
FAILED = StoredJob(seq=3, id="c", tenant="alice", status="failed", created=T0, error="boom", records=None)
BARE = {"started": None, "finished": None, "filename": "", "sha256": "", "fingerprint": "", "options": {}, "runs": 0}


@pytest.mark.parametrize(
    ("job", "records", "shown"),
    [
        (DONE, True, {**DONE_SHOWN, "record": {"a": 1.5, "b": None}, "records": DONE.records}),
        (DONE, False, DONE_SHOWN),  # a page of GET /v1/jobs: no records
        (
            StoredJob(seq=4, id="d", tenant="alice", status="done", created=T0, records=[{"x": 1}]),
            True,
            {"id": "d", "status": "done", "created": TIMES["created"], **BARE, "record": {"x": 1}},
        ),
        (FAILED, True, {"id": "c", "status": "failed", "created": TIMES["created"], **BARE, "error": "boom"}),
        (  # a repeat waiting for its check holds the records it is answered from: never shown before it is done
            StoredJob(seq=5, id="e", tenant="alice", status="running", created=T0, records=[{"x": 1}]),
            True,
            {"id": "e", "status": "running", "created": TIMES["created"], **BARE},
        ),
    ],
)
def test_an_ended_or_running_job_is_answered_as_the_contract_shows_it(job, records, shown):
    answer = job_answer(job, store=None, records=records)  # only a queued job asks the store (its position)
    assert json.loads(respond(answer).body) == shown


def test_a_queued_job_shows_its_place_its_url_without_query_and_no_password(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    for name in ("first.pdf", "second.pdf"):
        job, _ = store.submit(
            tenant="alice",
            filename=name,
            data=b"",
            sha256="",
            fingerprint="f",
            options={"pages": "1-2", "password": ["secret"]},
            source_url=f"https://docs.example/{name}?sig=secret",
        )
    shown = json.loads(respond(job_answer(job, store=store)).body)
    assert {key: shown[key] for key in ("status", "options", "url", "queue_position", "started")} == {
        "status": "queued",
        "options": {"pages": "1-2"},
        "url": "https://docs.example/second.pdf",
        "queue_position": 2,
        "started": None,
    }
    assert "record" not in shown and "secret" not in json.dumps(shown)


def test_the_contract_names_the_stores_statuses():
    assert get_args(contract.Job.model_fields["status"].annotation) == STATUSES
