"""Find the files to process (``expand_inputs``: paths, directories and glob patterns as typed) and name them in
records and messages (``display_name``).

Decisions, in one place:

* **What a directory gives**: its supported files by suffix (``SUPPORTED_SUFFIXES``, case-insensitive), top level
  only, hidden ones skipped, sorted by name; a ``**`` pattern recurses. The suffix only chooses files here: loading
  reads the content for what it is (``load``).
* **Patterns** are expanded here, like a shell would, so Windows and quoted patterns work; one matching nothing is
  kept as a path and later becomes a ``not_found`` record. The same file named twice is kept once.
* **Names** are the path as given, except bytes that are not UTF-8, shown as ``\\xNN``.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from pathlib import Path

SUPPORTED_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")


def expand_inputs(inputs: Sequence[str]) -> list[Path]:
    """Expand command-line inputs into the files to process.

    * an existing path is taken literally (even if its name contains ``*?[``);
    * a directory gives its supported files (by suffix, case-insensitive), top level only, hidden ones skipped,
      sorted by name; use a ``**`` pattern to recurse;
    * a glob pattern (``*``, ``?``, ``[``) is expanded here, like a shell would (for Windows and quoted patterns):
      every match, sorted, directories among them expanded as above; a pattern matching nothing is kept as a path,
      so it later becomes a ``not_found`` record.

    The same file named twice is kept once (first occurrence).

    Args:
        inputs: paths, directories and patterns as typed.

    Returns:
        The files, in order.
    """
    out: list[Path] = []
    seen: set[str] = set()
    for raw in inputs:
        for path in _expand_one(os.fspath(raw)):
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out


def _expand_one(raw: str) -> list[Path]:
    path = Path(raw)
    exists, is_dir = _probe(path)
    if exists or not any(c in raw for c in "*?["):
        return _dir_files(path) if is_dir else [path]
    matches = [Path(m) for m in sorted(glob.glob(raw, recursive=True))]
    if not matches:
        return [path]
    return [f for m in matches for f in (_dir_files(m) if _probe(m)[1] else [m])]


def _probe(path: Path) -> tuple[bool, bool]:
    """Return (exists, is a directory); odd names (too long, NUL) count as missing, for loading to report."""
    try:
        return path.exists(), path.is_dir()
    except (OSError, ValueError):
        return False, False


def _dir_files(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return [folder]  # becomes an ``unreadable`` record when loaded
    return [p for p in entries if not p.name.startswith(".") and p.suffix.lower() in SUPPORTED_SUFFIXES and p.is_file()]


def display_name(path: str | os.PathLike) -> str:
    """Return how a path is named in records and messages: as given, except bytes that are not UTF-8.

    On POSIX a file name may be any bytes; Python keeps the undecodable ones as lone surrogates, which UTF-8 JSON,
    CSV and terminals cannot carry. Those bytes are shown as ``\\xNN`` instead.

    Args:
        path: the path as given.

    Returns:
        The name, always encodable as UTF-8.
    """
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", "backslashreplace")
    return text
