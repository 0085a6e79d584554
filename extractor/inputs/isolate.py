"""Open and render inputs in worker processes, so a crash, a hang or a memory blow-up costs one file, not the batch.

Decisions, in one place:

* **Fresh interpreters, not forks.** A worker is ``python -c "...worker_main()"`` started with ``subprocess``
  (fork+exec / posix_spawn, nothing runs between the two). The parent may hold mlx / Metal state and threads, which
  a plain ``fork`` copies in an unusable state. ``multiprocessing`` is not used: its spawn and forkserver modes
  import the caller's ``__main__`` in every worker (API scripts would need an ``if __name__ == "__main__"``
  guard), ``ProcessPoolExecutor`` fails every pending job once one worker dies, and ``multiprocessing.Pool`` never
  returns the task of a killed worker. Workers are direct children: the parent sees their exit status and signal,
  and their peak memory counts in the parent's ``RUSAGE_CHILDREN``.
* **Protocol.** Length-prefixed frames (``>QQ`` header and payload sizes, a JSON header, raw bytes) on the
  worker's stdin and stdout; no pickle, so the parent only ever parses JSON and raw RGB pixels from a process that
  read hostile bytes. The worker points its fd 1 at stderr, so native code that prints cannot corrupt the stream;
  stderr is inherited. A worker announces itself (``ready``) before it gets a job, so its start-up is never
  charged to a document.
* **One job per worker**; its deadline is ``timeout`` seconds after dispatch. A worker past its deadline is killed
  (SIGKILL) and its document becomes a ``timeout`` record; a worker that dies (signal, exit, broken stream) makes a
  ``crashed`` record. Either way it is replaced by a fresh one when the next job needs it. A result that arrives
  but reports more than ``timeout`` seconds of work is also ``timeout``, so the outcome does not depend on when the
  parent happened to look.
* **Pool size**: the usable cores, at most ``MAX_DEFAULT_WORKERS``; workers start lazily, one per job in flight.
* **Prefetch**: ``render_many`` keeps up to ``ahead`` documents (default: the number of workers) rendering or
  rendered beyond the one the caller is working on, and yields them in input order; so while the caller generates
  for document *i*, documents *i+1 ... i+ahead* render. Memory held is bounded by ``ahead + 1`` rendered
  documents (each at most ``max_pages x max_pixels x 3`` bytes).
* **Memory**: each worker limits its own address space to ``memory_limit`` bytes (``RLIMIT_AS``; Linux only, other
  systems do not enforce it). A ``MemoryError`` becomes a ``too_large`` record and the worker is replaced.
* **Orphans**: a worker exits when its parent goes away (stdin closes, or a watchdog thread sees the parent pid
  change while native code is stuck). Workers ignore SIGINT; the parent stops them.
* **Not isolated**: PIL images passed to the API (already decoded; only resized) are rendered in the caller.
* **OCR** (``ocr``) runs in the worker, page by page while it renders, under the same time and memory limits: a
  crash or a hang in the engine costs one record. The worker starts OCR on a page only while its estimated cost
  still fits in ``OCR_SHARE`` of the time limit (the rest is for sending the pixels back); pages left unread
  get a warning, so OCR alone never turns a document into a ``timeout``. The OCR result (lines, words, boxes)
  travels in the frame's JSON header.

Test hook (not an option; for tests only): the environment variable ``EXTRACTOR_TEST_FAULT`` holds
comma-separated ``ACTION:SUBSTRING`` pairs; a worker about to render a file whose name contains SUBSTRING then
``kill``\\s itself with SIGKILL, ``hang``\\s (sleeps for an hour) or raises ``nomem`` (MemoryError).
"""

from __future__ import annotations

import faulthandler
import fcntl
import functools
import json
import os
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import warnings
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from PIL import Image

from extractor.errors import ExtractorError, InputError, UsageError, WorkerError
from extractor.inputs.ocr import OcrPage, OcrSettings
from extractor.inputs.rasterize import (
    Document, Page, PageSelection, RasterSettings, TextLine, display_name, load_document,
)

