"""Check EN 16931 XML with the official rule sets, pinned in ``rules/`` and run by saxonche (XSLT 3.0): the CEN
rules (ConnectingEurope eInvoicing-EN16931, precompiled by CEN, plus the CII D16B XSD with lxml for CII) on every
document, and on top of them the CIUS rules its specification identifier BT-24 names (or the caller asks for):
XRechnung 3.0 (KoSIT, merged with the Peppol rules KoSIT adopts) and Peppol BIS Billing 3.0 (OpenPEPPOL), both
compiled from their ``.sch`` with SchXslt at vendoring time (``bench/einvoice_rules.py``).

Each stylesheet is compiled once per process (0.1-1 s) and kept; a document then takes 10-70 ms per rule set. The
SVRL report's ``failed-assert`` / ``successful-report`` entries become :class:`Finding` s (rule id, ``fatal`` /
``warning``, text, location, the rule set).

Hardening: the document is parsed by lxml first with entities, DTDs and the network off (a DOCTYPE is refused), and
handed to Saxon as text re-serialized from that parse (nothing is resolved from it); the stylesheets are our own
files, and Saxon is told to allow ``file`` URIs only.
Nothing is ever reported valid that was not checked: a missing engine or artefact raises :class:`EinvoiceCheckError`
naming what is missing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from extractor.einvoice.formats import CIUS_MARKS
from extractor.einvoice.xmltext import xml_parser
from extractor.errors import ExtractorError

RULES = "cen-1.3.16"  # the pinned CEN release (rules/<RULES>/README.md says how to update it)
XRECHNUNG_RULES = "xrechnung-3.0.2-schematron-2.5.0"  # KoSIT's XRechnung 3.0.2 schematron 2.5.0 (rules/README.md)
PEPPOL_RULES = "peppol-bis-3.0.19"  # OpenPEPPOL's Peppol BIS Billing 3.0.19
# rule set key (``--rules``) -> (its folder under rules/, the stylesheet per syntax)
RULE_SETS: dict[str, tuple[str, dict[str, str]]] = {
    "cen": (RULES, {"CII": "EN16931-CII-validation.xslt", "UBL": "EN16931-UBL-validation.xslt"}),
    "xrechnung": (XRECHNUNG_RULES, {"CII": "XRechnung-CII-validation.xsl", "UBL": "XRechnung-UBL-validation.xsl"}),
    "peppol": (PEPPOL_RULES, {"CII": "PEPPOL-EN16931-CII.xsl", "UBL": "PEPPOL-EN16931-UBL.xsl"}),
}
CII_XSD = "xsd-cii-d16b/CrossIndustryInvoice_100pD16B.xsd"
SVRL = "http://purl.oclc.org/dsdl/svrl"
XSD_RULE = "CII-XSD"  # the id a CII D16B schema error is reported under
_CII_ROOT = "{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}CrossIndustryInvoice"
_UBL_ROOTS = {
    "{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice",
    "{urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2}CreditNote",
}
_ZUGFERD1_ROOT = "CrossIndustryDocument"
_RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
_RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"


class EinvoiceCheckError(ExtractorError):
    """The rules could not run (no engine, a missing or broken artefact, XML of no EN 16931 syntax): nothing is
    known about the document's validity. Codes: ``einvoice_engine``, ``einvoice_rules``, ``einvoice_syntax``."""

    code = "einvoice_engine"


@dataclass(frozen=True)
class Finding:
    """One fired rule.

    Attributes:
        id: the rule id (``BR-CO-15``, ``BR-CL-23``, ``CII-XSD``).
        flag: ``fatal`` or ``warning`` (the rule's own flag).
        text: the rule's message.
        location: an XPath to the element it fired on (or ``line N`` for an XSD error).
        rules: the rule set it belongs to (``cen-1.3.16``, ``xrechnung-3.0.2-schematron-2.5.0``, ...).
    """

    id: str
    flag: str
    text: str
    location: str = ""
    rules: str = ""

    @property
    def fatal(self) -> bool:
        """Whether the rule is fatal (an invoice that fires it is not EN 16931-valid)."""
        return self.flag == "fatal"


@dataclass(frozen=True)
class Validation:
    """The result of checking one document.

    Attributes:
        syntax: ``CII`` or ``UBL``.
        rules: the rule sets that ran, CEN's first (``("cen-1.3.16", "xrechnung-3.0.2-schematron-2.5.0")``).
        findings: every fired rule, in report order (rule set by rule set).
        specification: the document's specification identifier BT-24 ("" when it has none).
    """

    syntax: str
    rules: tuple[str, ...]
    findings: tuple[Finding, ...] = ()
    specification: str = ""

    @property
    def fatal(self) -> tuple[str, ...]:
        """The ids of the fatal rules that fired, each once, in order."""
        return tuple(dict.fromkeys(f.id for f in self.findings if f.fatal))

    @property
    def warnings(self) -> tuple[str, ...]:
        """The ids of the warning rules that fired, each once, in order."""
        return tuple(dict.fromkeys(f.id for f in self.findings if not f.fatal))

    @property
    def valid(self) -> bool:
        """True when no fatal rule fired."""
        return not self.fatal

    def to_dict(self) -> dict:
        """JSON shape: ``{"syntax", "specification", "rules": [...], "valid", "fatal", "warnings", "findings":
        [{id, flag, text, location, rules}]}``."""
        return {
            "syntax": self.syntax,
            "specification": self.specification,
            "rules": list(self.rules),
            "valid": self.valid,
            "fatal": list(self.fatal),
            "warnings": list(self.warnings),
            "findings": [
                {"id": f.id, "flag": f.flag, "text": f.text, "location": f.location, "rules": f.rules}
                for f in self.findings
            ],
        }


