"""The ``extract`` command: the app in ``app``, shared options in ``options``, commands in ``commands`` (``serve``
and ``worker`` in ``service``), results written by ``output``.

``main`` is the console script's entry point (``extract = "extractor.cli:main"``).
"""

from extractor.cli import (
    mail,  # noqa: F401 - registers extract mail on the app
    register,  # noqa: F401 - registers extract register on the app
    service,  # noqa: F401 - registers serve and worker on the app
)
from extractor.cli.commands import app, main

__all__ = ["app", "main"]
