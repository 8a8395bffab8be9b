"""The package's version, its one source: setup.cfg reads it (``attr:``) and every signature that names
ngrameval's version imports it from here (not from the package, whose modules it would import)."""

__version__ = "0.1.0"
