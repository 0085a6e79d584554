"""Builders and fixtures shared by the tests: PDFs, images, the e-invoice XML, ../shared, settings, forced answers.

Import from here, never copy: ``from helpers import make_pdf, settings_for`` (tests/ is on sys.path).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout: data for developers and CI (EXTRACTOR_SHARED names it elsewhere: a worktree)
SHARED_DIR = Path(os.environ.get("EXTRACTOR_SHARED") or ROOT.parent / "shared")


def in_ci() -> bool:
    """Whether the tests run in CI (``CI=true``), where missing shared data is a failure, not a skip."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_dovecot() -> None:
    """Skip the test without Debian's dovecot-imapd (fail it under ``CI=true``, where ``.ci/run`` installs it)."""
    from extractor.testing.dovecot import dovecot_available

    if not dovecot_available():
        message = "Debian's dovecot-imapd is not installed (/usr/sbin/dovecot)"
        if in_ci():
            pytest.fail(message + ": .ci/run installs it")
        pytest.skip(message)


def shared_path(*parts: str) -> Path:
    """A path in ../shared; skips the test (fails it under ``CI=true``) when it is absent.

    Args:
        parts: path parts below ../shared, e.g. ``("corpus", "hostile")``.

    Returns:
        The existing path.
    """
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        message = f"shared data not available ({path} is absent)"
        if in_ci():
            pytest.fail(message + ": CI must provide ../shared")
        pytest.skip(message)
    return path


# ------------------------------------------------------------------------------------------------------- documents


def make_pdf(
    texts: Sequence[str] = ("Invoice 42",), *, size=(595.28, 841.89), user_password=None, method=None
) -> bytes:
    """A PDF with one page per text, drawn in Helvetica (so it has a text layer); optionally encrypted."""
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    pdf = FPDF(unit="pt", format=size)
    pdf.set_font("Helvetica", size=14)
    for text in texts:
        pdf.add_page()
        pdf.text(50, 80, text)
    if user_password is not None:
        pdf.set_encryption(
            owner_password="owner-pw", user_password=user_password, encryption_method=method or EncryptionMethod.RC4
        )
    return bytes(pdf.output())


