"""The persistent stem table (ngrameval.text.stems) behind ROUGE's use_stemmer: stems equal to NLTK's Porter
stemmer's from the table and from its file, safe with concurrent processes, bounded, keyed by the stemmer's
identity, a corrupt file ignored and rebuilt. Every test points the user's cache at a temporary directory
(XDG_CACHE_HOME, which the cache directory follows), so the real user cache is never written."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from nltk.stem.porter import PorterStemmer
from rouge_score import rouge_scorer

import ngrameval
from ngrameval.metrics import rouge as rouge_module
from ngrameval.metrics.meteor15.paraphrase import default_cache_dir
from ngrameval.text import stems
from ngrameval.text.stems import StemTable, decode_table, porter_identity, porter_stems

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["running", "cats", "generously", "happiness", "relational", "conditional", "rational", "valency",
         "hesitanci", "digitizer", "conformabli", "radicalli", "differentli", "vileli", "analogousli",
         "vietnamization", "predication", "operator", "feudalism", "decisiveness", "hopefulness", "callousness",
         "formaliti", "sensitiviti", "sensibiliti", "triplicate", "formative", "formalize", "electriciti",
         "electrical", "hopeful", "goodness", "revival", "allowance", "inference", "airliner", "gyroscopic",
         "adjustable", "defensible", "irritant", "replacement", "adjustment", "dependent", "adoption", "homologou",
         "communism", "activate", "angulariti", "homologous", "effective", "bowdlerize", "probate", "rate",
         "cease", "controll", "roll", "generalizations", "oscillators", "dying", "lying", "sky", "news", "ugly",
         "early", "only", "singly", "1990s", "abc123ing"]
SCRIPT = textwrap.dedent("""
    import json, sys
    import ngrameval
    predictions, references = json.loads(sys.stdin.read())
    result = ngrameval.rouge(predictions, references, ["rouge1", "rouge2", "rougeL", "rougeLsum"],
                             use_stemmer=True, tokenizer="rouge_score", use_aggregator=False)
    print(json.dumps({"scores": result.scores.tolist(), "nltk_imported": "nltk" in sys.modules}))
""")


@pytest.fixture(autouse=True)
def user_cache(tmp_path, monkeypatch):
    """The user's cache directory, in a temporary directory; ROUGE's own in-process stems emptied, so that
    words other tests stemmed are looked up in the table again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(rouge_module, "_STEMS", {})
    return tmp_path / "xdg" / "ngrameval"


def porter(words):
    """The peer: NLTK's Porter stemmer as rouge-score creates it (default mode)."""
    stemmer = PorterStemmer()
    return [stemmer.stem(word) for word in words]


def table_file(cache: Path) -> Path:
    return cache / "stems" / f"{porter_identity()}.txt"


def refuse():
    raise AssertionError("the stemmer was needed: the table did not have the word")


def test_cache_follows_xdg_cache_home(user_cache):
    assert default_cache_dir() == user_cache
    ngrameval.rouge(["the cats were running"], ["a cat runs"], ["rouge1"], use_stemmer=True)
    assert table_file(user_cache).is_file()


def test_stems_equal_porter_from_memory_and_from_the_file(user_cache):
    assert porter_stems(WORDS) == porter(WORDS)
    # A new table (as in another process) reads the file: every word is known, the stemmer is never made.
    assert StemTable(porter_identity(), refuse, user_cache)(WORDS) == porter(WORDS)
    assert decode_table(porter_identity(), table_file(user_cache).read_bytes()) == dict(zip(WORDS, porter(WORDS)))


def run_rouge(predictions, references, cache: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=json.dumps([predictions, references]),
                          capture_output=True, text=True, cwd=ROOT, check=True,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache.parent)})
    return json.loads(done.stdout)


