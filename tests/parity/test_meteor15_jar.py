"""ngrameval.metrics.meteor15 against the METEOR 1.5 jar that pycocoevalcap 1.2 ships, run in the tests through
its stdio protocol as pycocoevalcap runs it (``tests/meteor_jar.py``: one jar process per option set).

Compared for every segment: the stats line (as text: the same best reference, matches per module and
word type, chunks), the segment score and the corpus score (within 1e-9 of what the jar prints).

- the jar's default run (pycocoevalcap's ``-norm``, the full paraphrase table): 500 WMT22 de-en segments
  with reference A, and with references A and B; 300 E2E items (1 to 45 references); nlg-eval's
  examples; the pycocoevalcap toy case of ``official_small.json``;
- every normalization, module subsets and orders, every task preset, custom parameters, weights and
  beam size, on WMT22 and E2E segments, with the paraphrase table cut to the entries these texts can
  use (the jar then starts in a second; an entry whose phrase or paraphrase is not in a text can
  never match, so the results are those of the full table);
- a hand-made paraphrase table (multi-word phrases, a phrase listed twice, the same pair twice);
- the paraphrase module without a table (off, and said so) against the jar without that module;
- the jar's own Normalizer and Snowball stemmer on many lines and words;
- ``explain`` against the jar's statistics.
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from ngrameval.metrics.meteor15 import Meteor15, resources, stats_line
from ngrameval.metrics.meteor15.paraphrase import ParaphraseTable, cache_key
from ngrameval.metrics.meteor15.resources import NORMALIZATIONS, normalize_line
from tests import meteor_jar
from tests.data import E2E_PRIMARY, e2e_outputs, e2e_references, load_json, read_lines, wmt22_slice
from tests.search import cases

TOLERANCE = 1e-9


def _peer(options: Sequence[str]) -> meteor_jar.MeteorJar:
    try:
        return meteor_jar.MeteorJar(options)
    except meteor_jar.PeerMissing as missing:
        pytest.fail(str(missing))


def assert_table_same_as_jar(
    table: Path, cache_dir: Path, hypotheses: list[str], references: list[list[str]], label: str
) -> None:
    """Scores with the paraphrase table ``table`` (its index built in ``cache_dir``) equal the jar's with ``-a table``."""
    jar = _peer(["-norm", "-a", str(table)])
    try:
        assert_same_as_jar(jar, Meteor15(paraphrase_table=table, cache_dir=cache_dir), hypotheses, references, label)
    finally:
        jar.close()


def assert_same_as_jar(
    jar: meteor_jar.MeteorJar, meteor: Meteor15, hypotheses: list[str], references: list[list[str]], what: str
) -> None:
    lines, segment_scores, corpus = jar.score(hypotheses, references)
    # What pycocoevalcap sends is what the jar scores: the same hypothesis text for ours.
    ours = meteor.score([meteor_jar.pycocoevalcap_hypothesis(h) for h in hypotheses], references)
    got = ours.stats_lines()
    wrong = [i for i, (a, b) in enumerate(zip(got, lines)) if a != b]
    assert not wrong, (
        f"{what}: {len(wrong)} of {len(lines)} stats lines differ; first, segment {wrong[0]} "
        f"{hypotheses[wrong[0]]!r}:\n ours {got[wrong[0]]}\n jar  {lines[wrong[0]]}"
    )
    difference = np.abs(ours.segment_scores - np.array(segment_scores))
    assert difference.max() <= TOLERANCE, f"{what}: segment {difference.argmax()} differs by {difference.max()}"
    assert abs(ours.score - corpus) <= TOLERANCE, f"{what}: corpus {ours.score} vs jar {corpus}"


# --------------------------------------------------------------------------- the default run


@pytest.fixture(scope="module")
def default_jar():
    jar = _peer(["-norm"])
    yield jar
    jar.close()


@pytest.fixture(scope="module")
def meteor():
    return Meteor15()


@pytest.mark.parametrize("labels", [("A",), ("A", "B")], ids=["ref-A", "refs-A-B"])
@pytest.mark.slow
def test_wmt22_de_en(shared, default_jar, meteor, labels):
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-A", 500)
    references = [[group[("A", "B").index(label)] for label in labels] for group in references]
    assert_same_as_jar(default_jar, meteor, hypotheses, references, f"WMT22 de-en Online-A, refs {labels}")


@pytest.mark.slow
def test_e2e_many_references(shared, default_jar, meteor):
    _, references = e2e_references(shared)
    hypotheses = e2e_outputs(shared, "tgen")[:300]
    assert_same_as_jar(default_jar, meteor, hypotheses, references[:300], "E2E tgen, 300 items")


