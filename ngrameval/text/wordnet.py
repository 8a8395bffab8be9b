"""A small offline reader of the WordNet 3.0 database files, as NLTK's ``WordNetCorpusReader`` reads them.

It answers the one question NLTK's METEOR asks WordNet -- which synsets does
``wordnet.synsets(word)`` return, and what are the names of their lemmas -- from
the files of WordNet's ``dict`` directory (``index.*``, ``data.*``, ``*.exc``),
e.g. Debian's ``wordnet-base`` package (``/usr/share/wordnet``). Nothing is
downloaded. Files are read on first use, one part of speech at a time:

- ``index.<pos>`` becomes a dict from lemma to its index line (parsed when asked for);
- ``<pos>.exc`` becomes morphy's exception map (inflected form -> base forms);
- ``data.<pos>`` is memory-mapped; a synset's line is read at its byte offset when
  needed and its lemma names are kept.

What NLTK 3.10 does, and this module therefore does:

- ``synsets(word)`` lowercases ``word``; then for each part of speech in the order
  noun, verb, adjective, adverb, each base form ``_morphy`` finds, each synset
  offset of the index line of that form, in file order.
- ``_morphy(form, pos)``: if ``form`` is in the exception list of ``pos``, the
  candidates are ``form`` and its listed base forms; otherwise ``form`` and the
  results of applying every detachment rule of ``pos`` once. The candidates found
  in ``index.<pos>`` are kept, without repeats, in that order. Adjective
  satellites (``"s"``) use the adjective rules, exceptions and index (keeping
  only satellite synsets); ``synsets`` without a part of speech finds satellites
  through ``"a"``, as NLTK's does.
- a lemma's name is the word of the data line with an adjective's syntactic
  marker (``(a)``, ``(p)``, ``(ip)``) removed; case and underscores are kept.
"""

from __future__ import annotations

import mmap
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Union

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.errors import InputError

PathLike = Union[str, "os.PathLike[str]"]

NOUN, VERB, ADJ, ADJ_SAT, ADV = "n", "v", "a", "s", "r"
POS_ORDER = (NOUN, VERB, ADJ, ADV)  # the order in which NLTK's synsets() goes through the parts of speech
_FILE_NAMES = {NOUN: "noun", VERB: "verb", ADJ: "adj", ADV: "adv"}
REQUIRED_FILES = tuple(f"{kind}.{name}" for kind in ("index", "data") for name in _FILE_NAMES.values()) + tuple(
    f"{name}.exc" for name in _FILE_NAMES.values()
)

