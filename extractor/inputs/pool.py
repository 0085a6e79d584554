"""The parent's side of isolated rendering: ``RenderPool``, worker processes (``render_worker``) that open and render
documents, so a crash, a hang or a memory blow-up costs one file, not the batch.

Decisions, in one place:

* **Fresh interpreters, not forks.** A worker is ``python -c "...worker_main()"`` (``render_worker.WORKER_CODE``)
  started with ``subprocess`` (fork+exec / posix_spawn, nothing runs between the two). The parent may hold mlx / Metal
  state and threads, which a plain ``fork`` copies in an unusable state. ``multiprocessing`` is not used: its spawn and
  forkserver modes import the caller's ``__main__`` in every worker (API scripts would need an
  ``if __name__ == "__main__"`` guard), ``ProcessPoolExecutor`` fails every pending job once one worker dies, and
  ``multiprocessing.Pool`` never returns the task of a killed worker. Workers are direct children: the parent sees their
  exit status and signal, and their peak memory counts in the parent's ``RUSAGE_CHILDREN``.
* **Protocol**: frames of JSON and raw pixels on the worker's stdin and stdout (``render_wire``); no pickle.
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
* **Memory**: each worker limits its own address space to ``memory_limit`` bytes (Linux only). A ``MemoryError``
  becomes a ``too_large`` record and the worker is replaced.
* **Not isolated**: PIL images passed to the API (already decoded; only resized) are rendered in the caller.
* **OCR** runs in the worker, under the same time and memory limits (``render_worker``); its result (lines, words,
  boxes) travels in the frame's JSON header.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from extractor.errors import InputError, UsageError, WorkerError
from extractor.inputs.discover import display_name
from extractor.inputs.document import RasterSettings
from extractor.inputs.render_wire import FrameReader, document_from_frame, raster_to_json, send
from extractor.inputs.render_worker import PACKAGE_ROOT, WORKER_CODE
from extractor.inputs.renderer import Rendered, Renderer, render_here

DEFAULT_TIMEOUT = 60.0  # seconds to open and render one document
DEFAULT_MEMORY_LIMIT = 2 * 1024**3  # address space per worker (Linux); a rendered page is ~4 MB, a worker ~40 MB
MAX_DEFAULT_WORKERS = 4  # generation is serial and slower than rendering; more workers only hold memory
START_TIMEOUT = 60.0  # seconds for a fresh worker to import pypdfium2 and Pillow and say ready
DRAIN_STALL = 30.0  # seconds a worker may pause in the middle of sending a result


def default_workers() -> int:
    """Return the default pool size: the cores this process may run on, at most ``MAX_DEFAULT_WORKERS``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS has no sched_getaffinity
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT_WORKERS))


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


class _Item:
    """One source moving through the pool."""

    __slots__ = ("source", "name", "raster", "result")

    def __init__(self, source: Any, raster: RasterSettings) -> None:
        self.source = source
        self.name = source_label(source)
        self.raster = raster
        self.result: Rendered | None = None


class _Worker:
    """One worker process and the job it is on."""

    def __init__(self, proc: subprocess.Popen, max_payload: int) -> None:
        self.proc = proc
        self.ready = False
        self.item: _Item | None = None
        self.deadline = 0.0
        self.dispatched = 0.0
        self.reader = FrameReader(max_payload)
        if proc.stdin is None or proc.stdout is None:  # started with stdin and stdout=PIPE: never None
            raise ValueError("a render worker needs pipes for its stdin and stdout")
        self.stdin, self.stdout = proc.stdin, proc.stdout
        self.fd = proc.stdout.fileno()
        self.started = time.monotonic()


def source_label(source: Any) -> str:
    """Return how a source is named in records and messages: the path as given, ``<bytes>`` or ``<image>``."""
    if isinstance(source, (str, os.PathLike)):
        return display_name(source)
    return "<bytes>" if isinstance(source, (bytes, bytearray, memoryview)) else "<image>"


def _isolatable(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike, bytes, bytearray, memoryview))


def _signal_name(returncode: int | None) -> str:
    if returncode is None:
        return "the result stream broke"
    if returncode < 0:
        try:
            return f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with status {returncode}"


def _cwd() -> str | None:
    """The parent's working directory, sent with each job (None when it was removed)."""
    try:
        return os.getcwd()
    except OSError:  # the parent's working directory was removed
        return None


