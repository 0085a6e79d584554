"""Past one machine: a batch on a Ray cluster (``extract FILES --out DIR --endpoint URL --engine ray``).

The inputs become a Ray Data dataset, one input per block (so small files spread over the cluster), and one map
stage of CPU actors, each holding one ``api.Extractor``: its runner calls the ``--endpoint`` servers (vLLM, SGLang,
mlx_vlm.server: the remote runner one machine uses, with its stop ids, schema and stream guards) and its render
pool keeps native crashes in its own child processes. The in-process MLX model stays on one machine:
``--engine ray`` needs ``--endpoint``.

Exactly once, resumable. Ray retries a task whose actor died (at least once). The driver decides every input's
record name before anything runs (the batch's naming, ``batch.run_batch``); an actor writes each record atomically
to that fixed name, so a retry rewrites it and never adds a second one. The resume rule is the batch's own (sha256 +
settings fingerprint + final status), not Ray Data's checkpoints.

One bad file is one record. Whatever is raised while one input is extracted becomes its ``error`` record inside the
stage (an exception escaping a Ray Data UDF aborts the dataset). An input whose actor dies while on it (a crash in
native code outside the render workers, the memory killer, kill -9) is tried again on the restarted actor; every
start is counted in ``DIR/.ray-attempts/``, and once an input has killed its actor ``RaySettings.attempts`` times the
next try writes its ``crashed`` record instead of extracting it, so a poison input ends as one record and the job
finishes. Actor restarts and task retries are bounded by that count (Ray Data's default is forever).

Shared storage: the inputs, DIR and a ``--model`` directory at the same paths on every node (the actors work in the
driver's working directory, so relative paths name the same files there).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import shutil
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from extractor.errors import ExtractorError, UsageError
from extractor.jobs.sinks import write_atomic, write_beside, write_record
from extractor.record import Record, record_from_dict

if TYPE_CHECKING:
    from extractor.jobs.batch import BatchResult
    from extractor.settings import Settings

ENGINES = ("local", "ray")
RAY_MISSING = 'the Ray engine needs Ray, which is not installed: pip install "extractor-vlm[ray]"'
ATTEMPTS_DIR = ".ray-attempts"  # in --out: how many times each input's extraction was started
# The actors get the driver's EXTRACTOR_* variables (the project's own, the test pauses included).
FORWARDED_PREFIX = "EXTRACTOR_"
# Test faults for the kill tests, matched on the input's file name: EXIT=NAME[:FILE] makes the actor starting NAME die
# by os._exit (every time; only once when FILE is given, created first); PAUSE=NAME:FILE makes it write its pid to
# FILE and hang (once). Unset, they cost two environment lookups per input.
TEST_EXIT_ENV = "EXTRACTOR_RAY_TEST_EXIT"
TEST_PAUSE_ENV = "EXTRACTOR_RAY_TEST_PAUSE"
# A new local cluster's raylet gives its Python agent 15 s to start (not configurable in 2.60): on busy cores it can
# take longer, and the start fails. It is tried this many times.
LOCAL_STARTS = 3


@dataclass(frozen=True)
class RaySettings:
    """How a batch runs on Ray (what is extracted stays in ``settings.Settings``).

    Attributes:
        address: the cluster to join (``host:port`` of its head, ``ray://host:10001`` or ``auto``); None: a local
            cluster of this machine's cores, started for this batch and stopped after it.
        actors: extraction actors, each one document at a time (None: one per CPU of the cluster, at most one per
            input).
        actor_cpus: CPUs reserved per actor, at most: half a CPU, so the driver and Ray Data keep room (two 1-CPU
            actors on a 2-CPU cluster hang: ray #44687); less when the actors would otherwise take every CPU. The
            actor's OCR threads and render workers are matched to it (one each below 2 CPUs).
        attempts: how many times an input may kill its actor before it is recorded ``crashed``.
        object_store_mb: the local cluster's object store (only records travel through it, never page images:
            rendering and the model calls are one stage).
        ship_package: send this ``extractor`` package to the workers (Ray ``runtime_env`` ``py_modules``) instead
            of using the copy installed on every node (its dependencies must be installed there either way).
    """

    address: str | None = None
    actors: int | None = None
    actor_cpus: float = 0.5
    attempts: int = 2
    object_store_mb: int = 128
    ship_package: bool = False

    def __post_init__(self) -> None:
        if self.actors is not None and self.actors < 1:
            raise UsageError(f"actors must be at least 1, got {self.actors}")
        if not 0 < self.actor_cpus or self.attempts < 1:
            raise UsageError("actor_cpus must be positive and attempts at least 1")


def import_ray():
    """Import Ray (lazily: only the Ray engine needs it).

    Raises:
        UsageError: Ray is not installed (the message names ``pip install "extractor-vlm[ray]"``).
    """
    try:
        import ray
        import ray.data  # noqa: F401 - the extra is ray[data]: Ray without Data is not enough
    except ImportError:
        raise UsageError(RAY_MISSING) from None
    return ray


def actor_cpus(cluster_cpus: float, actors: int, *, most: float) -> float:
    """CPUs reserved per actor: ``most``, or less so that one CPU of the cluster stays free for the driver and Ray
    Data's own tasks (half the cluster on a one-CPU machine)."""
    room = max(cluster_cpus - 1.0, cluster_cpus / 2)
    return math.floor(min(most, room / actors) * 1000) / 1000 or 0.001


class RayEngine:
    """The batch's inputs extracted on a Ray cluster (``batch.run_batch(..., engine=RayEngine(...))``).

    A context manager: entering joins the cluster (or starts a local one), leaving disconnects (and stops a local
    one). ``extract_as_done`` runs one dataset per call.
    """

    def __init__(self, settings: Settings, options: RaySettings = RaySettings()) -> None:
        """Check that the batch can run on Ray and import it (nothing starts yet).

        Args:
            settings: the extraction's settings (``endpoint`` is required).
            options: the Ray side: address, actors, attempts.

        Raises:
            UsageError: no endpoints (the in-process model stays on one machine), or Ray is not installed.
        """
        if not settings.endpoint:
            raise UsageError(
                "--engine ray needs --endpoint URL: the actors call inference servers (vLLM, SGLang, "
                "mlx_vlm.server); the in-process MLX model runs on one machine only"
            )
        self.settings = settings
        self.options = options
        self._ray = import_ray()
        self._started = False

    def __enter__(self) -> RayEngine:
        ray = self._ray
        if not ray.is_initialized():  # else the caller's own ray.init: theirs to end
            self._start()
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # the driver shows its own progress, as the local batch does
        context.print_on_execution_start = False
        logging.getLogger("ray.data").setLevel(logging.WARNING)
        logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)  # "progress bars disabled": yes
        return self

    def _start(self) -> None:
        """Join the cluster at ``options.address``, or start a local one of this machine's cores."""
        ray = self._ray
        kwargs = dict(logging_level=logging.WARNING, log_to_driver=False, runtime_env=self._runtime_env())
        if self.options.address is None:
            kwargs.update(
                num_cpus=len(os.sched_getaffinity(0)),
                include_dashboard=False,
                object_store_memory=self.options.object_store_mb * 1024**2,
            )
        tries = 1 if self.options.address else LOCAL_STARTS
        for attempt in range(1, tries + 1):
            try:
                ray.init(address=self.options.address, **kwargs)
                break
            except Exception as exc:  # noqa: BLE001 - Ray raises many kinds (connection, auth, config): one line
                ray.shutdown()  # whatever half started
                if attempt == tries:
                    where = (
                        f"the Ray cluster at {self.options.address}" if self.options.address else "a local Ray cluster"
                    )
                    raise ExtractorError(
                        f"cannot start or join {where}: {_first_line(exc)} (a cluster with token "
                        "auth needs its token: RAY_AUTH_TOKEN or ~/.ray/auth_token)",
                        code="ray",
                    ) from None
        self._started = True

    def __exit__(self, *exc) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False

    def _runtime_env(self) -> dict | None:
        """The job's runtime_env: the driver's EXTRACTOR_* variables, the servers' API key (named by
        ``--api-key-env``; on a shared cluster set it on the nodes instead) and, if asked, this package."""
        names = [n for n in os.environ if n.startswith(FORWARDED_PREFIX)]
        if self.settings.api_key_env and self.settings.api_key_env in os.environ:
            names.append(self.settings.api_key_env)
        env: dict = {"env_vars": {n: os.environ[n] for n in names}} if names else {}
        if self.options.ship_package:
            env["py_modules"] = [str(Path(__file__).resolve().parents[1])]
        return env or None

    def extract_as_done(self, sources: Sequence[str], paths: Sequence[Path]) -> Iterator[tuple[int, Record]]:
        """Extract the sources on the cluster; each record is written to its path by the actor that made it.

        Args:
            sources: input paths as given (relative ones are read in the driver's working directory).
            paths: each source's record file (in one directory, on storage every node sees at that path).

        Yields:
            ``(index of the source, record)``, in the order they finish.
        """
        if not sources:
            return
        ledger = Path(paths[0]).parent / ATTEMPTS_DIR
        ledger.mkdir(exist_ok=True)
        for path in paths:  # a new run gives every input its full attempts again
            (ledger / path.name).unlink(missing_ok=True)
        try:
            for row in self._dataset(sources, paths, ledger).iter_rows():
                yield int(row["index"]), record_from_dict(json.loads(row["record"]))
        except self._ray.exceptions.RayError as exc:  # e.g. actors that cannot start: no server, no shared storage
            raise ExtractorError(
                f"the Ray job stopped: {_innermost(exc)} (the records written so far stay in --out; a re-run resumes)",
                code="ray",
            ) from None
        finally:  # also when the batch stops reading after the last record (it closes this generator)
            shutil.rmtree(ledger, ignore_errors=True)

    def _dataset(self, sources: Sequence[str], paths: Sequence[Path], ledger: Path):
        """One block per input, mapped by a fixed pool of extraction actors."""
        ray = self._ray
        actors = min(len(sources), self.options.actors or max(1, int(ray.cluster_resources().get("CPU", 1))))
        cpus = actor_cpus(ray.cluster_resources().get("CPU", 1.0), actors, most=self.options.actor_cpus)
        threads = max(1, int(cpus))
        # isolated whatever the caller chose: a native crash in rendering costs a record, never the actor
        settings = self.settings.replace(isolate=True, workers=threads, ocr_threads=threads)
        rows = [
            {"index": i, "source": os.fsencode(s), "path": os.fsencode(str(Path(p).resolve()))}
            for i, (s, p) in enumerate(zip(sources, paths, strict=False))
        ]
        attempts = self.options.attempts
        with warnings.catch_warnings():
            # Ray 2.60 has no named parameter for max_restarts / max_task_retries yet; the remote-args keywords
            # are deprecated for 2.64 (hence the extra's upper bound)
            warnings.simplefilter("ignore", DeprecationWarning)
            return ray.data.from_items(rows, override_num_blocks=len(rows)).map_batches(
                ExtractStage,
                batch_size=1,
                num_cpus=cpus,
                compute=ray.data.ActorPoolStrategy(size=actors, max_tasks_in_flight_per_actor=1),
                fn_constructor_kwargs={
                    "settings": settings,
                    "cwd": os.getcwd(),
                    "attempts": attempts,
                    "ledger": str(ledger.resolve()),
                },
                # one task per actor at a time: an actor's death fails only the input it was on. Each death is
                # charged to that input's attempts, so restarts are bounded by attempts per input; the try after
                # the last allowed death writes the crashed record.
                max_restarts=attempts * len(rows),
                max_task_retries=attempts,
            )


