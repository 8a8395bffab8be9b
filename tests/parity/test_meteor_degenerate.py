"""METEOR on degenerate corpora -- nothing matches, empty texts, several references none of which
matches, such segments mixed with matching ones -- against the peers run here: NLTK 3.10.4's
``meteor_score`` (the ``nltk`` variant; exact float equality, as ``test_meteor_nltk.py``) and the
METEOR 1.5 jar (the default variant; stats lines and scores, as ``test_meteor15_jar.py``).

NLTK's ``meteor_score`` catches its ZeroDivisionError and returns 0.0 for a segment without a match
(and for an empty hypothesis or reference); a corpus in which no segment matches used to crash the
array alignment (an IndexError) instead. Each corpus also goes through ``evaluate.load``.
"""

from __future__ import annotations

from pathlib import Path

import evaluate
import numpy as np
import pytest

import ngrameval
from ngrameval.metrics.meteor15 import Meteor15
from tests import meteor_jar
from tests.parity.test_meteor15_jar import assert_same_as_jar
from tests.parity.test_meteor_nltk import nltk_wordnet, peer  # noqa: F401  (fixtures: NLTK on Debian's WordNet)

ROOT = Path(__file__).resolve().parents[2]

# name -> (predictions, references): one list of reference strings per prediction.
DEGENERATE = {
    "no match": (["hello"], [["world"]]),
    "empty prediction and reference": ([""], [[""]]),
    "empty reference": (["a"], [[""]]),
    "empty prediction": ([""], [["a"]]),
    "whitespace only": (["   "], [[" \t "]]),
    "all empty, several items and references": (["", ""], [["", ""], [""]]),
    "several references, none matching": (["cat sat"], [["dog ran", "bird flew", ""]]),
    "several references, the last matching": (["a b"], [["x", "", "b a"]]),
    "no match in any item": (["hello there", "good day", "x"], [["world peace"], ["fine night", "bad evening"], [""]]),
    "matches in other items only": (["hello", "a b", "", "c"], [["world"], ["a b"], ["x"], ["", "d"]]),
    "empty items between matching ones": (["the cat", "", "a dog"], [["the cat"], [""], ["the dog", ""]]),
    "punctuation only": ([".", "!", ","], [[","], ["!"], ["?"]]),
    "one word repeated, no match": (["a a a a"], [["b b b"]]),
}


def _tokens(corpus):
    predictions, references = corpus
    return [p.split() for p in predictions], [[r.split() for r in refs] for refs in references]


@pytest.fixture(scope="module")
def evaluate_meteor():
    return evaluate.load(str(ROOT / "metrics" / "meteor"))


@pytest.mark.parametrize("case", DEGENERATE)
@pytest.mark.slow
def test_nltk_variant(peer, evaluate_meteor, case):  # noqa: F811
    hypotheses, references = _tokens(DEGENERATE[case])
    expected = peer(hypotheses, references)
    result = ngrameval.meteor(hypotheses, references, variant="nltk", explain=True)
    assert result.scores == expected
    assert result.meteor == float(np.mean(expected))  # Hugging Face's corpus score
    # Strings split on whitespace give the same tokens; so through evaluate.
    predictions, string_references = DEGENERATE[case]
    assert ngrameval.meteor(predictions, string_references, variant="nltk", tokenize="whitespace").scores == expected
    loaded = evaluate_meteor.compute(
        predictions=predictions, references=string_references, variant="nltk", tokenize="whitespace"
    )
    assert loaded["scores"] == expected


def test_nltk_variant_reported_examples(peer):  # noqa: F811
    """The corpora of the report, with NLTK's word tokenizer (the variant's default) on both sides."""
    from nltk.tokenize.destructive import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    for predictions, references in ((["hello"], ["world"]), ([""], [""])):
        expected = peer([tokenizer.tokenize(p) for p in predictions], [[tokenizer.tokenize(r)] for r in references])
        assert ngrameval.meteor(predictions, references, variant="nltk").scores == expected == [0.0]


@pytest.fixture(scope="module")
def default_jar():
    try:
        jar = meteor_jar.MeteorJar(["-norm"])
    except meteor_jar.PeerMissing as missing:
        pytest.fail(str(missing))
    yield jar
    jar.close()


@pytest.fixture(scope="module")
def meteor15():
    return Meteor15()


@pytest.mark.parametrize("case", DEGENERATE)
@pytest.mark.slow
def test_meteor15(default_jar, meteor15, case):
    predictions, references = DEGENERATE[case]
    assert_same_as_jar(default_jar, meteor15, predictions, references, case)


def test_meteor15_all_degenerate_corpora_at_once(default_jar, meteor15):
    """Every case above as one corpus: one corpus score from the summed statistics."""
    predictions = [p for corpus in DEGENERATE.values() for p in corpus[0]]
    references = [refs for corpus in DEGENERATE.values() for refs in corpus[1]]
    assert_same_as_jar(default_jar, meteor15, predictions, references, "all degenerate corpora")
