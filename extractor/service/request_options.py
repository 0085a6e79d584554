"""What a request to ``extract serve`` may ask for: the per-request options that are safe to vary, a schema (a
built-in name, the server's own, or a JSON Schema of the request's own), and the name its upload is extracted
under. A request never names a file of the server.

A request's JSON Schema is kept with its job (so any worker on any machine can run it) and, where it runs, written
once as ``<sha256>.schema.json`` in a folder private to the process (``mkdtemp``: mode 0700, a fresh name, so a
file another local user planted under the shared temp folder is never read); it may refer only to itself
(``$ref: "#..."``), so validating it never fetches anything.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from extractor.einvoice.formats import XML_FORMATS
from extractor.errors import UsageError
from extractor.jobs.sinks import write_atomic
from extractor.schema import BUILTIN_SCHEMAS

OPTIONS = ("pages", "password", "split", "einvoice")  # the per-request settings that are safe to vary
SCHEMA_LIMIT = 256 * 1024  # bytes of a request's own JSON Schema at most
SCHEMA_FOLDER = "extract-serve-schemas-"  # the private folder's prefix


def inline_schema(text: str) -> dict:
    """A request's own JSON Schema, checked for what could reach beyond the request (its validity as a JSON
    Schema is checked when it is loaded, as a file's is).

    Raises:
        UsageError: too large, not JSON, not an object, or a ``$ref`` that is not within the schema.
    """
    if len(text.encode()) > SCHEMA_LIMIT:
        raise UsageError(f"schema: a JSON Schema of at most {SCHEMA_LIMIT // 1024} KB")
    try:
        schema = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"schema: not JSON ({exc})") from None
    if not isinstance(schema, dict):
        raise UsageError("schema: a JSON Schema is a JSON object")
    _local_refs(schema)
    return schema


def _local_refs(value: Any) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("$ref", "$dynamicRef") and not (isinstance(item, str) and item.startswith("#")):
                raise UsageError(f"schema: {key} {str(item)[:80]!r} points outside the schema (only #... refs)")
            _local_refs(item)
    elif isinstance(value, list):
        for item in value:
            _local_refs(item)


def inline_schema_path(schema: dict) -> Path:
    """The file a request's JSON Schema is kept in on this machine (written once, atomically; named by its
    content's hash, so equal schemas share it)."""
    text = json.dumps(schema, sort_keys=True, ensure_ascii=False).encode("utf-8")
    path = schema_folder() / f"{hashlib.sha256(text).hexdigest()[:32]}.schema.json"
    if not path.exists() or path.read_bytes() != text:  # its content checked too: nothing else is ever used
        write_atomic(path, text)
    return path


@functools.cache
def schema_folder() -> Path:
    """This process's private folder for requests' schemas (made once: ``mkdtemp``, mode 0700)."""
    return Path(tempfile.mkdtemp(prefix=SCHEMA_FOLDER))


def request_options(*, schema: str | None, options: Any, server_schema: str) -> dict:
    """Check a request's ``schema`` and ``options`` and return them as a job keeps them.

    Args:
        schema: a built-in schema's name, the server's ``--schema`` as given (None: the server's), or a JSON
            Schema of the request's own (JSON text of an object); a request never names a file of the server.
        options: the parsed ``options`` JSON: ``pages`` (``"1-3,5"``), ``password`` (one or a list), ``split``
            (``auto`` | ``never``), ``einvoice`` (``["cii", "ubl"]``: each invoice record checked as those).
        server_schema: the server's ``--schema``.

    Raises:
        UsageError: an unknown option, a value of the wrong type, a schema that is not offered, or a JSON Schema
            too large, not an object, or with a ``$ref`` outside itself.
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise UsageError("options: expected a JSON object")
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise UsageError(f"options: unknown {', '.join(unknown)} (per request: {', '.join(OPTIONS)})")
    out: dict[str, Any] = {}
    if schema is not None and schema.lstrip().startswith("{"):
        out["schema"] = inline_schema(schema)
    elif schema is not None and schema != server_schema:
        if schema not in BUILTIN_SCHEMAS:
            raise UsageError(
                f"schema {schema[:60]!r}: expected {', '.join(BUILTIN_SCHEMAS)}, the server's own or a JSON Schema"
            )
        out["schema"] = schema
    if options.get("pages") is not None:
        if not isinstance(options["pages"], str):
            raise UsageError('options.pages: expected a string such as "1-3,5"')
        out["pages"] = options["pages"]
    password = options.get("password")
    if password is not None:
        passwords = [password] if isinstance(password, str) else password
        if not isinstance(passwords, list) or not all(isinstance(p, str) for p in passwords):
            raise UsageError("options.password: expected a string or a list of strings")
        out["password"] = passwords
    if options.get("split") is not None:
        out["split"] = options["split"]
    if options.get("einvoice") is not None:
        out["einvoice"] = _einvoice_formats(options["einvoice"])
    return out


def _einvoice_formats(value: Any) -> list[str]:
    formats = value.split(",") if isinstance(value, str) else value
    if not isinstance(formats, list) or not all(isinstance(f, str) for f in formats):
        raise UsageError('options.einvoice: expected a list of formats such as ["cii", "ubl"]')
    chosen = [f.strip().lower() for f in formats if f.strip()]
    # the XML-only formats: facturx is the source PDF carrying the XML, and no upload outlives its job
    unknown = sorted(set(chosen) - set(XML_FORMATS))
    if unknown:
        raise UsageError(
            f"options.einvoice: {', '.join(unknown)} not offered per request (the service offers "
            f"{', '.join(XML_FORMATS)}; facturx needs the source PDF, which it does not keep)"
        )
    return list(dict.fromkeys(chosen))


def upload_name(filename: str | None) -> str:
    """The name an upload is extracted under (and its records' ``source``): the client's file name without
    folders, characters other than letters, digits, ``.-_`` and spaces as ``_``, no leading dot."""
    name = re.split(r"[\\/]", filename or "")[-1]
    name = re.sub(r"[^\w.\- ]", "_", name).lstrip(". ")[:200]
    return name or "upload"


__all__ = [
    "OPTIONS",
    "inline_schema",
    "inline_schema_path",
    "request_options",
    "schema_folder",
    "upload_name",
]
