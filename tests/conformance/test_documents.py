"""The BLEU and NIST worked examples of the seed documents (shared/conformance/documents.json).

Every expected value is read from documents.json; the fractions some notes state
("p1=4/5, p2=3/4, ...") are parsed from the notes.
"""

import importlib
import math
import re
from fractions import Fraction

import pytest

import ngrameval
from tests.data import assert_close, load_json

# ``ngrameval.nist`` is the function; the module holds BETA and length_penalty.
nist_module = importlib.import_module("ngrameval.metrics.nist")

DOCUMENTS = "conformance/documents.json"
# Cases about METEOR and ROUGE belong to other metrics' tests.
OTHER_METRICS = {"meteor-chunks", "rouge-s-skip-bigrams"}
TESTED = {"d2l-bleu", "nist-nltk", "nltk-bleu-nist-example", "cat-on-mat", "fruit", "clipping", "nist-beta"}


@pytest.fixture(scope="module")
def cases(shared):
    return {case["id"]: case for case in load_json(shared, DOCUMENTS)["cases"]}


def test_every_bleu_and_nist_case_is_tested(cases):
    assert set(cases) - OTHER_METRICS == TESTED


def _fractions(notes):
    """{n: (numerator, denominator)} from a note such as "p1=6/6, p2=3/5", unreduced."""
    return {int(n): (int(a), int(b)) for n, a, b in re.findall(r"\bp(\d)=(\d+)/(\d+)", notes)}


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_d2l_bleu(cases, k):
    case = cases["d2l-bleu"]
    result = ngrameval.bleu([case["prediction"]], [case["references"]], variant="d2l", max_order=k)
    assert_close(result.bleu, case["expected"][f"k={k}"], what=f"d2l BLEU with k={k}")


@pytest.mark.parametrize("case_id", ["d2l-bleu", "cat-on-mat"])
def test_precisions_stated_in_notes(cases, case_id):
    case = cases[case_id]
    stated = _fractions(case["notes"])
    assert stated, "the notes state no precision"
    result = ngrameval.bleu([case["prediction"]], [case["references"]], max_order=max(stated), tokenize="none")
    got = {n: (result.counts[n - 1], result.totals[n - 1]) for n in stated}
    assert got == stated


def _nist_nltk(predictions, references):
    result = ngrameval.nist(predictions, references, variant="nltk", sentence_level=True)
    return result.nist, result.sentence_scores


def _bleu_nltk(predictions, references):
    result = ngrameval.bleu(predictions, references, variant="nltk", sentence_level=True)
    return result.bleu, result.sentence_scores


# (case, scorer): NLTK sentence_nist, and NLTK sentence_bleu with its defaults (whitespace tokens,
# BLEU-4, no smoothing). A sentence score is the score of a corpus of that one sentence.
SENTENCE_CASES = [("nist-nltk", _nist_nltk), ("nltk-bleu-nist-example", _bleu_nltk), ("fruit", _bleu_nltk)]
SENTENCE_IDS = [case_id for case_id, _ in SENTENCE_CASES]


def _examples(case):
    """[(name, prediction, expected)] of a case with one prediction or several named ones."""
    if "predictions" in case:
        return [(name, case["predictions"][name], case["expected"][name]) for name in case["predictions"]]
    (expected,) = case["expected"].values()
    return [("prediction", case["prediction"], expected)]


@pytest.mark.parametrize("case_id, score", SENTENCE_CASES, ids=SENTENCE_IDS)
def test_each_hypothesis_alone(cases, case_id, score):
    case = cases[case_id]
    for name, prediction, expected in _examples(case):
        corpus, sentences = score([prediction], [case["references"]])
        assert_close(corpus, expected, what=f"{case_id} {name} (corpus of one)")
        assert_close(sentences, [expected], what=f"{case_id} {name} (sentence score)")


@pytest.mark.parametrize("case_id, score", SENTENCE_CASES, ids=SENTENCE_IDS)
def test_hypotheses_together(cases, case_id, score):
    case = cases[case_id]
    examples = _examples(case)
    _, sentences = score([prediction for _, prediction, _ in examples], [case["references"]] * len(examples))
    assert_close(sentences, [expected for _, _, expected in examples], what=f"{case_id} sentence scores")


def test_clipping(cases):
    case = cases["clipping"]
    # Document 003 lower-cases "The" before counting.
    options = dict(tokenize="none", lowercase=True)
    stats = ngrameval.statistics("bleu", [case["prediction"]], [case["references"]], max_order=1, **options)
    result = ngrameval.bleu([case["prediction"]], [case["references"]], **options)
    expected = (case["expected"]["p1_numerator"], case["expected"]["p1_denominator"])
    assert tuple(stats.rows[0, 2:4].astype(int).tolist()) == expected  # (the unigram matches, then totals)
    assert (result.counts[0], result.totals[0]) == expected


# The document prints "BLEU = 0.638" for this example, but its own code returns 0.0: no 4-gram
# of the prediction is in a reference (p4 = 0/3) and the code returns 0.0 as soon as one
# precision is 0. No common variant gives 0.638 (see the case's notes), so the printed number is
# a misprint; documents.json records what the algorithm returns ("document_algorithm": 0.0).
# The rules that return exactly 0 when a precision is 0: sacrebleu without smoothing and
# tensorflow/nmt without smoothing (NLTK's method0 returns a tiny positive number instead).
@pytest.mark.parametrize(
    "options",
    [
        dict(variant="sacrebleu", smooth="none", tokenize="none"),
        dict(variant="sacrebleu", smooth="none", tokenize="none", use_effective_order=True),
        dict(variant="nmt", smooth=False, tokenize="none", brevity_penalty="closest"),
    ],
    ids=["sacrebleu-none", "sacrebleu-none-effective", "nmt-closest"],
)
def test_cat_on_mat(cases, options):
    case = cases["cat-on-mat"]
    result = ngrameval.bleu([case["prediction"]], [case["references"]], sentence_level=True, **options)
    expected = case["expected"]["document_algorithm"]
    assert_close(result.bleu, expected, what="corpus of one")
    assert_close(result.sentence_scores, [expected], what="sentence score")


def test_nist_beta(cases):
    expected = cases["nist-beta"]["expected"]
    # The document's formula, "ln(1/2)/ln(2/3)^2".
    formula = re.fullmatch(r"ln\((\d+/\d+)\)/ln\((\d+/\d+)\)\^2", expected["beta"])
    assert formula, expected["beta"]
    beta = math.log(Fraction(formula.group(1))) / math.log(Fraction(formula.group(2))) ** 2
    assert_close(nist_module.BETA, beta, rel=1e-12, what="BETA")
    (key,) = [key for key in expected if key.startswith("penalty_at_ratio_")]
    ratio = Fraction(key[len("penalty_at_ratio_") :])
    assert_close(
        float(nist_module.length_penalty(float(ratio))), expected[key], rel=1e-12, what=f"length_penalty({ratio})"
    )
