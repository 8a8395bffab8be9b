"""Token ids as input, checked and flattened into arrays for the engine: ``N`` id sequences (lists of ints, 1-D
integer arrays or tensors; torch is never imported) or an ``(N, L)`` array; references the same, or several per
prediction. ``pad_id`` drops every position equal to it. Ids are numbered as text tokens are, in order of first
occurrence, so every score is that of the ids written as decimal strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, cast

import numpy as np

from ngrameval.engine.ngrams import search_sorted, stable_order
from ngrameval.engine.runs import kept_lengths, offsets
from ngrameval.errors import InputError
from ngrameval.text.tokenizers import Tokenizer

_INT_TYPES = (int, np.integer)


def _is_tensor(item: Any) -> bool:
    return type(item).__module__.split(".")[0] == "torch" and hasattr(item, "detach")


def _is_array(item: Any) -> bool:
    return isinstance(item, np.ndarray) or _is_tensor(item)


def _is_numeric(item: Any) -> bool:
    if _is_tensor(item):
        return not item.is_complex()
    return item.dtype.kind in "iubf"


def _is_id(token: Any) -> bool:
    return isinstance(token, _INT_TYPES) and not isinstance(token, (bool, np.bool_))


def is_token_ids(predictions: Any, references: Any = None) -> bool:
    """Whether the input is token ids: numeric predictions, or a first non-empty prediction that is an array
    or starts with an integer; all-empty predictions are ids when ``references`` are.

    >>> is_token_ids([[1, 2], [3]]), is_token_ids([["a"]]), is_token_ids(["a b"]), is_token_ids([[], []])
    (True, False, False, False)
    >>> is_token_ids([[]], [[4, 2]]), is_token_ids([[]], np.array([[4, 2]]))
    (True, True)
    """
    if _is_array(predictions):
        return _is_numeric(predictions)
    if not isinstance(predictions, (list, tuple)):
        return False
    for prediction in predictions:
        if _is_array(prediction):
            return _is_numeric(prediction)
        if isinstance(prediction, (list, tuple)) and len(prediction):
            return _is_id(prediction[0])
        if not isinstance(prediction, (list, tuple)):
            return False
    # Every prediction is empty: the references decide.
    if _is_array(references):
        return True
    if not isinstance(references, (list, tuple)):
        return False
    sequences: list[Any] = []
    for group in references:
        several = isinstance(group, (list, tuple)) and len(group) and isinstance(group[0], (list, tuple))
        sequences += list(group) if several else [group]
    return is_token_ids(sequences)


def refuse_token_ids(predictions: Any, metric: str, counts: str) -> None:
    """The error of a metric that needs text, given token ids."""
    if is_token_ids(predictions):
        raise InputError(f"{metric} counts {counts}: token ids are not accepted; decode them to text first")


@dataclass
class TokenIds:
    """Checked token-id input, flattened: the predictions' ids concatenated and their lengths, the references'
    (prediction by prediction) and theirs, and the references per prediction; int64, pads removed.

    >>> ids = token_ids([[4, 2], [7]], [[4], [[7, 7], [1]]])
    >>> [p.tolist() for p in ids.predictions()], [[r.tolist() for r in g] for g in ids.reference_groups()]
    ([[4, 2], [7]], [[[4]], [[7, 7], [1]]])
    >>> ids.prediction_tokens()
    [['4', '2'], ['7']]
    """

    hyp_ids: np.ndarray
    hyp_len: np.ndarray
    ref_ids: np.ndarray
    ref_len: np.ndarray
    refs_per_sentence: np.ndarray

    def __len__(self) -> int:
        return len(self.hyp_len)

    def block(self, start: int, end: int) -> TokenIds:
        """Predictions ``start..end - 1`` and their references."""
        end = min(end, len(self))
        hyp_bounds, ref_counts = offsets(self.hyp_len), offsets(self.refs_per_sentence)
        first, last = int(ref_counts[start]), int(ref_counts[end])
        ref_bounds = offsets(self.ref_len)
        return TokenIds(
            self.hyp_ids[hyp_bounds[start] : hyp_bounds[end]],
            self.hyp_len[start:end],
            self.ref_ids[ref_bounds[first] : ref_bounds[last]],
            self.ref_len[first:last],
            self.refs_per_sentence[start:end],
        )

    def predictions(self) -> list[np.ndarray]:
        """The ids of each prediction."""
        return np.split(self.hyp_ids, offsets(self.hyp_len)[1:-1])

    def reference_groups(self) -> list[list[np.ndarray]]:
        """Per prediction, the ids of each of its references."""
        segments = np.split(self.ref_ids, offsets(self.ref_len)[1:-1])
        bounds = offsets(self.refs_per_sentence).tolist()
        return [segments[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def prediction_tokens(self) -> list[list[str]]:
        """The predictions as decimal-string token lists (what explanations show)."""
        return [list(map(str, prediction.tolist())) for prediction in self.predictions()]


def token_ids(predictions: Any, references: Any, pad_id: Any = None, **text_options: bool) -> TokenIds | None:
    """The input as :class:`TokenIds` when it is token ids, None for text; a ValueError naming the place of any
    bad id, shape or mix, for a ``pad_id`` with text, and for ``text_options`` set with ids (:func:`check_text_options`).

    >>> corpus = token_ids(np.array([[5, 6, 0], [0, 7, 5]]), [[5, 6], [[7], [5, 0, 0]]], pad_id=0)
    >>> corpus.hyp_ids.tolist(), corpus.hyp_len.tolist(), corpus.ref_len.tolist(), corpus.refs_per_sentence.tolist()
    ([5, 6, 7, 5], [2, 2], [2, 1, 1], [1, 2])
    >>> token_ids([[1, -2]], [[1]])
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: predictions[0][1] is -2: token ids must be non-negative integers
    """
    if pad_id is not None and (not _is_id(pad_id)):
        raise InputError(f"pad_id must be an integer, got {pad_id!r}")
    ids = read_token_ids(predictions, references)
    if ids is None:
        if pad_id is not None:
            raise InputError(
                "pad_id applies to token ids, but the predictions are text (strings or token lists): leave pad_id out"
            )
        return None
    hyp_ids, hyp_len = _checked(ids.hyp_ids, ids.hyp_len, pad_id, "predictions", np.ones(len(ids), np.int64))
    ref_ids, ref_len = _checked(ids.ref_ids, ids.ref_len, pad_id, "references", ids.refs_per_sentence)
    check_text_options(**text_options)
    return TokenIds(hyp_ids, hyp_len, ref_ids, ref_len, ids.refs_per_sentence)


def read_token_ids(predictions: Any, references: Any) -> TokenIds | None:
    """:func:`token_ids` before its check of the values (pads and negative ids kept), None for text.

    >>> read_token_ids([[-100, 4]], [[4]]).hyp_ids.tolist()
    [-100, 4]
    """
    if not is_token_ids(predictions, references):
        return None
    if _is_array(predictions):
        hyp_ids, hyp_len, _ = _batch(predictions, 2, "predictions")
    elif len(predictions) == 0:
        raise InputError("predictions and references are empty: nothing to score")
    else:
        hyp_ids, hyp_len = _flatten(predictions, "predictions[{}]".format)
    if _is_array(references):
        ids, lengths, per_sentence = _batch(references, None, "references")
    elif isinstance(references, (list, tuple)):
        ids, lengths, per_sentence = _reference_lists(references)
    else:
        raise InputError(
            f"references must be a list with one entry per prediction, or an integer array, got "
            f"{type(references).__name__}: predictions are token ids, so references must be too"
        )
    if len(per_sentence) != len(hyp_len):
        raise InputError(
            f"predictions and references differ in length: {len(hyp_len)} predictions, {len(per_sentence)} references"
        )
    return TokenIds(hyp_ids, hyp_len, ids, lengths, per_sentence)


def _batch(batch: Any, ndim: int | None, where: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An ``(N, L)`` (or with ``ndim`` None also ``(N, R, L)``) array: (ids, lengths, sequences per prediction)."""
    array = _integer_array(batch, where)
    if array.ndim not in ((2,) if ndim == 2 else (2, 3)):
        shapes = "(N, L)" if ndim == 2 else "(N, L) or (N, R, L)"
        raise InputError(
            f"{where} is a {array.ndim}-D array of shape {array.shape}; a batch of token ids must "
            f"be {shapes} (or give a list with one entry per prediction)"
        )
    if array.shape[0] == 0:
        raise InputError("predictions and references are empty: nothing to score")
    rows = array.reshape(-1, array.shape[-1])
    per_sentence = np.full(array.shape[0], 1 if array.ndim == 2 else array.shape[1], np.int64)
    if array.ndim == 3 and array.shape[1] == 0:
        raise InputError(f"{where} has shape {array.shape}: every prediction needs at least one reference")
    return _as_int64(rows.ravel(), where), np.full(len(rows), rows.shape[1], np.int64), per_sentence


