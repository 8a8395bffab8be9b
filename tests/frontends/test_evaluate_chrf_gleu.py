"""The evaluate front ends metrics/chrf and metrics/gleu: loaded offline with ``evaluate.load``, they
return exactly what ngrameval returns for every input shape, through compute and add_batch, their
documented examples (checked against HF's google_bleu card, sacrebleu and NLTK) run, and bad input gets
ngrameval's ValueError."""

import pytest

from ngrameval.metrics.chrf import chrf
from ngrameval.metrics.gleu import gleu
from tests.frontends.test_evaluate_load import SHAPES, _assert_plain, load  # noqa: F401 (load: a fixture)

LIBRARY = {"chrf": chrf, "gleu": gleu}
OPTIONS = [
    ("chrf", {}),
    ("chrf", {"word_order": 2, "beta": 1, "lowercase": True, "whitespace": True, "sentence_level": True}),
    ("chrf", {"char_order": 4, "eps_smoothing": True, "sentence_level": True}),
    ("gleu", {}),
    ("gleu", {"variant": "google_bleu", "min_len": 2, "max_len": 3, "sentence_level": True}),
]
# NLTK's chrF takes one reference per prediction: the shapes with one reference each.
ONE_REFERENCE = ("strings, one reference string", "token lists, one token list")


NLTK_CHRF = ("chrf", {"variant": "nltk", "sentence_level": True})
CASES = [(name, options, shape) for name, options in OPTIONS for shape in SHAPES] + [
    NLTK_CHRF + (shape,) for shape in ONE_REFERENCE
]


@pytest.mark.parametrize("name, options, shape", CASES)
def test_compute_returns_what_ngrameval_returns(load, name, options, shape):
    predictions, references = SHAPES[shape]
    result = load(name).compute(predictions=predictions, references=references, **options)
    assert result == LIBRARY[name](predictions, references, **options).as_dict()
    _assert_plain(result)
    if options.get("sentence_level"):
        assert len(result["sentence_scores"]) == len(predictions)


@pytest.mark.parametrize("name, options", OPTIONS)
@pytest.mark.parametrize(
    "shape", ["strings, several references", "strings, one reference string", "token lists, lists of token lists"]
)
def test_add_batch_in_two_batches_equals_the_whole_corpus(load, name, options, shape):
    predictions, references = SHAPES[shape]
    metric = load(name)
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    assert metric.compute(**options) == LIBRARY[name](predictions, references, **options).as_dict()


@pytest.mark.parametrize("name", LIBRARY)
@pytest.mark.parametrize(
    "predictions, references, message",
    [
        (["a b", "c"], [["a b"]], "differ in length"),
        (["a b", None], ["a b", "c"], r"predictions\[1\] is None"),
        (["a b"], [["a b", 7]], r"references\[0\]\[1\] is int"),
    ],
)
def test_bad_input_gets_ngrameval_errors(load, name, predictions, references, message):
    with pytest.raises(ValueError, match=message):
        load(name).compute(predictions=predictions, references=references)
