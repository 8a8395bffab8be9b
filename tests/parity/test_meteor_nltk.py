"""ngrameval.metrics.meteor_nltk and ngrameval.text.wordnet against NLTK 3.10.4, run in each test.

NLTK's ``WordNetCorpusReader`` reads the same WordNet 3.0 files (Debian's wordnet-base and
wordnet-sense-index, /usr/share/wordnet) from a copy laid out as an nltk_data directory: NLTK
refuses files outside its data path and symbolic links, and needs a ``lexnames`` file, which
Debian does not ship; it is generated here from the lexicographer file numbers of the data files
(NLTK only indexes it by number). The benchmark builds its peer the same way
(:func:`nltk_wordnet_data`).

- the reader: ``synsets(word)`` (as (type, offset) lists, in order), the lemma names of those
  synsets and ``_morphy`` for every lemma of the index files, every form of the exception lists,
  inflections made from the index lemmas, capitalised forms, and the words and Porter stems of
  real text (the forms METEOR's synonym stage looks up);
- ``meteor_score`` on WMT22 de-en and zh-en (two references, and one), E2E (1 to 45 references),
  the conformance example, adversarial cases, and other alpha/beta/gamma; exact float equality;
- the alignments, stage by stage, against NLTK's own matching functions.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
from nltk.stem.porter import PorterStemmer
from nltk.tokenize import word_tokenize
from nltk.translate import meteor_score as nltk_meteor_module

import ngrameval
from ngrameval.metrics.meteor_nltk import MeteorAlignment, meteor_synonyms, nltk_meteor, tokenize
from ngrameval.text.wordnet import ADJ, ADJ_SAT, ADV, NOUN, POS_ORDER, VERB, WordNet, all_index_lemmas, find_wordnet
from tests.data import E2E_PRIMARY, Memoized, e2e_outputs, e2e_references, load_json, wmt22_slice

_SOURCE_FILES = (
    "index.noun",
    "index.verb",
    "index.adj",
    "index.adv",
    "index.sense",
    "data.noun",
    "data.verb",
    "data.adj",
    "data.adv",
    "noun.exc",
    "verb.exc",
    "adj.exc",
    "adv.exc",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}  # lexnames' syntactic category numbers


# --------------------------------------------------------------------------- NLTK's reader on the same files


def nltk_wordnet_data(target: Path, source: Path | None = None) -> Path:
    """Copy WordNet's files from ``source`` (default: what :func:`find_wordnet` finds) into
    ``target/corpora/wordnet`` with a generated ``lexnames``; returns ``target`` (an nltk_data root)."""
    source = Path(source) if source else find_wordnet()
    directory = target / "corpora" / "wordnet"
    directory.mkdir(parents=True, exist_ok=True)
    for name in _SOURCE_FILES:
        shutil.copyfile(source / name, directory / name)  # index.sense: NLTK reads it when it loads
    categories = {}
    for name, category in _CATEGORY.items():
        with open(directory / f"data.{name}", encoding="utf-8") as handle:
            for line in handle:
                if not line.startswith(" "):
                    categories.setdefault(int(line.split(None, 2)[1]), category)
    with open(directory / "lexnames", "w", encoding="utf-8") as handle:
        for number in range(max(categories) + 1):
            handle.write(f"{number:02d}\tlexfile{number:02d}\t{categories[number]}\n")
    return target


def nltk_wordnet_reader(nltk_data: Path):
    """NLTK's ``WordNetCorpusReader`` on ``nltk_data/corpora/wordnet`` (the root joins ``nltk.data.path``,
    where NLTK's path checks and its WordNet-version mapping look)."""
    import nltk
    from nltk.corpus.reader import WordNetCorpusReader

    if str(nltk_data) not in nltk.data.path:
        nltk.data.path.insert(0, str(nltk_data))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "The multilingual functions are not available": no OMW here
        return WordNetCorpusReader(str(nltk_data / "corpora" / "wordnet"), None)


@pytest.fixture(scope="module")
def nltk_wordnet(tmp_path_factory):
    import nltk

    root = nltk_wordnet_data(tmp_path_factory.mktemp("nltk_data"))
    saved = list(nltk.data.path)
    yield nltk_wordnet_reader(root)
    nltk.data.path[:] = saved


@pytest.fixture(scope="module")
def peer(nltk_wordnet):
    """NLTK's meteor_score on token lists, with memoized WordNet and stemmer, over a whole corpus."""
    wordnet, stemmer = Memoized(nltk_wordnet, "synsets"), Memoized(PorterStemmer(), "stem")

    def score(hypotheses, references, **options):
        return [
            nltk_meteor_module.meteor_score(refs, hyp, wordnet=wordnet, stemmer=stemmer, **options)
            for hyp, refs in zip(hypotheses, references)
        ]

    return score