class ExtractStage:
    """The map stage's actor: one ``Extractor`` (its render pool, its connections to the endpoints), one input at a
    time; every input gives a record, written to its fixed name and returned as JSON."""

    def __init__(self, *, settings: Settings, cwd: str, attempts: int, ledger: str) -> None:
        """Load the extractor in the driver's working directory.

        Raises:
            ExtractorError: the driver's working directory is not on this node (not shared storage).
        """
        from extractor.api import Extractor

        try:
            os.chdir(cwd)
        except OSError as exc:
            raise ExtractorError(
                f"the driver's working directory {cwd} is not on this node ({exc.strerror}): the "
                "inputs and --out must be on shared storage at the same path on every node",
                code="ray",
            ) from None
        self.extractor = Extractor(settings)
        self.attempts = attempts
        self.ledger = Path(ledger)

    def __call__(self, batch: dict) -> dict:
        """Extract the batch's inputs (one, with ``batch_size=1``)."""
        import numpy as np

        records = [
            self.one(os.fsdecode(bytes(s)), Path(os.fsdecode(bytes(p))))
            for s, p in zip(batch["source"], batch["path"], strict=False)
        ]
        return {"index": np.asarray(batch["index"]), "record": np.array(records, dtype=object)}

    def one(self, source: str, path: Path) -> bytes:
        """One input's record: extracted, or ``crashed`` once it has killed its actor ``attempts`` times; written
        atomically to ``path`` (a retry rewrites it) and returned as compact JSON."""
        deaths = self._started(path.name)
        try:
            if deaths >= self.attempts:
                record = self._crashed(source, deaths)
            else:
                _test_faults(source)
                record = self.extractor.extract(source)
        except Exception as exc:  # noqa: BLE001 - one input's unexpected failure is its record, not the job's end
            record = self._error(
                source, "internal", f"{source}: extraction failed unexpectedly ({type(exc).__name__}: {exc})"
            )
        record = write_beside(path, record)  # its --einvoice files (and attachments) beside it, their paths in it
        write_record(path, record)
        return record.to_json(indent=None).encode("utf-8")

    def _started(self, name: str) -> int:
        """Count one more start of this input's extraction; return the earlier starts (each one that did not
        finish killed its actor: a finished input is never started again in this run)."""
        count = self.ledger / name
        try:
            before = int(count.read_text(encoding="ascii") or 0)
        except (OSError, ValueError):
            before = 0
        write_atomic(count, str(before + 1).encode("ascii"))
        return before

    def _crashed(self, source: str, deaths: int) -> Record:
        return self._error(
            source,
            "crashed",
            f"{source}: the Ray actor extracting it died {deaths} time(s) (a crash "
            "in native code outside the render workers, or out of memory); the "
            "file was skipped",
        )

    def _error(self, source: str, code: str, message: str) -> Record:
        from extractor.pipeline.job import source_name
        from extractor.trust.verdict import error_record

        ex = self.extractor
        record = error_record(
            source=source_name(source),
            code=code,
            message=message,
            model=ex.runner.model_id,
            schema=ex.schema.name,
            stop_token_ids=ex.runner.stop_set.without(ex.settings.drop_stop_ids).ids,
        )
        return dataclasses.replace(record, extra={"fingerprint": ex.fingerprint})


