"""A small offline reader of WordNet 3.0's database files (``index.*``, ``data.*``, ``*.exc`` of its ``dict``
directory, e.g. Debian's ``wordnet-base``) answering what NLTK's METEOR asks NLTK 3.10's ``WordNetCorpusReader``: the
synsets of ``wordnet.synsets(word)`` and their lemma names. Nothing is downloaded; files are read on first use.

As NLTK: ``synsets(word)`` lowercases ``word`` and goes through noun, verb, adjective, adverb, each base form
``_morphy`` finds (``form`` and its listed base forms if it is in the exception list, else ``form`` and the result of
each detachment rule; those in the index, without repeats), each synset offset of its index line. Adjective
satellites use the adjectives' rules, exceptions and index. A lemma's name is the data line's word without an
adjective's syntactic marker (``(a)``, ``(p)``, ``(ip)``).
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


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8").splitlines()


def _mapped(path: Path) -> mmap.mmap:
    with open(path, "rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


# The files of a part of speech: (name pattern, reader). An index maps a lemma to the rest of its line (the license
# lines start with spaces); an exception list an inflected form to its base forms (a later line wins, as in NLTK).
_FILES: dict[str, tuple[str, Callable[[Path], Any]]] = {
    "index": ("index.{}", lambda path: dict(line.split(" ", 1) for line in _lines(path) if line and line[0] != " ")),
    "data": ("data.{}", _mapped),
    "exc": ("{}.exc", lambda path: {terms[0]: terms[1:] for terms in map(str.split, _lines(path)) if terms}),
}
REQUIRED_FILES = tuple(pattern.format(name) for pattern, _ in _FILES.values() for name in _FILE_NAMES.values())


def _rules(rules: str) -> tuple[tuple[str, str], ...]:
    return tuple((suffix, ending) for suffix, _, ending in (rule.partition(":") for rule in rules.split()))


# Morphy's detachment rules (suffix:replacement), in the order NLTK applies them.
DETACHMENT_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    NOUN: _rules("s: ses:s ves:f xes:x zes:z ches:ch shes:sh men:man ies:y"),
    VERB: _rules("s: ies:y es:e es: ed:e ed: ing:e ing:"),
    ADJ: _rules("er: est: er:e est:e"),
    ADV: (),
}
DETACHMENT_RULES[ADJ_SAT] = DETACHMENT_RULES[ADJ]

_SYNTACTIC_MARKER = re.compile(r"\([^()]*\)$")  # an adjective's "(a)", "(p)", "(ip)"
_VERSION = re.compile(r"Word[nN]et (\d+\+?|\d+\.\d+) Copyright")
ENVIRONMENT_VARIABLE = "NGRAMEVAL_WORDNET"
INSTALL_HINT = (
    "Install WordNet 3.0 with `apt-get install wordnet-base` (Debian, Ubuntu: files in /usr/share/wordnet), "
    f"or set {ENVIRONMENT_VARIABLE} (or pass path=) to a directory holding WordNet 3.0's database files "
    f"({', '.join(REQUIRED_FILES)}), e.g. the dict/ directory of WordNet-3.0.tar.gz or an unpacked "
    "nltk_data/corpora/wordnet. Nothing is downloaded."
)


class WordNetNotFoundError(FileNotFoundError):
    """The WordNet database files are not where they were looked for; the message says how to install them."""


def _default_directories() -> Iterator[Path]:
    """Where WordNet usually lives: WordNet's own variables, Debian's package, WordNet's default install, and
    the data directories NLTK searches."""
    if os.environ.get("WNSEARCHDIR"):
        yield Path(os.environ["WNSEARCHDIR"])
    if os.environ.get("WNHOME"):
        yield Path(os.environ["WNHOME"]) / "dict"
    yield from map(Path, ("/usr/share/wordnet", "/usr/local/WordNet-3.0/dict", "/usr/share/WordNet-3.0/dict"))
    roots: list[str | Path] = [*os.environ.get("NLTK_DATA", "").split(os.pathsep), Path.home() / "nltk_data"]
    roots += [Path(sys.prefix, sub, "nltk_data") for sub in ("", "share", "lib")]
    roots += [f"/usr/{sub}/nltk_data" for sub in ("share", "local/share", "lib", "local/lib")]
    yield from (Path(root) / "corpora" / "wordnet" for root in roots if root)


def _missing_files(directory: Path) -> list[str]:
    return [name for name in REQUIRED_FILES if not (directory / name).is_file()]


def find_wordnet(path: PathLike | None = None) -> Path:
    """The directory of the WordNet database files: ``path`` if given, else ``$NGRAMEVAL_WORDNET``
    if set (either must hold the files), else the first usual place that does (``$WNSEARCHDIR``,
    ``$WNHOME/dict``, ``/usr/share/wordnet``, ``/usr/local/WordNet-3.0/dict``, ``nltk_data/corpora/wordnet``).

    >>> find_wordnet().joinpath("index.noun").is_file()
    True
    """
    source = "path" if path is not None else f"${ENVIRONMENT_VARIABLE}"
    path = path if path is not None else os.environ.get(ENVIRONMENT_VARIABLE) or None
    if path is not None:
        missing = _missing_files(Path(path))
        if missing:
            raise WordNetNotFoundError(
                f"WordNet database files missing in {Path(path)} (given by {source}): "
                f"{', '.join(missing)}. {INSTALL_HINT}"
            )
        return Path(path)
    found = next((directory for directory in _default_directories() if not _missing_files(directory)), None)
    if found is None:
        looked = ", ".join(map(str, _default_directories()))
        raise WordNetNotFoundError(f"WordNet database files not found (looked in {looked}). {INSTALL_HINT}")
    return found


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
        self._files: dict[tuple[str, str], Any] = {}  # ("index" | "exc" | "data", pos) -> the file, as read
        self._synsets: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
        self._lemma_names: dict[str, frozenset[str]] = {}

    def __repr__(self) -> str:
        return f"WordNet({str(self.directory)!r})"

    def _file(self, kind: str, pos: str) -> Any:
        """The ``kind`` file (see ``_FILES``) of ``pos`` (satellites: the adjectives'), read on first use (by one
        thread: the others wait for it)."""
        key = (kind, ADJ if pos == ADJ_SAT else pos)
        value = self._files.get(key)
        if value is None:
            with self._lock:
                value = self._files.get(key)
                if value is None:
                    pattern, read = _FILES[kind]
                    value = self._files[key] = read(self.directory / pattern.format(_FILE_NAMES[key[1]]))
        return value

    @property
    def version(self) -> str | None:
        """The version the license text of ``data.adj`` names ("3.0" for WordNet 3.0), found as NLTK's
        ``get_version`` finds it."""
        data = self._file("data", ADJ)
        header = data[: max(data.find(b"\n0"), 0)].decode("utf-8", "replace")
        match = _VERSION.search(header)
        return match.group(1) if match else None

    def synset(self, pos: str, offset: int) -> tuple[str, tuple[str, ...]]:
        """(synset type, lemma names) of the synset at ``offset`` in ``data.<pos>``; the type is "s" for an
        adjective satellite."""
        pos = ADJ if pos == ADJ_SAT else pos
        key = (pos, offset)
        entry = self._synsets.get(key)
        if entry is None:
            data = self._file("data", pos)
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
                tuple(_SYNTACTIC_MARKER.sub("", word) if word[-1] == ")" else word for word in words),
            )
        return entry

    def morphy(self, form: str, pos: str) -> list[str]:
        """NLTK's ``_morphy(form, pos)``: the base forms of ``form`` in ``index.<pos>`` (``form`` itself first
        if it is there), from the exception list or else from one application of each detachment rule.

        >>> WordNet().morphy("axes", "n"), WordNet().morphy("axes", "v")
        (['ax', 'axis'], ['axe', 'ax'])
        """
        bases = self._file("exc", pos).get(form)
        if bases is None:
            bases = [form[: -len(suffix)] + ending for suffix, ending in DETACHMENT_RULES[pos] if form.endswith(suffix)]
        index = self._file("index", pos)
        found = [candidate for candidate in [form, *bases] if candidate in index]
        return list(dict.fromkeys(found)) if len(found) > 1 else found

    def _offsets_of(self, word: str, parts: Sequence[str]) -> Iterator[tuple[str, int]]:
        """(part of speech, offset) of every synset NLTK's ``synsets(word, pos)`` visits, in its order."""
        word = word.lower()
        for part in parts:
            for form in self.morphy(word, part):
                # pos synset_cnt p_cnt [ptr_symbol]*p_cnt sense_cnt tagsense_cnt synset_offset*synset_cnt
                fields = self._file("index", part)[form].split()
                start = 5 + int(fields[2])
                yield from ((part, int(offset)) for offset in fields[start : start + int(fields[1])])

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
    return list(dict.fromkeys(lemma for pos in parts for lemma in wordnet._file("index", pos)))
