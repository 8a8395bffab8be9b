"""BLEU and NIST have one path (issue #25): ``ngrameval.bleu`` and ``ngrameval.nist`` are their family's
``compute``, so ``result.statistics`` is the :class:`ngrameval.Statistics` that ``ngrameval.statistics`` gives
for the same options, the family scores it to ``result``'s score, and what the family's statistics step
returns is what the public function reports. Every BLEU variant and smoothing method, and NIST's variants,
with the peers (NLTK, sacrebleu) on the same statistics."""

import random
from dataclasses import replace

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
from nltk.translate.nist_score import corpus_nist, sentence_nist
from sacrebleu.metrics import BLEU

import ngrameval
from ngrameval.metric import get_family, sentence_scores
from ngrameval.metrics import bleu as bleu_module
from ngrameval.metrics import nist as nist_module
from ngrameval.metrics.bleu import SMOOTHING
from tests.data import as_streams, assert_close, whitespace_tokens
from tests.search import cases

# Every prediction that matches a word also matches a trigram (NLTK's method6 asserts p_3 > 0 where a word
# matches), one matches nothing, one is shorter than the order; the number of references varies.
PREDICTIONS = [
    "the cat sat on the mat today",
    "a quick brown fox jumps over the dog",
    "it is a guide to action",
    "zz yy",
    "the cat sat",
]
REFERENCES = [
    ["the cat sat on a mat today", "there is a cat on the mat"],
    ["the quick brown fox jumps over the lazy dog"],
    ["it is a guide to action that ensures", "it is the guiding principle"],
    ["a b c"],
    ["the cat sat on a mat"],
]
COCO_WEIGHTS = [(1.0,), (0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4]
BLEU_OPTIONS = [{"variant": variant, "smooth": smooth} for variant, smooths in SMOOTHING.items() for smooth in smooths]
BLEU_OPTIONS += [
    {"smooth": "floor", "smooth_value": 0.2},
    {"smooth": "add-k", "smooth_value": 2},
    {"use_effective_order": True},
    {"brevity_penalty": "average"},  # (a column of floats summed pairwise)
    {"variant": "nltk", "smooth": "method1", "weights": [(0.5, 0.5), (1 / 3,) * 3]},
    {"variant": "nltk", "smooth": "method5", "max_order": 3},  # (method5 reads the last sentence's 5-grams)
    {"variant": "nltk", "auto_reweigh": True, "weights": (0.25,) * 4},
    {"variant": "coco", "weights": COCO_WEIGHTS},
    {"variant": "d2l", "max_order": 2},
    {"variant": "nmt", "brevity_penalty": "closest", "lowercase": True},
]
NIST_OPTIONS = [{"variant": variant, "n": n} for variant in ("nltk", "mteval") for n in (1, 3, 5)]
NIST_OPTIONS += [{"max_order": 4, "lowercase": True}, {"variant": "mteval", "tokenize": "none"}]


def _ids(options_list):
    return [",".join(f"{name}={value}" for name, value in options.items()) for options in options_list]


def _as_list(score):
    return score if isinstance(score, list) else [score]


def assert_one_path(metric, result, options):
    """``result.statistics`` is ``ngrameval.statistics(metric, ...)`` and the family scores it to the result."""
    stats = ngrameval.statistics(metric, PREDICTIONS, REFERENCES, **options)
    assert isinstance(result.statistics, ngrameval.Statistics)
    assert result.statistics.rows.tolist() == stats.rows.tolist()
    assert (result.statistics.outputs, result.statistics.signature) == (stats.outputs, stats.signature)
    assert result.signature == stats.signature
    family = get_family(metric)
    assert family.score(result.statistics)[0].tolist() == _as_list(getattr(result, metric))
    # The sentence scores are the protocol's (those of every front end, resamples and reward functions).
    expected, _ = sentence_scores(metric, PREDICTIONS, REFERENCES, **options)
    assert [_as_list(score) for score in result.sentence_scores] == [list(row) for row in expected]
    # A corpus merged shard by shard gets its result from the family's result of the sums: the same one.
    plain = getattr(ngrameval, metric)(PREDICTIONS, REFERENCES, **options)
    assert family.result(stats, stats.totals(), stats.rows[:, :0]).as_dict() == plain.as_dict()


@pytest.mark.parametrize("options", BLEU_OPTIONS, ids=_ids(BLEU_OPTIONS))
def test_bleu_is_its_statistics_scored(options):
    result = ngrameval.bleu(PREDICTIONS, REFERENCES, sentence_level=True, **options)
    assert_one_path("bleu", result, options)
    assert result.sentence_signature is not None and result.explanation is None


@pytest.mark.parametrize("smooth", [f"method{i}" for i in range(8)])
def test_bleu_statistics_scored_as_nltk(smooth):
    """NLTK's corpus_bleu of the same sentences is the family's score of ``result.statistics``."""
    result = ngrameval.bleu(PREDICTIONS, REFERENCES, variant="nltk", smooth=smooth)
    hypotheses, references = whitespace_tokens(PREDICTIONS, REFERENCES)
    expected = corpus_bleu(references, hypotheses, smoothing_function=getattr(SmoothingFunction(), smooth))
    assert_close(get_family("bleu").score(result.statistics)[0, 0], expected, rel=1e-12, what=f"NLTK {smooth}")


def test_bleu_random_search_against_sacrebleu():
    """Seeded random corpora: sacrebleu's corpus score, for each smoothing, is the family's score of
    ``result.statistics`` (and the result's own)."""
    rng = random.Random(2501)
    words = "the a cat dog sat on mat rug . , runs".split()
    for _ in range(cases(12)):
        count = rng.randint(1, 6)
        predictions = [" ".join(rng.choices(words, k=rng.randint(0, 9))) for _ in range(count)]
        references = [[" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(2)] for _ in range(count)]
        for smooth in SMOOTHING["sacrebleu"]:
            expected = BLEU(smooth_method=smooth).corpus_score(predictions, as_streams(references)).score
            result = ngrameval.bleu(predictions, references, smooth=smooth)
            scored = get_family("bleu").score(result.statistics)[0, 0]
            assert_close([scored * 100, result.bleu * 100], [expected] * 2, rel=1e-12, what=f"sacrebleu {smooth}")


def test_bleu_explanation_and_sentence_parts_come_with_the_statistics():
    result = ngrameval.bleu(PREDICTIONS, REFERENCES, variant="nltk", explain=True, sentence_level=True)
    assert len(result.explanation) == len(PREDICTIONS) == len(result.statistics)
    assert result.sentence_signature == result.signature  # (only sacrebleu's differs: eff:yes)
    sacrebleu = ngrameval.bleu(PREDICTIONS, REFERENCES, sentence_level=True)
    assert sacrebleu.sentence_signature == sacrebleu.signature.replace("eff:no", "eff:yes")


@pytest.mark.parametrize("options", NIST_OPTIONS, ids=_ids(NIST_OPTIONS))
def test_nist_is_its_statistics_scored(options):
    result = ngrameval.nist(PREDICTIONS, REFERENCES, sentence_level=True, explain=True, **options)
    assert_one_path("nist", result, options)
    assert len(result.explanation) == len(PREDICTIONS)


@pytest.mark.parametrize("n", [1, 3, 5])
def test_nist_statistics_scored_as_nltk(n):
    """NLTK's corpus_nist is the family's score of ``result.statistics``; its sentence_nist (information from
    each sentence's own references) the result's sentence scores."""
    result = ngrameval.nist(PREDICTIONS, REFERENCES, n=n, sentence_level=True)
    hypotheses, references = whitespace_tokens(PREDICTIONS, REFERENCES)
    expected = corpus_nist(references, hypotheses, n=n)
    assert_close(get_family("nist").score(result.statistics)[0, 0], expected, rel=1e-12, what="corpus_nist")
    expected_sentences = {}
    for i, (hypothesis, group) in enumerate(zip(hypotheses, references)):
        try:
            expected_sentences[i] = sentence_nist(group, hypothesis, n=n)
        except ZeroDivisionError:  # (NLTK divides by a sentence's n-grams of an order it has none of)
            continue
    assert len(expected_sentences) >= 3
    got = {i: result.sentence_scores[i] for i in expected_sentences}
    assert_close(got, expected_sentences, rel=1e-12, what="sentence_nist")


@pytest.mark.parametrize(
    "metric, options, module",
    [("bleu", {"variant": "mteval"}, bleu_module), ("nist", {"variant": "mteval"}, nist_module)],
)
def test_the_public_function_reports_what_the_family_computes(monkeypatch, metric, options, module):
    """No second path: the statistics the family's step returns are what the public function scores, sums
    and lists per sentence."""
    family = get_family(metric)
    other = family.statistics(["a b c d e"], [["a b c d e"]], **options)
    original = type(family).statistics_and_seen

    def other_rows(self, predictions, references, parts, **options):
        stats, seen = original(self, predictions, references, parts, **options)
        return replace(stats, rows=np.repeat(other.rows, len(stats), axis=0)), seen

    monkeypatch.setattr(type(family), "statistics_and_seen", other_rows)
    result = getattr(ngrameval, metric)(PREDICTIONS, REFERENCES, sentence_level=True, **options)
    alone = float(family.score(other)[0, 0])
    assert result.statistics.rows.tolist() == [other.rows[0].tolist()] * len(PREDICTIONS)
    assert result.sentence_scores == [alone] * len(PREDICTIONS)
    assert getattr(result, metric) == float(family.score(result.statistics)[0, 0])
    assert result.signature == family.statistics(PREDICTIONS, REFERENCES, **options).signature


@pytest.mark.parametrize(
    "metric, module, matcher, bad",
    [
        ("bleu", bleu_module, "map_blocks", {"variant": "nltk", "smooth": "exp"}),
        ("bleu", bleu_module, "map_blocks", {"sentence_level": "yes"}),
        ("bleu", bleu_module, "map_blocks", {"explain": 1}),
        ("nist", nist_module, "index_corpus", {"variant": "perl"}),
        ("nist", nist_module, "index_corpus", {"sentence_level": None}),
        ("nist", nist_module, "index_corpus", {"max_order": 3, "n": 4}),
    ],
)
def test_bad_options_are_refused_before_any_matching(monkeypatch, metric, module, matcher, bad):
    def never(*args, **kwargs):
        raise AssertionError("matched before the options were checked")

    monkeypatch.setattr(module, matcher, never)
    with pytest.raises(ValueError, match=next(iter(bad))):
        getattr(ngrameval, metric)(PREDICTIONS, REFERENCES, **bad)
