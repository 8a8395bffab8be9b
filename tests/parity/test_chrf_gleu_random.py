"""A seeded random search against chrF's peers, sacrebleu 2.6.0's CHRF and NLTK 3.10.4's chrF, and
GLEU's, NLTK's corpus_gleu: corpora of odd text (CJK, punctuation runs, empty lines, very long lines,
U+001C..U+001F, odd whitespace, copies and near-copies of references for ties) with random options.
Wherever the peer returns a number, ngrameval returns the same to 1e-12. Sized to run in seconds;
raise NGRAMEVAL_SEARCH_SCALE (tests/search.py) to search longer."""

import math

import numpy as np
import pytest
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from sacrebleu.metrics import CHRF

from ngrameval.metrics import chrf as chrf_module
from ngrameval.metrics.chrf import chrf
from ngrameval.metrics.gleu import gleu
from tests.search import cases

PIECES = [
    "the",
    "cat",
    "sat",
    "a",
    "A",
    "The",
    ".",
    ",",
    "...",
    "!!!",
    "(",
    ")",
    "(hi)",
    "-",
    "'s",
    "3.5",
    "東京",
    "猫",
    "が",
    "。",
    "、",
    "中文",
    "привет",
    "é",
    "ß",
    "İ",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    "\t",
    "\n",
    "\u00a0",
    "\u3000",
    "\u2028",
    "\u200b",
    "  ",
    "",
    "x" * 300,
    "ab" * 50,
]


def random_text(rng):
    size = int(rng.integers(0, 12))
    joins = rng.choice([" ", "", "  "], size=size, p=[0.75, 0.15, 0.1])
    return "".join(str(rng.choice(PIECES)) + str(j) for j in joins)


def random_corpus(rng, refs_per_segment):
    size = int(rng.integers(1, 6))
    predictions = [random_text(rng) for _ in range(size)]
    references = [[random_text(rng) for _ in range(refs_per_segment)] for _ in range(size)]
    for i in range(size):
        if rng.random() < 0.3:
            references[i][0] = predictions[i]
        if refs_per_segment > 1 and rng.random() < 0.3:
            references[i][1] = references[i][0][::-1] if rng.random() < 0.5 else references[i][0]
    return predictions, references


def close(got, expected):
    return all(math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-300) for g, e in zip(got, expected))


@pytest.mark.parametrize("seed", range(3))
def test_chrf_sacrebleu_on_random_corpora(seed, monkeypatch):
    """Also with blocks of a few reference characters (the path of large corpora), some in threads."""
    rng = np.random.default_rng(2000 + seed)
    for _ in range(cases(200)):
        predictions, references = random_corpus(rng, int(rng.integers(1, 4)))
        options = {
            "char_order": int(rng.integers(1, 8)),
            "word_order": int(rng.integers(0, 3)),
            "beta": [2, 1, 3, 0.5][int(rng.integers(0, 4))],
            "lowercase": bool(rng.random() < 0.3),
            "whitespace": bool(rng.random() < 0.3),
            "eps_smoothing": bool(rng.random() < 0.3),
        }
        monkeypatch.setattr(chrf_module, "BLOCK_CHARACTERS", [1 << 20, 1, 30, 200][int(rng.integers(0, 4))])
        metric = CHRF(**options)
        expected = metric.corpus_score(predictions, [list(s) for s in zip(*references)]).score / 100
        result = chrf(predictions, references, sentence_level=True, threads=int(rng.integers(1, 3)), **options)
        sentences = [metric.sentence_score(p, refs).score / 100 for p, refs in zip(predictions, references)]
        assert close([result.chrf] + result.sentence_scores, [expected] + sentences), (predictions, references, options)


@pytest.mark.parametrize("seed", range(3))
def test_chrf_nltk_on_random_corpora(seed):
    rng = np.random.default_rng(3000 + seed)
    for _ in range(cases(300)):
        predictions, references = random_corpus(rng, 1)
        references = [refs[0] for refs in references]
        max_len = int(rng.integers(1, 8))
        min_len = int(rng.integers(1, max_len + 1))
        beta, ignore = [3.0, 1, 2][int(rng.integers(0, 3))], bool(rng.random() < 0.7)
        expected = corpus_chrf(references, predictions, min_len, max_len, beta, ignore)
        sentences = [sentence_chrf(r, p, min_len, max_len, beta, ignore) for p, r in zip(predictions, references)]
        result = chrf(
            predictions,
            references,
            variant="nltk",
            min_char_order=min_len,
            char_order=max_len,
            beta=beta,
            whitespace=not ignore,
            sentence_level=True,
        )
        assert close([result.chrf] + result.sentence_scores, [expected] + sentences), (predictions, references)


@pytest.mark.parametrize("seed", range(3))
def test_gleu_nltk_on_random_corpora(seed):
    rng = np.random.default_rng(4000 + seed)
    for _ in range(cases(400)):
        predictions, references = random_corpus(rng, int(rng.integers(1, 4)))
        tokens = [p.split() for p in predictions], [[r.split() for r in refs] for refs in references]
        max_len = int(rng.integers(1, 7))
        min_len = int(rng.integers(1, max_len + 1))
        expected = corpus_gleu(tokens[1], tokens[0], min_len, max_len)
        sentences = [sentence_gleu(refs, p, min_len, max_len) for p, refs in zip(*tokens)]
        result = gleu(predictions, references, min_len=min_len, max_len=max_len, sentence_level=True)
        assert close([result.gleu] + result.sentence_scores, [expected] + sentences), (predictions, references)
