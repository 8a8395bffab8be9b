"""The n-gram engine shared by every metric: counting, clipping and summing as numpy operations over corpora.

:class:`ReferenceIndex` holds per order a sorted table of the distinct (sentence, n-gram) *entries* of the
references with their counts in each reference. An entry's key is ``entry_{n-1}(prefix) * V + id(last token)``
(order 1: ``sentence * V + id``): keys stay small and scoped to their sentence, and hypotheses are matched order
by order, reusing each prefix's entry.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any, Literal, TypeVar, cast, overload

import numpy as np

from ngrameval.engine.cache import estimated_nbytes
from ngrameval.engine.runs import offsets, run_starts, vocabulary_ids
from ngrameval.errors import InputError

Tokens = Sequence[str]
Value = TypeVar("Value")


def divide_or_zero(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b elementwise, 0 where b is 0 (precisions, recalls and lengths of empty texts)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), 0.0)


def ngram_counts(lengths: np.ndarray, max_order: int) -> np.ndarray:
    """(..., N): the n-grams of sequences of ``lengths`` for n = 1..N."""
    return np.maximum(np.asarray(lengths)[..., None] - np.arange(max_order), 0)


@overload
def distinct(values: np.ndarray, return_counts: Literal[False] = False) -> np.ndarray: ...
@overload
def distinct(values: np.ndarray, return_counts: Literal[True]) -> tuple[np.ndarray, np.ndarray]: ...
def distinct(values: np.ndarray, return_counts: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of an integer array (and with ``return_counts`` their counts), by
    :func:`radix_order` where it applies: numpy 2.x's ``np.unique`` hashes, many times slower on int64."""
    values = np.asarray(values)
    order = radix_order(values) if len(values) and values.min() >= 0 else None
    ordered = np.sort(values) if order is None else values[order]
    first = np.flatnonzero(run_starts(ordered))
    if return_counts:
        return ordered[first], np.diff(first, append=len(ordered))
    return ordered[first]


def radix_order(keys: np.ndarray) -> np.ndarray | None:
    """The stable order of non-negative ``keys`` below 2**32 by stable argsorts of their 16-bit halves (a radix
    sort, two or three times faster than sorting int64); None for larger keys.

    >>> radix_order(np.array([1 << 20, 5, (1 << 20) + 1, 1 << 20])).tolist(), radix_order(np.array([1 << 40]))
    ([1, 0, 3, 2], None)
    """
    key_bits = int(keys.max(initial=0)).bit_length()
    if key_bits > 32:
        return None
    order = np.argsort(keys.astype(np.uint16), kind="stable")  # the low 16 bits (astype wraps)
    if key_bits > 16:
        order = order[np.argsort((keys[order] >> 16).astype(np.uint16), kind="stable")]
    return order


