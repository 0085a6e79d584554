"""Tests for isolated rendering: the render worker pool (``extractor.inputs.pool``), its workers (``worker``) and
the frames between them (``wire``); no model involved.

Faults are injected with the documented test hook ``EXTRACTOR_TEST_FAULT`` (``kill:`` / ``hang:`` / ``nomem:``
followed by a file-name substring), set before the pool starts its workers.
"""

from __future__ import annotations

import dataclasses
import json
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import make_pdf, png, text_pdf
from PIL import Image

from extractor.cli.options import _password_file, _size
from extractor.errors import UsageError, WorkerError
from extractor.inputs.document import RasterSettings, parse_pages
from extractor.inputs.ocr import OcrSettings, engine_available
from extractor.inputs.pool import MAX_DEFAULT_WORKERS, RenderPool, default_workers
from extractor.inputs.render_wire import FrameReader, document_from_frame, raster_from_json, raster_to_json
from extractor.inputs.render_worker import FAULT_ENV
from extractor.inputs.renderer import LocalRenderer, Renderer, render_here

ROOT = Path(__file__).resolve().parents[1]
SMALL = RasterSettings(max_pixels=200_000)  # small pages keep the pipe traffic of these tests low


def outcome(rendered) -> object:
    """The code of a failed render, or the page texts of a rendered one (None for an image page)."""
    if rendered.error is not None:
        return rendered.error.code
    return [None if p.text is None else p.text.strip() for p in rendered.document.pages]


def same_document(a, b) -> bool:
    fields = ("source", "sha256", "kind", "page_count", "warnings")
    if any(getattr(a, f) != getattr(b, f) for f in fields) or len(a.pages) != len(b.pages):
        return False
    return all(
        (p.index, p.width_pt, p.height_pt, p.text, p.warnings, p.image.mode, p.image.size, p.image.tobytes())
        == (q.index, q.width_pt, q.height_pt, q.text, q.warnings, q.image.mode, q.image.size, q.image.tobytes())
        for p, q in zip(a.pages, b.pages, strict=False)
    )


@pytest.fixture
def files(tmp_path):
    """A few inputs: a 3-page PDF, a PNG, a PNG named .pdf, HTML named .pdf, a missing file."""
    paths = {
        "three.pdf": make_pdf(("one", "two", "three")),
        "scan.png": png(),
        "renamed.pdf": png(color="blue"),
        "login.pdf": b"<!DOCTYPE html><html><body>Sign in</body></html>",
    }
    for name, data in paths.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def test_pool_renders_exactly_what_the_caller_would(files):
    sources = [str(files / n) for n in ("three.pdf", "scan.png", "renamed.pdf", "login.pdf", "missing.pdf")]
    sources += [make_pdf(("from bytes",)), Image.new("RGBA", (40, 30), (0, 0, 255, 255))]
    here = [render_here(s, raster=SMALL) for s in sources]
    with RenderPool(workers=2) as pool:
        isolated = list(pool.render_many(sources, raster=SMALL))
        assert pool.stats.jobs == 6  # the PIL image is rendered in the caller
    assert [outcome(r) for r in isolated] == [
        ["one", "two", "three"],
        [None],
        [None],
        "not_a_pdf",
        "not_found",
        ["from bytes"],
        [None],
    ]
    for a, b in zip(here, isolated, strict=False):
        assert a.source is b.source
        assert (type(a.error), str(a.error), a.error and a.error.code) == (
            type(b.error),
            str(b.error),
            b.error and b.error.code,
        )
        assert a.document is None or same_document(a.document, b.document)
    assert [r.wait_s is None for r in isolated] == [False] * 6 + [True]