NLG_EVAL_CASES = [
    ("this is a good test", ["this is a test", "this is also a test"]),
    ("Le test est en français.", ["Test en français.", "Le test en français."]),
    ("テスト", ["テスト"]),
]


def test_nlg_eval_examples(shared, default_jar, meteor):
    folder = "data/nlg-eval-examples"
    hypotheses = read_lines(shared(f"{folder}/hyp.txt"))
    references = [
        list(group) for group in zip(read_lines(shared(f"{folder}/ref1.txt")), read_lines(shared(f"{folder}/ref2.txt")))
    ]
    assert_same_as_jar(default_jar, meteor, hypotheses, references, "nlg-eval examples")
    for hypothesis, refs in NLG_EVAL_CASES:
        assert_same_as_jar(default_jar, meteor, [hypothesis], [refs], f"nlg-eval case {hypothesis!r}")


EDGE_CASES = {
    "no word matches": (["hello there"], [["world peace"]]),
    "no word matches in any segment": (["hello", "good day"], [["world"], ["fine night", "bad evening"]]),
    "some segments match, some do not": (["a cat sat", "hello"], [["a cat sat"], ["world"]]),
    "identical": (["the cat sat on the mat"], [["the cat sat on the mat"]]),
    "one word": (["cat"], [["cat"]]),
    "repeated words": (["the the the cat"], [["the cat the cat the"]]),
}


@pytest.mark.parametrize("case", EDGE_CASES)
def test_edge_cases(default_jar, meteor, case):
    hypotheses, references = EDGE_CASES[case]
    assert_same_as_jar(default_jar, meteor, hypotheses, references, case)


def test_nlg_eval_published(shared, meteor):
    """nlg-eval's README: METEOR 0.295797 on its examples (coco-caption's Meteor, 6 decimals)."""
    folder = "data/nlg-eval-examples"
    expected = {row["case"]: row for row in _tsv(shared(f"{folder}/expected_scores.tsv"))}
    hypotheses = read_lines(shared(f"{folder}/hyp.txt"))
    references = [
        list(group) for group in zip(read_lines(shared(f"{folder}/ref1.txt")), read_lines(shared(f"{folder}/ref2.txt")))
    ]
    assert round(meteor.score(hypotheses, references).score, 6) == float(expected["examples_corpus"]["METEOR"])


def _tsv(path: Path) -> list[dict[str, str]]:
    header, *rows = [line.split("\t") for line in read_lines(path)]
    return [dict(zip(header, row)) for row in rows]


def test_pycocoevalcap_toy(shared, meteor):
    case = next(
        c for c in load_json(shared, "conformance/official_small.json")["cases"] if c["id"] == "pycocoevalcap-toy"
    )
    keys = sorted(case["gts"], key=int)
    result = meteor.score([case["res"][k][0] for k in keys], [case["gts"][k] for k in keys])
    expected = case["expected"]["Meteor"]
    assert abs(result.score - expected["corpus"]) <= 1e-12
    assert np.abs(result.segment_scores - np.array(expected["per_item"])).max() <= 1e-12


# --------------------------------------------------------------------------- options, on a cut table

TRICKY = [
    "",
    "   ",
    "a",
    "The the THE the",
    "U.S. Mr. Smith's 1,000.50 -- “quoted” rock'n'roll 1990's ... ?!",
    "don't, won't; can't: isn't",
    "x ||| y",
    "tab\there",
    "Ünïcödé wörds café naïve",
    "emoji 😀 ok",
]


@pytest.fixture(scope="module")
def option_corpus(shared):
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-W", 100)
    _, e2e_refs = e2e_references(shared)
    hypotheses += e2e_outputs(shared, "slug")[:60]
    references += e2e_refs[:60]
    hypotheses += TRICKY
    # A reference holding "|||" would be split by the jar's stdio reader: not a case to compare.
    references += [[text.replace("|||", "/"), "the the"] for text in reversed(TRICKY)]
    return hypotheses, references


