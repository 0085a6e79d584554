"""Hostile inputs through the real CLI (a subprocess) with a tiny scripted model: every file gets a record with a
documented code, and nothing brings the batch down.

Faults are injected with the documented test hook ``EXTRACTOR_TEST_FAULT``. Peak memory is the largest single
process of the run: on Linux each process's own ``VmHWM`` (counted from its ``exec``), sampled from /proc over the
CLI and its render workers; elsewhere the CLI's ``ru_maxrss`` from ``os.wait4`` (which also covers the workers it
reaps). ``ru_maxrss`` alone is not used on Linux: a child starts with the resident size of the process that
forked it (here pytest, which may have run OCR and models in-process), so it measures the test runner too.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fpdf.enums import EncryptionMethod
from helpers import make_pdf, raw_pdf
from PIL import Image

from extractor.inputs.worker import FAULT_ENV

# bench/hostile.py's process-tree sampler: one way to measure a run's memory, for the bench and this test
_BENCH = importlib.util.spec_from_file_location("bench_hostile", Path(__file__).parents[1] / "bench" / "hostile.py")
_bench = importlib.util.module_from_spec(_BENCH)
_BENCH.loader.exec_module(_bench)
TreeSampler = _bench.TreeSampler

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "invoice-de-einfach.pdf"
# Every code an error record may carry (README "Error codes").
ERROR_CODES = {
    "not_found",
    "unreadable",
    "empty",
    "not_a_pdf",
    "unsupported_type",
    "corrupt",
    "encrypted",
    "wrong_password",
    "too_large",
    "timeout",
    "crashed",
    "model_error",
    "malformed_xml",  # a received e-invoice XML's (tests/test_einvoice_in.py)
    "xml_doctype",
    "not_an_einvoice",
}
RSS_LIMIT = 2 * 1024**3
CLI_LIMIT_S = 600  # a hung CLI fails the test instead of the whole CI job


class Run:
    """One finished CLI run: exit code, records in input order, peak RSS of the largest process, stderr."""

    def __init__(self, code: int, records: list[dict], peak_rss: int, stderr: str) -> None:
        self.code, self.records, self.peak_rss, self.stderr = code, records, peak_rss, stderr

    def outcomes(self) -> dict:
        """source -> error code, or ``rendered`` for a document that reached the model."""
        return {r["source"]: r["errors"][0]["code"] if r["status"] == "error" else "rendered" for r in self.records}


def run_cli(args: list[str], *, cwd: Path, env: dict | None = None, prefix: tuple = ()) -> Run:
    """Run ``extract ARGS`` in a subprocess, records to a JSONL file, and measure its largest process."""
    jsonl = cwd.parent / f"{cwd.name}-records.jsonl"
    with open(cwd.parent / f"{cwd.name}-stderr.txt", "w+b") as err, open(os.devnull, "wb") as out:
        proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "extractor.cli", "--jsonl", str(jsonl), *args],
            cwd=cwd,
            stdout=out,
            stderr=err,
            env={**os.environ, **(env or {})},
        )
        killer = threading.Timer(CLI_LIMIT_S, proc.kill)
        killer.start()
        try:
            with TreeSampler(proc.pid, interval=0.02) as sampler:
                _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: keep Popen from waiting again
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()] if jsonl.exists() else []
    if sampler.largest:
        peak = sampler.largest
    else:
        peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return Run(proc.returncode, records, peak, stderr)


def locked_pdf(password: str) -> bytes:
    return make_pdf(user_password=password, method=EncryptionMethod.AES_128)


def png_bomb() -> bytes:
    """A real 12,000 x 12,000 PNG (144 MP, over the 100 MP limit) that compresses to ~20 KB."""
    buf = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def deny_read_prefix(tmp_path: Path) -> tuple[tuple, str | None]:
    """How to run the CLI so that a chmod-000 file is really unreadable: as is, or (as root) under ``setpriv``
    without the capabilities that let root read anything. Returns (prefix, None) or ((), why not)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return (), None
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return (), "running as root and setpriv (util-linux) is missing: root reads chmod-000 files"
    caps = "-dac_override,-dac_read_search"
    prefix = (setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}")
    probe = tmp_path / "probe"
    probe.write_bytes(b"x")
    probe.chmod(0)
    done = subprocess.run([*prefix, sys.executable, "-c", f"open({str(probe)!r}, 'rb')"], capture_output=True)
    if b"PermissionError" not in done.stderr:
        return (), "running as root and setpriv cannot drop CAP_DAC_OVERRIDE here"
    return prefix, None


