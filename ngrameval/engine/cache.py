"""The one cache of the package, :data:`REFERENCE_CACHE`: the reference indexes (and ROUGE's word stems) kept for
the next call, least recently used first out of a budget in bytes, shared by every metric and thread.
:func:`clear_caches` empties it and the caches registered with :func:`cleared_with_caches`."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from itertools import chain, islice
from types import FunctionType, MethodType, ModuleType
from typing import Any, TypeVar

import numpy as np

from ngrameval.errors import InputError

Value = TypeVar("Value")

# The default budget: several test sets' indexes (2,000 segments of 25 words: BLEU's 12 MB, ROUGE's 9, chrF's 36).
DEFAULT_BUDGET = 256 << 20
# Items of a container looked at when estimating its size: a larger one is estimated from a sample.
_SAMPLE = 8
# The most entries kept: a training loop's batches, never scored again, would otherwise fill the budget with
# thousands of indexes in fresh memory; with a few entries, the memory of dropped ones is reused.
DEFAULT_MAX_ENTRIES = 16
# Objects whose size is what ``sys.getsizeof`` says (they refer to nothing the cache would keep alive).
_ATOMS = frozenset((str, bytes, int, float, complex, bool, type(None), range))
# Objects shared by the whole process, not held by an entry: counted as nothing.
_SHARED = (type, ModuleType)


def estimated_nbytes(value: Any) -> int:
    """The memory ``value`` holds, estimated: ``sys.getsizeof`` of it and of what it refers to, each object once
    (classes and modules not counted), plus other buffers' ``nbytes``; large containers from a sample."""
    if isinstance(value, _SHARED):
        return 0
    seen = {id(value)}
    total = float(sys.getsizeof(value))
    # (object, weight): a sampled item stands for ``weight`` items.
    pending: list[tuple[Any, float]] = [(value, 1.0)]
    while pending:
        item, weight = pending.pop()
        parts, share, nbytes = _parts(item)
        total += weight * nbytes
        if not parts:
            continue
        if _ATOMS.issuperset(map(type, parts)):  # (words and numbers, most items of large containers: in C)
            total += weight * share * sum(map(sys.getsizeof, parts))
            continue
        unique = dict(zip(map(id, parts), parts))
        fresh_ids = unique.keys() - seen
        seen.update(fresh_ids)
        fresh = [part for part in map(unique.__getitem__, fresh_ids) if not isinstance(part, _SHARED)]
        weight *= share
        total += weight * sum(map(sys.getsizeof, fresh))
        pending.extend(
            (part, weight)
            for part in fresh
            if not (type(part) in _ATOMS or (type(part) is np.ndarray and part.base is None))
        )
    return int(total)


