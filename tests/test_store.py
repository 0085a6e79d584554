"""The job store's promises, on both databases (SQLite in a temp dir; PostgreSQL from ``EXTRACTOR_TEST_POSTGRES``,
which ``.ci/run`` starts with Debian's package): a claim holds a job for its lease, a passed lease lets another claim
take it, only the claim that holds a job may end it (so a job yields exactly one set of records), concurrent claims
never take one job twice, a repeat is answered from the stored record, webhooks are due once a job ends.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time

import pytest
from helpers import in_ci

from extractor.service.config import open_store
from extractor.service.store import Store

POSTGRES_ENV = "EXTRACTOR_TEST_POSTGRES"  # an admin URL: each test gets a database of its own


def postgres_admin_url() -> str:
    """The test server's URL; skips (fails under ``CI=true``) without one."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        message = f"no PostgreSQL for the tests ({POSTGRES_ENV} is not set)"
        if in_ci():
            pytest.fail(message + ": .ci/run starts Debian's postgresql and sets it")
        pytest.skip(message)
    return url


def fresh_database(admin_url: str, name: str) -> str:
    """Create (again) database ``name`` on the test server and return its URL."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path) -> Store:
    if request.param == "sqlite":
        return open_store(f"sqlite:///{tmp_path / 'jobs.sqlite'}")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return open_store(fresh_database(postgres_admin_url(), f"extractor_store_{worker}"))


def submit(store: Store, n: int, **options):
    data = f"document {n}".encode()
    job, created = store.submit(
        tenant=options.pop("tenant", "acme"),
        filename=f"doc{n}.pdf",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        fingerprint="settings-1",
        options={"password": ["secret"]},
        **options,
    )
    assert created
    return job


def test_a_passed_lease_lets_another_claim_take_the_job_and_only_the_holder_ends_it(store):
    job = submit(store, 1)
    first = store.claim(lease=0.3)
    assert first is not None and first.id == job.id and first.runs == 1 and store.claim(lease=0.3) is None
    assert store.renew(first, lease=0.3)
    time.sleep(0.45)  # the first worker died: no renewal
    second = store.claim(lease=30)
    assert second is not None and second.id == job.id and second.runs == 2 and second.claim != first.claim
    assert not store.renew(first, lease=30)  # the first claim no longer holds it
    assert not store.finish(first, records=[{"from": "first"}])
    assert store.finish(second, records=[{"from": "second"}])
    assert not store.finish(second, records=[{"from": "again"}])  # ended: nothing more is written
    ended = store.get(job.id)
    assert ended is not None and ended.status == "done" and ended.records == [{"from": "second"}]
    assert ended.options == {} and store.upload(job.id) is None  # the password and the bytes are gone
    assert ended.callback_state is None and store.due_delivery(hold=5) is None


def test_concurrent_claims_never_take_one_job_twice(store):
    jobs = {submit(store, n).id for n in range(24)}
    taken: list[str] = []
    lock = threading.Lock()

    def drain() -> None:
        while (job := store.claim(lease=60)) is not None:
            with lock:
                taken.append(job.id)
            assert store.finish(job, records=[{"n": job.filename}])

    threads = [threading.Thread(target=drain) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken) == sorted(jobs)
    assert store.stats(window=600).jobs == {"queued": 0, "running": 0, "done": 24, "failed": 0, "cancelled": 0}


def test_a_repeat_is_answered_from_the_stored_record_of_the_same_tenant(store):
    job = submit(store, 7)
    claimed = store.claim(lease=60)
    assert claimed is not None and store.finish(claimed, records=[{"answer": 7}])
    again = submit(store, 7, reuse=True)
    assert (again.status, again.records, again.answered_from) == ("done", [{"answer": 7}], job.id)
    assert again.options == {}  # its password is not kept either
    other = submit(store, 7, reuse=True, tenant="globex")  # never another tenant's record
    assert (other.status, other.answered_from) == ("queued", None)
    assert submit(store, 7).status == "queued"  # reuse off


def test_with_a_register_a_repeat_is_queued_with_the_records_it_is_answered_from_for_a_worker_to_end(store):
    """``register``: a repeat of a done job, and the jobs that joined one that ends, are queued holding its records
    (no upload, no webhook due) and claimed like any job; a worker's claim of one gives those records, and only its
    own ``finish`` ends it. A failed job's joiners fail with it; a cancelled repeat drops the records."""
    job = submit(store, 9, reuse=True, register=True)
    joined = submit(store, 9, reuse=True, register=True, callback_url="https://hooks.example/j")
    assert (joined.status, joined.answered_from, joined.records) == ("queued", job.id, None)
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == job.id and store.claim(lease=60) is None  # the joiner waits
    assert store.finish(claimed, records=[{"answer": 9}], register=True)
    waiting = store.get(joined.id)
    assert waiting is not None and (waiting.status, waiting.records, waiting.started) == (
        "queued",
        [{"answer": 9}],
        None,
    )
    assert waiting.callback_state is None and store.upload(joined.id) is None and store.due_delivery(hold=5) is None
    repeat = submit(store, 9, reuse=True, register=True, callback_url="https://hooks.example/r")
    # answered from the latest done job (the waiting joiner is none): queued at once, holding its records
    assert (repeat.status, repeat.answered_from, repeat.records) == ("queued", job.id, [{"answer": 9}])
    assert store.upload(repeat.id) is None and store.position(repeat) == 2
    again = store.claim(lease=60)
    assert again is not None and (again.id, again.answered_from, again.records) == (joined.id, job.id, [{"answer": 9}])
    assert store.finish(again, records=[{"answer": 9, "registered": joined.id}], register=True)
    ended = store.get(joined.id)
    assert ended is not None and (ended.status, ended.records) == ("done", [{"answer": 9, "registered": joined.id}])
    assert (ended.options, ended.callback_state) == ({}, "pending")
    assert store.cancel(repeat.id, tenant="acme") == "cancelled"
    cancelled = store.get(repeat.id)
    assert cancelled is not None and (cancelled.status, cancelled.records) == ("cancelled", None)
    assert store.claim(lease=60) is None

    failing = submit(store, 10, reuse=True, register=True)
    follower = submit(store, 10, reuse=True, register=True)
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == failing.id
    assert store.finish(claimed, error="RuntimeError: the extraction failed", register=True)
    failed = store.get(follower.id)
    assert failed is not None and (failed.status, failed.records) == ("failed", None)
    assert store.claim(lease=60) is None


