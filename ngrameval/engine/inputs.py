"""Validation of input and options: one clear :class:`~ngrameval.errors.InputError` per problem. Predictions are
``N`` strings or token lists (a token is any string); references, per prediction one of those or a list of them.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Collection, Sequence
from itertools import chain
from typing import Any

import numpy as np

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.errors import InputError

Corpus = tuple[list[Any], list[list[Any]], bool]


def _kind(item: Any) -> str:
    return "None" if item is None else type(item).__name__


def _is_sequence(item: Any) -> bool:
    return isinstance(item, (list, tuple))


def _as_list(item: Any) -> Any:
    """numpy arrays, datasets columns and other sized iterables become lists."""
    if isinstance(item, (str, bytes, dict)) or _is_sequence(item):
        return item
    if hasattr(item, "tolist"):
        return item.tolist()
    if hasattr(item, "__len__") and hasattr(item, "__iter__"):
        return list(item)
    return item


def _check_tokens(tokens: Any, where: str) -> list[str]:
    if not _is_sequence(tokens):
        raise InputError(f"{where} must be a list of token strings, got {_kind(tokens)}")
    for token in tokens:
        if not isinstance(token, str):
            raise InputError(f"{where} contains a token of type {_kind(token)}; tokens must be strings")
    return list(tokens)


def normalize_corpus(predictions: Any, references: Any) -> Corpus:
    """Check the shapes: ``(predictions, references, pretokenized)``, each ``references[i]`` a non-empty list.

    >>> normalize_corpus(["a b"], ["a b c"])
    (['a b'], [['a b c']], False)
    >>> normalize_corpus(["a"], [[]])
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: references[0] is an empty list: every prediction needs at least one reference
    """
    predictions, references = _as_list(predictions), _as_list(references)
    if isinstance(predictions, str) or not _is_sequence(predictions):
        raise InputError(f"predictions must be a list of strings (or of token lists), got {_kind(predictions)}")
    if isinstance(references, str) or not _is_sequence(references):
        raise InputError(f"references must be a list with one entry per prediction, got {_kind(references)}")
    if len(predictions) != len(references):
        raise InputError(
            f"predictions and references differ in length: {len(predictions)} predictions, {len(references)} references"
        )
    if len(predictions) == 0:
        raise InputError("predictions and references are empty: nothing to score")
    pretokenized = _is_sequence(predictions[0])
    if (
        pretokenized
        and set(map(type, predictions)) <= {list, tuple}
        and set(map(type, chain.from_iterable(predictions))) <= {str}
    ):
        # Token lists, checked at C speed, passed on as they are (nothing downstream modifies them).
        kinds = set(map(type, references))
        if kinds <= {list, tuple} and all(references):
            firsts = set(type(r[0]) for r in references)
            if (
                firsts <= {list, tuple}
                and set(map(type, chain.from_iterable(references))) <= {list, tuple}
                and set(map(type, chain.from_iterable(chain.from_iterable(references)))) <= {str}
            ):
                return list(predictions), list(references), True
            if firsts <= {str} and set(map(type, chain.from_iterable(references))) <= {str}:
                return list(predictions), [[r] for r in references], True
    if not pretokenized and set(map(type, predictions)) == {str}:
        # The common shapes, checked at C speed; anything else gets the detailed checks below.
        kinds = set(map(type, references))
        if kinds == {str}:
            return list(predictions), [[r] for r in references], False
        if kinds <= {list, tuple} and all(references) and set(map(type, chain.from_iterable(references))) == {str}:
            # Lists are passed on as they are (nothing downstream modifies them); tuples become lists.
            return list(predictions), list(references) if kinds == {list} else [list(r) for r in references], False
    hyps: list[Any] = []
    refs: list[list[Any]] = []
    for i, (prediction, reference) in enumerate(zip(predictions, references)):
        if pretokenized:
            hyps.append(_check_tokens(prediction, f"predictions[{i}]"))
            if not _is_sequence(reference):
                raise InputError(
                    f"references[{i}] must be a token list or a list of token lists, got {_kind(reference)}"
                )
            if len(reference) > 0 and _is_sequence(reference[0]):
                group: list[list[str]] | list[str] = [
                    _check_tokens(r, f"references[{i}][{j}]") for j, r in enumerate(reference)
                ]
            else:
                group = [_check_tokens(reference, f"references[{i}]")]
                if not group[0]:
                    raise InputError(f"references[{i}] is an empty list: give a list of token lists, or one token list")
        else:
            if not isinstance(prediction, str):
                raise InputError(
                    f"predictions[{i}] is {_kind(prediction)}; every prediction must be a string "
                    "(or every prediction a token list)"
                )
            hyps.append(prediction)
            if isinstance(reference, str):
                group = [reference]
            elif _is_sequence(reference):
                for j, r in enumerate(reference):
                    if not isinstance(r, str):
                        raise InputError(
                            f"references[{i}][{j}] is {_kind(r)}; references must be strings "
                            "or lists of strings (one list per prediction)"
                        )
                group = list(reference)
            else:
                raise InputError(f"references[{i}] is {_kind(reference)}; give a string or a list of strings")
            if not group:
                raise InputError(f"references[{i}] is an empty list: every prediction needs at least one reference")
        refs.append(group)
    return hyps, refs, pretokenized


def check_choice(name: str, value: Any, valid: Sequence[Any]) -> None:
    """Raise an InputError listing the valid values when ``value`` is not one of them."""
    if value not in valid:
        raise InputError(f"unknown {name} {value!r}; valid values: {', '.join(map(repr, valid))}")


def check_positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a positive integer, got {value!r}")
    return value


# The largest n-gram order any metric accepts (published ones go up to 9): a mistyped 10**6 would run for minutes.
MAX_ORDER = 100


def check_order(name: str, value: Any) -> int:
    """An n-gram order: an integer from 1 to :data:`MAX_ORDER`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_ORDER:
        raise InputError(f"{name} must be an integer from 1 to {MAX_ORDER}, got {value!r}")
    return int(value)


