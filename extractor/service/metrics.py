"""``GET /metrics``: the service in Prometheus' text format, read from the store, so every replica over one
database reports the same numbers.

Jobs by state, webhooks by state, documents per minute over the last ``WINDOW`` seconds, and over the jobs a worker
ended in that window: queue wait (accepted to claimed) and model time (claimed to ended) as summaries (p50, p95,
sum, count). Jobs answered from an earlier job's record count as documents, not as model time.
"""

from __future__ import annotations

from extractor.service.stored_job import Stats

WINDOW = 300.0  # seconds the rates and summaries look back
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(lines: list[str], name: str, help_text: str, values: list[float]) -> None:
    lines += [f"# HELP {name} {help_text}", f"# TYPE {name} summary"]
    lines += [f'{name}{{quantile="{q}"}} {_quantile(values, q):.6g}' for q in (0.5, 0.95)]
    lines += [f"{name}_sum {sum(values):.6g}", f"{name}_count {len(values)}"]


def render(stats: Stats, *, window: float = WINDOW) -> str:
    """The metrics page of these store counts."""
    lines = ["# HELP extractor_jobs Jobs in the store by state.", "# TYPE extractor_jobs gauge"]
    lines += [f'extractor_jobs{{state="{state}"}} {count}' for state, count in stats.jobs.items()]
    lines += ["# HELP extractor_webhooks Webhooks by delivery state.", "# TYPE extractor_webhooks gauge"]
    lines += [f'extractor_webhooks{{state="{state}"}} {count}' for state, count in stats.deliveries.items()]
    lines += [
        f"# HELP extractor_documents_per_minute Jobs a worker ended per minute over the last {window:g} s.",
        "# TYPE extractor_documents_per_minute gauge",
        f"extractor_documents_per_minute {len(stats.ended) * 60.0 / window:.6g}",
    ]
    _summary(
        lines,
        "extractor_queue_wait_seconds",
        f"From accepted to claimed, jobs ended in the last {window:g} s.",
        [started - created for created, started, _ in stats.ended],
    )
    _summary(
        lines,
        "extractor_model_seconds",
        f"From claimed to ended (the extraction), jobs ended in the last {window:g} s.",
        [finished - started for _, started, finished in stats.ended],
    )
    return "\n".join(lines) + "\n"


__all__ = ["CONTENT_TYPE", "WINDOW", "render"]