class RenderPool(Renderer):
    """Worker processes that open and render documents; see the module docstring for the design.

    Thread-safe: several threads may call ``render`` (and iterate ``render_many``) at once.

    Example:
        >>> with RenderPool(timeout=30) as pool:                                        # doctest: +SKIP
        ...     for rendered in pool.render_many(paths, raster=RasterSettings()):
        ...         print(rendered.source, rendered.error or len(rendered.document.pages))
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        ahead: int | None = None,
    ) -> None:
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

    def render(self, source: Any, *, raster: RasterSettings) -> Rendered:
        """Open and render one source in a worker (PIL images: in this process).

        Args:
            source: a path, the file's bytes, or a PIL image.
            raster: the rasterizer settings.

        Returns:
            The Rendered; ``error`` carries the code (``crashed`` / ``timeout`` from the pool, the rest from
            ``load.load_document``).
        """
        return next(self.render_many([source], raster=raster))

    def render_many(self, sources: Iterable[Any], *, raster: RasterSettings) -> Iterator[Rendered]:
        """Render sources in input order (as ``Renderer.render_many``), up to ``ahead`` of them ahead of the one the
        caller is on."""
        iterator = iter(sources)
        window: deque[_Item] = deque()
        exhausted = False
        head: _Item | None = None
        try:
            while True:
                while not exhausted and len(window) <= self.ahead:
                    try:
                        source = next(iterator)
                    except StopIteration:
                        exhausted = True
                        break
                    window.append(self._submit(source, raster))
                if not window:
                    return
                head = window.popleft()
                waited = time.perf_counter()
                if head.result is None and not _isolatable(head.source):
                    head.result = render_here(head.source, raster=head.raster)
                while head.result is None:
                    self._pump(wait=True)
                result = head.result
                if result.wait_s is not None:
                    result = Rendered(
                        source=result.source,
                        document=result.document,
                        error=result.error,
                        render_s=result.render_s,
                        wait_s=time.perf_counter() - waited,
                    )
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

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- internals ---------------------------------------------------------------------------------------------

    def _submit(self, source: Any, raster: RasterSettings) -> _Item:
        item = _Item(source, raster)
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
        proc = subprocess.Popen(
            [sys.executable, "-c", WORKER_CODE, str(self.memory_limit), PACKAGE_ROOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            close_fds=True,
        )
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
        raster = item.raster
        worker.reader.max_payload = raster.max_pages * raster.max_pixels * 3
        is_path = isinstance(item.source, (str, os.PathLike))
        header = {
            "type": "job",
            "name": item.name,
            "source": os.fspath(item.source) if is_path else None,
            "cwd": _cwd(),
            "raster": raster_to_json(raster),
            "timeout": self.timeout,
        }
        worker.item = item
        worker.dispatched = time.perf_counter()
        worker.deadline = time.monotonic() + self.timeout
        self.stats.jobs += 1
        try:
            send(worker.stdin.fileno(), header, b"" if is_path else bytes(item.source))
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
            item.result = Rendered(
                source=item.source,
                error=error_type(str(header.get("message", "")), source=item.name, code=code),
                render_s=render_s,
                wait_s=0.0,
            )
        else:
            try:
                document = document_from_frame(header, payload, max_pixels=item.raster.max_pixels)
            except (ValueError, KeyError, TypeError) as exc:
                item.result = self._crash_result(
                    item, f"the rendering process sent a malformed result ({exc})", render_s
                )
                self._retire(worker)
                return
            item.result = Rendered(source=item.source, document=document, render_s=render_s, wait_s=0.0)

    def _timeout_result(self, item: _Item, render_s: float) -> Rendered:
        self.stats.timed_out += 1
        message = (
            f"{item.name}: opening and rendering took longer than the {self.timeout:g}-second limit and was "
            "stopped; raise --timeout if the file is just large"
        )
        return Rendered(
            source=item.source,
            error=WorkerError(message, source=item.name, code="timeout"),
            render_s=render_s,
            wait_s=0.0,
        )

    def _crash_result(self, item: _Item, why: str, render_s: float) -> Rendered:
        self.stats.crashed += 1
        message = f"{item.name}: {why}; the file was skipped (it may be malformed in a way that crashes the renderer)"
        return Rendered(
            source=item.source,
            error=WorkerError(message, source=item.name, code="crashed"),
            render_s=render_s,
            wait_s=0.0,
        )

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
            raise WorkerError(
                f"a render worker could not start ({_signal_name(worker.proc.returncode)}); see the messages above"
            )

    def _worker_broke(self, worker: _Worker, why: str) -> None:
        item = worker.item
        self._retire(worker)
        if item is not None:
            item.result = self._crash_result(
                item, f"the rendering process {why}", time.perf_counter() - worker.dispatched
            )

    def _retire(self, worker: _Worker, *, kill: bool = True) -> None:
        if worker in self._pool:
            self._pool.remove(worker)
        _stop_workers([worker], kill=kill)


def _stop_workers(workers: list[_Worker], *, kill: bool = False) -> None:
    """Close each worker's input (so idle ones exit), kill what is left, and reap them all."""
    for worker in workers:
        for stream in (worker.stdin, worker.stdout):
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