@pytest.fixture(scope="module")
def ours():
    return WordNet()


# --------------------------------------------------------------------------- the WordNet reader


def _lemma_names(synsets):
    return frozenset(lemma.name() for synset in synsets for lemma in synset.lemmas())


def _assert_reader_agrees(ours, reader, words):
    bad = []
    for word in words:
        expected = reader.synsets(word)
        if [(s.pos(), s.offset()) for s in expected] != ours.synsets(word) or _lemma_names(
            expected
        ) != ours.lemma_names(word):
            bad.append(word)
    assert not bad, f"{len(bad)} of {len(words)} words differ from NLTK, e.g. {bad[:10]}"


@pytest.mark.slow
def test_reader_every_index_lemma_and_exception(ours, nltk_wordnet):
    words = all_index_lemmas(ours)
    for pos in (NOUN, VERB, ADJ, ADV):
        exceptions = ours._file("exc", pos)
        words += list(exceptions) + [base for bases in exceptions.values() for base in bases]
    words = list(dict.fromkeys(words))
    assert len(words) > 150_000
    _assert_reader_agrees(ours, nltk_wordnet, words)


def test_reader_inflections_capitals_and_morphy(ours, nltk_wordnet):
    lemmas = all_index_lemmas(ours)[::29]
    words = [lemma + suffix for lemma in lemmas for suffix in ("s", "es", "ed", "ing", "er", "est", "men", "ies")]
    words += [lemma.capitalize() for lemma in lemmas] + [lemma.upper() for lemma in lemmas[::5]]
    _assert_reader_agrees(ours, nltk_wordnet, words)
    forms = [word.lower() for word in words[::3]] + lemmas
    for pos in (NOUN, VERB, ADJ, ADJ_SAT, ADV):
        assert [nltk_wordnet._morphy(form, pos) for form in forms] == [ours.morphy(form, pos) for form in forms], pos
        assert [[(s.pos(), s.offset()) for s in nltk_wordnet.synsets(form, pos)] for form in forms[::4]] == [
            ours.synsets(form, pos) for form in forms[::4]
        ], pos


def _real_text_tokens(shared):
    tokens = set()
    for pair, system in (("de-en", "Online-B"), ("zh-en", "Online-A")):
        hypotheses, references = wmt22_slice(shared, pair, system)
        for line in hypotheses + [r for group in references for r in group]:
            tokens.update(token.lower() for token in word_tokenize(line, preserve_line=True))
    return sorted(tokens)


@pytest.mark.slow
def test_reader_real_text_words_and_stems(ours, nltk_wordnet, shared):
    """The forms the synonym stage looks up: lowercased tokens of real text, and their Porter stems."""
    tokens = _real_text_tokens(shared)
    stemmer = PorterStemmer()
    words = sorted(set(tokens) | {stemmer.stem(token) for token in tokens})
    assert len(words) > 10_000
    _assert_reader_agrees(ours, nltk_wordnet, words)
    # METEOR's synonym sets: NLTK's expression in _enum_wordnetsyn_match.
    expected = [
        frozenset(name for name in _lemma_names(nltk_wordnet.synsets(word)) if "_" not in name) | {word}
        for word in words
    ]
    assert [meteor_synonyms(ours, word) for word in words] == expected


def test_reader_version_and_order(ours, nltk_wordnet):
    assert ours.version == nltk_wordnet.get_version() == "3.0"
    assert list(POS_ORDER) == ["n", "v", "a", "r"]
    # A word with synsets in every part of speech, in NLTK's order.
    assert [(s.pos(), s.offset()) for s in nltk_wordnet.synsets("Back")] == ours.synsets("Back")


# --------------------------------------------------------------------------- METEOR on real text


def _assert_equal_scores(got, expected):
    assert len(got) == len(expected)
    differing = [(i, g, e) for i, (g, e) in enumerate(zip(got, expected)) if g != e]
    assert not differing, f"{len(differing)} of {len(expected)} scores differ, e.g. {differing[:5]}"


def _wmt22_tokens(shared, pair, system, stop):
    hypotheses, references = wmt22_slice(shared, pair, system, stop)
    return tokenize(hypotheses), [tokenize(group) for group in references]


