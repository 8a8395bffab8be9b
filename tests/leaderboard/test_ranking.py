"""Ranking many systems: ngrameval.significance.pairwise_bootstrap against sacrebleu 2.6.0's own paired
bootstrap (PairedTest, run in the test, each system of a pair as the baseline in turn) and its own bootstrap
intervals, and ngrameval.leaderboard.scoring.clusters against its definition checked by brute force.

sacrebleu scores on 0-100 and ngrameval on 0-1: p-values are compared with ``==`` (the same counts), means
with ours times 100 (``approx`` at 1e-12: dividing by 100 and multiplying back is not exact in the last bit).
"""

import itertools

import numpy as np
import pytest
import sacrebleu.metrics as sacrebleu_metrics
import sacrebleu.significance as sacrebleu_significance

from ngrameval.leaderboard.scoring import clusters
from ngrameval.metric import statistics
from ngrameval.significance import confidence_interval, paired_test, pairwise_bootstrap, ranked_paired_test
from tests.data import wmt17_reference, wmt17_system
from tests.search import cases

SEGMENTS = 120
SYSTEMS = ("LIUM-NMT.4900", "C-3MA.4959", "online-B.0", "xmu.4910")
SACREBLEU = {
    "bleu": lambda refs: sacrebleu_metrics.BLEU(references=refs),
    "chrf": lambda refs: sacrebleu_metrics.CHRF(references=refs),
    "ter": lambda refs: sacrebleu_metrics.TER(references=refs),
}


@pytest.fixture(autouse=True)
def sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.fixture(scope="module")
def corpus(shared):
    reference = wmt17_reference(shared)[:SEGMENTS]
    return reference, {name: wmt17_system(shared, name)[:SEGMENTS] for name in SYSTEMS}


# chrF in the fast tier; BLEU's and TER's runs of sacrebleu's bootstrap take the longest.
@pytest.mark.parametrize(
    "metric, segments",
    [
        pytest.param("bleu", SEGMENTS, marks=pytest.mark.slow),
        ("chrf", SEGMENTS),
        pytest.param("ter", 30, marks=pytest.mark.slow),
    ],
)
def test_every_pair_is_sacrebleus_paired_bootstrap(corpus, metric, segments):
    """Each pair once (sacrebleu's test is symmetric: the matrix's symmetry covers the other order)."""
    reference, systems = corpus[0][:segments], {name: lines[:segments] for name, lines in corpus[1].items()}
    stats = [statistics(metric, lines, [[line] for line in reference]) for lines in systems.values()]
    intervals, p_values = pairwise_bootstrap(stats, n_samples=200, seed=12345)
    matrix = p_values[metric]
    names = list(systems)
    for i, j in itertools.combinations(range(len(names)), 2):
        _, columns = sacrebleu_significance.PairedTest(
            [(names[i], systems[names[i]]), (names[j], systems[names[j]])],
            {metric: SACREBLEU[metric]([reference])},
            None,
            test_type="bs",
            n_samples=200,
        )()
        (theirs,) = (results for key, results in columns.items() if key != "System")
        assert matrix[i, j] == theirs[1].p_value
    assert np.array_equal(matrix, matrix.T) and np.all(np.diag(matrix) == 1 / 201)
    for lines, interval in zip(systems.values(), intervals):
        theirs = SACREBLEU[metric]([reference]).corpus_score(lines, [reference], n_bootstrap=200)
        assert interval[metric].mean * 100 == pytest.approx(theirs._mean, rel=1e-12)


def test_ranked_paired_test_is_sacrebleus_paired_test_and_every_pair(corpus):
    """The leaderboard's one resample: sacrebleu's PairedTest of every system against the first (run here), and
    the pairs' p-values of pairwise_bootstrap (itself checked against sacrebleu above)."""
    reference, systems = corpus
    stats = [statistics("chrf", lines, [[line] for line in reference]) for lines in systems.values()]
    results, p_values = ranked_paired_test(stats, n_samples=200, seed=12345)
    _, columns = sacrebleu_significance.PairedTest(
        list(systems.items()), {"chrf": SACREBLEU["chrf"]([reference])}, None, test_type="bs", n_samples=200
    )()
    (theirs,) = (column for key, column in columns.items() if key != "System")
    for ours, their_result in zip(results, theirs):
        assert ours["chrf"].p_value == their_result.p_value
        assert ours["chrf"].mean * 100 == pytest.approx(their_result.mean, rel=1e-12)
        assert 0.5 * (ours["chrf"].ci[1] * 100 - ours["chrf"].ci[0] * 100) == pytest.approx(their_result.ci, rel=1e-12)
    assert np.array_equal(p_values["chrf"], pairwise_bootstrap(stats, n_samples=200, seed=12345)[1]["chrf"])


