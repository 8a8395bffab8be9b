"""Scoring and ranking many systems, for the command line, the community board and the leaderboard Space:
:func:`score_leaderboard` scores systems under metrics into a :class:`Leaderboard` (with intervals or paired tests
as :class:`Significance` asks); :func:`clusters` groups ranked systems WMT's way. Presentations are
:mod:`ngrameval.frontends.report`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ngrameval import significance
from ngrameval.errors import InputError
from ngrameval.metric import Statistics, get_family
from ngrameval.significance import SystemResult

NOT_SIGNIFICANT = "\u2020"  # dagger
# ngrameval's marks beside sacrebleu's star (which says "significantly different", not which way): significantly
# better or worse than the baseline, by the metric's direction (for TER, fewer edits is better).
SIGNIFICANTLY_BETTER, SIGNIFICANTLY_WORSE = "\u25b2", "\u25bc"  # black up- and down-pointing triangles
MARK_MEANINGS = {
    NOT_SIGNIFICANT: "not significantly different from the baseline",
    SIGNIFICANTLY_BETTER: "significantly better than the baseline",
    SIGNIFICANTLY_WORSE: "significantly worse than the baseline",
}
SIGNIFICANCE_LEVEL = 0.05  # p at most this: significantly different (sacrebleu's star, WMT's clusters)
TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}


def column_key(metric: str, output: str, several: bool) -> str:
    """The name of a score column: the metric's name when it has one output, else ``METRIC.OUTPUT``
    (an output already named ``METRIC.something`` is kept).

    >>> column_key("bleu", "bleu", False), column_key("rouge", "rouge1", True), column_key("bleu", "bleu.2", True)
    ('bleu', 'rouge.rouge1', 'bleu.2')
    """
    return (output if output.startswith(metric + ".") else f"{metric}.{output}") if several else metric


@dataclass
class Column:
    """One score column: an output of a metric, and the signature of its numbers."""

    key: str
    metric: str
    output: str
    signature: str


@dataclass
class SystemScores:
    """A system's row: corpus results per column key, (segments, columns) segment scores, its outputs."""

    name: str
    results: dict[str, SystemResult]
    segment_scores: np.ndarray
    predictions: list[str]


