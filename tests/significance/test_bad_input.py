"""Bad arguments to the significance functions: a ValueError saying what is wrong."""

import pytest

from ngrameval.metric import statistics
from ngrameval.significance import confidence_interval, paired_test, resolve_seed, signature_suffix

REFERENCES = [["the cat sat on a mat"], ["the dog barks"], ["it rains"]]


@pytest.fixture(scope="module")
def stats():
    return statistics("bleu", ["the cat sat", "a dog barks", "it rains"], REFERENCES)


@pytest.mark.parametrize("n_samples", [0, -5, 1.5, True, 10**7, "100"])
def test_bad_sample_counts(stats, n_samples):
    with pytest.raises(ValueError, match="n_samples must be an integer from 1"):
        confidence_interval(stats, n_samples=n_samples)
    with pytest.raises(ValueError, match="n_samples must be an integer from 1"):
        paired_test(stats, [stats], n_samples=n_samples)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, "0.95", float("nan")])
def test_bad_confidence(stats, confidence):
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        confidence_interval(stats, confidence=confidence)


def test_unknown_test(stats):
    with pytest.raises(ValueError, match="unknown test 'ttest'"):
        paired_test(stats, [stats], test="ttest")
    with pytest.raises(ValueError, match="unknown test"):
        signature_suffix("t", 1000, 12345)


def test_mismatched_segments(stats):
    shorter = stats.take([0, 1])
    with pytest.raises(ValueError, match=r"systems\[0\] has 2 segments but the baseline 3"):
        paired_test(stats, [shorter])


def test_other_metric(stats):
    nist = statistics("nist", ["the cat sat", "a dog barks", "it rains"], REFERENCES)
    with pytest.raises(ValueError, match=r"systems\[0\] is scored with 'nist' but the baseline with 'bleu'"):
        paired_test(stats, [nist])


def test_other_options(stats):
    lowercased = statistics("bleu", ["the cat sat", "a dog barks", "it rains"], REFERENCES, lowercase=True)
    with pytest.raises(ValueError, match="same options"):
        paired_test(stats, [lowercased])


def test_not_statistics(stats):
    with pytest.raises(ValueError, match=r"must be ngrameval\.Statistics \(from ngrameval\.statistics\)"):
        paired_test(stats, [["the cat sat"]])
    with pytest.raises(ValueError, match="sequence of Statistics"):
        paired_test(stats, stats)


def test_ar_confidence_for_bootstrap(stats):
    with pytest.raises(ValueError, match="n_ar_confidence is for test='ar' only"):
        paired_test(stats, [stats], "bs", n_ar_confidence=100)


@pytest.mark.parametrize("seed", [-1, 1.5, "42", True])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="seed must be"):
        resolve_seed(seed)
