"""A seeded random search against the BLEU and NIST peers: corpora of odd text (CJK, punctuation
runs, entities, empty lines, odd whitespace, repeated words, ties between references) scored by
sacrebleu and NLTK, run here, and by ngrameval with the same options. Wherever the peer returns
a number, ngrameval returns the same number. Sized for CI: 600 corpora per peer; raise
NGRAMEVAL_SEARCH_SCALE (tests/search.py) to search longer."""

import math

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from nltk.translate.nist_score import corpus_nist
from sacrebleu.metrics import BLEU

import ngrameval
from tests.search import cases

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK warns on every order without matches

PIECES = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "A",
    "The",
    "dog",
    ".",
    ",",
    "...",
    "-",
    "--",
    "3.5",
    "1,000",
    "(",
    ")",
    "&quot;",
    "&amp;",
    "<skipped>",
    "-\n",
    "\n",
    "\t",
    "\u00a0",
    "  ",
    "é",
    "É",
    "ß",
    "İ",
    "東京",
    "猫",
    "が",
    "いる",
    "。",
    "、",
    "中文",
    "測試",
    "ー",
    "привет",
    "Ωμέγα",
    "!",
    "?",
    "'s",
    "n't",
    "\u3000",
    "\u2028",
    "",
    "x" * 40,
]


def random_text(rng: np.random.Generator) -> str:
    size = int(rng.integers(0, 14))
    joins = rng.choice([" ", "", "  "], size=size, p=[0.8, 0.1, 0.1])
    return "".join(str(rng.choice(PIECES)) + str(j) for j in joins)


def random_corpus(rng: np.random.Generator, refs_per_segment: int):
    size = int(rng.integers(1, 6))
    predictions = [random_text(rng) for _ in range(size)]
    references = [[random_text(rng) for _ in range(refs_per_segment)] for _ in range(size)]
    for i in range(size):  # copies and near-copies make matches, ties and perfect scores
        if rng.random() < 0.3:
            references[i][0] = predictions[i]
        if refs_per_segment > 1 and rng.random() < 0.2:
            references[i][1] = references[i][0]
    return predictions, references


@pytest.mark.parametrize("seed", range(4))
def test_sacrebleu_on_random_corpora(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(cases(150)):
        refs_per_segment = int(rng.integers(1, 3))
        predictions, references = random_corpus(rng, refs_per_segment)
        tokenize = str(rng.choice(["13a", "none", "intl", "zh", "char"]))
        smooth = str(rng.choice(["exp", "none", "floor", "add-k"]))
        lowercase = bool(rng.random() < 0.3)
        peer = BLEU(tokenize=tokenize, smooth_method=smooth, lowercase=lowercase)
        streams = [list(stream) for stream in zip(*references)]
        expected = peer.corpus_score(predictions, streams)
        result = ngrameval.bleu(
            predictions, references, tokenize=tokenize, smooth=smooth, lowercase=lowercase, sentence_level=True
        )
        case = (predictions, references, tokenize, smooth, lowercase)
        assert result.bleu * 100 == pytest.approx(expected.score, rel=1e-12, abs=1e-12), case
        assert result.counts == expected.counts and result.totals == expected.totals, case
        assert (result.translation_length, result.reference_length) == (expected.sys_len, expected.ref_len), case
        sentence_peer = BLEU(tokenize=tokenize, smooth_method=smooth, lowercase=lowercase, effective_order=True)
        for i, prediction in enumerate(predictions):
            score = sentence_peer.sentence_score(prediction, references[i]).score
            assert result.sentence_scores[i] * 100 == pytest.approx(score, rel=1e-12, abs=1e-12), (case, i)


def _nltk_or_none(function, *args, **kwargs):
    """NLTK's number, or None where NLTK raises (method6 without trigram matches, NIST on short text)."""
    try:
        return function(*args, **kwargs)
    except (AssertionError, ZeroDivisionError, IndexError, ValueError):
        return None


@pytest.mark.parametrize("seed", range(4))
def test_nltk_bleu_and_nist_on_random_corpora(seed):
    rng = np.random.default_rng(2000 + seed)
    smoothing = SmoothingFunction()
    for _ in range(cases(150)):
        predictions, references = random_corpus(rng, int(rng.integers(1, 4)))
        hyps = [p.split() for p in predictions]
        refs = [[r.split() for r in group] for group in references]
        method = f"method{int(rng.integers(0, 8))}"
        order = int(rng.integers(1, 6))
        weights = (1.0 / order,) * order
        expected = _nltk_or_none(
            corpus_bleu, refs, hyps, weights=weights, smoothing_function=getattr(smoothing, method)
        )
        case = (predictions, references, method, order)
        if expected is not None:
            result = ngrameval.bleu(
                predictions, references, variant="nltk", smooth=method, weights=weights, max_order=order
            )
            assert result.bleu == pytest.approx(expected, rel=1e-12, abs=1e-300), case
            first = _nltk_or_none(
                sentence_bleu, refs[0], hyps[0], weights=weights, smoothing_function=getattr(smoothing, method)
            )
            if first is not None:
                sentence = ngrameval.bleu(
                    predictions[:1], references[:1], variant="nltk", smooth=method, weights=weights, max_order=order
                )
                assert sentence.bleu == pytest.approx(first, rel=1e-12, abs=1e-300), case
        n = int(rng.integers(1, 6))
        nist_expected = _nltk_or_none(corpus_nist, refs, hyps, n=n)
        if nist_expected is not None and math.isfinite(nist_expected):
            assert ngrameval.nist(predictions, references, n=n).nist == pytest.approx(
                nist_expected, rel=1e-12, abs=1e-12
            ), (predictions, references, n)
