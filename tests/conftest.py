"""Shared fixtures: where ../shared lives.

CI exports NGRAMEVAL_SHARED; then a missing file is a failure. Outside CI, where
../shared may not exist, tests that need it skip with a reason.
"""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _shared_dir():
    configured = os.environ.get("NGRAMEVAL_SHARED")
    if configured:
        return Path(configured), True
    default = ROOT.parent / "shared"
    return (default if default.is_dir() else None), False


@pytest.fixture(scope="session")
def shared():
    """A function: ``shared("data/wmt17-en-de/SOURCE.md")`` -> Path, failing or skipping when missing."""
    directory, required = _shared_dir()

    def locate(relative: str) -> Path:
        if directory is None:
            pytest.skip("../shared is not present (set NGRAMEVAL_SHARED to run this test)")
        path = directory / relative
        if not path.exists():
            message = f"{path} is missing"
            if required:
                pytest.fail(message)
            pytest.skip(message)
        return path

    return locate


def read_lines(path: Path):
    """Lines of a UTF-8 text file without line ends."""
    return path.read_text(encoding="utf-8").splitlines()
