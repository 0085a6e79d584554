"""The record's report on e-invoices: each ``--einvoice`` format written from its data and checked
(``einvoice_report``: the record's ``einvoice`` key and its findings), and the e-invoice XML a record was read from
checked (``source_report``: its ``embedded.rules``). Writing is ``record_xml``'s, checking files ``check_files``'."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from extractor.einvoice.facturx import EinvoiceWriteError, facturx_blocker, facturx_pdf
from extractor.einvoice.formats import BY_NAME, check_formats
from extractor.einvoice.record_xml import einvoice_xml, record_terms
from extractor.einvoice.terms import Terms
from extractor.einvoice.validate import RULE_SETS, RULES, EinvoiceCheckError, validate_xml
from extractor.record import issue

_ABSENT = "not in the record (the invoice schema holds none; invoice-en16931 holds it where printed); left out"


def cius_notes(terms: Terms, rule_set: str) -> list[str]:
    """What a CIUS asks for that the record does not give: never invented, so its rule fires; said in the notes."""
    seller, buyer = terms.seller, terms.buyer
    contact = seller.contact
    if rule_set == "xrechnung":
        missing = {
            "BT-10 buyer reference (Leitweg-ID): BR-DE-15": not terms.buyer_reference,
            "BG-6 seller contact name, phone and e-mail: BR-DE-2 / 5 / 6 / 7": contact is None
            or not all((contact.name, contact.phone, contact.email)),
            "BT-34 seller electronic address: PEPPOL-EN16931-R020": seller.electronic_address is None,
            "BT-49 buyer electronic address: PEPPOL-EN16931-R010": buyer.electronic_address is None,
        }
    elif rule_set == "peppol":
        missing = {
            "BT-34 seller electronic address as a Peppol participant id (scheme:id; an e-mail is none): "
            "PEPPOL-EN16931-R020": seller.electronic_address is None or seller.electronic_address[0] == "EM",
            "BT-49 buyer electronic address as a Peppol participant id: PEPPOL-EN16931-R010": (
                buyer.electronic_address is None or buyer.electronic_address[0] == "EM"
            ),
            "BT-10 buyer reference or BT-13 order reference: PEPPOL-EN16931-R003": not (
                terms.buyer_reference or terms.order_reference
            ),
        }
    else:
        return []
    return [f"{what} {_ABSENT}" for what, absent in missing.items() if absent]


@dataclass(frozen=True)
class EinvoiceReport:
    """What checking a record's e-invoices found (``einvoice_report``).

    Attributes:
        entries: the record's ``einvoice`` key: ``{format: {"path", "valid", "rules", "fatal", "warnings",
            "sha256", "notes"[, "error"]}}`` (``path`` None until the ``--out`` sink writes the file; ``rules`` the
            rule sets that check the format: CEN's, and XRechnung's or Peppol's for those formats).
        findings: warnings for the record, one per fatal rule (``einvoice_rule``, naming the rule id and the
            formats it fired in), one per format that could not be checked (``einvoice_unchecked``) and one per
            format that cannot be written (``einvoice_unwritable``: a Factur-X of no PDF source); each makes
            an ``ok`` record ``review`` (``trust.verdict.Signals.einvoice``).
    """

    entries: dict
    findings: tuple[dict, ...] = ()


def _facturx_trial(source: str | None, extra: Mapping, xml: bytes) -> str | None:
    """Why no Factur-X PDF can be made of this record, found now (the PDF is made in memory and dropped; ``--out``
    makes it again), so the record's status already knows; None when it can."""
    blocker = facturx_blocker(source, extra)
    if blocker is not None or source is None:
        return blocker
    try:
        facturx_pdf(source=source, sha256="", extra=extra, xml=xml)
    except EinvoiceWriteError as exc:  # e.g. the Factur-X profile XSD refuses what the CEN subset XSD allows
        return str(exc)
    return None


def einvoice_report(
    data: Mapping, formats: Sequence[str], *, extra: Mapping | None = None, source: str | None = None
) -> EinvoiceReport:
    """Write each format from a record's data and check it with the pinned CEN rules (and a CIUS format with its
    own rules too: ``formats.Format.rule_sets``).

    Args:
        data: the record's invoice data.
        formats: ``formats.FORMATS`` names.
        extra: the record's other keys (a record read from embedded XML keeps that XML's type code).
        source: the record's source (``facturx`` needs it to be a PDF; ``facturx.facturx_blocker``).

    Returns:
        The report; a format whose check could not run is ``valid: false`` with its ``error``, never valid.
    """
    terms = record_terms(data, extra or {})
    entries: dict[str, dict[str, Any]] = {}
    fired: dict[str, tuple[str, list[str]]] = {}  # rule id -> (text, formats)
    unchecked = []
    for fmt in check_formats(formats):
        row = BY_NAME[fmt]
        xml = row.write(terms)
        rule_sets = [RULE_SETS[key][0] for key in row.rule_sets]
        entry: dict[str, Any] = {"path": None, "valid": False, "rules": rule_sets, "fatal": [], "warnings": []}
        try:
            result = validate_xml(xml, source=f"{fmt} e-invoice", rules=row.rule_sets)
        except EinvoiceCheckError as exc:
            entry["error"] = str(exc)
            unchecked.append(issue("einvoice_unchecked", f"{fmt}: the e-invoice could not be checked: {exc}"))
        else:
            entry.update(valid=result.valid, fatal=list(result.fatal), warnings=list(result.warnings))
            for finding in result.findings:
                if finding.fatal:
                    fired.setdefault(finding.id, (finding.text, []))[1].append(fmt)
        blocker = _facturx_trial(source, extra or {}, xml) if row.pdf else None
        if blocker is not None:  # checked XML, but no file it could go into: never reported valid
            entry.update(valid=False, error=blocker)
            unchecked.append(issue("einvoice_unwritable", f"{fmt}: {blocker}"))
        entry["sha256"] = hashlib.sha256(xml).hexdigest()
        entry["notes"] = [*terms.notes, *(n for key in row.rule_sets for n in cius_notes(terms, key))]
        entries[fmt] = entry
    findings = [
        issue("einvoice_rule", f"EN 16931 rule {rule} fired ({', '.join(dict.fromkeys(fmts))}): {text}", rule=rule)
        for rule, (text, fmts) in fired.items()
    ]
    return EinvoiceReport(entries=entries, findings=tuple(findings + unchecked))


# Profiles that carry no invoice lines by design (Factur-X / ZUGFeRD 2 MINIMUM and BASIC WL): the rules that need
# lines cannot hold for them; MINIMUM has no VAT breakdown and no line total (BT-106) either. Never invented: the
# record names these rules in ``embedded.rules.unmet``.
_NO_LINES = frozenset({"BR-16", "BR-CO-10", *(f"BR-{c}-08" for c in ("S", "Z", "E", "AE", "IC", "G", "O", "IG", "IP"))})
UNMET_BY_PROFILE = {
    "BASIC WL": _NO_LINES,
    "MINIMUM": _NO_LINES | {"BR-12", "BR-CO-13", "BR-CO-14", "BR-CO-18"},
}
# BT-24 marks of the Factur-X / ZUGFeRD profiles, most specific first (lowercased substrings)
_PROFILES = (
    ("minimum", "MINIMUM"),
    ("basicwl", "BASIC WL"),
    ("xrechnung", "XRECHNUNG"),
    ("extended", "EXTENDED"),
    ("comfort", "COMFORT"),
    ("basic", "BASIC"),
    ("peppol", "PEPPOL"),
    ("urn:cen.eu:en16931:2017", "EN 16931"),
)


def profile_of(specification: str) -> str:
    """The profile a specification identifier BT-24 (or a ZUGFeRD 1.0 guideline) names: ``MINIMUM``, ``BASIC WL``,
    ``BASIC``, ``EN 16931``, ``EXTENDED``, ``COMFORT``, ``XRECHNUNG``, ``PEPPOL``; "" when none is known."""
    lowered = specification.lower()
    return next((name for mark, name in _PROFILES if mark in lowered), "")


def source_report(xml: bytes, *, guideline: str = "") -> EinvoiceReport:
    """Check the e-invoice XML a record was read from (by default for every answer read from embedded XML,
    ``Settings.embedded_rules``): the XML is no longer taken as exact when the CEN rules (and those of the CIUS its
    BT-24 names, e.g. XRechnung's) reject it.

    Args:
        xml: the XML as attached.
        guideline: its specification / profile id as read (``EmbeddedInvoice.guideline``), for the profile of XML
            the rules cannot read (ZUGFeRD 1.0).

    Returns:
        ``entries``: the record's ``embedded.rules``: ``{"rules", "valid", "fatal", "warnings", "profile",
        "unmet"[, "error"]}`` (``rules`` the rule sets that ran; ``unmet`` the fatal rules its profile cannot meet
        by design: MINIMUM / BASIC WL carry no lines); ``valid`` null when no EN 16931 rules apply to its syntax
        (ZUGFeRD 1.0, said in ``error``), false when a fatal rule fired or the rules could not run;
        ``findings``: one ``einvoice_source_rule`` per fatal rule (``rule`` its id), or ``einvoice_unchecked`` when
        the rules could not run. XML of no EN 16931 syntax gives no finding: no rule applies to it, nothing was
        rejected.
    """
    entry: dict[str, Any] = {
        "rules": [RULES],
        "valid": False,
        "fatal": [],
        "warnings": [],
        "profile": profile_of(guideline),
        "unmet": [],
    }
    try:
        result = validate_xml(xml, source="the embedded e-invoice XML")
    except EinvoiceCheckError as exc:
        entry["error"] = str(exc)
        if exc.code == "einvoice_syntax":
            return EinvoiceReport(entries={**entry, "rules": [], "valid": None})
        return EinvoiceReport(entries=entry, findings=(issue("einvoice_unchecked", str(exc)),))
    profile = profile_of(result.specification) or entry["profile"]
    by_design = UNMET_BY_PROFILE.get(profile, frozenset())
    entry.update(
        rules=list(result.rules),
        valid=result.valid,
        fatal=list(result.fatal),
        warnings=list(result.warnings),
        profile=profile,
        unmet=[rule for rule in result.fatal if rule in by_design],
    )
    texts = {f.id: f.text for f in result.findings if f.fatal}
    findings = tuple(
        issue(
            "einvoice_source_rule",
            f"the embedded e-invoice XML fires EN 16931 rule {rule}"
            + (f" (its {profile} profile cannot meet it by design; nothing was invented)" if rule in by_design else "")
            + f": {text}",
            rule=rule,
        )
        for rule, text in texts.items()
    )
    return EinvoiceReport(entries=entry, findings=findings)


__all__ = [
    "UNMET_BY_PROFILE",
    "EinvoiceReport",
    "cius_notes",
    "einvoice_report",
    "einvoice_xml",  # record_xml's; still imported from here by service/app.py
    "profile_of",
    "source_report",
]
