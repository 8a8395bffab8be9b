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

import importlib
import inspect
import mmap
import re
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any, cast

import numpy as np

from ngrameval.engine.inputs import unknown_options_error
from ngrameval.errors import InputError

# The signature of a family's public function, which every call reads to check and complete its options.
_signature_of = cache(inspect.signature)


@cache
def _option_names(function: Callable[..., Any], excluded: tuple[str, ...]) -> tuple[str, ...]:
    """The options of a family's public function: its parameters less the data, ``excluded`` and ``**kwargs``."""
    return tuple(
        name
        for name, parameter in _signature_of(function).parameters.items()
        if name not in ("predictions", "references") + excluded and parameter.kind is not inspect.Parameter.VAR_KEYWORD
    )


@dataclass
class Statistics:
    """Per-segment statistics of one system: ``rows`` (segments, columns) add up; ``outputs`` names
    the scores a sum of rows gives (the first is the headline); ``signature`` records every option
    that changes the numbers; ``context`` holds what the family's scoring rule needs besides the
    sums (its resolved options, corpus-level constants fixed by the references)."""

    metric: str
    rows: np.ndarray
    outputs: tuple[str, ...]
    signature: str
    context: dict[str, Any] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def take(self, index: Any) -> Statistics:
        """The statistics of a subset or resample of the segments, e.g. ``stats.take([0, 0, 3])``."""
        return replace(self, rows=self.rows[index])

    def totals(self, weights: np.ndarray | None = None) -> np.ndarray:
        """(1, columns): the column sums, added as :class:`RunningTotals` adds them (so that the corpus
        score is the public function's to the last bit); or (B, columns): one weighted sum per row of a
        (B, segments) matrix of weights (a bootstrap resample weighs each segment by how often it was drawn)."""
        if weights is None:
            rows = np.ascontiguousarray(self.rows, np.float64)
            totals: np.ndarray = rows.sum(axis=0, keepdims=True)
            for column in get_family(self.metric).pairwise_columns(self):
                totals[0, column] = np.add.reduce(np.ascontiguousarray(rows[:, column]))
            return totals
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim != 2 or weights.shape[1] != len(self):
            raise InputError(f"weights must be a (samples, {len(self)}) matrix, got shape {weights.shape}")
        return cast(np.ndarray, weights @ self.rows)