def stable_order(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stable order that sorts non-negative ``keys``, and the sorted keys: by :func:`radix_order`, else by one
    ``np.sort`` of packed (key, position) pairs where they fit in 63 bits (faster than ``argsort``)."""
    keys = np.asarray(keys, np.int64)
    order = radix_order(keys)
    if order is not None:
        return order, keys[order]
    position_bits = max(len(keys) - 1, 1).bit_length()
    if int(keys.max(initial=0)).bit_length() + position_bits > 63:
        order = np.argsort(keys, kind="stable")
        return order, keys[order]
    packed = np.sort((keys << position_bits) | np.arange(len(keys)))
    return packed & ((1 << position_bits) - 1), packed >> position_bits


def concatenated_ranges(starts: int | np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ranges ``starts[k] .. starts[k] + lengths[k] - 1`` laid end to end (``starts`` may be one number),
    and for each element the k of its range: (positions, owners).

    >>> [a.tolist() for a in concatenated_ranges(np.array([5, 0, 9]), np.array([2, 0, 3]))]
    [[5, 6, 9, 10, 11], [0, 0, 2, 2, 2]]
    >>> [a.tolist() for a in concatenated_ranges(0, np.array([2, 0, 3]))]
    [[0, 1, 0, 1, 2], [0, 0, 2, 2, 2]]
    >>> [a.tolist() for a in concatenated_ranges(np.zeros(0, np.int64), np.zeros(0, np.int64))]
    [[], []]
    """
    lengths = np.asarray(lengths, np.int64)
    owners = np.repeat(np.arange(len(lengths)), lengths)
    shift = np.asarray(starts, np.int64) - (np.cumsum(lengths) - lengths)  # start minus the range's first index
    return np.arange(len(owners)) + np.repeat(shift, lengths), owners


def reference_layout(refs_per_sentence: np.ndarray, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """The slot and the sentence of each reference, ``refs_per_sentence[k]`` of them for sentence ``k``."""
    if slots == 1:  # one reference each (most inputs): the ranges are plain
        return np.zeros(len(refs_per_sentence), np.int64), np.arange(len(refs_per_sentence))
    return concatenated_ranges(0, refs_per_sentence)


def corpus_ngram_ids(ids: np.ndarray, lengths: np.ndarray, max_order: int) -> list[np.ndarray]:
    """Per order n = 1..max_order: at each token position, a corpus-wide id (0, 1, ...) of the n-gram that starts
    there, -1 where its sentence has fewer than n tokens left. ``ids``: a vocabulary's ids 0..V-1.

    >>> [a.tolist() for a in corpus_ngram_ids(np.array([0, 1, 0, 1, 0]), np.array([2, 3]), 2)]
    [[0, 1, 0, 1, 0], [0, -1, 0, 1, -1]]
    """
    ids = np.asarray(ids, np.int64)
    lengths = np.asarray(lengths, np.int64)
    remaining = np.repeat(np.cumsum(lengths), lengths) - np.arange(len(ids))
    base = int(ids.max(initial=-1)) + 1
    result: list[np.ndarray] = [ids]
    for n in range(2, max_order + 1):
        positions = np.flatnonzero(remaining >= n)
        ranks = np.full(len(ids), -1, np.int64)
        ranks[positions] = np.unique(result[-1][positions] * base + ids[positions + n - 1], return_inverse=True)[1]
        result.append(ranks)
    return result[:max_order]


@dataclass
class OrderTable:
    """The distinct (sentence, n-gram) entries of the references for one order n."""

    keys: np.ndarray  # sorted int64 keys, one per entry
    sentence: np.ndarray  # sentence index of each entry (non-decreasing)
    max_count: np.ndarray  # maximum count over the sentence's references (clipping)
    pair_entry: np.ndarray  # sparse (entry, reference slot, count) triples: the count
    pair_slot: np.ndarray  # of the entry in each reference where it occurs
    pair_count: np.ndarray
    pair_cell: np.ndarray  # sentence * reference slots + slot of each pair: its cell in per_reference
    position_entry: np.ndarray  # entry of the n-gram starting at each reference token, -1 if none


@dataclass
class Matches:
    """How one hypothesis corpus matches a :class:`ReferenceIndex`; the arrays per token are made when asked."""

    hyp_len: np.ndarray  # tokens per hypothesis
    hyp_count: list[np.ndarray]  # per order: count in its hypothesis, per reference entry
    found: list[tuple[np.ndarray, np.ndarray]]  # per order: (positions, entries) as ReferenceIndex.matched has them

    @functools.cached_property
    def position_entry(self) -> list[np.ndarray]:
        """Per order: the matched entry at each hypothesis token, -1 if none."""
        token = np.ones(int(self.hyp_len.sum()) + len(self.hyp_len), bool)
        token[offsets(self.hyp_len + 1)[1:] - 1] = False  # (the place after each hypothesis)
        result = []
        for positions, entry in self.found:
            position_entry = np.full(len(token), -1, np.int32)
            position_entry[positions] = entry
            result.append(position_entry[token])
        return result


@dataclass(eq=False)
class EncodedSegments(SequenceABC[Tokens]):
    """Token sequences as ``ids`` of one vocabulary (concatenated, -1 for unknown tokens) and ``lengths``; as a
    sequence, each segment's tokens, which ``make_tokens()`` makes when first asked."""

    vocabulary: Mapping[str, int]
    ids: np.ndarray
    lengths: np.ndarray
    make_tokens: Callable[[], Sequence[Tokens]]
    _tokens: Sequence[Tokens] | None = field(default=None, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.lengths)

    def __getitem__(self, i: Any) -> Any:
        if self._tokens is None:
            self._tokens = self.make_tokens()
        return self._tokens[i]


def _attribute_nbytes(holder: Any) -> int:
    """``sys.getsizeof`` of each distinct attribute of ``holder`` (an array's includes its data)."""
    values = tuple(vars(holder).values())
    return sum(map(sys.getsizeof, dict(zip(map(id, values), values)).values()))


class Memo:
    """Values derived from an index, each made once, also when several threads ask at once (a cached index is
    shared); making one may ask for another, so the lock is reentrant."""

    def __init__(self) -> None:
        self._values: dict[tuple[Hashable, ...], Any] = {}
        self._lock = threading.RLock()
        self._nbytes = 0
        self._unmeasured: list[tuple[Hashable, ...]] = []  # keys made since ``nbytes`` was last asked

    @property
    def nbytes(self) -> int:
        """What the keys and values hold (:func:`~ngrameval.engine.cache.estimated_nbytes`), each measured once."""
        with self._lock:
            for key in self._unmeasured:
                self._nbytes += estimated_nbytes(key) + estimated_nbytes(self._values[key])
            self._unmeasured.clear()
            return self._nbytes

    def get(self, key: tuple[Hashable, ...], make: Callable[[], Value]) -> Value:
        value = self._values.get(key, _MISSING)
        if value is _MISSING:
            with self._lock:
                value = self._values.get(key, _MISSING)
                if value is _MISSING:
                    value = self._values[key] = make()
                    self._unmeasured.append(key)
        return cast(Value, value)  # (what ``make`` made under this key)


_MISSING = object()


class SlotLayout:
    """Sentences and their reference slots, and per reference its sentence, slot and length."""

    num_sentences: int
    max_slots: int
    segment_sentence: np.ndarray
    segment_slot: np.ndarray
    segment_len: np.ndarray

    def by_slot(self, per_segment: np.ndarray, fill: float = 0.0) -> np.ndarray:
        """Per-reference values laid out as (sentences, reference slots), ``fill`` where a slot is empty."""
        per_segment = np.asarray(per_segment)
        grid = np.full((self.num_sentences, max(self.max_slots, 1)), fill, np.result_type(per_segment, fill))
        grid[self.segment_sentence, self.segment_slot] = per_segment
        return grid

    def slots_present(self) -> np.ndarray:
        """(sentences, reference slots): which slots hold a reference."""
        return self.by_slot(np.ones(len(self.segment_len), bool), False)


class _Slots(SlotLayout):
    """A reference index's layout, and each hypothesis matched against each reference alone."""

    # Per cell (sentence * slots + slot): order-n hypothesis counts clipped by each reference's, summed.
    clipped_per_cell: Callable[[int, np.ndarray, np.ndarray | None], np.ndarray]

    def per_reference(self, matches: Matches, n: int, weights: np.ndarray | None = None) -> np.ndarray:
        """(sentences, reference slots): order-n matches of each hypothesis against each reference alone, clipped
        by its counts (optionally weighted per entry); -inf for empty slots."""
        sentences, slots = self.num_sentences, max(self.max_slots, 1)
        result = self.clipped_per_cell(n, matches.hyp_count[n - 1], weights).reshape(sentences, slots)
        return np.where(self.slots_present(), result, -np.inf)


class ReferenceIndex(_Slots):
    """Token ids, lengths and per-order n-gram tables of ``references[i]``, the references of sentence ``i``."""

    def __init__(self, references: Sequence[Sequence[Tokens]], max_order: int) -> None:
        segments = [segment for refs in references for segment in refs]
        vocabulary, ids = vocabulary_ids(segments)
        segment_len = np.fromiter(map(len, segments), np.int64, len(segments))
        refs_per_sentence = np.fromiter(map(len, references), np.int64, len(references))
        self._build(vocabulary, ids, segment_len, refs_per_sentence, max_order)

    @classmethod
    def from_ids(
        cls,
        vocabulary: Mapping[str, int],
        ids: np.ndarray,
        segment_len: np.ndarray,
        refs_per_sentence: np.ndarray,
        max_order: int,
    ) -> ReferenceIndex:
        """The index of references as token ids 0..V-1 of ``vocabulary``, concatenated, ``segment_len`` tokens
        per reference and ``refs_per_sentence`` references per sentence."""
        index = cls.__new__(cls)
        index._build(vocabulary, ids, segment_len, refs_per_sentence, max_order)
        return index

    def _build(
        self, vocabulary: Mapping[str, int], ids: np.ndarray, segment_len: np.ndarray, refs: np.ndarray, max_order: int
    ) -> None:
        self.vocabulary = vocabulary
        self.refs_per_sentence = refs = np.asarray(refs, np.int64)
        self.num_sentences = len(refs)
        self.max_slots = int(self.refs_per_sentence.max()) if len(segment_len) else 0
        self.segment_slot, self.segment_sentence = reference_layout(refs, max(self.max_slots, 1))
        self.segment_len = segment_len = np.asarray(segment_len, np.int64)
        self.ids = ids = np.asarray(ids, np.int64)
        self.base = max(len(self.vocabulary), 1)
        # Per token: the tokens left in its segment and its reference slot (narrow types: most of the memory).
        segment_of_position = np.repeat(np.arange(len(segment_len)), self.segment_len)
        self._position_slot = (
            None
            if self.max_slots <= 1
            else self.segment_slot[segment_of_position].astype(np.int16 if self.max_slots < 2**15 else np.int32)
        )
        self._remaining = (np.cumsum(self.segment_len)[segment_of_position] - np.arange(len(ids))).astype(np.int32)
        self.orders: list[OrderTable] = []
        self.memo = Memo()  # derived data that depends on the references only (NIST weights, hash tables)
        self._words: list[str] | None = None
        self._lock = threading.Lock()  # an index shared through the cache may be extended by several threads
        # What :attr:`nbytes` counts, kept as the index grows (the cache measures an index at every use).
        self._attributes_nbytes = _attribute_nbytes(self)
        self._vocabulary_nbytes: int | None = None
        self.extend(max_order)

    def extend(self, max_order: int) -> None:
        """Build the tables of orders up to ``max_order`` (orders already built are kept)."""
        with self._lock:
            by_prefix = None  # the positions of the order built last, in the order of its keys
            while len(self.orders) < max_order:
                n = len(self.orders) + 1
                if n == 1:  # every token starts a unigram
                    order, ordered_keys = stable_order(
                        np.repeat(self.segment_sentence, self.segment_len) * self.base + self.ids
                    )
                    in_order = order
                else:
                    # Visited in their prefixes' order the keys come nearly sorted, which a stable sort (timsort)
                    # sorts in a fraction of the time of sorting from scratch.
                    if by_prefix is None:
                        positions = np.flatnonzero(self._remaining >= n)
                        by_prefix = positions[stable_order(self.orders[-1].position_entry[positions])[0]]
                    else:
                        by_prefix = by_prefix[self._remaining[by_prefix] >= n]
                    keys = (
                        self.orders[-1].position_entry[by_prefix].astype(np.int64) * self.base
                        + self.ids[by_prefix + n - 1]
                    )
                    order = np.argsort(keys, kind="stable")
                    ordered_keys = keys[order]
                    del keys
                    in_order = by_prefix[order]
                by_prefix = in_order  # positions in key order, those of one entry by position
                first = run_starts(ordered_keys)
                table_keys = ordered_keys[first]
                del ordered_keys
                entry_in_order = np.cumsum(first, dtype=np.int64) - 1  # the entry of each position, in key order
                position_entry = np.empty(len(self.ids), np.int32) if n == 1 else np.full(len(self.ids), -1, np.int32)
                position_entry[in_order] = entry_in_order
                slots = max(self.max_slots, 1)
                if slots == 1:
                    pair_count = np.bincount(entry_in_order, minlength=len(table_keys)).astype(np.int32)
                    pair_entry = np.arange(len(table_keys), dtype=np.int32)
                    pair_slot = np.zeros(len(table_keys), np.int16)
                    max_count = pair_count
                else:
                    # In key order, the positions of an entry (one sentence) come in position order, so
                    # in slot order: the (entry, slot) pairs are already sorted, their runs are the counts.
                    slot_in_order = cast(np.ndarray, self._position_slot)[in_order]  # (set: several slots)
                    pair_first = first.copy()
                    pair_first[1:] |= slot_in_order[1:] != slot_in_order[:-1]
                    pair_starts = np.flatnonzero(pair_first)
                    pair_entry = entry_in_order[pair_starts].astype(np.int32)
                    pair_slot = slot_in_order[pair_starts].astype(np.int16)
                    pair_count = np.diff(pair_starts, append=len(pair_first)).astype(np.int32)
                    starts = np.flatnonzero(run_starts(pair_entry))
                    max_count = np.maximum.reduceat(pair_count, starts) if len(pair_count) else pair_count
                del entry_in_order, order
                prefix = table_keys // self.base
                sentence = prefix.astype(np.int32) if n == 1 else self.orders[-1].sentence[prefix]
                pair_cell = sentence
                if slots > 1:
                    cell_type = np.int32 if self.num_sentences * slots < 2**31 else np.int64
                    pair_cell = sentence[pair_entry].astype(cell_type) * slots + pair_slot
                self.orders.append(
                    OrderTable(
                        table_keys, sentence, max_count, pair_entry, pair_slot, pair_count, pair_cell, position_entry
                    )
                )
                self._attributes_nbytes += _attribute_nbytes(self.orders[-1])

    @property
    def nbytes(self) -> int:
        """The memory the index holds, estimated (what the package's cache counts it as)."""
        if self._vocabulary_nbytes is None:
            self._vocabulary_nbytes = estimated_nbytes(self.vocabulary)
        # (The word list holds the vocabulary's words: only the list itself counts.)
        return self._attributes_nbytes + self._vocabulary_nbytes + self.memo.nbytes + sys.getsizeof(self._words)

    def encode(self, segments: Sequence[Tokens]) -> np.ndarray:
        """Token ids of ``segments`` concatenated; tokens unseen in the references get -1."""
        total = sum(map(len, segments))
        return np.fromiter(map(self.vocabulary.get, chain.from_iterable(segments), repeat(-1)), np.int64, total)

    def match(self, hypotheses: Sequence[Tokens], max_order: int) -> Matches:
        """Match one hypothesis per sentence against the references, orders 1..max_order."""
        ids, hyp_len = self.encoded(hypotheses)
        matched = self.matched(ids, hyp_len, max_order)
        return _counted(hyp_len, matched, [len(table.keys) for table in self.orders[:max_order]])

    def encoded(self, hypotheses: Sequence[Tokens]) -> tuple[np.ndarray, np.ndarray]:
        """The hypotheses' ids (-1: absent from the vocabulary) and lengths."""
        if isinstance(hypotheses, EncodedSegments) and hypotheses.vocabulary is self.vocabulary:
            return hypotheses.ids, hypotheses.lengths
        return self.encode(hypotheses), np.fromiter(map(len, hypotheses), np.int64, len(hypotheses))

    def matched(
        self, ids: np.ndarray, hyp_len: np.ndarray, max_order: int, sentences: np.ndarray | None = None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per order, the n-grams of hypotheses (``ids`` in the vocabulary, -1 if absent; ``hyp_len`` each) found in
        the references: (start positions, entries), positions counting one place after each hypothesis;
        hypothesis k against sentence ``sentences[k]`` (default k)."""
        expected = self.num_sentences if sentences is None else len(sentences)
        if len(hyp_len) != expected:
            raise InputError(f"{len(hyp_len)} predictions for {expected} references")
        self.extend(max_order)
        # The ids with a -1 after each hypothesis: an n-gram running past its hypothesis meets an unknown token.
        padded = np.insert(ids, offsets(hyp_len)[1:], -1)
        hashed = all(len(table.keys) <= _HASHED_ENTRIES for table in self.orders[:max_order])
        positions, keys = self._first_tokens(padded, hyp_len, sentences, hashed)
        matched = []
        entry: np.ndarray  # the entries matched at the order before
        for n in range(1, max_order + 1):
            if n > 1:  # extend the positions matched at order n - 1 (their entries) by one token
                last = padded[positions + n - 1]
                known = np.flatnonzero(last >= 0)
                positions, keys = positions[known], entry[known] * self.base + last[known]  # noqa: F821 (order n - 1)
            found = find_keys(keys, self.orders[n - 1].keys, self.hashed_keys(n) if hashed else None)
            hit = np.flatnonzero(found >= 0)
            positions, entry = positions[hit], found[hit]
            matched.append((positions, entry))
        return matched

    def _first_tokens(
        self, padded: np.ndarray, hyp_len: np.ndarray, sentences: np.ndarray | None, hashed: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """The places in ``padded`` of the tokens in the vocabulary and their order-1 keys, in the order
        :meth:`matched` looks them up. (Its own function: its arrays of one number per token are freed before the
        look-ups make theirs, each fresh memory, a page fault per 4 KiB, in a large corpus.)"""
        positions = np.flatnonzero(padded >= 0)
        sentence = np.repeat(np.arange(len(hyp_len)), hyp_len + 1)[positions]  # (one place after each hypothesis)
        keys = (sentence if sentences is None else sentences[sentence]) * self.base + padded[positions]
        # Small tables are looked up in hash tables (they stay in the processor cache); in larger ones keys sorted
        # by (sentence, first token) are searched, in runs that fall in one narrow stretch of the table (much
        # faster; the sort pays for itself only as a radix sort).
        order = None if hashed else radix_order(keys)
        return (positions, keys) if order is None else (positions[order], keys[order])

    def hashed_keys(self, n: int) -> tuple[np.ndarray, np.ndarray, int, int] | None:
        """The hash table of the order-n keys (:func:`key_slots`); None for a small table, searched as it is."""
        keys = self.orders[n - 1].keys
        if len(keys) <= _SEARCHED_ENTRIES:
            return None
        return self.memo.get(("hash table of order", n), lambda: key_slots(keys))

    def entry_bounds(self, n: int) -> np.ndarray:
        """Where each sentence's order-n entries start, and how many entries there are."""
        return self.memo.get(
            ("entry bounds of order", n),
            lambda: np.searchsorted(self.orders[n - 1].sentence, np.arange(self.num_sentences + 1)),
        )

    def position_entries(self, n: int) -> np.ndarray:
        """Per reference token: the entry of the order-n n-gram that starts there, -1 if none."""
        return self.orders[n - 1].position_entry

    def clipped(self, matches: Matches, n: int) -> np.ndarray:
        """Per reference entry of order n: hypothesis count clipped by the references' maximum."""
        return cast(np.ndarray, np.minimum(matches.hyp_count[n - 1], self.orders[n - 1].max_count))

    def clipped_per_cell(self, n: int, hyp_count: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per cell (sentence * slots + slot): order-n hypothesis counts clipped by each reference's, summed."""
        table = self.orders[n - 1]
        if weights is None and self.max_slots <= 1:  # one pair per entry, entries by sentence: differences of a
            running = offsets(np.minimum(hyp_count, table.pair_count))[self.entry_bounds(n)]  # running sum (faster)
            return cast(np.ndarray, running[1:] - running[:-1]).astype(np.float64)
        if len(table.pair_entry) != len(table.keys):  # else every entry has one pair: its own
            hyp_count = hyp_count[table.pair_entry]
        clipped = np.minimum(hyp_count, table.pair_count).astype(np.float64)
        if weights is not None:
            clipped *= weights[table.pair_entry]
        return np.bincount(table.pair_cell, weights=clipped, minlength=self.num_sentences * max(self.max_slots, 1))

    def per_sentence(self, values: np.ndarray, n: int) -> np.ndarray:
        """Sum a per-entry array of order n into one value per sentence."""
        return np.bincount(self.orders[n - 1].sentence, weights=values, minlength=self.num_sentences)

    def words(self, ids: np.ndarray) -> list[str]:
        """The tokens of reference token ids."""
        if self._words is None:
            self._words = list(self.vocabulary)
        return [self._words[i] for i in ids.tolist()]

    def reference_tokens(self, sentence: int) -> list[list[str]]:
        """The tokenized references of one sentence, rebuilt from the ids."""
        ends = np.cumsum(self.segment_len)
        segments = np.flatnonzero(self.segment_sentence == sentence)
        return [self.words(self.ids[ends[k] - self.segment_len[k] : ends[k]]) for k in segments.tolist()]

    def global_counts(self, max_order: int) -> list[np.ndarray]:
        """Per order and reference position: its n-gram's count in all references (NIST's information weights)."""
        # (ranks + 1: the -1 of positions without an n-gram are counted apart, then masked)
        return [
            np.where(r >= 0, np.bincount(r + 1)[r + 1], 0)
            for r in corpus_ngram_ids(self.ids, self.segment_len, max_order)
        ]


# The largest order tables that matching looks up in hash tables rather than by binary search.
_HASHED_ENTRIES = 1 << 16
# The largest order tables searched without a hash table (a few sentences' references: building one costs more
# than it saves; 8 WMT22 pairs: BLEU 0.89 to 0.80 ms a call, chrF 1.42 to 1.07 ms against hashing every size).
_SEARCHED_ENTRIES = 1 << 11
# Fibonacci hashing: the top bits of key * 2**64 / golden ratio spread nearby keys over all the slots.
_FIBONACCI = np.uint64(0x9E3779B97F4A7C15)


def _home_slots(keys: np.ndarray, bits: int) -> np.ndarray:
    return ((keys.astype(np.uint64) * _FIBONACCI) >> np.uint64(64 - bits)).astype(np.int64)


def key_slots(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int] | None:
    """A hash table of distinct non-negative ``keys`` for :func:`find_keys`: ``(slots, shared, bits, index_bits)``,
    2**bits slots each -1 or one key hashing there packed with its index (``key << index_bits | index``), and
    whether several keys hash to each slot (the others are binary-searched). None if that needs over 63 bits."""
    keys = np.asarray(keys, np.int64)
    index_bits = max(len(keys) - 1, 1).bit_length()
    if int(keys.max(initial=0)).bit_length() + index_bits > 63:
        return None
    bits = max(2 * len(keys) - 1, 1).bit_length()
    home = _home_slots(keys, bits)
    slots = np.full(1 << bits, -1, np.int64)
    slots[home] = (keys << index_bits) | np.arange(len(keys))
    return slots, np.bincount(home, minlength=1 << bits) > 1, bits, index_bits


def find_keys(
    keys: np.ndarray, table_keys: np.ndarray, hashed: tuple[np.ndarray, np.ndarray, int, int] | None
) -> np.ndarray:
    """For each of ``keys``, its index in the distinct sorted ``table_keys``, -1 if absent: by one look-up in the
    hash table ``hashed`` (:func:`key_slots`) for almost every key, by binary search for the others."""
    keys = np.asarray(keys, np.int64)
    if hashed is None:
        return _binary_search(keys, table_keys)
    slots, shared, bits, index_bits = hashed
    home = _home_slots(keys, bits)
    held = slots[home]
    found = (held >> index_bits) == keys  # a free slot (-1) holds key -1, never a key looked for
    result = np.where(found, held & ((1 << index_bits) - 1), -1)
    # Its slot holds another key and is shared: it may be one of the keys left out.
    unsure = np.flatnonzero(~found & (held >= 0))
    unsure = unsure[shared[home[unsure]]]
    result[unsure] = _binary_search(keys[unsure], table_keys)
    return result


def search_sorted(keys: np.ndarray, table_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Binary search of ``keys`` in the distinct sorted ``table_keys``: ``(found, hit)``, the index where hit.

    >>> [a.tolist() for a in search_sorted(np.array([10, 8, 50]), np.array([7, 10, 42]))]
    [[1, 1, 0], [True, False, False]]
    """
    found = np.searchsorted(table_keys, keys)
    found[found == len(table_keys)] = 0
    hit = table_keys[found] == keys if len(table_keys) else np.zeros(len(keys), bool)
    return found, hit


def _binary_search(keys: np.ndarray, table_keys: np.ndarray) -> np.ndarray:
    found, hit = search_sorted(keys, table_keys)
    return np.where(hit, found, -1)


def _counted(hyp_len: np.ndarray, matched: list[tuple[np.ndarray, np.ndarray]], entry_counts: list[int]) -> Matches:
    """:class:`Matches` of found n-grams (per order: positions, entries) among ``entry_counts[n - 1]`` entries."""
    counts = [np.bincount(entry, minlength=entry_count) for (_, entry), entry_count in zip(matched, entry_counts)]
    return Matches(hyp_len, counts, matched)


class RepeatedIndex(_Slots):
    """The references of sentences ``sentences[0], sentences[1], ...`` of a :class:`ReferenceIndex` as the index
    of those references would be, array for array, without building it: n-grams are looked up in the distinct
    references' tables and only the entries' numbers move (every system's summary against one document's
    reference). It answers what ROUGE asks of an index."""

    def __init__(self, index: ReferenceIndex, sentences: np.ndarray) -> None:
        self.index = index
        self.sentences = np.asarray(sentences, np.int64)
        self.vocabulary = index.vocabulary
        self.refs_per_sentence = index.refs_per_sentence[self.sentences]
        self.num_sentences = len(self.sentences)
        self.segment_slot, self.segment_sentence = concatenated_ranges(0, self.refs_per_sentence)
        self._segments, _ = concatenated_ranges(
            offsets(index.refs_per_sentence)[self.sentences], self.refs_per_sentence
        )
        self.segment_len = index.segment_len[self._segments]
        self.max_slots = int(self.refs_per_sentence.max()) if len(self.segment_len) else 0
        self._memo = Memo()  # per order: the numbering of the entries, the entry at each reference token

    def encode(self, segments: Sequence[Tokens]) -> np.ndarray:
        """As :meth:`ReferenceIndex.encode`."""
        return self.index.encode(segments)

    def _numbering(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Order n: :meth:`entry_bounds`, and per sentence what moves a distinct reference's entry to its own."""

        def numbering() -> tuple[np.ndarray, np.ndarray]:
            self.index.extend(n)
            own_first = self.index.entry_bounds(n)
            first = offsets(np.diff(own_first)[self.sentences])
            return first, first[:-1] - own_first[self.sentences]

        return self._memo.get(("numbering of order", n), numbering)

    def match(self, hypotheses: Sequence[Tokens], max_order: int) -> Matches:
        """As :meth:`ReferenceIndex.match`."""
        ids, hyp_len = self.index.encoded(hypotheses)
        matched = self.index.matched(ids, hyp_len, max_order, self.sentences)
        hypothesis = np.repeat(np.arange(len(hyp_len)), hyp_len + 1)  # (of each position, as ``matched`` counts)
        moved = [
            (positions, entry + self._numbering(n)[1][hypothesis[positions]])
            for n, (positions, entry) in enumerate(matched, 1)
        ]
        return _counted(hyp_len, moved, [int(self.entry_bounds(n)[-1]) for n in range(1, max_order + 1)])

    def clipped_per_cell(self, n: int, hyp_count: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """As :meth:`ReferenceIndex.clipped_per_cell`, over the entries the hypotheses have."""
        first, shift = self._numbering(n)
        table = self.index.orders[n - 1]
        entry = np.flatnonzero(hyp_count)
        sentence = np.searchsorted(first, entry, side="right") - 1
        own = entry - shift[sentence]
        if len(table.pair_entry) == len(table.keys):  # every entry has one pair: its own
            pairs, owner = own, np.arange(len(own))
        else:
            low = np.searchsorted(table.pair_entry, own)
            pairs, owner = concatenated_ranges(low, np.searchsorted(table.pair_entry, own, side="right") - low)
        clipped = np.minimum(hyp_count[entry][owner], table.pair_count[pairs]).astype(np.float64)
        if weights is not None:
            clipped *= weights[entry][owner]
        slots = max(self.max_slots, 1)
        return np.bincount(
            sentence[owner] * slots + table.pair_slot[pairs], weights=clipped, minlength=self.num_sentences * slots
        )

    def entry_bounds(self, n: int) -> np.ndarray:
        """As :meth:`ReferenceIndex.entry_bounds`."""
        return self._numbering(n)[0]

    def position_entries(self, n: int) -> np.ndarray:
        """As :meth:`ReferenceIndex.position_entries` (made once per order)."""

        def position_entries() -> np.ndarray:
            shift = self._numbering(n)[1]
            positions, segment = concatenated_ranges(offsets(self.index.segment_len)[self._segments], self.segment_len)
            entry = self.index.orders[n - 1].position_entry[positions]
            return np.where(entry >= 0, entry + shift[self.segment_sentence[segment]], -1)

        return self._memo.get(("position entries of order", n), position_entries)
