"""ngrameval.leaderboard.reading: the checks of the counts of lines, and plain text read by readlines as sacrebleu's
command line reads it line by line."""

import gzip
import random
import re

import pytest
from sacrebleu.utils import smart_open

from ngrameval import InputError
from ngrameval.leaderboard.reading import Source, read_references, read_source


def test_references_of_the_wrong_count_are_named_without_a_first_system(tmp_path):
    # read_references(sources, segments) with no first_system to name (found by mypy): an InputError giving
    # both counts, where it used to be an AttributeError on None.
    path = tmp_path / "refs.txt"
    path.write_text("a b\nc d\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"refs\.txt has 2 lines but 3 were expected"):
        read_references([Source(str(path))], segments=3)
    assert read_references([Source(str(path))], segments=2) == [["a b"], ["c d"]]


def _sacrebleu_lines(path):
    """A file's lines as sacrebleu's command line reads them: ``smart_open`` (``newline="\\n"``), each rstrip()-ed."""
    with smart_open(str(path)) as handle:
        return [line.rstrip() for line in handle]


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_plain_text_lines_are_sacrebleus(tmp_path, compressed):
    """read_source takes a file's lines at once (read_lines: readlines, rstrip); sacrebleu streams them: the same
    lines, for random texts of line ends, odd separators, trailing spaces, empty lines and no final newline."""
    rng = random.Random(20261127)
    pieces = ["a", "é", "東", " ", "\t", "\n", "\r", "\r\n", "\u2028", "\x85", "\x0b", "\x1c", "\u3000", "\U0001f600"]
    for case in range(60):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        path = tmp_path / f"{case}.txt{'.gz' if compressed else ''}"
        path.write_bytes(gzip.compress(text.encode()) if compressed else text.encode())
        assert read_source(Source(str(path))) == _sacrebleu_lines(path), repr(text)


def test_unreadable_files_are_one_input_error_naming_them(tmp_path):
    (tmp_path / "latin1.txt").write_bytes("caf\u00e9\n".encode("latin-1"))
    (tmp_path / "cut.txt.gz").write_bytes(b"\x1f\x8b\x08\x00broken")
    for name, message in [
        ("latin1.txt", "not UTF-8 text"),
        ("missing.txt", "no such file"),
        ("cut.txt.gz", ""),
        ("", "Is a directory"),
    ]:
        with pytest.raises(InputError, match=re.escape(f"{tmp_path / name if name else tmp_path}: {message}")):
            read_source(Source(str(tmp_path / name) if name else str(tmp_path)))
