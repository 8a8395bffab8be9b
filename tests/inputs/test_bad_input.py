"""Every bad input gets a ValueError that names the problem; edge cases score without crashing."""

import re

import pytest

import ngrameval

GOOD_PREDICTIONS = ["the cat sat on the mat", "a dog"]
GOOD_REFERENCES = [["the cat sat on a mat"], ["a dog barked"]]

BAD_CORPORA = [
    (["a", "b"], [["a"]], "differ in length"),
    ([], [], "empty"),
    (["a"], [[]], r"references\[0\] is an empty list"),
    ([None], [["a"]], r"predictions\[0\] is None"),
    ([3], [["a"]], r"predictions\[0\] is int"),
    (["a"], [None], r"references\[0\] is None"),
    (["a"], [["a", None]], r"references\[0\]\[1\] is None"),
    (["a"], [[["a"]]], r"references\[0\]\[0\] is list"),
    ("a b", ["a b"], "predictions must be a list"),
    (["a b"], "a b", "references must be a list"),
    ([["a", "b"]], [[["a", 1]]], r"references\[0\]\[0\] contains a token of type int"),
    ([["a", "b"]], ["a b"], r"references\[0\] must be a token list"),
    ([["a", "b"], "c"], [["a"], ["c"]], r"predictions\[1\] must be a list of token strings"),
]


@pytest.mark.parametrize("score", [ngrameval.bleu, ngrameval.nist])
@pytest.mark.parametrize("predictions, references, message", BAD_CORPORA)
def test_bad_corpus_shapes_raise_clear_errors(score, predictions, references, message):
    with pytest.raises(ValueError, match=message):
        score(predictions, references)


BAD_BLEU_OPTIONS = [
    ({"variant": "bleurt"}, "unknown variant 'bleurt'; valid values: 'sacrebleu', 'nltk'"),
    ({"smooth": "method9"}, "unknown smooth for variant 'sacrebleu' 'method9'; valid values: 'none'"),
    ({"variant": "nltk", "smooth": "exp"}, "valid values: 'method0'"),
    ({"tokenize": "moses"}, "unknown tokenize 'moses'; valid names: none"),
    ({"max_order": 0}, "max_order must be an integer from 1 to 100"),
    ({"max_order": 2.5}, "max_order must be an integer from 1 to 100"),
    ({"weights": (0.5, -0.5)}, "must be finite and not negative"),
    ({"weights": (0.5, 0.5), "max_order": 4}, "have 2 entries but max_order is 4"),
    ({"weights": ("a", "b")}, "must contain numbers"),
    ({"weights": []}, "non-empty sequence"),
    ({"weights": [0, 0, 0, 0]}, "weights (0, 0, 0, 0) are all zero: variant 'sacrebleu' averages the log precisions"),
    ({"brevity_penalty": "longest"}, "unknown brevity_penalty 'longest'"),
    ({"variant": "nltk", "use_effective_order": True}, "use_effective_order is sacrebleu's option"),
]


@pytest.mark.parametrize("options, message", BAD_BLEU_OPTIONS)
def test_bad_bleu_options_raise_clear_errors(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ngrameval.bleu(GOOD_PREDICTIONS, GOOD_REFERENCES, **options)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"variant": "sacrebleu"}, "unknown variant 'sacrebleu'; valid values: 'nltk', 'mteval'"),
        ({"n": 0}, "n must be an integer from 1 to 100"),
        ({"tokenize": "spm"}, "unknown tokenize 'spm'"),
    ],
)
def test_bad_nist_options_raise_clear_errors(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ngrameval.nist(GOOD_PREDICTIONS, GOOD_REFERENCES, **options)


def test_method6_without_trigram_match_is_a_clear_error():
    with pytest.raises(ValueError, match="method6"):
        ngrameval.bleu(["a b c d"], [["a b x d"]], variant="nltk", smooth="method6")


@pytest.mark.parametrize("variant", ["sacrebleu", "nltk", "mteval", "nmt", "d2l"])
def test_empty_prediction_scores_zero(variant):
    result = ngrameval.bleu(["", "the cat"], [["the cat sat"], ["a dog"]], variant=variant, sentence_level=True)
    assert result.sentence_scores[0] == 0.0
    only_empty = ngrameval.bleu([""], [["the cat sat"]], variant=variant)
    assert only_empty.bleu == 0.0
    # d2l splits on single spaces: an empty line is one empty token, so its brevity penalty is not 0.
    assert (only_empty.brevity_penalty == 0.0) == (variant != "d2l")


@pytest.mark.parametrize("variant", ["nltk", "mteval"])
def test_empty_prediction_nist_is_zero(variant):
    result = ngrameval.nist(["", "the cat"], [["the cat sat"], ["the cat"]], variant=variant, sentence_level=True)
    assert result.sentence_scores[0] == 0.0
    assert ngrameval.nist([""], [["the cat sat"]], variant=variant).nist == 0.0


def test_empty_reference_string_is_allowed():
    result = ngrameval.bleu(["the cat"], [[""]], sentence_level=True)
    assert result.bleu == 0.0 and result.reference_length == 0


def test_callable_tokenizer_must_return_strings():
    with pytest.raises(ValueError, match="must return a string or a list of strings"):
        ngrameval.bleu(["a b"], ["a b"], tokenize=lambda line: [1, 2])
