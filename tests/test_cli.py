"""The batch CLI end to end (typer's CliRunner, real tiny models): inputs, outputs, exit codes, bad files."""

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.commands import app, dispatch_args
from extractor.testing import ENDOFTEXT, IM_END

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "string", "maxLength": 8}},
    "required": ["n"],
    "additionalProperties": False,
}
ANSWER = '{"n":"x"}'


@pytest.fixture(scope="module")
def small(model_factory, tmp_path_factory):
    """A scripted model answering a one-field schema (fast), and that schema's file."""
    schema = tmp_path_factory.mktemp("schema") / "small.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    return model_factory.scripted(answer=ANSWER, then="im_end", schema=schema), str(schema)


def run(*args):
    return CliRunner().invoke(app, dispatch_args([str(a) for a in args]))


def test_batch_with_globs_dirs_outputs_and_bad_files(small, tmp_path):
    model, schema = small
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    for name in ("a.pdf", "b.png"):
        shutil.copy(
            ROOT / "samples" / ("invoice-de-einfach.pdf" if name.endswith("pdf") else "invoice-us.png"), docs / name
        )
    shutil.copy(ROOT / "samples" / "invoice-ch-chf.pdf", docs / "sub" / "a.pdf")  # same stem, other folder
    (tmp_path / "corrupt.pdf").write_bytes(b"%PDF-1.4\n%broken\n")
    out, jsonl, csv_path = tmp_path / "out", tmp_path / "all.jsonl", tmp_path / "all.csv"
    result = run(
        str(docs / "*.p*"),
        docs / "sub",
        tmp_path / "missing.pdf",
        tmp_path / "corrupt.pdf",
        "--model",
        model.path,
        "--schema",
        schema,
        "--out",
        out,
        "--jsonl",
        jsonl,
        "--csv",
        csv_path,
        "--ocr",
        "never",
    )  # an image is an input all the same; reading it (~7 s of OCR) is test_ocr's
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    got = {
        Path(r["source"]).relative_to(tmp_path).as_posix(): (r["status"], r["data"], [e["code"] for e in r["errors"]])
        for r in lines
    }
    assert got == {
        "docs/a.pdf": ("ok", {"n": "x"}, []),
        "docs/b.png": ("ok", {"n": "x"}, []),
        "docs/sub/a.pdf": ("ok", {"n": "x"}, []),
        "missing.pdf": ("error", None, ["not_found"]),
        "corrupt.pdf": ("error", None, ["corrupt"]),
    }
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
    result = run(
        ROOT / "samples" / "invoice-jp-yen.pdf",
        "--model",
        model.path,
        "--schema",
        schema,
        "--max-tokens",
        "1",
        "--retries",
        "0",
        "--json",
    )
    assert result.exit_code == 1
    (record,) = json.loads(result.stdout)
    assert (record["status"], record["data"], record["finish_reason"]) == ("truncated", None, "length")


def test_random_model_record_reports_stop_set_and_usage(model_factory, tmp_path):
    tiny = model_factory.random()
    result = run(
        ROOT / "samples" / "invoice-de-einfach.pdf",
        "--model",
        tiny.path,
        "--out",
        tmp_path,
        "--max-tokens",
        "8",
        "--retries",
        "0",
    )
    assert result.exit_code == 1  # a random model cannot finish an invoice in 8 tokens
    record = json.loads((tmp_path / "invoice-de-einfach.json").read_text())
    assert {ENDOFTEXT, IM_END} <= set(record["stop_token_ids"])
    assert record["usage"]["prompt_tokens"] > 0 and record["usage"]["generated_tokens"] > 0


