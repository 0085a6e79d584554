"""The render worker process: a fresh interpreter that opens and renders one document per job for the pool
(``pool.RenderPool``), so a crash, a hang or a memory blow-up in pdfium or Pillow costs that document, not the batch.

Decisions, in one place:

* **Started as** ``python -c WORKER_CODE MEMORY_LIMIT PACKAGE_ROOT`` by the pool; the code imports this module and
  runs ``worker_main``. It drops the ``''`` that ``-c`` puts first on ``sys.path`` (a ``json.py`` or ``PIL/`` in the
  user's folder must not be imported) and finds this very package even when it is a checkout that is not installed.
* **Streams.** Job frames (``render_wire``) arrive on stdin; results leave on the original stdout, and fd 1 then points
  at stderr, so native code that prints cannot corrupt the stream. The worker announces itself (``ready``) before it
  gets a job, so its start-up is never charged to a document.
* **Memory**: the worker limits its own address space to ``MEMORY_LIMIT`` bytes (``RLIMIT_AS``; Linux only, other
  systems do not enforce it). A ``MemoryError`` becomes a ``too_large`` result, and the worker exits after it (its
  interpreter state is suspect), as after any unexpected failure (``crashed``).
* **Orphans**: a worker exits when its parent goes away (stdin closes, or a watchdog thread sees the parent pid
  change while native code is stuck). Workers ignore SIGINT; the parent stops them.
* **OCR** runs here, page by page while the document renders, under the same time and memory limits: a crash or a
  hang in the engine costs one record. OCR starts on a page only while its estimated cost still fits in
  ``OCR_SHARE`` of the time limit (the rest is for sending the pixels back); pages left unread get a warning, so OCR
  alone never turns a document into a ``timeout``.
* **Relative paths** mean what they mean to the parent now: each job carries the parent's working directory.

Test hook (not an option; for tests only): the environment variable ``EXTRACTOR_TEST_FAULT`` holds
comma-separated ``ACTION:SUBSTRING`` pairs; a worker about to render a file whose name contains SUBSTRING then
``kill``\\s itself with SIGKILL, ``hang``\\s (sleeps for an hour) or raises ``nomem`` (MemoryError).
"""

from __future__ import annotations

import faulthandler
import os
import resource
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

from PIL import Image

from extractor.errors import InputError
from extractor.inputs.load import load_document
from extractor.inputs.render_wire import document_to_frame, raster_from_json, recv, send

FAULT_ENV = "EXTRACTOR_TEST_FAULT"
OCR_SHARE = 0.8  # of the time limit, for rendering and OCR; the rest is for sending the result
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
# Drops the '' that ``-c`` puts first on sys.path (a json.py or PIL/ in the user's folder must not be imported),
# and finds this very package (argv[2]) even when it is a checkout that is not installed.
WORKER_CODE = (
    "import sys; sys.path[:] = [p for p in sys.path if p]; root = sys.argv[2]; "
    "root in sys.path or sys.path.insert(0, root); "
    "from extractor.inputs.render_worker import worker_main; raise SystemExit(worker_main())"
)


def _peak_rss() -> int:
    """This process's own peak resident memory in bytes.

    Linux: ``VmHWM``, because ``ru_maxrss`` carries over the parent's resident size from before ``exec``.
    Elsewhere ``ru_maxrss`` (bytes on macOS).
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _limit_memory(limit: int) -> None:
    if limit <= 0 or not sys.platform.startswith("linux"):
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # a lower hard limit is already set: keep it
        pass


def _watch_parent(parent: int) -> None:
    """Exit when the parent is gone, even while the main thread is stuck in native code (ctypes drops the GIL)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(3)


def _inject_fault(name: str) -> None:
    """The documented test hook (``EXTRACTOR_TEST_FAULT``)."""
    for rule in filter(None, os.environ.get(FAULT_ENV, "").split(",")):
        action, _, needle = rule.partition(":")
        if needle and needle in os.path.basename(name):
            if action == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif action == "hang":
                time.sleep(3600)
            elif action == "nomem":
                raise MemoryError("injected by " + FAULT_ENV)


def _follow_cwd(cwd: str | None) -> None:
    """Work in the parent's current directory, so relative paths mean what they mean to the parent now."""
    if cwd:
        try:
            os.chdir(cwd)
        except OSError:
            pass  # a relative path then becomes not_found, an absolute one still works


def _run_job(header: dict, payload: bytes, memory_limit: int) -> tuple[dict, list, int]:
    name = header["name"]
    start = time.perf_counter()
    timeout = header.get("timeout")
    deadline = None if timeout is None else time.monotonic() + OCR_SHARE * float(timeout)
    reply: dict
    data: list = []
    size = 0
    try:
        _inject_fault(name)
        _follow_cwd(header.get("cwd"))
        source = payload if header["source"] is None else Path(header["source"])
        document = load_document(source, raster=raster_from_json(header["raster"]), deadline=deadline)
        reply, data, size = document_to_frame(document)
    except InputError as exc:
        reply = {"type": "error", "code": exc.code, "message": str(exc)}
    except MemoryError:
        limit = f" (the limit is {memory_limit / 1024**3:g} GiB per worker)" if memory_limit > 0 else ""
        reply = {
            "type": "error",
            "code": "too_large",
            "retire": True,
            "message": f"{name}: rendering needs more memory than a worker may use{limit}; lower --max-pages "
            "or the pixel budget",
        }
    except Exception as exc:  # noqa: BLE001 - an unexpected failure in pdfium/Pillow bindings: this file only
        reply = {
            "type": "error",
            "code": "crashed",
            "retire": True,
            "message": f"{name}: the renderer failed unexpectedly ({type(exc).__name__}: {exc})",
        }
    reply["render_s"] = time.perf_counter() - start
    reply["peak_rss"] = _peak_rss()
    return reply, data, size


def worker_main() -> int:
    """Entry point of a render worker process (started by ``RenderPool``; not for direct use).

    Reads job frames on stdin, answers each with a result frame on the original stdout.

    Returns:
        The process exit status (0 when the parent closed the stream).
    """
    out_fd = os.dup(1)
    os.dup2(2, 1)  # native code printing to stdout lands on stderr, not in the result stream
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business: it stops the workers
    faulthandler.enable()  # a native crash leaves a Python traceback on stderr
    memory_limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    _limit_memory(memory_limit)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    # The rasterizer refuses images over its own MAX_IMAGE_PIXELS; Pillow's earlier warning is only noise.
    warnings.simplefilter("ignore", Image.DecompressionBombWarning)

    try:
        send(out_fd, {"type": "ready", "pid": os.getpid()})
        while True:
            job = recv(0)
            if job is None:
                return 0
            reply, data, size = _run_job(*job, memory_limit)
            send(out_fd, reply, data, size=size)
            del data
            if reply.get("retire"):
                return 0  # after a MemoryError or an internal error the interpreter state is suspect
    except BrokenPipeError:
        return 0
