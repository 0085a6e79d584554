"""The service's typed contract: the models its OpenAPI document publishes, so a client can be generated from it.

The record is not written again here: ``Record``'s JSON Schema *is* ``schemas/record.schema.json`` (the file users
validate records with and the Python API's ``record_schema()``), so the files, the Python API and the service share
one definition. ``components()`` gives the models no route returns but requests use (``Options``, ``UrlSource``,
``Problem``) for the document's components; ``upload_body`` is ``POST /v1/jobs``'s request body in either form.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, RootModel
from pydantic.json_schema import models_json_schema

from extractor.einvoice.formats import XML_FORMATS
from extractor.record import record_schema
from extractor.service.stored_job import CallbackState, JobStatus, Outcome

REF = "#/components/schemas/{model}"
EinvoiceFormat = Literal[XML_FORMATS]  # type: ignore[valid-type]  # the format table's XML-only rows


def _iso(moment: datetime.datetime):  # unannotated: the document then keeps its date-time schema
    """A moment as every answer gives times: ISO 8601 UTC with milliseconds."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


Moment = Annotated[datetime.datetime, PlainSerializer(_iso, when_used="json")]


def record_component() -> dict[str, Any]:
    """The record's JSON Schema as an OpenAPI component: schemas/record.schema.json without ``$schema`` and
    ``$id``, and ``items: {}`` (any item, as before) made explicit on its arrays that leave it out, which client
    generators require."""
    own = record_schema()
    return _explicit_items({key: value for key, value in own.items() if key not in ("$schema", "$id")})


