"""For every test and doctest (tests/ and ngrameval/): nothing is written to the user's cache. METEOR 1.5's
paraphrase index goes to a directory of the test run, shared by pytest-xdist's workers (the index is built
once per run: its build is safe with concurrent processes, see ngrameval.metrics.meteor15.paraphrase)."""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_user_cache(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    # A worker's base directory (.../popen-gw0) lies in the run's, which its other workers share.
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    cache = run / "user-cache"
    cache.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))
        yield