@pytest.mark.parametrize("make", [LocalRenderer, lambda: RenderPool(workers=1)], ids=["local", "pool"])
def test_here_or_in_the_pool_behind_one_interface(files, make):
    """Code written against Renderer (render, render_many in input order, close on leaving ``with``) gets the same
    results from either."""
    sources = [str(files / "three.pdf"), str(files / "missing.pdf"), make_pdf(("from bytes",))]
    with make() as renderer:
        assert isinstance(renderer, Renderer)
        one = renderer.render(sources[0], raster=SMALL)
        many = list(renderer.render_many(iter(sources), raster=SMALL))
    assert outcome(one) == ["one", "two", "three"]
    assert [(r.source, outcome(r)) for r in many] == [
        (sources[0], ["one", "two", "three"]),
        (sources[1], "not_found"),
        (sources[2], ["from bytes"]),
    ]


def test_order_is_kept_with_prefetch(files):
    sources = [make_pdf((f"doc {i}",)) if i % 3 else str(files / "three.pdf") for i in range(12)]
    with RenderPool(workers=2, ahead=3) as pool:
        got = [outcome(r) for r in pool.render_many(sources, raster=SMALL)]
        assert pool.stats.started == 2
    assert got == [["one", "two", "three"] if i % 3 == 0 else [f"doc {i}"] for i in range(12)]


@pytest.mark.parametrize(
    "action, code, words",
    [
        ("kill", "crashed", "the rendering process died (killed by signal SIGKILL)"),
        ("hang", "timeout", "took longer than the 2-second limit"),
        ("nomem", "too_large", "needs more memory than a worker may use"),
    ],
)
def test_faults_cost_one_file_and_the_worker_is_replaced(files, monkeypatch, action, code, words):
    for name in ("bad-one.pdf", "after.pdf"):
        (files / name).write_bytes(make_pdf((name,)))
    monkeypatch.setenv(FAULT_ENV, f"{action}:bad-one")
    sources = [str(files / n) for n in ("three.pdf", "bad-one.pdf", "after.pdf", "scan.png")]
    with RenderPool(workers=1, timeout=2) as pool:
        got = list(pool.render_many(sources, raster=SMALL))
        assert pool.stats.started == 2  # the one that failed was replaced
    assert [outcome(r) for r in got] == [["one", "two", "three"], code, ["after.pdf"], [None]]
    error = got[1].error
    assert (error.source, type(error) is WorkerError) == (sources[1], code != "too_large")
    assert str(error).startswith(f"{sources[1]}: ") and words in str(error)


def test_a_worker_that_cannot_start_is_a_clear_error(files):
    if not sys.platform.startswith("linux"):
        pytest.skip("the address-space limit is only enforced on Linux")
    with RenderPool(workers=1, memory_limit=8 * 1024**2) as pool:  # too little for an interpreter
        with pytest.raises(WorkerError, match="could not start"):
            pool.render(str(files / "three.pdf"), raster=SMALL)


def test_threads_share_a_pool(files):
    sources = [make_pdf((f"thread {i}",)) for i in range(8)]
    results = [None] * len(sources)
    with RenderPool(workers=2) as pool:

        def work(i):
            results[i] = outcome(pool.render(sources[i], raster=SMALL))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(sources))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results == [[f"thread {i}"] for i in range(8)]


def test_close_reaps_every_worker_and_early_stop_is_fine(files, monkeypatch):
    monkeypatch.setenv(FAULT_ENV, "hang:three")
    pool = RenderPool(workers=2, timeout=30)
    stream = pool.render_many([str(files / "scan.png"), str(files / "three.pdf")], raster=SMALL)
    assert outcome(next(stream)) == [None]
    stream.close()  # the caller stops early; three.pdf is still hanging in a worker
    procs = [w.proc for w in pool._pool]
    pool.close()
    assert procs and all(p.returncode is not None for p in procs)
    with pytest.raises(WorkerError, match="closed"):
        pool.render(str(files / "scan.png"), raster=SMALL)


