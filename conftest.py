"""For every test and doctest (tests/ and ngrameval/): nothing is written to the user's cache. METEOR 1.5's
paraphrase index goes to a directory of the session (so the index is built once per session)."""
import pytest


@pytest.fixture(scope="session", autouse=True)
def private_user_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        yield
