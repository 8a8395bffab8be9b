"""CIDEr's options (library and evaluate script) and the COCO suite's: orders bounded by
``ngrameval.engine.inputs.MAX_ORDER`` and refused at once beyond it, sigma finite and positive, flags real
booleans, a ValueError naming the option; callable tokenizers (also unhashable ones) work, with no
stale result when the same object tokenizes otherwise on the next call."""

from __future__ import annotations

from pathlib import Path

import evaluate
import numpy as np
import pytest

import ngrameval
from ngrameval.engine.inputs import MAX_ORDER
from ngrameval.metrics.cider import DocumentFrequency
from tests.callables import UnhashableSplitter

ROOT = Path(__file__).resolve().parents[2]
PREDICTIONS = ["a man rides a horse", "two dogs are playing in grass", "a cat"]
REFERENCES = [
    ["a man riding a horse on a beach", "a person rides a horse"],
    ["two dogs play in the grass", "dogs playing on a lawn"],
    ["a cat on a mat"],
]
NAN, INF = float("nan"), float("inf")

CIDER_BAD = [
    ({"max_order": 10**6}, f"max_order must be an integer from 1 to {MAX_ORDER}, got 1000000"),
    ({"max_order": MAX_ORDER + 1}, "max_order must be an integer from 1 to"),
    ({"max_order": 0}, "max_order"),
    ({"max_order": -1}, "max_order"),
    ({"max_order": True}, "max_order"),
    ({"max_order": 4.0}, "max_order"),
    ({"max_order": "4"}, "max_order"),
    ({"sigma": NAN}, "sigma must be a finite number > 0, got nan"),
    ({"sigma": INF}, "sigma"),
    ({"sigma": 0}, "sigma must be a finite number > 0, got 0"),
    ({"sigma": -6.0}, "sigma"),
    ({"sigma": "6"}, "sigma"),
    ({"sigma": True}, "sigma"),
    ({"lowercase": "no"}, "lowercase must be True or False, got 'no'"),
    ({"lowercase": 0}, "lowercase"),
    ({"explain": "yes"}, "explain must be True or False, got 'yes'"),
]


@pytest.mark.parametrize("options, message", CIDER_BAD, ids=lambda value: repr(value)[:40])
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.cider(PREDICTIONS, REFERENCES, **options)


@pytest.fixture(scope="module")
def evaluate_cider():
    return evaluate.load(str(ROOT / "metrics" / "cider"))


@pytest.mark.parametrize(
    "options, message", [CIDER_BAD[0], CIDER_BAD[7], CIDER_BAD[13]], ids=["order", "sigma", "lowercase"]
)
def test_evaluate_bad_options(evaluate_cider, options, message):
    with pytest.raises(ValueError, match=message):
        evaluate_cider.compute(predictions=PREDICTIONS, references=REFERENCES, **options)


def test_document_frequency_bad_options():
    with pytest.raises(ValueError, match="max_order must be an integer from 1 to"):
        DocumentFrequency.from_references(REFERENCES, max_order=10**6)
    with pytest.raises(ValueError, match="lowercase must be True or False"):
        DocumentFrequency.from_references(REFERENCES, lowercase="yes")


def test_numpy_numbers_and_the_largest_order():
    assert (
        ngrameval.cider(PREDICTIONS, REFERENCES, max_order=np.int64(3), sigma=np.float64(6.0)).scores
        == ngrameval.cider(PREDICTIONS, REFERENCES, max_order=3).scores
    )
    assert len(ngrameval.cider(PREDICTIONS, REFERENCES, max_order=MAX_ORDER).scores) == 3


def test_callable_tokenizers():
    whitespace = ngrameval.cider(PREDICTIONS, REFERENCES)
    for tokenizer in (str.split, lambda text: text.split(), UnhashableSplitter()):
        assert ngrameval.cider(PREDICTIONS, REFERENCES, tokenize=tokenizer).scores == whitespace.scores
    predictions, references = ["a-b c", "d e"], [["a b c", "x"], ["d e"]]
    splitter = UnhashableSplitter()
    first = ngrameval.cider(predictions, references, tokenize=splitter).scores
    splitter.split_hyphens = True  # the same object now tokenizes otherwise
    second = ngrameval.cider(predictions, references, tokenize=splitter).scores
    assert second == ngrameval.cider(["a b c", "d e"], references).scores != first


def test_coco_suite_metrics_must_be_a_list():
    with pytest.raises(ValueError, match="metrics must be a list of metric names"):
        ngrameval.coco_caption(PREDICTIONS, REFERENCES, metrics="bleu")
