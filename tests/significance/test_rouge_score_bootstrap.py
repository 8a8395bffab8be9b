"""ROUGE intervals against rouge-score 0.1.2's ``scoring.BootstrapAggregator``, run here, on 300 REALSumm
summaries (each system output with its own reference).

rouge-score draws with NumPy's global generator and reads its bounds with ``np.percentile`` (linear
interpolation at 2.5% and 97.5%), we with sacrebleu's generator and positions (``n // 40``): the two
bounds agree up to Monte Carlo error, which the tolerance is derived from. With B = 1000 resamples and
the bootstrap distribution of the mean close to normal with sd SE (the standard error of the mean,
s / sqrt(n)), a 2.5% quantile estimated from B draws has sd sqrt(q (1 - q) / B) / phi(1.96) * SE
= 0.0845 SE; the difference of two independent estimates 0.12 SE; we allow 5 of those, 0.6 SE
(the interpolation differs by at most one order-statistic gap, ~0.01 SE, included). rouge-score's
``mid`` is the median of the resampled means: sd 1.2533 SE / sqrt(B) = 0.04 SE against their mean,
0.06 SE against our bootstrap mean; 5 of those, 0.3 SE. Our corpus score is the plain mean, exactly.
rouge-score's generator is seeded here so the test is deterministic; the tolerances do not rely on it.
"""

import numpy as np
import pytest
from rouge_score import rouge_scorer, scoring

import ngrameval
from ngrameval.metric import statistics
from ngrameval.significance import confidence_interval
from tests.data import realsumm

SUMMARIES = 300
SAMPLES = 1000
TYPES = ["rouge1", "rouge2", "rougeL"]


def test_intervals_as_rouge_score(shared):
    _, predictions, references = realsumm(shared)
    predictions, references = predictions[:SUMMARIES], references[:SUMMARIES]
    scorer = rouge_scorer.RougeScorer(TYPES)
    aggregator = scoring.BootstrapAggregator(confidence_interval=0.95, n_samples=SAMPLES)
    fmeasures = {name: [] for name in TYPES}
    for prediction, reference in zip(predictions, references):
        scores = scorer.score(reference, prediction)
        aggregator.add_scores(scores)
        for name in TYPES:
            fmeasures[name].append(scores[name].fmeasure)
    np.random.seed(20240101)
    theirs = aggregator.aggregate()
    stats = statistics("rouge", predictions, [[r] for r in references], rouge_types=TYPES)
    ours = confidence_interval(stats, n_samples=SAMPLES, seed=12345)
    for name in TYPES:
        values = np.array(fmeasures[name])
        standard_error = values.std(ddof=1) / np.sqrt(len(values))
        assert ours[name].score == pytest.approx(values.mean(), rel=1e-12), name
        assert abs(ours[name].mean - theirs[name].mid.fmeasure) <= 0.3 * standard_error, name
        assert abs(ours[name].ci[0] - theirs[name].low.fmeasure) <= 0.6 * standard_error, name
        assert abs(ours[name].ci[1] - theirs[name].high.fmeasure) <= 0.6 * standard_error, name


def test_rouge155_intervals_are_rouge155s_own(shared):
    """variant="rouge155": the interval is ROUGE-1.5.5.pl's (its -r draws, -c), as ngrameval.rouge prints
    it (which tests/parity/test_rouge155_perl.py checks against the Perl script run there)."""
    _, predictions, references = realsumm(shared)
    predictions, references = predictions[:40], references[:40]
    types = ["rouge1", "rouge2", "rougeL"]
    intervals = confidence_interval(
        statistics("rouge", predictions, references, rouge_types=types, variant="rouge155"), n_samples=SAMPLES
    )
    printed = ngrameval.rouge(predictions, references, rouge_types=types, variant="rouge155")
    plain = ngrameval.rouge(predictions, references, rouge_types=types, variant="rouge155", aggregate="mean")
    for name in types:
        assert intervals[name].score == pytest.approx(plain.fmeasure[name], rel=1e-12)  # a sum's order
        assert intervals[name].mean == printed.fmeasure[name]
        assert intervals[name].ci == (
            printed.intervals[name]["fmeasure"]["low"],
            printed.intervals[name]["fmeasure"]["high"],
        )
