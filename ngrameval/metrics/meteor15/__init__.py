"""METEOR 1.5 (Denkowski and Lavie, 2014), exact to the ``meteor-1.5.jar`` that pycocoevalcap 1.2 runs.

pycocoevalcap runs ``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``: a ``SCORE`` line per segment
(the jar answers with the statistics of its best reference), then an ``EVAL`` line (each segment's score and
the corpus score of the summed statistics). :class:`Meteor15` does the same in Python, reading the jar's
data (function words, synonyms, normalizer prefixes) from the installed jar and the paraphrase table through
an on-disk index (:mod:`.paraphrase`):

>>> result = Meteor15().score(["a man rides a horse"], [["a man riding a horse on a beach", "a person rides a horse"]])
>>> round(result.score, 6), result.best_reference.tolist()
(0.890909, [1])

Options, the jar's in brackets: ``task`` [``-t``] (the English presets of its ``Constants``), ``modules``
[``-m``], ``weights`` [``-w``] and ``parameters`` [``-p``] (see :func:`.score.resolve_parameters`),
``normalization`` (``norm`` [``-norm``, pycocoevalcap's], ``norm_nopunct`` [``-norm -noPunct``], ``lower``
[``-lower``] or ``none``), ``beam_size`` [``-x``], ``paraphrase_table`` [``-a``] (``None``: pycocoevalcap's
``paraphrase-en.gz``; ``False``: none, and the result's ``modules_off`` says so) and ``cache_dir`` (where
its index is kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np

from ngrameval.engine.inputs import check_choice, check_positive_int, normalize_corpus
from ngrameval.engine.ngrams import concatenated_ranges
from ngrameval.errors import InputError
from ngrameval.metrics.meteor15 import matchers, resources
from ngrameval.metrics.meteor15.align import DEFAULT_BEAM_SIZE, Stage, build_stage, search
from ngrameval.metrics.meteor15.paraphrase import ParaphraseTable
from ngrameval.metrics.meteor15.resources import NORMALIZATIONS, prepare
from ngrameval.metrics.meteor15.score import (
    MODULES,
    SCORE_PARTS,
    STATS_LENGTH,
    TASKS,
    compute,
    resolve_parameters,
    stats_line,
    summable,
)

__all__ = ["MODULES", "NORMALIZATIONS", "TASKS", "Meteor15", "stats_line"]

PathArg = Union[str, Path, None, bool]
ALIGNMENT_BATCH = 4096  # alignments searched together: bounds the memory of the beam search


@dataclass
class Meteor15Result:
    """Scores of a corpus: ``score`` (from the summed statistics, as the jar's ``EVAL``), ``segment_scores``,
    ``statistics`` (a row of the jar's 23 stats-line numbers per segment, for its best reference),
    ``best_reference`` (the first with the highest score), ``modules_off`` (modules that could not run, and
    why) and the paraphrase table used."""

    score: float
    segment_scores: np.ndarray
    statistics: np.ndarray
    best_reference: np.ndarray
    modules_off: dict[str, str] = field(default_factory=dict)
    paraphrase_table: str | None = None

    def stats_lines(self) -> list[str]:
        """The jar's stats line of each segment (what its ``SCORE`` command prints)."""
        return [stats_line(row) for row in self.statistics]


@dataclass(frozen=True)
class AlignedMatch:
    """Hypothesis words ``[hyp_start, hyp_start + hyp_length)`` matched to reference words
    ``[ref_start, ref_start + ref_length)`` by ``module``."""

    module: str
    hyp_start: int
    hyp_length: int
    ref_start: int
    ref_length: int


@dataclass
class Meteor15Explanation:
    """How one segment was scored against its best reference: the words the jar aligned (after
    normalization), the matches (left to right in the reference), the chunks, and the score's parts;
    ``reference_scores``: the score against each reference."""

    hypothesis: list[str]
    reference: list[str]
    best_reference: int
    matches: list[AlignedMatch]
    chunks: int
    statistics: np.ndarray
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    score: float
    reference_scores: list[float]

    def chunk_spans(self) -> list[list[AlignedMatch]]:
        """The matches grouped into chunks (runs contiguous and in the same order on both sides)."""
        groups: list[list[AlignedMatch]] = []
        last_ref_end = last_hyp_end = None
        for match in self.matches:
            if groups and match.ref_start == last_ref_end and match.hyp_start == last_hyp_end:
                groups[-1].append(match)
            else:
                groups.append([match])
            last_ref_end, last_hyp_end = match.ref_start + match.ref_length, match.hyp_start + match.hyp_length
        return groups


class Meteor15:
    """A METEOR 1.5 scorer (see the module documentation); resources are loaded on first use and kept."""

    def __init__(
        self,
        task: str | None = None,
        modules: Sequence[str] | None = None,
        weights: Sequence[float] | None = None,
        parameters: Sequence[float] | None = None,
        normalization: str = "norm",
        beam_size: int = DEFAULT_BEAM_SIZE,
        paraphrase_table: PathArg = None,
        cache_dir: str | Path | None = None,
        jar: str | Path | None = None,
    ):
        self.modules, self.parameters = resolve_parameters(task, modules, weights, parameters)
        check_choice("normalization", normalization, NORMALIZATIONS)
        self.normalization = normalization
        self.beam_size = check_positive_int("beam_size", beam_size)
        self.jar = resources.find_jar(jar)
        self.modules_off: dict[str, str] = {}
        self._table_path: Path | None = None
        if "paraphrase" in self.modules:
            if paraphrase_table is False:
                self.modules_off["paraphrase"] = "no paraphrase table (paraphrase_table=False)"
            elif paraphrase_table is None or paraphrase_table is True:
                self._table_path = resources.default_paraphrase_table()
                if self._table_path is None:
                    self.modules_off["paraphrase"] = (
                        f"no paraphrase table: pycocoevalcap's meteor/data/{resources.PARAPHRASE_NAME} is not installed"
                    )
            else:
                self._table_path = Path(paraphrase_table)
                if not self._table_path.is_file():
                    raise InputError(f"paraphrase table not found: {self._table_path}")
        self.cache_dir = cache_dir
        self._table: ParaphraseTable | None = None
        self._nonbreaking: dict[str, int] | None = None
        self._stemmer = resources.english_stemmer() if "stem" in self.modules else None

    @property
    def paraphrase(self) -> ParaphraseTable | None:
        """The paraphrase table's index (built into the cache the first time), or None."""
        if self._table is None and self._table_path is not None:
            self._table = ParaphraseTable.open(self._table_path, self.cache_dir)
        return self._table

    def words(self, text: str) -> list[str]:
        """The words the jar aligns for ``text`` (normalized as configured).

        >>> Meteor15().words("It's a U.S.-made car.")
        ['it', "'s", 'a', 'us', 'made', 'car', '.']
        """
        if self._nonbreaking is None:
            self._nonbreaking = (
                resources.nonbreaking_prefixes(self.jar) if self.normalization.startswith("norm") else {}
            )
        return prepare(text, self.normalization, self._nonbreaking)

    def _align(self, pairs: Sequence[tuple[list[str], list[str]]]) -> tuple[Stage, np.ndarray, np.ndarray]:
        """Align each (hypothesis words, reference words) pair: the jar's statistics of every pair, and the
        stage and chosen candidates of the last batch of ``ALIGNMENT_BATCH`` (all pairs for :meth:`explain`)."""
        vocabulary: dict[str, int] = {}
        hyp_words = [[vocabulary.setdefault(w, len(vocabulary)) for w in hyp] for hyp, _ in pairs]
        ref_words = [[vocabulary.setdefault(w, len(vocabulary)) for w in ref] for _, ref in pairs]
        words = list(vocabulary)
        exact_key = matchers.java_hashes(words)
        function = resources.function_words(self.jar)
        is_function = np.fromiter((w.lower() in function for w in words), dtype=bool, count=len(words))
        stem_key: Any = None if self._stemmer is None else matchers.java_hashes(self._stemmer.stemWords(words))
        if "synonym" in self.modules:
            synonyms = resources.SynonymDictionary.load(self.jar)
            synsets = [sorted(synonyms.synsets(w)) for w in words]
        table = self.paraphrase if "paraphrase" in self.modules else None
        table_ids = np.zeros(0, np.int64) if table is None else table.ids(words)
        aligner_weights = np.array([1.0 if module == "exact" else 0.5 for module in self.modules])
        statistics = []
        for lo in range(0, max(len(pairs), 1), ALIGNMENT_BATCH):
            sides = matchers.Sides.of(
                list(zip(hyp_words[lo : lo + ALIGNMENT_BATCH], ref_words[lo : lo + ALIGNMENT_BATCH]))
            )
            parts = []
            for position, module in enumerate(self.modules):
                if module == "exact":
                    parts.append(matchers.word_candidates(sides, position, exact_key, None))
                elif module == "stem":
                    parts.append(matchers.word_candidates(sides, position, stem_key, exact_key))
                elif module == "synonym":
                    parts.append(matchers.synonym_candidates(sides, position, synsets, exact_key))
                elif table is not None:
                    parts.append(matchers.paraphrase_candidates(sides, position, table, table_ids))
            stage = build_stage(sides, matchers.Candidates.concatenate(parts), _identical(sides, exact_key))
            chunks, chosen = search(stage, sides, aligner_weights, self.beam_size)
            statistics.append(_statistics(sides, stage, chosen, chunks, is_function))
        return stage, chosen, np.concatenate(statistics)

    def _segments(self, predictions: Any, references: Any) -> tuple[list[tuple[list[str], list[str]]], np.ndarray]:
        """The (hypothesis words, reference words) pairs, and the segment of each."""
        hyps, refs, pretokenized = normalize_corpus(predictions, references)
        if pretokenized:  # the jar reads text: tokens are joined by spaces
            hyps = [" ".join(h) for h in hyps]
            refs = [[" ".join(r) for r in group] for group in refs]
        prepared = {text: self.words(text) for text in {*hyps, *(r for group in refs for r in group)}}
        pairs = [(prepared[h], prepared[r]) for h, group in zip(hyps, refs) for r in group]
        return pairs, np.repeat(np.arange(len(hyps)), [len(group) for group in refs])

    def score(self, predictions: Any, references: Any) -> Meteor15Result:
        """Score a corpus: one prediction string per segment, one or more references each (token lists
        are joined by spaces: the jar reads text).

        >>> result = Meteor15().score(["the cat sat", "a dog"], [["the cat sat down"], ["a dog", "the dog"]])
        >>> round(result.score, 4), [round(float(s), 4) for s in result.segment_scores]
        (0.4588, [0.3799, 1.0])
        """
        pairs, segment = self._segments(predictions, references)
        statistics = self._align(pairs)[2]
        scores = compute(statistics, self.parameters)["score"]
        best = _best_alignment(segment, scores)
        return Meteor15Result(
            score=float(compute(summable(statistics[best]).sum(axis=0)[None], self.parameters)["score"][0]),
            segment_scores=scores[best],
            statistics=statistics[best],
            best_reference=best - np.searchsorted(segment, np.arange(len(best))),
            modules_off=dict(self.modules_off),
            paraphrase_table=str(self._table_path) if self._table_path is not None else None,
        )

    def explain(self, prediction: str, references: str | Sequence[str]) -> Meteor15Explanation:
        """The alignment and score parts of one segment against its best reference.

        The usual METEOR example: 6 matched words in 2 chunks ("the cat", "sat on the mat").

        >>> e = Meteor15().explain("the cat was sat on the mat", ["the cat sat on the mat"])
        >>> len(e.matches), e.chunks, [len(chunk) for chunk in e.chunk_spans()]
        (6, 2, [2, 4])
        >>> round(e.precision, 4), e.recall, round(e.fragmentation, 4), round(e.penalty, 4), round(e.score, 4)
        (0.9231, 1.0, 0.3333, 0.4816, 0.512)
        """
        pairs, _ = self._segments([prediction], [references])
        stage, chosen, statistics = self._align(pairs)
        metrics = compute(statistics, self.parameters)
        best = int(_best_alignment(np.zeros(len(pairs), dtype=np.int64), metrics["score"])[0])
        hyp, ref = pairs[best]
        chosen = np.flatnonzero(chosen & (stage.a == best))
        matches = [
            AlignedMatch(
                self.modules[stage.module[c]],
                int(stage.match_start[c]),
                int(stage.match_length[c]),
                int(stage.start[c]),
                int(stage.length[c]),
            )
            for c in chosen[np.argsort(stage.start[chosen], kind="stable")]
        ]
        return Meteor15Explanation(
            hypothesis=hyp,
            reference=ref,
            best_reference=best,
            matches=matches,
            chunks=int(statistics[best, 20]),
            statistics=statistics[best],
            reference_scores=metrics["score"].tolist(),
            **{name: float(metrics[name][best]) for name in SCORE_PARTS},
        )


def _identical(sides: matchers.Sides, exact_key: np.ndarray) -> np.ndarray:
    """Alignments whose two lines have the same words (by hash code, as the jar compares them)."""
    identical = sides.hyp_length == sides.ref_length
    a = np.flatnonzero(identical)
    hyp_at, row = concatenated_ranges(sides.hyp_offset[a], sides.hyp_length[a])
    ref_at = hyp_at + (sides.ref_offset - sides.hyp_offset)[a[row]]  # the same positions in the reference
    identical[a[row[exact_key[sides.hyp_word[hyp_at]] != exact_key[sides.ref_word[ref_at]]]]] = False
    return identical


def _statistics(
    sides: matchers.Sides, stage: Stage, chosen: np.ndarray, chunks: np.ndarray, is_function: np.ndarray
) -> np.ndarray:
    """The jar's 23 statistics of each alignment, from the matches its best path uses."""
    n_align = len(sides.hyp_length)
    stats = np.zeros((n_align, STATS_LENGTH))
    stats[:, 0], stats[:, 1] = sides.hyp_length, sides.ref_length
    hyp_function, ref_function = is_function[sides.hyp_word], is_function[sides.ref_word]
    stats[:, 2] = np.bincount(np.repeat(np.arange(n_align), sides.hyp_length), hyp_function, minlength=n_align)
    stats[:, 3] = np.bincount(np.repeat(np.arange(n_align), sides.ref_length), ref_function, minlength=n_align)
    c = np.flatnonzero(chosen)
    a, module = stage.a[c], stage.module[c]
    for begin, length, function, column in (
        (sides.hyp_offset[a] + stage.match_start[c], stage.match_length[c], hyp_function, 0),
        (sides.ref_offset[a] + stage.start[c], stage.length[c], ref_function, 1),
    ):
        index, row = concatenated_ranges(begin, length)
        # columns 4 + 4 * module + (0 hyp content, 1 ref content, 2 hyp function, 3 ref function)
        np.add.at(stats, (a[row], 4 + 4 * module[row] + column + 2 * function[index].astype(np.int64)), 1)
    stats[:, 20] = chunks
    stats[:, 21] = stats[:, 4:20:2].sum(axis=1)  # the matched words of each side: content and function
    stats[:, 22] = stats[:, 5:20:2].sum(axis=1)
    return stats


def _best_alignment(segment: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per segment, the index of its first alignment with the highest score (the jar keeps a reference
    only when it scores strictly higher than the best so far)."""
    order = np.lexsort((np.arange(len(scores)), -scores, segment))
    return order[np.searchsorted(segment[order], np.arange(int(segment.max(initial=-1)) + 1), "left")]
