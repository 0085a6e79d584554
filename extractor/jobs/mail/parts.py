"""What in a mail becomes a document: its attachments and inline parts that are a PDF, an image or XML, and the
members of its ZIP attachments; everything else is listed with the reason it was skipped.

The rules, in one place (docs/mail.md repeats them):

* **A document** is a MIME leaf whose content (magic bytes first, then its content type, then its name's suffix)
  is a PDF, an image (PNG, JPEG, TIFF, WebP: what the input path reads; not GIF) or XML (an e-invoice: handed to
  the normal input path, named ``.xml``), attachment or inline alike (an inline PDF is a document).
* **Logos, signatures, tracking pixels** are skipped: an image under ``SMALL_IMAGE`` bytes (16 KiB), or an inline
  image (a ``Content-ID`` the HTML body refers to, or ``Content-Disposition: inline``) under ``INLINE_IMAGE``
  bytes (128 KiB). A scanned invoice is larger than either.
* **The mail's body** (text/plain, text/html without a file name) is never read; a mail whose only content is
  its HTML body is said to be HTML-only.
* **ZIP attachments** give their members, within limits that are **one budget per mail**, shared by all its ZIPs
  and the ZIPs inside them (:class:`MailBudget`): at most ``ZipLimits.members`` members, ``total`` bytes unpacked
  (sizes are checked as declared *and* while reading, so a lying header gains nothing; a nested ZIP's own bytes
  count too), ``depth`` ZIPs within ZIPs, no member over 1 MiB unpacking to more than ``ratio`` (100) times its
  packed size (a ZIP bomb), and no member whose path is absolute, climbs out (``..``), or holds control
  characters. An encrypted member is not read. A ZIP past a limit gives one error (``zip_limit``, naming the
  limit and what is left of the mail's budget, or ``too_large`` for a member over ``max_bytes``) and none of its
  members; it is refused before its members are inflated.
* **Too large**: a part over ``max_bytes`` is ``too_large``. For a mail larger than ``max_bytes`` its parts' sizes
  come from the server's BODYSTRUCTURE, so such a part is refused before any of it is fetched
  (:func:`leaves_of_structure`).
* **Encrypted mail** (S/MIME enveloped, PGP/MIME) is not read: the whole mail is skipped, saying so. A signed
  mail is read; its signature part is skipped.
* **Malformed MIME and unknown charsets** are read as far as Python's ``email`` package can, and said: the
  defects become notes (the mail's ledger row, each record's warnings).
"""

from __future__ import annotations

import codecs
import email
import email.header
import email.policy
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from email.message import EmailMessage, Message
from pathlib import PurePosixPath

SMALL_IMAGE = 16 * 1024  # any image below this is a logo, an icon or a tracking pixel
INLINE_IMAGE = 128 * 1024  # an inline image (Content-ID / inline) below this is a logo or signature in the body

# content (magic bytes) -> (kind, suffix): what the normal input path reads
_MAGIC = (
    (b"%PDF-", "pdf", ".pdf"),
    (b"\x89PNG\r\n\x1a\n", "image", ".png"),
    (b"\xff\xd8\xff", "image", ".jpg"),
    (b"II*\x00", "image", ".tif"),
    (b"MM\x00*", "image", ".tif"),
)
_SUFFIXES = {
    ".pdf": ("pdf", ".pdf"),
    ".png": ("image", ".png"),
    ".jpg": ("image", ".jpg"),
    ".jpeg": ("image", ".jpg"),
    ".tif": ("image", ".tif"),
    ".tiff": ("image", ".tif"),
    ".webp": ("image", ".webp"),
    ".xml": ("xml", ".xml"),
    ".zip": ("zip", ".zip"),
}
# a content type's file suffix (its kind: ``_SUFFIXES``')
_TYPES = {
    "application/pdf": ".pdf",
    "application/x-pdf": ".pdf",
    "application/xml": ".xml",
    "text/xml": ".xml",
    "application/zip": ".zip",
    "application/x-zip-compressed": ".zip",
    "application/x-zip": ".zip",
}
_SIGNATURES = ("application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature")
_ENCRYPTED_NAMES = (".pgp", ".gpg", ".asc", ".p7m")


@dataclass(frozen=True)
class ZipLimits:
    """How much a mail's ZIP attachments may hold, all of them together (nested ones included).

    Attributes:
        members: files in the mail's ZIPs (folders not counted).
        total: bytes of all their members unpacked, together.
        depth: ZIPs within ZIPs (1: a ZIP's ZIP members are not opened).
        ratio: a member over 1 MiB that unpacks to more than this many times its packed size makes the ZIP a bomb.
    """

    members: int = 100
    total: int = 200 * 1024 * 1024
    depth: int = 2
    ratio: int = 100


