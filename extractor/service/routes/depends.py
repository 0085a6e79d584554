"""What every route reaches through FastAPI's dependencies: the service's parts (``Parts``, kept on the app's
state by ``app.create_app``) and the caller's tenant once its key holds the scope the route declares (``needs``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, SecurityScopes

from extractor.service.config import OPEN_TENANT, ApiKeys, ServeSettings
from extractor.service.gate import NO_KEY
from extractor.service.problems import ProblemError
from extractor.service.store import Store
from extractor.service.webhooks import Deliverer
from extractor.service.worker import Engine, Worker
from extractor.settings import Settings

KEY_DESCRIPTION = (
    "An API key of this server (EXTRACT_API_KEYS, --api-keys-file). Each operation's security names the scope its "
    "key needs (submit, read, review, admin; a key holds all of them unless its entry names its own): 403 "
    "scope_missing without it."
)
bearer = HTTPBearer(auto_error=False, description=KEY_DESCRIPTION)


@dataclass(frozen=True)
class Parts:
    """What the routes of one app work with.

    Attributes:
        store: the job store.
        worker: the running worker (woken when a job is queued); None: other processes run the jobs.
        deliverer: the webhooks' deliverer (woken when a job is answered at once, or its webhook sent again).
        engine: the core (fingerprints of the requests' settings; its model only in the worker).
        keys: the API keys (empty: a loopback server open to this machine).
        serve: the service's settings (the sync timeout, webhooks, URL sources).
        settings: the extraction settings (``max_bytes`` is the upload limit).
    """

    store: Store
    worker: Worker | None
    deliverer: Deliverer | None
    engine: Engine
    keys: ApiKeys
    serve: ServeSettings
    settings: Settings


async def parts(request: Request) -> Parts:
    """The parts of the app serving ``request``."""
    return request.app.state.parts


Service = Annotated[Parts, Depends(parts)]  # a route's parameter ``service: Service``: the parts of its app


def tenant(
    scopes: SecurityScopes,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    """The caller's tenant, once its key holds the scopes the route declares (``needs``)."""
    keys: ApiKeys = request.app.state.parts.keys
    if not keys:
        return OPEN_TENANT
    grant = keys.grant(credentials.credentials) if credentials is not None else None
    if grant is None:  # the gate answers first; kept for a route mounted without it
        raise ProblemError("unauthorized", NO_KEY, headers={"WWW-Authenticate": "Bearer"})
    missing = [scope for scope in scopes.scopes if scope not in grant.scopes]
    if missing:
        raise ProblemError("scope_missing", f"this key lacks the scope {missing[0]!r}, which this route needs")
    return grant.tenant


def needs(scope: str) -> Any:
    """A route's one declaration of the scope its key needs (``owner: str = needs("read")``): checked by
    ``tenant``, named in the OpenAPI document (the operation's ``security``), 403 ``scope_missing`` without."""
    return Security(tenant, scopes=[scope])


__all__ = ["KEY_DESCRIPTION", "Parts", "Service", "bearer", "needs", "parts", "tenant"]
