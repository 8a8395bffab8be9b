"""The words every metric shares: the input types, the result's ``score`` / ``signature`` / ``scale`` /
``sentence_scores``, and option aliases (the peers' names, kept beside the common ones).

Every public metric function takes ``sentence_level`` for per-segment results, returned as
``result.sentence_scores``; ``tokenize``, ``lowercase`` and ``max_order`` wherever the metric has that
concept. The peers' names stay as documented aliases meaning the same: ROUGE's ``use_aggregator=False``
(``sentence_level=True``) and ``tokenizer`` (``tokenize``), TER's ``case_sensitive`` (``not lowercase``),
NIST's ``n`` (``max_order``); on results, CIDEr's and METEOR's ``scores`` and COCO's ``per_item``
(``sentence_scores``). Given under both names, the values must agree.

>>> aliased("max_order", None, "n", 4, default=5)
4
>>> aliased("lowercase", True, "case_sensitive", True, default=False, inverse=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ngrameval.errors.InputError: case_sensitive=True contradicts lowercase=True (case_sensitive is another name for not ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Union

import numpy as np

from ngrameval.engine.inputs import check_flag
from ngrameval.errors import InputError

# What the public metric functions take (see :mod:`ngrameval.engine.inputs` for the shapes): per
# prediction a string, a token list or an array of token ids; per prediction one reference or a list of them.
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
    """The value of option ``name``, given as ``value`` or under its alias (``None``: not given; with
    ``inverse``, the alias is a flag meaning ``not name``), else ``default``. Both given, they must agree.

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
    """What every result says, whatever its metric: ``score``, the headline number as a float;
    ``signature``, the reproducibility string; ``scale``, the number a score of perfect agreement would
    scale to (1: the scores are fractions, as every ngrameval result gives them, sacrebleu's 0-100 numbers
    divided by 100; NIST and CIDEr are unbounded, on their tools' own scale); ``sentence_scores``, the
    per-segment results when asked for (``sentence_level=True``), else None."""

    scale: ClassVar[int] = 1
    # The attribute holding the headline number (a subclass with no single one overrides ``score``).
    headline: ClassVar[str] = ""

    @property
    def score(self) -> float:
        value = getattr(self, self.headline)
        return float(value[0] if isinstance(value, list) else value)