def lines_pdf(path: Path, lines: Sequence[str], *, attachments: Sequence[tuple[str, bytes]] = ()) -> Path:
    """Write a one-page PDF printing ``lines`` (one per row) with file attachments (e.g. e-invoice XML)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in lines:
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    for name, payload in attachments:
        pdf.embed_file(bytes=payload, basename=name, mime_type="text/xml")
    pdf.output(str(path))
    return path


def raw_pdf(*pages: str) -> bytes:
    """A minimal hand-written PDF; each argument is the rest of one page dictionary (e.g. its /MediaBox)."""
    kids = " ".join(f"{3 + i} 0 R" for i in range(len(pages)))
    bodies = ["<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>"]
    bodies += [f"<< /Type /Page /Parent 2 0 R {page} >>" for page in pages]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(bodies, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def image_bytes(image, fmt: str = "PNG", **params) -> bytes:
    """A PIL image saved to bytes in a format."""
    buf = io.BytesIO()
    image.save(buf, fmt, **params)
    return buf.getvalue()


def png(size=(120, 80), color="red") -> bytes:
    """A plain PNG."""
    from PIL import Image

    return image_bytes(Image.new("RGB", size, color), "PNG")


def text_pdf(
    lines: Sequence[str],
    *,
    size=(595.28, 841.89),
    image_only: bool = False,
    font_size: int = 14,
    hidden: Sequence[str] = (),
) -> bytes:
    """A one-page PDF printing ``lines`` from its top left; ``image_only``: the page is a picture of them (a scan:
    no text layer), drawn with Pillow's built-in font at 200 DPI; ``hidden``: lines written as invisible text over
    the picture (a scanner's OCR layer)."""
    from fpdf import FPDF
    from fpdf.enums import TextMode
    from PIL import Image, ImageDraw, ImageFont

    pdf = FPDF(unit="pt", format=size)
    pdf.add_page()
    if not image_only:
        pdf.set_font("Helvetica", size=font_size)
        for i, line in enumerate(lines):
            pdf.text(20, 30 + i * font_size * 1.6, line)
        return bytes(pdf.output())
    scale = 200 / 72
    picture = Image.new("RGB", (round(size[0] * scale), round(size[1] * scale)), "white")
    draw = ImageDraw.Draw(picture)
    font = ImageFont.load_default(size=round(font_size * scale))
    for i, line in enumerate(lines):
        draw.text((20 * scale, (18 + i * font_size * 1.6) * scale), line, fill="black", font=font)
    pdf.image(picture, x=0, y=0, w=size[0], h=size[1])
    pdf.set_font("Helvetica", size=font_size)
    pdf.text_mode = TextMode.INVISIBLE
    for i, line in enumerate(hidden):
        pdf.text(20, 30 + i * font_size * 1.6, line)
    return bytes(pdf.output())


def garbled_pdf(path: Path, lines: Sequence[str]) -> Path:
    """Write a one-page PDF printing ASCII ``lines`` in an embedded TrueType font without a ToUnicode map: the page
    looks right, its text layer is control characters (glyph ids). The font is Pillow's built-in one (no system
    font needed)."""
    from fpdf import FPDF
    from PIL import ImageFont

    font = path.with_suffix(".ttf")
    font.write_bytes(ImageFont.load_default(size=12).font_bytes)
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("Plain", fname=str(font))
    pdf.set_font("Plain", size=14)
    for line in lines:
        pdf.cell(0, 10, line, new_x="LMARGIN", new_y="NEXT")
    data = bytes(pdf.output())
    assert data.count(b"/ToUnicode") == 1
    path.write_bytes(data.replace(b"/ToUnicode", b"/ToUnicodX"))  # same length: the xref offsets stay right
    return path


def photo_like(pdf: Path, *, dpi: int = 150, turn: int = 90, quality: int = 60, seed: int = 0) -> bytes:
    """A phone-photo imitation of a PDF's first page as PNG bytes: grey, unevenly lit paper with noise, turned by
    ``turn`` degrees (counter-clockwise) and JPEG-compressed at ``quality`` before it was saved."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image

    document = pdfium.PdfDocument(str(pdf))
    try:
        page = np.asarray(document[0].render(scale=dpi / 72).to_pil().convert("L"), dtype=np.float32)
    finally:
        document.close()
    height, width = page.shape
    light = np.linspace(0.72, 0.92, width)[None, :] * np.linspace(0.9, 1.0, height)[:, None]  # lit from one side
    noise = np.random.default_rng(seed).normal(0, 6, page.shape)
    grey = np.clip(page * light + noise, 0, 255).astype(np.uint8)
    photo = Image.fromarray(grey).convert("RGB").rotate(turn, expand=True, fillcolor=(60, 60, 60))
    jpeg = Image.open(io.BytesIO(image_bytes(photo, "JPEG", quality=quality)))
    return image_bytes(jpeg.convert("RGB"), "PNG")


# ------------------------------------------------------------------------------------------- an EN 16931 e-invoice

CII = """<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
 <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>
  <ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
 </rsm:ExchangedDocumentContext>
 <rsm:ExchangedDocument><ram:ID>RE-2026-0117</ram:ID><ram:TypeCode>380</ram:TypeCode>
  <ram:IssueDateTime><udt:DateTimeString format="102">20260131</udt:DateTimeString></ram:IssueDateTime>
 </rsm:ExchangedDocument>
 <rsm:SupplyChainTradeTransaction>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:SpecifiedTradeProduct><ram:Name>Bürostuhl  ErgoFlex</ram:Name></ram:SpecifiedTradeProduct>
   <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>2890.00</ram:ChargeAmount>
    <ram:BasisQuantity unitCode="H87">10</ram:BasisQuantity></ram:NetPriceProductTradePrice>
   </ram:SpecifiedLineTradeAgreement>
   <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">4.0000</ram:BilledQuantity>
   </ram:SpecifiedLineTradeDelivery>
   <ram:SpecifiedLineTradeSettlement>
    <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:RateApplicablePercent>19.00</ram:RateApplicablePercent>
    </ram:ApplicableTradeTax>
    <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>1156.00</ram:LineTotalAmount>
    </ram:SpecifiedTradeSettlementLineMonetarySummation>
   </ram:SpecifiedLineTradeSettlement>
  </ram:IncludedSupplyChainTradeLineItem>
  <ram:ApplicableHeaderTradeAgreement>
   <ram:SellerTradeParty><ram:Name>Nordlicht Bürotechnik GmbH</ram:Name>
    <ram:PostalTradeAddress><ram:PostcodeCode>20457</ram:PostcodeCode><ram:LineOne>Hafenstraße 12</ram:LineOne>
     <ram:CityName>Hamburg</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">43/815/08156</ram:ID></ram:SpecifiedTaxRegistration>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE271828180</ram:ID></ram:SpecifiedTaxRegistration>
   </ram:SellerTradeParty>
   <ram:BuyerTradeParty><ram:Name>Kanzlei Weber &amp; Söhne</ram:Name></ram:BuyerTradeParty>
  </ram:ApplicableHeaderTradeAgreement>
  <ram:ApplicableHeaderTradeSettlement>
   <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode>
    <ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE89 3704 0044 0532 0130 00</ram:IBANID>
     <ram:AccountName>Nordlicht Bürotechnik GmbH</ram:AccountName></ram:PayeePartyCreditorFinancialAccount>
    <ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>COBADEFFXXX</ram:BICID>
    </ram:PayeeSpecifiedCreditorFinancialInstitution>
   </ram:SpecifiedTradeSettlementPaymentMeans>
   <ram:ApplicableTradeTax><ram:CalculatedAmount>219.64</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
    <ram:BasisAmount>1156.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>
    <ram:RateApplicablePercent>19.00</ram:RateApplicablePercent></ram:ApplicableTradeTax>
   <ram:SpecifiedTradePaymentTerms><ram:Description>Zahlbar innerhalb von 14 Tagen ohne Abzug.</ram:Description>
    <ram:DueDateDateTime><udt:DateTimeString format="102">20260214</udt:DateTimeString></ram:DueDateDateTime>
   </ram:SpecifiedTradePaymentTerms>
   <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    <ram:LineTotalAmount>1156.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>1156.00</ram:TaxBasisTotalAmount>
    <ram:TaxTotalAmount currencyID="EUR">219.64</ram:TaxTotalAmount>
    <ram:TaxTotalAmount currencyID="CHF">210.00</ram:TaxTotalAmount>
    <ram:GrandTotalAmount>1375.64</ram:GrandTotalAmount><ram:TotalPrepaidAmount>375.64</ram:TotalPrepaidAmount>
    <ram:DuePayableAmount>1000.00</ram:DuePayableAmount>
   </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
  </ram:ApplicableHeaderTradeSettlement>
 </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
"""

CII_DATA = {
    "invoice_number": "RE-2026-0117",
    "issue_date": "2026-01-31",
    "due_date": "2026-02-14",
    "currency": "EUR",
    "seller": {
        "name": "Nordlicht Bürotechnik GmbH",
        "address": {"street": "Hafenstraße 12", "postal_code": "20457", "city": "Hamburg", "country": "DE"},
        "vat_id": "DE271828180",
        "tax_id": "43/815/08156",
    },
    "buyer": {"name": "Kanzlei Weber & Söhne", "address": None, "vat_id": None, "tax_id": None},
    "line_items": [
        {
            "description": "Bürostuhl ErgoFlex",
            "quantity": 4,
            "unit": "H87",
            "unit_price": 289,
            "tax_rate": 19,
            "amount": 1156,
        }
    ],
    "subtotal": 1156,
    "tax_lines": [{"rate": 19, "base": 1156, "amount": 219.64}],
    "total": 1375.64,
    "prepaid_amount": 375.64,
    "amount_due": 1000,
    "payment_terms": "Zahlbar innerhalb von 14 Tagen ohne Abzug.",
    "bank_account": {
        "iban": "DE89370400440532013000",
        "bic": "COBADEFFXXX",
        "account_holder": "Nordlicht Bürotechnik GmbH",
    },
}

# CII read by einvoice.parse_invoice_xml, written out by hand from the XML above.
CII_DATA = {
    "invoice_number": "RE-2026-0117",
    "issue_date": "2026-01-31",
    "due_date": "2026-02-14",
    "currency": "EUR",
    "seller": {
        "name": "Nordlicht Bürotechnik GmbH",
        "address": {"street": "Hafenstraße 12", "postal_code": "20457", "city": "Hamburg", "country": "DE"},
        "vat_id": "DE271828180",
        "tax_id": "43/815/08156",
    },
    "buyer": {"name": "Kanzlei Weber & Söhne", "address": None, "vat_id": None, "tax_id": None},
    "line_items": [
        {
            "description": "Bürostuhl ErgoFlex",
            "quantity": 4,
            "unit": "H87",
            "unit_price": 289,
            "tax_rate": 19,
            "amount": 1156,
        }
    ],
    "subtotal": 1156,
    "tax_lines": [{"rate": 19, "base": 1156, "amount": 219.64}],
    "total": 1375.64,
    "prepaid_amount": 375.64,
    "amount_due": 1000,
    "payment_terms": "Zahlbar innerhalb von 14 Tagen ohne Abzug.",
    "bank_account": {
        "iban": "DE89370400440532013000",
        "bic": "COBADEFFXXX",
        "account_holder": "Nordlicht Bürotechnik GmbH",
    },
}
# The page of that invoice as a person reads it: every value printed, except the unit code H87.
CII_PRINTED = (
    "Rechnung Nr. RE-2026-0117 vom 31.01.2026, fällig am 14.02.2026",
    "Nordlicht Bürotechnik GmbH, Hafenstraße 12, 20457 Hamburg, Deutschland",
    "USt-IdNr. DE271828180, Steuernummer 43/815/08156",
    "An: Kanzlei Weber & Söhne",
    "4 x Bürostuhl ErgoFlex je 289,00 EUR = 1.156,00 EUR, USt 19 %",
    "Netto 1.156,00 EUR, USt 19 % auf 1.156,00 EUR: 219,64 EUR",
    "Gesamt: 1.375,64 EUR, Anzahlung 375,64 EUR, Zahlbetrag 1.000,00 EUR",
    "Zahlbar innerhalb von 14 Tagen ohne Abzug.",
    "IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX, Kontoinhaber Nordlicht Bürotechnik GmbH",
)


def einvoice_pdf(path: Path, *, lines: Sequence[str] = CII_PRINTED, xml: str | None = CII) -> Path:
    """Write a PDF that prints ``lines`` and carries ``xml`` as its factur-x.xml attachment (None: none)."""
    return lines_pdf(path, lines, attachments=() if xml is None else (("factur-x.xml", xml.encode()),))


# ------------------------------------------------------------------------------------------------- model runs


def settings_for(model, **changes):
    """Settings for a tiny model (a TinyModel or a path), with some settings changed."""
    from extractor.settings import Settings

    return Settings(model=str(getattr(model, "path", model)), **changes)


def token_ids(tiny, text: str) -> tuple[int, ...]:
    """How a tiny model's tokenizer spells a text."""
    from tokenizers import Tokenizer

    return tuple(Tokenizer.from_file(str(tiny.path / "tokenizer.json")).encode(text, add_special_tokens=False).ids)


def forcing(ids: Sequence[int], cycle: Sequence[int]):
    """A logits processor that makes the model emit ``ids``, then ``cycle`` repeated (a forced answer)."""
    import mlx.core as mx

    def processor(tokens, logits):
        i = tokens.size - 1  # the runner passes the prompt's last token, then every generated one
        target = ids[i] if i < len(ids) else cycle[(i - len(ids)) % len(cycle)]
        hot = mx.arange(logits.shape[-1]) == target
        return mx.where(hot[None], 0.0, -float("inf"))

    return processor


def fed_stepwise(runner, stepwise: bool, run):
    """``run()`` with jump-forward's forced runs fed one token per pass (``stepwise``) or in one pass, whatever the
    load-time timing chose for ``runner`` (the feed is a speed choice: either way must be exact)."""
    saved, runner._forward.stepwise = runner._forward.stepwise, stepwise
    try:
        return run()
    finally:
        runner._forward.stepwise = saved


# ------------------------------------------------------------------------------------------- inference servers


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (now)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class MlxServer:
    """A real ``python -m mlx_vlm.server`` process on 127.0.0.1 serving one model directory, its log in a file.

    Start several at once (``MlxServer(...)`` returns at once), then ``wait_ready()`` each: they load in parallel.
    """

    def __init__(self, model_dir, log_path: Path, *, api_key: str | None = None) -> None:
        import subprocess
        import sys

        self.model_dir = str(model_dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_path)
        self.api_key = api_key
        env = dict(os.environ, HF_HUB_OFFLINE="1", MLX_DISABLE_COMPILE="1", TOKENIZERS_PARALLELISM="false")
        args = [
            sys.executable,
            "-m",
            "mlx_vlm.server",
            "--model",
            self.model_dir,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--log-progress-interval",
            "0",
        ]
        if api_key:
            args += ["--api-key", api_key]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 120.0) -> MlxServer:
        """Wait until ``/health`` answers (fails the test with the log when the server dies or never answers)."""
        import time

        import httpx

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"mlx_vlm.server exited ({self.proc.returncode}):\n{self.log()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/health", headers=headers, timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        pytest.fail(f"mlx_vlm.server did not start within {timeout:g} s:\n{self.log()[-3000:]}")

    def log(self) -> str:
        """Everything the server logged so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Kill the server (SIGKILL: as a crashed host would go) and reap it."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


@functools.lru_cache(maxsize=8)
def _tokenizer(model_dir: str):
    """A tiny model's tokenizer, loaded once per directory (a second load costs ~1 s)."""
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))