def _test_faults(source: str) -> None:
    """The kill tests' faults: ``TEST_EXIT_ENV`` and ``TEST_PAUSE_ENV`` each hold ``;``-separated ``NAME[:MARKER]``
    entries (exit on NAME once per marker file, every time without one; pause on NAME, the pid in the marker)."""
    name = Path(source).name
    for target, marker in _fault_entries(TEST_EXIT_ENV):
        if target == name and (not marker or _claim(marker)):
            os._exit(1)
    for target, marker in _fault_entries(TEST_PAUSE_ENV):
        if target == name and marker and _claim(marker, text=str(os.getpid())):
            while True:
                time.sleep(3600)


def _fault_entries(variable: str) -> list[tuple[str, str]]:
    entries = [entry.partition(":") for entry in os.environ.get(variable, "").split(";") if entry]
    return [(target, marker) for target, _, marker in entries]


def _claim(marker: str, *, text: str = "") -> bool:
    """Create the marker file; False when it exists already (the hook fired before)."""
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    return True


def _innermost(exc: BaseException) -> str:
    """The first line of the error at the bottom of Ray's wrappers (a task error's cause, its cause, ...)."""
    seen = {id(exc)}
    while (inner := getattr(exc, "cause", None) or exc.__cause__) is not None and id(inner) not in seen:
        seen.add(id(inner))
        exc = inner
    return _first_line(exc)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def engine_for(
    name: str, *, settings: Settings, out: Path | None, options: RaySettings = RaySettings()
) -> RayEngine | None:
    """The engine a batch command asks for: None for ``local`` (this machine), a ``RayEngine`` for ``ray``.

    Raises:
        UsageError: an unknown engine, Ray options without ``--engine ray``, or ``--engine ray`` without
            ``--out`` / ``--endpoint`` / Ray installed.
    """
    if name not in ENGINES:
        raise UsageError(f"--engine {name!r}: expected one of {', '.join(ENGINES)}")
    if name == "local":
        if options != RaySettings():
            raise UsageError("--address and --actors need --engine ray")
        return None
    if out is None:
        raise UsageError(
            "--engine ray needs --out DIR: the actors write each record there (shared storage that "
            "every node sees at the same path)"
        )
    return RayEngine(settings, options)