@dataclass
class Leaderboard:
    """Systems in the order given (the first is the baseline of a paired test) and their scores. ``clusters``: per
    column key, the systems' names grouped by :func:`clusters`; ``stale``: per metric whose signature this
    ngrameval gives differently, (the board's signature, this one's). A board's standings have no references."""

    columns: list[Column]
    systems: list[SystemScores]
    references: list[list[str]] | None
    baseline: str | None = None
    test: str | None = None
    significance_level: float = SIGNIFICANCE_LEVEL
    clusters: dict[str, list[list[str]]] | None = None
    stale: dict[str, tuple[str, str]] = field(default_factory=dict)

    def add_metric(
        self,
        metric: str,
        outputs: Sequence[str],
        signature: str,
        results: Sequence[dict[str, SystemResult]],
        p_values: dict[str, np.ndarray] | None,
    ) -> None:
        """A score column per output of ``metric`` (its numbers' ``signature``), and the systems' ``results`` (per
        system, in :attr:`systems`' order, output -> result); with ``p_values`` (per output, the systems' paired
        bootstrap p-values), also each column's :func:`clusters` at the significance level."""
        lower_is_better = get_family(metric).lower_is_better
        for output in outputs:
            key = column_key(metric, output, len(outputs) > 1)
            self.columns.append(Column(key, metric, output, signature))
            for system, result in zip(self.systems, results):
                system.results[key] = result[output]
            if p_values is not None:
                scores = [result[output].score for result in results]
                ranked = clusters(scores, p_values[output], self.significance_level, lower_is_better) if results else []
                named = [[self.systems[index].name for index in group] for group in ranked]
                self.clusters = {**(self.clusters or {}), key: named}

    def ranked(self) -> list[SystemScores]:
        """The systems by their first column's score, best first (the smallest for an error rate such as TER;
        ties keep the order given)."""
        headline = self.columns[0]
        family = get_family(headline.metric)
        return sorted(self.systems, key=lambda system: -family.oriented(system.results[headline.key].score))

    def cluster_numbers(self) -> dict[str, int]:
        """System name -> its cluster (1: the best) under the headline column; empty without clusters."""
        groups = (self.clusters or {}).get(self.columns[0].key, [])
        return {name: number for number, group in enumerate(groups, 1) for name in group}

    def mark(self, system: SystemScores, key: str) -> str:
        """A result's mark after sacrebleu's text: :data:`NOT_SIGNIFICANT` when its paired test against the
        baseline is not significant (p above the level: never with sacrebleu's star); else
        :data:`SIGNIFICANTLY_BETTER` or :data:`SIGNIFICANTLY_WORSE` by the metric's direction; "" without a test
        or for a score equal to the baseline's.

        >>> board = score_leaderboard(["few edits", "many edits"], [["a b c d"] * 20, ["a b x y"] * 20],
        ...                           [["a b c d"]] * 20, {"ter": {}}, Significance(test="bs", test_samples=100))
        >>> [board.mark(system, "ter") for system in board.systems]  # the baseline first: unmarked
        ['', '▼']
        """
        result = system.results[key]
        if result.p_value is not None and result.p_value > self.significance_level:
            return NOT_SIGNIFICANT
        base = next((other for other in self.systems if other.name == self.baseline), None)
        if result.p_value is None or base is None:
            return ""
        family = get_family(next(column.metric for column in self.columns if column.key == key))
        difference = family.oriented(result.score) - family.oriented(base.results[key].score)
        return SIGNIFICANTLY_BETTER if difference > 0 else SIGNIFICANTLY_WORSE if difference < 0 else ""

    def cell(self, system: SystemScores, key: str, scale: float, width: int) -> str:
        """A displayed score: sacrebleu's text, then ngrameval's :meth:`mark`."""
        return system.results[key].formatted(scale, width) + self.mark(system, key)

    def label(self, system: SystemScores, shown: str | None = None) -> str:
        """The system's name (or the ``shown`` part of it), marked when it is the baseline."""
        return (system.name if shown is None else shown) + (" (baseline)" if system.name == self.baseline else "")

    def legend(self) -> list[str]:
        """What the marks and intervals mean, one sentence a line."""
        lines = []
        lower = [column.key for column in self.columns if get_family(column.metric).lower_is_better]
        results = [result for system in self.systems for result in system.results.values()]
        if any(result.ci is not None for result in results):
            lines.append(
                "score (\u03bc = mean \u00b1 half-width of the 95% confidence interval) of bootstrap resamples"
            )
        if self.test is not None:
            lines.append(
                f"p: {TEST_NAMES[self.test]} test against the baseline, {self.baseline}; *: significantly "
                f"different from the baseline (p \u2264 {self.significance_level:g}, as sacrebleu marks it); "
                f"{NOT_SIGNIFICANT}: not significantly different from the baseline "
                f"(p > {self.significance_level:g}). Every system is tested against the baseline only, "
                "not against the best system."
            )
            better = f"higher, or lower for {', '.join(lower)}" if lower else "higher"
            lines.append(
                f"{SIGNIFICANTLY_BETTER}: {MARK_MEANINGS[SIGNIFICANTLY_BETTER]}, {SIGNIFICANTLY_WORSE}: "
                f"{MARK_MEANINGS[SIGNIFICANTLY_WORSE]} (p \u2264 {self.significance_level:g}; better is {better}). "
                "These marks are ngrameval's, after sacrebleu's star, which says only that the scores differ."
            )
        if self.clusters is not None:
            lines.append(
                "cluster: systems ranked by score; a new cluster starts below a rank where every system above is "
                f"significantly different from every system below (paired bootstrap resampling, p \u2264 "
                f"{self.significance_level:g}, between every two systems; by {self.columns[0].key})"
            )
        if lower:
            lines.append(f"{', '.join(lower)}: lower is better (an error rate): the smallest ranks first")
        for metric, (stored, current) in self.stale.items():
            lines.append(
                f"{metric}: scored as {stored}, but this ngrameval gives {current}: the scores are "
                "kept until the board is rescored (ngrameval board rescore)"
            )
        return lines


@dataclass
class Significance:
    """What the command line asked for: a paired test against the first system (``test`` "bs" or
    "ar"), or bootstrap intervals per system (``confidence_samples``), or neither."""

    test: str | None = None
    test_samples: int | None = None
    confidence_samples: int | None = None
    seed: int | None = significance.DEFAULT_SEED

    def results(
        self, stats: list[Statistics]
    ) -> tuple[list[dict[str, significance.SystemResult]], str, dict[str, np.ndarray] | None]:
        """Per system, output -> result; what the signature gains; and with the paired bootstrap, per output, the
        (systems, systems) p-values of every pair (None otherwise: approximate randomization compares with the
        baseline only)."""
        if self.test is None:
            if self.confidence_samples is None:
                scores = [get_family(system.metric).corpus_scores(system) for system in stats]
                return [{output: SystemResult(score) for output, score in each.items()} for each in scores], "", None
            results = [
                significance.confidence_interval(system, n_samples=self.confidence_samples, seed=self.seed)
                for system in stats
            ]
            return results, significance.signature_suffix(None, self.confidence_samples, self.seed), None
        samples = significance.DEFAULT_SAMPLES[self.test] if self.test_samples is None else self.test_samples
        if self.test == "bs":
            # The paired bootstrap gives intervals by itself; the same resamples give every pair's p-value.
            results, p_values = significance.ranked_paired_test(stats, samples, seed=self.seed)
            return results, significance.signature_suffix(self.test, samples, self.seed), p_values
        n_ar_confidence = self.confidence_samples if self.confidence_samples else -1  # AR's intervals on request
        results = significance.paired_test(
            stats[0], stats[1:], test=self.test, n_samples=samples, seed=self.seed, n_ar_confidence=n_ar_confidence
        )
        return results, significance.signature_suffix(self.test, samples, self.seed, n_ar_confidence), None


