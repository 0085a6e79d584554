"""The batch CLI end to end (typer's CliRunner, real tiny models): inputs, outputs, exit codes, bad files."""

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli import app, dispatch_args
from extractor.testing import ENDOFTEXT, IM_END

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = {"type": "object", "properties": {"n": {"type": "string", "maxLength": 8}}, "required": ["n"],
          "additionalProperties": False}
ANSWER = '{"n":"x"}'


@pytest.fixture(scope="module")
def small(model_factory, tmp_path_factory):
    """A scripted model answering a one-field schema (fast), and that schema's file."""
    schema = tmp_path_factory.mktemp("schema") / "small.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    return model_factory.scripted(answer=ANSWER, then="im_end"), str(schema)


def run(*args):
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]))


def test_batch_with_globs_dirs_outputs_and_bad_files(small, tmp_path):
    model, schema = small
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    for name in ("a.pdf", "b.png"):
        shutil.copy(ROOT / "samples" / ("invoice-de-einfach.pdf" if name.endswith("pdf") else "invoice-us.png"),
                    docs / name)
    shutil.copy(ROOT / "samples" / "invoice-ch-chf.pdf", docs / "sub" / "a.pdf")  # same stem, other folder
    (tmp_path / "corrupt.pdf").write_bytes(b"%PDF-1.4\n%broken\n")
    out, jsonl, csv_path = tmp_path / "out", tmp_path / "all.jsonl", tmp_path / "all.csv"
    result = run(str(docs / "*.p*"), docs / "sub", tmp_path / "missing.pdf", tmp_path / "corrupt.pdf",
                 "--model", model.path, "--schema", schema, "--out", out, "--jsonl", jsonl, "--csv", csv_path)
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    got = {Path(r["source"]).relative_to(tmp_path).as_posix(): (r["status"], r["data"], [e["code"] for e in r["errors"]])
           for r in lines}
    assert got == {"docs/a.pdf": ("ok", {"n": "x"}, []), "docs/b.png": ("ok", {"n": "x"}, []),
                   "docs/sub/a.pdf": ("ok", {"n": "x"}, []), "missing.pdf": ("error", None, ["not_found"]),
                   "corrupt.pdf": ("error", None, ["corrupt"])}
    files = {p.name: json.loads(p.read_text()) for p in out.glob("*.json")}
    assert len(files) == 5 and {f["source"] for f in files.values()} == {r["source"] for r in lines}
    assert files["a.json"]["source"] == str(docs / "a.pdf")  # the first a.pdf keeps the plain name
    rows = list(csv.DictReader(csv_path.open()))
    assert [(r["status"], r["n"]) for r in rows] == [(r["status"], (r["data"] or {}).get("n", "")) for r in lines]
    for record in lines:
        assert {ENDOFTEXT, IM_END} <= set(record["stop_token_ids"])


def test_all_ok_exits_0_and_prints_a_table(small):
    model, schema = small
    result = run(ROOT / "samples" / "invoice-jp-yen.pdf", "--model", model.path, "--schema", schema)
    assert result.exit_code == 0, result.output
    assert "1 document(s)" in result.output and result.output.rstrip().endswith("1 ok")


def test_json_output_is_the_record_shape(small):
    model, schema = small
    result = run(ROOT / "samples" / "invoice-jp-yen.pdf", "--model", model.path, "--schema", schema, "--json")
    records = json.loads(result.stdout)
    assert [r["status"] for r in records] == ["ok"]
    assert records[0]["usage"]["generated_tokens"] == len(model.answer_token_ids) + 1
    assert records[0]["finish_reason"] == "stop" and records[0]["stop_token_id"] == IM_END


def test_max_tokens_below_the_answer_is_truncated_exit_1(small):
    model, schema = small
    result = run(ROOT / "samples" / "invoice-jp-yen.pdf", "--model", model.path, "--schema", schema,
                 "--max-tokens", "1", "--retries", "0", "--json")
    assert result.exit_code == 1
    (record,) = json.loads(result.stdout)
    assert (record["status"], record["data"], record["finish_reason"]) == ("truncated", None, "length")


def test_random_model_record_reports_stop_set_and_usage(model_factory, tmp_path):
    tiny = model_factory.random()
    result = run(ROOT / "samples" / "invoice-de-einfach.pdf", "--model", tiny.path, "--out", tmp_path,
                 "--max-tokens", "8", "--retries", "0")
    assert result.exit_code == 1  # a random model cannot finish an invoice in 8 tokens
    record = json.loads((tmp_path / "invoice-de-einfach.json").read_text())
    assert {ENDOFTEXT, IM_END} <= set(record["stop_token_ids"])
    assert record["usage"]["prompt_tokens"] > 0 and record["usage"]["generated_tokens"] > 0


@pytest.mark.parametrize("args,needle", [
    (["x.pdf", "--schema", "nope.json"], "schema file not found"),
    (["x.pdf", "--pages", "3-1"], "pages"),
    (["x.pdf", "--max-tokens", "0"], "max-tokens"),
])
def test_usage_errors_exit_2(args, needle):
    result = run(*args, "--model", "/nonexistent-model-dir")
    assert result.exit_code == 2
    assert needle in result.output.lower()