def test_a_webhook_is_due_when_the_job_ends_and_its_attempts_are_recorded(store):
    job = submit(store, 3, callback_url="https://hooks.example/x")
    assert job.callback_state is None and store.due_delivery(hold=5) is None  # not before it ends
    claimed = store.claim(lease=60)
    assert claimed is not None and store.finish(claimed, records=[{"n": 3}])
    due = store.due_delivery(hold=5)
    assert due is not None and due.id == job.id and due.records == [{"n": 3}]
    assert store.due_delivery(hold=5) is None  # held by this deliverer
    store.delivered(due, attempt={"attempt": 1, "ok": False, "status_code": 500}, state="pending", retry_in=0.0)
    again = store.due_delivery(hold=5)
    assert again is not None and again.deliveries == [{"attempt": 1, "ok": False, "status_code": 500}]
    store.delivered(again, attempt={"attempt": 2, "ok": True, "status_code": 204}, state="delivered", retry_in=None)
    final = store.get(job.id)
    assert final is not None and final.callback_state == "delivered" and len(final.deliveries) == 2
    assert store.sweep(retention=0.0) == 1 and store.get(job.id) is None


def test_a_pending_webhook_outlives_the_retention_and_a_cancel_makes_it_due(store):
    job = submit(store, 4, callback_url="https://hooks.example/y")
    assert store.cancel(job.id, tenant="other") is None
    assert store.cancel(job.id, tenant="acme") == "cancelled"
    assert store.sweep(retention=0.0) == 0  # its webhook is still due
    due = store.due_delivery(hold=5)
    assert due is not None and due.status == "cancelled" and due.records is None
    store.delivered(due, attempt={"attempt": 1, "ok": True, "status_code": 200}, state="delivered", retry_in=None)
    assert store.sweep(retention=0.0) == 1


