"""The ways ROUGE reaches the same numbers: texts tokenized straight to ids (the named tokenizers) or to token
lists (a callable), LCS masks looked up in a directly indexed table (small, text-local ids, as ROUGE passes
them) or by binary search (large ids), and stems finished in C-level passes or word by word (a stem or word
outside [a-z0-9]). Each path is checked against rouge-score 0.1.2 itself, or against the other path."""

import random
import re

import numpy as np
import pytest
from rouge_score import rouge_scorer

import ngrameval
from ngrameval.engine import lcs
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.metrics import rouge as rouge_module
from tests.search import cases

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
VOCABULARY = (
    "the cat cats sat sitting on mat mats a dog dogs running ran generously happiness of 1990s "
    "x y z abc123ing rational relational"
).split()


def _text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 4)):
        words = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 12))]
        lines.append(" ".join(word.upper() if rng.random() < 0.1 else word for word in words) + rng.choice(".!, "))
    return "\n".join(lines)


def _rouge_score(predictions, references, **options):
    scorer = rouge_scorer.RougeScorer(TYPES, **options)
    rows = [scorer.score_multi(refs, prediction) for prediction, refs in zip(predictions, references)]
    return np.array([[[row[t].precision, row[t].recall, row[t].fmeasure] for row in rows] for t in TYPES])


@pytest.mark.parametrize("seed", range(cases(3)))
def test_ids_path_equals_rouge_score_with_repeated_and_empty_texts(seed):
    rng = random.Random(seed)
    references = [[_text(rng) for _ in range(rng.randint(1, 3))] for _ in range(40)]
    predictions = [_text(rng) for _ in range(40)]
    predictions[3] = predictions[7] = predictions[1]  # repeated texts: tokenized once
    references[5] = references[9] = references[2]
    predictions[4], references[6] = "", ["", "the cat"]  # empty texts
    result = ngrameval.rouge(
        predictions, references, TYPES, use_stemmer=True, tokenizer="rouge_score", use_aggregator=False
    )
    np.testing.assert_array_equal(result.scores, _rouge_score(predictions, references, use_stemmer=True))


class _LowercaseRuns:
    """rouge-score's tokens without stemming, as a callable: the token-list path of the tokenizer."""

    def __call__(self, text):
        return re.findall(r"[a-z0-9]+", text.lower())


def test_ids_path_equals_token_list_path_with_stop_words():
    rng = random.Random(5)
    references = [[_text(rng)] for _ in range(30)]
    predictions = [_text(rng) for _ in range(30)]
    by_ids = ngrameval.rouge(
        predictions,
        references,
        TYPES + ["rougeW", "rougeSU4"],
        tokenizer="rouge_score",
        remove_stopwords=True,
        use_aggregator=False,
    )
    by_lists = ngrameval.rouge(
        predictions,
        references,
        TYPES + ["rougeW", "rougeSU4"],
        tokenizer=_LowercaseRuns(),
        remove_stopwords=True,
        use_aggregator=False,
    )
    np.testing.assert_array_equal(by_ids.scores, by_lists.scores)


def test_word_by_word_stems_when_a_word_is_outside_a_z0_9():
    # Token lists are used as given: "café" is not stemmed, a word with a newline is no [a-z0-9] word.
    tokens = rouge_module.RougeTokenizer(use_stemmer=True).tokenize([["cats", "café", "ab\ncd", "running"]]).tokens
    assert tokens == [["cat", "café", "ab\ncd", "run"]]


def test_a_stem_table_over_the_cache_budget_is_not_kept_and_scores_do_not_change():
    predictions = ["the generously relational cats were running", "hopefulness of conditional operators"]
    references = ["a cat runs generously", "the operator's conditions were hopeful"]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    expected = [[scorer.score(r, p)[t].fmeasure for p, r in zip(predictions, references)] for t in ("rouge1", "rougeL")]
    previous = ngrameval.set_cache_budget(1000)  # less than a table of these words
    try:
        for _ in range(2):
            result = ngrameval.rouge(
                predictions, references, ["rouge1", "rougeL"], use_stemmer=True, use_aggregator=False
            )
            assert [result.fmeasure["rouge1"], result.fmeasure["rougeL"]] == expected
            assert rouge_module._STEMS_KEY not in REFERENCE_CACHE and REFERENCE_CACHE.nbytes <= 1000
    finally:
        ngrameval.set_cache_budget(previous)
    ngrameval.rouge(predictions, references, ["rouge1"], use_stemmer=True)
    assert rouge_module._STEMS_KEY in REFERENCE_CACHE


def _random_pairs(rng: np.random.Generator, vocabulary: int, offset: int):
    a_lengths, b_lengths = rng.integers(0, 90, 60), rng.integers(0, 140, 25)
    a_ids = rng.integers(0, vocabulary, a_lengths.sum()) + offset
    b_ids = rng.integers(-1, vocabulary, b_lengths.sum())
    b_ids = np.where(b_ids >= 0, b_ids + offset, -1)
    pair_a, pair_b = np.repeat(np.arange(60), 3), rng.integers(0, 25, 180)
    return a_ids, np.r_[0, np.cumsum(a_lengths)], b_ids, np.r_[0, np.cumsum(b_lengths)], pair_a, pair_b


@pytest.mark.parametrize("vocabulary", [6, 60], ids=["dense matches", "sparse matches"])
@pytest.mark.parametrize("offset", [0, 1 << 20, 1 << 40], ids=["table", "radix-sorted keys", "binary search"])
def test_lcs_lookups_equal_rouge_score_lcs(offset, vocabulary):
    """Small ids index the mask table directly; ids far apart are searched, their keys sorted by radix
    (below 2**32) or by comparisons. All give rouge-score's LCS lengths and its union LCS (``_union_lcs``,
    its traceback), sequences of one to three 64-bit words. With few matches the walks back go up through
    many rows and left past many tokens (across words) to the next match."""
    rng = np.random.default_rng(11)
    for _ in range(cases(1)):  # batches drawn one after the other
        a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b = _random_pairs(rng, vocabulary, offset)
        a_seqs = [a_ids[a_offsets[k] : a_offsets[k + 1]].tolist() for k in range(len(a_offsets) - 1)]
        b_seqs = [b_ids[b_offsets[k] : b_offsets[k + 1]].tolist() for k in range(len(b_offsets) - 1)]
        lengths = lcs.lcs_lengths(a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b)
        # -1 in b matches nothing, in rouge-score too once it is a token no a has.
        peer_b = [[token if token >= 0 else "absent" for token in seq] for seq in b_seqs]
        expected = [rouge_scorer._lcs_table(a_seqs[a], peer_b[b])[-1][-1] for a, b in zip(pair_a, pair_b)]
        assert lengths.tolist() == expected
        mask = lcs.lcs_union_mask(a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b)
        for a in range(len(a_seqs)):
            union = rouge_scorer._find_union([rouge_scorer.lcs_ind(a_seqs[a], peer_b[b]) for b in pair_b[pair_a == a]])
            marked = np.flatnonzero(mask[a_offsets[a] : a_offsets[a + 1]]).tolist()
            assert marked == sorted(union)