# The kit family whose generated tokens cost least (3,072-token vocabulary, a plain decoder: 3.3 ms a decode step
# on 2 cores, gemma3 4.3, qwen3_5 17.9: bench/decode_step.py), for tests that need a model to write a given answer,
# not a family's quirks.
FORCED_FAMILY = "mistral3"


def forced_settings(family, answer: dict, **changes):
    """Settings for a kit family model (``model_factory.family``) that writes ``answer`` as compact JSON (the
    constrained grammar's form), then its end-of-turn token: a forced answer instead of a scripted model built per
    answer."""
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    return settings_for(
        family, request_processors=lambda request: (following(family, text, end=family.end_of_turn_id),), **changes
    )


def following(tiny, text: str, *, end: int):
    """A logits processor that makes the model write ``text``, then the token ``end``, whatever the runner feeds
    in between (jump-forward tokens of a schema constraint): at each step it picks the allowed token (finite
    logit) that continues the text, the tokenizer's own first token of the rest when allowed, else the longest
    allowed token that is a prefix of the rest. Raises AssertionError when the text so far has left ``text``."""
    import math

    import mlx.core as mx
    import numpy as np

    tokenizer = _tokenizer(str(getattr(tiny, "path", tiny)))
    pieces: dict[int, str] = {}

    def piece(token: int) -> str:
        if token not in pieces:
            pieces[token] = tokenizer.decode([token], skip_special_tokens=False)
        return pieces[token]

    done = {"ids": [], "text": ""}  # the decoded prefix so far: decode only what is new (long answers)

    def decoded(ids: list) -> str:
        if ids[: len(done["ids"])] != done["ids"]:
            done["ids"], done["text"] = [], ""
        tail = tokenizer.decode(ids[len(done["ids"]) :], skip_special_tokens=False)
        if "\ufffd" in tail:  # a character split between tokens: keep it open
            return done["text"] + tail
        done["ids"], done["text"] = list(ids), done["text"] + tail
        return done["text"]

    def processor(tokens, logits):
        written = decoded(tokens.tolist()[1:])
        assert text.startswith(written), f"the answer left the text at {len(written)}: {written[-40:]!r}"
        rest = text[len(written) :]
        target = end
        if rest:
            target = tokenizer.encode(rest[:64], add_special_tokens=False).ids[0]
            if not math.isfinite(logits[0, target].item()):  # the constraint holds it back: look for another
                finite = np.isfinite(np.array(logits[0].astype(mx.float32)))
                allowed = [int(i) for i in np.flatnonzero(finite)]
                fits = [i for i in allowed if piece(i) and rest.startswith(piece(i))]
                assert fits, f"no allowed token continues {rest[:20]!r}"
                target = max(fits, key=lambda i: len(piece(i)))
        hot = mx.arange(logits.shape[-1]) == target
        return mx.where(hot[None], 0.0, -float("inf"))

    return processor


