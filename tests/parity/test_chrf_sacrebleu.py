"""ngrameval.chrf (variant "sacrebleu", the default) against sacrebleu 2.6.0's CHRF, run in each test:
corpus scores, sentence scores (sentence_chrf), signatures and the metric protocol, on WMT17, WMT22
(one and two references), E2E (1 to 45 references) and every option."""

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

import ngrameval.metrics.chrf  # noqa: F401  (registers the family)
from ngrameval.metric import get_family
from ngrameval.metrics.chrf import chrf
from tests.data import WMT17_SYSTEMS, WMT22_SYSTEMS, assert_close, e2e_outputs, e2e_references, wmt17_slice, wmt22_slice

REL = 1e-12
OPTION_GRID = [
    dict(zip(("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing"), values))
    for values in itertools.product((6, 1, 3), (0, 1, 2), (2, 1, 3), (False, True), (False, True), (False, True))
]


def padded_streams(references):
    """References per segment -> sacrebleu's reference streams, None where a segment has fewer."""
    width = max(map(len, references))
    return [list(stream) for stream in zip(*(list(group) + [None] * (width - len(group)) for group in references))]


def assert_same_as_sacrebleu(hypotheses, references, sentences=True, **options):
    metric = CHRF(**options)
    expected = metric.corpus_score(hypotheses, padded_streams(references))
    result = chrf(hypotheses, references, sentence_level=sentences, **options)
    assert_close(result.chrf * 100, expected.score, rel=REL, what="chrF")
    assert result.signature == str(metric.get_signature())
    assert result.name == expected.name
    if sentences:
        peer = [metric.sentence_score(h, [r for r in refs]).score for h, refs in zip(hypotheses, references)]
        assert_close([s * 100 for s in result.sentence_scores], peer, rel=REL, what="sentence chrF")
    return result


@pytest.mark.parametrize("system", WMT17_SYSTEMS[:3])
@pytest.mark.slow
def test_wmt17_full_systems(shared, system):
    hypotheses, references = wmt17_slice(shared, system)
    assert_same_as_sacrebleu(hypotheses, references, sentences=False)


@pytest.mark.parametrize("system", WMT17_SYSTEMS[3:])
@pytest.mark.slow
def test_wmt17_systems_first_500_with_sentences(shared, system):
    hypotheses, references = wmt17_slice(shared, system, 500)
    assert_same_as_sacrebleu(hypotheses, references)


@pytest.mark.parametrize(
    "pair, system", [(pair, systems[i]) for pair, systems in WMT22_SYSTEMS.items() for i in (0, 3)]
)
@pytest.mark.parametrize("references_used", ["A", "A and B"])
@pytest.mark.slow
def test_wmt22(shared, pair, system, references_used):
    hypotheses, references = wmt22_slice(shared, pair, system, 600)
    if references_used == "A":
        references = [refs[:1] for refs in references]
    assert_same_as_sacrebleu(hypotheses, references, word_order=2)


@pytest.mark.parametrize("system", ["tgen", "harv", "slug"])
@pytest.mark.slow
def test_e2e_many_references(shared, system):
    mrs, references = e2e_references(shared)
    assert_same_as_sacrebleu(e2e_outputs(shared, system), references)


@pytest.mark.parametrize("options", OPTION_GRID, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.slow
def test_every_option(shared, options):
    hypotheses, references = wmt22_slice(shared, "zh-en", "Online-A", 60)
    assert_same_as_sacrebleu(hypotheses, references, **options)


def test_first_reference_wins_ties():
    # "a" scores 0 against "b" and against "cccc": sacrebleu keeps the first reference's statistics,
    # which then change the corpus score (4 reference characters instead of 1).
    hypotheses = ["a", "abcd"]
    first = assert_same_as_sacrebleu(hypotheses, [["b", "cccc"], ["abcd"]], sentences=False).chrf
    swapped = assert_same_as_sacrebleu(hypotheses, [["cccc", "b"], ["abcd"]], sentences=False).chrf
    assert first != swapped


def test_protocol_rows_add_up(shared):
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-B", 300)
    family = get_family("chrf")
    for options in ({}, {"word_order": 2, "eps_smoothing": True, "beta": 1}):
        stats = family.statistics(hypotheses, references, **options)
        result = chrf(hypotheses, references, sentence_level=True, **options)
        assert family.corpus_scores(stats)["chrf"] == result.chrf
        assert stats.signature == result.signature
        # a subset, and one score per segment from one-hot weights, are sacrebleu's too
        subset = list(range(0, 300, 7))
        metric = CHRF(**options)
        expected = metric.corpus_score([hypotheses[i] for i in subset], padded_streams([references[i] for i in subset]))
        assert_close(float(family.score(stats.take(subset))[0, 0]) * 100, expected.score, rel=REL)
        assert_close(family.score(stats, np.eye(len(stats)))[:, 0].tolist(), result.sentence_scores, rel=REL)


def test_parts_are_corpus_precisions_and_recalls():
    result = chrf(["ab c"], [["ab d"]], char_order=2, word_order=1)
    # characters "abc" against "abd": unigrams 2 of 3 both ways, bigrams ab of bc/ab; words "ab" of 2
    assert result.char_precisions == [2 / 3, 1 / 2] and result.char_recalls == [2 / 3, 1 / 2]
    assert result.word_precisions == [1 / 2] and result.word_recalls == [1 / 2]
