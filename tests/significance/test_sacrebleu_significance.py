"""ngrameval.significance against sacrebleu 2.6.0's own significance code, run in the test, on WMT17 en-de.

The setting is sacrebleu's test/test_significance.py (mjpost/sacrebleu): baseline LIUM-NMT,
``BLEU(tokenize="none")``, seed 12345. sacrebleu scores on 0-100 and ngrameval on 0-1, so each
sacrebleu value is compared with ours times 100 after ours was divided by 100: means and p-values are
the same float operations as sacrebleu's (its float32 bootstrap included), hence ``==`` on
``ours == theirs / 100``. The interval bounds are compared exactly with sacrebleu's sorted resample
scores; its printed half-width ``0.5 * (upper - lower)``, rebuilt from our divided bounds, agrees to
1e-12 relative (dividing by 100 then multiplying back is not exact in the last bit).
"""

import numpy as np
import pytest
import sacrebleu.metrics as sacrebleu_metrics
import sacrebleu.significance as sacrebleu_significance

from ngrameval import significance
from ngrameval.metric import statistics
from ngrameval.significance import confidence_interval, paired_test
from tests.data import WMT17_SYSTEMS, wmt17_reference, wmt17_system

BASELINE = "LIUM-NMT.4900"
# Four systems at full length for the comparisons with sacrebleu run here (it takes ~2 s per test).
COMPARED = (BASELINE, "C-3MA.4959", "online-B.0", "xmu.4910", "KIT.4950")

# Published p-values from sacrebleu's test/test_significance.py (mjpost/sacrebleu, the commit staged
# in shared/data/wmt17-en-de/SOURCE.md): Moses' bootstrap script (2000 resamples, mean of 3 runs) and
# multeval's AR (10,000 trials, BLEU), baseline LIUM-NMT; sacrebleu checks its own within 0.01.
MOSES_P_VALUES = {
    "C-3MA.4959": 0.00000,
    "FBK.4870": 0.01267,
    "KIT.4950": 0.02233,
    "LMU-nmt-reranked.4934": 0.04383,
    "LMU-nmt-single.4893": 0.20783,
    "online-A.0": 0.00000,
    "online-B.0": 0.38100,
    "online-F.0": 0.00000,
    "online-G.0": 0.00000,
    "PROMT-Rule-based.4735": 0.00000,
    "RWTH-nmt-ensemble.4921": 0.01167,
    "SYSTRAN.4847": 0.20983,
    "TALP-UPC.4834": 0.00000,
    "uedin-nmt.4722": 0.00000,
    "xmu.4910": 0.25483,
}
MULTEVAL_P_VALUES = {
    "C-3MA.4959": 0.0001,
    "FBK.4870": 0.0218,
    "KIT.4950": 0.0410,
    "LMU-nmt-reranked.4934": 0.09029,
    "LMU-nmt-single.4893": 0.58494,
    "online-A.0": 0.0001,
    "online-B.0": 0.94111,
    "online-F.0": 0.0001,
    "online-G.0": 0.0001,
    "PROMT-Rule-based.4735": 0.0001,
    "RWTH-nmt-ensemble.4921": 0.0207,
    "SYSTRAN.4847": 0.59914,
    "TALP-UPC.4834": 0.0001,
    "uedin-nmt.4722": 0.0001,
    "xmu.4910": 0.71073,
}


@pytest.fixture(autouse=True)
def sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.fixture(scope="module")
def wmt17(shared):
    reference = wmt17_reference(shared)
    systems = {name: wmt17_system(shared, name) for name in WMT17_SYSTEMS}
    stats = {
        name: statistics("bleu", lines, [[line] for line in reference], tokenize="none")
        for name, lines in systems.items()
    }
    return reference, systems, stats


def sacrebleu_paired(wmt17, test, **options):
    reference, systems, _ = wmt17
    metrics = {"BLEU": sacrebleu_metrics.BLEU(tokenize="none", references=[reference])}
    named = [(name, systems[name]) for name in COMPARED]
    return sacrebleu_significance.PairedTest(named, metrics, None, test_type=test, **options)()[1]["BLEU"]


def assert_same(ours, theirs, with_interval=True):
    assert ours.score * 100 == pytest.approx(theirs.score, rel=1e-14)  # ngrameval's [0, 1] BLEU rule
    assert ours.p_value == theirs.p_value
    if with_interval:
        assert ours.mean == theirs.mean / 100
        assert 0.5 * (ours.ci[1] * 100 - ours.ci[0] * 100) == pytest.approx(theirs.ci, rel=1e-12)
    else:
        assert ours.mean is None and theirs.mean is None


@pytest.mark.slow  # 1000 resamples of sacrebleu
def test_paired_bootstrap_equals_sacrebleu(wmt17):
    stats = wmt17[2]
    theirs = sacrebleu_paired(wmt17, "bs", n_samples=1000)
    ours = paired_test(stats[BASELINE], [stats[name] for name in COMPARED[1:]], "bs", n_samples=1000)
    assert len(ours) == len(theirs) == len(COMPARED)
    for our_result, their_result in zip(ours, theirs):
        assert_same(our_result["bleu"], their_result)


