"""The e-invoice formats we write, one row each: every surface that offers a format (``--einvoice``, ``extract
einvoice convert --to``, the service's contract, the docs' table, ``Settings.einvoice``, the writers, the rule sets
and the ``--out`` file suffix) reads this table, so a new CIUS is one row here plus its rules in ``rules/``
(``validate.RULE_SETS``).

Cheap to import (``settings`` checks formats against it): the writers (lxml) load on use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractor.einvoice.terms import Terms

EN16931 = "urn:cen.eu:en16931:2017"  # BT-24 of the core EN 16931 specification

XRECHNUNG_MARK = "urn:xeinkauf.de:kosit:xrechnung"  # in the BT-24 of every XRechnung version
PEPPOL_MARK = "urn:fdc:peppol.eu:2017:poacc:billing:3.0"  # in the BT-24 of Peppol BIS Billing 3.0
XRECHNUNG = f"{EN16931}#compliant#{XRECHNUNG_MARK}_3.0"  # BT-24 of XRechnung 3.0
PEPPOL = f"{EN16931}#compliant#{PEPPOL_MARK}"  # BT-24 of Peppol BIS Billing 3.0
# BT-23: Peppol's billing process; XRechnung 3.0 adopts PEPPOL-EN16931-R001 (BT-23 required) and KoSIT's own
# examples carry this value too
PEPPOL_PROCESS = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
CEN = "cen"  # the rule set every format is checked by (``validate.RULE_SETS`` key)


@dataclass(frozen=True)
class Format:
    """One e-invoice format we write.

    Attributes:
        name: its name in ``--einvoice``, ``--to``, the record's ``einvoice`` key and the service's options.
        syntax: ``CII`` (UN/CEFACT D16B) or ``UBL`` (OASIS UBL 2.1): the writer, and how the rules read it.
        title: what it is, in the help and the docs.
        specification: BT-24, the specification identifier the writer puts in the document.
        process: BT-23, the business process, None for none.
        cius: the CIUS it conforms to (``xrechnung``, ``peppol``: its rule set key), "" for plain EN 16931.
        cius_mark: the part of a BT-24 that names that CIUS (any version): a received document carrying it is
            checked by the CIUS's rules too; "" for none.
        pdf: True when the file is the source PDF carrying the XML (Factur-X), False when it is the XML alone.
        email_endpoints: write an e-mail electronic address as an endpoint (False for Peppol, whose endpoints are
            network participant ids).
    """

    name: str
    syntax: str
    title: str
    specification: str = EN16931
    process: str | None = None
    cius: str = ""
    cius_mark: str = ""
    pdf: bool = False
    email_endpoints: bool = True

    @property
    def rule_sets(self) -> tuple[str, ...]:
        """The rule sets (``validate.RULE_SETS`` keys) it is checked by: CEN's, and its CIUS's on top."""
        return (CEN, self.cius) if self.cius else (CEN,)

    @property
    def suffix(self) -> str:
        """The suffix of the file ``--out`` writes: ``<name>.<format>.<suffix>``."""
        return "pdf" if self.pdf else "xml"

    @property
    def xml_only(self) -> bool:
        """Whether the format is its XML alone, so it can be written without the source PDF (``convert`` and the
        service offer only these)."""
        return not self.pdf

    def write(self, terms: Terms) -> bytes:
        """The Terms as this format's XML (for a PDF format, the XML it embeds), UTF-8, deterministic."""
        from extractor.einvoice.syntaxes import SYNTAXES

        return SYNTAXES[self.syntax].write(
            terms, specification=self.specification, process=self.process, email_endpoints=self.email_endpoints
        )


# fmt: off
TABLE: tuple[Format, ...] = (  # name, syntax, title, BT-24, BT-23, CIUS, its BT-24 mark; PDF; e-mail endpoints
    Format("cii", "CII", "UN/CEFACT CII D16B"),
    Format("ubl", "UBL", "OASIS UBL 2.1"),
    Format("facturx", "CII", "the source PDF carrying the CII: Factur-X", pdf=True),
    Format("xrechnung-cii", "CII", "XRechnung 3.0 CII", XRECHNUNG, PEPPOL_PROCESS, "xrechnung", XRECHNUNG_MARK),
    Format("xrechnung-ubl", "UBL", "XRechnung 3.0 UBL", XRECHNUNG, PEPPOL_PROCESS, "xrechnung", XRECHNUNG_MARK),
    Format("peppol", "UBL", "Peppol BIS Billing 3.0 UBL", PEPPOL, PEPPOL_PROCESS, "peppol", PEPPOL_MARK, False, False),
)
# fmt: on
BY_NAME = {row.name: row for row in TABLE}
FORMATS = tuple(BY_NAME)  # every format, in the table's order
XML_FORMATS = tuple(row.name for row in TABLE if row.xml_only)  # those that need no source PDF
# BT-24 mark of a CIUS -> its rule set key (a received document is checked by the rules its BT-24 names)
CIUS_MARKS = {row.cius_mark: row.cius for row in TABLE if row.cius_mark}


def check_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """The formats as a tuple, each known and once (``Settings.einvoice``).

    Raises:
        ValueError: an unknown format, naming the known ones.
    """
    out = tuple(dict.fromkeys(f.strip().lower() for f in formats if f.strip()))
    unknown = [f for f in out if f not in BY_NAME]
    if unknown:
        raise ValueError(f"e-invoice format {', '.join(unknown)}: expected one of {', '.join(FORMATS)}")
    return out


def format_of(name: str) -> Format:
    """The row of one format name (any case, spaces around ignored).

    Raises:
        ValueError: an unknown format, naming the known ones.
    """
    row = BY_NAME.get(name.strip().lower())
    if row is None:
        raise ValueError(f"e-invoice format {name!r}: expected one of {', '.join(FORMATS)}")
    return row


def formats_help(names: Sequence[str]) -> str:
    """The formats as the command line's help lists them: ``cii (…), ubl (…), …``."""
    return ", ".join(f"{name} ({BY_NAME[name].title})" for name in names)


def formats_table() -> str:
    """The docs' table of formats (Markdown; ``docs/hooks.py`` puts it in docs/einvoice.md)."""
    rows = [
        "| format | what | syntax | BT-24 specification | BT-23 process | rules | file | `convert`, service |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in TABLE:
        rows.append(
            f"| `{row.name}` | {row.title} | {row.syntax} | `{row.specification}` | "
            f"{f'`{row.process}`' if row.process else '—'} | {' + '.join(row.rule_sets)} | "
            f"`<name>.{row.name}.{row.suffix}` | {'yes' if row.xml_only else 'no (needs the source PDF)'} |"
        )
    return "\n".join(rows)


__all__ = [
    "BY_NAME",
    "CIUS_MARKS",
    "EN16931",
    "FORMATS",
    "PEPPOL",
    "PEPPOL_PROCESS",
    "TABLE",
    "XML_FORMATS",
    "XRECHNUNG",
    "Format",
    "check_formats",
    "format_of",
    "formats_help",
    "formats_table",
]
