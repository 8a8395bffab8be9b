"""ngrameval.significance against sacrebleu 2.6.0's own significance code for chrF, chrF++ and TER, run in
the test on WMT22 de-en (three systems, both references).

sacrebleu resamples these statistics as float32 arrays and scores the float32 sums in float32 (NumPy 2
keeps arithmetic on float32 scalars float32), where its corpus score and approximate randomization
work on exact sums in float64. ngrameval's families score resamples the same way
(``MetricFamily.score_resampled``), so everything is compared with ``==``: means and interval bounds as
``ours == sacrebleu's / 100`` (its float32 values widened exactly), p-values as they are, and sacrebleu's
printed half-width ``0.5 * (upper - lower)``, a float32, rebuilt in float32 from our bounds times 100
(a float32 value divided by 100 and multiplied back in float64 rounds back to itself in float32).
Only the corpus score itself, ngrameval's [0, 1] rule that is not the subject here, is compared to 1e-14.
"""

import random

import numpy as np
import pytest
import sacrebleu.metrics as sacrebleu_metrics
import sacrebleu.significance as sacrebleu_significance

from ngrameval import significance
from ngrameval.metric import statistics
from ngrameval.significance import confidence_interval, paired_test, pairwise_bootstrap
from tests.data import wmt22_references, wmt22_system
from tests.search import cases

PAIR = "de-en"
SYSTEMS = ("Online-B", "JDExploreAcademy", "PROMT")  # the first is the baseline
# chrF: the first segments. TER: sacrebleu's shift search makes long segments slow (11 s for the first
# 200), so the first segments whose references have at most 20 words.
CHRF_SEGMENTS = 120
TER_SEGMENTS, TER_MAX_WORDS = 100, 20
# name -> (sacrebleu metric class and options, ngrameval metric and options)
CASES = {
    "chrF": (sacrebleu_metrics.CHRF, {}, "chrf", {}),
    "chrF++": (sacrebleu_metrics.CHRF, {"word_order": 2}, "chrf", {"word_order": 2}),
    "TER": (sacrebleu_metrics.TER, {}, "ter", {}),
}


@pytest.fixture(autouse=True)
def sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


def computed_once(metric):
    """The sacrebleu metric with each system's statistics extracted once (PairedTest extracts them again
    for every test); its arithmetic is untouched."""
    extract, memo = metric._extract_corpus_statistics, {}

    def extract_once(hypotheses, references):
        key = (tuple(hypotheses), references is None)
        if key not in memo:
            memo[key] = extract(hypotheses, references)
        return memo[key]

    metric._extract_corpus_statistics = extract_once
    metric.paired_results = {}  # (sacrebleu_paired's)
    return metric


def wmt22(shared, metric):
    """(system -> hypotheses, reference streams) of the slice the metric is compared on."""
    outputs = {name: wmt22_system(shared, PAIR, name) for name in SYSTEMS}
    streams = wmt22_references(shared, PAIR)
    if metric == "ter":
        keep = [i for i in range(len(streams[0])) if max(len(s[i].split()) for s in streams) <= TER_MAX_WORDS]
        keep = keep[:TER_SEGMENTS]
    else:
        keep = range(CHRF_SEGMENTS)
    return (
        {name: [lines[i] for i in keep] for name, lines in outputs.items()},
        [[stream[i] for i in keep] for stream in streams],
    )


@pytest.fixture(scope="module", params=list(CASES))
def case(request, shared):
    """(name, ngrameval metric, sacrebleu metric with the references cached, hypotheses, our statistics)."""
    sacrebleu_class, sacrebleu_options, metric, options = CASES[request.param]
    hypotheses, streams = wmt22(shared, metric)
    references = [list(group) for group in zip(*streams)]
    theirs = computed_once(sacrebleu_class(references=streams, **sacrebleu_options))
    ours = {name: statistics(metric, lines, references, **options) for name, lines in hypotheses.items()}
    return request.param, metric, theirs, hypotheses, ours


def sacrebleu_paired(case, test, **options):
    """sacrebleu's PairedTest results (baseline first), run once per case and test."""
    _, _, metric, hypotheses, _ = case
    key = (test, tuple(sorted(options.items())))
    if key not in metric.paired_results:
        named = [(name, hypotheses[name]) for name in SYSTEMS]
        results = sacrebleu_significance.PairedTest(named, {"metric": metric}, None, test_type=test, **options)()[1]
        metric.paired_results[key] = next(value for key, value in results.items() if key != "System")
    return metric.paired_results[key]


