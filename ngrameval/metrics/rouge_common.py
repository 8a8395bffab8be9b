"""What :mod:`ngrameval.metrics.rouge` and :mod:`ngrameval.metrics.rouge155` share: rouge types, skip-bigrams
and runs of ``[a-z0-9]`` in ASCII text."""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np

from ngrameval.engine.inputs import MAX_ORDER, cached_by_value, check_order
from ngrameval.engine.ngrams import concatenated_ranges, distinct, search_sorted
from ngrameval.engine.runs import byte_runs, distinct_ids, offsets
from ngrameval.errors import InputError

# The largest skip distance d of rougeS<d> / rougeSU<d>. Pairs are bounded by the texts' lengths anyway
# (rougeS* takes any distance); the bound keeps position arithmetic far from integer overflow.
MAX_SKIP_DISTANCE = 1_000_000
TYPE_FORMS = (
    f"rouge1 .. rouge{MAX_ORDER} (rougeN, 1 <= n <= {MAX_ORDER}), rougeL, rougeLsum, rougeW, rougeS<d>, "
    f"rougeS*, rougeSU<d>, rougeSU* (1 <= d <= {MAX_SKIP_DISTANCE}: the largest number of tokens between "
    "the two words)"
)
# The most bootstrap samples (rouge-score's n_samples, ROUGE-1.5.5's -r): each costs a pass over the
# predictions, and 1000 is what both tools default to.
MAX_BOOTSTRAP_SAMPLES = 100_000


# --------------------------------------------------------------------------- rouge types


@dataclass(frozen=True)
class RougeType:
    """A parsed rouge type: ``kind`` is "n", "L", "Lsum", "W", "S" or "SU"; ``size`` is n for
    "n" and the skip distance for "S"/"SU" (None: any distance)."""

    name: str
    kind: str
    size: int | None = None


_N_TYPE = re.compile(r"rouge([0-9]+)")
_SKIP_TYPE = re.compile(r"rouge(SU|S)([0-9]+|\*)")


@cached_by_value  # (a training loop asks for the same types every step)
def parse_rouge_type(name: Any) -> RougeType:
    """``"rouge2"`` -> RougeType("rouge2", "n", 2); a clear ValueError for anything else (n above MAX_ORDER too).

    >>> parse_rouge_type("rougeSU4")
    RougeType(name='rougeSU4', kind='SU', size=4)
    >>> parse_rouge_type("rouge10000000000")
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: rouge type 'rouge10000000000': n must be an integer from 1 to 100, got 10000000000
    """
    if not isinstance(name, str):
        raise InputError(f"rouge types must be strings, got {type(name).__name__} {name!r}; valid forms: {TYPE_FORMS}")
    if name in ("rougeL", "rougeLsum", "rougeW"):
        return RougeType(name, name[5:])
    match = _N_TYPE.fullmatch(name)
    if match:
        digits = match.group(1)
        if digits.startswith("0"):
            raise InputError(
                f"rouge type {name!r}: n must be a positive integer without leading zeros (rouge1, rouge2, ...)"
            )
        if len(digits) > 20:  # (int() refuses strings of more than 4300 digits; all these are too large)
            raise InputError(
                f"rouge type {name[:25]}...: n must be an integer from 1 to {MAX_ORDER}, got a "
                f"{len(digits)}-digit number"
            )
        return RougeType(name, "n", check_order(f"rouge type {name!r}: n", int(digits)))
    match = _SKIP_TYPE.fullmatch(name)
    if match:
        kind, distance = match.groups()
        if distance == "*":
            return RougeType(name, kind, None)
        if distance.startswith("0") or len(distance) > len(str(MAX_SKIP_DISTANCE)) or int(distance) > MAX_SKIP_DISTANCE:
            raise InputError(
                f"rouge type {name!r}: the skip distance must be a positive integer up to "
                f"{MAX_SKIP_DISTANCE} (rouge{kind}4) or * (rouge{kind}*, any distance), got {distance}"
            )
        return RougeType(name, kind, int(distance))
    raise InputError(f"unknown rouge type {name!r}; valid forms: {TYPE_FORMS}")


