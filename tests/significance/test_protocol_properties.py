"""Resampling through the metric protocol, for every registered metric and variant, on 30 WMT17 lines.

What the tests rely on: a sum of rows scores as the public function's corpus score; a weight matrix
scores as the rows it counts; and a system against itself has exactly zero resampled differences, so
both tests give the smallest p-value, 1 / (trials + 1) (sacrebleu's strict ``>``, checked against
sacrebleu itself in test_sacrebleu_significance.py).
"""

import numpy as np
import pytest

import ngrameval
from ngrameval.metric import get_family, metric_names, statistics
from ngrameval.significance import confidence_interval, paired_test
from tests.data import wmt17_slice

SEGMENTS = 30
CASES = [("bleu", variant) for variant in ("sacrebleu", "nltk", "mteval", "nmt", "d2l", "coco")] + [
    ("nist", "nltk"),
    ("nist", "mteval"),
    ("rouge", "rouge_score"),
    ("rouge", "rouge155"),
    ("meteor", "meteor15"),
    ("meteor", "nltk"),
    ("cider", "cider-d"),
    ("cider", "cider"),
    ("coco_caption", None),
    ("chrf", "sacrebleu"),
    ("chrf", "nltk"),
    ("gleu", "nltk"),
    ("gleu", "google_bleu"),
    ("ter", None),
]


def test_every_registered_metric_is_covered():
    assert sorted({metric for metric, _ in CASES}) == sorted(metric_names())


def public_corpus_scores(metric, variant, predictions, references):
    """Output name -> the public function's corpus score (ROUGE-1.5.5 averaged as the rows are: the mean)."""
    if metric == "coco_caption":
        return ngrameval.coco_caption(predictions, references).scores
    if metric == "rouge":
        options = {"aggregate": "mean"} if variant == "rouge155" else {}
        return ngrameval.rouge(predictions, references, variant=variant, **options).as_dict()
    result = getattr(ngrameval, metric)(predictions, references, **({"variant": variant} if variant else {}))
    return {metric: getattr(result, metric)}


@pytest.fixture(scope="module", params=CASES, ids=[f"{m}-{v}" for m, v in CASES])
def case(request, shared):
    metric, variant = request.param
    predictions, references = wmt17_slice(shared, "C-3MA.4959", SEGMENTS)
    options = {"variant": variant} if variant else {}
    return metric, variant, predictions, references, statistics(metric, predictions, references, **options)


def test_summed_rows_give_the_corpus_score(case):
    metric, variant, predictions, references, stats = case
    expected = public_corpus_scores(metric, variant, predictions, references)
    for name, score in get_family(metric).corpus_scores(stats).items():
        assert score == expected[name], name  # to the last bit


def test_identity_resample_gives_the_corpus_score(case):
    stats = case[4]
    family = get_family(stats.metric)
    np.testing.assert_allclose(family.score(stats, np.ones((1, len(stats)))), family.score(stats), rtol=1e-12)


def test_drawn_rows_score_as_their_counts(case):
    """``rows.take(draw)`` against the count matrix of the same draw (the draw sorted: a weight
    matrix keeps corpus order, which NLTK's smoothing reads through its last sentence)."""
    stats = case[4]
    family = get_family(stats.metric)
    draw = np.sort(np.random.default_rng(7).choice(len(stats), size=len(stats), replace=True))
    counts = np.bincount(draw, minlength=len(stats))[None, :]
    np.testing.assert_allclose(family.score(stats, counts), family.score(stats.take(draw)), rtol=1e-12)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_a_system_against_itself(case, test):
    stats = case[4]
    results = paired_test(stats, [stats], test, n_samples=200, seed=3)
    for name in stats.outputs:
        assert results[1][name].p_value == 1 / 201
        assert results[1][name].score == results[0][name].score


def test_interval_holds_its_mean(case):
    stats = case[4]
    for result in confidence_interval(stats, n_samples=200, seed=3).values():
        assert result.ci[0] <= result.ci[1]
        assert result.ci[0] <= result.mean <= result.ci[1] or result.ci[0] == result.ci[1]
