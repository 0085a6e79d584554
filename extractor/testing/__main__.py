"""``python -m extractor.testing``: see :mod:`extractor.testing.cli`."""

import os
import sys

from extractor.quiet import quiet_imports
from extractor.testing.cli import main

if __name__ == "__main__":
    # Never let the loaders reach for the Hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    quiet_imports()  # transformers' "PyTorch was not found" says nothing about the model being built
    sys.exit(main())