def _explicit_items(value: Any) -> Any:
    if isinstance(value, list):
        return [_explicit_items(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _explicit_items(item) for key, item in value.items()}
    kind = out.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "array" in kinds and "items" not in out and "prefixItems" not in out:
        out["items"] = {}
    return out


def _record_schema(schema: dict[str, Any], *_: Any) -> None:
    """Pydantic's schema of ``Record`` replaced by the record's own JSON Schema."""
    schema.clear()
    schema.update(record_component())


class Record(RootModel[dict[str, Any]]):
    """One record, as ``extract run`` writes it for the same file and settings (schemas/record.schema.json)."""

    model_config = ConfigDict(json_schema_extra=_record_schema)


class Options(BaseModel):
    """What a request may vary per document (each optional)."""

    model_config = ConfigDict(extra="forbid")

    pages: str | None = Field(None, description="Pages to read, e.g. `1-3,5`.", examples=["1-3,5"])
    password: str | list[str] | None = Field(
        None, description="The PDF's password, or several to try (kept until the job ends, never shown)."
    )
    split: Literal["auto", "never"] | None = Field(
        None, description="`auto`: a file of several invoices gives one record each."
    )
    einvoice: list[EinvoiceFormat] | None = Field(
        None, description="Check each invoice record as these EN 16931 e-invoices (the XML then downloadable)."
    )


class JobOptions(BaseModel):
    """A job's options as every answer shows them (passwords never shown)."""

    schema_: str | dict[str, Any] | None = Field(
        None, alias="schema", description="The schema asked for: a name, or the request's own JSON Schema."
    )
    pages: str | None = None
    split: Literal["auto", "never"] | None = None
    einvoice: list[EinvoiceFormat] | None = None


class Delivery(BaseModel):
    """One webhook delivery attempt."""

    attempt: int = Field(description="1 for the first attempt.")
    at: Moment = Field(description="When it was sent (ISO 8601, UTC).")
    ok: bool = Field(description="The receiver answered 2xx.")
    status_code: int | None = Field(None, description="The receiver's answer.")
    error: str | None = Field(None, description="Why no answer came (refused, time-out, a private address).")


class Callback(BaseModel):
    """A job's webhook: where it goes (without the URL's query) and every attempt."""

    url: str = Field(description="The callback URL without its query.")
    state: CallbackState | None = Field(
        description="null until the job ends; then pending until delivered or its tries are spent (failed)."
    )
    deliveries: list[Delivery]


class Job(BaseModel):
    """A job: its state and times, and when done its record."""

    id: str
    status: JobStatus
    created: Moment = Field(description="Accepted at (ISO 8601, UTC).")
    started: Moment | None = Field(description="Last claimed by a worker at (ISO 8601, UTC).")
    finished: Moment | None = Field(description="Ended at (ISO 8601, UTC).")
    filename: str = Field(description="The upload's file name (the record's `source`).")
    sha256: str = Field(description="The upload's SHA-256 (empty for a URL source: its record has the fetched bytes').")
    fingerprint: str = Field(description="The settings' fingerprint: equal settings, equal fingerprints.")
    options: JobOptions
    runs: int = Field(description="How many times a worker claimed it.")
    url: str | None = Field(None, description="A URL source, without its query.")
    queue_position: int | None = Field(None, description="While queued: 1 is next.")
    error: str | None = Field(None, description="Why a job failed (a bug; a bad file is an error record).")
    answered_from: str | None = Field(
        None, description="The earlier job of the same bytes and settings whose records answer this one."
    )
    callback: Callback | None = None
    record: Record | None = Field(None, description="Once done: the (first) record.")
    records: list[Record] | None = Field(None, description="With `split: auto` and several invoices: every record.")


class JobList(BaseModel):
    """A page of the caller's jobs, newest first, without their records."""

    jobs: list[Job]
    next: int | None = Field(description="Pass as `before` for the next page (null: the last page).")


class Deleted(BaseModel):
    """What ``DELETE /v1/jobs/{id}`` did."""

    id: str
    status: Outcome


class Taught(BaseModel):
    """What ``POST /v1/jobs/{id}/review`` taught the tenant's layouts (docs/learning.md)."""

    document: str = Field(description="the job's id")
    layout: str | None = Field(description="the layout taught or demoted; null when nothing was")
    supplier: str | None = Field(description="the identity it is keyed on (vat:..., iban:...)")
    replaced: str | None = Field(description="the earlier layout the review replaced, with who taught it")
    notes: list[str] = Field(description="what was not learned and why; a demotion")
    refused: str | None = Field(description="why nothing was learned (not approved, the data does not fit)")


class Health(BaseModel):
    """The server serves."""

    status: Literal["serving"]


class ValidationIssue(BaseModel):
    """One field a request got wrong."""

    loc: list[str]
    msg: str
    type: str


class Outage(BaseModel):
    """A database the service is waiting out (``store_unavailable``)."""

    store: str = Field(description="What it is: `--store` (the jobs), `register`.")
    database: str = Field(description="Where it is: a path, or a URL with its password masked.")
    since: str = Field(description="Unreachable since (ISO 8601, UTC, to the second).")
    error: str = Field(description="The last failure, in a line.")


class Problem(BaseModel):
    """Every error (RFC 9457 ``application/problem+json``): ``code`` is stable, docs/serve.md lists every one."""

    type: str = Field(description="A URL naming the problem type.")
    title: str
    status: int
    detail: str
    code: str = Field(description="A stable snake_case code, e.g. `job_not_found`, `file_too_large`.")
    errors: list[ValidationIssue] | None = Field(None, description="`invalid_request`: each field's problem.")
    formats: list[str] | None = Field(None, description="`einvoice_not_found`: the job's e-invoice formats.")
    outages: list[Outage] | None = Field(None, description="`store_unavailable`: each database waited out.")


class UrlSource(BaseModel):
    """``POST /v1/jobs`` with a document fetched from a URL instead of an uploaded file."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="http(s) URL of the PDF or image (public addresses only, unless allowed).")
    schema_: str | dict[str, Any] | None = Field(
        None, alias="schema", description="A schema's name, or a JSON Schema of the request's own."
    )
    options: Options | None = None
    callback_url: str | None = Field(None, description="Where the signed webhook goes when the job ends.")


def components() -> dict[str, Any]:
    """The request models' and the problem's JSON Schemas, as OpenAPI components."""
    _, top = models_json_schema(
        [(Options, "validation"), (UrlSource, "validation"), (Problem, "serialization")], ref_template=REF
    )
    # a request's optional field says no default: generators (openapi-typescript) take a default for "always present"
    return {name: _no_null_defaults(schema) for name, schema in top["$defs"].items()}


def _no_null_defaults(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _no_null_defaults(item) for key, item in value.items() if not (key == "default" and item is None)}
    return [_no_null_defaults(item) for item in value] if isinstance(value, list) else value


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` entries of a route's errors: each status answered as problem+json."""
    content = {"application/problem+json": {"schema": {"$ref": REF.format(model="Problem")}}}
    return {str(status): {"description": "An error (problem+json)", "content": content} for status in statuses}


def review_body() -> dict[str, Any]:
    """``POST /v1/jobs/{id}/review``'s request body: the job's file again (its SHA-256 is checked), the corrected
    data and whether it is approved."""
    form = {
        "type": "object",
        "required": ["file", "data"],
        "properties": {
            "file": {"type": "string", "format": "binary", "description": "The job's PDF or image, again."},
            "data": {"type": "object", "description": "The corrected data (the job's schema)."},
            "approved": {"type": "boolean", "description": "Approved: it teaches (else only a correction demotes)."},
        },
    }
    return {
        "required": True,
        "content": {"multipart/form-data": {"schema": form, "encoding": {"data": {"contentType": "application/json"}}}},
    }


def upload_body() -> dict[str, Any]:
    """``POST /v1/jobs``'s request body: a multipart upload (``options`` a JSON part), or a JSON ``UrlSource``."""
    form = {
        "type": "object",
        "required": ["file"],
        "properties": {
            "file": {"type": "string", "format": "binary", "description": "The PDF or image."},
            "schema": {"type": "string", "description": "A schema's name, or a JSON Schema of the request's own."},
            "options": {"$ref": REF.format(model="Options")},
            "callback_url": {"type": "string", "description": "Where the signed webhook goes when the job ends."},
        },
    }
    return {
        "required": True,
        "content": {
            "multipart/form-data": {"schema": form, "encoding": {"options": {"contentType": "application/json"}}},
            "application/json": {"schema": {"$ref": REF.format(model="UrlSource")}},
        },
    }


__all__ = [
    "Callback",
    "Taught",
    "Deleted",
    "Delivery",
    "EinvoiceFormat",
    "Health",
    "Job",
    "JobList",
    "JobOptions",
    "Moment",
    "Options",
    "Outage",
    "Problem",
    "Record",
    "UrlSource",
    "ValidationIssue",
    "components",
    "problems",
    "record_component",
    "review_body",
    "upload_body",
]
