"""A few predictions and their references counted in one pass, without a reference index (some hundred numpy
calls whatever the batch's size): one sort of all n-grams' keys (:func:`count_batch`), or for long token-id
sequences of all positions (:func:`count_ids_sorted`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ngrameval.engine.ngrams import SlotLayout, distinct, reference_layout
from ngrameval.engine.runs import offsets, run_starts, vocabulary_ids

# The most predictions counted in one pass (a GRPO step's completions, an MBR candidate list's row).
FEW_PREDICTIONS = 64
# Keys are below this bound: int64 with room for the slot digit's product.
_KEY_LIMIT = 1 << 62


@dataclass(eq=False)
class CountedBatch(SlotLayout):
    """Clipped n-gram matches of each prediction, orders 1..N: ``clipped`` (predictions, N) by any reference's
    largest count (BLEU), and ``per_reference`` (predictions, slots, N) by each reference alone (chrF)."""

    num_sentences: int
    max_slots: int
    segment_sentence: np.ndarray
    segment_slot: np.ndarray
    segment_len: np.ndarray
    refs_per_sentence: np.ndarray
    hyp_len: np.ndarray
    clipped: np.ndarray
    per_reference: np.ndarray


def count_batch(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    refs_per_sentence: Sequence[int],
    max_order: int,
) -> CountedBatch | None:
    """:class:`CountedBatch` of token sequences (or strings: their characters), ``refs_per_sentence[k]``
    references for sentence ``k``; None where the keys would not fit in 63 bits."""
    vocabulary, ids = vocabulary_ids([*hypotheses, *references])
    hyp_len = np.fromiter(map(len, hypotheses), np.int64, len(hypotheses))
    ref_len = np.fromiter(map(len, references), np.int64, len(references))
    return count_ids(ids, hyp_len, ref_len, refs_per_sentence, max_order, len(vocabulary))


def count_ids(
    ids: np.ndarray,
    hyp_len: np.ndarray,
    ref_len: np.ndarray,
    refs_per_sentence: Sequence[int],
    max_order: int,
    vocabulary_size: int,
) -> CountedBatch | None:
    """:func:`count_batch` of token ids below ``vocabulary_size``: the hypotheses' then the references' in ``ids``."""
    per_sentence = np.asarray(refs_per_sentence, np.int64)
    sentences, slots = len(hyp_len), max(int(per_sentence.max(initial=0)), 1)
    radix = max(vocabulary_size, 1) ** max_order
    if sentences * max_order * radix * (slots + 1) >= _KEY_LIMIT:
        return None
    segment_slot, segment_sentence = reference_layout(per_sentence, slots)
    # Both sides in one sort: a reference's n-gram keys carry its slot as the lowest digit, a hypothesis's
    # the digit ``slots``, so the keys of one (sentence, order, n-gram) come together, the hypothesis's last.
    owner = np.concatenate([np.arange(sentences) * (slots + 1) + slots, segment_sentence * (slots + 1) + segment_slot])
    keys = _ngram_keys(
        ids, np.concatenate([hyp_len, ref_len]), owner, max(vocabulary_size, 1), max_order, radix, slots + 1
    )
    keys.sort()
    first = np.flatnonzero(run_starts(keys))
    key, count = keys[first], np.diff(first, append=len(keys))
    if slots == 1:
        # One reference each: an n-gram of both sides is a reference key (digit 0) just before the hypothesis's (1).
        both = np.flatnonzero((key[1:] ^ key[:-1]) == 1)
        per_reference = clipped = np.bincount(
            key[both] // (2 * radix),  # sentence * N + order - 1
            weights=np.minimum(count[both], count[both + 1]),
            minlength=sentences * max_order,
        )
    else:
        ngram, slot = np.divmod(key, slots + 1)
        group = np.cumsum(run_starts(ngram)) - 1  # the (sentence, order, n-gram) of each key
        from_hypothesis = slot == slots
        in_hypothesis = np.zeros(int(group[-1]) + 1 if len(group) else 0, np.int64)
        in_hypothesis[group[from_hypothesis]] = count[from_hypothesis]
        from_reference = ~from_hypothesis
        group, slot, count = group[from_reference], slot[from_reference], count[from_reference]
        cell = ngram[from_reference] // radix  # sentence * N + order - 1
        per_reference = np.bincount(
            (cell // max_order * slots + slot) * max_order + cell % max_order,
            weights=np.minimum(in_hypothesis[group], count),
            minlength=sentences * slots * max_order,
        )
        # The slots of one n-gram are consecutive: its largest reference count clips the hypothesis's.
        first = np.flatnonzero(run_starts(group))
        largest = np.maximum.reduceat(count, first) if len(first) else count
        clipped = np.bincount(
            cell[first], weights=np.minimum(in_hypothesis[group[first]], largest), minlength=sentences * max_order
        )
    return CountedBatch(
        sentences,
        slots,
        segment_sentence,
        segment_slot,
        ref_len,
        per_sentence,
        hyp_len,
        clipped.astype(np.int64).reshape(sentences, max_order),
        per_reference.astype(np.int64).reshape(sentences, slots, max_order),
    )


# The two largest 16-bit digits mark the positions past the end of a prediction and of a reference.
_PAST_PREDICTION, _PAST_REFERENCE = 0xFFFF, 0xFFFE
# Larger ids are numbered by a table indexed by id when the largest is below this many times the ids, else by a
# sort (16,400 ids of a 151k or 256k vocabulary: 0.14 or 0.9 ms by table, 1.4 ms sorted; 4,096: 0.46, 0.69, 0.2).
_TABLE_PER_ID = 16


def count_ids_sorted(
    ids: np.ndarray,
    hyp_len: np.ndarray,
    ref_len: np.ndarray,
    refs_per_sentence: Sequence[int] | np.ndarray,
    max_order: int,
) -> CountedBatch | None:
    """:func:`count_ids` of any non-negative ids, by one sort of the token positions; None for more than 65,534
    distinct ids. Each sequence is followed by end marks of its side and each position sorted by its sentence
    then the ``max_order`` digits from it on: an order's runs are the last order's cut where the n-th digit
    changes, and a run's count per side is a difference of running counts."""
    digits = _sort_digits(np.asarray(ids, np.int64))
    if digits is None:
        return None
    per_sentence = np.asarray(refs_per_sentence, np.int64)
    sentences, slots = len(hyp_len), max(int(per_sentence.max(initial=0)), 1)
    segment_slot, segment_sentence = reference_layout(per_sentence, slots)
    lengths = np.concatenate([hyp_len, ref_len])
    padded_len = lengths + (max_order - 1)
    # max_order - 1 end marks after each sequence, and as many after the last (the digits from any position on).
    marks = np.repeat(
        np.r_[np.full(sentences, _PAST_PREDICTION), np.full(len(ref_len), _PAST_REFERENCE)], max_order - 1
    )
    padded = np.concatenate(
        [
            np.insert(digits, np.repeat(offsets(lengths)[1:], max_order - 1), marks.astype(np.uint16)),
            np.full(max_order - 1, _PAST_REFERENCE, np.uint16),
        ]
    )
    total = len(padded) - (max_order - 1)
    # The sentence and the side (0: the prediction, 1 + slot: a reference) of every position, end marks too.
    sentence_type = np.uint16 if sentences <= 0xFFFF else np.int64
    sentence = np.repeat(np.r_[np.arange(sentences), segment_sentence].astype(sentence_type), padded_len)
    order = np.lexsort([padded[n : n + total] for n in reversed(range(max_order))] + [sentence])
    sentence = sentence[order]
    side_type = np.uint8 if slots < 0xFF else np.int64
    side = np.repeat(np.r_[np.zeros(sentences, side_type), segment_slot.astype(side_type) + 1], padded_len)[order]
    # running[s, k]: the positions of side s among the first k sorted ones.
    running = np.zeros((slots + 1, total + 1), np.int32 if total < 2**31 else np.int64)
    np.cumsum(side == np.arange(slots + 1, dtype=side_type)[:, None], axis=1, out=running[:, 1:])
    sentence_first = np.searchsorted(sentence, np.arange(sentences + 1))
    run_first = np.empty(total + 1, bool)  # whether a run starts there (and the end)
    run_first[:total], run_first[total] = run_starts(sentence), True
    clipped = np.zeros((sentences, max_order), np.int64)
    per_reference = np.zeros((sentences, slots, max_order), np.int64)
    for n in range(1, max_order + 1):
        digit = padded[n - 1 : n - 1 + total][order]
        run_first[1:total] |= digit[1:] != digit[:-1]
        runs = np.flatnonzero(run_first)  # where each run (an n-gram of a sentence) starts, and the end
        counts = np.diff(np.take(running, runs, axis=1), axis=1)  # per side and run
        hyp_count, ref_counts = counts[0], counts[1:]  # (per reference slot)
        in_sentence = np.searchsorted(runs, sentence_first)  # the first run of each sentence, and the end
        clipped[:, n - 1] = np.diff(offsets(np.minimum(hyp_count, ref_counts.max(axis=0)))[in_sentence])
        if slots > 1:
            for slot, ref_count in enumerate(ref_counts):
                per_reference[:, slot, n - 1] = np.diff(offsets(np.minimum(hyp_count, ref_count))[in_sentence])
    if slots == 1:
        per_reference = clipped.reshape(sentences, 1, max_order)
    return CountedBatch(
        sentences, slots, segment_sentence, segment_slot, ref_len, per_sentence, hyp_len, clipped, per_reference
    )


