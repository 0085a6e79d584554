"""BG-24 supporting documents' embedded files (issue 41): ``--einvoice-attachments`` writes their bytes beside the
record under names that cannot leave its folder, and the record names them; without the flag nothing is written."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.jobs.sinks import MAX_ATTACHMENT_NAME, attachment_file_name
from extractor.record import record_schema

SOURCE = ROOT / "tests" / "data" / "einvoice" / "cen" / "CII_example2.xml"  # one PDF, EHF.pdf, in BG-24


@pytest.fixture(scope="module")
def demo(model_factory):
    """A kit model: a record read from XML never asks it."""
    answer = (ROOT / "samples" / "expected" / "invoice-de-einfach.json").read_text(encoding="utf-8")
    compact = json.dumps(json.loads(answer), ensure_ascii=False, separators=(",", ":"))
    return model_factory.scripted(answer=compact, schema="invoice")


def _extract(source: Path, out: Path, model, *flags: str) -> dict:
    args = [str(source), "--model", str(model.path), "--out", str(out), "--schema", "invoice-en16931"]
    result = CliRunner().invoke(app, dispatch_args([*args, "--no-embedded-rules", *flags]))
    # 1: the example's own arithmetic makes it review (line 1: 1 x 1 = 1273); its record is still written
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    return json.loads((out / f"{source.stem}.json").read_text(encoding="utf-8"))


def _content(xml: bytes) -> bytes:
    """The attachment's content as the file carries it: its base64, decoded here independently of the reader."""
    (text,) = re.findall(rb"<ram:AttachmentBinaryObject[^>]*>([^<]*)</ram:AttachmentBinaryObject>", xml)
    return base64.b64decode(b"".join(text.split()))


def test_the_flag_writes_the_attachment_beside_the_record_and_names_it(demo, tmp_path):
    import jsonschema

    source = tmp_path / "invoice.xml"
    source.write_bytes(SOURCE.read_bytes())
    record = _extract(source, tmp_path / "out", demo, "--einvoice-attachments")
    content = _content(SOURCE.read_bytes())
    written = tmp_path / "out" / "invoice.attachments" / "1-EHF.pdf"
    assert written.read_bytes() == content
    import hashlib

    assert record["embedded"]["attachments"] == [
        {
            "document": 0,
            "name": "EHF.pdf",
            "mime": "application/pdf",
            "size": len(content),
            "sha256": hashlib.sha256(content).hexdigest(),
            "path": str(written),
        }
    ]
    assert record["data"]["further_terms"]["supporting_documents"][0]["attachment"]["filename"] == "EHF.pdf"
    assert "AttachmentBinaryObject" not in json.dumps(record) and content.hex() not in json.dumps(record)
    jsonschema.validate(record, record_schema())
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["invoice.attachments", "invoice.json"]


def test_without_the_flag_nothing_is_written_and_the_record_names_no_file(demo, tmp_path):
    source = tmp_path / "invoice.xml"
    source.write_bytes(SOURCE.read_bytes())
    record = _extract(source, tmp_path / "out", demo)
    assert "attachments" not in record["embedded"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["invoice.json"]


def test_a_hostile_file_name_stays_inside_the_folder(demo, tmp_path):
    source = tmp_path / "invoice.xml"
    source.write_bytes(SOURCE.read_bytes().replace(b'filename="EHF.pdf"', b'filename="../../evil.sh"'))
    record = _extract(source, tmp_path / "out", demo, "--einvoice-attachments")
    folder = tmp_path / "out" / "invoice.attachments"
    assert [p.name for p in folder.iterdir()] == ["1-evil.sh"]
    assert record["embedded"]["attachments"][0]["name"] == "../../evil.sh"  # as the XML says, for the reader
    assert record["embedded"]["attachments"][0]["path"] == str(folder / "1-evil.sh")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["invoice.xml", "out"]  # nothing escaped


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("EHF.pdf", "EHF.pdf"),
        ("../../evil.sh", "evil.sh"),
        ("..\\..\\windows\\evil.bat", "evil.bat"),
        ("/etc/passwd", "passwd"),
        ("..", "attachment"),
        (".hidden", "hidden"),
        ("a\x00b\nc\x1b.txt", "a_b_c_.txt"),
        ("Rechnung März.pdf", "Rechnung März.pdf"),
        ("", "attachment"),
        (None, "attachment"),
        ("x" * 300 + ".pdf", "x" * (MAX_ATTACHMENT_NAME - 4) + ".pdf"),
    ],
)
def test_attachment_file_names_cannot_leave_their_folder(name, expected):
    assert attachment_file_name(name) == expected


def test_an_xml_embedded_in_a_pdf_gives_its_attachments_too(demo, tmp_path):
    from helpers import lines_pdf

    source = lines_pdf(tmp_path / "invoice.pdf", ["Invoice"], attachments=[("factur-x.xml", SOURCE.read_bytes())])
    record = _extract(source, tmp_path / "out", demo, "--einvoice-attachments")
    assert record["data_source"] == "embedded_xml"
    written = tmp_path / "out" / "invoice.attachments" / "1-EHF.pdf"
    assert written.read_bytes() == _content(SOURCE.read_bytes())
    assert [a["path"] for a in record["embedded"]["attachments"]] == [str(written)]


def test_the_flag_counts_in_the_fingerprint_only_when_on():
    """A resumed batch must not reuse a record made without the flag: its files were never written."""
    from extractor.settings import Settings

    assert Settings(einvoice_attachments=False).fingerprint(schema_text="x") == Settings().fingerprint(schema_text="x")
    assert Settings(einvoice_attachments=True).fingerprint(schema_text="x") != Settings().fingerprint(schema_text="x")


@pytest.mark.parametrize(
    ("inflated", "declared", "said"),
    [
        (1000, 1040, None),  # within the limit: read
        (1000, None, None),
        (40 << 20, 40 << 20, "declares 41,943,040 bytes, over the 33,554,432-byte limit"),  # refused unread
        (40 << 20, 1040, "inflates past the 33,554,432-byte limit"),  # a lying size: stopped as it inflates
        (40 << 20, None, "inflates past the 33,554,432-byte limit"),
    ],
)
def test_an_attachment_is_bounded_before_it_is_inflated(inflated, declared, said):
    from extractor.errors import InputError
    from extractor.inputs.attachments import ATTACHMENT_MAX_BYTES, pdf_attachments
    from extractor.testing.bombs import bomb_pdf

    assert ATTACHMENT_MAX_BYTES == 32 << 20
    pdf = bomb_pdf(inflated, declared=declared)
    if said is None:
        ((name, data),) = pdf_attachments(pdf)
        assert (name, len(data)) == ("factur-x.xml", inflated + 40)
        return
    with pytest.raises(InputError) as refused:
        pdf_attachments(pdf)
    assert refused.value.code == "too_large" and "'factur-x.xml'" in str(refused.value) and said in str(refused.value)


def test_the_record_of_a_pdf_with_an_inflating_attachment_names_it_and_the_limit(demo, tmp_path):
    """``extract run`` on the bomb: the page is still extracted; the record's warning names the attachment refused
    and why."""
    from extractor.testing.bombs import bomb_pdf

    source = tmp_path / "bomb.pdf"
    source.write_bytes(bomb_pdf(40 << 20, declared=None))
    record = _extract(source, tmp_path / "out", demo)
    (warning,) = [w for w in record["warnings"] if w["code"] == "embedded_unreadable"]
    assert "'factur-x.xml'" in warning["message"] and "33,554,432-byte limit" in warning["message"], warning
    assert record["status"] != "error" and record["data_source"] != "embedded_xml", record  # the page was read