def _integer_array(item: Any, where: str) -> np.ndarray:
    array = item.detach().cpu().numpy() if _is_tensor(item) else item
    if not isinstance(array, np.ndarray):
        raise InputError(f"{where} is {type(item).__name__}; token ids must be integers")
    if array.dtype.kind not in "iu":
        raise InputError(f"{where} is an array of {array.dtype}; token ids must be integers")
    return array


def _as_int64(values: np.ndarray, where: str) -> np.ndarray:
    if values.dtype == np.uint64 and len(values) and values.max() > np.iinfo(np.int64).max:
        raise InputError(f"{where} holds {int(values.max())}: token ids must fit in 64-bit signed integers")
    return values.astype(np.int64, copy=False)


def _flatten(sequences: Sequence[Any], names: Callable[[int], str]) -> tuple[np.ndarray, np.ndarray]:
    """Id sequences, the k-th named ``names(k)`` in errors: (ids concatenated, lengths)."""
    if set(map(type, sequences)) <= {list, tuple}:
        types = set(map(type, chain.from_iterable(sequences)))
        if all(issubclass(t, _INT_TYPES) and not issubclass(t, (bool, np.bool_)) for t in types):
            # Id lists, checked and read at C speed.
            lengths = np.fromiter(map(len, sequences), np.int64, len(sequences))
            try:
                return np.fromiter(chain.from_iterable(sequences), np.int64, int(lengths.sum())), lengths
            except OverflowError:
                pass  # an id beyond int64: found and named below
    parts = [_sequence(sequence, names(k)) for k, sequence in enumerate(sequences)]
    lengths = np.fromiter(map(len, parts), np.int64, len(parts))
    return (np.concatenate(parts) if parts else np.zeros(0, np.int64)), lengths


