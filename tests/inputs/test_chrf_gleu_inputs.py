"""chrF and GLEU refuse bad input and bad options with the suite's clear ValueErrors (never a
TypeError, an assertion or a silent wrong score), and accept every input shape the suite accepts."""

import math
import re

import numpy as np
import pytest

import ngrameval.metrics.chrf
import ngrameval.metrics.gleu  # noqa: F401
from ngrameval.metric import get_family
from ngrameval.metrics.chrf import chrf
from ngrameval.metrics.gleu import gleu

PREDICTIONS = ["the cat sat on the mat", "a dog barks"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks"]]
METRICS = {"chrf": chrf, "gleu": gleu}


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize(
    "predictions, references, message",
    [
        ([], [], "empty"),
        (["a"], [["a"], ["b"]], "differ in length"),
        ("a b", ["a b"], "predictions must be a list"),
        (["a", None], [["a"], ["b"]], r"predictions\[1\]"),
        (["a"], [[]], "at least one reference"),
        (["a"], [[None]], r"references\[0\]\[0\]"),
    ],
)
def test_bad_input(metric, predictions, references, message):
    with pytest.raises(ValueError, match=message):
        METRICS[metric](predictions, references)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"variant": "chrF++"}, "unknown variant"),
        ({"char_order": 0}, "char_order must be an integer from 1 to 100"),
        ({"word_order": -1}, "word_order must be an integer from 0 to 100"),
        ({"word_order": True}, "word_order must be an integer from 0 to 100"),
        ({"word_order": 0.0}, "word_order must be an integer from 0 to 100"),
        ({"word_order": 101}, "word_order must be an integer from 0 to 100"),
        ({"beta": -1}, "beta must be a finite number >= 0"),
        ({"beta": math.nan}, "beta must be a finite number"),
        ({"beta": "2"}, "beta must be a finite number"),
        ({"lowercase": "yes"}, "lowercase must be True or False"),
        ({"whitespace": 1}, "whitespace must be True or False"),
        ({"eps_smoothing": None}, "eps_smoothing must be True or False"),
        ({"sentence_level": "no"}, "sentence_level must be True or False"),
        ({"min_char_order": 2}, "min_char_order is NLTK's option"),
        ({"variant": "nltk", "min_char_order": 4, "char_order": 3}, r"min_char_order \(4\) must not exceed"),
        ({"variant": "nltk", "word_order": 2}, "word_order is sacrebleu's option"),
        ({"variant": "nltk", "lowercase": True}, "lowercase is sacrebleu's option"),
        ({"variant": "nltk", "eps_smoothing": True}, "eps_smoothing is sacrebleu's option"),
    ],
)
def test_bad_chrf_options(options, message):
    with pytest.raises(ValueError, match=message):
        chrf(PREDICTIONS, [refs[:1] for refs in REFERENCES], **options)


def test_nltk_chrf_takes_one_reference():
    with pytest.raises(ValueError, match=re.escape("one reference per prediction; references[0] has 2")):
        chrf(PREDICTIONS, REFERENCES, variant="nltk")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"variant": "gleu"}, "unknown variant"),
        ({"min_len": 0}, "min_len must be an integer from 1 to 100"),
        ({"max_len": 10**6}, "max_len must be an integer from 1 to 100"),
        ({"max_len": 2.0}, "max_len must be an integer"),
        ({"min_len": 3, "max_len": 2}, r"min_len \(3\) must not exceed max_len \(2\)"),
        ({"tokenize": "moses"}, "unknown tokenize"),
        ({"sentence_level": 1}, "sentence_level must be True or False"),
    ],
)
def test_bad_gleu_options(options, message):
    with pytest.raises(ValueError, match=message):
        gleu(PREDICTIONS, REFERENCES, **options)


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_unknown_options_are_named(metric):
    with pytest.raises(ValueError, match="unknown options for .*: sentence_level"):
        get_family(metric).statistics(PREDICTIONS, REFERENCES, sentence_level=True)
    with pytest.raises(ValueError, match="unknown options for .*: nonsense"):
        get_family(metric).statistics(PREDICTIONS, REFERENCES, nonsense=1)


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_input_shapes_agree(metric):
    score = METRICS[metric]
    expected = score(PREDICTIONS, REFERENCES).as_dict()
    assert score(tuple(PREDICTIONS), tuple(tuple(r) for r in REFERENCES)).as_dict() == expected
    assert score(np.array(PREDICTIONS), REFERENCES).as_dict() == expected
    single = score(PREDICTIONS, [refs[0] for refs in REFERENCES]).as_dict()
    assert single == score(PREDICTIONS, [refs[:1] for refs in REFERENCES]).as_dict()


def test_empty_and_whitespace_lines_score_zero_not_nan():
    for result in (
        chrf(["", " "], [[""], ["\t"]], word_order=2, sentence_level=True),
        chrf(["", " "], ["", "\t"], variant="nltk", sentence_level=True),
        gleu(["", " "], [[""], ["\t"]], sentence_level=True),
    ):
        values = [v for v in result.as_dict().values() if isinstance(v, float)] + result.sentence_scores
        assert all(math.isfinite(v) and 0 <= v <= 1 for v in values)
