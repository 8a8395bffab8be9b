"""Longest common subsequences for ROUGE-L, ROUGE-Lsum and ROUGE-W: single pairs in pure Python (bit-parallel,
Allison & Dix 1986 / Hyyrö 2004, one Python big integer per row), and whole corpora of integer-coded sequences
with numpy: the same recurrence on 64-bit words (several, with carries, past 64 tokens), all pairs in one step
per row, walked back all at once; ROUGE-1.5.5's weighted LCS of many pairs (:func:`wlcs_union_mask`).

The recurrence: with ``M[x]`` the bit mask of the positions of token ``x`` in ``b`` and ``V`` starting as all
ones, each token ``x`` of ``a`` updates ``U = V & M[x]; V = (V + U) | (V - U)``. After ``i`` tokens of ``a``, the
zero bits of ``V`` below bit ``j`` count the LCS of ``a[:i]`` and ``b[:j]``. (``U`` is a subset of ``V``, so
``V - U`` is ``V ^ U``: only the addition carries.)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any, cast

import numpy as np

from ngrameval.engine.ngrams import concatenated_ranges, distinct, search_sorted, stable_order
from ngrameval.engine.runs import run_starts

Tokens = Sequence[Hashable]

_WORD = 64
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
# _LOW_TO_64[k]: the k lowest bits set, k = 0..64.
_LOW_TO_64 = np.array([(1 << k) - 1 for k in range(_WORD + 1)], dtype=np.uint64)
# The largest table of masks indexed directly by (b sequence, token), in 64-bit words (16 MB), rather than
# kept for the keys that occur and searched.
_DENSE_WORDS = 1 << 21
# At most this many pairs, :func:`lcs_lengths` runs each pair in pure Python.
_FEW_PAIRS = 32


def _bitcount_by_bytes(words: np.ndarray) -> np.ndarray:
    """Set bits per uint64 element (numpy < 2.0 has no ``np.bitwise_count``)."""
    as_bytes = np.ascontiguousarray(words).view(np.uint8).reshape(words.shape + (8,))
    return cast(np.ndarray, np.unpackbits(as_bytes, axis=-1).sum(axis=-1, dtype=np.int64))


_bitcount = getattr(np, "bitwise_count", _bitcount_by_bytes)


# --------------------------------------------------------------------------- single pairs


def _bit_rows(a: Tokens, b: Tokens, keep: bool) -> list[int]:
    """The rows ``V_0 .. V_len(a)`` (or only the last one) of the recurrence, bits over ``b``."""
    masks: dict[Hashable, int] = {}
    for j, token in enumerate(b):
        masks[token] = masks.get(token, 0) | (1 << j)
    full = v = (1 << len(b)) - 1
    rows = [v]
    get = masks.get
    for token in a:
        u = v & get(token, 0)
        v = ((v + u) | (v - u)) & full
        if keep:
            rows.append(v)
    return rows if keep else [v]


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence of two token sequences.

    >>> lcs_length("the cat sat on the mat".split(), "the cat lay on a mat".split())
    4
    """
    return len(b) - _bit_rows(a, b, keep=False)[0].bit_count()


def _prefix(row: int, j: int) -> int:
    """LCS of the row's prefix of ``a`` with ``b[:j]``: the zero bits of the row below bit j."""
    return j - (row & ((1 << j) - 1)).bit_count()


def lcs_positions(a: Tokens, b: Tokens) -> list[int]:
    """Positions in ``a`` of the longest common subsequence of ``a`` and ``b`` that rouge-score 0.1.2's
    ``lcs_ind(a, b)`` and ROUGE-1.5.5's ``markLCS`` pick: from the end, a token equal in both is taken, else the
    walk goes left (drops a token of ``b``) when that keeps a strictly longer LCS than going up.

    >>> lcs_positions("a b c d".split(), "b a d".split())
    [0, 3]
    """
    rows = _bit_rows(a, b, keep=True)
    i, j = len(a), len(b)
    positions = []
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            positions.append(i - 1)
            i -= 1
            j -= 1
        elif _prefix(rows[i], j - 1) > _prefix(rows[i - 1], j):
            j -= 1
        else:
            i -= 1
    positions.reverse()
    return positions