@pytest.mark.parametrize(
    "args,needle",
    [
        (["x.pdf", "--schema", "nope.json"], "schema file not found"),
        (["x.pdf", "--pages", "3-1"], "pages"),
        (["x.pdf", "--max-tokens", "0"], "max-tokens"),
        (["x.pdf", "--endpoint", "gpu1:8000"], "expected a url"),
        (["x.pdf", "--endpoint", "http://127.0.0.1:9", "--server-kind", "tgi"], "server kind 'tgi'"),
        (["x.pdf", "--endpoint", "http://127.0.0.1:9", "--image-format", "gif"], "image format 'gif'"),
        (
            ["x.pdf", "--endpoint", "http://127.0.0.1:9", "--api-key-env", "EXTRACT_TEST_UNSET_KEY"],
            "the environment variable extract_test_unset_key is not set",
        ),
        (["doctor"], "name a model directory, or a server with --endpoint"),
        (["doctor", "--endpoint", "http://127.0.0.1:9", "--fix"], "--fix and --smoke check a model directory"),
    ],
)
def test_usage_errors_exit_2(args, needle, monkeypatch):
    monkeypatch.delenv("EXTRACT_TEST_UNSET_KEY", raising=False)
    result = run(*args, *([] if args[0] == "doctor" else ["--model", "/nonexistent-model-dir"]))
    assert result.exit_code == 2
    assert needle in " ".join(result.output.lower().split())


