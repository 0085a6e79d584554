"""Bench: ``extract mail`` through a real Dovecot against ``extract watch`` over the same files.

One command, one table::

    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 python bench/mail.py [--mails 200] [--repeat 2]

The documents are the Factur-X / ZUGFeRD invoices of ``../shared/corpus/invoices/zugferd-corpus`` whose embedded XML
is the answer (no generation: what is measured is the intake around the same core), each copy made distinct by a
trailing PDF comment, one attachment per mail. One Extractor (a random-weight tiny qwen3_5; loaded once, not timed)
serves both rows, in this process. Rows:

* ``extract watch``: the N files dropped in an inbox, ``watch(once=True, settle=0)``: documents/min over the run;
* ``extract mail``: the N mails put in a private Dovecot (``extractor.testing.dovecot``) with IMAP APPEND first,
  then ``mail(once=True)``: documents/min over the run, and its ratio to watch (the median of the rounds' ratios,
  the two rows of a round measured back to back; target: 0.9x or more);
* ``APPEND -> record``: ``extract mail`` waiting in IDLE while ``--latency`` mails are appended one at a time,
  ``--gap`` seconds apart: p50 / p95 / max seconds from the APPEND's start to the record's write.
"""

from __future__ import annotations

import argparse
import email.message
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MLX_DISABLE_COMPILE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from smoke import parse, prebuilt, smoke_option  # noqa: E402  (bench/ is the script's folder)

CORPUS = ROOT.parent / "shared" / "corpus" / "invoices" / "zugferd-corpus"


def invoices() -> list[tuple[str, bytes]]:
    """The corpus's invoices read from their embedded XML (Facture_UE_MINIMUM lacks required fields)."""
    paths = [p for p in sorted(CORPUS.glob("v2_*.pdf")) if "Facture_UE_MINIMUM" not in p.name]
    if not paths:
        raise SystemExit(f"no invoices in {CORPUS} (../shared is needed)")
    return [(p.name, p.read_bytes()) for p in paths]


def documents(n: int, round_: int) -> list[tuple[str, bytes]]:
    """N distinct documents (a trailing comment per copy: a new sha256, the same invoice)."""
    base = invoices()
    return [
        (f"doc{i:03d}-{base[i % len(base)][0]}", base[i % len(base)][1] + f"\n%bench {round_} {i}\n".encode())
        for i in range(n)
    ]


def mail_of(name: str, data: bytes, i: int) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"] = "billing@supplier.com"
    msg["To"] = "ap@example.com"
    msg["Subject"] = f"Invoice {i}"
    msg["Message-ID"] = f"<bench-{i}-{time.time_ns()}@supplier.com>"
    msg.set_content("Please find our invoice attached.")
    msg.add_attachment(data, maintype="application", subtype="pdf", filename=name)
    return msg.as_bytes()


def watch_rate(extractor, docs: list[tuple[str, bytes]], work: Path) -> float:
    from extractor.jobs.watch import WatchSettings, watch

    inbox, out = work / "inbox", work / "watch-out"
    inbox.mkdir(parents=True)
    for name, data in docs:
        (inbox / name).write_bytes(data)
    start = time.perf_counter()
    summary = watch(inbox, out, extractor=extractor, settings=WatchSettings(once=True, settle=0.0))
    elapsed = time.perf_counter() - start
    assert summary.extracted == len(docs), summary
    return len(docs) * 60.0 / elapsed


def mail_rate(extractor, server, docs: list[tuple[str, bytes]], work: Path, folder: str) -> float:
    from extractor.jobs.mail import Credentials, MailSettings, mail
    from extractor.testing.dovecot import PASSWORD

    client = server.client()
    try:
        client.create_folder(folder)
        for i, (name, data) in enumerate(docs):
            client.append(folder, mail_of(name, data, i))
    finally:
        client.logout()
    start = time.perf_counter()
    summary = mail(
        server.url(folder),
        work / "mail-out",
        extractor=extractor,
        credentials=Credentials(password=PASSWORD),
        settings=MailSettings(once=True),
    )
    elapsed = time.perf_counter() - start
    assert summary.extracted == len(docs), summary
    return len(docs) * 60.0 / elapsed