@pytest.mark.parametrize("n_ar_confidence", [pytest.param(-1, marks=pytest.mark.slow), 0])
def test_approximate_randomization_equals_sacrebleu(wmt17, n_ar_confidence):
    stats = wmt17[2]
    theirs = sacrebleu_paired(wmt17, "ar", n_samples=1000, n_ar_confidence=n_ar_confidence)
    ours = paired_test(
        stats[BASELINE], [stats[name] for name in COMPARED[1:]], "ar", n_samples=1000, n_ar_confidence=n_ar_confidence
    )
    for our_result, their_result in zip(ours, theirs):
        assert_same(our_result["bleu"], their_result, with_interval=n_ar_confidence == 0)


def _sacrebleu_sorted_resamples(wmt17, name, n_samples):
    reference, systems, _ = wmt17
    metric = sacrebleu_metrics.BLEU(tokenize="none")
    segment_stats = metric._extract_corpus_statistics(systems[name], [reference])
    _, scores = sacrebleu_significance._bootstrap_resample(segment_stats, metric, n_samples)
    return np.sort([score.score for score in scores])


def test_single_system_interval_equals_sacrebleu(wmt17):
    reference, systems, stats = wmt17
    theirs = sacrebleu_metrics.BLEU(tokenize="none").corpus_score(systems[BASELINE], [reference], n_bootstrap=1000)
    ours = confidence_interval(stats[BASELINE], n_samples=1000)["bleu"]
    assert ours.mean == theirs._mean / 100  # statistics.mean, as sacrebleu's Score.estimate_ci
    resamples = _sacrebleu_sorted_resamples(wmt17, BASELINE, 1000)
    assert ours.ci == (resamples[1000 // 40] / 100, resamples[1000 - 1000 // 40 - 1] / 100)
    assert 0.5 * (ours.ci[1] * 100 - ours.ci[0] * 100) == pytest.approx(theirs._ci, rel=1e-12)
    assert ours.formatted(100, 2) == theirs.format(width=2, score_only=True)


def test_float32_sums_in_sacrebleus_order(wmt17, monkeypatch):
    """Past 2**24, float32 sums depend on their order: the path that gathers and sums the rows as
    sacrebleu does (forced here by lowering the threshold) gives its bounds too."""
    monkeypatch.setattr(significance, "FLOAT32_EXACT", 1)
    ours = confidence_interval(wmt17[2]["xmu.4910"], n_samples=200)["bleu"]
    resamples = _sacrebleu_sorted_resamples(wmt17, "xmu.4910", 200)
    assert ours.ci == (resamples[200 // 40] / 100, resamples[200 - 200 // 40 - 1] / 100)


@pytest.mark.parametrize("float32_exact", [significance.FLOAT32_EXACT, 1], ids=["summed", "drawn rows added"])
@pytest.mark.parametrize("rows_per_block", [1, 7])
def test_draws_in_blocks_of_any_size_are_sacrebleus_resamples(wmt17, monkeypatch, rows_per_block, float32_exact):
    """The resamples are drawn and summed a block of rows (about DRAW_BLOCK indices) at a time, and scored at
    the end from their sums, or block by block from the drawn rows (float32 sums past 2**24): however the
    draw is cut, each resample's score is sacrebleu's, in its order."""
    reference, systems, stats = wmt17
    monkeypatch.setattr(significance, "DRAW_BLOCK", rows_per_block * len(reference) + len(reference) // 2)
    monkeypatch.setattr(significance, "FLOAT32_EXACT", float32_exact)
    draws = significance._draws(12345, len(reference), 60)
    (ours,) = significance._resample_scores([significance._Scorer(stats["xmu.4910"])], draws)
    metric = sacrebleu_metrics.BLEU(tokenize="none")
    segment_stats = metric._extract_corpus_statistics(systems["xmu.4910"], [reference])
    _, theirs = sacrebleu_significance._bootstrap_resample(segment_stats, metric, 60)
    assert ours[:, 0].tolist() == [score.score for score in theirs]


def test_published_moses_and_multeval_p_values(wmt17):
    """sacrebleu's own check, on our implementation: every WMT17 system against LIUM-NMT."""
    stats = wmt17[2]
    names = [name for name in WMT17_SYSTEMS if name != BASELINE]
    bootstrap = paired_test(stats[BASELINE], [stats[name] for name in names], "bs", n_samples=2000)
    randomization = paired_test(stats[BASELINE], [stats[name] for name in names], "ar", n_samples=10000)
    for name, bs, ar in zip(names, bootstrap[1:], randomization[1:]):
        assert abs(bs["bleu"].p_value - MOSES_P_VALUES[name]) < 0.01, name
        assert abs(ar["bleu"].p_value - MULTEVAL_P_VALUES[name]) < 0.01, name