DEFAULT_TIMEOUT = 60.0  # seconds to open and render one document
DEFAULT_MEMORY_LIMIT = 2 * 1024**3  # address space per worker (Linux); a rendered page is ~4 MB, a worker ~40 MB
MAX_DEFAULT_WORKERS = 4  # generation is serial and slower than rendering; more workers only hold memory
FAULT_ENV = "EXTRACTOR_TEST_FAULT"
START_TIMEOUT = 60.0  # seconds for a fresh worker to import pypdfium2 and Pillow and say ready
DRAIN_STALL = 30.0  # seconds a worker may pause in the middle of sending a result
OCR_SHARE = 0.8  # of the time limit, for rendering and OCR; the rest is for sending the result

_FRAME = struct.Struct(">QQ")
_MAX_HEADER = 256 * 1024**2  # page texts of a 50-page document are far below this
_READ_CHUNK = 1 << 20
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
# Drops the '' that ``-c`` puts first on sys.path (a json.py or PIL/ in the user's folder must not be imported),
# and finds this very package (argv[2]) even when it is a checkout that is not installed.
_WORKER_CODE = ("import sys; sys.path[:] = [p for p in sys.path if p]; root = sys.argv[2]; "
                "root in sys.path or sys.path.insert(0, root); "
                "from extractor.inputs.isolate import worker_main; raise SystemExit(worker_main())")


def default_workers() -> int:
    """Return the default pool size: the cores this process may run on, at most ``MAX_DEFAULT_WORKERS``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS has no sched_getaffinity
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT_WORKERS))


@dataclass(frozen=True)
class Rendered:
    """One source, opened and rendered (or not).

    Attributes:
        source: the source as given.
        document: the rendered document, or None when it failed.
        error: why it failed (``InputError`` or ``WorkerError`` with its code), or None.
        render_s: seconds spent opening and rendering (in the worker, when isolated).
        wait_s: seconds the caller waited for it (0 when it was rendered ahead); None when rendered in the caller.
    """

    source: Any
    document: Optional[Document] = None
    error: Optional[ExtractorError] = None
    render_s: float = 0.0
    wait_s: Optional[float] = None


@dataclass
class PoolStats:
    """What a pool did so far.

    Attributes:
        started: workers started (including replacements).
        jobs: documents sent to workers.
        crashed: workers that died on a document.
        timed_out: documents over their time limit (their workers killed when still at it).
        replaced_after_error: workers retired after a MemoryError or an internal error.
        worker_peak_rss: the largest peak resident memory any worker reported, in bytes.
    """

    started: int = 0
    jobs: int = 0
    crashed: int = 0
    timed_out: int = 0
    replaced_after_error: int = 0
    worker_peak_rss: int = 0


def render_here(source: Any, *, settings: RasterSettings) -> Rendered:
    """Open and render a source in this process (no isolation, no time limit).

    Args:
        source: a path, the file's bytes, or a PIL image.
        settings: the rasterizer settings.

    Returns:
        The Rendered (``error`` set for an unreadable input).
    """
    start = time.perf_counter()
    try:
        document = load_document(Path(source) if isinstance(source, str) else source, settings=settings)
    except InputError as exc:
        return Rendered(source=source, error=exc, render_s=time.perf_counter() - start)
    return Rendered(source=source, document=document, render_s=time.perf_counter() - start)


# ------------------------------------------------------------------------------------------------------- framing


def _write_all(fd: int, data: Union[bytes, memoryview]) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _send(fd: int, header: dict, payload: Union[bytes, Sequence[Any]] = b"", *, size: Optional[int] = None) -> None:
    """Write one frame; ``payload`` is bytes, or a sequence of callables each returning the next piece (``size``
    bytes in all), so a document's pages are converted and written one at a time."""
    head = json.dumps(header).encode("ascii")  # ensure_ascii: lone surrogates in names and texts survive
    pieces = [lambda: payload] if isinstance(payload, (bytes, bytearray, memoryview)) else payload
    total = len(payload) if size is None else size
    _write_all(fd, _FRAME.pack(len(head), total) + head)
    for piece in pieces:
        data = piece()
        if data:
            _write_all(fd, data)


