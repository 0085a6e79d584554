"""One error root for the whole package, and the exit codes the CLI maps errors onto."""

from __future__ import annotations

import enum
from pathlib import Path


class ExitCode(enum.IntEnum):
    """Process exit codes of the `extract` CLI."""

    OK = 0  # every record ok (or the command succeeded)
    NOT_OK = 1  # at least one record not ok / a check failed
    USAGE = 2  # bad options or arguments
    INTERRUPTED = 130


class ExtractorError(Exception):
    """Root of every error this package raises on purpose.

    Attributes:
        code: a stable, documented machine-readable code (e.g. ``corrupt``).
        source: the file the error is about, when there is one.
    """

    code: str = "error"

    def __init__(self, message: str, *, source: Path | str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.source = str(source) if source is not None else None
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        if self.source and self.source not in self.message:
            return f"{self.source}: {self.message}"
        return self.message


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` is a write refused by its file system for want of room or because it is read-only (ENOSPC,
    EDQUOT, EROFS): an output file (``jobs.sinks.OutputFull``) or a store (``db``: a SQLite file, a PostgreSQL
    server's full disk). Nothing torn is left behind either; an intake waits for space, a batch exits 2."""
    return bool(getattr(exc, "disk_full", False))


class UsageError(ExtractorError):
    """Bad options or arguments (exit code 2)."""

    code = "usage"


class InputError(ExtractorError):
    """An input document cannot be read or rendered.

    Codes: not_found, unreadable, empty, not_a_pdf, unsupported_type, corrupt, encrypted,
    wrong_password, too_large; a received e-invoice XML (``einvoice.receive``): malformed_xml, xml_doctype,
    not_an_einvoice.
    """

    code = "corrupt"


class WorkerError(ExtractorError):
    """The isolated worker died (``crashed``) or ran past its time limit (``timeout``)."""

    code = "crashed"


class ModelError(ExtractorError):
    """The model could not be loaded or failed while generating."""

    code = "model_error"


class SchemaError(ExtractorError):
    """A JSON Schema cannot be found, parsed or used."""

    code = "schema"
