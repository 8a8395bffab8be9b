"""The jar's four matchers, run on every (hypothesis, reference) pair of a corpus at once: each gives the
candidate matches of every alignment (:class:`Candidates`). The jar compares words by ``String.hashCode``
(:func:`java_hashes`), so two words with the same Java hash count as equal. exact: equal hash codes; stem:
equal hash codes of the Snowball English stems, different words; synonym: a shared WordNet synset, different
words; paraphrase: a reference phrase that the table lists with a hypothesis phrase, or the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ngrameval.engine.ngrams import concatenated_ranges, distinct
from ngrameval.metrics.meteor15.paraphrase import ParaphraseTable


def java_hashes(words: Sequence[str]) -> np.ndarray:
    """``String.hashCode()`` of each word (over UTF-16 code units, as int64 values of the int32).

    >>> java_hashes(["", "a", "hello", "Aa", "BB", "\\U0001F600"]).tolist()
    [0, 97, 99162322, 2112, 2112, 1772899]
    """
    units = np.frombuffer("".join(words).encode("utf-16-le"), dtype=np.uint16).astype(np.uint64)
    lengths = np.fromiter((len(word.encode("utf-16-le")) // 2 for word in words), dtype=np.int64, count=len(words))
    ends = np.cumsum(lengths)
    # h = sum(unit * 31 ** (units after it)) mod 2 ** 32, with the powers taken mod 2 ** 32.
    after = np.repeat(ends, lengths) - np.arange(len(units)) - 1
    powers = np.ones(max(int(lengths.max(initial=0)), 1), dtype=np.uint64)
    for k in range(1, len(powers)):
        powers[k] = (powers[k - 1] * np.uint64(31)) & np.uint64(0xFFFFFFFF)
    terms = (units * powers[after]) & np.uint64(0xFFFFFFFF)
    sums = np.zeros(len(words), dtype=np.uint64)
    nonempty = lengths > 0
    sums[nonempty] = np.add.reduceat(terms, (ends - lengths)[nonempty])
    return (sums & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32).astype(np.int64)


def _flattened(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lists of ints laid end to end: (their values, where each list starts, its length)."""
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    values = np.fromiter((w for words in lists for w in words), dtype=np.int64, count=int(lengths.sum()))
    return values, np.cumsum(lengths) - lengths, lengths


CANDIDATE_FIELDS = ("a", "start", "length", "match_start", "match_length", "order")


@dataclass
class Candidates:
    """Candidate matches: alignment ``a``, reference span ``[start, start + length)``,
    hypothesis span ``[match_start, match_start + match_length)``, and ``order`` (a row of five
    sort keys each: module position, pass, then three keys) that sorts them, within an alignment
    and start, as the jar lists them."""

    a: np.ndarray
    start: np.ndarray
    length: np.ndarray
    match_start: np.ndarray
    match_length: np.ndarray
    order: np.ndarray

    @classmethod
    def concatenate(cls, parts: Sequence[Candidates]) -> Candidates:
        """All candidates of ``parts``, in turn."""
        if not parts:
            z = np.zeros(0, dtype=np.int64)
            return cls(z, z, z, z, z, np.zeros((0, 5), dtype=np.int64))
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in CANDIDATE_FIELDS))


@dataclass
class Sides:
    """The words of every alignment: ``hyp_word[hyp_offset[a] + j]`` is word j of alignment a's
    hypothesis (an index into the corpus vocabulary), and likewise for the reference."""

    hyp_word: np.ndarray
    hyp_offset: np.ndarray
    hyp_length: np.ndarray
    ref_word: np.ndarray
    ref_offset: np.ndarray
    ref_length: np.ndarray

    @classmethod
    def of(cls, pairs: Sequence[tuple[Sequence[int], Sequence[int]]]) -> Sides:
        """From (hypothesis word ids, reference word ids) pairs."""
        return cls(*_flattened([hyp for hyp, _ in pairs]), *_flattened([ref for _, ref in pairs]))

    def rows(self, side: str):
        """(alignment, position, word) of every word of one side."""
        word, length = getattr(self, f"{side}_word"), getattr(self, f"{side}_length")
        position, a = concatenated_ranges(0, length)  # (offsets are the running sums of the lengths)
        return a, position, word


def join(left_key: np.ndarray, right_key: np.ndarray):
    """All pairs (i, j) with left_key[i] == right_key[j], ordered by i, then by j."""
    order = np.argsort(right_key, kind="stable")
    sorted_keys = right_key[order]
    lo = np.searchsorted(sorted_keys, left_key, "left")
    at, i = concatenated_ranges(lo, np.searchsorted(sorted_keys, left_key, "right") - lo)
    return i, order[at]


