"""Clients generated from the service's OpenAPI document by their own tools, as an integrator makes them: a contract
that cannot generate a client, or whose client does not type-check, fails here.

- TypeScript: ``openapi-typescript`` (types) and ``openapi-fetch`` (calls), pinned in tests/clients/package.json
  (``npm ci`` there; ``.ci/run`` does it), compiled by ``tsc --strict``, with calls that must type-check and
  ``@ts-expect-error`` lines that must not (so the types are real, not ``any``).
- Python: ``openapi-python-client``, pinned in tests/clients/requirements.txt and installed in a venv of its own
  (tests/clients/.venv; ``.ci/run`` makes it: it requires a typer older than the project's), generated without a
  warning, type-checked by mypy, and calling the app in-process: a multipart upload with typed options, a job and
  a problem parsed into its models.

Without their tools they skip, and fail under ``CI=true``.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from servekit import in_process_app

CLIENTS = ROOT / "tests" / "clients"
app_client = in_process_app  # the fixture: the app in-process
TOOLS_TIMEOUT = 300  # seconds: only stops a hung tool

CALL_TS = """\
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type Job = components["schemas"]["Job"];
type Problem = components["schemas"]["Problem"];

export async function recordOf(baseUrl: string, key: string, pdf: Blob): Promise<string> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
  const submitted = await client.POST("/v1/jobs", {
    body: { file: "", options: { pages: "1-2", split: "auto", einvoice: ["cii"] } },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append("file", pdf, "invoice.pdf");
      form.append("options", JSON.stringify(body.options));
      return form;
    },
  });
  if (submitted.error) {
    const problem: Problem = submitted.error;
    return `${problem.code}: ${problem.detail}`;
  }
  const url = "https://example.com/a.pdf";
  const fromUrl = await client.POST("/v1/jobs", { body: { url, options: { pages: "1" } } });
  let job: Job = submitted.data;
  while (job.status === "queued" || job.status === "running") {
    const polled = await client.GET("/v1/jobs/{job_id}", {
      params: { path: { job_id: job.id }, query: { wait: 30 } },
    });
    if (polled.error) return polled.error.code;
    job = polled.data;
  }
  // @ts-expect-error: a job has no such field
  job.no_such_field;
  // @ts-expect-error: not a status a job can have
  const impossible: Job["status"] = "finished";
  // @ts-expect-error: options are typed: no such option
  const unknown: components["schemas"]["Options"] = { model: "x" };
  // @ts-expect-error: wait is a number of seconds
  await client.GET("/v1/jobs/{job_id}", { params: { path: { job_id: "x" }, query: { wait: "long" } } });
  const retried = await client.POST("/v1/jobs/{job_id}/callback/retry", { params: { path: { job_id: job.id } } });
  const status: "ok" | "review" | "invalid" | "truncated" | "runaway" | "error" | undefined = job.record?.status;
  const codes = `${fromUrl.response.status} ${retried.response.status} ${impossible} ${unknown}`;
  return `${status} ${JSON.stringify(job.record?.data)} ${codes}`;
}
"""

CALL_PY = """\
from __future__ import annotations

import io

from extractor_api_client import AuthenticatedClient
from extractor_api_client.api.jobs import create_job, get_job
from extractor_api_client.models import CreateJobFilesBody, Job, Options, Problem
from extractor_api_client.types import File


def status_of(client: AuthenticatedClient, pdf: bytes) -> str:
    body = CreateJobFilesBody(file=File(payload=io.BytesIO(pdf), file_name="invoice.pdf"), options=Options(pages="1"))
    job = create_job.sync(client=client, body=body)
    if isinstance(job, Problem) or job is None:
        return "problem"
    again = get_job.sync(job.id, client=client, wait=1.0)
    return again.status.value if isinstance(again, Job) else "problem"
"""


def _require(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is not installed: CI must have it (tests/clients, .ci/run)")
        pytest.skip(f"{tool} is not installed")
    return found


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> Path:
    """The served document (docs/openapi.json is the same: test_serve.py checks it), written to a file."""
    from extractor.service.app import openapi_document

    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_text(json.dumps(openapi_document()), encoding="utf-8")
    return path


def _run(args: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TOOLS_TIMEOUT)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def test_a_typescript_client_is_generated_and_type_checks(document, tmp_path):
    node, npm = _require("node"), _require("npm")
    modules = CLIENTS / "node_modules"
    if not (modules / ".bin" / "openapi-typescript").exists():  # .ci/run installs them; a checkout may not have
        _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=CLIENTS)
    (tmp_path / "node_modules").symlink_to(modules)
    _run([node, str(modules / "openapi-typescript" / "bin" / "cli.js"), str(document), "-o", "api.d.ts"], cwd=tmp_path)
    (tmp_path / "call.ts").write_text(CALL_TS, encoding="utf-8")
    tsc = [node, str(modules / "typescript" / "bin" / "tsc"), "--noEmit", "--strict", "--skipLibCheck"]
    _run([*tsc, "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "call.ts"], cwd=tmp_path)
    size = (tmp_path / "api.d.ts").stat().st_size
    print(f"openapi-typescript: api.d.ts {size} bytes")
    assert "export interface paths" in (tmp_path / "api.d.ts").read_text(encoding="utf-8")


def test_a_python_client_is_generated_type_checks_and_calls_the_service(document, tmp_path, app_client):
    generator = CLIENTS / ".venv" / "bin" / "openapi-python-client"  # its own venv (.ci/run makes it)
    if not generator.exists():
        generator = Path(_require("openapi-python-client"))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {"application/xml": "application/octet-stream"}}))
    package = tmp_path / "extractor_api_client"
    args = ["generate", "--path", str(document), "--meta", "none", "--config", str(config)]
    tools = {**os.environ, "PATH": f"{generator.parent}{os.pathsep}{os.environ['PATH']}"}  # its own ruff formats
    out = _run([str(generator), *args, "--output-path", str(package)], cwd=tmp_path, env=tools)
    assert "Warning" not in out and "Error" not in out, out  # every route and model made, none left out
    (tmp_path / "call.py").write_text(CALL_PY, encoding="utf-8")
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", "call.py"]
    _run(mypy, cwd=tmp_path)
    size = sum(path.stat().st_size for path in package.rglob("*.py"))
    print(f"openapi-python-client: {len(list(package.rglob('*.py')))} files, {size} bytes")

    sys.path.insert(0, str(tmp_path))
    try:
        client_module = importlib.import_module("extractor_api_client")
        call = importlib.import_module("call")
        client = client_module.AuthenticatedClient(base_url=str(app_client.base_url), token="unused")
        client.set_httpx_client(app_client)  # the app in-process, alice's key on every request
        assert call.status_of(client, (ROOT / "samples" / "invoice-de-einfach.pdf").read_bytes()) == "queued"
        from extractor_api_client.api.jobs import get_job

        missing = get_job.sync("nope", client=client)
        assert type(missing).__name__ == "Problem" and missing.code == "job_not_found"
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.startswith("extractor_api_client") or name == "call"]:
            del sys.modules[name]