@pytest.fixture(scope="module")
def cut_table(option_corpus, tmp_path_factory):
    """The full paraphrase table without the entries whose phrase or paraphrase is not a word sequence
    of the option corpus (under any normalization); kept entries stay in file order."""
    table = resources.default_paraphrase_table()
    if table is None:
        pytest.fail("pycocoevalcap's paraphrase-en.gz is missing")
    hypotheses, references = option_corpus
    texts = set(hypotheses) | {r for group in references for r in group}
    ngrams = set()
    for normalization in NORMALIZATIONS:
        meteor = Meteor15(normalization=normalization, paraphrase_table=False)
        for text in texts:
            words = meteor.words(meteor_jar.pycocoevalcap_hypothesis(text)) + [""] + meteor.words(text)
            ngrams.update(" ".join(words[i : i + n]) for n in range(1, 8) for i in range(len(words) - n + 1))
    with gzip.open(table, "rt", encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    kept = [
        line
        for k in range(0, len(lines) - 2, 3)
        if lines[k + 1] in ngrams and lines[k + 2] in ngrams
        for line in lines[k : k + 3]
    ]
    assert len(kept) > 300, "the cut table should keep many entries"
    path = tmp_path_factory.mktemp("meteor-table") / "paraphrase-cut.gz"
    path.write_bytes(gzip.compress(("\n".join(kept) + "\n").encode("utf-8")))
    return path


# (id, jar options after -l en, Meteor15 options)
OPTION_SETS = [
    ("none", [], {"normalization": "none"}),
    ("lower", ["-lower"], {"normalization": "lower"}),
    ("norm-noPunct", ["-norm", "-noPunct"], {"normalization": "norm_nopunct"}),
    ("exact", ["-norm", "-m", "exact"], {"modules": ["exact"]}),
    ("exact-stem", ["-norm", "-m", "exact stem"], {"modules": ["exact", "stem"]}),
    ("exact-stem-synonym", ["-norm", "-m", "exact stem synonym"], {"modules": ["exact", "stem", "synonym"]}),
    ("exact-synonym", ["-norm", "-m", "exact synonym"], {"modules": ["exact", "synonym"]}),
    ("exact-paraphrase", ["-norm", "-m", "exact paraphrase"], {"modules": ["exact", "paraphrase"]}),
    (
        "paraphrase-synonym-exact",
        ["-norm", "-m", "paraphrase synonym exact"],
        {"modules": ["paraphrase", "synonym", "exact"]},
    ),
    ("stem-synonym", ["-norm", "-m", "stem synonym"], {"modules": ["stem", "synonym"]}),
    *[
        (f"task-{task}", ["-norm", "-t", task], {"task": task})
        for task in ("adq", "hter", "li", "tune", "util", "universal")
    ],
    ("parameters", ["-norm", "-p", "0.5 1.0 0.3 0.6"], {"parameters": [0.5, 1.0, 0.3, 0.6]}),
    (
        "parameters-weights-modules",
        ["-norm", "-p", "0.6 2.0 0.4 0.9", "-w", "1.0 0.2", "-m", "exact synonym stem"],
        {"parameters": [0.6, 2.0, 0.4, 0.9], "weights": [1.0, 0.2, 0.0], "modules": ["exact", "synonym", "stem"]},
    ),
    ("weights", ["-norm", "-w", "1.0 0.9 0.7 0.5"], {"weights": [1.0, 0.9, 0.7, 0.5]}),
    ("beam-3", ["-norm", "-x", "3"], {"beam_size": 3}),
    ("beam-1-lower", ["-lower", "-x", "1"], {"normalization": "lower", "beam_size": 1}),
]


@pytest.fixture(scope="module", params=OPTION_SETS, ids=[case[0] for case in OPTION_SETS])
def option_set(request, cut_table):
    name, jar_options, options = request.param
    jar = _peer(jar_options + ["-a", str(cut_table)])
    yield name, jar, Meteor15(paraphrase_table=cut_table, cache_dir=cut_table.parent / "cache", **options)
    jar.close()


@pytest.mark.slow
def test_options(option_set, option_corpus):
    name, jar, meteor = option_set
    assert_same_as_jar(jar, meteor, *option_corpus, name)


@pytest.mark.slow
def test_handmade_paraphrase_table(tmp_path):
    """Multi-word phrases both ways, a phrase listed with several paraphrases and twice in separate
    places, the same pair twice, overlapping phrases."""
    entries = [
        ("big dog", "large hound"),
        ("ran", "sprinted"),
        ("big dog", "canine"),
        ("the big dog", "a canine"),
        ("large hound", "big dog"),
        ("ran fast", "sprinted"),
        ("sprinted", "ran"),
        ("big dog", "canine"),
        ("a canine", "the dog"),
        ("in the park", "at the park"),
        ("the park", "the garden"),
        ("dog ran", "hound sprinted"),
        ("ran", "hurried"),
    ]
    table = tmp_path / "handmade.gz"
    table.write_bytes(gzip.compress("".join(f"0.5\n{a}\n{b}\n" for a, b in entries).encode()))
    hypotheses = [
        "the big dog ran fast in the park",
        "a canine sprinted at the garden",
        "large hound hurried",
        "the dog ran in the park the big dog",
        "big dog big dog ran ran",
    ]
    references = [
        ["a canine sprinted at the park", "the large hound ran"],
        ["the big dog ran in the park"],
        ["big dog ran"],
        ["a canine sprinted in the garden"],
        ["large hound canine sprinted hurried"],
    ]
    assert_table_same_as_jar(table, tmp_path / "cache", hypotheses, references, "hand-made table")


@pytest.mark.slow
def test_without_paraphrase_table(shared, monkeypatch):
    """No table installed: the paraphrase module is off, the result says so, and the scores are the jar's
    without that module."""
    monkeypatch.setattr(resources, "default_paraphrase_table", lambda: None)
    hypotheses, references = wmt22_slice(shared, "de-en", "PROMT", 200)
    jar = _peer(["-norm", "-m", "exact stem synonym"])
    try:
        for meteor in (Meteor15(), Meteor15(paraphrase_table=False)):
            assert "paraphrase" in meteor.modules_off
            result = meteor.score(hypotheses, references)
            assert "paraphrase" in result.modules_off and result.paraphrase_table is None
            assert_same_as_jar(jar, meteor, hypotheses, references, "no paraphrase table")
    finally:
        jar.close()


# --------------------------------------------------------------------------- parts against the jar's classes


def _random_lines(count: int, seed: int = 20240101) -> list[str]:
    rng = random.Random(seed)
    alphabet = list("abcXYZ019.,'`-–—‘’“”\"!?;:()[]$%&*/\\ \t\u00a0\u2009\u3000éßÀŠΣσς…·ﬁİıǅ😀\x0b\x0c\x1f")
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(count)]