def assert_half_width(ours, theirs):
    """Our interval gives sacrebleu's printed half-width ``0.5 * (upper - lower)``: in float32 for float32
    scores (==); in float64 where some score was a Python float (a tiny corpus), where our bounds
    divided by 100 and multiplied back agree to 1e-12 relative."""
    if isinstance(theirs, np.float32):
        low, high = (np.float32(bound * 100) for bound in ours.ci)
        assert np.float32(0.5) * (high - low) == theirs
    else:
        assert 0.5 * (ours.ci[1] * 100 - ours.ci[0] * 100) == pytest.approx(theirs, rel=1e-12, abs=1e-12)


def assert_same(ours, theirs, with_interval=True):
    assert ours.score * 100 == pytest.approx(theirs.score, rel=1e-14)
    assert ours.p_value == theirs.p_value
    if with_interval:
        assert ours.mean == theirs.mean / 100
        assert_half_width(ours, theirs.ci)
    else:
        assert ours.mean is None and theirs.mean is None


def test_paired_bootstrap_equals_sacrebleu(case):
    _, metric, _, _, stats = case
    theirs = sacrebleu_paired(case, "bs", n_samples=1000)
    ours = paired_test(stats[SYSTEMS[0]], [stats[name] for name in SYSTEMS[1:]], "bs", n_samples=1000)
    assert len(ours) == len(theirs) == len(SYSTEMS)
    for our_result, their_result in zip(ours, theirs):
        assert_same(our_result[metric], their_result)


def test_approximate_randomization_equals_sacrebleu(case):
    """Its p-values (float64 sums and scores) and its intervals (n_ar_confidence: float32 resamples)."""
    _, metric, _, _, stats = case
    theirs = sacrebleu_paired(case, "ar", n_samples=1000, n_ar_confidence=0)
    ours = paired_test(
        stats[SYSTEMS[0]], [stats[name] for name in SYSTEMS[1:]], "ar", n_samples=1000, n_ar_confidence=0
    )
    for our_result, their_result in zip(ours, theirs):
        assert_same(our_result[metric], their_result)


def sorted_resamples(metric, hypotheses, n_samples):
    """sacrebleu's bootstrap resample scores of one system (``--confidence``), sorted."""
    segment_stats = metric._extract_corpus_statistics(hypotheses, None)
    _, scores = sacrebleu_significance._bootstrap_resample(segment_stats, metric, n_samples)
    return np.sort([score.score for score in scores])


