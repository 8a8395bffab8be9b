"""Bootstrap confidence intervals and paired significance tests, as sacrebleu 2.6.0 runs them.

A resample is a weighted sum of a system's :mod:`ngrameval.metric` statistics rows, scored by its family as the
reproduced tool scores resamples (:meth:`~ngrameval.metric.MetricFamily.score_resampled`): no re-tokenizing.
sacrebleu's conventions are kept: one index matrix ``default_rng(seed).choice(n, size=(n_samples, n))``, the seed
from ``SACREBLEU_SEED`` (default 12345, ``none``: unseeded); interval bounds at sorted positions ``n // 40`` and
``n - n // 40 - 1`` (95%); the paired bootstrap's p-value (Koehn, 2004) counts centred resampled differences above
the observed one, approximate randomization's (Riezler and Maxwell, 2005) shuffles whose difference exceeds it,
each plus one. For sacrebleu's metrics the families use its arithmetic (0-100, float32:
:data:`ngrameval.metric.SACREBLEU_RESAMPLING`): means, intervals and p-values equal sacrebleu's bit for bit.

>>> from ngrameval import statistics
>>> references = [["the cat sat on the mat"], ["a dog barks at night"], ["it rains"], ["we go home now"]]
>>> baseline = statistics("rouge", ["the cat sat", "a dog barks", "it rains", "we go"], references)
>>> system = statistics("rouge", ["the cat sat on a mat", "a dog", "it snows", "we go home"], references)
>>> results = paired_test(baseline, [system], seed=12345)
>>> results[1]["rouge1"].p_value < 1, results[0]["rouge1"].ci[0] <= results[0]["rouge1"].mean
(True, True)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
from collections.abc import Iterable, Iterator, Sequence
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
BLOCK_FLOATS = 1 << 23  # floats per block of resamples' (resamples, segments) weights: ~64 MB at most
# Drawn indices per block of bootstrap resamples (1 MB of int64): made, used and freed in memory the allocator
# holds, below numpy's 4 MB huge-page threshold (all 1,000 WMT17 resamples at once: 38 to 170 ms; blocks: 29-49).
DRAW_BLOCK = 1 << 17
# Integers below 2**24 are exact in float32, so float32 sums below it are sacrebleu's in any order.
FLOAT32_EXACT = 1 << 24

Seed = Union[str, int, None]


def resolve_seed(seed: Seed = "env") -> int | None:
    """The seed a run uses: ``"env"`` reads ``SACREBLEU_SEED`` as sacrebleu does (``none``: unseeded; unset:
    12345), ``None`` is unseeded, an int is used as given.

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
    """One system's result for one output: its corpus ``score``, and from resampling the bootstrap ``mean``, the
    interval bounds ``ci`` = (low, high) and the paired test's ``p_value``."""

    score: float
    mean: float | None = None
    ci: tuple[float, float] | None = None
    p_value: float | None = None

    def formatted(self, scale: float = 1.0, width: int = 1, table: bool = False) -> str:
        """sacrebleu's text for this result, values times ``scale`` with ``width`` decimals: ``Score.format``'s
        ``20.4 (μ = 20.4 ± 0.8)`` (only for a positive mean), or with ``table`` its paired-test table's
        ``20.4 (20.4 ± 0.8)``; then ``(p = 0.0010)*`` (the star: p <= 0.05) when there is a p-value.

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


class _Scorer:
    """Scores sums of one system's rows as the reproduced tool's significance test does."""

    def __init__(self, stats: Statistics):
        self.stats = stats
        self.family = get_family(stats.metric)
        resampling = self.family.resampling(stats)
        self.scale = resampling.scale
        self.bootstrap_dtype = np.dtype(resampling.bootstrap_dtype)
        self.reads_weights = resampling.reads_weights
        self.integral = _integral(stats.rows)  # counts: their sums are exact in any order
        # The tool sums np.array(rows, dtype="float32")[draw] in float32: exact sums cast to float32 are its sums
        # if every partial sum is an integer below 2**24, else the drawn rows are added in the tool's order.
        self.sums_drawn = self.bootstrap_dtype == np.float32 and not (
            self.integral and len(stats.rows) * np.abs(stats.rows).max(initial=0) < FLOAT32_EXACT
        )
        self.reads_draws = self.reads_weights or self.sums_drawn

    def corpus(self) -> np.ndarray:
        """(outputs,) the corpus scores in the test's arithmetic."""
        return self.family.score_resampled(self.stats, self.stats.totals(), None)[0]

    def score_resampled(self, sums: np.ndarray, counts: np.ndarray | None, draws: np.ndarray | None) -> np.ndarray:
        """(B, outputs) resample scores from (B, columns) ``sums``, (B, segments) ``counts`` and ``draws``."""
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
        """(B, outputs) scores of the shuffles taking this system's segment where ``keep``, and of complements."""
        # keep @ mine + ~keep @ other's (sacrebleu's two products) is other's total + keep @ (mine - other's): one
        # product, exact for integer rows. Other rows (TER's average reference lengths) are summed by sacrebleu's
        # two products, so that a shuffle equal to the observed difference exceeds it as sacrebleu's rounding has it.
        exact = self.integral and _integral(other.rows)
        difference = self.stats.rows - other.rows
        mine, others = self.stats.totals(), other.totals()
        # For rules reading the last segment: segment i of both systems side by side, and which one a sum took
        both = (
            np.stack([self.stats.rows, other.rows], axis=1).reshape(2 * len(other), -1) if self.reads_weights else None
        )
        interleaved = self.stats if both is None else dataclasses.replace(self.stats, rows=both)
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
    """Per scorer, (B, outputs) its scores of the resamples drawn as blocks of indices. Integer rows are summed
    in one product, side by side (a product per system is several times slower), in float32 when exact; other
    rows one by one, so that a sum never depends on its BLAS neighbours."""
    segments = len(scorers[0].stats)
    stacked = [i for i, scorer in enumerate(scorers) if scorer.integral]
    rows = np.hstack([scorers[i].stats.rows for i in stacked] or [np.zeros((segments, 0))])
    product_type = np.float32 if segments * np.abs(rows).max(initial=0) < FLOAT32_EXACT else np.float64
    rows = rows.astype(product_type)
    edges = np.cumsum([0] + [scorers[i].stats.rows.shape[1] for i in stacked])
    # The float64 weights only where a scorer reads them or sums its rows with them (a (B, segments) copy).
    weighted = len(stacked) < len(scorers) or any(scorer.reads_weights for scorer in scorers)
    parts: list[list[np.ndarray]] = [[] for _ in scorers]  # per scorer and block: its scores, or its sums
    for block in draws:
        drawn = _counts(block, segments)
        counts = drawn.astype(np.float64) if weighted else None
        sums: dict[int, np.ndarray] = {}  # scorer -> its (B, columns) sums
        if stacked:
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
    return bool(np.all(rows == np.floor(rows)) and np.abs(rows).sum(axis=0).max(initial=0) < 2**53)


