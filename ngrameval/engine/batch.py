"""A few predictions and their references counted in one pass, without a reference index (some hundred numpy
calls whatever the batch's size): one sort of all token positions (:func:`count_ids`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ngrameval.engine.ngrams import SlotLayout, distinct, reference_layout
from ngrameval.engine.runs import run_starts, vocabulary_ids

# The most predictions counted in one pass (a GRPO step's completions, an MBR candidate list's row).
FEW_PREDICTIONS = 64


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
    """:func:`count_ids` of token sequences (or strings: their characters), numbered in order of first occurrence."""
    vocabulary, ids = vocabulary_ids([*hypotheses, *references])
    hyp_len = np.fromiter(map(len, hypotheses), np.int64, len(hypotheses))
    ref_len = np.fromiter(map(len, references), np.int64, len(references))
    return count_ids(ids, hyp_len, ref_len, refs_per_sentence, max_order, len(vocabulary))


# The two largest 16-bit digits mark the positions past the end of a prediction and of a reference.
_PAST_PREDICTION, _PAST_REFERENCE = 0xFFFF, 0xFFFE
# Larger ids are numbered by a table indexed by id when the largest is below this many times the ids, else by a
# sort (16,400 ids of a 151k or 256k vocabulary: 0.14 or 0.9 ms by table, 1.4 ms sorted; 4,096: 0.46, 0.69, 0.2).
_TABLE_PER_ID = 16


def count_ids(
    ids: np.ndarray,
    hyp_len: np.ndarray,
    ref_len: np.ndarray,
    refs_per_sentence: Sequence[int] | np.ndarray,
    max_order: int,
    vocabulary_size: int | None = None,
) -> CountedBatch | None:
    """:class:`CountedBatch` of non-negative ids (below ``vocabulary_size`` where given), the hypotheses' then the
    references' in ``ids``, ``refs_per_sentence[k]`` references for sentence ``k``, by one sort of the token
    positions; None for more than 65,534 distinct ids. Each sequence is followed by end marks of its side and each
    position sorted by its sentence then the ``max_order`` digits from it on: an order's runs are the last order's
    cut where the n-th digit changes, and a run's count per side is a difference of running counts."""
    ids = np.asarray(ids, np.int64)
    small = vocabulary_size is not None and vocabulary_size < _PAST_REFERENCE
    digits = ids.astype(np.uint16) if small else _sort_digits(ids)
    if digits is None:
        return None
    per_sentence = np.asarray(refs_per_sentence, np.int64)
    sentences, slots = len(hyp_len), max(int(per_sentence.max(initial=0)), 1)
    segment_slot, segment_sentence = reference_layout(per_sentence, slots)
    lengths = np.concatenate([hyp_len, ref_len])
    padded_len = lengths + max_order
    # max_order end marks after each sequence (the digits from any position on; every sentence has a position),
    # and max_order - 1 after the last.
    total = int(padded_len.sum())
    padded = np.full(total + max_order - 1, _PAST_REFERENCE, np.uint16)
    hyp_end = int(hyp_len.sum()) + sentences * max_order
    padded[:hyp_end] = _PAST_PREDICTION
    pieces = np.empty(2 * len(lengths), np.int64)  # the tokens and the end marks of each sequence, in turn
    pieces[0::2], pieces[1::2] = lengths, max_order
    padded[:total][np.repeat(np.arange(len(pieces)) % 2 == 0, pieces)] = digits  # (faster than np.insert)
    # The sentence and the side (0: the prediction, 1 + slot: a reference) of every position, end marks too.
    sentence_type = np.uint16 if sentences <= 0xFFFF else np.int64
    sentence = np.repeat(np.concatenate([np.arange(sentences), segment_sentence]).astype(sentence_type), padded_len)
    order = np.lexsort([padded[n : n + total] for n in reversed(range(max_order))] + [sentence])
    sentence = sentence[order]
    side_type = np.uint8 if slots < 0xFF else np.int64
    side = np.zeros(total, side_type)
    side[hyp_end:] = 1 if slots == 1 else np.repeat(segment_slot + 1, ref_len + max_order)
    # running[s, k]: the positions of side s among the first k sorted ones.
    running = np.zeros((slots + 1, total + 1), np.int32 if total < 2**31 else np.int64)
    np.cumsum(side[order] == np.arange(slots + 1, dtype=side_type)[:, None], axis=1, out=running[:, 1:])
    sentence_first = np.searchsorted(sentence, np.arange(sentences))
    run_first = np.empty(total + 1, bool)  # whether a run starts there (and the end)
    run_first[:total], run_first[total] = run_starts(sentence), True
    clipped = np.zeros((sentences, max_order), np.int64)
    per_reference = np.zeros((sentences, slots, max_order), np.int64)
    for n in range(1, max_order + 1):
        digit = padded[n - 1 : n - 1 + total][order]
        run_first[1:total] |= digit[1:] != digit[:-1]
        runs = run_first.nonzero()[0]  # where each run (an n-gram of a sentence) starts, and the end
        counts = np.take(running, runs, axis=1)
        counts = counts[:, 1:] - counts[:, :-1]  # per side and run
        hyp_count, ref_counts = counts[0], counts[1:]  # (per reference slot)
        in_sentence = np.searchsorted(runs, sentence_first)  # the first run of each sentence (each has one)
        largest = ref_counts[0] if slots == 1 else ref_counts.max(axis=0)
        clipped[:, n - 1] = np.add.reduceat(np.minimum(hyp_count, largest), in_sentence)
        if slots > 1:
            per_reference[:, :, n - 1] = np.add.reduceat(np.minimum(hyp_count, ref_counts), in_sentence, axis=1).T
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
