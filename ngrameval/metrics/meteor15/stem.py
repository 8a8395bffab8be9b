"""The jar's English stemmer (``org.tartarus.snowball.ext.englishStemmer``): the pure-Python
``snowballstemmer`` 2.x class (the same stem for each of 564,577 words checked against the jar). Snowball 3
changed the English rules, so ``snowballstemmer`` 3 and PyStemmer (which ``snowballstemmer.stemmer()`` hands
the work to) give other stems: hence the class imported directly, and a clear error on version 3.
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
