"""Hostile files for the bounds' tests and ``bench/bombs.py`` (issue 50): a PDF whose attachment inflates far past
its size, and a ZIP of ZIPs."""

from __future__ import annotations

import io
import zipfile
import zlib


def bomb_pdf(inflated: int, *, declared: int | None, attachment: bool = True) -> bytes:
    """A one-page PDF whose ``factur-x.xml`` attachment is ``inflated`` bytes of XML packed with Flate (about 1 KB
    per MiB).

    Args:
        inflated: the attachment's spaces, unpacked (the XML is 40 bytes more).
        declared: its ``/Params /Size`` (None: none; a small one lies).
        attachment: False: the same PDF without the attachment (the bench's baseline).
    """
    xml = b"<?xml version='1.0'?><Invoice>" + b" " * inflated + b"</Invoice>"
    packed = zlib.compress(xml, 9)
    params = b"" if declared is None else b" /Params << /Size %d >>" % declared
    names = b" /Names << /EmbeddedFiles << /Names [(factur-x.xml) 4 0 R] >> >>" if attachment else b""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R%s >>" % names,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
        b"<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /EF << /F 5 0 R >> >>",
        b"<< /Type /EmbeddedFile /Filter /FlateDecode /Length %d%s >>\nstream\n" % (len(packed), params)
        + packed
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def zip_of(members: dict[str, bytes]) -> bytes:
    """A ZIP (deflated) of ``members``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def nested_zip(*, outer: int = 5, inner: int = 100, size: int = 1 << 20) -> bytes:
    """A ZIP of ``outer`` ZIPs of ``inner`` PDFs of ``size`` bytes each (the issue's: 5 x 100 x 1 MiB)."""
    pdf = b"%PDF-1.4\n" + bytes(size - 9)
    archive = zip_of({f"{n}.pdf": pdf for n in range(inner)})
    return zip_of({f"{n}.zip": archive for n in range(outer)})


__all__ = ["bomb_pdf", "nested_zip", "zip_of"]
