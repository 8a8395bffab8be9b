"""Token ids against NLTK 3.10.4, which takes int tokens as they are: ngrameval.bleu(variant="nltk") vs
corpus_bleu / sentence_bleu with every smoothing method, ngrameval.nist vs corpus_nist / sentence_nist and
ngrameval.gleu vs corpus_gleu / sentence_gleu, on the same id lists, run in each test (seeded random search,
small sizes), with ids given as lists and as a padded 2-D numpy batch."""

import random

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from nltk.translate.nist_score import corpus_nist, sentence_nist

import ngrameval
from tests.data import assert_close
from tests.search import cases

# NLTK warns for every order without a match.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

REL = 1e-12
METHODS = tuple(f"method{i}" for i in range(8))
PAD = 0


def random_corpus(rng: random.Random, vocabulary: int = 12):
    """Predictions of ids 1..vocabulary (0 is the pad) and 1-3 references each, most of them noisy copies of
    their prediction so that long n-grams match (NLTK's method6 needs trigrams)."""

    def noisy(ids):
        return [t if rng.random() < 0.8 else rng.randint(1, vocabulary) for t in ids] + [
            rng.randint(1, vocabulary) for _ in range(rng.randint(0, 2))
        ]

    predictions, references = [], []
    for _ in range(rng.randint(1, 6)):
        prediction = [rng.randint(1, vocabulary) for _ in range(rng.randint(6, 14))]
        predictions.append(prediction)
        references.append(
            [
                noisy(prediction)
                if rng.random() < 0.8
                else [rng.randint(1, vocabulary) for _ in range(rng.randint(1, 10))]
                for _ in range(rng.randint(1, 3))
            ]
        )
    return predictions, references


def padded(predictions):
    """The predictions as a 2-D int64 batch, padded with PAD on the left or on the right."""
    width = max(map(len, predictions))
    batch = np.full((len(predictions), width), PAD, np.int64)
    for i, prediction in enumerate(predictions):
        start = width - len(prediction) if i % 2 else 0
        batch[i, start : start + len(prediction)] = prediction
    return batch


def corpora(name, count=15):
    rng = random.Random(f"ids-nltk-{name}")
    return [random_corpus(rng) for _ in range(cases(count))]


def nltk_or_none(function, *args, **options):
    """NLTK's score, or None where it fails (method6 asserts matching bigrams and trigrams)."""
    try:
        return function(*args, **options)
    except AssertionError:
        return None


def assert_same_or_refused(ours, expected, what):
    """ngrameval's score equals NLTK's, or is a clear ValueError where NLTK fails."""
    if expected is None:
        with pytest.raises(ValueError, match="method6"):
            ours()
    else:
        assert_close(ours(), expected, rel=REL, what=what)


@pytest.mark.parametrize("method", METHODS)
def test_bleu_every_smoothing_method(method):
    smoothing = getattr(SmoothingFunction(), method)
    for predictions, references in corpora(method):
        expected = nltk_or_none(corpus_bleu, references, predictions, smoothing_function=smoothing)
        sentences = [
            nltk_or_none(sentence_bleu, r, p, smoothing_function=smoothing) for p, r in zip(predictions, references)
        ]
        for given, pad_id in ((predictions, None), (padded(predictions), PAD)):

            def ours(sentence_level):
                result = ngrameval.bleu(
                    given, references, variant="nltk", smooth=method, pad_id=pad_id, sentence_level=sentence_level
                )
                return result.sentence_scores if sentence_level else result.bleu

            assert_same_or_refused(lambda: ours(False), expected, f"corpus_bleu {method}")
            assert_same_or_refused(
                lambda: ours(True), None if None in sentences else sentences, f"sentence_bleu {method}"
            )


@pytest.mark.parametrize("weights", [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.2, 0.2)])
def test_bleu_weights(weights):
    for predictions, references in corpora(f"weights-{len(weights)}", 8):
        expected = corpus_bleu(references, predictions, weights=weights, smoothing_function=SmoothingFunction().method1)
        result = ngrameval.bleu(predictions, references, variant="nltk", weights=weights, smooth="method1")
        assert_close(result.bleu, expected, rel=REL, what=f"corpus_bleu weights {weights}")


@pytest.mark.parametrize("n", [1, 3, 5])
def test_nist(n):
    for predictions, references in corpora(f"nist-{n}", 10):
        result = ngrameval.nist(padded(predictions), references, n=n, sentence_level=True, pad_id=PAD)
        assert_close(result.nist, corpus_nist(references, predictions, n=n), rel=REL, what=f"corpus_nist n={n}")
        assert_close(
            result.sentence_scores,
            [sentence_nist(r, p, n=n) for p, r in zip(predictions, references)],
            rel=REL,
            what=f"sentence_nist n={n}",
        )


@pytest.mark.parametrize("min_len, max_len", [(1, 4), (2, 3), (1, 1)])
def test_gleu(min_len, max_len):
    for predictions, references in corpora(f"gleu-{min_len}-{max_len}", 10):
        result = ngrameval.gleu(
            padded(predictions), references, min_len=min_len, max_len=max_len, sentence_level=True, pad_id=PAD
        )
        assert_close(result.gleu, corpus_gleu(references, predictions, min_len, max_len), rel=REL, what="corpus_gleu")
        assert_close(
            result.sentence_scores,
            [sentence_gleu(r, p, min_len, max_len) for p, r in zip(predictions, references)],
            rel=REL,
            what="sentence_gleu",
        )


def test_bleu_on_a_realistic_batch():
    """A decoder-like batch: Zipf-distributed ids over 32k, references noisy copies, right padding."""
    rng = np.random.default_rng(26)
    lengths = rng.integers(20, 60, 16)
    predictions = [((rng.zipf(1.3, n) - 1) % 32000 + 1).tolist() for n in lengths]
    references = [[[t if rng.random() < 0.85 else int(rng.integers(1, 32000)) for t in p]] for p in predictions]
    smoothing = SmoothingFunction().method1
    result = ngrameval.bleu(
        padded(predictions),
        [r[0] for r in references],
        variant="nltk",
        smooth="method1",
        sentence_level=True,
        pad_id=PAD,
    )
    assert_close(
        result.sentence_scores,
        [sentence_bleu(r, p, smoothing_function=smoothing) for p, r in zip(predictions, references)],
        rel=REL,
        what="sentence_bleu",
    )
    assert_close(
        result.bleu, corpus_bleu(references, predictions, smoothing_function=smoothing), rel=REL, what="corpus_bleu"
    )
