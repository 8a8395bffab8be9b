"""ngrameval.gleu against NLTK 3.10.4's corpus_gleu and sentence_gleu ("nltk") and against HF evaluate's
google_bleu ("google_bleu"), run in each test, on WMT17, WMT22 (one and two references), E2E and every
min_len/max_len; plus the metric protocol."""

import numpy as np
import pytest
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import ngrameval.metrics.gleu  # noqa: F401  (registers the family)
from ngrameval.metric import get_family
from ngrameval.metrics.gleu import gleu
from tests.data import WMT17_SYSTEMS, WMT22_SYSTEMS, assert_close, e2e_outputs, e2e_references, wmt17_slice, wmt22_slice

REL = 1e-12


def google_bleu(predictions, references, min_len=1, max_len=4):
    """What HF evaluate's metrics/google_bleu/google_bleu.py computes: corpus_gleu on the tokens of its
    tokenizer_13a.py, which is sacrebleu's 13a (its header says so) applied to the line as given and split."""
    tokenizer = Tokenizer13a()
    return corpus_gleu(
        [[tokenizer(r).split() for r in refs] for refs in references],
        [tokenizer(p).split() for p in predictions],
        min_len=min_len,
        max_len=max_len,
    )


def assert_same_as_nltk(hypotheses, references, min_len=1, max_len=4, sentences=True):
    tokens = [h.split() for h in hypotheses], [[r.split() for r in refs] for refs in references]
    result = gleu(hypotheses, references, min_len=min_len, max_len=max_len, sentence_level=sentences)
    assert_close(result.gleu, corpus_gleu(tokens[1], tokens[0], min_len, max_len), rel=REL, what="GLEU")
    assert result.gleu == gleu(*tokens, min_len=min_len, max_len=max_len).gleu
    if sentences:
        peer = [sentence_gleu(refs, h, min_len, max_len) for h, refs in zip(*tokens)]
        assert_close(result.sentence_scores, peer, rel=REL, what="sentence GLEU")


def assert_same_as_google_bleu(hypotheses, references, min_len=1, max_len=4):
    result = gleu(hypotheses, references, variant="google_bleu", min_len=min_len, max_len=max_len)
    assert_close(result.gleu, google_bleu(hypotheses, references, min_len, max_len), rel=REL, what="google_bleu")


@pytest.mark.parametrize("system", WMT17_SYSTEMS[:3])
@pytest.mark.slow
def test_wmt17_full(shared, system):
    hypotheses, references = wmt17_slice(shared, system)
    assert_same_as_nltk(hypotheses, references, sentences=False)
    assert_same_as_google_bleu(hypotheses, references)


@pytest.mark.parametrize("system", WMT17_SYSTEMS[3:9])
@pytest.mark.slow
def test_wmt17_sentences(shared, system):
    assert_same_as_nltk(*wmt17_slice(shared, system, 400))


@pytest.mark.parametrize(
    "pair, system", [(pair, systems[i]) for pair, systems in WMT22_SYSTEMS.items() for i in (1, 4)]
)
@pytest.mark.parametrize("references_used", ["B", "A and B"])
@pytest.mark.slow
def test_wmt22(shared, pair, system, references_used):
    hypotheses, references = wmt22_slice(shared, pair, system, 500)
    if references_used == "B":
        references = [refs[1:] for refs in references]
    assert_same_as_nltk(hypotheses, references)
    assert_same_as_google_bleu(hypotheses, references)


@pytest.mark.parametrize("system", ["tgen", "harv"])
@pytest.mark.slow
def test_e2e_many_references(shared, system):
    mrs, references = e2e_references(shared)
    assert_same_as_nltk(e2e_outputs(shared, system), references)
    assert_same_as_google_bleu(e2e_outputs(shared, system), references)


@pytest.mark.parametrize("min_len, max_len", [(1, 1), (2, 2), (2, 6), (4, 4), (1, 9)])
@pytest.mark.slow
def test_orders(shared, min_len, max_len):
    hypotheses, references = wmt22_slice(shared, "de-en", "LT22", 100)
    assert_same_as_nltk(hypotheses + ["", "a"], references + [["", "b c"], ["a", ""]], min_len, max_len)
    assert_same_as_google_bleu(hypotheses, references, min_len, max_len)


def test_first_reference_of_equal_ratio():
    # 1/2 against both references, with other sums: NLTK keeps the first.
    hypotheses, references = ["a b", "c"], [["a x", "a b x y"], ["c"]]
    assert_same_as_nltk(hypotheses, references, max_len=1)
    assert gleu(hypotheses, references, max_len=1).n_all == 3


def test_protocol_rows_add_up(shared):
    hypotheses, references = wmt22_slice(shared, "en-de", "Online-W", 300)
    family = get_family("gleu")
    stats = family.statistics(hypotheses, references, variant="google_bleu", max_len=3)
    result = gleu(hypotheses, references, variant="google_bleu", max_len=3, sentence_level=True)
    assert family.corpus_scores(stats)["gleu"] == result.gleu
    subset = list(range(0, 300, 5))
    assert_close(
        float(family.score(stats.take(subset))[0, 0]),
        google_bleu([hypotheses[i] for i in subset], [references[i] for i in subset], 1, 3),
        rel=REL,
    )
    assert family.score(stats, np.eye(len(stats)))[:, 0].tolist() == result.sentence_scores
