"""The error every check of input raises: :class:`InputError`.

Bad input -- predictions and references of the wrong shape, an unknown or out-of-range option, a file that
cannot be read, a damaged board -- raises :class:`InputError`, a ``ValueError`` (``except ValueError`` catches
it) whose message names the problem. The command line and the Spaces show an ``InputError`` as one line (the
command line exits with status 2); any other exception, a ``ValueError`` from NumPy included, is a bug in
ngrameval and is shown as one, with its traceback.

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