@pytest.mark.parametrize("pair,system", [("de-en", "Online-B"), ("zh-en", "HuaweiTSC")])
def test_wmt22_two_references_and_one(shared, peer, pair, system):
    hypotheses, references = _wmt22_tokens(shared, pair, system, 400)
    expected = peer(hypotheses, references)
    result = nltk_meteor(hypotheses, references)
    _assert_equal_scores(result.scores, expected)
    texts = wmt22_slice(shared, pair, system, 400)
    assert ngrameval.meteor(*texts, variant="nltk").meteor == np.mean(expected)  # Hugging Face's corpus score
    first = [group[:1] for group in references]
    _assert_equal_scores(nltk_meteor(hypotheses, first).scores, peer(hypotheses, first))


def test_wmt22_whitespace_tokens_english_and_german(shared, peer):
    for pair, system in (("de-en", "Online-W"), ("en-de", "Online-B")):
        hypotheses, references = wmt22_slice(shared, pair, system, 300)
        hypotheses, references = tokenize(hypotheses, "whitespace"), [tokenize(g, "whitespace") for g in references]
        _assert_equal_scores(nltk_meteor(hypotheses, references).scores, peer(hypotheses, references))


def test_e2e_many_references(shared, peer):
    _, references = e2e_references(shared)
    references = [tokenize(group) for group in references]
    for system in E2E_PRIMARY[:2]:
        hypotheses = tokenize(e2e_outputs(shared, system))
        _assert_equal_scores(nltk_meteor(hypotheses, references).scores, peer(hypotheses, references))
    assert max(map(len, references)) > 40


def test_conformance_example(shared, peer):
    case = next(
        c for c in load_json(shared, "conformance/official_small.json")["cases"] if c["id"] == "nltk-meteor-example"
    )
    hypothesis = case["prediction"].split()
    references = [reference.split() for reference in case["references"]]
    score = nltk_meteor([hypothesis], [references]).scores[0]
    assert score == case["expected"]["meteor"] == peer([hypothesis], [references])[0]


@pytest.mark.parametrize(
    "alpha,beta,gamma",
    [(0.5, 1.0, 0.1), (1.0, 0.0, 1.0), (0.0, 3, 0.0), (0.85, 2.35, 0.45), (0.9, 3, 0.5), (1, 10.0, 0.99)],
)
def test_parameters(shared, peer, alpha, beta, gamma):
    hypotheses, references = _wmt22_tokens(shared, "de-en", "JDExploreAcademy", 150)
    options = dict(alpha=alpha, beta=beta, gamma=gamma)
    _assert_equal_scores(nltk_meteor(hypotheses, references, **options).scores, peer(hypotheses, references, **options))


# --------------------------------------------------------------------------- adversarial cases

ADVERSARIAL = [
    ([], [[]]),
    ([], [["a"]]),
    (["a"], [[]]),
    (["a"], [[], ["a"]]),
    (["the"] * 5, [["the"] * 3]),
    ("a a b a b b a".split(), ["b a a b a".split()]),
    ("The CAT Sat ON the MAT".split(), ["the cat sat on the mat".split()]),
    (["hot_dog", "New_York", "frankfurter"], [["hot_dog", "new_york", "hotdog"]]),
    (["frankfurter", "hotdog"], [["hot_dog", "wiener"]]),
    ("the quick fast speedy car".split(), ["a fast quick speedy automobile".split()]),
    ("geese went better ran oxen".split(), ["goose go good run ox".split()]),
    ("always obeys heeds forever".split(), ["forever heeds obeys always".split()]),
    (["İstanbul", "STRASSE", "Straße", "ΣΊΣΥΦΟΣ"], [["i̇stanbul", "strasse", "straße", "σίσυφος"]]),
    ([".", ",", "!", "?"], [["!", "."], [",", "?", "."]]),
    (["new york", "Los  Angeles"], [["new york", "los angeles"]]),
    ("It is a guide".split(), ["It is a guide".split(), "It is a guide".split()]),
    (
        "dogs chased cats running quickly".split(),
        ["the dog chases a cat that runs quick".split(), "dogs chased cats running quickly".split()],
    ),
    ("a b c d e f".split(), ["f e d c b a".split()]),
    (["n't", "'s", "'re", "``", "''"], [["not", "is", "are", '"', '"']]),
]


def test_adversarial_cases(peer):
    hypotheses, references = [h for h, _ in ADVERSARIAL], [r for _, r in ADVERSARIAL]
    for options in ({}, dict(alpha=0.5, beta=1.0, gamma=1.0)):
        _assert_equal_scores(
            nltk_meteor(hypotheses, references, **options).scores, peer(hypotheses, references, **options)
        )


