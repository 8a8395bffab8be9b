"""METEOR 1.5's paraphrase table (``paraphrase-en.gz``), read through a compact on-disk index.

The table is gzipped text, three lines an entry: a probability (ignored by the jar), a phrase (the
*source*) and its paraphrase (the *target*). The jar loads its 5.3 million entries into a trie at every
start (about 10 CPU seconds and 1.3 GB). Here the table is parsed once into numpy arrays kept in a cache
directory (:func:`default_cache_dir` or the caller's), which later runs map into memory. Building the
index is vectorized and pipelined (a thread inflates, a thread cuts words, the caller numbers them).
Phrases are rows of word ids numbered in the order of their 64-bit hashes; every word is compared with
the word its key found and every phrase with the phrase its hash found, so a collision is an error, never
a wrong match. Entries are grouped by source in file order (the order the jar's trie emits them). The
cache is keyed by :func:`cache_key`; ``meta.json`` records each file's size and Adler-32, and an index
that does not match them is rebuilt.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tempfile
import zlib
from collections import deque
from collections.abc import Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Union

import numpy as np

from ngrameval.engine.ngrams import concatenated_ranges
from ngrameval.errors import InputError

FORMAT_VERSION = 2
PathLike = Union[str, Path]

_MULTIPLIER = np.uint64(0x100000001B3)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_SOURCE_ARRAYS = ("source_words", "source_length", "source_hash", "source_first", "source_count")
_ARRAYS = (*_SOURCE_ARRAYS, "entry_target", "target_words", "target_length", "target_hash")


def row_hashes(rows: np.ndarray) -> np.ndarray:
    """Hash of each row of word ids + 1 (zero-padded on the right): sum of mix(word) * M**position (0, the
    padding, mixes to 0).

    >>> h = row_hashes(np.array([[3, 5, 0], [3, 5, 0], [5, 3, 0]]))
    >>> bool(h[0] == h[1]), bool(h[0] == h[2])
    (True, False)
    """
    hashes = np.zeros(len(rows), dtype=np.uint64)
    power = np.uint64(1)
    with np.errstate(over="ignore"):
        for column in range(rows.shape[1]):
            mixed = rows[:, column].astype(np.uint64) * _MIX_1
            hashes += (mixed ^ (mixed >> np.uint64(31))) * _MIX_2 * power
            power = power * _MULTIPLIER
    return hashes


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/ngrameval``, else ``~/.cache/ngrameval``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ngrameval"


def cache_key(table: Path) -> str:
    """Identifies a table file: its size, modification time and a hash of its first and last MiB."""
    status = table.stat()
    digest = hashlib.blake2b(digest_size=8)
    with open(table, "rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, status.st_size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return f"paraphrase-{status.st_size}-{status.st_mtime_ns}-{digest.hexdigest()}-v{FORMAT_VERSION}"


_BLOCK_BYTES = 1 << 22
# A word of up to 7 bytes is its own key: its bytes (little-endian) with the length in the top byte.
# Longer words are hashed, so equal keys are checked to be equal words.
_SHORT = 8
_BYTE_MASK = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _entry_blocks(table: Path, size: int) -> Iterator[bytes]:
    """The table's text, whole entries (3 lines each) at a time, every line ending in LF (CR LF and CR, where
    Java's ``readLine`` ends lines too, become LF; a last line without an end gets one)."""
    rest = b""
    with gzip.open(table, "rb") as handle:
        while True:
            piece = handle.read(size)
            data, held = rest + piece, b""
            if piece and data.endswith(b"\r"):  # a CR LF may be cut in two
                data, held = data[:-1], b"\r"
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            if not piece:
                if data and not data.endswith(b"\n"):
                    data += b"\n"
                if data.count(b"\n") % 3:
                    raise InputError(
                        f"{table}: the last entry is incomplete (3 lines an entry: probability, phrase, paraphrase)"
                    )
                if data:
                    yield data
                return
            cut = len(data)
            for _ in range(data.count(b"\n") % 3 + 1):  # just after the last LF that ends an entry
                cut = data.rfind(b"\n", 0, cut)
            if cut >= 0:
                yield data[: cut + 1]
            rest = data[cut + 1 :] + held


