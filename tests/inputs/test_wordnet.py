"""Locating WordNet's files, and the errors when they are missing or of another version (nothing is downloaded)."""

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from ngrameval.metrics.meteor_nltk import nltk_meteor
from ngrameval.text.wordnet import (
    ENVIRONMENT_VARIABLE,
    REQUIRED_FILES,
    WordNet,
    WordNetNotFoundError,
    find_wordnet,
    load_wordnet,
)


def _linked_copy(target, skip=(), source=None):
    """A directory of symbolic links to the installed WordNet files (all but ``skip``)."""
    source = source or find_wordnet()
    for name in REQUIRED_FILES:
        if name not in skip:
            os.symlink(source / name, target / name)
    return source


def test_empty_directory_says_how_to_install(tmp_path):
    with pytest.raises(WordNetNotFoundError, match="apt-get install wordnet-base") as raised:
        WordNet(tmp_path)
    assert isinstance(raised.value, FileNotFoundError)
    assert str(tmp_path) in str(raised.value) and "index.noun" in str(raised.value)
    with pytest.raises(FileNotFoundError, match="apt-get install wordnet-base"):
        nltk_meteor([["a"]], [[["a"]]], wordnet=tmp_path)


def test_missing_file_is_named(tmp_path):
    _linked_copy(tmp_path, skip=("verb.exc",))
    with pytest.raises(WordNetNotFoundError, match=r"missing in .*: verb\.exc\. Install"):
        WordNet(tmp_path)


def test_environment_variable(tmp_path, monkeypatch):
    installed = find_wordnet()
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    with pytest.raises(WordNetNotFoundError, match=f"given by \\${ENVIRONMENT_VARIABLE}"):
        find_wordnet()
    _linked_copy(tmp_path, source=installed)
    assert find_wordnet() == tmp_path
    assert WordNet().synsets("dogs") == WordNet(installed).synsets("dogs")


def test_explicit_path_wins_over_the_environment(tmp_path, monkeypatch):
    installed = find_wordnet()
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path / "nowhere"))
    assert find_wordnet(os.fspath(installed)) == installed


def test_nothing_found_lists_where_it_looked(monkeypatch):
    import ngrameval.text.wordnet as module

    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setattr(module, "_default_directories", lambda: iter([module.Path("/nonexistent/wordnet")]))
    with pytest.raises(
        WordNetNotFoundError,
        match=r"looked in /nonexistent/wordnet\). Install WordNet 3.0 with "
        r"`apt-get install wordnet-base`",
    ):
        find_wordnet()


def test_other_version_is_refused_by_meteor(tmp_path):
    source = _linked_copy(tmp_path, skip=("data.adj",))
    text = (source / "data.adj").read_bytes()
    (tmp_path / "data.adj").write_bytes(text.replace(b"WordNet 3.0 Copyright", b"WordNet 3.1 Copyright", 1))
    assert WordNet(tmp_path).version == "3.1"
    with pytest.raises(ValueError, match="holds WordNet 3.1; NLTK's METEOR uses WordNet 3.0"):
        nltk_meteor([["a"]], [[["a"]]], wordnet=tmp_path)


def test_mismatched_data_file_is_an_error(tmp_path):
    source = _linked_copy(tmp_path, skip=("data.noun",))
    text = (source / "data.noun").read_bytes()
    (tmp_path / "data.noun").write_bytes(b"\n" + text)  # every offset is now off by one
    with pytest.raises(ValueError, match="no synset at offset"):
        WordNet(tmp_path).lemma_names("dog")


def test_shared_reader_and_threads():
    wordnet = load_wordnet()
    assert load_wordnet(find_wordnet()) is wordnet
    words = ["dogs", "ran", "better", "geese", "quickly", "axes"] * 50
    fresh = WordNet()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(fresh.lemma_names, words))
    assert answers == [wordnet.lemma_names(word) for word in words]
