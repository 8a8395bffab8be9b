"""Scoring from several threads at once (a Space's queue, a data loader) gives the same results
as scoring one call at a time, also when the calls share cached references at different orders."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import ngrameval
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.engine.ngrams import ReferenceIndex

PREDICTIONS = ["the cat sat on the mat today", "a dog barks at the postman", "it is raining again"]
REFERENCES = [
    ["the cat sat on a mat today", "a cat sat on the mat"],
    ["the dog barks at the postman"],
    ["it is raining"],
]


def _score(max_order):
    return ngrameval.bleu(PREDICTIONS, REFERENCES, max_order=max_order, tokenize="none", sentence_level=True).as_dict()


def test_concurrent_calls_equal_sequential_calls():
    orders = [1 + i % 6 for i in range(48)]
    ngrameval.bleu(["x"], ["y"], tokenize="none")  # a different cache entry, so the threads build theirs
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(_score, orders))
    assert concurrent == [_score(order) for order in orders]


def test_an_index_memo_shared_by_threads_makes_each_value_once():
    # An index in the cache is shared by every thread: a value of its memo (a hash table, NIST's weights) is
    # made once, and every thread gets that one, however the threads interleave.
    index = ReferenceIndex([[["a", "b", "a"]], [["b", "c"]]], 2)
    made = []
    start = threading.Barrier(8)

    def make():
        made.append(1)
        time.sleep(0.01)  # (a slow value: the other threads ask meanwhile)
        return object()

    def ask(_):
        start.wait()
        return index.memo.get(("a value",), make)

    with ThreadPoolExecutor(max_workers=8) as pool:
        values = list(pool.map(ask, range(8)))
    assert len(made) == 1 and all(value is values[0] for value in values)


def test_threads_scoring_several_metrics_under_a_small_cache_budget_equal_sequential_calls():
    # Entries are dropped while other threads use them: each call keeps what it took from the cache.
    def score(k):
        order = 1 + k % 4
        return [
            ngrameval.bleu(PREDICTIONS, REFERENCES, max_order=order, sentence_level=True).as_dict(),
            ngrameval.chrf(PREDICTIONS[k % 3 :], REFERENCES[k % 3 :], word_order=k % 3).as_dict(),
            ngrameval.rouge(PREDICTIONS, REFERENCES, use_stemmer=k % 2 == 0, use_aggregator=False).as_dict(),
        ]

    expected = [score(k) for k in range(24)]
    previous = ngrameval.set_cache_budget(20_000)
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            assert list(pool.map(score, range(24))) == expected
        assert REFERENCE_CACHE.nbytes <= 20_000
    finally:
        ngrameval.set_cache_budget(previous)