def test_long_texts(shared, peer):
    """Whole documents (30 segments joined: many repeated words, many synonym-stage candidates), and their
    segments."""
    hypotheses, references = _wmt22_tokens(shared, "de-en", "Online-Y", 300)
    documents = [sum(hypotheses[i : i + 30], []) for i in range(0, 300, 30)]
    document_references = [
        [sum((group[k] for group in references[i : i + 30]), []) for k in range(2)] for i in range(0, 300, 30)
    ]
    expected = peer(documents, document_references)
    _assert_equal_scores(nltk_meteor(documents, document_references).scores, expected)
    _assert_equal_scores(nltk_meteor(hypotheses, references).scores, peer(hypotheses, references))


def test_identical_hypothesis_and_reference(shared, peer):
    hypotheses, _ = _wmt22_tokens(shared, "de-en", "Online-A", 100)
    references = [[hypothesis] for hypothesis in hypotheses]
    _assert_equal_scores(nltk_meteor(hypotheses, references).scores, peer(hypotheses, references))


# --------------------------------------------------------------------------- alignments


def _nltk_stages(hypothesis, reference, wordnet):
    """NLTK's alignment of one pair, stage by stage, with its own matching functions."""
    hyp, ref = nltk_meteor_module._generate_enums(hypothesis, reference)
    exact, hyp, ref = nltk_meteor_module._match_enums(hyp, ref)
    stem, hyp, ref = nltk_meteor_module._enum_stem_match(hyp, ref)
    synonym, _, _ = nltk_meteor_module._enum_wordnetsyn_match(hyp, ref, wordnet=wordnet)
    return {"exact": set(exact), "stem": set(stem), "synonym": set(synonym)}


def test_alignments_explained(shared, nltk_wordnet):
    hypotheses, references = _wmt22_tokens(shared, "zh-en", "Online-W", 120)
    hypotheses += [h for h, _ in ADVERSARIAL]
    references += [r for _, r in ADVERSARIAL]
    result = nltk_meteor(hypotheses, references, explain=True)
    wordnet = Memoized(nltk_wordnet, "synsets")
    stages_seen = set()
    for hypothesis, group, score, alignment in zip(hypotheses, references, result.scores, result.alignments):
        assert isinstance(alignment, MeteorAlignment) and alignment.score == score
        singles = [
            nltk_meteor_module.single_meteor_score(reference, hypothesis, wordnet=wordnet) for reference in group
        ]
        assert alignment.reference == singles.index(max(singles))
        reference = group[alignment.reference]
        pairs, _, _ = nltk_meteor_module.align_words(
            [w.lower() for w in hypothesis], [w.lower() for w in reference], wordnet=wordnet
        )
        assert [(i, j) for i, j, _ in alignment.matches] == pairs
        stages = _nltk_stages(hypothesis, reference, wordnet)
        for stage, matched in stages.items():
            assert {(i, j) for i, j, s in alignment.matches if s == stage} == matched, stage
            if matched:
                stages_seen.add(stage)
        assert (alignment.hypothesis_length, alignment.reference_length) == (len(hypothesis), len(reference))
        if pairs and hypothesis and reference:
            assert alignment.chunks == nltk_meteor_module._count_chunks(pairs)
            assert alignment.precision == len(pairs) / len(hypothesis)
            assert alignment.recall == len(pairs) / len(reference)
            assert (1 - alignment.penalty) * alignment.fmean == score
        else:
            assert score == 0.0 and alignment.fmean == 0.0
    assert stages_seen == {"exact", "stem", "synonym"}


# --------------------------------------------------------------------------- tokenization


def test_nltk_tokenizer_is_word_tokenize_of_the_line(shared):
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-B", 300)
    lines = hypotheses + [group[0] for group in references] + ['He said: "It\'s 5.3% (approx.)." Then he left.']
    assert tokenize(lines) == [word_tokenize(line, preserve_line=True) for line in lines]
    assert tokenize(lines, "whitespace") == [line.split() for line in lines]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "options,message",
    [
        (dict(alpha=1.5), r"alpha must be a finite number in \[0, 1\], got 1.5"),
        (dict(alpha=float("nan")), "alpha"),
        (dict(beta=-1), "beta must be a finite number >= 0, got -1"),
        (dict(beta=float("inf")), "beta must be a finite number >= 0, got inf"),
        (dict(gamma=True), "gamma"),
        (dict(gamma="0.5"), "gamma"),
    ],
)
def test_bad_parameters(options, message):
    with pytest.raises(ValueError, match=message):
        nltk_meteor([["a"]], [[["a"]]], **options)


def test_strings_are_refused():
    with pytest.raises(ValueError, match="takes token lists"):
        nltk_meteor(["a b"], [["a b"]])
