"""ngrameval's Porter stemmer (ngrameval.text.porter, numpy) against NLTK 3.10.4's PorterStemmer(), the peer,
run here: every [a-z0-9] word of real English text (REALSumm summaries, WMT22's English systems and
references, E2E's references), the examples of Porter's paper, words at the edges of each rule, and a
seeded random search of words built from Porter's suffixes. Sized to run in seconds; raise
NGRAMEVAL_SEARCH_SCALE (tests/search.py) to search longer."""

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from nltk.stem.porter import PorterStemmer

from ngrameval.text.porter import IRREGULAR, porter_stems
from tests.data import WMT22_SYSTEMS, e2e_references, realsumm, wmt22_references, wmt22_system
from tests.search import cases

SUFFIXES = (
    "ational tional enci anci izer bli alli entli eli ousli ization ation ator alism iveness fulness "
    "ousness aliti iviti biliti fulli logi icate ative alize iciti ical ful ness al ance ence er ic able "
    "ible ant ement ment ent ion sion tion ou ism ate iti ous ive ize ed eed ied ing ies sses ss s y e ll "
    "at bl iz"
).split()
# Letters weighted towards those Porter's conditions look at: vowels, "y" (a consonant or a vowel by
# position), doubled letters, the w/x/y exception of *o, l/s/z of *d, digits (consonants).
LETTERS = list("aeiouyyybcdlllmnrssstzgwx19")
PAPER = (
    "caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping "
    "tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci "
    "digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator "
    "feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative "
    "formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic "
    "adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate "
    "angulariti homologous effective bowdlerize probate rate cease controll roll generalizations "
    "oscillators"
).split()
EDGES = [
    "ies",
    "ied",
    "eed",
    "ing",
    "sses",
    "ss",
    "yyy",
    "yyyy",
    "yyyyying",
    "ayy",
    "syzygy",
    "toy",
    "boyish",
    "eyes",
    "tying",
    "xies",
    "xied",
    "xxied",
    "ied",
    "feed",
    "bleed",
    "exceeding",
    "proceeds",
    "hopefulli",
    "logi",
    "analogi",
    "xlogi",
    "alli",
    "xalli",
    "rationalli",
    "nationalli",
    "ion",
    "sion",
    "tion",
    "xtion",
    "wxy",
    "awe",
    "oww",
    "ax",
    "ox",
    "fizzing",
    "falling",
    "hissed",
    "1990s",
    "123ing",
    "abc123ing",
    "a1e",
    "y1y",
    "ye",
    "yes",
    "yyyed",
    "agreed",
    "disagreed",
    "ll",
    "lll",
    "llll",
    "controlll",
    "1e",
    "e1e1e",
]
# Words longer than 16, 32 and 64 letters: stemmed in blocks of wider rows.
LONG = [
    "anti" * 5 + "disestablishmentarianism",
    "x" * 40 + "ationalization",
    "y" * 70 + "ing",
    "ab" * 300 + "s",
    "0123456789" * 20,
    "supercalifragilisticexpialidocious",
]


def nltk_stems(words):
    stemmer = PorterStemmer()  # NLTK_EXTENSIONS, as rouge-score creates it
    return [stemmer.stem(word) for word in words]


def assert_same_stems(words):
    got, expected = porter_stems(words), nltk_stems(words)
    differ = [(word, g, e) for word, g, e in zip(words, got, expected) if g != e]
    assert not differ, f"{len(differ)} of {len(words)} stems differ from NLTK's (word, ours, NLTK's): {differ[:10]}"
    # ROUGE relies on it: a stem of a [a-z0-9] word is a non-empty [a-z0-9] word (rouge-score keeps it).
    assert all(map(re.compile("[a-z0-9]+").fullmatch, got))


def english_words(shared):
    _, summaries, references = realsumm(shared)
    texts = summaries + references + [text for group in e2e_references(shared)[1] for text in group]
    for pair in ("de-en", "zh-en"):
        for system in WMT22_SYSTEMS[pair]:
            texts += wmt22_system(shared, pair, system)
        for reference in wmt22_references(shared, pair, ("A",)):
            texts += reference
    return sorted(set(re.findall(r"[a-z0-9]+", "\n".join(texts).lower())))


def test_every_word_of_real_english_text(shared):
    words = english_words(shared)
    assert len(words) > 15_000
    assert_same_stems(words)


@pytest.mark.parametrize(
    "words",
    [PAPER, EDGES, LONG, sorted(IRREGULAR), ["news", "cats", "news", "xnews", "sky"]],
    ids=["paper", "edges", "long", "irregular", "repeated"],
)
def test_listed_words(words):
    assert_same_stems(words)


def random_words(rng, count):
    words = []
    for _ in range(count):
        word = "".join(rng.choice(LETTERS, size=int(rng.integers(0, 8))))
        for _ in range(int(rng.integers(0, 4))):
            word += str(rng.choice(SUFFIXES))
        if rng.random() < 0.05:
            word = word * int(rng.integers(2, 6))
        words.append(word or "a")
    return words


@pytest.mark.parametrize("seed", range(4))
def test_random_search(seed):
    rng = np.random.default_rng(seed)
    assert_same_stems(random_words(rng, cases(10_000)))


def test_one_word_at_a_time_equals_all_at_once():
    words = PAPER + EDGES + LONG
    assert [porter_stems([word])[0] for word in words] == porter_stems(words)


@pytest.mark.parametrize("word", ["Cats", "", "café", "two words", "line\nend", "naïve", "tab\t"])
def test_words_outside_a_z0_9_are_refused(word):
    with pytest.raises(ValueError, match=re.escape(repr(word))):
        porter_stems(["cats", word])


def test_rouge_with_stemming_does_not_import_nltk():
    script = (
        "import json, sys, ngrameval; r = ngrameval.rouge(['the cats were running'], ['a cat runs'], "
        "['rouge1'], use_stemmer=True, tokenizer='rouge_score'); "
        "print(json.dumps([r.as_dict()['rouge1'], 'nltk' in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    score, nltk_imported = json.loads(done.stdout)
    from rouge_score import rouge_scorer

    expected = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score("a cat runs", "the cats were running")
    assert score == pytest.approx(expected["rouge1"].fmeasure, abs=1e-12)
    assert not nltk_imported