def test_extract_endpoints_from_the_environment(tmp_path):
    """EXTRACT_ENDPOINTS names the servers when --endpoint is not given (spaces or commas between them); nobody
    listens on these ports, so each document is an error record naming both."""
    from helpers import free_port

    urls = [f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"]
    result = CliRunner().invoke(
        app,
        dispatch_args(
            [str(ROOT / "samples" / "invoice-us.png"), "--json", "--no-isolate", "--model", "Qwen/Qwen3.5-2B"]
        ),
        env={"EXTRACT_ENDPOINTS": f"{urls[0]}, {urls[1]}"},
    )
    assert result.exit_code == 1
    [record] = json.loads(result.stdout)
    assert [e["code"] for e in record["errors"]] == ["model_error"]
    assert all(f"{url}: connection refused" in record["errors"][0]["message"] for url in urls)
    assert record["stop_token_ids"] == [ENDOFTEXT, IM_END]


# --------------------------------------------------------------------------------------- what a person sees


def test_with_an_output_option_each_file_and_the_totals_go_to_stderr(small, tmp_path):
    """Not a terminal and --out: stdout stays empty (it is for --json), stderr logs one line per file and the
    totals, so a piped or scheduled batch still says what it did."""
    model, schema = small
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n%broken\n")
    result = run(
        ROOT / "samples" / "invoice-jp-yen.pdf",
        tmp_path / "broken.pdf",
        "--model",
        model.path,
        "--schema",
        schema,
        "--out",
        tmp_path / "out",
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert [line.split()[0] for line in lines[:2]] == ["ok", "error"]
    assert lines[0].split()[1] == str(ROOT / "samples" / "invoice-jp-yen.pdf")
    assert "broken.pdf" in lines[1]
    assert lines[2:] == ["2 document(s): 1 error, 1 ok"]


def test_the_summary_table_fits_80_columns(small, tmp_path):
    model, schema = small
    long_name = tmp_path / ("quarterly-statement-of-accounts-for-the-supplier-number-" + "9" * 40 + ".pdf")
    shutil.copy(ROOT / "samples" / "invoice-jp-yen.pdf", long_name)
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n%broken\n")
    result = run(long_name, tmp_path / "broken.pdf", "--model", model.path, "--schema", schema)
    table = result.stdout.splitlines()
    assert table and max(len(line) for line in table) <= 80, table
    name = next(line for line in table if line.startswith("quarterly-")).split()[0]
    assert "…" in name and name.endswith("999.pdf")  # cut in the middle
    assert any(line.rstrip().endswith("…") for line in table if "broken.pdf" in line)  # long detail cut


# ----------------------------------------------------------------------------------------- a batch resumes


def _six_inputs(folder: Path) -> list[Path]:
    folder.mkdir()
    samples = sorted((ROOT / "samples").glob("*.pdf"))[:3] + sorted((ROOT / "samples").glob("*.png"))[:1]
    paths = []
    for i in range(6):  # six distinct contents: the copies differ by a trailing comment / byte
        source = samples[i % len(samples)]
        target = folder / f"doc{i}{source.suffix}"
        target.write_bytes(source.read_bytes() + (b"\n%" + str(i).encode() if source.suffix == ".pdf" else b""))
        paths.append(target)
    return paths


def test_an_interrupted_batch_resumes_where_it_stopped(small, tmp_path):
    """kill -9 after 3 of 6 records: the same command again extracts only the other 3 (and says so), --force
    all 6; a changed setting is another fingerprint, so nothing is reused."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from extractor.jobs.batch import TEST_PAUSE_ENV

    model, schema = small
    inputs = _six_inputs(tmp_path / "in")
    out = tmp_path / "out"
    # the PNG among the inputs is not what resuming is about (OCR: ~7 s a process); one document at a time, so
    # exactly 3 are written at the pause (batching, the documents in flight beside them may be done too)
    args = [
        *map(str, inputs),
        "--model",
        str(model.path),
        "--schema",
        schema,
        "--out",
        str(out),
        "--no-isolate",
        "--ocr",
        "never",
        "--batch",
        "1",
    ]
    marker = tmp_path / "three-written"
    env = dict(os.environ, **{TEST_PAUSE_ENV: f"3:{marker}"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "extractor.cli", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the batch ended or hung before 3 records"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    first = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*.json")}
    assert sorted(first) == ["doc0.json", "doc1.json", "doc2.json"]

    again = run(*args)
    assert again.exit_code == 0, again.output
    assert again.stderr.splitlines()[-1] == "6 document(s): 6 ok (3 skipped: already done)"
    assert [line.split()[-1] for line in again.stderr.splitlines()[:3]] == ["done)"] * 3
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("doc[012].json")} == first
    assert sorted(p.name for p in out.glob("*.json")) == [f"doc{i}.json" for i in range(6)]

    assert run(*args, "--force").stderr.splitlines()[-1] == "6 document(s): 6 ok"
    assert run(*args, "--max-tokens", "100").stderr.splitlines()[-1] == "6 document(s): 6 ok"
    inputs[0].write_bytes(inputs[0].read_bytes() + b"\n%changed")  # new content: extracted again
    assert run(*args, "--max-tokens", "100").stderr.splitlines()[-1] == "6 document(s): 6 ok (5 skipped: already done)"


def test_a_run_prints_no_third_party_notes(small, tmp_path):
    """transformers' "PyTorch was not found" and its like say nothing about the documents: not on a normal run."""
    import os
    import subprocess
    import sys

    from PIL import Image, ImageDraw

    tiny, schema = small
    photo = tmp_path / "receipt.png"  # an image, so the OCR engine loads and reads it too (a small one: ~1 s)
    image = Image.new("RGB", (360, 120), "white")
    ImageDraw.Draw(image).text((20, 40), "Receipt 7   Total 12.50", fill="black", font_size=22)
    image.save(photo)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRANSFORMERS_", "TOKENIZERS_"))}
    args = [
        sys.executable,
        "-m",
        "extractor.cli",
        "--model",
        str(tiny.path),
        "--schema",
        schema,
        "--json",
        "--no-isolate",
        str(photo),
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert json.loads(done.stdout)[0]["data"] == json.loads(ANSWER), done.stderr
    assert done.stderr == "1 document(s): 1 ok\n"
    assert json.loads(done.stdout)[0]["ocr"][0]["reason"] == "no_text_layer"  # read by OCR, quietly


@pytest.mark.parametrize("verbose", [False, True])
def test_verbose_lets_third_party_notes_through(verbose):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRANSFORMERS_", "TOKENIZERS_"))}
    code = f"from extractor.quiet import configure; configure(verbose={verbose}); import transformers"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert ("PyTorch was not found" in done.stderr) == verbose, done.stderr


def test_verbose_is_taken_out_before_the_command_parses(monkeypatch):
    import os

    from extractor.cli import commands as cli

    seen = []
    monkeypatch.setattr(cli, "app", lambda args, prog_name, default_map, obj: seen.append(args))
    monkeypatch.setenv("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    cli.main(["doctor", "--verbose", "some/dir"])
    assert seen == [["doctor", "some/dir"]] and os.environ["TRANSFORMERS_NO_ADVISORY_WARNINGS"] == ""
    cli.main(["x.pdf", "--", "--verbose"])  # after --, a file name
    assert seen[-1][-2:] == ["--", "--verbose"]


def test_run_help_names_the_ray_extra():
    """``extract run --help`` shows the install hint whole: rich markup would read ``[ray]`` as a tag and drop it."""
    result = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert 'pip install "extractor-vlm[ray]"' in " ".join(result.output.replace("│", " ").split())


def test_help_lists_run_first_and_labels_no_flag():
    """``extract --help`` lists ``run`` (what ``extract INPUTS...`` runs) first; no help shows a type label on a flag
    (typer writes ``<bool>`` there by default); ``run --help`` names no hand-kept list of subcommands."""
    top = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert top.exit_code == 0, top.output
    listed = [
        line.split()[1] for line in top.output.splitlines() if line.startswith("│ ") and line.split()[1].isalpha()
    ]
    assert listed[0] == "run" and {"serve", "watch", "review", "einvoice"} <= set(listed), listed
    for args in (["--help"], ["run", "--help"], ["watch", "--help"], ["einvoice", "validate", "--help"]):
        shown = CliRunner().invoke(app, args, env={"COLUMNS": "200"}).output
        assert "--help" in shown and "<bool>" not in shown, args
    assert "Subcommands" not in CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"}).output


HOSTILE_NAME = "\x1b]8;;http://evil.example/\x1b\\Bei Spiel\x1b]8;;\x1b\\ \x9b31m\x07\x08\r[link=http://x]y[/link]"


def test_register_suppliers_table_escapes_terminal_sequences(tmp_path):
    """A supplier's name holding an OSC-8 link (``ESC ] 8 ;;``), a one-byte CSI (C1 0x9b), BEL, BS, CR and rich
    markup is shown as text: no control character reaches the terminal, the markup stays literal."""
    suppliers = tmp_path / "suppliers.json"
    suppliers.write_text(
        json.dumps([{"name": HOSTILE_NAME, "vat_id": "", "iban": "DE89 3704 0044 0532 0130 00"}]), encoding="utf-8"
    )
    register = tmp_path / "register.sqlite"
    imported = run("register", "import", suppliers, "--register", register)
    assert imported.exit_code == 0, imported.output
    listed = run("register", "suppliers", "--register", register)
    assert listed.exit_code == 0, listed.output
    shown = listed.stdout
    assert not [c for c in shown if ord(c) < 32 and c != "\n" or 0x7F <= ord(c) <= 0x9F], repr(shown)
    assert "\\x1b]8;;" in shown and "\\x9b31m" in shown and "\\x07" in shown and "[link=http://x]" in shown


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Bei Spiel GmbH", "Bei Spiel GmbH"),
        ("a\tb\nc", "a\tb\nc"),
        ("\x1b]8;;http://e/\x1b\\x", "\\x1b]8;;http://e/\\x1b\\x"),
        ("\x00\x1f\x7f\x80\x9f\xa0ä", "\\x00\\x1f\\x7f\\x80\\x9f\xa0ä"),
    ],
)
def test_terminal_safe_escapes_c0_del_and_c1(text, shown):
    from extractor.cli.output import terminal_safe

    assert terminal_safe(text) == shown
