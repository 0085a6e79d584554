"""The service's HTTP face (FastAPI): the app assembled from the routers of ``routes`` (one per resource).

Endpoints: ``POST /v1/jobs`` (a multipart upload or a JSON ``{"url": ...}``; 202 + ``Location`` + ``Retry-After``),
``GET /v1/jobs/{id}`` (``?wait=`` long-polls), ``GET /v1/jobs``, ``DELETE /v1/jobs/{id}``,
``POST /v1/jobs/{id}/callback/retry``, ``POST /v1/jobs/{id}/review``, ``GET /v1/jobs/{id}/einvoice/{format}``,
``POST /v1/extract`` (the record within ``--sync-timeout``, else 202), ``GET /healthz``, ``GET /metrics``
(Prometheus), and FastAPI's ``/openapi.json`` and ``/docs``. The responses' models are ``contract``'s, every error
``problems``' problem+json; ``gate.Gate`` checks keys and body sizes before a body is read (without keys: the Host
and other sites' pages, ``origin``), and stamps and logs every request; each route declares the scope its key needs
in one line (``owner: str = needs("read")``, ``routes.depends``).
"""

import json
from typing import cast

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from extractor.service import contract
from extractor.service.config import ApiKeys, ServeSettings
from extractor.service.gate import Gate
from extractor.service.origin import Hosts
from extractor.service.problems import install
from extractor.service.routes import einvoices, jobs, monitoring, review, sync
from extractor.service.routes.depends import Parts
from extractor.service.store import Store
from extractor.service.webhooks import Deliverer
from extractor.service.worker import Engine, Worker
from extractor.settings import Settings

MULTIPART_SLACK = 64 * 1024  # a multipart body's bytes beside the file (boundaries, headers, the form fields)
ROUTERS = (jobs.router, review.router, sync.router, einvoices.router, monitoring.router)  # the document's order


def create_app(
    *,
    store: Store,
    worker: Worker | None,
    deliverer: Deliverer | None = None,
    engine: Engine,
    keys: ApiKeys,
    serve: ServeSettings,
    settings: Settings,
) -> FastAPI:
    """The FastAPI app over one store and (unless an API replica) one worker: the routers of ``ROUTERS`` over the
    app's ``routes.depends.Parts`` (what each argument is), behind the ``Gate``."""
    app = FastAPI(
        title="extractor",
        version="1",
        description="Invoices and business PDFs to schema-valid JSON records: submit a file (or a URL) as a job, "
        "poll it (or long-poll with ?wait=), read its record. Every error is application/problem+json.",
    )
    app.state.parts = Parts(
        store=store, worker=worker, deliverer=deliverer, engine=engine, keys=keys, serve=serve, settings=settings
    )
    install(app)  # every error as application/problem+json
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    for router in ROUTERS:
        app.include_router(router)
    app.add_middleware(Gate, keys=keys, max_body=settings.max_bytes + MULTIPART_SLACK, hosts=Hosts.bound(serve.host))
    return app


def _openapi(app: FastAPI) -> dict:
    """FastAPI's document of the routes, with the components only requests and errors name (``Options``,
    ``UrlSource``, ``Problem``), each operation described by its summary alone."""
    if app.openapi_schema is None:
        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        schemas.update(contract.components())
        for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 shape: ours is Problem
            schemas.pop(unused, None)
        for operation in (op for methods in document["paths"].values() for op in methods.values()):
            operation.pop("description", None)  # its summary describes it: an endpoint's docstring is for the code
            if "HTTPValidationError" in json.dumps(operation["responses"].get("422", {})):
                operation["responses"].update(contract.problems(422))
            if any(scopes for need in operation.get("security", ()) for scopes in need.values()):
                operation["responses"].setdefault("403", contract.problems(403)["403"])  # scope_missing
        app.openapi_schema = document
    return app.openapi_schema


def openapi_document() -> dict:
    """The OpenAPI document every server serves (no setting changes it): docs/openapi.json holds it, and the
    generated clients are made from it."""
    settings = Settings()
    app = create_app(
        store=cast(Store, None),  # the document reads no job
        worker=None,
        engine=Engine(settings),
        keys=ApiKeys(),
        serve=ServeSettings(),
        settings=settings,
    )
    return app.openapi()


__all__ = ["ROUTERS", "create_app", "openapi_document"]


if __name__ == "__main__":  # python -m extractor.service.app > docs/openapi.json
    print(json.dumps(openapi_document(), indent=2, ensure_ascii=False))