# ------------------------------------------------------------------------------------------------ shared corpus


def test_hostile_corpus_batch(shared_dir, model_factory, tmp_path):
    corpus = shared_dir / "corpus" / "hostile"
    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    passwords = list(dict.fromkeys(m["password"] for m in manifest.values() if m.get("password")))
    (tmp_path / "passwords.txt").write_text("\n".join(passwords) + "\n", encoding="utf-8")
    work = tmp_path / "run"
    work.mkdir()
    model = model_factory.scripted()
    timeout = 60
    # --no-constrained: grammar set-up per document is not what this test is about (and costs ~15% here);
    # --ocr never: OCR of 61 image-only pages costs ~90 s of CI here; bench/hostile.py runs this corpus with OCR on
    # (80/80 records, no timeouts) and test_synthetic_hostile_batch keeps OCR in the hostile workers.
    # --retries 0 --window-pages 8: every page is still rendered, but the 76-, 55- and 30-page files are asked in 8-page
    # windows, once each (2 tokens are always truncated, and its retry would double the model's part: 59 s -> 32 s).
    run = run_cli(
        [
            str(corpus),
            "--model",
            str(model.path),
            "--max-tokens",
            "2",
            "--no-constrained",
            "--ocr",
            "never",
            "--timeout",
            str(timeout),
            "--retries",
            "0",
            "--window-pages",
            "8",
            "--password-file",
            str(tmp_path / "passwords.txt"),
        ],
        cwd=work,
    )

    # 1. one record per file, the batch ends normally (1: not all ok), nothing over its limits
    assert run.code == 1, run.stderr[-2000:]
    outcomes = {Path(source).name: code for source, code in run.outcomes().items()}
    assert sorted(outcomes) == sorted(manifest) and len(run.records) == 80
    assert set(outcomes.values()) <= ERROR_CODES - {"timeout", "crashed"} | {"rendered"}
    assert all(r["timings"].get("render_s", r["timings"].get("total_s")) < timeout for r in run.records)
    assert all(r["errors"][0]["message"].startswith(r["source"] + ": ") for r in run.records if r["status"] == "error")
    assert run.peak_rss < RSS_LIMIT, f"peak RSS {run.peak_rss / 1024**2:.0f} MiB"

    # 2. the encrypted files pdfium can open, open with the MANIFEST passwords (saslprep-r6 only when normalised)
    openable = sorted(
        name
        for name, m in manifest.items()
        if m.get("password") and m.get("pdfium_with_password", {}).get("status") == "ok"
    )
    assert len(openable) == 12
    assert {name: outcomes[name] for name in openable + ["pdfjs__saslprep-r6.pdf"]} == dict.fromkeys(
        openable + ["pdfjs__saslprep-r6.pdf"], "rendered"
    )

    # 3. the giant page (595 x 2^31 pt) gives a record; only its top 81 x 16,200 px part is ever rendered
    giant = next(r for r in run.records if r["source"].endswith("pdfjs__poppler-85140-0.pdf"))
    assert (giant["status"] != "error", giant["pages"]) == (True, 1)
    assert [w["message"] for w in giant["warnings"] if w["code"] == "page"] == [
        "page 1: the page is 595 x 2,147,483,648 pt, too elongated to render whole; only its top part was rendered"
    ]


# ---------------------------------------------------------------------------------------------- synthetic cases


