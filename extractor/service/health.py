"""``GET /healthz`` and the outage part of ``GET /metrics``: whether the job store (and the register in its
database) can be reached now.

``/healthz`` asks the store once (``Database.ping``: one read, never retried) and reads the outages this process's
databases are waiting out (``extractor.db.outage``): 200 ``{"status": "serving"}`` when there are none, else 503
problem+json ``store_unavailable`` with ``outages: [{store, database, since, error}]`` (a load balancer takes the
replica out; its workers wait and catch up when the database is back). ``/metrics`` gains ``extractor_store_up`` and one
``extractor_store_outage_seconds`` per outage, and skips the store's counts while it cannot be read.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

from extractor.db.outage import OutageView, current
from extractor.service import metrics
from extractor.service.contract import Health
from extractor.service.problems import ProblemError
from extractor.service.store import Store


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _outages(store: Store) -> list[OutageView]:
    """The outages of the store's database: the jobs' and the register's beside them."""
    return [o for o in current() if o.database == store.db.name]


def answer(store: Store) -> Health:
    """``/healthz``'s body while the store answers (module docstring).

    Raises:
        ProblemError: ``store_unavailable`` (503), with the ``outages``.
    """
    up = store.db.ping()
    outages = _outages(store)
    if up and not outages:
        return Health.model_validate({"status": "serving"})
    shown = [{"store": o.store, "database": o.database, "since": _when(o.since), "error": o.error} for o in outages]
    names = ", ".join(f"{o.store} {o.database}" for o in outages) or store.describe()
    raise ProblemError("store_unavailable", f"unreachable: {names}", extra={"outages": shown})


def metrics_text(store: Store) -> str:
    """``/metrics``: the store's counts (while it can be read) and the outages."""
    up = store.db.ping()
    text = metrics.render(store.stats(window=metrics.WINDOW)) if up else ""
    now = time.time()
    lines = ["# HELP extractor_store_up Whether the job store answers now.", "# TYPE extractor_store_up gauge"]
    lines += [f"extractor_store_up {int(up)}"]
    lines += [
        "# HELP extractor_store_outage_seconds How long each unreachable store has been so.",
        "# TYPE extractor_store_outage_seconds gauge",
    ]
    for outage in _outages(store):
        lines.append(f'extractor_store_outage_seconds{{store="{_label(outage.store)}"}} {now - outage.since:.3f}')
    return text + "\n".join(lines) + "\n"


def _label(text: str) -> str:
    """A Prometheus label value (backslash, quote and newline escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


__all__ = ["answer", "metrics_text"]