class MailBudget:
    """What is left of a mail's ZIP limits as its archives are opened: one budget per mail, so a ZIP of ZIPs
    cannot multiply the limits by starting each nested archive from zero."""

    def __init__(self, zips: ZipLimits) -> None:
        """A mail's whole budget: ``zips.members`` members and ``zips.total`` bytes unpacked."""
        self.zips = zips
        self.members = zips.members
        self.bytes = zips.total


@dataclass(frozen=True)
class Part:
    """One MIME leaf (or ZIP member) of a mail and what becomes of it.

    Attributes:
        index: the leaf's place among the mail's MIME leaves, 0-based (ZIP members share their ZIP's).
        name: its file name (decoded), or None.
        content_type: its declared content type.
        size: its size in bytes (decoded; for a part not fetched, estimated from the server's encoded size).
        outcome: ``document`` (extracted), ``skipped`` (not a document: ``reason`` says why) or ``error`` (an
            error record: ``code`` and ``reason``).
        reason: why it is skipped, or the error's message.
        code: the error code (``too_large``, ``zip_limit``, ...).
        member: the member's path inside a ZIP attachment.
        suffix: the file suffix its content calls for (``.pdf``, ``.xml``, ...; a document's only).
        data: its bytes (a document's only).
        inline: a Content-ID or ``Content-Disposition: inline``.
    """

    index: int
    name: str | None
    content_type: str
    size: int | None
    outcome: str
    reason: str = ""
    code: str = ""
    member: str | None = None
    suffix: str = ""
    data: bytes | None = field(default=None, repr=False)
    inline: bool = False

    def describe(self) -> str:
        """The part as logs and reasons name it: ``#2 invoice.pdf`` or ``#2 docs.zip:a/b.pdf``."""
        label = self.name or self.content_type
        return f"#{self.index} {label}{f':{self.member}' if self.member else ''}"


@dataclass(frozen=True)
class MailContent:
    """What a mail holds.

    Attributes:
        parts: every leaf (and ZIP member), in order.
        unread: why the whole mail is not read (encrypted), or "".
        notes: defects said about the mail (malformed MIME, unknown charsets).
    """

    parts: tuple[Part, ...]
    unread: str = ""
    notes: tuple[str, ...] = ()

    @property
    def documents(self) -> tuple[Part, ...]:
        """The parts that are extracted."""
        return tuple(p for p in self.parts if p.outcome == "document")

    @property
    def errors(self) -> tuple[Part, ...]:
        """The parts that give an error record."""
        return tuple(p for p in self.parts if p.outcome == "error")

    def skip_reason(self) -> str:
        """Why a mail without documents and errors makes no record."""
        if self.unread:
            return self.unread
        skipped = [p for p in self.parts if p.outcome == "skipped"]
        bodies = [p for p in skipped if p.reason.startswith("mail body")]
        if skipped and len(bodies) == len(skipped) and any(p.content_type == "text/html" for p in bodies):
            reason = "HTML-only mail: no attachment (the body is not read)"
        elif len(bodies) == len(skipped):
            reason = "no attachment"
        else:
            others = [p for p in skipped if p not in bodies]
            reason = "no usable attachment: " + "; ".join(f"{p.describe()}: {p.reason}" for p in others)
        defects = [n for n in self.notes if n.startswith("malformed MIME")]
        return f"{reason} ({'; '.join(defects)})" if defects else reason


