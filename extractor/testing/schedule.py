"""The fault schedule run over a :class:`~extractor.testing.faults.Stack`, and what must hold after it (issue 48.6).

:func:`run_schedule` feeds documents and makes the faults happen at their times, then waits for every record and
stops the processes; :func:`violations` lists every way the result breaks the rules (empty: it held):

* every document handed to a channel has exactly one record (a job's, or one file in that channel's output);
* every copy after the first of the same content in one register is flagged a duplicate, exactly once, and no
  first copy is;
* every job's webhook was delivered (its state ``delivered``), each delivery signed for the tenant and carrying the
  job's final record;
* no process died (the killed worker aside) or hung at SIGTERM;
* the register holds one entry per record, with the record's findings.

:func:`fault_table` gives, per fault, the longest arrival-to-record time of the documents in flight across it and
the recovery time (from the fault's end until every document that arrived before it had its record).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from extractor.service.stored_job import ENDED
from extractor.testing.faults import (
    DUPLICATE_CODES,
    TENANT,
    WEBHOOK_SECRET,
    Arrival,
    Outcome,
    Schedule,
    Stack,
    document,
)
from extractor.trust.verdict import OK, REVIEW

CHANNELS = ("service", "watch", "mail")


def _feed(stack: Stack, template: bytes, schedule: Schedule, outcome: Outcome, start: float) -> None:
    """Hand ``documents`` to the channels in turn, one every ``gap`` seconds; every ``duplicate_every``-th twice."""
    for number in range(schedule.documents):
        time.sleep(max(0.0, start + number * schedule.gap - time.monotonic()))
        channel = CHANNELS[number % 3]
        data = document(template, number)
        sends = [channel]
        if schedule.duplicate_every and number % schedule.duplicate_every == schedule.duplicate_every - 1:
            # the service's tenant has a register of its own: a copy for the service goes to it again
            sends.append({"service": "service", "watch": "mail", "mail": "watch"}[channel])
        for where in sends:
            arrival = Arrival(number, where, hashlib.sha256(data).hexdigest(), time.time())
            if where == "service":
                arrival.job = stack.submit(number, data)
            elif where == "watch":
                stack.drop(number, data)
            else:
                stack.mail(number, data)
            outcome.arrivals.append(arrival)


def _faults(stack: Stack, schedule: Schedule, outcome: Outcome, start: float) -> None:
    for at, fault in sorted(schedule.faults):
        time.sleep(max(0.0, start + at - time.monotonic()))
        began = time.time()
        stack.fault(fault)
        outcome.faults.append((fault, began, time.time()))


def _noted(step, *args) -> None:
    """Run ``step``; an exception it raises becomes a violation (a thread's traceback would go unnoticed)."""
    try:
        step(*args)
    except Exception as exc:  # noqa: BLE001 - reported by violations()
        args[-2].errors.append(f"{step.__name__}: {type(exc).__name__}: {exc}")


def _records(folder: Path) -> list[dict]:
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not whole yet: read again at the next look
        found.append({**record, "_path": str(path), "_written": path.stat().st_mtime})
    return found


def _collect(stack: Stack, outcome: Outcome) -> bool:
    """Read every channel's records so far; whether every arrival has one."""
    for arrival in outcome.arrivals:
        if arrival.job and outcome.jobs.get(arrival.job, {}).get("status") not in ENDED:
            try:
                outcome.jobs[arrival.job] = stack.api.get(f"/v1/jobs/{arrival.job}").raise_for_status().json()
            except Exception:  # noqa: BLE001 - the service may be waiting out the database: look again
                return False
    for channel in ("watch", "mail"):
        outcome.files[channel] = _records(stack.out / channel)
    jobs_done = all(job.get("status") in ENDED for job in outcome.jobs.values())
    wanted = Counter(a.channel for a in outcome.arrivals if a.channel != "service")
    return jobs_done and all(len(outcome.files[c]) >= wanted[c] for c in ("watch", "mail"))


def run_schedule(stack: Stack, *, template: bytes, schedule: Schedule) -> Outcome:
    """Feed ``stack`` while ``schedule``'s faults happen, wait for every record, stop it; what came out."""
    from extractor.register import Register

    outcome = Outcome()
    start = time.monotonic()
    threads = [
        threading.Thread(target=_noted, args=(_feed, stack, template, schedule, outcome, start), daemon=True),
        threading.Thread(target=_noted, args=(_faults, stack, schedule, outcome, start), daemon=True),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outcome.fed_for = time.monotonic() - start
    deadline = time.monotonic() + schedule.drain_seconds
    while not _collect(stack, outcome) and time.monotonic() < deadline:
        time.sleep(0.3)
    time.sleep(1.0)  # a record written twice would show now
    _collect(stack, outcome)
    outcome.died = [name for name in stack.procs if name not in stack.alive()]  # a killed worker's successor too
    with stack.receiver.lock:
        outcome.deliveries = list(stack.receiver.deliveries)
    with Register.open(stack.postgres.url, alongside=True) as register:
        outcome.register = {tenant: register.for_tenant(tenant).invoices() for tenant in ("", TENANT)}
    outcome.hung = stack.stop()
    return outcome


# ------------------------------------------------------------------------------------------------------ checks


def _findings(record: dict) -> list[str]:
    return sorted(f["code"] for f in (record.get("register") or {}).get("findings", []))


def _flagged(record: dict) -> bool:
    return any(code in DUPLICATE_CODES for code in _findings(record))


def _per_channel(outcome: Outcome) -> dict[str, list[dict]]:
    """Every record by channel (a job's record carries its job id as ``_job``)."""
    jobs = [{**(j.get("record") or {}), "_job": i, "_status": j.get("status")} for i, j in outcome.jobs.items()]
    return {"service": jobs, "watch": outcome.files.get("watch", []), "mail": outcome.files.get("mail", [])}


def violations(outcome: Outcome) -> list[str]:
    """Every rule the outcome breaks (module docstring), one line each; empty when all held."""
    broken = list(outcome.errors)
    broken += [f"{name} died" for name in outcome.died] + [f"{name} hung at SIGTERM" for name in outcome.hung]
    records = _per_channel(outcome)
    broken += _one_record_each(outcome, records)
    broken += _duplicates_once(records)
    broken += _webhooks(outcome)
    broken += _register_equal(outcome, records)
    return broken


def _one_record_each(outcome: Outcome, records: dict[str, list[dict]]) -> list[str]:
    broken = []
    for job_id, record in ((r["_job"], r) for r in records["service"]):
        if record["_status"] != "done" or record.get("status") not in (OK, REVIEW):
            broken.append(f"job {job_id}: {record['_status']}, record status {record.get('status')}")
    for channel in ("watch", "mail"):
        sent = Counter(a.sha256 for a in outcome.arrivals if a.channel == channel)
        got = Counter(str(r.get("sha256")) for r in records[channel])
        if sent != got:
            broken.append(f"{channel}: documents sent {dict(sent - got)} lack a record, {dict(got - sent)} extra")
        broken += [f"{r['_path']}: status {r.get('status')}" for r in records[channel] if r.get("status") == "error"]
    return broken


def _duplicates_once(records: dict[str, list[dict]]) -> list[str]:
    """Per register (the service's tenant; watch and mail share the other), each content's copies after the
    first are flagged, the first is not."""
    broken = []
    for tenant, group in (("service", records["service"]), ("watch+mail", records["watch"] + records["mail"])):
        by_sha: dict[str, list[dict]] = {}
        for record in group:
            by_sha.setdefault(record.get("sha256", "?"), []).append(record)
        for sha, copies in by_sha.items():
            flagged = sum(_flagged(r) for r in copies)
            if flagged != len(copies) - 1:
                broken.append(f"{tenant}: {len(copies)} copies of {sha[:12]} but {flagged} flagged a duplicate")
    return broken


def _webhooks(outcome: Outcome) -> list[str]:
    broken = []
    by_job: dict[str, list[dict]] = {}
    for delivery in outcome.deliveries:
        body = json.loads(delivery["body"])
        headers = delivery["headers"]
        stamp, tenant, number = (headers[f"X-Extractor-{n}"] for n in ("Timestamp", "Tenant", "Delivery"))
        signed = f"{stamp}.{tenant}.{number}.".encode() + delivery["body"]
        expected = "v2=" + hmac.new(WEBHOOK_SECRET.encode(), signed, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(headers["X-Extractor-Signature"], expected) or tenant != TENANT:
            broken.append(f"delivery {number}: not signed for {TENANT}")
        by_job.setdefault(body["id"], []).append(body)
    for job_id, job in outcome.jobs.items():
        bodies = by_job.get(job_id, [])
        state = (job.get("callback") or {}).get("state")
        if not bodies or state != "delivered":
            broken.append(f"job {job_id}: webhook {state}, {len(bodies)} delivered")
        elif any(b != {"id": job_id, "status": job["status"], "record": job["record"]} for b in bodies):
            broken.append(f"job {job_id}: a delivery is not the job's final record")
    return broken


def _register_equal(outcome: Outcome, records: dict[str, list[dict]]) -> list[str]:
    """One register entry per record, with its findings (a job's entry is placed at its job id: its "job")."""
    broken = []
    mine = Counter((r.get("source"), tuple(_findings(r))) for r in records["watch"] + records["mail"])
    kept = Counter((e["source"], tuple(sorted(e["findings"]))) for e in outcome.register.get("", []))
    if mine != kept:
        broken.append(f"watch+mail register: records only {dict(mine - kept)}, entries only {dict(kept - mine)}")
    jobs = Counter((r["_job"], tuple(_findings(r))) for r in records["service"])
    entries = Counter((e.get("job"), tuple(sorted(e["findings"]))) for e in outcome.register.get(TENANT, []))
    if jobs != entries:
        broken.append(f"service register: records only {dict(jobs - entries)}, entries only {dict(entries - jobs)}")
    return broken


# ------------------------------------------------------------------------------------------------------ timing


def _recorded_at(outcome: Outcome) -> list[tuple[float, float]]:
    """(arrival, record written) wall times of every document that has a record."""
    written: dict[tuple[str, str], float] = {}
    for channel in ("watch", "mail"):
        for record in outcome.files.get(channel, []):
            written[(channel, record.get("sha256", ""))] = record["_written"]
    pairs = []
    for arrival in outcome.arrivals:
        if arrival.job:
            finished = outcome.jobs.get(arrival.job, {}).get("finished")
            if finished:
                pairs.append((arrival.at, datetime.fromisoformat(finished.replace("Z", "+00:00")).timestamp()))
        elif (arrival.channel, arrival.sha256) in written:
            pairs.append((arrival.at, written[(arrival.channel, arrival.sha256)]))
    return pairs


def throughput(outcome: Outcome) -> float:
    """Documents per minute: records over the time from the first arrival to the last record."""
    pairs = _recorded_at(outcome)
    if not pairs:
        return 0.0
    span = max(done for _, done in pairs) - min(at for at, _ in pairs)
    return 60.0 * len(pairs) / span if span > 0 else 0.0


def fault_table(outcome: Outcome) -> list[dict]:
    """Per fault: its name, the longest arrival-to-record seconds of the documents in flight across it (arrived
    before it ended, recorded after it began), and the recovery seconds (from its end until every document that
    arrived before it had its record)."""
    pairs = _recorded_at(outcome)
    rows = []
    for fault, began, ended in outcome.faults:
        across = [done - at for at, done in pairs if at <= ended and done >= began]
        before = [done for at, done in pairs if at <= ended]
        rows.append(
            {
                "fault": fault,
                "longest_s": round(max(across, default=0.0), 2),
                "recovery_s": round(max(0.0, max(before, default=ended) - ended), 2),
            }
        )
    return rows


__all__ = ["CHANNELS", "fault_table", "run_schedule", "throughput", "violations"]
