"""The protocol every metric family follows, and the registry that finds families by name: a family turns text
into per-segment statistics that add up (:meth:`MetricFamily.statistics`, the only step that reads text) and
scores any sum of them (:meth:`MetricFamily.score`): the corpus, a subset, a resample or other processes' totals.
"""

from __future__ import annotations

import importlib
import inspect
import mmap
import re
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
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
    """Per-segment statistics of one system: ``rows`` (segments, columns) add up; ``outputs`` names the scores
    a sum of rows gives (the first is the headline); ``signature`` records every option that changes the
    numbers; ``context`` holds what scoring needs besides the sums (resolved options, corpus-level constants)."""

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
        """(1, columns): the column sums (as :class:`RunningTotals` adds them); or (B, columns): one per row of
        a (B, segments) matrix of weights."""
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
    """One metric: how text becomes rows, and how a sum of rows is scored. Subclasses set ``name`` and
    ``function`` (the public ``ngrameval.<metric>``, whose options less ``options_not_for_statistics`` the
    statistics take) and implement :meth:`statistics_and_seen`, :meth:`score_totals` and :meth:`result`."""

    name: str = ""
    function: Callable[..., Any]
    # Whether the scores are errors (TER's edits per reference word): a ranking puts the smallest first.
    lower_is_better: bool = False
    # Options that change what the public function returns but not the score (explanations, per-segment scores).
    options_not_for_statistics: tuple[str, ...] = ()
    # The value of each of those at which the public function returns what :meth:`result` gives (shards take these).
    merged_option_values: dict[str, Any] = {}

    def oriented(self, score: float) -> float:
        """The score as a value where larger is better (negated where ``lower_is_better``): what rankings compare.

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
        """``options`` checked for a corpus scored in shards, less those of :attr:`merged_option_values` at
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
        """:meth:`statistics_and_seen` with no part asked for."""
        return self.statistics_and_seen(predictions, references, {}, **options)[0]

    @abstractmethod
    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """(B, outputs) scores of (B, columns) sums of rows; ``weights`` (B, segments) made them (None: the
        corpus), for rules that look past the sums (NLTK's last sentence)."""

    def score(self, stats: Statistics, weights: np.ndarray | None = None) -> np.ndarray:
        """(B, outputs): the corpus score (one row) or the score of each weighted sum of rows."""
        return self.score_totals(stats, stats.totals(weights), weights)

    def sentence_statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        """Statistics whose rows, scored by :meth:`segment_scores`, are the sentence scores (NLTK's
        ``sentence_nist`` counts otherwise)."""
        return self.statistics(predictions, references, **options)

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        """(segments, outputs): each row of :meth:`sentence_statistics` scored alone, as the tool scores one."""
        return self.score_totals(stats, stats.rows, None)

    def sentence_scores(self, stats: Statistics, predictions: Any, references: Any) -> np.ndarray:
        """(segments, outputs): the :func:`sentence_scores` of the text whose :meth:`statistics` are ``stats``
        (default: their :meth:`segment_scores`; a family with other :meth:`sentence_statistics` reads the text).

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
        """Output -> (bootstrap mean, low, high) where the reproduced tool resamples its own way, else None."""
        return None

    def resampling(self, stats: Statistics) -> Resampling:
        """How the reproduced tool's significance tests score resampled statistics (scale, precision)."""
        return Resampling()

    def score_resampled(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """(B, outputs) scores of sums of resampled rows as the tool's significance test scores them (its scale,
        precision and dtype: :func:`array_of_scores`). Default: :meth:`score_totals`.

        >>> stats = statistics("ter", ["a b c", "d e"], [["a b d"], ["d e"]])
        >>> sums = stats.totals().astype(np.float32)          # sacrebleu's float32 bootstrap sums
        >>> get_family("ter").score_resampled(stats, sums, None).tolist()   # sacrebleu: np.float32(20.0)
        [[20.0]]
        """
        return self.score_totals(stats, totals, weights)

    def compute(self, predictions: Any, references: Any, **options: Any) -> Any:
        """What ``ngrameval.<name>`` returns, and its one path: :meth:`statistics_and_seen`, then
        :meth:`result_with_parts`; ``result.statistics`` is the :class:`Statistics` it was scored from.

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
        """:meth:`result` of the sums of ``stats``' rows, with the parts ``parts`` ask for (:meth:`add_parts`)."""
        result = self.result(stats, stats.totals(), stats.rows[:, list(self.segment_columns(stats))])
        return self.add_parts(result, stats, seen, predictions, references, **parts)

    @abstractmethod
    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, Any]:
        """The :meth:`statistics` (options and ``parts`` checked first), and what only matching sees that the
        parts asked for need (an explanation's matched n-grams), for :meth:`add_parts`; None if nothing."""

    def add_parts(
        self, result: Any, stats: Statistics, seen: Any, predictions: Any, references: Any, **parts: Any
    ) -> Any:
        """``result`` with the parts ``parts`` ask for; ``seen`` from :meth:`statistics_and_seen`. Default:
        ``sentence_level=True`` sets ``result.sentence_scores`` to the headline's :meth:`sentence_scores`."""
        unknown = sorted(set(parts) - {"sentence_level"})
        if unknown:
            raise NotImplementedError(f"{type(self).__name__} must add the parts asked for by {unknown}")
        if parts.get("sentence_level"):
            result.sentence_scores = self.sentence_scores(stats, predictions, references)[:, 0].tolist()
        return result

    def corpus_scores(self, stats: Statistics) -> dict[str, float]:
        """Output name -> corpus score."""
        return dict(zip(stats.outputs, self.score(stats)[0].tolist()))

    # Sharded scoring: :class:`RunningTotals` merges shards' statistics in corpus order. A family whose statistics
    # need every reference first (NIST, CIDEr) counts them per shard in a first pass (:meth:`reference_counts`).

    def needs_reference_counts(self, **options: Any) -> bool:
        """Whether a shard's statistics need the :meth:`reference_counts` of every shard. Default: no."""
        self.check_options(options)
        return False

    def reference_counts(self, predictions: Any, references: Any, **options: Any) -> ReferenceCounts | None:
        """What a shard's references add to the corpus-wide table (None where none is needed)."""
        self.check_options(options)
        return None

    def shard_statistics(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> Statistics:
        """One shard's statistics, given all shards' summed :meth:`reference_counts` (None if none needed)."""
        if counts is not None:
            raise InputError(f"{self.name} needs no corpus-wide reference counts")
        return self.statistics(predictions, references, **options)

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        """The columns the public function sums as one 1-D array (``np.mean``: pairwise, not row by row)."""
        return ()

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        """The columns the public result lists per segment whatever its options (CIDEr's ``scores``). Default: none."""
        return ()

    @abstractmethod
    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> Any:
        """What ``ngrameval.<metric>(...)`` returns for the segments whose rows sum to ``totals`` (1, columns);
        ``stats``' rows may be the last segment's alone (NLTK BLEU's smoothing reads it); ``segments``: the
        :meth:`segment_columns` of every segment. Parts given only when asked for are left None."""


class ScoresAndSeen:
    """The parts of the results of CIDEr, METEOR and the COCO suite: every segment's score (``scores_field``,
    None with ``sentence_level=False``) and what matching saw (``seen_field``: explanations, image ids)."""

    options_not_for_statistics: tuple[str, ...] = ("explain", "sentence_level")
    merged_option_values: dict[str, Any] = {"explain": False, "sentence_level": True}
    seen_field, scores_field = "explanation", "scores"

    def add_parts(
        self, result: Any, stats: Statistics, seen: Any, predictions: Any, references: Any, **parts: Any
    ) -> Any:
        setattr(result, self.seen_field, seen)
        if not parts.get("sentence_level", True):
            setattr(result, self.scores_field, None)
        return result


@dataclass(frozen=True)
class Resampling:
    """How a tool's significance tests score resampled statistics: the family's scores times ``scale``, a
    bootstrap resample summed in ``bootstrap_dtype``; ``reads_weights``: whether its score reads which rows
    made a sum (else None is passed for ``weights``)."""

    scale: float = 1.0
    bootstrap_dtype: Any = np.float64
    reads_weights: bool = True

    def __post_init__(self) -> None:
        if np.dtype(self.bootstrap_dtype) not in (np.float64, np.float32):
            raise ValueError(f"bootstrap_dtype must be float64 or float32, got {self.bootstrap_dtype!r}")


# sacrebleu 2.6.0's significance module: scores on 0-100, a bootstrap resample summed in float32.
SACREBLEU_RESAMPLING = Resampling(100.0, np.float32, reads_weights=False)


def array_of_scores(scores: np.ndarray, python_floats: np.ndarray) -> np.ndarray:
    """The array NumPy builds from a list of a tool's scores: float64 if some (``python_floats``) were Python
    floats (a ``return 0.0`` among float32 scores), else their own dtype.

    >>> array_of_scores(np.array([0.5, 0.0], np.float32), np.array([False, False])).dtype
    dtype('float32')
    >>> array_of_scores(np.array([0.5, 0.0], np.float32), np.array([False, True])).dtype
    dtype('float64')
    """
    return scores.astype(np.float64) if np.any(python_floats) else scores


def rows_with_count(scores: np.ndarray) -> np.ndarray:
    """Per-segment scores (segments, outputs) as rows that add up: the scores, then a count of 1."""
    scores = np.asarray(scores, np.float64).reshape(len(scores), -1)
    return np.hstack([scores, np.ones((len(scores), 1))])


def means(totals: np.ndarray) -> np.ndarray:
    """(B, outputs): sums of :func:`rows_with_count` rows divided by their count (0 for no segment)."""
    count = totals[:, -1:]
    return cast(np.ndarray, np.divide(totals[:, :-1], count, out=np.zeros_like(totals[:, :-1]), where=count > 0))


_REGISTRY: dict[str, MetricFamily] = {}
# The families ngrameval ships and the module that registers each, imported when first asked for.
BUILTIN_FAMILIES = {
    name: f"ngrameval.metrics.{name}" for name in ("bleu", "chrf", "cider", "gleu", "meteor", "nist", "rouge", "ter")
}
BUILTIN_FAMILIES["coco_caption"] = "ngrameval.metrics.coco"


def register(family: MetricFamily) -> MetricFamily:
    """Add a family to the registry under its name (a metric module registers its family on import)."""
    # The same family registered again is a module imported twice (as pytest's doctest collection can).
    kinds = {(type(f).__module__, type(f).__qualname__) for f in (family, _REGISTRY.get(family.name, family))}
    if not family.name or len(kinds) > 1:
        raise InputError(f"a metric family needs a new name, got {family.name!r}")
    _REGISTRY[family.name] = family
    return family


def metric_names() -> list[str]:
    """The metrics' names, sorted: those ngrameval ships (not imported for this) and any other registered.

    >>> {"bleu", "nist", "rouge", "meteor", "cider", "coco_caption"} <= set(metric_names())
    True
    """
    return sorted({*BUILTIN_FAMILIES, *_REGISTRY})


def get_family(name: Any) -> MetricFamily:
    """The family registered as ``name``; a ValueError listing the valid names otherwise."""
    if isinstance(name, str) and name not in _REGISTRY and name in BUILTIN_FAMILIES:
        importlib.import_module(BUILTIN_FAMILIES[name])
    family = _REGISTRY.get(name) if isinstance(name, str) else None
    if family is None:
        raise InputError(f"unknown metric {name!r}; valid metrics: {', '.join(metric_names())}")
    return family


def family_of(function: Callable[..., Any]) -> MetricFamily:
    """The family whose public function is ``function`` (``ngrameval.bleu`` -> the BLEU family)."""
    for family in _REGISTRY.values():
        if family.function is function:
            return family
    raise InputError(f"no metric family computes {getattr(function, '__name__', function)!r}")


def statistics(metric: str, predictions: Any, references: Any, **options: Any) -> Statistics:
    """The per-segment statistics of ``predictions`` under ``metric`` and its public function's options: what
    :func:`ngrameval.confidence_interval`, :func:`ngrameval.paired_test` and the board resample and add up.

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
    """(segments, outputs) sentence scores of ``predictions`` under ``metric`` (what its own per-segment result
    gives), and the statistics they come from (their ``outputs`` name the columns).

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
    """Per row of a (B, segments) weight matrix, the last segment weighted (the last one if None).

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
    """Reference counts that add up across shards: n-gram -> count, segments and reference tokens."""

    counts: dict[Any, int]
    documents: int = 0
    words: int = 0

    def add(self, other: ReferenceCounts) -> None:
        counts = self.counts
        for key, count in other.counts.items():
            counts[key] = counts.get(key, 0) + count
        self.documents += other.documents
        self.words += other.words


def summed_counts(shards: Iterable[ReferenceCounts | None]) -> ReferenceCounts | None:
    """The corpus-wide :class:`ReferenceCounts` of the shards' (None: a shard without rows); None if none has any."""
    total = None
    for counts in shards:
        if total is None:
            total = counts
        elif counts is not None:
            total.add(counts)
    return total


_NREFS = re.compile(r"(?<=nrefs:)[^|\s]+")


def merged_signature(first: str, second: str) -> str:
    """The signature of two shards' statistics together: ``nrefs:var`` where their numbers of references differ
    (sacrebleu's notation); a ValueError if they differ in anything else.

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
    """Statistics of a corpus merged shard by shard in corpus order, in memory bounded by a shard (columns read
    per segment spooled to temporary files): the result is the whole corpus's, to the last bit.

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
        self._spools: dict[int, Any] = {}
        self._signature = ""

    def __len__(self) -> int:
        return self._count

    def add(self, stats: Statistics) -> None:
        """Merge the statistics of the next shard."""
        if stats.metric != self.family.name:
            raise InputError(f"statistics of {stats.metric!r} cannot be merged into {self.family.name!r}")
        if len(stats) == 0:
            return
        # C order: NumPy sums its rows one at a time (a column-major array would be summed pairwise).
        rows = np.ascontiguousarray(stats.rows, np.float64)
        if self._first is None:
            self._first = stats
            self._signature = stats.signature
            self._totals = rows.sum(axis=0)
            spooled = {*self.family.pairwise_columns(stats), *self.family.segment_columns(stats)}
            self._spools = {column: tempfile.TemporaryFile() for column in sorted(spooled)}
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
        for column in self.family.pairwise_columns(self._first):
            totals[column] = self._spooled(column, np.add.reduce)
        return totals[None]

    def result(self) -> Any:
        """What ``ngrameval.<metric>(...)`` returns for every row merged so far."""
        totals = self.totals()
        assert self._first is not None and self._last is not None  # totals() raised otherwise
        # Column-major: each column is one contiguous array (NumPy sums it as it sums a list of scores).
        listed = self.family.segment_columns(self._first)
        segments = np.empty((self._count, len(listed)), order="F")
        for i, column in enumerate(listed):
            self._spooled(column, partial(np.copyto, segments[:, i]))
        return self.family.result(replace(self._first, rows=self._last, signature=self._signature), totals, segments)

    def close(self) -> None:
        """Delete the temporary files (also done when collected)."""
        for spool in self._spools.values():
            spool.close()
        self._spools = {}


def merged_result(metric: str, shards: Iterable[Statistics | None]) -> Any:
    """What ``ngrameval.<metric>(...)`` returns for the shards' statistics merged in order (None: an empty shard).

    >>> merged_result("bleu", [None, statistics("bleu", ["a b c d"], [["a b c d"]])]).bleu
    1.0
    """
    running = RunningTotals(metric)
    try:
        for stats in shards:
            if stats is not None:
                running.add(stats)
        return running.result()
    finally:
        running.close()