def _prefetched(items: Iterator, ahead: int) -> Generator:
    """``items`` produced by a second thread, ``ahead`` of the caller (zlib inflates and numpy cuts without the GIL)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="paraphrase-index") as pool:
        pending = deque(pool.submit(next, items, None) for _ in range(ahead))
        while (item := pending.popleft().result()) is not None:
            pending.append(pool.submit(next, items, None))
            yield item


def _splitmix(values: np.ndarray) -> np.ndarray:
    """SplitMix64's finalizer (a bijection of 64-bit integers)."""
    x = (values ^ (values >> np.uint64(30))) * _MIX_1
    x ^= x >> np.uint64(27)
    x *= _MIX_2
    return x ^ (x >> np.uint64(31))


def _chunk(view: np.ndarray, starts: np.ndarray, lengths: np.ndarray, index: int) -> np.ndarray:
    """Bytes ``8 * index`` to ``8 * index + 7`` of each word (zeros past its end) as a little-endian integer."""
    return view[starts + 8 * index] & _BYTE_MASK[np.clip(lengths - 8 * index, 0, 8)]


def _word_keys(view: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The key of each word (see ``_SHORT``)."""
    keys = _chunk(view, starts, lengths, 0)
    short = lengths < _SHORT
    keys[short] |= lengths[short].astype(np.uint64) << np.uint64(56)
    long = np.flatnonzero(~short)
    with np.errstate(over="ignore"):
        keys[long] = _splitmix(keys[long] ^ lengths[long].astype(np.uint64))
        index = 1
        while len(long):
            long = long[lengths[long] > 8 * index]
            keys[long] = _splitmix(keys[long] ^ _chunk(view, starts[long], lengths[long], index))
            index += 1
    return keys


class _Vocabulary:
    """Word ids in order of first appearance, by word key; every word is compared with the word its key found, so a
    key collision is an error, never a merge of two words (the table has some 43,000 words: a dict holds them)."""

    def __init__(self):
        self.words: list[bytes] = []
        self._ids: dict[int, int] = {}  # key -> id

    def __call__(
        self, data: bytes, view: np.ndarray, starts: np.ndarray, lengths: np.ndarray, keys: np.ndarray
    ) -> np.ndarray:
        """The ids of the words ``data[starts[k]:starts[k] + lengths[k]]`` of keys ``keys``."""
        distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        # Each word against the first word of its key in the block: the same length, and the same bytes if hashed ...
        same = bool((lengths[first[inverse]] == lengths).all())
        index, long = 0, np.flatnonzero(lengths >= _SHORT)
        while same and len(long):
            word = _chunk(view, starts[long], lengths[long], index)
            same = bool((word == _chunk(view, starts[first[inverse[long]]], lengths[long], index)).all())
            index += 1
            long = long[lengths[long] > 8 * index]
        # ... and that one against the word its key found in earlier blocks.
        order = np.argsort(first)
        ordered_keys = distinct[order].tolist()
        words = [data[s : s + n] for s, n in zip(starts[first[order]].tolist(), lengths[first[order]].tolist())]
        for key, text in zip(ordered_keys, words):
            if self._ids.setdefault(key, len(self.words)) == len(self.words):
                self.words.append(text)
        ids = [self._ids[key] for key in ordered_keys]
        if not same or [self.words[i] for i in ids] != words:
            raise InputError("two different words of the paraphrase table have the same 64-bit key")
        by_key = np.empty(len(ids), dtype=np.int64)
        by_key[order] = ids
        return by_key[inverse]


def _windows(buffer: np.ndarray) -> np.ndarray:
    """The 8-byte little-endian integers that start at each byte of ``buffer`` but its last 7 (a view)."""
    return np.ndarray(shape=(len(buffer) - 7,), dtype="<u8", buffer=buffer, strides=(1,))


class _Phrases:
    """Distinct phrases (rows of word id + 1, zero-padded) collected block by block; each entry's
    phrase is a number into the final table, whose phrases are sorted by :func:`row_hashes`."""

    def __init__(self):
        self.hashes: list[np.ndarray] = []  # per block: its distinct phrases' hashes (sorted) ...
        self.rows: list[np.ndarray] = []  # ... and their rows
        self.of_entry: list[np.ndarray] = []  # per block: each entry's phrase, an index into the block's

    def add(self, rows: np.ndarray) -> None:
        hashes, first, inverse = np.unique(row_hashes(rows), return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        repeated = np.flatnonzero(first[inverse] != np.arange(len(inverse)))
        _check_same_rows(rows[repeated], rows[first[inverse[repeated]]])
        self.hashes.append(hashes)
        self.rows.append(rows[first])
        self.of_entry.append(inverse.astype(np.int32))

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(rows, hashes, phrase of each entry)``: the distinct phrases in hash order. The blocks' rows
        are released as they are copied into the table."""
        hashes, inverse = np.unique(
            np.concatenate(self.hashes) if self.hashes else np.zeros(0, np.uint64), return_inverse=True
        )
        inverse = inverse.reshape(-1).astype(np.int32)
        width = max((rows.shape[1] for rows in self.rows), default=1)
        table = np.zeros((len(hashes), width), dtype=np.int32)
        written = np.zeros(len(hashes), dtype=bool)
        of_entry, at = [], 0
        while self.rows:
            rows, block_of_entry = self.rows.pop(0), self.of_entry.pop(0)
            phrase = inverse[at : at + len(rows)]
            at += len(rows)
            again = written[phrase]  # phrases of earlier blocks: the same words, or a hash collision
            _check_same_rows(np.pad(rows[again], ((0, 0), (0, width - rows.shape[1]))), table[phrase[again]])
            table[phrase[~again], : rows.shape[1]] = rows[~again]
            written[phrase] = True
            of_entry.append(phrase[block_of_entry])
        self.hashes = []
        return table, hashes, np.concatenate(of_entry) if of_entry else np.zeros(0, dtype=np.int32)


def _check_same_rows(rows: np.ndarray, representatives: np.ndarray) -> None:
    if not (rows == representatives).all():
        raise InputError("two different phrases of the paraphrase table have the same 64-bit hash")


def _block_words(data: bytes) -> tuple:
    """The phrase words of a block of whole entries, cut as StringTokenizer cuts them (at space, tab, LF, CR, FF:
    bytes that UTF-8 never uses inside a character): ``(data, its windows, entries, line of each word, starts,
    lengths, keys)``. The words of the probability lines are left out (the jar ignores them)."""
    buffer = np.zeros(len(data) + 8, dtype=np.uint8)
    buffer[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    text = buffer[: len(data)]
    newline = text == 10
    in_word = np.zeros(len(data) + 1, dtype=bool)
    np.logical_not(newline | (text == 32) | (text == 9) | (text == 13) | (text == 12), out=in_word[1:])
    edges = np.flatnonzero(in_word[1:] != in_word[:-1])  # word starts and ends, alternately
    starts, ends = edges[0::2], edges[1::2]
    line_ends = np.flatnonzero(newline)
    line = np.repeat(np.arange(len(line_ends)), np.diff(np.searchsorted(starts, line_ends), prepend=0))
    phrase_word = np.flatnonzero(line % 3)  # lines 0, 3, ...: probabilities
    starts, line = starts[phrase_word], line[phrase_word]
    lengths = ends[phrase_word] - starts
    view = _windows(buffer)
    return data, view, len(line_ends) // 3, line, starts, lengths, _word_keys(view, starts, lengths)


def _add_block(block: tuple, words: _Vocabulary, sources: _Phrases, targets: _Phrases) -> None:
    """A block's phrases (rows of word id + 1) into ``sources`` and ``targets``, its words into ``words``."""
    data, view, entries, line, starts, lengths, keys = block
    ids = words(data, view, starts, lengths, keys)
    for phrases, which in ((sources, 1), (targets, 2)):
        mine = line % 3 == which
        entry = line[mine] // 3
        count = np.bincount(entry, minlength=entries)
        rows = np.zeros((entries, max(int(count.max(initial=0)), 1)), dtype=np.int32)
        rows[entry, concatenated_ranges(0, count)[0]] = ids[mine] + 1
        phrases.add(rows)


def build_index(table: Path, directory: Path) -> None:
    """Parse the gzipped table into the arrays of :class:`ParaphraseTable` under ``directory``."""
    words, sources, targets = _Vocabulary(), _Phrases(), _Phrases()
    # Three stages on two cores: inflating (a thread), cutting words (a thread), and numbering them.
    with closing(_prefetched(map(_block_words, _prefetched(_entry_blocks(table, _BLOCK_BYTES), 2)), 1)) as blocks:
        for block in blocks:
            _add_block(block, words, sources, targets)
    source_words, source_hash, source_of_entry = sources.table()
    target_words, target_hash, target_of_entry = targets.table()
    del sources, targets
    source_length, target_length = (source_words > 0).sum(axis=1), (target_words > 0).sum(axis=1)
    if (target_length == 0).any():
        raise InputError(f"{table}: an entry has an empty paraphrase")
    # Entries grouped by source, in file order within a source (the order the jar's trie emits them).
    order = np.argsort(source_of_entry, kind="stable")
    count = np.bincount(source_of_entry, minlength=len(source_words))
    word_type = np.uint16 if len(words.words) < np.iinfo(np.uint16).max else np.uint32
    arrays = {
        "source_words": source_words.astype(word_type),
        "source_length": source_length.astype(np.uint8),
        "source_hash": source_hash,
        "source_first": (np.cumsum(count) - count).astype(np.int64),
        "source_count": count.astype(np.int32),
        "entry_target": target_of_entry[order].astype(np.int32),
        "target_words": target_words.astype(word_type),
        "target_length": target_length.astype(np.uint8),
        "target_hash": target_hash,
    }
    for name, array in arrays.items():
        np.save(directory / f"{name}.npy", array)
    text = [word.decode("utf-8", errors="replace") for word in words.words]
    (directory / "words.txt").write_text("\n".join(text), encoding="utf-8")
    files = {name: _checksum(directory / name) for name in [f"{name}.npy" for name in arrays] + ["words.txt"]}
    counts = {"entries": len(source_of_entry), "sources": len(source_words), "targets": len(target_words)}
    meta = {"format": FORMAT_VERSION, "table": str(table), **counts, "words": len(text), "files": files}
    (directory / "meta.json").write_text(json.dumps(meta))


def _checksum(path: Path) -> list[int]:
    """``[size, Adler-32]`` of a file, read a MiB at a time (no mapping: the pages would count as ours)."""
    value = 1
    with open(path, "rb") as handle:
        while True:
            piece = handle.read(1 << 20)
            if not piece:
                return [handle.tell(), value]
            value = zlib.adler32(piece, value)


def index_is_complete(directory: Path) -> bool:
    """Whether ``directory`` holds an index of this format whose files have the sizes and checksums
    its ``meta.json`` records (a truncated, damaged or older index is not: it is rebuilt)."""
    try:
        meta = json.loads((directory / "meta.json").read_text())
        if meta.get("format") != FORMAT_VERSION or set(meta["files"]) != {f"{n}.npy" for n in _ARRAYS} | {"words.txt"}:
            return False
        return all(_checksum(directory / name) == list(expected) for name, expected in meta["files"].items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def open_index(table: PathLike, cache_dir: PathLike | None = None) -> Path:
    """The index directory of ``table`` under ``cache_dir`` (default :func:`default_cache_dir`), built first when
    missing or incomplete; a new index replaces the stale indexes of the same table path and removes those of
    tables that no longer exist. An index is built in a temporary directory renamed into place, so concurrent
    readers see a complete index or none; of two concurrent builds, the first rename wins."""
    table = Path(table).resolve()
    parent = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    directory = parent / cache_key(table)
    if index_is_complete(directory):
        return directory
    parent.mkdir(parents=True, exist_ok=True)
    if directory.exists():  # damaged: set aside (atomically) and removed; readers keep their mappings
        _remove(directory, parent)
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=parent))
    try:
        build_index(table, scratch)
        try:
            os.rename(scratch, directory)
        except OSError:  # another process renamed its index into place first
            if not index_is_complete(directory):
                raise
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    for other in parent.glob("paraphrase-*/meta.json"):
        try:  # an index of this table path, or of a table that is gone (a removed environment's)
            indexed = Path(json.loads(other.read_text())["table"])
            stale = other.parent != directory and (indexed == table or not indexed.exists())
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if stale:
            _remove(other.parent, parent)
    return directory


def _remove(directory: Path, parent: Path) -> None:
    """Rename ``directory`` aside, then delete it (nothing to do when another process did it first)."""
    aside = Path(tempfile.mkdtemp(prefix=".removing-", dir=parent))
    try:
        os.rename(directory, aside / "index")
    except OSError:
        pass
    shutil.rmtree(aside, ignore_errors=True)


class ParaphraseTable:
    """A paraphrase table's index: word ids, and source / target phrases found by their words.

    >>> index = _toy()
    >>> [index.words[w - 1] for w in index.target_words[index.entry_target[index.source_first[0]]]]
    ['large', 'hound']
    """

    # The arrays of _ARRAYS, memory-mapped from the index directory by __init__.
    source_words: np.ndarray
    source_length: np.ndarray
    source_hash: np.ndarray
    source_first: np.ndarray
    source_count: np.ndarray
    entry_target: np.ndarray
    target_words: np.ndarray
    target_length: np.ndarray
    target_hash: np.ndarray

    def __init__(self, directory: Path):
        self.directory = directory
        for name in _ARRAYS:
            setattr(self, name, np.load(directory / f"{name}.npy", mmap_mode="r"))
        self.words = (directory / "words.txt").read_text(encoding="utf-8").split("\n")
        self.vocabulary = {word: i for i, word in enumerate(self.words)}
        self.max_length = int(max(self.source_words.shape[1], self.target_words.shape[1]))

    @classmethod
    def open(cls, table: PathLike, cache_dir: PathLike | None = None) -> ParaphraseTable:
        """Open ``table`` (a ``paraphrase-*.gz``) through its index, building the index the first time."""
        return cls(open_index(table, cache_dir))

    def ids(self, words) -> np.ndarray:
        """Word ids (-1 for a word the table does not have)."""
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
        phrase = at[hit]  # phrases are numbered in hash order
        stored = np.asarray(getattr(self, f"{kind}_words")[phrase], dtype=np.int64)
        query = rows[hit]
        same = (query[:, : stored.shape[1]] == stored).all(axis=1) & (query[:, stored.shape[1] :] == 0).all(axis=1)
        found[hit[same]] = phrase[same]
        return found

    def find_ngrams(
        self, ids: np.ndarray, starts: np.ndarray, ends: np.ndarray
    ) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
        """Every n-gram of the sentences ``ids[starts[s]:ends[s]]`` that is a source or a target phrase:
        ``((position, length, source id), (position, length, target id))``, positions in ``ids``.

        >>> index = _toy()
        >>> (position, length, _), _ = index.find_ngrams(index.ids("the big dog ran".split()), np.array([0]), np.array([4]))
        >>> position.tolist(), length.tolist()          # "ran" (3, 1) and "big dog" (1, 2)
        ([3, 1], [1, 2])
        """
        sentence_end = np.repeat(ends, ends - starts)
        position = np.arange(len(ids))
        rows = np.zeros((len(ids), self.max_length), dtype=np.int64)
        ok = ids >= 0  # the window [position, position + length) is in the vocabulary
        found: dict[str, list[tuple[np.ndarray, ...]]] = {"source": [], "target": []}
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
        empty = (np.zeros(0, dtype=np.int64),) * 3
        source, target = (tuple(map(np.concatenate, zip(*hits))) if hits else empty for hits in found.values())
        return source, target


def _toy() -> ParaphraseTable:
    """A three-entry table (for the examples)."""
    table = Path(tempfile.mkdtemp()) / "toy.gz"
    table.write_bytes(gzip.compress(b"0.5\nbig dog\nlarge hound\n0.2\nbig dog\ncanine\n0.1\nran\nsprinted\n"))
    return ParaphraseTable.open(table, cache_dir=table.parent)
