"""RepeatedIndex (the references of some sentences of an index, repeated) answers as the ReferenceIndex
built from the repeated references does, array for array: matches, per-reference clipped counts (also
weighted), slots and the order-n entries. Seeded random corpora: one to three references a sentence (so
that some sentences have more slots than others), empty references and hypotheses, tokens unknown to the
references, orders 1 to 4, sentences repeated in any order or left out. Matching looks n-grams up in
hash tables (small tables) or by binary search (large ones): both ways are run on every corpus."""

import numpy as np
import pytest

from ngrameval.engine import ngrams
from ngrameval.engine.ngrams import ReferenceIndex, RepeatedIndex
from tests.search import cases

VOCABULARY = {token: token for token in range(6)}


def _corpus(rng):
    groups = [
        [rng.integers(0, 6, rng.integers(0, 7)).tolist() for _ in range(rng.integers(1, 4))]
        for _ in range(rng.integers(1, 6))
    ]
    return groups, rng.integers(0, len(groups), rng.integers(1, 9))


def _index(groups, max_order):
    return ReferenceIndex.from_ids(
        VOCABULARY,
        np.array([t for g in groups for r in g for t in r], np.int64),
        np.array([len(r) for g in groups for r in g], np.int64),
        np.array([len(g) for g in groups], np.int64),
        max_order,
    )


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and (a == b).all(), (a, b)


@pytest.mark.parametrize("seed", range(cases(40)))
def test_repeated_index_answers_as_the_index_of_the_repeated_references(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    if seed % 2:
        monkeypatch.setattr(ngrams, "_HASHED_ENTRIES", 0)  # binary search
    else:
        monkeypatch.setattr(ngrams, "_SEARCHED_ENTRIES", 0)  # hash tables, however small
    groups, sentences = _corpus(rng)
    max_order = int(rng.integers(1, 5))
    repeated = RepeatedIndex(_index(groups, max_order), sentences)
    built = _index([groups[k] for k in sentences.tolist()], max_order)
    hypotheses = [rng.integers(-1, 7, rng.integers(0, 9)).tolist() for _ in sentences]  # -1 and 6: unknown
    hypotheses = [[token for token in tokens if token >= 0] for tokens in hypotheses]
    got, expected = repeated.match(hypotheses, max_order), built.match(hypotheses, max_order)
    _same(got.hyp_len, expected.hyp_len)
    for n in range(1, max_order + 1):
        _same(got.hyp_count[n - 1], expected.hyp_count[n - 1])
        _same(got.position_entry[n - 1], expected.position_entry[n - 1])
        _same(repeated.per_reference(got, n), built.per_reference(expected, n))
        weights = rng.random(int(built.entry_bounds(n)[-1]))
        _same(repeated.per_reference(got, n, weights), built.per_reference(expected, n, weights))
        _same(repeated.entry_bounds(n), built.entry_bounds(n))
        _same(repeated.position_entries(n), built.position_entries(n))
    for name in ("segment_len", "segment_sentence", "segment_slot", "refs_per_sentence"):
        _same(getattr(repeated, name), getattr(built, name))
    assert (repeated.num_sentences, repeated.max_slots) == (built.num_sentences, built.max_slots)
    _same(repeated.slots_present(), built.slots_present())


@pytest.mark.parametrize("seed", range(cases(10)))
def test_hashed_and_searched_matches_are_equal(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    groups, _ = _corpus(rng)
    index = _index(groups, 4)
    hypotheses = [rng.integers(0, 7, rng.integers(0, 12)).tolist() for _ in groups]
    monkeypatch.setattr(ngrams, "_SEARCHED_ENTRIES", 0)
    hashed = index.match(hypotheses, 4)
    monkeypatch.setattr(ngrams, "_HASHED_ENTRIES", 0)
    searched = index.match(hypotheses, 4)
    for n in range(4):
        _same(hashed.hyp_count[n], searched.hyp_count[n])
        _same(hashed.position_entry[n], searched.position_entry[n])
