"""Bootstrap confidence intervals and paired significance tests, as sacrebleu 2.6.0 runs them.

Everything works on :mod:`ngrameval.metric` statistics: a resample is a weighted sum of a system's
rows, scored by its family as the tool it reproduces scores resamples
(:meth:`~ngrameval.metric.MetricFamily.score_resampled`), so any registered metric gets intervals and
p-values without re-tokenizing or re-matching. sacrebleu's conventions are kept so
that a user switching loses nothing:

- one index matrix ``rng.choice(n, size=(n_samples, n))`` from ``np.random.default_rng(seed)``,
  the seed read from ``SACREBLEU_SEED`` (default 12345, ``none`` for an unseeded run);
- the interval bounds are the sorted resample scores at positions ``n // 40`` and
  ``n - n // 40 - 1`` (95%), sacrebleu printing their half-width;
- paired bootstrap (Koehn, 2004; Moses' script): the p-value counts resampled differences, centred
  on their mean, above the observed one, plus one; approximate randomization (Riezler and Maxwell,
  2005; multeval): the p-value counts shuffles whose difference exceeds the observed one, plus one.
  Both compare strictly (``>``), so a system compared with itself gets the smallest p-value
  ``1 / (n_samples + 1)``, as in sacrebleu.

For the metrics and options sacrebleu itself computes, the families score resamples with sacrebleu's
own arithmetic (its 0-100 scale, float32 sums in the bootstrap and float32 scoring of them, see
:data:`ngrameval.metric.SACREBLEU_RESAMPLING`): means, intervals and p-values then equal sacrebleu's
bit for bit (divided by 100).

>>> from ngrameval import statistics
>>> references = [["the cat sat on the mat"], ["a dog barks at night"], ["it rains"], ["we go home now"]]
>>> baseline = statistics("rouge", ["the cat sat", "a dog barks", "it rains", "we go"], references)
>>> system = statistics("rouge", ["the cat sat on a mat", "a dog", "it snows", "we go home"], references)
>>> results = paired_test(baseline, [system], seed=12345)
>>> results[1]["rouge1"].p_value < 1, results[0]["rouge1"].ci[0] <= results[0]["rouge1"].mean
(True, True)
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

import numpy as np

from ngrameval.errors import InputError
from ngrameval.metric import Statistics, get_family

DEFAULT_SEED = 12345
SEED_VARIABLE = "SACREBLEU_SEED"
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}  # sacrebleu's PairedTest defaults
TESTS = tuple(DEFAULT_SAMPLES)
MAX_SAMPLES = 1_000_000
# Floats per block of resamples (a block's (resamples, segments) weights): bounds memory at ~64 MB.
BLOCK_FLOATS = 1 << 23
# Drawn indices per block of bootstrap resamples (1 MB of int64; 43 resamples of the 3,004 WMT17 segments): the
# block's indices, counts and weights are made, used and freed in turn, in memory the allocator already holds
# and below the 4 MB from which numpy asks the kernel for huge pages. All 1,000 resamples at once (24 MB of
# indices, as many again for their counts) took 38 to 170 ms of CPU for the same work, as the kernel found or
# compacted huge pages (a busy machine); blocks take 29 to 49 ms.
DRAW_BLOCK = 1 << 17
# Integers below 2**24 are exact in float32, so float32 sums below it are sacrebleu's in any order.
FLOAT32_EXACT = 1 << 24

Seed = Union[str, int, None]


def resolve_seed(seed: Seed = "env") -> int | None:
    """The seed a run uses: ``"env"`` reads ``SACREBLEU_SEED`` as sacrebleu does (``none`` in any case:
    unseeded; unset: 12345), ``None`` is unseeded, an int is used as given.

    >>> resolve_seed(42), resolve_seed(None), resolve_seed(0)
    (42, None, 0)
    """
    if seed == "env":
        value = os.environ.get(SEED_VARIABLE)
        if value is None:
            return DEFAULT_SEED
        if value.strip().lower() == "none":
            return None
        try:
            seed = int(value)
        except ValueError:
            raise InputError(f"{SEED_VARIABLE} must be an integer or 'none', got {value!r}") from None
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be 'env', None or a non-negative integer, got {seed!r}")
    return int(seed)


@dataclass
class SystemResult:
    """One system's result for one output of a metric: its corpus ``score``, and from resampling the
    bootstrap ``mean``, the interval bounds ``ci`` = (low, high) and the paired test's ``p_value``."""

    score: float
    mean: float | None = None
    ci: tuple[float, float] | None = None
    p_value: float | None = None

    @property
    def half_width(self) -> float | None:
        """Half the interval's width: the "± x" sacrebleu prints (and stores as its ``ci``)."""
        return None if self.ci is None else 0.5 * (self.ci[1] - self.ci[0])

    def formatted(self, scale: float = 1.0, width: int = 1, table: bool = False) -> str:
        """sacrebleu's text for this result, values times ``scale`` (100 for sacrebleu's BLEU) with
        ``width`` decimals: ``Score.format``'s ``20.4 (μ = 20.4 ± 0.8)`` (which it prints only for a
        positive mean), or with ``table`` its paired-test table's ``20.4 (20.4 ± 0.8)``; then the
        table's ``(p = 0.0010)*`` (the star: p <= 0.05) when there is a p-value.

        >>> result = SystemResult(0.2041, mean=0.2043, ci=(0.1962, 0.2122), p_value=0.001)
        >>> result.formatted(100)
        '20.4 (μ = 20.4 ± 0.8) (p = 0.0010)*'
        >>> SystemResult(0.2041, mean=0.2043, ci=(0.1962, 0.2122)).formatted(100, width=2, table=True)
        '20.41 (20.43 ± 0.80)'
        >>> SystemResult(0.2041, mean=0.2043).formatted(100)  # a mean without its interval: the score alone
        '20.4'
        """
        text = f"{self.score * scale:.{width}f}"
        if self.mean is not None and self.ci is not None and (table or self.mean > 0):
            spread = 0.5 * (self.ci[1] * scale - self.ci[0] * scale)
            text += f" ({'' if table else 'μ = '}{self.mean * scale:.{width}f} ± {spread:.{width}f})"
        if self.p_value is not None:
            text += f" (p = {self.p_value:.4f})" + ("" if self.p_value > 0.05 else "*")
        return text