def check_flag(name: str, value: Any) -> bool:
    """A True/False option; strings such as ``"no"`` are refused rather than read as true."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def sampling_settings(name: str, value: Any, accepted: str) -> dict[str, Any]:
    """``value``, a dict of bootstrap settings (n_samples, confidence, seed; each optional); ``accepted`` says
    what else the option takes, for the message."""
    if not isinstance(value, dict):
        raise InputError(f"{name} must be {accepted}, got {value!r}")
    unknown = set(value) - {"n_samples", "confidence", "seed"}
    if unknown:
        raise InputError(f"unknown {name} options {sorted(unknown)}; valid: n_samples, confidence, seed")
    return value


def check_number(
    name: str, value: Any, low: float = -math.inf, high: float = math.inf, low_open: bool = False
) -> float:
    """A finite real number in ``[low, high]`` (``(low, high]`` with ``low_open``)."""
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not math.isfinite(value)
        or not (low < value if low_open else low <= value)
        or not value <= high
    ):
        bound = ("> " if low_open else ">= ") + f"{low:g}" if low > -math.inf else ""
        if high < math.inf:
            bound = f"in ({low:g}, {high:g}]" if low_open else f"in [{low:g}, {high:g}]"
        raise InputError(f"{name} must be a finite number{' ' + bound if bound else ''}, got {value!r}")
    return float(value)


def unknown_options_error(metric: str, unknown: Collection[str], valid: Sequence[str]) -> InputError:
    """The one error every metric gives for options it does not have.

    >>> str(unknown_options_error("bleu", ["smoth"], ["smooth", "tokenize"]))
    'unknown options for bleu: smoth; valid options: smooth, tokenize'
    """
    return InputError(f"unknown options for {metric}: {', '.join(sorted(unknown))}; valid options: {', '.join(valid)}")


def strict_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """A metric function that answers unknown keyword options with :func:`unknown_options_error`."""
    parameters = inspect.signature(function).parameters
    valid = [name for name in parameters if name not in ("predictions", "references", "candidates")]  # the data

    @functools.wraps(function)
    def checked(*args: Any, **options: Any) -> Any:
        unknown = [name for name in options if name not in parameters]
        if unknown:
            raise unknown_options_error(function.__name__, unknown, valid)
        return function(*args, **options)

    return checked


_PLAIN_TYPES = (str, int, float, bool, type(None))


def cached_by_value(resolve: Callable[..., Any]) -> Callable[..., Any]:
    """An option resolver (no side effects, an immutable result) whose results are kept by the values and types
    of its arguments when all are plain (strings, numbers, booleans, None): a training loop resolves the same
    options every step. Other calls are resolved every time; an exception is never kept.

    >>> @cached_by_value
    ... def resolved(order=4):
    ...     return check_order("order", order)
    >>> resolved(2), resolved(2), resolved.cache_info().hits
    (2, 2, 1)
    """
    cached = cleared_with_caches(functools.lru_cache(maxsize=256, typed=True)(resolve))

    @functools.wraps(resolve)
    def resolved(*args: Any, **options: Any) -> Any:
        if all(type(value) in _PLAIN_TYPES for value in chain(args, options.values())):
            return cached(*args, **options)
        return resolve(*args, **options)

    resolved.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return resolved