def _sort_digits(ids: np.ndarray) -> np.ndarray | None:
    """The ids as 16-bit digits below the end marks, numbered in order where needed; None if too many."""
    largest = int(ids.max(initial=0))
    if largest < _PAST_REFERENCE:
        return ids.astype(np.uint16)
    if largest < _TABLE_PER_ID * len(ids):
        present = np.zeros(largest + 1, bool)
        present[ids] = True
        rank = np.cumsum(present, dtype=np.int32) - 1
        return rank[ids].astype(np.uint16) if rank[-1] < _PAST_REFERENCE else None
    values = distinct(ids)
    if len(values) > _PAST_REFERENCE:
        return None
    return np.searchsorted(values, ids).astype(np.uint16)


def _ngram_keys(
    ids: np.ndarray, lengths: np.ndarray, owner: np.ndarray, base: int, max_order: int, radix: int, slots: int
) -> np.ndarray:
    """The key ``((sentence * N + n - 1) * radix + n-gram) * slots + slot`` of every n-gram of orders 1..N of
    segments laid end to end (``owner[k] = sentence * slots + slot`` of segment ``k``)."""
    segment = np.repeat(np.arange(len(lengths)), lengths)
    remaining = offsets(lengths)[1:][segment] - np.arange(len(ids))  # tokens from each position to its end
    sentence, slot = np.divmod(owner[segment], slots)
    start = sentence * (max_order * radix * slots) + slot  # the key's digits other than order and n-gram
    code = ids
    keys = []
    for n in range(1, max_order + 1):
        if n > 1:  # the n-gram at each position: the (n-1)-gram there, then the next token
            code = code[:-1] * base + ids[n - 1 :]
        inside = remaining[: len(code)] >= n
        keys.append(start[: len(code)][inside] + ((n - 1) * radix + code[inside]) * slots)
    return np.concatenate(keys)