def test_synthetic_hostile_batch(model_factory, tmp_path):
    inbox = tmp_path / "in"
    inbox.mkdir()
    sample = SAMPLE.read_bytes()
    png = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(png, "PNG")
    files = {
        "empty.pdf": (b"", "empty"),
        "login.pdf": (
            b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Session expired</body></html>",
            "not_a_pdf",
        ),
        "scan.pdf": (png.getvalue(), "rendered"),  # a PNG named .pdf is read as the PNG it is
        "notes.png": (b"just some text, not an image\n", "unsupported_type"),
        "cut.pdf": (sample[: len(sample) // 2], "corrupt"),
        "poster.pdf": (raw_pdf("/MediaBox [0 0 10000 10000]"), "rendered"),  # 10,000 x 10,000 pt
        "ledger.pdf": (raw_pdf(*["/MediaBox [0 0 595 842]"] * 2000), "rendered"),  # 2,000 pages, --max-pages 2
        "bomb.png": (png_bomb(), "too_large"),
        "crash-me.pdf": (sample, "crashed"),  # the worker SIGKILLs itself on this one
        "hang-me.pdf": (sample, "timeout"),  # ... sleeps on this one
        "nomem-me.pdf": (sample, "too_large"),  # ... raises MemoryError on this one
        "locked.pdf": (locked_pdf("secret"), "rendered"),  # opened by the 2nd line of the password file
        "other-lock.pdf": (locked_pdf("not-in-the-file"), "wrong_password"),
        "-x.pdf": (sample, "rendered"),
        "-y.pdf": (sample, "rendered"),
        "Rechnung März 2024.pdf": (sample, "rendered"),
        "請求書 №7 (copy).pdf": (sample, "rendered"),
    }
    for name, (data, _) in files.items():
        (inbox / name).write_bytes(data)
    expected = {name: code for name, (_, code) in files.items()}
    args = {"-y.pdf": "./-y.pdf"}  # how a name is typed when not as recorded; ./ is the other leading-dash spelling
    latin1 = os.fsdecode(b"caf\xe9 (latin-1).pdf")  # not UTF-8: recorded with the byte shown as \xe9
    try:
        (inbox / latin1).write_bytes(sample)
    except (OSError, UnicodeError):  # file systems that insist on UTF-8 names (APFS, most of Windows)
        pass
    else:
        expected["caf\\xe9 (latin-1).pdf"] = "rendered"
        args["caf\\xe9 (latin-1).pdf"] = latin1
    expected["missing.pdf"] = "not_found"
    prefix, no_denial = deny_read_prefix(tmp_path)
    if no_denial is None:
        (inbox / "secret.pdf").write_bytes(sample)
        (inbox / "secret.pdf").chmod(0)
        expected["secret.pdf"] = "unreadable"
    (tmp_path / "passwords.txt").write_text("nope\nsecret\n", encoding="utf-8")

    model = model_factory.scripted()
    run = run_cli(
        [
            "--model",
            str(model.path),
            "--max-tokens",
            "4",
            "--max-pages",
            "2",
            "--timeout",
            "8",
            "--password-file",
            str(tmp_path / "passwords.txt"),
            "--",
            *[args.get(name, name) for name in expected],
        ],
        cwd=inbox,
        prefix=prefix,
        env={FAULT_ENV: "kill:crash-me,hang:hang-me,nomem:nomem-me"},
    )

    assert run.code == 1, run.stderr[-2000:]
    assert [r["source"] for r in run.records] == list(expected)  # input order, every file once
    assert run.outcomes() == expected
    by_name = {r["source"]: r for r in run.records}
    assert (by_name["ledger.pdf"]["pages"], by_name["poster.pdf"]["pages"]) == (2, 1)
    assert {"code": "input", "message": "only the first 2 of 2000 selected pages were rendered"} in by_name[
        "ledger.pdf"
    ]["warnings"]
    assert {"code": "input", "message": "content is PNG, not PDF as the file name says; read as PNG"} in by_name[
        "scan.pdf"
    ]["warnings"]
    messages = {name: r["errors"][0]["message"] for name, r in by_name.items() if r["status"] == "error"}
    assert all(message.startswith(f"{name}: ") for name, message in messages.items())
    assert "killed by signal SIGKILL" in messages["crash-me.pdf"]
    assert "longer than the 8-second limit" in messages["hang-me.pdf"]
    if no_denial is not None:
        pytest.skip(f"every other case passed; the unreadable file was not tried: {no_denial}")


@pytest.mark.parametrize(
    "name, shown",
    [
        ("plain.pdf", "plain.pdf"),
        ("Rechnung März 2024.pdf", "Rechnung März 2024.pdf"),
        (os.fsdecode(b"caf\xe9.pdf"), "caf\\xe9.pdf"),
        (os.fsdecode(b"dir/\xff\xfe.pdf"), "dir/\\xff\\xfe.pdf"),
    ],
)
def test_display_name(name, shown):
    from extractor.inputs.discover import display_name

    assert display_name(name) == display_name(Path(name)) == shown
    shown.encode("utf-8")


def test_leading_dash_needs_double_dash_or_dot_slash(tmp_path):
    """Without ``--`` (or ``./``) a name like ``-x.pdf`` is an option to click: a usage error (2), not a record."""
    (tmp_path / "-x.pdf").write_bytes(SAMPLE.read_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "extractor.cli", "-x.pdf", "--model", "nowhere"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "No such option: -x" in done.stderr
