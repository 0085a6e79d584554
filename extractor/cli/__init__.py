"""The ``extract`` command. ``app`` holds the typer app and how errors become exit codes; each command module
registers its commands on it: ``commands`` (run, watch, status, review, eval, doctor, einvoice …), ``mail``,
``service`` (serve, worker), ``register``, ``learn`` (learn, layouts) and ``show_config`` (config). Shared options
live in ``options`` (the extraction options, ``option_group``) and ``groups`` (the other shared groups), the
configuration file in ``configfile``, and every result is rendered by ``output``.

``main`` is the console script's entry point (``extract = "extractor.cli:main"``).
"""

from extractor.cli import learn, register, service, show_config  # noqa: F401 - register their commands on the app
from extractor.cli import mail as _mail  # noqa: F401 - registers extract mail on the app
from extractor.cli.commands import app, main

__all__ = ["app", "main"]
