"""``python -m ngrameval``: the ``ngrameval`` command (see :mod:`ngrameval.cli`)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
