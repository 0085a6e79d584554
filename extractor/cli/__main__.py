"""``python -m extractor.cli``: the same command as ``extract``."""

from extractor.cli.commands import main

main()
