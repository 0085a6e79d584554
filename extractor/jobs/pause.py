"""Test pauses: hold a process at an exact step, so kill -9 tests can interrupt it there (not the user's ``--hook``).

``pause_at(ENV, step)`` does nothing unless the environment variable ``ENV`` is ``STEP:FILE`` with this step: then
it touches FILE (the test waits for it) and hangs until killed. Unset, it costs one environment lookup.
Used by the intake core (``jobs.intake.document``, under each source's variable: ``EXTRACTOR_WATCH_TEST_PAUSE``,
``EXTRACTOR_MAIL_TEST_PAUSE``), the batch (``EXTRACTOR_BATCH_TEST_PAUSE``) and the service.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def pause_at(env: str, step: str) -> None:
    """Touch the marker file and hang when ``os.environ[env]`` names this step (see the module docstring)."""
    spec = os.environ.get(env)
    if spec and spec.partition(":")[0] == step:
        Path(spec.partition(":")[2]).touch()
        while True:
            time.sleep(3600)