def latencies(extractor, server, docs: list[tuple[str, bytes]], work: Path, gap: float) -> list[float]:
    """Seconds from each APPEND's start to its record, with ``extract mail`` waiting in IDLE."""
    from extractor.jobs.mail import Credentials, MailSettings, mail
    from extractor.testing.dovecot import PASSWORD

    folder = "latency"
    server.append(b"Subject: start\r\n\r\nhello\r\n", folder=folder)  # makes the folder; skipped
    written: dict[str, float] = {}
    stop = threading.Event()
    thread = threading.Thread(
        target=mail,
        args=(server.url(folder), work / "latency-out"),
        kwargs=dict(
            extractor=extractor,
            credentials=Credentials(password=PASSWORD),
            settings=MailSettings(),
            on_record=lambda r: written.setdefault(r.extra["mail"]["subject"], time.perf_counter()),
            stop_event=stop,
        ),
        daemon=True,
    )
    thread.start()
    time.sleep(2.0)  # connected, the first mail skipped, in IDLE
    sent = {}
    try:
        for i, (name, data) in enumerate(docs):
            raw = mail_of(name, data, i)
            sent[f"Invoice {i}"] = time.perf_counter()
            server.append(raw, folder=folder)
            deadline = time.perf_counter() + 60
            while f"Invoice {i}" not in written and time.perf_counter() < deadline:
                time.sleep(0.005)
            time.sleep(gap)
    finally:
        stop.set()
        thread.join(60)
    return [written[s] - sent[s] for s in sent if s in written]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--latency", type=int, default=20, help="mails appended one at a time for the latency row")
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between those mails")
    parser.add_argument("--json", action="store_true")
    smoke_option(parser, mails=2, repeat=1, latency=1, gap=0.0)
    args = parse(parser)

    from extractor import Extractor, Settings
    from extractor.testing import build_random_model
    from extractor.testing.dovecot import Dovecot

    work = Path(tempfile.mkdtemp(prefix="bench-mail-"))
    model = prebuilt("random") or build_random_model(work / "model").path
    settings = Settings(model=str(model), max_tokens=4, embedded_rules=False, isolate=False)
    rows: dict[str, list[float]] = {"watch": [], "mail": [], "ratio": []}
    try:
        with Extractor(settings) as extractor, Dovecot() as server:
            for round_ in range(args.repeat):
                docs = documents(args.mails, round_)
                here = work / f"round{round_}"
                if round_ % 2:  # every other round mail first: neither row always runs on a warmer machine
                    mailed = mail_rate(extractor, server, docs, here, f"bench{round_}")
                    watch = watch_rate(extractor, docs, here)
                else:
                    watch = watch_rate(extractor, docs, here)
                    mailed = mail_rate(extractor, server, docs, here, f"bench{round_}")
                rows["watch"].append(watch)
                rows["mail"].append(mailed)
                rows["ratio"].append(mailed / watch)
            waits = latencies(extractor, server, documents(args.latency, 99), work, args.gap)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {
        "mails": args.mails,
        "rounds": args.repeat,
        "watch_docs_per_min": statistics.median(rows["watch"]),
        "mail_docs_per_min": statistics.median(rows["mail"]),
        "ratio": statistics.median(rows["ratio"]),
        "round_ratios": rows["ratio"],
        "append_to_record_s": {
            "n": len(waits),
            "p50": quantile(waits, 0.5),
            "p95": quantile(waits, 0.95),
            "max": max(waits),
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["append_to_record_s"]
    rounds = ", ".join(f"{r:.2f}x" for r in rows["ratio"])
    print(f"{args.mails} documents, {args.repeat} rounds (medians; the rounds' ratios: {rounds})\n")
    print("| row | documents/min | ratio to watch | APPEND -> record p50 / p95 / max |")
    print("|---|---|---|---|")
    print(f"| extract watch | {result['watch_docs_per_min']:.0f} | 1.00x | |")
    print(f"| extract mail (Dovecot, IMAP) | {result['mail_docs_per_min']:.0f} | {result['ratio']:.2f}x | |")
    print(
        f"| extract mail in IDLE ({lat['n']} mails, {args.gap:g} s apart) | | | "
        f"{lat['p50']:.2f} / {lat['p95']:.2f} / {lat['max']:.2f} s |"
    )


if __name__ == "__main__":
    main()