def _read_exact(fd: int, size: int) -> Optional[bytes]:
    """Blocking read of exactly ``size`` bytes; None on end of stream."""
    parts, left = [], size
    while left:
        chunk = os.read(fd, min(left, _READ_CHUNK))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _recv(fd: int) -> Optional[tuple[dict, bytes]]:
    """Blocking read of one frame (worker side); None when the parent closed the stream."""
    sizes = _read_exact(fd, _FRAME.size)
    if sizes is None:
        return None
    head_len, payload_len = _FRAME.unpack(sizes)
    head = _read_exact(fd, head_len)
    payload = _read_exact(fd, payload_len) if payload_len else b""
    if head is None or payload is None:
        return None
    return json.loads(head), payload


class _FrameReader:
    """Parent side: fills one frame from a non-blocking fd as bytes arrive (the parent never blocks on one worker)."""

    def __init__(self, max_payload: int) -> None:
        self.max_payload = max_payload
        self._reset()

    def _reset(self) -> None:
        self.prefix = b""
        self.body: Optional[bytearray] = None
        self.head_len = 0
        self.filled = 0

    @property
    def in_frame(self) -> bool:
        """True once the first bytes of a frame have arrived."""
        return bool(self.prefix)

    def fill(self, fd: int) -> int:
        """Read what is available (one read); return the bytes read, 0 at end of stream.

        Raises:
            BlockingIOError: nothing to read now.
            ValueError: the frame announces sizes over the limits.
        """
        if self.body is None:
            chunk = os.read(fd, _FRAME.size - len(self.prefix))
            self.prefix += chunk
            if len(self.prefix) == _FRAME.size:
                self.head_len, payload_len = _FRAME.unpack(self.prefix)
                if self.head_len > _MAX_HEADER or payload_len > self.max_payload:
                    raise ValueError(f"a frame of {self.head_len:,} + {payload_len:,} bytes is over the limit")
                self.body = bytearray(self.head_len + payload_len)  # once: no regrowing of a ~200 MB buffer
            return len(chunk)
        count = os.readv(fd, [memoryview(self.body)[self.filled:]])
        self.filled += count
        return count

    def frame(self) -> Optional[tuple[dict, memoryview]]:
        """Return the frame when complete (and start over), else None."""
        if self.body is None or self.filled < len(self.body):
            return None
        body = memoryview(self.body)
        header = json.loads(bytes(body[:self.head_len]))
        payload = body[self.head_len:]
        self._reset()
        return header, payload


# -------------------------------------------------------------------------------------------- (de)serialisation


def _settings_to_json(settings: RasterSettings) -> dict:
    return {"max_pixels": settings.max_pixels, "passwords": list(settings.passwords),
            "pages": None if settings.pages is None else [list(r) for r in settings.pages.ranges],
            "max_pages": settings.max_pages, "max_bytes": settings.max_bytes, "min_side": settings.min_side,
            "ocr": settings.ocr.to_dict(), "text_boxes": settings.text_boxes}


def _settings_from_json(data: dict) -> RasterSettings:
    pages = None if data["pages"] is None else PageSelection(tuple((a, b) for a, b in data["pages"]))
    return RasterSettings(max_pixels=data["max_pixels"], pages=pages, passwords=tuple(data["passwords"]),
                          max_pages=data["max_pages"], max_bytes=data["max_bytes"], min_side=data["min_side"],
                          ocr=OcrSettings.from_dict(data["ocr"]), text_boxes=data["text_boxes"])


def _document_to_frame(document: Document) -> tuple[dict, list, int]:
    """The frame for a document: header, one callable per page returning its RGB bytes, and their total size."""
    pages = [{"index": page.index, "size": list(page.image.size), "width_pt": page.width_pt,
              "height_pt": page.height_pt, "text": page.text, "warnings": list(page.warnings),
              "ocr": None if page.ocr is None else page.ocr.to_dict(), "lines": [line.to_dict() for line in page.lines]}
             for page in document.pages]
    header = {"type": "document", "source": document.source, "sha256": document.sha256, "kind": document.kind,
              "page_count": document.page_count, "warnings": list(document.warnings), "pages": pages}
    size = sum(page.image.width * page.image.height * 3 for page in document.pages)
    return header, [functools.partial(_rgb_bytes, page.image) for page in document.pages], size


