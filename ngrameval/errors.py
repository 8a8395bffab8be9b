"""The error every check of input raises: :class:`InputError`, a ``ValueError`` naming the problem. The command
line and the Spaces show it as one line; any other exception is a bug, shown with its traceback.

>>> import ngrameval
>>> try:
...     ngrameval.bleu(["a cat"], [["a cat"]], smooth="bogus")
... except InputError as error:
...     print(isinstance(error, ValueError), error)
True unknown smooth for variant 'sacrebleu' 'bogus'; valid values: 'none', 'floor', 'add-k', 'exp'
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input or options, named in the message: what a user fixes, not a bug."""
