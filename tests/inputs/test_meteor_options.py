"""METEOR's options (both variants, the library and the evaluate script): every number finite and in
METEOR's range, flags real booleans, with a ValueError naming the option; sequences of any kind
(lists, tuples, numpy arrays) and callable tokenizers (also unhashable ones) work."""

from __future__ import annotations

from pathlib import Path

import evaluate
import numpy as np
import pytest

import ngrameval
from tests.callables import UnhashableSplitter

ROOT = Path(__file__).resolve().parents[2]
PREDICTIONS = ["the cat sat on the mat", "a dog barks"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks"]]
NAN, INF = float("nan"), float("inf")

METEOR15_BAD = [
    ({"parameters": [NAN, 0.2, 0.6, 0.75]}, r"parameters\[0\] \(alpha\) must be a finite number in \[0, 1\], got nan"),
    ({"parameters": [0.85, INF, 0.6, 0.75]}, r"parameters\[1\] \(beta\) must be a finite number >= 0, got inf"),
    ({"parameters": [0.85, -0.2, 0.6, 0.75]}, r"parameters\[1\] \(beta\)"),
    ({"parameters": [0.85, 0.2, 1.5, 0.75]}, r"parameters\[2\] \(gamma\) must be a finite number in \[0, 1\]"),
    ({"parameters": [0.85, 0.2, 0.6, -INF]}, r"parameters\[3\] \(delta\)"),
    ({"parameters": [0.85, 0.2, 0.6, "0.75"]}, r"parameters\[3\] \(delta\) .* got '0.75'"),
    ({"parameters": [True, 0.2, 0.6, 0.75]}, r"parameters\[0\] \(alpha\) .* got True"),
    ({"parameters": "0.85 0.2 0.6 0.75"}, r"parameters must be \(alpha, beta, gamma, delta\)"),
    ({"weights": [1.0, 0.6, NAN, 0.6]}, r"weights\[2\] must be a finite number in \[0, 1\], got nan"),
    ({"weights": [1.0, 0.6, 0.8, -0.1]}, r"weights\[3\]"),
    ({"weights": [1.0, 0.6, 0.8, 1.5]}, r"weights\[3\]"),
    ({"weights": [1.0, 0.6, 0.8, None]}, r"weights\[3\] .* got None"),
    ({"weights": "1 1 1 1"}, "one weight per module"),
    ({"beam_size": True}, "beam_size must be a positive integer, got True"),
    ({"beam_size": 0}, "beam_size must be a positive integer"),
    ({"beam_size": 2.5}, "beam_size must be a positive integer"),
    ({"beam_size": "40"}, "beam_size must be a positive integer"),
    ({"explain": "no"}, "explain must be True or False, got 'no'"),
    ({"explain": 1}, "explain must be True or False, got 1"),
]

NLTK_BAD = [
    ({"alpha": NAN}, r"alpha must be a finite number in \[0, 1\], got nan"),
    ({"alpha": 1.5}, r"alpha must be a finite number in \[0, 1\]"),
    ({"alpha": "0.9"}, r"alpha .* got '0.9'"),
    ({"beta": INF}, "beta must be a finite number >= 0, got inf"),
    ({"beta": -1}, "beta must be a finite number >= 0"),
    ({"beta": True}, "beta .* got True"),
    ({"gamma": NAN}, r"gamma must be a finite number in \[0, 1\], got nan"),
    ({"gamma": -INF}, "gamma"),
    ({"explain": "yes"}, "explain must be True or False, got 'yes'"),
    ({"tokenize": "13a"}, "unknown tokenize '13a'"),
]


@pytest.mark.parametrize("options, message", METEOR15_BAD, ids=lambda value: repr(value)[:40])
def test_meteor15_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.meteor(PREDICTIONS, REFERENCES, **options)


@pytest.mark.parametrize("options, message", NLTK_BAD, ids=lambda value: repr(value)[:40])
def test_nltk_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.meteor(PREDICTIONS, REFERENCES, variant="nltk", **options)


@pytest.fixture(scope="module")
def evaluate_meteor():
    return evaluate.load(str(ROOT / "metrics" / "meteor"))


@pytest.mark.parametrize(
    "options, message", [METEOR15_BAD[0], METEOR15_BAD[8], NLTK_BAD[0] + ()], ids=["parameters", "weights", "alpha"]
)
def test_evaluate_bad_options(evaluate_meteor, options, message):
    variant = {"variant": "nltk"} if "alpha" in options else {}
    with pytest.raises(ValueError, match=message):
        evaluate_meteor.compute(predictions=PREDICTIONS, references=REFERENCES, **variant, **options)


def test_coco_suite_passes_meteor_options_checked():
    with pytest.raises(ValueError, match=r"parameters\[0\] \(alpha\)"):
        ngrameval.coco_caption(
            PREDICTIONS, REFERENCES, metrics=("meteor",), meteor_options={"parameters": [NAN, 0.2, 0.6, 0.75]}
        )


def test_meteor15_sequences_of_any_kind():
    """Lists, tuples and numpy arrays of the same values are the same options (and the same cached scorer)."""
    as_list = ngrameval.meteor(PREDICTIONS, REFERENCES, weights=[1.0, 0.6, 0.8, 0.6], parameters=[0.85, 0.2, 0.6, 0.75])
    as_array = ngrameval.meteor(
        PREDICTIONS,
        REFERENCES,
        weights=np.array([1.0, 0.6, 0.8, 0.6]),
        parameters=(np.float64(0.85), 0.2, 0.6, 0.75),
        modules=("exact", "stem", "synonym", "paraphrase"),
    )
    assert as_array.scores == as_list.scores and as_array.meteor == as_list.meteor


def test_nltk_callable_tokenizers():
    """A function or an unhashable callable object tokenizes as given, call after call (no stale results
    from an earlier tokenizer)."""
    whitespace = ngrameval.meteor(PREDICTIONS, REFERENCES, variant="nltk", tokenize="whitespace")
    for tokenizer in (str.split, lambda text: text.split(), UnhashableSplitter()):
        result = ngrameval.meteor(PREDICTIONS, REFERENCES, variant="nltk", tokenize=tokenizer)
        assert result.scores == whitespace.scores
    splitter = UnhashableSplitter()
    first = ngrameval.meteor(["a-b c"], ["a b c"], variant="nltk", tokenize=splitter).scores
    splitter.split_hyphens = True  # the same object now tokenizes otherwise
    second = ngrameval.meteor(["a-b c"], ["a b c"], variant="nltk", tokenize=splitter).scores
    assert second == ngrameval.meteor(["a b c"], ["a b c"], variant="nltk", tokenize="whitespace").scores != first
    with pytest.raises(ValueError, match="must return a string or a list of strings"):
        ngrameval.meteor(PREDICTIONS, REFERENCES, variant="nltk", tokenize=lambda text: [1, 2])