def wlcs(a: Tokens, b: Tokens, weight: float = 1.2) -> float:
    """Weighted LCS (Lin, 2004, section 3.3) with weighting function ``f(k) = k ** weight``:
    a run of ``k`` consecutive matches is worth ``f(k)`` (ROUGE-1.5.5's ``wlcs_inner``).

    >>> round(wlcs("a b c d".split(), "a b x d".split(), 2.0), 6)
    5.0
    """
    m, n = len(a), len(b)
    powers = [k**weight for k in range(min(m, n) + 1)]
    gains = [powers[k + 1] - powers[k] for k in range(min(m, n))]
    previous_c, previous_run = [0.0] * (n + 1), [0] * (n + 1)
    for token in a:
        c, run = [0.0] * (n + 1), [0] * (n + 1)
        for j in range(1, n + 1):
            if token == b[j - 1]:
                k = previous_run[j - 1]
                c[j] = previous_c[j - 1] + gains[k]
                run[j] = k + 1
            elif previous_c[j] >= c[j - 1]:
                c[j] = previous_c[j]
            else:
                c[j] = c[j - 1]
        previous_c, previous_run = c, run
    return previous_c[n]


# --------------------------------------------------------------------------- corpora (numpy)


class _Pairs:
    """Pairs of sequences (``a`` rows, bits over ``b``) with ``words`` 64-bit words per row. The tokens of
    ``a`` are non-negative; a negative token of ``b`` matches nothing."""

    keys: np.ndarray | None  # see _mask_table
    masks: np.ndarray

    def __init__(
        self,
        a_ids: np.ndarray,
        a_start: np.ndarray,
        a_len: np.ndarray,
        b_ids: np.ndarray,
        b_start: np.ndarray,
        b_len: np.ndarray,
        b_seq: np.ndarray,
        words: int,
    ) -> None:
        self.a_ids, self.b_ids = a_ids, b_ids
        # Longest a first, so that the pairs still active at row i are a prefix; pairs of one length by b,
        # so that the look-ups of their tokens' masks (keys b * base + token) sweep the table in order.
        order = stable_order((int(a_len.max(initial=0)) - a_len) * (int(b_seq.max(initial=0)) + 1) + b_seq)[0]
        self.order = order
        self.a_start, self.a_len = a_start[order], a_len[order]
        self.b_start, self.b_len, self.b_seq = b_start[order], b_len[order], b_seq[order]
        self.words = words
        self._mask_table()

    def _mask_table(self) -> None:
        """Per key ``rank of b * base + token``, the token's position bits in b; ``b_key``: each pair's rank of
        b * base. ``masks`` has a row for every possible key where that table is small (``keys`` None), else a
        row per key that occurs (``keys`` sorted) and a last row of zeros for the tokens b lacks."""
        sequences, first, b_rank = np.unique(self.b_seq, return_index=True, return_inverse=True)
        base = int(max(self.a_ids.max(initial=0), self.b_ids.max(initial=0))) + 1
        self.b_key = b_rank * base
        words = self.words
        lengths, b_starts = self.b_len[first], self.b_start[first]
        if len(sequences) * base * words <= _DENSE_WORDS:
            self.keys = None
            self.masks = np.zeros((len(sequences) * base, words), np.uint64)
            # Position by position, the b sequences longest first: at one position each sequence has one token,
            # so the keys of one step are distinct and its bit is set in place.
            longest = stable_order(int(lengths.max(initial=0)) - lengths)[0]
            b_starts, sequence_keys, ascending = b_starts[longest], longest * base, lengths[longest][::-1]
            for j in range(int(lengths.max(initial=0))):
                active = len(lengths) - int(np.searchsorted(ascending, j, side="right"))
                tokens = self.b_ids[b_starts[:active] + j]
                rows = (sequence_keys[:active] + tokens)[tokens >= 0]  # unknown tokens (< 0) match nothing
                self.masks[rows, j // _WORD] |= np.uint64(1 << (j % _WORD))
            return
        within, owner = concatenated_ranges(0, lengths)
        tokens = self.b_ids[b_starts[owner] + within]
        keep = tokens >= 0
        if not keep.all():
            tokens, owner, within = tokens[keep], owner[keep], within[keep]
        # Sorted keys; equal keys add up their bits (distinct bits: the sum is the or), in any order.
        order, word_keys = stable_order((owner * base + tokens) * words + within // _WORD)
        bits = np.left_shift(np.uint64(1), (within % _WORD).astype(np.uint64))[order]
        starts = np.flatnonzero(run_starts(word_keys))
        summed = np.add.reduceat(bits, starts) if len(starts) else np.zeros(0, np.uint64)
        unique_keys = word_keys[starts] // words  # sorted: the distinct (b, token) of each word
        key_start = run_starts(unique_keys)
        self.keys = np.append(unique_keys[key_start], np.iinfo(np.int64).max)
        self.masks = np.zeros((len(self.keys), words), np.uint64)
        self.masks[np.cumsum(key_start) - 1, word_keys[starts] % words] = summed

    def masks_of(self, b_key: np.ndarray, tokens: np.ndarray) -> np.ndarray:
        """The masks of tokens of a in the b sequences of keys ``b_key`` (one each)."""
        wanted = b_key + tokens
        if self.keys is None:
            return cast(np.ndarray, self.masks[wanted])
        found = np.searchsorted(self.keys, wanted)
        return self.masks[np.where(self.keys[found] == wanted, found, len(self.keys) - 1)]

    def _add(self, v: np.ndarray, u: np.ndarray) -> np.ndarray:
        """v + u over multi-word integers (word 0 lowest), carries propagated."""
        if self.words == 1:
            return cast(np.ndarray, v + u)
        total = np.empty_like(v)
        carry = np.zeros(len(v), np.uint64)
        for w in range(self.words):
            partial = v[:, w] + u[:, w]
            overflow = partial < v[:, w]
            partial += carry
            overflow |= partial < carry
            total[:, w] = partial
            carry = overflow.astype(np.uint64)
        return total

    def run(self, keep_rows: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The last rows (pairs, words) in pair order and, if asked (else empty), every row: ``rows[row_base[p] +
        i]`` is row i of pair p, i = 0..len(a)."""
        count = len(self.a_len)
        v = np.full((count, self.words), _ALL)
        row_base = np.cumsum(self.a_len + 1) - (self.a_len + 1)
        rows = np.empty((int((self.a_len + 1).sum()) if keep_rows else 0, self.words), np.uint64)
        if keep_rows:
            rows[row_base] = _ALL
        ascending = self.a_len[::-1]
        for i in range(int(self.a_len.max(initial=0))):
            active = count - int(np.searchsorted(ascending, i, side="right"))
            current = v[:active]
            u = current & self.masks_of(self.b_key[:active], self.a_ids[self.a_start[:active] + i])
            v[:active] = self._add(current, u) | (current ^ u)
            if keep_rows:
                rows[row_base[:active] + i + 1] = v[:active]
        return v, rows, row_base

    def lengths(self, last: np.ndarray) -> np.ndarray:
        """LCS lengths from the last rows: the zero bits below bit len(b)."""
        return _zeros_in(last, _below(self.b_len, self.words))


def _below(j: np.ndarray, words: int) -> np.ndarray:
    """Per j, the bits below bit j over ``words`` 64-bit words: (len(j), words)."""
    if words == 1:
        return cast(np.ndarray, _LOW_TO_64[j][:, None])
    return cast(np.ndarray, _LOW_TO_64[np.clip(j[:, None] - _WORD * np.arange(words), 0, _WORD)])


def _zeros_in(rows: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Per row (of 64-bit words), how many of ``bits`` (the same shape) are zero in it."""
    if rows.shape[1] == 1:
        return cast(np.ndarray, _bitcount(~rows[:, 0] & bits[:, 0]).astype(np.int64))
    return cast(np.ndarray, _bitcount(~rows & bits).sum(axis=1, dtype=np.int64))


def _highest_set(bits: np.ndarray) -> np.ndarray:
    """Per row (of 64-bit words, word 0 lowest), its highest set bit, -1 if there is none."""
    if bits.shape[1] == 1:
        return _highest_bit(bits[:, 0])
    return cast(np.ndarray, np.where(bits != 0, _highest_bit(bits) + _WORD * np.arange(bits.shape[1]), -1).max(axis=1))


def _highest_bit(values: np.ndarray) -> np.ndarray:
    """The position of the highest set bit of each uint64, -1 for 0.

    >>> _highest_bit(np.array([0, 1, 6, 2**53 - 1, 2**64 - 1], np.uint64)).tolist()
    [-1, 0, 2, 52, 63]
    """
    top = np.minimum(np.frexp(values.astype(np.float64))[1] - 1, _WORD - 1)
    # Converted to a float, a value just below a power of two rounds up to it.
    rounded_up = (top >= 0) & ((values >> np.maximum(top, 0).astype(np.uint64)) == 0)
    return cast(np.ndarray, top - rounded_up)


def _backtrace(pairs: _Pairs, rows: np.ndarray, row_base: np.ndarray) -> np.ndarray:
    """Walk all pairs back as :func:`lcs_positions` does; returns the marked positions of a (flat).

    Each walk carries L, the LCS of the prefixes at (i, j). Off a match it goes up exactly when LCS(i - 1, j)
    (the zero bits of row i - 1 below j) is still L; else it goes left to the nearest token of b before j equal
    to a[i - 1] (the highest bit below j of its mask) and takes it. Either way it leaves row i; it stops at L = 0."""
    level = pairs.lengths(rows[row_base + pairs.a_len])
    walking = np.flatnonzero(level > 0)
    level = level[walking]
    above = row_base[walking] + pairs.a_len[walking] - 1  # row i - 1
    position = pairs.a_start[walking] + pairs.a_len[walking] - 1  # a[i - 1], in a_ids
    b_key = pairs.b_key[walking]
    j = pairs.b_len[walking]
    marked = []
    while len(level):
        below = _below(j, pairs.words)
        nearest = _highest_set(pairs.masks_of(b_key, pairs.a_ids[position]) & below)  # a[i - 1]'s last place before j
        take = (nearest == j - 1) | (_zeros_in(rows[above], below) < level)  # a match first, else left
        marked.append(position[take])
        j = np.where(take, nearest, j)
        level -= take
        above -= 1
        position -= 1
        if not level.all():
            going = level > 0
            level, above, position, b_key, j = (x[going] for x in (level, above, position, b_key, j))
    return np.concatenate(marked) if marked else np.zeros(0, np.int64)


def _groups(
    a_ids: np.ndarray, a_offsets: np.ndarray, b_ids: np.ndarray, b_offsets: np.ndarray, pair_a: Any, pair_b: Any
) -> Iterator[tuple[np.ndarray, _Pairs]]:
    """The pairs with no empty side, by the number of 64-bit words their b needs: (their indices, _Pairs)."""
    a_offsets, b_offsets = np.asarray(a_offsets, np.int64), np.asarray(b_offsets, np.int64)
    pair_a, pair_b = np.asarray(pair_a, np.int64), np.asarray(pair_b, np.int64)
    a_len, b_len = np.diff(a_offsets)[pair_a], np.diff(b_offsets)[pair_b]
    words = (b_len + _WORD - 1) // _WORD
    nonempty = (a_len > 0) & (b_len > 0)
    for w in np.unique(words[nonempty]).tolist():
        chosen = np.flatnonzero(nonempty & (words == w))
        a_start, b_start = a_offsets[pair_a[chosen]], b_offsets[pair_b[chosen]]
        yield chosen, _Pairs(a_ids, a_start, a_len[chosen], b_ids, b_start, b_len[chosen], pair_b[chosen], int(w))


def lcs_lengths(
    a_ids: np.ndarray,
    a_offsets: np.ndarray,
    b_ids: np.ndarray,
    b_offsets: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
) -> np.ndarray:
    """LCS length of every pair of integer-coded sequences: sequence ``k`` of ``a`` is
    ``a_ids[a_offsets[k]:a_offsets[k + 1]]`` (likewise for ``b``), pair ``p`` is (``pair_a[p]``, ``pair_b[p]``).
    Token ids are non-negative; a negative id in ``b`` (a token absent from ``a``) matches nothing.

    >>> a = np.array([1, 2, 3, 4]); b = np.array([2, 1, 4])
    >>> lcs_lengths(a, [0, 4], b, [0, 3], [0], [0]).tolist()
    [2]
    """
    a_ids, b_ids = np.asarray(a_ids, np.int64), np.asarray(b_ids, np.int64)
    if len(pair_a) <= _FEW_PAIRS:
        # A few pairs (a training step's batch): the vectorized recurrence costs some fifty numpy calls per row
        # of the longest pair whatever the number of pairs, lcs_length on Python lists a few operations a token.
        a_bounds, b_bounds = np.asarray(a_offsets).tolist(), np.asarray(b_offsets).tolist()
        a_list, b_list = a_ids.tolist(), b_ids.tolist()
        lengths = [
            lcs_length(
                a_list[a_bounds[a] : a_bounds[a + 1]], [t for t in b_list[b_bounds[b] : b_bounds[b + 1]] if t >= 0]
            )
            for a, b in zip(np.asarray(pair_a).tolist(), np.asarray(pair_b).tolist())
        ]
        return np.array(lengths, np.int64)
    result = np.zeros(len(pair_a), np.int64)
    for chosen, pairs in _groups(a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b):
        result[chosen[pairs.order]] = pairs.lengths(pairs.run(keep_rows=False)[0])
    return result


def lcs_union_mask(
    a_ids: np.ndarray,
    a_offsets: np.ndarray,
    b_ids: np.ndarray,
    b_offsets: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
) -> np.ndarray:
    """Per token of ``a`` (flat, as ``a_ids``): whether the LCS of any of its pairs, read back as
    :func:`lcs_positions` does, takes it (ROUGE-Lsum's union LCS, Lin 2004, section 3.2).

    >>> a = np.array([1, 2, 3, 4, 5]); b = np.array([1, 2, 5, 4])
    >>> lcs_union_mask(a, [0, 5], b, [0, 2, 4], [0, 0], [0, 1]).tolist()
    [True, True, False, True, False]
    """
    a_ids = np.asarray(a_ids, np.int64)
    mask = np.zeros(len(a_ids), bool)
    for _, pairs in _groups(a_ids, a_offsets, np.asarray(b_ids, np.int64), b_offsets, pair_a, pair_b):
        mask[_backtrace(pairs, *pairs.run(keep_rows=True)[1:])] = True
    return mask


def sentence_pairs(
    a_counts: np.ndarray, b_counts: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every (sentence of text ``pair_a[p]``, sentence of text ``pair_b[p]``) of every text pair ``p``, as indices
    into the concatenated sentences (``a_counts[t]`` in a's text t); pair by pair, a sentences outer.

    >>> [x.tolist() for x in sentence_pairs([2, 1], [1, 2], [0, 1], [1, 0])]
    [[0, 0, 1, 1, 2], [1, 2, 1, 2, 0]]
    """
    a_counts, b_counts = np.asarray(a_counts, np.int64), np.asarray(b_counts, np.int64)
    pair_a, pair_b = np.asarray(pair_a, np.int64), np.asarray(pair_b, np.int64)
    a_first, b_first = np.cumsum(a_counts) - a_counts, np.cumsum(b_counts) - b_counts
    within, block = concatenated_ranges(0, a_counts[pair_a] * b_counts[pair_b])
    inner = b_counts[pair_b][block]
    return a_first[pair_a[block]] + within // inner, b_first[pair_b[block]] + within % inner


# --------------------------------------------------------------------------- weighted LCS of corpora (numpy)
#
# ROUGE-1.5.5's wlcs_inner and markLCS, all pairs at once. A run of rows (or columns) without a match acts as one
# such row: it is the running maximum of the row above and ends every run of matches, and the walk back goes
# straight through it. So each pair is cut to its shared tokens, every run of others kept as one gap token. The
# table is filled by anti-diagonals, so that the cells above, left and diagonal are slices of the previous two.

_GAP_A, _GAP_B = -1, -2  # gap and padding tokens of the two sides: they match nothing


def _shared_runs(
    ids: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    other_keys: np.ndarray,
    other_seq: np.ndarray,
    base: int,
    gap: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pair's sequence cut to the tokens that occur in its other sequence (``other_keys``: the sorted
    distinct ``sequence * base + token`` of the other side), every run of the others kept as one ``gap``:
    (tokens, their positions in ``ids``, tokens per pair, shared tokens per pair)."""
    within, owner = concatenated_ranges(0, lengths)
    positions = starts[owner] + within
    tokens = ids[positions]
    shared = (tokens >= 0) & search_sorted(other_seq[owner] * base + tokens, other_keys)[1]
    keep = shared | (within == 0) | np.concatenate(([True], shared[:-1]))  # shared, or the first of a run of others
    return (
        np.where(shared, tokens, gap)[keep],
        positions[keep],
        np.bincount(owner[keep], minlength=len(lengths)),
        np.bincount(owner[shared], minlength=len(lengths)),
    )


def _padded(tokens: np.ndarray, first: np.ndarray, lengths: np.ndarray, width: int, fill: int) -> np.ndarray:
    """Sequences ``tokens[first[p]:first[p] + lengths[p]]`` as the rows of a (pairs, width) array."""
    out = np.full((len(first), width), fill, np.int64)
    within, owner = concatenated_ranges(0, lengths)
    out[owner, within] = tokens[first[owner] + within]
    return out


def _buckets(rows: np.ndarray, cols: np.ndarray, cells: int = 1 << 21) -> Iterator[tuple[np.ndarray, int, int]]:
    """Pair indices grouped by shape (the same powers of two above rows and above columns), each group
    small enough to fill at once: (pairs, rows, cols), rows and cols the largest in the group."""
    key = np.frexp(rows.astype(np.float64))[1] * 64 + np.frexp(cols.astype(np.float64))[1]
    order = np.argsort(key, kind="stable")
    for group in np.split(order, np.flatnonzero(np.diff(key[order])) + 1):
        if len(group):
            height, width = int(rows[group].max()), int(cols[group].max())
            step = max(1, cells // ((height + width + 1) * (height + 1)))
            for start in range(0, len(group), step):
                yield group[start : start + step], height, width


def _wlcs_up_moves(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """wlcs_inner's table for rows ``a`` (pairs, m) and columns ``b`` (pairs, n): for a cell (i, j) without
    a match, ``up[:, i + j, i]`` tells whether the read-back goes up (``c[i-1][j] >= c[i][j-1]``). A match
    goes diagonally with ``c = (c[i-1][j-1] + f(k + 1)) - f(k)``, k the run of matches ending at
    (i-1, j-1): the script's order of floating-point operations, so that ties fall as in the script."""
    pairs, rows = a.shape
    cols = b.shape[1]
    up_moves = np.zeros((pairs, rows + cols + 1, rows + 1), bool)
    # Anti-diagonals d - 2 and d - 1 (values and runs of matches), indexed by row; the cells of row 0
    # and of column 0 are never written: they stay 0.
    value_2, value_1 = np.zeros((pairs, rows + 1)), np.zeros((pairs, rows + 1))
    run_2, run_1 = np.zeros((pairs, rows + 1), np.int64), np.zeros((pairs, rows + 1), np.int64)
    for d in range(2, rows + cols + 1):
        low, high = max(1, d - cols), min(rows, d - 1)
        here, above = slice(low, high + 1), slice(low - 1, high)
        match = a[:, above] == b[:, d - high - 1 : d - low][:, ::-1]  # cell (i, d - i): a[i - 1], b[d - i - 1]
        k = run_2[:, above]
        through = (value_2[:, above] + weights[k + 1]) - weights[k]
        up, left = value_1[:, above], value_1[:, here]
        go_up = up >= left
        value, run = np.zeros((pairs, rows + 1)), np.zeros((pairs, rows + 1), np.int64)
        value[:, here] = np.where(match, through, np.where(go_up, up, left))
        run[:, here] = np.where(match, k + 1, 0)
        up_moves[:, d, here] = go_up
        value_2, value_1, run_2, run_1 = value_1, value, run_1, run
    return up_moves


def _wlcs_marks(
    a: np.ndarray, b: np.ndarray, a_len: np.ndarray, b_len: np.ndarray, up_moves: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """markLCS on every pair: from (m, n), a match goes diagonally and marks its row, other cells go up
    or left as the table says. Returns the (pair, row) of every mark."""
    i, j = a_len.copy(), b_len.copy()
    active = np.flatnonzero((i > 0) & (j > 0))
    marked_pair, marked_row = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    while len(active):
        ii, jj = i[active], j[active]
        match = a[active, ii - 1] == b[active, jj - 1]
        marked_pair.append(active[match])
        marked_row.append(ii[match] - 1)
        go_up = up_moves[active, ii + jj, ii]
        i[active] = ii - (match | go_up)
        j[active] = jj - (match | ~go_up)
        active = active[(i[active] > 0) & (j[active] > 0)]
    return np.concatenate(marked_pair), np.concatenate(marked_row)


def wlcs_union_mask(
    a_ids: np.ndarray,
    a_offsets: np.ndarray,
    b_ids: np.ndarray,
    b_offsets: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
    weight: float = 1.2,
) -> np.ndarray:
    """Per token of ``a`` (flat, as ``a_ids``): whether the weighted LCS (``f(k) = k ** weight``) of any of its
    pairs takes it, as ROUGE-1.5.5's ``wlcs_inner`` and ``markLCS`` do: a match goes diagonally, else up when
    ``c[i-1][j] >= c[i][j-1]``, else left. Sequences and pairs as in :func:`lcs_union_mask`.

    >>> a = np.array([1, 2, 3, 4]); b = np.array([1, 2, 4, 3])
    >>> wlcs_union_mask(a, [0, 4], b, [0, 4], [0], [0], 2.0).tolist()
    [True, True, True, False]
    """
    a_ids, b_ids = np.asarray(a_ids, np.int64), np.asarray(b_ids, np.int64)
    a_offsets, b_offsets = np.asarray(a_offsets, np.int64), np.asarray(b_offsets, np.int64)
    pair_a, pair_b = np.asarray(pair_a, np.int64), np.asarray(pair_b, np.int64)
    mask = np.zeros(len(a_ids), bool)
    if len(pair_a) == 0 or len(a_ids) == 0 or len(b_ids) == 0:
        return mask
    base = int(max(a_ids.max(), b_ids.max(), 0)) + 1
    a_lengths, b_lengths = np.diff(a_offsets), np.diff(b_offsets)
    a_keys = distinct(np.repeat(np.arange(len(a_lengths)), a_lengths) * base + a_ids)
    b_keys = distinct(np.repeat(np.arange(len(b_lengths)), b_lengths) * base + b_ids)
    a_tokens, a_origin, a_len, shared = _shared_runs(
        a_ids, a_offsets[pair_a], a_lengths[pair_a], b_keys, pair_b, base, _GAP_A
    )
    b_tokens, _, b_len, _ = _shared_runs(b_ids, b_offsets[pair_b], b_lengths[pair_b], a_keys, pair_a, base, _GAP_B)
    a_first, b_first = np.cumsum(a_len) - a_len, np.cumsum(b_len) - b_len
    # Pairs without a shared token mark nothing.
    useful = np.flatnonzero(shared)
    longest = int(max(a_len.max(), b_len.max()))
    weights = np.array([float(k) ** weight for k in range(longest + 2)])  # C pow, as Perl's **
    for group, rows, cols in _buckets(a_len[useful], b_len[useful]):
        pairs = useful[group]
        a = _padded(a_tokens, a_first[pairs], a_len[pairs], rows, _GAP_A)
        b = _padded(b_tokens, b_first[pairs], b_len[pairs], cols, _GAP_B)
        marked_pair, marked_row = _wlcs_marks(a, b, a_len[pairs], b_len[pairs], _wlcs_up_moves(a, b, weights))
        mask[a_origin[a_first[pairs[marked_pair]] + marked_row]] = True
    return mask