def test_confidence_interval_equals_sacrebleu(case):
    _, metric, theirs_metric, hypotheses, stats = case
    name = SYSTEMS[1]
    theirs = theirs_metric.corpus_score(hypotheses[name], None, n_bootstrap=1000)
    ours = confidence_interval(stats[name], n_samples=1000)[metric]
    assert ours.mean == theirs._mean / 100  # statistics.mean of float32 scores: a float32
    assert_half_width(ours, theirs._ci)
    resamples = sorted_resamples(theirs_metric, hypotheses[name], 1000)
    assert resamples.dtype == np.float32
    assert ours.ci == (resamples[1000 // 40] / 100, resamples[1000 - 1000 // 40 - 1] / 100)
    assert ours.formatted(100, 2) == theirs.format(width=2, score_only=True)


def test_pairwise_bootstrap_equals_sacrebleu(case):
    """The all-pairs matrix's first row holds sacrebleu's paired bootstrap p-values (baseline first)."""
    _, metric, _, _, stats = case
    theirs = sacrebleu_paired(case, "bs", n_samples=1000)
    intervals, p_values = pairwise_bootstrap([stats[name] for name in SYSTEMS], n_samples=1000)
    assert p_values[metric][0, 1:].tolist() == [result.p_value for result in theirs[1:]]
    for interval, their_result in zip(intervals, theirs):
        assert_half_width(interval[metric], their_result.ci)


@pytest.fixture(scope="module")
def three_references(shared):
    """60 segments of TER with three references (A, B, A again): average lengths in thirds, whose sums
    depend on their order. (hypotheses per system, sacrebleu's TER, our statistics per system.)"""
    hypotheses, streams = wmt22(shared, "ter")
    hypotheses, streams = (
        {name: lines[:60] for name, lines in hypotheses.items()},
        [s[:60] for s in streams + streams[:1]],
    )
    stats = {
        name: statistics("ter", lines, [list(group) for group in zip(*streams)]) for name, lines in hypotheses.items()
    }
    assert not np.all(stats[SYSTEMS[1]].rows == np.floor(stats[SYSTEMS[1]].rows))
    return hypotheses, computed_once(sacrebleu_metrics.TER(references=streams)), stats


def test_ter_with_three_references_sums_in_sacrebleus_order(three_references):
    """The bootstrap sums in float32 as sacrebleu adds them: the bounds and mean are its."""
    hypotheses, metric, stats = three_references
    name = SYSTEMS[1]
    ours = confidence_interval(stats[name], n_samples=300)["ter"]
    resamples = sorted_resamples(metric, hypotheses[name], 300)
    assert ours.ci == (resamples[300 // 40] / 100, resamples[300 - 300 // 40 - 1] / 100)
    assert ours.mean == metric.corpus_score(hypotheses[name], None, n_bootstrap=300)._mean / 100


def test_ter_with_three_references_shuffles_as_sacrebleu(three_references, monkeypatch):
    """Approximate randomization sums the shuffles with sacrebleu's two float64 products: where two
    systems translate segments alike, many shuffles give back the observed difference in exact arithmetic,
    and whether one exceeds it is rounding (the one product ngrameval uses for integer rows gives other
    p-values here). Blocks of 500 shuffles (of 2000) give its single product's rounding too."""
    hypotheses, metric, stats = three_references
    monkeypatch.setattr(significance, "BLOCK_FLOATS", 500 * len(stats[SYSTEMS[0]]))
    named = [(name, hypotheses[name]) for name in SYSTEMS]
    theirs = sacrebleu_significance.PairedTest(named, {"m": metric}, None, test_type="ar", n_samples=2000)()[1]
    theirs = next(value for key, value in theirs.items() if key != "System")
    ours = paired_test(stats[SYSTEMS[0]], [stats[name] for name in SYSTEMS[1:]], "ar", n_samples=2000)
    assert [result["ter"].p_value for result in ours] == [result.p_value for result in theirs]


def random_corpus(rng, size, alphabet):
    return [
        " ".join("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 6)))
        for _ in range(size)
    ]


def test_seeded_random_search_against_sacrebleu():
    """Tiny random corpora, whose resamples reach every corner of sacrebleu's float32 arithmetic: orders
    without n-grams or matches (its epsilon, its Python ``return 0.0`` that makes the score array float64),
    references without words; random chrF options. Means, half-widths and p-values equal sacrebleu's."""
    rng = random.Random(20240524)
    for trial in range(cases(24)):
        size = rng.randint(2, 8)
        references = random_corpus(rng, size, "abc")
        systems = [random_corpus(rng, size, "abcd") for _ in range(3)]
        if rng.random() < 0.5:
            options = {
                "char_order": rng.randint(1, 6),
                "word_order": rng.randint(0, 2),
                "beta": rng.randint(1, 3),
                "eps_smoothing": rng.random() < 0.5,
            }
            metric, theirs_metric = "chrf", sacrebleu_metrics.CHRF(**options)
        else:
            options = {}
            if rng.random() < 0.3:  # some references without words
                references = [line if rng.random() < 0.5 else "" for line in references]
            metric, theirs_metric = "ter", sacrebleu_metrics.TER()
        test = rng.choice(["bs", "ar"])
        n_samples = 200
        named = [(str(i), system) for i, system in enumerate(systems)]
        theirs = sacrebleu_significance.PairedTest(
            named,
            {"m": theirs_metric},
            [references],
            test_type=test,
            n_samples=n_samples,
            n_ar_confidence=0 if test == "ar" else -1,
        )()
        theirs = next(value for key, value in theirs[1].items() if key != "System")
        stats = [statistics(metric, system, [[line] for line in references], **options) for system in systems]
        ours = paired_test(stats[0], stats[1:], test, n_samples=n_samples, n_ar_confidence=0 if test == "ar" else -1)
        for our_result, their_result in zip(ours, theirs):
            message = f"trial {trial}: {metric} {options} {test}"
            assert our_result[metric].p_value == their_result.p_value, message
            assert our_result[metric].mean == their_result.mean / 100, message
            assert_half_width(our_result[metric], their_result.ci)