SPECIAL_LINES = [
    "Mr. Smith",
    "No. 5",
    "No. five",
    "U.S.",
    "e.g. this",
    "A. Smith",
    "end.",
    "etc. etc.",
    "x.. y",
    "....",
    "a...b",
    "rock'n'roll",
    "'90s",
    "1990's",
    "don't",
    "'tis",
    "o'clock",
    "l'amour",
    "3'sx",
    "co-op.-like",
    "1,000,000.",
    "a,b 1,b a,1",
    "“a” ‘b’ `c` ''d''",
    "a–b a--b a---b",
    "Mr.  next",
]


@pytest.mark.parametrize("keep_punctuation", [True, False], ids=["norm", "noPunct"])
@pytest.mark.slow
def test_normalizer(shared, keep_punctuation):
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-B", 300)
    lines = hypotheses + [r for group in references for r in group] + SPECIAL_LINES + _random_lines(cases(1500))
    lines += [line + " next" for line in SPECIAL_LINES] + [line + " Next" for line in SPECIAL_LINES]
    expected = meteor_jar.java_normalize(lines, keep_punctuation)
    prefixes = resources.nonbreaking_prefixes(resources.find_jar())
    got = [normalize_line(line, prefixes, keep_punctuation) for line in lines]
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not wrong, (
        f"{len(wrong)} lines differ; first {lines[wrong[0]]!r}: {got[wrong[0]]!r} vs {expected[wrong[0]]!r}"
    )


@pytest.mark.slow
def test_stemmer(shared):
    """The jar's Snowball English stemmer word for word: the WMT22 de-en words (as written and lowercased),
    E2E words and every tenth WordNet word of the jar's synonym list."""
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-A")
    _, e2e_refs = e2e_references(shared)
    texts = hypotheses + [r for group in references + e2e_refs for r in group]
    words = {w for text in texts for w in resources.java_tokens(text)}
    words |= {w.lower() for w in words}
    words |= set(resources.SynonymDictionary.load(resources.find_jar()).words[0::10])
    words = sorted(words)
    expected = meteor_jar.java_stems(words)
    got = resources.english_stemmer().stemWords(words)
    # The jar's Stemmer class leaves number-like words (digits , . -) unstemmed.
    wrong = [(w, g, e) for w, g, e in zip(words, got, expected) if g != e and w.strip("0123456789,.-")]
    assert not wrong, f"{len(wrong)} of {len(words)} stems differ: {wrong[:10]}"


