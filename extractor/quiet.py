"""Keep third-party chatter out of users' output: notes that say nothing about their documents (transformers'
"PyTorch was not found", its advisory and deprecation warnings, tokenizers' fork notice) are shown with
``extract --verbose`` only.

Environment variables, set only where the user has not set them, so the render workers and model servers we start
inherit the same choice; ``--verbose`` sets them to show everything.
"""

from __future__ import annotations

import os
import warnings

QUIET_ENV = {
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",  # "PyTorch was not found ..." and other advice
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",  # its fork warning in render workers
}
VERBOSE_ENV = {"TRANSFORMERS_NO_ADVISORY_WARNINGS": "", "TRANSFORMERS_VERBOSITY": "info"}
QUIET_MODULES = ("transformers", "huggingface_hub", "mlx_vlm", "tokenizers")


def quiet_imports() -> None:
    """Silence third-party notes before mlx-vlm / transformers are imported (a user's own settings win)."""
    for name, value in QUIET_ENV.items():
        os.environ.setdefault(name, value)
    for module in QUIET_MODULES:
        warnings.filterwarnings("ignore", module=module)


def configure(*, verbose: bool) -> None:
    """The command line's choice: everything with ``--verbose``, else the quiet defaults."""
    if verbose:
        os.environ.update(VERBOSE_ENV)
        return
    quiet_imports()
