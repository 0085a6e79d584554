"""The values a document gives for each EN 16931 term, read through the syntax bindings (``bindings.BINDINGS``)
and normalised so that CII and UBL compare.

Values are compared after the normalisations EN 16931's two syntaxes need (``normalise``), and nothing else:

* whitespace: runs of spaces and line breaks are one space, none at either end;
* numbers: ``100.00`` is ``100`` (the value, not its written decimals);
* dates: CII's format 102 (``20240131``) is ISO ``2024-01-31``;
* an account identifier (BT-84, BT-91) is compared without its spaces (IBANs are written compact);
* an identifier and its scheme are one value ``scheme:id`` (``EM:a@b.de``, ``0088:4000001123452``);
* BT-8: CII's UNTDID 2475 codes (5, 29, 72) are UBL's UNTDID 2005 codes (3, 35, 432);
* BT-21 / BT-22: UBL has no subject code element; a note ``#AAI#text`` is subject ``AAI`` and text ``text``
  (the XRechnung / Peppol convention);
* a document-level term is the set of its values: CII repeats BT-7 / BT-8 in every VAT breakdown.

Not compared: BT-24 (and BT-23) name the format written, not the source's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from extractor.einvoice.bindings import BINDINGS, NAMESPACES, SCOPES, Binding, scope_path

# BT-8: CII's UNTDID 2475 code -> UBL's UNTDID 2005 code (the one EN 16931 names)
TAX_POINT_CII = {"5": "3", "29": "35", "72": "432"}
_NOTE = re.compile(r"^#([A-Z]{3})#(.*)$", re.DOTALL)


def syntax_of(root) -> str | None:
    """``CII`` (D16B), ``UBL``, or None (ZUGFeRD 1's ``CrossIndustryDocument`` and anything else: not bound)."""
    ns = root.tag.partition("}")[0].lstrip("{")
    if ns == NAMESPACES["rsm"]:
        return "CII"
    return "UBL" if ns.startswith("urn:oasis:names:specification:ubl:schema:xsd:") else None


def _raw(node, kind: str) -> str | None:
    """One node's value (an element's text, an attribute's value) with its scheme where the kind has one."""
    if isinstance(node, str):  # an attribute (lxml's smart strings)
        return node
    text = node.text or ""
    if kind == "schemed":
        if node.tag.endswith("}AdditionalReferencedDocument"):  # CII BT-18 / BT-128: the id and its type code
            found = node.find("ram:IssuerAssignedID", NAMESPACES)
            scheme = node.findtext("ram:ReferenceTypeCode", None, NAMESPACES)
            text = found.text if found is not None else ""
        else:
            scheme = node.get("schemeID")
        return f"{scheme.strip()}:{text}" if scheme and scheme.strip() else text
    if kind == "listed":
        scheme = node.get("listID")
        return f"{scheme.strip()}:{text}" if scheme and scheme.strip() else text
    return text


def normalise(value: str, kind: str, syntax: str) -> str | None:
    """A value as compared (the module docstring lists the normalisations); None for an empty one."""
    text = " ".join(value.split())
    if kind in ("note_subject", "note_text") and syntax == "UBL":
        found = _NOTE.match(value.strip())
        if kind == "note_subject":
            text = found.group(1) if found else ""
        elif found:
            text = " ".join(found.group(2).split())
    if not text:
        return None
    if kind == "decimal":
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text
        return format(number.normalize(), "f")
    if kind == "date":
        digits = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", text)
        return f"{digits.group(1)}-{digits.group(2)}-{digits.group(3)}" if digits else text[:10]
    if kind == "account":
        return text.replace(" ", "")
    if kind == "tax_point" and syntax == "CII":
        return TAX_POINT_CII.get(text, text)
    return text


def scope_nodes(root, scope: str, syntax: str) -> list:
    """The nodes of one scope in a document (the root alone for ``doc``)."""
    path = scope_path(scope, syntax)
    return [root] if path == "." else root.xpath(path, namespaces=NAMESPACES)


def values_in(node, binding: Binding, syntax: str) -> list[str]:
    """A term's normalised values in one scope node, in document order (empty where it has none)."""
    path = binding.path(syntax)
    if path is None:
        return []
    found = [node] if path == "." else node.xpath(path, namespaces=NAMESPACES)
    out = []
    for item in found:
        raw = _raw(item, binding.kind)
        value = normalise(raw, binding.kind, syntax) if raw is not None else None
        if value is not None:
            out.append(value)
    return out


def term_values(root, syntax: str, bindings: Iterable[Binding] = BINDINGS) -> dict[str, list]:
    """Every term a document gives: term -> its values, per scope node for the repeated scopes (``[(index,
    [values])]``, only nodes that give it) and as a sorted list of distinct values for the document's."""
    out: dict[str, list] = {}
    nodes = {scope: scope_nodes(root, scope, syntax) for scope in SCOPES}
    for binding in bindings:
        if binding.scope == "doc":
            found = sorted(set(values_in(root, binding, syntax)))
            if found:
                out[binding.term] = found
            continue
        per_node = [(i, v) for i, node in enumerate(nodes[binding.scope]) if (v := values_in(node, binding, syntax))]
        if per_node:
            out[binding.term] = per_node
    return out


def first(values: dict[str, list], term: str, index: int | None = None) -> str | None:
    """A term's first value (in scope node ``index`` for a repeated scope), None where the document gives none."""
    found = values.get(term) or []
    if index is None:
        return found[0] if found else None
    return next((v[0] for i, v in found if i == index), None)


def differences(source: dict[str, list], ours: dict[str, list]) -> dict[str, tuple]:
    """Term -> (source's values, ours) for each term the source gives that ours gives otherwise or not at all (in a
    repeated scope, only the nodes the source gives it in: a value only ours has is a derivation, not a loss)."""
    out = {}
    for term, want in source.items():
        got = ours.get(term)
        if got and want and isinstance(want[0], tuple):
            where = {i for i, _ in want}
            got = [(i, v) for i, v in got if i in where]
        if got != want:
            out[term] = (want, got)
    return out
