"""The METEOR 1.5 jar's English data, read from the jar pycocoevalcap 1.2 installs (``meteor/meteor-1.5.jar``;
nothing is copied into this package): function words, WordNet-derived synonyms and the normalizer's
non-breaking prefixes, parsed as the jar parses them (Java's ``readLine`` lines, ``StringTokenizer`` words); and the jar's English
stemmer (``org.tartarus.snowball.ext.englishStemmer``).
"""

from __future__ import annotations

import functools
import re
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Union

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.errors import InputError
from ngrameval.installed import shipped_path

PathLike = Union[str, Path]

JAR_NAME = "meteor-1.5.jar"
PARAPHRASE_NAME = "paraphrase-en.gz"

# java.util.StringTokenizer's default delimiters.
_TOKENIZER_SPLIT = re.compile(r"[ \t\n\r\f]+")
# java.io.BufferedReader.readLine's line ends.
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def java_tokens(text: str) -> list[str]:
    """Words as ``new StringTokenizer(text)`` gives them (split at space, tab, LF, CR, FF only).

    >>> java_tokens(" a\\tb\\u00a0c \\x0bd ")
    ['a', 'b\\xa0c', '\\x0bd']
    """
    return [word for word in _TOKENIZER_SPLIT.split(text) if word]


def java_lines(text: str) -> list[str]:
    """Lines as a loop of ``BufferedReader.readLine`` returns them (no empty line after a final line end).

    >>> java_lines("a\\r\\nb\\rc\\n")
    ['a', 'b', 'c']
    """
    lines = _LINE_ENDS.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def pycocoevalcap_meteor_dir() -> Path | None:
    """``<pycocoevalcap>/meteor`` of the installed pycocoevalcap (a namespace package), or None."""
    jar = shipped_path("pycocoevalcap", f"meteor/{JAR_NAME}")
    return None if jar is None else jar.parent


def find_jar(jar: PathLike | None = None) -> Path:
    """The METEOR 1.5 jar: ``jar`` when given, else the one pycocoevalcap installs."""
    if jar is not None:
        path = Path(jar)
        if not path.is_file():
            raise InputError(f"METEOR jar not found: {path}")
        return path
    directory = pycocoevalcap_meteor_dir()
    if directory is None:
        raise InputError(
            "METEOR 1.5 needs the data in meteor-1.5.jar, which pycocoevalcap 1.2 installs: install "
            "ngrameval with its 'meteor' extra from its wheel or a checkout (pip install "
            "'ngrameval-<version>-py3-none-any.whl[meteor]', or pip install -e '.[meteor]' in the "
            "repository), or pip install pycocoevalcap==1.2; or pass jar=<path to meteor-1.5.jar>"
        )
    return directory / JAR_NAME


def default_paraphrase_table() -> Path | None:
    """``<pycocoevalcap>/meteor/data/paraphrase-en.gz`` (the jar's default) when it is installed, else None."""
    directory = pycocoevalcap_meteor_dir()
    if directory is None:
        return None
    path = directory / "data" / PARAPHRASE_NAME
    return path if path.is_file() else None


@cleared_with_caches
@functools.lru_cache(maxsize=8)
def _read_member(jar: Path, member: str) -> str:
    with zipfile.ZipFile(jar) as archive:
        try:
            data = archive.read(member)
        except KeyError:
            raise InputError(f"{jar} has no {member}: is it the METEOR 1.5 jar?") from None
    # The jar decodes with UTF-8 (its synonym list with the platform charset, but that file is ASCII).
    return data.decode("utf-8", errors="replace")


def function_words(jar: Path) -> frozenset[str]:
    """``function/english.words``: one word a line, compared with the lowercased word."""
    return frozenset(java_lines(_read_member(jar, "function/english.words")))


def nonbreaking_prefixes(jar: Path) -> dict[str, int]:
    """``nonbreaking/english.prefixes`` as the normalizer reads it: prefix -> 1 (any following word)
    or 2 (``#NUMERIC_ONLY#``: only before a number); lines starting with ``#`` skipped.

    >>> prefixes = nonbreaking_prefixes(find_jar())
    >>> prefixes["Mr"], prefixes["No"]
    (1, 2)
    """
    table: dict[str, int] = {}
    for line in java_lines(_read_member(jar, "nonbreaking/english.prefixes")):
        words = java_tokens(line)
        if not words or words[0].startswith("#"):
            continue
        table[words[0]] = 2 if len(words) > 1 and words[1] == "#NUMERIC_ONLY#" else 1
    return table