def _rgb_bytes(image) -> bytes:
    return (image if image.mode == "RGB" else image.convert("RGB")).tobytes()


def _document_from_frame(header: dict, payload: memoryview, *, max_pixels: int) -> Document:
    """Rebuild a Document from a worker's frame, checking every size against the budget (ValueError if off)."""
    pages, offset = [], 0
    for item in header["pages"]:
        width, height = (int(v) for v in item["size"])
        if not (0 < width and 0 < height and width * height <= max_pixels):
            raise ValueError(f"page image of {width} x {height} px is outside the budget")
        size = width * height * 3
        if offset + size > len(payload):
            raise ValueError("the pixel data is shorter than the page sizes say")
        image = Image.frombytes("RGB", (width, height), payload[offset:offset + size])
        offset += size
        read = None if item.get("ocr") is None else OcrPage.from_dict(item["ocr"])
        lines = tuple(TextLine.from_dict(line) for line in item.get("lines", ()))
        pages.append(Page(index=int(item["index"]), image=image, width_pt=item["width_pt"],
                          height_pt=item["height_pt"], text=item["text"], warnings=tuple(item["warnings"]), ocr=read,
                          lines=lines))
    if offset != len(payload):
        raise ValueError("the pixel data is longer than the page sizes say")
    return Document(source=header["source"], sha256=header["sha256"], kind=header["kind"],
                    page_count=int(header["page_count"]), pages=tuple(pages), warnings=tuple(header["warnings"]))


# --------------------------------------------------------------------------------------------------------- worker


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


def _cwd() -> Optional[str]:
    try:
        return os.getcwd()
    except OSError:  # the parent's working directory was removed
        return None


def _follow_cwd(cwd: Optional[str]) -> None:
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
        document = load_document(source, settings=_settings_from_json(header["settings"]), deadline=deadline)
        reply, data, size = _document_to_frame(document)
    except InputError as exc:
        reply = {"type": "error", "code": exc.code, "message": str(exc)}
    except MemoryError:
        limit = f" (the limit is {memory_limit / 1024**3:g} GiB per worker)" if memory_limit > 0 else ""
        reply = {"type": "error", "code": "too_large", "retire": True,
                 "message": f"{name}: rendering needs more memory than a worker may use{limit}; lower --max-pages "
                            "or the pixel budget"}
    except Exception as exc:  # noqa: BLE001 - an unexpected failure in pdfium/Pillow bindings: this file only
        reply = {"type": "error", "code": "crashed", "retire": True,
                 "message": f"{name}: the renderer failed unexpectedly ({type(exc).__name__}: {exc})"}
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
        _send(out_fd, {"type": "ready", "pid": os.getpid()})
        while True:
            job = _recv(0)
            if job is None:
                return 0
            reply, data, size = _run_job(*job, memory_limit)
            _send(out_fd, reply, data, size=size)
            del data
            if reply.get("retire"):
                return 0  # after a MemoryError or an internal error the interpreter state is suspect
    except BrokenPipeError:
        return 0


# ----------------------------------------------------------------------------------------------------------- pool


class _Item:
    """One source moving through the pool."""

    __slots__ = ("source", "name", "settings", "result")

    def __init__(self, source: Any, settings: RasterSettings) -> None:
        self.source = source
        self.name = source_label(source)
        self.settings = settings
        self.result: Optional[Rendered] = None


class _Worker:
    """One worker process and the job it is on."""

    def __init__(self, proc: subprocess.Popen, max_payload: int) -> None:
        self.proc = proc
        self.ready = False
        self.item: Optional[_Item] = None
        self.deadline = 0.0
        self.dispatched = 0.0
        self.reader = _FrameReader(max_payload)
        self.fd = proc.stdout.fileno()
        self.started = time.monotonic()