def rules_dir(rule_set: str = RULES) -> Path:
    """The folder of a pinned rule set (package data), CEN's by default."""
    return Path(str(resources.files("extractor.einvoice"))) / "rules" / rule_set


class _Engine:
    """One Saxon processor per process and the stylesheets compiled on it, each once (under a lock: the pipeline
    may check documents from several threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._processor: Any = None  # saxonche's PySaxonProcessor (untyped here: imported on first use)
        self._compiled: dict[tuple[str, str], Any] = {}
        self._schema = None

    def _artefact(self, name: str, rule_set: str = RULES) -> Path:
        path = rules_dir(rule_set) / name
        if not path.is_file():
            raise EinvoiceCheckError(
                f"the EN 16931 rule artefact {path} is missing: the e-invoice cannot be checked "
                "(reinstall the package)",
                code="einvoice_rules",
            )
        return path

    def stylesheet(self, syntax: str, key: str = "cen"):
        """The compiled stylesheet of a rule set (``cen``, ``xrechnung``, ``peppol``) for ``CII`` / ``UBL``
        (compiled on first use)."""
        with self._lock:
            if (key, syntax) in self._compiled:
                return self._compiled[key, syntax]
            folder, files = RULE_SETS[key]
            path = self._artefact(files[syntax], folder)
            if self._processor is None:
                try:
                    from saxonche import PySaxonProcessor
                except ImportError as exc:
                    raise EinvoiceCheckError(
                        f"the XSLT engine saxonche is not installed ({exc}): the EN 16931 rules cannot run "
                        "(pip install saxonche)"
                    ) from exc
                processor = PySaxonProcessor(license=False)
                # the stylesheets read nothing beyond themselves; no document may make Saxon fetch anything else
                processor.set_configuration_property("http://saxon.sf.net/feature/allowedProtocols", "file")
                self._processor = processor
            try:
                executable = self._processor.new_xslt30_processor().compile_stylesheet(stylesheet_file=str(path))
            except Exception as exc:  # saxonche raises its own PySaxonApiError
                message = f"{path}: the rules could not be compiled ({exc})"
                raise EinvoiceCheckError(message, code="einvoice_rules") from exc
            self._compiled[key, syntax] = executable
            return executable

    def transform(self, syntax: str, xml: bytes, key: str = "cen") -> bytes:
        """The SVRL report of one document by one rule set (its text, parsed by Saxon from a string: nothing is
        resolved)."""
        executable = self.stylesheet(syntax, key)
        with self._lock:
            try:
                node = self._processor.parse_xml(xml_text=xml.decode("utf-8"))
                report = executable.transform_to_string(xdm_node=node)
            except Exception as exc:  # saxonche's PySaxonApiError: the rules did not run on this document
                message = f"the {RULE_SETS[key][0]} {syntax} rules could not run ({exc})"
                raise EinvoiceCheckError(message, code="einvoice_rules") from exc
        if not report:
            raise EinvoiceCheckError(f"the {RULE_SETS[key][0]} {syntax} rules gave no report", code="einvoice_rules")
        return report.encode("utf-8")

    def cii_schema(self) -> etree.XMLSchema:
        """The CII D16B XSD (uncoupled code lists), loaded on first use."""
        with self._lock:
            if self._schema is None:
                path = self._artefact(CII_XSD)
                self._schema = etree.XMLSchema(etree.parse(str(path), xml_parser()))
            return self._schema


_ENGINE = _Engine()


def _safe_tree(xml: bytes, source: str):
    try:
        root = etree.fromstring(xml, xml_parser())
    except etree.XMLSyntaxError as exc:
        raise EinvoiceCheckError(f"{source}: not well-formed XML ({exc})", code="einvoice_syntax") from exc
    if root.getroottree().docinfo.doctype:
        # an e-invoice has no DTD; one that declares entities would have Saxon resolve (or choke on) them
        raise EinvoiceCheckError(
            f"{source}: a DOCTYPE declaration is not allowed in an e-invoice", code="einvoice_syntax"
        )
    return root


def syntax_of(root) -> str:
    """``CII`` or ``UBL`` from a parsed document's root element.

    Raises:
        EinvoiceCheckError: another root (a ZUGFeRD 1.0 ``CrossIndustryDocument`` predates EN 16931).
    """
    if root.tag == _CII_ROOT:
        return "CII"
    if root.tag in _UBL_ROOTS:
        return "UBL"
    local = etree.QName(root).localname
    why = " (ZUGFeRD 1.0, older than EN 16931: no CEN rules apply)" if local == _ZUGFERD1_ROOT else ""
    raise EinvoiceCheckError(
        f"root element {local!r} is neither a CII CrossIndustryInvoice nor a UBL Invoice / CreditNote{why}",
        code="einvoice_syntax",
    )


def parse_svrl(report: bytes, *, rules: str = "") -> tuple[Finding, ...]:
    """The fired rules of an SVRL report (``failed-assert`` and ``successful-report``), in order, each marked with
    the rule set ``rules`` that made the report."""
    root = etree.fromstring(report, xml_parser())
    findings = []
    for el in root.iter(f"{{{SVRL}}}failed-assert", f"{{{SVRL}}}successful-report"):
        text = " ".join("".join(el.findtext(f"{{{SVRL}}}text") or "").split())
        findings.append(
            Finding(
                id=el.get("id") or "",
                flag=el.get("flag") or "fatal",  # an unflagged assertion is an error in schematron's own terms
                text=text,
                location=el.get("location") or "",
                rules=rules,
            )
        )
    return tuple(findings)


def specification_of(root) -> str:
    """A parsed document's specification identifier BT-24 ("" when it has none)."""
    if root.tag == _CII_ROOT:
        found = root.find(
            f"{{{_RSM}}}ExchangedDocumentContext/{{{_RAM}}}GuidelineSpecifiedDocumentContextParameter/{{{_RAM}}}ID"
        )
    else:
        found = root.find(f"{{{_CBC}}}CustomizationID")
    return " ".join((found.text or "").split()) if found is not None else ""


