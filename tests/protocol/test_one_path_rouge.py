"""ROUGE has one path: ``ngrameval.rouge`` is its family's ``compute``. ``result.statistics`` is the
:class:`~ngrameval.Statistics` that ``ngrameval.statistics("rouge", ...)`` gives for the same options, whatever the
parts asked for (per-segment scores, intervals, ROUGE-1.5.5.pl's printed average), and the family's score of them
is the result's (the mean of the rows' F-measures; rouge-score's own F-measures checked here too); every part the
public function adds is read from those rows, so changing the rows the family counts changes what it returns."""

import random

import numpy as np
import pytest
from rouge_score import rouge_scorer

import ngrameval
from ngrameval.metric import Statistics, get_family, sentence_scores

WORDS = "the cat sat on a mat dog ran cats running quickly".split()
PREDICTIONS = ["the cat sat on the mat", "a dog ran\nquickly on the mat", "cats running"]
REFERENCES = [["the cat was on the mat", "a cat sat"], ["the dog ran\non a mat"], ["the cat is running"]]
# (options of the statistics, parts of the public function only)
CASES = [
    ({}, {}),
    ({"rouge_types": ["rougeLsum", "rougeW", "rougeS4", "rougeSU*"]}, {"use_aggregator": False}),
    ({"rouge_types": ["rouge1", "rougeS*", "rougeSU2"], "use_stemmer": True, "w": 1.5}, {"sentence_level": True}),
    ({"rouge_types": ["rouge2", "rougeL"], "multi_ref": "pooled", "alpha": 0.3}, {"bootstrap": {"seed": 3}}),
    ({"tokenizer": "whitespace", "remove_stopwords": True}, {"bootstrap": {"n_samples": 50, "seed": 1}}),
    ({"variant": "rouge155"}, {"aggregate": "mean"}),
    ({"variant": "rouge155", "rouge_types": ["rouge1", "rougeW", "rougeSU4"], "use_stemmer": True}, {}),
    ({"variant": "rouge155", "rouge_types": ["rougeL", "rougeS*"], "limit_words": 4}, {"use_aggregator": False}),
    ({"variant": "rouge155", "multi_ref": "best"}, {"bootstrap": {"n_samples": 100, "confidence": 0.9}}),
    ({"variant": "rouge155"}, {"aggregate": "bootstrap", "eval_ids": ["c", "a", "b"], "sentence_level": True}),
]


@pytest.mark.parametrize("options,parts", CASES)
def test_the_result_is_scored_from_the_statistics_of_its_options(options, parts):
    result = ngrameval.rouge(PREDICTIONS, REFERENCES, **options, **parts)
    stats = ngrameval.statistics("rouge", PREDICTIONS, REFERENCES, **options)
    assert isinstance(result.statistics, Statistics)
    np.testing.assert_array_equal(result.statistics.rows, stats.rows)
    assert (result.statistics.outputs, result.statistics.signature) == (stats.outputs, stats.signature)
    assert stats.outputs == tuple(result.rouge_types)
    family = get_family("rouge")
    mean = ngrameval.rouge(PREDICTIONS, REFERENCES, **options, aggregate="mean")
    assert family.corpus_scores(stats) == mean.fmeasure
    # every prediction's (precision, recall, F) of each type, as the rows hold them
    types = len(stats.outputs)
    np.testing.assert_array_equal(result.scores.transpose(1, 2, 0).reshape(len(stats), 3 * types), stats.rows[:, :-1])
    segment_f, _ = sentence_scores("rouge", PREDICTIONS, REFERENCES, **options)
    if result.sentence_scores is not None:
        assert result.sentence_scores == dict(zip(stats.outputs, segment_f.T.tolist()))
        assert result.precision == dict(zip(stats.outputs, stats.rows[:, :types].T.tolist()))
    elif result.intervals is not None and "mid" not in next(iter(result.intervals.values()))["fmeasure"]:
        # ROUGE-1.5.5.pl's printed average of the rows' F-measures (evaluation ids 1..N: its own interval)
        settings = {"n_samples": 1000, "confidence": 0.95, **parts.get("bootstrap", {})}
        printed = family.own_interval(stats, settings["n_samples"], settings["confidence"])
        assert {name: average for name, (average, _, _) in printed.items()} == result.fmeasure
        assert {name: {"low": low, "high": high} for name, (_, low, high) in printed.items()} == {
            name: bounds["fmeasure"] for name, bounds in result.intervals.items()
        }
    else:
        assert result.score == float(family.score(result.statistics)[0, 0])
        assert (result.precision, result.recall, result.fmeasure) == (mean.precision, mean.recall, mean.fmeasure)