def check_samples(name: str, n: Any) -> int:
    """A bootstrap's number of samples (rouge-score's n_samples, ROUGE-1.5.5's -r), checked."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_BOOTSTRAP_SAMPLES:
        raise InputError(f"{name} must be an integer from 1 to {MAX_BOOTSTRAP_SAMPLES}, got {n!r}")
    return int(n)


def parse_rouge_types(rouge_types: Any) -> list[RougeType]:
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    if hasattr(rouge_types, "tolist") and not isinstance(rouge_types, (list, tuple)):
        rouge_types = rouge_types.tolist()
    if not isinstance(rouge_types, (list, tuple)) or not rouge_types:
        raise InputError(f"rouge_types must be a non-empty list of rouge types; valid forms: {TYPE_FORMS}")
    return [parse_rouge_type(name) for name in dict.fromkeys(rouge_types)]


def skip_bigrams(tokens: Sequence[str], distance: int | None = None, unigrams: bool = False) -> list[tuple[str, ...]]:
    """The skip-bigrams of a token sequence in ROUGE-1.5.5's order (``createSkipBigram``): every pair of tokens
    in order with at most ``distance`` tokens between them (None: any); ``unigrams=True`` adds ROUGE-SU's
    unigrams (1-tuples; ROUGE-1.5.5 leaves out the last token).

    >>> [" ".join(pair) for pair in skip_bigrams("police killed the gunman".split(), distance=1)]
    ['police killed', 'police the', 'killed the', 'killed gunman', 'the gunman']
    """
    result: list[tuple[str, ...]] = []
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            result.append((tokens[i],))
        stop = last if distance is None else min(last, i + distance + 1)
        result.extend((tokens[i], tokens[j]) for j in range(i + 1, stop + 1))
    return result


def segments(values: list, lengths: Sequence[int] | np.ndarray) -> list[list]:
    """``values`` cut into lists of ``lengths`` items."""
    bounds = offsets(lengths).tolist()
    return [values[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


class TokenizedTexts:
    """Tokenized texts (rouge's; ROUGE-1.5.5's summaries) as ids (``words[id]`` the token): each text's tokens
    (``ids``, ``text_lengths`` per text) and its sentences' (non-empty lines'): ``sentence_ids`` (the same unless a
    callable tokenizer or ROUGE-1.5.5's ``-b`` cuts them differently), ``sentence_counts`` per text and
    ``sentence_lengths`` per sentence."""

    def __init__(
        self,
        words: Sequence[str],
        ids: np.ndarray,
        sentence_lengths: np.ndarray,
        sentence_counts: np.ndarray,
        text_lengths: np.ndarray | None = None,
        sentence_ids: np.ndarray | None = None,
    ) -> None:
        self.words, self.ids = words, ids
        self.sentence_counts, self.sentence_lengths = sentence_counts, sentence_lengths
        self.text_lengths = self.sentence_totals if text_lengths is None else text_lengths
        self.sentence_ids = ids if sentence_ids is None else sentence_ids

    @property
    def sentence_totals(self) -> np.ndarray:
        """Tokens of each text's sentences, together."""
        return np.diff(offsets(self.sentence_lengths)[offsets(self.sentence_counts)])

    @cached_property  # (references are cached: rougeW reads their token lists on every call)
    def tokens(self) -> list[list[str]]:
        return segments(list(map(self.words.__getitem__, self.ids.tolist())), self.text_lengths)

    @property
    def sentences(self) -> list[list[str]]:
        return segments(list(map(self.words.__getitem__, self.sentence_ids.tolist())), self.sentence_lengths)

    def take(self, texts: np.ndarray) -> TokenizedTexts:
        """The texts ``texts[k]`` (a text may be taken several times)."""

        def taken(ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
            return ids[concatenated_ranges(offsets(lengths)[texts], lengths[texts])[0]]

        lengths, counts = self.text_lengths, self.sentence_counts
        return TokenizedTexts(
            self.words,
            taken(self.ids, lengths),
            taken(self.sentence_lengths, counts),
            counts[texts],
            lengths[texts],
            None if self.sentence_ids is self.ids else taken(self.sentence_ids, self.sentence_totals),
        )


# --------------------------------------------------------------------------- ASCII runs

# Bytes other than [a-z0-9] and the newline become spaces.
_SEPARATORS = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789\n" else 32 for c in range(256))
# At most this many bytes (a training step's batch of texts), :func:`ascii_runs` splits with ``str.split``: Arrow's
# and numpy's passes cost some hundred microseconds whatever the length, Python's a fraction of one per word.
_FEW_BYTES = 1 << 14


def ascii_runs(joined: bytes, lines: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The runs of [a-z0-9] of ``lines`` lines joined by newlines (every other byte separates), as ``(words, ids,
    counts)``: the distinct runs in order of first occurrence, each run's index there, and runs per line.

    >>> words, ids, counts = ascii_runs(b"a1 b-a1\\n\\nx\\xe9y", 3)
    >>> words, ids.tolist(), counts.tolist()
    (['a1', 'b', 'x', 'y'], [0, 1, 0, 2, 3], [3, 0, 2])
    """
    if len(joined) <= _FEW_BYTES:
        text = joined.translate(_SEPARATORS).decode("ascii")
        words_per_line = [line.split() for line in text.split("\n")] if lines else []
        words, ids = distinct_ids(list(chain.from_iterable(words_per_line)))
        return words, ids, np.fromiter(map(len, words_per_line), np.int64, len(words_per_line))
    codes = np.frombuffer(joined.translate(_SEPARATORS), np.uint8)
    runs, starts = byte_runs(codes, codes > 32)  # left: [a-z0-9], all above the space, and separators
    words, ids = distinct_ids(runs)
    if not lines:
        return words, ids, np.zeros(0, np.int64)
    # The runs before each newline, then per line: one search per line, not one per run.
    before = np.searchsorted(starts, np.flatnonzero(codes == 10))
    return words, ids, np.diff(before, prepend=0, append=len(starts))


# --------------------------------------------------------------------------- skip-bigrams


def skip_bigram_count(lengths: np.ndarray, distance: int | None = None, unigrams: bool = False) -> np.ndarray:
    """Skip-bigrams (pairs at most ``distance`` tokens apart; None: any) of texts of ``lengths`` tokens,
    plus with ``unigrams`` ROUGE-SU's unigrams (every token but the last).

    >>> skip_bigram_count(np.array([0, 1, 4]), None).tolist(), skip_bigram_count(np.array([4]), 1, True).tolist()
    ([0, 0, 6], [8])
    """
    lengths = np.asarray(lengths, np.int64)
    gaps = np.maximum(lengths - 1, 0)
    if distance is not None:
        gaps = np.minimum(gaps, distance + 1)
    return gaps * lengths - gaps * (gaps + 1) // 2 + (np.maximum(lengths - 1, 0) if unigrams else 0)


# The kept tokens of one side of a SkipBigramOverlap: their positions in the side's tokens, their dense ranks of
# (prediction, token), their texts, where (in the kept tokens) each one's text ends, whether it ends it.
_SkipSide = namedtuple("_SkipSide", "positions ranks text end last")


class SkipBigramOverlap:
    """ROUGE-S / ROUGE-SU hits of predictions against their references, all pairs at once: per
    reference, the sum over skip-bigrams of min(count in the prediction, count in the reference).

    Token ids of the predictions and of the references are concatenated (``*_lengths`` tokens per
    text); ``reference_owner[k]`` is the prediction of reference k. Negative ids match nothing. Only the
    tokens a prediction shares with its references (and a reference with its prediction) can make a
    matching skip-bigram: only they are paired, with one sort per side over the corpus.

    >>> overlap = SkipBigramOverlap([0, 1, 2], [3], [0, 2, 1, 3], [4], [0])
    >>> overlap.hits(None).tolist(), overlap.hits(0).tolist(), overlap.hits(None, unigrams=True).tolist()
    ([2.0], [0.0], [4.0])
    """

    def __init__(
        self,
        prediction_ids: Any,
        prediction_lengths: Any,
        reference_ids: Any,
        reference_lengths: Any,
        reference_owner: Any,
    ) -> None:
        pred_ids, ref_ids = np.asarray(prediction_ids, np.int64), np.asarray(reference_ids, np.int64)
        pred_lengths, ref_lengths = np.asarray(prediction_lengths, np.int64), np.asarray(reference_lengths, np.int64)
        ref_owner = np.asarray(reference_owner, np.int64)
        self.references, self._lengths = len(ref_lengths), (pred_lengths, ref_lengths)
        per_prediction = np.bincount(ref_owner, minlength=len(pred_lengths))
        self._slots = int(per_prediction.max(initial=1))
        self._slot = np.arange(self.references) - (np.cumsum(per_prediction) - per_prediction)[ref_owner]
        # (prediction, token) codes; a token is kept when the other side of its prediction has it too.
        base = int(max(pred_ids.max(initial=0), ref_ids.max(initial=0))) + 1
        pred_text = np.repeat(np.arange(len(pred_lengths)), pred_lengths)
        ref_text = np.repeat(np.arange(self.references), ref_lengths)
        pred_code = np.where(pred_ids >= 0, pred_text * base + pred_ids, -1)
        ref_code = np.where(ref_ids >= 0, ref_owner[ref_text] * base + ref_ids, -1)
        pred_kept = np.flatnonzero((pred_code >= 0) & search_sorted(pred_code, distinct(ref_code))[1])
        ref_kept = np.flatnonzero((ref_code >= 0) & search_sorted(ref_code, distinct(pred_code))[1])
        # Dense ranks of the kept codes keep the skip-bigram keys rank(a) * R + rank(b) small.
        codes, ranks = np.unique(np.concatenate([pred_code[pred_kept], ref_code[ref_kept]]), return_inverse=True)
        self._rank_count = max(len(codes), 1)
        self._sides = [
            self._side(pred_kept, pred_text, pred_lengths, ranks[: len(pred_kept)]),
            self._side(ref_kept, ref_text, ref_lengths, ranks[len(pred_kept) :]),
        ]
        self._hits: dict[Any, np.ndarray] = {}

    @staticmethod
    def _side(kept: np.ndarray, text_of: np.ndarray, lengths: np.ndarray, ranks: np.ndarray) -> _SkipSide:
        ends = np.cumsum(lengths)
        text = text_of[kept]
        return _SkipSide(kept, ranks, text, np.searchsorted(kept, ends[text]), kept == ends[text] - 1)

    def _keys(self, side: _SkipSide, distance: int | None) -> tuple[np.ndarray, np.ndarray]:
        """The skip-bigrams of one side's kept tokens: keys rank(a) * R + rank(b), and the first token."""
        stop = side.end
        if distance is not None:
            stop = np.minimum(stop, np.searchsorted(side.positions, side.positions + distance + 1, side="right"))
        partners = np.maximum(stop - np.arange(len(stop)) - 1, 0)
        second, first = concatenated_ranges(np.arange(len(stop)) + 1, partners)
        return side.ranks[first] * self._rank_count + side.ranks[second], first

    def _clip(self, pred_keys: np.ndarray, ref_keys: np.ndarray, ref_text: np.ndarray) -> np.ndarray:
        """Per reference: the sum over its keys of min(count in it, count in its prediction)."""
        if len(pred_keys) == 0 or len(ref_keys) == 0:
            return np.zeros(self.references)
        pred_units, pred_counts = np.unique(pred_keys, return_counts=True)
        units, first, counts = np.unique(
            ref_keys * self._slots + self._slot[ref_text], return_index=True, return_counts=True
        )
        keys = units // self._slots
        found = np.minimum(np.searchsorted(pred_units, keys), len(pred_units) - 1)
        clipped = np.where(pred_units[found] == keys, np.minimum(counts, pred_counts[found]), 0)
        return np.bincount(ref_text[first], weights=clipped, minlength=self.references)

    def hits(self, distance: int | None = None, unigrams: bool = False) -> np.ndarray:
        """Per reference: clipped skip-bigrams at most ``distance`` tokens apart (None: any), plus with
        ``unigrams`` the clipped unigrams (every token but the last of each text, as ROUGE-SU)."""
        pred, ref = self._sides
        if distance not in self._hits:
            pred_keys, _ = self._keys(pred, distance)
            ref_keys, first = self._keys(ref, distance)
            self._hits[distance] = self._clip(pred_keys, ref_keys, ref.text[first])
        if not unigrams:
            return self._hits[distance]
        if "unigrams" not in self._hits:
            self._hits["unigrams"] = self._clip(pred.ranks[~pred.last], ref.ranks[~ref.last], ref.text[~ref.last])
        return self._hits[distance] + self._hits["unigrams"]

    def counts(self, distance: int | None, unigrams: bool) -> tuple[np.ndarray, ...]:
        """:meth:`hits` per reference, and the skip-bigrams of each prediction and of each reference."""
        return self.hits(distance, unigrams), *(skip_bigram_count(n, distance, unigrams) for n in self._lengths)