def parse_mail(raw: bytes) -> EmailMessage:
    """Parse a mail's header (or a whole mail) with Python's ``email`` package, the modern policy: headers decoded
    (RFC 2047, RFC 2231); defects are kept, never raised."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)  # noqa: S101 - what policy.default always makes
    return message


def parse_parts(raw: bytes) -> Message:
    """Parse a whole mail for its parts with Python's ``email`` package, the ``compat32`` policy: the same MIME
    tree and defects in half the time of the modern policy (whose header objects the parts do not need: their
    file names are decoded by :func:`filename`). The parse is most of what a mail costs beyond its document."""
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def read_mail(message: Message, *, max_bytes: int, zips: ZipLimits = ZipLimits()) -> MailContent:
    """Decide what becomes of every part of a mail fetched whole.

    Args:
        message: the parsed mail (:func:`parse_parts`, or :func:`parse_mail`).
        max_bytes: a document's size limit (``Settings.max_bytes``).
        zips: the ZIP limits.

    Returns:
        The MailContent.
    """
    notes = tuple(dict.fromkeys([*mime_defects(message), *charset_notes(message)]))
    unread = encrypted(message)
    if unread:
        return MailContent(parts=(), unread=unread, notes=notes)
    parts: list[Part] = []
    budget = MailBudget(zips)  # one for the whole mail
    for index, leaf in enumerate(leaves(message)):
        parts.extend(read_leaf(leaf, index=index, max_bytes=max_bytes, zips=zips, budget=budget))
    return MailContent(parts=tuple(parts), notes=notes)


def leaves(message: Message) -> Iterator[Message]:
    """The mail's MIME leaves, depth first (a forwarded message's parts included)."""
    for part in message.walk():
        if not part.is_multipart():
            yield part


def encrypted(message: Message) -> str:
    """Why an encrypted mail is not read (S/MIME enveloped, PGP/MIME), or "" for any other mail."""
    for part in message.walk():
        ctype = part.get_content_type()
        if ctype == "multipart/encrypted" or ctype == "application/pgp-encrypted":
            return "PGP-encrypted mail: not read (no key; forward it decrypted)"
        if ctype in ("application/pkcs7-mime", "application/x-pkcs7-mime"):
            kind = str(part.get_param("smime-type") or "enveloped-data").lower()
            if kind != "signed-data":
                return f"S/MIME-encrypted mail ({kind}): not read (no key; forward it decrypted)"
            return "S/MIME opaque-signed mail: not read (its content is inside the signature)"
    return ""


def read_leaf(
    leaf: Message, *, index: int, max_bytes: int, zips: ZipLimits, budget: MailBudget | None = None
) -> list[Part]:
    """What becomes of one MIME leaf: a document, an error, ZIP members, or skipped with a reason (``budget``: the
    mail's, shared by its leaves; None: a budget of this leaf's own)."""
    ctype = leaf.get_content_type()
    name = filename(leaf)
    disposition = leaf.get_content_disposition()
    inline = bool(leaf.get("Content-ID")) or disposition == "inline"
    if ctype.startswith("multipart/") or (
        ctype in ("text/plain", "text/html") and name is None and disposition != "attachment"
    ):  # (a multipart leaf: one the parser could not split, its defects are the mail's notes)
        return [Part(index=index, name=None, content_type=ctype, size=None, outcome="skipped", reason="mail body")]
    data = leaf.get_payload(decode=True)
    if not isinstance(data, bytes):  # a message/rfc822 leaf without parts, or an empty one
        data = b""
    base = Part(index=index, name=name, content_type=ctype, size=len(data), outcome="skipped", inline=inline)
    if ctype in _SIGNATURES:
        return [replace(base, reason="a signature, not a document")]
    if len(data) > max_bytes:
        return [too_large(base, max_bytes)]
    return classify(base, data, max_bytes=max_bytes, budget=budget or MailBudget(zips), depth=0)


def too_large(part: Part, max_bytes: int) -> Part:
    """The part as a ``too_large`` error."""
    size = f"{part.size:,} bytes" if part.size is not None else "its size"
    return replace(
        part,
        outcome="error",
        code="too_large",
        reason=f"{size}, over the {max_bytes:,}-byte limit (not read)",
        data=None,
    )


def kind_of(data: bytes, *, content_type: str, name: str | None) -> tuple[str, str]:
    """The kind of a part's content (``pdf``, ``image``, ``xml``, ``zip`` or ``other``) and its file suffix:
    magic bytes first, then the content type, then the name's suffix."""
    for magic, kind, suffix in _MAGIC:
        if data.startswith(magic):
            return kind, suffix
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image", ".webp"
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return "zip", ".zip"
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return "xml", ".xml"
    typed = _TYPES.get(content_type) or (".xml" if content_type.endswith("+xml") else None)
    by_type = _SUFFIXES[typed] if typed else None
    by_name = _SUFFIXES.get(PurePosixPath(name or "").suffix.lower())
    kind, suffix = by_type or by_name or ("other", "")
    return kind, suffix


def classify(part: Part, data: bytes, *, max_bytes: int, budget: MailBudget, depth: int) -> list[Part]:
    """Decide what becomes of a part's bytes (``part`` carries its name and type; ``budget``: what is left of the
    mail's ZIP limits; ``depth``: ZIP nesting)."""
    if PurePosixPath(part.member or part.name or "").suffix.lower() in _ENCRYPTED_NAMES:
        return [replace(part, reason="an encrypted file (PGP / S/MIME): not read")]
    kind, suffix = kind_of(data, content_type=part.content_type, name=part.member or part.name)
    if kind == "zip":
        return unzip(part, data, max_bytes=max_bytes, budget=budget, depth=depth + 1)
    if kind == "other":
        return [replace(part, reason=f"not a PDF, image or XML ({part.content_type})")]
    if not data:
        return [replace(part, reason="empty")]
    if kind == "image" and len(data) < SMALL_IMAGE:
        return [replace(part, reason=f"image under {SMALL_IMAGE // 1024} KiB (logo, signature or tracking pixel)")]
    if kind == "image" and part.inline and len(data) < INLINE_IMAGE and part.member is None:
        return [replace(part, reason=f"inline image under {INLINE_IMAGE // 1024} KiB (logo or signature)")]
    return [replace(part, outcome="document", suffix=suffix, data=data)]


