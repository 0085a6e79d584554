"""The ``extract`` command: options parsed in ``commands``, the core called, results written by ``output``.

``main`` is the console script's entry point (``extract = "extractor.cli:main"``).
"""

from extractor.cli.commands import app, main

__all__ = ["app", "main"]
