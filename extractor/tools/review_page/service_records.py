"""The review page over a service tenant (``extract review URL --api-key KEY --files DIR``, issue 51 part 6): the
tenant's records listed through the service's API (``GET /v1/jobs``, ``GET /v1/jobs/{id}``), a review saved and
approved through ``POST /v1/jobs/{id}/review``, so approving teaches that tenant's layouts on the server.

The service keeps no upload once its job has ended, and a review must send the job's file again: the page finds
each job's file in DIR by its SHA-256 (the files the team submitted), renders its pages from there, and writes the
reviewed file there too (``DIR/<job id>.reviewed.json``, as ``extract review OUT`` writes beside a record). A job
whose file is not in DIR is shown without pages, and cannot be saved (said on the page).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from extractor.errors import UsageError
from extractor.tools.review_page.layout_panel import LayoutPanel, ReviewRefused
from extractor.tools.review_page.records import Entry, RecordStore

JOBS_PAGE = 200  # jobs asked for per GET /v1/jobs (the service's page limit is higher)
CLIENT_TIMEOUT_S = 30.0  # one request to the service: a review that teaches reads the document again


class ServiceError(ReviewRefused):
    """The service refused a request or could not be reached: ``status`` (502: not reached) and its message."""


class ServiceClient:
    """The few calls the page makes to one tenant's service (its key in every request)."""

    def __init__(self, url: str, *, api_key: str) -> None:
        """Args: url: the service's base URL (``http://host:port``); api_key: the tenant's key (scopes ``read``
        and ``review``)."""
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise UsageError(f"{url}: not a service URL (http://host:port)")
        if not api_key:
            raise UsageError(f"{url}: a service needs the tenant's key: --api-key KEY")
        self.url = url.rstrip("/")
        self._key = api_key

    def get(self, path: str) -> Any:
        """GET ``path`` (JSON).

        Raises:
            ServiceError: the service answered an error, or was not reached.
        """
        return self._send(urllib.request.Request(self.url + path, method="GET"))

    def review(self, job_id: str, *, file: Path, name: str, data: Any, approved: bool) -> dict:
        """``POST /v1/jobs/{id}/review``: the job's file again, the corrected data, approved; what it taught.

        Raises:
            ServiceError: the service refused the review (its problem's detail), or was not reached.
        """
        parts = {"data": json.dumps(data, ensure_ascii=False), "approved": "true" if approved else "false"}
        body, boundary = _multipart(parts, file=(name, file.read_bytes()))
        request = urllib.request.Request(
            f"{self.url}/v1/jobs/{urllib.parse.quote(job_id, safe='')}/review", data=body, method="POST"
        )
        request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
        return self._send(request)

    def _send(self, request: urllib.request.Request) -> Any:
        request.add_header("Authorization", f"Bearer {self._key}")
        request.add_header("Accept", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=CLIENT_TIMEOUT_S) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise ServiceError(exc.code, f"{request.full_url}: {_problem(exc)}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ServiceError(502, f"{request.full_url}: the service cannot be reached ({exc})") from None


class ServiceRecords(RecordStore):
    """A service tenant's records as the review page reads them (``RecordStore``'s interface): a record's name is
    its job's id; its source is the file in ``files`` with its SHA-256."""

    def __init__(self, client: ServiceClient, *, files: Path, reviewer: str | None = None) -> None:
        """Args: client: the tenant's service; files: the folder of the submitted files (reviewed files go there
        too); reviewer: who reviews (default: the OS user).

        Raises:
            UsageError: ``files`` is not a folder.
        """
        super().__init__(files, reviewer=reviewer)  # reviewed files are written in ``files`` (``self.out``)
        self.files = self.out
        self.client = client
        self._records: dict[str, dict] = {}  # job id -> its record (an ended job's record never changes)
        self._by_sha: dict[str, Path] = {}

    def entries(self) -> list[Entry]:
        """The tenant's ended jobs with a record, ``review`` first as for a folder (jobs read once each)."""
        found = []
        for job in self._jobs():
            record = self._record(job)
            if record is not None:
                found.append(Entry(name=job["id"], path=self.files / f"{job['id']}.json", record=record))
        return self.ordered(found)

    def source(self, entry: Entry) -> Path | None:
        """The file in ``files`` with the job's SHA-256 (the folder read again when it is not known yet), or None."""
        sha = str(entry.record.get("sha256") or "")
        if sha not in self._by_sha:
            self._by_sha = _by_sha256(self.files)
        return self._by_sha.get(sha)

    @property
    def where(self) -> str:
        """The service's URL (what the list page names as where the records are)."""
        return self.client.url

    def _jobs(self) -> list[dict]:
        jobs, before = [], None
        while True:
            query = f"?limit={JOBS_PAGE}" + (f"&before={before}" if before is not None else "")
            page = self.client.get("/v1/jobs" + query)
            jobs += [job for job in page.get("jobs") or () if job.get("status") not in ("queued", "running")]
            before = page.get("next")
            if before is None:
                return jobs

    def _record(self, job: dict) -> dict | None:
        if job["id"] not in self._records:
            record = self.client.get(f"/v1/jobs/{urllib.parse.quote(job['id'], safe='')}").get("record")
            if not isinstance(record, dict):
                return None  # an ended job without a record (cancelled, failed before one): nothing to review
            self._records[job["id"]] = {**record, "source": job.get("filename") or record.get("source")}
        return self._records[job["id"]]


class ServiceLayouts(LayoutPanel):
    """The layout panel over a service tenant: approving teaches on the server (``POST /v1/jobs/{id}/review``);
    the layouts themselves live in the service's register, so the page shows what the record says of them."""

    def __init__(self, store: ServiceRecords) -> None:
        """Args: store: the tenant's records."""
        super().__init__(store, None)
        self.service = store

    def teach(self, entry: Entry, data: Any, *, approved: bool) -> dict | None:
        """Send the review to the service: what it taught or demoted (``Taught.to_dict()``).

        Raises:
            ServiceError: the job's file is not in the files folder (409), or the service refused the review.
        """
        source = self.service.source(entry)
        if source is None:
            named = entry.record.get("source")
            raise ServiceError(409, f"{named}: not found in {self.service.files} (the service needs the job's file)")
        name = str(entry.record.get("source") or source.name)
        return self.service.client.review(entry.name, file=source, name=name, data=data, approved=approved)

    def forget(self, entry: Entry) -> tuple[int, dict]:
        """The service's layouts are forgotten where they live: ``extract layouts forget ID --register STORE``."""
        said = entry.record.get("layout") or {}
        why = f"forget layout {said.get('id')} on the service: extract layouts forget ID --register STORE"
        return 409, {"error": why}


def _by_sha256(folder: Path) -> dict[str, Path]:
    """The files under ``folder`` (reviewed files aside) by their SHA-256."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.endswith(".reviewed.json"):
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            found.setdefault(digest.hexdigest(), path)
    return found


def _problem(error: urllib.error.HTTPError) -> str:
    """A service error's detail (problem+json), or its status line."""
    try:
        body = json.loads(error.read() or b"null")
    except ValueError:
        body = None
    if isinstance(body, dict) and body.get("detail"):
        return f"{body.get('code') or error.code}: {body['detail']}"
    return f"HTTP {error.code} {error.reason}"


def _multipart(fields: dict[str, str], *, file: tuple[str, bytes]) -> tuple[bytes, str]:
    """A multipart/form-data body of text ``fields`` and one ``file`` part (name, bytes); and its boundary."""
    boundary = "extract-review-" + secrets.token_hex(12)
    chunks = []
    for key, value in fields.items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode())
    name = file[0].replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
    chunks.append((head + "Content-Type: application/octet-stream\r\n\r\n").encode() + file[1] + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), boundary


__all__ = ["ServiceClient", "ServiceError", "ServiceLayouts", "ServiceRecords"]
