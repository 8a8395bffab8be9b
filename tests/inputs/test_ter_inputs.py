"""ngrameval.ter's inputs and options: bad input gets a clear ValueError; HF evaluate's option names;
the metric protocol (rows add up, any sum of rows scores as sacrebleu scores it); explanations that
account for every edit; edge cases (empty lines, empty references) score without crashing."""

import numpy as np
import pytest

from ngrameval.metric import get_family
from ngrameval.metrics.ter import Shift, TercomTokenizer, ter

PREDICTIONS = ["the cat sat on the mat", "mat the dog barks", "", "a b c"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks mat"], ["a b"], [""]]


@pytest.mark.parametrize(
    "predictions, references, message",
    [
        (["a", "b"], [["a"]], "differ in length"),
        ([], [], "empty"),
        (["a"], [[]], r"references\[0\] is an empty list"),
        ([None], [["a"]], r"predictions\[0\] is None"),
        (["a"], [["a", 3]], r"references\[0\]\[1\] is int"),
        ("a b", ["a b"], "predictions must be a list"),
        ([["a", "b"]], [[["a", "b"]]], "TER tokenizes text itself"),
    ],
)
def test_bad_corpora_raise_clear_errors(predictions, references, message):
    with pytest.raises(ValueError, match=message):
        ter(predictions, references)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"normalized": "yes"}, "normalized must be True or False"),
        ({"ignore_punct": 1}, "ignore_punct must be True or False"),
        ({"no_punct": True, "ignore_punct": False}, "ignore_punct=False contradicts no_punct=True"),
        ({"asian_support": True, "support_zh_ja_chars": False}, "support_zh_ja_chars=False contradicts asian_support"),
        ({"sentence_level": None}, "sentence_level must be True or False"),
    ],
)
def test_bad_options_raise_clear_errors(options, message):
    with pytest.raises(ValueError, match=message):
        ter(PREDICTIONS, REFERENCES, **options)


def test_unknown_options_are_named_by_the_protocol():
    with pytest.raises(ValueError, match="unknown options for ter: lower_case; valid options: normalized"):
        get_family("ter").statistics(PREDICTIONS, REFERENCES, lower_case=True)


@pytest.mark.parametrize(
    "hf, ours",
    [
        ({"ignore_punct": True}, {"no_punct": True}),
        ({"support_zh_ja_chars": True}, {"asian_support": True}),
        ({"ignore_punct": False}, {}),
        ({"no_punct": True, "ignore_punct": True}, {"no_punct": True}),
    ],
)
def test_huggingface_names(hf, ours):
    assert ter(PREDICTIONS, REFERENCES, **hf).as_dict() == ter(PREDICTIONS, REFERENCES, **ours).as_dict()


def test_rows_add_up_and_any_sum_scores_as_the_corpus():
    family = get_family("ter")
    stats = family.statistics(PREDICTIONS, REFERENCES)
    first = family.statistics(PREDICTIONS[:2], REFERENCES[:2])
    rest = family.statistics(PREDICTIONS[2:], REFERENCES[2:])
    assert np.array_equal(stats.rows, np.vstack([first.rows, rest.rows]))
    assert family.score(stats)[0, 0] == ter(PREDICTIONS, REFERENCES).ter
    weights = np.array([[2, 0, 1, 1], [0, 0, 0, 1], [0, 0, 1, 0]])
    resampled = family.score(stats, weights)[:, 0]
    for row, w in zip(resampled, weights):
        picked = [i for i, count in enumerate(w) for _ in range(count)]
        assert row == pytest.approx(
            ter([PREDICTIONS[i] for i in picked], [REFERENCES[i] for i in picked]).ter, rel=1e-15
        )
    # An empty reference with a non-empty prediction scores 1; empty against empty, 0.
    assert family.score(stats, np.array([[0, 0, 0, 1]]))[0, 0] == 1.0
    assert ter([""], [""]).ter == 0.0


def test_identical_texts_score_zero_and_sentence_scores_are_per_row():
    result = ter(PREDICTIONS[:2], PREDICTIONS[:2], sentence_level=True)
    assert result.ter == 0.0 and result.sentence_scores == [0.0, 0.0]
    result = ter(PREDICTIONS, REFERENCES, sentence_level=True)
    rows = result.statistics.rows
    assert result.sentence_scores == [e / r if r else float(e > 0) for e, r in rows.tolist()]


def test_explanations_account_for_every_edit():
    result = ter(PREDICTIONS, REFERENCES, explain=True)
    for segment, row in zip(result.explanation, result.statistics.rows):
        assert segment["num_edits"] == row[0] == len(segment["shifts"]) + len(segment["edits"])
        shifted = list(segment["prediction_tokens"])
        for shift in segment["shifts"]:
            assert shifted[shift["from"] : shift["from"] + len(shift["words"])] == shift["words"]
            block = len(shift["words"])
            shifted = shifted[: shift["from"]] + shifted[shift["from"] + block :]
            shifted = shifted[: shift["to"]] + shift["words"] + shifted[shift["to"] :]
        assert shifted == segment["shifted_tokens"]
    second = result.explanation[1]
    assert second["shifts"] == [{"words": ["mat"], "from": 0, "to": 3}] and second["edits"] == []
    assert [edit["op"] for edit in result.explanation[3]["edits"]] == ["deletion"] * 3


def test_shift_targets_inside_the_block_move_it_as_sacrebleu_does():
    # sacrebleu's _perform_shift reads a target inside (or right after) the block as "past it".
    from sacrebleu.metrics.lib_ter import _perform_shift

    words = list("abcdefgh")
    for start in range(6):
        for length in range(1, 4):
            for target in range(9):
                shift = Shift(start, length, target)
                assert shift.apply(words) == _perform_shift(words, start, length, target)


def test_tokenizer_reads_references_twice():
    tokenizer = TercomTokenizer(normalized=True)
    assert tokenizer.reference_words("a's.") == ("a", "'s", ".")
    assert tokenizer.prediction_words("a's.") == ["a's", "."]