def rule_sets_for(specification: str) -> tuple[str, ...]:
    """The rule set keys a specification identifier BT-24 calls for: ``cen``, and the CIUS it names, if any
    (``urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`` -> ``("cen", "xrechnung")``)."""
    return ("cen", *dict.fromkeys(key for mark, key in CIUS_MARKS.items() if mark in specification))


def check_rule_sets(keys: Sequence[str]) -> tuple[str, ...]:
    """Rule set keys as asked for (``--rules xrechnung``): each known, CEN's always first (a CIUS restricts EN 16931,
    its rules presume the CEN ones ran).

    Raises:
        ValueError: an unknown key, naming the known ones.
    """
    asked = [k.strip().lower() for k in keys if k.strip()]
    unknown = [k for k in asked if k not in RULE_SETS]
    if unknown:
        raise ValueError(f"rule set {', '.join(unknown)}: expected one of {', '.join(RULE_SETS)}")
    return tuple(dict.fromkeys(["cen", *asked]))


def validate_xml(xml: bytes, *, source: str = "<xml>", rules: Sequence[str] | None = None) -> Validation:
    """Check one EN 16931 document (CII or UBL, told by its root) with the pinned CEN rules and a CIUS's.

    Args:
        xml: the document's bytes.
        source: what to name it in errors.
        rules: the rule set keys to run (``check_rule_sets``: CEN's always); None: those its BT-24 names
            (``rule_sets_for``).

    Returns:
        The Validation; ``valid`` only when every check ran and no fatal rule fired.

    Raises:
        EinvoiceCheckError: the document is no EN 16931 XML, or the rules could not run.
    """
    root = _safe_tree(xml, source)
    syntax = syntax_of(root)
    specification = specification_of(root)
    keys = rule_sets_for(specification) if rules is None else check_rule_sets(rules)
    findings: list[Finding] = []
    if syntax == "CII":
        schema = _ENGINE.cii_schema()
        if not schema.validate(etree.ElementTree(root)):
            findings.extend(
                Finding(id=XSD_RULE, flag="fatal", text=e.message, location=f"line {e.line}", rules=RULES)
                for e in schema.error_log
            )
    text = etree.tostring(root, encoding="UTF-8")  # entity-free text, re-serialized from the safe parse
    for key in keys:
        findings.extend(parse_svrl(_ENGINE.transform(syntax, text, key), rules=RULE_SETS[key][0]))
    names = tuple(RULE_SETS[key][0] for key in keys)
    return Validation(syntax=syntax, rules=names, findings=tuple(findings), specification=specification)


def compile_rules(*, rule_sets: Sequence[str] = ("cen",)) -> float:
    """Compile rule sets (keys of :data:`RULE_SETS`, both syntaxes each) now, else on first use; returns the
    seconds it took (``bench/``, tests)."""
    import time

    start = time.perf_counter()
    for key in rule_sets:
        for syntax in RULE_SETS[key][1]:
            _ENGINE.stylesheet(syntax, key)
    _ENGINE.cii_schema()
    return time.perf_counter() - start
