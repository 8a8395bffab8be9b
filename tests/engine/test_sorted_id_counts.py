"""Token ids counted by one sort of their positions (ngrameval.engine.batch.count_ids, what BLEU of token ids
uses block by block): clipped counts equal to counting every n-gram with Counters (seeded search over small ids,
ids past the 16-bit digits numbered through a table or by a sort, 1-3 references), and BLEU
through it equal to NLTK's sentence_bleu run here and to the reference index's path on the same ids."""

import random
from collections import Counter
from functools import reduce
from operator import or_

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

import ngrameval
from ngrameval.engine import corpus as corpus_module
from ngrameval.engine.batch import count_ids
from tests.search import cases as search_cases

# Ids drawn from a few values around each of these: the 16-bit digits as they are, past them (a tokenizer's
# vocabulary of 151k ids), sparse. Past the digits, a batch of few ids is numbered by a sort; one of more than
# the largest id / batch._TABLE_PER_ID (the long sequences) through a table indexed by id.
ID_BASES = (0, 65_500, 151_000, 2**40)


def _ngram_counts(tokens, n):
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _counted_with_counters(hyps, refs, per_sentence, max_order):
    """(clipped, per_reference) as :class:`~ngrameval.engine.batch.CountedBatch` holds them, from Counters."""
    clipped = np.zeros((len(hyps), max_order), np.int64)
    per_reference = np.zeros((len(hyps), max(per_sentence), max_order), np.int64)
    groups = np.split(np.arange(len(refs)), np.cumsum(per_sentence)[:-1])
    for k, group in enumerate(groups):
        for n in range(1, max_order + 1):
            in_hypothesis = _ngram_counts(hyps[k], n)
            in_references = [_ngram_counts(refs[r], n) for r in group]
            clipped[k, n - 1] = sum((in_hypothesis & reduce(or_, in_references)).values())
            per_reference[k, : len(group), n - 1] = [sum((in_hypothesis & c).values()) for c in in_references]
    return clipped, per_reference


def _random_batch(rng, longest=12):
    sentences, max_order = rng.randint(1, 6), rng.randint(1, 6)
    base = rng.choice(ID_BASES)
    alphabet = [base + rng.randrange(60) for _ in range(rng.randint(1, 6))]
    hyps = [[rng.choice(alphabet) for _ in range(rng.randint(0, longest))] for _ in range(sentences)]
    per_sentence = [rng.randint(1, 3) for _ in range(sentences)]
    refs = [[rng.choice(alphabet) for _ in range(rng.randint(0, longest))] for _ in range(sum(per_sentence))]
    return hyps, refs, per_sentence, max_order


def _lengths(sequences):
    return np.array(list(map(len, sequences)), np.int64)


@pytest.mark.parametrize("cases, longest", [(300, 12), (6, 2000)])
def test_clipped_counts_equal_counters_in_a_random_search(cases, longest):
    """Short sequences (ids past the digits numbered by a sort) and long ones (through the table)."""
    rng = random.Random(f"sorted-counts-{longest}")
    for _ in range(search_cases(cases)):
        hyps, refs, per_sentence, max_order = _random_batch(rng, longest)
        ids = np.array([t for sequence in hyps + refs for t in sequence], np.int64)
        counted = count_ids(ids, _lengths(hyps), _lengths(refs), per_sentence, max_order)
        clipped, per_reference = _counted_with_counters(hyps, refs, per_sentence, max_order)
        assert counted.clipped.tolist() == clipped.tolist()
        assert counted.per_reference.tolist() == per_reference.tolist()
        assert counted.hyp_len.tolist() == list(map(len, hyps))
        assert counted.segment_len.tolist() == list(map(len, refs))


@pytest.mark.parametrize("first_id", [65_534, 2**20])
def test_more_distinct_ids_than_digits_are_left_to_the_index(first_id):
    """65,535 distinct ids (through the table and through the sort) do not fit in the digits below the end marks:
    None, and BLEU of them goes through the reference index: still NLTK's number."""
    distinct = list(range(first_id, first_id + 65_535))
    ids = np.array(distinct + distinct[:10], np.int64)
    assert count_ids(ids, np.array([len(distinct)]), np.array([10]), [1], 2) is None
    fitting = np.array(distinct[:-1] + distinct[:10], np.int64)
    assert count_ids(fitting, np.array([len(distinct) - 1]), np.array([10]), [1], 2) is not None
    hypothesis, reference = distinct, distinct[:1000]
    weights = (0.5, 0.5)
    expected = sentence_bleu([reference], hypothesis, weights=weights)
    assert ngrameval.bleu([hypothesis], [reference], variant="nltk", weights=weights).bleu == pytest.approx(
        expected, rel=1e-12
    )


def _random_id_corpus(rng):
    base = rng.choice(ID_BASES)
    vocabulary = [base + rng.randrange(40) for _ in range(rng.randint(2, 12))]
    predictions = [[rng.choice(vocabulary) for _ in range(rng.randint(0, 40))] for _ in range(rng.randint(1, 10))]
    references = [
        [
            [t if rng.random() < 0.8 else rng.choice(vocabulary) for t in prediction][: rng.randint(0, 45)]
            for _ in range(rng.randint(1, 3))
        ]
        for prediction in predictions
    ]
    return predictions, references


@pytest.mark.parametrize("block_tokens", [7, 1 << 15])
def test_bleu_of_counted_ids_equals_nltk_and_the_indexed_path(block_tokens, monkeypatch):
    """Seeded random id corpora (1-3 references, ids of every size, blocks of 7 tokens and one block), sentence and
    corpus BLEU with NLTK's method1 against NLTK run here, and every number equal to the reference index's path."""
    rng = random.Random(f"sorted-ids-{block_tokens}")
    monkeypatch.setattr(corpus_module, "BLOCK_TOKENS", block_tokens)
    method1 = SmoothingFunction().method1
    options = dict(variant="nltk", smooth="method1", sentence_level=True)
    for _ in range(search_cases(20)):
        predictions, references = _random_id_corpus(rng)
        result = ngrameval.bleu(predictions, references, **options)
        expected = [sentence_bleu(r, p, smoothing_function=method1) for p, r in zip(predictions, references)]
        assert result.sentence_scores == pytest.approx(expected, rel=1e-12, abs=1e-15)
        assert result.bleu == pytest.approx(corpus_bleu(references, predictions, smoothing_function=method1), rel=1e-12)
        with monkeypatch.context() as patch:  # the same corpus through the reference index
            patch.setattr(corpus_module, "count_ids", lambda *args: None)
            assert ngrameval.bleu(predictions, references, **options).as_dict() == result.as_dict()
