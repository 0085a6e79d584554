"""The ``extract`` command: the app in ``app``, shared options in ``options``, commands in ``commands`` (``serve``
and ``worker`` in ``service``), results written by ``output``.

``main`` is the console script's entry point (``extract = "extractor.cli:main"``).
"""

from extractor.cli import learn, register, service, show_config  # noqa: F401 - register their commands on the app
from extractor.cli import mail as _mail  # noqa: F401 - registers extract mail on the app
from extractor.cli.commands import app, main

__all__ = ["app", "main"]
