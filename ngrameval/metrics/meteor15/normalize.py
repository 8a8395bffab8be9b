"""Text preparation as the METEOR 1.5 jar does it for English (``-norm``, ``-norm -noPunct``, ``-lower`` or
none), then its word split. ``-norm`` is a port of the jar's ``Normalizer.normalizeLine`` and Java's
``String.toLowerCase``, its regular expressions with the character classes Java gives them (``\\p{Digit}``
is ``[0-9]``, ``\\p{Lower}`` is ``[a-z]``, ``\\s`` is ASCII only); ``String.trim`` removes U+0000..U+0020.
"""

from __future__ import annotations

import re

from ngrameval.metrics.meteor15.resources import java_tokens

NORMALIZATIONS = ("norm", "norm_nopunct", "lower", "none")

_ALPHA = (
    "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e\u0400-\u04ff"
    "\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
)
_ALNUM = "0-9" + _ALPHA

_SEPARATE_OTHER = re.compile(f"([^{_ALNUM} \\t\\n\\x0b\\f\\r.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.([.]+)")
_MULTI_DOT_NEXT = re.compile(r"DOTMULTI\.([^.])")
_COMMAS = (re.compile(r"([^0-9]),([^0-9])"), re.compile(r"([0-9]),([^0-9])"), re.compile(r"([^0-9]),([0-9])"))
_SINGLE_QUOTES = re.compile("([`\u2018\u2019])")
_DOUBLE_QUOTES = re.compile("([\u201c\u201d]|'')")
_INNER_DASH = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
# English contractions: the replacement "\1 ' \2" for the first three, "\1 '\2" for the last two.
_APOSTROPHE_APART = (
    re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])"),
    re.compile(f"([^{_ALPHA}0-9])'([{_ALPHA}])"),
    re.compile(f"([{_ALPHA}])'([^{_ALPHA}])"),
)
_APOSTROPHE_ATTACHED = (re.compile(f"([{_ALPHA}])'([{_ALPHA}])"), re.compile(r"([0-9])'(s)"))
_LETTER = re.compile(f"[{_ALPHA}]")
_PUNCTUATION = re.compile(f"[^{_ALNUM}]")
_WHITE = re.compile("[ \u2000-\u200a\u202f\u205f\u3000\u00a0]+")
_JAVA_TRIM = "".join(map(chr, range(0x21)))


def java_trim(text: str) -> str:
    """``String.trim()``: strip the characters U+0000..U+0020 (not other Unicode spaces).

    >>> java_trim("\\x00 a b\\u00a0 ")
    'a b\\xa0'
    """
    return text.strip(_JAVA_TRIM)


def normalize_line(text: str, nonbreaking: dict[str, int], keep_punctuation: bool = True) -> str:
    """The jar's ``Normalizer.normalizeLine`` for English (before lowercasing).

    >>> normalize_line("He said: \\"it's 1,000.50 dollars\\"... Mr. Smith's U.S.-based co-op.", {"Mr": 1})
    'He said : " it \\'s 1,000.50 dollars " ... Mr. Smith \\'s US based co op .'
    """
    text = _MULTI_DOT.sub(r" DOTMULTI\1", _SEPARATE_OTHER.sub(r" \1 ", " " + text + " "))
    while "DOTMULTI." in text:
        text = _MULTI_DOT_NEXT.sub(r"DOTDOTMULTI \1", text).replace("DOTMULTI.", "DOTDOTMULTI")
    for comma in _COMMAS:
        text = comma.sub(r"\1 , \2", text)
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub(' " ', text).replace("\u2013", "-").replace("--", "-")
    text = _INNER_DASH.sub(r"\1 \2", text)
    for apostrophe in _APOSTROPHE_APART:
        text = apostrophe.sub(r"\1 ' \2", text)
    for apostrophe in _APOSTROPHE_ATTACHED:
        text = apostrophe.sub(r"\1 '\2", text)
    words = java_tokens(text)
    pieces: list[str] = []
    for j, word in enumerate(words):
        if len(word) > 1 and word.endswith("."):
            prefix = word[:-1]
            kind = nonbreaking.get(prefix)
            following = words[j + 1] if j + 1 < len(words) else None
            if "." in prefix and _LETTER.search(prefix):
                pieces.append(word.replace(".", ""))  # an abbreviation with inner periods: U.S. -> US
            elif kind == 1 or (following is not None and "a" <= following[0] <= "z"):
                pieces.append(word)
            elif kind == 2 and following is not None and "0" <= following[0] <= "9":
                pieces.append(word)
            else:
                pieces.append(prefix + " .")
        else:
            pieces.append(word)
    text = "".join(piece + " " for piece in pieces)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    if not keep_punctuation:
        text = _PUNCTUATION.sub(" ", text)
    return java_trim(_WHITE.sub(" ", text))


def prepare(text: str, normalization: str, nonbreaking: dict[str, int]) -> list[str]:
    """The words the jar aligns for one stdio segment (trimmed as its stdio reader does, then
    normalized and lowercased as ``normalization`` says, then split as ``StringTokenizer``).

    >>> prepare("  The cat's hat. ", "norm", {})
    ['the', 'cat', "'s", 'hat', '.']
    >>> prepare("The cat's hat.", "none", {})
    ['The', "cat's", 'hat.']
    """
    text = java_trim(text)
    if normalization in ("norm", "norm_nopunct"):
        text = normalize_line(text, nonbreaking, keep_punctuation=normalization == "norm")
    if normalization != "none":
        text = text.lower()
    return java_tokens(text)