def test_random_systems_ranked_paired_test_is_the_two_tests():
    """Seeded random search: ranked_paired_test gives paired_test's results and pairwise_bootstrap's p-values."""
    rng = np.random.default_rng(31)
    words = "the a cat dog sat on mat barks at night it rains we go home".split()
    for _ in range(cases(6)):
        segments, count = int(rng.integers(2, 12)), int(rng.integers(2, 5))
        text = lambda: " ".join(rng.choice(words, size=int(rng.integers(1, 8))))  # noqa: E731
        references = [[text()] for _ in range(segments)]
        metric, seed = str(rng.choice(["bleu", "chrf", "ter", "rouge"])), int(rng.integers(1, 1000))
        stats = [statistics(metric, [text() for _ in range(segments)], references) for _ in range(count)]
        results, p_values = ranked_paired_test(stats, n_samples=50, seed=seed)
        assert results == paired_test(stats[0], stats[1:], "bs", n_samples=50, seed=seed)
        pairs = pairwise_bootstrap(stats, n_samples=50, seed=seed)[1]
        assert all(np.array_equal(p_values[name], pairs[name]) for name in pairs)


def test_random_systems_against_paired_test():
    """Seeded random search: for random small corpora, every entry of the matrix is paired_test's p-value and every
    interval is confidence_interval's (both checked against sacrebleu in tests/significance)."""
    rng = np.random.default_rng(27)
    words = "the a cat dog sat on mat barks at night it rains we go home".split()
    for _ in range(cases(6)):
        segments, count = int(rng.integers(2, 12)), int(rng.integers(2, 5))
        text = lambda: " ".join(rng.choice(words, size=int(rng.integers(1, 8))))  # noqa: E731
        references = [[text()] for _ in range(segments)]
        metric = str(rng.choice(["bleu", "chrf", "ter", "rouge"]))
        stats = [statistics(metric, [text() for _ in range(segments)], references) for _ in range(count)]
        intervals, p_values = pairwise_bootstrap(stats, n_samples=50, seed=7)
        for output in stats[0].outputs:
            for i, j in itertools.permutations(range(count), 2):
                pair = paired_test(stats[i], [stats[j]], n_samples=50, seed=7)
                assert p_values[output][i, j] == pair[1][output].p_value
            for system, interval in zip(stats, intervals):
                assert interval[output] == confidence_interval(system, n_samples=50, seed=7)[output]


def _clusters_by_definition(scores, p_values, level):
    """Every partition of the ranked systems into consecutive groups, keeping those where each system of a group
    is significantly different from each system of every later group; the finest such partition."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    best = None
    for cuts in itertools.product([False, True], repeat=len(order) - 1):
        groups, current = [], [order[0]]
        for cut, system in zip(cuts, order[1:]):
            if cut:
                groups.append(current)
                current = []
            current.append(system)
        groups.append(current)
        valid = all(
            p_values[a, b] <= level
            for g, group in enumerate(groups)
            for later in groups[g + 1 :]
            for a in group
            for b in later
        )
        if valid and (best is None or len(groups) > len(best)):
            best = groups
    return best


def test_clusters_are_the_finest_partition_the_rule_allows():
    rng = np.random.default_rng(5)
    for _ in range(cases(200)):
        count = int(rng.integers(1, 8))
        scores = rng.random(count).tolist()
        upper = np.triu(rng.choice([0.001, 0.03, 0.2, 0.9], size=(count, count)), 1)
        p_values = upper + upper.T + np.eye(count)
        assert clusters(scores, p_values, 0.05) == _clusters_by_definition(scores, p_values, 0.05)


def test_clusters_of_an_error_rate_put_the_smallest_first():
    p_values = np.array([[1.0, 0.001], [0.001, 1.0]])
    assert clusters([0.3, 0.6], p_values, lower_is_better=True) == [[0], [1]]
    assert clusters([0.3, 0.6], p_values) == [[1], [0]]


@pytest.mark.parametrize(
    "scores, p_values, message",
    [
        ([0.1, 0.2], np.ones((3, 3)), "one score per system"),
        ([], np.ones((0, 0)), "one score per system"),
    ],
)
def test_clusters_refuse_bad_input(scores, p_values, message):
    with pytest.raises(ValueError, match=message):
        clusters(scores, p_values)


def test_pairwise_bootstrap_refuses_systems_scored_apart(corpus):
    reference, systems = corpus
    lines = list(systems.values())
    first = statistics("bleu", lines[0], [[line] for line in reference])
    other = statistics("bleu", lines[1], [[line] for line in reference], tokenize="none")
    with pytest.raises(ValueError, match="same options"):
        pairwise_bootstrap([first, other])
    with pytest.raises(ValueError, match="non-empty sequence"):
        pairwise_bootstrap([])
