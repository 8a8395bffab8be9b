"""Pairwise sentence scores of candidates against references, and minimum Bayes risk (MBR) decoding.

MBR decoding picks, among N candidates for one source, the one with the highest expected utility against M
pseudo-references (usually the candidates themselves): N x M sentence scores per source. :func:`pairwise` gives
that matrix for every registered metric, entry (i, j) what :func:`ngrameval.metric.sentence_scores` gives for
the pair as a segment. chrF/chrF++, BLEU and TER have fast paths that build the same per-pair statistics from
work done once per distinct string and score them with the family's own rule: the same numbers to the last bit.

The clipped matches of a pair are ``sum_g min(C[i, g], R[j, g])``, and ``min(a, b)`` is the number of levels
``t >= 1`` both counts reach: with one 0/1 column per (n-gram, level), the matches of every pair are one matrix
product ``A_hyp @ A_ref.T`` per order (BLAS in float32, exact for integer sums below 2**24). A column only one
distinct string reaches adds only to that string's pair with itself: such columns are left out.

:func:`aggregate_chrf` is chrF with reference aggregation (Vamvas and Sennrich, 2024; fastChrF's
``aggregate_chrf``), O(N + M) rather than O(N x M). :func:`mbr` picks the candidate of best expected utility.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Union

import numpy as np

from ngrameval.engine.corpus import encode_texts
from ngrameval.engine.inputs import check_flag, check_positive_int
from ngrameval.engine.ngrams import (
    concatenated_ranges,
    corpus_ngram_ids,
    distinct,
    ngram_counts,
    search_sorted,
    stable_order,
)
from ngrameval.engine.runs import offsets, vocabulary_ids
from ngrameval.errors import InputError
from ngrameval.metric import Statistics, columns, get_family, sentence_scores
from ngrameval.metrics.bleu import statistics_rows
from ngrameval.metrics.chrf import (
    ChrfOptions,
    ReferenceMatches,
    character_text,
    rows_of_matches,
    words_without_punctuation,
)
from ngrameval.metrics.ter import edits_to_reference
from ngrameval.text.tokenizers import get_tokenizer

# Pairs scored at once: blocks of hypotheses of about this many pairs bound the memory of large N x M.
BLOCK_PAIRS = 1 << 16
# Elements of one dense block of 0/1 level columns (float32: 16 MiB) in the matrix products.
DENSE_ELEMENTS = 1 << 22
# float32 adds integers exactly up to 2**24: beyond that many n-grams in one string, float64.
_EXACT_FLOAT32 = 1 << 24

Matrices = Union[np.ndarray, list[np.ndarray]]


@dataclass
class Source:
    """One source's candidates and references, and the distinct strings of both (in order of first occurrence),
    with each hypothesis' and reference's place among them; ``shared``: the references are the hypotheses."""

    hypotheses: list[str]
    references: list[str]
    strings: list[str]
    hyp_index: np.ndarray
    ref_index: np.ndarray
    shared: bool

    @staticmethod
    def of(hypotheses: list[str], references: list[str] | None) -> Source:
        places: dict[str, int] = {}
        hyp_index = np.fromiter((places.setdefault(h, len(places)) for h in hypotheses), np.int64, len(hypotheses))
        if references is None:
            return Source(hypotheses, hypotheses, list(places), hyp_index, hyp_index, True)
        ref_index = np.fromiter((places.setdefault(r, len(places)) for r in references), np.int64, len(references))
        return Source(hypotheses, references, list(places), hyp_index, ref_index, False)


def _texts(value: Any, where: str) -> list[str]:
    if not isinstance(value, (list, tuple)):
        raise InputError(f"{where} must be a list of strings, got {type(value).__name__}")
    if not value:
        raise InputError(f"{where} is empty: every source needs at least one string")
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise InputError(f"{where}[{i}] must be a string, got {type(text).__name__}")
    return list(value)


def sources_of(hypotheses: Any, references: Any) -> tuple[list[Source], bool]:
    """The checked sources, and whether the input is a batch: ``hypotheses`` is a list of strings (one
    source) or a list of such lists (a batch); ``references`` None (the hypotheses) or shaped alike.

    >>> [len(s.strings) for s in sources_of([["a", "b", "a"], ["c"]], None)[0]], sources_of(["a"], ["b"])[1]
    ([2, 1], False)
    >>> sources_of([["a"], "b"], None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: hypotheses mixes strings and lists: hypotheses[1] is a str among lists (one source is a ...
    """
    if not isinstance(hypotheses, (list, tuple)) or not hypotheses:
        raise InputError(
            "hypotheses must be a non-empty list of strings (one source) or of lists of strings "
            f"(a batch of sources), got {hypotheses!r:.60}"
        )
    batch = isinstance(hypotheses[0], (list, tuple))
    for i, item in enumerate(hypotheses):
        if isinstance(item, (list, tuple)) != batch:
            raise InputError(
                f"hypotheses mixes strings and lists: hypotheses[{i}] is a {type(item).__name__} "
                f"among {'lists' if batch else 'strings'} (one source is a list of strings, a batch "
                "a list of such lists)"
            )
    if not batch:
        refs = None if references is None else _texts(references, "references")
        return [Source.of(_texts(hypotheses, "hypotheses"), refs)], False
    if references is not None and (not isinstance(references, (list, tuple)) or len(references) != len(hypotheses)):
        raise InputError(
            f"references must hold one list of strings per source: {len(hypotheses)} sources, "
            f"got {len(references) if isinstance(references, (list, tuple)) else references!r:.60}"
        )
    return [
        Source.of(
            _texts(h, f"hypotheses[{s}]"), None if references is None else _texts(references[s], f"references[{s}]")
        )
        for s, h in enumerate(hypotheses)
    ], True


@dataclass
class OrderCounts:
    """One order's n-grams of a source's distinct strings: sparse (string, n-gram, count) triples, and
    each string's number of n-grams of that order."""

    string: np.ndarray
    gram: np.ndarray
    count: np.ndarray
    totals: np.ndarray


def order_counts(ids: np.ndarray, lengths: np.ndarray, max_order: int) -> list[OrderCounts]:
    """Orders 1..max_order of token sequences given as ids (all concatenated) and lengths.

    >>> counts = order_counts(np.array([0, 0, 1]), np.array([2, 1]), 2)
    >>> [(c.string.tolist(), c.gram.tolist(), c.count.tolist()) for c in counts]
    [([0, 1], [0, 1], [2, 1]), ([0], [0], [1])]
    """
    owner = np.repeat(np.arange(len(lengths)), lengths)
    totals = ngram_counts(lengths, max_order)
    result = []
    for n, ranks in enumerate(corpus_ngram_ids(ids, lengths, max_order)):
        valid = ranks >= 0
        grams = max(int(ranks.max(initial=-1)) + 1, 1)
        keys, counts = distinct(owner[valid] * grams + ranks[valid], return_counts=True)
        result.append(OrderCounts(keys // grams, keys % grams, counts, totals[:, n]))
    return result


def _token_counts(token_lists: Sequence[Sequence[str]], max_order: int) -> list[OrderCounts]:
    _, ids = vocabulary_ids(token_lists)
    return order_counts(ids, np.fromiter(map(len, token_lists), np.int64, len(token_lists)), max_order)


def _chrf_counts(options: ChrfOptions, strings: list[str]) -> list[OrderCounts]:
    """chrF's orders, characters then words, of prepared strings (lowercased if asked: as chrF prepares
    its corpus)."""
    if options.lowercase:
        strings = [s.lower() for s in strings]
    counts = _token_counts([character_text(s, options) for s in strings], options.char_order)
    if options.word_order:
        counts += _token_counts([words_without_punctuation(s) for s in strings], options.word_order)
    return counts


def level_columns(order: OrderCounts) -> tuple[np.ndarray, np.ndarray, int]:
    """The ones of one order's 0/1 level columns that at least two distinct strings reach: their rows (strings)
    and columns, sorted by column then row, and the number of columns. (A column that one string alone
    reaches adds only to that string's pair with itself, which :func:`pair_matches` sets apart.)

    >>> rows, cols, count = level_columns(order_counts(np.array([0, 0, 1, 0]), np.array([2, 1, 1]), 1)[0])
    >>> rows.tolist(), cols.tolist(), count
    ([0, 2], [0, 0], 1)
    """
    level, triple = concatenated_ranges(0, order.count)  # each triple's levels t - 1 = 0..count - 1
    column_keys = order.gram[triple] * int(order.count.max(initial=0)) + level
    keys, holders = distinct(column_keys, return_counts=True)
    kept = keys[holders > 1]
    found, hit = search_sorted(column_keys, kept)
    # (the triples run string by string: a stable sort by column keeps each column's rows in order)
    sort, column = stable_order(found[hit])
    return order.string[triple[hit]][sort], column, len(kept)


def _merged_columns(rows: np.ndarray, bounds: np.ndarray, strings: int) -> np.ndarray:
    """For each column (its rows ``rows[bounds[c]:bounds[c + 1]]``), the first column with the same rows: grouped
    by a sum of random 64-bit keys of their rows, then checked entry by entry (a collision keeps its own)."""
    columns = len(bounds) - 1
    if columns == 0:
        return np.zeros(0, np.int64)
    keys = np.random.default_rng(0).integers(1, 2**63, strings, dtype=np.uint64)
    _, first, group = np.unique(np.add.reduceat(keys[rows], bounds[:-1]), return_index=True, return_inverse=True)
    representative = first[group.ravel()]
    size = np.diff(bounds)
    same = size == size[representative]
    positions, owner = concatenated_ranges(bounds[:-1], np.where(same, size, 0))
    theirs = positions - bounds[owner] + bounds[representative[owner]]
    differs = np.bincount(owner[rows[positions] != rows[theirs]], minlength=columns) > 0
    return np.where(same & ~differs, representative, np.arange(columns))


def pair_matches(counts: list[OrderCounts], source: Source) -> np.ndarray:
    """(orders, N, M) clipped matches of every pair at each order: products of 0/1 level columns (see the
    module). Columns that the same strings reach are one, weighed per order by how many they are
    (near-duplicate candidates share most n-grams: a few hundred columns, not tens of thousands)."""
    parts = [level_columns(order) for order in counts]
    column_starts = offsets([count for _, _, count in parts])
    rows = np.concatenate([part[0] for part in parts])
    column = np.concatenate([part[1] + start for part, start in zip(parts, column_starts.tolist())])
    bounds = offsets(np.bincount(column, minlength=int(column_starts[-1])))
    merged = _merged_columns(rows, bounds, len(source.strings))
    kept, group = np.unique(merged, return_inverse=True)
    # (orders, kept columns): how many columns of each order each kept column stands for.
    column_order = np.repeat(np.arange(len(counts)), np.diff(column_starts))
    weights = np.bincount(column_order * len(kept) + group.ravel(), minlength=len(counts) * len(kept)).reshape(
        len(counts), len(kept)
    )
    totals = np.stack([order.totals for order in counts])  # (orders, strings)
    dtype = np.float32 if int(totals.max(initial=0)) < _EXACT_FLOAT32 else np.float64
    matches = np.zeros((len(counts), len(source.hyp_index), len(source.ref_index)), dtype)
    width = max(1, DENSE_ELEMENTS // max(len(source.strings), 1))
    for start in range(0, len(kept), width):
        block = kept[start : start + width]
        positions, owner = concatenated_ranges(bounds[block], np.diff(bounds)[block])
        dense = np.zeros((len(source.strings), len(block)), dtype)
        dense[rows[positions], owner] = 1
        hyp = dense[source.hyp_index]
        ref = hyp if source.shared else dense[source.ref_index]
        for n in range(len(counts)):
            matches[n] += (hyp * weights[n, start : start + width].astype(dtype)) @ ref.T
    same = source.hyp_index[:, None] == source.ref_index[None, :]
    matches[:, same] = totals[:, source.hyp_index[np.nonzero(same)[0]]]
    return matches


# Each returns, for a source, a function of a block of hypotheses (a slice, and its size) that gives the
# family's rows of the pairs (i, j), i in the block, j over all references, i major.
PairRows = Callable[[slice, int], np.ndarray]


def _one_reference_rows(
    matches: np.ndarray, hyp_totals: np.ndarray, ref_totals: np.ndarray, options: ChrfOptions
) -> np.ndarray:
    """chrF's rows of (pairs, orders) matches, hypothesis n-grams and reference n-grams: one reference each."""
    present = np.ones((len(matches), 1), bool)
    return rows_of_matches(ReferenceMatches(matches[:, None, :], hyp_totals, ref_totals[:, None, :], present), options)


def _chrf_rows(probe: Statistics, source: Source) -> PairRows:
    options: ChrfOptions = probe.context["options"]
    counts = _chrf_counts(options, source.strings)
    matches = pair_matches(counts, source)  # (orders, N, M)
    totals = np.stack([order.totals for order in counts], axis=1)  # (strings, orders)
    hyp_totals, ref_totals = totals[source.hyp_index], totals[source.ref_index]
    references = len(source.ref_index)

    def rows(block: slice, size: int) -> np.ndarray:
        return _one_reference_rows(
            matches[:, block].reshape(len(counts), size * references).T,
            np.repeat(hyp_totals[block], references, axis=0),
            np.tile(ref_totals, (size, 1)),
            options,
        )

    return rows


def _bleu_rows(probe: Statistics, source: Source) -> PairRows:
    options = probe.context["options"]
    order = options.statistics_order
    ids, lengths, _ = encode_texts(
        source.strings, get_tokenizer(options.tokenize, options.lowercase), lowercase=options.lowercase
    )
    matches = pair_matches(order_counts(ids, lengths, order), source)
    hyp_len, ref_len = lengths[source.hyp_index], lengths[source.ref_index]
    references = len(source.ref_index)

    def rows(block: slice, size: int) -> np.ndarray:
        # With one reference every brevity rule (closest, shortest, average) takes its length.
        pairs = size * references
        return statistics_rows(
            np.repeat(hyp_len[block], references), np.tile(ref_len, size), matches[:, block].reshape(order, pairs).T
        )

    return rows


def _ter_rows(probe: Statistics, source: Source) -> PairRows:
    tokenizer = probe.context["tokenizer"]

    # Each distinct string tokenized once (TER reads references twice through its tokenizer), and each
    # pair of distinct word sequences searched once, its edits kept in a (hypotheses, references) table.
    def distinct_words(index: np.ndarray, words: Callable[[str], Sequence[str]]) -> tuple[list, np.ndarray]:
        places: dict[tuple[str, ...], int] = {}
        place = {
            s: places.setdefault(tuple(words(source.strings[s])), len(places)) for s in dict.fromkeys(index.tolist())
        }
        return list(places), np.array([place[s] for s in index.tolist()], np.int64)

    hyp_words, hyp_ids = distinct_words(source.hyp_index, tokenizer.prediction_words)
    ref_words, ref_ids = distinct_words(source.ref_index, tokenizer.reference_words)
    ref_lengths = np.array([len(words) for words in ref_words], np.float64)[ref_ids]
    edits = np.full((len(hyp_words), len(ref_words)), -1, np.int64)
    needed = np.unique(ref_ids).tolist()

    def rows(block: slice, size: int) -> np.ndarray:
        for h in np.unique(hyp_ids[block]).tolist():
            found, words = edits[h], list(hyp_words[h])
            for r in needed:
                if found[r] < 0:
                    found[r] = edits_to_reference(words, ref_words[r]).edits
        return columns(edits[hyp_ids[block]][:, ref_ids].ravel(), np.tile(ref_lengths, size))

    return rows


_FAST_PATHS: dict[str, Callable[[Statistics, Source], PairRows]] = {
    "chrf": _chrf_rows,
    "bleu": _bleu_rows,
    "ter": _ter_rows,
}


def _pairwise(
    metric: str,
    sources: list[Source],
    /,
    output: str | None = None,
    block_rows: int | None = None,
    generic: bool = False,
    **options: Any,
) -> list[np.ndarray]:
    """Each source's (N, M) matrix, a block of hypotheses at a time."""
    family = get_family(metric)
    if block_rows is not None:
        check_positive_int("block_rows", block_rows)
    check_flag("generic", generic)
    # The first pair's statistics: the options checked and resolved by the metric itself, before any work (what
    # the probe resolved depends on the options alone: one probe serves every source).
    probe = family.sentence_statistics([sources[0].hypotheses[0]], [[sources[0].references[0]]], **options)
    if output is not None and output not in probe.outputs:
        raise InputError(
            f"output {output!r} is not one of {probe.metric}'s outputs with these options: {', '.join(probe.outputs)}"
        )
    column = 0 if output is None else probe.outputs.index(output)
    fast = None if generic else _FAST_PATHS.get(family.name)
    matrices = []
    for source in sources:
        count, references = len(source.hyp_index), len(source.ref_index)
        rows = fast(probe, source) if fast is not None else None
        step = block_rows or max(1, BLOCK_PAIRS // references)
        matrix = np.empty((count, references))
        for start in range(0, count, step):
            block, size = slice(start, min(count, start + step)), min(count - start, step)
            if rows is not None:
                scores = family.segment_scores(replace(probe, rows=rows(block, size)))
            else:
                hypotheses = [h for h in source.hypotheses[block] for _ in source.references]
                scores, _ = sentence_scores(family.name, hypotheses, [[r] for r in source.references] * size, **options)
            matrix[block] = scores[:, column].reshape(size, references)
        matrices.append(matrix)
    return matrices


def pairwise(
    metric: str,
    hypotheses: Any,
    references: Any = None,
    *,
    output: str | None = None,
    block_rows: int | None = None,
    generic: bool = False,
    **options: Any,
) -> Matrices:
    """The sentence score of every hypothesis against every reference: an (N, M) array for one source
    (``hypotheses`` a list of N strings, ``references`` a list of M strings or None: the hypotheses, MBR's
    pseudo-references), or a list of S arrays for a batch (S such lists, ``references`` None or one list each).

    Entry (i, j) is ``metric``'s sentence score of hypothesis i with reference j alone under ``options`` (the
    metric's own, e.g. ``word_order=2`` for chrF++), as :func:`ngrameval.metric.sentence_scores` gives it.
    ``output`` picks one output of a metric with several (default: the first). chrF/chrF++, BLEU and TER score
    all pairs at once; other metrics, and these with ``generic=True``, score the pairs as segments of one call
    (CIDEr's document frequencies then come from the references of a block of ``block_rows`` hypotheses). Memory
    is bounded by blocks of about :data:`BLOCK_PAIRS` pairs (``block_rows`` hypotheses each, if given).

    >>> import ngrameval
    >>> candidates = ["the cat sat on the mat", "a cat sat on the mat", "the cat is on the mat"]
    >>> matrix = pairwise("chrf", candidates)
    >>> matrix.shape, float(matrix[0, 0])
    ((3, 3), 1.0)
    >>> float(matrix[0, 2]) == ngrameval.chrf([candidates[0]], [candidates[2]]).chrf
    True
    >>> [m.shape for m in pairwise("bleu", [candidates, candidates[:2]], [["a cat"], ["the mat", "a mat"]])]
    [(3, 1), (2, 2)]
    """
    sources, batch = sources_of(hypotheses, references)
    matrices = _pairwise(metric, sources, output, block_rows, generic, **options)
    return matrices if batch else matrices[0]


def _aggregate_rows(options: ChrfOptions, source: Source) -> np.ndarray:
    """chrF's rows of each hypothesis against the references' summed n-grams: matches sum_g min(M C[i, g],
    sum_j R[j, g]) (fastChrF's integers: the averaged statistics times M, whose ratios chrF takes)."""
    counts = _chrf_counts(options, source.strings)
    references = len(source.ref_index)
    weight = np.bincount(source.ref_index, minlength=len(source.strings))  # each string's uses as a reference
    matches, ref_totals = [], []
    for order in counts:
        summed = np.bincount(order.gram, weights=weight[order.string] * order.count)
        matched = np.bincount(
            order.string,
            weights=np.minimum(references * order.count, summed[order.gram]),
            minlength=len(source.strings),
        )
        matches.append(matched[source.hyp_index])
        ref_totals.append(float(weight @ order.totals))
    hyp_totals = references * np.stack([order.totals for order in counts], axis=1)[source.hyp_index]
    return _one_reference_rows(
        np.stack(matches, axis=1), hyp_totals, np.tile(np.array(ref_totals), (len(hyp_totals), 1)), options
    )


def _aggregate(sources: list[Source], options: dict[str, Any]) -> list[np.ndarray]:
    family = get_family("chrf")
    probe = family.sentence_statistics([sources[0].hypotheses[0]], [[sources[0].references[0]]], **options)
    if probe.context["options"].variant != "sacrebleu":
        raise InputError(
            "reference aggregation is defined for sacrebleu's chrF (fastChrF's aggregate_chrf); use variant='sacrebleu'"
        )
    return [
        family.segment_scores(replace(probe, rows=_aggregate_rows(probe.context["options"], source)))[:, 0]
        for source in sources
    ]


def aggregate_chrf(hypotheses: Any, references: Any = None, **options: Any) -> Matrices:
    """chrF of each hypothesis against the references aggregated (Vamvas and Sennrich, 2024; fastChrF's
    ``aggregate_chrf``): an (N,) array for one source, a list of them for a batch (inputs as in :func:`pairwise`).
    Each hypothesis gets the chrF of its statistics against the references' averaged n-gram counts: linear in
    N + M (it is not the mean of the pairwise scores). ``options`` are :func:`ngrameval.chrf`'s (variant sacrebleu).

    >>> import ngrameval
    >>> scores = aggregate_chrf(["the cat sat", "a dog ran"], ["the cat sat", "the cat sits"])
    >>> scores.shape, bool(scores[0] > scores[1])
    ((2,), True)
    >>> one = aggregate_chrf(["the cat sat"], ["the cat sits"])   # one reference: chrF itself
    >>> float(one[0]) == ngrameval.chrf(["the cat sat"], ["the cat sits"]).chrf
    True
    """
    sources, batch = sources_of(hypotheses, references)
    scores = _aggregate(sources, options)
    return scores if batch else scores[0]


@dataclass
class MbrResult:
    """The candidate MBR decoding picks for one source: the string, its index, and every candidate's
    expected utility (its mean score against the references)."""

    best: str
    index: int
    utilities: np.ndarray


def mbr(
    hypotheses: Any, references: Any = None, metric: str = "chrf", aggregate: bool = False, **options: Any
) -> MbrResult | list[MbrResult]:
    """Minimum Bayes risk decoding: the candidate with the best expected utility against the references (None:
    the candidates themselves), one :class:`MbrResult` per source (a list for a batch; inputs as in :func:`pairwise`).

    A candidate's utility is the mean of its :func:`pairwise` row (itself included when the references are the
    candidates, as mbrs and fastChrF do), or with ``aggregate=True`` (chrF only) its :func:`aggregate_chrf`. The
    best is the highest utility (the lowest for TER), the first on ties. ``options`` go to :func:`pairwise` or
    :func:`aggregate_chrf`.

    >>> candidates = ["the cat sat on the mat", "a cat sat on the mat", "dogs run"]
    >>> result = mbr(candidates)
    >>> result.best, result.index, result.utilities.shape
    ('the cat sat on the mat', 0, (3,))
    >>> mbr(candidates, metric="ter").index   # the fewest edits per reference word: short references cost much
    2
    """
    check_flag("aggregate", aggregate)
    sources, batch = sources_of(hypotheses, references)
    family = get_family(metric)
    if aggregate:
        if family.name != "chrf":
            raise InputError(f"aggregate=True is chrF's reference aggregation; metric {metric!r} has none")
        utilities = _aggregate(sources, options)
    else:
        utilities = [matrix.mean(axis=1) for matrix in _pairwise(metric, sources, **options)]
    pick = np.argmin if family.lower_is_better else np.argmax
    results = [MbrResult(source.hypotheses[int(pick(u))], int(pick(u)), u) for source, u in zip(sources, utilities)]
    return results if batch else results[0]
