"""Where a long-running job's records go besides OUT (``extractor.jobs.feeds``): the ``--jsonl`` log's torn-line
repair and tail dedupe, the record key, the hook run. The watcher and mail reader using them: tests/test_watch.py,
tests/test_mail.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from extractor.errors import UsageError
from extractor.jobs.feeds import FeedSettings, run_hook
from extractor.jobs.sinks import JsonlWriter, record_key, repair_torn_line, tail_keys
from extractor.record import Record

SHA_A, SHA_B = "a" * 64, "b" * 64
MAIL = {"mailbox": "ap@example.com", "folder": "INBOX", "uidvalidity": 7, "uid": 3}


def record(sha: str = SHA_A, *, seconds: float = 1.0, **extra) -> Record:
    return Record(source=f"/inbox/{sha[:4]}.pdf", status="ok", sha256=sha, timings={"total_s": seconds}, extra=extra)


def line(rec: Record) -> bytes:
    return (rec.to_json(indent=None) + "\n").encode("utf-8")


def part(index: int, of: int = 2) -> dict:
    return {"index": index, "of": of, "pages": [index, index]}


def mail(index: int, member: str | None = None) -> dict:
    return {**MAIL, "attachment": {"name": "x.pdf", "index": index, "member": member}}


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", b""),
        (b"[1]\n", b"[1]\n"),
        (b"[1]\n[2]\n", b"[1]\n[2]\n"),
        (b"[1]\n[2", b"[1]\n"),
        (b"[1", b""),
        (b"[1]\n" + b"x" * 200_000, b"[1]\n"),  # torn over several read chunks
        (b"x" * 200_000, b""),
    ],
)
def test_a_torn_last_line_is_cut_back_to_the_last_newline(tmp_path, data, expected):
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDWR)
    try:
        assert repair_torn_line(fd) == len(data) - len(expected)
    finally:
        os.close(fd)
    assert path.read_bytes() == expected


WATCH_A, WATCH_B = record(SHA_A), record(SHA_B)


@pytest.mark.parametrize(
    "before, new, appended",
    [
        ([], WATCH_A, True),
        ([WATCH_A], record(SHA_A, seconds=9.0), False),  # a redo: other timings, same document: the first line kept
        ([WATCH_A, WATCH_B], record(SHA_A, seconds=9.0), False),  # not the last line, still among the last
        ([WATCH_B], WATCH_A, True),
        ([record(part=part(1))], record(part=part(2)), True),  # another invoice of the same file
        ([record(part=part(1)), record(part=part(2))], record(part=part(2), seconds=5.0), False),
        ([record(mail=mail(1))], record(mail=mail(2)), True),  # the same content in another attachment slot
        ([record(mail=mail(1))], record(mail=mail(1), seconds=3.0), False),
        ([record(mail=mail(1, "a.pdf"))], record(mail=mail(1, "b.pdf")), True),  # another ZIP member
    ],
)
def test_a_record_already_among_the_last_lines_is_not_appended_again(tmp_path, before, new, appended):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(line(r) for r in before))
    log = JsonlWriter(path)
    try:
        assert log.append(new, key=record_key(new.to_dict())) is appended
    finally:
        log.close()
    expected = [*before, new] if appended else before
    assert path.read_bytes() == b"".join(line(r) for r in expected)


def test_the_log_appends_across_runs_and_repairs_a_torn_line_first(tmp_path):
    path = tmp_path / "sub" / "log.jsonl"
    log = JsonlWriter(path)
    assert log.append(WATCH_A, key=record_key(WATCH_A.to_dict()))
    log.close()
    with open(path, "ab") as handle:  # a kill in the middle of a line (a full disk, a power cut)
        handle.write(line(WATCH_B)[:20])
    log = JsonlWriter(path)
    assert log.repaired == 20
    assert log.append(WATCH_B, key=record_key(WATCH_B.to_dict()))  # the torn line stood for no record
    assert not log.append(WATCH_A, key=record_key(WATCH_A.to_dict()))
    log.close()
    assert path.read_bytes() == line(WATCH_A) + line(WATCH_B)


@pytest.mark.parametrize(
    "lines, limit, keys",
    [
        ([b"[1]", b"not json", b'{"sha256": "x"}'], 10, ["x"]),  # lines that stand for no record are skipped
        ([b'{"sha256": "1"}', b'{"sha256": "2"}', b'{"sha256": "3"}'], 2, ["2", "3"]),  # only the last ones
    ],
)
def test_tail_keys_reads_the_last_lines_only(tmp_path, lines, limit, keys):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    fd = os.open(path, os.O_RDONLY)
    try:
        assert tail_keys(fd, lines=limit) == keys
        assert tail_keys(fd, lines=limit, max_bytes=len(lines[-1]) + 2) == keys[-1:]  # a cut first line dropped
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    "data, key",
    [
        ({"sha256": SHA_A, "timings": {"total_s": 1}}, SHA_A),
        ({"sha256": SHA_A, "part": part(2, 3)}, f"{SHA_A}/part-2-of-3"),
        ({"sha256": SHA_A, "mail": mail(4)}, f"{SHA_A}/mail/ap@example.com/INBOX/7/3/4"),
        ({"sha256": "", "mail": mail(5, "in/b.pdf")}, "-/mail/ap@example.com/INBOX/7/3/5/in/b.pdf"),
    ],
)
def test_record_keys(data, key):
    assert record_key(data) == key


def script(tmp_path: Path, name: str, body: str) -> tuple[str, ...]:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, os, sys, time\n" + body, encoding="utf-8")
    return (sys.executable, str(path))


def test_the_hook_gets_the_record_on_stdin_and_its_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("EXTRACT_MAIL_PASSWORD", "secret")  # the job's own: not passed on
    seen = tmp_path / "seen.json"
    hook = script(
        tmp_path,
        "hook",
        f"env = {{k: v for k, v in os.environ.items() if k.startswith('EXTRACT_')}}\n"
        f"open({str(seen)!r}, 'w').write(json.dumps({{'env': env, 'stdin': sys.stdin.read()}}))\n",
    )
    rec = record(part=part(1))
    assert run_hook(hook, rec, path=tmp_path / "r.json", key="k1", timeout=30) is None
    got = json.loads(seen.read_text())
    assert got["stdin"] == rec.to_json(indent=None)
    assert got["env"] == {
        "EXTRACT_RECORD": str(tmp_path / "r.json"),
        "EXTRACT_STATUS": "ok",
        "EXTRACT_SOURCE": rec.source,
        "EXTRACT_SHA256": SHA_A,
        "EXTRACT_RECORD_KEY": "k1",
    }


@pytest.mark.parametrize(
    "body, failure",
    [
        ("sys.stderr.write('first\\nno route to host\\n'); sys.exit(3)", "exit code 3; stderr: no route to host"),
        ("sys.exit(1)", "exit code 1"),
        ("sys.stderr.write('slow\\n'); sys.stderr.flush(); time.sleep(60)", "timed out after 0.5 s; stderr: slow"),
    ],
)
def test_a_failing_hook_says_why(tmp_path, body, failure):
    assert run_hook(script(tmp_path, "hook", body), record(), path=tmp_path / "r.json", key="k", timeout=0.5) == failure


@pytest.mark.parametrize(
    "options, message",
    [
        ({"hook": "no-such-command-anywhere --x"}, "--hook no-such-command-anywhere: command not found on PATH"),
        ({"hook": ("/no/such/hook",)}, "--hook /no/such/hook: no such executable file"),
        ({"hook": "a 'b"}, "No closing quotation"),
        ({"hook_timeout": 0}, "--hook-timeout must be a positive number"),
    ],
)
def test_bad_feed_settings_are_usage_errors(options, message):
    with pytest.raises(UsageError, match=message):
        FeedSettings(**options)


def test_feed_settings_split_a_hook_line_and_refuse_a_folder_as_the_log(tmp_path):
    assert FeedSettings(hook=f"{sys.executable} -c 'pass'").hook == (sys.executable, "-c", "pass")
    with pytest.raises(UsageError, match="is a folder"):
        FeedSettings(jsonl=tmp_path)
