"""Shared fixtures: where ../shared lives, and one offline evaluate cache for the whole session.

CI exports NGRAMEVAL_SHARED; then a missing file is a failure. Outside CI, where
../shared may not exist, tests that need it skip with a reason.
"""

import os
import sys
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


@pytest.fixture(scope="session", autouse=True)
def hf_home(tmp_path_factory):
    """Offline, with every evaluate cache in one temporary HF_HOME for the whole session (evaluate imports
    the scripts it loads as ``evaluate_modules.*`` from the modules cache it saw first, so every test
    that loads a metric must see the same one). evaluate reads its cache paths from the environment when
    it is imported, so its config is pointed there as well."""
    import evaluate

    home = tmp_path_factory.mktemp("hf_home")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
            patch.setenv(name, "1")
        patch.setenv("HF_HOME", str(home))
        patch.setattr(evaluate.config, "HF_EVALUATE_OFFLINE", True)
        for name, folder in (
            ("HF_MODULES_CACHE", "modules"),
            ("HF_METRICS_CACHE", "metrics"),
            ("HF_EVALUATE_CACHE", "evaluate"),
        ):
            patch.setattr(evaluate.config, name, home / folder)
        patch.setattr(sys, "path", list(sys.path))  # evaluate appends the modules cache to it
        yield home
