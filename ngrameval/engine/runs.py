"""Tokens cut and numbered in C (an Arrow string array), without a Python string and dict probe per token. Arrow
allocates from the system allocator (which reuses what numpy freed); arrays pass through buffers (``to_numpy``
imports pandas, which makes every later garbage collection three times as long)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain, count
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa


@cache
def _arrow() -> tuple[ModuleType, ModuleType]:
    """pyarrow and ``pyarrow._compute``, imported when first used (40 ms of start-up); ``pyarrow.compute`` is not
    imported: it writes a wrapper for each of ~290 functions, another ~30 ms."""
    import pyarrow
    import pyarrow._compute

    return pyarrow, pyarrow._compute


def _compute(function: str, *arguments: pa.Array, options: object = None) -> pa.Array:
    """``pyarrow.compute.<function>(*arguments)``, its memory from the system allocator."""
    pa, compute = _arrow()
    return compute.call_function(function, list(arguments), options, pa.system_memory_pool())


def offsets(lengths: Sequence[int] | np.ndarray) -> np.ndarray:
    """Where each of consecutive segments of ``lengths[k]`` items starts, and where the last ends (int64)."""
    lengths = np.asarray(lengths)  # flags (bool) count as 0 and 1, summed into int64 as they are
    bounds = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=bounds[1:])
    return bounds


def run_starts(values: np.ndarray) -> np.ndarray:
    """A flag per element: whether it starts a run of equal values (in place: ``np.r_`` costs microseconds)."""
    starts = np.ones(len(values), bool)
    np.not_equal(values[1:], values[:-1], out=starts[1:])
    return starts


def strings(texts: Sequence[str]) -> pa.Array | None:
    """The texts as an Arrow string array; None if a text has no UTF-8 form (a lone surrogate)."""
    try:
        encoded = list(map(str.encode, texts))
    except UnicodeEncodeError:
        return None
    bounds = offsets(np.fromiter(map(len, encoded), np.int64, len(texts)))
    data = b"".join(encoded)
    pa = _arrow()[0]
    return pa.LargeStringArray.from_buffers(len(texts), pa.py_buffer(bounds), pa.py_buffer(data))


def _integers(array: pa.Array, missing: int = -1) -> np.ndarray:
    """An Arrow integer array as int64 numpy, ``missing`` where it is null."""
    values = np.frombuffer(array.buffers()[1], array.type.to_pandas_dtype())
    values = values[array.offset : array.offset + len(array)].astype(np.int64)
    if array.null_count:
        bits = np.unpackbits(np.frombuffer(array.buffers()[0], np.uint8), bitorder="little")
        values[~bits[array.offset : array.offset + len(array)].astype(bool)] = missing
    return values


def kept_lengths(lengths: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """How many items each of consecutive segments of ``lengths[k]`` items keeps, one ``keep`` flag per item.

    >>> kept_lengths(np.array([2, 0, 3]), np.array([True, False, True, True, False])).tolist()
    [1, 0, 2]
    """
    return np.diff(offsets(keep)[offsets(lengths)])


def whitespace_split(texts: Sequence[str]) -> tuple[pa.Array, np.ndarray] | None:
    """``str.split()`` of every text: all the tokens in one Arrow array and the number per text; None if a text
    has no UTF-8 form. (Arrow keeps empty pieces between adjacent spaces: dropped.)

    >>> tokens, lengths = whitespace_split(["a\\u3000b  a", "", " c "])
    >>> tokens.to_pylist(), lengths.tolist()
    (['a', 'b', 'a', 'c'], [3, 0, 1])
    """
    array = strings(texts)
    if array is None:
        return None
    pieces = _compute("utf8_split_whitespace", array)
    tokens = pieces.values
    lengths = np.diff(_integers(pieces.offsets))
    nonempty = _integers(_compute("binary_length", tokens)) > 0
    if not nonempty.all():
        lengths = kept_lengths(lengths, nonempty)
        pa = _arrow()[0]
        mask = pa.BooleanArray.from_buffers(
            pa.bool_(), len(nonempty), [None, pa.py_buffer(np.packbits(nonempty, bitorder="little"))]
        )
        tokens = _compute("filter", tokens, mask)
    return tokens, lengths


def byte_runs(codes: np.ndarray, inside: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """The runs of ``codes`` (UTF-8 bytes) where ``inside`` is True as an Arrow string array, and their starts."""
    # Where ``inside`` changes, False before and after (np.diff with prepend and append is ten times slower).
    changed = np.empty(len(inside) + 1, bool)
    changed[[0, -1]] = inside[[0, -1]] if len(inside) else False
    np.not_equal(inside[1:], inside[:-1], out=changed[1:-1])
    edges = np.flatnonzero(changed)
    bounds = offsets(edges[1::2] - edges[0::2])
    pa = _arrow()[0]
    runs = pa.LargeStringArray.from_buffers(len(bounds) - 1, pa.py_buffer(bounds), pa.py_buffer(codes[inside]))
    return runs, edges[0::2]


def vocabulary_ids(token_lists: Sequence[Sequence[str]]) -> tuple[dict[str, int], np.ndarray]:
    """Token lists numbered in order of first occurrence: ``(vocabulary, ids of all tokens)`` (loops in C)."""
    vocabulary = dict(zip(dict.fromkeys(chain.from_iterable(token_lists)), count()))
    total = sum(map(len, token_lists))
    return vocabulary, np.fromiter(map(vocabulary.__getitem__, chain.from_iterable(token_lists)), np.int64, total)


def distinct_ids(tokens: pa.Array | list[str]) -> tuple[list[str], np.ndarray]:
    """``(words, ids)`` of tokens (an Arrow array or a list): the distinct tokens in order, each token's index."""
    if isinstance(tokens, list):
        vocabulary, ids = vocabulary_ids([tokens])
        return list(vocabulary), ids
    encoded = _compute("dictionary_encode", tokens)
    return encoded.dictionary.to_pylist(), _integers(encoded.indices)


def ids_in(tokens: pa.Array, words: pa.Array) -> np.ndarray:
    """The index in ``words`` (distinct, an Arrow array) of each token, -1 for a token not there."""
    return _integers(_compute("index_in", tokens, options=_arrow()[1].SetLookupOptions(value_set=words)))
