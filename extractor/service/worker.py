"""The service's worker: one thread (in ``extract serve``, or alone in ``extract worker``) that claims jobs from
the store under a lease and runs each through one ``extractor.api.Extractor`` (the core ``extract run`` uses),
storing its records.

``Engine`` holds that core: the Extractor of the server's settings, loaded once, and the per-request variants
(another built-in schema, pages, passwords, split) that share its model. The model is loaded in the worker's own
thread, the one that runs it; an API-only server (``--no-worker``) never loads it (fingerprints need only the
settings and the schema). While a job runs, the lease is renewed every third of its length; a worker that cannot
renew (its lease passed and the job went to another worker) finishes its run but writes nothing. A repeat that a
kept register sends to a worker (``Store.claim``: it holds the records of the job it is answered from) is not run:
its records are registered under its own id and it ends with them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from extractor.api import Extractor
from extractor.errors import UsageError
from extractor.jobs.pause import pause_at
from extractor.pipeline.extract import settings_fingerprint
from extractor.record import Record, record_from_dict
from extractor.register.result import unregistered
from extractor.schema import load_schema, schema_model
from extractor.service.request_options import inline_schema_path
from extractor.service.sources import FetchError, SourceSettings, fetch
from extractor.service.store import DEFAULT_LEASE, DEFAULT_TENANT_SHARE, Store
from extractor.service.stored_job import StoredJob
from extractor.service.webhooks import shown_url
from extractor.settings import Settings
from extractor.trust.verdict import error_record

log = logging.getLogger("extractor.service")

KEPT_VARIANTS = 8  # per-request Extractors kept (each may hold a render pool)
KEPT_FINGERPRINTS = 256  # fingerprints of requests' options kept (each costs loading its schema)
SWEEP_EVERY = 3600.0  # seconds between retention sweeps
# tests: "N:MARKER" touches MARKER and hangs once the worker has claimed its (N+1)th job (tests/test_serve.py kills
# the server there: N jobs done, one running, the rest queued)
TEST_PAUSE_ENV = "EXTRACTOR_SERVE_TEST_PAUSE"


class Engine:
    """The one core the service runs: the server's Extractor and its per-request variants (the same model)."""

    def __init__(self, settings: Settings) -> None:
        """Keep the settings; ``load`` loads the model (in the thread that will run it). With ``settings.register``
        (``--register``: the store's URL) every job's records are checked against its tenant's register there
        (``registered``), not by the Extractors (whose records name a temporary path)."""
        self.register = _service_register(settings)
        settings = settings.replace(register=None)
        self.settings = settings
        self.base: Extractor | None = None
        self._variants: OrderedDict[str, Extractor] = OrderedDict()
        self._fingerprints: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the schema and the model (``Extractor(settings)``).

        Raises:
            ExtractorError: as ``Extractor`` raises it (a bad schema, a model that does not load, ...).
        """
        self.base = Extractor(self.settings)

    def variant_settings(self, options: dict) -> Settings:
        """The server's settings changed by a job's options (a request's passwords are tried before the server's).

        Raises:
            UsageError: a bad value (a page selection, a split mode).
        """
        changes: dict[str, Any] = {}
        if "schema" in options:  # a built-in name, or a request's own JSON Schema (kept as a file of its hash)
            schema = options["schema"]
            changes["schema"] = schema if isinstance(schema, str) else str(inline_schema_path(schema))
        if "pages" in options:
            changes["pages"] = options["pages"]
        if "password" in options:
            changes["passwords"] = tuple(options["password"]) + self.settings.passwords
        if "split" in options:
            changes["split"] = options["split"]
        if "einvoice" in options:
            changes["einvoice"] = tuple(options["einvoice"])
        return self.settings.replace(**changes)

    def fingerprint(self, options: dict) -> str:
        """The settings' fingerprint of a job with these options (``Extractor.fingerprint``; no model needed).

        Raises:
            UsageError: a bad option value.
            SchemaError: the schema cannot be loaded.
        """
        key = hashlib.sha256(json.dumps(options, sort_keys=True).encode()).hexdigest()  # no password kept as is
        with self._lock:
            found = self._fingerprints.pop(key, None)
        if found is None:
            settings = self.variant_settings(options)
            found = settings_fingerprint(settings, load_schema(schema_model(settings.schema) or settings.schema))
        with self._lock:
            self._fingerprints[key] = found
            while len(self._fingerprints) > KEPT_FINGERPRINTS:
                self._fingerprints.popitem(last=False)
        return found

    def run(self, job: StoredJob, data: bytes) -> list[dict]:
        """Extract a job's upload, as ``extract run NAME`` would extract the file ``NAME``.

        Returns:
            Its records (``Record.to_dict()``): one, or one per invoice with ``split: auto``; an unreadable or
            hostile file gives its error record.
        """
        extractor = self._variant(job.options)
        with tempfile.TemporaryDirectory(prefix="extract-serve-") as folder:
            path = Path(folder) / job.filename
            path.write_bytes(data)
            records = extractor.extract_parts(str(path), layouts=self.layouts(job.tenant))
        # the file was extracted under a temporary folder: its records name it as the client did
        renamed = [_renamed(record.to_dict(), path=str(path), folder=folder, name=job.filename) for record in records]
        return [self.registered(job, record) for record in renamed]

    def error(self, job: StoredJob, *, source: str, code: str, message: str) -> Record:
        """An error record for a job whose file never reached the model (a URL that could not be fetched), with the
        model, schema and stop set its extraction would have had."""
        extractor = self._variant(job.options)
        return error_record(
            source=source,
            code=code,
            message=message,
            model=extractor.runner.model_id,
            schema=extractor.schema.name,
            stop_token_ids=extractor.runner.stop_set.without(extractor.settings.drop_stop_ids).ids,
        )

    def layouts(self, tenant: str):
        """The tenant's learned layouts in the store's register (``layouts.store.LayoutStore``; docs/learning.md):
        None without a register or with ``--learn off``. Tenants never share a layout."""
        if self.register is None or self.settings.learn == "off":
            return None
        from extractor.layouts.store import LayoutStore

        return LayoutStore.of(self.register.for_tenant(tenant))

    def learn(self, job: StoredJob, data: bytes, corrected: Any, *, approved: bool, by: str) -> dict:
        """A service review of a job (its upload ``data``, the ``corrected`` data): teaches that tenant's layout
        when approved, demotes the layout that read a value it corrects (``tools.learn.learn_review``; teacher
        ``service_review``); what was done (``Taught.to_dict()``).

        Raises:
            UsageError: no register (layouts live there), or ``--learn off``.
        """
        layouts = self.layouts(job.tenant)
        if layouts is None:
            raise UsageError("a review teaches only with a register (extract serve --register) and --learn on")
        from extractor.pipeline.teach import learn_review

        with tempfile.TemporaryDirectory(prefix="extract-review-") as folder:
            path = Path(folder) / job.filename
            path.write_bytes(data)
            schema = str(self.variant_settings(job.options).schema)  # a request's own schema: its file
            reviewed = {"data": corrected, "approved": approved, "reviewer": by, "schema": schema}
            record = (job.records or [{}])[0]
            taught = learn_review(layouts, record, reviewed, path, teacher_source="service_review", document=job.id)
        return taught.to_dict()

    def registered(self, job: StoredJob, record: dict) -> dict:
        """A job's record checked against its tenant's register and added to it (the job's id is its place: a job
        run again after a crash is itself, another upload of the same file a ``duplicate_file``); as it was
        without a register. A repeat's record (another job's, ``answered_from``) is checked afresh under this
        job's id, the earlier job's check taken off it first."""
        if self.register is None:
            return record
        read = unregistered(record_from_dict(record))
        result = self.register.for_tenant(job.tenant).check_and_add(read, place=job.id, kind="job")
        return record if result is None else result.apply(read).to_dict()

    @property
    def slots(self) -> int:
        """Jobs to run at once: the core's ``concurrency`` (1 for an in-process model decoding one document at a
        time; its batch and as many rendered ahead with ``--batch``; 2 per server with ``--endpoint``)."""
        assert self.base is not None, "Engine.load first"
        return self.base.concurrency

    def _variant(self, options: dict) -> Extractor:
        assert self.base is not None, "Engine.load first"
        if not options:
            return self.base
        key = json.dumps(options, sort_keys=True)
        with self._lock:  # several job threads
            extractor = self._variants.pop(key, None)
            if extractor is None:
                extractor = Extractor(self.variant_settings(options), runner=self.base.runner)
            self._variants[key] = extractor
            while len(self._variants) > KEPT_VARIANTS:
                self._variants.popitem(last=False)[1].close()
        return extractor

    def close(self) -> None:
        """Stop every render pool (the worker's thread, after its last job)."""
        for extractor in [*self._variants.values(), *([self.base] if self.base else [])]:
            extractor.close()
        self._variants.clear()


def _service_register(settings: Settings):
    """The tenants' registers in the store (``settings.register``: its URL), beside its jobs; None without."""
    if not settings.register:
        return None
    from extractor.api import open_register

    return open_register(settings, alongside=True)


def _repeat(job: StoredJob) -> bool:
    """Whether a claimed job is a repeat answered from another's records (``Store.claim`` gives them in its
    ``records``), not a document to extract."""
    return job.answered_from is not None and job.records is not None


def _renamed(record: dict, *, path: str, folder: str, name: str) -> dict:
    """The record with the temporary path (in ``source`` and in every message) replaced by the upload's name."""
    text = json.dumps(record)
    for old in (path, folder):
        text = text.replace(json.dumps(old)[1:-1], json.dumps(name if old == path else ".")[1:-1])
    return json.loads(text)


class Worker:
    """One background thread: load the model, then claim and run jobs until stopped."""

    def __init__(
        self,
        *,
        store: Store,
        engine: Engine,
        retention: float,
        lease: float = DEFAULT_LEASE,
        share: int = DEFAULT_TENANT_SHARE,
        idle: float = 1.0,
        on_end: Callable[[], None] | None = None,
        sources: SourceSettings | None = None,
    ) -> None:
        """Prepare the thread (``start`` starts it).

        Args:
            store: the job store.
            engine: the core (loaded by the thread).
            retention: seconds ended jobs are kept (swept at start and then hourly).
            lease: seconds a claim holds a job unless renewed (renewed every third of it while the job runs).
            share: jobs a tenant runs at once before another tenant's waiting job goes first (``Store.claim``).
            idle: seconds between looks at an empty queue when nothing wakes the worker.
            on_end: called after each job this worker ended (the webhooks' deliverer is woken).
            sources: how URL sources are fetched (``--source-allow``, the time limit).
        """
        self.store, self.engine, self.retention, self.lease, self.idle = store, engine, retention, lease, idle
        self.sources = sources or SourceSettings()
        self.share = share
        self.on_end = on_end
        self.version = 0  # bumped whenever a job changes state here: long polls look again only then
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._claims, self._claims_lock = 0, threading.Lock()  # the lock also guards _swept
        self._swept = 0.0  # monotonic time of the last retention sweep (0: none yet)
        self._thread = threading.Thread(target=self._main, name="extract-serve-worker", daemon=True)

    def start(self) -> None:
        """Start the thread and wait until the model is loaded.

        Raises:
            ExtractorError: the model or schema did not load (the thread has ended).
        """
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def wake(self) -> None:
        """A job was queued: look at the queue now."""
        self._wake.set()

    def stop(self, *, timeout: float = 10.0) -> None:
        """Ask the thread to stop after the current job and wait up to ``timeout`` seconds (a job still running
        stays ``running`` in the store, claimed again once its lease passes)."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def join(self) -> None:
        """Wait for the thread to end (``extract worker`` runs it in the foreground)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def _main(self) -> None:
        try:
            self.engine.load()
        except BaseException as exc:  # said in the starting thread
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        # as many job threads as the core runs documents at once (a batching model, several servers): each
        # claims, runs and ends its own jobs
        others = [
            threading.Thread(target=self._loop, name=f"extract-serve-worker-{n}", daemon=True)
            for n in range(1, self.engine.slots)
        ]
        for thread in others:
            thread.start()
        try:
            self._loop()
            for thread in others:
                thread.join()
        finally:
            self.engine.close()

    def _sweep_due(self) -> bool:
        """Whether this job thread sweeps the retention now (at start, then hourly: one thread of them, not all)."""
        with self._claims_lock:
            if self._swept and time.monotonic() - self._swept < SWEEP_EVERY:
                return False
            self._swept = time.monotonic()
            return True

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._sweep_due():
                self._guarded(lambda: self.store.sweep(retention=self.retention))
            job = self._guarded(lambda: self.store.claim(lease=self.lease, share=self.share))
            if job is None:
                self.store.wait_for_jobs(timeout=self.idle, wake=self._wake)
                self._wake.clear()
                continue
            self.version += 1
            with self._claims_lock:
                claimed, self._claims = self._claims, self._claims + 1
            pause_at(TEST_PAUSE_ENV, str(claimed))
            self._run(job)
            self.version += 1
            if self.on_end is not None:
                self.on_end()

    def _run(self, job: StoredJob) -> None:
        repeat = _repeat(job)
        data = self.store.upload(job.id) if job.source_url is None and not repeat else None
        if data is None and job.source_url is None and not repeat:  # cancelled since it was claimed
            return
        renewing = threading.Event()
        heartbeat = threading.Thread(target=self._renew, args=(job, renewing), daemon=True)
        heartbeat.start()
        registering = self.engine.register is not None  # the jobs that joined this one are then queued again
        try:
            records = self._records(job, data)
        except Exception as exc:  # the core returns error records; an exception here is a bug, not the file
            log.exception("job %s failed", job.id)
            error = f"{type(exc).__name__}: the extraction failed"  # the log has the rest, the response no detail
            outcome = self._guarded(lambda: self.store.finish(job, error=error, register=registering))
        else:
            outcome = self._guarded(lambda: self.store.finish(job, records=records, register=registering))
        finally:
            renewing.set()
            heartbeat.join()
        if outcome is False:
            log.warning("job %s: no longer held by this worker (cancelled, or its lease passed): not written", job.id)

    def _records(self, job: StoredJob, data: bytes | None) -> list[dict]:
        """A job's records: its upload's, or its URL's once fetched (a fetch that fails: its error record, naming
        the URL without its query); a repeat's, the records it is answered from, registered under its own id."""
        if _repeat(job):
            assert job.records is not None
            return [self.engine.registered(job, record) for record in job.records]
        if job.source_url is not None:
            try:
                data = fetch(job.source_url, settings=self.sources, max_bytes=self.engine.settings.max_bytes)
            except FetchError as exc:
                shown = shown_url(job.source_url) or job.filename
                return [self.engine.error(job, source=shown, code=exc.code, message=str(exc)).to_dict()]
        assert data is not None
        return self.engine.run(job, data)

    def _renew(self, job: StoredJob, done: threading.Event) -> None:
        """Renew the job's lease every third of it until ``done`` (the store's answer False: the job was lost)."""
        while not done.wait(self.lease / 3):
            if self._guarded(lambda: self.store.renew(job, lease=self.lease)) is False:
                log.warning("job %s: lease lost", job.id)
                return

    def _guarded(self, call):
        """Run a store call; a database error is logged and the worker carries on (the job stays where it was)."""
        try:
            return call()
        except Exception:
            log.exception("store error")
            time.sleep(self.idle)
            return None


__all__ = ["Engine", "TEST_PAUSE_ENV", "Worker"]
