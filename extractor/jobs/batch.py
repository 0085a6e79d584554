"""A batch: every input through one Extractor, each record written to the chosen sinks as soon as it is done, and a
resumed batch that skips what an earlier run already finished.

With a remote runner several documents are in flight at once (``Extractor.concurrency``): each ``--out`` file is
written the moment its document is done, while ``--jsonl`` / ``--csv`` rows and ``on_record`` follow the input order
(a record that finishes early waits for the ones before it). ``--out`` names are given out in input order before
anything runs, so they do not depend on which document finishes first.

Resuming (``--out DIR``, unless ``force``): an input is skipped when ``DIR`` already holds its record with the same
content hash (sha256 of the file), the same settings fingerprint (``Settings.fingerprint``: model, schema, prompt
version and every option that can change the answer) and a final status (``verdict.final``: anything but a
transient error). The earlier record still goes to ``--jsonl`` / ``--csv`` and into the summary, so a resumed batch
gives the same outputs as one that was never interrupted.

Without a register (``Settings.register``), a batch flags the duplicates within itself (``register``, scope
``batch``: the same bytes under another name, the same supplier's number, the same amount within days), in input
order whatever order the documents finish in: the earlier input is the original. Such a record gets ``register`` and
its warnings (its ``--out`` file is written again); every other record stays exactly as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path

from extractor.api import in_input_order
from extractor.jobs.pause import pause_at
from extractor.jobs.sinks import CsvSink, JsonDirSink, JsonlSink
from extractor.pipeline.extract import content_sha256
from extractor.record import Record, record_from_dict
from extractor.register.register import Register
from extractor.register.result import batch_duplicates
from extractor.trust.verdict import final

# Test pause: EXTRACTOR_BATCH_TEST_PAUSE=N:FILE holds the batch after its N-th record is written (``pause.pause_at``).
TEST_PAUSE_ENV = "EXTRACTOR_BATCH_TEST_PAUSE"


@dataclass(frozen=True)
class BatchResult:
    """What a batch did.

    Attributes:
        records: one record per input, in input order (skipped inputs: their earlier record); with ``--split
            auto`` one per invoice of each input.
        skipped: how many inputs were not extracted again because ``--out`` already held their final record.
    """

    records: tuple[Record, ...]
    skipped: int = 0


def run_batch(
    extractor,
    sources: Sequence[str],
    *,
    out: Path | None = None,
    jsonl: Path | None = None,
    csv_path: Path | None = None,
    force: bool = False,
    on_record: Callable[[Record, bool], None] | None = None,
    engine=None,
) -> BatchResult:
    """Extract every source and write each record to the chosen sinks as soon as it is done.

    Args:
        extractor: the loaded ``api.Extractor``.
        sources: input paths, in order.
        out: directory for one JSON record per input (and where a resumed batch finds earlier records).
        jsonl: JSONL file (rewritten by this batch).
        csv_path: CSV file (rewritten by this batch).
        force: extract every input again, even when ``out`` holds its final record.
        on_record: called with each record and whether it was skipped, in input order (progress, logs).
        engine: extracts the inputs elsewhere (``distributed.RayEngine``): ``engine.extract_as_done(todo, paths)``
            writes each input's record to its path itself (``out`` is required) and yields ``(index, record)`` as
            each is done; None: ``extractor`` here.

    Returns:
        The BatchResult.
    """
    json_dir = JsonDirSink(out) if out else None
    split = extractor.settings.split == "auto"
    sinks = _row_sinks(extractor, jsonl=jsonl, csv_path=csv_path, split=split)
    fingerprint = extractor.fingerprint
    done = {} if force or json_dir is None else _finished(sources, json_dir, fingerprint, split=split)
    if json_dir is not None:
        for source in sources:
            json_dir.path_for(source)  # names in input order, whatever finishes first
    todo = [s for s in sources if s not in done]
    records: list[Record] = []
    # no register: the batch's own duplicates, checked in input order (the earlier input is the original)
    own = Register.in_memory() if extractor.register is None else None
    if extractor.register is not None:  # a full register stops the batch (exit 2, naming it): no intake to wait
        extractor.register.db.refuse_when_full()

    fresh = _fresh_records(extractor, engine, todo, json_dir)
    try:
        for source in sources:
            skipped = source in done
            for record in done[source] if skipped else next(fresh):
                if own is not None:
                    record = _batch_checked(own, record, skipped=skipped, json_dir=json_dir)
                for sink in sinks:
                    sink.write(record)
                records.append(record)
                if on_record is not None:
                    on_record(record, skipped)
                pause_at(TEST_PAUSE_ENV, str(len(records)))
    finally:
        fresh.close()  # an error or an early end: documents not started are dropped
        for sink in sinks:
            sink.close()
        if own is not None:
            own.close()
    return BatchResult(records=tuple(records), skipped=len(done))


def _row_sinks(extractor, *, jsonl: Path | None, csv_path: Path | None, split: bool) -> list[JsonlSink | CsvSink]:
    """The sinks that take every record in input order: ``--jsonl`` and ``--csv`` where given."""
    sinks: list[JsonlSink | CsvSink] = []
    if jsonl:
        sinks.append(JsonlSink(jsonl))
    if csv_path:
        sinks.append(CsvSink(csv_path, columns=extractor.schema.top_level_scalars(), parts=split))
    return sinks


def _fresh_records(
    extractor, engine, todo: list[str], json_dir: JsonDirSink | None
) -> Generator[tuple[Record, ...], None, None]:
    """The records of ``todo`` in input order (a tuple per input: every part of a split file); the ``--out`` files
    are written as each document finishes, by ``engine`` itself where there is one (one record per input)."""
    if engine is not None:
        if json_dir is None:
            raise ValueError("an engine writes the records to --out itself: out is required")
        paths = [json_dir.path_for(s) for s in todo]
        return ((record,) for record in in_input_order(engine.extract_as_done(todo, paths)))

    def arrived(group: tuple[Record, ...]) -> None:
        assert json_dir is not None  # given as on_arrival only with one
        for record in group:
            json_dir.write(record)

    return in_input_order(extractor.extract_parts_as_done(todo), on_arrival=arrived if json_dir is not None else None)


def _batch_checked(own: Register, record: Record, *, skipped: bool, json_dir: JsonDirSink | None) -> Record:
    """A record checked against the batch's earlier ones (``own``): with a duplicate finding, the record with its
    ``register`` key and warnings (its ``--out`` file written again); else the record as it was. A resumed record
    is only added (its earlier run checked it)."""
    if skipped or "register" in record.extra:
        own.check_and_add(record, place=record.source)
        return record
    result = batch_duplicates(own.check_and_add(record, place=record.source))
    if result is None:
        return record
    record = result.apply(record)
    if json_dir is not None:
        json_dir.write(record)
    return record


def _finished(
    sources: Sequence[str], json_dir: JsonDirSink, fingerprint: str, *, split: bool = False
) -> dict[str, tuple[Record, ...]]:
    """The sources whose records in the output directory can be reused (same content, settings, final status):
    the one record of the file or, with ``split``, every part of it (1 to n, all there)."""
    found = {}
    for source in sources:
        group = [r for r in [_earlier(json_dir.path_for(source), source)] if r is not None]
        if split and not group:
            parts = [r for r in (_earlier(p, source) for p in json_dir.part_paths(source)) if r is not None]
            of = {r.extra.get("part", {}).get("of") for r in parts}
            indices = sorted(r.extra.get("part", {}).get("index") or 0 for r in parts)
            if len(of) == 1 and indices == list(range(1, len(parts) + 1)) and len(parts) == of.pop():
                group = sorted(parts, key=lambda r: r.extra["part"]["index"])
        if not group or any(r.extra.get("fingerprint") != fingerprint or not final(r) for r in group):
            continue
        digest = content_sha256(source)
        if all(r.sha256 and r.sha256 == digest for r in group):
            found[source] = tuple(group)
    return found


def _earlier(path: Path, source: str) -> Record | None:
    try:
        record = record_from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None  # no record, or a damaged one: extract again
    return record if record.source == source else None


__all__ = ["BatchResult", "run_batch"]
