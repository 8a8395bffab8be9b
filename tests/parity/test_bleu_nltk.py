"""ngrameval.bleu(variant="nltk") against NLTK 3.10.4 corpus_bleu and sentence_bleu, run in each test,
on whitespace tokens (ngrameval's default tokenizer for the nltk variant)."""

import math

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

import ngrameval
from tests.data import assert_close, corpus_slice, whitespace_tokens, wmt17_slice

# NLTK warns for every order without a match.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

METHODS = tuple(f"method{i}" for i in range(8))
NOT_6 = tuple(method for method in METHODS if method != "method6")
CORPORA = [("wmt17", "uedin-nmt.4722", 1000), ("wmt17", "online-F.0", 1000), ("wmt22", "de-en", "Online-W", 500)]
SENTENCES = [("wmt17", "uedin-nmt.4722", 500), ("wmt22", "de-en", "Online-W", 500)]
WEIGHT_SETS = [(0.5, 0.5), (0.333, 0.333, 0.334), (0.25,) * 4, (0.2,) * 5]
# (smoothing, parameters): ngrameval's names are SmoothingFunction's.
PARAMETERS = [
    ("method1", {"epsilon": 0.01}),
    ("method1", {"epsilon": 0.5}),
    ("method4", {"k": 2.0}),
    ("method7", {"k": 3.0}),
    ("method6", {"alpha": 2.0}),
]


def _spec_id(spec):
    return "-".join(map(str, spec))


def _nltk_arguments(smooth="method0", epsilon=0.1, alpha=5, k=5, **options):
    return dict(smoothing_function=getattr(SmoothingFunction(epsilon=epsilon, alpha=alpha, k=k), smooth), **options)


def nltk_corpus(hypotheses, references, **options):
    hyps, refs = whitespace_tokens(hypotheses, references)
    return corpus_bleu(refs, hyps, **_nltk_arguments(**options))


def nltk_sentences(hypotheses, references, **options):
    arguments = _nltk_arguments(**options)
    return [sentence_bleu(r, h, **arguments) for h, r in zip(*whitespace_tokens(hypotheses, references))]


def ours(hypotheses, references, **options):
    return ngrameval.bleu(hypotheses, references, variant="nltk", **options)


def assert_same_as_nltk(hypotheses, references, level, **options):
    """``level``: "corpus" (corpus_bleu vs .bleu) or "sentence" (sentence_bleu vs .sentence_scores)."""
    if level == "corpus":
        assert_close(
            ours(hypotheses, references, **options).bleu,
            nltk_corpus(hypotheses, references, **options),
            what=f"corpus_bleu {options}",
        )
    else:
        assert_close(
            ours(hypotheses, references, sentence_level=True, **options).sentence_scores,
            nltk_sentences(hypotheses, references, **options),
            what=f"sentence_bleu {options}",
        )


@pytest.mark.parametrize("smooth", METHODS)
@pytest.mark.parametrize("spec", CORPORA, ids=_spec_id)
@pytest.mark.slow
def test_corpus_bleu(shared, spec, smooth):
    # method6 needs a trigram match (NLTK asserts it): every corpus here has many.
    assert_same_as_nltk(*corpus_slice(shared, spec), "corpus", smooth=smooth)


@pytest.mark.parametrize("smooth", NOT_6)
@pytest.mark.parametrize("spec", SENTENCES, ids=_spec_id)
@pytest.mark.slow
def test_sentence_bleu(shared, spec, smooth):
    assert_same_as_nltk(*corpus_slice(shared, spec), "sentence", smooth=smooth)


@pytest.mark.parametrize("smooth", ["method0", "method3", "method7"])
@pytest.mark.parametrize("level", ["corpus", "sentence"])
@pytest.mark.slow
def test_several_weight_sets(shared, level, smooth):
    """Several weight sets in one call: a list of scores (per sentence: a list each)."""
    assert_same_as_nltk(*wmt17_slice(shared, "KIT.4950", 500), level, smooth=smooth, weights=WEIGHT_SETS)


@pytest.mark.parametrize("smooth", ["method0", "method1", "method4"])
@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_all_zero_weights(shared, level, smooth):
    """No weighted order: NLTK scores the brevity penalty (exp of an empty sum), 0 without a unigram match."""
    assert_same_as_nltk(*wmt17_slice(shared, "KIT.4950", 200), level, smooth=smooth, weights=(0, 0, 0, 0))


# method6's sentence scores are tested below, where NLTK's assertion is handled.
PARAMETER_CASES = [
    (level, smooth, parameters)
    for level in ("corpus", "sentence")
    for smooth, parameters in PARAMETERS
    if not (level == "sentence" and smooth == "method6")
]


@pytest.mark.parametrize(
    "level, smooth, parameters",
    PARAMETER_CASES,
    ids=[f"{level}-{smooth}-{parameters}" for level, smooth, parameters in PARAMETER_CASES],
)
@pytest.mark.slow
def test_smoothing_parameters(shared, level, smooth, parameters):
    assert_same_as_nltk(*wmt17_slice(shared, "LIUM-NMT.4900", 500), level, smooth=smooth, **parameters)