def test_token_ids_take_the_same_path():
    predictions, references = [[5, 6, 7, 0, 0], [8, 9, 0, 0, 0]], [[[5, 6, 8, 7]], [[9, 8], [8, 9, 9]]]
    result = ngrameval.rouge(predictions, references, ["rouge1", "rougeL"], pad_id=0, use_aggregator=False)
    stats = ngrameval.statistics("rouge", predictions, references, rouge_types=["rouge1", "rougeL"], pad_id=0)
    np.testing.assert_array_equal(result.statistics.rows, stats.rows)
    assert result.signature == stats.signature and "tok:ids" in stats.signature
    # the same ids written as words: rouge-score's tokens
    words = ngrameval.rouge(
        ["5 6 7", "8 9"], [["5 6 8 7"], ["9 8", "8 9 9"]], ["rouge1", "rougeL"], use_aggregator=False
    )
    np.testing.assert_array_equal(words.statistics.rows, stats.rows)


def test_the_public_function_has_no_other_path(monkeypatch):
    """The public function's numbers are the rows that the family's ``statistics_and_seen`` gives: change
    those, and the aggregate, the per-prediction scores and ROUGE-1.5.5's printed average change with them."""
    family = get_family("rouge")
    counted = type(family).statistics_and_seen

    def halved(self, *args, **kwargs):
        stats, seen = counted(self, *args, **kwargs)
        stats.rows[:, :-1] /= 2
        return stats, seen

    expected = {
        variant: ngrameval.rouge(PREDICTIONS, REFERENCES, variant=variant, aggregate="mean", use_aggregator=False)
        for variant in ("rouge_score", "rouge155")
    }
    printed = ngrameval.rouge(PREDICTIONS, REFERENCES, ["rouge1"], variant="rouge155").fmeasure["rouge1"]
    monkeypatch.setattr(type(family), "statistics_and_seen", halved)
    for variant, whole in expected.items():
        per_prediction = ngrameval.rouge(PREDICTIONS, REFERENCES, variant=variant, use_aggregator=False)
        assert per_prediction.fmeasure == {name: [f / 2 for f in scores] for name, scores in whole.fmeasure.items()}
        mean = ngrameval.rouge(PREDICTIONS, REFERENCES, variant=variant, aggregate="mean")
        assert mean.recall == {name: float(np.mean(scores) / 2) for name, scores in whole.recall.items()}
    halved_printed = ngrameval.rouge(PREDICTIONS, REFERENCES, ["rouge1"], variant="rouge155").fmeasure["rouge1"]
    assert halved_printed == pytest.approx(printed / 2, rel=1e-12, abs=0)


def test_statistics_scored_by_the_family_are_rouge_scores_means():
    """A seeded random search: the family's score of the statistics is the mean of rouge-score's F-measures."""
    rng = random.Random(25)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for _ in range(6):
        predictions, references = [], []
        for _ in range(rng.randrange(1, 12)):
            predictions.append(" ".join(rng.choices(WORDS, k=rng.randrange(0, 10))))
            references.append(" ".join(rng.choices(WORDS, k=rng.randrange(1, 10))))
        stem = rng.random() < 0.5
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        peer = [scorer.score(reference, prediction) for prediction, reference in zip(predictions, references)]
        stats = ngrameval.statistics(
            "rouge", predictions, references, rouge_types=types, use_stemmer=stem, tokenizer="rouge_score"
        )
        expected = [np.mean([scores[name].fmeasure for scores in peer]) for name in types]
        np.testing.assert_allclose(get_family("rouge").score(stats)[0], expected, rtol=0, atol=1e-12)
