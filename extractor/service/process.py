"""The service's processes: ``serve`` (the HTTP face, with a worker unless it is an API replica) and ``work`` (a
worker alone: ``extract worker``), each with a webhook deliverer, until interrupted."""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

from extractor.service.config import ApiKeys, ServeSettings, check_exposure, open_store
from extractor.service.store import Store
from extractor.service.webhooks import Deliverer
from extractor.service.worker import Engine, Worker
from extractor.settings import Settings


def _workers(
    store: Store, settings: Settings, serve_settings: ServeSettings, *, run_jobs: bool
) -> tuple[Engine, Worker | None, Deliverer]:
    engine = Engine(settings)
    engine.fingerprint({})  # the schema loads (or its error is said) before anything listens
    deliverer = Deliverer(store=store, settings=serve_settings.webhooks)
    worker = None
    if run_jobs:
        worker = Worker(
            store=store,
            engine=engine,
            retention=serve_settings.retention,
            lease=serve_settings.lease,
            share=serve_settings.tenant_share,
            on_end=deliverer.wake,
            sources=serve_settings.sources,
        )
    return engine, worker, deliverer


def serve(
    *, settings: Settings, serve_settings: ServeSettings, keys: ApiKeys, echo: Callable[[str], Any] = print
) -> None:
    """Run ``extract serve`` until interrupted: open the store, load the model in the worker (unless an API
    replica), listen.

    On a store no other process uses (SQLite with this server's own worker) the jobs a killed server left running
    are queued again at once; on a shared one (PostgreSQL) they are claimed again once their lease passes.

    Args:
        settings: the extraction settings, parsed as ``extract run`` parses them.
        serve_settings: host, port, store, retention, sync timeout, lease, worker, webhooks.
        keys: the API keys (required beyond loopback).
        echo: where the start line is printed (the URL; never a key or a password).

    Raises:
        UsageError: no keys beyond loopback, a bad store.
        ExtractorError: the model or schema did not load.
    """
    import uvicorn

    from extractor.service.app import create_app

    check_exposure(serve_settings.host, keys)
    store = open_store(serve_settings.store)
    requeued = store.recover() if serve_settings.worker and not store.shared else 0
    engine, worker, deliverer = _workers(store, settings, serve_settings, run_jobs=serve_settings.worker)
    if worker is not None:
        worker.start()
    deliverer.start()
    try:
        app = create_app(
            store=store,
            worker=worker,
            deliverer=deliverer,
            engine=engine,
            keys=keys,
            serve=serve_settings,
            settings=settings,
        )
        host = serve_settings.host
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, serve_settings.port))
        sock.listen(128)
        shown = f"[{host}]" if ":" in host else host
        echo(
            f"serve: http://{shown}:{sock.getsockname()[1]}/  (store {store.describe()}, {len(keys.tenants)} API "
            f"key(s){'' if worker else ', no worker: extract worker processes run the jobs'}"
            f"{f', {requeued} job(s) queued again' if requeued else ''}; Ctrl-C stops)"
        )
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    finally:
        if worker is not None:
            worker.stop()
        deliverer.stop()


def work(*, settings: Settings, serve_settings: ServeSettings, echo: Callable[[str], Any] = print) -> None:
    """Run ``extract worker`` until interrupted (Ctrl-C or SIGTERM: the job running is finished first): claim the
    store's jobs under a lease, run them on the model loaded here, deliver the webhooks.

    Raises:
        UsageError: a bad store.
        ExtractorError: the model or schema did not load.
    """
    store = open_store(serve_settings.store)
    _, worker, deliverer = _workers(store, settings, serve_settings, run_jobs=True)
    assert worker is not None
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        stopping.set()
        worker.stop(timeout=0)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        worker.start()
        deliverer.start()
        echo(f"worker: claiming jobs from {store.describe()} (lease {serve_settings.lease:g} s; Ctrl-C stops)")
        try:
            worker.join()
        except KeyboardInterrupt:
            worker.stop(timeout=0)
            worker.join()
    finally:
        signal.signal(signal.SIGTERM, previous)
        deliverer.stop()


__all__ = ["serve", "work"]