def _short(shared, system):
    """The segments whose hypothesis has 1 to 3 whitespace tokens (auto_reweigh's case)."""
    hypotheses, references = wmt17_slice(shared, system)
    keep = [i for i, h in enumerate(hypotheses) if 0 < len(h.split()) < 4]
    return [hypotheses[i] for i in keep], [references[i] for i in keep]


@pytest.mark.parametrize("smooth", NOT_6)
@pytest.mark.parametrize("system", ["online-A.0", "C-3MA.4959"])
def test_auto_reweigh_sentences(shared, system, smooth):
    hypotheses, references = _short(shared, system)
    assert len(hypotheses) >= 10
    assert_same_as_nltk(hypotheses, references, "sentence", smooth=smooth, auto_reweigh=True)


# NLTK re-weighs only when the weights equal the tuple (0.25, 0.25, 0.25, 0.25) (``weight == (0.25, ...)``),
# so not when the same weights come as a list.
@pytest.mark.parametrize("weights", [(0.25,) * 4, [0.25] * 4], ids=["tuple", "list"])
def test_auto_reweigh_weights_given(shared, weights):
    assert_same_as_nltk(*_short(shared, "online-A.0"), "sentence", smooth="method1", auto_reweigh=True, weights=weights)


@pytest.mark.parametrize("smooth", ["method0", "method1", "method4"])
def test_auto_reweigh_corpus_of_one(shared, smooth):
    """A corpus of one short hypothesis: the corpus length is under 4 tokens."""
    for hypothesis, reference in zip(*_short(shared, "online-A.0")):
        assert_same_as_nltk([hypothesis], [reference], "corpus", smooth=smooth, auto_reweigh=True)


# --------------------------------------------------------------------------- method6 and its assertion


def _outcome(error, score, *args, **kwargs):
    """``score(*args, **kwargs)``, or the string "error" when it raises ``error``."""
    try:
        return score(*args, **kwargs)
    except error:
        return "error"


def _method6_sentences(shared, spec):
    """(hypotheses, references, NLTK's sentence_bleu with method6 per sentence or "error")."""
    hypotheses, references = corpus_slice(shared, spec)
    smoothing = SmoothingFunction().method6
    expected = [
        _outcome(AssertionError, sentence_bleu, r, h, smoothing_function=smoothing)
        for h, r in zip(*whitespace_tokens(hypotheses, references))
    ]
    assert 0 < expected.count("error") < len(expected), "the slice should hold both kinds of sentence"
    return hypotheses, references, expected


@pytest.mark.parametrize("spec", SENTENCES, ids=_spec_id)
@pytest.mark.slow
def test_method6_sentences_alone(shared, spec):
    """Each sentence scored alone: where NLTK's assertion p_3 > 0 fails (AssertionError) ngrameval
    raises ValueError; elsewhere it gives NLTK's score (NLTK returns 0 without smoothing, hence
    without asserting, when no unigram matches)."""
    hypotheses, references, expected = _method6_sentences(shared, spec)
    got = [
        _outcome(ValueError, lambda h, r: ours([h], [r], smooth="method6").bleu, h, r)
        for h, r in zip(hypotheses, references)
    ]
    differ = [
        (i, g, e)
        for i, (g, e) in enumerate(zip(got, expected))
        if ("error" in (g, e) and g != e) or ("error" not in (g, e) and not math.isclose(g, e, rel_tol=1e-9))
    ]
    assert not differ, f"{len(differ)} sentences differ; (index, got, NLTK): {differ[:10]}"


@pytest.mark.parametrize("spec", SENTENCES, ids=_spec_id)
def test_method6_sentences_together(shared, spec):
    """The sentences NLTK scores, in one call with sentence_level=True."""
    hypotheses, references, expected = _method6_sentences(shared, spec)
    scored = [i for i, e in enumerate(expected) if e != "error"]
    result = ours(
        [hypotheses[i] for i in scored], [references[i] for i in scored], smooth="method6", sentence_level=True
    )
    assert_close(
        dict(zip(scored, result.sentence_scores)), {i: expected[i] for i in scored}, what="method6 sentence scores"
    )


def test_method6_corpus_without_trigram_match(shared):
    """A corpus of hypotheses of at most 2 tokens has no trigram: NLTK's assertion fails,
    ngrameval raises ValueError."""
    hypotheses, references = [], []
    for hypothesis, reference in zip(*_short(shared, "uedin-nmt.4722")):
        if len(hypothesis.split()) <= 2:
            hypotheses.append(hypothesis)
            references.append(reference)
    assert hypotheses
    with pytest.raises(AssertionError):
        nltk_corpus(hypotheses, references, smooth="method6")
    with pytest.raises(ValueError):
        ours(hypotheses, references, smooth="method6")