def _parts(item: Any) -> tuple[Sequence[Any], float, int]:
    """What ``item`` refers to beyond its own size (or a sample), how many parts each stands for, other bytes."""
    if isinstance(item, np.ndarray):
        return (() if item.base is None else (item.base,)), 1.0, 0
    if isinstance(item, (list, tuple)):
        step = max(len(item) // _SAMPLE, 1)
        sample = item[::step]
        return sample, len(item) / max(len(sample), 1), 0
    if isinstance(item, (dict, set, frozenset)):
        # (In one C call: another thread adding to the dict cannot change it under us.)
        sample = tuple(islice(item.items() if isinstance(item, dict) else item, _SAMPLE))
        parts = tuple(chain.from_iterable(sample)) if isinstance(item, dict) else sample
        return parts, len(item) / max(len(sample), 1), 0
    if isinstance(item, FunctionType):
        return tuple(cell.cell_contents for cell in item.__closure__ or () if _filled(cell)), 1.0, 0
    if isinstance(item, MethodType):
        return (item.__self__,), 1.0, 0
    nbytes = getattr(item, "nbytes", None)
    if isinstance(nbytes, int):
        return (), 1.0, nbytes
    parts = tuple(getattr(item, "__dict__", {}).values())
    slots = tuple(getattr(item, name) for name in getattr(type(item), "__slots__", ()) if hasattr(item, name))
    return parts + slots, 1.0, 0


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (reading an empty cell is what raises)
    except ValueError:  # a cell whose variable is not assigned yet
        return False
    return True


class ByteBudgetCache:
    """A thread-safe least-recently-used cache of at most ``budget`` bytes (:func:`estimated_nbytes`) and
    ``max_entries`` entries; sizes are measured again at each use (an index grows)."""

    def __init__(self, budget: int = DEFAULT_BUDGET, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        # key -> (value, bytes of the key, bytes of the value)
        self._entries: OrderedDict[Hashable, tuple[Any, int, int]] = OrderedDict()
        self._building: dict[Hashable, threading.Lock] = {}  # a lock per key being built
        self._lock = threading.Lock()
        self.nbytes = 0  # what the entries hold
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise InputError(f"max_entries must be an integer >= 1, got {max_entries!r}")
        self.max_entries = max_entries
        self.budget = budget

    @property
    def budget(self) -> int:
        """The most bytes the entries may take; setting it drops entries until they fit."""
        return self._budget

    @budget.setter
    def budget(self, nbytes: int) -> None:
        if isinstance(nbytes, (bool, np.bool_)) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
            raise InputError(f"the cache budget must be a number of bytes >= 0, got {nbytes!r}")
        with self._lock:
            self._budget = int(nbytes)
            self._evict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def get(self, key: Hashable | None, build: Callable[[], Value]) -> Value:
        """The value kept under ``key``, or ``build()`` kept under it (None: not kept); threads wait for a build.

        >>> cache = ByteBudgetCache()
        >>> cache.get(None, list), len(cache)
        ([], 0)
        """
        if key is None:
            return build()
        with self._lock:
            found: tuple[Value, int, int] | None = self._hit(key)  # (what ``build`` built under this key)
            if found is not None:
                return found[0]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._hit(key)
            if found is not None:
                return found[0]
            try:
                value = build()
                self.put(key, value)
            finally:
                with self._lock:
                    self._building.pop(key, None)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` as the most recently used entry, then evict while over the budget."""
        key_nbytes = estimated_nbytes(key)
        nbytes = key_nbytes + estimated_nbytes(value)
        with self._lock:
            self._discard(key)
            self._entries[key] = value, key_nbytes, nbytes - key_nbytes
            self.nbytes += nbytes
            self._evict()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.nbytes = 0

    def _hit(self, key: Hashable) -> tuple[Any, int, int] | None:
        """(Under the lock.) The entry under ``key``, made the most recent and measured again; None if none."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        value, key_nbytes, value_nbytes = entry
        measured = estimated_nbytes(value)
        self._entries[key] = value, key_nbytes, measured
        self.nbytes += measured - value_nbytes
        self._entries.move_to_end(key)
        self._evict()
        return entry

    def _discard(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self.nbytes -= entry[1] + entry[2]

    def _evict(self) -> None:
        while (self.nbytes > self._budget or len(self._entries) > self.max_entries) and self._entries:
            self._discard(next(iter(self._entries)))


REFERENCE_CACHE = ByteBudgetCache()
# How to empty the package's other caches (memoized functions, loaded resources).
_CLEARED_WITH_CACHES: list[Callable[[], None]] = []


def cleared_with_caches(cache: Value) -> Value:
    """Register another cache (an ``lru_cache`` function, or a dict) for :func:`clear_caches`, and return it.

    >>> import functools
    >>> @cleared_with_caches
    ... @functools.lru_cache(maxsize=8)
    ... def square(x: int) -> int:
    ...     return x * x
    >>> loaded = cleared_with_caches({"data": 1})
    >>> square(3), square.cache_info().currsize, len(loaded)
    (9, 1, 1)
    >>> clear_caches(); square.cache_info().currsize, len(loaded)
    (0, 0)
    """
    # (Value is any cache: mypy cannot see that one without cache_clear, a dict, has clear.)
    _CLEARED_WITH_CACHES.append(getattr(cache, "cache_clear", None) or cache.clear)  # type: ignore[attr-defined]
    return cache


def clear_caches() -> None:
    """Empty every cache of the package: the indexed references, stems, resolved options, loaded WordNet and
    METEOR 1.5 resources. Scores do not change; the next call rebuilds what it needs.

    >>> import ngrameval
    >>> _ = ngrameval.chrf(["a cat"], [["the cat"]])
    >>> ngrameval.clear_caches()
    >>> len(REFERENCE_CACHE)
    0
    """
    REFERENCE_CACHE.clear()
    for cache_clear in _CLEARED_WITH_CACHES:
        cache_clear()


def set_cache_budget(nbytes: int) -> int:
    """Set the most bytes the cache of references may hold (default 256 MiB; 0 keeps nothing), dropping the least
    recently used entries until it fits. Returns the budget it had.

    >>> previous = set_cache_budget(64 << 20)
    >>> set_cache_budget(previous) == 64 << 20
    True
    """
    previous = REFERENCE_CACHE.budget
    REFERENCE_CACHE.budget = nbytes
    return previous
