"""The words every metric shares: the input types, the result's ``score`` / ``signature`` / ``scale`` /
``sentence_scores``, and option aliases: the peers' names (ROUGE's ``use_aggregator=False`` and ``tokenizer``,
TER's ``case_sensitive``, NIST's ``n``) kept beside the common ones; given under both names, values must agree.

>>> aliased("max_order", None, "n", 4, default=5)
4
>>> aliased("lowercase", True, "case_sensitive", True, default=False, inverse=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ngrameval.errors.InputError: case_sensitive=True contradicts lowercase=True (case_sensitive is another name for not ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any, ClassVar, Union

import numpy as np

from ngrameval.engine.inputs import check_flag
from ngrameval.errors import InputError

# What the public metric functions take (shapes: :mod:`ngrameval.engine.inputs`).
Text = Union[str, Sequence[str]]
IdSequence = Union[Sequence[int], np.ndarray]  # one text as token ids
Predictions = Union[Sequence[str], Sequence[Sequence[str]], Sequence[IdSequence], np.ndarray]
References = Union[
    Sequence[str],
    Sequence[Sequence[str]],
    Sequence[Sequence[Sequence[str]]],
    Sequence[Sequence[IdSequence]],
    Sequence[IdSequence],
    np.ndarray,
]


def aliased(name: str, value: Any, alias: str, alias_value: Any, default: Any, inverse: bool = False) -> Any:
    """Option ``name`` given as ``value`` or under its alias (None: not given; ``inverse``: the alias means
    ``not name``), else ``default``; both given, they must agree.

    >>> aliased("sentence_level", None, "use_aggregator", False, default=False, inverse=True)
    True
    >>> aliased("tokenize", "whitespace", "tokenizer", None, default="default")
    'whitespace'
    """
    if alias_value is None:
        return default if value is None else value
    meant = not check_flag(alias, alias_value) if inverse else alias_value
    if value is not None:
        same = check_flag(name, value) == meant if inverse else (value is meant or _equal(value, meant))
        if not same:
            meaning = f"not {name}" if inverse else name
            raise InputError(
                f"{alias}={alias_value!r} contradicts {name}={value!r} ({alias} is another name for "
                f"{meaning}); give one of them"
            )
    return meant


def _equal(value: Any, other: Any) -> bool:
    try:
        return bool(value == other)
    except (TypeError, ValueError):  # (an array's == is elementwise: not the same option value)
        return False


class MetricResult:
    """What every result says: ``score``, the headline as a float; ``signature``; ``scale``, what perfect
    agreement scales to (1: fractions; NIST and CIDEr are unbounded); ``sentence_scores`` when asked for."""

    scale: ClassVar[int] = 1
    # The attribute holding the headline number.
    headline: ClassVar[str] = ""

    @property
    def score(self) -> float:
        value = getattr(self, self.headline)
        return float(value[0] if isinstance(value, list) else value)

    def as_dict(self) -> dict[str, Any]:
        """The result as the dict the evaluate metric returns: its shown fields, those not asked for left out."""
        shown = [f.name for f in fields(self) if f.repr]  # type: ignore[arg-type]  # (each result is a dataclass)
        return {name: getattr(self, name) for name in shown if getattr(self, name) is not None}
