"""A second, sampled answer for a document (``Settings.passes`` 2), for each field's ``agreement``.

The record's data stays the first answer's (greedy unless the settings sample). The second answer is decoded from
the same prompt as the first answer's last attempt (its feedback included), with the same constraint, logits
processors, guards and ``max_tokens``, at :data:`~extractor.settings.PASS_TEMPERATURE` with the seed
``(settings.seed or 0) +`` :data:`~extractor.settings.PASS_SEED_OFFSET` (so a record is reproducible per seed, and
a sampled first answer is not the second one again); no retries, and no token evidence (only its values are
compared). The runner's prefix cache (the model state after the prompt's shared prefix, everything before the
first image) serves it as it served the first answer; the rest of the prompt, the page images included, is
prefilled again, and every answer token is decoded again: a second pass costs about a second decode.

Each field of the first answer then gets ``agreement`` (``trust.confidence.agreement``): true when the second
answer holds the same value at its pointer, false when it holds another or none. The record's ``passes`` entry
says how the second answer was made and what it cost (its ``usage`` and ``prefill_s`` / ``decode_s``; the
record's own ``usage`` and timings are the sums over both, as retries' are; ``usage.decoding`` stays the first
answer's): ``{"count", "temperature", "seed", "status", "finish_reason", "compared", "agreed", "usage",
"timings", "reason"}`` (``status``: the second answer's own verdict, ``ok`` when it parsed and fits the schema; it
is not reviewed); ``reason`` says why there is no second answer (the first has no data, the model failed, a long
document's windows, data read from embedded XML), and then every field's ``agreement`` is null.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from extractor.errors import ModelError
from extractor.inputs.document import Document
from extractor.pipeline.generate import generate_record
from extractor.pipeline.job import DocumentJob
from extractor.pipeline.retry import Attempt
from extractor.record import Record
from extractor.settings import PASS_SEED_OFFSET, PASS_TEMPERATURE, Settings
from extractor.trust.confidence import agreement


def pass_settings(settings: Settings) -> Settings:
    """The second answer's settings: the first's, sampled at :data:`PASS_TEMPERATURE` with its own seed, without
    token evidence (only its values are compared)."""
    return settings.replace(temperature=PASS_TEMPERATURE, seed=(settings.seed or 0) + PASS_SEED_OFFSET, evidence=False)


def no_second_pass(settings: Settings, reason: str) -> dict:
    """The ``passes`` entry of a record that got no second answer, saying why (its fields' agreement is null)."""
    second = pass_settings(settings)
    return {
        "count": 1,
        "temperature": second.temperature,
        "seed": second.seed,
        "status": None,
        "finish_reason": None,
        "compared": 0,
        "agreed": 0,
        "usage": None,
        "timings": None,
        "reason": reason,
    }


def with_second_pass(
    job: DocumentJob, document: Document, attempt: Attempt, record: Record
) -> tuple[Record, dict[str, bool] | None]:
    """Decode the second answer (see the module docstring) and compare it with ``record``'s data.

    Args:
        job: the document's job.
        document: its pages.
        attempt: the first answer's last attempt (its prompt, budget and guards are the second's).
        record: the first answer's record (after its retries).

    Returns:
        The record with its ``passes`` entry (and the second answer's usage and decode times added), and each
        field's agreement by JSON pointer (None when there is no second answer).
    """
    if record.data is None:
        return _noted(record, no_second_pass(job.settings, "the first answer has no data to compare")), None
    second_job = dataclasses.replace(job, settings=pass_settings(job.settings))
    timings: dict[str, float] = {}
    try:
        second = generate_record(second_job, document, attempt, timings=timings)
    except ModelError as exc:
        return _noted(record, no_second_pass(job.settings, f"the second answer failed: {exc}")), None
    agreed = agreement(record.data, second.data)
    entry = {
        **no_second_pass(job.settings, ""),
        "count": 2,
        "status": getattr(second.status, "value", second.status),  # its answer's own verdict (not reviewed)
        "finish_reason": second.finish_reason,
        "compared": len(agreed),
        "agreed": sum(1 for v in agreed.values() if v),
        "usage": dataclasses.asdict(second.usage),
        "timings": {k: round(timings[k], 4) for k in ("prefill_s", "decode_s") if k in timings},
        "reason": None,
    }
    totals = dict(record.timings)
    for key in ("prefill_s", "decode_s"):
        if key in totals and key in timings:
            totals[key] = round(totals[key] + timings[key], 4)
    totals["total_s"] = round(time.perf_counter() - job.start, 4)
    usage = dataclasses.replace(record.usage + second.usage, decoding=record.usage.decoding)  # the first's decoding
    return dataclasses.replace(_noted(record, entry), usage=usage, timings=totals), agreed


def _noted(record: Record, entry: dict[str, Any]) -> Record:
    return dataclasses.replace(record, extra={**record.extra, "passes": entry})


__all__ = ["no_second_pass", "pass_settings", "with_second_pass"]
