"""The jar's English stemmer (``org.tartarus.snowball.ext.englishStemmer``) from PyPI.

The jar's Snowball English stemmer is the one the pure-Python ``snowballstemmer`` 2.x generates
(the same stem for each of 564,577 words checked against the jar: every word of its synonym and
paraphrase vocabularies and of the WMT test sets, in both cases). Snowball 3 changed the English
rules (``-ogist``, ``added`` / ``ebbing``, ``organ-``, ``univers-`` and other prefixes), so
``snowballstemmer`` 3 and PyStemmer 3 give other stems; and ``snowballstemmer.stemmer()``
hands the work to PyStemmer when it is installed. Hence the pure-Python class, imported
directly, and a clear error on version 3.
"""

from __future__ import annotations

from importlib import metadata

from ngrameval.errors import InputError


def english_stemmer():
    """The stemmer object (``stemWord`` / ``stemWords``).

    >>> english_stemmer().stemWords(["running", "added", "organization", "Hopefully"])
    ['run', 'ad', 'organ', 'Hope']
    """
    try:
        version = metadata.version("snowballstemmer")
        from snowballstemmer.english_stemmer import EnglishStemmer
    except (metadata.PackageNotFoundError, ImportError):
        raise InputError(
            "METEOR's stem module needs snowballstemmer 2.2 (pip install snowballstemmer==2.2.0)"
        ) from None
    if int(version.split(".")[0]) >= 3:
        raise InputError(
            f"METEOR's stem module needs snowballstemmer 2.x (the jar's Snowball English rules); "
            f"snowballstemmer {version} has Snowball 3's rules, which stem some words differently: "
            "pip install snowballstemmer==2.2.0"
        )
    return EnglishStemmer()
