"""METEOR 1.5's paraphrase table (``paraphrase-en.gz``), read through a compact on-disk index.

The table is gzipped text, three lines an entry: a probability (ignored by the jar), a phrase
and its paraphrase, words separated by spaces. The jar loads all 5.3 million entries into a
trie at every start (about 10 CPU seconds and 1 GB). Here the table is parsed once into numpy
arrays kept in a cache directory (``$XDG_CACHE_HOME/ngrameval``, ``~/.cache/ngrameval`` or a
directory the caller gives), which later runs map into memory; only the pages a corpus
touches are read.

The cache is keyed by the table's size, modification time and a hash of its first and last
megabyte (a changed table gets a new index; :func:`cache_key`), and is built in a temporary
directory renamed into place, so a concurrent or interrupted build never leaves a partial index.

Lookups: every phrase (the first line of an entry, the *source*) and paraphrase (the *target*)
is a row of word ids; a 64-bit hash of the row finds it (``np.searchsorted`` on sorted
hashes) and the words are then compared, so a hash collision cannot make a false match.
Entries are grouped by source in file order, which is the order in which the jar's trie emits
them.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional, Tuple, Union

import numpy as np

from ngrameval.engine.ngrams import concatenated_ranges

FORMAT_VERSION = 1
PathLike = Union[str, Path]

_MULTIPLIER = np.uint64(0x100000001B3)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_ARRAYS = ("source_words", "source_length", "source_hash", "source_by_hash", "source_first", "source_count",
           "entry_target", "target_words", "target_length", "target_hash", "target_by_hash")


def _mix(values: np.ndarray) -> np.ndarray:
    """A 64-bit mixing of word ids + 1 (0, the padding, stays 0)."""
    x = values.astype(np.uint64) * _MIX_1
    return (x ^ (x >> np.uint64(31))) * _MIX_2


def row_hashes(rows: np.ndarray) -> np.ndarray:
    """Hash of each row of word ids + 1 (zero-padded on the right): sum of mix(word) * M**position.

    >>> rows = np.array([[3, 5, 0], [3, 5, 0], [5, 3, 0]])
    >>> h = row_hashes(rows); bool(h[0] == h[1]), bool(h[0] == h[2])
    (True, False)
    """
    hashes = np.zeros(len(rows), dtype=np.uint64)
    power = np.uint64(1)
    with np.errstate(over="ignore"):
        for column in range(rows.shape[1]):
            hashes += _mix(rows[:, column]) * power
            power = power * _MULTIPLIER
    return hashes


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/ngrameval``, else ``~/.cache/ngrameval``.

    >>> default_cache_dir().name
    'ngrameval'
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ngrameval"


def cache_key(table: Path) -> str:
    """Identifies a table file: its size, modification time and a hash of its first and last MiB.

    >>> import tempfile; path = Path(tempfile.mkdtemp()) / "t.gz"; _ = path.write_bytes(b"x")
    >>> cache_key(path).startswith("paraphrase-1-")
    True
    """
    status = table.stat()
    digest = hashlib.blake2b(digest_size=8)
    with open(table, "rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, status.st_size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return f"paraphrase-{status.st_size}-{status.st_mtime_ns}-{digest.hexdigest()}-v{FORMAT_VERSION}"


# java.util.StringTokenizer's delimiters, as bytes (UTF-8 never uses them inside a character).
_DELIMITER = np.zeros(256, dtype=bool)
_DELIMITER[[ord(c) for c in " \t\n\r\f"]] = True
_WORD = re.compile(rb"[^ \t\n\r\f]+")


class _Interner:
    """Ids for byte strings in order of first appearance, a list at a time."""

    def __init__(self):
        self.ids: Dict[bytes, int] = {}

    def __call__(self, items: list) -> np.ndarray:
        new = [item for item in dict.fromkeys(items) if item not in self.ids]
        self.ids.update(zip(new, range(len(self.ids), len(self.ids) + len(new))))
        return np.fromiter(map(self.ids.__getitem__, items), dtype=np.int64, count=len(items))


def _entry_chunks(table: Path, size: int = 1 << 22):
    """The table's lines, whole entries (3 lines each) at a time: the gzip stream is inflated in pieces
    and cut at line ends (LF, CR LF or CR, as Java's readLine; no empty line after a final line end)."""
    rest, carried = b"", []
    with gzip.open(table, "rb") as handle:
        while True:
            piece = handle.read(size)
            data = rest + piece
            rest = b""
            if piece and data.endswith(b"\r"):      # a CR LF may be cut in two
                rest, data = data[-1:], data[:-1]
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            lines = data.split(b"\n")
            if piece:
                rest = lines.pop() + rest            # an unfinished line waits for the next piece
            elif lines and lines[-1] == b"":
                lines.pop()
            lines = carried + lines
            whole = len(lines) - len(lines) % 3
            if not piece:
                if whole != len(lines):
                    raise ValueError(f"{table}: the last entry is incomplete (3 lines an entry: probability, "
                                     "phrase, paraphrase)")
                yield lines
                return
            carried = lines[whole:]
            yield lines[:whole]


def _word_rows(phrases: list, words: _Interner, block: int = 400_000) -> Tuple[np.ndarray, np.ndarray]:
    """Phrases -> (rows of word id + 1, zero-padded on the right; number of words), words split as
    StringTokenizer splits them (at space, tab, LF, CR, FF; ``bytes.split`` would also split at VT)."""
    if len(phrases) > block:   # a block at a time: the word lists of all phrases at once take much memory
        parts = [_word_rows(phrases[at:at + block], words, block) for at in range(0, len(phrases), block)]
        width = max(rows.shape[1] for rows, _ in parts)
        return (np.concatenate([np.pad(rows, ((0, 0), (0, width - rows.shape[1]))) for rows, _ in parts]),
                np.concatenate([lengths for _, lengths in parts]))
    blob = b"\n".join(phrases) + b"\n"
    tokens = blob.split() if b"\x0b" not in blob else _WORD.findall(blob)
    ids = words(tokens)
    raw = np.frombuffer(blob, dtype=np.uint8)
    separator = _DELIMITER[raw]
    starts = np.flatnonzero(~separator & np.r_[True, separator[:-1]])
    line = np.searchsorted(np.flatnonzero(raw == 10), starts)
    lengths = np.bincount(line, minlength=len(phrases))
    rows = np.zeros((len(phrases), int(lengths.max(initial=1))), dtype=np.int64)
    rows[line, concatenated_ranges(0, lengths)[0]] = ids + 1     # (line: the owners of these ranges)
    return rows, lengths


def build_index(table: Path, directory: Path) -> None:
    """Parse the gzipped table into the arrays of :class:`ParaphraseTable` under ``directory``.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.gz").write_bytes(gzip.compress(b"0.5\\nbig dog\\nhound\\n"))
    >>> build_index(folder / "t.gz", folder); json.loads((folder / "meta.json").read_text())["entries"]
    1
    """
    sources, targets, words = _Interner(), _Interner(), _Interner()
    source_of_entry, target_of_entry = [], []
    for lines in _entry_chunks(table):
        source_of_entry.append(sources(lines[1::3]))
        target_of_entry.append(targets(lines[2::3]))
    source_of_entry, target_of_entry = np.concatenate(source_of_entry), np.concatenate(target_of_entry)
    source_words, source_length = _word_rows(list(sources.ids), words)
    del sources
    target_words, target_length = _word_rows(list(targets.ids), words)
    del targets
    if (target_length == 0).any():
        raise ValueError(f"{table}: an entry has an empty paraphrase")
    # Lines with the same words (spaced differently) are one phrase, as they are in the jar's trie.
    source_words, source_of_entry = _merge_same_rows(source_words, source_of_entry)
    target_words, target_of_entry = _merge_same_rows(target_words, target_of_entry)
    source_length, target_length = (source_words > 0).sum(axis=1), (target_words > 0).sum(axis=1)
    # Entries grouped by source, in file order within a source (the order the jar's trie emits them).
    order = np.argsort(source_of_entry, kind="stable")
    count = np.bincount(source_of_entry, minlength=len(source_words))
    word_type = np.uint16 if len(words.ids) < np.iinfo(np.uint16).max else np.uint32
    arrays = {
        "source_words": source_words.astype(word_type), "source_length": source_length.astype(np.uint8),
        "source_first": (np.cumsum(count) - count).astype(np.int64), "source_count": count.astype(np.int32),
        "entry_target": target_of_entry[order].astype(np.int32),
        "target_words": target_words.astype(word_type), "target_length": target_length.astype(np.uint8),
    }
    for kind, rows in (("source", source_words), ("target", target_words)):
        hashes = row_hashes(rows)
        by_hash = np.argsort(hashes, kind="stable")
        arrays[f"{kind}_hash"], arrays[f"{kind}_by_hash"] = hashes[by_hash], by_hash.astype(np.int32)
    for name, array in arrays.items():
        np.save(directory / f"{name}.npy", array)
    text = [word.decode("utf-8", errors="replace") for word in words.ids]
    (directory / "words.txt").write_text("\n".join(text), encoding="utf-8")
    (directory / "meta.json").write_text(json.dumps({
        "format": FORMAT_VERSION, "table": str(table), "entries": int(len(source_of_entry)),
        "sources": len(source_words), "targets": len(target_words), "words": len(text)}))


def _merge_same_rows(rows: np.ndarray, of_entry: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Distinct rows (in order of first appearance) and the entries' ids renumbered to them. Distinct
    lines have distinct rows unless they space the same words differently, so this is usually a no-op."""
    hashes = row_hashes(rows)
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    if len(first) == len(rows):
        return rows, of_entry
    if not (rows[first[inverse]] == rows).all():
        raise ValueError("two different phrases of the paraphrase table have the same 64-bit hash")
    keep = np.sort(first)
    renumber = np.empty(len(first), dtype=np.int64)
    renumber[np.argsort(first)] = np.arange(len(first))
    return rows[keep], renumber[inverse][of_entry]


def open_index(table: PathLike, cache_dir: Optional[PathLike] = None) -> Path:
    """The index directory of ``table`` under ``cache_dir`` (default :func:`default_cache_dir`),
    built first when missing; a new index replaces the stale indexes of the same table path.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.gz").write_bytes(gzip.compress(b"0.5\\nbig dog\\nhound\\n"))
    >>> open_index(folder / "t.gz", folder / "cache") == open_index(folder / "t.gz", folder / "cache")
    True
    """
    table = Path(table).resolve()
    parent = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    directory = parent / cache_key(table)
    if (directory / "meta.json").is_file():
        return directory
    parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=parent))
    try:
        build_index(table, scratch)
        try:
            os.rename(scratch, directory)          # atomic: readers see a complete index or none
        except OSError:
            if not (directory / "meta.json").is_file():
                raise
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    for other in parent.glob("paraphrase-*/meta.json"):
        try:
            stale = other.parent != directory and json.loads(other.read_text())["table"] == str(table)
        except (OSError, ValueError, KeyError):
            continue
        if stale:   # readers that mapped its files keep them until they close them (POSIX)
            shutil.rmtree(other.parent, ignore_errors=True)
    return directory


class ParaphraseTable:
    """A paraphrase table's index: word ids, and source / target phrases found by their words.

    >>> import gzip, tempfile
    >>> table = Path(tempfile.mkdtemp()) / "toy.gz"
    >>> _ = table.write_bytes(gzip.compress(b"0.5\\nbig dog\\nlarge hound\\n0.2\\nbig dog\\ncanine\\n0.1\\nran\\nsprinted\\n"))
    >>> index = ParaphraseTable.open(table, cache_dir=table.parent / "cache")
    >>> [index.target_text(t) for t in index.targets_of(index.find_source(index.ids(["big", "dog"])))]
    ['large hound', 'canine']
    """

    def __init__(self, directory: Path):
        self.directory = directory
        for name in _ARRAYS:
            setattr(self, name, np.load(directory / f"{name}.npy", mmap_mode="r"))
        self.words = (directory / "words.txt").read_text(encoding="utf-8").split("\n")
        self.vocabulary = {word: i for i, word in enumerate(self.words)}
        self.max_length = int(max(self.source_words.shape[1], self.target_words.shape[1]))

    @classmethod
    def open(cls, table: PathLike, cache_dir: Optional[PathLike] = None) -> "ParaphraseTable":
        """Open ``table`` (a ``paraphrase-*.gz``) through its index, building the index the first time."""
        started = time.perf_counter()
        index = cls(open_index(table, cache_dir))
        index.open_seconds = time.perf_counter() - started
        return index

    def ids(self, words) -> np.ndarray:
        """Word ids (-1 for a word the table does not have).

        >>> bool((_toy().ids(["big", "cat"]) == -1).tolist() == [False, True])
        True
        """
        get = self.vocabulary.get
        return np.fromiter((get(word, -1) for word in words), dtype=np.int64)

    def _find(self, kind: str, hashes: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The phrase id (or -1) of each row of word id + 1 (zero-padded to max_length), given the rows'
        hashes, which should be sorted: numpy's binary search is much faster on increasing keys."""
        table_hash = getattr(self, f"{kind}_hash")
        found = np.full(len(rows), -1, dtype=np.int64)
        if not len(table_hash):
            return found
        at = np.minimum(np.searchsorted(table_hash, hashes), len(table_hash) - 1)
        hit = np.flatnonzero(table_hash[at] == hashes)
        if len(hit):
            phrase = np.asarray(getattr(self, f"{kind}_by_hash")[at[hit]], dtype=np.int64)
            stored = np.asarray(getattr(self, f"{kind}_words")[phrase], dtype=np.int64)
            width = stored.shape[1]
            query = rows[hit]
            same = (query[:, :width] == stored).all(axis=1) & (query[:, width:] == 0).all(axis=1)
            found[hit[same]] = phrase[same]
        return found

    def find_ngrams(self, ids: np.ndarray, starts: np.ndarray, ends: np.ndarray
                    ) -> Tuple[Tuple[np.ndarray, np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every n-gram of the sentences ``ids[starts[s]:ends[s]]`` that is a source or a target phrase:
        ``((position, length, source id), (position, length, target id))``, positions in ``ids``.

        >>> index = _toy()
        >>> ids = index.ids("the big dog ran".split())
        >>> (position, length, _), _ = index.find_ngrams(ids, np.array([0]), np.array([4]))
        >>> position.tolist(), length.tolist()          # "ran" (3, 1) and "big dog" (1, 2)
        ([3, 1], [1, 2])
        """
        sentence_end = np.repeat(ends, ends - starts)
        position = np.arange(len(ids))
        rows = np.zeros((len(ids), self.max_length), dtype=np.int64)
        ok = ids >= 0                      # the window [position, position + length) is in the vocabulary
        found = {"source": [], "target": []}
        for length in range(1, self.max_length + 1):
            if length > 1:
                last = position + length - 1
                ok &= last < sentence_end
                ok[ok] = ids[last[ok]] >= 0
            where = np.flatnonzero(ok)
            if not len(where):
                break
            rows[where, length - 1] = ids[where + length - 1] + 1
            window = rows[where]
            # Each distinct n-gram once, in hash order.
            hashes, first, inverse = np.unique(row_hashes(window), return_index=True, return_inverse=True)
            for kind, hits in found.items():
                phrase = self._find(kind, hashes, window[first])[inverse]
                hit = phrase >= 0
                hits.append((where[hit], np.full(int(hit.sum()), length, dtype=np.int64), phrase[hit]))
        return tuple(tuple(np.concatenate([part[k] for part in hits]) if hits else np.zeros(0, dtype=np.int64)
                           for k in range(3)) for hits in found.values())

    def find_source(self, ids: np.ndarray) -> int:
        """The source id of one phrase (word ids), or -1.

        >>> index = _toy(); index.find_source(index.ids(["big", "cat"]))
        -1
        """
        row = np.zeros((1, self.max_length), dtype=np.int64)
        row[0, :len(ids)] = np.asarray(ids) + 1
        return int(self._find("source", row_hashes(row), row)[0]) if (np.asarray(ids) >= 0).all() else -1

    def targets_of(self, source: int) -> np.ndarray:
        """Target ids of a source's entries, in file order.

        >>> index = _toy(); len(index.targets_of(index.find_source(index.ids(["ran"]))))
        1
        """
        if source < 0:
            return np.zeros(0, dtype=np.int64)
        first = int(self.source_first[source])
        return np.asarray(self.entry_target[first:first + int(self.source_count[source])], dtype=np.int64)

    def target_text(self, target: int) -> str:
        """A target phrase's words, joined by spaces.

        >>> index = _toy(); index.target_text(int(index.targets_of(index.find_source(index.ids(["ran"])))[0]))
        'sprinted'
        """
        length = int(self.target_length[target])
        return " ".join(self.words[int(w) - 1] for w in self.target_words[target][:length])


def _toy() -> ParaphraseTable:
    """A three-entry table (for the examples)."""
    folder = Path(tempfile.mkdtemp())
    (folder / "toy.gz").write_bytes(gzip.compress(b"0.5\nbig dog\nlarge hound\n0.2\nbig dog\ncanine\n"
                                                  b"0.1\nran\nsprinted\n"))
    return ParaphraseTable.open(folder / "toy.gz", cache_dir=folder)
