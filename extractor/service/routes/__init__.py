"""The service's routes, grouped by resource as FastAPI routers: ``jobs`` (submit, read, list, cancel, a webhook
sent again), ``review`` (a reviewed job teaches its tenant's layouts), ``sync`` (``POST /v1/extract``: submit and
wait), ``einvoices`` (a job's e-invoice XML) and ``monitoring`` (``/healthz``, ``/metrics``). ``depends`` holds what
every route reaches through FastAPI's dependencies: the service's ``Parts`` and the scope its key needs
(``needs``); ``submit`` what submitting routes share. ``app.create_app`` includes ``ROUTERS`` in this order (the
order of the OpenAPI document's paths)."""

from fastapi import APIRouter
from fastapi.routing import APIRoute


def operation_id(route: APIRoute) -> str:
    """An operation's id in the OpenAPI document (and the generated clients' method): its function's name."""
    return route.name


def resource_router(tag: str) -> APIRouter:
    """A resource's router: its operations tagged ``tag``, each named by its function (``operation_id``)."""
    return APIRouter(tags=[tag], generate_unique_id_function=operation_id)


__all__ = ["operation_id", "resource_router"]