def source_label(source: Any) -> str:
    """Return how a source is named in records and messages: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, os.PathLike)):
        return display_name(source)
    return "<bytes>" if isinstance(source, (bytes, bytearray, memoryview)) else "<image>"


def _isolatable(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike, bytes, bytearray, memoryview))


def _signal_name(returncode: Optional[int]) -> str:
    if returncode is None:
        return "the result stream broke"
    if returncode < 0:
        try:
            return f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with status {returncode}"


class RenderPool:
    """Worker processes that open and render documents; see the module docstring for the design.

    Thread-safe: several threads may call ``render`` (and iterate ``render_many``) at once.

    Example:
        >>> with RenderPool(timeout=30) as pool:                                        # doctest: +SKIP
        ...     for rendered in pool.render_many(paths, settings=RasterSettings()):
        ...         print(rendered.source, rendered.error or len(rendered.document.pages))
    """

    def __init__(self, *, workers: Optional[int] = None, timeout: float = DEFAULT_TIMEOUT,
                 memory_limit: Optional[int] = DEFAULT_MEMORY_LIMIT, ahead: Optional[int] = None) -> None:
        """Set up the pool; workers start when the first document needs one.

        Args:
            workers: most worker processes at once (default: ``default_workers()``).
            timeout: seconds one document may take to open and render.
            memory_limit: address-space limit per worker in bytes (Linux only); None or 0: no limit.
            ahead: documents rendered ahead of the one being consumed in ``render_many`` (default: ``workers``).

        Raises:
            UsageError: a count or the timeout is not positive.
        """
        self.workers = default_workers() if workers is None else workers
        self.ahead = self.workers if ahead is None else ahead
        if self.workers < 1 or self.ahead < 0 or not timeout > 0:
            raise UsageError("workers and timeout must be positive (and ahead not negative)")
        self.timeout = float(timeout)
        self.memory_limit = memory_limit or 0
        self.stats = PoolStats()
        self._lock = threading.RLock()
        self._pool: list[_Worker] = []
        self._queue: deque[_Item] = deque()
        self._closed = False

    # -- public ------------------------------------------------------------------------------------------------

    def render(self, source: Any, *, settings: RasterSettings) -> Rendered:
        """Open and render one source in a worker (PIL images: in this process).

        Args:
            source: a path, the file's bytes, or a PIL image.
            settings: the rasterizer settings.

        Returns:
            The Rendered; ``error`` carries the code (``crashed`` / ``timeout`` from the pool, the rest from
            ``rasterize.load_document``).
        """
        return next(self.render_many([source], settings=settings))

    def render_many(self, sources: Iterable[Any], *, settings: RasterSettings) -> Iterator[Rendered]:
        """Render sources in input order, up to ``ahead`` of them ahead of the one the caller is on.

        Args:
            sources: paths, bytes or PIL images (consumed lazily).
            settings: the rasterizer settings.

        Yields:
            One Rendered per source, in order.
        """
        iterator = iter(sources)
        window: deque[_Item] = deque()
        exhausted = False
        head: Optional[_Item] = None
        try:
            while True:
                while not exhausted and len(window) <= self.ahead:
                    try:
                        source = next(iterator)
                    except StopIteration:
                        exhausted = True
                        break
                    window.append(self._submit(source, settings))
                if not window:
                    return
                head = window.popleft()
                waited = time.perf_counter()
                if head.result is None and not _isolatable(head.source):
                    head.result = render_here(head.source, settings=head.settings)
                while head.result is None:
                    self._pump(wait=True)
                result = head.result
                if result.wait_s is not None:
                    result = Rendered(source=result.source, document=result.document, error=result.error,
                                      render_s=result.render_s, wait_s=time.perf_counter() - waited)
                yield result
        finally:
            self._forget([*window, *([head] if head is not None and head.result is None else [])])

    def close(self) -> None:
        """Stop every worker (idle ones exit on end of input; busy ones are killed) and reap them."""
        with self._lock:
            self._closed = True
            workers, self._pool = self._pool, []
            self._queue.clear()
        busy = [w for w in workers if w.item is not None]
        _stop_workers(busy, kill=True)
        _stop_workers([w for w in workers if w.item is None])

    def __enter__(self) -> "RenderPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- internals ---------------------------------------------------------------------------------------------

    def _submit(self, source: Any, settings: RasterSettings) -> _Item:
        item = _Item(source, settings)
        if _isolatable(source):
            with self._lock:
                if self._closed:
                    raise WorkerError("the render pool is closed", code="crashed")
                self._queue.append(item)
                self._dispatch()
        return item

    def _forget(self, items: Iterable[_Item]) -> None:
        """Drop items a caller no longer wants (generator closed early)."""
        with self._lock:
            for item in items:
                if item in self._queue:
                    self._queue.remove(item)

    def _start_worker(self) -> _Worker:
        if not sys.executable:
            raise WorkerError("cannot start a render worker: no Python executable (sys.executable is empty)")
        proc = subprocess.Popen([sys.executable, "-c", _WORKER_CODE, str(self.memory_limit), _PACKAGE_ROOT],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, close_fds=True)
        self.stats.started += 1
        worker = _Worker(proc, max_payload=0)
        os.set_blocking(worker.fd, False)  # several threads may see the same fd readable; only one gets the bytes
        if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux: 1 MiB pipe, 16x fewer wake-ups for a document's pixels
            try:
                fcntl.fcntl(worker.fd, fcntl.F_SETPIPE_SZ, 1 << 20)
            except OSError:
                pass
        self._pool.append(worker)
        return worker

    def _dispatch(self) -> None:
        """Give queued items to ready workers; start workers while there are more items than workers."""
        for worker in self._pool:
            if not self._queue:
                return
            if worker.ready and worker.item is None:
                self._assign(worker, self._queue.popleft())
        starting = sum(1 for w in self._pool if not w.ready)
        while len(self._pool) < self.workers and len(self._queue) > starting:
            self._start_worker()
            starting += 1

    def _assign(self, worker: _Worker, item: _Item) -> None:
        settings = item.settings
        worker.reader.max_payload = settings.max_pages * settings.max_pixels * 3
        is_path = isinstance(item.source, (str, os.PathLike))
        header = {"type": "job", "name": item.name, "source": os.fspath(item.source) if is_path else None,
                  "cwd": _cwd(), "settings": _settings_to_json(settings), "timeout": self.timeout}
        worker.item = item
        worker.dispatched = time.perf_counter()
        worker.deadline = time.monotonic() + self.timeout
        self.stats.jobs += 1
        try:
            _send(worker.proc.stdin.fileno(), header, b"" if is_path else bytes(item.source))
        except OSError:  # died while idle: its end of the pipe is gone
            self._worker_died(worker)

    def _pump(self, *, wait: bool) -> None:
        """Collect what workers have sent, enforce deadlines, replace dead workers, dispatch; waits a little."""
        if self._closed:
            raise WorkerError("the render pool was closed while a document was rendering", code="crashed")
        with self._lock:
            self._collect(0.0)  # results that arrived while the caller was busy count before any deadline
            now = time.monotonic()
            for worker in list(self._pool):
                if worker.item is not None and now >= worker.deadline:
                    self._time_out(worker)
                elif not worker.ready and now - worker.started > START_TIMEOUT:
                    self._retire(worker)
                    raise WorkerError(f"a render worker did not start within {START_TIMEOUT:g} s")
            self._dispatch()
            deadlines = [w.deadline for w in self._pool if w.item is not None]
        if wait:
            # Waits outside the lock (other threads may pump too): until something arrives, the next deadline,
            # or a quarter second.
            self._collect(max(0.0, min([0.25] + [d - time.monotonic() for d in deadlines])))

    def _collect(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for worker output, then read all of it."""
        with self._lock:
            fds = {w.fd: w for w in self._pool}
        if not fds:
            time.sleep(min(timeout, 0.01))
            return
        try:
            readable = select.select(list(fds), [], [], timeout)[0]
        except (OSError, ValueError):  # another thread retired a worker meanwhile: look again next round
            return
        with self._lock:
            for fd in readable:
                worker = fds[fd]
                if worker in self._pool:
                    self._read(worker)
            self._dispatch()

    def _read(self, worker: _Worker) -> None:
        reader = worker.reader
        frame = None
        while frame is None:
            try:
                count = reader.fill(worker.fd)
            except BlockingIOError:
                # A frame is written only once the work is done: drain it here rather than one pipe-full per
                # pump. A worker that stalls mid-frame for DRAIN_STALL seconds is broken.
                if not reader.in_frame:
                    return
                if not select.select([worker.fd], [], [], DRAIN_STALL)[0]:
                    self._worker_broke(worker, f"stopped sending its result for {DRAIN_STALL:g} s")
                    return
                continue
            except ValueError as exc:
                self._worker_broke(worker, f"sent a malformed result ({exc})")
                return
            except OSError:
                count = 0
            if not count:
                self._worker_died(worker)
                return
            frame = reader.frame()
        header, payload = frame
        if header.get("type") == "ready":
            if not worker.ready:
                worker.ready = True
                return
            self._worker_broke(worker, "sent an unexpected message")
            return
        item = worker.item
        if item is None:
            self._worker_broke(worker, "sent a result nobody asked for")
            return
        worker.item = None
        self.stats.worker_peak_rss = max(self.stats.worker_peak_rss, int(header.get("peak_rss", 0)))
        render_s = float(header.get("render_s", time.perf_counter() - worker.dispatched))
        if header.get("retire"):
            self.stats.replaced_after_error += 1
            self._retire(worker)
        if render_s > self.timeout:
            item.result = self._timeout_result(item, render_s)
        elif header.get("type") == "error":
            code = str(header.get("code", "corrupt"))
            error_type = WorkerError if code == "crashed" else InputError
            item.result = Rendered(source=item.source, error=error_type(str(header.get("message", "")),
                                                                        source=item.name, code=code),
                                   render_s=render_s, wait_s=0.0)
        else:
            try:
                document = _document_from_frame(header, payload, max_pixels=item.settings.max_pixels)
            except (ValueError, KeyError, TypeError) as exc:
                item.result = self._crash_result(item, f"the rendering process sent a malformed result ({exc})",
                                                 render_s)
                self._retire(worker)
                return
            item.result = Rendered(source=item.source, document=document, render_s=render_s, wait_s=0.0)

    def _timeout_result(self, item: _Item, render_s: float) -> Rendered:
        self.stats.timed_out += 1
        message = (f"{item.name}: opening and rendering took longer than the {self.timeout:g}-second limit and was "
                   "stopped; raise --timeout if the file is just large")
        return Rendered(source=item.source, error=WorkerError(message, source=item.name, code="timeout"),
                        render_s=render_s, wait_s=0.0)

    def _crash_result(self, item: _Item, why: str, render_s: float) -> Rendered:
        self.stats.crashed += 1
        message = f"{item.name}: {why}; the file was skipped (it may be malformed in a way that crashes the renderer)"
        return Rendered(source=item.source, error=WorkerError(message, source=item.name, code="crashed"),
                        render_s=render_s, wait_s=0.0)

    def _time_out(self, worker: _Worker) -> None:
        item = worker.item
        self._retire(worker)
        if item is not None:
            item.result = self._timeout_result(item, time.perf_counter() - worker.dispatched)

    def _worker_died(self, worker: _Worker) -> None:
        item = worker.item
        self._retire(worker, kill=False)  # reap it as it is, for its real exit status
        if item is not None:
            why = f"the rendering process died ({_signal_name(worker.proc.returncode)})"
            item.result = self._crash_result(item, why, time.perf_counter() - worker.dispatched)
        elif not worker.ready:
            raise WorkerError(f"a render worker could not start ({_signal_name(worker.proc.returncode)}); "
                              "see the messages above")

    def _worker_broke(self, worker: _Worker, why: str) -> None:
        item = worker.item
        self._retire(worker)
        if item is not None:
            item.result = self._crash_result(item, f"the rendering process {why}",
                                             time.perf_counter() - worker.dispatched)

    def _retire(self, worker: _Worker, *, kill: bool = True) -> None:
        if worker in self._pool:
            self._pool.remove(worker)
        _stop_workers([worker], kill=kill)


def _stop_workers(workers: list[_Worker], *, kill: bool = False) -> None:
    """Close each worker's input (so idle ones exit), kill what is left, and reap them all."""
    for worker in workers:
        for stream in (worker.proc.stdin, worker.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if kill:
            worker.proc.kill()
    for worker in workers:
        try:
            worker.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()


__all__ = ["DEFAULT_MEMORY_LIMIT", "DEFAULT_TIMEOUT", "FAULT_ENV", "PoolStats", "RenderPool", "Rendered",
           "default_workers", "render_here", "source_label", "worker_main"]
