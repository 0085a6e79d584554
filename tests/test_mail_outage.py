"""A mail server gone for longer than several reconnects (issue 48, part 3), on a real private Dovecot stopped and
started again: ONE log line when the outage begins and one when the server is back, ``extract status`` shows the
outage while it goes on (since when, the last error) and after, and every mail is read exactly once. The back-off's
cap (``MailSettings.max_backoff``) is 0.3 s, so a 3 s outage is about ten reconnect attempts. E-invoice PDFs are read
from their XML: no generation. Without Dovecot it skips (fails under CI=true)."""

import datetime
import email.message
import email.utils
import logging
import threading
import time

import pytest
from helpers import einvoice_pdf, require_dovecot, wait_for
from typer.testing import CliRunner

from extractor import Extractor, Settings
from extractor.cli.commands import app
from extractor.jobs.mail import Credentials, MailSettings, mail
from extractor.jobs.mail.ledger import MailLedger, mail_key
from extractor.testing.dovecot import PASSWORD, Dovecot

HANG_GUARD_S = 120  # only stops a hung test; no test asserts on time
OUTAGE_S = 3.0  # the server is down this long: many reconnects at a 0.3 s cap


@pytest.fixture(scope="module")
def server():
    require_dovecot()
    with Dovecot() as running:
        yield running


@pytest.fixture(scope="module")
def extractor(model_factory):
    settings = Settings(model=str(model_factory.random().path), max_tokens=4, embedded_rules=False, isolate=False)
    with Extractor(settings) as loaded:
        yield loaded


def invoice_mail(subject: str, pdf: bytes) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "billing@supplier.com", "ap@example.com", subject
    msg["Date"] = email.utils.format_datetime(datetime.datetime(2026, 12, 1, 9, 30, tzinfo=datetime.timezone.utc))
    msg["Message-ID"] = email.utils.make_msgid(domain="supplier.com")
    msg.set_content("Please find our invoice attached.")
    msg.add_attachment(pdf, maintype="application", subtype="pdf", filename=f"{subject}.pdf")
    return msg.as_bytes()


def status(out) -> str:
    shown = CliRunner().invoke(app, ["status", "--out", str(out)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    return " ".join(shown.output.split())


def test_a_long_outage_is_logged_once_shown_by_status_and_every_mail_read_once(server, extractor, tmp_path, caplog):
    # three contents (the printed lines differ), so none is a duplicate of another
    pdfs = {n: einvoice_pdf(tmp_path / f"{n}.pdf", lines=(f"Rechnung {n}",)).read_bytes() for n in ("a", "b", "c")}
    out, stop, seen = tmp_path / "out", threading.Event(), []
    settings = MailSettings(backoff=0.1, max_backoff=0.3, timeout=2.0)
    server.append(invoice_mail("a", pdfs["a"]), folder="outage")
    thread = threading.Thread(
        target=mail,
        args=(server.url("outage"), out),
        kwargs=dict(
            extractor=extractor,
            credentials=Credentials(password=PASSWORD),
            settings=settings,
            on_record=seen.append,
            stop_event=stop,
        ),
        daemon=True,
    )
    with caplog.at_level(logging.DEBUG, logger="extractor.jobs.mail"):
        thread.start()
        try:
            wait_for(lambda: len(seen) == 1, what="the first mail's record")
            server.stop()
            wait_for(lambda: "the mail server is unreachable" in caplog.text, what="the outage's line")
            time.sleep(OUTAGE_S)
            during = status(out)
            server.start()
            server.append(invoice_mail("b", pdfs["b"]), folder="outage")
            server.append(invoice_mail("c", pdfs["c"]), folder="outage")
            wait_for(lambda: len(seen) == 3, what="the mails after the outage")
        finally:
            stop.set()
            thread.join(HANG_GUARD_S)
    assert not thread.is_alive()
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("the mail server is unreachable" in line for line in lines) == 1, lines
    assert sum("the mail server is back after" in line for line in lines) == 1, lines
    tries = [r for r in caplog.records if r.levelno == logging.DEBUG and "reconnecting in" in r.getMessage()]
    assert len(tries) >= 4  # several reconnects, each at most the cap apart, none of them a warning
    assert "the mail server is UNREACHABLE since" in during and "last error:" in during
    with MailLedger(out / ".extractor" / "ledger.sqlite") as mails:
        (outage,) = mails.outages()
        keys = {
            mail_key(m["mailbox"], m["folder"], m["uidvalidity"], m["uid"]) for m in (r.extra["mail"] for r in seen)
        }
        rows = [mails.get(key) for key in keys]
    assert outage["back_at"] is not None and outage["attempts"] >= 5 and outage["error"]
    assert "the mail server's last outage: from" in status(out)
    # every mail read exactly once: one record each, one begun attempt each, each done
    assert sorted(r.extra["mail"]["subject"] for r in seen) == ["a", "b", "c"]
    assert sorted((row.subject, row.state, row.attempts) for row in rows if row is not None) == [
        ("a", "done", 1),
        ("b", "done", 1),
        ("c", "done", 1),
    ]
