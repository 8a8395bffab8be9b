"""Scoring from several threads at once (a Space's queue, a data loader) gives the same results
as scoring one call at a time, also when the calls share cached references at different orders."""
from concurrent.futures import ThreadPoolExecutor

import ngrameval

PREDICTIONS = ["the cat sat on the mat today", "a dog barks at the postman", "it is raining again"]
REFERENCES = [["the cat sat on a mat today", "a cat sat on the mat"], ["the dog barks at the postman"],
              ["it is raining"]]


def _score(max_order):
    return ngrameval.bleu(PREDICTIONS, REFERENCES, max_order=max_order, tokenize="none",
                          sentence_level=True).as_dict()


def test_concurrent_calls_equal_sequential_calls():
    orders = [1 + i % 6 for i in range(48)]
    ngrameval.bleu(["x"], ["y"], tokenize="none")   # a different cache entry, so the threads build theirs
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(_score, orders))
    assert concurrent == [_score(order) for order in orders]
