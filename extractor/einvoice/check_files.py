"""``extract einvoice validate``: check e-invoice files (an XML file, or the XML a Factur-X / ZUGFeRD PDF carries)
with the pinned CEN rules and the CIUS rules their BT-24 names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extractor.einvoice.validate import EinvoiceCheckError, Validation, validate_xml
from extractor.errors import InputError


@dataclass(frozen=True)
class FileCheck:
    """``extract einvoice validate`` on one file.

    Attributes:
        source: the file as given.
        validation: the rules' result, None when they could not run.
        attachment: the PDF attachment checked ("" for an XML file).
        error: why the file could not be checked, None when it was.
    """

    source: str
    validation: Validation | None
    attachment: str = ""
    error: str | None = None

    def to_dict(self) -> dict:
        """JSON shape: ``{"source", "attachment", "error", ...Validation.to_dict()}``."""
        out: dict[str, Any] = {"source": self.source, "attachment": self.attachment, "error": self.error}
        if self.validation is not None:
            out.update(self.validation.to_dict())
        else:
            out["valid"] = False
        return out


def validate_file(path: str | Path, *, rules: Sequence[str] | None = None) -> FileCheck:
    """Check an e-invoice file with the pinned CEN rules: an XML file, or the XML a Factur-X / ZUGFeRD PDF carries.

    Args:
        path: the file.
        rules: the rule sets to run (``validate.check_rule_sets``: ``xrechnung`` runs CEN's and XRechnung's); None:
            those the document's specification identifier BT-24 names (``validate.rule_sets_for``).

    Returns:
        The FileCheck; ``error`` says why nothing could be checked (unreadable file, no embedded XML, no EN 16931
        syntax, no engine) and ``validation`` is then None.
    """
    from extractor.einvoice.read import read_embedded_xml

    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return FileCheck(
            source=source, validation=None, error=f"{source}: cannot read the file ({exc.strerror or exc})"
        )
    attachment = ""
    if data[:5] == b"%PDF-":
        try:
            found = read_embedded_xml(data)
        except InputError as exc:
            return FileCheck(source=source, validation=None, error=f"{source}: {exc}")
        if found is None:
            return FileCheck(source=source, validation=None, error=f"{source}: the PDF carries no e-invoice XML")
        attachment, data = found
    try:
        validation = validate_xml(data, source=source, rules=rules)
        return FileCheck(source=source, validation=validation, attachment=attachment)
    except EinvoiceCheckError as exc:
        return FileCheck(source=source, validation=None, attachment=attachment, error=f"{source}: {exc}")


__all__ = ["FileCheck", "validate_file"]
