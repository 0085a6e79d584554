"""Signed webhooks: when a job ends, its ``callback_url`` gets ``{"id", "status", "record"}`` POSTed, signed.

``X-Extractor-Timestamp`` is the Unix time of the attempt, ``X-Extractor-Tenant`` the job's tenant,
``X-Extractor-Delivery`` ``<job id>.<attempt>``, and ``X-Extractor-Signature`` is ``v2=`` and the hex HMAC-SHA256 of
``"<timestamp>.<tenant>.<delivery>.<body>"`` under the tenant's secret (its own from
``EXTRACT_WEBHOOK_TENANT_SECRETS``, else the shared ``EXTRACT_WEBHOOK_SECRET``), one ``v2=`` for each of its
secrets (two, comma-separated, while a secret is rotated: ``sign``; docs/serve.md shows the receiver's check). With
the tenant and the delivery signed, a delivery for one tenant is no delivery for another, and a delivery id cannot
be changed to slip past a receiver's deduplication. ``X-Request-Id`` is the submitting request's. A delivery
answered 2xx is done; any other answer, a time-out (one deadline for the whole attempt) or a refused connection is
tried again after 1, 2, 4, ... times ``backoff`` seconds, ``tries`` times in all (counted afresh when it is sent
again by request), every attempt recorded on the job. Deliveries go out from a bounded pool of threads, one
delivery per tenant at a time in a process: a slow receiver holds one thread, never another tenant's delivery.

A callback may not reach this machine's network (SSRF, :mod:`extractor.service.outbound`): its host must resolve
only to public addresses unless it is named by ``--callback-allow HOST``; checked when the job is submitted and
again before every delivery, which then connects to the very address it checked (a name that resolves elsewhere
later is not followed there: DNS rebinding); TLS is verified for the URL's host name; redirects are not followed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import overload
from urllib.parse import urlsplit

from extractor.errors import UsageError
from extractor.service.outbound import Deadline, pinned_connection, public_address
from extractor.service.store import Store
from extractor.service.stored_job import StoredJob

log = logging.getLogger("extractor.service")

SECRET_ENV = "EXTRACT_WEBHOOK_SECRET"
TENANT_SECRETS_ENV = "EXTRACT_WEBHOOK_TENANT_SECRETS"  # TENANT=SECRET[,OLD] entries, separated by ";" or spaces
DELIVERY_WORKERS = 4  # threads delivering webhooks in one process (one delivery per tenant at a time)
DEFAULT_TRIES = 5
DEFAULT_BACKOFF = 2.0  # seconds before the second try; doubled before each further one
DELIVERY_TIMEOUT = 10.0  # seconds a receiver has to answer one attempt


@dataclass(frozen=True)
class WebhookSettings:
    """How webhooks are sent.

    Attributes:
        secret: the shared HMAC key (``EXTRACT_WEBHOOK_SECRET``; two comma-separated during a rotation, each
            signing), for the tenants without their own: one tenant's, as anyone holding it can sign for any tenant.
        tenant_secrets: each tenant's own key (``EXTRACT_WEBHOOK_TENANT_SECRETS``: ``TENANT=SECRET[,OLD]``; two while
            it is rotated). No secret at all: callbacks are refused at submission.
        allow: hosts a callback may name although they resolve to private, loopback or link-local addresses.
        tries: delivery attempts in all, the first included.
        backoff: seconds before the second attempt, doubled before each further one.
        timeout: seconds one attempt waits for the receiver's answer.
    """

    secret: str | None = None
    tenant_secrets: dict[str, str] = field(default_factory=dict)
    allow: tuple[str, ...] = ()
    tries: int = DEFAULT_TRIES
    backoff: float = DEFAULT_BACKOFF
    timeout: float = DELIVERY_TIMEOUT

    def __repr__(self) -> str:  # the secret never reaches a log or a traceback
        return (
            f"WebhookSettings(secret={'***' if self.secret else None}, tenants={sorted(self.tenant_secrets)}, "
            f"allow={self.allow}, tries={self.tries})"
        )

    @property
    def sends(self) -> bool:
        """Whether webhooks are sent at all (a secret, shared or a tenant's)."""
        return bool(self.secret or self.tenant_secrets)

    def secret_for(self, tenant: str) -> str | None:
        """The secret a tenant's deliveries are signed with: its own, else the shared one (None: neither)."""
        return self.tenant_secrets.get(tenant) or self.secret

    @classmethod
    def from_environment(
        cls, *, allow: tuple[str, ...] = (), tries: int = DEFAULT_TRIES, backoff: float = DEFAULT_BACKOFF
    ) -> WebhookSettings:
        """The settings with the secrets of ``EXTRACT_WEBHOOK_SECRET`` and ``EXTRACT_WEBHOOK_TENANT_SECRETS``.

        Raises:
            UsageError: a tenant's entry without ``=`` or without a secret (the secret is never said).
        """
        return cls(
            secret=os.environ.get(SECRET_ENV) or None,
            tenant_secrets=tenant_secrets(os.environ.get(TENANT_SECRETS_ENV, "")),
            allow=tuple(h.lower() for h in allow),
            tries=tries,
            backoff=backoff,
        )


def tenant_secrets(text: str) -> dict[str, str]:
    """``EXTRACT_WEBHOOK_TENANT_SECRETS`` read: ``TENANT=SECRET`` (``TENANT=NEW,OLD`` while rotating) entries
    separated by ``;`` or white space, as ``{tenant: secret}``.

    Raises:
        UsageError: an entry without a tenant or a secret (its place named, never the secret).
    """
    found = {}
    for number, entry in enumerate(text.replace(";", " ").split(), 1):
        tenant, _, secret = entry.partition("=")
        if not tenant or not secret_keys(secret):
            raise UsageError(f"{TENANT_SECRETS_ENV}: entry {number}: expected TENANT=SECRET (or TENANT=NEW,OLD)")
        found[tenant] = secret
    return found


def sign(secret: str, timestamp: str, body: bytes, *, tenant: str, delivery: str) -> str:
    """The ``X-Extractor-Signature`` value of a delivery: ``v2=`` and the hex HMAC-SHA256 of
    ``"<timestamp>.<tenant>.<delivery>.<body>"`` under each of the secret's comma-separated secrets (two while one
    replaces the other), joined by commas: ``v2=<hex>,v2=<hex>``."""
    signed = f"{timestamp}.{tenant}.{delivery}.".encode() + body
    return ",".join(f"v2={hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()}" for key in secret_keys(secret))


def secret_keys(secret: str) -> list[str]:
    """The secrets of ``EXTRACT_WEBHOOK_SECRET``: one, or two separated by a comma during a rotation."""
    return [key.strip() for key in secret.split(",") if key.strip()]


def check_callback(url: str, *, settings: WebhookSettings, tenant: str = "") -> str:
    """Check a job's ``callback_url`` before it is stored.

    Returns:
        The URL as given.

    Raises:
        UsageError: no webhook secret on this server or for ``tenant`` (tenants' own secrets and no shared one),
            not an http(s) URL, credentials in it, a host that does not resolve, or one that resolves to a private,
            loopback or link-local address not allowed by ``--callback-allow``.
    """
    checked_address(url, settings=settings)
    if settings.secret_for(tenant) is None:  # refused now, not as a delivery that can never be signed
        raise UsageError(f"callback_url: no webhook secret for this tenant ({TENANT_SECRETS_ENV} names none)")
    return url


def checked_address(url: str, *, settings: WebhookSettings) -> str | None:
    """The address a delivery to ``url`` connects to: one of the host's addresses, each of them checked public
    (None: a host named by ``--callback-allow``, resolved as usual).

    Raises:
        UsageError: as ``check_callback`` says.
    """
    if not settings.sends:
        raise UsageError(f"callback_url: this server sends no webhooks ({SECRET_ENV} is not set)")
    return public_address(url, allow=settings.allow, field="callback_url", option="--callback-allow")


@overload
def shown_url(url: str) -> str: ...
@overload
def shown_url(url: None) -> None: ...
def shown_url(url: str | None) -> str | None:
    """A URL as responses, records and logs show it: without its query (which may carry a receiver's token)."""
    if url is None:
        return None
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def payload(job: StoredJob) -> bytes:
    """The body POSTed for an ended job: ``{"id", "status", "record"}`` (``records`` too when there are several)."""
    body: dict = {"id": job.id, "status": job.status, "record": (job.records or [None])[0]}
    if job.records and len(job.records) > 1:
        body["records"] = job.records
    return json.dumps(body, ensure_ascii=False).encode()


def deliver(job: StoredJob, *, settings: WebhookSettings) -> dict:
    """One delivery attempt of ``job``'s webhook.

    Returns:
        The attempt as recorded on the job: ``{"attempt", "at", "ok", "status_code" | "error"}``.
    """
    number = len(job.deliveries) + 1
    attempt: dict = {"attempt": number, "at": time.time(), "ok": False}
    assert job.callback_url is not None
    secret = settings.secret_for(job.tenant)
    if not secret:
        return {**attempt, "error": f"no webhook secret for tenant {job.tenant} ({TENANT_SECRETS_ENV})"}
    try:
        address = checked_address(job.callback_url, settings=settings)  # again: the name may point inward now
    except UsageError as exc:
        return {**attempt, "error": str(exc)}
    body = payload(job)
    timestamp, delivery = str(int(time.time())), f"{job.id}.{number}"
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "extractor-webhook/2",
        "X-Extractor-Timestamp": timestamp,
        "X-Extractor-Tenant": job.tenant,
        "X-Extractor-Signature": sign(secret, timestamp, body, tenant=job.tenant, delivery=delivery),
        "X-Extractor-Delivery": delivery,
        **({"X-Request-Id": job.request_id} if job.request_id else {}),
    }
    parts = urlsplit(job.callback_url)
    deadline = Deadline(settings.timeout)  # the whole attempt: connect, headers and the answer's status line
    connection = pinned_connection(job.callback_url, address=address, deadline=deadline)
    try:
        # http.client follows no redirect: a 3xx is the receiver's answer, not a new address to reach
        connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
        code = connection.getresponse().status
        if deadline.passed:  # the headers "ended" because the deadline shut the socket: no answer
            raise TimeoutError
    except (OSError, http.client.HTTPException) as exc:
        if deadline.passed:
            return {**attempt, "error": f"no answer within {settings.timeout:g} s"}
        return {**attempt, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        connection.close()
    return {**attempt, "status_code": code, "ok": 200 <= code < 300}


class Deliverer:
    """A bounded pool of threads delivering the store's due webhooks (every serving or working process runs one;
    the store hands each due delivery to one of them), one delivery per tenant at a time here: a receiver that
    trickles holds one thread until the attempt's deadline, never another tenant's delivery."""

    def __init__(
        self, *, store: Store, settings: WebhookSettings, idle: float = 0.5, workers: int = DELIVERY_WORKERS
    ) -> None:
        """Prepare the threads (``start`` starts them)."""
        self.store, self.settings, self.idle = store, settings, idle
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._busy: set[str] = set()  # tenants with a delivery under way in this process
        self._threads = [
            threading.Thread(target=self._loop, name=f"extract-webhooks-{n}", daemon=True) for n in range(workers)
        ]

    def start(self) -> None:
        """Start delivering (nothing to do without a secret: no job can have a callback)."""
        if self.settings.sends:
            for thread in self._threads:
                thread.start()

    def wake(self) -> None:
        """A job ended here: look for due deliveries now."""
        self._wake.set()

    def stop(self, *, timeout: float = 5.0) -> None:
        """Stop after the current attempts."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout)

    def run_once(self) -> bool:
        """Deliver one due webhook, if any, of a tenant with none under way here.

        Returns:
            True when one was attempted.
        """
        with self._lock:  # claimed one at a time, so two threads never take the same tenant
            job = self.store.due_delivery(hold=self.settings.timeout + 5.0, skip=tuple(sorted(self._busy)))
            if job is None:
                return False
            self._busy.add(job.tenant)
        try:
            attempt = deliver(job, settings=self.settings)
        finally:
            with self._lock:
                self._busy.discard(job.tenant)
        tried = attempt["attempt"] - (job.callback_from or 0)  # since it was last sent again by request
        if attempt["ok"]:
            state, retry_in = "delivered", None
        elif tried >= self.settings.tries:
            state, retry_in = "failed", None
        else:
            state, retry_in = "pending", self.settings.backoff * 2 ** (tried - 1)
        self.store.delivered(job, attempt=attempt, state=state, retry_in=retry_in)
        log.info("webhook of job %s: attempt %d %s", job.id, attempt["attempt"], "ok" if attempt["ok"] else state)
        return True

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                busy = self.run_once()
            except Exception:
                log.exception("webhook delivery")
                busy = False
            if not busy:
                self._wake.wait(self.idle)
                self._wake.clear()


__all__ = [
    "DEFAULT_BACKOFF",
    "DEFAULT_TRIES",
    "DELIVERY_WORKERS",
    "Deliverer",
    "SECRET_ENV",
    "TENANT_SECRETS_ENV",
    "WebhookSettings",
    "check_callback",
    "checked_address",
    "deliver",
    "payload",
    "shown_url",
    "secret_keys",
    "sign",
    "tenant_secrets",
]