def _sequence(item: Any, where: str) -> np.ndarray:
    """One id sequence as int64, or a ValueError naming the bad element."""
    if _is_array(item):
        array = _integer_array(item, where)
        if array.ndim != 1:
            raise InputError(
                f"{where} is a {array.ndim}-D array of shape {array.shape}; a sequence of token ids must be 1-D"
            )
        return _as_int64(array, where)
    if isinstance(item, (str, bytes)) or not isinstance(item, (list, tuple)):
        raise InputError(
            f"{where} is {type(item).__name__}; predictions are token ids, so it must be a "
            "sequence of token ids too (a list of ints, or a 1-D integer array or tensor)"
        )
    for j, token in enumerate(item):
        if not _is_id(token):
            kind = (
                "str: token ids and strings cannot be mixed"
                if isinstance(token, str)
                else f"{type(token).__name__}; token ids must be integers"
            )
            raise InputError(f"{where}[{j}] is {kind}")
        if not -(2**63) <= token < 2**63:
            raise InputError(f"{where}[{j}] is {token}: token ids must fit in 64-bit signed integers")
    return np.array(item, np.int64).reshape(len(item))


def _reference_lists(references: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per prediction one id sequence or several (a list, or a 2-D array or tensor)."""
    sequences: list[Any] = []
    names: list[str] = []
    per_sentence = np.zeros(len(references), np.int64)
    for i, reference in enumerate(references):
        if _is_array(reference):
            array = _integer_array(reference, f"references[{i}]")
            group = [array] if array.ndim == 1 else list(array) if array.ndim == 2 else None
            if group is None:
                raise InputError(
                    f"references[{i}] is a {array.ndim}-D array of shape {array.shape}; give a 1-D "
                    "sequence of ids (one reference) or a 2-D array (one reference per row)"
                )
        elif isinstance(reference, (list, tuple)) and not reference:
            raise InputError(f"references[{i}] is an empty list: give a list of id sequences, or one id sequence")
        elif isinstance(reference, (list, tuple)) and (
            _is_array(reference[0]) or isinstance(reference[0], (list, tuple))
        ):
            group = list(reference)
        else:
            group = [reference]
        if not group:
            raise InputError(f"references[{i}] holds no reference: every prediction needs at least one")
        per_sentence[i] = len(group)
        sequences += group
        names += [f"references[{i}]"] if group[0] is reference else [f"references[{i}][{j}]" for j in range(len(group))]
    return (*_flatten(sequences, names.__getitem__), per_sentence)


def _checked(
    ids: np.ndarray, lengths: np.ndarray, pad_id: int | None, where: str, per_sentence: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ids without pads, or a ValueError naming the first negative id."""
    bad = ids < 0
    if pad_id is not None:
        keep = ids != pad_id
        bad &= keep
    if bad.any():
        position = int(np.argmax(bad))
        sequence = int(np.searchsorted(offsets(lengths), position, side="right")) - 1
        sentence = int(np.searchsorted(offsets(per_sentence), sequence, side="right")) - 1
        token = position - int(offsets(lengths)[sequence])
        place = (
            f"predictions[{sentence}][{token}]"
            if where == "predictions"
            else f"references[{sentence}], reference {sequence - int(offsets(per_sentence)[sentence])}, token {token},"
        )
        pad = "" if pad_id is None else f" other than pad_id={pad_id}"
        raise InputError(f"{place} is {int(ids[position])}: token ids must be non-negative integers{pad}")
    if pad_id is not None and not keep.all():
        return ids[keep], kept_lengths(lengths, keep)
    return ids, lengths


# Ids below this (or four times the distinct ids) are numbered through a table indexed by id (4 MiB at most).
_TABLE_IDS = 1 << 20


class IdVocabulary(Mapping[str, int]):
    """The references' distinct ids numbered ``0..V-1`` in order of first occurrence: a mapping from each id's
    decimal string to its number; :meth:`numbers` maps arrays of raw ids.

    >>> vocabulary, numbers = IdVocabulary.of(np.array([30, 7, 30, 99]))
    >>> numbers.tolist(), list(vocabulary), vocabulary.numbers(np.array([99, 5, 7, 10 ** 15])).tolist()
    ([0, 1, 0, 2], ['30', '7', '99'], [2, -1, 1, -1])
    >>> IdVocabulary.of(np.array([10 ** 15, 3]))[0].numbers(np.array([3, 10 ** 15, 10 ** 14])).tolist()
    [1, 0, -1]
    """

    def __init__(self, in_order: np.ndarray, sorted_ids: np.ndarray, number_of_sorted: np.ndarray) -> None:
        self.in_order = in_order  # the distinct ids, by number
        self._sorted = sorted_ids  # the distinct ids, sorted
        self._number_of_sorted = number_of_sorted
        # Small ids are numbered by one gather from a table (its last slot for larger ids); sparse ids by search.
        largest = int(sorted_ids[-1]) if len(sorted_ids) else -1
        self._table: np.ndarray | None = None
        if largest < max(4 * len(sorted_ids), _TABLE_IDS):
            self._table = np.full(largest + 2, -1, np.int32 if len(sorted_ids) < 2**31 else np.int64)
            self._table[sorted_ids] = number_of_sorted

    @classmethod
    def of(cls, ids: np.ndarray) -> tuple[IdVocabulary, np.ndarray]:
        """The vocabulary of non-negative ``ids`` and the number of each id."""
        ids = np.asarray(ids, np.int64)
        order, ordered = stable_order(ids)
        first = np.r_[True, ordered[1:] != ordered[:-1]] if len(ids) else np.zeros(0, bool)
        first_position = order[first]  # stable: each distinct id's first occurrence
        by_occurrence = np.argsort(first_position, kind="stable")
        number_of_sorted = np.empty(len(by_occurrence), np.int64)
        number_of_sorted[by_occurrence] = np.arange(len(by_occurrence))
        numbers = np.empty(len(ids), np.int64)
        numbers[order] = number_of_sorted[np.cumsum(first) - 1]
        sorted_ids = ordered[first]
        return cls(sorted_ids[by_occurrence], sorted_ids, number_of_sorted), numbers

    @property
    def words(self) -> list[str]:
        """The text of each number: its id's decimal string."""
        return list(self)

    def numbers(self, ids: np.ndarray) -> np.ndarray:
        """The number of each id, -1 for an id the references lack."""
        if self._table is not None:
            return cast(np.ndarray, self._table[np.minimum(ids, len(self._table) - 1)].astype(np.int64))
        found, hit = search_sorted(ids, self._sorted)
        return np.where(hit, self._number_of_sorted[found], -1)

    def __len__(self) -> int:
        return len(self.in_order)

    def __iter__(self) -> Iterator[str]:
        return map(str, self.in_order.tolist())

    def __getitem__(self, word: str) -> int:
        if not isinstance(word, str) or not word.isdecimal() or not word.isascii():
            raise KeyError(word)
        number = int(self.numbers(np.array([int(word)], np.int64))[0]) if int(word) < 2**63 else -1
        if number < 0:
            raise KeyError(word)
        return number


def encode_id_texts(keys: list[bytes]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Distinct texts of ids (int64 bytes each) as :func:`ngrameval.engine.corpus.encode_texts` gives texts.

    >>> numbers, lengths, words = encode_id_texts([np.array([9, 4]).tobytes(), np.array([4]).tobytes()])
    >>> numbers.tolist(), lengths.tolist(), list(words)
    ([0, 1, 1], [2, 1], ['9', '4'])
    """
    texts = [np.frombuffer(key, np.int64) for key in keys]
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    vocabulary, numbers = IdVocabulary.of(np.concatenate(texts) if texts else np.zeros(0, np.int64))
    return numbers, lengths, vocabulary.words


class GivenIds(Tokenizer):
    """The tokenizer of token-id input: nothing is tokenized; signatures say ``tok:ids``."""

    name = "ids"

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        raise InputError("the input is token ids: there is no text to tokenize")


def check_text_options(lowercase: bool = False, **options: bool) -> None:
    """Refuse, for token-id input, the options that change the letters of text (``lowercase``, ``use_stemmer``)."""
    for name, value in {"lowercase": lowercase, **options}.items():
        if value:
            raise InputError(
                f"{name}=True changes the letters of text; token ids have none: leave it False, or "
                "decode the ids to text first"
            )
