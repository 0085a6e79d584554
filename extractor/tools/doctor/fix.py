"""``extract doctor MODEL --fix``: rewrite generation_config.json so its ``eos_token_id`` is the full list of end
tokens (``stopset.fix_eos_list``), keeping every other key, backing the original up once, writing atomically and
changing nothing when the file is already right. The doctor then re-runs its checks
(:mod:`extractor.tools.doctor.files`) on the fixed directory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from extractor.errors import ModelError
from extractor.runners.modelfiles import GENERATION_CONFIG
from extractor.tools.doctor.files import Check
from extractor.tools.doctor.stopset import fix_eos_list, id_conflicts, read_facts

BACKUP_SUFFIX = ".bak"


@dataclass(frozen=True)
class FixResult:
    """What ``--fix`` did.

    Attributes:
        path: generation_config.json.
        changed: whether the file was (re)written.
        created: whether it did not exist before.
        backup: the backup written now, or None (nothing to back up, or a backup already existed).
        before: the ``eos_token_id`` before (None when missing).
        after: the ``eos_token_id`` after.
    """

    path: Path
    changed: bool
    created: bool
    backup: Path | None
    before: object
    after: list

    def to_check(self) -> Check:
        """Describe the fix as a ``Check`` named ``fix`` (for the same table / JSON list)."""
        if not self.changed:
            return Check(
                "fix", "pass", f"nothing to change: eos_token_id is {json.dumps(self.after)}", GENERATION_CONFIG
            )
        if self.created:
            return Check(
                "fix",
                "pass",
                f"created {GENERATION_CONFIG} with eos_token_id {json.dumps(self.after)}",
                GENERATION_CONFIG,
            )
        backup = f"; original backed up to {self.backup.name}" if self.backup else ""
        return Check(
            "fix",
            "pass",
            f"rewrote {GENERATION_CONFIG}: eos_token_id {json.dumps(self.before)} -> {json.dumps(self.after)}{backup}",
            GENERATION_CONFIG,
        )


def fix_generation_config(model_dir: Path) -> FixResult:
    """Make generation_config.json's ``eos_token_id`` the full list of end tokens.

    Every other key is kept; the original is copied to ``generation_config.json.bak`` the first time (an existing
    backup is never overwritten); the write is atomic; a file that is already right is not touched.

    Args:
        model_dir: the model directory.

    Returns:
        The FixResult.

    Raises:
        ModelError: generation_config.json is unreadable, or the directory cannot be written.
    """
    from extractor.jobs.sinks import write_atomic

    facts = read_facts(model_dir)
    path = model_dir / GENERATION_CONFIG
    if GENERATION_CONFIG in facts.errors:
        raise ModelError(
            f"cannot fix {GENERATION_CONFIG}: {facts.errors[GENERATION_CONFIG]} "
            f"(repair or delete it, then run --fix again)",
            source=path,
        )
    conflicts = id_conflicts(facts)
    if conflicts:
        # which id the model really ends on is unknowable from files that contradict each other
        raise ModelError(
            f"cannot fix {GENERATION_CONFIG}: the tokenizer files disagree ({'; '.join(conflicts)}); "
            f"make them agree first",
            source=model_dir,
        )
    target = fix_eos_list(facts)
    if not target:
        raise ModelError(
            "cannot fix: no end token is declared anywhere (config.json, tokenizer, chat template)", source=model_dir
        )
    before = (facts.generation or {}).get("eos_token_id") if facts.generation_exists else None
    if facts.generation_exists and before == target:
        return FixResult(path=path, changed=False, created=False, backup=None, before=before, after=target)
    data = dict(facts.generation or {})
    data["eos_token_id"] = target  # keeps the key's position when it existed
    backup = None
    try:
        # write_atomic's temp file is private (0600); model files are meant to be readable like their siblings
        mode = _file_mode(path if facts.generation_exists else model_dir / "config.json")
        if facts.generation_exists:
            bak = model_dir / (GENERATION_CONFIG + BACKUP_SUFFIX)
            if not bak.exists():
                write_atomic(bak, path.read_bytes())
                bak.chmod(mode)
                backup = bak
        write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        path.chmod(mode)
    except OSError as exc:
        raise ModelError(f"cannot write {GENERATION_CONFIG}: {exc}", source=path) from exc
    return FixResult(
        path=path, changed=True, created=not facts.generation_exists, backup=backup, before=before, after=target
    )


def _file_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o644


__all__ = ["BACKUP_SUFFIX", "FixResult", "fix_generation_config"]