def extract_on_ray(
    sources: Sequence[str],
    *,
    out: Path,
    settings: Settings | None = None,
    options: RaySettings = RaySettings(),
    jsonl: Path | None = None,
    csv_path: Path | None = None,
    force: bool = False,
    on_record=None,
) -> BatchResult:
    """The Python API of ``extract FILES --out DIR --engine ray``: a batch on a Ray cluster.

    Args:
        sources: input paths, in order.
        out: the records' directory (shared storage; also where a resumed batch finds earlier records).
        settings: the extraction's settings (``endpoint`` required).
        options: the Ray side (address, actors, attempts).
        jsonl: JSONL file (input order).
        csv_path: CSV file (input order).
        force: extract every input again, even when ``out`` holds its final record.
        on_record: called with each record and whether it was skipped, in input order.

    Returns:
        The ``batch.BatchResult`` (``skipped``: inputs not extracted again).

    Raises:
        UsageError: no endpoints, or Ray not installed.
        ExtractorError: the cluster cannot be started or joined.
    """
    from extractor.api import Extractor
    from extractor.jobs.batch import run_batch
    from extractor.settings import Settings

    settings = settings or Settings()
    engine = RayEngine(settings, options)
    with Extractor(settings) as extractor, engine:
        return run_batch(
            extractor,
            [str(s) for s in sources],
            out=out,
            jsonl=jsonl,
            csv_path=csv_path,
            force=force,
            on_record=on_record,
            engine=engine,
        )


__all__ = [
    "ENGINES",
    "ExtractStage",
    "RAY_MISSING",
    "RayEngine",
    "RaySettings",
    "actor_cpus",
    "engine_for",
    "extract_on_ray",
    "import_ray",
]
