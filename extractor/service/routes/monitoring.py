"""``GET /healthz`` (liveness: 503 while the store is unreachable) and ``GET /metrics`` (Prometheus)."""

from __future__ import annotations

from fastapi.responses import JSONResponse, PlainTextResponse

from extractor.service import contract, health
from extractor.service.metrics import CONTENT_TYPE
from extractor.service.routes import resource_router
from extractor.service.routes.answers import respond
from extractor.service.routes.depends import Service

router = resource_router("service")


@router.get(
    "/healthz",
    summary="Liveness: the server (and its worker, if it runs one) serves",
    response_model=contract.Health,
    responses=contract.problems(503),
)
def healthz(
    service: Service,
) -> JSONResponse:
    """Serving, or 503 ``store_unavailable`` with the outages."""
    return respond(health.answer(service.store))


@router.get(
    "/metrics",
    summary="Prometheus metrics: jobs by state, documents/min, queue wait, model time, webhooks",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
def metrics(
    service: Service,
) -> PlainTextResponse:
    """The store's counts and the outages, as Prometheus text."""
    return PlainTextResponse(health.metrics_text(service.store), media_type=CONTENT_TYPE)


__all__ = ["router"]