@pytest.mark.slow
def test_explain(shared, default_jar, meteor):
    hypotheses, references = wmt22_slice(shared, "de-en", "Lan-Bridge", 60)
    result = meteor.score([meteor_jar.pycocoevalcap_hypothesis(h) for h in hypotheses], references)
    for i, (hypothesis, refs) in enumerate(zip(hypotheses, references)):
        explanation = meteor.explain(meteor_jar.pycocoevalcap_hypothesis(hypothesis), refs)
        assert stats_line(explanation.statistics) == default_jar.stats(hypothesis, refs)
        assert explanation.best_reference == result.best_reference[i]
        assert abs(explanation.score - result.segment_scores[i]) <= 1e-15
        assert len(explanation.chunk_spans()) == explanation.chunks
        matched_hyp = sum(m.hyp_length for m in explanation.matches)
        assert matched_hyp == explanation.statistics[21]


# --------------------------------------------------------------------------- the table's index


def source_of(index: ParaphraseTable, words: list[str]) -> int:
    """The source id of one phrase, found by ``find_ngrams`` as a whole-sentence n-gram (-1 if none)."""
    (position, length, source), _ = index.find_ngrams(index.ids(words), np.array([0]), np.array([len(words)]))
    whole = source[(position == 0) & (length == len(words))]
    return int(whole[0]) if len(whole) else -1


def target_texts(index: ParaphraseTable, source: int) -> list[str]:
    """A source's target phrases in file order, read from the index's arrays."""
    first, count = int(index.source_first[source]), int(index.source_count[source])
    return [
        " ".join(index.words[int(w) - 1] for w in index.target_words[t][: int(index.target_length[t])])
        for t in index.entry_target[first : first + count]
    ]


def test_index_cache(tmp_path):
    table = tmp_path / "t.gz"
    table.write_bytes(gzip.compress(b"0.1\nbig dog\nlarge hound\n"))
    cache = tmp_path / "cache"
    first = ParaphraseTable.open(table, cache)
    assert first.directory.name == cache_key(table)
    stamp = (first.directory / "meta.json").stat().st_mtime_ns
    assert ParaphraseTable.open(table, cache).directory == first.directory
    assert (first.directory / "meta.json").stat().st_mtime_ns == stamp  # reused, not rebuilt
    table.write_bytes(gzip.compress(b"0.1\nbig dog\ncanine\n0.2\nran\nsprinted\n"))
    second = ParaphraseTable.open(table, cache)
    assert second.directory != first.directory  # a changed table: a new index
    assert not first.directory.exists()  # which replaces the stale one
    assert target_texts(second, source_of(second, ["big", "dog"])) == ["canine"]
    assert not [p for p in cache.iterdir() if p.name.startswith(".building-")]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "options, message",
    [
        ({"task": "fast"}, "unknown task 'fast'; valid values: 'rank', 'adq', 'hter', 'li'"),
        ({"modules": ["exact", "wordnet"]}, "unknown module 'wordnet'; valid values: 'exact', 'stem', 'synonym'"),
        ({"modules": ["exact", "exact"]}, "must not repeat"),
        ({"modules": []}, "non-empty list"),
        ({"modules": "exact"}, "non-empty list"),
        ({"weights": [1.0, 0.5]}, "one weight per module"),
        ({"parameters": [0.5, 0.5]}, "(alpha, beta, gamma, delta)"),
        ({"task": "rank", "parameters": [0.5, 1.0, 0.3, 0.6]}, "not both"),
        ({"normalization": "nfkc"}, "unknown normalization 'nfkc'"),
        ({"beam_size": 0}, "beam_size must be a positive integer"),
        ({"paraphrase_table": "/nonexistent/paraphrase-en.gz"}, "paraphrase table not found"),
        ({"jar": "/nonexistent/meteor-1.5.jar"}, "METEOR jar not found"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError) as raised:
        Meteor15(**options)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "predictions, references, message",
    [
        ([], [], "empty"),
        (["a"], [], "differ in length"),
        (["a"], [[]], "empty list"),
        ([1], ["a"], "predictions[0]"),
    ],
)
def test_bad_corpus(predictions, references, message):
    with pytest.raises(ValueError) as raised:
        Meteor15(paraphrase_table=False).score(predictions, references)
    assert message in str(raised.value)


@pytest.mark.slow
def test_primary_systems_agree_with_one_call(shared, meteor):
    """Scoring systems one by one or all in one call gives the same numbers (alignments are independent)."""
    _, references = e2e_references(shared)
    systems = [e2e_outputs(shared, system)[:40] for system in E2E_PRIMARY[:3]]
    together = meteor.score(sum(systems, []), references[:40] * 3)
    alone = np.concatenate([meteor.score(system, references[:40]).segment_scores for system in systems])
    assert np.array_equal(together.segment_scores, alone)
