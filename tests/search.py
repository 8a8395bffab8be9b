"""The one knob of every seeded random search against a peer in tests/: ``NGRAMEVAL_SEARCH_SCALE``.

Each search is sized for CI (a second or a few). Set ``NGRAMEVAL_SEARCH_SCALE`` to a positive integer (default
1) to multiply its number of cases (corpora, seeds, words, examples): the seeds stay fixed, so a search at any
scale is repeatable and its first cases are the ones CI runs at 1. For example, a search ten times CI's, one
file at a time::

    NGRAMEVAL_SEARCH_SCALE=10 python -m pytest -n 0 -q tests/parity/test_random_search.py

Searches written with hypothesis scale their ``max_examples`` the same way.
"""

from __future__ import annotations

import os

VARIABLE = "NGRAMEVAL_SEARCH_SCALE"


def search_scale(environment: dict[str, str] | None = None) -> int:
    """The scale of the random searches from ``environment`` (``os.environ`` when None): 1 when unset.

    >>> search_scale({}), search_scale({VARIABLE: "10"})
    (1, 10)
    >>> search_scale({VARIABLE: "0"})
    Traceback (most recent call last):
    ...
    ValueError: NGRAMEVAL_SEARCH_SCALE must be a positive integer, got '0'
    """
    value = (os.environ if environment is None else environment).get(VARIABLE, "1")
    try:
        scale = int(value)
    except ValueError:
        scale = 0
    if scale < 1:
        raise ValueError(f"{VARIABLE} must be a positive integer, got {value!r}")
    return scale


SCALE = search_scale()


def cases(count: int) -> int:
    """How many cases a search sized ``count`` for CI runs: ``count`` times :data:`SCALE`.

    >>> cases(150) == 150 * SCALE
    True
    """
    return count * SCALE


def seeds(ci_seeds: list[int]) -> list[int]:
    """The seeds of a search parametrized by seed: CI's ``ci_seeds``, then further seeds counting up from the
    largest of them, :func:`cases` of ``len(ci_seeds)`` in all.

    >>> seeds([1, 2, 3])[:3], len(seeds([1, 2, 3])) == 3 * SCALE
    ([1, 2, 3], True)
    """
    first = max(ci_seeds) + 1
    return list(ci_seeds) + list(range(first, first + cases(len(ci_seeds)) - len(ci_seeds)))
