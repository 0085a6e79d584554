"""``extract doctor``: check a model directory's stop configuration (and fix it), or a running server.

The stop-set fix lives in files users convert and re-convert themselves, so a re-converted model silently brings the
never-stopping bug back. ``run_doctor`` runs, in order: the fix (``--fix``, :mod:`extractor.tools.doctor.fix`), the
six static checks of the directory's files (:mod:`extractor.tools.doctor.files`) and the live smoke test
(``--smoke``, :mod:`extractor.tools.doctor.smoke`); ``run_endpoint_doctor`` checks an inference server
(``--endpoint URL``). Both collect the findings in a :class:`DoctorReport`, which the CLI prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from extractor.runners.modelfiles import resolve_model_dir
from extractor.tools.doctor.files import Check, run_checks
from extractor.tools.doctor.fix import fix_generation_config
from extractor.tools.doctor.smoke import DEFAULT_SMOKE_TOKENS, endpoint_checks, smoke_check


@dataclass(frozen=True)
class DoctorReport:
    """The doctor's findings for one model directory (or one inference server).

    Attributes:
        model_dir: the directory checked (for a server: its URL).
        checks: the fix (when asked), the six checks, the smoke test (when asked), in that order; for a server:
            the endpoint check, then the smoke checks.
    """

    model_dir: Path | str
    checks: tuple[Check, ...]

    @property
    def failed(self) -> bool:
        """True when any check failed."""
        return any(c.status == "fail" for c in self.checks)

    def to_list(self) -> list[dict]:
        """Return the checks as a JSON-ready list of dicts."""
        return [c.to_dict() for c in self.checks]


def run_doctor(
    model: str, *, fix: bool = False, smoke: bool = False, smoke_tokens: int = DEFAULT_SMOKE_TOKENS
) -> DoctorReport:
    """Diagnose (and optionally fix and smoke-test) a model directory or a cached hub id.

    Args:
        model: a local directory or a hub id already in the local Hugging Face cache.
        fix: rewrite generation_config.json's ``eos_token_id`` first, then check.
        smoke: also run one short real generation (loads the model with mlx-vlm).
        smoke_tokens: the smoke test's ``max_tokens``.

    Returns:
        The DoctorReport.

    Raises:
        ModelError: the model cannot be found, fixed or (with ``smoke``) loaded.
    """
    model_dir = resolve_model_dir(model)
    checks: list[Check] = []
    if fix:
        checks.append(fix_generation_config(model_dir).to_check())
    checks.extend(run_checks(model_dir))
    if smoke:
        checks.append(smoke_check(model_dir, max_tokens=smoke_tokens))
    return DoctorReport(model_dir=model_dir, checks=tuple(checks))


def run_endpoint_doctor(
    url: str,
    *,
    model: str | None = None,
    server_kind: str | None = None,
    api_key: str | None = None,
    smoke_tokens: int = DEFAULT_SMOKE_TOKENS,
) -> DoctorReport:
    """Check a running OpenAI-compatible server (``endpoint_checks``) and collect the findings.

    Args:
        url: the endpoint.
        model: the served model to check; None: the only one served.
        server_kind: a kind of ``runners.openai.wire.KINDS``; None: detected.
        api_key: the bearer token, if the server wants one.
        smoke_tokens: ``max_tokens`` of the smoke requests.

    Returns:
        The DoctorReport, named by the URL.
    """
    checks = endpoint_checks(url, model=model, server_kind=server_kind, api_key=api_key, smoke_tokens=smoke_tokens)
    return DoctorReport(model_dir=url, checks=checks)


__all__ = ["DoctorReport", "run_doctor", "run_endpoint_doctor"]
