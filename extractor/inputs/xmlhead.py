"""An XML's first bytes read as far as its root element: past a UTF-8 BOM, the declaration, processing
instructions, comments and a DOCTYPE, one item at a time (each match kept, never retried: hostile heads cost linear
time), then the root element's name. ``load`` tells XML from HTML with it, ``discover`` an e-invoice in a folder,
``einvoice.receive`` a DOCTYPE before it parses anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BOM = b"\xef\xbb\xbf"
# one prolog item, after whitespace: each pattern ends at its first possible end (lazy), so a match is final
_ITEM = re.compile(rb"\s*(<\?.*?\?>|<!--.*?-->|<!DOCTYPE\b[^\[>]*(?:\[.*?\])?\s*>)", re.S | re.I)
_ROOT = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]")


@dataclass(frozen=True)
class XmlHead:
    """What an XML's first bytes say.

    Attributes:
        root: the root element's local name, or "" when none starts within the bytes read.
        doctype: whether a DOCTYPE comes before it (the raw text, case-insensitive ``<!DOCTYPE``).
        html: whether the DOCTYPE or the root says HTML.
    """

    root: str = ""
    doctype: bool = False
    html: bool = False


def xml_head(data: bytes) -> XmlHead:
    """Read an XML's prolog and root element name from its first bytes (pass a bounded head: 1 to 8 KB)."""
    at = len(_BOM) if data.startswith(_BOM) else 0
    doctype = html = False
    while match := _ITEM.match(data, at):
        item = match.group(1)
        if item[:9].upper() == b"<!DOCTYPE":
            doctype = True
            html = html or item[9:].lstrip()[:4].lower() == b"html"
        at = match.end()
    rest = data[at : at + 64]  # a slice, not a copy of a large file
    if not doctype and rest.lstrip()[:9].upper() == b"<!DOCTYPE":  # one whose end is past the bytes read
        doctype = True
        html = rest.lstrip()[9:].lstrip()[:4].lower() == b"html"
    root = _ROOT.match(data, at)
    name = root.group(1).decode("ascii") if root else ""
    return XmlHead(root=name, doctype=doctype, html=html or name.lower() == "html")


__all__ = ["XmlHead", "xml_head"]