def test_worker_exits_when_its_parent_dies(files):
    """A worker stuck in a file does not outlive its parent: its watchdog sees the parent go and exits."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to tell a zombie from a live process")
    code = (
        f"import os, sys, time; os.environ[{FAULT_ENV!r}] = 'hang:three'\n"
        "from extractor.inputs.pool import RenderPool; from extractor.inputs.document import RasterSettings\n"
        "pool = RenderPool(workers=1, timeout=600)\n"
        f"stream = pool.render_many([{str(files / 'three.pdf')!r}], raster=RasterSettings())\n"
        "import threading; threading.Thread(target=lambda: next(stream), daemon=True).start()\n"
        "while not (pool._pool and pool._pool[0].item): time.sleep(0.05)\n"
        "print(pool._pool[0].proc.pid, flush=True); os._exit(0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    pid = int(done.stdout.strip())
    deadline = 100  # x 0.1 s
    while deadline and _alive(pid):
        threading.Event().wait(0.1)
        deadline -= 1
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead; only init can reap it here
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except OSError:
        return True


def test_default_workers():
    assert 1 <= default_workers() <= MAX_DEFAULT_WORKERS


@pytest.mark.parametrize("options", [dict(workers=0), dict(timeout=0), dict(timeout=-1), dict(ahead=-1)])
def test_pool_options_are_checked(options):
    with pytest.raises(UsageError):
        RenderPool(**options)


# --------------------------------------------------------------------------------------------------------- OCR

needs_engine = pytest.mark.skipif(not engine_available(), reason="rapidocr / onnxruntime not installed")


@needs_engine
def test_ocr_runs_in_the_worker_and_its_lines_come_back(tmp_path):
    """An image-only page (no text layer) is read in the worker; lines, words and boxes cross the pipe intact."""
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(text_pdf(["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"], size=(300, 200), image_only=True))
    raster = RasterSettings(max_pixels=200_000, ocr=OcrSettings(mode="auto"))
    with RenderPool(workers=1, timeout=60) as pool:
        rendered = pool.render(str(scan), raster=raster)
    here = render_here(str(scan), raster=raster)
    page = rendered.document.pages[0]
    assert (page.text, page.warnings) == ("", ())
    assert [line.text for line in page.ocr.lines] == ["Rechnung RE-2026-0117", "Gesamt 1.375,64 EUR"]
    assert page.ocr.reason == "no_text_layer"
    assert abs(page.ocr.size[0] - 833) <= 1 and abs(page.ocr.size[1] - 556) <= 1  # 300 x 200 pt at 200 DPI
    assert page.ocr.lines == here.document.pages[0].ocr.lines  # the same result as in this process
    assert rendered.render_s >= page.ocr.seconds > 0


@needs_engine
def test_ocr_stops_before_the_time_limit_instead_of_timing_out(tmp_path):
    """A page whose OCR would not fit in the time limit is left unread, with a warning: the document still renders."""
    scan = tmp_path / "scan.pdf"
    scan.write_bytes((ROOT / "samples" / "invoice-scan.pdf").read_bytes())
    raster = RasterSettings(max_pixels=200_000, ocr=OcrSettings(mode="auto"))
    with RenderPool(workers=1, timeout=3) as pool:  # an A4 page needs ~5 s of OCR here; 0.8 x 3 s is the budget
        rendered = pool.render(str(scan), raster=raster)
        planned = pool.render(str(scan), raster=dataclasses.replace(raster, ocr=OcrSettings("auto", plan_s=2.4)))
    assert rendered.error is None and planned.error is None
    page = rendered.document.pages[0]
    assert page.ocr is None
    assert page.warnings == (  # no plan (a RasterSettings of its own): the worker's clock cut it
        "not read by OCR: this machine read pages slower than planned and the time limit to open and render this "
        "document was nearly used up (raise --timeout, or run fewer documents at once, to read every page)",
    )
    (warning,) = planned.document.pages[0].warnings  # the plan (Settings.raster's: 0.8 x --timeout) cuts it first
    assert warning.startswith("not read by OCR: the document's OCR plan is used up")
    assert pool.stats.timed_out == 0


# ---------------------------------------------------------------------------------------------------- protocol


@pytest.mark.parametrize(
    "raster",
    [
        RasterSettings(),
        RasterSettings(
            max_pixels=5000,
            pages=parse_pages("2-,1"),
            passwords=("hôtel", "a\udcff", ""),
            max_pages=3,
            max_bytes=10,
            min_side=8,
            ocr=OcrSettings(mode="auto", threads=2, max_side=1000),
        ),
    ],
)
def test_raster_settings_survive_the_wire(raster):
    assert raster_from_json(json.loads(json.dumps(raster_to_json(raster)))) == raster


def _frame(header: dict, payload: bytes) -> bytes:
    head = json.dumps(header).encode()
    return struct.pack(">QQ", len(head), len(payload)) + head + payload


def test_frame_reader_assembles_pieces_and_rejects_oversize():
    r, w = os.pipe()
    try:
        os.set_blocking(r, False)
        reader = FrameReader(max_payload=10)
        data = _frame({"type": "ready"}, b"0123456789")
        for byte in data:  # one byte at a time: the reader must cope with any split
            os.write(w, bytes([byte]))
            while True:
                try:
                    if not reader.fill(r):
                        break
                except BlockingIOError:
                    break
        header, payload = reader.frame()
        assert (header, bytes(payload)) == ({"type": "ready"}, b"0123456789")
        os.write(w, _frame({"type": "x"}, b"01234567890"))
        with pytest.raises(ValueError, match="over the limit"):
            reader.fill(r)
    finally:
        os.close(r)
        os.close(w)


PAGE = {"index": 0, "size": [2, 2], "width_pt": None, "height_pt": None, "text": None, "warnings": []}


@pytest.mark.parametrize(
    "page, payload, words",
    [
        ({**PAGE, "size": [2000, 2000]}, b"", "outside the budget"),
        (
            {
                **PAGE,
                "ocr": {
                    "reason": "always",
                    "size": [2, 2],
                    "seconds": 0,
                    "cached": False,
                    "lines": [{"text": "x", "box": [0, 0, 2, 1], "confidence": 1, "words": []}],
                },
            },
            b"\x00" * 12,
            "not a normalised box",
        ),
        ({**PAGE, "size": [0, 5]}, b"", "outside the budget"),
        (PAGE, b"\x00" * 11, "shorter"),
        (PAGE, b"\x00" * 13, "longer"),
    ],
)
def test_malformed_documents_are_refused(page, payload, words):
    header = {"source": "x", "sha256": "", "kind": "pdf", "page_count": 1, "warnings": [], "pages": [page]}
    with pytest.raises(ValueError, match=words):
        document_from_frame(header, memoryview(payload), max_pixels=10_000)


# ------------------------------------------------------------------------------------------------- CLI helpers


@pytest.mark.parametrize(
    "text, expected",
    [
        ("secret\n", ("secret",)),
        ("\ufeffone\r\ntwo\n\n three \n", ("one", "two", " three ")),  # BOM and CRLF dropped, spaces kept
        ("hôtel\næøå", ("hôtel", "æøå")),
        ("", ()),
    ],
)
def test_password_file(tmp_path, text, expected):
    path = tmp_path / "pw.txt"
    path.write_bytes(text.encode("utf-8"))
    assert _password_file(path) == expected


def test_password_file_errors(tmp_path):
    assert _password_file(None) == ()
    with pytest.raises(UsageError, match="cannot read"):
        _password_file(tmp_path / "missing.txt")
    (tmp_path / "latin1.txt").write_bytes("h\xf4tel".encode("latin-1"))
    with pytest.raises(UsageError, match="not UTF-8"):
        _password_file(tmp_path / "latin1.txt")


@pytest.mark.parametrize(
    "text, size",
    [
        ("200M", 200 * 1024**2),
        ("1g", 1024**3),
        ("5000000", 5_000_000),
        ("1.5K", 1536),
        ("10MiB", 10 * 1024**2),
        ("2GB", 2 * 1024**3),
    ],
)
def test_size(text, size):
    assert _size(text, "--max-bytes") == size


@pytest.mark.parametrize("text", ["", "abc", "0", "-1M", "M", "inf", "nan", "1T"])
def test_size_rejects(text):
    with pytest.raises(UsageError):
        _size(text, "--max-bytes")
