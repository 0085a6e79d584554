"""``extract mail`` against a real Dovecot (Debian's ``dovecot-imapd``, a private instance on loopback started by
``extractor.testing.dovecot``): mails built with Python's ``email`` package and put in with IMAP APPEND, real
ZUGFeRD / Factur-X invoices from ../shared (read from their embedded XML: no generation), a random-weight tiny model
for the rest. Each test reads a folder of its own.

Without Dovecot the server tests skip (they fail under ``CI=true``: ``.ci/run`` installs it).
"""

from __future__ import annotations

import contextlib
import datetime
import email.message
import email.utils
import functools
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
from fpdf import FPDF
from fpdf.enums import EncryptionMethod
from helpers import hook_command, in_ci, jsonl_lines, png, shared_path
from test_learning import SECOND, taught  # noqa: F401 - taught: a register that knows a supplier's layout
from typer.testing import CliRunner

from extractor import Extractor, Settings
from extractor.cli.commands import app, dispatch_args
from extractor.errors import UsageError
from extractor.jobs.ledger import parse_timestamp
from extractor.jobs.mail import Credentials, MailSettings, mail
from extractor.jobs.mail.client import LoginRefused
from extractor.jobs.mail.parts import ZipLimits, parse_mail, read_mail
from extractor.jobs.mail.steps import TEST_PAUSE_ENV
from extractor.jobs.mail.url import MailURL, parse_mail_url
from extractor.record import Record, record_schema
from extractor.testing.dovecot import PASSWORD, Dovecot, dovecot_available

MAX_BYTES = 3 * 1024 * 1024  # the tests' document limit: a 4 MiB attachment is too large
HANG_GUARD_S = 120  # only stops a hung test; only the IDLE test asserts on time (the 2 s)
SUPPLIER = "billing@supplier.com"
TOKEN = "ya29.test-access-token"  # the one access token the test server's introspection endpoint accepts


# ------------------------------------------------------------------------------------------------------- helpers


@functools.cache
def zugferd(index: int) -> tuple[str, bytes]:
    """A real Factur-X / ZUGFeRD invoice from ../shared whose embedded XML is the answer (name, bytes): no model
    generation (Facture_UE_MINIMUM lacks fields the invoice schema requires: the model would be asked)."""
    folder = shared_path("corpus", "invoices", "zugferd-corpus")
    pdfs = [p for p in sorted(folder.glob("v2_*.pdf")) if "Facture_UE_MINIMUM" not in p.name]
    path = pdfs[index % len(pdfs)]
    return path.name, path.read_bytes()


@functools.cache
def text_pdf(text: str, *, password: str = "") -> bytes:
    """A one-page PDF (no e-invoice in it: the model reads it)."""
    doc = FPDF()
    doc.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    if password:
        doc.set_encryption(owner_password="owner", user_password=password, encryption_method=EncryptionMethod.RC4)
    doc.add_page()
    doc.set_font("helvetica", size=14)
    doc.cell(text=text)
    return bytes(doc.output())


def message(
    subject: str,
    *,
    attachments: list[tuple[str, bytes, str]] = (),  # type: ignore[assignment]
    sender: str = SUPPLIER,
    message_id: str | None = None,
    body: str = "Please find our invoice attached.",
    html: str | None = None,
) -> email.message.EmailMessage:
    """A mail with attachments ``(name, bytes, content type)``."""
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = "ap@example.com"
    msg["Subject"] = subject
    msg["Date"] = email.utils.format_datetime(datetime.datetime(2026, 12, 1, 9, 30, tzinfo=datetime.timezone.utc))
    msg["Message-ID"] = message_id or email.utils.make_msgid(domain="supplier.com")
    if html is not None:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
    for name, data, ctype in attachments:
        maintype, subtype = ctype.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg


def noise_png(width: int, height: int) -> bytes:
    """A PNG of random pixels (it does not compress: its size is about width x height x 3 bytes)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).save(buffer, format="PNG")
    return buffer.getvalue()


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def records_in(out: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.json"))}


def ledger_rows(out: Path, table: str) -> list[dict]:
    with sqlite3.connect(out / ".extractor" / "ledger.sqlite") as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute(f"SELECT * FROM {table} ORDER BY rowid")]


def mails_by_subject(out: Path) -> dict[str, dict]:
    return {m["subject"]: m for m in ledger_rows(out, "mails")}


def mail_rows(out: Path) -> list[dict]:
    """The mails table, or [] before the loop made it."""
    try:
        return ledger_rows(out, "mails")
    except sqlite3.OperationalError:
        return []


def flags(server: Dovecot, folder: str) -> dict[str, set[str]]:
    """Each mail's subject -> its flags, in a folder."""
    client = server.client()
    try:
        if not client.folder_exists(folder):
            return {}
        client.select_folder(folder, readonly=True)
        uids = client.search("ALL")
        if not uids:
            return {}
        data = client.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (SUBJECT)]"])
    finally:
        client.logout()
    found = {}
    for item in data.values():
        subject = str(parse_mail(item[b"BODY[HEADER.FIELDS (SUBJECT)]"])["Subject"])
        found[subject] = {f.decode() for f in item[b"FLAGS"]} - {"\\Recent"}  # \Recent: the session's, not ours
    return found


