"""The package's version, its one source (setup.cfg and every signature read it here)."""

__version__ = "0.1.0"
