"""Find the files to process (``find_inputs`` / ``expand_inputs``: paths, directories and glob patterns as typed) and
name them in records and messages (``display_name``).

Decisions, in one place:

* **What a directory gives**: its supported files by suffix (``SUPPORTED_SUFFIXES``, case-insensitive), top level
  only, hidden ones skipped, sorted by name; a ``**`` pattern recurses. The suffix only chooses files here: loading
  reads the content for what it is (``load``). An ``.xml`` file met in a directory or a pattern is taken when its
  root element is an e-invoice's (``EINVOICE_ROOTS``, read from its first bytes), and skipped with a note otherwise
  (``Found.skipped``); one named explicitly is always taken, and gets a record saying what it is.
* **Patterns** are expanded here, like a shell would, so Windows and quoted patterns work; one matching nothing is
  kept as a path and later becomes a ``not_found`` record. The same file named twice is kept once.
* **Names** are the path as given, except bytes that are not UTF-8, shown as ``\\xNN``.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from extractor.inputs.xmlhead import xml_head

SUPPORTED_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".xml")
# root elements of e-invoice XML (CII D16B, ZUGFeRD 1, UBL 2.1); einvoice.receive checks their namespaces
EINVOICE_ROOTS = ("CrossIndustryInvoice", "CrossIndustryDocument", "Invoice", "CreditNote")
SNIFF_BYTES = 8192  # an e-invoice's root element comes after its declaration and comments, well within this


@dataclass(frozen=True)
class Found:
    """The files to process, and those met in a directory or pattern but skipped.

    Attributes:
        paths: the files, in order.
        skipped: ``(name, why)`` for each ``.xml`` file met in a directory or a pattern that is no e-invoice.
    """

    paths: tuple[Path, ...]
    skipped: tuple[tuple[str, str], ...] = ()


def find_inputs(inputs: Sequence[str]) -> Found:
    """Expand command-line inputs into the files to process (as ``expand_inputs``), and say which ``.xml`` files met
    in a directory or a pattern were skipped as no e-invoice."""
    out: list[Path] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for raw in inputs:
        for path, explicit in _expand_one(os.fspath(raw)):
            key = os.path.normcase(os.path.abspath(path))
            if key in seen:
                continue
            seen.add(key)
            why = None if explicit else _not_an_einvoice(path)
            if why is None:
                out.append(path)
            else:
                skipped.append((display_name(path), why))
    return Found(paths=tuple(out), skipped=tuple(skipped))


def expand_inputs(inputs: Sequence[str]) -> list[Path]:
    """Expand command-line inputs into the files to process.

    * an existing path is taken literally (even if its name contains ``*?[``);
    * a directory gives its supported files (by suffix, case-insensitive), top level only, hidden ones skipped,
      sorted by name; use a ``**`` pattern to recurse;
    * a glob pattern (``*``, ``?``, ``[``) is expanded here, like a shell would (for Windows and quoted patterns):
      every match, sorted, directories among them expanded as above; a pattern matching nothing is kept as a path,
      so it later becomes a ``not_found`` record;
    * an ``.xml`` file met in a directory or a pattern is left out unless it is an e-invoice (``find_inputs`` says
      which were left out, and why).

    The same file named twice is kept once (first occurrence).

    Args:
        inputs: paths, directories and patterns as typed.

    Returns:
        The files, in order.
    """
    return list(find_inputs(inputs).paths)


def _expand_one(raw: str) -> list[tuple[Path, bool]]:
    """The files one input names, each with whether it was named explicitly (not met in a directory or pattern)."""
    path = Path(raw)
    exists, is_dir = _probe(path)
    if exists or not any(c in raw for c in "*?["):
        return [(f, False) for f in _dir_files(path)] if is_dir else [(path, True)]
    matches = [Path(m) for m in sorted(glob.glob(raw, recursive=True))]
    if not matches:
        return [(path, True)]
    return [(f, False) for m in matches for f in (_dir_files(m) if _probe(m)[1] else [m])]


def _not_an_einvoice(path: Path) -> str | None:
    """Why an ``.xml`` file met in a directory is skipped (its root element is no e-invoice's), or None."""
    if path.suffix.lower() != ".xml":
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return None  # taken: loading names why it cannot be read
    root = xml_head(head).root
    if not root:
        return "not an e-invoice: no XML root element in its first bytes"
    return None if root in EINVOICE_ROOTS else f"not an e-invoice: its root element is {root}"


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
        return [folder]  # becomes an ``unreadable`` record when loaded (not an .xml: never skipped)
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