def test_rouge_in_fresh_processes_cold_then_warm_equals_rouge_score(user_cache):
    predictions = ["The generously relational cats were running home.\nHopefulness dies last.",
                   "Conditional happiness of the 1990s operators", ""]
    references = ["A cat runs home generously.\nHope dies.", "The operator's conditions were happy in 1990",
                  "Nothing at all"]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    expected = [[list(score) for score in scorer.score(r, p).values()] for p, r in zip(predictions, references)]
    cold = run_rouge(predictions, references, user_cache)
    assert table_file(user_cache).is_file()
    warm = run_rouge(predictions, references, user_cache)
    assert not warm["nltk_imported"]          # every stem came from the table
    for run in (cold, warm):
        by_prediction = [[run["scores"][t][s] for t in range(4)] for s in range(len(predictions))]
        assert by_prediction == expected


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "other identity", "empty", "not utf-8"])
def test_a_corrupt_file_is_ignored_and_rebuilt(user_cache, damage):
    porter_stems(WORDS[:10])
    path = table_file(user_cache)
    data = path.read_bytes()
    damaged = {"garbage": b"\x00" * 100, "truncated": data[:-3], "flipped": data[:-1] + b"x",
               "other identity": data.replace(porter_identity().encode(), b"nltk-0.0-porter-ORIGINAL_ALGORITHM", 1),
               "empty": b"", "not utf-8": data[:-2] + b"\xff\xfe"}[damage]
    path.write_bytes(damaged)
    table = StemTable(porter_identity(), stems._porter, user_cache)
    assert table(WORDS) == porter(WORDS)
    assert decode_table(porter_identity(), path.read_bytes()) == dict(zip(WORDS, porter(WORDS)))


def test_the_table_is_keyed_by_the_stemmers_identity(user_cache):
    assert porter_identity() == f"nltk-{__import__('nltk').__version__}-porter-NLTK_EXTENSIONS"
    StemTable("upper", lambda: str.upper, user_cache)(["cats"])
    assert StemTable("lower", lambda: str.lower, user_cache)(["CATS"]) == ["cats"]
    assert sorted(p.name for p in (user_cache / "stems").iterdir()) == ["lower.txt", "upper.txt"]


def test_the_table_is_bounded_in_memory_and_on_disk(user_cache):
    table = StemTable("upper", lambda: str.upper, user_cache, max_entries=10)
    words = [f"word{i}" for i in range(25)]
    assert table(words) == [word.upper() for word in words]
    assert len(table) == 10
    stored = decode_table("upper", (user_cache / "stems" / "upper.txt").read_bytes())
    assert list(stored) == words[-10:]


def test_an_unwritable_cache_directory_leaves_the_stems_right(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert StemTable("upper", lambda: str.upper, blocker)(["cats"]) == ["CATS"]
    assert porter_stems(WORDS, blocker) == porter(WORDS)


def test_words_with_newlines_are_stemmed_but_not_stored(user_cache):
    table = StemTable("upper", lambda: str.upper, user_cache)
    assert table(["a\nb", "cat"]) == ["A\nB", "CAT"]
    assert decode_table("upper", (user_cache / "stems" / "upper.txt").read_bytes()) == {"cat": "CAT"}


def test_bad_identity():
    with pytest.raises(ValueError, match="plain file name"):
        StemTable("../escape", lambda: str.upper)


CONCURRENT = textwrap.dedent("""
    import sys
    from ngrameval.text.stems import porter_stems
    words = sys.argv[1:]
    for start in range(0, len(words), 7):       # many small saves racing with the other processes'
        porter_stems(words[start:start + 7])
""")


def test_concurrent_processes_leave_a_whole_table(user_cache):
    vocabulary = [f"{word}{suffix}" for word in WORDS for suffix in ("", "s", "ing", "ed", "ly", "ness")]
    processes = [subprocess.Popen([sys.executable, "-c", CONCURRENT, *vocabulary[k % 2::2]], cwd=ROOT,
                                  env={**os.environ, "XDG_CACHE_HOME": str(user_cache.parent)})
                 for k in range(4)]
    assert [process.wait() for process in processes] == [0] * 4
    stored = decode_table(porter_identity(), table_file(user_cache).read_bytes())
    assert stored and {word: porter([word])[0] for word in stored} == stored
    assert [p.name for p in (user_cache / "stems").iterdir()] == [table_file(user_cache).name]   # no temp files


def test_a_full_in_process_stem_cache_is_replaced_without_changing_scores(monkeypatch):
    monkeypatch.setattr(rouge_module, "_STEM_CACHE_SIZE", 3)
    predictions = ["the generously relational cats were running", "hopefulness of conditional operators"]
    references = ["a cat runs generously", "the operator's conditions were hopeful"]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    expected = [[scorer.score(r, p)[t].fmeasure for p, r in zip(predictions, references)] for t in ("rouge1", "rougeL")]
    for _ in range(2):
        result = ngrameval.rouge(predictions, references, ["rouge1", "rougeL"], use_stemmer=True, use_aggregator=False)
        assert [result.fmeasure["rouge1"], result.fmeasure["rougeL"]] == expected
