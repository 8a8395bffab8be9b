"""GLEU's n-gram lookup (ngrameval.engine.ngrams.find_keys) settles most n-grams in a hash table and the
rest by binary search. Each path is forced here in turn, on random corpora (one, two, three or a varying
number of references; repeated n-grams, empty lines, unknown tokens), and checked against NLTK 3.10.4's
corpus_gleu and sentence_gleu run in the test."""

import math

import numpy as np
import pytest
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

import ngrameval
import ngrameval.engine.ngrams as ngrams
from ngrameval.metrics.gleu import gleu
from tests.data import WMT17_SYSTEMS, wmt17_slice
from tests.search import cases

WORDS = ["the", "cat", "sat", "on", "a", "mat", ".", "the", "the", "cat", "dog", "東京", "é", "x" * 40]


def random_line(rng, low=0):
    return " ".join(rng.choice(WORDS, size=int(rng.integers(low, 14))).tolist())


def random_corpus(rng):
    size = int(rng.integers(1, 40))
    varying = rng.random() < 0.3
    fixed = int(rng.integers(1, 4))
    predictions = [random_line(rng) for _ in range(size)]
    references = [[random_line(rng) for _ in range(int(rng.integers(1, 4)) if varying else fixed)] for _ in range(size)]
    for i in range(size):
        if rng.random() < 0.3:
            references[i][-1] = predictions[i]
    return predictions, references


def assert_same_as_nltk(predictions, references, min_len, max_len):
    tokens = [p.split() for p in predictions], [[r.split() for r in refs] for refs in references]
    result = gleu(predictions, references, min_len=min_len, max_len=max_len, sentence_level=True)
    expected = [corpus_gleu(tokens[1], tokens[0], min_len, max_len)]
    expected += [sentence_gleu(refs, p, min_len, max_len) for p, refs in zip(*tokens)]
    got = [result.gleu] + result.sentence_scores
    assert all(math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-300) for g, e in zip(got, expected)), (
        predictions,
        references,
        min_len,
        max_len,
    )


@pytest.fixture
def fresh_cache():
    """Indexes (and the hash tables in their memo) built anew under the forced lookup path, and none of
    them left for other tests."""
    ngrameval.clear_caches()
    yield
    ngrameval.clear_caches()


def one_slot(keys, bits):
    """Every key hashed to slot 0: one key per table is found there, all others by binary search."""
    return np.zeros(len(keys), np.int64)


def hashed(monkeypatch):
    """Hash tables for every order table, however small (small ones are searched otherwise)."""
    monkeypatch.setattr(ngrams, "_SEARCHED_ENTRIES", 0)


PATHS = {
    "hash table": hashed,
    "binary search only": lambda monkeypatch: monkeypatch.setattr(ngrams, "key_slots", lambda keys: None),
    "every key in one slot": lambda monkeypatch: (
        hashed(monkeypatch),
        monkeypatch.setattr(ngrams, "_home_slots", one_slot),
    ),
}


@pytest.mark.parametrize("path", PATHS)
def test_random_corpora(path, monkeypatch, fresh_cache):
    PATHS[path](monkeypatch)
    rng = np.random.default_rng(11)
    for _ in range(cases(150)):
        max_len = int(rng.integers(1, 6))
        assert_same_as_nltk(*random_corpus(rng), int(rng.integers(1, max_len + 1)), max_len)


@pytest.mark.parametrize("path", PATHS)
def test_wmt17(shared, path, monkeypatch, fresh_cache):
    PATHS[path](monkeypatch)
    assert_same_as_nltk(*wmt17_slice(shared, WMT17_SYSTEMS[0], 300), 1, 4)
