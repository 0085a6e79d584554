"""The ``extract`` command: shared options in ``options``, commands in ``commands``, results written by ``output``.

``main`` is the console script's entry point (``extract = "extractor.cli:main"``).
"""

from extractor.cli.commands import app, main

__all__ = ["app", "main"]
