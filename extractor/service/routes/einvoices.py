"""``GET /v1/jobs/{id}/einvoice/{format}``: a done job's invoice as the EN 16931 XML its record was checked on."""

from __future__ import annotations

import hashlib

from fastapi import Query
from fastapi.responses import Response

from extractor.einvoice.formats import XML_FORMATS
from extractor.service import contract
from extractor.service.problems import ProblemError
from extractor.service.routes import resource_router
from extractor.service.routes.depends import Service, needs

router = resource_router("jobs")


def _no_einvoice(fmt: str, made: list[str]) -> str:
    """Why a job has no e-invoice ``fmt``, and what one may ask for."""
    here = f"this job has {', '.join(made)}" if made else "this job made none"
    if fmt not in XML_FORMATS:
        return f"{fmt!r} is no e-invoice format ({', '.join(XML_FORMATS)}); {here}"
    return f"no {fmt} e-invoice in this job ({here}): submit with options.einvoice [{fmt!r}] to get one"


@router.get(
    "/v1/jobs/{job_id}/einvoice/{fmt}",
    summary="A done job's invoice as EN 16931 XML, in a format the job asked for (options.einvoice)",
    response_class=Response,
    responses={
        200: {
            "description": "The XML its record's einvoice entry was checked on (the same sha256)",
            "content": {"application/xml": {"schema": {"type": "string"}}},
            "headers": {"X-Extractor-Valid": {"schema": {"type": "string", "enum": ["true", "false"]}}},
        },
        **contract.problems(401, 404, 422, 500),
    },
)
def get_einvoice(
    service: Service,
    job_id: str,
    fmt: str,
    number: int = Query(1, ge=1, description="The Nth invoice of a split file."),
    owner: str = needs("read"),
) -> Response:
    """The XML of a done job's e-invoice ``fmt``, made again and checked to be the file its record was checked on."""
    job = service.store.get(job_id, tenant=owner)
    if job is None:
        raise ProblemError("job_not_found", f"no job {job_id} of this key")
    records = job.records or []
    record = records[number - 1] if number <= len(records) else None
    made = sorted(((record or {}).get("einvoice") or {}).keys())
    entry = ((record or {}).get("einvoice") or {}).get(fmt)
    if record is None or entry is None:
        raise ProblemError("einvoice_not_found", _no_einvoice(fmt, made), extra={"formats": made})
    from extractor.einvoice.report import einvoice_xml  # lxml only when asked for

    xml = einvoice_xml(record, fmt)
    if hashlib.sha256(xml).hexdigest() != entry.get("sha256"):  # never a file other than the one checked
        raise ProblemError("einvoice_mismatch", "the e-invoice could not be made again as it was checked")
    stem = job.filename.rsplit(".", 1)[0] or "invoice"
    headers = {
        "Content-Disposition": f'attachment; filename="{stem}.{fmt}.xml"',
        "X-Extractor-Valid": "true" if entry.get("valid") else "false",
    }
    return Response(xml, media_type="application/xml", headers=headers)


__all__ = ["router"]