def score_leaderboard(
    names: Sequence[str],
    predictions: Sequence[list[str]],
    references: list[list[str]],
    options: dict[str, dict[str, Any]],
    tests: Significance,
    progress: Any | None = None,
) -> Leaderboard:
    """Every system under every metric: corpus scores (with intervals and p-values when asked) and per-segment
    scores (:meth:`ngrameval.metric.MetricFamily.sentence_scores`); with the paired bootstrap, also the clusters of
    each score column (:func:`clusters` at :data:`SIGNIFICANCE_LEVEL`). ``progress`` (a tqdm bar, or None) is
    advanced once per system and metric, and once per metric's tests.

    >>> board = score_leaderboard(["a", "b"], [["the cat sat on the mat"], ["a cat"]], [["the cat sat on the mat"]],
    ...                           {"bleu": {}}, Significance())
    >>> [(system.name, round(system.results["bleu"].score, 4)) for system in board.systems]
    [('a', 1.0), ('b', 0.0)]
    """
    systems = [SystemScores(name, {}, np.empty(0), list(system)) for name, system in zip(names, predictions)]
    board = Leaderboard([], systems, references, names[0] if tests.test else None, tests.test)
    per_segment: list[list[np.ndarray]] = [[] for _ in names]
    advance = progress.update if progress is not None else lambda: None
    for metric, metric_options in options.items():
        family = get_family(metric)
        stats = []
        for system in predictions:
            stats.append(family.statistics(system, references, **metric_options))
            advance()
        results, suffix, p_values = tests.results(stats)
        advance()
        signature = significance.with_suffix(stats[0].signature, suffix)
        board.add_metric(metric, stats[0].outputs, signature, results, p_values)
        for segments, system_stats, system in zip(per_segment, stats, predictions):
            segments.append(family.sentence_scores(system_stats, system, references))
    for system_scores, segments in zip(systems, per_segment):
        system_scores.segment_scores = np.hstack(segments)
    return board


def clusters(
    scores: Sequence[float] | np.ndarray, p_values: np.ndarray, level: float = 0.05, lower_is_better: bool = False
) -> list[list[int]]:
    """Systems grouped WMT's way (Findings of WMT19 and WMT20: "grouping systems together according to which
    systems significantly outperform all others in lower ranking clusters"): ranked by ``scores``, best first (the
    smallest with ``lower_is_better``; ties in the order given), a cluster ends after rank k when every system
    ranked k or better is significantly different (``p_values[i, j] <= level``) from every system below. Indices
    of the systems, best cluster first.

    >>> p_values = np.array([[1.0, 0.01, 0.4], [0.01, 1.0, 0.02], [0.4, 0.02, 1.0]])
    >>> clusters([0.30, 0.10, 0.29], p_values)
    [[0, 2], [1]]
    >>> clusters([0.30, 0.10, 0.29], p_values, level=0.001)
    [[0, 2, 1]]
    """
    scores = np.asarray(scores, np.float64)
    p_values = np.asarray(p_values, np.float64)
    if scores.ndim != 1 or not len(scores) or p_values.shape != (len(scores), len(scores)):
        raise InputError(
            f"clusters need one score per system and a (systems, systems) matrix of p-values, got "
            f"{scores.shape} scores and a {p_values.shape} matrix"
        )
    if not 0 < level < 1:
        raise InputError(f"level must be strictly between 0 and 1, got {level!r}")
    order = np.argsort(scores if lower_is_better else -scores, kind="stable")
    different = p_values[np.ix_(order, order)] <= level
    groups, start = [], 0
    for rank in range(1, len(order)):
        if different[:rank, rank:].all():
            groups.append(order[start:rank].tolist())
            start = rank
    return groups + [order[start:].tolist()]