def _pairs(ref_rows, ref_keys: np.ndarray, hyp_rows, hyp_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Word pairs of the same alignment whose keys agree: (a, reference position, hypothesis position),
    ordered by alignment, reference position, hypothesis position. ``ref_keys[k]`` is the key of
    reference row k (rows may repeat a word with several keys, as synonyms do)."""
    (ra, ri, _), (ha, hj, _) = ref_rows, hyp_rows
    # Keys are < 2 ** 32 in magnitude: pack (alignment, key) into one int64.
    i, j = join(ra * (1 << 33) + (ref_keys + (1 << 32)), ha * (1 << 33) + (hyp_keys + (1 << 32)))
    return ra[i], ri[i], hj[j]


def _single_words(sides: Sides, module: int, a, i, j, exact_key: np.ndarray | None) -> Candidates:
    """One-word matches (alignment, reference position, hypothesis position), of different words unless
    ``exact_key`` is None."""
    if exact_key is not None:
        keep = exact_key[sides.ref_word[sides.ref_offset[a] + i]] != exact_key[sides.hyp_word[sides.hyp_offset[a] + j]]
        a, i, j = a[keep], i[keep], j[keep]
    one, zero = np.ones(len(a), dtype=np.int64), np.zeros(len(a), dtype=np.int64)
    return Candidates(a, i, one, j, one, np.stack([np.full(len(a), module), zero, j, zero, zero], axis=1))


def word_candidates(sides: Sides, module: int, key: np.ndarray, exact_key: np.ndarray | None) -> Candidates:
    """Exact (``exact_key is None``) or stem matches: one-word matches of words with equal keys (``key`` per
    vocabulary word), for stems only between different words.

    >>> c = word_candidates(Sides.of([([0, 1, 0], [0, 1])]), 0, np.array([7, 8]), None)
    >>> list(zip(c.start.tolist(), c.match_start.tolist()))    # (reference, hypothesis) positions
    [(0, 0), (0, 2), (1, 1)]
    """
    ref_rows, hyp_rows = sides.rows("ref"), sides.rows("hyp")
    return _single_words(sides, module, *_pairs(ref_rows, key[ref_rows[2]], hyp_rows, key[hyp_rows[2]]), exact_key)


def synonym_candidates(
    sides: Sides, module: int, synsets: Sequence[Sequence[int]], exact_key: np.ndarray
) -> Candidates:
    """One-word matches of different words that share a synset (``synsets[w]``: ids of vocabulary word w).

    >>> c = synonym_candidates(Sides.of([([0, 1], [2])]), 2, [[5], [6, 9], [9]], np.array([10, 11, 12]))
    >>> list(zip(c.start.tolist(), c.match_start.tolist()))
    [(0, 1)]
    """
    flat, first, counts = _flattened(synsets)

    def exploded(side: str):
        a, position, word = sides.rows(side)
        at, row = concatenated_ranges(first[word], counts[word])
        return (a[row], position[row], word[row]), flat[at]

    a, i, j = _pairs(*exploded("ref"), *exploded("hyp"))
    # A pair sharing several synsets is one match.
    n_hyp = int(sides.hyp_length.max(initial=0)) + 1
    n_ref = int(sides.ref_length.max(initial=0)) + 1
    packed = distinct((a * n_ref + i) * n_hyp + j)
    return _single_words(sides, module, packed // (n_ref * n_hyp), packed // n_hyp % n_ref, packed % n_hyp, exact_key)


def paraphrase_candidates(sides: Sides, module: int, table: ParaphraseTable, table_id: np.ndarray) -> Candidates:
    """Phrase matches from the paraphrase table (``table_id[w]``: the table's id of vocabulary word w, or -1).
    The jar's first pass takes reference phrases at each reference position (shorter first, then in table
    order) and finds their paraphrases in the hypothesis (left to right); the second pass does the same from
    hypothesis phrases and appends to the lists of the reference positions where the paraphrases start."""
    found = {}
    for side in ("ref", "hyp"):
        offset, length = getattr(sides, f"{side}_offset"), getattr(sides, f"{side}_length")
        found[side] = table.find_ngrams(table_id[getattr(sides, f"{side}_word")], offset, offset + length)
    parts = []
    for source_side, target_side, second_pass in (("ref", "hyp", 0), ("hyp", "ref", 1)):
        # (alignment, position, length, source) of every source phrase on the source side ...
        position, phrase_length, source = found[source_side][0]
        offset = getattr(sides, f"{source_side}_offset")
        a = np.searchsorted(offset, position, "right") - 1
        entry, row = concatenated_ranges(
            np.asarray(table.source_first[source], dtype=np.int64),
            np.asarray(table.source_count[source], dtype=np.int64),
        )
        target = np.asarray(table.entry_target[entry], dtype=np.int64)
        # ... joined with the target phrases found on the other side of the same alignment.
        t_position, t_length, t_target = found[target_side][1]
        t_offset = getattr(sides, f"{target_side}_offset")
        t_a = np.searchsorted(t_offset, t_position, "right") - 1
        n_targets = len(table.target_length)
        i, j = join(a[row] * n_targets + target, t_a * n_targets + t_target)
        alignment, entry = a[row[i]], entry[i]
        source_at, source_len = position[row[i]] - offset[alignment], phrase_length[row[i]]
        target_at, target_len = t_position[j] - t_offset[alignment], t_length[j]
        # The second pass's matches start where their paraphrase (a target) starts in the reference.
        spans = (
            (target_at, target_len, source_at, source_len)
            if second_pass
            else (source_at, source_len, target_at, target_len)
        )
        keys = (source_at, source_len, entry) if second_pass else (source_len, entry, target_at)
        order = np.stack([np.full(len(i), module), np.full(len(i), second_pass), *keys], axis=1)
        parts.append(Candidates(alignment, *spans, order))
    return Candidates.concatenate(parts)