def wait_for(predicate, *, what: str, limit: float = HANG_GUARD_S) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


# ------------------------------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def server():
    if not dovecot_available():
        message = "Debian's dovecot-imapd is not installed (/usr/sbin/dovecot)"
        if in_ci():
            pytest.fail(message + ": .ci/run installs it")
        pytest.skip(message)
    with Dovecot(oauth_tokens={TOKEN: "ap"}) as running:
        yield running


@pytest.fixture(scope="module")
def model_dir(model_factory) -> Path:
    return model_factory.random().path


@pytest.fixture(scope="module")
def extractor(model_dir):
    settings = Settings(
        model=str(model_dir),
        max_tokens=4,
        retries=0,
        embedded_rules=False,
        isolate=False,
        max_bytes=MAX_BYTES,
        passwords=("secret",),
    )
    with Extractor(settings) as ex:
        yield ex


CREDENTIALS = Credentials(password=PASSWORD)


def run_once(server: Dovecot, folder: str, out: Path, extractor, **settings):
    return mail(
        server.url(folder),
        out,
        extractor=extractor,
        credentials=CREDENTIALS,
        settings=MailSettings(once=True, backoff=0.1, **settings),
    )


# ---------------------------------------------------------------------------------------------------- pure parts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("imaps://ap@mail.example.com/INBOX", MailURL("imaps", "ap", "mail.example.com", 993, "INBOX")),
        (
            "imaps://ap%40example.com@outlook.office365.com",
            MailURL("imaps", "ap@example.com", "outlook.office365.com", 993),
        ),
        ("imap://ap@127.0.0.1:1143/Invoices/2026", MailURL("imap", "ap", "127.0.0.1", 1143, "Invoices/2026")),
        ("imap://ap@[::1]:1143/INBOX", MailURL("imap", "ap", "::1", 1143, "INBOX")),
    ],
)
def test_mail_urls(text, expected):
    url = parse_mail_url(text)
    assert url == expected
    assert "@" in url.mailbox and ":" not in url.mailbox.split("@")[0].split("//")[1]


@pytest.mark.parametrize(
    "text", ["pop3://ap@host/INBOX", "imaps://ap:secret@host/INBOX", "imaps://host/INBOX", "imaps://ap@host:99999/"]
)
def test_bad_mail_urls_are_usage_errors(text):
    with pytest.raises(UsageError):
        parse_mail_url(text)


