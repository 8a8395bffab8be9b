"""``ngrameval.statistics``, the public name of the protocol's statistics, feeds the public significance functions:
for BLEU and chrF its rows give sacrebleu 2.6.0's bootstrap interval and paired p-values, run here on the same
seeded random corpus."""

import random

import numpy as np
import pytest
import sacrebleu.metrics as sacrebleu_metrics
import sacrebleu.significance as sacrebleu_significance

import ngrameval

SEGMENTS, SAMPLES = 40, 200
# ngrameval metric -> sacrebleu's metric of the same options
FAMILIES = {"bleu": sacrebleu_metrics.BLEU, "chrf": sacrebleu_metrics.CHRF}


@pytest.fixture(autouse=True)
def sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.fixture(scope="module")
def corpus():
    """(references, baseline, system): seeded random sentences over a small vocabulary, the outputs edits of
    the references, so that every n-gram order matches somewhere."""
    rng = random.Random(25)
    words = "the a cat dog sat ran on under mat log red big".split()
    references = [" ".join(rng.choices(words, k=rng.randint(4, 12))) for _ in range(SEGMENTS)]

    def edited(sentence):
        tokens = sentence.split()
        for _ in range(rng.randint(0, 3)):
            tokens[rng.randrange(len(tokens))] = rng.choice(words)
        return " ".join(tokens)

    return references, [edited(line) for line in references], [edited(line) for line in references]


def test_statistics_is_the_protocol_function():
    from ngrameval import metric

    assert ngrameval.statistics is metric.statistics
    assert isinstance(ngrameval.statistics("ter", ["a b"], [["a c"]]), ngrameval.Statistics)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_confidence_interval_of_public_statistics_is_sacrebleus(corpus, name):
    references, _, system = corpus
    theirs = FAMILIES[name]().corpus_score(system, [references], n_bootstrap=SAMPLES)
    stats = ngrameval.statistics(name, system, [[line] for line in references])
    ours = ngrameval.confidence_interval(stats, n_samples=SAMPLES)[name]
    assert ours.score * 100 == pytest.approx(theirs.score, rel=1e-14)
    assert ours.mean == theirs._mean / 100  # statistics.mean of the resample scores, as sacrebleu
    # sacrebleu keeps its half-width in float32 (its resample scores are float32)
    assert 0.5 * (ours.ci[1] - ours.ci[0]) * 100 == pytest.approx(float(theirs._ci), rel=1e-6)


@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("name", list(FAMILIES))
def test_paired_test_of_public_statistics_is_sacrebleus(corpus, name, test):
    references, baseline, system = corpus
    named = [("baseline", baseline), ("system", system)]
    metrics = {name: FAMILIES[name](references=[references])}
    results = sacrebleu_significance.PairedTest(named, metrics, None, test_type=test, n_samples=SAMPLES)()[1]
    theirs = next(value for key, value in results.items() if key != "System")
    stats = [ngrameval.statistics(name, lines, [[line] for line in references]) for lines in (baseline, system)]
    ours = ngrameval.paired_test(stats[0], stats[1:], test, n_samples=SAMPLES)
    assert [result[name].p_value for result in ours] == [result.p_value for result in theirs]
    assert np.allclose([result[name].score * 100 for result in ours], [result.score for result in theirs], rtol=1e-14)