def sample_generator():
    """samples/generate.py as a module (its builders: ``invoice_long``, ``render_long``, ``to_json``, ...)."""
    import importlib.util
    import sys

    if "sample_generator" not in sys.modules:
        spec = importlib.util.spec_from_file_location("sample_generator", ROOT / "samples" / "generate.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["sample_generator"] = module  # dataclasses look their module up while it executes
        spec.loader.exec_module(module)
    return sys.modules["sample_generator"]


def hook_command(folder: Path, calls: Path, *, then: str = "") -> str:
    """A ``--hook`` command line: a Python script in ``folder``, run by this interpreter, that appends its
    ``EXTRACT_*`` environment and the record on its stdin to ``calls`` as one JSON line, then runs ``then``."""
    import shlex
    import sys

    script = folder / "hook.py"
    script.write_text(
        "import json, os, sys, time\n"
        "env = {k: v for k, v in os.environ.items() if k.startswith('EXTRACT_')}\n"
        f"with open({str(calls)!r}, 'a') as f:\n"
        "    f.write(json.dumps({'env': env, 'stdin': json.loads(sys.stdin.read())}) + '\\n')\n" + then,
        encoding="utf-8",
    )
    return shlex.join([sys.executable, str(script)])


def jsonl_lines(path: Path) -> list[dict]:
    """A JSON Lines file's objects ([] when it does not exist)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


@contextlib.contextmanager
def small_tmpfs(folder: Path):
    """A real 1 MiB tmpfs mounted at ``folder`` (unmounted after): a file system a test can fill (``fill``) or make
    read-only. Mounting needs root: skipped with the reason elsewhere, failed under CI=true."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        message = f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill ``folder``'s file system up with ``folder/filler`` (delete it to make space); its path."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


@contextlib.contextmanager
def full_tmpfs(folder: Path):
    """A 1 MiB tmpfs at ``folder``, filled by ``folder/filler`` (delete it to make space); unmounted after."""
    with small_tmpfs(folder):
        fill(folder)
        yield folder


def wait_for(predicate, *, what: str, limit: float = 120.0) -> None:
    """Poll ``predicate`` until it holds; an AssertionError naming ``what`` after ``limit`` seconds (a guard
    against a hung test, never a timing the test asserts)."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def toy_documents(ledger, extractor, *, backoff: float = 0.1):
    """The intake core (``jobs.intake.document.Documents``) for a toy source on ``ledger``: logger ``toy``, no
    feeds, back-off ``backoff`` seconds, no signals."""
    import logging

    from extractor.jobs.feeds import Feeds, FeedSettings
    from extractor.jobs.intake.document import Documents
    from extractor.jobs.intake.policy import RetryPolicy
    from extractor.jobs.intake.stop import Stopping

    return Documents(
        ledger=ledger,
        feeds=Feeds(FeedSettings(), log=logging.getLogger("toy")),
        extractor=extractor,
        policy=RetryPolicy(backoff=backoff),
        stopping=Stopping(),
        pause_env="EXTRACTOR_TOY_TEST_PAUSE",
        log=logging.getLogger("toy"),
    )