def _blocks(matrix: np.ndarray, floats_per_row: int) -> Iterator[np.ndarray]:
    size = max(1, BLOCK_FLOATS // max(1, floats_per_row))
    for start in range(0, len(matrix), size):
        yield matrix[start : start + size]


def _counts(draws: np.ndarray, segments: int) -> np.ndarray:
    """(B, segments) how often each segment was drawn, from (B, draws) indices."""
    offsets = draws + (np.arange(len(draws)) * segments)[:, None]
    return np.bincount(offsets.ravel(), minlength=len(draws) * segments).reshape(len(draws), segments)


def _draws(seed: int | np.random.Generator | None, segments: int, samples: int) -> Iterator[np.ndarray]:
    """sacrebleu's bootstrap indices, ``default_rng(seed).choice(segments, size=(samples, segments))`` (or a
    generator's next such draw), drawn in blocks of about :data:`DRAW_BLOCK` indices: the same rows.

    >>> blocks = list(_draws(12345, 10, 3))
    >>> np.vstack(blocks).tolist() == np.random.default_rng(12345).choice(10, size=(3, 10), replace=True).tolist()
    True
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    rows = max(1, DRAW_BLOCK // segments)
    for start in range(0, samples, rows):
        yield rng.choice(segments, size=(min(rows, samples - start), segments), replace=True)


def _interval(
    scorer: _Scorer, resampled: np.ndarray | None, confidence: float, exact_mean: bool = False
) -> dict[str, SystemResult]:
    """Output name -> corpus score, resample mean and interval. sacrebleu's ``estimate_ci`` (paired tests) averages
    with NumPy, its ``Score.estimate_ci`` (``--confidence``) with ``statistics.mean``: ``exact_mean``."""
    results = {name: SystemResult(score) for name, score in scorer.family.corpus_scores(scorer.stats).items()}
    if resampled is None:
        return results
    for j, result in enumerate(results.values()):
        ordered = np.sort(resampled[:, j])
        # floor(n (1 - confidence) / 2) from each end, the confidence read as it prints (0.95: sacrebleu's n // 40)
        lower = math.floor(len(ordered) * (1 - Fraction(str(confidence))) / 2)
        upper = len(ordered) - lower - 1
        result.mean = (_exact_mean(ordered) if exact_mean else float(ordered.mean())) / scorer.scale
        result.ci = (float(ordered[lower]) / scorer.scale, float(ordered[upper]) / scorer.scale)
    return results


def _paired_results(
    base: _Scorer,
    base_interval: np.ndarray | None,
    scorers: Sequence[_Scorer],
    systems_interval: Sequence[np.ndarray | None],
    confidence: float,
    compared: Sequence[tuple[np.ndarray, np.ndarray]],
    bootstrap: bool,
) -> list[dict[str, SystemResult]]:
    """:func:`paired_test`'s results, p-values from ``compared``: (system, baseline) resamples on the same draws
    (``bootstrap``), or shuffles and complements."""
    results = [_interval(base, base_interval, confidence)]
    base_corpus = base.corpus()
    for scorer, resampled, (mine, other) in zip(scorers, systems_interval, compared):
        observed = np.abs(base_corpus - scorer.corpus())
        results.append(_interval(scorer, resampled, confidence))
        for j, result in enumerate(results[-1].values()):
            result.p_value = (
                _bootstrap_p_value(mine[:, j], other[:, j], observed[j])
                if bootstrap
                else _p_value(np.abs(mine[:, j] - other[:, j]), observed[j])
            )
    return results


def _exact_mean(ordered: np.ndarray) -> float:
    # statistics.mean of NumPy scalars rounds the exact mean to their type (float32 scores: float32). (Imported
    # here: statistics and the random module it imports cost ~3 ms of start-up that the paired tests never use.)
    import statistics

    return float(ordered.dtype.type(statistics.mean(ordered.tolist())))


def _p_value(statistic: np.ndarray, observed: float) -> float:
    """(count above ``observed`` + 1) / (trials + 1), multeval's and sacrebleu's estimate (never 0); ``observed``
    is rounded to the statistic's dtype first, as NumPy 2 compares them (NEP 50)."""
    return (int(np.sum(statistic > statistic.dtype.type(observed))) + 1) / (len(statistic) + 1)


def _bootstrap_p_value(system: np.ndarray, baseline: np.ndarray, observed: float) -> float:
    """The p-value of absolute differences of resample scores on the same draws, centred on their mean (summed
    over a contiguous vector, in sacrebleu's order)."""
    differences = np.abs(np.ascontiguousarray(system) - np.ascontiguousarray(baseline))
    return _p_value(differences - differences.mean(), observed)


def confidence_interval(
    stats: Statistics, n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> dict[str, SystemResult]:
    """Output name -> the corpus score with the bootstrap mean and interval of one system, as sacrebleu's
    ``--confidence`` computes them.

    >>> from ngrameval import statistics
    >>> stats = statistics("bleu", ["a b c d e", "x y z w", "p q r s t"],
    ...                    [["a b c d f"], ["x y z w"], ["p q r s"]], tokenize="none")
    >>> import ngrameval
    >>> result = confidence_interval(stats, seed=12345)["bleu"]
    >>> result.score == ngrameval.bleu(["a b c d e", "x y z w", "p q r s t"], [["a b c d f"], ["x y z w"], ["p q r s"]],
    ...                                tokenize="none").bleu, result.ci[0] <= result.score <= result.ci[1]
    (True, True)
    """
    _check_sampling(n_samples, confidence)
    _check_statistics("stats", stats)
    seed = resolve_seed(seed)
    scorer = _Scorer(stats)
    return _own_interval(scorer, n_samples, confidence) or _interval(
        scorer, _resample_scores([scorer], _draws(seed, len(stats), n_samples))[0], confidence, exact_mean=True
    )


def _own_interval(scorer: _Scorer, n_samples: int, confidence: float) -> dict[str, SystemResult] | None:
    """The interval of the tool's own resampling (ROUGE-1.5.5.pl's, which ignores the seed), if any."""
    own = scorer.family.own_interval(scorer.stats, n_samples, confidence)
    if own is None:
        return None
    return {
        name: SystemResult(score, float(own[name][0]), (float(own[name][1]), float(own[name][2])))
        for name, score in scorer.family.corpus_scores(scorer.stats).items()
    }


def pairwise_bootstrap(
    systems: Sequence[Statistics], n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> tuple[list[dict[str, SystemResult]], dict[str, np.ndarray]]:
    """Every pair of systems compared at once: per system, :func:`confidence_interval`'s results; per output, the
    symmetric (systems, systems) matrix of paired bootstrap p-values, ``[i, j]`` that of ``paired_test(systems[i],
    [systems[j]], "bs", n_samples, seed=seed)``. One draw serves every pair (also unseeded, where
    ``paired_test`` draws one per system)."""
    scorers, resampled = _resample_systems(systems, n_samples, confidence, resolve_seed(seed))
    intervals = [
        _own_interval(scorer, n_samples, confidence) or _interval(scorer, scores, confidence, exact_mean=True)
        for scorer, scores in zip(scorers, resampled)
    ]
    return intervals, _pairwise_p_values(scorers, resampled, n_samples)


def ranked_paired_test(
    systems: Sequence[Statistics], n_samples: int = 1000, confidence: float = 0.95, seed: Seed = "env"
) -> tuple[list[dict[str, SystemResult]], dict[str, np.ndarray]]:
    """A leaderboard's two bootstrap tests: ``paired_test(systems[0], systems[1:], "bs", n_samples, confidence,
    seed)`` and the p-value matrices of ``pairwise_bootstrap(systems, n_samples, confidence, seed)``, from one
    set of resample scores when seeded (a seed other than None and 0)."""
    seed = resolve_seed(seed)
    if not seed:  # paired_test draws the systems' resamples unseeded, apart from the baseline's interval
        return (
            paired_test(systems[0], systems[1:], "bs", n_samples, confidence, seed),
            pairwise_bootstrap(systems, n_samples, confidence, seed)[1],
        )
    scorers, resampled = _resample_systems(systems, n_samples, confidence, seed)
    compared = [(scores, resampled[0]) for scores in resampled[1:]]
    results = _paired_results(scorers[0], resampled[0], scorers[1:], resampled[1:], confidence, compared, True)
    return results, _pairwise_p_values(scorers, resampled, n_samples)


def _resample_systems(
    systems: Sequence[Statistics], n_samples: int, confidence: float, seed: int | None
) -> tuple[list[_Scorer], list[np.ndarray]]:
    """The checked systems' scorers and their (B, outputs) resample scores, all on one draw."""
    _check_sampling(n_samples, confidence)
    if isinstance(systems, Statistics) or not systems:
        raise InputError("systems must be a non-empty sequence of Statistics")
    for index, system in enumerate(systems):
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
        # |a - b| is |b - a|: each pair once, in its own precision (float32 or float64 scores, as sacrebleu's)
        matrix = np.full((len(scorers), len(scorers)), 1 / (n_samples + 1))
        for i, k in itertools.combinations(range(len(scorers)), 2):
            matrix[i, k] = matrix[k, i] = _bootstrap_p_value(
                resampled[k][:, j], resampled[i][:, j], abs(corpus[i, j] - corpus[k, j])
            )
        p_values[name] = matrix
    return p_values


def paired_test(
    baseline: Statistics,
    systems: Sequence[Statistics],
    test: str = "bs",
    n_samples: int | None = None,
    confidence: float = 0.95,
    seed: Seed = "env",
    n_ar_confidence: int = -1,
) -> list[dict[str, SystemResult]]:
    """sacrebleu's ``PairedTest``: per system (the baseline first), output name -> its result: the baseline's
    bootstrap mean and interval; each system's p-value against it and, with ``test="bs"`` (1000 resamples by
    default) or ``n_ar_confidence`` > 0 for ``test="ar"`` (10,000 trials by default; 0: 1000 resamples), its
    mean and interval. Every system must share the baseline's metric, options and references.

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
    _check_sampling(n_samples, confidence)
    n_ar_confidence = _resolve_ar_confidence(test, n_ar_confidence)
    _check_statistics("baseline", baseline)
    if isinstance(systems, Statistics):
        raise InputError("systems must be a sequence of Statistics (wrap a single system in a list)")
    for index, system in enumerate(systems):
        _check_comparable(baseline, system, index)
    seed = resolve_seed(seed)
    # sacrebleu seeds each system's test with ``seed if seed else None`` but the baseline's interval with the seed
    # itself (seed 0: a reproducible baseline, unseeded tests); unseeded, one draw serves every system.
    system_seed = seed if seed else None
    segments = len(baseline)
    base = _Scorer(baseline)
    scorers = [_Scorer(system) for system in systems]
    if test == "bs":
        # Seeded, each system's fresh default_rng(system_seed) draws the baseline's interval's indices again.
        base_draws = _draws(seed, segments, n_samples)
        system_draws = base_draws if system_seed is not None else _draws(None, segments, n_samples)
        base_on_draws, *systems_resampled = _resample_scores([base] + scorers, system_draws)
        base_resampled = base_on_draws if system_draws is base_draws else _resample_scores([base], base_draws)[0]
        compared = [(scores, base_on_draws) for scores in systems_resampled]
        return _paired_results(base, base_resampled, scorers, systems_resampled, confidence, compared, True)
    # Approximate randomization; intervals only with n_ar_confidence > 0, the systems' drawn after the shuffles.
    rng = np.random.default_rng(system_seed)
    keep_baseline = rng.integers(2, size=(n_samples, segments), dtype=bool)
    base_interval: np.ndarray | None = None
    systems_interval: Sequence[np.ndarray | None] = [None] * len(scorers)
    if n_ar_confidence > 0:
        systems_interval = _resample_scores(scorers, _draws(rng, segments, n_ar_confidence))
        (base_interval,) = _resample_scores([base], _draws(seed, segments, n_ar_confidence))
    shuffles = [base.shuffled(scorer.stats, keep_baseline) for scorer in scorers]
    return _paired_results(base, base_interval, scorers, systems_interval, confidence, shuffles, False)


def signature_suffix(test: str | None, n_samples: int, seed: int | None, n_ar_confidence: int = -1) -> str:
    """The fields sacrebleu adds to a signature for resampling, in its order: ``test`` None for an interval
    (``--confidence``), ``"bs"`` or ``"ar"`` for a paired test; ``seed`` as :func:`resolve_seed` gives it.

    >>> signature_suffix(None, 1000, 12345), signature_suffix("bs", 1000, None)
    ('|bs:1000|seed:12345', '|bs:1000|seed:none')
    >>> signature_suffix("ar", 10000, 12345, n_ar_confidence=1000)
    '|bs:1000|ar:10000|seed:12345'
    """
    if test is not None and test not in TESTS:
        raise InputError(f"unknown test {test!r}; valid tests: None (an interval), 'bs', 'ar'")
    _check_samples("n_samples", n_samples)
    fields: dict[str, int | str | None] = {"bs": n_samples, "ar": None, "seed": str(seed).lower()}
    if test == "ar":
        intervals = _resolve_ar_confidence(test, n_ar_confidence)
        fields.update(bs=intervals if intervals > 0 else None, ar=n_samples)
    return "".join(f"|{name}:{value}" for name, value in fields.items() if value is not None)


def with_suffix(signature: str, suffix: str) -> str:
    """A signature with :func:`signature_suffix`'s fields where sacrebleu writes them: after a leading ``nrefs``
    field, else at the end.

    >>> with_suffix("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0", "|bs:1000|seed:12345")
    'nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
    """
    first, bar, rest = signature.partition("|")
    return first + suffix + bar + rest if first.startswith("nrefs:") else signature + suffix


def _check_samples(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_SAMPLES:
        raise InputError(f"{name} must be an integer from 1 to {MAX_SAMPLES:,}, got {value!r}")


def _check_sampling(n_samples: int, confidence: float) -> None:
    _check_samples("n_samples", n_samples)
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
    _check_statistics(f"systems[{index}]", system)
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
