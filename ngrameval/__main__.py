"""``python -m ngrameval``: the ``ngrameval`` command (see :mod:`ngrameval.frontends.cli`)."""

import sys

from ngrameval.frontends.cli import main

if __name__ == "__main__":
    sys.exit(main())
