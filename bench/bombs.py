"""Bombs and trickles (issue 50), each attack measured on this checkout's code and, with ``--before DIR``, on an
older package tree side by side in the same run:

* **nested ZIP mail**: a mail holding one ZIP of 5 ZIPs of 100 one-MiB PDFs through ``read_mail`` (default limits):
  documents, and MB of document bytes held in memory;
* **attachment bomb**: peak RSS (``/usr/bin/time -v``'s maximum resident set) of ``extract`` on a PDF whose
  ``factur-x.xml`` inflates to 300 MB, and on the same PDF without the attachment (a tiny scripted model,
  ``--max-tokens 2``, in-process rendering);
* **trickling source**: seconds ``fetch`` takes under a 5 s source timeout from a server sending one header line
  every 2 s (40 s of them);
* **trickling receiver**: seconds one webhook attempt takes (10 s deadline) against a receiver doing the same, and
  how long another tenant's webhook, due at the same moment, waits.

Usage::

    git archive BASE extractor schemas | tar -x -C /tmp/before     # the code before (and its schemas)
    python bench/bombs.py --before /tmp/before

Each measurement runs in a child process with ``PYTHONPATH`` set to the code measured.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from smoke import parse, prebuilt, smoke_option

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")
ROOT = Path(__file__).resolve().parents[1]
MB = 1e6
TRICKLE_S = 2.0  # seconds between header lines
TRICKLE_LINES = 20  # 40 s of them


def _trickler(*, post: bool) -> tuple[ThreadingHTTPServer, str]:
    """A server on loopback that answers with one header line every ``TRICKLE_S`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _trickle(self) -> None:
            if post:
                self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            for n in range(TRICKLE_LINES):
                self.send_header(f"X-Trickle-{n}", "x")
                self.flush_headers()
                time.sleep(TRICKLE_S)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = _trickle  # noqa: N815 - http.server's names

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.handle_error = lambda *args: None  # type: ignore[method-assign] # the client hangs up: expected
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def measure_zip(path: str) -> dict:
    """The nested ZIP mail through ``read_mail``."""
    from email.message import EmailMessage

    from extractor.jobs.mail.parts import parse_mail, read_mail

    msg = EmailMessage()
    msg["Subject"] = "bomb"
    msg.add_attachment(Path(path).read_bytes(), maintype="application", subtype="zip", filename="bomb.zip")
    content = read_mail(parse_mail(msg.as_bytes()), max_bytes=200 * 1024 * 1024)
    held = sum(len(p.data or b"") for p in content.documents)
    return {"documents": len(content.documents), "MB held": round(held / MB), "refused": len(content.errors)}


def measure_source(_: str) -> dict:
    """A fetch from the trickling server under a 5 s source timeout."""
    from extractor.service.sources import FetchError, SourceSettings, fetch

    server, url = _trickler(post=False)
    start = time.monotonic()
    try:
        fetch(f"{url}/doc.pdf", settings=SourceSettings(allow=("127.0.0.1",), timeout=5.0), max_bytes=1 << 20)
        said = "fetched"
    except FetchError as exc:
        said = exc.code
    seconds = time.monotonic() - start
    server.shutdown()
    return {"seconds": round(seconds, 1), "ended as": said}


def measure_receiver(folder: str) -> dict:
    """Tenant A's webhook to the trickling receiver and tenant B's to a prompt one, due together."""
    from extractor.service.config import open_store
    from extractor.service.webhooks import Deliverer, WebhookSettings

    slow, slow_url = _trickler(post=True)
    arrived: list[float] = []

    class Prompt(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers["Content-Length"]))
            arrived.append(time.monotonic())
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    fast = ThreadingHTTPServer(("127.0.0.1", 0), Prompt)
    threading.Thread(target=fast.serve_forever, daemon=True).start()
    store = open_store(f"sqlite:///{Path(folder) / 'jobs.sqlite'}")
    ids = []
    for tenant, url in (("a", f"{slow_url}/hook"), ("b", f"http://127.0.0.1:{fast.server_address[1]}/hook")):
        job, _ = store.submit(
            tenant=tenant, filename="x.pdf", data=tenant.encode(), sha256=tenant, fingerprint="f", options={},
            callback_url=url,
        )  # fmt: skip
        claimed = store.claim(lease=60)
        assert claimed is not None and store.finish(claimed, records=[{}])
        ids.append(job.id)
    deliverer = Deliverer(store=store, settings=WebhookSettings(secret="s", allow=("127.0.0.1",), tries=1), idle=0.05)
    start = time.monotonic()
    deliverer.start()
    while (store.get(ids[0]).callback_state == "pending" or not arrived) and time.monotonic() - start < 120:
        time.sleep(0.05)
    attempt = time.monotonic() - start
    deliverer.stop(timeout=0.1)
    slow.shutdown()
    fast.shutdown()
    return {"attempt s": round(attempt, 1), "other tenant waited s": round(arrived[0] - start, 1) if arrived else None}


MEASURES = {"zip": measure_zip, "source": measure_source, "receiver": measure_receiver}


def child(code: Path, name: str, argument: str) -> dict:
    """One measurement in a child process on ``code``'s package."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(
        [sys.executable, __file__, "--measure", name, argument, str(code)], env=env, capture_output=True, text=True
    )
    if done.returncode:
        return {"failed": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}
    return json.loads(done.stdout.strip().splitlines()[-1])


def peak_rss(code: Path, *, pdf: Path, model: Path, out: Path) -> dict:
    """``extract`` on one PDF: its peak RSS (MB) and the record's embedded_unreadable warning, if any."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "extractor.cli", str(pdf), "--model", str(model)]
    command += ["--out", str(out), "--max-tokens", "2", "--no-constrained", "--no-isolate"]
    env = {**os.environ, "PYTHONPATH": str(code)}  # run from the work folder: ``-m`` puts the cwd first on the path
    done = subprocess.run(command, env=env, cwd=out.parent, capture_output=True, text=True)
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    record = json.loads((out / f"{pdf.stem}.json").read_text(encoding="utf-8"))
    warned = [w["message"] for w in record.get("warnings", []) if w["code"] == "embedded_unreadable"]
    return {"RSS MB": round(int(found.group(1)) * 1024 / MB) if found else None, "warning": warned[0] if warned else ""}


def main() -> int:
    """Build the hostile files once, measure every attack on each code tree, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="an older package tree (the folder holding extractor/)")
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--inflates-mb", type=int, default=300, help="what the attachment bomb inflates to (MB)")
    smoke_option(parser, inflates_mb=40)  # still past the 32 MiB attachment limit
    args = parse(parser)
    if args.measure:
        name, argument, code = args.measure
        import extractor

        assert Path(extractor.__file__).parents[1] == Path(code).resolve(), extractor.__file__  # the code measured
        print(json.dumps(MEASURES[name](argument)))
        return 0
    sys.path.insert(0, str(ROOT))
    from extractor.testing import SAMPLE_INVOICE_ANSWER, build_scripted_model
    from extractor.testing.bombs import bomb_pdf, nested_zip

    work = Path(tempfile.mkdtemp(prefix="bench-bombs-"))
    (work / "bomb.zip").write_bytes(nested_zip())
    (work / "bomb.pdf").write_bytes(bomb_pdf(args.inflates_mb * 10**6, declared=None))
    (work / "plain.pdf").write_bytes(bomb_pdf(args.inflates_mb * 10**6, declared=None, attachment=False))
    model = prebuilt("sample") or build_scripted_model(work / "model", answer=SAMPLE_INVOICE_ANSWER).path
    trees = {"before": args.before, "now": ROOT} if args.before else {"now": ROOT}
    sizes = {name: os.path.getsize(work / name) / 1e3 for name in ("bomb.pdf", "bomb.zip")}
    print(", ".join(f"{name} {size:.0f} KB" for name, size in sizes.items()))
    for label, code in trees.items():
        runs = work / label
        runs.mkdir()
        rows = {
            "nested ZIP mail": child(code, "zip", str(work / "bomb.zip")),
            "attachment bomb": peak_rss(code, pdf=work / "bomb.pdf", model=model, out=runs / "bomb"),
            "same PDF without it": peak_rss(code, pdf=work / "plain.pdf", model=model, out=runs / "plain"),
            "trickling source (--source-timeout 5)": child(code, "source", ""),
            "trickling receiver (10 s) + tenant B": child(code, "receiver", str(runs)),
        }
        print(f"\n{label}: {code}\n\n| attack | measured |\n|---|---|")
        for attack, numbers in rows.items():
            print(f"| {attack} | " + ", ".join(f"{k}: {v}" for k, v in numbers.items()) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
