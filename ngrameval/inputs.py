"""Validation of predictions and references: one clear ValueError per problem.

Accepted shapes (``N`` predictions):

- predictions: ``N`` strings, or ``N`` token lists (already tokenized);
- references: for string predictions, ``N`` strings (one reference each) or
  ``N`` lists of strings (any number, at least one, per prediction); for
  tokenized predictions, ``N`` token lists or ``N`` lists of token lists.
"""
from __future__ import annotations

from itertools import chain
from typing import Any, List, Sequence, Tuple

Corpus = Tuple[List[Any], List[List[Any]], bool]


def _kind(item: Any) -> str:
    return "None" if item is None else type(item).__name__


def _is_sequence(item: Any) -> bool:
    return isinstance(item, (list, tuple))


def _as_list(item: Any) -> Any:
    """numpy arrays, datasets columns and other sized iterables (not strings) become lists."""
    if isinstance(item, (str, bytes, dict)) or _is_sequence(item):
        return item
    if hasattr(item, "tolist"):
        return item.tolist()
    if hasattr(item, "__len__") and hasattr(item, "__iter__"):
        return list(item)
    return item


def _check_tokens(tokens: Any, where: str) -> List[str]:
    if not _is_sequence(tokens):
        raise ValueError(f"{where} must be a list of token strings, got {_kind(tokens)}")
    for token in tokens:
        if not isinstance(token, str):
            raise ValueError(f"{where} contains a token of type {_kind(token)}; tokens must be strings")
    return list(tokens)


def normalize_corpus(predictions: Any, references: Any) -> Corpus:
    """Check the shapes and return ``(predictions, references, pretokenized)`` where each
    ``references[i]`` is a non-empty list of references of the same kind as ``predictions[i]``.

    >>> normalize_corpus(["a b"], ["a b c"])
    (['a b'], [['a b c']], False)
    >>> normalize_corpus(["a"], [[]])
    Traceback (most recent call last):
    ...
    ValueError: references[0] is an empty list: every prediction needs at least one reference
    """
    predictions, references = _as_list(predictions), _as_list(references)
    if isinstance(predictions, str) or not _is_sequence(predictions):
        raise ValueError(f"predictions must be a list of strings (or of token lists), got {_kind(predictions)}")
    if isinstance(references, str) or not _is_sequence(references):
        raise ValueError(f"references must be a list with one entry per prediction, got {_kind(references)}")
    if len(predictions) != len(references):
        raise ValueError(f"predictions and references differ in length: {len(predictions)} predictions, "
                         f"{len(references)} references")
    if len(predictions) == 0:
        raise ValueError("predictions and references are empty: nothing to score")
    pretokenized = _is_sequence(predictions[0])
    if pretokenized and set(map(type, predictions)) <= {list, tuple} \
            and set(map(type, chain.from_iterable(predictions))) <= {str}:
        # Token lists, checked at C speed: one token list or a list of token lists per prediction.
        # (Token lists are passed on as they are, not copied: nothing downstream modifies them.)
        kinds = set(map(type, references))
        if kinds <= {list, tuple} and all(references):
            firsts = set(type(r[0]) for r in references)
            if firsts <= {list, tuple} and set(map(type, chain.from_iterable(references))) <= {list, tuple} \
                    and set(map(type, chain.from_iterable(chain.from_iterable(references)))) <= {str}:
                return list(predictions), list(references), True
            if firsts <= {str} and set(map(type, chain.from_iterable(references))) <= {str}:
                return list(predictions), [[r] for r in references], True
    if not pretokenized and set(map(type, predictions)) == {str}:
        # The common shapes, checked at C speed; anything else gets the detailed checks below.
        kinds = set(map(type, references))
        if kinds == {str}:
            return list(predictions), [[r] for r in references], False
        if kinds <= {list, tuple} and all(references) and set(map(type, chain.from_iterable(references))) == {str}:
            return list(predictions), [list(r) for r in references], False
    hyps: List[Any] = []
    refs: List[List[Any]] = []
    for i, (prediction, reference) in enumerate(zip(predictions, references)):
        if pretokenized:
            hyps.append(_check_tokens(prediction, f"predictions[{i}]"))
            if not _is_sequence(reference):
                raise ValueError(f"references[{i}] must be a token list or a list of token lists, "
                                 f"got {_kind(reference)}")
            if len(reference) > 0 and _is_sequence(reference[0]):
                group = [_check_tokens(r, f"references[{i}][{j}]") for j, r in enumerate(reference)]
            else:
                group = [_check_tokens(reference, f"references[{i}]")]
                if not group[0]:
                    raise ValueError(f"references[{i}] is an empty list: give a list of token lists, "
                                     "or one token list")
        else:
            if not isinstance(prediction, str):
                raise ValueError(f"predictions[{i}] is {_kind(prediction)}; every prediction must be a string "
                                 "(or every prediction a token list)")
            hyps.append(prediction)
            if isinstance(reference, str):
                group = [reference]
            elif _is_sequence(reference):
                for j, r in enumerate(reference):
                    if not isinstance(r, str):
                        raise ValueError(f"references[{i}][{j}] is {_kind(r)}; references must be strings "
                                         "or lists of strings (one list per prediction)")
                group = list(reference)
            else:
                raise ValueError(f"references[{i}] is {_kind(reference)}; give a string or a list of strings")
            if not group:
                raise ValueError(f"references[{i}] is an empty list: every prediction needs at least one reference")
        refs.append(group)
    return hyps, refs, pretokenized


def check_choice(name: str, value: Any, valid: Sequence[Any]) -> None:
    """Raise a ValueError listing the valid values when ``value`` is not one of them."""
    if value not in valid:
        raise ValueError(f"unknown {name} {value!r}; valid values: {', '.join(map(repr, valid))}")


def check_positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value