def interval_positions(count: int, confidence: float) -> tuple[int, int]:
    """The positions of the interval's bounds among ``count`` sorted resample scores: sacrebleu's
    ``n // 40`` and ``n - n // 40 - 1`` at 95%, generally floor(n (1 - confidence) / 2) from each end
    (the confidence read as the decimal it prints as, so 0.95 gives exactly n // 40).

    >>> interval_positions(1000, 0.95), interval_positions(1000, 0.9), interval_positions(39, 0.95)
    ((25, 974), (50, 949), (0, 38))
    >>> all(interval_positions(n, 0.95)[0] == n // 40 for n in range(1, 5000))
    True
    """
    lower = math.floor(count * (1 - Fraction(str(confidence))) / 2)
    return lower, count - lower - 1


# --------------------------------------------------------------------------- scoring resamples


class _Scorer:
    """Scores sums of one system's rows as the reproduced tool's significance test does: the family's
    :meth:`~ngrameval.metric.MetricFamily.score_resampled`, on the scale of its
    :meth:`~ngrameval.metric.MetricFamily.resampling` (``scale``), a bootstrap resample summed in that
    precision first (sacrebleu's float32)."""

    def __init__(self, stats: Statistics):
        self.stats = stats
        self.family = get_family(stats.metric)
        resampling = self.family.resampling(stats)
        self.scale = resampling.scale
        self.bootstrap_dtype = np.dtype(resampling.bootstrap_dtype)
        self.reads_weights = resampling.reads_weights
        # Rows of integers (BLEU's, NIST's counts): their sums are exact in any order.
        self.integral = _integral(stats.rows)
        # The tool sums np.array(rows, dtype="float32")[draw] in float32. If every partial sum is an integer below
        # 2**24 (a resample draws len(rows) rows), exact sums cast to float32 are its sums, bit for bit; else a
        # resample's sums are its drawn rows added in the tool's order.
        self.sums_drawn = self.bootstrap_dtype == np.float32 and not (
            self.integral and len(stats.rows) * np.abs(stats.rows).max(initial=0) < FLOAT32_EXACT
        )
        # Whether a block of resamples is scored with its weights or drawn indices, not from its sums alone.
        self.reads_draws = self.reads_weights or self.sums_drawn

    def corpus(self) -> np.ndarray:
        """(outputs,) the corpus scores in the test's arithmetic (sacrebleu's: on 0-100, from exact sums)."""
        return self.family.score_resampled(self.stats, self.stats.totals(), None)[0]

    def score_resampled(self, sums: np.ndarray, counts: np.ndarray | None, draws: np.ndarray | None) -> np.ndarray:
        """(B, outputs) the scores of bootstrap resamples: their (B, columns) float64 ``sums``, the
        (B, segments) float64 ``counts`` that made them and the drawn indices (both may be None unless
        :attr:`reads_draws`)."""
        rows = self.stats.rows
        if self.sums_drawn:  # the tool's own order of float32 additions
            assert draws is not None
            sums = np.vstack(
                [rows.astype(np.float32)[part].sum(axis=1) for part in _blocks(draws, len(rows) * rows.shape[1])]
            )
        elif self.bootstrap_dtype == np.float32:
            sums = sums.astype(np.float32)
        return self.family.score_resampled(self.stats, sums, counts if self.reads_weights else None)

    def shuffled(self, other: Statistics, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(B, outputs) twice: the scores of the pseudo-systems that take this system's segment where
        ``keep`` (B, segments) is true and ``other``'s elsewhere, and of their complements
        (approximate randomization)."""
        # keep @ mine + ~keep @ other's (sacrebleu's two products) is other's total + keep @ (mine -
        # other's): one product, exact for integer rows (BLEU, NIST counts), and a system shuffled
        # with itself gets its own total twice, bit for bit. Other rows (TER's average lengths of three
        # references) are summed by sacrebleu's two products: a shuffle that gives back the observed
        # difference in exact arithmetic then exceeds it or not as sacrebleu's rounding has it.
        exact = self.integral and _integral(other.rows)
        difference = self.stats.rows - other.rows
        mine, others = self.stats.totals(), other.totals()
        # For rules reading the last segment: segment i of both systems side by side, and which one a sum took.
        interleaved = (
            Statistics(
                self.stats.metric,
                np.stack([self.stats.rows, other.rows], axis=1).reshape(2 * len(other), -1),
                self.stats.outputs,
                self.stats.signature,
                self.stats.context,
            )
            if self.reads_weights
            else self.stats
        )
        kept: list[np.ndarray] = []
        swapped: list[np.ndarray] = []
        for block in _blocks(keep, len(self.stats)):
            if exact:
                moved = block.astype(np.float64) @ difference
                shuffles = others + moved, mine - moved
            else:
                shuffles = (
                    block @ self.stats.rows + ~block @ other.rows,
                    ~block @ self.stats.rows + block @ other.rows,
                )
            for sums, complement, scores in zip(shuffles, (block, ~block), (kept, swapped)):
                pattern = (
                    np.stack([complement, ~complement], axis=2).reshape(len(complement), -1)
                    if self.reads_weights
                    else None
                )
                scores.append(self.family.score_resampled(interleaved, sums, pattern))
        return np.vstack(kept), np.vstack(swapped)


def _resample_scores(scorers: Sequence[_Scorer], draws: Iterable[np.ndarray]) -> list[np.ndarray]:
    """Per scorer, (B, outputs) its scores of the bootstrap resamples given as blocks of (resamples, segments)
    drawn indices (:func:`_draws`). Systems with integer rows are summed in one product, their rows side by
    side (thin products, one per system, are several times slower); the others one by one, so that a row's
    sum never depends on the neighbours BLAS happened to give it. The integer rows are multiplied in float32
    when every partial sum is an integer below 2**24 (a resample draws ``segments`` rows, so no sum exceeds
    ``segments`` times the largest row value): exact, as float64 is, in half the memory traffic. A scorer
    that needs only the sums is scored once, on the sums of every block (a call per block of a few dozen
    resamples costs more than the block's arithmetic); one that reads a block's weights or indices
    (:attr:`_Scorer.reads_draws`), block by block."""
    segments = len(scorers[0].stats)
    stacked = [i for i, scorer in enumerate(scorers) if scorer.integral]
    rows = np.hstack([scorers[i].stats.rows for i in stacked]) if stacked else None
    product_type = (
        np.float32 if rows is not None and segments * np.abs(rows).max(initial=0) < FLOAT32_EXACT else np.float64
    )
    if rows is not None:
        rows = rows.astype(product_type)
    edges = np.cumsum([0] + [scorers[i].stats.rows.shape[1] for i in stacked])
    # The float64 weights only where a scorer reads them or sums its rows with them (a (B, segments) copy).
    weighted = len(stacked) < len(scorers) or any(scorer.reads_weights for scorer in scorers)
    parts: list[list[np.ndarray]] = [[] for _ in scorers]  # per scorer and block: its scores, or its sums
    for block in draws:
        drawn = _counts(block, segments)
        counts = drawn.astype(np.float64) if weighted else None
        sums: dict[int, np.ndarray] = {}  # scorer -> its (B, columns) sums
        if rows is not None:
            totals = (drawn.astype(product_type) @ rows).astype(np.float64)
            sums = dict(zip(stacked, np.hsplit(totals, edges[1:-1])))
        for i, scorer in enumerate(scorers):
            if i not in sums:
                assert counts is not None  # a scorer not stacked makes the batch weighted
                sums[i] = counts @ scorer.stats.rows
            parts[i].append(scorer.score_resampled(sums[i], counts, block) if scorer.reads_draws else sums[i])
    return [
        np.vstack(part) if scorer.reads_draws else scorer.score_resampled(np.vstack(part), None, None)
        for scorer, part in zip(scorers, parts)
    ]


def _integral(rows: np.ndarray) -> bool:
    """Rows of integers whose sums are exact in float64 in any order."""
    return bool(np.all(rows == np.floor(rows)) and np.abs(rows).sum(axis=0).max(initial=0) < 2**53)


def _blocks(matrix: np.ndarray, floats_per_row: int) -> Iterator[np.ndarray]:
    """Row blocks of ``matrix`` holding about BLOCK_FLOATS floats of work each."""
    size = max(1, BLOCK_FLOATS // max(1, floats_per_row))
    for start in range(0, len(matrix), size):
        yield matrix[start : start + size]


def _counts(draws: np.ndarray, segments: int) -> np.ndarray:
    """(B, segments) how often each segment was drawn, from (B, draws) indices.

    >>> _counts(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2, 0, 1], [0, 1, 2]]
    """
    offsets = draws + (np.arange(len(draws)) * segments)[:, None]
    return np.bincount(offsets.ravel(), minlength=len(draws) * segments).reshape(len(draws), segments)


def _draws(seed: int | np.random.Generator | None, segments: int, samples: int) -> Iterator[np.ndarray]:
    """sacrebleu's bootstrap indices, ``default_rng(seed).choice(segments, size=(samples, segments),
    replace=True)`` (a generator given: its next such draw), in blocks of rows of about :data:`DRAW_BLOCK`
    indices, drawn in turn from one generator as they are used: its stream does not depend on how the draw is
    cut, so the blocks are sacrebleu's matrix, row for row.

    >>> blocks = list(_draws(12345, 10, 3))
    >>> np.vstack(blocks).tolist() == np.random.default_rng(12345).choice(10, size=(3, 10), replace=True).tolist()
    True
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    rows = max(1, DRAW_BLOCK // segments)
    for start in range(0, samples, rows):
        yield rng.choice(segments, size=(min(rows, samples - start), segments), replace=True)


def _bootstrap_result(
    score: float, resampled: np.ndarray, scale: float, confidence: float, mean_of: Callable[[np.ndarray], float]
) -> SystemResult:
    """The mean and interval bounds of one output's resample scores (on the test's scale), divided by
    ``scale``. sacrebleu's ``estimate_ci`` averages the sorted scores with NumPy, its
    ``Score.estimate_ci`` (``corpus_score(n_bootstrap=...)``) with ``statistics.mean``: ``mean_of``."""
    ordered = np.sort(resampled)
    lower, upper = interval_positions(len(ordered), confidence)
    return SystemResult(score, mean_of(ordered) / scale, (float(ordered[lower]) / scale, float(ordered[upper]) / scale))


def _numpy_mean(ordered: np.ndarray) -> float:
    return float(ordered.mean())


def _exact_mean(ordered: np.ndarray) -> float:
    # statistics.mean of NumPy scalars rounds the exact mean to their type (float32 scores: float32). (Imported
    # here: statistics and the random module it imports cost ~3 ms of start-up that the paired tests never use.)
    import statistics

    return float(ordered.dtype.type(statistics.mean(ordered.tolist())))


def _p_value(exceeding: np.ndarray) -> float:
    """(count + 1) / (trials + 1), multeval's and sacrebleu's estimate (never 0)."""
    return (int(np.sum(exceeding)) + 1) / (len(exceeding) + 1)


def _exceeds(statistic: np.ndarray, observed: float) -> np.ndarray:
    """``statistic > observed`` as sacrebleu compares them: its observed difference is a Python float, which
    NumPy 2 rounds to the statistic's dtype (float32 for float32 bootstrap scores; NEP 50)."""
    return statistic > statistic.dtype.type(observed)


def _bootstrap_p_value(system: np.ndarray, baseline: np.ndarray, observed: float) -> float:
    """The paired bootstrap p-value of one output from the (B,) resample scores of a system and of the
    baseline on the same draws: their absolute differences, centred on their mean, exceeding the observed
    one (Moses' and sacrebleu's), in the scores' precision, the mean summed over one contiguous vector as
    sacrebleu's (NumPy sums a column of a matrix in another order)."""
    differences = np.abs(np.ascontiguousarray(system) - np.ascontiguousarray(baseline))
    return _p_value(_exceeds(differences - differences.mean(), observed))


# --------------------------------------------------------------------------- public API


def confidence_interval(
    stats: Statistics, n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> dict[str, SystemResult]:
    """Output name -> the corpus score with the bootstrap mean and interval of one system, as sacrebleu's
    ``corpus_score(..., n_bootstrap=n_samples)`` (``--confidence``) computes them.

    >>> from ngrameval import statistics
    >>> stats = statistics("bleu", ["a b c d e", "x y z w", "p q r s t"],
    ...                    [["a b c d f"], ["x y z w"], ["p q r s"]], tokenize="none")
    >>> import ngrameval
    >>> result = confidence_interval(stats, seed=12345)["bleu"]
    >>> result.score == ngrameval.bleu(["a b c d e", "x y z w", "p q r s t"], [["a b c d f"], ["x y z w"], ["p q r s"]],
    ...                                tokenize="none").bleu, result.ci[0] <= result.score <= result.ci[1]
    (True, True)
    """
    _check_samples("n_samples", n_samples)
    _check_confidence(confidence)
    _check_statistics("stats", stats)
    seed = resolve_seed(seed)
    scorer = _Scorer(stats)
    own = _own_interval(scorer, n_samples, confidence)
    if own is not None:
        return own
    (resampled,) = _resample_scores([scorer], _draws(seed, len(stats), n_samples))
    return _interval(scorer, resampled, confidence)


def _own_interval(scorer: _Scorer, n_samples: int, confidence: float) -> dict[str, SystemResult] | None:
    """The interval of the reproduced tool's own resampling (ROUGE-1.5.5.pl's, which ignores the seed), if any."""
    own = scorer.family.own_interval(scorer.stats, n_samples, confidence)
    if own is None:
        return None
    return {
        name: SystemResult(score, float(own[name][0]), (float(own[name][1]), float(own[name][2])))
        for name, score in scorer.family.corpus_scores(scorer.stats).items()
    }


def _interval(scorer: _Scorer, resampled: np.ndarray, confidence: float) -> dict[str, SystemResult]:
    """Output name -> the corpus score, bootstrap mean and interval of :func:`confidence_interval`."""
    return {
        name: _bootstrap_result(score, resampled[:, j], scorer.scale, confidence, _exact_mean)
        for j, (name, score) in enumerate(scorer.family.corpus_scores(scorer.stats).items())
    }


def pairwise_bootstrap(
    systems: Sequence[Statistics], n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> tuple[list[dict[str, SystemResult]], dict[str, np.ndarray]]:
    """Every pair of systems compared at once, for a ranking with clusters: per system, output name -> its
    corpus score, bootstrap mean and interval (:func:`confidence_interval`'s); and per output name, the
    (systems, systems) matrix of paired bootstrap p-values, entry ``[i, j]`` that of
    ``paired_test(systems[i], [systems[j]], "bs", n_samples, seed=seed)`` (seeded, as sacrebleu's paired
    bootstrap with ``systems[i]`` as the baseline; the matrix is symmetric, its diagonal ``1 / (n_samples + 1)``).

    sacrebleu resamples both systems of a seeded test with the same indices, so one draw serves every pair:
    each system's resample scores are computed once (systems with integer rows in one matrix product), and a
    pair's test is arithmetic on two of those score vectors. An unseeded run (``seed`` None or 0) shares one
    unseeded draw among all pairs where ``paired_test`` draws one per system.

    >>> from ngrameval import statistics
    >>> references = [["a b c d f"], ["x y z w"], ["p q r s"], ["k l m n"]]
    >>> outputs = [["a b c d e", "x y z w", "p q r s t", "k l"], ["a b c d f", "x y w", "p q r s", "k l m n"]]
    >>> systems = [statistics("bleu", output, references, tokenize="none") for output in outputs]
    >>> intervals, p_values = pairwise_bootstrap(systems, seed=12345)
    >>> float(p_values["bleu"][0, 1]) == paired_test(systems[0], [systems[1]], seed=12345)[1]["bleu"].p_value
    True
    >>> intervals[1]["bleu"] == confidence_interval(systems[1], seed=12345)["bleu"]
    True
    """
    scorers, resampled = _resample_systems(systems, n_samples, confidence, resolve_seed(seed))
    intervals = [
        _own_interval(scorer, n_samples, confidence) or _interval(scorer, scores, confidence)
        for scorer, scores in zip(scorers, resampled)
    ]
    return intervals, _pairwise_p_values(scorers, resampled, n_samples)


def ranked_paired_test(
    systems: Sequence[Statistics], n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> tuple[list[dict[str, SystemResult]], dict[str, np.ndarray]]:
    """A leaderboard's two bootstrap tests: ``paired_test(systems[0], systems[1:], "bs", n_samples, confidence,
    seed)`` and the p-value matrices of ``pairwise_bootstrap(systems, n_samples, confidence, seed)``. Seeded
    (a seed other than None and 0), both resample every system with the same indices: the resample scores are
    computed once for the two.

    >>> from ngrameval import statistics
    >>> references = [["a b c d f"], ["x y z w"], ["p q r s"], ["k l m n"]]
    >>> outputs = [["a b c d e", "x y z w", "p q r s t", "k l"], ["a b c d f", "x y w", "p q r s", "k l m n"],
    ...            ["a b", "x y z w", "p q", "k l m n"]]
    >>> systems = [statistics("bleu", output, references, tokenize="none") for output in outputs]
    >>> results, p_values = ranked_paired_test(systems, seed=12345)
    >>> results == paired_test(systems[0], systems[1:], "bs", seed=12345)
    True
    >>> all((p_values[name] == pairwise_bootstrap(systems, seed=12345)[1][name]).all() for name in p_values)
    True
    """
    seed = resolve_seed(seed)
    if not seed:  # paired_test draws the systems' resamples unseeded, apart from the baseline's interval
        return (
            paired_test(systems[0], systems[1:], "bs", n_samples, confidence, seed),
            pairwise_bootstrap(systems, n_samples, confidence, seed)[1],
        )
    scorers, resampled = _resample_systems(systems, n_samples, confidence, seed)
    return (
        _paired_bootstrap_results(scorers[0], resampled[0], resampled[0], scorers[1:], resampled[1:], confidence),
        _pairwise_p_values(scorers, resampled, n_samples),
    )


def _resample_systems(
    systems: Sequence[Statistics], n_samples: int, confidence: float, seed: int | None
) -> tuple[list[_Scorer], list[np.ndarray]]:
    """The checked systems' scorers and their (B, outputs) resample scores, all on one draw."""
    _check_samples("n_samples", n_samples)
    _check_confidence(confidence)
    if isinstance(systems, Statistics) or not systems:
        raise InputError("systems must be a non-empty sequence of Statistics")
    for index, system in enumerate(systems):
        _check_statistics(f"systems[{index}]", system)
        _check_comparable(systems[0], system, index)  # (systems[0] in the message's "baseline")
    scorers = [_Scorer(system) for system in systems]
    return scorers, _resample_scores(scorers, _draws(seed, len(systems[0]), n_samples))


def _pairwise_p_values(
    scorers: Sequence[_Scorer], resampled: Sequence[np.ndarray], n_samples: int
) -> dict[str, np.ndarray]:
    """Per output name, the (systems, systems) paired bootstrap p-values of :func:`pairwise_bootstrap`."""
    corpus = np.vstack([scorer.corpus() for scorer in scorers])  # (systems, outputs), the test's arithmetic
    p_values = {}
    for j, name in enumerate(scorers[0].stats.outputs):
        # |a - b| is |b - a|: each pair once. (A system's scores may be float32 and another's float64, as
        # sacrebleu's, so a pair is computed in its own precision.)
        matrix = np.full((len(scorers), len(scorers)), 1 / (n_samples + 1))
        for i, k in itertools.combinations(range(len(scorers)), 2):
            matrix[i, k] = matrix[k, i] = _bootstrap_p_value(
                resampled[k][:, j], resampled[i][:, j], abs(corpus[i, j] - corpus[k, j])
            )
        p_values[name] = matrix
    return p_values


def _baseline_result(base: _Scorer, resampled: np.ndarray, confidence: float) -> dict[str, SystemResult]:
    """:func:`paired_test`'s baseline: output name -> its corpus score, bootstrap mean and interval."""
    return {
        name: _bootstrap_result(score, resampled[:, j], base.scale, confidence, _numpy_mean)
        for j, (name, score) in enumerate(base.family.corpus_scores(base.stats).items())
    }


def _paired_bootstrap_results(
    base: _Scorer,
    base_resampled: np.ndarray,
    base_on_draws: np.ndarray,
    scorers: Sequence[_Scorer],
    systems_resampled: Sequence[np.ndarray],
    confidence: float,
) -> list[dict[str, SystemResult]]:
    """:func:`paired_test`'s paired bootstrap results: the baseline's interval from ``base_resampled``, each
    system's interval from its resample scores and its p-value against the baseline's on the same draws."""
    results = [_baseline_result(base, base_resampled, confidence)]
    base_corpus = base.corpus()
    for scorer, resampled in zip(scorers, systems_resampled):
        observed = np.abs(base_corpus - scorer.corpus())
        result = {}
        for j, (name, score) in enumerate(scorer.family.corpus_scores(scorer.stats).items()):
            result[name] = _bootstrap_result(score, resampled[:, j], scorer.scale, confidence, _numpy_mean)
            result[name].p_value = _bootstrap_p_value(resampled[:, j], base_on_draws[:, j], observed[j])
        results.append(result)
    return results


def paired_test(
    baseline: Statistics,
    systems: Sequence[Statistics],
    test: str = "bs",
    n_samples: int | None = None,
    confidence: float = 0.95,
    seed: Seed = "env",
    n_ar_confidence: int = -1,
) -> list[dict[str, SystemResult]]:
    """sacrebleu's ``PairedTest``: per system (the baseline first), output name -> its result. The
    baseline gets its bootstrap mean and interval; each system its p-value against the baseline and,
    with ``test="bs"`` (paired bootstrap, 1000 resamples by default) or with ``n_ar_confidence`` > 0
    for ``test="ar"`` (approximate randomization, 10,000 trials by default; 0 means 1000 resamples),
    its mean and interval. Every system must share the baseline's metric, options and references.

    >>> from ngrameval import statistics
    >>> references = [["a b c d f"], ["x y z w"], ["p q r s"], ["k l m n"]]
    >>> baseline = statistics("bleu", ["a b c d e", "x y z w", "p q r s t", "k l"], references, tokenize="none")
    >>> system = statistics("bleu", ["a b c d f", "x y w", "p q r s", "k l m n"], references, tokenize="none")
    >>> bs, ar = (paired_test(baseline, [system], test, seed=12345) for test in ("bs", "ar"))
    >>> 0 < bs[1]["bleu"].p_value <= 1, 0 < ar[1]["bleu"].p_value <= 1, ar[1]["bleu"].mean is None
    (True, True, True)
    >>> paired_test(baseline, [baseline], "ar", seed=12345)[1]["bleu"].p_value == 1 / (10000 + 1)   # strict ">"
    True
    """
    if test not in TESTS:
        raise InputError(
            f"unknown test {test!r}; valid tests: 'bs' (paired bootstrap), 'ar' (approximate randomization)"
        )
    n_samples = DEFAULT_SAMPLES[test] if n_samples is None else n_samples
    _check_samples("n_samples", n_samples)
    _check_confidence(confidence)
    n_ar_confidence = _resolve_ar_confidence(test, n_ar_confidence)
    _check_statistics("baseline", baseline)
    if isinstance(systems, Statistics):
        raise InputError("systems must be a sequence of Statistics (wrap a single system in a list)")
    for index, system in enumerate(systems):
        _check_statistics(f"systems[{index}]", system)
        _check_comparable(baseline, system, index)
    seed = resolve_seed(seed)
    # sacrebleu's PairedTest hands each system's test ``seed if seed else None``, while the baseline's
    # interval (_bootstrap_resample) seeds with the seed itself: seed 0 gives a reproducible baseline
    # interval but unseeded system tests. We keep that, and draw one matrix shared by every system
    # where sacrebleu draws a fresh unseeded one per system: each comparison sees the same distribution.
    system_seed = seed if seed else None
    segments = len(baseline)
    base = _Scorer(baseline)
    scorers = [_Scorer(system) for system in systems]
    if test == "bs":
        # A fresh default_rng(system_seed) per system draws the baseline's indices again when seeded. The
        # baseline is scored on the systems' draws too: when seeded, they are its interval's.
        base_draws = _draws(seed, segments, n_samples)
        system_draws = base_draws if system_seed is not None else _draws(None, segments, n_samples)
        base_on_draws, *systems_resampled = _resample_scores([base] + scorers, system_draws)
        base_resampled = base_on_draws if system_draws is base_draws else _resample_scores([base], base_draws)[0]
        return _paired_bootstrap_results(base, base_resampled, base_on_draws, scorers, systems_resampled, confidence)
    # Approximate randomization: the intervals' draws (None: no intervals).
    base_interval_draws = _draws(seed, segments, n_ar_confidence) if n_ar_confidence > 0 else None
    rng = np.random.default_rng(system_seed)
    keep_baseline = rng.integers(2, size=(n_samples, segments), dtype=bool)
    system_interval_draws = _draws(rng, segments, n_ar_confidence) if n_ar_confidence > 0 else None
    systems_interval_scores: Sequence[np.ndarray | None] = (
        _resample_scores(scorers, system_interval_draws) if system_interval_draws is not None else [None] * len(scorers)
    )
    results = [
        _baseline_result(base, _resample_scores([base], base_interval_draws)[0], confidence)
        if base_interval_draws is not None
        else {name: SystemResult(score) for name, score in base.family.corpus_scores(baseline).items()}
    ]
    base_corpus = base.corpus()
    for scorer, resampled in zip(scorers, systems_interval_scores):
        observed = np.abs(base_corpus - scorer.corpus())
        kept, swapped = base.shuffled(scorer.stats, keep_baseline)
        result = {}
        for j, (name, score) in enumerate(scorer.family.corpus_scores(scorer.stats).items()):
            result[name] = (
                SystemResult(score)
                if resampled is None
                else _bootstrap_result(score, resampled[:, j], scorer.scale, confidence, _numpy_mean)
            )
            result[name].p_value = _p_value(_exceeds(np.abs(kept[:, j] - swapped[:, j]), observed[j]))
        results.append(result)
    return results


def signature_suffix(test: str | None, n_samples: int, seed: int | None, n_ar_confidence: int = -1) -> str:
    """The fields sacrebleu adds to a signature for resampling, in its order (``bs``, ``ar``, ``seed``;
    sacrebleu writes them right after ``nrefs``): ``test`` None for a single system's interval
    (``--confidence``), ``"bs"`` or ``"ar"`` for a paired test; ``seed`` as :func:`resolve_seed` gives it.

    >>> signature_suffix(None, 1000, 12345), signature_suffix("bs", 1000, None)
    ('|bs:1000|seed:12345', '|bs:1000|seed:none')
    >>> signature_suffix("ar", 10000, 12345, n_ar_confidence=1000)
    '|bs:1000|ar:10000|seed:12345'
    """
    if test is not None and test not in TESTS:
        raise InputError(f"unknown test {test!r}; valid tests: None (an interval), 'bs', 'ar'")
    _check_samples("n_samples", n_samples)
    fields: dict[str, int | str | None] = {
        "bs": n_samples if test in (None, "bs") else None,
        "ar": n_samples if test == "ar" else None,
    }
    if test == "ar" and _resolve_ar_confidence(test, n_ar_confidence) > 0:
        fields["bs"] = _resolve_ar_confidence(test, n_ar_confidence)
    fields["seed"] = str(seed).lower()
    return "".join(f"|{name}:{value}" for name, value in fields.items() if value is not None)


def with_suffix(signature: str, suffix: str) -> str:
    """A signature with :func:`signature_suffix`'s fields where sacrebleu writes them: after a leading
    ``nrefs`` field (sacrebleu's format, which the sacrebleu BLEU variant keeps), at the end otherwise.

    >>> with_suffix("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0", "|bs:1000|seed:12345")
    'nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
    """
    first, bar, rest = signature.partition("|")
    if first.startswith("nrefs:"):
        return first + suffix + bar + rest
    return signature + suffix


# --------------------------------------------------------------------------- checks


def _check_samples(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_SAMPLES:
        raise InputError(f"{name} must be an integer from 1 to {MAX_SAMPLES:,}, got {value!r}")


def _check_confidence(confidence: float) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InputError(f"confidence must be a number strictly between 0 and 1 (0.95 for 95%), got {confidence!r}")


def _resolve_ar_confidence(test: str, n_ar_confidence: int) -> int:
    """sacrebleu's ``n_ar_confidence``: -1 no interval, 0 the default 1000 resamples; AR's option only."""
    if n_ar_confidence == -1:
        return -1
    if test != "ar":
        raise InputError("n_ar_confidence is for test='ar' only (the paired bootstrap gives intervals itself)")
    if n_ar_confidence == 0:
        return DEFAULT_SAMPLES["bs"]
    _check_samples("n_ar_confidence (or -1, or 0 for 1000)", n_ar_confidence)
    return int(n_ar_confidence)


def _check_statistics(name: str, stats: Statistics) -> None:
    if not isinstance(stats, Statistics):
        raise InputError(f"{name} must be ngrameval.Statistics (from ngrameval.statistics), got {type(stats).__name__}")
    if len(stats) == 0:
        raise InputError(f"{name} has no segments to resample")


def _check_comparable(baseline: Statistics, system: Statistics, index: int) -> None:
    if system.metric != baseline.metric:
        raise InputError(
            f"systems[{index}] is scored with {system.metric!r} but the baseline with "
            f"{baseline.metric!r}: compare systems under the same metric"
        )
    if system.signature != baseline.signature or system.outputs != baseline.outputs:
        raise InputError(
            f"systems[{index}] has signature {system.signature!r} but the baseline "
            f"{baseline.signature!r}: compare systems under the same options"
        )
    if len(system) != len(baseline):
        raise InputError(
            f"systems[{index}] has {len(system)} segments but the baseline {len(baseline)}: "
            "paired tests need the same segments"
        )
