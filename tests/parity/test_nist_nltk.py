"""ngrameval.nist(variant="nltk") against NLTK 3.10.4 corpus_nist and sentence_nist, run in each test,
on whitespace tokens (ngrameval's default tokenizer for the nltk variant)."""

import pytest
from nltk.translate.nist_score import corpus_nist, sentence_nist

import ngrameval
from tests.data import assert_close, corpus_slice, whitespace_tokens

ORDERS = (1, 2, 3, 4, 5, 9)
CORPORA = [
    ("wmt17", "uedin-nmt.4722", 500),
    ("wmt17", "online-G.0", 500),
    ("wmt22", "de-en", "Lan-Bridge", 300),
    ("wmt22", "zh-en", "DLUT", 300),
]


def _spec_id(spec):
    return "-".join(map(str, spec))


def ours(hypotheses, references, n, sentence_level=False):
    return ngrameval.nist(hypotheses, references, variant="nltk", n=n, sentence_level=sentence_level)


@pytest.mark.parametrize("n", ORDERS)
@pytest.mark.parametrize("spec", CORPORA, ids=_spec_id)
@pytest.mark.slow
def test_corpus_nist(shared, spec, n):
    hypotheses, references = corpus_slice(shared, spec)
    hyps, refs = whitespace_tokens(hypotheses, references)
    assert_close(ours(hypotheses, references, n).nist, corpus_nist(refs, hyps, n=n), what=f"corpus_nist n={n}")


def _nltk_sentence(references, hypothesis, n):
    """sentence_nist, or None where NLTK divides by zero (a hypothesis shorter than n)."""
    try:
        return sentence_nist(references, hypothesis, n=n)
    except ZeroDivisionError:
        return None


@pytest.mark.parametrize("n", ORDERS)
@pytest.mark.parametrize("spec", CORPORA, ids=_spec_id)
def test_sentence_nist(shared, spec, n):
    hypotheses, references = corpus_slice(shared, spec)
    expected = [_nltk_sentence(r, h, n) for h, r in zip(*whitespace_tokens(hypotheses, references))]
    scored = [i for i, value in enumerate(expected) if value is not None]
    assert len(scored) >= 0.6 * len(expected), f"NLTK scores only {len(scored)} of {len(expected)} sentences"
    got = ours(hypotheses, references, n, sentence_level=True).sentence_scores
    assert_close({i: got[i] for i in scored}, {i: expected[i] for i in scored}, what=f"sentence_nist n={n}")
