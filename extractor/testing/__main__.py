"""``python -m extractor.testing``: see :mod:`extractor.testing.cli`."""

import os
import sys

from extractor.testing.cli import main

if __name__ == "__main__":
    # Never let the loaders reach for the Hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.exit(main())
