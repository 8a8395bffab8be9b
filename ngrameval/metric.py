"""The protocol every metric family follows, and the registry that finds families by name.

A family turns text into per-segment statistics that add up (:meth:`MetricFamily.statistics`,
the only step that reads text), and scores any sum of them (:meth:`MetricFamily.score`): the
corpus (all rows once), a subset, a bootstrap resample (rows weighted by how often they were
drawn) or the totals gathered from other processes. Whatever the references fix for the whole
corpus (NIST's information weights, CIDEr's document frequencies) is computed once, inside
``statistics``, and kept with the rows: a resample reuses it, never re-tokenizes or re-matches.

Everything downstream -- significance tests, the leaderboard CLI and report, distributed
evaluation -- is written against this module only (as torchmetrics' ``add_state(...,
dist_reduce_fx="sum")`` and sacrebleu's ``metrics/base.py``): a new metric is a new family
registered here, and nothing else.

>>> stats = statistics("bleu", ["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog barks"]])
>>> len(stats), stats.outputs
(2, ('bleu',))
>>> corpus = float(get_family("bleu").score(stats)[0, 0])
>>> import ngrameval
>>> corpus == ngrameval.bleu(["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog barks"]]).bleu
True
"""
from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np


@dataclass
class Statistics:
    """Per-segment statistics of one system: ``rows`` (segments, columns) add up; ``outputs`` names
    the scores a sum of rows gives (the first is the headline); ``signature`` records every option
    that changes the numbers; ``context`` holds what the family's scoring rule needs besides the
    sums (its resolved options, corpus-level constants fixed by the references)."""

    metric: str
    rows: np.ndarray
    outputs: Tuple[str, ...]
    signature: str
    context: Dict[str, Any] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def take(self, index: Any) -> "Statistics":
        """The statistics of a subset or resample of the segments, e.g. ``stats.take([0, 0, 3])``."""
        return replace(self, rows=self.rows[index])

    def totals(self, weights: Optional[np.ndarray] = None) -> np.ndarray:
        """(1, columns): the column sums; or (B, columns): one weighted sum per row of a (B, segments)
        matrix of weights (a bootstrap resample weighs each segment by how often it was drawn)."""
        if weights is None:
            return self.rows.sum(axis=0, keepdims=True)
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim != 2 or weights.shape[1] != len(self):
            raise ValueError(f"weights must be a (samples, {len(self)}) matrix, got shape {weights.shape}")
        return weights @ self.rows


class MetricFamily(ABC):
    """One metric (BLEU, NIST, ROUGE, ...): how text becomes rows, and how a sum of rows is scored.

    Subclasses set ``name`` and ``function`` (the public ``ngrameval.<metric>`` function whose
    options ``statistics`` accepts, less ``options_not_for_statistics``) and implement
    :meth:`statistics` and :meth:`score_totals`.
    """

    name: str = ""
    function: Callable[..., Any]
    # Options of the public function that change what it returns but not the score (explanations,
    # per-segment scores, aggregation): the statistics refuse them.
    options_not_for_statistics: Tuple[str, ...] = ()

    def check_options(self, options: Dict[str, Any]) -> None:
        """A clear error for options the metric does not have (never Python's TypeError)."""
        valid = [name for name, parameter in inspect.signature(self.function).parameters.items()
                 if name not in ("predictions", "references") + self.options_not_for_statistics
                 and parameter.kind is not inspect.Parameter.VAR_KEYWORD]
        unknown = sorted(set(options) - set(valid) - set(self.extra_options()))
        if unknown:
            raise ValueError(f"unknown options for {self.name}: {', '.join(unknown)}; valid options: "
                             f"{', '.join(valid + list(self.extra_options()))}")

    def with_defaults(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """The options checked and completed with the public function's defaults.

        >>> get_family("nist").with_defaults({"n": 4})["variant"]
        'nltk'
        """
        self.check_options(options)
        bound = inspect.signature(self.function).bind_partial(None, None, **options)
        bound.apply_defaults()
        return {name: value for name, value in bound.arguments.items()
                if name not in ("predictions", "references") + self.options_not_for_statistics}

    def extra_options(self) -> Sequence[str]:
        """Options taken through the public function's ``**kwargs`` (ROUGE-1.5.5's length limits)."""
        return ()

    @abstractmethod
    def statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        """Validate, tokenize and match once: the per-segment rows and what scoring them needs."""

    @abstractmethod
    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: Optional[np.ndarray]) -> np.ndarray:
        """(B, outputs) scores of (B, columns) sums of rows; ``weights`` (B, segments) is the matrix
        that made them (None: the corpus), for rules that look past the sums (NLTK's last sentence)."""

    def score(self, stats: Statistics, weights: Optional[np.ndarray] = None) -> np.ndarray:
        """(B, outputs): the corpus score (one row) or the score of each weighted sum of rows."""
        return self.score_totals(stats, stats.totals(weights), weights)

    def own_interval(self, stats: Statistics, n_samples: int,
                     confidence: float) -> Optional[Dict[str, Tuple[float, float, float]]]:
        """Output -> (bootstrap mean, low, high) where the tool this family reproduces resamples in its own
        way, which then replaces the generic (sacrebleu's) bootstrap of :mod:`ngrameval.significance`;
        None (the default): no such way."""
        return None

    def corpus_scores(self, stats: Statistics) -> Dict[str, float]:
        """Output name -> corpus score."""
        return dict(zip(stats.outputs, self.score(stats)[0].tolist()))