# Morphy's detachment rules (suffix, replacement), in the order NLTK applies them.
DETACHMENT_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    NOUN: (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    VERB: (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    ADJ: (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    ADV: (),
}
DETACHMENT_RULES[ADJ_SAT] = DETACHMENT_RULES[ADJ]

_VERSION = re.compile(r"Word[nN]et (\d+\+?|\d+\.\d+) Copyright")
ENVIRONMENT_VARIABLE = "NGRAMEVAL_WORDNET"
INSTALL_HINT = (
    "Install WordNet 3.0 with `apt-get install wordnet-base` "
    "(Debian, Ubuntu: files in /usr/share/wordnet), "
    f"or set {ENVIRONMENT_VARIABLE} (or pass path=) to a directory holding WordNet 3.0's database files "
    f"({', '.join(REQUIRED_FILES)}), e.g. the dict/ directory of WordNet-3.0.tar.gz or an unpacked "
    "nltk_data/corpora/wordnet. Nothing is downloaded."
)


class WordNetNotFoundError(FileNotFoundError):
    """The WordNet database files are not where they were looked for; the message says how to install them."""


def _default_directories() -> Iterator[Path]:
    """Where WordNet usually lives, after the explicit settings: WordNet's own variables, Debian's
    package, WordNet's default install, and the data directories NLTK searches."""
    if os.environ.get("WNSEARCHDIR"):
        yield Path(os.environ["WNSEARCHDIR"])
    if os.environ.get("WNHOME"):
        yield Path(os.environ["WNHOME"]) / "dict"
    yield Path("/usr/share/wordnet")
    yield Path("/usr/local/WordNet-3.0/dict")
    yield Path("/usr/share/WordNet-3.0/dict")
    nltk_data = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    nltk_data += [
        Path.home() / "nltk_data",
        Path(sys.prefix) / "nltk_data",
        Path(sys.prefix) / "share" / "nltk_data",
        Path(sys.prefix) / "lib" / "nltk_data",
        Path("/usr/share/nltk_data"),
        Path("/usr/local/share/nltk_data"),
        Path("/usr/lib/nltk_data"),
        Path("/usr/local/lib/nltk_data"),
    ]
    for root in nltk_data:
        yield root / "corpora" / "wordnet"


def _missing_files(directory: Path) -> list[str]:
    return [name for name in REQUIRED_FILES if not (directory / name).is_file()]


def find_wordnet(path: PathLike | None = None) -> Path:
    """The directory of the WordNet database files: ``path`` if given, else ``$NGRAMEVAL_WORDNET``
    if set (either must hold the files), else the first usual place that does (``$WNSEARCHDIR``,
    ``$WNHOME/dict``, ``/usr/share/wordnet``, ``/usr/local/WordNet-3.0/dict``, ``nltk_data/corpora/wordnet``).

    >>> find_wordnet().joinpath("index.noun").is_file()
    True
    """
    explicit = [(Path(path), "path")] if path is not None else []
    if not explicit and os.environ.get(ENVIRONMENT_VARIABLE):
        explicit = [(Path(os.environ[ENVIRONMENT_VARIABLE]), f"${ENVIRONMENT_VARIABLE}")]
    if explicit:
        directory, source = explicit[0]
        missing = _missing_files(directory)
        if missing:
            raise WordNetNotFoundError(
                f"WordNet database files missing in {directory} (given by {source}): "
                f"{', '.join(missing)}. {INSTALL_HINT}"
            )
        return directory
    looked = []
    for directory in _default_directories():
        if not _missing_files(directory):
            return directory
        looked.append(str(directory))
    raise WordNetNotFoundError(f"WordNet database files not found (looked in {', '.join(looked)}). {INSTALL_HINT}")


def lemma_name(word: str) -> str:
    """A data file's word as NLTK names the lemma: without an adjective's trailing syntactic marker,
    a parenthesised suffix with no parenthesis inside.

    >>> lemma_name("galore(ip)"), lemma_name("Hawaiian(a)"), lemma_name("dog")
    ('galore', 'Hawaiian', 'dog')
    """
    if word.endswith(")"):
        start = word.rfind("(")
        if start >= 0 and ")" not in word[start + 1 : -1]:
            return word[:start]
    return word


class WordNet:
    """WordNet's database files in ``directory`` (see :func:`find_wordnet` for where it looks when
    ``path`` is None), read lazily. Answers are cached per word.

    >>> wn = WordNet()
    >>> wn.version
    '3.0'
    >>> wn.morphy("churches", "n")
    ['church']
    >>> wn.synsets("dogs")[:2]
    [('n', 2084071), ('n', 10114209)]
    >>> sorted(wn.lemma_names("dogs"))[:4]
    ['Canis_familiaris', 'andiron', 'blackguard', 'bounder']
    """

    def __init__(self, path: PathLike | None = None) -> None:
        self.directory = find_wordnet(path)
        self._lock = threading.Lock()
        self._index: dict[str, dict[str, str]] = {}
        self._exceptions: dict[str, dict[str, list[str]]] = {}
        self._data: dict[str, mmap.mmap] = {}
        self._synsets: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
        self._lemma_names: dict[str, frozenset[str]] = {}

    def __repr__(self) -> str:
        return f"WordNet({str(self.directory)!r})"

    # ------------------------------------------------------------------ files, read on first use

    def _read(self, name: str) -> str:
        return (self.directory / name).read_bytes().decode("utf-8")

    def _loaded(self, table: dict[str, Any], pos: str, load: Callable[[], Any]) -> Any:
        """``table[pos]``, loaded on first use (by one thread: the others wait for it)."""
        value = table.get(pos)
        if value is None:
            with self._lock:
                value = table.get(pos)
                if value is None:
                    value = table[pos] = load()
        return value

    def _index_of(self, pos: str) -> dict[str, str]:
        """lemma -> the rest of its line in ``index.<pos>`` (the license lines start with spaces)."""
        pos = ADJ if pos == ADJ_SAT else pos
        return self._loaded(
            self._index,
            pos,
            lambda: dict(
                line.split(" ", 1)
                for line in self._read(f"index.{_FILE_NAMES[pos]}").splitlines()
                if line and line[0] != " "
            ),
        )

    def _exceptions_of(self, pos: str) -> dict[str, list[str]]:
        """``<pos>.exc``: inflected form -> base forms (a later line for the same form wins, as in NLTK)."""
        pos = ADJ if pos == ADJ_SAT else pos
        return self._loaded(
            self._exceptions,
            pos,
            lambda: {
                terms[0]: terms[1:]
                for terms in map(str.split, self._read(f"{_FILE_NAMES[pos]}.exc").splitlines())
                if terms
            },
        )

    def _data_of(self, pos: str) -> mmap.mmap:
        def mapped() -> mmap.mmap:
            with open(self.directory / f"data.{_FILE_NAMES[pos]}", "rb") as handle:
                return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)

        return self._loaded(self._data, pos, mapped)

    @property
    def version(self) -> str | None:
        """The version the license text of ``data.adj`` names ("3.0" for WordNet 3.0), found as NLTK's
        ``get_version`` finds it."""
        data = self._data_of(ADJ)
        header = data[: max(data.find(b"\n0"), 0)].decode("utf-8", "replace")
        match = _VERSION.search(header)
        return match.group(1) if match else None

    # ------------------------------------------------------------------ lookups

    def offsets(self, lemma: str, pos: str) -> list[int]:
        """The synset offsets of ``lemma`` in ``index.<pos>``, in file order (empty if it is not there)."""
        line = self._index_of(pos).get(lemma)
        if line is None:
            return []
        # pos synset_cnt p_cnt [ptr_symbol]*p_cnt sense_cnt tagsense_cnt synset_offset*synset_cnt
        fields = line.split()
        count, pointers = int(fields[1]), int(fields[2])
        start = 5 + pointers
        return [int(offset) for offset in fields[start : start + count]]

    def synset(self, pos: str, offset: int) -> tuple[str, tuple[str, ...]]:
        """(synset type, lemma names) of the synset at ``offset`` in ``data.<pos>``; the type is "s" for an
        adjective satellite."""
        pos = ADJ if pos == ADJ_SAT else pos
        key = (pos, offset)
        entry = self._synsets.get(key)
        if entry is None:
            data = self._data_of(pos)
            end = data.find(b"\n", offset)
            line = data[offset : end if end >= 0 else len(data)].decode("utf-8")
            # synset_offset lex_filenum ss_type w_cnt (2 hex digits) word lex_id [word lex_id]* p_cnt ...
            head = line.split(None, 4)
            if len(head) < 5 or not head[0].isdigit() or int(head[0]) != offset:
                raise InputError(
                    f"{self.directory / ('data.' + _FILE_NAMES[pos])} has no synset at offset {offset}: "
                    "its index and data files do not belong together"
                )
            count = int(head[3], 16)
            words = head[4].split(None, 2 * count)[: 2 * count : 2]
            entry = self._synsets[key] = (
                head[2],
                tuple(lemma_name(word) if word[-1] == ")" else word for word in words),
            )
        return entry

    def morphy(self, form: str, pos: str) -> list[str]:
        """NLTK's ``_morphy(form, pos)``: the base forms of ``form`` in ``index.<pos>`` (``form`` itself first
        if it is there), from the exception list or else from one application of each detachment rule.

        >>> WordNet().morphy("axes", "n"), WordNet().morphy("axes", "v")
        (['ax', 'axis'], ['axe', 'ax'])
        """
        bases = self._exceptions_of(pos).get(form)
        if bases is None:
            candidates = [form] + [
                form[: -len(suffix)] + ending for suffix, ending in DETACHMENT_RULES[pos] if form.endswith(suffix)
            ]
        else:
            candidates = [form] + bases
        index = self._index_of(pos)
        found = [candidate for candidate in candidates if candidate in index]
        return list(dict.fromkeys(found)) if len(found) > 1 else found

    def _offsets_of(self, word: str, parts: Sequence[str]) -> Iterator[tuple[str, int]]:
        """(part of speech, offset) of every synset NLTK's ``synsets(word, pos)`` visits, in its order."""
        word = word.lower()
        for part in parts:
            for form in self.morphy(word, part):
                for offset in self.offsets(form, part):
                    yield part, offset

    def synsets(self, word: str, pos: str | None = None) -> list[tuple[str, int]]:
        """NLTK's ``synsets(word, pos)`` as (synset type, offset) pairs, in NLTK's order. With ``pos=None``
        every part of speech in the order noun, verb, adjective (satellites included), adverb.

        >>> WordNet().synsets("Galore")   # the adjective "galore(ip)": two satellite synsets
        [('s', 1552162), ('s', 14358)]
        """
        found = [
            (self.synset(part, offset)[0], offset)
            for part, offset in self._offsets_of(word, POS_ORDER if pos is None else (pos,))
        ]
        return [entry for entry in found if entry[0] == ADJ_SAT] if pos == ADJ_SAT else found

    def lemma_names(self, word: str) -> frozenset[str]:
        """The names of the lemmas of every synset ``synsets(word)`` returns, case and underscores kept
        (cached per word).

        >>> sorted(WordNet().lemma_names("axes"))
        ['Axis', 'ax', 'axe', 'axis', 'axis_of_rotation', 'axis_vertebra', 'bloc']
        """
        names = self._lemma_names.get(word)
        if names is None:
            names = self._lemma_names[word] = frozenset(
                name for part, offset in self._offsets_of(word, POS_ORDER) for name in self.synset(part, offset)[1]
            )
        return names


def load_wordnet(path: PathLike | None = None) -> WordNet:
    """One shared :class:`WordNet` per directory (``path=None``: the one :func:`find_wordnet` finds), so
    that its files are read and its answers cached once per process.

    >>> load_wordnet() is load_wordnet()
    True
    """
    return _shared_wordnet(find_wordnet(path).resolve())


@cleared_with_caches
@cache
def _shared_wordnet(directory: Path) -> WordNet:
    return WordNet(directory)


def all_index_lemmas(wordnet: WordNet, parts: Sequence[str] = POS_ORDER) -> list[str]:
    """Every lemma of the index files of ``parts``, without repeats (for exhaustive checks).

    >>> "dog" in all_index_lemmas(WordNet(), [NOUN])
    True
    """
    return list(dict.fromkeys(lemma for pos in parts for lemma in wordnet._index_of(pos)))
