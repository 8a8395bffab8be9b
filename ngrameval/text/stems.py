"""Stems computed once per word, across calls and processes: a word -> stem table kept in memory and in a
file in the user's cache (the directory METEOR 1.5's paraphrase index uses:
:func:`ngrameval.metrics.meteor15.paraphrase.default_cache_dir`, i.e. ``$XDG_CACHE_HOME/ngrameval``).

NLTK's Porter stemmer is pure Python, about 30 microseconds a word: on a corpus of ten thousand distinct
words it is a large part of a ROUGE call. A stemmer is a pure function of the word, so its stems can be
kept; the file is keyed by the stemmer's identity (for Porter: NLTK's version and the stemmer's mode),
so that another NLTK release or mode starts a table of its own.

The file (``stems/<identity>.txt``): a header line (format version, identity, entry count and a BLAKE2b
digest of the rest), then the words and then their stems, one a line. A file that does not parse, has
another identity or does not match its digest is ignored, and replaced at the next save. Saving merges
the entries on disk (other processes may have added some) with the new ones, writes a temporary file
in the same directory and renames it into place: a reader sees the old table or the new one, never a
partial file; of two processes saving at once the last rename wins (the other's new words are stemmed
again later). The table keeps at most ``max_entries`` words (the most recently added), in memory and on
disk. A table is saved when its unsaved words reach 2% of the words on disk (and at the first new
word), so that many small calls do not rewrite a large file each time.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from itertools import filterfalse
from importlib import metadata
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Union

FORMAT_VERSION = 1
MAGIC = "ngrameval-stem-table"
# About 16 MB of file for words of ~7 letters; a table never holds more, in memory or on disk.
MAX_ENTRIES = 1 << 20
# A file larger than this is not read (bounded work on a corrupt or foreign file).
MAX_FILE_BYTES = 64 << 20
# Save once the unsaved words reach this fraction of the words on disk.
SAVE_FRACTION = 0.02
PORTER_MODE = "NLTK_EXTENSIONS"    # NLTK's default mode, the one rouge-score's PorterStemmer() uses

PathLike = Union[str, Path]


def _digest(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


def encode_table(identity: str, stems: Dict[str, str]) -> bytes:
    """The file's bytes for ``stems`` (words and stems must not contain a newline).

    >>> encode_table("toy", {"cats": "cat"}).split(b"\\n")[1:]
    [b'cats', b'cat']
    """
    body = ("\n".join(stems) + "\n" + "\n".join(stems.values())).encode("utf-8")
    return f"{MAGIC}\t{FORMAT_VERSION}\t{identity}\t{len(stems)}\t{_digest(body)}\n".encode("utf-8") + body


def decode_table(identity: str, data: bytes) -> Optional[Dict[str, str]]:
    """The table in ``data``, or None when it is not a whole table of this identity and format.

    >>> data = encode_table("toy", {"cats": "cat", "running": "run"})
    >>> decode_table("toy", data), decode_table("other", data), decode_table("toy", data[:-1])
    ({'cats': 'cat', 'running': 'run'}, None, None)
    """
    header, newline, body = data.partition(b"\n")
    try:
        magic, version, file_identity, count, digest = header.decode("utf-8").split("\t")
        if (magic, version, file_identity) != (MAGIC, str(FORMAT_VERSION), identity) or not newline \
                or digest != _digest(body):
            return None
        count = int(count)
        lines = body.decode("utf-8").split("\n")
    except ValueError:     # a header of other fields, a count that is no number, bytes that are not UTF-8
        return None
    if count < 1 or len(lines) != 2 * count:
        return None
    return dict(zip(lines[:count], lines[count:]))


class StemTable:
    """word -> stem of one stemmer, kept in memory and in ``directory`` (None: in memory only).

    ``stemmer`` makes the stemming function when a word is first missing (so a table whose words are
    all known never imports the stemmer); ``identity`` names the stemmer exactly (its file's name).

    >>> import tempfile; folder = tempfile.mkdtemp()
    >>> table = StemTable("upper", lambda: str.upper, folder)
    >>> table(["cat", "dog"]), sorted(p.name for p in Path(folder, "stems").iterdir())
    (['CAT', 'DOG'], ['upper.txt'])
    >>> StemTable("upper", lambda: None, folder)(["dog"])     # another process: read from the file
    ['DOG']
    """

    def __init__(self, identity: str, stemmer: Callable[[], Callable[[str], str]],
                 directory: Optional[PathLike] = None, max_entries: int = MAX_ENTRIES) -> None:
        if not identity or any(c in identity for c in "/\\\t\n\0") or identity.startswith("."):
            raise ValueError(f"a stem table's identity must be a plain file name, got {identity!r}")
        self.identity = identity
        self.path = None if directory is None else Path(directory) / "stems" / f"{identity}.txt"
        self.max_entries = max_entries
        self._make_stemmer = stemmer
        self._stem: Optional[Callable[[str], str]] = None
        self._stems: Dict[str, str] = {}
        self._loaded = False
        self._on_disk = 0        # entries in the file when last read or written
        self._unsaved = 0        # words stemmed here since then
        self._lock = threading.Lock()

    def __call__(self, words: Sequence[str]) -> List[str]:
        """The stems of ``words``, in order; each missing word is stemmed once and kept."""
        with self._lock:
            if not self._loaded:
                self._load()
            known = self._stems
            missing = list(filterfalse(known.__contains__, dict.fromkeys(words)))
            if missing:
                if self._stem is None:
                    self._stem = self._make_stemmer()
                new = dict(zip(missing, map(self._stem, missing)))
                result = list(map(new.get, words, map(known.get, words)))
                self._add(new)
                return result
            return list(map(known.__getitem__, words))

    def __len__(self) -> int:
        return len(self._stems)

    def _add(self, new: Dict[str, str]) -> None:
        self._stems.update(new)
        self._trim()
        if self.path is None:
            return
        self._unsaved += sum(1 for word, stem in new.items() if "\n" not in word and "\n" not in stem)
        if self._unsaved and self._unsaved >= SAVE_FRACTION * self._on_disk:
            self._save()

    def _trim(self) -> None:
        """Keep the ``max_entries`` most recently added words."""
        if len(self._stems) > self.max_entries:
            items = list(self._stems.items())
            self._stems = dict(items[len(items) - self.max_entries:])

    def _read(self) -> Optional[Dict[str, str]]:
        try:
            if self.path.stat().st_size > MAX_FILE_BYTES:
                return None
            return decode_table(self.identity, self.path.read_bytes())
        except OSError:           # no file yet, or one that cannot be read: as no table
            return None

    def _load(self) -> None:
        self._loaded = True
        if self.path is None:
            return
        stored = self._read() or {}
        self._on_disk = len(stored)
        stored.update(self._stems)
        self._stems = stored
        self._trim()

    def _save(self) -> None:
        """Merge with the file's current entries, write a temporary file and rename it into place. A
        directory that cannot be written leaves the table in memory (the stems are the same)."""
        merged = self._read() or {}
        merged.update(self._stems)
        self._stems = merged
        self._trim()
        kept = {word: stem for word, stem in self._stems.items() if "\n" not in word and "\n" not in stem}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, scratch = tempfile.mkstemp(prefix=".writing-", dir=self.path.parent)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(encode_table(self.identity, kept))
                os.replace(scratch, self.path)          # atomic: readers see the old file or the new one
            finally:
                if os.path.exists(scratch):
                    os.unlink(scratch)
        except OSError:
            return
        self._on_disk, self._unsaved = len(kept), 0


def porter_identity() -> str:
    """The identity of NLTK's Porter stemmer in its default mode, from the installed NLTK's version
    (read from its metadata: NLTK itself is imported only when a word has to be stemmed).

    >>> porter_identity().startswith("nltk-") and porter_identity().endswith("-porter-NLTK_EXTENSIONS")
    True
    """
    try:
        version = metadata.version("nltk")
    except metadata.PackageNotFoundError:
        raise ModuleNotFoundError("stemming needs NLTK (its Porter stemmer): pip install nltk") from None
    return f"nltk-{version}-porter-{PORTER_MODE}"


def _porter() -> Callable[[str], str]:
    from nltk.stem import porter

    return porter.PorterStemmer(mode=PORTER_MODE).stem


# The tables of the last few cache directories (tests point the cache at temporary directories).
_PORTER_TABLES: Dict[str, StemTable] = {}
_MAX_TABLES = 4
_PORTER_LOCK = threading.Lock()


def porter_stems(words: Sequence[str], cache_dir: Optional[PathLike] = None) -> List[str]:
    """NLTK's Porter stems (default mode) of ``words``, through the table of ``cache_dir`` (default: the
    user's cache, :func:`ngrameval.metrics.meteor15.paraphrase.default_cache_dir`, looked up at each call so
    that ``XDG_CACHE_HOME`` can point it elsewhere).

    >>> import tempfile
    >>> porter_stems(["running", "cats", "generously"], tempfile.mkdtemp())
    ['run', 'cat', 'gener']
    """
    if cache_dir is None:
        from ngrameval.metrics.meteor15.paraphrase import default_cache_dir

        cache_dir = default_cache_dir()
    key = str(cache_dir)
    with _PORTER_LOCK:
        table = _PORTER_TABLES.get(key)
        if table is None:
            if len(_PORTER_TABLES) >= _MAX_TABLES:
                del _PORTER_TABLES[next(iter(_PORTER_TABLES))]
            table = _PORTER_TABLES[key] = StemTable(porter_identity(), _porter, cache_dir)
    return table(words)