class MetricFamily(ABC):
    """One metric (BLEU, NIST, ROUGE, ...): how text becomes rows, and how a sum of rows is scored.

    Subclasses set ``name`` and ``function`` (the public ``ngrameval.<metric>`` function whose
    options ``statistics`` accepts, less ``options_not_for_statistics``) and implement
    :meth:`statistics_and_seen`, :meth:`score_totals` and :meth:`result`; the public function is
    :meth:`compute`.
    """

    name: str = ""
    function: Callable[..., Any]
    # Whether the scores are errors (TER's edits per reference word): a ranking puts the smallest first.
    lower_is_better: bool = False
    # Options of the public function that change what it returns but not the score (explanations,
    # per-segment scores, aggregation): the statistics refuse them.
    options_not_for_statistics: tuple[str, ...] = ()
    # The value of each of those options with which the public function returns what :meth:`result`
    # gives (its default, mostly): a corpus scored in shards takes them at that value only.
    merged_option_values: dict[str, Any] = {}

    def oriented(self, score: float) -> float:
        """The score as a value where larger is better: the score itself, or its negation for a family whose
        scores are errors (``lower_is_better``). Whatever ranks systems or says that one is better than another
        compares these, so that each metric's direction is declared once, here.

        >>> get_family("bleu").oriented(0.3), get_family("ter").oriented(0.3)
        (0.3, -0.3)
        """
        return -score if self.lower_is_better else score

    def check_options(self, options: dict[str, Any]) -> None:
        """A clear error for options the metric does not have (never Python's TypeError)."""
        valid = _option_names(self.function, self.options_not_for_statistics) + tuple(self.extra_options())
        unknown = sorted(set(options).difference(valid))
        if unknown:
            raise unknown_options_error(self.name, unknown, list(valid))

    def with_defaults(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options checked and completed with the public function's defaults.

        >>> get_family("nist").with_defaults({"n": 4})["variant"]
        'nltk'
        """
        self.check_options(options)
        bound = _signature_of(self.function).bind_partial(None, None, **options)
        bound.apply_defaults()
        return {
            name: value
            for name, value in bound.arguments.items()
            if name not in ("predictions", "references") + self.options_not_for_statistics
        }

    def merged_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` checked for a corpus scored in shards (:func:`ngrameval.score_dataset`,
        :func:`ngrameval.distributed.score_across_ranks`), less those of :attr:`merged_option_values` at
        their value; one that asks for what no sum of statistics keeps is refused by name.

        >>> get_family("bleu").merged_options({"tokenize": "13a", "sentence_level": False})
        {'tokenize': '13a'}
        >>> get_family("bleu").merged_options({"sentence_level": True})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ngrameval.errors.InputError: sentence_level=True: a corpus scored in shards gives the corpus-level result of ngrameval.bleu ...
        """
        for name in sorted(set(options) & set(self.options_not_for_statistics)):
            value, taken = options[name], self.merged_option_values.get(name, ...)
            # (by type and identity first: a value may be an array, whose == is elementwise)
            if not (
                value is taken or (type(value) is type(taken) and isinstance(value, (bool, str)) and value == taken)
            ):
                expected = f" ({name}={taken!r})" if name in self.merged_option_values else ""
                raise InputError(
                    f"{name}={value!r}: a corpus scored in shards gives the corpus-level result "
                    f"of ngrameval.{self.name}{expected}, not per-segment parts, explanations or "
                    f"resampled intervals"
                )
        kept = {name: value for name, value in options.items() if name not in self.options_not_for_statistics}
        self.check_options(kept)
        return kept

    def extra_options(self) -> Sequence[str]:
        """Options taken through the public function's ``**kwargs`` (ROUGE-1.5.5's length limits)."""
        return ()

    def statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        """Validate, tokenize and match once: the per-segment rows and what scoring them needs (those of
        :meth:`statistics_and_seen`, with no part asked for)."""
        return self.statistics_and_seen(predictions, references, {}, **options)[0]

    @abstractmethod
    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """(B, outputs) scores of (B, columns) sums of rows; ``weights`` (B, segments) is the matrix
        that made them (None: the corpus), for rules that look past the sums (NLTK's last sentence)."""

    def score(self, stats: Statistics, weights: np.ndarray | None = None) -> np.ndarray:
        """(B, outputs): the corpus score (one row) or the score of each weighted sum of rows."""
        return self.score_totals(stats, stats.totals(weights), weights)

    def sentence_statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        """The statistics whose rows, each scored alone by :meth:`segment_scores`, are the metric's sentence
        scores. The same as :meth:`statistics` (default) unless the tool's sentence score draws on other
        counts than its corpus score (NLTK's ``sentence_nist`` weighs n-grams by the sentence's own
        references)."""
        return self.statistics(predictions, references, **options)

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        """(segments, outputs): each row of the :meth:`sentence_statistics` ``stats`` scored alone, as the tool
        scores one sentence. Default: the row scored as a corpus of one segment; a family whose tool has its
        own sentence rule (sacrebleu's ``sentence_bleu``: the effective order) overrides it."""
        return self.score_totals(stats, stats.rows, None)

    def sentence_scores(self, stats: Statistics, predictions: Any, references: Any) -> np.ndarray:
        """(segments, outputs): the sentence scores (those of :func:`sentence_scores`) of ``predictions`` and
        ``references``, whose :meth:`statistics` are ``stats`` -- the way every front end (the command line,
        its reports, the community board) gets per-segment scores of the statistics it already has. Default:
        :meth:`segment_scores` of ``stats``; a family whose :meth:`sentence_statistics` differ from its
        statistics (NLTK's ``sentence_nist``) reads the text again.

        >>> predictions, references = ["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog"]]
        >>> family = get_family("bleu")
        >>> stats = family.statistics(predictions, references, variant="nltk", smooth="method5")
        >>> scores, _ = sentence_scores("bleu", predictions, references, variant="nltk", smooth="method5")
        >>> bool((family.sentence_scores(stats, predictions, references) == scores).all())
        True
        """
        return self.segment_scores(stats)

    def own_interval(
        self, stats: Statistics, n_samples: int, confidence: float
    ) -> dict[str, tuple[float, float, float]] | None:
        """Output -> (bootstrap mean, low, high) where the tool this family reproduces resamples in its own
        way, which then replaces the generic (sacrebleu's) bootstrap of :mod:`ngrameval.significance`;
        None (the default): no such way."""
        return None

    def resampling(self, stats: Statistics) -> Resampling:
        """How the tool this family reproduces scores resampled statistics in its significance tests (its
        scale, the precision of its bootstrap sums), for :mod:`ngrameval.significance`. Default: the
        family's own scale, float64 sums."""
        return Resampling()

    def score_resampled(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """(B, outputs) scores of (B, columns) sums of resampled rows (a bootstrap resample, a shuffle of
        approximate randomization, the corpus) as the reproduced tool's significance test scores them:
        on :meth:`resampling`'s scale, in the precision of ``totals`` (its ``bootstrap_dtype`` for a
        bootstrap resample, float64 otherwise), and in the dtype of the array the tool collects those
        scores in (see :func:`array_of_scores`). ``weights`` as in :meth:`score_totals` (None where
        :meth:`resampling` does not read them). Default: the family's own rule, :meth:`score_totals`.

        >>> stats = statistics("ter", ["a b c", "d e"], [["a b d"], ["d e"]])
        >>> sums = stats.totals().astype(np.float32)          # sacrebleu's float32 bootstrap sums
        >>> get_family("ter").score_resampled(stats, sums, None).tolist()   # sacrebleu: np.float32(20.0)
        [[20.0]]
        """
        return self.score_totals(stats, totals, weights)

    def compute(self, predictions: Any, references: Any, **options: Any) -> Any:
        """What the public function ``ngrameval.<name>`` returns, and the only way it computes it: the
        :meth:`statistics` of the text (with what matching saw that the parts asked for need:
        :meth:`statistics_and_seen`), :meth:`result` of their sums, then the parts that the options of
        :attr:`options_not_for_statistics` ask for (:meth:`add_parts`); ``result.statistics`` is the
        :class:`Statistics` it was scored from.

        >>> result = get_family("bleu").compute(["the cat sat on a mat"], [["the cat sat on the mat"]])
        >>> type(result.statistics).__name__, result.score == float(get_family("bleu").score(result.statistics)[0, 0])
        ('Statistics', True)
        """
        parts = {name: options.pop(name) for name in self.options_not_for_statistics if name in options}
        stats, seen = self.statistics_and_seen(predictions, references, parts, **options)
        result = self.result_with_parts(stats, seen, predictions, references, **parts)
        result.statistics = stats
        return result

    def result_with_parts(self, stats: Statistics, seen: Any, predictions: Any, references: Any, **parts: Any) -> Any:
        """:meth:`result` of the sums of ``stats``' rows, with the parts that ``parts`` ask for (:meth:`add_parts`).
        A family whose scoring rule costs more per run than per row (BLEU's) overrides it to score the corpus
        and its segments in one run."""
        segments = stats.rows[:, list(self.segment_columns(stats))]
        result = self.result(stats, stats.totals(), segments)
        return self.add_parts(result, stats, seen, predictions, references, **parts)

    @abstractmethod
    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, Any]:
        """The :meth:`statistics` (every option and part checked first), and what only matching sees that the
        parts asked for (``parts``: options of :attr:`options_not_for_statistics`) need, such as the matched
        n-grams an explanation lists, for :meth:`add_parts` (None where they need nothing)."""

    def add_parts(
        self, result: Any, stats: Statistics, seen: Any, predictions: Any, references: Any, **parts: Any
    ) -> Any:
        """``result`` with the parts that ``parts`` (options of :attr:`options_not_for_statistics`) ask for;
        ``seen``: what :meth:`statistics_and_seen` gave besides the statistics. Default: with
        ``sentence_level=True``, the headline's :meth:`sentence_scores` as ``result.sentence_scores``; a family
        with other such options (explanations) overrides it."""
        unknown = sorted(set(parts) - {"sentence_level"})
        if unknown:
            raise NotImplementedError(f"{type(self).__name__} must add the parts asked for by {unknown}")
        if parts.get("sentence_level"):
            result.sentence_scores = self.sentence_scores(stats, predictions, references)[:, 0].tolist()
        return result

    def corpus_scores(self, stats: Statistics) -> dict[str, float]:
        """Output name -> corpus score."""
        return dict(zip(stats.outputs, self.score(stats)[0].tolist()))

    # Sharded scoring (ngrameval.dataset, ngrameval.distributed): each shard computes its statistics,
    # :class:`RunningTotals` merges them in corpus order, the driver scores. A family whose statistics
    # need every reference first (NIST's information weights, CIDEr's document frequencies) counts
    # them per shard in a first pass; the summed counts then fix every shard's statistics.

    def needs_reference_counts(self, **options: Any) -> bool:
        """Whether, with these options, a shard's statistics need the :meth:`reference_counts` of
        every shard (a first pass over the corpus). Default: no."""
        self.check_options(options)
        return False

    def reference_counts(self, predictions: Any, references: Any, **options: Any) -> ReferenceCounts | None:
        """What a shard's references add to the corpus-wide table its statistics need (None where
        :meth:`needs_reference_counts` is false; the default)."""
        self.check_options(options)
        return None

    def shard_statistics(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> Statistics:
        """The statistics of one shard of a corpus, given the summed :meth:`reference_counts` of all
        shards (None for a family that needs none): its rows are those the whole corpus gives them."""
        if counts is not None:
            raise InputError(f"{self.name} needs no corpus-wide reference counts")
        return self.statistics(predictions, references, **options)

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        """The columns whose corpus sum the public function takes over one 1-D array of segments
        (``np.mean`` of segment scores: NumPy sums those pairwise, not row by row as
        :meth:`Statistics.totals` does); a merge that gives the public function's last bit sums
        them that way. Default: none."""
        return ()

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        """The columns whose value for every segment :meth:`result` needs: those the public result
        lists per segment whatever its options (CIDEr's and METEOR's ``scores``, the COCO suite's
        ``per_item``). Default: none."""
        return ()

    @abstractmethod
    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> Any:
        """What ``ngrameval.<metric>(...)`` returns (its result object) for the segments whose rows sum to
        ``totals`` (1, columns): ``stats`` carries the options, outputs, signature and context, and its
        rows may be the last segment's alone (NLTK BLEU's smoothing reads it); ``segments`` holds the
        :meth:`segment_columns` of every segment, in corpus order (segments, len(segment_columns)).
        Parts the public function gives only when asked for (sentence scores, explanations, the
        statistics) are left None."""


@dataclass(frozen=True)
class Resampling:
    """How a tool's significance tests score resampled statistics (:meth:`MetricFamily.resampling`): its
    scores are the family's times ``scale``; it sums the rows of a bootstrap resample in
    ``bootstrap_dtype`` (float64 or float32) before scoring them (:meth:`MetricFamily.score_resampled`
    then computes in it); ``reads_weights``: whether its score reads which rows made a sum (NLTK's
    BLEU reads the last one), else a test need not build the ``weights`` matrices (None is passed).

    >>> SACREBLEU_RESAMPLING
    Resampling(scale=100.0, bootstrap_dtype=<class 'numpy.float32'>, reads_weights=False)
    """

    scale: float = 1.0
    bootstrap_dtype: Any = np.float64
    reads_weights: bool = True

    def __post_init__(self) -> None:
        if np.dtype(self.bootstrap_dtype) not in (np.float64, np.float32):
            raise ValueError(f"bootstrap_dtype must be float64 or float32, got {self.bootstrap_dtype!r}")


# sacrebleu 2.6.0's significance module: scores on 0-100 from the sums alone, a bootstrap resample summed
# from ``np.array(stats, dtype="float32")`` (its approximate randomization and corpus scores sum exactly).
SACREBLEU_RESAMPLING = Resampling(100.0, np.float32, reads_weights=False)


def array_of_scores(scores: np.ndarray, python_floats: np.ndarray) -> np.ndarray:
    """The array NumPy builds from a list of a tool's scores (sacrebleu's ``np.array([...score])``):
    ``scores`` in their own dtype, unless some of them (``python_floats``) were Python floats (a
    ``return 0.0`` among float32 scores), which make the whole array float64.

    >>> array_of_scores(np.array([0.5, 0.0], np.float32), np.array([False, False])).dtype
    dtype('float32')
    >>> array_of_scores(np.array([0.5, 0.0], np.float32), np.array([False, True])).dtype
    dtype('float64')
    """
    return scores.astype(np.float64) if np.any(python_floats) else scores


class MeanOfSegments(MetricFamily):
    """A family whose corpus score is the mean of per-segment scores (ROUGE, METEOR's NLTK variant,
    CIDEr): the rows are the segment scores and a count, so a sum of rows is a sum of scores."""

    @abstractmethod
    def scores_of_segments(
        self, predictions: Any, references: Any, **options: Any
    ) -> tuple[np.ndarray, tuple[str, ...], str]:
        """(segments, outputs) scores, the output names and the signature."""

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, None]:
        self.check_options(options)
        scores, outputs, signature = self.scores_of_segments(predictions, references, **options)
        return Statistics(self.name, rows_with_count(scores), outputs, signature), None

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
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
    return cast(np.ndarray, np.divide(totals[:, :-1], count, out=np.zeros_like(totals[:, :-1]), where=count > 0))


def suite_signature(name: str, settings: str, parts: Sequence[str]) -> str:
    """The signature of a suite of metrics: its name, its own settings, then its parts' signatures.

    >>> suite_signature("coco_caption", "tok:ptb", ["variant:coco|...", "rouge_l:pycocoevalcap-1.2"])
    'coco_caption|tok:ptb|variant:coco|... + rouge_l:pycocoevalcap-1.2'
    """
    return f"{name}|{settings}|{' + '.join(parts)}"


class CombinedFamily(MetricFamily):
    """A family whose statistics are other families' statistics side by side (a suite such as
    COCOEvalCap's): each part keeps its columns and is scored by its own family. A suite with a part that
    needs every reference first passes the sharded hooks (:meth:`MetricFamily.reference_counts`,
    :meth:`MetricFamily.shard_statistics`) on to that part, as the COCO suite does for CIDEr-D."""

    def combine(self, parts: Sequence[tuple[MetricFamily, Statistics, tuple[str, ...]]], signature: str) -> Statistics:
        """One Statistics of ``(family, statistics, output names)`` parts; the signature joins theirs."""
        rows = np.hstack([part.rows for _, part, _ in parts])
        outputs = tuple(name for _, _, names in parts for name in names)
        layout = [(family, part, part.rows.shape[1]) for family, part, _ in parts]
        return Statistics(
            self.name,
            rows,
            outputs,
            suite_signature(self.name, signature, [part.signature for _, part, _ in parts]),
            {"parts": layout},
        )

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        found: list[int] = []
        start = 0
        for family, part, width in stats.context["parts"]:
            found.extend(start + column for column in family.pairwise_columns(part))
            start += width
        return tuple(found)

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return np.hstack(
            [
                family.score_totals(own, totals[:, start : start + own.rows.shape[1]], weights)
                for family, own, start in self._parts(stats)
            ]
        )

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        return np.hstack([family.segment_scores(part) for family, part, _ in self._parts(stats)])

    def _parts(self, stats: Statistics) -> list[tuple[MetricFamily, Statistics, int]]:
        """Each part's family, its statistics read from the combined rows (so that a subset or resample of
        the combined statistics is that of every part) and the start of its columns."""
        parts, start = [], 0
        for family, part, width in stats.context["parts"]:
            parts.append((family, replace(part, rows=stats.rows[:, start : start + width]), start))
            start += width
        return parts


_REGISTRY: dict[str, MetricFamily] = {}
# The families ngrameval ships, by name, and the module that defines and registers each: imported when the
# family is first asked for, so that importing ngrameval (or starting its command line) imports no metric.
BUILTIN_FAMILIES = {
    "bleu": "ngrameval.metrics.bleu",
    "chrf": "ngrameval.metrics.chrf",
    "cider": "ngrameval.metrics.cider",
    "coco_caption": "ngrameval.metrics.coco",
    "gleu": "ngrameval.metrics.gleu",
    "meteor": "ngrameval.metrics.meteor",
    "nist": "ngrameval.metrics.nist",
    "rouge": "ngrameval.metrics.rouge",
    "ter": "ngrameval.metrics.ter",
}


def register(family: MetricFamily) -> MetricFamily:
    """Add a family to the registry under its name (a metric module registers its family on import)."""
    existing = _REGISTRY.get(family.name)
    # The same family registered again is a module imported twice (as pytest's doctest collection can).
    same = (
        existing is not None
        and type(existing).__qualname__ == type(family).__qualname__
        and type(existing).__module__ == type(family).__module__
    )
    if not family.name or (existing is not None and not same):
        raise InputError(f"a metric family needs a new name, got {family.name!r}")
    _REGISTRY[family.name] = family
    return family


def metric_names() -> list[str]:
    """The metrics' names, sorted: those ngrameval ships (their modules are not imported for this) and any
    other registered.

    >>> {"bleu", "nist", "rouge", "meteor", "cider", "coco_caption"} <= set(metric_names())
    True
    """
    return sorted({*BUILTIN_FAMILIES, *_REGISTRY})


def get_family(name: Any) -> MetricFamily:
    """The family registered as ``name`` (a family ngrameval ships is imported then); a ValueError listing
    the valid names otherwise."""
    if isinstance(name, str) and name not in _REGISTRY and name in BUILTIN_FAMILIES:
        importlib.import_module(BUILTIN_FAMILIES[name])
    family = _REGISTRY.get(name) if isinstance(name, str) else None
    if family is None:
        raise InputError(f"unknown metric {name!r}; valid metrics: {', '.join(metric_names())}")
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
    raise InputError(f"no metric family computes {getattr(function, '__name__', function)!r}")


def statistics(metric: str, predictions: Any, references: Any, **options: Any) -> Statistics:
    """The per-segment statistics of ``predictions`` under metric ``metric`` (a :func:`metric_names` entry) and
    the options of its public function -- what :func:`ngrameval.confidence_interval`, :func:`ngrameval.paired_test`
    and the board resample and add up, without reading the text again. Public as ``ngrameval.statistics``.

    >>> import ngrameval
    >>> predictions, references = ["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog"]]
    >>> stats = ngrameval.statistics("bleu", predictions, references)
    >>> len(stats), stats.outputs, stats.signature.startswith("nrefs:1|case:mixed")
    (2, ('bleu',), True)
    >>> float(ngrameval.get_family("bleu").score(stats)[0, 0]) == ngrameval.bleu(predictions, references).bleu
    True
    """
    return get_family(metric).statistics(predictions, references, **options)


def sentence_scores(metric: str, predictions: Any, references: Any, **options: Any) -> tuple[np.ndarray, Statistics]:
    """(segments, outputs) sentence scores of ``predictions`` under metric ``metric`` and its options -- the
    numbers the metric's own per-segment result gives (``sentence_level=True``, ROUGE's
    ``use_aggregator=False``, CIDEr's ``scores``) -- and the statistics they come from (their ``outputs``
    name the columns).

    >>> scores, stats = sentence_scores("bleu", ["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog"]])
    >>> import ngrameval
    >>> scores[:, 0].tolist() == ngrameval.bleu(["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog"]],
    ...                                         sentence_level=True).sentence_scores, stats.outputs
    (True, ('bleu',))
    """
    family = get_family(metric)
    stats = family.sentence_statistics(predictions, references, **options)
    return family.segment_scores(stats), stats


def last_weighted(weights: np.ndarray | None, count: int) -> np.ndarray:
    """Per row of a (B, segments) weight matrix, the last segment with a non-zero weight (the last
    sentence of the corpus when ``weights`` is None).

    >>> last_weighted(np.array([[1, 0, 2, 0], [0, 1, 0, 0]]), 4).tolist()
    [2, 1]
    """
    if weights is None:
        return np.array([count - 1])
    nonzero = np.asarray(weights) != 0
    return cast(np.ndarray, count - 1 - np.argmax(nonzero[:, ::-1], axis=1))


def columns(*parts: np.ndarray) -> np.ndarray:
    """Per-segment arrays (1-D or 2-D) side by side as float64 rows."""
    return np.hstack([np.asarray(p, np.float64).reshape(len(p), -1) for p in parts])


@dataclass
class ReferenceCounts:
    """Counts over the references of a corpus that add up across its shards: ``counts`` maps an
    n-gram (as the family keys it) to a count, ``documents`` counts segments and ``words`` reference
    tokens. See :meth:`MetricFamily.reference_counts`.

    >>> total = ReferenceCounts({("a",): 2}, 1, 2)
    >>> total.add(ReferenceCounts({("a",): 1, ("b",): 1}, 1, 2))
    >>> total
    ReferenceCounts(counts={('a',): 3, ('b',): 1}, documents=2, words=4)
    """

    counts: dict[Any, int]
    documents: int = 0
    words: int = 0

    def add(self, other: ReferenceCounts) -> None:
        """Add another shard's counts to these."""
        counts = self.counts
        for key, count in other.counts.items():
            counts[key] = counts.get(key, 0) + count
        self.documents += other.documents
        self.words += other.words


_NREFS = re.compile(r"(?<=nrefs:)[^|\s]+")


def merged_signature(first: str, second: str) -> str:
    """The signature of two shards' statistics together: theirs, but for the number of references per
    segment, ``nrefs:var`` where the shards' differ (as a corpus with both counts gives it, sacrebleu's
    notation); a ValueError if they differ in anything else (the shards were scored with other options).

    >>> merged_signature("nrefs:2|tok:13a", "nrefs:1|tok:13a")
    'nrefs:var|tok:13a'
    """
    if first == second:
        return first
    if _NREFS.sub("", first) != _NREFS.sub("", second):
        raise InputError(
            f"statistics with signature {second!r} cannot be merged with {first!r}: the shards were "
            f"scored with different options"
        )
    return _NREFS.sub("var", first)


class RunningTotals:
    """Statistics of a corpus merged shard by shard, in corpus order, in memory bounded by a shard:
    the running column sums (added row by row, as :meth:`Statistics.totals` adds them), the last
    row (NLTK BLEU's smoothing reads the last sentence), and, for the family's
    :meth:`~MetricFamily.pairwise_columns` and :meth:`~MetricFamily.segment_columns`, the column
    values spooled to a temporary file, the former summed as NumPy sums one array. The result is
    then the one the whole corpus gives, to the last bit; ``len()`` is the number of segments.

    >>> predictions = ["the cat sat on the mat", "a dog", "the bird sang"]
    >>> references = [["the cat sat on a mat"], ["a dog barks"], ["a bird sang"]]
    >>> running = RunningTotals("bleu")
    >>> running.add(statistics("bleu", predictions[:2], references[:2]))
    >>> running.add(statistics("bleu", predictions[2:], references[2:]))
    >>> import ngrameval
    >>> running.result().as_dict() == ngrameval.bleu(predictions, references).as_dict(), len(running)
    (True, 3)
    """

    def __init__(self, metric: str) -> None:
        self.family = get_family(metric)
        self._first: Statistics | None = None
        self._totals: np.ndarray | None = None
        self._last: np.ndarray | None = None
        self._count = 0
        self._pairwise: tuple[int, ...] = ()
        self._segment_columns: tuple[int, ...] = ()
        self._spools: dict[int, Any] = {}
        self._signature = ""

    def __len__(self) -> int:
        return self._count

    def add(self, stats: Statistics) -> None:
        """Merge the statistics of the next shard (shards in corpus order)."""
        if stats.metric != self.family.name:
            raise InputError(f"statistics of {stats.metric!r} cannot be merged into {self.family.name!r}")
        if len(stats) == 0:
            return
        # C order: NumPy then sums a (rows, columns) array over its rows one row at a time, whatever
        # layout the family built (a column-major array would be summed pairwise).
        rows = np.ascontiguousarray(stats.rows, np.float64)
        if self._first is None:
            self._first = stats
            self._signature = stats.signature
            self._totals = rows.sum(axis=0)
            self._pairwise = self.family.pairwise_columns(stats)
            self._segment_columns = self.family.segment_columns(stats)
            self._spools = {
                column: tempfile.TemporaryFile() for column in sorted(set(self._pairwise) | set(self._segment_columns))
            }
        else:
            assert self._totals is not None  # set with self._first
            if rows.shape[1] != self._totals.shape[0] or stats.outputs != self._first.outputs:
                raise InputError(
                    f"statistics with {rows.shape[1]} columns and outputs {stats.outputs} cannot be "
                    f"merged with {self._totals.shape[0]} columns and outputs {self._first.outputs}: "
                    f"the shards were scored with different options"
                )
            self._signature = merged_signature(self._signature, stats.signature)
            # One reduction over the running sums then the rows: NumPy adds the rows one by one.
            self._totals = np.vstack([self._totals[None], rows]).sum(axis=0)
        for column, spool in self._spools.items():
            spool.write(np.ascontiguousarray(rows[:, column]).tobytes())
        self._last = rows[-1:].copy()
        self._count += len(stats)

    def _spooled(self, column: int, reduce: Callable[[np.ndarray], Any]) -> Any:
        """``reduce`` of one spooled column's values (every segment's, in corpus order)."""
        spool = self._spools[column]
        spool.flush()
        with mmap.mmap(spool.fileno(), 0, access=mmap.ACCESS_READ) as values:
            array = np.frombuffer(values, np.float64)
            try:
                return reduce(array)
            finally:
                del array

    def totals(self) -> np.ndarray:
        """(1, columns): the column sums of every row merged so far."""
        if self._first is None:
            raise InputError("no segment to score: every shard was empty")
        assert self._totals is not None  # set with self._first
        totals = self._totals.copy()
        for column in self._pairwise:
            totals[column] = self._spooled(column, np.add.reduce)
        return totals[None]

    def result(self) -> Any:
        """What ``ngrameval.<metric>(...)`` returns for every row merged so far (see
        :meth:`MetricFamily.result`)."""
        totals = self.totals()
        # Column-major: each column is one contiguous array (NumPy sums it as it sums a list of scores).
        segments = np.empty((self._count, len(self._segment_columns)), order="F")
        for i, column in enumerate(self._segment_columns):
            self._spooled(column, partial(np.copyto, segments[:, i]))
        # The family sees the last row as the corpus's last sentence (NLTK BLEU's smoothing reads it), and
        # the signature of every shard's rows together.
        assert self._first is not None and self._last is not None  # totals() raised otherwise
        return self.family.result(replace(self._first, rows=self._last, signature=self._signature), totals, segments)

    def close(self) -> None:
        """Delete the temporary files (also done when the object is collected)."""
        for spool in self._spools.values():
            spool.close()
        self._spools = {}