def test_one_idempotency_key_submitted_at_once_from_many_threads_is_one_job(store):
    barrier = threading.Barrier(6)
    answers: list = []

    def submit_same() -> None:
        barrier.wait()
        answers.append(
            store.submit(
                tenant="acme",
                filename="a.pdf",
                data=b"a",
                sha256="a",
                fingerprint="f",
                options={},
                idempotency_key="order-1",
            )
        )

    threads = [threading.Thread(target=submit_same) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({job.id for job, _ in answers}) == 1 and sorted(created for _, created in answers) == [False] * 5 + [
        True
    ]


def test_a_waiting_worker_wakes_when_a_job_is_queued(store):
    """Another process's submission wakes a PostgreSQL worker (NOTIFY) long before its timeout; SQLite's worker
    wakes on its own process's event (other processes' jobs are found at its next look)."""
    wake = threading.Event()
    timer = threading.Timer(0.3, (lambda: submit(store, 9)) if store.shared else wake.set)
    timer.start()
    start = time.monotonic()
    store.wait_for_jobs(timeout=60, wake=wake)
    timer.join()
    assert time.monotonic() - start < 30  # woken, not timed out


def test_equal_submissions_at_once_join_one_job_that_runs_once(store):
    """Six threads submit the same bytes and settings at once: one job is queued, five join it (``answered_from``)
    and are never claimed; claiming it shows them running, ending it ends them with its records."""
    barrier = threading.Barrier(6)
    answers: list = []

    def submit_same() -> None:
        barrier.wait()
        answers.append(submit(store, 5, reuse=True, callback_url="https://hooks.example/j"))

    threads = [threading.Thread(target=submit_same) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (first,) = [job for job in answers if job.answered_from is None]
    assert sorted(job.answered_from or "" for job in answers) == [""] + [first.id] * 5
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == first.id and store.claim(lease=60) is None  # joined: never claimed
    assert {store.get(job.id).status for job in answers} == {"running"}  # type: ignore[union-attr]
    assert store.finish(claimed, records=[{"answer": 5}])
    ended = [store.get(job.id) for job in answers]
    assert [(j.status, j.records, j.options, j.callback_state) for j in ended if j] == [
        ("done", [{"answer": 5}], {}, "pending")
    ] * 6
    assert store.stats(window=600).jobs["done"] == 6


def test_a_job_joined_to_a_cancelled_one_runs_itself(store):
    first = submit(store, 6, reuse=True)
    joined = submit(store, 6, reuse=True)
    assert joined.answered_from == first.id and joined.status == "queued"
    assert store.cancel(first.id, tenant="acme") == "cancelled"
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == joined.id and claimed.answered_from is None
    assert store.upload(joined.id) == b"document 6"  # it kept its own bytes


def test_a_failed_webhook_is_due_again_on_request_with_fresh_tries(store):
    job = submit(store, 8, callback_url="https://hooks.example/r")
    claimed = store.claim(lease=60)
    assert claimed is not None and store.finish(claimed, records=[{"n": 8}])
    assert store.retry_callback(job.id, tenant="acme") == (store.get(job.id), False)  # pending: not failed
    due = store.due_delivery(hold=5)
    assert due is not None
    store.delivered(due, attempt={"attempt": 1, "ok": False, "status_code": 500}, state="failed", retry_in=None)
    assert store.retry_callback(job.id, tenant="globex") == (None, False)
    again, retried = store.retry_callback(job.id, tenant="acme")
    assert retried and again is not None and (again.callback_state, again.callback_from) == ("pending", 1)
    assert (store.due_delivery(hold=5) or again).id == job.id


def test_a_jobs_passwords_are_gone_from_the_store_once_it_ends_however_it_ends(store):
    """Issue 50: a cancelled job (queued, or running: its result then discarded) kept its PDF password in the
    store until the retention; every way a job ends drops it, as the docs say (``Job.options`` read back raw)."""
    ended = []
    queued = submit(store, 11)
    assert store.get(queued.id).options == {"password": ["secret"]}  # kept while it may still run
    assert store.cancel(queued.id, tenant="acme") == "cancelled"
    ended.append(queued.id)
    running = submit(store, 12)
    claimed = store.claim(lease=60)
    assert claimed is not None and claimed.id == running.id
    assert store.cancel(running.id, tenant="acme") == "cancelled" and not store.finish(claimed, records=[{}])
    ended.append(running.id)
    for n, outcome in ((13, {"records": [{"n": 13}]}), (14, {"error": "RuntimeError: the extraction failed"})):
        job = submit(store, n)
        claimed = store.claim(lease=60)
        assert claimed is not None and claimed.id == job.id and store.finish(claimed, **outcome)
        ended.append(job.id)
    for job_id in ended:
        job = store.get(job_id)
        assert job is not None and job.status in ("cancelled", "done", "failed") and job.options == {}, job


@pytest.mark.parametrize("share", [1, 3])
def test_one_tenants_hundred_jobs_do_not_starve_anothers_single_job(store, share):
    """Tenant ``bulk`` queues 100 jobs, then ``single`` one: once ``bulk`` runs ``share`` jobs, ``single``'s job is
    the next one taken (before: the 101st); alone again, ``bulk`` gets every further worker."""
    bulk = [submit(store, n, tenant="bulk").id for n in range(100)]
    single = submit(store, 1000, tenant="single").id
    taken = [store.claim(lease=60, share=share) for _ in range(share + 3)]
    assert [job.id for job in taken if job is not None] == [*bulk[:share], single, *bulk[share : share + 2]]
    for job in taken[:share]:  # bulk's running jobs end: its next job is taken again, in order
        assert job is not None and store.finish(job, records=[])
    again = store.claim(lease=60, share=share)
    assert again is not None and again.id == bulk[share + 2]
