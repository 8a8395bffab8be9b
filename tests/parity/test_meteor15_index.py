"""The METEOR 1.5 paraphrase table's on-disk index (``ngrameval.metrics.meteor15.paraphrase``).

- what the index holds is what the jar reads: every phrase with its paraphrases in file order, compared
  with a plain reading of the table by the Java-like line and word readers of ``resources`` (the first
  entries of pycocoevalcap's ``paraphrase-en.gz``, and random tables of tricky words), built with tiny
  blocks so that entries, lines and CR LF pairs fall across block ends;
- scores with a table of tricky words (long words that differ past their 8th byte, UTF-8, tabs, CR LF, CR
  and a last line without end, a phrase spaced two ways) against the jar run with that table;
- the cache: a damaged or older index is rebuilt, processes that build at once all get a complete
  index and leave nothing behind, the real user cache is never written (``XDG_CACHE_HOME`` is a
  temporary directory here, and every test passes its own cache directory);
- the message that tells how to install the jar's data.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ngrameval.metrics.meteor15 import paraphrase, resources
from ngrameval.metrics.meteor15.paraphrase import ParaphraseTable, cache_key, index_is_complete
from tests.parity.test_meteor15_jar import assert_table_same_as_jar, source_of, target_texts
from tests.search import seeds

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_user_cache(tmp_path, monkeypatch):
    """The default cache directory is a temporary one (in this process and in its children)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    yield
    assert not (tmp_path / "user-cache").exists(), "a test wrote to the default cache directory"


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Blocks of 61 bytes of inflated text: entries, lines and CR LF pairs are cut at block ends."""
    monkeypatch.setattr(paraphrase, "_BLOCK_BYTES", 61)


def plain_reading(table: Path) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """Each phrase's paraphrases in file order, read as the jar reads the table: UTF-8 lines as
    ``BufferedReader.readLine`` ends them, words as ``StringTokenizer`` cuts them, 3 lines an entry."""
    lines = resources.java_lines(gzip.decompress(table.read_bytes()).decode("utf-8"))
    found: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for source, target in zip(lines[1::3], lines[2::3]):
        found.setdefault(tuple(resources.java_tokens(source)), []).append(tuple(resources.java_tokens(target)))
    return found


def index_content(index: ParaphraseTable) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """The same, read back from the index."""
    found = {}
    for source in range(len(index.source_length)):
        words = tuple(index.words[int(w) - 1] for w in index.source_words[source][: int(index.source_length[source])])
        found[words] = [tuple(text.split(" ")) for text in target_texts(index, source)]
        assert source_of(index, list(words)) == source
    return found


def write_table(path: Path, entries: list[tuple[str, str]], line_end: str = "\n", final_end: bool = True) -> Path:
    text = line_end.join(
        f"{0.1 + i / 1000:.4f}{line_end}{source}{line_end}{target}" for i, (source, target) in enumerate(entries)
    ) + (line_end if final_end else "")
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


# Words of 7, 8, 9, 16 and 17+ bytes, long words equal in their first 8 or 16 bytes, UTF-8 (2 and 3 bytes a
# character), and digits: the keys of short words are their bytes, those of long words hashes.
TRICKY_WORDS = [
    "a",
    "dog",
    "hound",
    "seventy",
    "eighteen",
    "ninetieth",
    "internationalize",
    "internationalized",
    "internationalizes",
    "internationalization",
    "internationalizations",
    "abcdefgh",
    "abcdefghi",
    "abcdefghij",
    "abcdefgh12345678",
    "abcdefgh12345679",
    "café",
    "naïveté",
    "über",
    "テスト",
    "テスター",
    "日本語のテキスト",
    "x" * 40,
    "x" * 41,
    "y" * 40,
    "1,000",
    "3.14",
    "'s",
    "n't",
]


def random_entries(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)

    def phrase() -> str:
        return " ".join(rng.choice(TRICKY_WORDS) for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 6])))

    sources = [phrase() for _ in range(count // 4 + 1)]
    return [(rng.choice(sources), phrase()) for _ in range(count)]


# --------------------------------------------------------------------------- what the index holds


def test_first_entries_of_pycocoevalcap_table(tmp_path, tiny_blocks, monkeypatch):
    table = resources.default_paraphrase_table()
    assert table is not None, "pycocoevalcap 1.2's paraphrase-en.gz is missing"
    with gzip.open(table, "rb") as handle:
        head = handle.read(600_000)
    cut = head[: head.rfind(b"\n") + 1].split(b"\n")[:-1]
    sample = tmp_path / "head.gz"
    sample.write_bytes(gzip.compress(b"\n".join(cut[: len(cut) - len(cut) % 3]) + b"\n"))
    monkeypatch.setattr(paraphrase, "_BLOCK_BYTES", 4099)
    expected = plain_reading(sample)
    assert len(expected) > 50
    assert index_content(ParaphraseTable.open(sample, tmp_path / "cache")) == expected


@pytest.mark.parametrize("seed", seeds([1, 2, 3]))
@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_random_tricky_tables(tmp_path, tiny_blocks, seed, line_end):
    table = write_table(tmp_path / "t.gz", random_entries(seed, 300), line_end, final_end=seed != 2)
    expected = plain_reading(table)
    index = ParaphraseTable.open(table, tmp_path / "cache")
    assert index_content(index) == expected
    assert sorted(index.words) == sorted(
        {w for phrase in expected for w in phrase} | {w for targets in expected.values() for t in targets for w in t}
    )


def test_spacing_and_separators(tmp_path, tiny_blocks):
    """Tabs, form feeds and runs of spaces separate words (a vertical tab does not); the same words
    spaced two ways are one phrase, with the paraphrases of both lines in file order."""
    entries = [
        ("big dog", "hound"),
        ("big\tdog", "canine"),
        (" big  dog ", "large\fhound"),
        ("odd\x0bword", "strange word"),
        ("big dog", "mutt"),
    ]
    table = write_table(tmp_path / "t.gz", entries)
    expected = plain_reading(table)
    assert expected[("big", "dog")] == [("hound",), ("canine",), ("large", "hound"), ("mutt",)]
    assert index_content(ParaphraseTable.open(table, tmp_path / "cache")) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        (b"0.5\nbig dog\n", "the last entry is incomplete"),
        (b"0.5\nbig dog\nhound\n0.1\nran\n\n", "an empty paraphrase"),
    ],
)
def test_malformed_tables(tmp_path, text, message):
    table = tmp_path / "t.gz"
    table.write_bytes(gzip.compress(text))
    with pytest.raises(ValueError, match=message):
        ParaphraseTable.open(table, tmp_path / "cache")
    assert not [p for p in (tmp_path / "cache").iterdir()], "a failed build left files behind"


# --------------------------------------------------------------------------- scores against the jar


def test_tricky_table_against_jar(tmp_path, tiny_blocks):
    entries = [
        ("internationalization", "globalization"),
        ("internationalizations", "globalizations"),
        ("abcdefgh12345678 rule", "first rule"),
        ("abcdefgh12345679 rule", "second rule"),
        ("café noir", "black coffee"),
        ("テスト", "試験"),
        ("big  dog", "hound"),
        ("big\tdog", "canine"),
        ("eighteen years", "18 years"),
        ("naïveté", "innocence"),
        ("x" * 40, "long one"),
    ]
    table = write_table(tmp_path / "t.gz", entries, "\r\n", final_end=False)
    hypotheses = [
        "internationalizations matter",
        "the abcdefgh12345679 rule and black coffee",
        "試験 of the hound",
        "innocence for eighteen years",
        "a canine and a " + "x" * 40,
        "second rule or first rule",
    ]
    references = [
        ["globalizations matter", "globalization matters"],
        ["the second rule and café noir"],
        ["テスト of the big dog"],
        ["naïveté for 18 years"],
        ["a big dog and a long one"],
        ["abcdefgh12345678 rule or abcdefgh12345679 rule"],
    ]
    assert_table_same_as_jar(table, tmp_path / "cache", hypotheses, references, "tricky table")


# --------------------------------------------------------------------------- the cache


def _corrupt_truncate(directory: Path) -> None:
    path = directory / "entry_target.npy"
    path.write_bytes(path.read_bytes()[:-5])


def _corrupt_flip(directory: Path) -> None:
    path = directory / "target_words.npy"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x55
    path.write_bytes(bytes(data))


def _corrupt_meta(directory: Path) -> None:
    (directory / "meta.json").write_text('{"format": ')


def _remove_words(directory: Path) -> None:
    (directory / "words.txt").unlink()


def _older_format(directory: Path) -> None:
    meta = json.loads((directory / "meta.json").read_text())
    meta["format"] = paraphrase.FORMAT_VERSION - 1
    (directory / "meta.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("damage", [_corrupt_truncate, _corrupt_flip, _corrupt_meta, _remove_words, _older_format])
def test_damaged_index_is_rebuilt(tmp_path, damage):
    table = write_table(tmp_path / "t.gz", random_entries(7, 400))
    cache = tmp_path / "cache"
    directory = ParaphraseTable.open(table, cache).directory
    assert directory.name == cache_key(table) and directory.name.endswith(f"-v{paraphrase.FORMAT_VERSION}")
    damage(directory)
    assert not index_is_complete(directory)
    index = ParaphraseTable.open(table, cache)
    assert index.directory == directory and index_is_complete(directory)
    assert index_content(index) == plain_reading(table)
    assert [p.name for p in cache.iterdir()] == [directory.name]  # nothing set aside or half built is left


@pytest.mark.slow
def test_concurrent_builds(tmp_path):
    """Processes that find no index at once each build one; the first rename wins, every process gets a
    complete index with the table's content, and no temporary directory is left."""
    table = write_table(tmp_path / "t.gz", random_entries(11, 60_000))
    cache = tmp_path / "cache"
    child = (
        "import json, sys\n"
        "from ngrameval.metrics.meteor15.paraphrase import ParaphraseTable\n"
        "from tests.parity.test_meteor15_jar import target_texts\n"
        "index = ParaphraseTable.open(sys.argv[1], sys.argv[2])\n"
        "targets = [text for s in range(len(index.source_length)) for text in target_texts(index, s)]\n"
        "print(json.dumps([index.directory.name, targets]))\n"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", child, str(table), str(cache)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [process.communicate(timeout=600) for process in processes]
    assert all(process.returncode == 0 for process in processes), [err for _, err in outputs]
    results = [json.loads(out) for out, _ in outputs]
    assert all(result == results[0] for result in results)
    expected = plain_reading(table)
    assert sorted(results[0][1]) == sorted(" ".join(t) for targets in expected.values() for t in targets)
    assert [p.name for p in cache.iterdir()] == [cache_key(table)]
    assert index_is_complete(cache / cache_key(table))


def test_another_process_renames_first(tmp_path, monkeypatch):
    """The race's losing side, made certain: another process completes the index while this one builds;
    this one's rename fails, it takes the other's index and removes its own."""
    table = write_table(tmp_path / "t.gz", random_entries(13, 2000))
    cache = tmp_path / "cache"
    build = paraphrase.build_index
    other = "import sys\nfrom ngrameval.metrics.meteor15.paraphrase import ParaphraseTable\nParaphraseTable.open(*sys.argv[1:])"

    def build_while_another_process_does(table_path: Path, directory: Path) -> None:
        subprocess.run([sys.executable, "-c", other, str(table), str(cache)], cwd=ROOT, check=True)
        build(table_path, directory)

    monkeypatch.setattr(paraphrase, "build_index", build_while_another_process_does)
    index = ParaphraseTable.open(table, cache)
    assert index_is_complete(index.directory) and index_content(index) == plain_reading(table)
    assert [p.name for p in cache.iterdir()] == [cache_key(table)]


def test_indexes_of_removed_tables_are_removed(tmp_path):
    """A new index removes the indexes of tables that are gone (e.g. of a deleted virtual environment)."""
    cache = tmp_path / "cache"
    gone = write_table(tmp_path / "gone.gz", [("big dog", "hound")])
    kept = write_table(tmp_path / "kept.gz", [("ran", "sprinted")])
    kept_index = ParaphraseTable.open(kept, cache).directory
    ParaphraseTable.open(gone, cache)
    gone.unlink()
    table = write_table(tmp_path / "new.gz", [("big cat", "lion")])
    ParaphraseTable.open(table, cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([kept_index.name, cache_key(table)])


def test_default_cache_directory(tmp_path):
    table = write_table(tmp_path / "t.gz", [("big dog", "hound")])
    directory = ParaphraseTable.open(table).directory
    assert directory.parent == tmp_path / "user-cache" / "ngrameval" == paraphrase.default_cache_dir()
    shutil.rmtree(tmp_path / "user-cache")  # (the fixture checks that no other test wrote there)


# --------------------------------------------------------------------------- installing the jar's data


def test_missing_jar_message(monkeypatch):
    monkeypatch.setattr(resources, "pycocoevalcap_meteor_dir", lambda: None)
    with pytest.raises(ValueError) as error:
        resources.find_jar()
    message = str(error.value)
    assert "'meteor' extra" in message and "pycocoevalcap==1.2" in message and "wheel or a checkout" in message
    assert "pip install 'ngrameval[" not in message and "pip install ngrameval " not in message
