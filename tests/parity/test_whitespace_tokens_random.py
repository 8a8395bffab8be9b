"""A seeded random search against NLTK on token lists whose tokens hold whitespace (spaCy's ``" "`` for a run of
spaces, ``"\\t"``, multi-word tokens such as ``"new york"``): NLTK scores them as the strings they are, and so
does every metric and variant that takes token lists -- BLEU, NIST, GLEU, chrF and METEOR, run here on the same
lists. Sized for CI; raise NGRAMEVAL_SEARCH_SCALE (tests/search.py) to search longer."""

import math
import random

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from nltk.translate.chrf_score import corpus_chrf
from nltk.translate.gleu_score import corpus_gleu
from nltk.translate.nist_score import corpus_nist

import ngrameval
from tests.parity.test_meteor_nltk import nltk_wordnet, peer  # noqa: F401  (fixtures: NLTK on Debian's WordNet)
from tests.search import cases

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK warns on every order without matches

TOKENS = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    ".",
    " ",
    "  ",
    "\t",
    "\n",
    "\u00a0",
    "new york",
    "a b",
    " cat",
    "cat ",
    "",
    "東京 都",
    "run",
    "running",
]


def _tokens(rng: random.Random) -> list:
    return [rng.choice(TOKENS) for _ in range(rng.randint(0, 7))]


def random_corpus(rng: random.Random, most_references: int):
    hypotheses = [_tokens(rng) for _ in range(rng.randint(1, 4))]
    references = [[_tokens(rng) for _ in range(rng.randint(1, most_references))] for _ in hypotheses]
    for hypothesis, group in zip(hypotheses, references):  # copies make matches and perfect scores
        if rng.random() < 0.3:
            group[0] = list(hypothesis)
    return hypotheses, references


def _nltk_or_none(function, *args, **kwargs):
    """NLTK's number, or None where NLTK raises (method6 without trigram matches, NIST on short text)."""
    try:
        return function(*args, **kwargs)
    except (AssertionError, ZeroDivisionError, IndexError, ValueError):
        return None


def _close(got, expected):
    return math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-300)


@pytest.mark.parametrize("seed", range(2))
def test_bleu_nist_gleu_chrf_on_tokens_with_whitespace(seed):
    rng = random.Random(7100 + seed)
    smoothing = SmoothingFunction()
    compared = 0
    for _ in range(cases(200)):
        hypotheses, references = random_corpus(rng, 3)
        case = (hypotheses, references)
        method = f"method{rng.randint(0, 7)}"
        expected = _nltk_or_none(corpus_bleu, references, hypotheses, smoothing_function=getattr(smoothing, method))
        if expected is not None:
            assert _close(ngrameval.bleu(hypotheses, references, variant="nltk", smooth=method).bleu, expected), case
            compared += 1
        first = _nltk_or_none(sentence_bleu, references[0], hypotheses[0], smoothing_function=smoothing.method1)
        if first is not None:
            result = ngrameval.bleu(hypotheses, references, variant="nltk", smooth="method1", sentence_level=True)
            assert _close(result.sentence_scores[0], first), case
        n = rng.randint(1, 5)
        nist = _nltk_or_none(corpus_nist, references, hypotheses, n=n)
        if nist is not None and math.isfinite(nist):
            assert _close(ngrameval.nist(hypotheses, references, n=n).nist, nist), case
        assert _close(ngrameval.gleu(hypotheses, references).gleu, corpus_gleu(references, hypotheses)), case
        single = [group[:1] for group in references]
        chrf = _nltk_or_none(corpus_chrf, [group[0] for group in references], hypotheses)
        if chrf is not None:
            assert _close(ngrameval.chrf(hypotheses, single, variant="nltk").chrf, chrf), case
    assert compared > cases(50)


def test_meteor_nltk_on_tokens_with_whitespace(peer):  # noqa: F811
    rng = random.Random(7200)
    for _ in range(cases(200)):
        hypotheses, references = random_corpus(rng, 3)
        assert ngrameval.meteor(hypotheses, references, variant="nltk").scores == peer(hypotheses, references), (
            hypotheses,
            references,
        )
