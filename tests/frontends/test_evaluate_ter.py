"""The evaluate front end metrics/ter: loaded offline with ``evaluate.load``, it returns exactly what
ngrameval.ter returns for every string input shape, through compute and add_batch; its documented
examples and its card's (checked against sacrebleu and HF's ter card) run; its info documents every
option; bad input gets ngrameval's ValueError."""

import inspect
import re

import pytest

from ngrameval.metrics.ter import ter
from tests.frontends.test_evaluate_load import SHAPES, _assert_plain, load  # noqa: F401 (load: a fixture)

STRING_SHAPES = [shape for shape in SHAPES if "token" not in shape]
OPTIONS = [
    {},
    {"normalized": True, "no_punct": True, "sentence_level": True},
    {"ignore_punct": True, "support_zh_ja_chars": True, "case_sensitive": True, "explain": True},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("shape", STRING_SHAPES)
def test_compute_returns_what_ngrameval_returns(load, options, shape):
    predictions, references = SHAPES[shape]
    result = load("ter").compute(predictions=predictions, references=references, **options)
    assert result == ter(predictions, references, **options).as_dict()
    _assert_plain(result)
    if options.get("sentence_level"):
        assert len(result["sentence_scores"]) == len(predictions)


@pytest.mark.parametrize("shape", ["strings, several references", "strings, one reference string"])
def test_add_batch_in_two_batches_equals_the_whole_corpus(load, shape):
    predictions, references = SHAPES[shape]
    metric = load("ter")
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    assert metric.compute(sentence_level=True) == ter(predictions, references, sentence_level=True).as_dict()


def test_info_documents_every_option_and_output(load):
    info = load("ter").info
    assert "Snover" in info.citation and "Post, Matt" in info.citation
    arguments, outputs = info.inputs_description.split("Args:")[1].split("Examples:")[0].split("Returns:")
    documented = set(re.findall(r"^    (\w+)[ :]", arguments, flags=re.MULTILINE))
    assert documented == set(inspect.signature(ter).parameters) | {"confidence"}
    full = ter(["a b"], ["b a"], sentence_level=True, explain=True).as_dict()
    assert set(re.findall(r"^    (\w+) \(", outputs, flags=re.MULTILINE)) == set(full) | {"confidence"}


@pytest.mark.parametrize(
    "predictions, references, message",
    [
        (["a b", "c"], [["a b"]], "differ in length"),
        (["a b", None], ["a b", "c"], r"predictions\[1\] is None"),
        (["a b"], [["a b", 7]], r"references\[0\]\[1\] is int"),
        ([["a", "b"]], [["a", "b"]], "TER tokenizes text itself"),
    ],
)
def test_bad_input_gets_ngrameval_errors(load, predictions, references, message):
    with pytest.raises(ValueError, match=message):
        load("ter").compute(predictions=predictions, references=references)