class MeanOfSegments(MetricFamily):
    """A family whose corpus score is the mean of per-segment scores (ROUGE, METEOR's NLTK variant,
    CIDEr): the rows are the segment scores and a count, so a sum of rows is a sum of scores."""

    @abstractmethod
    def scores_of_segments(self, predictions: Any, references: Any,
                           **options: Any) -> Tuple[np.ndarray, Tuple[str, ...], str]:
        """(segments, outputs) scores, the output names and the signature."""

    def statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        self.check_options(options)
        scores, outputs, signature = self.scores_of_segments(predictions, references, **options)
        return Statistics(self.name, rows_with_count(scores), outputs, signature)

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: Optional[np.ndarray]) -> np.ndarray:
        return means(totals)


def rows_with_count(scores: np.ndarray) -> np.ndarray:
    """Per-segment scores (segments, outputs) as rows that add up: the scores, then a count of 1.

    >>> rows_with_count(np.array([0.5, 1.0])).tolist()
    [[0.5, 1.0], [1.0, 1.0]]
    """
    scores = np.asarray(scores, np.float64).reshape(len(scores), -1)
    return np.hstack([scores, np.ones((len(scores), 1))])


def means(totals: np.ndarray) -> np.ndarray:
    """(B, outputs): sums of :func:`rows_with_count` rows divided by their count (0 for no segment).

    >>> means(np.array([[1.5, 2.0], [0.0, 0.0]])).tolist()
    [[0.75], [0.0]]
    """
    count = totals[:, -1:]
    return np.divide(totals[:, :-1], count, out=np.zeros_like(totals[:, :-1]), where=count > 0)


class CombinedFamily(MetricFamily):
    """A family whose statistics are other families' statistics side by side (a suite such as
    COCOEvalCap's): each part keeps its columns and is scored by its own family."""

    def combine(self, parts: Sequence[Tuple[MetricFamily, Statistics, Tuple[str, ...]]],
                signature: str) -> Statistics:
        """One Statistics of ``(family, statistics, output names)`` parts; the signature joins theirs."""
        rows = np.hstack([part.rows for _, part, _ in parts])
        outputs = tuple(name for _, _, names in parts for name in names)
        layout = [(family, part, part.rows.shape[1]) for family, part, _ in parts]
        joined = " + ".join(part.signature for _, part, _ in parts)
        return Statistics(self.name, rows, outputs, f"{self.name}|{signature}|{joined}", {"parts": layout})

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: Optional[np.ndarray]) -> np.ndarray:
        scores, start = [], 0
        for family, part, width in stats.context["parts"]:
            # The part's rows are read from the combined rows, so that a subset or resample of the
            # combined statistics is that of every part.
            own = replace(part, rows=stats.rows[:, start:start + width])
            scores.append(family.score_totals(own, totals[:, start:start + width], weights))
            start += width
        return np.hstack(scores)


_REGISTRY: Dict[str, MetricFamily] = {}


def register(family: MetricFamily) -> MetricFamily:
    """Add a family to the registry under its name (a metric module registers its family on import)."""
    existing = _REGISTRY.get(family.name)
    # The same family registered again is a module imported twice (as pytest's doctest collection can).
    same = existing is not None and type(existing).__qualname__ == type(family).__qualname__ \
        and type(existing).__module__ == type(family).__module__
    if not family.name or (existing is not None and not same):
        raise ValueError(f"a metric family needs a new name, got {family.name!r}")
    _REGISTRY[family.name] = family
    return family


def metric_names() -> List[str]:
    """The registered metrics' names.

    >>> {"bleu", "nist", "rouge", "meteor", "cider", "coco_caption"} <= set(metric_names())
    True
    """
    return list(_REGISTRY)


def get_family(name: Any) -> MetricFamily:
    """The family registered as ``name``; a ValueError listing the valid names otherwise."""
    family = _REGISTRY.get(name) if isinstance(name, str) else None
    if family is None:
        raise ValueError(f"unknown metric {name!r}; valid metrics: {', '.join(_REGISTRY)}")
    return family


def family_of(function: Callable[..., Any]) -> MetricFamily:
    """The family whose public function is ``function`` (``ngrameval.bleu`` -> the BLEU family).

    >>> import ngrameval
    >>> family_of(ngrameval.nist).name
    'nist'
    """
    for family in _REGISTRY.values():
        if family.function is function:
            return family
    raise ValueError(f"no metric family computes {getattr(function, '__name__', function)!r}")


def statistics(metric: str, predictions: Any, references: Any, **options: Any) -> Statistics:
    """The per-segment statistics of ``predictions`` under metric ``metric`` and its options."""
    return get_family(metric).statistics(predictions, references, **options)


def last_weighted(weights: Optional[np.ndarray], count: int) -> np.ndarray:
    """Per row of a (B, segments) weight matrix, the last segment with a non-zero weight (the last
    sentence of the corpus when ``weights`` is None).

    >>> last_weighted(np.array([[1, 0, 2, 0], [0, 1, 0, 0]]), 4).tolist()
    [2, 1]
    """
    if weights is None:
        return np.array([count - 1])
    nonzero = np.asarray(weights) != 0
    return count - 1 - np.argmax(nonzero[:, ::-1], axis=1)


def columns(*parts: np.ndarray) -> np.ndarray:
    """Per-segment arrays (1-D or 2-D) side by side as float64 rows."""
    return np.hstack([np.asarray(p, np.float64).reshape(len(p), -1) for p in parts])
