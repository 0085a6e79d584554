"""The two e-invoice syntaxes as objects: each names its column of the binding table and owns its reader and writer.

``CII`` (UN/CEFACT D16B, and ZUGFeRD 1's ``CrossIndustryDocument`` for reading) and ``UBL`` (OASIS UBL 2.1).
``read.parse_invoice_xml`` finds a document's syntax with ``syntax_of_root``; ``read_en16931.as_en16931`` reads the
terms ``invoice-en16931`` adds through ``Syntax.read_terms``; ``formats.Format.write`` writes through
``Syntax.write``. The writers (and lxml with them) are imported on first write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from extractor.einvoice.embedded import EmbeddedInvoice
from extractor.einvoice.read_cii import CiiInvoice, CiiTerms
from extractor.einvoice.read_ubl import UblInvoice, UblTerms
from extractor.einvoice.xmltext import local_name

if TYPE_CHECKING:
    from extractor.einvoice.terms import Terms

UBL_NAMESPACE = "urn:oasis:names:specification:ubl:schema:xsd:"


@dataclass(frozen=True)
class Syntax:
    """One syntax: how to recognise, read and write its documents.

    Attributes:
        name: ``CII`` or ``UBL``: its column of the binding table, ``EmbeddedInvoice.syntax`` and ``Format.syntax``.
        roots: the local names of the root elements it reads.
        namespace: what a root's namespace must start with ("": any).
        invoice: its ``invoice`` reader class (``cls(root).map()``).
        terms: its reader class of the terms ``invoice-en16931`` adds (``cls(root).extras(notes)``).
        writer: its writer (importing the writer module, and lxml, on first write).
    """

    name: str
    roots: tuple[str, ...]
    namespace: str
    invoice: Any
    terms: Any
    writer: Callable[..., bytes]

    def reads(self, root) -> bool:
        """Whether ``root`` (an lxml element) is a document of this syntax."""
        namespace = root.tag.partition("}")[0].lstrip("{") if root.tag.startswith("{") else ""
        return local_name(root) in self.roots and namespace.startswith(self.namespace)

    def read_invoice(self, root) -> EmbeddedInvoice:
        """The document mapped to the invoice schema, as read (``read.read_invoice_root`` completes it: no
        attachment, derived unit prices, cut lengths, schema errors or XML yet)."""
        return self.invoice(root).map()

    def read_terms(self, root, notes: list[str]) -> dict:
        """The terms ``invoice-en16931`` adds to the ``invoice`` reading; what was left out is said in ``notes``."""
        return self.terms(root).extras(notes)

    def write(self, terms: Terms, *, specification: str, process: str | None, email_endpoints: bool) -> bytes:
        """The Terms as this syntax's XML, UTF-8, deterministic (``specification``: BT-24; ``process``: BT-23;
        ``email_endpoints``: write an e-mail electronic address as an endpoint)."""
        return self.writer(terms, specification=specification, process=process, email_endpoints=email_endpoints)


def _write_cii(terms: Terms, *, specification: str, process: str | None, email_endpoints: bool) -> bytes:
    """The CII writer, which writes an e-mail electronic address as any other (no CII format leaves it out).

    Raises:
        ValueError: ``email_endpoints`` is False.
    """
    from extractor.einvoice.write import write_cii

    if not email_endpoints:
        raise ValueError("the CII writer always writes an e-mail electronic address; it cannot leave it out")
    return write_cii(terms, specification=specification, process=process)


def _write_ubl(terms: Terms, *, specification: str, process: str | None, email_endpoints: bool) -> bytes:
    """The UBL writer."""
    from extractor.einvoice.write_ubl import write_ubl

    return write_ubl(terms, specification=specification, process=process, email_endpoints=email_endpoints)


CII = Syntax(
    name="CII",
    roots=("CrossIndustryInvoice", "CrossIndustryDocument"),
    namespace="",
    invoice=CiiInvoice,
    terms=CiiTerms,
    writer=_write_cii,
)
UBL = Syntax(
    name="UBL",
    roots=("Invoice", "CreditNote"),
    namespace=UBL_NAMESPACE,
    invoice=UblInvoice,
    terms=UblTerms,
    writer=_write_ubl,
)
SYNTAXES = {syntax.name: syntax for syntax in (CII, UBL)}


def syntax_of_root(root) -> Syntax | None:
    """The syntax that reads ``root`` (an lxml element), None for none."""
    return next((syntax for syntax in SYNTAXES.values() if syntax.reads(root)), None)
