"""The package's one cache (ngrameval.engine.cache): a byte budget it keeps to, least recently used entries
dropped first, entries that grow measured again, bad budgets refused; ngrameval.clear_caches() empties it
(ROUGE's stems included) and the other caches of the package, and scores do not change."""

import numpy as np
import pytest

import ngrameval
from ngrameval.engine.batch import FEW_PREDICTIONS
from ngrameval.engine.cache import REFERENCE_CACHE, ByteBudgetCache, estimated_nbytes
from ngrameval.metrics import rouge as rouge_module
from ngrameval.metrics.ter import TercomTokenizer

# More predictions than a batch counted in one pass (engine.batch.FEW_PREDICTIONS): BLEU and chrF index and cache
# their references.
_COPIES = FEW_PREDICTIONS // 3 + 1
PREDICTIONS = ["the cats were sitting on the mat", "a dog barks at the postman", "it is raining again"] * _COPIES
REFERENCES = [
    ["the cat sat on a mat", "a cat was sitting on the mat"],
    ["the dog barked at the postman"],
    ["it rains"],
] * _COPIES


def test_a_small_budget_drops_the_least_recently_used_and_stays_under_it():
    cache = ByteBudgetCache(budget=20_000)
    rng = np.random.default_rng(3)
    for _ in range(200):
        key = ("entry", int(rng.integers(0, 12)))
        size = int(rng.integers(1, 600))
        assert len(cache.get(key, lambda: np.zeros(size))) >= 1
        assert cache.nbytes <= 20_000
        assert cache.nbytes == sum(estimated_nbytes(k) + estimated_nbytes(v) for k, (v, _, _) in cache._entries.items())
    assert 0 < len(cache) < 12
    # The most recently used entry is kept; the least recently used goes first.
    cache.get(("a",), lambda: np.zeros(1000))
    cache.get(("b",), lambda: np.zeros(1000))
    cache.get(("a",), lambda: np.zeros(1000))
    cache.get(("c",), lambda: np.zeros(1000))
    cache.get(("d",), lambda: np.zeros(100))
    assert ("a",) in cache and ("d",) in cache and ("b",) not in cache


def test_an_entry_larger_than_the_budget_is_returned_not_kept():
    cache = ByteBudgetCache(budget=1000)
    cache.get(("small",), lambda: np.zeros(10))
    value = cache.get(("big",), lambda: np.zeros(1000))
    assert len(value) == 1000 and ("big",) not in cache and cache.nbytes <= 1000


def test_an_entry_that_grows_is_measured_again_when_used():
    cache = ByteBudgetCache(budget=50_000)
    table = cache.get(("grows",), dict)
    for _ in range(3):
        cache.get(("other", len(table)), lambda: np.zeros(1000))
    before = cache.nbytes
    table.update({f"word{i}": np.zeros(100) for i in range(40)})  # 40 arrays of 800 bytes
    cache.get(("grows",), dict)
    assert cache.nbytes >= before + 40 * 800 or len(cache) < 4
    assert cache.nbytes <= 50_000


def test_shrinking_the_budget_drops_entries_and_bad_budgets_are_refused():
    cache = ByteBudgetCache(budget=100_000)
    for i in range(5):
        cache.get(i, lambda: np.zeros(1000))
    cache.budget = 20_000
    assert cache.nbytes <= 20_000 and len(cache) == 2
    cache.budget = 0
    assert len(cache) == 0 and cache.nbytes == 0
    for bad in (-1, 1.5, "256MB", True, None):
        with pytest.raises(ngrameval.InputError, match="cache budget"):
            cache.budget = bad
        with pytest.raises(ngrameval.InputError, match="cache budget"):
            ngrameval.set_cache_budget(bad)


def _scores():
    return [
        ngrameval.bleu(PREDICTIONS, REFERENCES, sentence_level=True).as_dict(),
        ngrameval.chrf(PREDICTIONS, REFERENCES, word_order=2, sentence_level=True).as_dict(),
        ngrameval.rouge(PREDICTIONS, REFERENCES, use_stemmer=True, use_aggregator=False).as_dict(),
        ngrameval.nist(PREDICTIONS, REFERENCES).as_dict(),
        ngrameval.gleu(PREDICTIONS, REFERENCES).as_dict(),
        ngrameval.ter(PREDICTIONS, REFERENCES).as_dict(),
    ]


def test_clear_caches_empties_every_cache_and_scores_do_not_change():
    ngrameval.clear_caches()
    first = _scores()
    assert rouge_module._STEMS_KEY in REFERENCE_CACHE and len(REFERENCE_CACHE) >= 5
    assert TercomTokenizer.reference_words.cache_info().currsize > 0
    ngrameval.clear_caches()
    assert len(REFERENCE_CACHE) == 0 and REFERENCE_CACHE.nbytes == 0
    assert TercomTokenizer.reference_words.cache_info().currsize == 0
    assert _scores() == first  # rebuilt from nothing
    assert _scores() == first  # from the cache again


def test_scores_under_a_tiny_budget_equal_scores_with_the_default():
    ngrameval.clear_caches()
    expected = _scores()
    previous = ngrameval.set_cache_budget(2_000)
    try:
        assert _scores() == expected and REFERENCE_CACHE.nbytes <= 2_000
    finally:
        ngrameval.set_cache_budget(previous)


def test_at_most_max_entries_are_kept_and_a_bad_count_is_refused():
    cache = ByteBudgetCache(budget=1 << 30, max_entries=3)
    for i in range(6):
        cache.get(i, lambda: np.zeros(10))
    assert list(cache._entries) == [3, 4, 5]
    for bad in (0, -2, 2.0, True, "3"):
        with pytest.raises(ngrameval.InputError, match="max_entries"):
            ByteBudgetCache(max_entries=bad)