class SynonymDictionary:
    """The jar's ``SynonymDictionary``: WordNet synsets of a word, of its base forms (the exception
    list) or, for other words, of the first base form that simple suffix rules find.

    >>> synonyms = SynonymDictionary.load(find_jar())
    >>> bool(synonyms.synsets("car") & synonyms.synsets("automobile"))
    True
    >>> synonyms.synsets("geese") == synonyms.synsets("goose") | synonyms.synsets("geese")
    True
    """

    # The jar's suffix rules (morph): a word ending in SUFFIXES[i] becomes its stem + ADDITIONS[i]
    # when that is a WordNet word; the first such rule wins.
    SUFFIXES = tuple("s ses xes zes ches shes men ies s ies es es ed ed ing ing er est er est".split())
    ADDITIONS = ("", "s", "x", "z", "ch", "sh", "man", "y", "", "y", "e", "", "e", "", "e", "", "", "", "e", "e")

    def __init__(self, bases: dict[str, tuple[str, ...]], synset_lines: dict[str, str]):
        self._bases = bases
        self._synset_lines = synset_lines
        self._cache: dict[str, frozenset[int]] = {}

    @staticmethod
    @cleared_with_caches
    @functools.lru_cache(maxsize=2)
    def load(jar: Path) -> SynonymDictionary:
        """Read ``synonym/english.exceptions`` (a base form, then a line of its irregular forms) and
        ``synonym/english.synsets`` (a word, then a line of synset ids; a later entry replaces an
        earlier one) from the jar."""
        exception_lines = java_lines(_read_member(jar, "synonym/english.exceptions"))
        bases: dict[str, list[str]] = {}
        for base, forms in zip(exception_lines[0::2], exception_lines[1::2]):
            for form in java_tokens(forms):
                bases.setdefault(form, []).append(base)
        synset_lines = java_lines(_read_member(jar, "synonym/english.synsets"))
        return SynonymDictionary(
            {form: tuple(found) for form, found in bases.items()}, dict(zip(synset_lines[0::2], synset_lines[1::2]))
        )

    @property
    def words(self) -> list[str]:
        """The words that have synsets, in file order."""
        return list(self._synset_lines)

    def _direct(self, word: str) -> frozenset[int]:
        line = self._synset_lines.get(word)
        return frozenset(map(int, java_tokens(line))) if line is not None else frozenset()

    def _morph(self, word: str) -> str:
        # As the jar: "-ful" is noted but not removed (its substring call is discarded), and the
        # suffix is appended again to whatever base form is found. Lengths are UTF-16 lengths.
        tail = "ful" if word.endswith("ful") else ""
        if word.endswith("ss") or len(word.encode("utf-16-le")) <= 4:
            return word
        for suffix, addition in zip(self.SUFFIXES, self.ADDITIONS):
            if word.endswith(suffix):
                candidate = word[: len(word) - len(suffix)] + addition
                if candidate in self._synset_lines:
                    return candidate + tail
        return ""

    def synsets(self, word: str) -> frozenset[int]:
        """The synset ids the jar's SynonymMatcher compares: those of the word itself and of its
        base forms (``getSynSets(word) | getStemSynSets(word)``)."""
        found = self._cache.get(word)
        if found is None:
            forms = self._bases.get(word)
            if forms is not None:
                stem_sets = frozenset().union(*(self._direct(base) for base in forms))
            else:
                stem_sets = self._direct(self._morph(word))
            found = self._cache[word] = self._direct(word) | stem_sets
        return found


def english_stemmer():
    """The pure-Python ``snowballstemmer`` 2.x English class (the same stem as the jar for each of 564,577 words
    checked). Snowball 3 changed the English rules, so ``snowballstemmer`` 3 and PyStemmer (which
    ``snowballstemmer.stemmer()`` hands the work to) give other stems: hence the class imported directly.

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


# Text preparation as the jar does it for English (-norm, -norm -noPunct, -lower or none), then its word split.
# -norm ports Normalizer.normalizeLine and String.toLowerCase, with the character classes Java gives its
# regular expressions (\\p{Digit} is [0-9], \\p{Lower} is [a-z], \\s is ASCII only).
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
            following = words[j + 1][0] if j + 1 < len(words) else ""  # the next word's first character
            if "." in prefix and _LETTER.search(prefix):
                pieces.append(word.replace(".", ""))  # an abbreviation with inner periods: U.S. -> US
            elif kind == 1 or "a" <= following <= "z" or (kind == 2 and "0" <= following <= "9"):
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