def _unsafe(name: str) -> str:
    """Why a ZIP member's path is refused, or ""."""
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        return "control characters in its path"
    path = name.replace("\\", "/")
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        return "an absolute path"
    if ".." in path.split("/"):
        return "a path that climbs out (..)"
    return ""


def unzip(part: Part, data: bytes, *, max_bytes: int, budget: MailBudget, depth: int) -> list[Part]:
    """A ZIP's members as parts, within what is left of the mail's ``budget``; one error part when a limit is
    passed (checked on the declared sizes before anything is inflated, and again on the bytes as they unpack)."""

    def fail(code: str, why: str) -> list[Part]:
        return [replace(part, outcome="error", code=code, reason=why, data=None)]

    zips = budget.zips
    if depth > zips.depth:
        return fail("zip_limit", f"a ZIP nested {depth} deep, over the limit of {zips.depth} (not opened)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as exc:
        return fail("corrupt", f"not a readable ZIP ({exc})")
    refused = _over_budget(infos, budget)
    if refused:
        return fail("zip_limit", refused)
    budget.members -= len(infos)
    out: list[Part] = []
    for info in infos:
        member = replace(part, member=info.filename, size=info.file_size, inline=False)
        unsafe = _unsafe(info.filename)
        if unsafe:
            out.append(replace(member, reason=f"ZIP member with {unsafe}: not read"))
            continue
        if info.flag_bits & 0x1:
            out.append(replace(member, reason="an encrypted ZIP member: not read"))
            continue
        if info.file_size > max_bytes:
            out.append(too_large(member, max_bytes))
            continue
        try:
            with archive.open(info) as handle:
                body = handle.read(min(max_bytes, budget.bytes) + 1)  # bounded: headers may lie
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
            out.append(replace(member, outcome="error", code="corrupt", reason=str(exc)))
            continue
        budget.bytes -= len(body)
        if len(body) > max_bytes or budget.bytes < 0:
            return fail("zip_limit", f"members unpack past their declared sizes (a ZIP bomb): {info.filename}")
        member = replace(member, size=len(body), content_type=_member_type(info.filename))
        out.extend(classify(member, body, max_bytes=max_bytes, budget=budget, depth=depth))
    return out


def _over_budget(infos: list[zipfile.ZipInfo], budget: MailBudget) -> str:
    """Why a ZIP's declared members pass what is left of the mail's budget, or ""."""
    zips = budget.zips
    if len(infos) > budget.members:
        return (
            f"{len(infos)} members, over the limit of {zips.members} ({budget.members} left of the mail's; not opened)"
        )
    declared = sum(i.file_size for i in infos)
    if declared > budget.bytes:
        return (
            f"{declared:,} bytes unpacked, over the limit of {zips.total:,} "
            f"({budget.bytes:,} left of the mail's; a ZIP bomb?)"
        )
    for info in infos:
        if info.file_size > max(1 << 20, zips.ratio * max(info.compress_size, 1)):
            ratio = info.file_size // max(info.compress_size, 1)
            return f"{info.filename} unpacks to {ratio:,} times its size (a ZIP bomb; not opened)"
    return ""


def _member_type(name: str) -> str:
    kind = _SUFFIXES.get(PurePosixPath(name).suffix.lower())
    if kind is None:
        return "application/octet-stream"
    return {".pdf": "application/pdf", ".xml": "application/xml", ".zip": "application/zip"}.get(
        kind[1], f"image/{kind[1].lstrip('.').replace('jpg', 'jpeg').replace('tif', 'tiff')}"
    )


def filename(part: Message) -> str | None:
    """A part's file name (Content-Disposition's, else Content-Type's ``name``), decoded (RFC 2231 parameters and
    the RFC 2047 encoded words many mailers put there; an unknown charset gives replacement characters); None
    without one."""
    try:
        name = part.get_filename()
        if name is None:
            return None
        if "=?" in name:
            decoded = []
            for chunk, charset in email.header.decode_header(name):
                if isinstance(chunk, str):
                    decoded.append(chunk)
                    continue
                try:
                    decoded.append(chunk.decode(charset or "ascii", "replace"))
                except LookupError:
                    decoded.append(chunk.decode("ascii", "replace"))
            name = "".join(decoded)
    except (LookupError, UnicodeError, ValueError):
        return "(undecodable name)"
    return str(name).strip() or None


def mime_defects(message: Message) -> list[str]:
    """The MIME defects Python's ``email`` package found while parsing, as notes."""
    notes = []
    for part in message.walk():
        for defect in part.defects:
            notes.append(f"malformed MIME: {type(defect).__name__}{f' ({defect})' if str(defect) else ''}")
    return notes


_ENCODED_WORD = re.compile(r"=\?([^?*]+)(?:\*[^?]*)?\?[bBqQ]\?")
_RFC2231 = re.compile(r"\*=([^'\s;]*)'")


def charset_notes(message: Message) -> list[str]:
    """Unknown charsets in the mail's headers (encoded words, RFC 2231 parameters) and parts, as notes."""
    notes = []
    for part in message.walk():
        found = []
        for key, value in part.raw_items():
            text = str(value)
            found += [(key, c) for c in _ENCODED_WORD.findall(text) + _RFC2231.findall(text) if c]
        param = part.get_param("charset")
        if isinstance(param, str) and param:
            found.append(("Content-Type charset", param))
        for where, charset in found:
            try:
                codecs.lookup(charset)
            except LookupError:
                notes.append(
                    f"unknown charset {charset!r} in {where} (read as well as it decodes: characters may be wrong)"
                )
    return notes


@dataclass(frozen=True)
class Leaf:
    """A MIME leaf as the server's BODYSTRUCTURE describes it (for a mail too large to fetch whole).

    Attributes:
        index: its place among the leaves, 0-based (as :func:`leaves` counts).
        section: its IMAP body section (``2``, ``1.3``).
        mime: the section of its MIME header (``2.MIME``; ``HEADER`` for a mail of one part).
        content_type: its type.
        size: its encoded size in bytes.
        name: its file name, when the structure says one.
        encoding: its Content-Transfer-Encoding.
    """

    index: int
    section: str
    mime: str
    content_type: str
    size: int
    name: str | None
    encoding: str

    def decoded_size(self) -> int:
        """The size once decoded (base64: three bytes for every four)."""
        return self.size * 3 // 4 if self.encoding == "base64" else self.size


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _params(value) -> dict[str, str]:
    """A BODYSTRUCTURE parameter list ``(k1, v1, k2, v2, ...)`` as a dict (keys lower case)."""
    if not isinstance(value, (tuple, list)):
        return {}
    items = list(value)
    return {_text(k).lower(): _text(v) for k, v in zip(items[::2], items[1::2], strict=False)}


def leaves_of_structure(structure) -> list[Leaf]:
    """The leaves of an IMAPClient-parsed BODYSTRUCTURE, depth first, numbered as their IMAP sections.

    A forwarded message (``message/rfc822``) is one leaf here.
    """
    found: list[Leaf] = []

    def walk(node, section: str) -> None:
        if isinstance(node[0], list):  # multipart: (children, subtype, ...)
            for number, child in enumerate(node[0], 1):
                walk(child, f"{section}.{number}" if section else str(number))
            return
        maintype, subtype = _text(node[0]).lower(), _text(node[1]).lower()
        params = _params(node[2])
        # the disposition's place: after the line count for text, after envelope, body, lines for a message
        at = 9 if maintype == "text" else 11 if (maintype, subtype) == ("message", "rfc822") else 8
        disposition = node[at] if len(node) > at else None
        name = params.get("name")
        if isinstance(disposition, (tuple, list)) and len(disposition) >= 2:
            name = _params(disposition[1]).get("filename") or name
        found.append(
            Leaf(
                index=len(found),
                section=section or "1",
                mime=f"{section}.MIME" if section else "HEADER",
                content_type=f"{maintype}/{subtype}",
                size=int(node[6] or 0),
                name=name,
                encoding=_text(node[5]).lower(),
            )
        )

    walk(structure, "")
    return found


__all__ = [
    "INLINE_IMAGE",
    "SMALL_IMAGE",
    "Leaf",
    "MailBudget",
    "MailContent",
    "Part",
    "ZipLimits",
    "charset_notes",
    "classify",
    "encrypted",
    "kind_of",
    "leaves",
    "leaves_of_structure",
    "mime_defects",
    "parse_mail",
    "parse_parts",
    "read_leaf",
    "read_mail",
]