def test_what_becomes_a_document():
    """The part rules on one mail: attachments and inline PDFs, XML, ZIP members; logos, pixels, signatures and
    bodies skipped with their reasons; ZIP limits."""
    big_logo = noise_png(160, 100)  # an inline image over the small-image limit, under the inline one
    msg = message("rules", attachments=[("a.pdf", b"%PDF-1.4 a", "application/pdf")])
    msg.add_attachment(
        b"%PDF-1.4 inline", maintype="application", subtype="pdf", disposition="inline", filename="b.pdf"
    )
    msg.add_attachment(png(), maintype="image", subtype="png", filename="pixel.png")
    msg.add_attachment(big_logo, maintype="image", subtype="png", disposition="inline", filename="logo.png")
    msg.add_attachment(b"<?xml version='1.0'?><Invoice/>", maintype="application", subtype="octet-stream", filename="x")
    msg.add_attachment(b"sig", maintype="application", subtype="pkcs7-signature", filename="smime.p7s")
    msg.add_attachment(
        zip_bytes({"in/c.pdf": b"%PDF-1.4 c", "../up.pdf": b"%PDF-1.4 up", "notes.txt": b"hello"}),
        maintype="application",
        subtype="zip",
        filename="docs.zip",
    )
    msg.add_attachment(
        zip_bytes({"zero.pdf": b"%PDF" + bytes(5_000_000)}), maintype="application", subtype="zip", filename="bomb.zip"
    )
    noise = zip_bytes({"noise.pdf": b"%PDF" + os.urandom(MAX_BYTES // 2) + bytes(MAX_BYTES // 2 + 10)})
    msg.add_attachment(noise, maintype="application", subtype="zip", filename="big.zip")
    content = read_mail(parse_mail(msg.as_bytes()), max_bytes=MAX_BYTES, zips=ZipLimits())
    table = [(p.index, p.name, p.member, p.outcome, p.suffix, p.code, p.reason.split(" (")[0]) for p in content.parts]
    assert table == [
        (0, None, None, "skipped", "", "", "mail body"),
        (1, "a.pdf", None, "document", ".pdf", "", ""),
        (2, "b.pdf", None, "document", ".pdf", "", ""),
        (3, "pixel.png", None, "skipped", "", "", "image under 16 KiB"),
        (4, "logo.png", None, "skipped", "", "", "inline image under 128 KiB"),
        (5, "x", None, "document", ".xml", "", ""),
        (6, "smime.p7s", None, "skipped", "", "", "a signature, not a document"),
        (7, "docs.zip", "in/c.pdf", "document", ".pdf", "", ""),
        (7, "docs.zip", "../up.pdf", "skipped", "", "", "ZIP member with a path that climbs out"),
        (7, "docs.zip", "notes.txt", "skipped", "", "", "not a PDF, image or XML"),
        (8, "bomb.zip", None, "error", "", "zip_limit", "zero.pdf unpacks to 1,024 times its size"),
        (
            9,
            "big.zip",
            "noise.pdf",
            "error",
            "",
            "too_large",
            "3,145,742 bytes, over the 3,145,728-byte limit",
        ),
    ]
    nested = zip_bytes({"1.zip": zip_bytes({"2.zip": zip_bytes({"deep.pdf": b"%PDF-1.4 deep"})})})
    many = zip_bytes({f"{n}.pdf": b"%PDF-1.4" for n in range(5)})
    for data, why in ((nested, "a ZIP nested 3 deep, over the limit of 2"), (many, "5 members, over the limit of 4")):
        msg = message("zip", attachments=[("z.zip", data, "application/zip")])
        (part,) = read_mail(parse_mail(msg.as_bytes()), max_bytes=MAX_BYTES, zips=ZipLimits(members=4)).errors
        assert (part.code, part.reason.split(" (")[0]) == ("zip_limit", why)


@pytest.mark.parametrize(
    ("zips", "documents", "refused"),
    [
        (ZipLimits(), 0, "100 members, over the limit of 100"),
        (  # members enough: the bytes budget, counted across the nested ZIPs, stops it at 200 MiB
            ZipLimits(members=1000),
            100,
            "104,857,600 bytes unpacked, over the limit of 209,715,200",
        ),
    ],
)
def test_nested_zips_share_one_budget_per_mail(zips, documents, refused):
    """Nested archives start from what the mail has left, not from zero: 500 documents and 524 MB before; now
    the mail's limits hold (members, bytes) and every refused ZIP says which limit and what was left."""
    from extractor.testing.bombs import nested_zip

    msg = message("bomb", attachments=[("bomb.zip", nested_zip(), "application/zip")])
    content = read_mail(parse_mail(msg.as_bytes()), max_bytes=MAX_BYTES, zips=zips)
    assert len(content.documents) == documents
    assert sum(len(p.data or b"") for p in content.documents) <= zips.total
    assert [(p.code, p.reason.split(" (")[0]) for p in content.errors] == [("zip_limit", refused)] * (
        5 - documents // 100
    )
    assert "left of the mail's" in content.errors[0].reason


@pytest.mark.parametrize(
    "build, reason",
    [
        (
            lambda: message("html", html="<p>Your invoice is online</p>"),
            "HTML-only mail: no attachment (the body is not read)",
        ),
        (lambda: message("text"), "no attachment"),
        (
            lambda: message("logo", attachments=[("logo.png", png(), "image/png")]),
            "no usable attachment: #1 logo.png: image under 16 KiB (logo, signature or tracking pixel)",
        ),
    ],
)
def test_why_a_mail_makes_no_record(build, reason):
    content = read_mail(parse_mail(build().as_bytes()), max_bytes=MAX_BYTES)
    assert (content.documents, content.errors, content.skip_reason()) == ((), (), reason)


# --------------------------------------------------------------------------------------------- against Dovecot


def test_attachments_become_records_once_each_named_apart(server, extractor, tmp_path):
    """Two attachments called invoice.pdf, an inline PDF, a ZIP member; logos and pixels listed as skipped; the same
    mail delivered twice is read once; a second run reads nothing; the mail is flagged \\Seen + $Extracted."""
    (_, first), (_, second), (_, third) = zugferd(0), zugferd(1), zugferd(2)
    msg = message(
        "Rechnung 4711",
        attachments=[
            ("invoice.pdf", first, "application/pdf"),
            ("invoice.pdf", second, "application/pdf"),
            ("logo.png", png(), "image/png"),
            ("bundle.zip", zip_bytes({"march/invoice.pdf": third}), "application/zip"),
        ],
        message_id="<4711@supplier.com>",
    )
    server.append(msg.as_bytes(), folder="records")
    server.append(msg.as_bytes(), folder="records")  # the same mail again (a second address, a forward)
    out = tmp_path / "out"
    summary = run_once(server, "records", out, extractor)
    assert (summary.mails, summary.extracted, summary.failed, summary.duplicates, summary.skipped) == (2, 3, 0, 1, 0)
    records = records_in(out)
    assert len(records) == 3 and len({r["sha256"] for r in records.values()}) == 3
    key = next(iter(records)).split("-")[0]
    names = sorted(records)
    assert names[0] == f"{key}-1-invoice.json" and names[1] == f"{key}-2-invoice.json"
    assert names[2].startswith(f"{key}-4.") and names[2].endswith("-invoice.json")
    record = records[f"{key}-1-invoice.json"]
    assert record["status"] != "error" and record["data_source"] == "embedded_xml"
    assert record["source"] == str(out.resolve() / "attachments" / f"{key}-1-invoice.pdf")
    assert Path(record["source"]).read_bytes() == first
    uidvalidity = record["mail"]["uidvalidity"]
    assert record["mail"] == {
        "mailbox": f"imap://ap@127.0.0.1:{server.port}",
        "folder": "records",
        "uidvalidity": uidvalidity,
        "uid": 1,
        "message_id": "<4711@supplier.com>",
        "from": SUPPLIER,
        "to": ["ap@example.com"],
        "subject": "Rechnung 4711",
        "date": "2026-12-01T09:30:00+00:00",
        "attachment": {
            "name": "invoice.pdf",
            "index": 1,
            "content_type": "application/pdf",
            "size": len(first),
            "member": None,
        },
    }
    assert records[names[2]]["mail"]["attachment"]["member"] == "march/invoice.pdf"
    import jsonschema

    for one in records.values():  # the agreed record shape, `mail` included
        assert not list(jsonschema.Draft202012Validator(record_schema()).iter_errors(one))
    mails = ledger_rows(out, "mails")
    assert [(m["uid"], m["state"], m["filed"]) for m in mails] == [(1, "done", 1), (2, "duplicate", 1)]
    assert mails[1]["reason"] == f"same Message-ID as mail {key} (UID 1)"
    parts = [
        (p["idx"], p["member"], p["outcome"], p["reason"]) for p in ledger_rows(out, "mail_parts") if p["key"] == key
    ]
    assert parts == [
        (0, "", "skipped", "mail body"),
        (3, "", "skipped", "image under 16 KiB (logo, signature or tracking pixel)"),
        (1, "", "document", None),
        (2, "", "document", None),
        (4, "march/invoice.pdf", "document", None),
    ]
    assert flags(server, "records") == {"Rechnung 4711": {"\\Seen", "$Extracted"}}
    again = run_once(server, "records", out, extractor)
    assert (again.mails, again.fetched_bytes) == (0, 0)
    assert records_in(out) == records


def test_bad_input_each_says_why_and_the_mailbox_goes_on(server, extractor, tmp_path):
    """Malformed MIME, an unknown charset, a too-large attachment (never fetched), encrypted PDFs (the password
    file's password tried), ZIP bombs, S/MIME and PGP mail, HTML-only mail, a sender outside --allow-from, XML."""
    folder = "bad"
    name, invoice = zugferd(3)
    mails = {}
    mails["malformed"] = (
        b"From: billing@supplier.com\r\nSubject: malformed\r\nMessage-ID: <m1@supplier.com>\r\n"
        b'Content-Type: multipart/mixed; boundary="XYZ"\r\n\r\nno boundary ever comes\r\n'
    )
    charset = message("charset", attachments=[(name, invoice, "application/pdf")]).as_bytes()
    mails["charset"] = charset.replace(b"Subject: charset", b"Subject: =?x-unknown?q?Rechnung_M=E4rz?=")
    mails["too large"] = message(
        "too large", attachments=[("huge.pdf", b"%PDF-1.4\n" + os.urandom(4 * 1024 * 1024), "application/pdf")]
    ).as_bytes()
    mails["encrypted pdfs"] = message(
        "encrypted pdfs",
        attachments=[
            ("open.pdf", text_pdf("opens", password="secret"), "application/pdf"),
            ("locked.pdf", text_pdf("stays locked", password="unknown"), "application/pdf"),
        ],
    ).as_bytes()
    bomb = zip_bytes({"bomb.pdf": b"%PDF-1.4" + bytes(60 * 1024 * 1024)})
    mails["zip bomb"] = message("zip bomb", attachments=[("bomb.zip", bomb, "application/zip")]).as_bytes()
    head = b"From: billing@supplier.com\r\nTo: ap@example.com\r\nMIME-Version: 1.0\r\n"
    mails["smime"] = head + (
        b"Subject: smime\r\nContent-Type: application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m\r\n"
        b"Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=smime.p7m\r\n\r\n"
        b"MIAGCSqGSIb3DQEHA6CAMIACAQAxggE=\r\n"
    )
    mails["pgp"] = head + (
        b'Subject: pgp\r\nContent-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="B"\r\n'
        b"\r\n--B\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n--B\r\n"
        b"Content-Type: application/octet-stream; name=encrypted.asc\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n"
        b"hQEMA\r\n-----END PGP MESSAGE-----\r\n--B--\r\n"
    )
    mails["html"] = message("html", html="<p>Your invoice: https://portal.example/1</p>").as_bytes()
    mails["stranger"] = message(
        "stranger", sender="billing@elsewhere.com", attachments=[(name, invoice, "application/pdf")]
    ).as_bytes()
    mails["xml"] = message(
        "xml", attachments=[("invoice.xml", b"<?xml version='1.0'?><Invoice/>", "application/xml")]
    ).as_bytes()
    for raw in mails.values():
        server.append(raw, folder=folder)
    out = tmp_path / "out"
    summary = run_once(server, folder, out, extractor, allow_from=("*@supplier.com",))
    assert summary.fetched_bytes < 1024 * 1024 + sum(len(m) for k, m in mails.items() if k != "too large")
    rows = mails_by_subject(out)
    assert {subject: row["state"] for subject, row in rows.items()} == {
        "malformed": "skipped",
        "Rechnung M\ufffdrz": "done",
        "too large": "failed",
        "encrypted pdfs": "failed",
        "zip bomb": "failed",
        "smime": "skipped",
        "pgp": "skipped",
        "html": "skipped",
        "stranger": "skipped",
        "xml": "failed",
    }
    reasons = {subject: row["reason"] or "" for subject, row in rows.items()}
    expected = {
        "malformed": "no attachment (malformed MIME: StartBoundaryNotFoundDefect",
        "too large": "#1 huge.pdf: too_large: ",
        "encrypted pdfs": "#2 locked.pdf: ",
        "zip bomb": "#1 bomb.zip: zip_limit: bomb.pdf unpacks to",
        "smime": "S/MIME-encrypted mail (enveloped-data): not read",
        "pgp": "PGP-encrypted mail: not read",
        "html": "HTML-only mail: no attachment (the body is not read)",
        "stranger": "sender 'billing@elsewhere.com' is not in --allow-from",
        "xml": "#1 invoice.xml: not_an_einvoice: ",  # an XML, but no e-invoice (its root named in the record)
    }
    assert {s: r for s, r in reasons.items() if s in expected and expected[s] not in r} == {}
    assert "open.pdf" not in reasons["encrypted pdfs"]
    assert rows["malformed"]["notes"].startswith("malformed MIME: StartBoundaryNotFoundDefect")
    records = records_in(out)
    by_name = {r["mail"]["attachment"]["name"]: r for r in records.values()}
    assert by_name["open.pdf"]["status"] != "error"
    assert by_name["locked.pdf"]["errors"][0]["code"] in ("encrypted", "wrong_password")
    assert by_name["huge.pdf"]["errors"][0]["code"] == "too_large"
    assert (
        "mail <" in by_name["huge.pdf"]["errors"][0]["message"]
        and "huge.pdf" in by_name["huge.pdf"]["errors"][0]["message"]
    )
    assert by_name["bomb.zip"]["errors"][0]["code"] == "zip_limit"
    assert by_name["invoice.xml"]["source"].endswith(".xml")  # handed to the normal input path, named .xml
    assert by_name["invoice.xml"]["errors"][0]["code"] == "not_an_einvoice"
    assert by_name[name]["mail"]["subject"] == "Rechnung M\ufffdrz"
    assert {
        "code": "mail",
        "message": "unknown charset 'x-unknown' in Subject (read as well as it decodes: characters may be wrong)",
    } in by_name[name]["warnings"]
    assert not any(r["mail"]["from"] == "billing@elsewhere.com" for r in records.values())
    import jsonschema

    for one in records.values():  # error records too (too_large, zip_limit: no file was read)
        assert not list(jsonschema.Draft202012Validator(record_schema()).iter_errors(one))


def test_an_einvoice_xml_attachment_is_read_exactly(server, extractor, tmp_path):
    """A bare UBL e-invoice attached to a mail is a document read exactly from its XML (no model, pages 0)."""
    xml = (Path(__file__).parent / "data" / "einvoice" / "xrechnung-01.01a-INVOICE_ubl.xml").read_bytes()
    msg = message("xrechnung", attachments=[("rechnung.xml", xml, "application/xml")], message_id="<ubl@supplier.com>")
    server.append(msg.as_bytes(), folder="xml-in")
    out = tmp_path / "out"
    summary = run_once(server, "xml-in", out, extractor)
    assert (summary.mails, summary.extracted, summary.failed) == (1, 1, 0)
    (record,) = records_in(out).values()
    assert (record["data_source"], record["pages"], record["mail"]["attachment"]["name"]) == (
        "embedded_xml",
        0,
        "rechnung.xml",
    )
    assert record["status"] in ("ok", "review") and record["data"]["invoice_number"]


def test_idle_wakes_within_2_s_and_a_restarted_server_is_reconnected(server, extractor, tmp_path):
    out = tmp_path / "out"
    stop = threading.Event()
    results: list = []
    seen: list[Record] = []
    thread = threading.Thread(
        target=lambda: results.append(
            mail(
                server.url("idle"),
                out,
                extractor=extractor,
                credentials=CREDENTIALS,
                settings=MailSettings(backoff=0.2, max_backoff=0.5, timeout=5.0),
                on_record=seen.append,
                stop_event=stop,
            )
        ),
        daemon=True,
    )
    server.append(message("before start").as_bytes(), folder="idle")  # the folder exists; its mail is skipped
    thread.start()
    try:
        wait_for(lambda: len(mail_rows(out)) == 1, what="the first mail")
        time.sleep(0.5)  # in IDLE now
        sent = time.time()
        server.append(
            message("idle", attachments=[("i.pdf", zugferd(4)[1], "application/pdf")]).as_bytes(), folder="idle"
        )
        wait_for(lambda: len(seen) == 1, what="the record after IDLE")
        begun = parse_timestamp(mail_rows(out)[1]["created_at"])  # the mail was taken (then extracted)
        assert begun - sent < 2.0
        server.restart()  # the connection drops; the loop reconnects with back-off
        server.append(
            message("after restart", attachments=[("r.pdf", zugferd(5)[1], "application/pdf")]).as_bytes(),
            folder="idle",
        )
        wait_for(lambda: len(seen) == 2, what="the record after the server restarted")
    finally:
        stop.set()
        thread.join(HANG_GUARD_S)
    (summary,) = results
    assert (summary.extracted, summary.skipped) == (2, 1) and summary.reconnects >= 1


def _cli(server: Dovecot, folder: str, out: Path, model_dir: Path, *extra: str) -> list[str]:
    return [
        "mail",
        server.url(folder),
        "--out",
        str(out),
        "--model",
        str(model_dir),
        "--max-tokens",
        "4",
        "--no-embedded-rules",
        "--no-isolate",
        "--backoff",
        "0.1",
        *extra,
    ]


def test_kill_9_then_restart_loses_and_duplicates_nothing(server, model_dir, tmp_path):
    folder = "crash"
    attachments = [("one.pdf", zugferd(6)[1], "application/pdf"), ("two.pdf", zugferd(7)[1], "application/pdf")]
    server.append(
        message("crash", attachments=attachments, message_id="<crash@supplier.com>").as_bytes(), folder=folder
    )
    out, jsonl = tmp_path / "out", tmp_path / "records.jsonl"
    env = dict(os.environ, EXTRACT_MAIL_PASSWORD=PASSWORD)
    observed = []
    # after the first record is written; after it is fed to --jsonl (not yet committed); after the mail is finished
    for step in ("written", "fed", "finished"):
        marker = tmp_path / step
        child_env = dict(env, **{TEST_PAUSE_ENV: f"{step}:{marker}"})
        args = [
            sys.executable,
            "-m",
            "extractor.cli",
            *_cli(server, folder, out, model_dir, "--once", "--jsonl", str(jsonl)),
        ]
        with open(tmp_path / f"{step}.err", "wb") as err:
            proc = subprocess.Popen(args, env=child_env, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_for(
                lambda marker=marker, proc=proc: marker.exists() or proc.poll() is not None, what=f"a pause at {step}"
            )
            assert marker.exists(), (tmp_path / f"{step}.err").read_text()
        finally:
            proc.kill()
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        (row,) = ledger_rows(out, "mails")
        lines = len(jsonl.read_text(encoding="utf-8").splitlines()) if jsonl.exists() else 0
        observed.append(
            (
                step,
                row["state"],
                row["attempts"],
                row["filed"],
                len(records_in(out)),
                lines,
                flags(server, folder)["crash"],
            )
        )
    assert observed == [  # (step, mail state, attempts, filed, records, --jsonl lines, flags)
        ("written", "running", 1, 0, 1, 0, set()),
        ("fed", "running", 2, 0, 1, 1, set()),  # the first document done again, its line appended
        ("finished", "done", 3, 0, 2, 2, set()),  # ... and again: its line not appended twice
    ]
    args = _cli(server, folder, out, model_dir, "--once", "--json", "--jsonl", str(jsonl))
    result = CliRunner().invoke(app, dispatch_args(args), env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "mails": 0,
        "extracted": 0,
        "failed": 0,
        "duplicates": 0,
        "skipped": 0,
        "reconnects": 0,
        "fetched_bytes": 0,
        "hook_failed": 0,
    }
    assert flags(server, folder) == {"crash": {"\\Seen", "$Extracted"}}
    assert len(records_in(out)) == 2
    documents = ledger_rows(out, "documents")
    assert sorted((d["state"], d["attempts"]) for d in documents) == [("done", 1), ("done", 3)]
    fed = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    written = {r["mail"]["attachment"]["index"]: r for r in records_in(out).values()}
    assert sorted(r["mail"]["attachment"]["index"] for r in fed) == sorted(written)  # one line per record
    assert all(r["data"] == written[r["mail"]["attachment"]["index"]]["data"] for r in fed)


def test_done_and_failed_folders_and_status_through_the_cli(server, model_dir, tmp_path):
    folder = "sorted"
    server.append(
        message("good", attachments=[("good.pdf", zugferd(8)[1], "application/pdf")]).as_bytes(), folder=folder
    )
    server.append(
        message("broken", attachments=[("broken.pdf", b"%PDF-1.4\nnot really", "application/pdf")]).as_bytes(),
        folder=folder,
    )
    server.append(message("nothing").as_bytes(), folder=folder)
    out = tmp_path / "out"
    password_file = tmp_path / "mail-password"
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    args = _cli(
        server, folder, out, model_dir, "--once", "--json", "--done-folder", "Done", "--failed-folder", "Failed"
    )
    result = CliRunner().invoke(app, dispatch_args([*args, "--mail-password-file", str(password_file)]))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["extracted"] == 1
    assert PASSWORD not in result.output
    assert flags(server, folder) == {"nothing": {"$ExtractSkipped"}}
    assert flags(server, "Done") == {"good": {"\\Seen", "$Extracted"}}
    assert flags(server, "Failed") == {"broken": {"$ExtractFailed"}}
    # the invoice register kept beside the ledger, as extract watch keeps it: the good invoice is in it
    from extractor.register import Register

    with contextlib.closing(Register.open(str(out / ".extractor" / "register.sqlite"))) as register:
        assert [row["source"].endswith("good.pdf") for row in register.invoices()] == [True]
    status = CliRunner().invoke(app, dispatch_args(["status", "--out", str(out), "--json"]))
    assert status.exit_code == 0, status.output
    report = json.loads(status.stdout)["mail"]
    assert report["counts"] == {"running": 0, "done": 1, "failed": 1, "skipped": 1, "duplicate": 0}
    reasons = {m["subject"]: m["reason"] for m in report["recent"]}
    assert reasons["nothing"].endswith(": no attachment")
    assert "#1 broken.pdf: " in reasons["broken"]
    refused = CliRunner().invoke(app, dispatch_args(args), env={"EXTRACT_MAIL_PASSWORD": "wrong"})
    assert refused.exit_code == 1 and "login refused" in refused.output


def test_sigterm_finishes_the_document_in_hand_then_stops(server, extractor, tmp_path):
    """SIGTERM as the first of two attachments' record is written: no new document starts, the second waits in
    the ledger (the mail stays ``running``, unflagged) and the next run reads it, once."""
    folder = "sigterm"
    attachments = [("a.pdf", zugferd(1)[1], "application/pdf"), ("b.pdf", zugferd(2)[1], "application/pdf")]
    server.append(message("two", attachments=attachments).as_bytes(), folder=folder)
    out = tmp_path / "out"
    # the handler before (SIG_DFL alone; another test in this worker may have left its own: ray.init installs one)
    before = signal.getsignal(signal.SIGTERM)
    first = mail(
        server.url(folder),
        out,
        extractor=extractor,
        credentials=CREDENTIALS,
        settings=MailSettings(),
        on_record=lambda record: os.kill(os.getpid(), signal.SIGTERM),  # runs on the loop's (main) thread
        handle_signals=True,
    )
    assert (first.mails, first.extracted) == (1, 1)
    (row,) = ledger_rows(out, "mails")
    assert (row["state"], row["filed"]) == ("running", 0) and flags(server, folder) == {"two": set()}
    assert [r["mail"]["attachment"]["name"] for r in records_in(out).values()] == ["a.pdf"]
    assert signal.getsignal(signal.SIGTERM) is before  # the handlers are put back
    second = run_once(server, folder, out, extractor)
    assert (second.mails, second.extracted) == (1, 1)
    assert sorted(r["mail"]["attachment"]["name"] for r in records_in(out).values()) == ["a.pdf", "b.pdf"]
    assert flags(server, folder) == {"two": {"\\Seen", "$Extracted"}}


def test_one_process_per_ledger(tmp_path):
    """A second ``extract mail`` (or a watcher) on the same ledger refuses before connecting."""
    from extractor.jobs.intake.lock import IntakeLock
    from extractor.jobs.mail import ledger_path
    from extractor.jobs.watch.inbox import WatchPaths, watch_lock

    out = tmp_path / "out"
    with IntakeLock(ledger_path(out)):
        with pytest.raises(UsageError, match="already using the ledger") as refused:
            mail("imap://ap@127.0.0.1:1/INBOX", out, extractor=None, credentials=CREDENTIALS)
        assert refused.value.code == "locked"
        inbox = tmp_path / "inbox"
        inbox.mkdir()
        with pytest.raises(UsageError, match="already using the ledger"):
            watch_lock(WatchPaths.resolve(inbox, out)).acquire()


def test_xoauth2_with_a_token_command(server, extractor, tmp_path, caplog):
    """--oauth-token-command: its token logs in by XOAUTH2 (Dovecot's oauth2 passdb asks an introspection
    endpoint); a refused token, or a command that fails, is a clear login error; no token reaches a log line."""
    folder = "oauth"
    server.append(message("oauth", attachments=[("o.pdf", zugferd(3)[1], "application/pdf")]).as_bytes(), folder=folder)
    out = tmp_path / "out"

    def run(command: str):
        return mail(
            server.url(folder),
            out,
            extractor=extractor,
            credentials=Credentials(token_command=command),
            settings=MailSettings(once=True),
        )

    python = sys.executable
    with caplog.at_level("DEBUG"):
        assert run(f"{python} -c 'print(\"{TOKEN}\")'").extracted == 1
        with pytest.raises(LoginRefused, match="login refused"):
            run(f"{python} -c 'print(\"expired-token\")'")
        with pytest.raises(LoginRefused, match=r"printed no token \(no refresh token\)"):
            run(f"{python} -c 'import sys; sys.exit(\"no refresh token\")'")
    assert TOKEN not in caplog.text and "expired-token" not in caplog.text


def test_poll_instead_of_idle(server, extractor, tmp_path):
    """--poll (and servers without IDLE): the folder is searched every SECONDS; a new mail is found."""
    out = tmp_path / "out"
    stop = threading.Event()
    seen: list[Record] = []
    server.append(message("first").as_bytes(), folder="poll")
    thread = threading.Thread(
        target=mail,
        args=(server.url("poll"), out),
        kwargs=dict(
            extractor=extractor,
            credentials=CREDENTIALS,
            settings=MailSettings(poll=1.0),
            on_record=seen.append,
            stop_event=stop,
        ),
        daemon=True,
    )
    thread.start()
    try:
        wait_for(lambda: len(mail_rows(out)) == 1, what="the first mail")
        server.append(
            message("later", attachments=[("p.pdf", zugferd(6)[1], "application/pdf")]).as_bytes(), folder="poll"
        )
        wait_for(lambda: len(seen) == 1, what="the mail found by polling")
    finally:
        stop.set()
        thread.join(HANG_GUARD_S)
    assert not thread.is_alive() and seen[0].extra["mail"]["subject"] == "later"


def test_jsonl_and_hook_get_each_attachment_record_with_its_mail(server, model_dir, tmp_path):
    """Two attachments and one too large (its error record is fed too): three lines with ``mail``, three hook runs."""
    folder = "feeds"
    attachments = [
        ("one.pdf", zugferd(3)[1], "application/pdf"),
        ("two.pdf", zugferd(4)[1], "application/pdf"),
        ("huge.pdf", b"%PDF-1.4\n" + os.urandom(4 * 1024 * 1024), "application/pdf"),
    ]
    server.append(
        message("feeds", attachments=attachments, message_id="<feeds@supplier.com>").as_bytes(), folder=folder
    )
    out, log, calls = tmp_path / "out", tmp_path / "records.jsonl", tmp_path / "calls.jsonl"
    feeds = ("--jsonl", str(log), "--hook", hook_command(tmp_path, calls), "--max-bytes", str(MAX_BYTES))
    args = _cli(server, folder, out, model_dir, *feeds, "--once", "--json")
    result = CliRunner().invoke(app, dispatch_args(args), env={"EXTRACT_MAIL_PASSWORD": PASSWORD})
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["extracted"], summary["failed"], summary["hook_failed"]) == (2, 1, 0)
    records, lines, runs = records_in(out), jsonl_lines(log), jsonl_lines(calls)
    assert sorted(map(json.dumps, lines)) == sorted(map(json.dumps, records.values()))  # each record file's content
    assert sorted(line["mail"]["attachment"]["name"] for line in lines) == ["huge.pdf", "one.pdf", "two.pdf"]
    assert [run["stdin"] for run in runs] == lines
    for name, record in records.items():
        (run,) = [r for r in runs if r["stdin"]["mail"]["attachment"] == record["mail"]["attachment"]]
        where = record["mail"]
        key = f"{where['mailbox']}/{folder}/{where['uidvalidity']}/{where['uid']}/{where['attachment']['index']}"
        assert run["env"] == {
            "EXTRACT_RECORD": str(out.resolve() / name),
            "EXTRACT_STATUS": record["status"],
            "EXTRACT_SOURCE": record["source"],
            "EXTRACT_SHA256": record["sha256"],
            "EXTRACT_RECORD_KEY": f"{record['sha256'] or '-'}/mail/{key}",
        }
    assert {run["env"]["EXTRACT_STATUS"] for run in runs if not run["env"]["EXTRACT_SHA256"]} == {"error"}


def test_a_taught_supplier_is_read_by_layout_by_default(
    server,
    model_dir,
    tmp_path,
    taught,  # noqa: F811 - the fixture imported above
):
    """--learn on extract mail as on extract: with a register, read by default (the attachment of the supplier
    ``taught`` taught is read by its layout: no model, the record's layout key); a mode not known is refused."""
    pdf = taught["second"].read_bytes()
    server.append(message("taught", attachments=[("second.pdf", pdf, "application/pdf")]).as_bytes(), folder="taught")
    out = tmp_path / "out"
    args = [*_cli(server, "taught", out, model_dir, "--once"), "--register", taught["register"]]
    result = CliRunner().invoke(app, dispatch_args(args), env={"EXTRACT_MAIL_PASSWORD": PASSWORD})
    assert result.exit_code == 0, result.output
    (record,) = records_in(out).values()
    assert (record["data_source"], record["data"], record["usage"]["generated_tokens"]) == ("layout", SECOND, 0)
    assert (record["layout"]["mode"], record["layout"]["id"], record["mail"]["subject"]) == (
        "read",
        taught["layout"],
        "taught",
    )
    refused = CliRunner().invoke(
        app, dispatch_args([*args, "--learn", "always"]), env={"EXTRACT_MAIL_PASSWORD": PASSWORD}
    )
    assert refused.exit_code == 2 and "learn must be one of read, check, off" in refused.output
